#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench-dwarf-size.sh: the measurement behind --call-graph dwarf's default
# stack copy. Records real programs with each SIZE and prints, per program
# and SIZE, the share of user stacks prof report unwinds to an entry point
# (the header's stacks line), the bytes per sample on disk (zstd) and the
# recorder's own CPU time (perf stat --no-inherit: prof's, not the
# program's; '-' without perf).
# Not a pass/fail test: exit 0 when it ran, 77 when it cannot run here.
#
#   PROF=./prof sh tests/bench/bench-dwarf-size.sh
#
# Programs, each skipped (said so) when missing: a Python interpreter
# (deep C stacks of CPython's evaluator), gcc compiling a C file (cc1's
# recursive tree walks), rustc compiling a Rust file (a Rust program: its
# query system's stacks are deep), and prof's own unwind workload (shallow),
# each for 2-4 s. BENCH_SIZES overrides the sizes.
#
# POSIX sh. See README.md beside it.

PROF=${PROF:-./prof}
SIZES=${BENCH_SIZES:-4096 8192 16384 32768 65528}
PY=${BENCH_PYTHON:-python3}
me=bench-dwarf-size

say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

[ -x "$PROF" ] || die "no prof binary at '$PROF'"
case $PROF in /*) ;; *) PROF=$(pwd)/$PROF ;; esac
WORKLOADS=${WORKLOADS:-$(dirname "$PROF")/tests/workloads}
"$PROF" record -q --call-graph dwarf -o /dev/null -- true 2> /dev/null ||
	skip "prof record --call-graph dwarf does not work here"

T=$(mktemp -d "${TMPDIR:-/tmp}/bench-dwarf-size.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$T"' EXIT

cat > "$T/work.py" << 'EOF2'
import json, re
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
for k in range(1500):
    fib(18)
    json.loads(json.dumps([{"k": i, "v": str(i)} for i in range(2000)]))
    re.findall(r"\w+", "lorem ipsum dolor sit amet " * 200)
EOF2
# a C file with some work for cc1 at -O2: many small functions, nested loops
awk 'BEGIN {
	for (i = 0; i < 400; i++) {
		printf "int f%d(int *a, int n) { int s = 0; for (int i = 0; i < n; i++)", i
		printf " for (int j = 0; j < i %% 7 + 1; j++) s += a[i] * %d + (s >> 3) ^ j; return s; }\n", i
	}
}' > "$T/work.c"
# a Rust file with generic code for rustc to monomorphize and optimize
awk 'BEGIN {
	print "use std::collections::HashMap;"
	for (i = 0; i < 40; i++) {
		printf "fn g%d<T: Copy + Into<u64>>(v: &[T]) -> HashMap<u64, Vec<u64>> {\n", i
		printf "    let mut m = HashMap::new();\n"
		printf "    for (k, x) in v.iter().enumerate() { m.entry((*x).into() %% %d).or_insert_with(Vec::new).push(k as u64); }\n", i + 3
		printf "    m\n}\n"
	}
	print "fn main() {"
	for (i = 0; i < 40; i++)
		printf "    println!(\"{}\", g%d(&[1u32, 2, 3]).len() + g%d(&[1u8, 2]).len());\n", i, i
	print "}"
}' > "$T/work.rs"

# measure NAME COMMAND...: record COMMAND once per size
say "$me: prof = $PROF; $(nproc) CPUs"
say ""
say "program   size  complete  bytes/sample  recorder CPU  samples"
measure() {
	name=$1
	shift
	for size in $SIZES; do
		set -- "$PROF" record -q --call-graph "dwarf,$size" -e cpu-clock -o "$T/d.data" -- "$@"
		if command -v perf > /dev/null 2>&1; then
			perf stat --no-inherit -x, -e task-clock -o "$T/stat" -- "$@" > /dev/null 2> "$T/err"
		else
			: > "$T/stat"
			"$@" > /dev/null 2> "$T/err"
		fi || { sed 's/^/    | /' "$T/err" >&2; die "failed: $*"; }
		shift 10
		"$PROF" report -i "$T/d.data" -g caller > "$T/out" 2> /dev/null || die "prof report failed"
		q=$(sed -n 's/^# stacks: *\([0-9.]*\)%.*/\1/p' "$T/out")
		n=$(sed -n 's/^# samples: *//p' "$T/out")
		b=$(awk -v b="$(wc -c < "$T/d.data")" -v n="${n:-0}" 'BEGIN { printf "%.0f", n ? b / n : 0 }')
		c=$(awk -F, '$3 ~ /task-clock/ { printf "%.0f ms", $1 }' "$T/stat")
		printf '%-8s %5s  %7s%%  %12s  %12s  %7s\n' "$name" "$size" "${q:--}" "$b" "${c:--}" "${n:-0}"
	done
}

if command -v "$PY" > /dev/null 2>&1; then
	measure python "$PY" "$T/work.py"
else
	say "python: skipped: no $PY"
fi
if command -v gcc > /dev/null 2>&1; then
	measure gcc gcc -O2 -c -o "$T/work.o" "$T/work.c"
else
	say "gcc: skipped: no gcc"
fi
if command -v rustc > /dev/null 2>&1; then
	measure rustc rustc -O --crate-name work -o "$T/work" "$T/work.rs"
else
	say "rustc: skipped: no rustc"
fi
if [ -x "$WORKLOADS/unwind" ]; then
	measure unwind "$WORKLOADS/unwind" -s 2
else
	say "unwind: skipped: no unwind workload at $WORKLOADS/unwind"
fi
exit 0
