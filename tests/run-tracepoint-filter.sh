#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --filter: the kernel's filter on a tracepoint (PERF_EVENT_IOC_SET_FILTER),
# in prof stat and prof record, on dd making exactly 500 read(2) calls of
# 7 bytes beside its others:
#   - stat: syscalls:sys_enter_read --filter 'count == 7' counts 500, the
#     same tracepoint unfiltered beside it more;
#   - record: 500 samples, every one's raw field count=7;
#   - a field the tracepoint lacks: one line, exit 1, no file left;
#     --filter after an event that is no tracepoint: a usage error (64).
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

tp=syscalls:sys_enter_read
run_prof stat -x, -e $tp -- true
[ "$rc" = 0 ] || skip "no tracepoint $tp here: $(cat err)"

run_prof stat -x, -e $tp --filter 'count == 7' -e $tp -- dd if=/dev/zero of=/dev/null bs=7 count=500
expect_rc 0 "prof stat --filter"
set -- $(awk -F, -v e=$tp '$3 == e { print $1 }' err)
note "stat: $tp with count == 7: $1, without a filter: $2"
[ "$1" = 500 ] || fail "stat --filter 'count == 7': $1, dd made 500 such reads: $(cat err)"
[ "$2" -gt 500 ] || fail "stat without a filter: $2, not more than the 500 filtered"

run_prof record -q -e $tp --filter 'count == 7' -o f.data -- dd if=/dev/zero of=/dev/null bs=7 count=500
expect_rc 0 "prof record --filter"
run_prof script -i f.data
expect_rc 0 "prof script"
n=$(grep -c "^SAMPLE .*event=$tp" out)
k=$(grep "^SAMPLE .*event=$tp" out | grep -c ' count=7$')
lost=$(grep -c '^LOST' out)
note "record: $n samples, $k of them count=7, $lost LOST records"
[ "$n" = "$k" ] || fail "record --filter: $((n - k)) samples not count=7"
[ "$lost" != 0 ] || [ "$n" = 500 ] || fail "record --filter: $n samples, dd made 500 such reads"

run_prof record -q -e $tp --filter 'no_such_field == 1' -o bad.data -- true
expect_rc 1 "a filter on a field the tracepoint lacks"
one_error_line "a bad filter"
grep -q "^prof: --filter 'no_such_field == 1': the kernel refused it for $tp (Invalid argument)" err ||
	fail "a bad filter: $(cat err)"
run_prof stat -e $tp --filter 'no_such_field == 1' -- true
expect_rc 1 "prof stat: a filter on a field the tracepoint lacks"
one_error_line "prof stat: a bad filter"
run_prof record -q -e cpu-clock --filter 'count == 7' -o bad2.data -- true
expect_rc 64 "--filter after cpu-clock"
one_error_line "--filter after cpu-clock"
[ ! -e bad2.data ] || fail "--filter after cpu-clock: a file was written"
