#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-record.sh: prof record against perf record, side by side in one run,
# on the same workloads and settings; prints a table of prof / perf ratios.
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here
# (no perf, perf_event_open refused), 1 when a recorder or reader failed.
#
#   PROF=./prof WORKLOADS=./tests/workloads sh tests/bench/bench-record.sh
#
# POSIX sh (make runs it with $(SHELL)); needs GNU date (%N).
# See README.md beside it.
# shellcheck disable=SC2046,SC2086,SC2154  # word splitting of counts is meant; eval sets the per-run variables

PROF=${PROF:-./prof}
WORKLOADS=${WORKLOADS:-./tests/workloads}
PERF=${PERF:-perf}
RUNS=${BENCH_RUNS:-10}		# fixed-cost runs of each tool
FREQ=${BENCH_FREQ:-20000}	# -F for the loss and attach runs
SECS=${BENCH_SECONDS:-3}	# length of the loss and attach runs

me=bench-record
failed=0
wl_pid=

say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }
# A recorder or reader failed: say which, show its stderr, carry on so the
# rest of the table still prints, and exit 1 at the end.
fail() {
	printf '%s: FAILED: %s\n' "$me" "$1" >&2
	[ -s "$2" ] && sed 's/^/    | /' "$2" >&2
	failed=1
}

# --- preconditions ---------------------------------------------------------

command -v "$PERF" >/dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] || die "no prof binary at '$PROF' (build it, or set PROF=)"
for w in shape threads; do
	[ -x "$WORKLOADS/$w" ] || die "no workload '$WORKLOADS/$w' (set WORKLOADS=)"
done
case $(date +%N) in
*[!0-9]* | '') skip "date +%N does not give nanoseconds (needs GNU date)" ;;
esac
case $PROF in /*) ;; *) PROF=$(pwd)/$PROF ;; esac
case $WORKLOADS in /*) ;; *) WORKLOADS=$(pwd)/$WORKLOADS ;; esac

T=$(mktemp -d "${TMPDIR:-/tmp}/bench-record.XXXXXX") || die "cannot make a temporary directory"
cleanup() {
	if [ -n "$wl_pid" ]; then
		kill "$wl_pid" 2>/dev/null
		wait "$wl_pid" 2>/dev/null
	fi
	if [ -n "$BENCH_KEEP" ]; then
		printf '%s: files kept in %s\n' "$me" "$T" >&2
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# perf_event_open allowed?  Ask perf (the reference) first: if it is refused,
# this machine cannot run the benchmark.  These runs also warm the page cache
# for the fixed-cost runs.
if ! "$PERF" record -q -e cpu-clock -o "$T/probe-perf.data" true >"$T/probe-perf.err" 2>&1; then
	sed 's/^/    | /' "$T/probe-perf.err" >&2
	skip "perf record cannot open a cpu-clock event here (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
fi
if ! "$PROF" record -q -e cpu-clock -o "$T/probe-prof.data" true >"$T/probe-prof.err" 2>&1; then
	if grep -q perf_event_paranoid "$T/probe-prof.err"; then
		sed 's/^/    | /' "$T/probe-prof.err" >&2
		skip "prof record: perf_event_open refused"
	fi
	fail "$PROF record -q -e cpu-clock true" "$T/probe-prof.err"
fi

maxrate_before=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo '?')
mlock_kb=$(cat /proc/sys/kernel/perf_event_mlock_kb 2>/dev/null || echo '?')

# --- helpers ---------------------------------------------------------------

# median of the numbers in FILE, one a line
median() {
	sort -n "$1" | awk '{ v[NR] = $1 }
		END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
		      else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# wall time of one command in microseconds, appended to FILE; output to ERR
# ("date" costs the same ~1 ms on both sides)
timed() {
	_out=$1 _err=$2
	shift 2
	_s=$(date +%s%N)
	"$@" >/dev/null 2>"$_err"
	_rc=$?
	_e=$(date +%s%N)
	[ $_rc -eq 0 ] && echo $(((_e - _s) / 1000)) >>"$_out"
	return $_rc
}

# counts FILE: sets n_samples, n_lostrec (LOST records) and n_lost (the sum
# of their lost= counts) from a recorded file, read by the tool that wrote it:
# prof's with `prof script`, perf's with `perf report -D`.  Output goes to a
# file, never a pipe, so the reader's exit status is seen.  "-" on failure.
# (Runs in the current shell so that fail() is remembered.)
counts() {
	n_samples=- n_lostrec=- n_lost=-
	case $2 in
	prof)
		if ! "$PROF" script -i "$1" >"$1.txt" 2>"$1.rd.err"; then
			fail "$PROF script -i $1" "$1.rd.err"
			return
		fi
		[ -s "$1.rd.err" ] && fail "$PROF script -i $1 wrote to stderr" "$1.rd.err"
		set -- $(awk '/^SAMPLE / { s++ }
			/^LOST / { n++; for (i = 2; i <= NF; i++) if ($i ~ /^lost=/) l += substr($i, 6) }
			END { print s + 0, n + 0, l + 0 }' "$1.txt") "$1"
		;;
	perf)
		if ! "$PERF" report -i "$1" -D >"$1.txt" 2>"$1.rd.err"; then
			fail "$PERF report -i $1 -D" "$1.rd.err"
			return
		fi
		set -- $(awk '/ PERF_RECORD_SAMPLE[( ]/ { s++ }
			/ PERF_RECORD_LOST: / { n++; x = $0; sub(/.*lost:/, "", x); l += x }
			END { print s + 0, n + 0, l + 0 }' "$1.txt") "$1"
		;;
	esac
	n_samples=$1 n_lostrec=$2 n_lost=$3
	rm -f "$4.txt"
}

size() { wc -c <"$1" | tr -d ' '; }

# microseconds of CPU per sample
per_sample_us() {
	awk -v c="$1" -v s="$2" 'BEGIN {
		if (c !~ /^[0-9.]+$/ || s !~ /^[0-9]+$/ || s + 0 == 0) print "-";
		else printf "%.3f\n", 1e3 * c / s }'
}

# measured NAME COMMAND...: run a recorder under `perf stat -e task-clock`,
# which counts the CPU time of the recorder and its children to the
# microsecond (rusage, as /usr/bin/time prints it, has 10 ms steps: coarser
# than prof's whole run).  Leaves $T/NAME.stat, NAME.wall (ms), NAME.err.
measured() {
	_n=$1
	shift
	_s=$(date +%s%N)
	"$PERF" stat -x, -e task-clock -o "$T/$_n.stat" -- "$@" >/dev/null 2>"$T/$_n.err" ||
		fail "$* (under perf stat)" "$T/$_n.err"
	_e=$(date +%s%N)
	echo $(((_e - _s) / 1000000)) >"$T/$_n.wall"
}

# CPU milliseconds from a `perf stat -x, -e task-clock -o FILE` file
cpu_of() { awk -F, '$3 ~ /^task-clock/ { v = $1 } END { print (v ~ /^[0-9.]+$/ ? v : "-") }' "$1"; }

# rows of the final table, kept in a file: metric|prof|perf
row() { printf '%s|%s|%s\n' "$1" "$2" "$3" >>"$T/table"; }
: >"$T/table"

# a / b, or "-" when either is missing or both are zero
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/) print "-";
		else if (b + 0 == 0) print (a + 0 == 0 ? "-" : "inf");
		else printf "%.3g\n", a / b }'
}
div() {
	awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN {
		if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) print "-";
		else printf f "\n", a / b }'
}

say "$me: prof = $PROF"
say "$me: perf = $(command -v "$PERF") ($("$PERF" --version 2>/dev/null))"
say "$me: $(nproc) CPUs, kernel $(uname -r), perf_event_max_sample_rate $maxrate_before, perf_event_mlock_kb $mlock_kb"
say "$me: load average $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine takes CPU from the workload and the recorders)"
if [ "$maxrate_before" != '?' ] && [ "$maxrate_before" -lt "$FREQ" ]; then
	say "$me: note: -F $FREQ is above perf_event_max_sample_rate; both tools clamp to $maxrate_before"
fi

# --- 1. fixed cost ---------------------------------------------------------

say "$me: [1/3] fixed cost: 'record -q -o F true', $RUNS runs each, interleaved"
: >"$T/fix-prof.us"
: >"$T/fix-perf.us"
i=0
while [ $i -lt "$RUNS" ]; do
	i=$((i + 1))
	rm -f "$T/fix-prof.data" "$T/fix-prof.data.old" "$T/fix-perf.data" "$T/fix-perf.data.old"
	timed "$T/fix-prof.us" "$T/fix-prof.err" "$PROF" record -q -o "$T/fix-prof.data" true ||
		fail "$PROF record -q -o F true (run $i)" "$T/fix-prof.err"
	timed "$T/fix-perf.us" "$T/fix-perf.err" "$PERF" record -q -o "$T/fix-perf.data" true ||
		fail "$PERF record -q -o F true (run $i)" "$T/fix-perf.err"
done
fix_prof=$(div "$(median "$T/fix-prof.us")" 1000 %.1f)
fix_perf=$(div "$(median "$T/fix-perf.us")" 1000 %.1f)
say "    prof ms: $(sort -n "$T/fix-prof.us" | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1000 }')"
say "    perf ms: $(sort -n "$T/fix-perf.us" | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1000 }')"
row "fixed cost, median wall ms (record true)" "$fix_prof" "$fix_perf"
# and its CPU time, once more each under perf stat (not in the medians: perf
# stat adds its own start-up to the wall time)
measured fix-prof "$PROF" record -q -o "$T/fix-prof.data" true
measured fix-perf "$PERF" record -q -o "$T/fix-perf.data" true
row "fixed cost, CPU ms (record true, one run)" "$(cpu_of "$T/fix-prof.stat")" "$(cpu_of "$T/fix-perf.stat")"

# --- 2. loss at a high rate ------------------------------------------------

say "$me: [2/3] loss: 'record -F $FREQ -g -- threads -s $SECS', default buffers"
"$PROF" record -F "$FREQ" -g -o "$T/loss-prof.data" -- "$WORKLOADS/threads" -s "$SECS" \
	>/dev/null 2>"$T/loss-prof.err" ||
	fail "$PROF record -F $FREQ -g -- threads -s $SECS" "$T/loss-prof.err"
"$PERF" record -F "$FREQ" -g -o "$T/loss-perf.data" -- "$WORKLOADS/threads" -s "$SECS" \
	>/dev/null 2>"$T/loss-perf.err" ||
	fail "$PERF record -F $FREQ -g -- threads -s $SECS" "$T/loss-perf.err"

counts "$T/loss-prof.data" prof
lp_samples=$n_samples lp_nlost=$n_lostrec lp_lost=$n_lost
counts "$T/loss-perf.data" perf
lf_samples=$n_samples lf_nlost=$n_lostrec lf_lost=$n_lost
# prof's own summary line: "prof: N samples, M lost records (P%), ..."
lp_summary=$(sed -n 's/^prof: \([0-9][0-9]*\) samples, \([0-9][0-9]*\) lost records.*/\1 \2/p' "$T/loss-prof.err")
say "    prof summary: $(grep '^prof: [0-9]* samples' "$T/loss-prof.err" || echo '(none)')"
grep -i 'lost' "$T/loss-perf.err" | sed 's/^/    perf: /'
if [ "$lp_samples" = - ]; then
	: # prof script failed, said above
elif [ -n "$lp_summary" ]; then
	set -- $lp_summary
	if [ "$1" != "$lp_samples" ] || [ "$2" != "$lp_lost" ]; then
		say "    odd: prof's summary says $1 samples, $2 lost records; prof script counts $lp_samples SAMPLE, lost= sum $lp_lost"
	fi
else
	say "    odd: no summary line from prof record on stderr"
fi
# perf must read what prof wrote (the file is a perf.data pipe stream)
counts "$T/loss-prof.data" perf
if [ "$lp_samples" != - ] && { [ "$n_samples" != "$lp_samples" ] || [ "$n_lost" != "$lp_lost" ]; }; then
	say "    odd: perf report -D reads $n_samples samples, $n_lost lost from prof's file; prof script $lp_samples, $lp_lost"
fi
lp_pct=$(awk -v l="$lp_lost" -v s="$lp_samples" 'BEGIN { if (l !~ /^[0-9]+$/ || s !~ /^[0-9]+$/ || l + s == 0) print "-"; else printf "%.2f\n", 100 * l / (l + s) }')
lf_pct=$(awk -v l="$lf_lost" -v s="$lf_samples" 'BEGIN { if (l !~ /^[0-9]+$/ || s !~ /^[0-9]+$/ || l + s == 0) print "-"; else printf "%.2f\n", 100 * l / (l + s) }')
row "loss run: samples" "$lp_samples" "$lf_samples"
row "loss run: lost records (sum of LOST lost=)" "$lp_lost" "$lf_lost"
row "loss run: lost % of samples+lost" "$lp_pct" "$lf_pct"
row "loss run: LOST records in the file" "$lp_nlost" "$lf_nlost"
rm -f "$T"/loss-*.data

# --- 3. recorder's own CPU time and file size ------------------------------

say "$me: [3/3] attach: 'record -F $FREQ -g -p PID' for $SECS s to a running threads"
mkfifo "$T/ready" || die "cannot make a fifo in $T"
# (it outlives the four runs; killed when they are done)
"$WORKLOADS/threads" -s "$(awk -v s="$SECS" 'BEGIN { print 4 * (s + 2) + 30 }')" -r "$T/ready" &
wl_pid=$!
# (bounded: a workload that dies before it is ready must not hang us)
timeout 30 sh -c 'read -r x <"$1"' sh "$T/ready" ||
	die "'$WORKLOADS/threads -r FIFO' did not say it was ready"

# The workload is not the recorder's child, so perf stat counts the
# recorder's own time; perf's child is `sleep`, about 1 ms.

measured prof_z "$PROF" record -F "$FREQ" -g -o "$T/prof_z.data" -p "$wl_pid" --duration "$SECS"
measured perf_raw "$PERF" record -F "$FREQ" -g -o "$T/perf_raw.data" -p "$wl_pid" -- sleep "$SECS"
measured prof_raw "$PROF" record -F "$FREQ" -g --no-compress -o "$T/prof_raw.data" -p "$wl_pid" --duration "$SECS"
measured perf_z "$PERF" record -z -F "$FREQ" -g -o "$T/perf_z.data" -p "$wl_pid" -- sleep "$SECS"
kill "$wl_pid" 2>/dev/null
wait "$wl_pid" 2>/dev/null
wl_pid=

maxrate_after=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2>/dev/null || echo '?')

# prof_z: prof's default (zstd level 1); prof_raw: prof --no-compress;
# perf_raw: perf record's default (uncompressed); perf_z: perf record -z (level 1).
# Each sets ${n}_samples, _lost, _bytes, _cpu.
for n in prof_z perf_raw prof_raw perf_z; do
	counts "$T/$n.data" "${n%_*}"
	if [ -f "$T/$n.data" ]; then b=$(size "$T/$n.data"); else b=-; fi
	c=$(cpu_of "$T/$n.stat")
	eval "${n}_samples=\$n_samples ${n}_lost=\$n_lost ${n}_bytes=\$b ${n}_cpu=\$c"
	say "    $n: $n_samples samples, $n_lost lost, $b bytes, $c ms CPU, $(cat "$T/$n.wall") ms wall"
done

row "attach: recorder CPU ms, uncompressed" "$prof_raw_cpu" "$perf_raw_cpu"
row "attach: recorder CPU ms, zstd" "$prof_z_cpu" "$perf_z_cpu"
row "attach: CPU us per sample, uncompressed" "$(per_sample_us "$prof_raw_cpu" "$prof_raw_samples")" \
	"$(per_sample_us "$perf_raw_cpu" "$perf_raw_samples")"
row "attach: CPU us per sample, zstd" "$(per_sample_us "$prof_z_cpu" "$prof_z_samples")" \
	"$(per_sample_us "$perf_z_cpu" "$perf_z_samples")"
row "attach: samples, uncompressed" "$prof_raw_samples" "$perf_raw_samples"
row "attach: samples, zstd" "$prof_z_samples" "$perf_z_samples"
row "attach: lost records, uncompressed" "$prof_raw_lost" "$perf_raw_lost"
row "attach: lost records, zstd" "$prof_z_lost" "$perf_z_lost"
row "file bytes per sample, uncompressed" "$(div "$prof_raw_bytes" "$prof_raw_samples" %.1f)" \
	"$(div "$perf_raw_bytes" "$perf_raw_samples" %.1f)"
row "file bytes per sample, zstd (prof default, perf -z)" "$(div "$prof_z_bytes" "$prof_z_samples" %.1f)" \
	"$(div "$perf_z_bytes" "$perf_z_samples" %.1f)"

# --- table -----------------------------------------------------------------

if [ "$maxrate_after" != "$maxrate_before" ]; then
	say "$me: note: the kernel lowered perf_event_max_sample_rate from $maxrate_before to $maxrate_after during the run"
fi
say ""
printf '%-52s %12s %12s %8s\n' "metric (-F $FREQ -g, $SECS s runs)" prof perf prof/perf
while IFS='|' read -r m a b; do
	printf '%-52s %12s %12s %8s\n' "$m" "$a" "$b" "$(ratio "$a" "$b")"
done <"$T/table"

[ $failed -eq 0 ] || die "a recorder or reader failed (see FAILED above); the numbers above are incomplete"
exit 0
