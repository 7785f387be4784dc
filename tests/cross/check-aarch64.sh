#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The aarch64 half of --call-graph dwarf, checked on an x86_64 machine:
# the whole tree cross-built for aarch64 with warnings as errors, then the
# unit tests that need neither perf_event_open nor threads run under
# qemu-aarch64: test-unwind captures aarch64 registers in a chain of
# functions and unwinds them with the aarch64 register tables of regs.c
# and unwind.c, as a sample from an aarch64 machine would be.
#   check-aarch64.sh SRCDIR [BUILDDIR]
# Exits 77, saying why, when the cross compiler, the arm64 libraries or
# qemu-aarch64 are missing (./install-deps.sh --aarch64 installs them).
# qemu-user 7.2 here hangs in pthread_create, so the tests that start
# threads (test-session, test-symbols) are left out.
set -u
src=$(cd "${1:?usage: check-aarch64.sh SRCDIR [BUILDDIR]}" && pwd)
dir=${2:-$PWD/_build-aarch64}
triplet=aarch64-linux-gnu
sysroot=/usr/$triplet
pc=/usr/lib/$triplet/pkgconfig

skip() {
	echo "check-aarch64: SKIP: $*"
	exit 77
}
command -v $triplet-gcc > /dev/null 2>&1 || skip "no $triplet-gcc (./install-deps.sh --aarch64)"
command -v qemu-aarch64 > /dev/null 2>&1 || skip "no qemu-aarch64 (./install-deps.sh --aarch64)"
[ -f "$pc/libdw.pc" ] && [ -f "$pc/libzstd.pc" ] && [ -f "$pc/libcurl.pc" ] ||
	skip "no arm64 libdw, libzstd or libcurl in $pc (./install-deps.sh --aarch64)"

rm -rf "$dir"
mkdir -p "$dir" && cd "$dir" || exit 1
# A tree configured in place cannot host another build: build from its
# distribution's files instead.
if [ -f "$src/config.status" ]; then
	make -C "$src" distdir distdir="$dir/src" > distdir.log 2>&1 || {
		echo "check-aarch64: FAIL: cannot copy the configured source tree:"
		tail -n 20 distdir.log
		exit 1
	}
	src=$dir/src
fi
if ! PKG_CONFIG_LIBDIR=$pc:/usr/share/pkgconfig "$src/configure" --host=$triplet \
	--enable-werror > build.log 2>&1 ||
	! make -j"$(nproc)" >> build.log 2>&1 ||
	! make -j"$(nproc)" tests/unit/test-unwind tests/unit/test-rw tests/unit/test-ring \
		tests/unit/test-opts >> build.log 2>&1; then
	echo "check-aarch64: FAIL: the aarch64 build failed:"
	tail -n 30 build.log
	exit 1
fi
machine=$($triplet-readelf -h prof | sed -n 's/^ *Machine: *//p')
case $machine in
*AArch64*) echo "check-aarch64: built prof for $machine" ;;
*) echo "check-aarch64: FAIL: prof was built for '$machine', not AArch64"; exit 1 ;;
esac

status=0
for t in test-unwind test-rw test-ring test-opts; do
	timeout 120 qemu-aarch64 -L $sysroot "tests/unit/$t" > "$t.log" 2>&1
	rc=$?
	pass=$(grep -c '^ok ' "$t.log")
	if [ $rc -ne 0 ] || grep -q '^not ok' "$t.log" || ! grep -q '^1\.\.[1-9]' "$t.log"; then
		echo "check-aarch64: FAIL: $t (exit $rc):"
		grep -v '^ok ' "$t.log" | tail -n 20
		status=1
	else
		echo "check-aarch64: PASS: $t ($pass checks)"
	fi
done
exit $status
