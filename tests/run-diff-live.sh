#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof diff on real runs: tests/workloads/shape with its leaves called
# 6:3:1 and 3:3:4 times a round (-w). 6:3:1 against 3:3:4 gives about -30
# and +30 points, flagged; two runs of 6:3:1 differ by under 8 points;
# the gate exits 1 and 0 accordingly; and perf diff, reading the same two
# files (as prof convert writes them: perf 6.1's diff crashes on pipe
# mode), agrees on every entry above 1%.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event
shape=$WORKLOADS/shape

# -F 4000: about 6000 samples a run on an idle machine, so that sampling
# noise (about 0.9 points on a 30% share) is small next to the changes
rec() {
	run_prof record -g -F 4000 -o "$1.data" -- "$shape" -s 1.5 -w "$2"
	expect_rc 0 "prof record shape -w $2"
}
rec a 6:3:1
rec b 3:3:4
rec a2 6:3:1

run_prof diff a.data b.data
expect_rc 0 "prof diff (6:3:1 -> 3:3:4)"
da=$(diff_delta leaf_a)
db=$(diff_delta leaf_b)
dc=$(diff_delta leaf_c)
note "6:3:1 -> 3:3:4: leaf_a $da, leaf_b $db, leaf_c $dc points"
# What noise allows, from the samples the machine gave each run: a change
# of share from P to Q points is off by sampling alone with a standard
# error of sqrt(P(100-P)/N1 + Q(100-Q)/N2); allow 4.5 of them, and 1.5
# points for the kernel's share (interrupts, page faults), which differs
# between runs and scales the leaves' shares.
n1=$(sed -n "s/^# BASE .*': \([0-9]*\) samples.*/\1/p" out)
n2=$(sed -n "s/^# NEW .*': \([0-9]*\) samples.*/\1/p" out)
[ "${n1:-0}" -ge 200 ] && [ "${n2:-0}" -ge 200 ] ||
	skip "the machine gave shape ${n1:-0} and ${n2:-0} samples, too few to judge a change of 30 points"
# within NAME GOT P Q: GOT is Q - P points, give or take noise
within() {
	_t=$(awk -v p="$3" -v q="$4" -v a="$n1" -v b="$n2" \
		'BEGIN { printf "%.2f", 1.5 + 4.5 * sqrt(p * (100 - p) / a + q * (100 - q) / b) }')
	expect_range "$1's change (points; $n1 and $n2 samples, noise allows $_t)" "$2" \
		"$(awk -v p="$3" -v q="$4" -v t="$_t" 'BEGIN { print q - p - t }')" \
		"$(awk -v p="$3" -v q="$4" -v t="$_t" 'BEGIN { print q - p + t }')"
}
note "samples: $n1 and $n2"
within leaf_a "$da" 60 30
within leaf_b "$db" 30 30
within leaf_c "$dc" 10 40
[ "$(diff_change leaf_a)" = shrank ] || fail "leaf_a: $(diff_change leaf_a), expected shrank"
[ "$(diff_change leaf_c)" = grew ] || fail "leaf_c: $(diff_change leaf_c), expected grew"

# Two runs of one workload differ by more than sampling: five runs of
# shape at 4 kHz, 6,000 samples each, gave leaf_a 57.9 to 61.7% (1.5
# points apart where sampling alone makes 0.6), and one run beside a
# build 4.5 points from the other; prof diff rightly calls such a change
# real. So equal runs are held to what a gate would allow, 8 points
# (over 3.5 times that spread between two runs), far under the 30 of a
# real change. The kernel's share may differ too (a burst of interrupts),
# which moves every other share a little: the program's are judged among
# its own samples (--dso shape).
run_prof diff a.data a2.data
expect_rc 0 "prof diff of two runs of 6:3:1"
other=$(awk '$1 ~ /%$/ && $4 != "noise"' out)
[ -z "$other" ] || note "two runs of 6:3:1, of all samples: $other"
run_prof diff --dso shape a.data a2.data
expect_rc 0 "prof diff --dso shape of two runs of 6:3:1"
changed=$(awk '$1 ~ /%$/ && $6 == "shape" && $4 != "noise"' out)
[ -z "$changed" ] || note "two runs of 6:3:1, among shape's samples: $changed"
big=$(awk '$1 ~ /%$/ && $6 == "shape" { d = $3 + 0; if (d > 8 || d < -8) print }' out)
[ -z "$big" ] || fail "two runs of 6:3:1 differ by over 8 points in shape: $big"

run_prof diff --fail-above 5 a.data b.data
expect_rc 1 "--fail-above 5 (leaf_c grew by 30)"
run_prof diff --fail-above 8 --dso shape a.data a2.data
expect_rc 0 "--fail-above 8 --dso shape (two runs of 6:3:1)"

# call paths: run's leaves under main, matched by name
run_prof diff --tree a.data b.data
expect_rc 0 "prof diff --tree"
grep -q 'grew *\[\.\] leaf_c$' out || fail "--tree: leaf_c did not grow under run"

# --- off-CPU time: not sampled, every wait recorded -----------------------------
# offcpu -w SPIN,SLEEP,READ: off-CPU 30:20 (sleep 60%, read 40%) against
# 10:40 (20%, 80%). Stacks at switch-out need root or perf_event_paranoid <= 1.
if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ]; then
	O=$WORKLOADS/offcpu
	for x in o1:50,30,20 o2:50,10,40 o3:50,30,20; do
		PROF_WORKLOAD_WAITS=$PWD/${x%%:*}.waits run_prof record -q --off-cpu -g \
			-o "${x%%:*}.data" -- "$O" -s 1.5 -w "${x#*:}"
		expect_rc 0 "prof record --off-cpu offcpu -w ${x#*:}"
		[ -s "${x%%:*}.waits" ] || fail "offcpu -w ${x#*:} wrote no ${x%%:*}.waits"
	done
	# What the waits really took, by the workload's own clock: on a busy
	# machine a woken thread also waits for a CPU, which off-CPU time
	# counts, so the shares are not quite 60:40 and 20:80. The change
	# prof measures must be the change the workload saw.
	# waits_delta A B: sleep_work's change of share (points) from A to B,
	# of the off-CPU time (sleep + read), or with "wall" of the loop's time
	waits_delta() {
		awk -v w="${3:-}" 'NR == FNR { a = w == "wall" ? $1 / $3 : $1 / ($1 + $2); next }
			{ b = w == "wall" ? $1 / $3 : $1 / ($1 + $2) }
			END { printf "%.2f\n", 100 * (b - a) }' "$1.waits" "$2.waits"
	}
	want=$(waits_delta o1 o2)
	run_prof diff --event off-cpu --children --sort sym o1.data o2.data
	expect_rc 0 "prof diff --event off-cpu"
	ds=$(diff_delta sleep_work)
	dr=$(diff_delta read_work)
	note "off-cpu, 30:20 -> 10:40: sleep_work $ds, read_work $dr points (the workload saw $want)"
	expect_range "off-cpu: sleep_work's change (points)" "$ds" \
		"$(awk -v w="$want" 'BEGIN { print w - 6 }')" "$(awk -v w="$want" 'BEGIN { print w + 6 }')"
	expect_range "off-cpu: read_work's change (points)" "$dr" \
		"$(awk -v w="$want" 'BEGIN { print -w - 6 }')" "$(awk -v w="$want" 'BEGIN { print -w + 6 }')"
	[ "$(diff_change sleep_work)" = shrank ] || fail "off-cpu: sleep_work is $(diff_change sleep_work)"
	[ "$(diff_change read_work)" = grew ] || fail "off-cpu: read_work is $(diff_change read_work)"
	grep -q '^# off-cpu   not sampled' out || fail "off-cpu: the header does not say how it counts noise"
	# two runs of one shape: no change, as long as the machine gave them
	# the same (by the workload's clock, within a point)
	same=$(waits_delta o1 o3)
	if awk -v d="$same" 'BEGIN { exit !(d > -1 && d < 1) }'; then
		run_prof diff --event off-cpu --children --sort sym o1.data o3.data
		expect_rc 0 "prof diff --event off-cpu (equal runs)"
		# (what the workload timed: spin_work's and main's off-CPU time is
		# also the CPU the machine did not give them, which load changes)
		for f in sleep_work read_work; do
			c=$(diff_change $f)
			[ -z "$c" ] || [ "$c" = noise ] || fail "off-cpu, equal runs: $f $c by $(diff_delta $f)"
		done
	else
		note "off-cpu, equal runs: not checked, the machine changed sleep_work's share by $same points between them"
	fi
	# wall-clock: sleep_work 30% -> 10% of the run
	want=$(waits_delta o1 o2 wall)
	run_prof diff --wall --children --sort sym o1.data o2.data
	expect_rc 0 "prof diff --wall"
	ds=$(diff_delta sleep_work)
	note "wall, 50:30:20 -> 50:10:40: sleep_work $ds points (the workload saw $want)"
	expect_range "wall: sleep_work's change (points)" "$ds" \
		"$(awk -v w="$want" 'BEGIN { print w - 5 }')" "$(awk -v w="$want" 'BEGIN { print w + 5 }')"
else
	note "off-CPU diffs not tested: stacks at switch-out need root or perf_event_paranoid <= 1"
fi

# --- perf diff on the same files ----------------------------------------------
require_perf
run_prof convert -i a.data -o a.perf
expect_rc 0 "prof convert a.data"
run_prof convert -i b.data -o b.perf
expect_rc 0 "prof convert b.data"
perf diff a.perf b.perf > perf.out 2> perf.err || fail "perf diff: $(tail -3 perf.err)"
run_prof diff --sort dso,sym a.perf b.perf
expect_rc 0 "prof diff --sort dso,sym (converted files)"
# perf: "Baseline  Delta Abs  Shared Object  Symbol"; entries above 1% on either side
awk '$1 ~ /%$/ && $2 ~ /%$/ && $3 != "" { b = $1; sub("%", "", b); d = $2; sub("%", "", d)
	if (b + 0 >= 1 || b + d >= 1) print $NF, b + 0, d + 0 }' perf.out | sort > perf.entries
[ -s perf.entries ] || fail "perf diff printed no entries: $(head -20 perf.out)"
awk '$1 ~ /%$/ && $2 ~ /%$/ { b = $1; sub("%", "", b); print $NF, b + 0, $3 + 0 }' out | sort > prof.entries
n=0
while read -r sym pb pd; do
	line=$(grep "^$sym " prof.entries) || fail "perf diff's $sym ($pb%, $pd) is not in prof diff"
	# shellcheck disable=SC2086
	set -- $line
	expect_range "$sym: prof's base share against perf's $pb%" "$2" "$(echo "$pb" | awk '{ print $1 - 0.05 }')" \
		"$(echo "$pb" | awk '{ print $1 + 0.05 }')"
	expect_range "$sym: prof's delta against perf's $pd" "$3" "$(echo "$pd" | awk '{ print $1 - 0.05 }')" \
		"$(echo "$pd" | awk '{ print $1 + 0.05 }')"
	n=$((n + 1))
done < perf.entries
note "perf diff agrees on $n entries above 1%: $(tr '\n' ' ' < perf.entries)"
[ "$n" -ge 3 ] || fail "perf diff and prof diff share $n entries above 1%, expected the three leaves"
finish
