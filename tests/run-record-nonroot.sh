#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As an unprivileged user: -a is refused with one line that names
# /proc/sys/kernel/perf_event_paranoid, its value and the fix; the user's
# own program is still profiled (user space only when kernel samples are
# forbidden).
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
