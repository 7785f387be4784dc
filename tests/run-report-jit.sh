#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# JIT code in profiles written by genprof from tests/data/jit (no kernel
# needed): a jitdump (loads, a move, a replaced function, source lines)
# and a perf map (with a bad line) carried in the profile as prof record
# carries them; a later process with a reused pid that borrows nothing;
# the same files read from --symfs when the profile carries none; prof
# convert keeping them; damaged carried records and files that give one
# warning each and the rest of the report; perf reading the files.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

D=$srcdir/tests/data/jit
GENPROF=$builddir/tests/golden/genprof
[ -x "$GENPROF" ] || fail "no $GENPROF (make check builds it)"

# gen NAME CARRY-LINES: jit.spec with its CARRY line replaced, as NAME.data
gen() {
	awk -v c="$2" '$0 == "CARRY" { n = split(c, l, ";"); for (i = 1; i <= n; i++) print l[i]; next }
		{ print }' "$D/jit.spec" | sed "s|SYMFS|$D|g" > "$1.spec"
	"$GENPROF" -z "$1.spec" "$1.data" 2> gen.err || fail "genprof $1: $(cat gen.err)"
}

# flat NAME [OPTS]: prof report --sort comm,sym of NAME.data into out
flat() {
	_n=$1
	shift
	run_prof report -i "$_n.data" --sort comm,sym "$@"
	expect_rc 0 "prof report $_n"
}

# has COUNT COMM SYM: a flat entry of COUNT samples for COMM and SYM
has() {
	awk -v n="$1" -v c="$2" -v s="$3" '$1 ~ /%$/ && $2 == n && $3 == c {
		l = $0; sub(/^.*\[\.\] /, "", l); if (l == s) f = 1 } END { exit !f }' out ||
		check_later "$what: no entry of $1 samples for $2 '$3' in: $(sed -n '/^#$/,$p' out)"
}

carry="carry jitdump 400 0.9 $D/jit-400.dump;carry perfmap 500 0.9 $D/perf-500.map"

# --- carried, with the trailer: as prof record writes it ---------------------
what=carried
gen carried "$carry;trailer"
flat carried
has 14 node "JS:*jit_a app.js:1"
has 6 node "JS:*jit_new app.js:30"
has 5 node "JS:*jit_old app.js:20"
has 3 node "JS:*jit_b app.js:9"
has 7 java "map_fn"
has 2 java "LazyCompile:~spaced name app.js:3"
has 8 reused "?? (//anon)"
expect_err "carried: one warning for the bad line" <<-'E'
	prof: warning: the perf map of pid 500 the profile carries: line 2 is not "START SIZE NAME" in hex; 1 part of it skipped, the rest used
	E
run_prof report -i carried.data --sort dso,sym --comm node
grep -q '\[JIT\] tid 400 *\[\.\] JS:\*jit_a' out || check_later "carried: no [JIT] tid 400 dso: $(cat out)"
run_prof report -i carried.data --sort sym,srcline --comm node
grep -q 'jit_b app.js:9 *app.js:12' out || check_later "carried: jit_b's line is not app.js:12: $(cat out)"
run_prof report -i carried.data -F folded --no-comm --comm node
grep -qx 'JS:\*jit_a app.js:1;JS:\*jit_b app.js:9 3' out ||
	check_later "carried: folded stack of jit_b under jit_a: $(cat out)"
run_prof script -i carried.data
grep -q '^PROF_JIT kind=jitdump pid=400 start=0.900000000 offset=0 len=536 total=536$' out ||
	check_later "carried: prof script does not show the carried jitdump: $(grep PROF_ out)"
grep -q '^PROF_JIT_TRAILER records=2 ' out || check_later "carried: no trailer in prof script"
# pprof: jit_old and jit_new, one address of one JIT dso, stay two functions
# (the pprof writer's memo of frames by address leaves JIT code out)
run_prof report -i carried.data --comm node --format pprof -o jit.pb.gz
expect_rc 0 "prof report --format pprof of JIT code"
if command -v go > /dev/null 2>&1; then
	HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= timeout 300 go tool pprof -top -nodecount=100 \
		jit.pb.gz > top.txt 2> top.err || fail "go tool pprof -top: $(tail -3 top.err)"
	# a sample is 1 ms here: flat 5ms and 6ms
	for f in "5ms JS:*jit_old" "6ms JS:*jit_new"; do
		awk -v v="${f%% *}" -v n="${f#* }" '$1 == v && $6 == n { f = 1 } END { exit !f }' top.txt ||
			check_later "pprof: no ${f#* } of flat ${f%% *}: $(cat top.txt)"
	done
else
	note "no go: the pprof file of JIT code is not read"
fi

# --- carried without the trailer (a pipe's end, a killed recorder) ---------------
# read where perf reads them: the perf map of /tmp and the jitdump's path, under --symfs
what=symfs
gen plain ""
mkdir -p root/tmp root/jit
cp "$D/perf-500.map" root/tmp/perf-500.map
cp "$D/jit-400.dump" root/jit/jit-400.dump
flat plain --symfs root --strict-symfs
has 14 node "JS:*jit_a app.js:1"
has 6 node "JS:*jit_new app.js:30"
has 7 java "map_fn"
# the second pid 500 wrote nothing, but without the profile saying so it reads the same map, as perf does
has 8 reused "map_fn"
grep -q "root/tmp/perf-500.map: line 2 is not" err || check_later "symfs: no warning of the bad line: $(cat err)"
mkdir -p empty-root
flat plain --symfs empty-root --strict-symfs
has 28 node "?? (//anon)"
grep -q "jit-400.dump: No such file" err || check_later "symfs: a missing jitdump is not said: $(cat err)"

# a jitdump cut in its last record: one warning, the rest named
what=cut
cp "$D/jit-400-cut.dump" root/jit/jit-400.dump
flat plain --symfs root --strict-symfs
has 14 node "JS:*jit_a app.js:1"
has 5 node "JS:*jit_old app.js:20"
grep -q "root/jit/jit-400.dump: a record cut short; 1 part of it skipped" err ||
	check_later "cut: $(cat err)"
[ "$(grep -c 'jit-400.dump' err)" = 1 ] || check_later "cut: not one warning of the jitdump: $(cat err)"

# --- prof convert keeps them, before the samples ------------------------------
what=convert
run_prof convert -i carried.data -o carried.perf
expect_rc 0 "prof convert"
run_prof report -i carried.perf --sort comm,sym
has 14 node "JS:*jit_a app.js:1"
has 7 java "map_fn"

# --- damaged carried records ---------------------------------------------------
what=damaged
gen part "carry perfmap 500 0.9 $D/perf-500.map offset 10 total 200;$carry;trailer"
flat part
has 14 node "JS:*jit_a app.js:1"
grep -q "the perf map of pid 500 the profile carries lacks its first part: left out" err ||
	check_later "damaged: a chunk without its first part: $(cat err)"
gen huge "carry perfmap 500 0.9 $D/perf-500.map total 0x7fffffffffffffff;carry jitdump 400 0.9 $D/jit-400.dump;trailer"
flat huge
has 14 node "JS:*jit_a app.js:1"
has 9 java "?? (//anon)"
grep -q "the perf map of pid 500 the profile carries is cut short: left out" err ||
	check_later "damaged: a total no chunk reaches: $(cat err)"
gen badlen "carry perfmap 500 0.9 $D/perf-500.map len 65000;$carry;trailer"
flat badlen
grep -q "a record of the JIT code the profile carries is damaged: skipped" err ||
	check_later "damaged: a len past the record: $(cat err)"
gen badtrailer "$carry;trailer 17"
flat badtrailer
grep -q "points at no such records; reading them where they stand" err ||
	check_later "damaged: a trailer that points nowhere: $(cat err)"

# --- perf reads what prof writes ------------------------------------------------
if command -v perf > /dev/null 2>&1; then
	perf report -i carried.data --stdio > perf.out 2> perf.err ||
		check_later "perf report of a profile with carried JIT code: $(tail -3 perf.err)"
	n=$(perf script -F comm,tid,time -i carried.data 2> perf.err | grep -c "^ *[a-z].*:")
	[ "$n" = 45 ] || check_later "perf script: $n samples, expected 45: $(tail -3 perf.err)"
fi
finish
