#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Kernel JIT code by name: KSYMBOL and BPF_EVENT records, which prof
# record asks for as perf does. tests/workloads/bpfloop loads a BPF
# program of its own, prof_loop, and runs it in the kernel; it is gone
# from /proc/kallsyms by the time the report runs:
#   - prof report names its samples bpf_prog_TAG_prof_loop, the object and
#     the function, with the share perf report gives the row on the file;
#   - prof script shows the KSYMBOL and BPF_EVENT records, with its tag;
#   - with --no-bpf-event there are none, and the samples are the kernel's
#     ?? (no name of the kernel's proper is stretched over them).
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

B=$WORKLOADS/bpfloop
[ -x "$B" ] || fail "no $B (make check builds it)"
"$B" -n 1 > probe.out 2>&1
rc=$?
[ "$rc" = 77 ] && skip "no BPF program can be loaded here: $(cat probe.out)"
[ "$rc" = 0 ] || fail "bpfloop -n 1: exit $rc: $(cat probe.out)"

run_prof record -q -e cpu-clock -o b.data -- "$B" -n 1000000
expect_rc 0 "prof record -- bpfloop"
tag=$(sed -n 's/^bpfloop: prog_tag \([0-9a-f]*\) .*/\1/p' out)
[ -n "$tag" ] || fail "bpfloop said no tag: $(cat out)"
name=bpf_prog_${tag}_prof_loop
run_prof report -i b.data --sort dso,sym
expect_rc 0 "prof report --sort dso,sym"
row=$(awk -v n="$name" '$1 ~ /%$/ && $3 == n && $NF == n { print $1 }' out)
note "the program $name: ${row:-no row}; $(grep -v '^#' out | sed -n 1p)"
[ -n "$row" ] || fail "no row of $name: $(sed -n 1,14p out)"
expect_range "$name's share" "${row%\%}" 20 100
if command -v perf > /dev/null 2>&1; then
	command perf report -i b.data --stdio --sort dso,sym > perf.out 2> perf.err
	prow=$(awk -v n="$name" '$1 ~ /%$/ && $NF == n { print $1 }' perf.out)
	note "perf report: ${prow:-no row}"
	# perf names the program by the same records; where it names it (it
	# once did not, in a CI run with other tests beside it), the shares agree
	if [ -n "$prow" ]; then
		[ "$row" = "$prow" ] || fail "$name: prof $row, perf $prow"
	else
		note "perf report did not name $name: $(grep -v '^#' perf.out | grep -m 3 '%' | tr '\n' ';')"
	fi
fi
run_prof script -i b.data
grep -q "^KSYMBOL .* type=1 name=$name\$" out || fail "no KSYMBOL record of $name: $(grep '^KSYMBOL' out | sed -n 1,3p)"
grep -q "^BPF_EVENT .* tag=$tag\$" out || fail "no BPF_EVENT record of tag $tag: $(grep '^BPF_EVENT' out | sed -n 1,3p)"

run_prof record -q --no-bpf-event -e cpu-clock -o n.data -- "$B" -n 1000000
expect_rc 0 "prof record --no-bpf-event"
run_prof script -i n.data
[ "$(grep -c '^KSYMBOL\|^BPF_EVENT' out)" = 0 ] || fail "--no-bpf-event: KSYMBOL or BPF_EVENT records written"
run_prof report -i n.data --sort sym
top=$(awk '$1 ~ /%$/ { print $3, $4, $5; exit }' out)
note "--no-bpf-event: the top row is $top"
case $top in
"[k] ?? ([kernel.kallsyms])"|"[k] bpf_prog_"*) ;;	# unnamed, or kallsyms still lists it
*) fail "--no-bpf-event: the program's samples are named '$top'" ;;
esac
