#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As an unprivileged user: -a is refused with one line that names
# /proc/sys/kernel/perf_event_paranoid, its value and the fix; the user's
# own program is still profiled (user space only when kernel samples are
# forbidden); and -p of the user's own process whose binary was deleted
# keeps it by build id, though /proc/PID/map_files is root's only.
. "$srcdir/tests/test-subr.sh"

require_perf_event
[ "$(id -u)" = 0 ] || skip "needs root to run prof as another user"
command -v setpriv > /dev/null 2>&1 || skip "setpriv (util-linux) is missing"
id nobody > /dev/null 2>&1 || skip "there is no user 'nobody'"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$paranoid" -gt 0 ] || skip "perf_event_paranoid is $paranoid: unprivileged -a is allowed here"

# nobody needs a copy of prof it can run, and a directory it can write.
mkdir pub && chmod 755 . && chmod 777 pub
cp "$PROF" pub/prof && chmod 755 pub/prof
cp "$WORKLOADS/shape" pub/shape && chmod 755 pub/shape
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

as_nobody pub/prof record -a --duration 0.2 -o pub/a.data > out 2> err
rc=$?
expect_rc 1 "prof record -a as nobody"
one_error_line "prof record -a as nobody"
grep -q "/proc/sys/kernel/perf_event_paranoid is $paranoid" err ||
	fail "the message does not name perf_event_paranoid and its value: $(cat err)"
grep -q "sysctl kernel.perf_event_paranoid=0" err ||
	fail "the message does not give the fix: $(cat err)"

as_nobody pub/prof record -e cpu-clock -o pub/own.data -- pub/shape -s 0.5 > out 2> err
rc=$?
expect_rc 0 "prof record of nobody's own program"
if [ "$paranoid" -ge 2 ]; then
	grep -q "recording user space only" err ||
		fail "no notice that kernel samples were dropped: $(cat err)"
fi
script_of pub/own.data own.txt
n=$(count_lines '^SAMPLE' own.txt)
expect_range "samples of nobody's own program" "$n" 200 100000
# With kernel samples forbidden, no sample may carry a kernel address.
if [ "$paranoid" -ge 2 ]; then
	k=$(count_lines '^SAMPLE.* ip=0xffff' own.txt)
	[ "$k" = 0 ] || fail "$k kernel samples recorded though perf_event_paranoid is $paranoid"
fi
note "paranoid $paranoid: -a refused, own program $n samples"

# -p of nobody's own program, its binary deleted while it runs: without
# CAP_SYS_ADMIN /proc/PID/map_files cannot be read, so prof reads the file
# through /proc/PID/exe, after checking it is the mapped one.
cp "$WORKLOADS/shape" pub/app && chmod 755 pub/app
mkfifo pub/fifo && chmod 666 pub/fifo
# (setpriv itself, not the function: a function in the background is a
# subshell of root's, and $! would be its pid)
setpriv --reuid=nobody --regid=nogroup --clear-groups pub/app -s 30 -r pub/fifo &
apid=$!
bg_add $apid
wait_ready pub/fifo
rm pub/app
PERF_BUILDID_DIR=$tmpdir/pub/cache
export PERF_BUILDID_DIR
as_nobody pub/prof record -p $apid --duration 1 -o pub/del.data > out 2> err
rc=$?
expect_rc 0 "prof record -p of nobody's own deleted program"
grep -q "^prof: 1 binaries .* copied to $tmpdir/pub/cache/.build-id" err ||
	fail "nobody's deleted binary was not kept: $(cat err)"
run_prof report -i pub/del.data --sort sym
expect_rc 0 "prof report of nobody's deleted program"
l=$(awk '$1 ~ /%$/ && $4 ~ /^leaf_[abc]$/ { p = $1; sub("%", "", p); s += p } END { print s + 0 }' out)
note "nobody's deleted program, -p: shape's leaves $l%"
expect_range "nobody's deleted program: share of shape's leaves (a sum of rounded shares)" "$l" 90 100.5
kill -9 $apid 2> /dev/null
finish
