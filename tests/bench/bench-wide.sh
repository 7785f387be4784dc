#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-wide.sh: `prof record -a -g` against `perf record -a -g` on a whole
# busy host, side by side in one run: a mixed load (compiles, gzip, a
# python loop) runs throughout, and each round records it with each tool
# in turn at each rate, the tools' order swapped every round. Per tool and
# rate it prints the medians of the recorder's CPU (task-clock, the
# recorder and its threads, not the load), samples, and records lost as
# a share of samples + lost, then prof / perf. A third recorder,
# `prof record --no-compress --keep-leaf-stacks` ("prof lean"), does
# only what perf does (no zstd, the leaf repair left to the report): at
# rates where prof's default costs more than perf, it shows what that
# is the price of (prof-record(1), "Cost at high rates").
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here
# (no perf, perf_event_open refused for -a), 1 when a recorder failed.
#
#   PROF=./prof sh tests/bench/bench-wide.sh
#   PROF_BASE=/path/to/an/older/prof: its rows too (a before and after in one run)
#   BENCH_WIDE_RATES="10000 40000" BENCH_WIDE_ROUNDS=3 BENCH_SECONDS=20
#   BENCH_WIDE_COPIES=1 (of each load loop)
#   BENCH_WIDE_LEAN=0: leave out the lean rows
#
# POSIX sh; needs gcc, gzip and python3 for the load (a missing one is
# left out, and said).
# shellcheck disable=SC2086,SC2317  # word splitting of the rate list is meant; cleanup runs from the trap

PROF=${PROF:-./prof}
PROF_BASE=${PROF_BASE:-}
PERF=${PERF:-perf}
RATES=${BENCH_WIDE_RATES:-10000 40000}
ROUNDS=${BENCH_WIDE_ROUNDS:-3}
SECS=${BENCH_SECONDS:-20}
COPIES=${BENCH_WIDE_COPIES:-1}	# of each loop of the load: 3 makes a busy host of 2 CPUs
LEAN=${BENCH_WIDE_LEAN:-1}
HAVE_GZIP=$(command -v gzip 2> /dev/null)
me=bench-wide
failed=0

say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] || die "no prof binary at '$PROF' (build it, or set PROF=)"
[ -z "$PROF_BASE" ] || [ -x "$PROF_BASE" ] || die "no prof binary at PROF_BASE '$PROF_BASE'"
case $PROF in /*) ;; *) PROF=$(pwd)/$PROF ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX") || die "cannot make a temporary directory"
load_pids=
cleanup() {
	[ -n "$load_pids" ] && kill $load_pids 2> /dev/null
	[ -f "$T/stop" ] || : > "$T/stop"
	wait 2> /dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$PERF" record -q -a -e cpu-clock -o "$T/probe.data" -- true > "$T/probe.err" 2>&1 ||
	skip "perf record -a cannot open its events here: $(sed -n 1p "$T/probe.err")"
"$PROF" record -q -a -e cpu-clock -o "$T/probe.data" -- true > "$T/probe.err" 2>&1 ||
	skip "prof record -a cannot open its events here: $(sed -n 1p "$T/probe.err")"

# --- the load: runs until $T/stop exists ------------------------------------
src=$T/load.c
cat > "$src" << 'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct node { struct node *l, *r; int k; };
static struct node *put(struct node *n, int k)
{
	if (!n) { n = calloc(1, sizeof(*n)); n->k = k; return n; }
	if (k < n->k) n->l = put(n->l, k); else n->r = put(n->r, k);
	return n;
}
int main(int argc, char **argv)
{
	struct node *t = NULL;
	for (int i = 0; i < 1000 + argc; i++) t = put(t, (i * 7919) % 1009);
	printf("%s %d\n", argv[0], t->k);
	return 0;
}
EOF
loads=
[ -z "$HAVE_GZIP" ] || head -c 16000000 /dev/urandom > "$T/blob"
n=0
while [ $n -lt "$COPIES" ]; do
	n=$((n + 1))
	if command -v gcc > /dev/null 2>&1; then
		(while [ ! -f "$T/stop" ]; do gcc -O2 -c -o /dev/null "$src"; done) &
		load_pids="$load_pids $!"
		loads="$loads gcc"
	fi
	if [ -n "$HAVE_GZIP" ]; then
		(while [ ! -f "$T/stop" ]; do gzip -6 -c "$T/blob" > /dev/null; done) &
		load_pids="$load_pids $!"
		loads="$loads gzip"
	fi
	if command -v python3 > /dev/null 2>&1; then
		python3 -c '
import os, sys
d = {}
i = 0
while not os.path.exists(sys.argv[1]):
    for j in range(20000):
        d[(i + j) % 4093] = str(j) * 3
    i += 1
' "$T/stop" &
		load_pids="$load_pids $!"
		loads="$loads python3"
	fi
done
[ -n "$loads" ] || skip "no gcc, gzip or python3 for a load"

say "$me: prof = $PROF"
say "$me: perf = $(command -v "$PERF") ($("$PERF" --version 2> /dev/null))"
say "$me: $(nproc) CPUs, kernel $(uname -r); the load:$loads; $ROUNDS rounds of $SECS s at -F $RATES"

# rec TOOL RATE ROUND: one recording; appends "cpu samples lost MB" to $T/TOOL-RATE
rec() {
	_f=$T/$1-$2-$3.data
	case $1 in
	prof) set -- "$1" "$2" "$3" "$PROF" record -q -a -g -F "$2" -o "$_f" -- sleep "$SECS" ;;
	base) set -- "$1" "$2" "$3" "$PROF_BASE" record -q -a -g -F "$2" -o "$_f" -- sleep "$SECS" ;;
	lean) set -- "$1" "$2" "$3" "$PROF" record -q -a -g -F "$2" --no-compress --keep-leaf-stacks \
		-o "$_f" -- sleep "$SECS" ;;
	perf) set -- "$1" "$2" "$3" "$PERF" record -q -a -g -F "$2" -o "$_f" -- sleep "$SECS" ;;
	esac
	_t=$1 _r=$2
	shift 3
	if ! "$PERF" stat -x, -e task-clock -o "$T/stat" -- "$@" > /dev/null 2> "$T/rec.err"; then
		printf '%s: FAILED: %s\n' "$me" "$*" >&2
		sed 's/^/    | /' "$T/rec.err" >&2
		failed=1
		return
	fi
	# the recorder's CPU less its child's (sleep's: about a ms)
	_cpu=$(awk -F, '$3 ~ /^task-clock/ { v = $1 } END { print v + 0 }' "$T/stat")
	if [ "$_t" != perf ]; then
		"$PROF" report -i "$_f" --header-only > "$T/hdr" 2>&1
		_s=$(sed -n 's/^# samples: *\([0-9]*\).*/\1/p' "$T/hdr")
		_l=$(sed -n 's/^# lost: *\([0-9]*\) records.*/\1/p' "$T/hdr")
	else
		"$PERF" report -i "$_f" --stats > "$T/hdr" 2>&1
		_s=$(awk '/SAMPLE events:/ { print $3; exit }' "$T/hdr")
		"$PERF" report -i "$_f" --stdio --sort comm -g none > "$T/rep" 2> /dev/null
		_l=$(sed -n 's/^# Total Lost Samples: *\([0-9]*\).*/\1/p' "$T/rep")
	fi
	_mb=$(wc -c < "$_f" | awk '{ printf "%.1f", $1 / 1048576 }')
	echo "$_cpu ${_s:-0} ${_l:-0} $_mb" >> "$T/$_t-$_r"
	rm -f "$_f"
}

round=0
while [ $round -lt "$ROUNDS" ]; do
	round=$((round + 1))
	for r in $RATES; do
		if [ $((round % 2)) = 1 ]; then
			rec prof "$r" $round
			rec perf "$r" $round
			[ "$LEAN" = 0 ] || rec lean "$r" $round
			[ -z "$PROF_BASE" ] || rec base "$r" $round
		else
			[ -z "$PROF_BASE" ] || rec base "$r" $round
			[ "$LEAN" = 0 ] || rec lean "$r" $round
			rec perf "$r" $round
			rec prof "$r" $round
		fi
	done
	say "$me: round $round of $ROUNDS done (load average $(cut -d' ' -f1 /proc/loadavg))"
done
: > "$T/stop"

# col FILE N: the median of column N
col() {
	awk -v n="$2" '{ print $n }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# lostpct FILE: the median of 100 * lost / (samples + lost)
lostpct() {
	awk '{ t = $2 + $3; printf "%.2f\n", t ? 100 * $3 / t : 0 }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) print "-"; else printf "%.2f\n", a / b }'
}

# row RATE LABEL TOOL N: the median of column N of TOOL's rounds, perf's, and their ratio
row() {
	_a=$(col "$T/$3-$1" "$4") _b=$(col "$T/perf-$1" "$4")
	printf '%-40s %12s %12s %9s\n' "-F $1: $2" "$_a" "$_b" "$(ratio "$_a" "$_b")"
}
# lostrow RATE LABEL TOOL: TOOL's lost share, perf's, and the difference in points
lostrow() {
	_a=$(lostpct "$T/$3-$1") _b=$(lostpct "$T/perf-$1")
	printf '%-40s %12s %12s %9s\n' "-F $1: $2" "$_a" "$_b" \
		"$(awk -v a="$_a" -v b="$_b" 'BEGIN { printf "%+.2f pt\n", a - b }')"
}

say ""
printf '%-40s %12s %12s %9s\n' "metric (-a -g, $SECS s, medians of $ROUNDS)" prof perf prof/perf
for r in $RATES; do
	{ [ -s "$T/prof-$r" ] && [ -s "$T/perf-$r" ]; } || continue
	row "$r" "recorder CPU ms" prof 1
	row "$r" "samples" prof 2
	lostrow "$r" "lost % of samples + lost" prof
	row "$r" "file MB" prof 4
	if [ -s "$T/lean-$r" ]; then
		row "$r" "prof lean's recorder CPU ms" lean 1
		row "$r" "prof lean's file MB" lean 4
		lostrow "$r" "prof lean's lost %" lean
	fi
	if [ -s "$T/base-$r" ]; then
		row "$r" "PROF_BASE's recorder CPU ms" base 1
		row "$r" "PROF_BASE's samples" base 2
		lostrow "$r" "PROF_BASE's lost %" base
	fi
done
[ $failed = 0 ] || die "a recorder failed (see FAILED above)"
exit 0
