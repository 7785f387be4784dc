#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof top, live:
#   - bad options are one line each and exit 64;
#   - --stdio -d 1 of a command (shape, 6:3:1 over leaf_a, leaf_b, leaf_c):
#     one table an interval, parsed; after the first, each names the three
#     leaves in those shares of the leaves' total; -K leaves kernel rows
#     out; the command's exit status is prof top's;
#   - -p PID: the table is of that process, and prof top ends with a
#     message when it exits;
#   - on a terminal (tmux, capture-pane): the leaves in their shares
#     within a few seconds; s twice shows processes, Enter zooms into
#     shape's, Esc and then Enter on leaf_a show its caller (run); q
#     quits, leaving the terminal's settings and screen as they were.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

bad() {
	_what=$1
	shift
	run_prof top "$@"
	expect_rc 64 "prof top $*"
	one_error_line "prof top $*"
	grep -q "$_what" err || fail "prof top $*: '$(cat err)' does not say '$_what'"
}
bad "number of seconds" -d 0
bad "number of seconds" -d soon
bad "number of rows" -E 0
bad "not sym, dso or pid" -s cycles

require_perf_event
shape=$WORKLOADS/shape

# leaves TABLEFILE: "a b c" shares of leaf_a, leaf_b, leaf_c in the leaves' total
leaves() {
	awk '$4 ~ /^leaf_[abc]$/ { sub(/%/, "", $1); s[$4] += $1; t += $1 }
	     END { if (t > 0) printf "%.1f %.1f %.1f\n", 100 * s["leaf_a"] / t,
			100 * s["leaf_b"] / t, 100 * s["leaf_c"] / t }' "$1"
}
# check_leaves WHAT TABLEFILE
check_leaves() {
	read -r la lb lc <<EOF
$(leaves "$2")
EOF
	[ -n "$la" ] || fail "$1: no leaf in the table: $(cat "$2")"
	note "$1: leaf_a $la%, leaf_b $lb%, leaf_c $lc% of the leaves"
	expect_range "$1: leaf_a's share" "$la" 52 68
	expect_range "$1: leaf_b's share" "$lb" 23 37
	expect_range "$1: leaf_c's share" "$lc" 5 15
}

# --- --stdio -d 1 of a command ------------------------------------------------------------
prof_timeout=300 run_prof top --stdio -d 1 -E 10 -- "$shape" -s 5
expect_rc 0 "prof top --stdio -- shape"
n=$(grep -c '^# prof top ' out)
note "--stdio -d 1 over shape -s 5: $n tables"
[ "$n" -ge 4 ] || fail "--stdio -d 1 over 5 s printed $n tables: $(head -20 out)"
grep -q "the command ended" err || fail "no word of the command's end: $(cat err)"
# each table apart: table.1, table.2, ...
awk '/^# prof top / { n++ } n { print > ("table." n) }' out
i=2
while [ $i -lt "$n" ]; do
	grep -q '^# Overhead  Shared Object         Symbol$' table.$i ||
		fail "table $i has no column heads: $(head -3 table.$i)"
	rows=$(grep -c '%  ' table.$i)
	[ "$rows" -le 10 ] || fail "table $i has $rows rows, over -E 10"
	check_leaves "table $i" table.$i
	i=$((i + 1))
done
# the command's exit status is prof top's
prof_timeout=300 run_prof top --stdio -d 1 -- sh -c 'exit 3'
expect_rc 3 "prof top -- sh -c 'exit 3'"
# -K: no kernel rows
prof_timeout=300 run_prof top --stdio -d 1 -K -- "$shape" -s 2
expect_rc 0 "prof top -K"
grep -q '\[k\]' out && fail "-K shows kernel rows: $(grep -m 3 '\[k\]' out)"
grep -q 'leaf_a' out || fail "-K shows no leaf_a: $(head -10 out)"

# a process that is not there: its one line, no table, not 0
run_prof top --stdio -d 1 -p 999999999
[ "$rc" != 0 ] || fail "prof top -p of no process exited 0"
one_error_line "prof top -p of no process"
[ -s out ] && fail "prof top -p of no process printed a table: $(head -3 out)"

# --- -p PID: ends with its process ---------------------------------------------------------
"$shape" -s 4 > /dev/null &
pid=$!
bg_add $pid
prof_timeout=300 run_prof top --stdio -d 1 -p $pid
expect_rc 0 "prof top -p"
grep -q "the processes it watched ended" err || fail "prof top -p: no word of the end: $(cat err)"
n=$(grep -c '^# prof top ' out)
[ "$n" -ge 2 ] || fail "prof top -p over 4 s printed $n tables"
awk '/^# prof top / { n++ } n { print > ("ptable." n) }' out
check_leaves "-p: table 2" ptable.2

# --- on a terminal --------------------------------------------------------------------------
command -v tmux > /dev/null 2>&1 || skip "no tmux for the full-screen view"
sock=$PWD/tmux.sock
tm() {
	tmux -S "$sock" "$@"
}
cap() {
	tm capture-pane -p -t top > "$1" || fail "tmux capture-pane failed"
}
# wait_for FILE PATTERN: until the pane shows PATTERN (the test's guard bounds it)
wait_for() {
	_i=0
	while [ $_i -lt 3000 ]; do
		cap "$1"
		grep -q "$2" "$1" && return 0
		sleep 0.2
		_i=$((_i + 1))
	done
	fail "the pane does not show '$2' after 3000 looks: $(cat "$1")"
}
# next_refresh FILE: until prof top draws its next table (its header's time
# and rate change), in FILE
next_refresh() {
	cap "$1"
	_h=$(head -n 1 "$1")
	_i=0
	while [ "$(head -n 1 "$1")" = "$_h" ] && [ $_i -lt 3000 ]; do
		sleep 0.2
		cap "$1"
		_i=$((_i + 1))
	done
}
# the shell in the pane notes the terminal before and after, and marks its screen
cat > pane.sh <<EOF
stty -a > stty.before
echo SHELL-SCREEN-MARK
"$PROF" top -d 1 -- "$shape" -s 60 2> top.err
echo "rc=\$?" > top.rc
stty -a > stty.after
sleep 120
EOF
tm -f /dev/null new-session -d -s top -x 120 -y 30 "cd '$PWD' && sh pane.sh" ||
	fail "tmux cannot start"
on_exit tmux_gone
tmux_gone() {
	tm kill-server 2> /dev/null
}
wait_for pane.1 'leaf_c'
# two tables more: the window holds a few seconds of shape's samples
next_refresh pane.1
next_refresh pane.1
grep -q '^prof top .*by function (decaying)' pane.1 || fail "no header: $(head -3 pane.1)"
grep -q 'SHELL-SCREEN-MARK' pane.1 && fail "prof top draws over the shell's screen"
check_leaves "the screen" pane.1
# s twice: processes; shape's row first
tm send-keys -t top s
wait_for pane.2 'by shared object'
tm send-keys -t top s
wait_for pane.2 'by process'
wait_for pane.2 'shape'
grep -q 'Pid  Command' pane.2 || fail "the process view has no column heads: $(head -3 pane.2)"
# Enter: into shape's process; its functions
tm send-keys -t top Enter
wait_for pane.3 'process [0-9]* (shape)'
wait_for pane.3 'leaf_a'
# Enter on the first row, once it is leaf_a (the heaviest): its callers
first_row_leaf_a() {
	cap pane.3
	awk '/%/ { f = 1; exit !/leaf_a/ } END { if (!f) exit 1 }' pane.3
}
wait_until "leaf_a as the first row of shape's functions" first_row_leaf_a
tm send-keys -t top Enter
wait_for pane.4 'callers of leaf_a'
wait_for pane.4 '\[\.\] run'
# q: back to the shell, as it was
tm send-keys -t top q
_i=0
while [ ! -s top.rc ] && [ $_i -lt 3000 ]; do
	sleep 0.2
	_i=$((_i + 1))
done
[ -s top.rc ] || fail "prof top did not quit on q: $(cat top.err)"
[ "$(cat top.rc)" = "rc=0" ] || fail "prof top quit with $(cat top.rc): $(cat top.err)"
cap pane.5
grep -q 'SHELL-SCREEN-MARK' pane.5 || fail "the shell's screen is not back after q: $(cat pane.5)"
grep -q 'prof top' pane.5 && fail "prof top's screen stays after q: $(cat pane.5)"
cmp -s stty.before stty.after || fail "the terminal's settings changed: $(diff stty.before stty.after)"
note "tmux: leaves, processes, zoom, callers and q as expected"
finish
