#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Native programs as people build them, recorded with --call-graph dwarf
# and reported: C linked by lld without frame pointers, C++ by clang++ and
# lld, Rust (its legacy and v0 manglings, linked by cc and by lld) and Go.
# Each is built here from tests/workloads/native (or shape.c), has leaves
# sharing its time 6:3:1, and must show: at least 99% of its stacks whole
# (to _start, or Go's runtime.goexit), its leaves in their shares, names
# as perf spells them (demangled, no Rust hash, no C++ parameter list),
# and no fewer whole stacks than perf script finds in the same file. A
# compiler that is missing is said and its programs left out; with none,
# the test skips.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

N=$srcdir/tests/workloads/native
ran=0
missing=

# build NAME COMMAND...: build a program, or say why not (the compiler is
# missing: skipped; it fails: the test fails).
build() {
	_n=$1
	shift
	if ! command -v "$1" > /dev/null 2>&1; then
		missing="$missing $_n ($1 not installed)"
		return 1
	fi
	"$@" > "$_n.build" 2>&1 || fail "building $_n: $* : $(tail -5 "$_n.build")"
	return 0
}

# native NAME ENTRY A B C: record ./NAME $secs (1 s) with --call-graph
# dwarf; ENTRY is the regex of its outermost frame; A, B, C its leaves, 6:3:1.
secs=1
native() {
	name=$1
	entry=$2
	cpu_reset
	busy_begin
	# shellcheck disable=SC2086  # $secs may be two words
	run_prof record -q --call-graph dwarf -e cpu-clock -o "$name.data" -- "./$name" $secs
	expect_rc 0 "prof record --call-graph dwarf -- $name"
	cpu_save "$name.data"
	cpu_load "$name.data"
	run_prof report -i "$name.data" --children --sort sym
	expect_rc 0 "prof report --children ($name)"
	n=$(sed -n 's/^# samples: *//p' out)
	expect_samples "$name" "$n" 4000
	q=$(sed -n 's/^# stacks: *\([0-9.]*\)% complete.*/\1/p' out)
	note "$name: $(grep '^# stacks:' out)"
	# a floor where the machine was not overloaded (tasks waited under 30%
	# of the time; make -j2 check makes 6-10%), and perf's own
	# count on the same file below, always: on a loaded machine Go preempts
	# goroutines by signal more often, and a sample in its preemption path
	# reaches no entry for perf either (98.2% seen; 93.5% at load 20)
	if idle_enough "$name: whole stacks of 95% or more" 30; then
		expect_range "$name: whole stacks (%)" "${q:-0}" 95 100
	fi
	run_prof report -i "$name.data" -F folded --no-comm
	expect_rc 0 "prof report -F folded ($name)"
	mv out "$name.folded"
	# names as perf spells them: nothing mangled, no Rust hash, no C++ parameters
	bad=$(tr ';' '\n' < "$name.folded" | sed 's/ [0-9]*$//' |
		grep -E '^_Z|^_R|::h[0-9a-f]{16}|\$LT\$|\$u7b\$|(work|shape)::[^ ]*\(' | sort -u | sed -n 1,3p)
	[ -z "$bad" ] || fail "$name: names not as perf spells them: $bad"
	shift 2
	total=$(awk '{ s += $NF } END { print s + 0 }' "$name.folded")
	# share LEAF: the percentage of samples whose stack holds LEAF
	share() {
		awk -v f="$1" -v t="$total" '{ st = $0; sub(/ [0-9]+$/, "", st); n = split(st, p, ";")
			for (i = 1; i <= n; i++) if (p[i] == f) { s += $NF; break } }
			END { printf "%.1f\n", t ? 100 * s / t : 0 }' "$name.folded"
	}
	sa=$(share "$1")
	sb=$(share "$2")
	sc=$(share "$3")
	note "$name: $1 $sa%, $2 $sb%, $3 $sc% of $total"
	expect_range "$name: $1's share" "$sa" 50 70
	expect_range "$name: $2's share" "$sb" 22 38
	expect_range "$name: $3's share" "$sc" 5 15
	# perf on the same file: prof's whole stacks are no fewer than perf's
	if command -v perf > /dev/null 2>&1; then
		perf script -i "$name.data" -F ip,sym > "$name.perf" 2> perf.err ||
			fail "perf script ($name): $(tail -3 perf.err)"
		pq=$(awk -v re="$entry" 'BEGIN { RS = "" } { n++; if ($0 ~ re) w++ }
			END { printf "%.1f\n", n ? 100 * w / n : 0 }' "$name.perf")
		note "$name: perf script reaches $entry in $pq% of the samples, prof report $q%"
		in_range "${q:-0}" "$(awk -v p="$pq" 'BEGIN { print p - 1 }')" 100 ||
			fail "$name: prof's whole stacks ($q%) are fewer than perf's ($pq%)"
	fi
	ran=$((ran + 1))
}

if build shape-lld clang -O2 -g -fomit-frame-pointer -fuse-ld=lld -o shape-lld \
	"$srcdir/tests/workloads/shape.c"; then
	secs="-s 1" native shape-lld '_start' leaf_a leaf_b leaf_c
fi
if build shape-cc clang++ -O2 -g -fuse-ld=lld -o shape-cc "$N/shape.cc"; then
	native shape-cc '_start' work::leaf_a work::leaf_b work::leaf_c
fi
# Debian's rustc links with cc; rust-lld's layout is lld's, asked for here.
if build shape-rs rustc -C opt-level=1 -g -o shape-rs "$N/shape.rs"; then
	native shape-rs '_start' shape::leaf_a shape::leaf_b shape::leaf_c
	build shape-rs-lld rustc -C opt-level=1 -g -C link-arg=-fuse-ld=lld -o shape-rs-lld \
		"$N/shape.rs" && native shape-rs-lld '_start' shape::leaf_a shape::leaf_b shape::leaf_c
	build shape-rs-v0 rustc -C opt-level=1 -g -C symbol-mangling-version=v0 -o shape-rs-v0 \
		"$N/shape.rs" && native shape-rs-v0 '_start' shape::leaf_a shape::leaf_b shape::leaf_c
fi
if HOME=$tmpdir GOCACHE=$tmpdir/gocache GOPATH=$tmpdir/gopath GOFLAGS= GO111MODULE=off \
	build shape-go go build -o shape-go "$N/shape.go"; then
	native shape-go 'goexit' main.leafA main.leafB main.leafC
fi
[ -n "$missing" ] && note "left out:$missing"
[ "$ran" -gt 0 ] || skip "no compiler for the native programs:$missing"
exit 0
