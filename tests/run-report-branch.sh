#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Branch stacks (record -b, -j; report -b; script brstack=), on a profile
# tests/golden/genprof writes (this machine has no PMU that records
# branches; no CI runner has one):
#   - report -b: each branch counted once, by command, source object and
#     function, target function and cycles: the rows of perf report -b on
#     the same file; --sort symbol_from,symbol_to,mispredict: the spec's
#     (perf 6.1 crashes on -b with --sort);
#   - a file with perf's BRANCH_STACK feature is reported by its branches
#     without -b (as perf does its own); --no-branch-stack: by its samples;
#   - script: each sample's branches, as perf script -F brstack prints them;
#   - record -b here: one line saying what -b needs, exit 1 (or, on a
#     machine with branch records, a file report -b reads);
#   - -b of a file without branch stacks: a warning; -j with a filter
#     perf does not know: one line, exit 64.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

G=$srcdir/tests/data/golden
gopts="--symfs $G --kallsyms $G/kallsyms"
B="$G/prof-golden/golden as /prof-golden/golden"
gen_spec br <<SPEC
feature branch_stack 1
event cpu-clock branch
comm 100 100 golden
mmap 100 0x401000 $B
sample 0 1.0 100 100 0 1000 x3 br=main+0x10>leaf_a/P/c5 br=leaf_a+0x20>mid+0x4/M/c7 br=mid+0x4>leaf_b leaf_a+0x10 main+0xf
sample 0 1.1 100 100 1 1000 x2 br=leaf_b+0x8>mid+0x10/P br=mid+0x10>main+0x4/M/c12 leaf_b+0x15 main+0xf
sample 0 1.2 100 100 0 1000 x4 br=main+0x10>leaf_a/P/c5 leaf_a+0x10 main+0xf
sample 0 1.3 100 100 1 1000 leaf_b+0x15 main+0xf
SPEC

# rows FILE: a report's rows (';'-separated by prof's json, or perf's -t), sorted
run_prof report -i br.data $gopts -b -F json
expect_rc 0 "prof report -b -F json"
jq -r '.events[0].flat[] | [(.self * 100 | round / 100 | tostring), (.samples | tostring), .comm, .dso_from, .symbol_from, .symbol_to, .cycles] | join(";")' out |
	sort > prof.rows
note "report -b: $(tr '\n' '/' < prof.rows)"
# 3 x 3 + 2 x 2 + 4 branches: main to leaf_a 7 of the 17
grep -qx '41.18;7;golden;golden;\[\.\] main;\[\.\] leaf_a;5' prof.rows || fail "report -b: no main -> leaf_a row of 7 of 17 branches"
[ "$(wc -l < prof.rows)" = 5 ] || fail "report -b: $(wc -l < prof.rows) rows, not 5"
if command -v perf > /dev/null 2>&1; then
	command perf report -i br.data --stdio --symfs "$G" -b -n -t ';' 2> perf.err |
		awk -F';' '!/^#/ && NF >= 7 { for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i)
			sub(/%$/, "", $1); printf "%s;%s;%s;%s;%s;%s;%s\n", $1 + 0, $2, $3, $4, $5, $6, $7 }' |
		sort > perf.rows
	cmp -s prof.rows perf.rows || fail "report -b differs from perf report -b: $(diff prof.rows perf.rows | tr '\n' ' ')"
	note "report -b: perf's rows"
fi
# (perf 6.1 ends by SIGSEGV on -b with --sort: the spec is the oracle here)
K=symbol_from,symbol_to,mispredict
run_prof report -i br.data $gopts -b --sort $K -F json
expect_rc 0 "prof report -b --sort $K"
jq -r '.events[0].flat[] | [(.samples | tostring), .symbol_from, .symbol_to, .mispredict] | join(";")' out |
	sort > prof.mis
sort > want.mis <<WANT
2;[.] leaf_b;[.] mid;N
2;[.] mid;[.] main;Y
3;[.] leaf_a;[.] mid;Y
3;[.] mid;[.] leaf_b;N/A
7;[.] main;[.] leaf_a;N
WANT
cmp -s prof.mis want.mis || fail "--sort $K: $(diff prof.mis want.mis | tr '\n' ' ')"

# --- the feature: branch mode unless told --------------------------------------------------
run_prof report -i br.data $gopts
expect_rc 0 "prof report of a file with branch stacks"
grep -q "^# Overhead  Samples  Command  Source Shared Object  Source Symbol  *Target Symbol  *Basic Block Cycles" out ||
	fail "a file with BRANCH_STACK is not reported by its branches: $(grep '^# Overhead' out)"
run_prof report -i br.data $gopts --no-branch-stack --sort sym
expect_rc 0 "prof report --no-branch-stack"
grep -q "^ *70\.00% *7 .*leaf_a" out || fail "--no-branch-stack: not the samples' rows: $(sed -n 9,14p out)"

# --- script ----------------------------------------------------------------------------------
run_prof script -i br.data
expect_rc 0 "prof script"
sed -n 's/^SAMPLE .* brstack=\([^ ]*\).*/\1/p' out | tr ',' ' ' > prof.br
[ "$(wc -l < prof.br)" = 9 ] || fail "script: $(wc -l < prof.br) samples with brstack=, not the 9 with branches"
if command -v perf > /dev/null 2>&1; then
	command perf script -i br.data -F brstack 2> perf.err |
		sed 's|/ *$||; s|/  *0x| 0x|g; s|^ *||' | grep '^0x' > perf.br
	cmp -s prof.br perf.br || fail "brstack differs from perf script's: $(diff prof.br perf.br | sed -n 1,4p | tr '\n' ' ')"
fi

# --- record, and mistakes ------------------------------------------------------------------
if perf_event_usable; then
	run_prof record -q -b -e cpu-clock -o rec.data -- "$WORKLOADS/calls" -n 10
	if [ "$rc" = 0 ]; then
		run_prof report -i rec.data -b
		expect_rc 0 "prof report -b of a recording with branch stacks"
		note "record -b: this machine records branches"
	else
		expect_rc 1 "prof record -b without branch records"
		one_error_line "record -b"
		grep -q "need a PMU that records branches" err || fail "record -b: $(cat err)"
		[ ! -s rec.data ] || fail "record -b left a file"
	fi
fi
run_prof record -q -j bogus -e cpu-clock -o x.data -- true
expect_rc 64 "record -j bogus"
one_error_line "record -j bogus"
golden_profile
run_prof report -i golden.data $gopts -b
expect_rc 0 "report -b of a file without branch stacks"
grep -q "has no branch stacks for -b: record with -b" err || fail "no warning: $(cat err)"
finish
