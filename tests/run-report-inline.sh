#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inlined functions: the inline workload spends its time in inl_leaf(),
# always inlined into outer(). prof report shows it as a frame of its own,
# its flat entry "inl_leaf (inlined in outer)" (a perf user finds outer,
# perf's symbol, there), marked (inlined) over outer in the graphs;
# --no-inline folds it into outer; srcline gives inl_leaf's own source lines.
. "$srcdir/tests/test-subr.sh"

need_recordings
record_or_replay inline prof record -q -g -e cpu-clock -o inl.data -- "$WORKLOADS/inline" -s 1
expect_rc 0 "prof record of the inline workload"

# share TEXT FILE: the Overhead of the flat entry whose line ends in TEXT.
share() {
	awk -v t="$1" '/^#/ { next }
		{ line = $0; sub(/[ \t]+$/, "", line) }
		substr(line, length(line) - length(t) + 1) == t { sub("%", "", $1); s += $1 }
		END { print s + 0 }' "$2"
}

# shares of the workload's own code (--dso inline): on a loaded machine the
# kernel's part of the process's samples grows (65% left for inl_leaf of
# all samples at load 20), and that is not what is checked here
run_prof report -i inl.data --dso inline
expect_rc 0 "prof report"
mv out flat.txt
a=$(share '[.] inl_leaf (inlined in outer)' flat.txt)
note "inl_leaf (inlined in outer): $a%"
expect_range "inl_leaf (inlined in outer) share" "$a" 80 100
# outer's own instructions (its loop, the clock calls) may catch a sample
# or two, under load more; its time is inl_leaf's.
expect_range "outer's own share beside inl_leaf's" "$(share '[.] outer' flat.txt)" 0 5

run_prof report -i inl.data --no-inline --dso inline
expect_rc 0 "prof report --no-inline"
mv out folded.txt
o=$(share '[.] outer' folded.txt)
note "--no-inline: outer $o%"
expect_range "outer share with --no-inline" "$o" 80 100
grep -q 'inlined' folded.txt && fail "--no-inline still shows inlined frames"

run_prof report -i inl.data -g callee --percent-limit 10 --dso inline
expect_rc 0 "prof report -g callee"
awk '/inl_leaf \(inlined\)$/ && !/%/ { on = 1; next }
	on && NF == 1 { print $1 } on && NF != 1 { exit }' out > chain.txt
[ "$(sed -n 1p chain.txt)" = outer ] && [ "$(sed -n 2p chain.txt)" = main ] ||
	fail "-g callee under inl_leaf: expected outer then main, got: $(tr '\n' ' ' < chain.txt)"

# srcline: the sampled lines are inl_leaf's body in inline.c.
first=$(grep -n 'static inline __attribute__((always_inline)) void inl_leaf' \
	"$srcdir/tests/workloads/inline.c" | cut -d: -f1)
last=$((first + 6))
run_prof report -i inl.data --sort srcline --dso inline
expect_rc 0 "prof report --sort srcline"
in_body=$(awk -v lo="$first" -v hi="$last" '/^#/ { next }
	match($NF, /inline\.c:[0-9]+$/) { n = substr($NF, index($NF, "inline.c:") + 9)
		if (n + 0 >= lo && n + 0 <= hi) { sub("%", "", $1); s += $1 } }
	END { print s + 0 }' out)
note "srcline: $in_body% on inl_leaf's lines $first-$last of inline.c"
# each row is rounded to 0.01, so their sum may pass 100 by a little
expect_range "share on inl_leaf's source lines" "$in_body" 80 101
