#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Groups in prof record: -e '{cpu-clock,task-clock,page-faults}:S' on
# shape, the leader sampling, each of its samples reading the others'
# counts (PERF_SAMPLE_READ, PERF_FORMAT_GROUP):
#   - prof report --group: a column of each event's shares, the same
#     table perf report --group makes of the file, row for row;
#   - every event's own report as perf's, each sample a count's delta;
#   - as perf, the file's groups (GROUP_DESC) make --group the default;
#     --no-group shows each event apart;
#   - prof script: each sample's read= holds the three counts, each
#     growing, as perf script reads them;
#   - a group without :S: each event samples on its own;
#   - --group with another format, or with -g: one line, exit 64.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

shape=$WORKLOADS/shape
[ -x "$shape" ] || fail "no $shape (make check builds it)"

run_prof record -q -e '{cpu-clock,task-clock,page-faults}:S' -o g.data -- "$shape" -s 0.5
expect_rc 0 "prof record -e {cpu-clock,task-clock,page-faults}:S"

# The vDSO's code (a CI run's page fault there was 11% of page-faults):
# both name its functions (__vdso_clock_gettime) from the image prof record
# kept; of its unnamed code (a clock source's static reader) prof makes one
# row, "?? ([vdso])", perf a row an address ("0x00000000000007bd"):
# those rows are left out on both sides (run-record-vdso.sh checks the vDSO).
# So are the PLT's entries (a first call's page fault binds it: 11% of
# page-faults on a CI run): perf 6.1 names each by its neighbour's
# relocation ("@plt" for glibc's __tunable_get_val@plt), perf 6.12 and
# prof as objdump does (run-report-plt.sh checks them).
comparable() {
	grep -v -E '^(\(\[vdso\]\)|0x[0-9a-f]+|[^ ]*@plt) ' | sort
}
# rows OUT: "symbol pct pct pct" of a --group table, rows of 1% and more of the first column
rows() {
	awk '$1 ~ /%$/ && $2 ~ /%$/ && $3 ~ /%$/ { v = $1; sub(/%/, "", v); if (v + 0 >= 1) print $NF, $1, $2, $3 }' "$1" | comparable
}
run_prof report -i g.data --group --sort sym --no-inline
expect_rc 0 "prof report --group"
grep -q '^# group: *cpu-clock, task-clock, page-faults' out || fail "no group line: $(sed -n 1,12p out)"
rows out > prof.rows
note "prof --group: $(tr '\n' ';' < prof.rows)"
[ "$(grep -c '^leaf_[abc] ' prof.rows)" = 3 ] || fail "--group: the leaves are not rows: $(cat out)"
if command -v perf > /dev/null 2>&1; then
	command perf report -i g.data --stdio --group --sort sym > perf.out 2> perf.err
	prc=$?
	if [ "$prc" -gt 128 ]; then
		# perf 6.1's own crash (a CI run: SIGSEGV) says nothing of the file
		note "perf report --group died of signal $((prc - 128)): its table not compared"
	else
		[ "$prc" = 0 ] || fail "perf report --group exited $prc: $(sed -n 1,3p perf.err)"
		rows perf.out > perf.rows
		cmp -s prof.rows perf.rows || fail "--group differs from perf's: $(diff prof.rows perf.rows | tr '\n' ' ')"
	fi
	# each event alone, as perf shows it
	for ev in task-clock page-faults; do
		run_prof report -i g.data --event $ev --sort sym --no-inline
		awk '$1 ~ /%$/ { v = $1; sub(/%/, "", v); if (v + 0 >= 1) print $NF, $1 }' out | comparable > p1
		command perf report -i g.data --stdio --no-group --sort sym > perf1.out 2> /dev/null
		prc=$?
		if [ "$prc" -gt 128 ]; then
			# the same crash of perf's, on the same file (a CI run: SIGSEGV)
			note "perf report --no-group died of signal $((prc - 128)): $ev not compared"
			continue
		fi
		awk -v e="'$ev'" '/^# Samples:/ { on = index($0, e) > 0 } on && $1 ~ /%$/ { v = $1; sub(/%/, "", v); if (v + 0 >= 1) print $NF, $1 }' perf1.out | comparable > p2
		cmp -s p1 p2 || fail "--event $ev differs from perf's: $(diff p1 p2 | tr '\n' ' ')"
	done
fi

# as perf: a file that names groups is shown side by side without --group
run_prof report -i g.data --sort sym --no-inline
rows out > default.rows
cmp -s default.rows prof.rows || fail "the default view of a file with groups is not --group's: $(diff default.rows prof.rows | tr '\n' ' ')"
run_prof report -i g.data --sort sym --no-group
[ "$(grep -c '^# event:' out)" = 3 ] || fail "--no-group: not each event apart: $(grep '^# event' out | tr '\n' ' ')"

# --- prof script: the counts read ------------------------------------------------
run_prof script -i g.data
expect_rc 0 "prof script"
n=$(grep -c '^SAMPLE' out)
r=$(grep -c '^SAMPLE .* read=[0-9]*:[0-9]*,[0-9]*:[0-9]*,[0-9]*:[0-9]*' out)
note "script: $r of $n samples read their group's three counts"
[ "$n" -gt 0 ] && [ "$r" = "$n" ] || fail "script: $r of $n samples with read="
# each count only grows, per id
sed -n 's/^SAMPLE .* read=\([0-9:,]*\).*/\1/p' out | tr ',' '\n' |
	awk -F: '$1 in last && $2 + 0 < last[$1] { bad++ } { last[$1] = $2 + 0 } END { exit bad > 0 }' ||
	fail "script: a count read went down"

# --- a group without :S: each samples ------------------------------------------------
run_prof record -q -e '{cpu-clock,task-clock}' -o g2.data -- "$shape" -s 0.3
expect_rc 0 "prof record -e {cpu-clock,task-clock}"
run_prof report -i g2.data --group --sort sym
expect_rc 0 "prof report --group of a group without :S"
a=$(awk '$NF == "leaf_a" && $1 ~ /%$/ { sub(/%/, "", $1); sub(/%/, "", $2); print $1, $2 }' out)
note "without :S: leaf_a $a"
set -- $a
expect_range "leaf_a's cpu-clock share" "${1:-0}" 40 80
expect_range "leaf_a's task-clock share" "${2:-0}" 40 80

# --- mistakes ------------------------------------------------------------------------------
run_prof report -i g.data --group -F json
expect_rc 64 "--group -F json"
one_error_line "--group -F json"
run_prof report -i g.data --group -g caller
expect_rc 64 "--group -g caller"
one_error_line "--group -g caller"
