#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A sample's data source and weight in words (src/datasrc.h), as perf's:
#   - a profile tests/golden/genprof writes, whose samples hold data
#     sources of every level, hop, snoop, TLB, lock and block value the
#     kernel defines: prof script's data_src words are perf script's, sample
#     by sample;
#   - report --mem-mode --sort mem,tlb,snoop,locked,blocked,local_weight,
#     weight: the rows perf report --mem-mode gives on the same file,
#     shares weighed by weight; known rows checked without perf too;
#   - --mem-mode's default keys are perf's;
#   - prof record -e page-faults -d -W --data-src: the kernel's data source
#     of a software event (N/A) in the rows perf gives;
#   - --sort transaction (TSX's flags): perf's rows and words;
#   - --sort mem on a file without data sources: a warning that says how
#     to record one.
# Needs no perf_event_open but for the recording part.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

G=$srcdir/tests/data/golden
B="$G/prof-golden/golden as /prof-golden/golden"

# ds OP LVL SNOOP LOCK TLB LVLNUM REMOTE SNOOPX BLK HOPS: union perf_mem_data_src
ds() {
	printf '0x%x' $(( ${1:-0} | ${2:-0} << 5 | ${3:-0} << 19 | ${4:-0} << 24 | ${5:-0} << 26 |
		${6:-0} << 33 | ${7:-0} << 37 | ${8:-0} << 38 | ${9:-0} << 40 | ${10:-0} << 43 ))
}

# --- the words of every field, sample by sample -----------------------------------
{
	echo "event cpu-clock mem"
	echo "comm 100 100 golden"
	echo "mmap 100 0x401000 $B"
	t=0
	# every level by number, with and without remote and a hop
	for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		for h in 0 1; do
			t=$((t + 1))
			echo "sample 0 1.$(printf %03d $t) 100 100 0 1000 addr=0x1000 src=$(ds 0 2 0 0 0 $n $h 0 0 $h) leaf_a+0x10"
		done
	done
	# the hops the kernel names, without a level bit read
	for hop in 1 2 3 4; do
		t=$((t + 1))
		echo "sample 0 1.$(printf %03d $t) 100 100 0 1000 addr=0x1000 src=$(ds 0 12 0 0 0 0 0 0 0 $hop) leaf_a+0x10"
	done
	# each level bit, hit and miss
	for l in 1 8 16 32 64 128 256 512 1024 2048 4096 8192 24; do
		for hm in 2 4; do
			t=$((t + 1))
			echo "sample 0 1.$(printf %03d $t) 100 100 0 1000 addr=0x1000 src=$(ds 0 $((l | hm))) leaf_a+0x10"
		done
	done
	# op, snoop, snoopx, lock, TLB and block values, alone and together
	for v in 0 1 2 3 4 5 8 16 31; do
		for x in 0 1 2 3; do
			t=$((t + 1))
			echo "sample 0 1.$(printf %03d $t) 100 100 0 1000 addr=0x1000 src=$(ds $((v & 31)) 0 $((v & 31)) $((v & 3)) $((v * 4 & 127)) 0 0 $x $((x + v & 7))) leaf_a+0x10"
		done
	done
} > words.spec
"$builddir/tests/golden/genprof" words.spec words.data 2> gen.err || fail "genprof: $(cat gen.err)"
run_prof script -i words.data
expect_rc 0 "prof script"
sed -n 's/.* data_src=0x[0-9a-f]*(\(.*\)).*/\1/p' out > prof.words
n=$(wc -l < prof.words)
[ "$n" = 98 ] || fail "prof script: $n data sources of 98 samples: $(sed -n 1,3p out)"
grep -qx 'OP No|LVL Remote core, same node L5 hit|SNP N/A|TLB N/A|LCK No|BLK N/A' prof.words ||
	fail "no remote L5 hit: $(sed -n 12p prof.words)"
grep -qx 'OP LOAD|LVL N/A|SNP None or Peer|TLB L1|LCK Yes|BLK Addr' prof.words ||
	fail "no load with a peer snoop and an address block: $(grep 'OP LOAD' prof.words | sed -n 1,4p)"
if command -v perf > /dev/null 2>&1; then
	# perf's: "|OP x|LVL y|...|BLK  z" padded with blanks
	command perf script -i words.data -F data_src 2> perf.err |
		sed -n 's/^ *[0-9a-f]* |\(.*[^ ]\) *$/\1/p' | sed 's/BLK  /BLK /' > perf.words
	m=$(wc -l < perf.words)
	[ "$m" = "$n" ] || fail "perf script printed $m data sources, prof $n: $(sed -n 1,3p perf.err)"
	# perf's words are cut where its buffer ends (the rows of every bit): a prefix of prof's then
	paste -d '\n' prof.words perf.words | awk '
		NR % 2 { p = $0; next }
		$0 == p { same++; next }
		length($0) >= 80 && index(p, $0) == 1 { cut++; next }
		{ print "prof: " p " / perf: " $0; exit 1 }
		END { printf "%d %d\n", same, cut > "counts" }' > words.diff ||
		fail "data sources in other words than perf script's: $(cat words.diff)"
	read same cut < counts
	note "data sources: $same of $n samples' words are perf script's, $cut more where perf cut its words short"
	[ $((same + cut)) = "$n" ] && [ "$same" -ge 90 ] || fail "only $same of $n compared"
fi

# --- report: the rows perf report --mem-mode gives ---------------------------------
# one value of each field in each row (perf adds a key's rows up by its field)
gen_spec mem <<SPEC
event cpu-clock mem
comm 100 100 golden
mmap 100 0x401000 $B
sample 0 1.0 100 100 0 1000 x1 addr=0x600000 src=$(ds 2 10 2 0 26) weight=10 leaf_a+0x10 main+0xf
sample 0 1.1 100 100 0 1000 x2 addr=0x600040 src=$(ds 2 66 16 2 36) weight=20 leaf_a+0x10 main+0xf
sample 0 1.2 100 100 0 1000 x3 addr=0x600080 src=$(ds 4 12 1 1 1) weight=30 leaf_b+0x15 main+0xf
sample 0 1.3 100 100 0 1000 x4 addr=0x6000c0 src=$(ds 2 2 4 0 10 11 1 2 2 2) weight=40 leaf_a+0x10 main+0xf
sample 0 1.4 100 100 0 1000 x5 addr=0x600100 src=$(ds 2 130 0 0 0 0 0 1 6) weight=50 leaf_b+0x15 main+0xf
sample 0 1.5 100 100 0 1000 x6 addr=0x600140 src=$(ds 1 1 1 1 1 15) weight=60 mid+0xf main+0xf
sample 0 1.6 100 100 0 1000 x7 addr=0x600180 src=$(ds 8 52 6 0 0) weight=70 leaf_a+0x10 main+0xf
sample 0 1.7 100 100 0 1000 x8 addr=0x6001c0 src=0 weight=80 leaf_a+0x10 main+0xf
SPEC
K=mem,tlb,snoop,locked,blocked,local_weight,weight
run_prof report -i mem.data --mem-mode --sort $K -F json
expect_rc 0 "prof report --mem-mode -F json"
jq -r '.events[0].flat[] | [(.self * 100 | round / 100 | tostring), (.samples | tostring), .mem, .tlb, .snoop, .locked, .blocked, .local_weight, .weight] | join(";")' out | sort > prof.rows ||
	fail "prof's json: $(sed -n 1,5p out)"
note "prof: $(tr '\n' '/' < prof.rows)"
[ "$(wc -l < prof.rows)" = 8 ] || fail "$(wc -l < prof.rows) rows, not 8"
# 40 of the 2040 weighed: the locked HitM load
grep -qx '1.96;2;L3 hit;Walker miss;HitM;Yes;N/A;20;40' prof.rows || fail "no L3 HitM row of 1.96%"
grep -qx '7.84;4;Remote node, same socket Any cache hit;L1 hit;Hit or Peer;No;Data;40;160' prof.rows ||
	fail "no remote hop row of 7.84%"
if command -v perf > /dev/null 2>&1; then
	command perf report -i mem.data --stdio --mem-mode -n -g none --sort $K -t ';' > perf.out 2> perf.err ||
		fail "perf report --mem-mode: $(sed -n 1,3p perf.err)"
	awk -F';' '!/^#/ && NF >= 9 {
		for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i) }
		sub(/%$/, "", $1); $1 = sprintf("%.2f", $1) + 0
		print $1 ";" $2 ";" $3 ";" $4 ";" $5 ";" $6 ";" $7 ";" $8 ";" $9 }' perf.out | sort > perf.rows
	cmp -s prof.rows perf.rows ||
		fail "rows differ from perf report --mem-mode's: $(diff prof.rows perf.rows | tr '\n' ' ')"
	note "report --mem-mode --sort $K: the 8 rows of perf's"
fi

# --- --mem-mode's own keys -----------------------------------------------------------
run_prof report -i mem.data --mem-mode
expect_rc 0 "prof report --mem-mode"
want='# Overhead  Samples  Local Weight  Memory access *Symbol *Shared Object *Data Symbol *Data Object *Snoop *TLB access *Locked *Blocked *Local INSTR Latency$'
grep -q "$want" out || fail "--mem-mode's columns are not perf's: $(grep '^# Overhead' out)"

# --- transaction flags (--transaction): perf's words -------------------------------------
{
	echo "event cpu-clock tx"
	echo "comm 100 100 golden"
	echo "mmap 100 0x401000 $B"
	t=0
	for v in 0 1 2 4 8 16 32 64 128 6 0x12000000003 0xff00000000000002 0x33 0xa2; do
		t=$((t + 1))
		echo "sample 0 1.$(printf %03d $t) 100 100 0 1000 x$t tx=$v leaf_a+0x10 main+0xf"
	done
} > tx.spec
"$builddir/tests/golden/genprof" tx.spec tx.data 2> gen.err || fail "genprof tx: $(cat gen.err)"
run_prof report -i tx.data --sort transaction -F json
expect_rc 0 "prof report --sort transaction"
jq -r '.events[0].flat[] | "\(.samples);\(.transaction)"' out | sort > prof.tx
grep -qx '11;EL TX NEITHER :120' prof.tx && grep -qx '10;TX SYNC' prof.tx && grep -qx '1;' prof.tx ||
	fail "--sort transaction: $(tr '\n' '/' < prof.tx)"
if command -v perf > /dev/null 2>&1; then
	command perf report -i tx.data --stdio -n --sort transaction -t ';' -g none 2> perf.err |
		awk -F';' '!/^#/ && NF >= 3 { for (i = 2; i <= 3; i++) gsub(/^ +| +$/, "", $i); print $2 ";" $3 }' |
		sort > perf.tx
	cmp -s prof.tx perf.tx || fail "--sort transaction differs from perf's: $(diff prof.tx perf.tx | tr '\n' ' ')"
	note "--sort transaction: perf's $(wc -l < prof.tx) rows"
fi
run_prof script -i tx.data
grep -q '^SAMPLE .* transaction=0x12000000003' out || fail "script: no transaction=: $(grep -m1 '^SAMPLE' out)"

# --- no data source in the file: said --------------------------------------------------
golden_profile
run_prof report -i golden.data $gopts --sort mem,local_weight
expect_rc 0 "prof report --sort mem of a file without data sources"
grep -q "no sample has a data source for --sort mem; record with --data-src" err ||
	fail "no warning about the missing data source: $(cat err)"
grep -q "no sample has a weight for --sort local_weight; record with -W" err ||
	fail "no warning about the missing weight: $(cat err)"

# --- a recording: the kernel's words for a software event -----------------------------
if perf_event_usable; then
	W=$WORKLOADS/calls
	run_prof record -q -e page-faults:u -c 1 -d -W --data-src -o pf.data -- "$W" -m 100
	expect_rc 0 "prof record -e page-faults -d -W --data-src"
	run_prof report -i pf.data --mem-mode --sort mem,snoop,tlb,locked,blocked -F json
	expect_rc 0 "prof report of the recording"
	jq -r '.events[0].flat[] | [(.samples | tostring), .mem, .snoop, .tlb, .locked, .blocked] | join(";")' out > prof.rec
	note "a recording: $(tr '\n' '/' < prof.rec)"
	# PERF_MEM_NA: every field N/A, since Linux 6.1 the level's number too (perf: "N/A or N/A")
	[ "$(wc -l < prof.rec)" = 1 ] && grep -Eq ';N/A( or N/A)?;N/A;N/A;N/A;N/A$' prof.rec ||
		fail "a software event's data source is not N/A: $(cat prof.rec)"
	if command -v perf > /dev/null 2>&1; then
		command perf report -i pf.data --stdio --mem-mode -n -g none --sort mem,snoop,tlb,locked,blocked -t ';' 2> perf.err |
			awk -F';' '!/^#/ && NF >= 7 { for (i = 2; i <= NF; i++) gsub(/^ +| +$/, "", $i); print $2 ";" $3 ";" $4 ";" $5 ";" $6 ";" $7 }' > perf.rec
		cmp -s prof.rec perf.rec || fail "the recording's rows differ from perf's: $(cat prof.rec) / $(cat perf.rec)"
	fi
fi
finish
