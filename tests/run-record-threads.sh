#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record a process of two spinning threads: samples carry the right tid,
# each thread's function is seen on its own tid, half and half.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

threads=$WORKLOADS/threads
nm -n -S "$threads" > threads.nm || fail "nm $threads"

cpu_reset
run_prof record -q -o threads.data -- "$threads" -s 2
expect_rc 0 "prof record -- threads -s 2"
script_of threads.data threads.txt

pid=$(awk "$awk_lib"'$1 == "COMM" && / exec=1 comm=threads$/ { print field("pid"); exit }' threads.txt)
[ -n "$pid" ] || fail "no 'COMM ... exec=1 comm=threads'"

# "symbol tid" of each sample of the process, resolved in threads' text.
resolve threads.nm threads.txt > res.txt
awk -v pid="$pid" '$1 == pid { n++; if (!($2 in tids)) nt++; tids[$2] = 1 } END { print n + 0, nt + 0 }' res.txt > tids.txt
read n ntids < tids.txt
note "$n samples of pid $pid on $ntids tids"
expect_samples "threads of pid $pid" "$n" 4000
[ "$ntids" -ge 2 ] || fail "samples of pid $pid come from $ntids tids, expected at least 2"

# spin_a runs only in thread_a, spin_b only in thread_b: one tid each,
# two different tids, neither the main thread's.
for f in spin_a spin_b; do
	awk -v f="$f" -v pid="$pid" '$1 == pid && $3 == f { t[$2]++ }
	END { for (x in t) print x, t[x] }' res.txt > $f.tids
	[ "$(wc -l < $f.tids)" = 1 ] || fail "$f samples on several tids: $(cat $f.tids)"
done
read tid_a count_a < spin_a.tids
read tid_b count_b < spin_b.tids
note "spin_a: $count_a samples on tid $tid_a; spin_b: $count_b samples on tid $tid_b"
[ "$tid_a" != "$tid_b" ] || fail "spin_a and spin_b samples on the same tid $tid_a"
[ "$tid_a" != "$pid" ] && [ "$tid_b" != "$pid" ] || fail "spinning samples on the main thread $pid"

total=$((count_a + count_b))
a=$(awk -v x="$count_a" -v t="$total" 'BEGIN { printf "%.2f", 100 * x / t }')
b=$(awk -v x="$count_b" -v t="$total" 'BEGIN { printf "%.2f", 100 * x / t }')
note "spin_a $a%, spin_b $b%"
expect_range "spin_a's share" "$a" 25 75
expect_range "spin_b's share" "$b" 25 75

# The threads' creation is recorded: a FORK of each tid within the pid.
for t in $tid_a $tid_b; do
	grep -q "^FORK .*pid=$pid ppid=$pid tid=$t ptid=$pid\$" threads.txt ||
		grep -q "^FORK .*pid=$pid ppid=$pid tid=$t ptid=$pid " threads.txt ||
		fail "no 'FORK pid=$pid ppid=$pid tid=$t ptid=$pid' for the thread"
done
exit 0
