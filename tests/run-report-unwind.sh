#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --call-graph dwarf: the unwind workload (-O2 -fomit-frame-pointer, its
# hot path in a shared library of its own) shows main;outer;unw_mid;
# unw_leaf in at least 90% of its samples, where frame pointers (-g) cannot
# get past the library; every thread and every child unwinds; the header
# says how many stacks are complete; the flat view agrees with perf's.
test_timeout=120
. "$srcdir/tests/test-subr.sh"

require_perf_event
[ -x "$WORKLOADS/unwind" ] || fail "no unwind workload at $WORKLOADS/unwind"
run_prof record -q --call-graph dwarf -e cpu-clock -o d.data -- "$WORKLOADS/unwind" -s 1
if [ "$rc" = 64 ] && grep -q "does not unwind on this machine" err; then
	skip "prof record --call-graph dwarf: $(cat err)"
fi
expect_rc 0 "prof record --call-graph dwarf"

# full STACKS: the samples whose folded stack holds main;outer;unw_mid;unw_leaf
full() { awk '$1 ~ /(^|;)main;outer;unw_mid;unw_leaf$/ { s += $NF } END { print s + 0 }' "$1"; }
all() { awk '{ s += $NF } END { print s + 0 }' "$1"; }

run_prof report -i d.data --format folded
expect_rc 0 "prof report --format folded (dwarf)"
mv out d.folded
n=$(all d.folded) f=$(full d.folded)
note "dwarf: $f of $n samples have the whole chain"
[ "$n" -ge 1000 ] || fail "dwarf: only $n samples"
expect_range "dwarf: share of whole chains (%)" "$(awk -v f=$f -v n=$n 'BEGIN { print 100 * f / n }')" 90 100

run_prof report -i d.data --sort sym
expect_rc 0 "prof report (dwarf)"
grep -q '^# stacks: ' out && fail "the flat view unwinds nothing, yet has a stacks line"
run_prof report -i d.data --children --sort sym
expect_rc 0 "prof report --children (dwarf)"
q=$(sed -n 's/^# stacks: *\([0-9.]*\)% complete (dwarf.*/\1/p' out)
note "header: $(grep '^# stacks:' out)"
expect_range "dwarf: the header's complete stacks (%)" "${q:-0}" 90 100

# Frame pointers alone cannot walk through the library.
run_prof record -q -g -e cpu-clock -o g.data -- "$WORKLOADS/unwind" -s 1
expect_rc 0 "prof record -g"
run_prof report -i g.data --format folded
expect_rc 0 "prof report --format folded (-g)"
mv out g.folded
n=$(all g.folded) f=$(full g.folded)
note "-g: $f of $n samples have the whole chain"
expect_range "-g: share of whole chains (%)" "$(awk -v f=$f -v n=$n 'BEGIN { print 100 * f / n }')" 0 10

# Every thread, and the child of a fork and exec, unwind to their entry.
root='(^|;)(_start|__libc_start_main|__libc_start_call_main|clone3?|__clone3?|start_thread);'
# entries WORKLOAD FUNCTION...: in a dwarf recording of WORKLOAD, at least
# 90% of the samples in each FUNCTION have a stack from an entry point.
entries() {
	w=$1
	shift
	run_prof record -q --call-graph dwarf -e cpu-clock -o "$w.data" -- "$WORKLOADS/$w" -s 1
	expect_rc 0 "prof record --call-graph dwarf $w"
	run_prof report -i "$w.data" --format folded --no-comm
	expect_rc 0 "prof report --format folded ($w)"
	for fn in "$@"; do
		s=$(awk -v f="$fn" '$1 ~ (";" f "$") { s += $NF } END { print s + 0 }' out)
		r=$(awk -v f="$fn" -v re="$root" '$1 ~ (";" f "$") && $1 ~ re { s += $NF } END { print s + 0 }' out)
		note "$w: $r of $s samples in $fn reach an entry point"
		[ "$s" -ge 100 ] || fail "$w: only $s samples in $fn"
		expect_range "$w: $fn's complete stacks (%)" "$(awk -v r=$r -v s=$s 'BEGIN { print 100 * r / s }')" 90 100
	done
}
entries threads spin_a spin_b
entries forkexec parent_spin leaf_a

# The flat view agrees with perf report on the same file.
if command -v perf > /dev/null 2>&1; then
	run_prof report -i d.data --sort comm,dso,sym
	expect_rc 0 "prof report --sort comm,dso,sym"
	mv out prof.flat
	perf report -i d.data --stdio --no-children --sort comm,dso,sym -g none \
		> perf.flat 2> perf.err || fail "perf report: $(tail -3 perf.err)"
	odd=$(awk '
		/^#/ || $1 !~ /%$/ { next }
		{ p = $1; sub(/%$/, "", p); k = $(NF) }
		FILENAME == ARGV[1] { a[k] += p; next }
		{ b[k] += p }
		END { for (k in a) if (a[k] > 1 || b[k] > 1) { d = a[k] - b[k]; if (d < 0) d = -d;
			if (d > 0.5) printf "%s %.2f %.2f; ", k, a[k], b[k] } }' prof.flat perf.flat)
	[ -z "$odd" ] || fail "prof and perf flat views differ by more than 0.5 points: $odd"
	note "flat view agrees with perf report within 0.5 points"
else
	note "no perf: the flat view is not compared"
fi
finish
