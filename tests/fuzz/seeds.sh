#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes the fuzzers' seed corpus and the report target's symfs:
#   tests/fuzz/seeds.sh BUILD_DIR OUT_DIR
# OUT_DIR/seeds: the fixtures (files perf and prof wrote) and the crafted
# files of tests/hostile/craft (built in BUILD_DIR, a tree configured for
# make check); OUT_DIR/symfs: a small ELF (libunwlib.so, with symbols and
# CFI) where the crafted files map libc. Export PROF_FUZZ_SYMFS=OUT_DIR/symfs
# for fuzz-report.
set -eu
build=$1
out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
make -C "$build" tests/hostile/craft tests/workloads/libunwlib.so tests/golden/genprof > /dev/null
mkdir -p "$out/seeds" "$out/symfs/usr/lib/x86_64-linux-gnu"
cp "$top"/tests/data/fixtures/*.data "$top"/tests/data/tracing/*.data "$out/seeds/"
cp "$build/tests/workloads/libunwlib.so" "$out/symfs/usr/lib/x86_64-linux-gnu/libc.so.6"
cd "$out/seeds"
for n in attr-after-park feature-wrap auxtrace mmap2-old utf8 "deep 300" "maps 2000"; do
	# shellcheck disable=SC2086
	"$build/tests/hostile/craft" $n
done
# JIT code carried in the profile (tests/data/jit): a perf map, a jitdump, the trailer
d=$top/tests/data/jit
sed -e "s|SYMFS|$d|g" -e "s|^CARRY\$|carry jitdump 400 0.9 $d/jit-400.dump|" "$d/jit.spec" > jit.spec
printf 'carry perfmap 500 0.9 %s\ntrailer\n' "$d/perf-500.map" >> jit.spec
"$build/tests/golden/genprof" jit.spec jit-carried.data
"$build/tests/golden/genprof" -z jit.spec jit-carried-z.data
rm jit.spec
