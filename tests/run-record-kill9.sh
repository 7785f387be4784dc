#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGKILL the recorder while it runs: what it had written stays readable,
# by prof script and by perf.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

shape=$WORKLOADS/shape
mkfifo fifo || fail "mkfifo"
# Not through run_prof: the test needs prof's own pid.
"$PROF" record -o k.data -- "$shape" -s 10 -r fifo > out 2> err &
ppid=$!
bg_add $ppid
wait_ready fifo
# Wait (at most 5 s) until samples are in the file: a wait for a
# condition, polled, not a sleep standing in for one.
i=0
while :; do
	"$PROF" script -i k.data > poll.txt 2> poll.err
	if grep -q '^SAMPLE ' poll.txt; then
		break
	fi
	i=$((i + 1))
	[ "$i" -le 50 ] || fail "no samples in k.data after 5 s: $(wc -c < k.data) bytes"
	sleep 0.1
done
size=$(wc -c < k.data)
wpid=$(awk "$awk_lib"'$1 == "COMM" && / exec=1 comm=shape$/ { print field("pid"); exit }' poll.txt)
[ -n "$wpid" ] || fail "samples but no 'COMM ... exec=1 comm=shape' in k.data"
bg_add "$wpid"
note "samples in k.data after $i polls ($size bytes); killing prof $ppid"

kill -9 $ppid
wait $ppid 2> /dev/null
prc=$?
[ "$prc" = 137 ] || fail "prof exited $prc before the SIGKILL"
kill -9 $wpid 2> /dev/null

run_prof script -i k.data
expect_rc 0 "prof script -i k.data (recorder killed)"
mv out k.txt
samples=$(count_lines '^SAMPLE ' k.txt)
note "prof script: $samples samples; stderr: $(cat err)"
[ "$samples" -ge 1 ] || fail "prof script shows no SAMPLE of the killed recording"
if [ -s err ]; then
	[ "$(wc -l < err)" = 1 ] || fail "prof script printed more than one line on stderr"
	grep -q "^prof: warning: 'k.data' is truncated at offset [0-9]*; showing the records before it\$" err ||
		fail "prof script's stderr is not the truncation warning: $(cat err)"
fi

if command -v perf > /dev/null 2>&1; then
	perf report -i k.data --stdio --sort sym -n > k.rep 2> k.rep.err
	prc=$?
	[ "$prc" = 0 ] || fail "perf report -i k.data exited $prc: $(sed -n 1,5p k.rep.err)"
	psamples=$(awk '/^#/ || NF < 3 { next } $1 ~ /%$/ && $2 ~ /^[0-9]+$/ { t += $2 } END { print t + 0 }' k.rep)
	note "perf report: $psamples samples"
	[ "$psamples" -ge 1 ] || fail "perf report finds no samples in k.data"
else
	note "perf is not installed: not checked with perf"
fi
exit 0
