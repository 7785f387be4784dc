#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-agent.sh: prof agent's cost next to perf record's, in one run.
# For SECS seconds (BENCH_AGENT_SECONDS, default 600 as a fleet agent's
# cost is judged) with one CPU kept busy by tests/workloads/shape and
# PROCS short processes started evenly across the time (BENCH_AGENT_PROCS,
# default 2000; Debian's gzip, xz, bzip2, sha256sum, sort, python3 and
# perl, and shape for 20 ms, in turn), runs in turn:
#   prof agent -F 49 (its defaults: every process, -g, 10 s windows),
#              pushing every window to a local stand-in Pyroscope
#   perf record -a -F 49 -g -o perf.data
# and prints each one's CPU time (user + system of it and the children it
# waits for, by GNU time, as a share of one core), its largest RSS and its RSS at the end
# (sampled each second: the agent's is its own and its recorder's), and
# the ratios, and each one's RSS at ten points of the run (flat, or
# growing with time). Not a pass/fail test: exit 0 when it ran, 77 when it cannot
# run here (no perf, perf_event_open refused, no python3).
#
#   PROF=./prof WORKLOADS=./tests/workloads sh tests/bench/bench-agent.sh
#   PROF_BASE=/path/to/an/older/prof: its agent too, a third run (a before and after in one run)
#   BENCH_AGENT_TOGETHER=1: the agent and perf at once, under one load (on
#   a shared host whose load comes and goes, the same for both; an hour's
#   run takes an hour), no PROF_BASE

PROF=${PROF:-./prof}
PROF_BASE=${PROF_BASE:-}
WORKLOADS=${WORKLOADS:-./tests/workloads}
PERF=${PERF:-perf}
SECS=${BENCH_AGENT_SECONDS:-600}
PROCS=${BENCH_AGENT_PROCS:-2000}
TOGETHER=${BENCH_AGENT_TOGETHER:-0}
here=$(cd "$(dirname "$0")" && pwd)
rx=$here/../agent/receiver.py

me=bench-agent
say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
command -v python3 > /dev/null 2>&1 || skip "no python3 for the stand-in backend"
timecmd=/usr/bin/time
[ -x "$timecmd" ] || skip "no GNU time (/usr/bin/time) to measure CPU"
[ -x "$WORKLOADS/shape" ] || die "no $WORKLOADS/shape (make tests/workloads/shape)"
[ -z "$PROF_BASE" ] || [ -x "$PROF_BASE" ] || die "no prof binary at PROF_BASE '$PROF_BASE'"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'kill $bg 2> /dev/null; rm -rf "$tmp"' EXIT INT TERM
bg=
"$PROF" record -q -e cpu-clock -a -o "$tmp/probe.data" --duration 0.1 > /dev/null 2> "$tmp/probe.err" ||
	skip "prof record -a is refused: $(head -n 1 "$tmp/probe.err")"

# rss PID...: their resident KiB together
rss() {
	for p in "$@"; do
		sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$p/status" 2> /dev/null
	done | awk '{ s += $1 } END { print s + 0 }'
}

# short N: the Nth of the short processes, in turn: Debian's programs
# (each some 10-80 ms here, reaching into libc, libz, liblzma, libbz2,
# python's and perl's own code) and shape for 20 ms, as a host runs many
# programs and the agent must name them all
short() {
	case $(($1 % 8)) in
	0) "$WORKLOADS/shape" -s 0.02 ;;
	1) python3 -c 'import json; json.dumps(list(range(20000)))' ;;
	2) xz -1 -c "$big" ;;
	3) gzip -c "$big" ;;
	4) perl -e 'my %h; $h{$_ % 97} .= "x" for 1 .. 50000' ;;
	5) sha256sum "$big" ;;
	6) bzip2 -c /bin/ls ;;
	7) sort -r /etc/services ;;
	esac > /dev/null 2>&1
}
big=/bin/bash

# load: shape on one CPU, and PROCS short processes evenly over SECS: the
# Ith started at SECS * I / PROCS from the start, by the clock (a sleep of
# SECS / PROCS after each made the load last the programs' time besides,
# twice SECS here), none waited for when behind; the number started in
# SECS written to load.done
load() {
	"$WORKLOADS/shape" -s "$SECS" > /dev/null &
	_s=$!
	_t0=$(date +%s.%N)
	_i=0
	while [ $_i -lt "$PROCS" ]; do
		short $_i
		_i=$((_i + 1))
		_w=$(awk -v t0="$_t0" -v now="$(date +%s.%N)" -v i=$_i -v s="$SECS" -v n="$PROCS" \
			'BEGIN { w = t0 + s * i / n - now; printf "%.3f\n", (w > 0 ? w : 0) }')
		sleep "$_w"
	done
	echo "$_i $(awk -v t0="$_t0" -v now="$(date +%s.%N)" 'BEGIN { printf "%.0f", now - t0 }')" \
		> "$tmp/load.done"
	wait $_s
}

# watch NAME PID...: sample RSS each second until the first PID is gone;
# writes NAME.max and NAME.end
watch() {
	_name=$1
	shift
	_max=0
	_end=0
	_t=0
	_every=$(( (SECS + 9) / 10 ))
	: > "$tmp/$_name.trace"
	while kill -0 "$1" 2> /dev/null; do
		_r=$(rss "$@")
		[ "$_r" -gt 0 ] && _end=$_r
		[ "$_r" -gt "$_max" ] && _max=$_r
		[ $((_t % _every)) = 0 ] && [ "$_r" -gt 0 ] && printf '%s ' $((_r / 1024)) >> "$tmp/$_name.trace"
		_t=$((_t + 1))
		sleep 1
	done
	echo "$_max" > "$tmp/$_name.max"
	echo "$_end" > "$tmp/$_name.end"
}

[ "$TOGETHER" != 1 ] || [ -z "$PROF_BASE" ] || die "BENCH_AGENT_TOGETHER=1 runs no PROF_BASE"
say "$me: $SECS s each$([ "$TOGETHER" = 1 ] && echo ', at once'), shape busy on one CPU and $PROCS short processes, at 49 Hz"

# child_of PID [NAME]: PID's first child (named NAME), once it is there;
# nothing after 30 s without one
child_of() {
	_c=
	_k=0
	while [ -n "$1" ] && [ -z "$_c" ] && [ $_k -lt 300 ]; do
		sleep 0.1
		_c=$(pgrep -P "$1" ${2:+-x "$2"} | head -n 1)
		_k=$((_k + 1))
	done
	echo "$_c"
}

# --- prof agent ---
# agent_start NAME PROF: that prof's agent, pushing to a stand-in, for
# SECS; its pids in rxp (the stand-in), tp (time), ap (the agent), child
# (its recorder); watched: the agent and its recorder
agent_start() {
	rm -rf "$tmp/rx" "$tmp/spool" "$tmp/port"
	python3 "$rx" "$tmp/rx" --kind pyroscope --port-file "$tmp/port" &
	rxp=$!
	bg="$bg $rxp"
	i=0
	while [ ! -s "$tmp/port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$tmp/port" ] || die "the stand-in backend did not start"
	# CPU by time(1): the whole run, the exit included (perf's build-id pass
	# comes after its last second), with the children each one waits for
	$timecmd -f '%U %S' -o "$tmp/$1.time" "$2" agent --listen none \
		--push "http://127.0.0.1:$(cat "$tmp/port")" --spool "$tmp/spool" --duration "$SECS" \
		2> "$tmp/$1.err" &
	tp=$!
	bg="$bg $tp"
	# the agent (time's child) and its recorder (the agent's), once both are there
	ap=$(child_of $tp)
	child=$(child_of "$ap")
	[ -n "$child" ] || die "prof agent ($2) did not start its recorder: $(tail -n 3 "$tmp/$1.err")"
	bg="$bg $ap"
	watched="$ap $child"
}
# agent_end NAME PROF: its end; NAME.windows
agent_end() {
	wait $tp || die "prof agent ($2) failed: $(tail -n 3 "$tmp/$1.err")"
	kill $rxp 2> /dev/null
	ls "$tmp/rx"/*.json 2> /dev/null | wc -l > "$tmp/$1.windows"
	say "  $1: $(tail -n 2 "$tmp/$1.err" | head -n 1 | sed 's/^prof: agent: //')"
}
# perf_start: perf record -a -F 49 -g for SECS; its pids in tq (time), pp
# (perf); watched: perf
perf_start() {
	$timecmd -f '%U %S' -o "$tmp/perf.time" "$PERF" record -q -a -F 49 -g -o "$tmp/perf.data" \
		-- sleep "$SECS" > /dev/null 2> "$tmp/perf.err" &
	tq=$!
	bg="$bg $tq"
	pp=$(child_of $tq perf)
	[ -n "$pp" ] || die "perf record did not start: $(tail -n 3 "$tmp/perf.err")"
	bg="$bg $pp"
	watched=$pp
}
perf_end() {
	wait $tq || die "perf record failed: $(tail -n 3 "$tmp/perf.err")"
}
loaded() {
	say "  $1: the load: $(cut -d' ' -f1 "$tmp/load.done") short processes in $(cut -d' ' -f2 "$tmp/load.done") s"
}
# alone NAME END...: the load beside what the last start started alone,
# the processes it watched watched as NAME until they end, then END...
alone() {
	_a=$1
	shift
	load &
	lp=$!
	bg="$bg $lp"
	watch "$_a" $watched
	"$@"
	wait $lp
	loaded "$_a"
}

if [ "$TOGETHER" = 1 ]; then
	# both at once, under one load: each samples the other too (at 49 Hz,
	# a handful of samples), and a loaded host's moods are the same for both
	agent_start agent "$PROF"
	aw=$watched
	perf_start
	load &
	lp=$!
	bg="$bg $lp"
	watch agent $aw &
	w1=$!
	watch perf $watched &
	w2=$!
	agent_end agent "$PROF"
	perf_end
	wait $lp $w1 $w2
	loaded both
else
	agent_start agent "$PROF"
	alone agent agent_end agent "$PROF"
	if [ -n "$PROF_BASE" ]; then
		agent_start base "$PROF_BASE"
		alone base agent_end base "$PROF_BASE"
	fi
	perf_start
	alone perf perf_end
fi
psize=$(wc -c < "$tmp/perf.data")

ac=$(awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/agent.time")
pc=$(awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/perf.time")
windows=$(cat "$tmp/agent.windows")
say "$(awk -v s="$SECS" -v ac="$ac" -v pc="$pc" -v am="$(cat "$tmp/agent.max")" \
	-v ae="$(cat "$tmp/agent.end")" -v pm="$(cat "$tmp/perf.max")" -v pe="$(cat "$tmp/perf.end")" \
	-v w="$windows" -v ps="$psize" 'BEGIN {
	printf "  %-22s %8s %9s %10s %10s\n", "", "CPU s", "% of core", "max RSS", "end RSS"
	printf "  %-22s %8.2f %8.3f%% %7d KiB %7d KiB  (%d windows pushed)\n", "prof agent", ac, 100 * ac / s, am, ae, w
	printf "  %-22s %8.2f %8.3f%% %7d KiB %7d KiB  (%.1f MB of perf.data)\n", "perf record -a -g", pc, 100 * pc / s, pm, pe, ps / 1e6
	printf "  ratio prof/perf:      CPU %.2fx, max RSS %.2fx\n", pc ? ac / pc : 0, pm ? am / pm : 0 }')"
if [ -n "$PROF_BASE" ]; then
	bc=$(awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/base.time")
	say "$(awk -v s="$SECS" -v bc="$bc" -v pc="$pc" -v bm="$(cat "$tmp/base.max")" -v be="$(cat "$tmp/base.end")" \
		-v pm="$(cat "$tmp/perf.max")" -v w="$(cat "$tmp/base.windows")" 'BEGIN {
		printf "  %-22s %8.2f %8.3f%% %7d KiB %7d KiB  (%d windows pushed)\n", "base agent", bc, 100 * bc / s, bm, be, w
		printf "  ratio base/perf:      CPU %.2fx, max RSS %.2fx\n", pc ? bc / pc : 0, pm ? bm / pm : 0 }')"
fi
say "  RSS every $(( (SECS + 9) / 10 )) s, MiB: prof agent $(cat "$tmp/agent.trace")"
[ -n "$PROF_BASE" ] && say "                          base agent $(cat "$tmp/base.trace")"
say "                         perf record $(cat "$tmp/perf.trace")"
exit 0
