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

# --- sampling -------------------------------------------------------------------------
# a period of 100,000 over userloop8m's 40,000,005 user cycles: 400 samples
if prof record -q -e cycles:u -c 100000 -o period.data /w/userloop8m 2> record.err &&
	prof report -i period.data --sort sym > report.txt 2> report.err; then
	eq "samples of cycles:u, -c 100000, over 40,000,005 cycles" "$(header samples)" 400
	eq "records lost" "$(header lost)" 0
else
	not_ok "prof record -e cycles:u -c 100000: $(tail -n 2 record.err report.err)"
fi

# shape's leaves, 6:3:1, under cycles and cycles:u, -c and -F
for ev in "cycles -c 200000" "cycles:u -c 200000" "cycles -F 2000"; do
	# shellcheck disable=SC2086
	if prof record -q -e $ev -o shape.data /w/shape -s 0.4 2> record.err &&
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
