#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-html.sh: prof report --format html against prof report's own views
# and perf report, on the same files in one run: the export's wall and CPU
# time as a ratio to prof report -g caller (the page holds whole stacks)
# and to perf report --stdio -g, the page's size, and how long headless
# Chromium takes to make it interactive (tests/browser/page.mjs "ready").
# Two profiles: a synthetic one of 1M samples over 50k distinct stacks
# (genprof, kernel-free), and a real recording of tests/workloads/threads
# at 20 kHz (when perf_event_open is allowed).
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here.
#
#   PROF=./prof GENPROF=./tests/golden/genprof WORKLOADS=./tests/workloads \
#	sh tests/bench/bench-html.sh
#
# POSIX sh. See README.md beside it.
# shellcheck disable=SC2086  # word splitting of option lists is meant

PROF=${PROF:-./prof}
GENPROF=${GENPROF:-./tests/golden/genprof}
WORKLOADS=${WORKLOADS:-./tests/workloads}
PERF=${PERF:-perf}
TIME=${TIME_CMD:-/usr/bin/time}
SECS=${BENCH_SECONDS:-25}
RUNS=${BENCH_RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
me=bench-html

skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] && [ -x "$GENPROF" ] || die "no prof at '$PROF' or genprof at '$GENPROF'"
[ -x "$TIME" ] && "$TIME" -f '%e' -o /dev/null true 2> /dev/null || skip "no GNU time at '$TIME'"
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-html.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$T"' EXIT

echo "$me: prof = $PROF, perf = $(command -v "$PERF")"
echo "$me: $(nproc) CPUs, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $RUNS runs each"

# 1M samples: 50k stacks of 8 to 19 frames from 3000 addresses no file maps
# (each its own frame), 20 samples each, 8 threads.
awk 'BEGIN {
	srand(7)
	print "event cpu-clock"
	print "comm 9 9 synth"
	for (s = 0; s < 50000; s++) {
		line = sprintf("sample 0 %d.%06d 9 %d %d 1000000 x20", 1 + int(s / 50000), s * 20, 9 + s % 8, s % 2)
		d = 8 + int(rand() * 12)
		for (k = 0; k < d; k++)
			line = line sprintf(" 0x%x", 0x7f0000000000 + 16 * int(rand() * 3000))
		print line
	}
}' > "$T/synth.spec"
"$GENPROF" "$T/synth.spec" "$T/synth.data" || die "genprof failed"
files=synth
if "$PROF" record -q -e cpu-clock -o "$T/probe.data" true > /dev/null 2>&1; then
	"$PROF" record -q -F 20000 -g -e cpu-clock -o "$T/real.data" -- "$WORKLOADS/threads" -s "$SECS" ||
		die "prof record -g failed"
	files="synth real"
else
	echo "$me: the recording is not made: perf_event_open refused"
fi

# one ARGS...: median wall s, median CPU s (task-clock), max RSS MiB of RUNS runs
one() {
	: > "$T/t"
	_i=0
	while [ $_i -lt "$RUNS" ]; do
		_i=$((_i + 1))
		"$PERF" stat -x, -e task-clock -o "$T/s1" -- "$TIME" -f '%e %M' -o "$T/t1" \
			"$@" > /dev/null 2>&1 < /dev/null || echo "- -" > "$T/t1"
		echo "$(tail -n 1 "$T/t1") $(awk -F, '/task-clock/ { print $1 / 1000 }' "$T/s1")" >> "$T/t"
	done
	sort -n "$T/t" | awk -v n="$RUNS" '{ w[NR] = $1; m = $2 > m ? $2 : m; c[NR] = $3 }
		END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (c[j] < c[i]) { x = c[i]; c[i] = c[j]; c[j] = x }
		      printf "%.3f %.3f %.0f\n", w[int((n + 1) / 2)], c[int((n + 1) / 2)], m / 1024 }'
}

browser=$(command -v chromium || command -v chromium-browser)
printf '\n%-6s %-22s %8s %8s %8s %9s %9s\n' file what wall_s cpu_s rss_mib "html/this" "(cpu)"
for f in $files; do
	d=$T/$f.data
	set -- $(one "$PROF" report -q -i "$d" -F html -o "$T/$f.html")
	hw=$1 hc=$2
	samples=$("$PROF" report -q -i "$d" --header-only | awk '/^# samples:/ { s += $3 } END { print s }')
	for what in "prof report" "prof report -g caller" "perf report -g" "prof report -F html"; do
		case $what in
		"prof report") set -- $(one "$PROF" report -q -i "$d") ;;
		"prof report -g caller") set -- $(one "$PROF" report -q -i "$d" -g caller) ;;
		"perf report -g") set -- $(one "$PERF" report -i "$d" --stdio -g --no-children) ;;
		*) set -- "$hw" "$hc" "$(one "$PROF" report -q -i "$d" -F html -o "$T/$f.html" | cut -d' ' -f3)" ;;
		esac
		printf '%-6s %-22s %8s %8s %8s %9s %9s\n' "$f" "$what" "$1" "$2" "$3" \
			"$(awk -v a="$hw" -v b="$1" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" \
			"$(awk -v a="$hc" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done
	size=$(wc -c < "$T/$f.html")
	ready=-
	if [ -n "$browser" ] && [ -d "$here/../browser/node_modules/puppeteer-core" ]; then
		ready=$(node "$here/../browser/page.mjs" "$browser" "$T/$f.html" "$T" 2> /dev/null |
			awk -F '\t' '$1 == "ready" { print $2 }')
	fi
	echo "$f: $samples samples; page $(awk -v s="$size" 'BEGIN { printf "%.2f MB (%.2f bytes a sample)", s / 1e6, s / '"$samples"' }'); interactive in Chromium after ${ready:--} ms"
done
