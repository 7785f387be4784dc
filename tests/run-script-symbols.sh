#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof script --symbols prints each sample as perf script does: a header
# line, its symbolized call chain a frame a line, an empty line. One block
# per sample of the report; the shape workload's leaves under run and
# main; and, when perf is installed, the same blocks as perf script on the
# same file, with the same sampled functions.
. "$srcdir/tests/test-subr.sh"

need_recordings
record_or_replay script-symbols prof record -q -g -e cpu-clock -o s.data -- "$WORKLOADS/shape" -s 1
expect_rc 0 "prof record -g shape"
total=$(samples_of s.data)

run_prof script --symbols -i s.data
expect_rc 0 "prof script --symbols"
[ -s err ] && fail "prof script --symbols printed on stderr: $(cat err)"
mv out s.txt
head='^shape +[0-9]+ (\[[0-9]+\] )? *[0-9]+\.[0-9]{6}: +[0-9]+ cpu-clock: $'
blocks=$(grep -Ec "$head" s.txt)
[ "$blocks" = "$total" ] || fail "$blocks sample blocks, the report has $total samples"
bad=$(grep -Ev "$head" s.txt | grep -Evc '^	 *[0-9a-f]+ .+ \(.+\)$|^$')
[ "$bad" = 0 ] || fail "$bad lines neither a header, a frame nor empty: $(grep -Ev "$head" s.txt | grep -Ev '^	 *[0-9a-f]+ .+ \(.+\)$|^$' | head -3)"

# A block: its first user frame, and whether run and main follow. (A
# loaded machine's samples may land in the kernel, in an interrupt of
# leaf_a: 12% at load 6; their user frames below are what is checked.)
awk '
	/ cpu-clock: $/ { start = 1; next }
	/^$/ { if (leaf != "") print leaf, chain; leaf = ""; chain = ""; next }
	$NF == "([kernel.kallsyms])" { next }
	{ f = $2; sub(/\+0x[0-9a-f]+$/, "", f)
	  if (start) { leaf = f; start = 0 } else if (f == "run" || f == "main") chain = chain f }
' s.txt > leaves
good=$(grep -Ec '^leaf_[abc] runmain$' leaves)
note "$blocks blocks, $good of them leaf_[abc] under run and main"
[ "$good" -ge $((blocks * 9 / 10)) ] || fail "only $good of $blocks samples are leaf_[abc] under run and main"

# perf script is the model.
if command -v perf > /dev/null 2>&1; then
	# shellcheck disable=SC2046  # symfs_opt is one word or none
	perf script $(perf_symfs_opt) -i s.data > perf.txt 2> perf.err || fail "perf script: $(tail -3 perf.err)"
	pblocks=$(grep -Ec "$head" perf.txt)
	[ "$pblocks" = "$blocks" ] || fail "perf script has $pblocks blocks, prof script $blocks"
	# The first user frame of every block perf puts in leaf_[abc]: prof's must be the same (a
	# loaded machine's samples in the kernel counted by their user frames, as above: CI at
	# load 20 had 9% of them there).
	leaves_of() {
		awk '/ cpu-clock: $/ { n++; want = 1; next }
			want && $NF != "([kernel.kallsyms])" && NF { f = $2; sub(/\+0x[0-9a-f]+$/, "", f); print n, f; want = 0 }
			/^$/ { want = 0 }' "$1" |
			sort -k 1b,1
	}
	leaves_of perf.txt > perf.leaves
	leaves_of s.txt > prof.leaves
	differ=$(join perf.leaves prof.leaves | awk '$2 ~ /^leaf_/ && $2 != $3' | wc -l)
	same=$(join perf.leaves prof.leaves | awk '$2 ~ /^leaf_/ && $2 == $3' | wc -l)
	note "perf script: $pblocks blocks; leaf_* agree in $same, differ in $differ"
	[ "$differ" = 0 ] || fail "$differ blocks where perf and prof name different leaves: $(join perf.leaves prof.leaves | awk '$2 ~ /^leaf_/ && $2 != $3' | head -3)"
	[ "$same" -ge $((blocks * 9 / 10)) ] || fail "only $same blocks in leaf_* in both"
else
	note "no perf: prof script --symbols not compared with perf script"
fi

# The raw records stay the default.
run_prof script -i s.data
expect_rc 0 "prof script"
grep -q '^SAMPLE ' out || fail "prof script without --symbols: no SAMPLE lines"
run_prof script --symbols --no-such-option -i s.data
expect_rc 64 "prof script --no-such-option"
one_error_line "prof script --no-such-option"
finish
