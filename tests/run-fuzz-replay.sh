#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fuzz targets' own code, without libFuzzer, on every input that once
# broke prof (tests/data/bad), the fixtures and the crafted files: each
# target must run through them all (under ASan and UBSan in CI's second
# build); and the smaller targets (the writer -> reader round trip, the
# decoders, jitdumps, the option parser, the pprof and OTLP encoders) on
# their seeds and what broke them (tests/data/fuzz/TARGET). Needs no
# perf_event_open.
# before test-subr.sh, which reads it to bound the whole test
test_timeout=600
. "$srcdir/tests/test-subr.sh"

craft=$builddir/tests/hostile/craft
mkdir inputs || fail "mkdir"
cp "$srcdir"/tests/data/fixtures/*.data "$srcdir"/tests/data/bad/* inputs/ 2> /dev/null
cd inputs || fail "cd"
mkfifo "$tmpdir/fifo.so"
for n in attr-after-park feature-wrap ids ids-overlap auxtrace mmap2-old utf8 "deep 300" \
	"maps 5000" "fifo $tmpdir/fifo.so"; do
	# shellcheck disable=SC2086
	"$craft" $n || fail "craft $n"
done
cd .. || fail "cd"
count=$(ls inputs | wc -l)

# The symfs the report target reads: a small ELF where the crafted files
# map libc (see tests/fuzz/fuzz-report.c).
mkdir -p symfs/usr/lib/x86_64-linux-gnu
cp "$WORKLOADS/libunwlib.so" symfs/usr/lib/x86_64-linux-gnu/libc.so.6 || fail "cp"
PROF_FUZZ_SYMFS=$PWD/symfs
export PROF_FUZZ_SYMFS

for t in reader report; do
	timeout -k 5 500 "$builddir/tests/fuzz/replay-$t" inputs > out 2> err
	rc=$?
	[ "$rc" = 0 ] || fail "replay-$t exited $rc on one of $count inputs: $(tail -n 20 err)"
	grep -q "^replayed $count inputs" out || fail "replay-$t: $(cat out)"
done
# the HTTP server's request parsing, on its seeds and what broke it
n=$(ls "$srcdir/tests/data/http" | wc -l)
timeout -k 5 300 "$builddir/tests/fuzz/replay-http" "$srcdir/tests/data/http" > out 2> err
rc=$?
[ "$rc" = 0 ] || fail "replay-http exited $rc on one of $n inputs: $(tail -n 20 err)"
grep -q "^replayed $n inputs" out || fail "replay-http: $(cat out)"
small=
for t in roundtrip decode jitdump opt pprof; do
	m=$(ls "$srcdir/tests/data/fuzz/$t" | wc -l)
	[ "$m" -gt 0 ] || fail "no seeds for fuzz-$t in tests/data/fuzz/$t"
	timeout -k 5 300 "$builddir/tests/fuzz/replay-$t" "$srcdir/tests/data/fuzz/$t" > out 2> err
	rc=$?
	[ "$rc" = 0 ] || fail "replay-$t exited $rc on one of $m inputs: $(tail -n 20 err)"
	grep -q "^replayed $m inputs" out || fail "replay-$t: $(cat out)"
	small="$small, $m through $t's"
done
note "$count inputs through the reader's and the whole report's fuzz targets, $n through the HTTP parser's$small"
