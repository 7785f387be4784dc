#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Tracepoint samples in committed files (tests/data/tracing), no kernel
# needed: one perf record -e sched:sched_switch -g wrote, one prof record
# -e sched:sched_switch,syscalls:sys_enter_read -g wrote, both of
# tests/workloads/offcpu. prof script names the events from the formats
# in the files' tracing data and shows their raw fields by name; prof
# report names them in its header.
. "$srcdir/tests/test-subr.sh"

D=$srcdir/tests/data/tracing

script_of "$D/perf-sched-switch.data" perf.txt
n=$(grep -c '^SAMPLE.* event=sched:sched_switch .* prev_comm=offcpu prev_pid=[0-9]* prev_prio=120 prev_state=[0-9]* next_comm=[^ ]* next_pid=[0-9]* next_prio=[0-9]*$' perf.txt)
note "perf's file: $n sched_switch samples of offcpu with their fields"
[ "$n" -ge 5 ] || fail "perf's file: $n sched_switch samples with fields: $(grep -m2 SAMPLE perf.txt)"

script_of "$D/prof-tracepoints.data" prof.txt
n=$(grep -c '^SAMPLE.* event=syscalls:sys_enter_read .* fd=3 buf=[0-9]* count=8$' prof.txt)
[ "$n" -ge 1 ] || fail "prof's file: no sys_enter_read of the timerfd: $(grep -m2 sys_enter prof.txt)"
grep -q '^SAMPLE.* event=sched:sched_switch .* prev_comm=offcpu ' prof.txt ||
	fail "prof's file: no sched_switch sample with its fields"

run_prof report -i "$D/prof-tracepoints.data" --sort comm
expect_rc 0 "prof report of tracepoints"
grep -q '^# event:    sched:sched_switch' out || fail "prof report does not name sched:sched_switch: $(grep '^# event' out)"
grep -q '^# event:    syscalls:sys_enter_read' out || fail "prof report does not name sys_enter_read"
exit 0
