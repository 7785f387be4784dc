#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run by the arm64 guest's init (tests/cross/check-guest.sh), in busybox
# sh, as root, in /tmp: prof on the emulated PMUv3 (armv8_pmuv3), whose
# counts QEMU's -icount shift=0 makes exact. Prints TAP ("ok N - what",
# "not ok N - what: why") and "# " notes; the host checks the lines.
# /w holds the workloads: userloop (2,000,000 turns of five instructions:
# 10,000,005 at EL0), userloop8m (8,000,000 turns: 40,000,005), sysloop
# (200,000 turns, each a getppid(): 1,000,005 at EL0), shape (60/30/10),
# leaf.
n=0
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1"
}
note() {
	echo "# $*"
}
# eq WHAT GOT WANT
eq() {
	if [ "$2" = "$3" ]; then ok "$1 = $3"; else not_ok "$1 is '$2', expected $3"; fi
}
# within WHAT GOT LO HI (numbers, awk's)
within() {
	if awk -v g="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(g != "" && g + 0 >= lo && g + 0 <= hi) }'; then
		ok "$1 is $2, within $3..$4"
	else
		not_ok "$1 is '$2', expected within $3..$4"
	fi
}
# count EVENT: its count in stat.csv (prof stat -x,)
count() {
	awk -F, -v e="$1" '$3 == e { print $1; exit }' stat.csv
}
# stat ARGS...: prof stat -x, ARGS into stat.csv; says so when it fails
stat() {
	if ! prof stat -x, "$@" > stat.out 2> stat.csv; then
		not_ok "prof stat $*: exit status $?: $(tail -n 2 stat.csv)"
		return 1
	fi
	cat stat.out stat.csv > /dev/null
}
# header FIELD: a field of the header of report.txt (# samples:, # lost:)
header() {
	sed -n "s/^# $1: *\([0-9]*\).*/\1/p" report.txt | head -n 1
}
# shares: leaf_a, leaf_b, leaf_c's shares of the three, in report.txt
shares() {
	awk '$NF ~ /^leaf_[abc]$/ { s[$NF] = $2; t += $2 }
		END { if (t) printf "%.2f %.2f %.2f %d\n", 100 * s["leaf_a"] / t,
			100 * s["leaf_b"] / t, 100 * s["leaf_c"] / t, t }' report.txt
}

vhe=0
dmesg | grep -q 'VHE mode initialized' && vhe=1
note "kernel $(uname -r), $( [ $vhe = 1 ] && echo VHE || echo nVHE) host"
if [ -d /sys/bus/event_source/devices/armv8_pmuv3 ]; then
	ok "the PMU is armv8_pmuv3: $(dmesg | sed -n 's/.*hw perfevents: //p' | head -n 1)"
else
	not_ok "no armv8_pmuv3 in /sys/bus/event_source/devices: $(ls /sys/bus/event_source/devices)"
fi

# --- counting: exact under -icount --------------------------------------------------
# Every user instruction of userloop is in loops.S: 10,000,005 of them, and
# as many cycles (an instruction a nanosecond, the cycle counter at 1 GHz).
if stat -e cycles:u,instructions:u /w/userloop; then
	eq "userloop's cycles:u" "$(count cycles:u)" 10000005
	eq "userloop's instructions:u" "$(count instructions:u)" 10000005
fi
if stat -e '{cycles:u,instructions:u}' /w/sysloop; then
	eq "sysloop's grouped cycles:u" "$(count cycles:u)" 1000005
	eq "sysloop's grouped instructions:u" "$(count instructions:u)" 1000005
fi

# Dynamic probes from perf_event_open (record/probe.h): each of sysloop's
# 200,000 getppid() calls enters and leaves the kernel's
# __arm64_sys_getppid once; the program's one entry is _start.
if [ -r /sys/bus/event_source/devices/kprobe/type ]; then
	if stat -e kprobe:__arm64_sys_getppid,kretprobe:__arm64_sys_getppid,uprobe:/w/sysloop:_start \
		/w/sysloop; then
		eq "kprobe:__arm64_sys_getppid over sysloop" "$(count kprobe:__arm64_sys_getppid)" 200000
		eq "kretprobe:__arm64_sys_getppid over sysloop" "$(count kretprobe:__arm64_sys_getppid)" 200000
		eq "uprobe:/w/sysloop:_start" "$(count uprobe:/w/sysloop:_start)" 1
	fi
	# a sample a hit, each in the kernel function
	if prof record -q -e kprobe:__arm64_sys_getppid -o kp.data /w/sysloop 2> record.err &&
		prof report -i kp.data --sort sym > report.txt 2> report.err; then
		note "kprobe record: $(grep -v '^#' report.txt | grep -m 1 '%')"
		eq "samples of kprobe:__arm64_sys_getppid" "$(header samples)" 200000
	else
		not_ok "prof record -e kprobe:...: $(tail -n 2 record.err report.err)"
	fi
else
	not_ok "no kprobe PMU: $(ls /sys/bus/event_source/devices)"
fi

# The exception levels each modifier keeps (the kernel's
# Documentation/arch/arm64/perf.rst): u is EL0; k is the host kernel, at
# EL1 or, with VHE, at EL2; h (exclude_hv) counts EL2 on a host without
# VHE, where only KVM's hypervisor code runs there (none here: no guest
# runs), and nothing more on a VHE host, whose kernel k already has; H is
# the host, G a KVM guest (none). All in one run, so they count the same
# instructions: cycles = u + k, uk = cycles, H = cycles, h = G = 0.
if stat -e cycles,cycles:u,cycles:k,cycles:uk,cycles:h,cycles:H,cycles:G /w/sysloop; then
	all=$(count cycles)
	u=$(count cycles:u)
	k=$(count cycles:k)
	note "sysloop: cycles $all, :u $u, :k $k"
	eq "sysloop's cycles:u" "$u" 1000005
	within "sysloop's kernel cycles (:k)" "$k" 1000000 1000000000
	eq "cycles:u + cycles:k" "$((u + k))" "$all"
	eq "cycles:uk" "$(count cycles:uk)" "$all"
	eq "cycles:H" "$(count cycles:H)" "$all"
	eq "cycles:h (no EL2 code runs without a guest)" "$(count cycles:h)" 0
	eq "cycles:G (no guest)" "$(count cycles:G)" 0
fi

# A KVM guest (kvmloop: 3,000,003 instructions at EL1 for 1,000,000 turns),
# counted from the host. G counts the guest alone, exactly; H and the
# default leave it out. Without VHE the world switch runs at EL2, which h
# counts and k (exclude_hv set, as perf sets it) does not; with VHE the
# switch is the kernel's, at EL2, and h adds nothing. Either way the
# host's levels add up: u + k + h = H = cycles.
if [ -e /dev/kvm ]; then
	if stat -e cycles:G,instructions:G /w/kvmloop 1000000; then
		eq "the KVM guest's cycles:G" "$(count cycles:G)" 3000003
		eq "the KVM guest's instructions:G" "$(count instructions:G)" 3000003
	fi
	# six counters of the seven (six and the cycle counter): none multiplexed
	if stat -e cycles,cycles:H,cycles:u,cycles:k,cycles:h,cycles:uh /w/kvmloop 1000000; then
		all=$(count cycles)
		u=$(count cycles:u)
		k=$(count cycles:k)
		h=$(count cycles:h)
		note "kvmloop: cycles $all, :u $u, :k $k, :h $h, :uh $(count cycles:uh)"
		eq "cycles:H (the host alone, as the default)" "$(count cycles:H)" "$all"
		eq "cycles:u + cycles:k + cycles:h" "$((u + k + h))" "$all"
		eq "cycles:uh" "$(count cycles:uh)" "$((u + h))"
		if [ $vhe = 1 ]; then
			eq "cycles:h on a VHE host (its kernel is the hypervisor)" "$h" 0
		else
			within "cycles:h on a host without VHE (the world switch at EL2)" "$h" 1 1000000000
		fi
	fi
else
	not_ok "no /dev/kvm: the kernel did not start KVM (-M virt,virtualization=on)"
fi

# --- multiplexing: more events than counters ------------------------------------------
# Ten cycles:u on userloop8m (40,000,005 at EL0) for seven counters: each
# runs part of the time, and its count scaled by enabled / running
# estimates the exact total; the -x line's fifth field is the share of the
# time it ran.
ten=cycles:u,cycles:u,cycles:u,cycles:u,cycles:u,cycles:u,cycles:u,cycles:u,cycles:u,cycles:u
if stat -e $ten /w/userloop8m; then
	rows=$(awk -F, '$3 == "cycles:u"' stat.csv | wc -l)
	eq "rows of ten multiplexed events" "$rows" 10
	partial=$(awk -F, '$3 == "cycles:u" && $5 + 0 > 0 && $5 + 0 < 100' stat.csv | wc -l)
	note "multiplexed: $(awk -F, '$3 == "cycles:u" { printf "%s (%s%%) ", $1, $5 }' stat.csv)"
	within "events that ran part of the time" "$partial" 3 10
	worst=$(awk -F, '$3 == "cycles:u" { d = ($1 - 40000005) / 40000005; if (d < 0) d = -d
		if (d > w) w = d } END { printf "%.4f", 100 * w }' stat.csv)
	within "the worst scaled estimate's error (% of 40,000,005)" "$worst" 0 5
fi
# twenty events on userloop's 10 ms: the counters rotate too seldom for
# all to run; those that never ran are <not counted> (running 0), the
# others ran part of the time
twenty=$ten,$ten
if stat -e $twenty /w/userloop; then
	nc=$(grep -c '^<not counted>,' stat.csv)
	note "twenty events for 10 ms: $nc <not counted>; ran: $(awk -F, '$1 ~ /^[0-9]+$/ { printf "%s%% ", $5 }' stat.csv)"
	within "events <not counted> of twenty" "$nc" 1 19
	eq "<not counted> rows that say they ran" \
		"$(awk -F, '$1 == "<not counted>" && $5 + 0 > 0' stat.csv | wc -l)" 0
	eq "counted rows that ran 0% or over 100%" \
		"$(awk -F, '$1 ~ /^[0-9]+$/ && !($5 + 0 > 0 && $5 + 0 <= 100)' stat.csv | wc -l)" 0
fi
# a group of eight cycles can never be on the seven counters at once: the
# kernel refuses it (the driver's validate_group()), and prof says so in
# a line, exit status 1, as perf stat does
prof stat -x, -e '{cycles,cycles,cycles,cycles,cycles,cycles,cycles,cycles}' /w/userloop \
	> stat.out 2> stat.csv
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < stat.csv)" = 1 ] && grep -q 'its 8 events do not fit' stat.csv; then
	ok "a group too big for the PMU: one line, exit 1: $(cat stat.csv)"
else
	not_ok "a group too big for the PMU: exit $rc: $(head -n 3 stat.csv)"
fi

# --- sampling -------------------------------------------------------------------------
# a period of 100,000 over userloop8m's 40,000,005 user cycles: 400 samples
if prof record -q -e cycles:u -c 100000 -o period.data /w/userloop8m 2> record.err &&
	prof report -i period.data --sort sym > report.txt 2> report.err; then
	eq "samples of cycles:u, -c 100000, over 40,000,005 cycles" "$(header samples)" 400
	eq "records lost" "$(header lost)" 0
else
	not_ok "prof record -e cycles:u -c 100000: $(tail -n 2 record.err report.err)"
fi

# :ppp, which armv8_pmuv3 takes (and ignores): the same 400 samples, the
# event named as asked
if prof record -q -e cycles:uppp -c 100000 -o ppp.data /w/userloop8m 2> record.err &&
	prof report -i ppp.data --sort sym > report.txt 2> report.err; then
	eq "samples of cycles:uppp, -c 100000" "$(header samples)" 400
	eq "the event, in the report" "$(sed -n 's/^# event: *//p' report.txt)" cycles:uppp
else
	not_ok "prof record -e cycles:uppp: $(tail -n 2 record.err report.err)"
fi

# what the PMU cannot do is dropped, said in a line, and the file names the
# event as opened: armv8_pmuv3 cannot leave out the idle task (:I)
if prof record -e cycles:uI -c 100000 -o idle.data /w/userloop8m 2> record.err &&
	prof report -i idle.data --sort sym > report.txt 2> report.err; then
	if [ "$(grep -c 'cannot leave out the idle task' record.err)" = 1 ]; then
		ok "cycles:uI: one line says exclude_idle was dropped: $(grep idle record.err)"
	else
		not_ok "cycles:uI: no line says exclude_idle was dropped: $(cat record.err)"
	fi
	eq "the event as opened, in the report" "$(sed -n 's/^# event: *//p' report.txt)" cycles:u
	eq "samples of cycles:u without exclude_idle" "$(header samples)" 400
else
	not_ok "prof record -e cycles:uI: $(tail -n 2 record.err report.err)"
fi

# prof stat says the same of it as perf stat: <not supported>, the rest counted
prof stat -x, -e cycles:uI,cycles:u /w/userloop > stat.out 2> stat.csv
rc=$?
eq "prof stat -e cycles:uI,cycles:u: exit status" "$rc" 0
eq "cycles:uI on a PMU that cannot leave out idle" "$(awk -F, '$3 == "cycles:uI" { print $1 }' stat.csv)" "<not supported>"
eq "cycles:u beside it" "$(count cycles:u)" 10000005

# sampling the KVM guest from the host: cycles:G at a period of 100,000 over
# kvmloop's 30,000,003 guest instructions (10,000,000 turns): 300 samples
if prof record -q -e cycles:G -c 100000 -o guest.data /w/kvmloop 10000000 2> record.err &&
	prof report -i guest.data --sort sym > report.txt 2> report.err; then
	note "cycles:G: $(grep -v '^#' report.txt | grep -m 1 '%')"
	eq "samples of cycles:G, -c 100000, over 30,000,003 guest cycles" "$(header samples)" 300
	case $(sed -n 's/^# event: *//p' report.txt) in
	cycles:G) ok "the report names the event cycles:G" ;;
	*) not_ok "the report names the event '$(sed -n 's/^# event: *//p' report.txt)', not cycles:G" ;;
	esac
	# the guest's addresses are none of the host's: not its kernel, not kvmloop's
	if prof report -i guest.data --sort dso > dso.txt 2> report.err; then
		eq "the share of cycles:G in [guest]" \
			"$(awk '!/^#/ && $NF == "[guest]" { print $1 }' dso.txt)" 100.00%
	else
		not_ok "prof report --sort dso of cycles:G: $(tail -n 2 report.err)"
	fi
else
	not_ok "prof record -e cycles:G: $(tail -n 2 record.err report.err)"
fi

# shape's leaves, 6:3:1, under cycles and cycles:u, -c and -F (-t: the order
# turned a call each round, so that -icount's exact counts meet each call alike)
for ev in "cycles -c 200000" "cycles:u -c 200000" "cycles -F 2000"; do
	# shellcheck disable=SC2086
	if prof record -q -e $ev -o shape.data /w/shape -t -s 0.4 2> record.err &&
		prof report -i shape.data --sort sym > report.txt 2> report.err; then
		set -- $(shares)
		note "-e $ev: leaves $1 / $2 / $3 of $4 samples; $(header samples) in all, $(header lost) lost"
		within "leaf_a's share, -e $ev" "$1" 59 61
		within "leaf_b's share, -e $ev" "$2" 29 31
		within "leaf_c's share, -e $ev" "$3" 9 11
		eq "records lost, -e $ev" "$(header lost)" 0
		case $ev in
		cycles:u*)
			if grep -q '\[k\]' report.txt; then
				not_ok "kernel rows under cycles:u: $(grep '\[k\]' report.txt | head -n 2)"
			else
				ok "no kernel rows under cycles:u"
			fi
			;;
		esac
	else
		not_ok "prof record -e $ev: $(tail -n 2 record.err report.err)"
	fi
done

# --- call chains: every leaf sample's chain whole (main, run, leaf) -------------------
# whole MODE: the share of leaf_[abc] stacks that are main;run;leaf_x
whole() {
	awk '{ s = $0; sub(/ [0-9]+$/, "", s); c = $NF
		if (s ~ /;leaf_[abc]$/) { t += c; if (s ~ /;main;run;leaf_[abc]$/) w += c } }
		END { if (t) printf "%.2f %d\n", 100 * w / t, t; else print "0 0" }' folded.txt
}
for cg in "-g" "--call-graph dwarf"; do
	# shellcheck disable=SC2086
	if prof record -q -e cycles:u -c 200000 $cg -o chains.data /w/shape -s 0.2 2> record.err &&
		prof report -i chains.data --format folded > folded.txt 2> report.err; then
		set -- $(whole)
		note "$cg: $1% of $2 leaf samples whole; $(grep ';leaf_a [0-9]*$' folded.txt | head -n 1)"
		eq "whole chains under $cg (% of leaf samples)" "$1" 100.00
	else
		not_ok "prof record $cg: $(tail -n 2 record.err report.err)"
	fi
done

# A group its leader samples ({...}:S): each of the 100 samples of
# cycles:u (10,000,005 cycles, one a 100,000) reads instructions:u, which
# -icount makes one a cycle: the last read is the 10,000,000th, and prof
# report --group gives both events all of _start.
if prof record -q -e '{cycles:u,instructions:u}:S' -c 100000 -o grp.data /w/userloop 2> record.err &&
	prof script -i grp.data > script.txt 2> script.err &&
	prof report -i grp.data --group --sort sym > report.txt 2> report.err; then
	eq "samples of {cycles:u,instructions:u}:S" "$(grep -c '^SAMPLE' script.txt)" 100
	last=$(sed -n 's/^SAMPLE .* read=[0-9]*:\([0-9]*\),[0-9]*:\([0-9]*\).*/\1 \2/p' script.txt | tail -n 1)
	note "the last sample read cycles:u and instructions:u: $last"
	within "instructions:u read at the 100th sample" "${last#* }" 9999000 10000005
	note "--group: $(grep -m 1 '_start$' report.txt)"
	eq "--group: both events' shares of _start" \
		"$(awk '$NF == "_start" { print $1, $2 }' report.txt)" "100.00% 100.00%"
else
	not_ok "prof record -e {cycles:u,instructions:u}:S: $(tail -n 2 record.err script.err report.err)"
fi

# prof script reads the file: a line per sample, each one cycles
if prof script -S -i period.data > script.txt 2> script.err; then
	eq "prof script's samples of cycles:u" "$(grep -c ' cycles:u: *$' script.txt)" 400
else
	not_ok "prof script: $(tail -n 2 script.err)"
fi

# -a: the whole system, the workload's samples in it
if prof record -q -a -e cycles -c 200000 -o all.data -- /w/shape -s 0.2 2> record.err &&
	prof report -i all.data --sort comm > report.txt 2> report.err; then
	note "-a: $(grep -m 1 'shape$' report.txt)"
	within "shape's share under -a" "$(awk '$NF == "shape" { sub("%", "", $1); print $1 }' report.txt)" 80 100
else
	not_ok "prof record -a: $(tail -n 2 record.err report.err)"
fi

echo "1..$n"
