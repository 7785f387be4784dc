#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Binaries a report cannot find at their path, named anyway: a program
# whose binary was deleted while it ran, and one in a mount namespace of
# its own (unshare -m, its binary on a private tmpfs at a path that is
# empty outside: a container), each recorded from outside with -p (and
# the container with -a). prof record copies such files into the build-id
# cache while they are mapped (PERF_BUILDID_DIR, the test's own); prof
# report names their frames from it, and says so. -N copies nothing, and
# the code is the file's unnamed code, its addresses offsets into the file.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event
shape=$WORKLOADS/shape

# leaves FILE: the share of shape's leaves among the user-space samples of
# a --sort sym report of FILE (under load the kernel's share grows: returns
# to user mode where the machine preempts), in percent
leaves() {
	awk '$1 ~ /%$/ && $3 == "[.]" { p = $1; sub("%", "", p); all += p
		if ($4 ~ /^leaf_[abc]$/) s += p }
		END { print (all > 0 ? 100 * s / all : 0) }' "$1"
}

# --- a binary deleted while it runs ----------------------------------------
mkfifo fifo || fail "cannot make a FIFO"
cp "$shape" ./app
./app -s 30 -r fifo &
apid=$!
bg_add $apid
wait_ready fifo
rm ./app
run_prof record -p $apid --duration 1 -o del.data
expect_rc 0 "prof record -p (a deleted binary)"
grep -q "^prof: 1 binaries .* copied to $PERF_BUILDID_DIR/.build-id" err ||
	fail "-p of a deleted binary: no line saying it was kept: $(cat err)"
run_prof report -i del.data --sort sym
expect_rc 0 "prof report of a deleted binary"
grep -q "app (deleted) is gone; its frames are named from $PERF_BUILDID_DIR/.build-id/" err ||
	fail "no line saying where the deleted binary's names came from: $(cat err)"
l=$(leaves out)
note "deleted binary: shape's leaves $l%"
expect_range "deleted binary: share of shape's leaves" "$l" 90 100.1
# -N: nothing kept, and no names (offsets into it)
rm -rf "$PERF_BUILDID_DIR"
run_prof record -N -p $apid --duration 0.5 -o del-n.data
expect_rc 0 "prof record -N -p"
grep -q "copied to" err && fail "-N still kept a binary: $(cat err)"
[ -e "$PERF_BUILDID_DIR/.build-id" ] && fail "-N still wrote the build-id cache"
run_prof report -i del-n.data --sort sym
expect_rc 0 "prof report of a deleted binary, not kept"
grep -q '\[\.\] ?? (app (deleted))$' out || fail "-N: the code is not the file's unnamed code: $(grep '%' out | head -3)"
run_prof report -i del-n.data --sort sym,srcline
expect_rc 0 "prof report --sort sym,srcline of a deleted binary, not kept"
grep -q '\[\.\] ?? (app (deleted)) *app (deleted)+0x' out ||
	fail "-N: its addresses are not offsets into the file: $(grep '%' out | head -3)"
kill -9 $apid
wait $apid 2> /dev/null

# --- -a: a program started during the recording ------------------------------------
# A system-wide recording asks the kernel for no build ids (evopen.c: it
# would flag every perf session's MMAP2 records on the host); prof reads
# the program's build id itself, into its MMAP2, and a perf recording made
# beside it stays readable. With the build id the report names the program
# from its file, and once the file is rebuilt, says so rather than name it
# from the other build.
want=$(readelf -n "$shape" | awk '/Build ID:/ { print $3 }')
[ -n "$want" ] || fail "shape has no build id (readelf -n)"
cp "$shape" ./late
"$PROF" record -a --duration 2 -o late.data > late.out 2> late.err &
rpid=$!
bg_add $rpid
sleep 0.5
./late -s 30 -w 1:0:0 > /dev/null &
lpid=$!
bg_add $lpid
if command -v perf > /dev/null 2>&1; then
	perf record -q -e cpu-clock -o beside.data -- "$shape" -s 0.3 > /dev/null 2> beside.err ||
		fail "perf record beside prof record -a: $(tail -n 3 beside.err)"
fi
wait $rpid || fail "prof record -a exited $?: $(cat late.err)"
kill -9 $lpid
run_prof script -i late.data
grep -q "^MMAP2 .*pid=$lpid .*prot=r-x buildid=$want file=$PWD/late\$" out ||
	fail "-a: the program's MMAP2 has not its build id $want: $(grep "^MMAP2 .*pid=$lpid .*late" out | head -2)"
run_prof report -i late.data --pid $lpid --sort sym
expect_rc 0 "prof report --pid of a program started during -a"
l=$(leaves out)
note "-a, started during the recording: its build id in MMAP2, leaves $l%"
expect_range "-a, started during the recording: share of shape's leaves" "$l" 90 100.1
rm ./late
cp "$WORKLOADS/inline" ./late
run_prof report -i late.data --pid $lpid --sort sym
expect_rc 0 "prof report --pid of a program rebuilt since"
grep -q "build id of $PWD/late differs from the recorded one" err ||
	fail "-a, rebuilt since: no warning of another build: $(cat err)"
grep -q 'leaf_a\|inl_leaf\|outer' out && fail "-a, rebuilt since: named from the other build: $(grep '%' out | head -3)"
if [ -e beside.data ]; then
	run_prof script -i beside.data
	n=$(grep -c '^MMAP2 .*buildid=' out)
	[ "$n" = 0 ] || fail "perf's MMAP2 records beside prof record -a carry the build-id flag: $(grep -m 1 '^MMAP2 .*buildid=' out)"
	command perf report -i beside.data --stdio > beside.txt 2> beside.err ||
		fail "perf report of a recording made beside prof record -a: $(tail -n 3 beside.err)"
	grep -q 'leaf_a' beside.txt || fail "perf report beside prof record -a names no leaf_a"
	note "perf record beside prof record -a: no MMAP2 flagged, perf report names leaf_a"
fi

# --- a binary in another mount namespace --------------------------------------
command -v unshare > /dev/null 2>&1 || skip "no unshare(1) (util-linux): containers not tested"
mkdir ns
rm -rf "$PERF_BUILDID_DIR"
unshare -m --propagation private sh -c "mount -t tmpfs prof-test '$PWD/ns' &&
	cp '$shape' '$PWD/ns/app' && exec '$PWD/ns/app' -s 30 -r '$PWD/fifo'" 2> unshare.err &
cpid=$!
bg_add $cpid
sleep 0.3
kill -0 $cpid 2> /dev/null || skip "unshare -m is refused here: $(cat unshare.err)"
wait_ready fifo
# unshare and sh exec the program, so it keeps their pid (no pgrep: procps
# is not on every machine)
npid=$cpid
[ "$(readlink "/proc/$npid/exe")" = "$PWD/ns/app" ] ||
	fail "pid $npid is not the program in its own mount namespace: $(readlink "/proc/$npid/exe")"
[ -e ns/app ] && fail "ns/app is visible outside its mount namespace: not a test of one"
run_prof record -p "$npid" --duration 1 -o ns.data
expect_rc 0 "prof record -p (another mount namespace)"
run_prof report -i ns.data --sort sym
expect_rc 0 "prof report of a binary in another mount namespace"
l=$(leaves out)
note "another mount namespace, -p: shape's leaves $l%"
expect_range "another mount namespace, -p: share of shape's leaves" "$l" 90 100.1
run_prof record -a --duration 1 -o ns-a.data
expect_rc 0 "prof record -a (a program in another mount namespace)"
run_prof report -i ns-a.data --pid "$npid" --sort sym
expect_rc 0 "prof report --pid (another mount namespace, -a)"
l=$(leaves out)
note "another mount namespace, -a: shape's leaves $l%"
expect_range "another mount namespace, -a: share of shape's leaves" "$l" 90 100.1
kill -9 "$npid" 2> /dev/null
exit 0
