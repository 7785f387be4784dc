#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Data addresses: prof record -d and perf's memory keys in prof report,
# on tests/workloads/calls, which writes once to each of 100 pages of its
# static array arena (.bss) and of 50 pages of an anonymous mapping:
#   - -e page-faults:u -c 1 -d: prof report --sort dso_daddr gives the
#     rows perf report --mem-mode --sort dso_daddr gives on the same file,
#     sample for sample (perf's "anon" is prof's "//anon");
#   - --sort symbol_daddr names arena for the pages the program faulted
#     in (99 or 100: the loader may touch the first), though the kernel
#     maps that bss apart from the file, as anonymous memory;
#   - prof script shows each sample's addr=, the addresses perf script
#     reads; -W, --data-src, --phys-data and --data-page-size as perf
#     script reads them;
#   - --sort phys_daddr,data_page_size,code_page_size: perf's rows;
#   - -I: each sample's registers where it was taken, as perf script reads them;
#   - -p: the data maps of a running process are synthesized (prot rw-).
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

W=$WORKLOADS/calls
[ -x "$W" ] || fail "no $W (make check builds it)"

# rows FILE: "name count" of a prof report's rows (Overhead Samples Name)
rows() {
	awk '$1 ~ /%$/ { n = $NF; c = $2; print n, c }' "$1" | sort
}

run_prof record -q -e page-faults:u -c 1 -d -o pf.data -- "$W" -t 100 -h 50 -m 100
expect_rc 0 "prof record -e page-faults:u -c 1 -d"
run_prof report -i pf.data --sort dso_daddr
expect_rc 0 "prof report --sort dso_daddr"
grep -q "^# Overhead  Samples  Data Object" out || fail "no Data Object column: $(sed -n 1,12p out)"
rows out > prof.rows
l=$(sed -n 's/^# lost: *\([0-9]*\) records.*/\1/p' out)
[ "${l:-0}" = 0 ] || skip "records lost on a loaded machine: $l; the rows cannot be compared"
note "prof: $(tr '\n' ' ' < prof.rows)"
if command -v perf > /dev/null 2>&1; then
	command perf report -i pf.data --stdio --mem-mode -n --sort dso_daddr > perf.out 2> perf.err ||
		fail "perf report --mem-mode: $(sed -n 1,3p perf.err)"
	awk '$1 ~ /%$/ { n = $NF; if (n == "anon") n = "//anon"; print n, $2 }' perf.out | sort > perf.rows
	note "perf: $(tr '\n' ' ' < perf.rows)"
	cmp -s prof.rows perf.rows ||
		fail "prof's data objects differ from perf's: $(diff prof.rows perf.rows | tr '\n' ' ')"
fi
an=$(awk '$1 == "//anon" { print $2 }' prof.rows)
[ "${an:-0}" -ge 149 ] || fail "//anon holds ${an:-no} samples: the program wrote 150 pages of it"

# --- the data objects: arena by name --------------------------------------------
run_prof report -i pf.data --sort dso_daddr,symbol_daddr
expect_rc 0 "prof report --sort dso_daddr,symbol_daddr"
ar=$(awk '$1 ~ /%$/ && $NF == "arena" { n += $2 } END { print n + 0 }' out)
note "symbol_daddr: arena in $ar samples: $(grep -m 1 ' arena$' out)"
[ "$ar" -ge 99 ] && [ "$ar" -le 100 ] || fail "arena holds $ar of the samples, not 99 or 100: $(sed -n 1,20p out)"
grep -q "^ *[0-9.]*% *[0-9]* *libc.so.6  *[A-Za-z_]" out ||
	fail "no libc data object or function named: $(grep libc out | sed -n 1,5p)"

# --- prof script: addr= as perf script reads it --------------------------------------
run_prof script -i pf.data
expect_rc 0 "prof script"
# (sorted: prof script prints in file order, perf script in time order,
# and a thread's samples in two CPUs' rings are in neither's order)
sed -n 's/^SAMPLE .* addr=\(0x[0-9a-f]*\).*/\1/p' out | sort > prof.addr
n=$(grep -c '^SAMPLE' out)
[ "$n" -gt 0 ] && [ "$(wc -l < prof.addr)" = "$n" ] || fail "prof script: $(wc -l < prof.addr) addr= of $n samples"
if command -v perf > /dev/null 2>&1; then
	command perf script -i pf.data -F addr 2> perf.err | awk '{ printf "0x%s\n", $1 }' | sort > perf.addr
	cmp -s prof.addr perf.addr || fail "prof script's addresses differ from perf script's: $(diff prof.addr perf.addr | sed -n 1,4p | tr '\n' ' ')"
fi

# --- -W, --data-src, --phys-data, --data-page-size -------------------------------------
run_prof record -q -e page-faults:u -c 1 -d -W --data-src --phys-data --data-page-size \
	--code-page-size -o more.data -- "$W" -t 10
expect_rc 0 "prof record -W --data-src --phys-data --data-page-size --code-page-size"
run_prof script -i more.data
expect_rc 0 "prof script of more.data"
grep -m 1 '^SAMPLE' out > first.sample
grep -q ' addr=0x[0-9a-f]* weight=[0-9]* data_src=0x[0-9a-f]*(.*) phys_addr=0x[0-9a-f]* data_page_size=[0-9]* code_page_size=[0-9]*$' first.sample ||
	fail "prof script of -W --data-src ...: $(cat first.sample)"
note "$(cat first.sample)"
if command -v perf > /dev/null 2>&1; then
	sed -n 's/^SAMPLE .* data_page_size=\([0-9]*\) code_page_size=\([0-9]*\)$/\1 \2/p' out > prof.sizes
	command perf script -i more.data -F data_page_size,code_page_size 2> perf.err |
		awk '{ print s($1), s($2) } function s(v) { if (v == "N/A") return 0; m = 1
			if (v ~ /K$/) m = 1024; if (v ~ /M$/) m = 1048576; if (v ~ /G$/) m = 1073741824
			sub(/[KMG]$/, "", v); return v * m }' > perf.sizes
	cmp -s prof.sizes perf.sizes || fail "page sizes differ from perf script's: $(diff prof.sizes perf.sizes | sed -n 1,4p | tr '\n' ' ')"
fi
# the report's keys of them: the rows perf report --mem-mode gives
K=phys_daddr,data_page_size,code_page_size
run_prof report -i more.data --mem-mode --sort $K -F json
expect_rc 0 "prof report --sort $K"
jq -r '.events[0].flat[] | "\(.samples) \(.phys_daddr) \(.data_page_size) \(.code_page_size)"' out |
	sort > prof.keys
grep -q ' \[\.\] 0x[0-9a-f]\{16\} 4K 4K$' prof.keys || fail "--sort $K: no row of a 4K page at a physical address: $(sed -n 1,3p prof.keys)"
if command -v perf > /dev/null 2>&1; then
	command perf report -i more.data --stdio --mem-mode -n --sort $K -t ';' 2> perf.err |
		awk -F';' '!/^#/ && NF >= 5 { for (i = 2; i <= 5; i++) gsub(/^ +| +$/, "", $i); print $2, $3, $4, $5 }' |
		sort > perf.keys
	cmp -s prof.keys perf.keys || fail "--sort $K differs from perf's: $(diff prof.keys perf.keys | sed -n 1,4p | tr '\n' ' ')"
	note "--sort $K: $(wc -l < prof.keys) rows, perf's"
fi

# --- -I: the registers where each sample was taken, as perf script reads them ------------
run_prof record -q -I -e cpu-clock -o ir.data -- "$WORKLOADS/shape" -s 0.2
expect_rc 0 "prof record -I"
run_prof script -i ir.data
sed -n 's/^SAMPLE .* iregs=\([^ ]*\).*/\1/p' out > prof.iregs
n=$(grep -c '^SAMPLE' out)
[ "$n" -gt 0 ] && [ "$(wc -l < prof.iregs)" = "$n" ] || fail "-I: $(wc -l < prof.iregs) of $n samples with iregs="
grep -q '^AX:0x[0-9a-f]*,BX:' prof.iregs || grep -q '^x0:0x' prof.iregs ||
	fail "-I: the registers are not named: $(sed -n 1p prof.iregs)"
if command -v perf > /dev/null 2>&1; then
	command perf script -i ir.data -F iregs 2> perf.err |
		awk '{ s = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[A-Za-z0-9]+:0x/) s = s (s ? "," : "") $i; print s }' > perf.iregs
	# perf once printed nothing of a file (24 samples, in a sanitizer run
	# at load): said, with what it said, not taken for a difference
	if [ ! -s perf.iregs ]; then
		note "-I: perf script printed no samples ($n in prof script): $(sed -n 1,3p perf.err | tr '\n' ' ')"
	else
		# perf script prints the samples in time order, prof script in the file's (a CPU's
		# ring after another's): the same samples, each with its registers
		sort prof.iregs > prof.sorted
		sort perf.iregs > perf.sorted
		cmp -s prof.sorted perf.sorted ||
			fail "-I: the registers differ from perf script's: $(diff prof.sorted perf.sorted | sed -n 1,3p | tr '\n' ' ')"
	fi
fi

# a file without data addresses: the key says so, once
run_prof report -i ir.data --sort dso_daddr
expect_rc 0 "prof report --sort dso_daddr of a file without -d"
grep -q "^prof: warning: 'ir.data': no sample has a data address for --sort dso_daddr; record with -d$" err ||
	fail "--sort dso_daddr without -d: $(cat err)"

# --- -p: a running process's data maps, synthesized --------------------------------------
mkfifo fifo || fail "cannot make a FIFO"
"$WORKLOADS/shape" -s 600 -r fifo > /dev/null &
sp=$!
bg_add $sp
wait_ready fifo
run_prof record -q -d -e page-faults -p $sp --duration 0.2 -o p.data
expect_rc 0 "prof record -d -p"
kill $sp
run_prof script -i p.data
grep -q "^MMAP2 .* pid=$sp .* prot=rw-.* file=\[stack\]" out ||
	fail "-d -p: no data map of the stack synthesized: $(grep '^MMAP2' out | sed -n 1,5p)"
grep -q "^MMAP2 .* pid=$sp .* prot=r-x.* file=.*shape" out ||
	fail "-d -p: no code map of shape: $(grep '^MMAP2' out | sed -n 1,5p)"
finish
