#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A reader of `prof record -o -` that stops reading for the whole run:
# the rings are emptied by a thread that only copies, and the work behind
# it (the filters, compression, the writes the pipe holds up) waits in the
# pump's buffers (16 rings' worth a ring), so a run whose records fit in
# them loses none. A recorder that wrote from the thread that empties the
# rings lost all but its first 64 KiB of pipe and a ring's worth.
# The stream read afterwards holds every sample the summary counts.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

shape=$WORKLOADS/shape
# the reader: the stream's first bytes, then nothing until the command
# has ended (a file it makes then: a polled condition, not a sleep
# standing in for one), then the rest
reader() {
	head -c 4096 > head.bin
	i=0
	until [ -e done ]; do
		i=$((i + 1))
		[ "$i" -le 600 ] || break
		sleep 0.1
	done
	cat > rest.bin
}
# -F 10000 -g for 1.5 s of shape: about 15,000 samples, 2 MB uncompressed,
# far over a pipe's 64 KiB and under the pump's 16 x 512 KiB a ring
cpu_reset
"$PROF" record -F 10000 -g -o - -- sh -c '"$1" -s 1.5; touch done' sh "$shape" \
	2> err | reader
[ -e done ] || fail "the command did not end: $(cat err)"
cat head.bin rest.bin > s.data
note "summary: $(grep '^prof: [0-9]* samples' err)"
set -- $(sed -n 's/^prof: \([0-9][0-9]*\) samples, \([0-9][0-9]*\) lost records.*/\1 \2/p' err)
[ $# = 2 ] || fail "no summary line: $(cat err)"
samples=$1 lost=$2
[ "$lost" = 0 ] || fail "$lost records lost with the reader stalled: $(cat err)"
# the kernel says nothing of samples it dropped while a ring was full
# until it next writes to that ring, which a program that has ended
# does not do: so the samples are counted against shape's CPU time
# (9,673 of 15,026 where the thread emptying the rings wrote the file)
expect_samples "the stalled stream" "$samples" 10000 0.85
run_prof script -i s.data
expect_rc 0 "prof script of the stream"
n=$(grep -c '^SAMPLE ' out)
note "the stream holds $n samples"
[ "$n" = "$samples" ] || fail "the stream holds $n samples, the summary says $samples"
grep -q '^LOST ' out && fail "LOST records in the stream: $(grep -m 3 '^LOST ' out)"
finish
