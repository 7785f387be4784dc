#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# JIT runtimes as people run them, recorded by prof and reported after
# their perf maps and jitdumps were deleted: Node with --perf-basic-prof
# (a perf map) and --perf-prof (a jitdump), Java with
# -XX:+DumpPerfMapAtExit, Python 3.12+ with -X perf and 3.13 with
# -X perf_jit (--call-graph dwarf, through its trampolines). Each program (tests/workloads/jit) has leaves
# sharing its CPU time 6:3:1; their names and shares must show in the
# flat view and the folded stacks from what the profile carries, agree
# with perf report reading the same file while the maps exist, and a
# process that reuses a pid must not borrow the first one's names. A
# damaged perf map or jitdump gives one warning and the rest of the
# report. A runtime that is missing is said and left out.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

W=$srcdir/tests/workloads/jit
ran=0
missing=
prof_timeout=600

# runtime files a process of ours left in /tmp and here: removed before reports
clean_maps() {
	for f in *.pids; do
		[ -f "$f" ] || continue
		while read -r p; do
			rm -f "/tmp/perf-$p.map" "jit-$p.dump" "/tmp/jit-$p.dump"
		done < "$f"
	done
	rm -f jit-*.dump
}
trap 'clean_maps; cleanup' EXIT

# record NAME MODE CMD...: prof record (MODE -g or dwarf) of CMD, whose
# CPU seconds go to NAME.cpu (GNU time) and pids to NAME.pids
record() {
	name=$1
	mode=$2
	shift 2
	if [ "$mode" = dwarf ]; then
		mode="--call-graph dwarf"
	fi
	busy_begin
	# shellcheck disable=SC2086  # $mode is two words
	run_prof record -q $mode -e cpu-clock -o "$name.data" -- \
		/usr/bin/time -f '%U %S' -o "$name.cpu" "$@"
	expect_rc 0 "prof record -- $*"
	# the leaves' part of user space holds where the machine was not
	# overloaded (tasks waited under 30% of the time; make -j2 check makes
	# 6-10%): at load 20 the runtime's compiler and collector threads took
	# more of it (52.5% for node, floor 70); the leaves' shares always hold
	rm -f "$name.idle"
	idle_enough "$name: the leaves' part of user space" 30 && : > "$name.idle"
	run_prof script -i "$name.data"
	awk '$1 == "COMM" || $1 == "SAMPLE" { for (i = 1; i <= NF; i++)
		if ($i ~ /^pid=/) { sub(/^pid=/, "", $i); if ($i > 0) print $i } }' out |
		sort -u > "$name.pids"
	n=$(grep -c '^SAMPLE' out)
	cpu=$(awk '{ printf "%.2f\n", $1 + $2 }' "$name.cpu")
	floor=$(awk -v c="$cpu" 'BEGIN { printf "%d\n", c * 4000 * 0.5 }')
	note "$name: $n samples of $cpu s of CPU"
	[ "$n" -ge "$floor" ] || fail "$name: $n samples, expected at least $floor ($cpu s of CPU)"
}

# shares NAME A B C VIEW: the shares (percent of the three) of the frames
# holding A, B and C in VIEW (out): "folded" counts stacks that hold
# each; "flat" reads the Overhead column of entries named so. The fourth
# number is the three's part of the user-space samples: on a loaded
# machine the kernel's share grows (preemption on the way back to user
# mode), which says nothing of how much JIT code is named.
leaf_shares() {
	awk -v a="$2" -v b="$3" -v c="$4" -v view="$5" '
	function has(st, x) { return index(st, x) > 0 }
	view == "folded" {
		n = $NF; st = $0; sub(/ [0-9]+$/, "", st)
		if (has(st, a)) ca += n; else if (has(st, b)) cb += n; else if (has(st, c)) cc += n
		# of the stacks that end in user space or hold a leaf (the kernel under one)
		if (st !~ /_\[k\]$/ || has(st, a) || has(st, b) || has(st, c)) all += n
	}
	view == "flat" && $1 ~ /%$/ {
		p = $1; sub(/%/, "", p)
		if (has($0, a)) ca += p; else if (has($0, b)) cb += p; else if (has($0, c)) cc += p
		# the kernel samples (Self); under --children (two shares) the
		# leaves hold the kernel time under them, so their part is of all
		if ($2 ~ /%$/) children = 1
		else if (has($0, "[k]")) { k = $1; sub(/%/, "", k); ks += k }
	}
	END {
		t = ca + cb + cc
		if (view == "flat") all = children ? 100 : 100 - ks
		printf "%.1f %.1f %.1f %.1f\n", t ? 100 * ca / t : 0, t ? 100 * cb / t : 0,
			t ? 100 * cc / t : 0, all ? 100 * t / all : 0
	}' out
}

# check NAME A B C VIEW-OPTS...: the leaves' shares 6:3:1 within 10
# points in a report of NAME.data; together at least MIN_NAMED % of it.
check() {
	name=$1
	a=$2
	b=$3
	c=$4
	view=$5
	shift 5
	run_prof report -i "$name.data" "$@"
	expect_rc 0 "prof report $* ($name)"
	# records the kernel lost on a loaded machine are said, and are no defect of the report
	grep -v '^prof: warning: [0-9]* records were lost ([0-9.]*% of samples); record with a bigger -m or a lower -F$' err |
		grep . > warned && fail "prof report $* ($name) warned: $(cat warned)"
	set -- $(leaf_shares "$name" "$a" "$b" "$c" "$view")
	note "$name ($view): $a $1%, $b $2%, $c $3% of the three, which are $4% of user space"
	expect_range "$name ($view): $a's share" "$1" 50 70
	expect_range "$name ($view): $b's share" "$2" 20 40
	expect_range "$name ($view): $c's share" "$3" 3 17
	if [ -e "$name.idle" ]; then
		expect_range "$name ($view): the leaves' part" "$4" "$MIN_NAMED" 100
	fi
}

# perf_agrees NAME A B C: perf report, reading NAME.data while the maps
# are there, gives the leaves the flat shares prof gives, within 3 points.
perf_agrees() {
	command -v perf > /dev/null 2>&1 || return 0
	perf report -i "$1.data" --stdio --no-children --sort sym > perf.out 2> perf.err ||
		fail "perf report ($1): $(tail -3 perf.err)"
	run_prof report -i "$1.data" --sort sym
	for x in "$2" "$3" "$4"; do
		pp=$(awk -v x="$x" '$1 ~ /%$/ && index($0, x) { p = $1; sub(/%/, "", p); s += p }
			END { printf "%.2f\n", s }' perf.out)
		qq=$(awk -v x="$x" '$1 ~ /%$/ && index($0, x) { p = $1; sub(/%/, "", p); s += p }
			END { printf "%.2f\n", s }' out)
		note "$1: $x: prof $qq%, perf $pp%"
		d=$(awk -v p="$pp" -v q="$qq" 'BEGIN { d = p - q; print d < 0 ? -d : d }')
		expect_range "$1: |prof - perf| for $x (points)" "$d" 0 3
	done
}

# --- Node ------------------------------------------------------------------
if command -v node > /dev/null 2>&1; then
	ran=$((ran + 1))
	MIN_NAMED=70
	record node-map -g node --perf-basic-prof "$W/shape.js" 1.5
	perf_agrees node-map leaf_a leaf_b leaf_c
	record node-dump -g node --perf-prof "$W/shape.js" 1.5
	clean_maps
	check node-map leaf_a leaf_b leaf_c flat --sort sym
	check node-map leaf_a leaf_b leaf_c folded -F folded --no-comm
	check node-dump leaf_a leaf_b leaf_c flat --sort sym
	check node-dump leaf_a leaf_b leaf_c folded -F folded --no-comm
	run_prof report -i node-map.data --sort dso,sym
	grep -q '\[JIT\] tid [0-9]* *\[\.\] JS:[*^~]*leaf_a' out ||
		fail "node-map: no '[JIT] tid PID' entry for JS:*leaf_a: $(sed -n 10,14p out)"

	# A second process with the first one's pid borrows none of its names.
	if [ -w /proc/sys/kernel/ns_last_pid ]; then
		cat > reuse.sh <<-'EOF'
		node --perf-basic-prof "$1" 1 & p=$!
		wait $p
		echo $((p - 1)) > /proc/sys/kernel/ns_last_pid
		node "$1" 1 & q=$!
		wait $q
		echo "$p $q" > reuse.pids
		EOF
		run_prof record -q -g -e cpu-clock -o reuse.data -- sh reuse.sh "$W/shape.js"
		expect_rc 0 "prof record -- sh reuse.sh"
		read -r p q < reuse.pids
		if [ "$p" = "$q" ]; then
			# the first node's exit, in seconds from the first sample: before
			# it its leaves are named by its map; after it the second node,
			# which wrote none, has no name of them (the share of all samples
			# that is leaves moves with the machine's load; this does not)
			# (the first sample and the first node's exit in time, not in
			# the file: the recorder drains the rings one CPU after
			# another, so under load a later sample may come first, and the
			# boundary would fall before the exit, counting the first
			# node's last samples as the second's)
			run_prof script -i reuse.data
			t=$(awk -v p="$p" '$1 == "SAMPLE" { split($2, a, "="); if (f == "" || a[2] + 0 < f + 0) f = a[2] }
				$1 == "EXIT" && $4 == "pid=" p && $6 == "tid=" p { split($2, a, "=")
					if (x == "" || a[2] + 0 < x + 0) x = a[2] }
				END { if (f && x) printf "%.6f\n", x - f }' out)
			[ -n "$t" ] || fail "pid $p reused: no EXIT of the first node in the recording"
			named() {
				run_prof report -i reuse.data --sort sym --time "$1"
				awk '$1 ~ /%$/ && /leaf_[abc]/ { p = $1; sub(/%/, "", p); s += p }
					END { printf "%.1f\n", s }' out
			}
			before=$(named ",$t")
			after=$(named "$t,")
			note "pid $p reused: the leaves named in $before% of the first node's samples, $after% of the second's"
			in_range "$before" 10 100 || fail "pid $p reused: the first node's leaves named in only $before% of its samples"
			[ "$after" = 0.0 ] || fail "pid $p reused: the second node borrowed the first one's names ($after% of its samples)"
			rm -f "/tmp/perf-$p.map"
		else
			note "the second node got pid $q, not $p: pid reuse left unchecked"
		fi
	else
		note "no writable /proc/sys/kernel/ns_last_pid: pid reuse left unchecked"
	fi

	# Damaged files, read where perf reads them: one warning, the rest named.
	if command -v perf > /dev/null 2>&1; then
		perf record -q -g -e cpu-clock -o perf-map.data -- \
			node --perf-basic-prof "$W/shape.js" 1 > /dev/null 2> perf.err ||
			fail "perf record node: $(tail -3 perf.err)"
		p=$(perf script -i perf-map.data -F pid 2> /dev/null | sort | uniq -c | sort -n |
			awk 'END { print $2 }')
		echo "$p" > perf-map.pids
		awk 'NR == 20 { print "not a line of a perf map" } { print }' "/tmp/perf-$p.map" > m &&
			mv m "/tmp/perf-$p.map"
		run_prof report -i perf-map.data --sort sym
		expect_rc 0 "prof report of a damaged perf map"
		n=$(grep -c 'warning' err)
		[ "$n" = 1 ] || fail "damaged perf map: $n warnings, expected 1: $(cat err)"
		grep -q "/tmp/perf-$p.map: line 20 " err || fail "damaged perf map: $(cat err)"
		grep -q 'JS:[*^~]*leaf_a' out || fail "damaged perf map: leaf_a not named"
		perf record -q -g -k mono -e cpu-clock -o perf-dump.data -- \
			node --perf-prof "$W/shape.js" 1 > /dev/null 2> perf.err ||
			fail "perf record node --perf-prof: $(tail -3 perf.err)"
		d=$(ls jit-*.dump | sed -n 1p)
		truncate -s -100 "$d"
		run_prof report -i perf-dump.data --sort sym
		expect_rc 0 "prof report of a cut jitdump"
		n=$(grep -c 'warning' err)
		[ "$n" = 1 ] || fail "cut jitdump: $n warnings, expected 1: $(cat err)"
		grep -q "$d: a record cut short" err || fail "cut jitdump: $(cat err)"
		grep -q 'JS:[*^~]*leaf_a' out || fail "cut jitdump: leaf_a not named"
		rm -f "/tmp/perf-$p.map" jit-*.dump
	fi
else
	missing="$missing node"
fi

# --- Java ------------------------------------------------------------------
if command -v java > /dev/null 2>&1 && command -v javac > /dev/null 2>&1; then
	ran=$((ran + 1))
	MIN_NAMED=60
	javac -d . "$W/Shape.java" || fail "javac Shape.java"
	record java -g java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit \
		-XX:+PreserveFramePointer -cp . Shape 2
	perf_agrees java Shape.leafA Shape.leafB Shape.leafC
	clean_maps
	check java Shape.leafA Shape.leafB Shape.leafC flat --sort sym --comm java
	check java Shape.leafA Shape.leafB Shape.leafC folded -F folded --no-comm --comm java
else
	missing="$missing java (no JDK)"
fi

# --- Python 3.12+ ----------------------------------------------------------
# Debian 12 has none; a pyenv's will do (its shims may name one that is not selected)
py=
for c in $(command -v python3.13 python3.12 2> /dev/null) \
	"$HOME"/.pyenv/versions/3.13*/bin/python3.13 "$HOME"/.pyenv/versions/3.12*/bin/python3.12; do
	if [ -x "$c" ] && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2> /dev/null; then
		py=$c
		break
	fi
done
if [ -n "$py" ]; then
	ran=$((ran + 1))
	MIN_NAMED=80
	record python dwarf "$py" -X perf "$W/shape.py" 1.5
	clean_maps
	check python py::leaf_a py::leaf_b py::leaf_c flat --children --sort sym
	check python py::leaf_a py::leaf_b py::leaf_c folded -F folded --no-comm
	# whole stacks through the trampolines: main above the leaves, in the
	# stacks that hold a leaf (the interpreter's start-up, a larger share
	# on a loaded machine, holds none)
	w=$(awk '/py::main:.*py::leaf_[abc]:/ { s += $NF } /py::leaf_[abc]:/ { t += $NF }
		END { printf "%.1f\n", t ? 100 * s / t : 0 }' out)
	note "python: $w% of the stacks in a leaf reach py::main through the leaves' trampolines"
	expect_range "python: stacks from py::main to a leaf (%)" "$w" 80 100
	# 3.13 writes a jitdump too (-X perf_jit, into /tmp)
	if "$py" -c 'import sys; sys.exit(sys.version_info < (3, 13))'; then
		record python-jit dwarf "$py" -X perf_jit "$W/shape.py" 1.5
		clean_maps
		check python-jit py::leaf_a py::leaf_b py::leaf_c folded -F folded --no-comm
	fi
else
	missing="$missing python3.12+ (Debian 12 has 3.11, whose -X perf does not exist)"
fi

[ -n "$missing" ] && note "left out:$missing"
[ "$ran" -gt 0 ] || skip "no JIT runtime here:$missing"
exit 0
