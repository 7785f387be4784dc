#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-report.sh: prof report against perf report --stdio, side by side in
# one run on the same files; prints wall time and peak RSS of each, and
# their prof / perf ratios.
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here
# (no perf, perf_event_open refused, no GNU time), 1 when a command failed.
#
#   PROF=./prof WORKLOADS=./tests/workloads sh tests/bench/bench-report.sh
#
# POSIX sh. See README.md beside it.
# shellcheck disable=SC2086  # word splitting of option lists is meant

PROF=${PROF:-./prof}
WORKLOADS=${WORKLOADS:-./tests/workloads}
PERF=${PERF:-perf}
TIME=${TIME_CMD:-/usr/bin/time}	# GNU time, for %e (wall s) and %M (peak RSS KiB)
SECS=${BENCH_SECONDS:-25}	# length of the ~1M-sample recording
FREQ=${BENCH_FREQ:-20000}
SRCSECS=${BENCH_SRCLINE_SECONDS:-5}	# length of the srcline recording
LIMIT=${BENCH_TIMEOUT:-300}	# seconds one report may take
RUNS=${BENCH_RUNS:-3}		# runs of each report; the median wall time is shown

me=bench-report
failed=0

say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }
# A command failed: say which, show its stderr, carry on so that the rest
# of the table still prints, and exit 1 at the end.
fail() {
	printf '%s: FAILED: %s\n' "$me" "$1" >&2
	[ -s "$2" ] && sed -n 1,10p "$2" | sed 's/^/    | /' >&2
	failed=1
}

# --- preconditions ---------------------------------------------------------

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] || die "no prof binary at '$PROF' (build it, or set PROF=)"
for w in shape threads; do
	[ -x "$WORKLOADS/$w" ] || die "no workload '$WORKLOADS/$w' (set WORKLOADS=)"
done
[ -x "$TIME" ] && "$TIME" -f '%e %M' -o /dev/null true 2> /dev/null ||
	skip "no GNU time at '$TIME' (for wall time and peak RSS; set TIME_CMD=)"
command -v timeout > /dev/null 2>&1 || skip "no timeout(1)"
"$PROF" report --help > /dev/null 2>&1 || die "'$PROF report --help' fails: this prof has no report"
case $PROF in /*) ;; *) PROF=$(pwd)/$PROF ;; esac
case $WORKLOADS in /*) ;; *) WORKLOADS=$(pwd)/$WORKLOADS ;; esac

T=$(mktemp -d "${TMPDIR:-/tmp}/bench-report.XXXXXX") || die "cannot make a temporary directory"
cleanup() {
	if [ -n "$BENCH_KEEP" ]; then
		printf '%s: files kept in %s\n' "$me" "$T" >&2
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! "$PROF" record -q -e cpu-clock -o "$T/probe.data" true > "$T/probe.err" 2>&1; then
	if grep -q perf_event_paranoid "$T/probe.err"; then
		sed 's/^/    | /' "$T/probe.err" >&2
		skip "prof record: perf_event_open refused"
	fi
	die "prof record -q -e cpu-clock true failed: $(cat "$T/probe.err")"
fi

# --- helpers ---------------------------------------------------------------

# rows of the final table, kept in a file: metric|prof|perf
: > "$T/table"
row() { printf '%s|%s|%s\n' "$1" "$2" "$3" >> "$T/table"; }

# a / b, or "-" when either is missing or not a number
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/) print "-";
		else if (b + 0 == 0) print (a + 0 == 0 ? "-" : "inf");
		else printf "%.3g\n", a / b }'
}

# measure NAME COMMAND...: run COMMAND $RUNS times under GNU time and
# timeout, stdout to $T/NAME.out, stderr to $T/NAME.err. Sets wall (the
# median of the runs' wall seconds) and rss (MiB, the largest peak of the
# biggest process: perf's addr2line children are counted only when one is
# bigger than perf itself); "timeout" or "-" when a run timed out or failed.
measure() {
	_n=$1
	shift
	wall=- rss=-
	: > "$T/$_n.walls"
	_i=0
	while [ $_i -lt "$RUNS" ]; do
		_i=$((_i + 1))
		"$TIME" -f '%e %M' -o "$T/$_n.time" timeout -k 5 "$LIMIT" "$@" \
			< /dev/null > "$T/$_n.out" 2> "$T/$_n.err"
		_rc=$?
		if [ $_rc = 124 ] || [ $_rc = 137 ]; then
			wall=timeout rss=timeout
			say "    $_n: timed out after $LIMIT s: $*"
			return 1
		fi
		if [ $_rc != 0 ]; then
			fail "$* (exit $_rc)" "$T/$_n.err"
			return 1
		fi
		tail -n 1 "$T/$_n.time" >> "$T/$_n.walls"
	done
	wall=$(sort -n "$T/$_n.walls" | awk '{ w[NR] = $1 } END { print w[int((NR + 1) / 2)] }')
	rss=$(awk '$2 > m { m = $2 } END { printf "%.1f\n", m / 1024 }' "$T/$_n.walls")
	say "    $_n: $wall s (median of $(awk '{ printf "%s%s", s, $1; s = " " }' "$T/$_n.walls")), $rss MiB"
	return 0
}

# pair TAG LABEL PROF_ARGS -- PERF_ARGS: one run of `prof report PROF_ARGS`
# then one of `perf report --stdio PERF_ARGS` (outputs in $T/prof-TAG.out
# and $T/perf-TAG.out); two rows in the table.
pair() {
	_tag=$1
	_label=$2
	shift 2
	_pa=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_pa="$_pa $1"
		shift
	done
	shift
	measure "prof-$_tag" "$PROF" report $_pa
	pw=$wall prss=$rss
	measure "perf-$_tag" "$PERF" report --stdio "$@"
	row "$_label: wall s" "$pw" "$wall"
	row "$_label: peak RSS MiB" "$prss" "$rss"
	compare "$T/prof-$_tag.out" "$T/perf-$_tag.out" "$_label"
}

# compare PROFOUT PERFOUT LABEL: the entries above 5% in either flat view
# must have the same share within 0.5 points; "odd:" lines otherwise.
# (Rows are matched by their symbol name; the graphs under them, if any,
# are skipped.)
compare() {
	[ -s "$1" ] && [ -s "$2" ] || return 0
	awk -v label="$3" '
	function sym(   i) {
		for (i = 2; i < NF; i++) if ($i == "[.]" || $i == "[k]") return $(i + 1)
		return ""
	}
	/^#/ || $1 !~ /^[0-9.]+%$/ { next }
	{ s = sym(); if (s == "") next; p = $1; sub(/%$/, "", p) }
	FILENAME == ARGV[1] { a[s] += p; k[s] = 1; next }
	{ b[s] += p; k[s] = 1 }
	END {
		for (s in k) {
			if (a[s] < 5 && b[s] < 5) continue
			d = a[s] - b[s]; if (d < 0) d = -d
			if (d > 0.5) printf "    odd: %s: %s is %.2f%% in prof report, %.2f%% in perf report\n", label, s, a[s], b[s]
		}
	}' "$1" "$2"
}

# samples FILE: "# samples:" of prof report's header for FILE (the default
# view, which reads what the timed reports read: their caches warm)
samples_of() {
	"$PROF" report -i "$1" > "$T/samples.out" 2> "$T/samples.err" ||
		{ fail "$PROF report -i $1" "$T/samples.err"; echo -; return; }
	sed -n 's/^# samples: *\([0-9][0-9]*\).*/\1/p' "$T/samples.out" | sed -n 1p
}

say "$me: prof = $PROF"
say "$me: perf = $(command -v "$PERF") ($("$PERF" --version 2> /dev/null))"
say "$me: timing: $TIME -f '%e %M' (wall seconds with 10 ms steps; peak RSS of the largest process)"
say "$me: $(nproc) CPUs, kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# --- (a) ~1M samples with frame-pointer chains -----------------------------

say "$me: [a] record: prof record -F $FREQ -g -e cpu-clock -- threads -s $SECS"
"$PROF" record -q -F "$FREQ" -g -e cpu-clock -o "$T/a.data" -- "$WORKLOADS/threads" -s "$SECS" \
	> /dev/null 2> "$T/a.rec.err" || fail "$PROF record -F $FREQ -g -- threads -s $SECS" "$T/a.rec.err"
na=$(samples_of "$T/a.data")
say "    $na samples, $(wc -c < "$T/a.data") bytes (zstd, pipe mode)"
row "[a] samples in prof's file (threads -g)" "$na" "$na"
say "$me: [a] flat: prof report | perf report --stdio --no-children -g none"
pair a-flat "[a] flat" -i "$T/a.data" -- -i "$T/a.data" --no-children -g none
rm -f "$T"/*-a-flat.out

# perf 6.1 ignores --children on pipe-mode input (its own files' too: no
# Children column, only the graph), so --children is measured on the same
# workload recorded by perf in file mode, which prof reads as well.
say "$me: [a] record: perf record -F $FREQ -g -e cpu-clock -- threads -s $SECS (file mode, for --children)"
"$PERF" record -q -F "$FREQ" -g -e cpu-clock -o "$T/a-perf.data" -- "$WORKLOADS/threads" -s "$SECS" \
	> /dev/null 2> "$T/a-perf.rec.err" || fail "$PERF record -F $FREQ -g -- threads -s $SECS" "$T/a-perf.rec.err"
nap=$(samples_of "$T/a-perf.data")
say "    $nap samples, $(wc -c < "$T/a-perf.data") bytes (file mode, uncompressed)"
row "[a] samples in perf's file (threads -g)" "$nap" "$nap"
say "$me: [a] flat on perf's file: prof report | perf report --stdio --no-children -g none"
pair a-pflat "[a] flat, perf's file" -i "$T/a-perf.data" -- -i "$T/a-perf.data" --no-children -g none
rm -f "$T"/*-a-pflat.out
say "$me: [a] children on perf's file: prof report --children | perf report --stdio --children (perf prints the call graph too: it cannot count children without building it)"
pair a-children "[a] --children, perf's file" -i "$T/a-perf.data" --children -- -i "$T/a-perf.data" --children
rm -f "$T"/*-a-children.out "$T/a.data" "$T/a-perf.data"

# --- (b) a system-wide profile of many short processes ---------------------

say "$me: [b] record: prof record -a -g -- sh -c 'ls, gzip | wc, 300 times; python3 sum(range(10**7))'"
if command -v python3 > /dev/null 2>&1; then py='python3 -c "sum(range(10**7))"'; else py=true; fi
"$PROF" record -q -a -g -o "$T/b.data" -- sh -c \
	'for i in $(seq 300); do ls /usr/bin >/dev/null; gzip -c /etc/services | wc -c >/dev/null; done; '"$py" \
	> /dev/null 2> "$T/b.rec.err" || fail "$PROF record -a -g -- sh -c ..." "$T/b.rec.err"
nb=$(samples_of "$T/b.data")
say "    $nb samples, $(wc -c < "$T/b.data") bytes (zstd)"
row "[b] samples in the file (-a -g)" "$nb" "$nb"
pair b-flat "[b] flat" -i "$T/b.data" -- -i "$T/b.data" --no-children -g none

# --- (c) --sort sym,srcline on a binary with DWARF ---------------------------

say "$me: [c] record: prof record -F $FREQ -e cpu-clock -- shape -s $SRCSECS (shape is built with -g)"
"$PROF" record -q -F "$FREQ" -e cpu-clock -o "$T/c.data" -- "$WORKLOADS/shape" -s "$SRCSECS" \
	> /dev/null 2> "$T/c.rec.err" || fail "$PROF record -- shape -s $SRCSECS" "$T/c.rec.err"
nc=$(samples_of "$T/c.data")
say "    $nc samples"
row "[c] samples in the file (shape)" "$nc" "$nc"
say "$me: [c] prof report --sort sym,srcline | perf report --stdio --no-children --sort sym,srcline (timeout $LIMIT s)"
pair c-srcline "[c] --sort sym,srcline" -i "$T/c.data" --sort sym,srcline -- -i "$T/c.data" --no-children --sort sym,srcline
for t in prof perf; do
	f="$T/$t-c-srcline.out"
	[ -s "$f" ] && say "    $t's top rows: $(awk '!/^#/ && $1 ~ /%$/ { print; if (++n == 3) exit }' "$f" | tr -s ' ' | tr '\n' ';')"
done

# --- table -----------------------------------------------------------------

say ""
printf '%-44s %10s %10s %10s\n' "metric (median of $RUNS runs)" prof perf prof/perf
while IFS='|' read -r m a b; do
	case $m in
	*samples*) printf '%-44s %10s %10s %10s\n' "$m" "$a" "$b" "" ;;
	*) printf '%-44s %10s %10s %10s\n' "$m" "$a" "$b" "$(ratio "$a" "$b")" ;;
	esac
done < "$T/table"

[ $failed -eq 0 ] || die "a command failed (see FAILED above); the numbers above are incomplete"
exit 0
