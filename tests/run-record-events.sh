#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof record takes perf's event grammar (record/evlist.h), as prof stat
# does: cache events, raw events and breakpoints, each with its
# modifiers, named in the file as perf names them.
#   - a cache and a raw event: recorded where the machine has a PMU (the
#     header and perf evlist name them); where it has none, one line that
#     says so, exit 1;
#   - a write breakpoint on shape's global `sink` (mem:ADDR:w) beside
#     cpu-clock: prof script and perf evlist name it mem:0x...:w; where the
#     machine's debug registers fire (not in most VMs: perf stat counts 0
#     there too), every write is a sample, in leaf_a, leaf_b and leaf_c
#     exactly 6:3:1, as shape calls them;
#   - --user-callchains, --kernel-callchains: chains of that part alone;
#     :P opens at the precision the event takes, saying nothing.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

shape=$WORKLOADS/shape
[ -x "$shape" ] || fail "no $shape (make check builds it)"

# --- cache and raw events ----------------------------------------------------
for ev in L1-dcache-load-misses r1a8:u; do
	"$PROF" record -q -e "$ev" -o hw.data -- "$shape" -s 0.2 > out 2> err
	rc=$?
	name=${ev%%:*}
	if [ "$rc" = 0 ]; then
		run_prof report -i hw.data --sort sym
		grep -q "^# event: *$name" out || fail "-e $ev: the header names $(grep '^# event' out)"
		note "-e $ev: recorded, $(awk '/^# samples:/ { print $3 }' out) samples"
	else
		[ "$rc" = 1 ] || fail "-e $ev without a PMU: exit $rc, not 1: $(cat err)"
		[ "$(wc -l < err)" = 1 ] || fail "-e $ev without a PMU: not one line: $(cat err)"
		grep -q "^prof: event '$name' is not supported here (.*): no hardware PMU" err ||
			fail "-e $ev without a PMU: $(cat err)"
		note "-e $ev: $(cat err)"
	fi
done

# --- a write breakpoint --------------------------------------------------------
addr=$(nm "$shape" | awk '$3 == "sink" { print $1 }')
[ -n "$addr" ] || fail "no symbol sink in $shape"
addr=$(printf '0x%x' "0x$addr")
run_prof record -q -e "mem:$addr:w:u" -e cpu-clock -o bp.data -- "$shape" -s 0.3
expect_rc 0 "prof record -e mem:$addr:w:u"
run_prof script -i bp.data
grep -q "^ATTR event=mem:$addr:w type=5 " out || fail "prof script names the breakpoint: $(grep '^ATTR' out)"
if command -v perf > /dev/null 2>&1; then
	command perf evlist -i bp.data > evlist.out 2> evlist.err ||
		fail "perf evlist of the file: $(cat evlist.err)"
	grep -q "^mem:$addr:w" evlist.out || fail "perf evlist names: $(cat evlist.out)"
fi
n=$(grep -c "^SAMPLE .*event=mem:$addr:w" out)
lost=$(grep -c '^LOST' out)
note "-e mem:$addr:w:u: $n samples, $lost LOST records"
if [ "$n" -gt 0 ] && [ "$lost" = 0 ]; then
	run_prof report -i bp.data --event "mem:$addr:w" --sort sym
	expect_rc 0 "prof report of the breakpoint"
	a=$(awk '$NF == "leaf_a" { print $2 }' out)
	b=$(awk '$NF == "leaf_b" { print $2 }' out)
	c=$(awk '$NF == "leaf_c" { print $2 }' out)
	note "the breakpoint: leaf_a $a, leaf_b $b, leaf_c $c samples"
	[ "${c:-0}" -gt 0 ] && [ "$a" = $((6 * c)) ] && [ "$b" = $((3 * c)) ] ||
		fail "the breakpoint's samples are not 6:3:1: $a $b $c"
else
	note "the breakpoint took no samples: this machine's debug registers do not fire (perf stat -e mem:$addr:w counts 0 too)"
fi

# --- half chains: --user-callchains, --kernel-callchains -------------------------------
# each chain holds the one context asked for, the kernel's marker
# (0xffffffffffffff80) or user space's (0xfffffffffffffe00) never
run_prof record -q -g --user-callchains -e cpu-clock -o uc.data -- "$shape" -s 0.3
expect_rc 0 "prof record --user-callchains"
run_prof script -i uc.data
n=$(grep -c '^SAMPLE .* chain=0xfffffffffffffe00,' out)
k=$(grep -c '^SAMPLE .* chain=.*0xffffffffffffff80' out)
note "--user-callchains: $n chains of user space, $k with the kernel's part"
[ "$n" -gt 0 ] && [ "$k" = 0 ] || fail "--user-callchains: $n user chains, $k with kernel frames"
run_prof record -q -g --kernel-callchains -e cpu-clock -o kc.data -- "$shape" -s 0.3
expect_rc 0 "prof record --kernel-callchains"
run_prof script -i kc.data
u=$(grep -c '^SAMPLE .* chain=.*0xfffffffffffffe00' out)
s=$(grep -c '^SAMPLE' out)
note "--kernel-callchains: $u of $s chains with a user part"
[ "$s" -gt 0 ] && [ "$u" = 0 ] || fail "--kernel-callchains: $u of $s chains have a user part"
# :P on a software event: opened at the precision it takes, nothing said
run_prof record -e cpu-clock:P -o p.data -- "$shape" -s 0.1
expect_rc 0 "prof record -e cpu-clock:P"
grep -q "precise" err && fail "-e cpu-clock:P said: $(cat err)"
exit 0
