#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The recorded profiles in tests/data/fixtures (perf's file and pipe modes,
# compressed or not, and prof's own): prof script reads each cleanly and
# finds exactly the samples perf counted when the fixture was made (COUNTS);
# a pipe-mode fixture reads the same from a pipe; and each, cut at 80
# pseudo-random offsets, gives a report or one line of error, never a
# crash. Fixed files, so exact counts; no perf and no perf_event needed.
# before test-subr.sh, which reads it to bound the whole test
test_timeout=1200
. "$srcdir/tests/test-subr.sh"

# a hang, not a slow machine: generous (ASan at load 20 is 30x an idle run)
prof_timeout=180

fixtures=$srcdir/tests/data/fixtures
[ -f "$fixtures/COUNTS" ] || fail "no $fixtures/COUNTS"

# Every fixture has a count, and every count a fixture.
for f in "$fixtures"/*.data; do
	[ -f "$f" ] || fail "no fixtures in $fixtures"
	n=$(basename "$f")
	grep -q "^$n [0-9][0-9]*\$" "$fixtures/COUNTS" || check_later "$n has no line in COUNTS"
done

while read -r name want; do
	case $name in '#'* | '') continue ;; esac
	f=$fixtures/$name
	if [ ! -f "$f" ]; then
		check_later "COUNTS names $name, which is not in $fixtures"
		continue
	fi

	run_prof script -i "$f"
	if [ "$rc" != 0 ] || [ -s err ]; then
		check_later "prof script -i $name: exit status $rc, stderr: $(sed -n 1,3p err)"
		continue
	fi
	mv out "$name.txt"
	got=$(count_lines '^SAMPLE ' "$name.txt")
	[ "$got" = "$want" ] ||
		check_later "$name: prof script shows $got samples, perf counted $want"

	# Pipe mode (header size 16) must read the same from a pipe, where the
	# reader gets what read(2) gives it and cannot seek.
	hsize=$(od -An -tu8 -j8 -N8 "$f" | tr -d ' ')
	if [ "$hsize" = 16 ]; then
		cat "$f" | timeout -k 5 "$prof_timeout" "$PROF" script -i - > pipe.txt 2> err
		rc=$?
		[ "$rc" = 0 ] && [ ! -s err ] ||
			check_later "cat $name | prof script -i -: exit status $rc, stderr: $(sed -n 1,3p err)"
		cmp -s "$name.txt" pipe.txt ||
			check_later "$name: prof script -i - from a pipe differs from reading the file"
	fi
	note "$name: $got samples, as perf counted"
done < "$fixtures/COUNTS"

# try_cuts FIXTURE WANT: prof script on FIXTURE cut at the start of the header,
# at its end, and at 80 pseudo-random offsets (the same every run; the
# fuzzers, in CI and in run-fuzz-replay, try many more): exit
# status 0 or 1, at most one line on stderr, starting "prof: " and naming
# the file, and never more samples than the whole file has.
try_cuts() {
	size=$(wc -c < "$1")
	awk -v size="$size" -v seed="$size" 'BEGIN {
		print 0; print 8; print 16; print 104; print size - 1
		srand(seed)
		for (i = 0; i < 80; i++) print int(rand() * size)
	}' > cuts
	bad=0
	runs=0
	while read -r at; do
		runs=$((runs + 1))
		leak_check_some "$runs"
		head -c "$at" "$1" > cut.data
		timeout -k 2 "$prof_timeout" "$PROF" script -i cut.data > out 2> err
		rc=$?
		case $rc in
		0 | 1) ;;
		*)
			check_later "$(basename "$1") cut at $at: prof script exited $rc: $(sed -n 1,3p err)"
			cp cut.data "keep-$(basename "$1")-$at"
			bad=$((bad + 1))
			continue
			;;
		esac
		if [ -s err ]; then
			if [ "$(wc -l < err)" != 1 ] || ! grep -q "^prof: .*'cut.data'" err; then
				check_later "$(basename "$1") cut at $at: exit $rc, stderr is not one line naming the file: $(sed -n 1,3p err)"
				bad=$((bad + 1))
			fi
		elif [ "$rc" = 1 ]; then
			check_later "$(basename "$1") cut at $at: exit 1 without a message"
			bad=$((bad + 1))
		fi
		n=$(count_lines '^SAMPLE ' out)
		if [ "$n" -gt "$2" ]; then
			check_later "$(basename "$1") cut at $at: $n samples, more than the whole file's $2"
			bad=$((bad + 1))
		fi
		[ "$bad" -lt 5 ] || break	# enough to go on; the rest would repeat it
	done < cuts
}

before=$failed_later
while read -r name want; do
	case $name in '#'* | '') continue ;; esac
	[ -f "$fixtures/$name" ] || continue
	try_cuts "$fixtures/$name" "$want"
done < "$fixtures/COUNTS"
[ "$failed_later" = "$before" ] &&
	note "every fixture cut at 205 offsets: no crash, errors on one line"

finish
