#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof record --switch-output and reading a set of files as one:
#   - kernel-free: prof report and prof diff read a comma list and a glob
#     of the committed recordings as one profile, their samples the sum of
#     the files', an event of two recordings one event;
#   - every 1 s: one file a second, each a whole profile that prof report
#     and perf report read alone (shape's leaves named), their samples
#     adding up to what the recorder took, and the glob of them reported
#     as one in the 6:3:1 shares;
#   - --switch-max-files keeps the newest; a size switches by bytes;
#     SIGUSR2 switches (bare --switch-output) and does not reach the
#     command;
#   - bad values are one line and exit 64.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

R=$srcdir/tests/data/recorded
# --- a set of files as one (no kernel needed) -----------------------------------
a=$R/oracle-prof-shape.data
b=$R/oracle-prof-shape-g.data
c=$R/oracle-prof-threads.data
na=$(samples_of "$a") nb=$(samples_of "$b") nc=$(samples_of "$c")
run_prof report --symfs="$R/root" -i "$a,$c" --sort comm
expect_rc 0 "prof report -i A,B"
n=$(sed -n 's/^# samples: *//p' out)
[ "$n" = $((na + nc)) ] || fail "a comma list: $n samples, the files hold $na + $nc"
grep -q ' shape *$' out && grep -q ' threads *$' out || fail "a comma list: not both programs: $(cat out)"
# two recordings of cpu-clock, one with -g: one event
run_prof report --symfs="$R/root" -i "$R/oracle-prof-shape*.data" --stdio
expect_rc 0 "prof report -i GLOB"
n=$(sed -n 's/^# samples: *//p' out)
[ "$n" = $((na + nb)) ] || fail "a glob: $n samples, the files hold $na + $nb"
[ "$(grep -c '^# event:' out)" = 1 ] || fail "a glob of two cpu-clock recordings: not one event: $(grep '^# event' out)"
run_prof diff --symfs="$R/root" "$R/oracle-prof-shape*.data" "$a"
expect_rc 0 "prof diff GLOB FILE"
grep -q "^# BASE .*: $((na + nb)) samples" out || fail "prof diff of a glob: $(head -3 out)"
run_prof report -i "$tmpdir/none.*"
expect_rc 1 "a glob that matches nothing"
one_error_line "a glob that matches nothing"
grep -q "matches no file" err || fail "a glob that matches nothing: $(cat err)"
run_prof report -i "$a,$tmpdir/missing.data"
expect_rc 1 "a list with a missing file"
one_error_line "a list with a missing file"
grep -q "missing.data" err || fail "a list with a missing file: $(cat err)"

# --- options ------------------------------------------------------------------------------
for bad in "--switch-output=5" "--switch-output=2x" "--switch-output=0s" "--switch-output=1K" \
	"--switch-max-files=3" "--switch-output=1s --switch-max-files=0" "--switch-output=1s -o -"; do
	# shellcheck disable=SC2086  # the words of one case
	run_prof record -e cpu-clock $bad -- true
	expect_rc 64 "prof record $bad"
	one_error_line "prof record $bad"
done

require_perf_event
WL=$builddir/tests/workloads
# --- every second: whole files ------------------------------------------------------------
run_prof record -e cpu-clock -F 199 -g --switch-output=1s -o s.data -- "$WL/shape" -s 4.5
expect_rc 0 "prof record --switch-output=1s"
total=$(sed -n 's/^prof: \([0-9]*\) samples, .* in \([0-9]*\) files, .*/\1/p' err)
nfiles=$(ls s.data.* | wc -l)
note "--switch-output=1s: $nfiles files, $total samples"
[ "$nfiles" -ge 4 ] && [ "$nfiles" -le 6 ] || fail "4.5 s at 1 s a file: $nfiles files: $(ls s.data.*)"
[ "$(grep -c "^prof: wrote 's.data.[0-9]\{17\}' ([0-9]* samples)$" err)" = $((nfiles - 1)) ] ||
	fail "not one 'wrote' line per file switched: $(cat err)"
[ ! -e s.data ] || fail "--switch-output also wrote s.data"
sum=0
for f in s.data.*; do
	n=$(samples_of "$f")
	sum=$((sum + n))
	run_prof report -i "$f" --stdio
	grep -q '\[\.\] leaf_a$' out || fail "$f alone does not name leaf_a: $(head -20 out)"
done
[ "$sum" = "$total" ] || fail "the files hold $sum samples, the recorder took $total"
# perf reads one from the middle alone: its header, processes and maps are its own
mid=$(ls s.data.* | sed -n 2p)
if command -v perf > /dev/null 2>&1; then
	perf report -i "$mid" --stdio --sort sym 2> perf.err > perf.out || fail "perf report $mid: $(tail -3 perf.err)"
	grep -q '\[\.\] leaf_a' perf.out || fail "perf report of $mid does not name leaf_a: $(head -20 perf.out)"
fi
run_prof report -i 's.data.*' --stdio --sort sym
expect_rc 0 "prof report -i 's.data.*'"
n=$(sed -n 's/^# samples: *//p' out)
[ "$n" = "$total" ] || fail "the glob: $n samples, the recorder took $total"
pa=$(awk '$NF == "leaf_a" { sub("%", "", $1); print $1 }' out)
pb=$(awk '$NF == "leaf_b" { sub("%", "", $1); print $1 }' out)
pc=$(awk '$NF == "leaf_c" { sub("%", "", $1); print $1 }' out)
note "the glob: leaf_a $pa%, leaf_b $pb%, leaf_c $pc%"
expect_range "leaf_a's share" "$pa" 48 72
expect_range "leaf_b's share" "$pb" 20 40
expect_range "leaf_c's share" "$pc" 5 16

# --- the newest N kept ----------------------------------------------------------------
run_prof record -q -e cpu-clock -F 99 --switch-output=1s --switch-max-files=2 -o m.data -- "$WL/shape" -s 4.5
expect_rc 0 "prof record --switch-max-files=2"
[ "$(ls m.data.* | wc -l)" = 2 ] || fail "--switch-max-files=2 kept: $(ls m.data.*)"

# --- by size --------------------------------------------------------------------------
run_prof record -e cpu-clock -F 999 -g --no-compress --switch-output=64K -o z.data -- "$WL/shape" -s 3
expect_rc 0 "prof record --switch-output=64K"
nz=$(ls z.data.* | wc -l)
total=$(ls -l z.data.* | awk '{ s += $5 } END { print s + 0 }')
note "--switch-output=64K: $nz files of $total bytes, the largest $(ls -S -l z.data.* | awk 'NR == 1 { print $5 }') bytes"
# as many files as 64K fits in what was written (the machine decides how
# much: 3 s of a starved shape at load 8 wrote 82K), each but the last full
# a starved shape (load 18: 339 samples, 38K) fills no 64K: the check
# needs what 1,000 samples or more write
zs=$(summary_field 1)
if [ "$total" -le 65536 ] && [ "${zs:-0}" -lt 1000 ]; then
	note "64K files: not checked: the machine gave shape $zs samples in 3 s ($total bytes)"
else
	[ "$total" -gt 65536 ] || fail "64K files: only $total bytes for $zs samples at 999 Hz -g"
	want=$(((total + 65535) / 65536))
	[ "$nz" -ge $((want - 1)) ] && [ "$nz" -le $((want + 1)) ] ||
		fail "64K files: $nz files for $total bytes, not about $want"
	ls -l z.data.* | sort -k9 | sed '$d' | awk '$5 < 60000 { bad = 1 } END { exit bad }' ||
		fail "64K files: a file before the last under 60000 bytes: $(ls -l z.data.*)"
fi

# --- by SIGUSR2 ----------------------------------------------------------------------------
"$PROF" record -e cpu-clock -F 99 --switch-output -o u.data -- "$WL/shape" -s 8 > u.out 2> u.err &
pid=$!
bg_add $pid
# switched NUMBER: that many files ended by the switches. Not the files
# on disk: the file being written is there from its start, so counting
# them sent the second SIGUSR2 before the first was taken, and the kernel
# merged the two into one.
switched() {
	[ "$(grep -c "^prof: wrote '" u.err 2> /dev/null)" -ge "$1" ]
}
# SIGUSR2 taken by prof record (blocked for its signalfd, or caught: bit 12 of
# SigBlk or SigCgt in /proc/PID/status), not the default that ends it
usr2_caught() {
	for _k in SigBlk SigCgt; do
		_m=$(sed -n "s/^$_k:[[:space:]]*//p" /proc/$pid/status 2> /dev/null)
		[ -n "$_m" ] && [ $((0x$_m & 0x800)) -ne 0 ] && return 0
	done
	return 1
}
wait_until "prof record catching SIGUSR2" usr2_caught
kill -USR2 $pid
wait_until "the file the first SIGUSR2 wrote" switched 1
kill -USR2 $pid
wait_until "the file the second SIGUSR2 wrote" switched 2
wait $pid
rc=$?
expect_rc 0 "prof record --switch-output, SIGUSR2 twice (the command would die of it)"
[ "$(ls u.data.* | wc -l)" = 3 ] || fail "SIGUSR2 twice: $(ls u.data.*): $(cat u.err)"
finish
