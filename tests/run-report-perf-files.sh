#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report reads perf's own files of the shape workload: file mode and
# pipe mode, each plain and zstd-compressed (-z), with and without -g; the
# binary is the one just built, so leaf_a/leaf_b/leaf_c must resolve and
# have their 60/30/10 shape.
. "$srcdir/tests/test-subr.sh"
require_perf
need_recordings

shape=$WORKLOADS/shape

# perf_rec NAME ARGS...: `perf record -q -e cpu-clock ARGS -- shape -s 1`;
# ARGS holding "-o -" writes the stream (pipe mode) to NAME.
perf_rec() {
	name=$1
	shift
	cpu_reset
	if replaying; then
		cp "$recorded/perf-${name%.data}.data" "$name" || fail "no recording for $name"
		cp "$recorded/perf-${name%.data}.cpu" "$PROF_WORKLOAD_CPU"
		cpu_save "$name"
		return
	fi
	case " $* " in
	*" -o - "*) perf record -q -e cpu-clock "$@" -- "$shape" -s 1 < /dev/null > "$name" 2> perf.err ;;
	*) perf record -q -e cpu-clock -o "$name" "$@" -- "$shape" -s 1 < /dev/null > perf.out 2> perf.err ;;
	esac
	prc=$?
	[ "$prc" = 0 ] || fail "perf record $* -- shape -s 1 exited $prc: $(sed -n 1,5p perf.err)"
	[ -s "$name" ] || fail "perf record $* wrote nothing"
	cpu_save "$name"
}

perf_rec file.data
perf_rec file-z-g.data -z -g
perf_rec pipe.data -o -
perf_rec pipe-z-g.data -z -g -o -
# (which file is which mode: perf's own header says, "PERFILE2" then the
# header size, 104 for a file, 16 for a pipe)
for f in file.data file-z-g.data pipe.data pipe-z-g.data; do
	hsize=$(od -An -tu8 -j8 -N8 $f | tr -d ' ')
	case $f in
	file*) [ "$hsize" = 104 ] || fail "$f: perf wrote a header of $hsize bytes, not a file-mode one" ;;
	pipe*) [ "$hsize" = 16 ] || fail "$f: perf wrote a header of $hsize bytes, not a pipe-mode one" ;;
	esac
done

# pct SYMBOL: the summed Overhead of SYMBOL's rows in ./out.
pct() {
	awk -v s="$1" '!/^#/ && $1 ~ /^[0-9.]+%$/ && $2 ~ /^[0-9]+$/ {
		for (i = 3; i < NF; i++)
			if ($i == "[.]" && $(i + 1) == s) { p = $1; sub(/%$/, "", p); t += p }
	} END { printf "%.2f\n", t }' out
}

for f in file.data file-z-g.data pipe.data pipe-z-g.data; do
	run_prof report -i $f
	expect_rc 0 "prof report -i $f"
	[ -s err ] && check_later "prof report -i $f printed on stderr: $(sed -n 1,5p err)"
	cp out $f.report
	a=$(pct leaf_a)
	b=$(pct leaf_b)
	c=$(pct leaf_c)
	n=$(awk '!/^#/ && $1 ~ /^[0-9.]+%$/ && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' out)
	note "$f: $n samples; leaf_a $a%, leaf_b $b%, leaf_c $c%"
	cpu_load "$f"
	expect_samples "prof report -i $f" "$n" 4000
	grep -q '^# event: *cpu-clock$' out || fail "prof report -i $f: event line $(grep '^# event:' out)"
	# each leaf's share of the three: what else ran (the kernel's ticks,
	# a busy machine's preemptions) is not shape's to say
	t=$(awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { print a + b + c }')
	expect_range "$f: the leaves' share of the samples" "$t" 25 100
	expect_range "$f: leaf_a's share of the leaves" "$(awk -v x="$a" -v t="$t" 'BEGIN { print 100 * x / t }')" 52 68
	expect_range "$f: leaf_b's share of the leaves" "$(awk -v x="$b" -v t="$t" 'BEGIN { print 100 * x / t }')" 23 37
	expect_range "$f: leaf_c's share of the leaves" "$(awk -v x="$c" -v t="$t" 'BEGIN { print 100 * x / t }')" 5 15
	# -g: the call chains are read too.
	case $f in
	*-g.data)
		run_prof report -i $f --children
		expect_rc 0 "prof report -i $f --children"
		awk '!/^#/ && $1 ~ /^[0-9.]+%$/ && $2 ~ /^[0-9.]+%$/ {
			for (i = 4; i < NF; i++) if ($i == "[.]" && $(i + 1) == "run") { c = $1; sub(/%$/, "", c); print c; exit }
		}' out > run.children
		read rc_run < run.children || fail "prof report -i $f --children: no row for run"
		# run calls the leaves: its Children holds their shares, and start-up
		# and exit the rest (5% of 435 samples once, at load 20)
		leaves=$(awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { printf "%.2f", a + b + c }')
		note "$f: run's Children $rc_run%, the leaves' $leaves%"
		expect_range "$f --children: run's Children (the leaves': $leaves%)" "$rc_run" \
			"$(awk -v l="$leaves" 'BEGIN { print l - 0.05 }')" 100
		;;
	esac
done

# A pipe-mode file on standard input (-i -).
run_prof report -i - < pipe.data
expect_rc 0 "prof report -i - < pipe.data"
# (but for the first line, which names the input)
sed 1d out > stdin.body
sed 1d pipe.data.report > pipe.body
cmp -s stdin.body pipe.body ||
	check_later "prof report -i - < pipe.data differs from -i pipe.data: $(diff pipe.body stdin.body | sed -n 1,6p)"
finish
