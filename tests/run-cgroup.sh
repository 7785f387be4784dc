#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -G: events of one cgroup (PERF_FLAG_PID_CGROUP), in prof record, prof
# top and prof stat. shape runs in a cgroup A of the unified hierarchy, another
# shape outside it:
#   - record -a -G A: every sample is of A's shape;
#   - top -G A: every row is A's shape;
#   - record --all-cgroups: report --sort cgroup names A's share, as perf
#     report --sort cgroup does on the file;
#   - stat -a -G A -e task-clock: the CPU time A's cpu.stat says it used
#     over the count (the kernel's own account of the cgroup), within what
#     starting and stopping the count can miss;
#   - -G A, on two events: the first counts A, the second the machine;
#   - without -a, or a cgroup that is not there: one line, exit 64 or 1.
# Needs root and a cgroup2 hierarchy.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event
cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$cg" ] || skip "no cgroup2 hierarchy mounted"
a=$cg/prof-test-g-$$
mkdir "$a" 2> /dev/null || skip "cannot make a cgroup under $cg (not root?)"
cgroup_gone() {
	# processes left in it go back to the root first
	while read -r p; do echo "$p" > "$cg/cgroup.procs"; done < "$a/cgroup.procs" 2> /dev/null
	rmdir "$a" 2> /dev/null
}
on_exit cgroup_gone
name=${a#"$cg"/}

mkfifo in.fifo out.fifo || fail "cannot make FIFOs"
sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" -s 600 -r "$3"' sh "$a" "$WORKLOADS/shape" in.fifo > /dev/null &
inside=$!
bg_add $inside
wait_ready in.fifo
grep -q "^0::/$name\$" /proc/$inside/cgroup || fail "shape is not in $name: $(cat /proc/$inside/cgroup)"
"$WORKLOADS/shape" -s 600 -r out.fifo > /dev/null &
outside=$!
bg_add $outside
wait_ready out.fifo

# --- record: A's samples alone -----------------------------------------------------
run_prof record -q -a -G "$name" -e cpu-clock -o cg.data --duration 1
expect_rc 0 "prof record -a -G $name"
run_prof report -i cg.data --sort pid
expect_rc 0 "prof report --sort pid"
rows=$(awk '$1 ~ /%$/ { print $NF ":" $2 }' out | tr '\n' ' ')
note "record -G: samples by pid: $rows (A's shape is $inside, the other $outside)"
awk -v p=$inside '$1 ~ /%$/ && $NF != p { bad = 1 } END { exit bad }' out ||
	fail "record -G: samples of processes outside $name: $rows"
grep -q "^ *100.00% .* $inside\$" out || fail "record -G: no samples of A's shape: $rows"

# --- top -G: A's process alone ----------------------------------------------------------
run_prof top -G "$name" -s pid --stdio -d 0.5 --duration 2
expect_rc 0 "prof top -G $name"
rows=$(awk '$1 ~ /%$/ { print $2 }' out | sort -u | tr '\n' ' ')
note "top -G: pids $rows (A's shape is $inside)"
[ "$rows" = "$inside " ] || fail "top -G: rows of other processes than A's shape $inside: $(sed -n 1,8p out)"

# --- --all-cgroups: each sample's cgroup, by path, as perf reads them -----------------
run_prof record -q -a --all-cgroups -e cpu-clock -o all.data --duration 1
expect_rc 0 "prof record -a --all-cgroups"
run_prof report -i all.data --sort cgroup
expect_rc 0 "prof report --sort cgroup"
awk '$1 ~ /%$/ { print $NF, $1 }' out | sort > prof.rows
note "--sort cgroup: $(tr '\n' ';' < prof.rows)"
grep -q "^/$name " prof.rows || fail "--sort cgroup: no row of /$name: $(cat out)"
an=$(awk -v n="/$name" '$1 == n { sub(/%/, "", $2); print $2 }' prof.rows)
expect_range "--all-cgroups: /$name's share (of two shapes, one in it, on 2 CPUs)" "$an" 5 95
if command -v perf > /dev/null 2>&1; then
	command perf report -i all.data --stdio --sort cgroup 2> perf.err |
		awk '$1 ~ /%$/ { print $NF, $1 }' | sort > perf.rows
	cmp -s prof.rows perf.rows || fail "--sort cgroup differs from perf's: $(diff prof.rows perf.rows | tr '\n' ' ')"
fi
run_prof script -i all.data
grep -q "^CGROUP .* path=/$name\$" out || fail "script: no CGROUP record of /$name"
n=$(grep -c '^SAMPLE' out)
c=$(grep -c '^SAMPLE .* cgroup=[0-9]' out)
[ "$n" -gt 0 ] && [ "$c" = "$n" ] || fail "script: $c of $n samples with cgroup="

# --- stat: A's CPU time, as the cgroup's own account has it --------------------------
usage() {
	sed -n 's/^usage_usec //p' "$a/cpu.stat"
}
u0=$(usage)
run_prof stat -x, -a -e task-clock -G "$name" -- sleep 2
u1=$(usage)
expect_rc 0 "prof stat -a -G $name"
ms=$(awk -F, '$3 == "task-clock" { print $1 }' err)
used=$(awk -v a="$u0" -v b="$u1" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
note "stat -G: task-clock $ms ms; the cgroup's cpu.stat: $used ms over the same span, and more"
# the count's span lies within the two reads of cpu.stat: no more than they
# saw, and all but what prof's start and stop (a loaded machine's) missed
expect_range "stat -G task-clock (ms) against the cgroup's usage" "${ms:-0}" \
	"$(awk -v u="$used" 'BEGIN { print u * 0.6 }')" "$(awk -v u="$used" 'BEGIN { print u * 1.01 + 2 }')"

# --- one cgroup for the first event, none for the second -------------------------------
run_prof stat -x, -a -e task-clock,cpu-clock -G "$name", -- sleep 1
expect_rc 0 "prof stat -e task-clock,cpu-clock -G $name,"
t=$(awk -F, '$3 == "task-clock" { print $1 }' err)
c=$(awk -F, '$3 == "cpu-clock" { print $1 }' err)
note "-G $name,: task-clock in $name $t ms, cpu-clock of the machine $c ms"
awk -v t="$t" -v c="$c" 'BEGIN { exit !(t + 0 > 0 && c + 0 > t + 0) }' ||
	fail "-G $name,: task-clock $t (the cgroup's) is not under cpu-clock $c (the machine's)"

# --- mistakes ---------------------------------------------------------------------------
run_prof stat -e task-clock -G "$name" -- true
expect_rc 64 "stat -G without -a"
one_error_line "stat -G without -a"
run_prof record -q -e cpu-clock -G "$name" -o bad.data -- true
expect_rc 64 "record -G without -a"
one_error_line "record -G without -a"
run_prof record -q -a -G no-such-cgroup-$$ -e cpu-clock -o bad.data --duration 0.1
expect_rc 1 "record -G of no cgroup"
one_error_line "record -G of no cgroup"
grep -q "no cgroup" err || fail "record -G of no cgroup: $(cat err)"
