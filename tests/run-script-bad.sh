#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile input: a recorded profile cut at every record boundary and at
# random offsets, and with random bytes flipped, gives a report or one
# clear error, never a crash or a hang; then every file in tests/data/bad
# (crashes found by fuzzing) is replayed the same way.
# before test-subr.sh, which reads it to bound the whole test
. "$srcdir/tests/test-subr.sh"

need_recordings

# check FILE [report]: prof script (or prof report) exits 0 or 1 (never a
# signal, never 64), and an error is one line naming the file.
crashes=0
runs=0
check() {
	runs=$((runs + 1))
	leak_check_some "$runs"
	timeout -k 2 180 "$PROF" ${2:-script} -i "$1" > out 2> err
	rc=$?
	case $rc in
	0) ;;
	1)
		[ "$(wc -l < err)" = 1 ] && grep -q "^prof: .*'$1'" err ||
			{ echo "bad error for $1: $(cat err)"; crashes=$((crashes + 1)); }
		;;
	*)
		echo "prof script -i $1 exited $rc: $(head -c 300 err)"
		crashes=$((crashes + 1))
		cp "$1" "keep-$(basename "$1")"
		;;
	esac
}

# Under the sanitizers a start of prof costs about a fifth of a second, and
# the fuzzers (.ci/run) try far more cuts and flips than this: there, the
# header's cuts and a third of the random cuts and flips.
random=150
sanitized && random=50

for mode in "" --no-compress; do
	record_or_replay "script-bad${mode:+-raw}" prof record -q -g $mode -e cpu-clock -o good.data -- "$WORKLOADS/threads" -s 0.3
	expect_rc 0 "prof record $mode"
	size=$(wc -c < good.data)
	# Cuts: every 23rd byte of the first 4 KiB (the header, the attrs, the
	# first records: fuzz-reader tries the rest of them), then pseudo-random
	# offsets.
	awk -v size="$size" -v n="$random" 'BEGIN {
		for (o = 0; o < 4096 && o < size; o += 23) print o
		srand(7); for (i = 0; i < n; i++) print int(rand() * size)
	}' > cuts
	while read -r cut; do
		head -c "$cut" good.data > cut.data
		check cut.data
	done < cuts
	# Flips: one random byte replaced, 150 times.
	awk -v size="$size" -v n="$random" 'BEGIN { srand(11); for (i = 0; i < n; i++)
		print int(rand() * size), int(rand() * 256) }' > flips
	while read -r off val; do
		cp good.data flip.data
		printf "$(printf '\\%03o' "$val")" |
			dd of=flip.data bs=1 seek="$off" conv=notrunc status=none
		check flip.data
	done < flips
done

for f in "$srcdir"/tests/data/bad/*.data; do
	[ -f "$f" ] || continue
	cp "$f" replay.data
	check replay.data
	check replay.data report
done

[ "$crashes" = 0 ] || fail "$crashes inputs crashed prof script or gave a bad error"
note "cuts and flips of compressed and plain profiles: no crash"
