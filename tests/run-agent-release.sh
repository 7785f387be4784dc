#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof agent names each process from the file it really maps, and lets go
# of the files of programs that have exited:
#   - a program (shape, copied as relpPID) run and scraped: the agent has
#     its file open; a few seconds after it exits (--symbols-idle 1), no
#     descriptor or mapping of the agent's refers to it, though nothing
#     but samples comes in the meantime;
#   - rebuilt while it runs (rm, then another program, inline, at the same
#     path, started too): one scrape names both, leaf_a for the old and
#     inl_leaf (or outer, the function it is inlined into) for the new,
#     each from its own file;
#   - deleted and replaced before the agent starts (an upgrade under a
#     running service): the agent names it from the file it maps
#     (/proc/PID/map_files, or the copy the recorder keeps of it), leaf_a,
#     not from what the path names now;
#   - run again and again, every 6 s, each run short (a cron job, a
#     build's compiler): its file stays open between the runs,
#     though no process maps it then and no new address needs it (it was
#     let go of and opened again at each 5 s pass).
# The scrapes are read by go tool pprof -top, by function name.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

require_perf_event
command -v go > /dev/null 2>&1 || skip "no go: the scrapes are read by go tool pprof"

# (user space only: what is held and let go is the program's file, and on a
# loaded machine the kernel's share of a busy loop's samples, interrupts
# enabled again after a preemption, reached 15%)
# start_agent COMM [IDLE]: --symbols-idle IDLE (default 1)
start_agent() {
	"$PROF" agent --listen 127.0.0.1:0 -F 199 -e cpu-clock:u --comm "$1" --symbols-idle "${2:-1}" \
		--duration 120 2> agent.err &
	agent_pid=$!
	bg_add $agent_pid
	agent_url
}
# scrape NAME: 2 s, "share function" per line, by flat share
scrape() {
	HOME=$PWD GOCACHE=$PWD/gocache GOFLAGS= timeout 300 go tool pprof -top \
		"$url?seconds=2" > "$1.out" 2> "$1.err" || fail "go tool pprof: $(tail -n 3 "$1.err")"
	awk '$2 ~ /%$/ && $6 != "" { sub(/%/, "", $2); print $2, $6 }' "$1.out" > "$1.top"
	note "$1: $(head -n 4 "$1.top" | tr '\n' ' ')"
}
# share NAME FUNCTION: its flat share in scrape NAME, 0 when absent
share() {
	awk -v f="$2" '$2 == f { s += $1 } END { printf "%.1f\n", s }' "$1.top"
}
# maps_hold FILE: whether the agent maps FILE, read by the shell alone
maps_hold() {
	while IFS= read -r _l; do
		case $_l in *"$1"*) return 0 ;; esac
	done < /proc/$agent_pid/maps
	return 1
}
# holds FILE: whether the agent has FILE mapped or open
holds() {
	maps_hold "$1" 2> /dev/null ||
		for fd in /proc/$agent_pid/fd/*; do readlink "$fd"; done 2> /dev/null | grep -q "$1"
}
# the programs' names (and so --comm) are this run's own: two suites on one
# machine each see only theirs
rp=relp$$
rp2=relq$$

# --- the file of a program that exited is let go ------------------------------------
# (it runs until it is killed, once the agent is seen holding its file: a
# run of fixed length could end first on a loaded machine)
cp "$WORKLOADS/shape" $rp || fail "cannot copy shape"
mkfifo fifo || fail "cannot make a FIFO"
start_agent $rp
./$rp -s 600 -w 1:0:0 -r fifo > /dev/null &
a=$!
bg_add $a
wait_ready fifo
scrape exit
s=$(share exit leaf_a)
expect_range "$rp's leaf_a share while it runs" "$s" 90 100
holds "$PWD/$rp" || fail "the agent does not hold $rp while it runs: the test shows nothing"
maps_hold "$PWD/$rp" || fail "the agent does not map $rp while it runs: the test shows nothing"
kill $a
wait_gone $a 300 || fail "$rp did not end"
# Waited for by the shell alone, spinning: its samples are all the agent
# gets (a process started is a FORK, an EXIT: kernel records, which moved
# the agent's clock of exits on by themselves; samples did not, and a
# quiet host kept an exited program's files until the next fork)
read -r up0 _ < /proc/uptime
up=$up0
while maps_hold "$PWD/$rp" && [ "${up%.*}" -lt $((${up0%.*} + 60)) ]; do
	read -r up _ < /proc/uptime
done
maps_hold "$PWD/$rp" && fail "the agent still maps $rp 60 s after it exited: \
$(grep $rp /proc/$agent_pid/maps)"
holds "$PWD/$rp" && fail "the agent still holds $rp after it exited: \
$(ls -l /proc/$agent_pid/fd | grep $rp)"
note "$rp let go of within $(awk -v a="$up0" -v b="$up" 'BEGIN { printf "%.1f", b - a }') s of its exit"

# --- rebuilt at its path while it runs: each process named from its own file -------
./$rp -s 600 -w 1:0:0 -r fifo > /dev/null &
a=$!
bg_add $a
wait_ready fifo
scrape old
s=$(share old leaf_a)
expect_range "the old $rp's leaf_a share" "$s" 90 100
rm -f $rp
cp "$WORKLOADS/inline" $rp || fail "cannot copy inline"
./$rp -s 600 > /dev/null &
b=$!
bg_add $b
# (inline says no ready: it runs once it has exec'd, its exe the new file)
wait_until "the new $rp's exec" sh -c '[ "$(readlink /proc/$1/exe)" = "$2" ]' sh $b "$PWD/$rp"
scrape both
sa=$(share both leaf_a)
# the new file's own function: inl_leaf where its DWARF was read by the scrape, else the
# function it is inlined into (a loaded sanitizer run once scraped before: outer, 51.9%)
sb=$(awk -v a="$(share both inl_leaf)" -v b="$(share both outer)" 'BEGIN { printf "%.1f\n", a + b }')
note "old and new $rp side by side: leaf_a $sa%, inl_leaf or outer $sb%"
# two CPU-bound processes: each gets a share, whatever else runs
expect_range "the old $rp's leaf_a share" "$sa" 15 85
expect_range "the new $rp's inl_leaf (or outer) share" "$sb" 15 85
in_range "$(awk -v a="$sa" -v b="$sb" 'BEGIN { print a + b }')" 95 100.1 ||
	fail "samples of neither leaf_a nor inl_leaf (outer): $(cat both.top)"
kill $a $b 2> /dev/null
stop_agent
grep -q "warning" agent.err && fail "the agent warned: $(grep warning agent.err)"

# --- deleted and replaced before the agent started -------------------------------
cp "$WORKLOADS/shape" $rp2 || fail "cannot copy shape"
./$rp2 -s 600 -w 1:0:0 -r fifo > /dev/null &
a=$!
bg_add $a
wait_ready fifo
rm -f $rp2
cp "$WORKLOADS/inline" $rp2 || fail "cannot copy inline"
grep -q "$rp2 (deleted)" /proc/$a/maps || fail "$rp2's map does not say (deleted)"
start_agent $rp2
scrape upgraded
s=$(share upgraded leaf_a)
expect_range "the replaced $rp2's leaf_a share" "$s" 90 100
kill $a 2> /dev/null
stop_agent

# --- run again and again: its file stays open between the runs ------------------
# (idle 10 s: the 6 s gaps between runs, even at load 20, are well under
# it. An exited process is kept until its EXIT, read at the recorder's
# next pass, has waited 1 s: some 3 s here. The agent's release pass
# comes every 5 s, so from 10 s after the first run a pass falls with no
# run alive or kept one time in two: 50 s of runs meet some eight passes,
# and without the mark of each map the file was let go of at one, 99.6%)
# (the agent samples only the gap's program: the runs' addresses, never
# resolved, are as a python's modules most runs never reach)
rp3=relr$$
cp "$WORKLOADS/shape" $rp3 || fail "cannot copy shape"
cp "$WORKLOADS/shape" gap$$ || fail "cannot copy shape"
start_agent gap$$ 10
# held from a run's map; a run whose map and exit an agent slowed by ASan
# beside a loaded CI run read in one pass is forgotten unopened (it is
# not sampled: nothing to name), and one run waited on was 600 s of
# waiting: so runs until one is held, the loop below what is checked
rp3_held() {
	holds "$PWD/$rp3" && return 0
	./$rp3 -s 0.05 > /dev/null || fail "$rp3 failed"
	holds "$PWD/$rp3"
}
wait_until "the agent's open of $rp3" rp3_held
end=$(($(date +%s) + 50))
n=0
while [ "$(date +%s)" -lt $end ]; do
	./$rp3 -s 0.05 > /dev/null || fail "$rp3 failed"
	./gap$$ -s 6 > /dev/null || fail "gap$$ failed"
	n=$((n + 1))
	holds "$PWD/$rp3" || fail "the agent let go of $rp3 between its runs (after run $n), \
though it runs every 6 s"
done
note "$rp3 run $n times in 50 s, its file held throughout"
stop_agent
finish
