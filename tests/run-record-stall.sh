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
# the reader: the stream's first byte, then nothing until the command
# has ended (it says so on a FIFO), then the rest
mkfifo done || fail "mkfifo"
reader() {
	head -c 1 > head.bin
	wait_ready done && : > reader.ok
	cat > rest.bin
}
# -F 20000 -g for 3 s of shape: up to 60,000 samples, 8 MB uncompressed,
# far over what a pipe, a ring and the writer's buffer hold (1.6 MB: a
# loaded machine that gave shape half a CPU still overflowed them) and
# under the pump's 16 x 512 KiB a ring
cpu_reset
"$PROF" record -F 20000 -g -o - -- sh -c '"$1" -s 3; echo ready > "$2"' sh "$shape" "$PWD/done" \
	2> err | reader
[ -e reader.ok ] || fail "the reader was never told the command ended: $(cat err)"
cat head.bin rest.bin > s.data
note "summary: $(grep '^prof: [0-9]* samples' err)"
set -- $(sed -n 's/^prof: \([0-9][0-9]*\) samples, \([0-9][0-9]*\) lost records.*/\1 \2/p' err)
[ $# = 2 ] || fail "no summary line: $(cat err)"
samples=$1 lost=$2
[ "$lost" = 0 ] || fail "$lost records lost with the reader stalled: $(cat err)"
# the kernel says nothing of samples it dropped while a ring was full
# until it next writes to that ring, which a program that has ended
# does not do: rings left full to the end show as a gap from shape's
# last sample to its exit (the recorder that emptied the rings and
# wrote the file from one thread kept 11,709 samples of 1.72 s of CPU at
# 20 kHz, the rest dropped unsaid). So the gaps are checked, below; the
# count only against a floor: with -g at 20 kHz the kernel itself gives
# fewer samples than the CPU time on a busy machine (its timer skips the
# periods an interrupt overran: perf record -g, alone, 0.66 of 20 kHz at
# load 6, where 0.9 without -g)
hz=$(cat /proc/sys/kernel/perf_event_max_sample_rate 2> /dev/null || echo 20000)
[ "$hz" -lt 20000 ] || hz=20000
expect_samples "the stalled stream" "$samples" "$hz" 0.4
run_prof script -i s.data
expect_rc 0 "prof script of the stream"
n=$(grep -c '^SAMPLE ' out)
note "the stream holds $n samples"
[ "$n" = "$samples" ] || fail "the stream holds $n samples, the summary says $samples"
grep -q '^LOST ' out && fail "LOST records in the stream: $(grep -m 3 '^LOST ' out)"
# shape's samples from its first to its exit: no gap of a quarter of that
# span (a scheduler's wait at load 20 is tens of ms of a 3 s run)
set -- $(awk "$awk_lib"'
	/^COMM / && field("comm") == "shape" { p = field("pid") }
	/^SAMPLE / && p != "" && field("pid") == p { t = field("time"); if (n++) { if (t - last > gap) gap = t - last } else first = t; last = t }
	/^EXIT / && p != "" && field("pid") == p { ex = field("time") }
	END { if (ex != "" && ex - last > gap) gap = ex - last; printf "%d %.3f %.3f\n", n, (ex != "" ? ex : last) - first, gap }' out)
note "shape: $1 samples over $2 s, the longest gap $3 s (its exit counted)"
[ "${1:-0}" -gt 0 ] || fail "no samples of shape in the stream"
awk -v s="$2" -v g="$3" 'BEGIN { exit !(g < s / 4) }' ||
	fail "a gap of $3 s in shape's $2 s of samples: rings left full while the reader stalled"
finish
