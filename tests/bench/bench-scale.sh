#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-scale.sh: how prof report's cost and memory grow with the samples
# of a system-wide profile, against perf report on the same files and the
# zstd decode of their bytes, in one run. A mixed load of real programs
# (python3, gzip, sha256sum, perl, ls, sort) is recorded with
# `prof record -a -g -F FREQ` for 1x, 4x and 16x a base length; each file
# is reported flat and with -g caller by prof (and by PROF_BASE, an older
# build, when given: before and after in one run) and by perf report
# --stdio. Also the bytes per sample of prof's file against
# `perf record -z -a -g` of the same load.
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here
# (no perf, perf_event_open refused, no GNU time), 1 when a command failed.
#
#   PROF=./prof [PROF_BASE=/tmp/old/prof] sh tests/bench/bench-scale.sh
#
# POSIX sh. See README.md beside it.
# shellcheck disable=SC2086  # word splitting of option lists is meant

PROF=${PROF:-./prof}
BASE=${PROF_BASE:-}
PERF=${PERF:-perf}
TIME=${TIME_CMD:-/usr/bin/time}
SECS=${BENCH_SECONDS:-2}	# the 1x length; 4x and 16x are 4 and 16 times it
FREQ=${BENCH_FREQ:-10000}
RUNS=${BENCH_RUNS:-3}
SCALES=${BENCH_SCALES:-1 4 16}
me=bench-scale
failed=0

skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
[ -x "$PROF" ] || die "no prof binary at '$PROF' (build it, or set PROF=)"
[ -z "$BASE" ] || [ -x "$BASE" ] || die "no prof binary at PROF_BASE='$BASE'"
[ -x "$TIME" ] && "$TIME" -f '%e %M' -o /dev/null true 2> /dev/null ||
	skip "no GNU time at '$TIME' (set TIME_CMD=)"
command -v python3 > /dev/null 2>&1 || skip "no python3 (the load, and the zstd floor)"
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-scale.XXXXXX") || die "cannot make a temporary directory"
cleanup() {
	if [ -n "$BENCH_KEEP" ]; then
		printf '%s: files kept in %s\n' "$me" "$T" >&2
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
# prof's caches (kallsyms, inflated debug files, function indexes, scope
# trees, answers by address) in the bench's directory, as the base build's: both start empty and
# are warmed the same way, whatever the user's own caches gathered
export XDG_CACHE_HOME="$T/prof-cache"
"$PROF" record -q -e cpu-clock -o "$T/probe.data" true > /dev/null 2>&1 ||
	skip "prof record: perf_event_open refused"

# The load: real programs, many short processes, for $1 seconds.
cat > "$T/load.sh" << 'EOF'
#!/bin/sh
end=$(($(date +%s) + $1))
while [ "$(date +%s)" -lt "$end" ]; do
	python3 -c 'sum(i * i for i in range(10**6))' &
	gzip -c "$2" > /dev/null &
	for i in 1 2 3 4 5 6 7 8 9 10; do ls /usr/bin > /dev/null; done
	sha256sum "$2" > /dev/null
	perl -e '$s = 0; $s += $_ for 1 .. 200000' 2> /dev/null
	sort -R /etc/services > /dev/null
	wait
done
EOF
big=$(command -v python3)
big=$(readlink -f "$big")

# The compressed payloads of a prof file, as one zstd stream (the decode floor).
cat > "$T/zst.py" << 'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
out = open(sys.argv[2], 'wb')
pos = 16
while pos + 8 <= len(d):
    typ, misc, size = struct.unpack_from('<IHH', d, pos)
    if size < 8:
        break
    if typ == 81:
        out.write(d[pos + 8:pos + size])
    pos += size
EOF

# once OUT BIN ARGS...: one run's CPU s (perf stat task-clock) and peak RSS KiB, added to OUT
once() {
	_o=$1
	shift
	if ! "$PERF" stat -x, -e task-clock -o "$T/s1" -- "$TIME" -f '%M' -o "$T/t1" \
		"$@" > /dev/null 2> "$T/err" < /dev/null; then
		printf '%s: FAILED: %s\n' "$me" "$*" >&2
		sed -n 1,5p "$T/err" >&2
		failed=1
		echo "- -" >> "$_o"
		return
	fi
	echo "$(awk -F, '/task-clock/ { print $1 / 1000 }' "$T/s1") $(tail -n 1 "$T/t1")" >> "$_o"
}
# median OUT: median CPU s and max RSS MiB of the runs in OUT
median() {
	awk '$1 != "-" { c[++n] = $1; if ($2 > m) m = $2 }
		END { if (!n) { print "- -"; exit }
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
		printf "%.3f %.1f\n", c[int((n + 1) / 2)], m / 1024 }' "$1"
}
# side [caller]: prof, the base build and perf report file $f, flat or
# -g caller (flat: and zstd decodes $zf, when set), a run of each in
# turn, RUNS times: the machine's speed drifts by the minute, and runs in
# blocks compared one block's fast minute with another's slow one. Sets
# r_prof, r_base, r_perf and r_zstd ("CPU-s MiB", or "- -").
side() {
	_g=${1:+-g $1}
	: > "$T/a"
	: > "$T/b"
	: > "$T/c"
	: > "$T/d"
	_i=0
	while [ $_i -lt "$RUNS" ]; do
		_i=$((_i + 1))
		once "$T/a" "$PROF" report -i "$f" $_g
		[ -n "$BASE" ] && once "$T/b" env XDG_CACHE_HOME="$T/base-cache" "$BASE" report -i "$f" $_g
		once "$T/c" "$PERF" report --stdio -i "$f" --no-children -g "${1:-none}"
		[ -z "$1" ] && [ -n "$zf" ] && once "$T/d" zstd -d -c -f "$zf" -o /dev/null
	done
	r_prof=$(median "$T/a")
	r_base="- -"
	[ -n "$BASE" ] && r_base=$(median "$T/b")
	r_perf=$(median "$T/c")
	r_zstd=$(median "$T/d")
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }

echo "$me: prof = $PROF${BASE:+, base = $BASE}, perf = $(command -v "$PERF")"
echo "$me: $(nproc) CPUs, kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); -a -g -F $FREQ, ${SECS} s at 1x, $RUNS runs each (median CPU s, max RSS MiB)"

# Bytes per sample: prof's default file against perf record -z, the same load.
L=$((SECS * 4))
"$PROF" record -q -a -g -F "$FREQ" -o "$T/z1.data" -- sh "$T/load.sh" "$L" "$big" > /dev/null 2>&1 ||
	die "prof record -a -g failed"
"$PERF" record -q -z -a -g -F "$FREQ" -o "$T/z2.data" -- sh "$T/load.sh" "$L" "$big" > /dev/null 2>&1 ||
	die "perf record -z -a -g failed"
n1=$("$PROF" report -i "$T/z1.data" --sort pid 2> /dev/null | awk '/^# samples:/ { print $3; exit }')
n2=$("$PERF" script -i "$T/z2.data" -F pid 2> /dev/null | wc -l)
b1=$(wc -c < "$T/z1.data")
b2=$(wc -c < "$T/z2.data")
printf '%-44s %12s %12s %9s\n' "bytes per sample, -a -g, ${L} s" "prof" "perf -z" "prof/perf"
printf '%-44s %12s %12s %9s\n' "samples" "$n1" "$n2" ""
bp1=$(awk -v b="$b1" -v n="$n1" 'BEGIN { printf "%.2f", n ? b / n : 0 }')
bp2=$(awk -v b="$b2" -v n="$n2" 'BEGIN { printf "%.2f", n ? b / n : 0 }')
printf '%-44s %12s %12s %9s\n' "bytes per sample" "$bp1" "$bp2" "$(ratio "$bp1" "$bp2")"
echo

printf '%-6s %8s %9s %8s | %15s' "scale" "samples" "file MB" "zstd -d" "prof flat"
[ -n "$BASE" ] && printf ' %15s' "base flat"
printf ' %15s %9s %8s | %15s' "perf flat" "prof/perf" "/zstd" "prof caller"
[ -n "$BASE" ] && printf ' %15s' "base caller"
printf ' %15s %9s\n' "perf caller" "prof/perf"
for k in $SCALES; do
	f=$T/s$k.data
	"$PROF" record -q -a -g -F "$FREQ" -o "$f" -- sh "$T/load.sh" $((SECS * k)) "$big" \
		> /dev/null 2>&1 || die "prof record -a -g (${k}x) failed"
	# the default view, which reads what the timed ones read: their caches warm
	# (to its end: a report cut short by a closed pipe writes no answers)
	"$PROF" report -i "$f" > "$T/warm" 2> /dev/null
	n=$(awk '/^# samples:/ { print $3; exit }' "$T/warm")
	# the base build's caches apart, warm too: a cache of another format is made anew each time
	[ -n "$BASE" ] && XDG_CACHE_HOME=$T/base-cache "$BASE" report -i "$f" > /dev/null 2>&1
	mb=$(awk -v b="$(wc -c < "$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
	zf=
	command -v zstd > /dev/null 2>&1 && python3 "$T/zst.py" "$f" "$T/z.zst" && zf=$T/z.zst
	side
	set -- $r_prof $r_base $r_perf $r_zstd
	pf=$1 pfm=$2 bf=$3 bfm=$4 qf=$5 qfm=$6 z=$7
	side caller
	set -- $r_prof $r_base $r_perf
	pc=$1 pcm=$2 bc=$3 bcm=$4 qc=$5 qcm=$6
	printf '%-6s %8s %9s %8s | %8s %6s' "${k}x" "$n" "$mb" "$z" "$pf" "$pfm"
	[ -n "$BASE" ] && printf ' %8s %6s' "$bf" "$bfm"
	printf ' %8s %6s %9s %8s | %8s %6s' "$qf" "$qfm" "$(ratio "$pf" "$qf")" "$(ratio "$pf" "$z")" "$pc" "$pcm"
	[ -n "$BASE" ] && printf ' %8s %6s' "$bc" "$bcm"
	printf ' %8s %6s %9s\n' "$qc" "$qcm" "$(ratio "$pc" "$qc")"
done
echo "$me: each column pair is CPU seconds (perf stat task-clock, median) and peak RSS MiB; prof/perf and /zstd are ratios of CPU seconds"
echo "$me: prof's caches (the kernel's symbols, inflated debug files, function indexes, scope trees, answers by address) are the bench's own and warm: the sample count comes from a prof report before the timed ones; the base build's are apart, warmed the same way"
exit $failed
