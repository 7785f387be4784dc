#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf is the oracle: it must read what prof writes, compressed and not,
# and find the same samples and the same shape in it.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf
require_perf_event

shape=$WORKLOADS/shape

# perf_report FILE: `perf report -n` of FILE into FILE.rep; sets psamples
# (the sum of the Samples column, exact, where the header rounds to "8K")
# and the leaf counts pa, pb, pc.
perf_report() {
	perf report -i "$1" --stdio --sort sym -n > "$1.rep" 2> "$1.rep.err"
	prc=$?
	[ "$prc" = 0 ] || fail "perf report -i $1 exited $prc: $(sed -n 1,5p "$1.rep.err")"
	grep -q '^# Samples: [0-9.]*[KMG ]* of event ' "$1.rep" ||
		fail "perf report -i $1: no '# Samples:' header line"
	awk '/^#/ || NF < 3 { next }
	$1 ~ /%$/ && $2 ~ /^[0-9]+$/ {
		total += $2
		if ($3 == "[.]") c[$4] += $2
	}
	END { print total + 0, c["leaf_a"] + 0, c["leaf_b"] + 0, c["leaf_c"] + 0 }' "$1.rep" > "$1.counts"
	read psamples pa pb pc < "$1.counts"
	# The header's rounded count must agree with the exact one.
	header=$(sed -n 's/^# Samples: \([0-9.]*[KMG]*\) *of event .*/\1/p' "$1.rep" | head -n 1)
	awk -v h="$header" -v n="$psamples" 'BEGIN {
		m = 1
		if (h ~ /K$/) m = 1000
		if (h ~ /M$/) m = 1000000
		v = h + 0
		exit !(v * m <= n && n < (v + 1) * m)
	}' || fail "perf report -i $1: header says $header samples, the rows add up to $psamples"
}

for mode in compressed plain; do
	case $mode in
	compressed) opt= ;;
	plain) opt=--no-compress ;;
	esac
	cpu_reset
	run_prof record -q $opt -o $mode.data -- "$shape" -s 2
	expect_rc 0 "prof record $opt -- shape -s 2"
	script_of $mode.data $mode.txt
	samples=$(count_lines '^SAMPLE ' $mode.txt)
	expect_samples "$mode" "$samples" 4000
	# perf's raw dump counts every record it decodes: the very same
	# samples, and COMPRESSED containers only when compressed.
	perf report -D -i $mode.data > dump.txt 2> dump.err
	prc=$?
	[ "$prc" = 0 ] || fail "perf report -D -i $mode.data exited $prc: $(sed -n 1,5p dump.err)"
	awk '/^Aggregated stats:/ { agg = 1; next }
	agg && /^[^ ]/ { agg = 0 }
	agg && $1 == "SAMPLE" && $2 == "events:" { s = $3 }
	agg && $1 == "COMPRESSED" && $2 == "events:" { c = $3 }
	END { print s + 0, c + 0 }' dump.txt > dump.counts
	read dsamples dcompressed < dump.counts
	note "$mode: perf report -D decodes $dsamples samples, $dcompressed COMPRESSED records"
	[ "$dsamples" = "$samples" ] ||
		fail "$mode: perf report -D decodes $dsamples samples, prof script $samples"
	if [ $mode = compressed ]; then
		[ "$dcompressed" -ge 1 ] || fail "compressed: perf sees no COMPRESSED record"
	else
		[ "$dcompressed" = 0 ] || fail "--no-compress: perf sees $dcompressed COMPRESSED records"
	fi

	perf_report $mode.data
	total=$((pa + pb + pc))
	[ "$total" -gt 0 ] || fail "$mode: perf finds no samples in leaf_a/leaf_b/leaf_c"
	a=$(awk -v x="$pa" -v t="$total" 'BEGIN { printf "%.2f", 100 * x / t }')
	b=$(awk -v x="$pb" -v t="$total" 'BEGIN { printf "%.2f", 100 * x / t }')
	c=$(awk -v x="$pc" -v t="$total" 'BEGIN { printf "%.2f", 100 * x / t }')
	note "$mode: prof script $samples samples, perf report $psamples; perf: leaf_a $a%, leaf_b $b%, leaf_c $c%"
	in_range "$psamples" $((samples * 99 / 100)) $((samples * 101 / 100 + 1)) ||
		fail "$mode: perf report counts $psamples samples, prof script $samples"
	expect_range "$mode: perf's leaf_a share" "$a" 45 75
	expect_range "$mode: perf's leaf_b share" "$b" 18 42
	expect_range "$mode: perf's leaf_c share" "$c" 4 18

	perf script -i $mode.data > $mode.pscript 2> $mode.pscript.err
	prc=$?
	[ "$prc" = 0 ] || fail "perf script -i $mode.data exited $prc: $(sed -n 1,5p $mode.pscript.err)"
	plines=$(awk 'NF > 0' $mode.pscript | wc -l)
	note "$mode: perf script prints $plines lines"
	in_range "$plines" $((samples * 99 / 100)) $((samples * 101 / 100 + 1)) ||
		fail "$mode: perf script prints $plines sample lines, prof script $samples"
	shape_lines=$(count_lines ' leaf_[abc]+0x[0-9a-f]* (' $mode.pscript)
	[ "$shape_lines" -ge $((total * 99 / 100)) ] ||
		fail "$mode: perf script symbolizes only $shape_lines lines in the leaves"
done

# Kernel samples: prof writes perf's kernel map, so perf names them
# ([kernel.kallsyms]) instead of leaving them [unknown]. Kernel frames come
# from the kernel's own call chains (-g) of a workload that makes syscalls.
if [ "$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)" != 0000000000000000 ]; then
	run_prof record -q -e cpu-clock -g -F 10000 -o k.data -- sh -c \
		'i=0; while [ $i -lt 3000 ]; do cat /proc/self/stat > /dev/null; i=$((i + 1)); done'
	expect_rc 0 "prof record of a syscall-heavy loop"
	script_of k.data k.txt
	grep -q '^MMAP .*pid=-1 .*file=\[kernel.kallsyms\]_text$' k.txt ||
		fail "no kernel map record in the profile"
	kernel=$(count_lines '^SAMPLE.* ip=0xffff' k.txt)
	[ "$kernel" -gt 0 ] || skip "no kernel samples were taken (perf_event_paranoid?)"
	perf report -i k.data --stdio --no-children --sort dso > k.perf 2> k.perf.err ||
		fail "perf report of the kernel profile failed: $(sed -n 1,3p k.perf.err)"
	known=$(awk '$2 == "[kernel.kallsyms]" { sub("%", "", $1); s += $1 } END { print s + 0 }' k.perf)
	unknown=$(awk '$2 == "[unknown]" { sub("%", "", $1); s += $1 } END { print s + 0 }' k.perf)
	note "kernel: $kernel kernel samples; perf: [kernel.kallsyms] $known%, [unknown] $unknown%"
	in_range "$known" 1 100 || fail "perf puts no samples in [kernel.kallsyms] ($kernel kernel samples)"
	in_range "$unknown" 0 1 || fail "perf leaves $unknown% of the samples in [unknown]"
fi
exit 0
