#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-offcpu.sh: recording off-CPU time, prof against perf in one run.
# Attaches for SECS seconds to a program whose two threads bounce a byte
# over two pipes as fast as they can (tests/workloads/offcpu -p: a switch
# out and back in per bounce), with call chains:
#   prof record --off-cpu -g -p PID        (switch records + context-switches samples)
#   perf record -e sched:sched_switch -g -p PID   (a sample per switch-out)
#   perf record --off-cpu -p PID           (BPF; where this perf has it)
# and prints each one's CPU, bytes and lost records per switch, and their
# ratios. Not a pass/fail test: exit 0 when it ran, 77 when it cannot run
# here (no perf, perf_event_open refused, no tracefs), 1 when a recorder
# failed.
#
#   PROF=./prof WORKLOADS=./tests/workloads sh tests/bench/bench-offcpu.sh

PROF=${PROF:-./prof}
WORKLOADS=${WORKLOADS:-./tests/workloads}
PERF=${PERF:-perf}
SECS=${BENCH_SECONDS:-3}

me=bench-offcpu
failed=0
wl_pid=

say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" >/dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] || die "no prof binary at '$PROF'"
[ -x "$WORKLOADS/offcpu" ] || die "no workload '$WORKLOADS/offcpu' (make tests/workloads/offcpu)"
case $PROF in /*) ;; *) PROF=$(pwd)/$PROF ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX") || die "cannot make a temporary directory"
cleanup() {
	[ -n "$wl_pid" ] && kill "$wl_pid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
"$PERF" record -q -e sched:sched_switch -o "$T/probe.data" true >"$T/probe.err" 2>&1 ||
	skip "perf cannot record sched:sched_switch here: $(tail -1 "$T/probe.err")"

"$WORKLOADS/offcpu" -p -s "$((5 * SECS + 20))" >/dev/null &
wl_pid=$!
sleep 1

# measured NAME COMMAND...: CPU ms of the recorder (perf stat task-clock), in NAME.stat
measured() {
	_n=$1
	shift
	"$PERF" stat -x, -e task-clock -o "$T/$_n.stat" -- "$@" >/dev/null 2>"$T/$_n.err" || {
		printf '%s: FAILED: %s\n' "$me" "$*" >&2
		sed 's/^/    | /' "$T/$_n.err" >&2
		failed=1
	}
}
cpu_of() { awk -F, '$3 ~ /^task-clock/ { v = $1 } END { print (v ~ /^[0-9.]+$/ ? v : "-") }' "$1"; }
per() {
	awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9]+$/ || b + 0 == 0) print "-";
		else printf f "\n", a / b }'
}

measured prof "$PROF" record --off-cpu -g -e cpu-clock -o "$T/prof.data" -p "$wl_pid" --duration "$SECS"
measured perf "$PERF" record -e sched:sched_switch -g -e cpu-clock -o "$T/perf.data" -p "$wl_pid" -- sleep "$SECS"
# the same, compressed as prof's file is (zstd level 1)
measured perfz "$PERF" record -z -e sched:sched_switch -g -e cpu-clock -o "$T/perfz.data" -p "$wl_pid" -- sleep "$SECS"
perf_offcpu=1
"$PERF" record --off-cpu -o "$T/perfoff.data" -p "$wl_pid" -- sleep 0.1 >"$T/perfoff.probe" 2>&1 ||
	perf_offcpu=0
[ "$perf_offcpu" = 1 ] &&
	measured perfoff "$PERF" record --off-cpu -o "$T/perfoff.data" -p "$wl_pid" -- sleep "$SECS"
kill "$wl_pid" 2>/dev/null
wait "$wl_pid" 2>/dev/null
wl_pid=

# switches: prof's switch-outs (SWITCH records with out=, or their
# context-switches samples they were folded into), perf's sched_switch samples
prof_sw=$("$PROF" script -i "$T/prof.data" 2>/dev/null | grep -c -E '^(SWITCH|SAMPLE).* out=')
prof_lost=$(sed -n 's/^prof: [0-9]* samples, \([0-9]*\) lost.*/\1/p' "$T/prof.err")
perf_sw=$("$PERF" script -i "$T/perf.data" -F event 2>/dev/null | grep -c 'sched:sched_switch')
perf_lost=$("$PERF" report -i "$T/perf.data" --stats 2>/dev/null | awk '/LOST events/ { s += $3 } END { print s + 0 }')
prof_cpu=$(cpu_of "$T/prof.stat")
perf_cpu=$(cpu_of "$T/perf.stat")
prof_b=$(wc -c <"$T/prof.data")
perf_b=$(wc -c <"$T/perf.data")
perfz_sw=$("$PERF" script -i "$T/perfz.data" -F event 2>/dev/null | grep -c 'sched:sched_switch')
perfz_b=$(wc -c <"$T/perfz.data")
perfz_lost=$("$PERF" report -i "$T/perfz.data" --stats 2>/dev/null | awk '/LOST events/ { s += $3 } END { print s + 0 }')

say "$me: $(nproc) CPUs, kernel $(uname -r); $SECS s attached to 'offcpu -p' (two threads over pipes)"
printf '%-34s %14s %14s %8s\n' "" prof "perf sched_switch" "prof/perf"
printf '%-34s %14s %14s\n' "switch-outs recorded" "$prof_sw" "$perf_sw"
printf '%-34s %14s %14s\n' "switch-outs per second" "$(per "$prof_sw" "$SECS" '%.0f')" "$(per "$perf_sw" "$SECS" '%.0f')"
printf '%-34s %14s %14s\n' "lost records" "${prof_lost:-?}" "$perf_lost"
printf '%-34s %14s %14s %8s\n' "recorder CPU ms" "$prof_cpu" "$perf_cpu" \
	"$(awk -v a="$prof_cpu" -v b="$perf_cpu" 'BEGIN { if (b + 0) printf "%.2f", a / b; else print "-" }')"
us() { awk -v c="$1" -v n="$2" 'BEGIN { if (c ~ /^[0-9.]+$/ && n + 0) printf "%.3f", 1000 * c / n; else print "-" }'; }
printf '%-34s %14s %14s %8s\n' "recorder CPU us per switch" "$(us "$prof_cpu" "$prof_sw")" \
	"$(us "$perf_cpu" "$perf_sw")" \
	"$(awk -v a="$(us "$prof_cpu" "$prof_sw")" -v b="$(us "$perf_cpu" "$perf_sw")" 'BEGIN { if (b + 0) printf "%.2f", a / b; else print "-" }')"
printf '%-34s %14s %14s %8s\n' "bytes per switch" "$(per "$prof_b" "$prof_sw" '%.1f')" \
	"$(per "$perf_b" "$perf_sw" '%.1f')" \
	"$(awk -v a="$prof_b" -v b="$perf_b" -v x="$prof_sw" -v y="$perf_sw" 'BEGIN { if (b && x) printf "%.2f", (a / x) / (b / y); else print "-" }')"
printf '%-34s %14s %14s %8s\n' "perf record -z: bytes per switch" "" "$(per "$perfz_b" "$perfz_sw" '%.1f')" \
	"$(awk -v a="$prof_b" -v b="$perfz_b" -v x="$prof_sw" -v y="$perfz_sw" 'BEGIN { if (b && x) printf "%.2f", (a / x) / (b / y); else print "-" }')"
printf '%-34s %14s %14s\n' "perf record -z: switch-outs, lost" "" "$perfz_sw, $perfz_lost"
if [ "$perf_offcpu" = 1 ]; then
	say "perf record --off-cpu (BPF, no -g here): $(cpu_of "$T/perfoff.stat") ms CPU, $(wc -c <"$T/perfoff.data") bytes"
else
	say "perf record --off-cpu: not available here ($(tail -1 "$T/perfoff.probe"))"
fi
exit "$failed"
