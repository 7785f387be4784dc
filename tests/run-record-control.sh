#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -D and --control: recording a part of a run, as perf record does.
#   - -D 500: the first sample comes 500 ms or more after the command's
#     exec (its COMM record), and the samples are named (the maps of the
#     delay were kept by a dummy event);
#   - -D -1 --control fifo:CTL,ACK: nothing until "enable"; each command
#     answered "ack"; every sample lies between the enable sent and the
#     disable answered (by CLOCK_MONOTONIC, the samples' clock); "stop"
#     ends the recording;
#   - a --control that is no FIFO: one line, exit 1.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event
shape=$WORKLOADS/shape

mono() {
	python3 -c 'import time; print("%.9f" % time.monotonic())'
}

run_prof record -q -D 500 -e cpu-clock -o d.data -- "$shape" -s 1
expect_rc 0 "prof record -D 500"
run_prof script -i d.data
set -- $(awk '/^COMM .* comm=shape$/ { split($2, x, "="); c = x[2] } /^SAMPLE/ && !f { split($2, x, "="); f = x[2] } END { printf "%.9f %.9f\n", c, f }' out)
note "-D 500: the exec at $1, the first sample at $2"
awk -v c="$1" -v f="$2" 'BEGIN { exit !(c > 0 && f - c >= 0.5) }' ||
	fail "-D 500: the first sample ($2) is not 500 ms after the exec ($1)"
run_prof report -i d.data --sort sym
grep -q '\[\.\] leaf_a$' out || fail "-D 500: the samples are not named: $(sed -n 1,14p out)"

# --- --control -----------------------------------------------------------------------
mkfifo ctl ack || fail "cannot make the FIFOs"
"$PROF" record -q -D -1 --control fifo:ctl,ack --no-compress -e cpu-clock -o c.data -- \
	"$shape" -s 600 > rec.out 2> rec.err &
rp=$!
bg_add $rp
exec 3<> ack
# cmd WORD: send it, wait for its ack
cmd() {
	echo "$1" > ctl
	read -r a <&3 && [ "$a" = ack ] || fail "--control: '$1' got '${a:-nothing}', not ack: $(cat rec.err)"
}
samples() {
	"$PROF" script -i c.data 2> /dev/null | grep -c '^SAMPLE'
}
cmd ping
[ "$(samples)" = 0 ] || fail "-D -1: samples before the enable"
t0=$(mono)
cmd enable
enough() {
	[ "$(samples)" -ge 200 ]
}
wait_until "200 samples after the enable" enough
cmd disable
t1=$(mono)
cmd stop
wait $rp
rc=$?
[ "$rc" = 0 ] || fail "--control stop: exit $rc: $(cat rec.err)"
"$PROF" script -i c.data > out 2> err || fail "prof script of c.data: $(cat err)"
set -- $(awk '/^SAMPLE/ { split($2, x, "="); if (!f) f = x[2]; l = x[2]; n++ } END { printf "%d %.9f %.9f\n", n, f, l }' out)
note "--control: $1 samples from $2 to $3; enable sent at $t0, disable answered at $t1"
awk -v f="$2" -v l="$3" -v a="$t0" -v b="$t1" 'BEGIN { exit !(f >= a && l <= b) }' ||
	fail "--control: samples outside the enabled span: $2..$3 not within $t0..$t1"

run_prof record -q --control fifo:no-such-fifo -e cpu-clock -o x.data -- true
expect_rc 1 "--control of no FIFO"
one_error_line "--control of no FIFO"
