#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report's off-CPU time is what the records say: a ping-pong of two
# threads over pipes (tests/workloads/offcpu -p) recorded with --off-cpu
# -g, whose switch-outs prof record folds into their context-switches
# samples (doc/FORMAT.md). Each thread's intervals from a switch-out to its
# next switch-in, read from prof script in time order, add up to the
# nanoseconds of the off-cpu and preempted events, blocked and preempted
# apart; and perf reads the file. Recorded here, or, where
# perf_event_open is refused, the committed recording offcpu-pp.
. "$srcdir/tests/test-subr.sh"

need_recordings
if ! replaying && [ "$(id -u)" != 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 ]; then
	skip "not root and perf_event_paranoid above 1: no context-switches samples to fold"
fi
record_or_replay offcpu-pp prof record -q --off-cpu -g -e cpu-clock -o pp.data -- \
	"$WORKLOADS/offcpu" -p -s 0.2
expect_rc 0 "prof record --off-cpu -g (ping-pong)"

run_prof script -i pp.data
expect_rc 0 "prof script"
cp out script.out
sw=$(grep -c -E '^(SWITCH|SWITCH_CPU_WIDE|SAMPLE) .* out=' script.out)
fo=$(grep -c '^SAMPLE .*event=context-switches.* out=' script.out)
ins=$(grep -c '^SWITCH.* in=1' script.out)
note "$sw switch-outs, $fo of them folded into their samples; $ins switch-ins"
[ "$sw" -ge 1000 ] || fail "only $sw switch-outs in the recording"
# all but those a drain split from their sample; and nothing else is marked
[ "$fo" -ge $((sw * 9 / 10)) ] || fail "only $fo of $sw switch-outs are folded into their samples"
grep -v 'event=context-switches' script.out | grep -q '^SAMPLE .* out=' &&
	fail "a sample of another event is marked as a switch-out: $(grep -v 'event=context-switches' script.out | grep -m1 '^SAMPLE .* out=')"

# the intervals, from the records in time order (prof script prints them
# ring after ring: a thread's switch-in may come before its switch-out)
grep -E '^(SAMPLE .*event=context-switches|SWITCH)' script.out | sort -s -t= -k2,2g | awk '
	/ out=/ { split($2, a, "="); split($5, b, "="); o[b[2]] = a[2]; p[b[2]] = / out=preempt/ }
	/ in=1/ { split($2, a, "="); split($5, b, "=")
		if (b[2] in o) { d = a[2] - o[b[2]]; if (d > 0) { if (p[b[2]]) P += d; else B += d } delete o[b[2]] } }
	END { printf "%.0f %.0f\n", B * 1e9, P * 1e9 }' > ivals
read -r bl pre < ivals
[ "${bl:-0}" -gt 0 ] || fail "no blocked intervals in the records"

run_prof report -i pp.data --event off-cpu -F json
expect_rc 0 "prof report --event off-cpu"
rb=$(jq '.events[0].period' out 2> /dev/null)
rp=0
if grep -q 'out=preempt' script.out; then
	run_prof report -i pp.data --event preempted -F json
	expect_rc 0 "prof report --event preempted"
	rp=$(jq '.events[0].period' out 2> /dev/null)
fi
note "off-cpu ${rb:-?} ns, preempted ${rp:-?} ns; the records' intervals: $bl and $pre"
# to a microsecond (awk's doubles hold the times to about that)
expect_range "off-cpu ns against the records' intervals" "${rb:-0}" $((bl - 1000)) $((bl + 1000))
expect_range "preempted ns against the records' intervals" "${rp:-0}" $((pre - 1000)) $((pre + 1000))

# --wall: the threads' blocked time is the same intervals'
run_prof report -i pp.data --wall -F json
expect_rc 0 "prof report --wall"
wb=$(jq '[.threads[].blocked] | add' out 2> /dev/null)
expect_range "--wall: the threads' blocked ns" "${wb:-0}" $((bl - 1000)) $((bl + 1000))

if command -v perf > /dev/null 2>&1; then
	perf report -i pp.data --stdio > perf.out 2> perf.err ||
		fail "perf report of the file: $(tail -3 perf.err)"
	grep -q "of event 'context-switches'" perf.out ||
		fail "perf report does not show the context-switches event: $(sed -n 1,20p perf.out)"
fi
exit 0
