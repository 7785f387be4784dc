#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report adds samples up by command and the files and addresses of
# their stacks before it names them, each distinct stack once
# (session_sum()); PROF_NO_SUMS=1 names every sample on its own, as
# before. Both must print the same, byte for byte, with the same status
# and warnings: on every committed recording and fixture (prof's and
# perf's files, -g, --call-graph dwarf, mended and kept stacks, several
# processes, exec, stripped, lost records), in the flat view with each
# sort key and filter, with call graphs both ways, --children, both trees,
# folded stacks and JSON; and on genprof's JIT and golden profiles, where
# samples in JIT code are named as they come beside summed ones.
# about 700 reports each way: 20 s on an idle machine, several times that under sanitizers
test_timeout=1200
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

R=$srcdir/tests/data/recorded
F=$srcdir/tests/data/fixtures
D=$srcdir/tests/data/jit
GENPROF=$builddir/tests/golden/genprof
[ -x "$GENPROF" ] || fail "no $GENPROF (make check builds it)"

runs=0
rows=0
# Under the sanitizers, which look for memory errors, not differences,
# every other report is run, the parity turning with each file: each
# file and each view still run, at half the 1,300 starts of a sanitized
# prof (a fifth of a second each: 490 s of the sanitizer stage). The
# -Werror and distcheck runs compare them all.
half=
sanitized && half=1
asked=0
# same FILE ARGS...: prof report -i FILE ARGS, summed and not, alike
same() {
	_f=$1
	shift
	asked=$((asked + 1))
	[ -n "$half" ] && [ $(((asked + files) % 2)) = 1 ] && return
	leak_check_some "$runs"
	timeout -k 5 300 "$PROF" report -i "$_f" "$@" > sum.out 2> sum.err
	_a=$?
	PROF_NO_SUMS=1 timeout -k 5 300 "$PROF" report -i "$_f" "$@" > each.out 2> each.err
	_b=$?
	[ "$_a" = "$_b" ] || fail "prof report -i $_f $*: exit $_a summed, $_b one by one"
	[ "$_a" = 0 ] || fail "prof report -i $_f $* exited $_a: $(sed -n 1,3p sum.err)"
	cmp -s sum.out each.out ||
		fail "prof report -i $_f $*: summed and one by one differ: $(diff each.out sum.out | sed -n 1,12p)"
	cmp -s sum.err each.err ||
		fail "prof report -i $_f $*: the warnings differ: $(diff each.err sum.err | sed -n 1,6p)"
	runs=$((runs + 1))
	_r=$(awk '!/^#/ && $1 ~ /^[0-9.]+%$/ { n++ } END { print n + 0 }' sum.out)
	rows=$((rows + _r))
}

# every view of FILE that sums, and the filters
views() {
	for _o in "" "--sort pid" "--sort tid,sym" "--sort cpu,dso" "--sort srcline" \
		"--no-inline --percent-limit 1"; do
		# shellcheck disable=SC2086  # the options are words
		same "$@" $_o
	done
	same "$@" --dso "[kernel.kallsyms]" --time 0,0.2
	same "$@" --symbol '^[a-m]' --cpu 0
	for _o in "-g caller" "-g callee --sort pid" "--children" "--tree" "--tree=bottom-up" \
		"-F folded" "-F json" "-g caller --max-stack 2" "--children --sort tid,sym"; do
		# shellcheck disable=SC2086  # the options are words
		same "$@" $_o
	done
}

# the views a recording that differs from a sibling only by its
# compression (-z, -raw) or by having no call chains (the -g sibling's
# every view covers its code) gets: the flat view, both call graphs, JSON
few() {
	for _o in "" "--sort pid" "-g caller" "--children" "-F json"; do
		# shellcheck disable=SC2086  # the options are words
		same "$@" $_o
	done
}

files=0
for f in "$R"/*.data "$F"/*.data; do
	[ -f "$f" ] || continue
	b=${f%.data}
	case $b in
	*-z | *-raw) few "$f" --symfs="$R/root" --kallsyms=/dev/null -q ;;
	*)
		if [ -f "$b-g.data" ]; then
			few "$f" --symfs="$R/root" --kallsyms=/dev/null -q
		else
			views "$f" --symfs="$R/root" --kallsyms=/dev/null -q
		fi
		;;
	esac
	files=$((files + 1))
done
[ "$files" -ge 20 ] || fail "only $files recordings and fixtures found under $R and $F"

# JIT code carried in the profile (a jitdump, a perf map) beside file-backed code
awk -v c="carry jitdump 400 0.9 $D/jit-400.dump;carry perfmap 500 0.9 $D/perf-500.map" \
	'$0 == "CARRY" { n = split(c, l, ";"); for (i = 1; i <= n; i++) print l[i]; next }
	{ print }' "$D/jit.spec" | sed "s|SYMFS|$D|g" > jit.spec
"$GENPROF" -z jit.spec jit.data 2> gen.err || fail "genprof jit: $(cat gen.err)"
views jit.data --sort comm,sym
golden_profile
# shellcheck disable=SC2086  # gopts are words
views golden.data $gopts
# shellcheck disable=SC2086
views golden-z.data $gopts

note "$runs reports alike summed and one by one ($rows rows, $files recorded files${half:+; under the sanitizers, every other view})"
[ "$rows" -ge 1000 ] || fail "only $rows rows in all: the reports show too little to compare"
exit 0
