#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --call-graph dwarf: the unwind workload (-O2 -fomit-frame-pointer, its
# hot path in a shared library of its own) shows main;outer;unw_mid;
# unw_leaf in at least 90% of its samples, where frame pointers alone
# cannot get past the library (-g mends that from its 64 bytes of stack);
# CFI found only in a separate debug file's
# .debug_frame is used, and where there is no CFI at all the frame pointer
# is, its frames marked; signal frames are crossed; every thread and
# every child unwinds; the header
# says how many stacks are complete; perf agrees with the flat view and
# unwinds prof's file too.
. "$srcdir/tests/test-subr.sh"

need_recordings
[ -x "$WORKLOADS/unwind" ] || fail "no unwind workload at $WORKLOADS/unwind"
cpu_reset
record_or_replay unwind-d prof record -q --call-graph dwarf -e cpu-clock -o d.data -- "$WORKLOADS/unwind" -s 1
cpu_save d.data
if [ "$rc" = 64 ] && grep -q "does not unwind on this machine" err; then
	skip "prof record --call-graph dwarf: $(cat err)"
fi
expect_rc 0 "prof record --call-graph dwarf"

# full STACKS [MID]: the samples whose folded stack holds main;outer;MID;unw_leaf
# (MID is an awk regex)
# (a folded line is the stack, a space and the count: names may hold spaces, "?? (libc.so.6)")
full() { awk -v m="${2:-unw_mid}" '{ st = $0; sub(/ [0-9]+$/, "", st) }
	st ~ ("(^|;)main;outer;" m ";unw_leaf$") { s += $NF }
	END { print s + 0 }' "$1"; }
all() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { print b ? 100 * a / b : 0 }'; }
# leaves STACKS: the samples in unw_leaf, the workload's loop, whatever their chain
leaves() { awk '{ st = $0; sub(/ [0-9]+$/, "", st) } st ~ /;unw_leaf$/ { s += $NF }
	END { print s + 0 }' "$1"; }
# whole LABEL DATA MID [LOW HIGH]: DATA has the samples its workload's CPU
# time makes (expect_samples), and the share of its samples in unw_leaf
# whose stack holds main;outer;MID;unw_leaf is within LOW to HIGH percent
# (90 to 100). Only the loop's samples count: the ones before it (the
# dynamic loader, setup, a sanitizer's start) have no unw_mid, and on a
# loaded machine, where the loop gets little CPU, they may be many.
whole() {
	# shellcheck disable=SC2086
	run_prof report -i "$2" --format folded ${report_args:-}
	expect_rc 0 "prof report --format folded ($1)"
	n=$(all out) l=$(leaves out) f=$(full out "$3")
	note "$1: $f of $l samples in unw_leaf ($n in all) have the whole chain"
	cpu_load "$2"
	expect_samples "$1" "$n" 4000
	# (where chains should not be whole, the files may not even be found)
	[ "${4:-90}" -gt 0 ] && expect_range "$1: samples in unw_leaf" "$l" 1 "$n"
	expect_range "$1: share of unw_leaf's samples with the whole chain (%)" "$(pct $f $l)" \
		"${4:-90}" "${5:-100}"
}

whole dwarf d.data unw_mid

run_prof report -i d.data --sort sym
expect_rc 0 "prof report (dwarf)"
grep -q '^# stacks: ' out && fail "the flat view unwinds nothing, yet has a stacks line"
run_prof report -i d.data --children --sort sym
expect_rc 0 "prof report --children (dwarf)"
q=$(sed -n 's/^# stacks: *\([0-9.]*\)% complete (dwarf.*/\1/p' out)
note "header: $(grep '^# stacks:' out)"
expect_range "dwarf: the header's complete stacks (%)" "${q:-0}" 90 100

# The next two need the workload run from copies made here: not replayed.
if ! replaying; then
# CFI only in .debug_frame, and that only in the separate debug file
# libunwdbf.so.debug: with it the chain is whole, without it broken. A
# copy of the workload, so that its debug file can go.
mkdir dbf
cp "$WORKLOADS/unwind" "$WORKLOADS"/libunw*.so "$WORKLOADS/libunwdbf.so.debug" dbf/ ||
	fail "cannot copy the unwind workload"
cpu_reset
run_prof record -q --call-graph dwarf -e cpu-clock -o dbf.data -- dbf/unwind -s 1 -m debugframe
cpu_save dbf.data
expect_rc 0 "prof record --call-graph dwarf (unwind -m debugframe)"
whole debugframe dbf.data dbf_mid
rm dbf/libunwdbf.so.debug
whole "debugframe without libunwdbf.so.debug" dbf.data dbf_mid 0 10
# --symfs: the binaries moved under another root after recording. The
# unwinder reads the files the symbolizer does (it was handed the recorded
# path once, and 0.1% of stacks came out whole).
mkdir sym
cp "$WORKLOADS/unwind" "$WORKLOADS"/libunw*.so sym/ || fail "cannot copy the unwind workload"
cpu_reset
run_prof record -q --call-graph dwarf -e cpu-clock -o sym.data -- sym/unwind -s 1
cpu_save sym.data
expect_rc 0 "prof record --call-graph dwarf (sym/unwind)"
mkdir -p "root$PWD"
mv sym "root$PWD/" || fail "cannot move the workload under root/"
report_args="--symfs root" whole "--symfs, files moved" sym.data unw_mid
report_args="--symfs root --strict-symfs" whole "--strict-symfs" sym.data unw_mid
whole "files moved, no --symfs" sym.data unw_mid 0 10
fi
# header WHAT DATA PATTERN: the stacks line of DATA's -g caller report matches PATTERN
header() {
	run_prof report -i "$2" -g caller
	expect_rc 0 "prof report -g caller ($1)"
	h=$(grep '^# stacks:' out)
	note "$1 header: $h"
	printf '%s\n' "$h" | grep -Eq "$3" || fail "$1: the stacks line does not match '$3': $h"
}
# the stacks stop where the CFI is missing, and the header says so
if ! replaying; then
	header "debugframe without libunwdbf.so.debug" dbf.data \
		'WARNING: unwinding stopped most in libunwdbf\.so \([0-9]+%, no CFI\).*install their debug info'
else
	note "replaying: .debug_frame and moved files (run from copies) not checked"
fi

# No CFI at all for fp_mid: its frame pointer finds outer, marked [fp].
cpu_reset
record_or_replay unwind-fp prof record -q --call-graph dwarf -e cpu-clock -o fp.data -- "$WORKLOADS/unwind" -s 1 -m fp
cpu_save fp.data
expect_rc 0 "prof record --call-graph dwarf (unwind -m fp)"
whole fp fp.data fp_mid
run_prof script -S -i fp.data
expect_rc 0 "prof script -S (fp)"
m=$(awk 'BEGIN { RS = "" } /fp_mid\+/ { n++; if ($0 ~ /fp_mid\+[^\n]*\n[^\n]* outer\+[^\n]*\[fp\]\n/) m++ }
	END { printf "%d of %d\n", m, n }' out)
note "fp: outer marked [fp] below fp_mid in $m samples"
expect_range "fp: samples with outer marked [fp] (%)" "$(pct ${m% of*} ${m#*of })" 90 100
run_prof script -S -i d.data
expect_rc 0 "prof script -S (eh)"
m=$(awk 'BEGIN { RS = "" } { n++; if (/\[fp\]/) m++ } END { printf "%d of %d\n", m, n }' out)
note "eh: samples with a frame marked [fp]: $m"
expect_range "eh: samples with a frame marked [fp] (%)" "$(pct ${m% of*} ${m#*of })" 0 1
run_prof report -i fp.data -g caller
expect_rc 0 "prof report -g caller (fp)"
h=$(grep '^# stacks:' out)
note "fp header: $h"
case $h in
*"needed a frame pointer where no CFI was found"*) ;;
*) fail "fp: the header does not say frame pointers were needed: $h" ;;
esac

# Through a signal frame: sig_mid raises SIGUSR1, its handler calls
# unw_leaf; glibc's __restore_rt has CFI expressions (a CFA read from the
# signal frame), and the interrupted pc below it is exact.
cpu_reset
record_or_replay unwind-sig prof record -q --call-graph dwarf -e cpu-clock -o sig.data -- "$WORKLOADS/unwind" -s 1 -m signal
cpu_save sig.data
expect_rc 0 "prof record --call-graph dwarf (unwind -m signal)"
whole signal sig.data 'sig_mid;(.*;)?on_signal'

# Stack copies too small for the stack: the header says so, and what to do.
cpu_reset
record_or_replay unwind-small prof record -q --call-graph dwarf,64 -e cpu-clock -o small.data -- "$WORKLOADS/unwind" -s 1
cpu_save small.data
expect_rc 0 "prof record --call-graph dwarf,64"
header "dwarf,64" small.data \
	'^# stacks: +[0-9.]+% complete.*WARNING: unwinding stopped most in unwind \([0-9]+%, stack copy too small\).*bigger --call-graph dwarf,SIZE'

# Frame pointers alone cannot walk through the library; with the 64
# bytes of stack -g carries, the report walks the library's frameless
# frames by their CFI (unwind_leaf_returns).
cpu_reset
record_or_replay unwind-g prof record -q -g -e cpu-clock -o g.data -- "$WORKLOADS/unwind" -s 1
cpu_save g.data
expect_rc 0 "prof record -g"
whole -g g.data unw_mid 90 100

# Every thread, and the child of a fork and exec, unwind to their entry.
root='(^|;)(_start|__libc_start_main|__libc_start_call_main|clone3?|__clone3?|start_thread);'
# entries WORKLOAD FUNCTION...: in a dwarf recording of WORKLOAD, at least
# 90% of the samples in each FUNCTION have a stack from an entry point.
entries() {
	w=$1
	shift
	cpu_reset
	record_or_replay "unwind-$w" prof record -q --call-graph dwarf -e cpu-clock -o "$w.data" -- "$WORKLOADS/$w" -s 1
	cpu_save "$w.data"
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
	# shellcheck disable=SC2046  # symfs_opt is one word or none
	perf report $(perf_symfs_opt) -i d.data --stdio --no-children --sort comm,dso,sym -g none \
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
	# perf unwinds prof's file: the registers, stack copies and maps it needs are there.
	# shellcheck disable=SC2046
	perf script $(perf_symfs_opt) -i d.data -F ip,sym > perf.script 2> perf.err ||
		fail "perf script: $(tail -3 perf.err)"
	# of the samples in unw_leaf: a loaded machine's short recording (161
	# samples once, under ASan) has as many in the loader's start and the
	# clock, whose chains hold no unw_leaf, as in the workload
	w=$(awk 'BEGIN { RS = "" } /unw_leaf/ { n++; if (/unw_mid/ && /outer/ && /main/) w++ }
		END { printf "%d of %d\n", w, n }' perf.script)
	note "perf script unwinds prof's dwarf file: $w samples in unw_leaf have the whole chain"
	[ "${w#*of }" -ge 20 ] || fail "perf script: only ${w#*of } samples in unw_leaf"
	expect_range "perf script: share of whole chains (%)" "$(pct ${w% of*} ${w#*of })" 90 100
	# Stack copies are cut to what the kernel filled: this workload's stack
	# holds a few KiB, far from the 32 KiB each record had room for.
	perf report -D -i d.data 2> perf.err |
		sed -n 's/.*\[0x\([0-9a-f]*\)\]: PERF_RECORD_SAMPLE.*/\1/p' > sizes ||
		fail "perf report -D: $(tail -3 perf.err)"
	med=$(while read -r x; do printf '%d\n' "0x$x"; done < sizes | sort -n |
		awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
	note "median SAMPLE record of the dwarf file: $med bytes"
	expect_range "median SAMPLE record (bytes)" "$med" 200 16384
else
	note "no perf: the flat view is not compared"
fi
finish
