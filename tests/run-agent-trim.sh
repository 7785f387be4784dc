#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof agent closes the debug information of files that no new address
# needs (--symbols-idle, --heap-budget), and opens them again when one
# does, naming the new addresses as before:
#   - shape (as trimPID) -w 1:0:0, scraped: all of it in leaf_a, at the line of
#     LEAF(leaf_a) in shape.c (go tool pprof -top -lines);
#   - no new address of shape for a while past --symbols-idle 1: shape's
#     files closed while it runs, their pages gone from the agent's memory;
#   - no shape for a while past --symbols-idle 1: shape's files closed;
#   - shape -w 0:1:0, scraped: leaf_b, addresses never resolved before,
#     named and at LEAF(leaf_b)'s line, from the file opened again;
#   - the agent's last line counts files closed and opened again;
#   - the same with --symbols-idle 0 --heap-budget 1: a file in use is
#     closed too once it has been open 10 s, and opens again.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

bad() {
	_what=$1
	shift
	run_prof agent "$@"
	expect_rc 64 "prof agent $*"
	one_error_line "prof agent $*"
	grep -q "$_what" err || fail "prof agent $*: '$(cat err)' does not say '$_what'"
}
bad "number of seconds" --symbols-idle -1
bad "number of seconds" --symbols-idle soon
bad "is not a size" --heap-budget 12X
bad "is not a size" --heap-budget -5M

require_perf_event
command -v go > /dev/null 2>&1 || skip "no go: the lines are read by go tool pprof -lines"
# a name of its own: other tests may run shape meanwhile (make -j2 check),
# and this test in another build's suite (a run of it beside CI's found
# the other's leaf_a in its leaf_b scrape)
tname=trim$$
cp "$WORKLOADS/shape" "$tname" || fail "cannot copy shape"
shape=./$tname
src=$srcdir/tests/workloads/shape.c
line_a=$(grep -n '^LEAF(leaf_a)' "$src" | cut -d: -f1)
line_b=$(grep -n '^LEAF(leaf_b)' "$src" | cut -d: -f1)
[ -n "$line_a" ] && [ -n "$line_b" ] || fail "no LEAF(leaf_a) or LEAF(leaf_b) in $src"

start_agent() {
	"$PROF" agent --listen 127.0.0.1:0 -F 199 --comm "$tname" --duration 120 "$@" 2> agent.err &
	agent_pid=$!
	bg_add $agent_pid
	agent_url
}
# scrape NAME LEAF LINE: 2 s of the running shape, all in LEAF at shape.c:LINE
scrape() {
	HOME=$PWD GOCACHE=$PWD/gocache GOFLAGS= timeout 300 go tool pprof -top -lines \
		"$url?seconds=2" > "$1.out" 2> "$1.err" || fail "go tool pprof: $(tail -n 3 "$1.err")"
	# flat% of each leaf at its line, and the hottest one's share of the leaves
	awk '$6 ~ /^leaf_/ { sub(/%/, "", $2); print $2, $6, $7 }' "$1.out" | sort -rn > "$1.top"
	read -r pct fn at < "$1.top" || fail "$1: no leaf in the scrape: $(head -n 12 "$1.out")"
	share=$(awk '{ t += $1 } NR == 1 { h = $1 } END { printf "%.1f\n", 100 * h / t }' "$1.top")
	note "$1: $fn at $at: $pct% of the samples, $share% of the leaves'"
	[ "$fn" = "$2" ] || fail "$1: the hottest leaf is $fn, not $2: $(cat "$1.top")"
	case $at in
	*/shape.c:"$3") ;;
	*) fail "$1: $fn is at $at, not shape.c:$3" ;;
	esac
	expect_range "$1: $2's share of the leaves" "$share" 99 100
}
# closed FIELD: from the agent's last line: closed, reopened
closed() {
	sed -n "s/.* \([0-9]*\) files' debug info closed, \([0-9]*\) opened again;.*/\1 \2/p" agent.err |
		awk -v f="$1" '{ print f == "closed" ? $1 : $2 }'
}

# resident KiB of the agent's mappings of the copy of shape, or "none" when it maps none
resident() {
	awk -v f="$PWD/$tname" '
		/^[0-9a-f]+-[0-9a-f]+ / { m = $NF == f; n += m; next }
		m && $1 == "Rss:" { t += $2 }
		END { print n ? t : "none" }' "/proc/$agent_pid/smaps"
}

# --- closed when idle -----------------------------------------------------------
start_agent --symbols-idle 1
"$shape" -s 10 -w 1:0:0 > /dev/null &
a=$!
bg_add $a
sleep 0.5
scrape idle-a leaf_a "$line_a"
# No new address of leaf_a after its first second: the copy's file is
# closed while it still runs, and what the agent read of it is no longer
# in its memory, though the file stays mapped (it was: 48-107 MiB of a
# soak's agent were such pages).
# (r: the last look's)
none_resident_or_ended() {
	r=$(resident)
	[ "$r" = 0 ] || ! kill -0 $a 2> /dev/null
}
wait_until "the copy's pages gone or the copy ended" none_resident_or_ended
note "the copy's pages in the agent, closed while it runs: $r KiB"
[ "$r" != none ] || fail "the agent does not map the copy's file: $(grep -c . "/proc/$agent_pid/maps") maps"
[ "$r" = 0 ] || fail "the copy's file, closed, still has $r KiB in the agent's memory when it ends"
wait_gone $a 300 || fail "shape did not end"
# 3 s without shape: something else runs, so that records come and the
# delivery thread, which closes files between batches, runs
sh -c 'end=$(($(date +%s) + 3)); while [ $(date +%s) -lt $end ]; do :; done' &
wait $!
"$shape" -s 3.5 -w 0:1:0 > /dev/null &
b=$!
bg_add $b
sleep 0.5
scrape idle-b leaf_b "$line_b"
stop_agent
wait_gone $b 300 || fail "shape did not end"
c=$(closed closed)
r=$(closed reopened)
note "--symbols-idle 1: $c files' debug info closed, $r opened again"
[ -n "$c" ] || fail "the agent's last line does not count files closed: $(tail -n 1 agent.err)"
[ "$c" -ge 1 ] || fail "--symbols-idle 1: no file closed after 3 s without shape"
[ "$r" -ge 1 ] || fail "--symbols-idle 1: shape's file was not opened again for leaf_b"

# --- closed past the heap budget, though busy -------------------------------------
start_agent --symbols-idle 0 --heap-budget 1
"$shape" -s 300 -w 1:0:0 > /dev/null &
a=$!
bg_add $a
sleep 0.5
scrape budget-a leaf_a "$line_a"
# shape's files opened 10 s ago or more are closed at the next look
# (every second once over the budget), though shape still runs: waited
# for, not timed (the first look may come 10 s after the start, and a
# loaded machine stretches both)
closed_while_running() {
	r=$(resident)
	[ "$r" = 0 ] || ! kill -0 $a 2> /dev/null
}
wait_until "shape's file closed past the heap budget" closed_while_running
[ "$r" = 0 ] || fail "--heap-budget 1: shape's file not closed while it ran (resident: $r KiB)"
kill $a
wait_gone $a 300 || fail "shape did not end"
"$shape" -s 3.5 -w 0:1:0 > /dev/null &
bg_add $!
sleep 0.5
scrape budget-b leaf_b "$line_b"
stop_agent
c=$(closed closed)
r=$(closed reopened)
note "--heap-budget 1: $c files' debug info closed, $r opened again"
[ "$c" -ge 1 ] || fail "--heap-budget 1: the agent's last line counts no file closed"
[ "$r" -ge 1 ] || fail "--heap-budget 1: shape's file was not opened again for leaf_b"
finish
