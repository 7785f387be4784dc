#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --overwrite, a flight recorder (write_backward rings, read at the end):
#   - of shape on one CPU, recorded with a small ring: the file holds a
#     full ring of the newest samples (the last within a few ms of shape's
#     exit, the first after its start), none lost;
#     they are named (the maps, in rings of their own, are all there),
#     and perf report reads them alike;
#   - with --switch-output: a snapshot a SIGUSR2, sent once shape has run
#     since the last, each file's samples after the last one's (no sample
#     twice), the last at the end.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

W=$WORKLOADS/shape
# sample_times FILE [CPU]: "count first last exec exit" of FILE's samples (of CPU), and the
# times of shape's exec (its COMM) and of the last EXIT
sample_times() {
	"$PROF" script -i "$1" 2> /dev/null | awk -v cpu="$2" '
		/^SAMPLE / || /^COMM .* comm=shape/ || /^EXIT / {
			for (i = 1; i <= NF; i++) if ($i ~ /^time=/) t = substr($i, 6) + 0
		}
		/^COMM .* comm=shape/ { exec = t }
		/^EXIT / { exit_t = t }
		/^SAMPLE / && cpu != "" && $3 != "cpu=" cpu { next }
		/^SAMPLE / { n++; if (!n1 || t < first) first = t; if (t > last) last = t; n1 = 1 }
		END { printf "%d %.6f %.6f %.6f %.6f\n", n, first, last, exec, exit_t }'
}

# on one CPU (one ring), for long enough to fill it many times over even on a loaded machine
command -v taskset > /dev/null 2>&1 || skip "no taskset (util-linux)"
run_prof record --overwrite -m 8 -e cpu-clock -F 4000 -o ow.data -- taskset -c 0 "$W" -s 3
expect_rc 0 "prof record --overwrite"
grep -q "0 lost records" err || fail "records lost: $(cat err)"
read -r n first last exec end <<EOF2
$(sample_times ow.data 0)
EOF2
note "--overwrite: cpu 0's $n samples from $first to $last; shape began at $exec, ended at $end"
# one ring of 8 pages (32 KiB), of samples of 40 to 72 bytes: full (the newest overwrite the
# oldest), and no more than it holds
[ "$n" -ge $((8 * 4096 * 9 / 10 / 72)) ] && [ "$n" -le $((8 * 4096 / 40)) ] ||
	fail "--overwrite: $n samples on cpu 0, not a full ring of 8 pages"
# the newest: the last within a few ms of shape's end, the first after its start (the ring is
# full long before: 4000 a second of its CPU time, for 3 s)
awk -v f="$first" -v l="$last" -v s="$exec" -v e="$end" 'BEGIN {
	exit !(s > 0 && f > s && e - l < 0.05) }' ||
	fail "--overwrite did not keep the newest samples: $first..$last of a run $exec..$end"
run_prof report -i ow.data --sort sym
expect_rc 0 "prof report of the --overwrite file"
awk '$1 ~ /%$/ { print $NF }' out | sed -n 1,3p | sort > prof.top
grep -qx leaf_a prof.top || fail "--overwrite: shape's leaves unnamed (its maps lost?): $(sed -n 9,14p out)"
if command -v perf > /dev/null 2>&1; then
	command perf report -i ow.data --stdio --sort sym 2> perf.err | awk '$1 ~ /%$/ { print $NF }' |
		sed -n 1,3p | sort > perf.top
	cmp -s prof.top perf.top || fail "perf report's top rows differ: $(cat perf.top | tr '\n' ' ') / $(cat prof.top | tr '\n' ' ')"
fi

# --- snapshots at SIGUSR2 ----------------------------------------------------------------
mkfifo ready.fifo || fail "cannot make a FIFO"
"$PROF" record --overwrite --switch-output -m 8 -e cpu-clock -F 4000 -o sw.data -- \
	"$W" -s 600 -r ready.fifo > /dev/null 2> sw.err &
rp=$!
bg_add $rp
wait_ready ready.fifo
wrote() {
	[ "$(grep -c "^prof: wrote 'sw.data" sw.err)" -ge "$1" ]
}
child=$(cat /proc/$rp/task/$rp/children 2> /dev/null | awk '{ print $1 }')
[ -n "$child" ] || fail "no shape under prof record ($rp)"
# shape's CPU time in ticks: a snapshot has samples when shape ran since the last one
ticks() {
	awk '{ print $14 + $15 }' /proc/$child/stat
}
ran() {
	[ "$(ticks)" -ge $((t0 + 5)) ]
}
kill -USR2 $rp
wait_until "the first snapshot" wrote 1
t0=$(ticks)
wait_until "shape to run 50 ms more" ran
kill -USR2 $rp
wait_until "the second snapshot" wrote 2
t0=$(ticks)
wait_until "shape to run 50 ms more" ran
kill $child
wait $rp
st=$?
# the command's status, as perf's: shape ended by SIGTERM
[ $st = 143 ] || fail "prof record --overwrite --switch-output: exit status $st, not shape's 143: $(cat sw.err)"
set -- sw.data.*
[ $# = 3 ] || fail "$# files, not 3 (two snapshots and the end): $(cat sw.err)"
prev=0
for f in "$@"; do
	read -r n first last exec end <<EOF2
$(sample_times "$f")
EOF2
	note "$f: $n samples, $first..$last"
	[ "$n" -gt 0 ] || fail "$f: no samples"
	awk -v p="$prev" -v f="$first" 'BEGIN { exit !(f > p) }' ||
		fail "$f: its first sample $first is not after the last file's last $prev"
	prev=$last
done
finish
