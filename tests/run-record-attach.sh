#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Attach to running processes and threads (-p, -t): the samples, and the
# synthesized COMM and MMAP2 records that let them be symbolized, with the
# file's build id, so that a binary rebuilt after the recording gives
# [unknown], never its names; and an attach without --duration ends when
# the target exits.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

shape=$WORKLOADS/shape
nm -n -S "$shape" > shape.nm || fail "nm $shape"
real=$(readlink -f "$shape")

mkfifo fifo || fail "mkfifo"
"$shape" -s 30 -r fifo &
wpid=$!
bg_add $wpid
wait_ready fifo

# check_attached DATA WHAT: DATA holds samples of $wpid in shape's leaves,
# symbolizable from a COMM and an MMAP2 of pid $wpid.
check_attached() {
	script_of "$1" "$1.txt"
	n=$(awk -v pid="$wpid" "$awk_lib"'$1 == "SAMPLE" && field("pid") == pid { n++ } END { print n + 0 }' "$1.txt")
	other=$(awk -v pid="$wpid" "$awk_lib"'$1 == "SAMPLE" && field("pid") != pid { n++ } END { print n + 0 }' "$1.txt")
	grep -q "^COMM .*pid=$wpid tid=$wpid .*comm=shape\$" "$1.txt" ||
		fail "$2: no COMM of pid $wpid"
	grep -q "^MMAP2 .*pid=$wpid .*prot=r-x .*file=$real\$" "$1.txt" ||
		fail "$2: no executable MMAP2 of $real for pid $wpid"
	shares shape.nm "$1.txt" "$wpid" > "$1.shares"
	leaves=$(($(count_of leaf_a "$1.shares") + $(count_of leaf_b "$1.shares") + $(count_of leaf_c "$1.shares")))
	a=$(share_of leaf_a "$1.shares" leaf_a leaf_b leaf_c)
	note "$2: $n samples of pid $wpid ($other of others), $leaves in the leaves, leaf_a $a%"
	# the CPU time shape used while it was recorded, not the second asked
	# for: measured around prof's whole run, whose start and end take
	# longer on a busy machine (2.02 s of CPU once, around a 1 s
	# recording), it is at most the 1 s recorded (shape is one thread)
	cpu_used=$(awk -v a="$cpu_before" -v b="$cpu_after" 'BEGIN { c = b - a; if (c > 1) c = 1; printf "%.3f\n", c }')
	floor=$(awk -v c="$cpu_used" 'BEGIN { printf "%d\n", c * 4000 * 0.5 }')
	note "$2: shape used $cpu_used s of CPU while recorded: at least $floor samples"
	[ "$n" -ge "$floor" ] || fail "$2: $n samples of pid $wpid, expected at least $floor ($cpu_used s of CPU at 4000 Hz)"
	[ "$other" = 0 ] || fail "$2: $other samples of other processes"
	# of its samples in user space: the kernel's (interrupts, a preempted
	# return to user space) grow with the machine's load (21% once, beside
	# another suite under ASan)
	user=$(awk -v pid="$wpid" "$awk_lib"'$1 == "SAMPLE" && field("pid") == pid && field("ip") !~ /^0xffff/ { n++ }
		END { print n + 0 }' "$1.txt")
	[ "$leaves" -ge $((user * 8 / 10)) ] ||
		fail "$2: only $leaves of $user samples in user space symbolize to shape's leaves ($n in all)"
	expect_range "$2: leaf_a's share" "$a" 45 75
}

cpu_before=$(proc_cpu $wpid)
run_prof record -p $wpid --duration 1 -o p.data
cpu_after=$(proc_cpu $wpid)
expect_rc 0 "prof record -p $wpid --duration 1"
grep -q '^prof: [0-9]* samples, ' err || fail "-p: no summary line"
check_attached p.data "-p $wpid"

cpu_before=$(proc_cpu $wpid)
run_prof record -t $wpid --duration 1 -q -o t.data
cpu_after=$(proc_cpu $wpid)
expect_rc 0 "prof record -t $wpid --duration 1"
check_attached t.data "-t $wpid"

kill -9 $wpid
wait $wpid 2> /dev/null

# The synthesized MMAP2 carries the build id the file has.
want=$(readelf -n "$shape" 2> /dev/null | awk '/Build ID/ { print $3 }')
if [ -n "$want" ]; then
	grep -q "^MMAP2 .*pid=$wpid .*buildid=$want file=$real\$" p.data.txt ||
		fail "-p: the MMAP2 of $real has not its build id $want: $(grep "file=$real" p.data.txt)"
	# A copy of shape, attached, then replaced by another build: offsets
	# into it (app+0x...), never names from the other build.
	cp "$shape" ./app
	./app -s 30 -r fifo &
	apid=$!
	bg_add $apid
	wait_ready fifo
	run_prof record -p $apid --duration 1 -q -o r.data
	expect_rc 0 "prof record -p $apid (a copy of shape)"
	kill -9 $apid
	wait $apid 2> /dev/null
	cp "$WORKLOADS/threads" ./app
	run_prof report -i r.data --sort sym
	expect_rc 0 "prof report after the attached binary changed"
	grep -q "build id of .*/app differs from the recorded one" err ||
		fail "no build-id warning for the replaced binary: $(cat err)"
	grep -q '\[\.\] \(spin_\|thread_\|leaf_\)' out &&
		fail "names from another build: $(grep '\[\.\] \(spin_\|thread_\|leaf_\)' out)"
	# of the user-space samples: under load the kernel's share grows (16% once, in CI)
	u=$(awk '$1 ~ /%$/ && / \[\.\] / { p = $1; sub("%", "", p); all += p
		if ($(NF - 1) " " $NF == "?? (app)") s += p }
		END { print (all > 0 ? 100 * s / all : 0) }' out)
	note "attached, then rebuilt: ?? (app), app's unnamed code, $u% of user-space samples"
	in_range "$u" 90 100.5 ||
		fail "?? (app) is $u% of user-space samples, expected 90 to 100: $(grep '%' out | sed -n 3,8p)"
else
	note "readelf found no build id in $shape: build ids not checked"
fi

# Without --duration, prof stops when its target exits: shape -s 1 ends
# long before the 20 s limit.
"$shape" -s 1 -r fifo &
wpid=$!
bg_add $wpid
wait_ready fifo
prof_timeout=600
run_prof record -p $wpid -q -o e.data
expect_rc 0 "prof record -p $wpid (until it exits)"
wait $wpid
wrc=$?
[ "$wrc" = 0 ] || fail "shape -s 1 exited $wrc"
script_of e.data e.txt
n=$(awk -v pid="$wpid" "$awk_lib"'$1 == "SAMPLE" && field("pid") == pid { n++ } END { print n + 0 }' e.txt)
note "until exit: $n samples of pid $wpid"
[ "$n" -ge 100 ] || fail "until exit: $n samples of pid $wpid, expected at least 100"

# -t on a thread that is not its process's first: it keeps its name (a
# synthesized FORK after its COMM used to give it ":TID").
"$WORKLOADS/threads" -s 3 &
tpid=$!
bg_add $tpid
i=0
while [ "$(ls /proc/$tpid/task 2> /dev/null | wc -l)" -lt 3 ] && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
ttid=$(ls /proc/$tpid/task 2> /dev/null | grep -vx "$tpid" | sed -n 1p)
[ -n "$ttid" ] || fail "the threads workload has no second thread"
tname=$(cat "/proc/$tpid/task/$ttid/comm")
run_prof record -t "$ttid" --duration 0.5 -q -o tt.data
expect_rc 0 "prof record -t $ttid (a second thread)"
run_prof report -i tt.data --sort comm,tid
expect_rc 0 "prof report of -t $ttid"
got=$(awk -v t="$ttid" '$1 ~ /%$/ && $4 == t { print $3; exit }' out)
note "-t $ttid: the thread is named '$got' ($tname in /proc)"
[ "$got" = "$tname" ] || fail "-t $ttid: the thread is named '$got', not '$tname'"
kill -9 $tpid 2> /dev/null
exit 0
