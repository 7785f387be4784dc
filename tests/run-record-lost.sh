#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Overrun the smallest ring: prof must neither fail nor corrupt the file,
# and every loss the kernel reports is kept in the file and counted in
# the summary.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

threads=$WORKLOADS/threads

# lost_run NAME ARGS...: record threads with ARGS into NAME.data, then check
# that the summary's lost count is the sum of lost= over LOST records.
lost_run() {
	name=$1
	shift
	run_prof record "$@" -o $name.data -- "$threads" -s 2
	expect_rc 0 "prof record $* -- threads -s 2"
	summary=$(summary_field 1) || fail "$name: no summary line on stderr"
	slost=$(summary_field 2)
	sline=$(grep '^prof: [0-9]* samples, ' err)
	script_of $name.data $name.txt
	samples=$(count_lines '^SAMPLE ' $name.txt)
	awk "$awk_lib"'
	$1 == "LOST" { n++; lost += field("lost") }
	$1 == "LOST_SAMPLES" { ns++; lsamples += field("lost") }
	END { print n + 0, lost + 0, ns + 0, lsamples + 0 }' $name.txt > $name.lost
	read nlost lost nls lsamples < $name.lost
	note "$name ($*): $samples samples, $nlost LOST records with lost=$lost in all, $nls LOST_SAMPLES with lost=$lsamples; summary: $sline"
	[ "$samples" -ge 100 ] || fail "$name: only $samples samples"
	[ "$samples" = "$summary" ] || fail "$name: summary says $summary samples, prof script shows $samples"
	[ "$slost" = "$lost" ] ||
		fail "$name: summary says $slost lost, the LOST records of the file add up to $lost"
}

lost_run freq -m 1 -F 20000 -g
# a sample every 50 us of CPU: at 10 us, taking the samples (with their
# chains) took most of each thread's CPU, the threads' 2 s of wall time
# stretched to 9 s here, to 316 s beside a loaded suite, and prof script
# read 3 million samples; at 50 us the ring still overruns (6% lost)
lost_run count -m 1 -e cpu-clock -c 50000 -g
exit 0
