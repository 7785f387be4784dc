#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-base.sh: two builds of prof report side by side, with perf report
# as the yardstick, in one run on the same files: before and after a
# change. Records once (prof -g at 20 kHz, perf -g for --children, prof
# --call-graph dwarf, prof -a -g), then times each report RUNS times,
# alternating the binaries, and prints the median wall and CPU seconds,
# peak RSS, and the new/old and new/perf ratios.
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here.
#
#   PROF=./prof PROF_BASE=/tmp/old/prof WORKLOADS=./tests/workloads \
#	sh tests/bench/bench-base.sh
#
# POSIX sh. See README.md beside it.
# shellcheck disable=SC2086  # word splitting of option lists is meant

PROF=${PROF:-./prof}
BASE=${PROF_BASE:?give the old build as PROF_BASE=path/to/prof}
WORKLOADS=${WORKLOADS:-./tests/workloads}
PERF=${PERF:-perf}
TIME=${TIME_CMD:-/usr/bin/time}
SECS=${BENCH_SECONDS:-10}
RUNS=${BENCH_RUNS:-5}
me=bench-base

skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] && [ -x "$BASE" ] || die "no prof at '$PROF' or '$BASE'"
[ -x "$TIME" ] && "$TIME" -f '%e' -o /dev/null true 2> /dev/null || skip "no GNU time at '$TIME'"
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-base.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$T"' EXIT
"$PROF" record -q -e cpu-clock -o "$T/probe.data" true > /dev/null 2>&1 ||
	skip "prof record: perf_event_open refused"

echo "$me: new = $PROF, old = $BASE, perf = $(command -v "$PERF")"
echo "$me: $(nproc) CPUs, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $RUNS runs each"
"$PROF" record -q -F 20000 -g -e cpu-clock -o "$T/g.data" -- "$WORKLOADS/threads" -s "$SECS" ||
	die "prof record -g failed"
"$PERF" record -q -F 20000 -g -e cpu-clock -o "$T/pg.data" -- "$WORKLOADS/threads" -s "$SECS" \
	> /dev/null 2>&1 || die "perf record -g failed"
"$PROF" record -q --call-graph dwarf -e cpu-clock -o "$T/d.data" -- "$WORKLOADS/unwind" -s 5 ||
	die "prof record --call-graph dwarf failed"
"$PROF" record -q -a -g -e cpu-clock -o "$T/a.data" -- "$WORKLOADS/threads" -s 5 ||
	die "prof record -a -g failed"

# one BIN ARGS...: median wall s, median CPU s (user + sys), max RSS MiB of RUNS runs
one() {
	_b=$1
	shift
	: > "$T/t"
	_i=0
	while [ $_i -lt "$RUNS" ]; do
		_i=$((_i + 1))
		# task-clock for CPU time (GNU time counts in 10 ms steps)
		"$PERF" stat -x, -e task-clock -o "$T/s1" -- "$TIME" -f '%e %M' -o "$T/t1" \
			"$_b" "$@" > /dev/null 2>&1 < /dev/null || echo "- -" > "$T/t1"
		echo "$(tail -n 1 "$T/t1") $(awk -F, '/task-clock/ { print $1 / 1000 }' "$T/s1")" >> "$T/t"
	done
	awk '{ w[NR] = $1; c[NR] = $3; if ($2 > m) m = $2 }
		function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[int((n + 1) / 2)] }
		END { printf "%.2f %.3f %.1f\n", med(w, NR), med(c, NR), m / 1024 }' "$T/t"
}

printf '%-34s %22s %22s %22s %9s %9s\n' "report" "new: wall cpu MiB" "old: wall cpu MiB" \
	"perf: wall cpu MiB" "new/old" "new/perf"
row() {
	_label=$1
	_pa=$2
	_perfa=$3
	set -- $(one "$PROF" report $_pa) $(one "$BASE" report $_pa) $(one "$PERF" report --stdio $_perfa)
	printf '%-34s %8s %6s %6s %8s %6s %6s %8s %6s %6s %9s %9s\n' "$_label" "$1" "$2" "$3" "$4" "$5" "$6" \
		"$7" "$8" "$9" "$(awk -v a="$2" -v b="$5" 'BEGIN { printf "%.2f", b ? a / b : 0 }')" \
		"$(awk -v a="$2" -v b="$8" 'BEGIN { printf "%.3f", b ? a / b : 0 }')"
}
row "flat (-g file)" "-i $T/g.data" "-i $T/g.data --no-children -g none"
row "children (perf's -g file)" "-i $T/pg.data --children" "-i $T/pg.data --children"
row "caller graphs (-g file)" "-i $T/g.data -g caller" "-i $T/g.data --no-children -g caller"
row "dwarf, children" "-i $T/d.data --children" "-i $T/d.data --children"
row "system wide, flat" "-i $T/a.data" "-i $T/a.data --no-children -g none"
row "system wide, folded" "-i $T/a.data -F folded" "-i $T/a.data --no-children -g none"
echo "$me: ratios of median CPU seconds (perf stat's task-clock)"
