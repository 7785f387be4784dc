#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The hardware path, for real: prof in an arm64 guest under QEMU's system
# emulation, whose emulated PMUv3 (armv8_pmuv3) counts exactly with
# -icount shift=0. Debian's arm64 kernel and busybox come from Debian's
# archive by `apt-get download` (nothing is installed), prof and the
# workloads from the aarch64 build (tests/cross/check-aarch64.sh), their
# libraries from the arm64 packages install-deps.sh --aarch64 installs.
# tests/cross/guest/tests.sh runs in the guest and prints TAP; each boot's
# lines are checked here.
#   check-guest.sh SRCDIR AARCH64-BUILDDIR [WORKDIR]
# Boots twice: with -M virt,virtualization=on, the kernel at EL2 with VHE
# (the host kernel at EL2), then with kvm-arm.mode=nvhe (the host kernel
# at EL1, KVM's hypervisor code alone at EL2).
# Exits 77, saying why, when QEMU, cpio or the archive is missing.
# For trying things by hand: GUEST_TESTS=FILE runs FILE in the guest
# instead of tests.sh, GUEST_BOOTS="vhe" boots only those hosts.
set -u
src=$(cd "${1:?usage: check-guest.sh SRCDIR AARCH64-BUILDDIR [WORKDIR]}" && pwd)
build=$(cd "${2:?usage: check-guest.sh SRCDIR AARCH64-BUILDDIR [WORKDIR]}" && pwd)
work=${3:-$build/guest}
triplet=aarch64-linux-gnu
cc=$triplet-gcc

skip() {
	echo "check-guest: SKIP: $*"
	exit 77
}
fail() {
	echo "check-guest: FAIL: $*"
	exit 1
}
command -v qemu-system-aarch64 > /dev/null 2>&1 ||
	skip "no qemu-system-aarch64 (./install-deps.sh --aarch64 installs qemu-system-arm)"
command -v cpio > /dev/null 2>&1 || skip "no cpio (./install-deps.sh --aarch64)"
command -v $cc > /dev/null 2>&1 || skip "no $cc (./install-deps.sh --aarch64)"
[ -x "$build/prof" ] || fail "no aarch64 prof in $build (make check-aarch64 builds it)"
make -C "$build" tests/workloads/shape tests/workloads/leaf tests/workloads/threads \
	> "$build/workloads.log" 2>&1 || fail "cannot build the aarch64 workloads: $(tail -n 5 "$build/workloads.log")"

rm -rf "$work/root"
mkdir -p "$work/debs" "$work/root" || exit 1
cd "$work" || exit 1

# --- the kernel and busybox, from Debian's archive ---------------------------------
# linux-image-arm64 names the kernel package of the day; apt-get download
# takes only packages of an architecture dpkg knows (install-deps.sh
# --aarch64 adds arm64).
kpkg=$(apt-cache depends linux-image-arm64:arm64 2> /dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\).*/\1/p' | head -n 1)
[ -n "$kpkg" ] || skip "apt knows no linux-image-arm64:arm64 (./install-deps.sh --aarch64 adds arm64 to apt)"
if ! ls debs/"$kpkg"_*.deb > /dev/null 2>&1 || ! ls debs/busybox-static_*.deb > /dev/null 2>&1; then
	rm -f debs/*.deb
	(cd debs && apt-get download "$kpkg:arm64" busybox-static:arm64) > debs.log 2>&1 ||
		skip "cannot download $kpkg and busybox-static for arm64: $(tail -n 1 debs.log)"
fi
rm -rf kernel busybox
dpkg -x debs/"$kpkg"_*.deb kernel && dpkg -x debs/busybox-static_*.deb busybox ||
	fail "cannot unpack the kernel or busybox"
vmlinuz=$(ls kernel/boot/vmlinuz-* | head -n 1)
[ -f "$vmlinuz" ] && [ -x busybox/bin/busybox ] || fail "no kernel image or busybox in the packages"

# --- the root: busybox, prof, the workloads and their libraries --------------------
r=$work/root
mkdir -p "$r/bin" "$r/w" "$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r/lib/$triplet" "$r/etc" || exit 1
cp busybox/bin/busybox "$r/bin/" || exit 1
cp "$build/prof" "$r/bin/" || exit 1
$triplet-strip "$r/bin/prof"
for w in shape leaf threads; do
	[ -x "$build/tests/workloads/$w" ] || fail "no aarch64 workload $w in $build"
	cp "$build/tests/workloads/$w" "$r/w/" || exit 1
	# their symbols and CFI stay: the reports read them
done
# programs of a known instruction count (loops.S)
build_loop() {
	name=$1
	shift
	$cc -nostdlib -static -o "$r/w/$name" "$@" "$src/tests/cross/guest/loops.S" ||
		fail "cannot build $name"
}
build_loop userloop -DTURNS=2000000
build_loop userloop8m -DTURNS=8000000
build_loop sysloop -DTURNS=200000 -DSYSCALL
# the smallest KVM virtual machine, for exclude_host and exclude_guest
$cc -O2 -static -o "$r/w/kvmloop" "$src/tests/cross/guest/kvmloop.c" || fail "cannot build kvmloop"
cp "${GUEST_TESTS:-$src/tests/cross/guest/tests.sh}" "$r/tests.sh" || exit 1

# the libraries the programs need, and theirs, from the arm64 packages
libdirs="/lib/$triplet /usr/lib/$triplet"
needed() {
	$triplet-readelf -d "$1" 2> /dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}
todo=$(for f in "$r"/bin/prof "$r"/w/*; do needed "$f"; done | sort -u)
done_libs=
while [ -n "$todo" ]; do
	next=
	for lib in $todo; do
		case " $done_libs " in *" $lib "*) continue ;; esac
		done_libs="$done_libs $lib"
		found=
		for d in $libdirs; do
			if [ -f "$d/$lib" ]; then
				found=$d/$lib
				break
			fi
		done
		[ -n "$found" ] || fail "no arm64 $lib in $libdirs (./install-deps.sh --aarch64)"
		cp -L "$found" "$r/lib/$triplet/$lib" || exit 1
		next="$next $(needed "$found")"
	done
	todo=$next
done
ln -s "$triplet/ld-linux-aarch64.so.1" "$r/lib/ld-linux-aarch64.so.1"
echo "root:x:0:0:root:/:/bin/sh" > "$r/etc/passwd"

cat > "$r/init" << 'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tracefs tracefs /sys/kernel/tracing 2> /dev/null
export PATH=/bin HOME=/tmp
cd /tmp && sh /tests.sh
echo "guest: done, exit $?"
poweroff -f
EOF
chmod +x "$r/init"
(cd "$r" && find . | cpio -o -H newc 2> /dev/null | gzip -1) > initrd.gz ||
	fail "cannot pack the root"

# --- the boots -----------------------------------------------------------------------
# -icount shift=0: an instruction a nanosecond, so that cycles are
# instructions and counts repeat run to run; one CPU.
status=0
boot() {
	name=$1
	append=$2
	echo "check-guest: booting the $name host ($(qemu-system-aarch64 --version | head -n 1))"
	# the guard against a hang; a loaded machine takes longer, never this long
	timeout 1800 qemu-system-aarch64 -M virt,virtualization=on -cpu max -m 1536 -smp 1 \
		-nographic -no-reboot -nic none -icount shift=0 \
		-kernel "$vmlinuz" -initrd initrd.gz \
		-append "console=ttyAMA0 panic=-1 quiet $append" < /dev/null > "$name.log" 2>&1
	rc=$?
	tr -d '\r' < "$name.log" > "$name.out"
	pass=$(grep -c '^ok ' "$name.out")
	if [ $rc -ne 0 ] || ! grep -q '^guest: done, exit 0$' "$name.out" ||
		grep -q '^not ok' "$name.out" || [ "$pass" -eq 0 ]; then
		echo "check-guest: FAIL: the $name host (qemu exit $rc):"
		grep -v '^ok ' "$name.out" | tail -n 40
		status=1
	else
		grep '^# ' "$name.out" | sed "s/^# /check-guest: $name: /"
		echo "check-guest: PASS: the $name host ($pass checks)"
	fi
}
for b in ${GUEST_BOOTS:-vhe nvhe}; do
	case $b in
	vhe) boot vhe "" ;;
	nvhe) boot nvhe "kvm-arm.mode=nvhe" ;;
	*) fail "GUEST_BOOTS: '$b' is not vhe or nvhe" ;;
	esac
done
exit $status
