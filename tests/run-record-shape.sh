#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record the shape workload with the default options and with -g: the
# samples, the records that symbolize them, the 60/30/10 shape, and call
# chains that go through run() and main().
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

shape=$WORKLOADS/shape
nm -n -S "$shape" > shape.nm || fail "nm $shape"

cpu_reset
run_prof record -o shape.data -- "$shape" -s 2
expect_rc 0 "prof record -- shape -s 2"
summary=$(summary_field 1) || fail "no summary line on stderr"
lost=$(summary_field 2)
bytes=$(summary_field 3)
# Besides the summary, only the cycles fallback notice may be there.
grep -v -e '^prof: [0-9]* samples, ' \
	-e '^prof: this machine has no hardware cycle counter (no PMU, as in most virtual machines); sampling cpu-clock instead$' \
	err > other.err
[ -s other.err ] && fail "unexpected lines on stderr: $(cat other.err)"
if grep -q '^prof: this machine has no hardware cycle counter' err; then
	event=cpu-clock
else
	event=cycles
fi
size=$(wc -c < shape.data)
[ "$bytes" = "$size" ] || fail "summary says $bytes bytes, shape.data has $size"
mode=$(stat -c %a shape.data)
[ "$mode" = 600 ] || fail "shape.data has mode $mode, expected 600"

script_of shape.data shape.txt
samples=$(count_lines '^SAMPLE ' shape.txt)
note "$samples samples (summary: $summary, lost $lost), event $event, $size bytes"
expect_samples "shape -s 2" "$samples" 4000
[ "$samples" = "$summary" ] || fail "summary says $summary samples, prof script shows $samples"
[ "$lost" = 0 ] || note "lost $lost records"

# SPEC: ATTR event=cpu-clock type=1 config=0 sample_type=0x... freq=4000 ids=12,13
case $event in
cpu-clock) type=1 ;;
cycles) type=0 ;;
esac
grep -q "^ATTR event=$event type=$type config=0 sample_type=0x[0-9a-f]* freq=4000 ids=[0-9][0-9,]*\$" shape.txt ||
	check_later "the ATTR line is not 'ATTR event=$event type=$type config=0 sample_type=0x... freq=4000 ids=...': $(grep '^ATTR' shape.txt)"
for f in hostname osrelease version arch nrcpus cmdline; do
	grep -q "^FEATURE name=$f value=" shape.txt || fail "no FEATURE $f"
done
grep -q '^FEATURE name=cmdline value=.*record -o shape.data -- .*shape -s 2$' shape.txt ||
	fail "FEATURE cmdline is not the command line: $(grep '^FEATURE name=cmdline' shape.txt)"

# The exec of shape, and the mapping of its text.
grep -q '^COMM .* exec=1 comm=shape$' shape.txt || fail "no 'COMM ... exec=1 comm=shape'"
pid=$(awk "$awk_lib"'$1 == "COMM" && / exec=1 comm=shape$/ { print field("pid"); exit }' shape.txt)
real=$(readlink -f "$shape")
grep -q "^MMAP2 .* pid=$pid .* prot=r-x .*file=$real\$" shape.txt ||
	fail "no executable MMAP2 of $real for pid $pid"
other=$(awk -v pid="$pid" "$awk_lib"'$1 == "SAMPLE" && field("pid") != pid { n++ } END { print n + 0 }' shape.txt)
[ "$other" = 0 ] || fail "$other samples of another pid than shape's $pid"
# Its samples before the exec (the exec itself, at a high rate) are named
# as the exec names it, as perf names them, not ':PID': the first record of
# its pid is a COMM of that name.
first=$(grep -m 1 " pid=$pid " shape.txt)
case $first in
COMM*comm=shape) ;;
*) fail "the first record of shape's pid $pid names it not: $first" ;;
esac

shares shape.nm shape.txt > shares.txt
a=$(share_of leaf_a shares.txt leaf_a leaf_b leaf_c)
b=$(share_of leaf_b shares.txt leaf_a leaf_b leaf_c)
c=$(share_of leaf_c shares.txt leaf_a leaf_b leaf_c)
leaves=$(($(count_of leaf_a shares.txt) + $(count_of leaf_b shares.txt) + $(count_of leaf_c shares.txt)))
note "leaf_a $a%, leaf_b $b%, leaf_c $c% of $leaves leaf samples"
[ "$leaves" -ge $((samples * 8 / 10)) ] || fail "only $leaves of $samples samples in the leaves"
expect_range "leaf_a's share" "$a" 45 75
expect_range "leaf_b's share" "$b" 18 42
expect_range "leaf_c's share" "$c" 4 18

# With -g every sample has a chain; a leaf_a sample's chain starts with
# the user-context marker and its ip, then goes up through run and main.
cpu_reset
run_prof record -g -q -o g.data -- "$shape" -s 1
expect_rc 0 "prof record -g -- shape -s 1"
script_of g.data g.txt
gsamples=$(count_lines '^SAMPLE ' g.txt)
chains=$(count_lines '^SAMPLE .* chain=0x' g.txt)
expect_samples "-g" "$gsamples" 4000
[ "$chains" = "$gsamples" ] || fail "-g: $chains of $gsamples samples carry chain="
awk "$awk_lib"'$1 == "SAMPLE" && hex(field("ip")) < 2^47 {
	ip = field("ip")
	n = split(field("chain"), a, ",")
	good += (a[1] == "0xfffffffffffffe00" && a[2] == ip)
	total++
}
END { print good + 0, total + 0 }' g.txt > marker.txt
read good total < marker.txt
note "-g: $gsamples samples; of the $total in user space, $good have chains starting with the user marker and the ip"
resolve shape.nm g.txt > g.res
awk '$3 == "leaf_a" {
	n++
	if (("," $4 ",") ~ /,run,/ && ("," $4 ",") ~ /,main,/ && index($4, "leaf_a,run,main"))
		ok++
}
END { print ok + 0, n + 0 }' g.res > chains.txt
read ok n < chains.txt
note "-g: $ok of $n leaf_a samples have leaf_a,run,main in their chain"
[ "$n" -ge 100 ] || fail "-g: only $n leaf_a samples"
[ $((ok * 100)) -ge $((n * 80)) ] || fail "-g: only $ok of $n leaf_a samples have run and main in their chain"
[ $((good * 100)) -ge $((total * 80)) ] ||
	fail "-g: only $good of $total user samples start with 0xfffffffffffffe00 and the ip"
finish
