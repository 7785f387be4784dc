#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-hostile.sh: prof report against perf report --stdio on crafted
# files whose size once made prof slow (tests/hostile/craft.c): 80k and
# 160k maps of one process in random order, 50 events of 8000 ids each.
# Prints wall time and peak RSS of each, and the prof / perf ratios (the
# target: within 3x of perf's time). Not a pass/fail test: exit 0 when it
# ran, 77 when it cannot run here (no perf, no GNU time), 1 when a command
# failed.
#
#   PROF=./prof CRAFT=./tests/hostile/craft sh tests/bench/bench-hostile.sh
#
# POSIX sh. See README.md beside it.

PROF=${PROF:-./prof}
CRAFT=${CRAFT:-./tests/hostile/craft}
PERF=${PERF:-perf}
TIME=${TIME_CMD:-/usr/bin/time}
LIMIT=${BENCH_TIMEOUT:-300}
me=bench-hostile
failed=0

skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] || die "no prof binary at '$PROF' (build it, or set PROF=)"
[ -x "$CRAFT" ] || die "no craft at '$CRAFT' (make tests/hostile/craft, or set CRAFT=)"
[ -x "$TIME" ] && "$TIME" -f '%e %M' -o /dev/null true 2> /dev/null ||
	skip "no GNU time at '$TIME' (set TIME_CMD=)"
case $PROF in /*) ;; *) PROF=$(pwd)/$PROF ;; esac
case $CRAFT in /*) ;; *) CRAFT=$(pwd)/$CRAFT ;; esac

T=$(mktemp -d "${TMPDIR:-/tmp}/bench-hostile.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$T"' EXIT
cd "$T" || die "cd $T"

# measure NAME CMD...: "seconds KiB" of one run into $NAME.t; 1 when it failed
measure() {
	n=$1
	shift
	timeout -k 5 "$LIMIT" "$TIME" -f '%e %M' -o "$n.t" "$@" > /dev/null 2> "$n.err"
}

printf '%-34s %10s %10s %10s %10s %8s %8s\n' file "prof s" "perf s" "prof MiB" "perf MiB" \
	"time" "RSS"
for spec in "maps 80000" "maps 160000" "ids"; do
	# shellcheck disable=SC2086
	"$CRAFT" $spec || die "craft $spec"
	f=$(echo "$spec" | cut -d' ' -f1).data
	label="$spec"
	measure prof "$PROF" report -i "$f" || { failed=1; printf '%s: prof failed on %s\n' "$me" "$label" >&2; }
	measure perf "$PERF" report -i "$f" --stdio || printf '%s: perf failed on %s\n' "$me" "$label" >&2
	set -- $(tail -n 1 prof.t) $(tail -n 1 perf.t)
	awk -v l="$label" -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
		printf "%-34s %10.2f %10.2f %10.1f %10.1f %8.3f %8.3f\n", l, a, c, b / 1024, d / 1024,
			(c > 0 ? a / c : 0), (d > 0 ? b / d : 0)
	}'
	rm -f "$f"
done
exit $failed
