#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-dwarf.sh: --call-graph dwarf, prof against perf in one run: the
# same Python workload recorded by each (recorder CPU time, bytes per
# sample, compressed), then each report of each file (median of
# BENCH_RUNS wall times, peak RSS), and the share of complete stacks.
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here.
#
#   PROF=./prof sh tests/bench/bench-dwarf.sh
#
# POSIX sh. See README.md beside it.

PROF=${PROF:-./prof}
PERF=${PERF:-perf}
TIME=${TIME_CMD:-/usr/bin/time}
RUNS=${BENCH_RUNS:-3}
PY=${BENCH_PYTHON:-python3}
me=bench-dwarf

say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

command -v "$PERF" > /dev/null 2>&1 || skip "perf not found ('$PERF')"
command -v "$PY" > /dev/null 2>&1 || skip "no $PY for the workload (set BENCH_PYTHON=)"
[ -x "$PROF" ] || die "no prof binary at '$PROF'"
[ -x "$TIME" ] && "$TIME" -f '%e %M' -o /dev/null true 2> /dev/null || skip "no GNU time at '$TIME'"
case $PROF in /*) ;; *) PROF=$(pwd)/$PROF ;; esac

T=$(mktemp -d "${TMPDIR:-/tmp}/bench-dwarf.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$T"' EXIT
# a few seconds of an interpreter's work (about 5 s, 20K samples here)
cat > "$T/work.py" << EOF
import json, re
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
for k in range(${BENCH_ROUNDS:-3000}):
    fib(18)
    json.loads(json.dumps([{"k": i, "v": str(i)} for i in range(2000)]))
    re.findall(r"\w+", "lorem ipsum dolor sit amet " * 200)
EOF

# cpu_ms [--no-inherit] COMMAND...: the task-clock of COMMAND and its
# children (or, --no-inherit, of COMMAND's own process alone), in ms
cpu_ms() {
	inh=
	[ "$1" = --no-inherit ] && { inh=$1; shift; }
	"$PERF" stat $inh -x, -e task-clock -o "$T/stat" -- "$@" > /dev/null 2> "$T/rec.err" ||
		{ sed 's/^/    | /' "$T/rec.err" >&2; die "failed: $*"; }
	awk -F, '$3 == "task-clock" || $3 ~ /task-clock/ { printf "%.0f\n", $1; exit }' "$T/stat"
}

samples() { "$PROF" report -i "$1" --sort comm 2> /dev/null | sed -n 's/^# samples: *//p'; }

say "$me: prof = $PROF, perf = $("$PERF" --version), workload: $PY $T/work.py"
say "$me: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
w_ms=$(cpu_ms "$PY" "$T/work.py")
p_ms=$(cpu_ms --no-inherit "$PROF" record -q --call-graph dwarf -e cpu-clock -o "$T/prof.data" -- "$PY" "$T/work.py")
f_ms=$(cpu_ms --no-inherit "$PERF" record -q --call-graph dwarf -z -e cpu-clock -o "$T/perf.data" -- "$PY" "$T/work.py")
# with perf's stack size too: the same options
q_ms=$(cpu_ms --no-inherit "$PROF" record -q --call-graph dwarf,8192 -e cpu-clock -o "$T/prof8.data" -- "$PY" "$T/work.py")
np=$(samples "$T/prof.data") nf=$(samples "$T/perf.data") nq=$(samples "$T/prof8.data")
bq=$(awk -v b="$(wc -c < "$T/prof8.data")" -v n="$nq" 'BEGIN { printf "%.0f", b / n }')
bp=$(awk -v b="$(wc -c < "$T/prof.data")" -v n="$np" 'BEGIN { printf "%.0f", b / n }')
bf=$(awk -v b="$(wc -c < "$T/perf.data")" -v n="$nf" 'BEGIN { printf "%.0f", b / n }')
say "    workload alone: $w_ms ms CPU"
say "    prof record: $p_ms ms CPU of its own, $np samples, $bp bytes/sample (zstd)"
say "    perf record -z: $f_ms ms CPU of its own, $nf samples, $bf bytes/sample (zstd)"
say "    prof record, dwarf,8192 as perf: $q_ms ms CPU of its own, $nq samples, $bq bytes/sample (zstd)"
say "        ratio, same options: recorder CPU a sample $(awk -v a="$q_ms" -v b="$f_ms" -v x="$nq" -v y="$nf" 'BEGIN { printf "%.3g", (a / x) / (b / y) }'), bytes a sample $(awk -v a="$bq" -v b="$bf" 'BEGIN { printf "%.3g", a / b }')"
say "        ratio, defaults: recorder CPU a sample $(awk -v a="$p_ms" -v b="$f_ms" -v x="$np" -v y="$nf" 'BEGIN { printf "%.3g", (a / x) / (b / y) }'), bytes a sample $(awk -v a="$bp" -v b="$bf" 'BEGIN { printf "%.3g", a / b }') (prof copies up to 32 KiB of stack, perf 8 KiB)"

# measure COMMAND...: median wall s and peak RSS MiB of $RUNS runs -> $wall $rss
measure() {
	: > "$T/walls"
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		"$TIME" -f '%e %M' -o "$T/t" "$@" > "$T/out" 2> /dev/null || die "failed: $*"
		tail -n 1 "$T/t" >> "$T/walls"
	done
	wall=$(sort -n "$T/walls" | awk '{ w[NR] = $1 } END { print w[int((NR + 1) / 2)] }')
	rss=$(awk '$2 > m { m = $2 } END { printf "%.1f", m / 1024 }' "$T/walls")
}

for f in prof perf; do
	measure "$PROF" report -i "$T/$f.data" -g caller
	q=$(sed -n 's/^# stacks: *\([0-9.]*\)%.*/\1/p' "$T/out")
	pw=$wall prss=$rss
	measure "$PERF" report -i "$T/$f.data" --stdio
	say "    $f's file: prof report -g caller $pw s, $prss MiB ($q% stacks complete); perf report $wall s, $rss MiB"
	say "        ratio: time $(awk -v a="$pw" -v b="$wall" 'BEGIN { printf "%.3g", a / b }') (target <= 0.1), peak RSS $(awk -v a="$prss" -v b="$rss" 'BEGIN { printf "%.3g", a / b }') (target < 1)"
done
exit 0
