#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof convert, for every kind of profile prof records (flat, -g, dwarf
# stacks, uncompressed, lost records, fork and exec, tracepoints with
# their formats, --off-cpu switches, carried JIT code): perf reads what it
# writes, every sample of it, and so does prof. Standard input without -o
# names the output stdin.perf; an attr of size 0 (files of Linux before
# 2.6.32) is 64 bytes, its ids are not read as attr fields. Reads the
# committed recordings: needs no perf_event_open.
. "$srcdir/tests/test-subr.sh"
require_perf

R=$srcdir/tests/data/recorded
T=$srcdir/tests/data/tracing
CRAFT=$builddir/tests/hostile/craft
GENPROF=$builddir/tests/golden/genprof

# A profile with carried JIT code, as run-report-jit.sh makes it
D=$srcdir/tests/data/jit
awk '/^CARRY/ { next } { print }' "$D/jit.spec" | sed "s|SYMFS|$D|g" > jit.spec
echo "carry jitdump 400 0.9 $D/jit-400.dump" >> jit.spec
echo "carry perfmap 500 0.9 $D/perf-500.map" >> jit.spec
echo "trailer" >> jit.spec
"$GENPROF" -z jit.spec jit.data 2> gen.err || fail "genprof: $(cat gen.err)"

# converted NAME FILE: prof convert FILE; perf report and perf script read
# the result without complaint, and perf script and prof script count
# the same samples in it as prof script does in FILE
converted() {
	run_prof convert -i "$2" -o "$1.perf"
	expect_rc 0 "prof convert ($1)"
	perf report -i "$1.perf" --stdio > perf.out 2> perf.err ||
		fail "$1: perf report refuses the converted file: $(tail -3 perf.err)"
	grep -i -e 'broken' -e 'missing' -e 'failed' -e 'error' perf.err &&
		fail "$1: perf report complains: $(tail -3 perf.err)"
	perf script -i "$1.perf" -F comm,tid,time > perf.out 2> perf.err ||
		fail "$1: perf script refuses the converted file: $(tail -3 perf.err)"
	want=$("$PROF" script -i "$2" 2> /dev/null | grep -c '^SAMPLE')
	got=$(wc -l < perf.out)
	again=$("$PROF" script -i "$1.perf" 2> /dev/null | grep -c '^SAMPLE')
	note "$1: $want samples; perf script reads $got of the converted file, prof script $again"
	[ "$want" -gt 0 ] || fail "$1: no samples in $2"
	[ "$got" = "$want" ] || fail "$1: perf script reads $got samples of $want"
	[ "$again" = "$want" ] || fail "$1: prof script reads $again samples of $want"
}

converted flat "$R/oracle-prof-shape.data"
converted g "$R/views-g.data"
converted dwarf "$R/unwind-d.data"
converted raw "$R/errors-raw.data"
converted lost "$R/views-lost.data"
converted forkexec "$R/unwind-forkexec.data"
converted tracepoints "$T/prof-tracepoints.data"
converted offcpu "$T/prof-offcpu.data"
converted jit "jit.data"

# tracepoints: perf names them and decodes their fields from the tracing
# data the converted file carries as a feature
perf script -i tracepoints.perf > perf.out 2> perf.err || fail "perf script of tracepoints: $(tail -3 perf.err)"
grep -q 'sched:sched_switch: prev_comm=offcpu' perf.out ||
	fail "tracepoints: perf script does not decode sched_switch: $(grep -m 2 sched perf.out)"
grep -q 'syscalls:sys_enter_read: fd: ' perf.out ||
	fail "tracepoints: perf script does not decode sys_enter_read: $(grep -m 2 sys_enter perf.out)"

# -i - without -o: stdin.perf
"$PROF" convert -i - < "$R/oracle-prof-shape.data" > out 2> err
rc=$?
expect_rc 0 "prof convert -i - (no -o)"
[ -s stdin.perf ] || fail "prof convert -i - wrote no stdin.perf: $(cat err)"
run_prof script -i stdin.perf
[ "$(grep -c '^SAMPLE' out)" = "$("$PROF" script -i "$R/oracle-prof-shape.data" | grep -c '^SAMPLE')" ] ||
	fail "stdin.perf does not hold the samples"

# an attr of size 0: 64 bytes of attr, then its id
"$CRAFT" attr0 || fail "craft attr0"
converted attr0 attr0.data
python3 - attr0.perf << 'EOF' || fail "attr0: the converted attr holds more than the 64 bytes given"
import struct, sys
d = open(sys.argv[1], "rb").read()
magic, size, attr_size, attrs_off = struct.unpack("<8sQQQ", d[:32])
attr = d[attrs_off:attrs_off + attr_size - 16]
assert struct.unpack("<I", attr[4:8])[0] == len(attr), "attr.size is not what is written"
assert not any(attr[64:]), "bytes past the 64 given: %r" % attr[64:80]
EOF
exit 0
