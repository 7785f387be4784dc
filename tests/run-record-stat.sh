#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# record -s (inherit_stat): the kernel writes each inherited counter's
# count in a READ record when its thread exits; report -T prints a row a
# thread. On tests/workloads/threads (two threads that spin), of
# page-faults with a sample a fault:
#   - each thread's count (a READ record a thread the kernel writes one
#     for: as for perf, not every thread) is exactly its samples, the
#     kernel's count against the kernel's samples (a timer's event, such
#     as task-clock, would drift from its samples as a loaded machine
#     fires its timers late);
#   - report -T's rows are perf report -T's on the same file;
#   - script prints every READ record, as many as perf's dump;
#   - -T of a file without them: a warning; -T with -F json: one line, 64.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

run_prof record -q -s -e page-faults -c 1 -o s.data -- "$WORKLOADS/threads" -s 0.3
expect_rc 0 "prof record -s"
run_prof report -i s.data -T --sort tid
expect_rc 0 "prof report -T"
awk '/^#   PID    TID  page-faults$/ { on = 1; next } on && NF == 3 { print $2, $3 }' out | sort > counts
note "-T: $(tr '\n' ';' < counts)"
[ -s counts ] || fail "-T: no rows of thread counts: $(tail -6 out)"
run_prof report -i s.data --sort tid -F json
expect_rc 0 "prof report --sort tid -F json"
jq -r '.events[0].flat[] | "\(.tid) \(.samples)"' out > samples
l=$(jq -r '.lost' out)
while read -r tid count; do
	n=$(awk -v t="$tid" '$1 == t { print $2 }' samples)
	note "thread $tid: counted $count faults, sampled ${n:-0}"
	[ "$l" != 0 ] && continue
	[ "$count" = "${n:-0}" ] || fail "thread $tid: its count $count is not its ${n:-0} samples"
done < counts
if command -v perf > /dev/null 2>&1; then
	command perf report -i s.data -T --stdio 2> perf.err |
		awk '/^# +PID +TID +page-faults/ { on = 1; next } on && NF == 3 && $1 ~ /^[0-9]+$/ { print $2, $3 }' |
		sort > perf.counts
	cmp -s counts perf.counts || fail "-T differs from perf report -T: $(diff counts perf.counts | tr '\n' ' ')"
	note "report -T: the rows of perf report -T"
fi

# --- script -------------------------------------------------------------------------
run_prof script -i s.data
expect_rc 0 "prof script"
n=$(grep -c '^READ .* pid=[0-9]* tid=[0-9]* read=[0-9]*:[0-9]* enabled=[0-9]* running=[0-9]*$' out)
[ "$n" -ge 2 ] || fail "prof script: $n READ records: $(grep '^READ' out | sed -n 1,3p)"
if command -v perf > /dev/null 2>&1; then
	m=$(command perf script -i s.data -D 2> perf.err | grep -c 'PERF_RECORD_READ')
	note "READ records: prof script $n, perf's dump $m"
	[ "$n" = "$m" ] || fail "prof script prints $n READ records, perf $m"
fi

# --- mistakes -------------------------------------------------------------------------
golden_profile
run_prof report -i golden.data $gopts -T
expect_rc 0 "prof report -T of a file without thread counts"
grep -q "has no thread counts for -T: record the command with -s" err || fail "no warning: $(cat err)"
run_prof report -i s.data -T -F json
expect_rc 64 "prof report -T -F json"
one_error_line "-T -F json"
finish
