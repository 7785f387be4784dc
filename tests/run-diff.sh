#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof diff with no kernel: profiles of a known shape written by
# tests/golden/genprof, their samples drawn at random (awk's rand, seeded)
# among leaf_a, leaf_b and mid of the committed golden binary, so that each
# file has the sampling noise of a real one. 6:3:1 against 3:3:4 gives
# -30 and +30 points, flagged; two draws of 6:3:1 give no significant
# entry in all but a few of 40 pairs (the false-positive rate); the gate's
# exit status; --abs; -g, --tree; json against its schema; the
# differential flame graph (rendered in Chromium where there is one);
# folded lines with both counts; merged sides; errors.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

G=$srcdir/tests/data/golden
genprof=$builddir/tests/golden/genprof
[ -x "$genprof" ] || fail "no $genprof (make check builds it)"
opts="--symfs $G --kallsyms $G/kallsyms --no-inline"

gen_shape base 1 6 3 1 5000
gen_shape new 2 3 3 4 5000
gen_shape same 3 6 3 1 5000

# --- 6:3:1 against 3:3:4 ---------------------------------------------------
# shellcheck disable=SC2086  # $opts is an option list
run_prof diff $opts base.data new.data
expect_rc 0 "prof diff"
[ -s err ] && fail "prof diff wrote to stderr: $(cat err)"
da=$(diff_delta leaf_a)
dm=$(diff_delta mid)
db=$(diff_delta leaf_b)
note "6:3:1 -> 3:3:4: leaf_a $da, leaf_b $db, mid $dm points"
expect_range "leaf_a's change (points)" "$da" -33 -27
expect_range "mid's change (points)" "$dm" 27 33
expect_range "leaf_b's change (points)" "$db" -3 3
[ "$(diff_change leaf_a)" = shrank ] || fail "leaf_a: '$(diff_change leaf_a)', expected shrank"
[ "$(diff_change mid)" = grew ] || fail "mid: '$(diff_change mid)', expected grew"
[ "$(diff_change leaf_b)" = noise ] || fail "leaf_b: '$(diff_change leaf_b)', expected noise"
grep -q '^# changed:  2 of 3 entries: 1 grew, 1 shrank$' out || fail "header: $(grep changed out)"
# sorted by the size of the change, significant ones first
first=$(awk '$1 ~ /%$/ { print $NF; exit }' out)
[ "$first" = leaf_a ] || [ "$first" = mid ] || fail "the first entry is $first, not a big change"

# --- two draws of one shape: the false-positive rate --------------------------
# At --level 80, sampling noise alone deciding (--min-delta 0), about a
# fifth of the pairs should show one: the test is calibrated, not merely
# strict.
fp=0
fp80=0
i=0
while [ $i -lt 40 ]; do
	gen_shape r1 $((100 + 2 * i)) 6 3 1 3000
	gen_shape r2 $((101 + 2 * i)) 6 3 1 3000
	# shellcheck disable=SC2086
	run_prof diff $opts r1.data r2.data
	expect_rc 0 "prof diff of two draws of 6:3:1"
	grep -q '^# changed:  0 of' out || fp=$((fp + 1))
	# shellcheck disable=SC2086
	run_prof diff $opts --level 80 --min-delta 0 r1.data r2.data
	expect_rc 0 "prof diff --level 80 of two draws of 6:3:1"
	grep -q '^# changed:  0 of' out || fp80=$((fp80 + 1))
	i=$((i + 1))
done
note "two draws of 6:3:1, 40 pairs: $fp with a significant change at the level 99%, $fp80 at 80%"
expect_range "pairs of equal shape with a significant change (99%)" "$fp" 0 3
expect_range "pairs of equal shape with a significant change (80%)" "$fp80" 2 16

# --- --min-delta: a change beyond noise that is too small to matter --------------
# 100,000 samples a side, exact: leaf_a 60% -> 58.8%, mid 10% -> 11.2%, far
# beyond sampling noise (z > 5) but under --min-delta 2
genx() {
	{
		echo "event cpu-clock"
		echo "comm 100 100 golden"
		echo "mmap 100 0x401000 $G/prof-golden/golden as /prof-golden/golden"
		echo "round"
		echo "sample 0 1 100 100 0 1000000 x$2 leaf_a+0x10 main+0xf"
		echo "sample 0 200 100 100 0 1000000 x$3 leaf_b+0x15 main+0xf"
		echo "sample 0 400 100 100 0 1000000 x$4 mid+0xf main+0xf"
		echo "round"
	} > "$1.spec"
	"$genprof" "$1.spec" "$1.data" 2> gen.err || fail "genprof $1: $(cat gen.err)"
}
genx big1 60000 30000 10000
genx big2 58800 30000 11200
# shellcheck disable=SC2086
run_prof diff $opts --min-delta 0 big1.data big2.data
expect_rc 0 "prof diff --min-delta 0, 100,000 samples"
[ "$(diff_change mid)" = grew ] || fail "--min-delta 0: mid +1.2 of 100,000 samples is $(diff_change mid)"
# shellcheck disable=SC2086
run_prof diff $opts --min-delta 2 big1.data big2.data
expect_rc 0 "prof diff --min-delta 2"
[ "$(diff_change mid)" = noise ] || fail "--min-delta 2: mid +1.2 is $(diff_change mid)"
grep -q '2 points or more (--min-delta)' out || fail "--min-delta 2: the header does not say so"
# shellcheck disable=SC2086
run_prof diff $opts --fail-above 1 big1.data big2.data
expect_rc 1 "--fail-above 1 with mid +1.2 (the default --min-delta 0.5)"

# --- several runs a side: their own differences are measured -------------------
# BASE's runs disagree among themselves (leaf_a 66%, 54%, 60%) far beyond
# sampling noise; NEW's three sit at 64%. One file a side at those means
# shows leaf_a +4 points, significant; as three runs a side the spread of
# BASE's runs says +4 is within what a run does: noise.
gen_shape v1 11 66 24 10 5000
gen_shape v2 12 54 36 10 5000
gen_shape v3 13 60 30 10 5000
gen_shape w1 14 64 26 10 5000
gen_shape w2 15 64 26 10 5000
gen_shape w3 16 64 26 10 5000
gen_shape vm 17 60 30 10 15000
gen_shape wm 18 64 26 10 15000
# shellcheck disable=SC2086
run_prof diff $opts vm.data wm.data
expect_rc 0 "prof diff, one file a side"
[ "$(diff_change leaf_a)" = grew ] || fail "one file a side: leaf_a +4 of 15,000 samples is $(diff_change leaf_a)"
grep -q '^# runs:' out && fail "one file a side: a line about runs"
# shellcheck disable=SC2086
run_prof diff $opts v1.data,v2.data,v3.data w1.data,w2.data,w3.data
expect_rc 0 "prof diff, three runs a side"
d=$(diff_delta leaf_a)
note "three runs a side, BASE's spread wide: leaf_a $d points, $(diff_change leaf_a); $(grep '^# runs:' out)"
expect_range "three runs a side: leaf_a's change (points)" "$d" 2 6
[ "$(diff_change leaf_a)" = noise ] || fail "three runs a side: leaf_a is $(diff_change leaf_a) though BASE's runs differ by 12 points"
grep -q '^# runs:     the runs of a side differ [0-9.]* times as much as sampling noise' out ||
	fail "three runs a side: the header does not say how much the runs differ: $(grep '^# runs' out)"
# runs of one shape on both sides: measured, and no change
# shellcheck disable=SC2086
run_prof diff $opts r1.data,r2.data base.data,same.data
expect_rc 0 "prof diff, runs of one shape"
grep -q '^# runs:' out || fail "runs of one shape: no line about runs"
grep -q '^# changed:  0 of' out || fail "runs of one shape: $(grep '^# changed' out)"

# --- the gate ----------------------------------------------------------------
# shellcheck disable=SC2086
run_prof diff $opts --fail-above 5 base.data new.data
expect_rc 1 "--fail-above 5 when mid grew by 30"
grep -q "^prof: diff: mid grew by [0-9.]* points (.*), above --fail-above 5$" err ||
	fail "--fail-above: no line naming mid: $(cat err)"
# shellcheck disable=SC2086
run_prof diff $opts --fail-above 40 base.data new.data
expect_rc 0 "--fail-above 40 when mid grew by 30"
# shellcheck disable=SC2086
run_prof diff $opts --fail-above 1 base.data same.data
expect_rc 0 "--fail-above 1 on two draws of one shape"
# --symbol picks what the gate looks at; the shares stay shares of the whole
# shellcheck disable=SC2086
run_prof diff $opts --fail-above 5 --symbol '^leaf_' base.data new.data
expect_rc 0 "--fail-above 5 --symbol ^leaf_ (leaf_a shrank, leaf_b did not change)"
# shellcheck disable=SC2086
run_prof diff $opts --fail-above 5 --symbol '^mid$' base.data new.data
expect_rc 1 "--fail-above 5 --symbol ^mid$"
d=$(diff_delta mid)
expect_range "--symbol ^mid$: mid's change, of the whole (points)" "$d" 27 33
[ "$(awk '$1 ~ /%$/' out | wc -l)" = 1 ] || fail "--symbol ^mid$: entries other than mid are shown"
# an error is not the gate's 1
# shellcheck disable=SC2086
run_prof diff $opts --fail-above 5 base.data missing.data
expect_rc 2 "--fail-above with a missing file"
one_error_line "a missing file"

# --- --abs: a program that got faster ----------------------------------------
# NEW drops mid's 500 ms: by share leaf_a and leaf_b grow; by time only mid shrank
gen_shape fast 4 6 3 0 4500
# shellcheck disable=SC2086
run_prof diff $opts base.data fast.data
expect_rc 0 "prof diff (faster)"
[ "$(diff_change leaf_a)" = grew ] || fail "by share, leaf_a should have grown: $(diff_change leaf_a)"
# shellcheck disable=SC2086
run_prof diff $opts --abs base.data fast.data
expect_rc 0 "prof diff --abs"
grep -q '^# compare:  absolute time' out || fail "--abs: the header does not say so"
dm=$(awk '$NF == "mid" { print $4 + 0; exit }' out)
note "--abs, mid removed: mid $dm points of BASE's time"
expect_range "--abs: mid's change (points of BASE's total)" "$dm" -12 -8
for s in leaf_a leaf_b; do
	c=$(awk -v s=$s '$NF == s { print $5; exit }' out)
	[ "$c" = noise ] || fail "--abs: $s is '$c', expected noise (its time did not change)"
done

# --- -g and --tree -------------------------------------------------------------
# shellcheck disable=SC2086
run_prof diff $opts --tree base.data new.data
expect_rc 0 "prof diff --tree"
grep -q '^ *[0-9.]*% *[0-9.]*% *[-+][0-9.]* *noise *\[\.\] main$' out ||
	fail "--tree: main (in every stack) is not there without change: $(grep main out)"
grep -q 'shrank *\[\.\] leaf_a$' out || fail "--tree: leaf_a under main did not shrink"
# shellcheck disable=SC2086
run_prof diff $opts -g caller base.data new.data
expect_rc 0 "prof diff -g caller"
grep -q '^ *---$' out || fail "-g caller: no call graphs"

# --- json ------------------------------------------------------------------------
# shellcheck disable=SC2086
run_prof diff $opts --format json --tree base.data new.data
expect_rc 0 "prof diff --format json"
cp out d.json
py=$(jsonschema_python)
if [ -n "$py" ]; then
	$py - "$srcdir/doc/prof-diff.schema.json" d.json > json.out 2>&1 << 'EOF' || fail "json: $(tail -5 json.out)"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
e = {x["name"]: x for x in doc["entries"]}
assert e["leaf_a"]["significant"] and e["leaf_a"]["delta"] < -27, e["leaf_a"]
assert e["mid"]["significant"] and e["mid"]["delta"] > 27, e["mid"]
assert not e["leaf_b"]["significant"], e["leaf_b"]
for x in doc["entries"]:
    assert abs(x["new"] - x["base"] - x["delta"]) < 0.01, x
assert doc["tree"][0]["parent"] is None and len(doc["tree"]) >= 5
EOF
else
	note "no python3 with jsonschema (python3-jsonschema): JSON not validated"
	grep -q '"schema": "prof-diff/1"' d.json || fail "json: no schema line"
fi

# --- folded: both counts, as difffolded.pl writes them ---------------------------
# shellcheck disable=SC2086
run_prof diff $opts --format folded base.data new.data
expect_rc 0 "prof diff --format folded"
awk 'NF != 3 || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' out ||
	fail "folded: a line is not 'stack BASE NEW': $(head -3 out)"
sums=$(awk '{ b += $2; n += $3 } END { print b, n }' out)
[ "$sums" = "5000 5000" ] || fail "folded: the counts add up to $sums, not 5000 5000"
grep -q '^golden;main;mid [0-9]* [0-9]*$' out || fail "folded: no golden;main;mid line: $(cat out)"

# --- svg: the differential flame graph ------------------------------------------------
# shellcheck disable=SC2086
run_prof diff $opts --format svg -o d.svg base.data new.data
expect_rc 0 "prof diff --format svg"
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout d.svg 2> xml.err || fail "svg: not well-formed: $(head -3 xml.err)"
fi
grep -q 'Red: grew, blue: shrank' d.svg || fail "svg: no legend saying which colour is which"
# mid grew: red; leaf_a shrank: blue; main, the same on both sides: grey
fill_of() {
	grep -o "<g class=\"f\"[^>]*data-n=\"$1\"[^>]*><title>[^<]*</title><rect[^>]*>" d.svg |
		sed 's/.*fill="\([^"]*\)".*/\1/' | head -n 1
}
case $(fill_of mid) in rgb\(255,*) ;; *) fail "svg: mid grew but is $(fill_of mid)" ;; esac
case $(fill_of leaf_a) in rgb*,255\)) ;; *) fail "svg: leaf_a shrank but is $(fill_of leaf_a)" ;; esac
[ "$(fill_of main)" = "rgb(225,225,225)" ] || fail "svg: main did not change but is $(fill_of main)"
browser=
for b in chromium chromium-browser; do
	command -v $b > /dev/null 2>&1 && browser=$b && break
done
if [ -n "$browser" ]; then
	timeout 300 $browser --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmpdir/chrome" --dump-dom "file://$tmpdir/d.svg" > dom.html 2> chrome.err ||
		fail "$browser --dump-dom failed: $(tail -3 chrome.err)"
	grep -q 'data-ready="1"' dom.html || fail "svg: the script did not run to its end in $browser"
	grep -q '>mid</text>' dom.html || fail "svg: mid's name is not shown in $browser"
else
	note "no Chromium: the differential flame graph is not rendered (apt-get install chromium)"
fi

# --- sides of several files, merged ----------------------------------------------------
# shellcheck disable=SC2086
run_prof diff $opts base.data,same.data new.data
expect_rc 0 "prof diff with two files in BASE"
grep -q "^# BASE     'base.data', 'same.data': 10000 samples" out ||
	fail "two files in BASE: $(grep '^# BASE' out)"
d=$(diff_delta leaf_a)
expect_range "two files in BASE: leaf_a's change (points)" "$d" -33 -27

# --- errors ---------------------------------------------------------------------------
gen_shape task 5 6 3 1 100 task-clock
# shellcheck disable=SC2086
run_prof diff $opts base.data task.data
expect_rc 2 "two files of different events"
one_error_line "two files of different events"
grep -q "compare one event with --event" err || fail "different events: $(cat err)"
run_prof diff base.data
expect_rc 64 "prof diff with one file"
one_error_line "prof diff with one file"
run_prof diff --level 120 base.data new.data
expect_rc 64 "--level 120"
one_error_line "--level 120"
run_prof diff --fail-above x base.data new.data
expect_rc 64 "--fail-above x"
run_prof diff base.data new.data --format nope
expect_rc 64 "--format nope"
# One table of formats for report and diff: diff takes those that write a
# diff, names them from the table, and says pprof is for one profile.
run_prof diff base.data new.data --format pprof
expect_rc 64 "--format pprof"
grep -q "^prof: --format pprof writes one profile; a diff is written as text, folded, svg, json or html; " err ||
	fail "--format pprof: $(cat err)"
run_prof diff --help
expect_rc 0 "prof diff --help"
sed -n '/^formats:/,$p' out | awk 'NR > 1 { print $1 }' | tr '\n' ' ' > got
[ "$(cat got)" = "text folded svg json html " ] || fail "prof diff --help lists the formats $(cat got)"
# shellcheck disable=SC2086
run_prof diff $opts --comm nobody base.data new.data
expect_rc 2 "a filter that leaves nothing"
grep -q "^prof: BASE (base.data) has no samples left after the filters; nothing to compare$" err || fail "--comm nobody: $(cat err)"
# none given: prof.data.old against prof.data, as perf diff does
cp base.data prof.data.old
cp new.data prof.data
# shellcheck disable=SC2086
run_prof diff $opts
expect_rc 0 "prof diff with no files (prof.data.old, prof.data)"
grep -q "^# BASE     'prof.data.old'" out || fail "no files: BASE is not prof.data.old"
finish
