#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof record --off-cpu on tests/workloads/offcpu, one thread that spins
# 50% of its wall time (spin_work), sleeps 30% (sleep_work, nanosleep) and
# blocks 20% in a read (read_work, a timerfd): as root, --event off-cpu
# gives the sleep and the read 60:40, and --wall the three 50:30:20, each
# within 6 points, with whole stacks; as a normal user at
# perf_event_paranoid 2, the thread's off-CPU total is 50% and the header
# says why there are no stacks; perf reads the files.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

W=$WORKLOADS/offcpu
[ -x "$W" ] || fail "no $W (make check builds it)"

# share SYM: SYM's inclusive share in the report in ./out (--children --sort sym)
share() {
	awk -v s="$1" '$1 ~ /%$/ && $NF == s { p = $1; sub(/%/, "", p); print p; exit }
		END { }' out
}

if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ]; then
	# 8 KiB of stack a sample: rings of 4 MiB, so that a loaded machine
	# that drains late loses little
	PROF_WORKLOAD_WAITS=$PWD/off.waits run_prof record -q --off-cpu --call-graph dwarf \
		-m 1024 -e cpu-clock -o off.data -- "$W" -s 2
	expect_rc 0 "prof record --off-cpu"
	# what it lost all the same (a share of the samples) may all be of one
	# kind: the shares may move by that much more
	lp=$(sed -n 's/^prof: warning: [0-9]* records were lost (\([0-9.]*\)% of samples).*/\1/p' err | sed -n 1p)
	tol=$(awk -v l="${lp:-0}" 'BEGIN { print 6 + l }')
	[ "${lp:-0}" = 0 ] || note "off-cpu: ${lp}% of the samples lost, the shares are checked within $tol points"
	# the shares the waits really took, by the workload's clock (60:40 on
	# an idle machine; a busy one adds the wait for a CPU to each)
	[ -s off.waits ] || fail "the workload wrote no off.waits"
	want=$(awk '{ printf "%.1f\n", 100 * $1 / ($1 + $2) }' off.waits)
	run_prof report -i off.data --event off-cpu --children --sort sym
	expect_rc 0 "prof report --event off-cpu"
	sl=$(share sleep_work)
	rd=$(share read_work)
	note "off-cpu: sleep_work ${sl:-0}%, read_work ${rd:-0}% (the workload saw $want:$(awk -v t="$tol" -v w="$want" 'BEGIN { print 100 - w }'))"
	expect_range "off-cpu: sleep_work's share" "${sl:-0}" "$(awk -v t="$tol" -v w="$want" 'BEGIN { print w - t }')" \
		"$(awk -v t="$tol" -v w="$want" 'BEGIN { print w + t }')"
	expect_range "off-cpu: read_work's share" "${rd:-0}" "$(awk -v t="$tol" -v w="$want" 'BEGIN { print 100 - w - t }')" \
		"$(awk -v t="$tol" -v w="$want" 'BEGIN { print 100 - w + t }')"
	q=$(sed -n 's/^# stacks: *\([0-9.]*\)% complete.*/\1/p' out)
	expect_range "off-cpu: whole stacks (%)" "${q:-0}" 95 100

	run_prof report -i off.data --wall --children --sort sym
	expect_rc 0 "prof report --wall"
	sp=$(share spin_work)
	sl=$(share sleep_work)
	rd=$(share read_work)
	# of the loop's time, by the workload's clock (50:30:20 when idle)
	set -- $(awk '{ printf "%.1f %.1f %.1f\n", 100 * ($3 - $1 - $2) / $3, 100 * $1 / $3, 100 * $2 / $3 }' off.waits)
	note "wall: spin_work ${sp:-0}%, sleep_work ${sl:-0}%, read_work ${rd:-0}% (the workload saw $1:$2:$3)"
	note "$(grep '^# thread:' out | sed -n 1p)"
	expect_range "wall: spin_work's share" "${sp:-0}" "$(awk -v t="$tol" -v w="$1" 'BEGIN { print w - t }')" \
		"$(awk -v t="$tol" -v w="$1" 'BEGIN { print w + t }')"
	expect_range "wall: sleep_work's share" "${sl:-0}" "$(awk -v t="$tol" -v w="$2" 'BEGIN { print w - t }')" \
		"$(awk -v t="$tol" -v w="$2" 'BEGIN { print w + t }')"
	expect_range "wall: read_work's share" "${rd:-0}" "$(awk -v t="$tol" -v w="$3" 'BEGIN { print w - t }')" \
		"$(awk -v t="$tol" -v w="$3" 'BEGIN { print w + t }')"
	# the thread's time adds up to the run: 2 s, within 10%
	tot=$(sed -n 's/^# thread: *[0-9]*\/[0-9]* offcpu: \([0-9.]*\) s:.*/\1/p' out | sed -n 1p)
	expect_range "wall: the thread's total (s)" "${tot:-0}" 1.8 2.2
	# --format json: the threads' times, valid by the schema
	run_prof report -i off.data --wall --sort sym -F json -o wall.json
	expect_rc 0 "prof report --wall -F json"
	b=$(jq '.threads[0].blocked' wall.json 2> /dev/null)
	expect_range "wall json: the thread's blocked ns" "${b:-0}" 900000000 1100000000
	py=$(jsonschema_python)
	if [ -n "$py" ]; then
		$py -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
			"$srcdir/doc/prof-report.schema.json" wall.json > json.out 2>&1 ||
			fail "wall json does not validate: $(tail -3 json.out)"
	fi

	# threads on one mutex: the wait is in lock_wait
	run_prof record -q --off-cpu --call-graph dwarf -e cpu-clock -o lock.data -- "$W" -s 1 -l 3
	expect_rc 0 "prof record --off-cpu (lock)"
	run_prof report -i lock.data --event off-cpu --children --sort sym
	lw=$(share lock_wait)
	mn=$(share main)
	# the lockers' waits (all but main's, in pthread_join) are in lock_wait;
	# how long they wait depends on what else runs, their share of it does not
	r=$(awk -v l="${lw:-0}" -v m="${mn:-0}" 'BEGIN { printf "%.1f\n", m < 100 ? 100 * l / (100 - m) : 0 }')
	note "lock: lock_wait ${lw:-0}% of the off-CPU time, main ${mn:-0}%: $r% of the lockers' waits"
	expect_range "lock: lock_wait's share of the lockers' off-CPU time" "$r" 80 100

	# a shell that runs the program twice: both children's switches are kept
	run_prof record -q --off-cpu -g -e cpu-clock -o fork.data -- \
		sh -c "$W -s 0.5; $W -s 0.5"
	expect_rc 0 "prof record --off-cpu (fork and exec)"
	run_prof report -i fork.data --event off-cpu --sort comm,pid
	n=$(awk '$1 ~ /%$/ && $3 == "offcpu"' out | wc -l)
	[ "$n" = 2 ] || fail "fork and exec: $n offcpu processes with off-CPU time, expected 2: $(cat out)"

	# two threads over pipes: tens of thousands of switches a second, none
	# lost while the machine leaves the recorder a CPU; and whatever is
	# lost, the report says, as the recorder counted it
	busy_begin
	run_prof record --off-cpu -g -e cpu-clock -o pp.data -- "$W" -s 1 -p
	expect_rc 0 "prof record --off-cpu (ping-pong)"
	lost=$(summary_field 2)
	# what the machine gave it: the round trips it made (about 2,400 at load 20)
	rt=$(sed -n 's/^offcpu: \([0-9]*\) round trips$/\1/p' out)
	[ -n "$rt" ] || fail "ping-pong: the workload did not say its round trips: $(cat out)"
	run_prof report -i pp.data --sort comm
	hl=$(sed -n 's/^# lost: *\([0-9]*\) records.*/\1/p' out | sed -n 1p)
	[ "$hl" = "$lost" ] || fail "ping-pong: the recorder lost $lost records, the report's header says ${hl:-nothing}"
	run_prof script -i pp.data
	# a switch-out is a SWITCH record, or folded into its context-switches sample
	sw=$(grep -c -E '^(SWITCH|SAMPLE).* out=' out)
	fo=$(grep -c '^SAMPLE.* out=' out)
	note "ping-pong: $sw switch-outs in 1 s ($fo folded into their samples) for $rt round trips, $lost lost records"
	if [ "$lost" != 0 ] && idle_enough "ping-pong: no records lost"; then
		fail "ping-pong: $lost records lost at default buffers on a machine that was not busy"
	fi
	# each round trip is waited for by one thread at least (two, nearly
	# always: each blocks in its read); the records lost may hold some
	[ "$lost" != 0 ] || [ "$sw" -ge "$rt" ] ||
		fail "ping-pong: $sw switch-outs recorded for $rt round trips"
	[ "$rt" -ge 1000 ] || note "ping-pong: the machine gave it $rt round trips in 1 s (a busy machine)"
	# the recorder folds all but those that a drain's end split from their sample
	[ "$fo" -ge $((sw * 9 / 10)) ] || fail "ping-pong: only $fo of $sw switch-outs folded into their samples"
	# what the report makes of them: each thread's intervals from a
	# switch-out to its next switch-in, as the records say in time order
	grep -E '^(SAMPLE.*event=context-switches|SWITCH)' out | sort -s -t= -k2,2g | awk '
		/ out=/ { split($2, a, "="); split($5, b, "="); o[b[2]] = a[2]; p[b[2]] = / out=preempt/ }
		/ in=1/ { split($2, a, "="); split($5, b, "=")
			if (b[2] in o) { d = a[2] - o[b[2]]; if (d > 0) { if (p[b[2]]) P += d; else B += d } delete o[b[2]] } }
		END { printf "%.0f %.0f\n", B * 1e9, P * 1e9 }' > ivals
	read -r bl pre < ivals
	run_prof report -i pp.data --event off-cpu -F json
	rb=$(jq '.events[0].period' out 2> /dev/null)
	run_prof report -i pp.data --event preempted -F json
	rp=$(jq '.events[0].period // 0' out 2> /dev/null)
	note "ping-pong: blocked ${rb:-?} ns, preempted ${rp:-?} ns; the records' intervals $bl and $pre"
	expect_range "ping-pong: off-cpu ns against the records' intervals" "${rb:-0}" \
		"$(awk -v v="$bl" 'BEGIN { printf "%.0f", v * 0.999 - 1000 }')" \
		"$(awk -v v="$bl" 'BEGIN { printf "%.0f", v * 1.001 + 1000 }')"
	expect_range "ping-pong: preempted ns against the records' intervals" "${rp:-0}" \
		"$(awk -v v="$pre" 'BEGIN { printf "%.0f", v * 0.999 - 1000 }')" \
		"$(awk -v v="$pre" 'BEGIN { printf "%.0f", v * 1.001 + 1000 }')"

	# parallelism and latency: two threads spinning side by side on two
	# CPUs (side by side as long as nothing else takes one of the CPUs:
	# under make -j, less; the floor is low, the latency check exact)
	busy_begin
	run_prof record -q --off-cpu -g -e cpu-clock -o lat.data -- "$WORKLOADS/threads" -s 1
	expect_rc 0 "prof record --off-cpu (threads)"
	run_prof report -i lat.data --event cpu-clock --sort parallelism
	two=$(awk '$1 ~ /%$/ && $3 == 2 { p = $1; sub(/%/, "", p); print p }' out)
	note "threads: ${two:-0}% of the samples ran with 2 threads of the process on a CPU"
	if [ "$(nproc)" -ge 2 ] && idle_enough "threads: parallelism 2 at least 20%"; then
		expect_range "threads: parallelism 2 (%)" "${two:-0}" 20 100
	fi
	# what --latency weighs: each share divided by its parallelism
	want=$(awk '$1 ~ /%$/ { p = $1; sub(/%/, "", p); s += p / $3 } END { printf "%.3f\n", s / 100 }' out)
	run_prof report -i lat.data --event cpu-clock --sort comm -F json
	full=$(jq '.events[0].period' out 2> /dev/null)
	run_prof report -i lat.data --event cpu-clock --latency --sort comm -F json
	half=$(jq '.events[0].period' out 2> /dev/null)
	r=$(awk -v a="${half:-0}" -v b="${full:-1}" 'BEGIN { printf "%.2f\n", a / b }')
	note "threads: --latency weighs $r of the CPU time ($want by the parallelism column)"
	expect_range "threads: latency / CPU time" "$r" "$(awk -v w="$want" 'BEGIN { print w - 0.02 }')" \
		"$(awk -v w="$want" 'BEGIN { print w + 0.02 }')"

	# folded and pprof weigh nanoseconds
	run_prof report -i off.data --event off-cpu -F folded --no-comm
	ns=$(awk '{ s += $NF } END { printf "%.0f\n", s / 1e6 }' out)
	note "off-cpu folded: $ns ms in all"
	expect_range "off-cpu folded total (ms)" "$ns" 900 1100
	if command -v perf > /dev/null 2>&1; then
		perf report -i off.data --stdio > perf.out 2> perf.err ||
			fail "perf report of an --off-cpu file: $(tail -3 perf.err)"
		grep -q "of event 'context-switches'" perf.out ||
			fail "perf report does not show the context-switches event: $(sed -n 1,20p perf.out)"
	fi
else
	note "not root and perf_event_paranoid above 1: no stacks of off-CPU time to check"
fi

# Modifiers as perf takes them: :u samples no kernel frame; a wrong one is one line
run_prof record -q -e cpu-clock:u -o u.data -- "$W" -s 0.3 -w 90,5,5
expect_rc 0 "prof record -e cpu-clock:u"
run_prof report -i u.data --sort dso
grep -q 'kernel.kallsyms' out && fail "-e cpu-clock:u sampled the kernel: $(cat out)"
grep -q '^# event: *cpu-clock:u$' out || fail "-e cpu-clock:u: the header does not say :u: $(sed -n 2p out)"
# cycles:u, where there is no PMU: cpu-clock, still :u, and the notice is no error
run_prof record -e cycles:u -o cu.data -- "$W" -s 0.2 -w 90,5,5
expect_rc 0 "prof record -e cycles:u"
if grep -q 'no hardware cycle counter' err; then
	grep -q 'such file\|rror' err && fail "-e cycles:u: the notice reads like an error: $(cat err)"
	run_prof report -i cu.data --sort dso
	grep -q '^# event: *cpu-clock:u$' out || fail "-e cycles:u fell back, but the header says: $(sed -n 2p out)"
fi
run_prof record -e cpu-clock:x -o x.data -- true
expect_rc 64 "prof record -e cpu-clock:x"
one_error_line "prof record -e cpu-clock:x"
grep -q "unknown modifier in 'cpu-clock:x'" err || fail "-e cpu-clock:x: $(cat err)"

# Tracepoints, named and with their raw fields, as perf reads them too
if [ -r /sys/kernel/tracing/events/sched/sched_switch/id ] ||
	[ -r /sys/kernel/debug/tracing/events/sched/sched_switch/id ]; then
	run_prof record -q -e syscalls:sys_enter_read,sched:sched_switch -g -o tp.data -- "$W" -s 0.5
	expect_rc 0 "prof record -e syscalls:sys_enter_read,sched:sched_switch"
	run_prof script -i tp.data
	n=$(grep -c '^SAMPLE.* event=syscalls:sys_enter_read .* fd=[0-9]* buf=[0-9]* count=8$' out)
	note "tracepoints: $n reads of 8 bytes (the timerfd's, one a round: 5 in 0.5 s)"
	[ "$n" -ge 3 ] || fail "prof script: $n sys_enter_read samples with fd, buf and count=8: $(grep -m2 SAMPLE out)"
	grep -q '^SAMPLE.* event=sched:sched_switch .* prev_comm=offcpu .*next_pid=[0-9]' out ||
		fail "prof script: no sched_switch sample with its fields: $(grep -m2 sched_switch out)"
	run_prof report -i tp.data --children --sort sym
	grep -q '^# event:    sched:sched_switch' out || fail "prof report does not name the tracepoint"
	if command -v perf > /dev/null 2>&1; then
		perf script -i tp.data > perf.out 2> perf.err || fail "perf script: $(tail -3 perf.err)"
		grep -q 'syscalls:sys_enter_read: fd: 0x00000003.*count: 0x00000008' perf.out ||
			fail "perf script does not decode the tracepoint: $(grep -m2 sys_enter perf.out)"
	fi
	run_prof record -e nosuch:thing -o x.data -- true
	expect_rc 1 "prof record -e nosuch:thing"
	one_error_line "prof record -e nosuch:thing"
	grep -q "no tracepoint 'nosuch:thing' in " err || fail "-e nosuch:thing: $(cat err)"
else
	note "tracefs is not readable here: tracepoints left unchecked"
fi

# A normal user at paranoid 2: switches only, per thread, and why
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null 2>&1 && id nobody > /dev/null 2>&1 &&
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
	mkdir pub && chmod 755 . && chmod 777 pub
	cp "$PROF" pub/prof && cp "$W" pub/offcpu && chmod 755 pub/prof pub/offcpu
	PROF_WORKLOAD_WAITS=$PWD/pub/n.waits setpriv --reuid=nobody --regid=nogroup --clear-groups \
		pub/prof record --off-cpu -g -e cpu-clock -o pub/n.data -- pub/offcpu -s 1 > out 2> err
	rc=$?
	expect_rc 0 "prof record --off-cpu as nobody"
	grep -q "no stacks at switch-out as a normal user with /proc/sys/kernel/perf_event_paranoid at" err ||
		fail "no notice that switch-outs are not sampled: $(cat err)"
	run_prof report -i pub/n.data --wall --sort sym
	expect_rc 0 "prof report --wall (nobody)"
	grep -q '^# off-cpu:  no stacks: .*perf_event_paranoid' out ||
		fail "the header does not say why off-CPU time has no stacks: $(sed -n 1,12p out)"
	b=$(sed -n 's/^# thread: .*blocked [0-9.]* s (\([0-9.]*\)%)$/\1/p' out | sed -n 1p)
	[ -s pub/n.waits ] || fail "the workload wrote no pub/n.waits"
	want=$(awk '{ printf "%.1f\n", 100 * ($1 + $2) / $3 }' pub/n.waits)
	note "nobody: blocked ${b:-0}% of the thread's time (the workload saw $want%)"
	expect_range "nobody: the thread's blocked share" "${b:-0}" "$(awk -v w="$want" 'BEGIN { print w - 6 }')" \
		"$(awk -v w="$want" 'BEGIN { print w + 6 }')"
else
	note "cannot run as nobody at perf_event_paranoid 2 here: per-thread totals left unchecked"
fi
exit 0
