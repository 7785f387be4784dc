#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --namespaces: NAMESPACES records, of the threads running at the start
# (synthesized from /proc/PID/task/TID/ns) and of those the kernel makes.
# shape runs in a cgroup namespace of its own (unshare -C), from before
# the recording:
#   - report --sort cgroup_id,comm: shape's row names the device and inode
#     of its /proc/PID/ns/cgroup; by cgroup id the rows are perf report's
#     on the file, and so are calls' by cgroup id and command;
#   - script: a NAMESPACES record a thread, as many as perf script
#     --show-namespace-events prints, shape's with its namespaces;
#   - a program started during the recording (a new task): its record too;
#   - --sort cgroup_id of a file without them: a warning saying how.
# Needs root (unshare -C).
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event
command -v unshare > /dev/null 2>&1 || skip "no unshare (util-linux)"

mkfifo ready.fifo || fail "cannot make a FIFO"
unshare -C "$WORKLOADS/shape" -s 600 -r ready.fifo > /dev/null 2> unshare.err &
sh_pid=$!
bg_add $sh_pid
if ! timeout 300 sh -c 'read x < "$1" && [ "$x" = ready ]' sh ready.fifo; then
	grep -qi "permission\|not permitted" unshare.err && skip "unshare -C is refused: $(cat unshare.err)"
	fail "shape never said ready in its namespace: $(cat unshare.err)"
fi
# unshare execs shape: one pid
want=$(stat -L -c '%d %i' /proc/$sh_pid/ns/cgroup | awk '{ printf "%d/0x%x", $1, $2 }')
mine=$(stat -L -c '%d %i' /proc/self/ns/cgroup | awk '{ printf "%d/0x%x", $1, $2 }')
[ "$want" != "$mine" ] || fail "shape is in this shell's cgroup namespace $mine"

run_prof record -q -a --namespaces -e cpu-clock -o ns.data -- "$WORKLOADS/calls" -n 10
expect_rc 0 "prof record -a --namespaces"

# --- report ------------------------------------------------------------------------------
run_prof report -i ns.data --sort cgroup_id,comm
expect_rc 0 "prof report --sort cgroup_id,comm"
grep -q "^# Overhead  Samples  cgroup id (dev/inode)  Command" out ||
	fail "no cgroup id column: $(grep '^# Overhead' out)"
# (other tests' shapes may run beside it: by its pid)
run_prof report -i ns.data --sort cgroup_id,pid
expect_rc 0 "prof report --sort cgroup_id,pid"
got=$(awk -v p=$sh_pid '$1 ~ /%$/ && $NF == p { print $3; exit }' out)
note "shape's cgroup namespace: $got in the report, $want in /proc (ours: $mine)"
[ "$got" = "$want" ] || fail "shape's row names $got, /proc/$sh_pid/ns/cgroup is $want: $(sed -n 9,16p out)"
# Against perf on the same file: each cgroup id's share, and the rows of
# calls (this test's own program) by cgroup id and command. Not every
# command's row: -a records what other tests run beside this one, and a
# thread first seen by its samples (no FORK or COMM of it yet: one made
# while /proc was read) is ":TID" until its first COMM, where perf renames
# those samples after the fact (____thread__set_comm() in its util/thread.c:
# the default ":tid" comm is overwritten in place) and prof keeps the name
# they had; an exact table of every command then differs by such a thread.
if command -v perf > /dev/null 2>&1; then
	run_prof report -i ns.data --sort cgroup_id
	awk '$1 ~ /%$/ { print $1, $3 }' out | sort > prof.rows
	command perf report -i ns.data --stdio --sort cgroup_id 2> perf.err |
		awk '$1 ~ /%$/ { print $1, $2 }' | sort > perf.rows
	cmp -s prof.rows perf.rows || fail "rows differ from perf report --sort cgroup_id: $(diff prof.rows perf.rows | sed -n 1,6p | tr '\n' ' ')"
	run_prof report -i ns.data --sort cgroup_id,comm
	awk '$1 ~ /%$/ && $4 == "calls" { print $1, $3, $4 }' out | sort > prof.calls
	command perf report -i ns.data --stdio --sort cgroup_id,comm 2> perf.err |
		awk '$1 ~ /%$/ && $3 == "calls" { print $1, $2, $3 }' | sort > perf.calls
	[ -s prof.calls ] || fail "no row of calls in prof report --sort cgroup_id,comm: $(grep '%' out | head -5)"
	cmp -s prof.calls perf.calls || fail "calls' rows differ from perf report --sort cgroup_id,comm: $(diff prof.calls perf.calls | tr '\n' ' ')"
	note "report --sort cgroup_id: $(wc -l < prof.rows) rows, perf's; calls by cgroup id and command: $(tr '\n' ' ' < prof.calls)"
fi

# --- script ------------------------------------------------------------------------------
run_prof script -i ns.data
expect_rc 0 "prof script"
n=$(grep -c '^NAMESPACES ' out)
grep -q "^NAMESPACES .* pid=$sh_pid tid=$sh_pid nr=7 net=.* cgroup=$want\$" out ||
	fail "no NAMESPACES record of shape with cgroup=$want: $(grep "^NAMESPACES .* pid=$sh_pid " out | sed -n 1p)"
# calls, which began after the start: the kernel's record of it
cp=$(awk '/^COMM .* comm=calls$/ { for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) { print substr($i, 5); exit } }' out)
[ -n "$cp" ] || fail "no COMM of calls"
grep -q "^NAMESPACES .* pid=$cp tid=$cp nr=7 .* cgroup=$mine\$" out ||
	fail "no NAMESPACES record of calls ($cp), a new task: $(grep "pid=$cp " out | sed -n 1,3p)"
if command -v perf > /dev/null 2>&1; then
	m=$(command perf script -i ns.data --show-namespace-events 2> perf.err | grep -c 'PERF_RECORD_NAMESPACES')
	note "NAMESPACES records: prof script $n, perf script $m"
	[ "$n" = "$m" ] || fail "prof script prints $n NAMESPACES records, perf script $m"
fi

# --- a file without them -------------------------------------------------------------------
golden_profile
run_prof report -i golden.data $gopts --sort cgroup_id
expect_rc 0 "prof report --sort cgroup_id without NAMESPACES"
grep -q "no sample has its thread's namespaces for --sort cgroup_id; record with --namespaces" err ||
	fail "no warning: $(cat err)"
finish
