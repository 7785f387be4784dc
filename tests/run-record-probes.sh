#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Dynamic probes from perf_event_open (record/probe.h), on
# tests/workloads/calls, which calls counted() N times (half of them
# through twice()) and malloc M times:
#   - prof stat -e uprobe:calls:counted counts N exactly, twice N/2, and
#     uretprobe:...:twice N/2;
#   - libc's malloc: prof stat's count equals perf's, through a probe that
#     perf probe made in tracefs, on the same program;
#   - prof record: N samples, named in the header as
#     written, from a path longer than 64 bytes; -g gives twice as the caller of N-1 of them; perf report
#     and perf script read the file, with N samples;
#   - prof top shows counted;
#   - usdt:PYTHON:python:gc__start (an SDT probe and its semaphore) counts
#     python's collections as perf's SDT probe does; at the same place
#     without the semaphore, nothing;
#   - kprobe:FUNCTION where the kernel has a kprobe PMU: counts the
#     kernel's calls as perf's tracepoint of the same syscall does; where
#     it has none, one line says so;
#   - mistakes: one line each, exit 64, nothing written.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

W=$WORKLOADS/calls
[ -x "$W" ] || fail "no $W (make check builds it)"
if [ ! -r /sys/bus/event_source/devices/uprobe/type ]; then
	skip "the kernel has no uprobe PMU (/sys/bus/event_source/devices/uprobe: Linux 4.17+, CONFIG_UPROBE_EVENTS)"
fi

# count_in EVENT: EVENT's count in prof stat's (or perf stat's) output in ./out
count_in() {
	awk -v e="$1" '$2 == e { gsub(/,/, "", $1); print $1; exit }' out
}

# --- prof stat: calls counted exactly ------------------------------------------
N=1001
run_prof stat -x, -e "uprobe:$W:counted,uprobe:$W:twice,uretprobe:$W:twice" -- "$W" -n $N
if [ "$rc" != 0 ] && grep -q "refused\|root or a holder of CAP_PERFMON" err; then
	skip "the kernel refuses probes here: $(cat err)"
fi
expect_rc 0 "prof stat -e uprobe:..."
c=$(awk -F, -v e="uprobe:$W:counted" '$3 == e { print $1 }' err)
t=$(awk -F, -v e="uprobe:$W:twice" '$3 == e { print $1 }' err)
r=$(awk -F, -v e="uretprobe:$W:twice" '$3 == e { print $1 }' err)
note "stat: counted $c, twice $t, its returns $r (the program made $N, $((N / 2)), $((N / 2)))"
[ "$c" = "$N" ] || fail "uprobe on counted: $c calls counted, the program made $N: $(cat err)"
[ "$t" = $((N / 2)) ] || fail "uprobe on twice: $t calls counted, the program made $((N / 2))"
[ "$r" = $((N / 2)) ] || fail "uretprobe on twice: $r returns counted, the program made $((N / 2))"

# --- libc's malloc: as perf's probe counts it ------------------------------------
libc=$(ldd "$W" | awk '$1 ~ /^libc\.so/ { print $3 }')
[ -r "$libc" ] || fail "no libc in ldd $W: $(ldd "$W")"
run_prof stat -x, -e "uprobe:$libc:malloc" -- "$W" -m 1000
expect_rc 0 "prof stat -e uprobe:$libc:malloc"
pm=$(awk -F, -v e="uprobe:$libc:malloc" '$3 == e { print $1 }' err)
# a sanitizer's malloc is not libc's: the program's own calls then miss it
sanitized || [ "${pm:-0}" -ge 1000 ] || fail "uprobe on malloc: ${pm:-no} calls, the program made 1000"
if command -v perf > /dev/null 2>&1 && [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
	pe=pm$$
	remove_probe() {
		command perf probe -q -d "probe_libc:$pe" > /dev/null 2>&1
	}
	on_exit remove_probe
	if command perf probe -q -x "$libc" -a "$pe=malloc" > probe.out 2>&1; then
		command perf stat -x, -e "probe_libc:$pe" -- "$W" -m 1000 > /dev/null 2> perf.err ||
			fail "perf stat of its probe: $(cat perf.err)"
		ppm=$(awk -F, -v e="probe_libc:$pe" '$3 == e { print $1 }' perf.err)
		note "malloc: prof counted ${pm:-none}, perf's probe ${ppm:-none} (the program called it 1000 times)"
		[ "$pm" = "$ppm" ] || fail "uprobe on malloc: prof counted $pm, perf's probe $ppm"
		remove_probe
	else
		note "malloc: perf probe could not make a probe, not compared: $(sed -n 1p probe.out)"
	fi
fi

# --- prof record: a sample a call -------------------------------------------------
# from a path longer than any fixed name buffer: the header names it whole
L=$tmpdir/a-directory-whose-name-alone-is-longer-than-the-sixty-four-bytes-an-event-name-once-had
mkdir "$L" && cp "$W" "$L/calls" || fail "cannot copy $W to $L"
W=$L/calls
run_prof record -q -g -e "uprobe:$W:counted" -o up.data -- "$W" -n $N
expect_rc 0 "prof record -e uprobe:...:counted"
run_prof report -i up.data --sort sym
expect_rc 0 "prof report of the probe"
grep -q "^# event: *uprobe:$W:counted$" out || fail "the header names: $(grep '^# event' out)"
s=$(awk '/^# samples:/ { print $3 }' out)
l=$(sed -n 's/^# lost: *\([0-9]*\) records.*/\1/p' out)
note "record: $s samples, ${l:-0} records lost, for $N calls"
[ "${l:-0}" != 0 ] || [ "$s" = "$N" ] || fail "record: $s samples for $N calls"
grep -q "^ *100.00% .*\[\.\] counted$" out || fail "record: not all in counted: $(cat out)"
# the callers: twice for all but the last (main calls it when N is odd)
run_prof report -i up.data -g caller --sort sym --children
expect_rc 0 "prof report --children"
tw=$(awk '$NF == "twice" && $1 ~ /%$/ { print $1; exit }' out)
want=$(awk -v n=$N 'BEGIN { printf "%.2f%%", 100 * (n - 1) / n }')
note "record -g: twice calls $tw of the $N samples (the program: $want)"
[ "${l:-0}" != 0 ] || [ "$tw" = "$want" ] || fail "record -g: twice the caller of $tw of the samples, not $want: $(cat out)"
if command -v perf > /dev/null 2>&1; then
	ps=$(command perf script -i up.data 2> perf.err | grep -c "uprobe:$W:counted:")
	note "perf script: $ps samples of uprobe:$W:counted"
	[ "${l:-0}" != 0 ] || [ "$ps" = "$N" ] || fail "perf script reads $ps samples, not $N: $(sed -n 1,3p perf.err)"
fi
# --- prof top --------------------------------------------------------------------
run_prof top --stdio -d 0.2 -e "uprobe:$W:counted" -- "$W" -n 100001
expect_rc 0 "prof top -e uprobe:..."
grep -q "uprobe:$W:counted" out && grep -q "\[\.\] counted$" out ||
	fail "prof top: $(sed -n 1,5p out)"

# --- USDT: a statically defined probe, with its semaphore ----------------------------
# Debian's python3 has them (readelf -n: .note.stapsdt); gc__start fires
# at each collection, only while a tracer has set its semaphore, which
# the kernel does for a probe made with ref_ctr_offset
py=$(readlink -f /usr/bin/python3 2> /dev/null)
if [ -x "$py" ] && readelf -n "$py" 2> /dev/null | grep -q 'Name: gc__start'; then
	gcs='import gc
for i in range(100): gc.collect()'
	run_prof stat -x, -e "usdt:$py:python:gc__start,usdt:$py:python:gc__done" -- "$py" -c "$gcs"
	expect_rc 0 "prof stat -e usdt:$py:python:gc__start"
	gs=$(awk -F, -v e="usdt:$py:python:gc__start" '$3 == e { print $1 }' err)
	gd=$(awk -F, -v e="usdt:$py:python:gc__done" '$3 == e { print $1 }' err)
	note "usdt: gc__start $gs, gc__done $gd for 100 gc.collect() and python's own"
	[ "${gs:-0}" -ge 100 ] && [ "$gs" = "$gd" ] || fail "usdt: gc__start $gs, gc__done $gd"
	# the same place without the semaphore: python never reaches it
	pc=$(readelf -n "$py" | awk '/Name: gc__start$/ { getline; print $2; exit }' | tr -d ',')
	run_prof stat -x, -e "uprobe:$py:$pc" -- "$py" -c "$gcs"
	np=$(awk -F, -v e="uprobe:$py:$pc" '$3 == e { print $1 }' err)
	note "uprobe at gc__start's place ($pc) without its semaphore: $np"
	[ "$np" = 0 ] || fail "a uprobe at $pc without the semaphore counted $np"
	if command -v perf > /dev/null 2>&1; then
		sdt_gone() {
			HOME=$tmpdir command perf probe -q -d 'sdt_python:gc__start' > /dev/null 2>&1
		}
		on_exit sdt_gone
		if HOME=$tmpdir command perf buildid-cache --add "$py" > /dev/null 2>&1 &&
			HOME=$tmpdir command perf probe -q sdt_python:gc__start > sdt.out 2>&1; then
			HOME=$tmpdir command perf stat -x, -e sdt_python:gc__start -- "$py" -c "$gcs" \
				> /dev/null 2> perf.err
			pg=$(awk -F, '$3 == "sdt_python:gc__start" { print $1 }' perf.err)
			note "usdt: perf's sdt_python:gc__start counted ${pg:-none}"
			[ "$gs" = "$pg" ] || fail "usdt: prof counted $gs, perf's SDT probe ${pg:-none}"
			sdt_gone
		else
			note "usdt: perf probe could not make the SDT probe, not compared: $(sed -n 1p sdt.out)"
		fi
	fi
	run_prof stat -e "usdt:$py:python:no_such_probe" -- true
	expect_rc 64 "usdt of no such probe"
	one_error_line "usdt of no such probe"
	grep -q "has no USDT probe python:no_such_probe" err || fail "usdt of no such probe: $(cat err)"
else
	note "usdt: no python3 with USDT probes here ($py): not checked"
fi

# --- kprobes ---------------------------------------------------------------------
if [ -r /sys/bus/event_source/devices/kprobe/type ]; then
	# each read(2) of dd's goes through ksys_read; the syscall's tracepoint
	# counts them as well
	run_prof stat -x, -e kprobe:ksys_read,kretprobe:ksys_read,syscalls:sys_enter_read -- \
		dd if=/dev/zero of=/dev/null bs=1 count=2000
	expect_rc 0 "prof stat -e kprobe:ksys_read"
	k=$(awk -F, '$3 == "kprobe:ksys_read" { print $1 }' err)
	kr=$(awk -F, '$3 == "kretprobe:ksys_read" { print $1 }' err)
	tp=$(awk -F, '$3 == "syscalls:sys_enter_read" { print $1 }' err)
	note "kprobe: ksys_read $k calls, $kr returns; sys_enter_read $tp"
	[ "$k" = "$tp" ] && [ "$kr" = "$tp" ] && [ "$k" -ge 2000 ] ||
		fail "kprobe:ksys_read counted $k calls and $kr returns, the tracepoint $tp reads"
else
	run_prof stat -e kprobe:ksys_read -- true
	expect_rc 64 "prof stat -e kprobe: without a kprobe PMU"
	one_error_line "kprobe: without a kprobe PMU"
	grep -q "the kernel has no kprobe PMU" err || fail "kprobe without the PMU: $(cat err)"
	note "kprobe: $(cat err)"
fi

# --- mistakes: one line, exit 64 (a usage error) -----------------------------------------------------
bad() {
	run_prof record -q -e "$1" -o bad.data -- "$W"
	expect_rc 64 "-e $1"
	one_error_line "-e $1"
	grep -q "$2" err || fail "-e $1: $(cat err)"
	[ ! -e bad.data ] || fail "-e $1: a file was written"
}
bad "uprobe:$W:no_such_function" "no function 'no_such_function' in the symbols of"
bad "uprobe:/no/such/file:main" "no file /no/such/file"
bad "uprobe:$W" "give uprobe:PATH:FUNCTION"
bad "uprobe:$W:counted+100000" "past the end of counted"
bad "uretprobe:$W:0x401000" "a return probe is placed on a function's entry"
bad "uprobe:$srcdir/README.md:main" "is not an ELF file"
finish
