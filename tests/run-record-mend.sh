#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof record's leaf repair (record/mend.c) finds what prof report's own
# repair finds, and nothing it would not: a recording with -g's stacks
# (--keep-leaf-stacks) put through the recorder's repair by
# tests/tools/mendfile reports exactly as it did, folded stack for folded
# stack, with most samples mended and their stacks gone. On the committed
# recordings (a program whose leaves have no frame, one with a library
# that has .debug_frame only, recordings of the older recorder), and,
# where perf_event_open works, on Debian's own programs (python3, gzip,
# sort, perl) recorded here.
. "$srcdir/tests/test-subr.sh"

M=$builddir/tests/tools/mendfile
[ -x "$M" ] || fail "no $M: make check builds it"

# same IN OUT HOW: the folded reports and the header's chains line of IN and OUT agree
same() {
	run_prof report -i "$1" -F folded
	expect_rc 0 "prof report -F folded, $3 as recorded"
	sort out > a.fold
	run_prof report -i "$2" -F folded
	expect_rc 0 "prof report -F folded, $3 mended"
	sort out > b.fold
	[ -s a.fold ] || fail "$3: an empty report"
	cmp -s a.fold b.fold ||
		fail "$3: the report changed with the recorder's repair: $(diff a.fold b.fold | head -n 6)"
	run_prof report -i "$1" --sort sym
	grep '^# chains:' out > a.chains
	run_prof report -i "$2" --sort sym
	grep '^# chains:' out > b.chains
	cmp -s a.chains b.chains ||
		fail "$3: the mended count changed: '$(cat a.chains)' against '$(cat b.chains)'"
}

# mend IN OUT ROOT HOW [--sweep]: mendfile, its counts in $mended $dropped $kept $closed
mend() {
	"$M" $5 "$1" "$2" "$3" > mend.out 2> mend.err || fail "mendfile $4: $(cat mend.err)"
	read -r _ mended _ dropped _ kept _ closed < mend.out
	note "$4: $mended samples mended, $dropped stacks dropped with nothing to mend, $kept kept, $closed files closed by sweeps"
}

# swept IN ROOT HOW: with every file closed at each round and read again
# when a sample needs it (the recorder closes a file idle a minute), the
# repair writes the very same file as without
swept() {
	_was="$mended $dropped $kept"
	mend "$1" swept.data "$2" "$3, swept" --sweep
	[ "$closed" -gt 0 ] || fail "$3: the sweeps closed no file: the check below shows nothing"
	[ "$mended $dropped $kept" = "$_was" ] ||
		fail "$3: files closed and read again changed the repair: '$mended $dropped $kept' against '$_was'"
	cmp -s mended.data swept.data || fail "$3: files closed and read again changed the file written"
}

# --- the committed recordings, whatever the kernel allows ------------------
saved=$replay
replay=1
for name in mend-leaf mend-unwind views-g unwind-g oracle-prof-threads-g; do
	cp "$recorded/$name.data" in.data || fail "no recording $name"
	mend in.data mended.data "$recorded/root" "$name"
	same in.data mended.data "$name"
	swept in.data "$recorded/root" "$name"
	total=$((mended + dropped + kept))
	case $name in
	mend-leaf)
		# nearly every sample is in leaf_a or leaf_b, without a frame
		[ "$mended" -ge $((total * 9 / 10)) ] ||
			fail "$name: only $mended of $total samples mended"
		run_prof script -i mended.data
		n=$(grep -c '^SAMPLE .* mended=1' out)
		[ "$n" = "$mended" ] || fail "$name: prof script shows $n samples mended, not $mended"
		n=$(grep -c '^SAMPLE .* stack=' out)
		[ "$n" = "$kept" ] || fail "$name: prof script shows $n stacks, not the $kept kept"
		;;
	*)
		[ "$((mended + dropped))" -ge $((total / 2)) ] ||
			fail "$name: only $((mended + dropped)) of $total stacks settled while recording"
		;;
	esac
done
replay=$saved

# --- Debian's programs, recorded here ----------------------------------------
if ! "$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1; then
	note "perf_event_open is refused: no recordings of this machine's programs"
	exit 0
fi
head -c 4000000 /dev/urandom > blob
n=0
for prog in python3 gzip sort perl; do
	command -v "$prog" > /dev/null 2>&1 || { note "no $prog: skipped"; continue; }
	case $prog in
	python3) set -- python3 -c 'sum(i * i for i in range(3 * 10**6))' ;;
	gzip) set -- gzip -9 -c blob blob blob ;;
	sort) set -- sort -R blob ;;
	perl) set -- perl -e '$s = 0; $s += $_ for 1 .. 10000000' ;;
	esac
	# rings of 128 KiB: a pass (a round in the file) every 32 KiB of
	# records, so that the sweeps between rounds have files to close; a
	# program of a tenth of a second (gzip) fits one pass at the default
	run_prof record -q -g --keep-leaf-stacks -e cpu-clock -m 32 -o in.data -- "$@"
	expect_rc 0 "prof record -g --keep-leaf-stacks -- $prog"
	mend in.data mended.data "" "$prog"
	same in.data mended.data "$prog"
	swept in.data "" "$prog"
	total=$((mended + dropped + kept))
	[ "$total" -gt 0 ] || fail "$prog: no samples with a stack"
	[ "$((mended + dropped))" -ge $((total * 8 / 10)) ] ||
		fail "$prog: only $((mended + dropped)) of $total stacks settled while recording"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "none of python3, gzip, sort, perl here"
exit 0
