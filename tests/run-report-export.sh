#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report --format folded, svg and json on the shape workload: folded
# stacks carry leaf_a, leaf_b and leaf_c under main;run in the 6:3:1 of the
# source, and add up to the samples; the flame graph is well-formed XML
# and, in headless Chromium, lays out, zooms and searches; the JSON
# validates against doc/prof-report.schema.json and agrees with the text
# report; filters apply; bad options and a full disk give one line.
. "$srcdir/tests/test-subr.sh"

need_recordings
record_or_replay export-s prof record -q -g -e cpu-clock -o s.data -- "$WORKLOADS/shape" -s 2
expect_rc 0 "prof record -g shape"

total=$(samples_of s.data)

# --- folded --------------------------------------------------------------
run_prof report -i s.data --format folded
expect_rc 0 "prof report --format folded"
mv out s.folded
bad=$(grep -cv '^shape;[^ ].* [0-9][0-9]*$' s.folded)
[ "$bad" = 0 ] || fail "folded: $bad lines not 'shape;frames... COUNT': $(grep -v '^shape;[^ ].* [0-9][0-9]*$' s.folded | head -3)"
sum=$(awk '{ s += $NF } END { print s + 0 }' s.folded)
[ "$sum" = "$total" ] || fail "folded: the counts add up to $sum, the report has $total samples"
# Each leaf's share of the three, from the stacks through it under main;run:
# those that end in it, and those the kernel interrupted there (a busy
# machine's ticks and preemptions put kernel frames above a leaf).
leaf() { awk -v l="$1" '$1 ~ (";main;run;" l "(;|$)") { s += $2 } END { print s + 0 }' s.folded; }
a=$(leaf leaf_a) b=$(leaf leaf_b) c=$(leaf leaf_c)
n=$((a + b + c))
note "folded: $sum samples in $(wc -l < s.folded) stacks; leaves $a $b $c"
[ "$n" -ge $((total * 9 / 10)) ] || fail "folded: only $n of $total samples go through main;run;leaf_*"
expect_range "folded: leaf_a's share" "$(awk -v x=$a -v n=$n 'BEGIN { print 100 * x / n }')" 45 75
expect_range "folded: leaf_b's share" "$(awk -v x=$b -v n=$n 'BEGIN { print 100 * x / n }')" 18 42
expect_range "folded: leaf_c's share" "$(awk -v x=$c -v n=$n 'BEGIN { print 100 * x / n }')" 4 18

run_prof report -i s.data --format folded --no-comm
expect_rc 0 "prof report --format folded --no-comm"
grep -q '^shape;' out && fail "--no-comm: stacks still start with the command"
grep -q '^__libc_start_call_main;main;run;leaf_a [0-9]*$' out ||
	fail "--no-comm: no stack __libc_start_call_main;main;run;leaf_a: $(head -3 out)"

# Filters apply: only leaf_b's samples.
run_prof report -i s.data --format folded --symbol '^leaf_b$'
expect_rc 0 "prof report --format folded --symbol"
grep -v ';leaf_b [0-9]*$' out | grep -q . && fail "--symbol: stacks not ending in leaf_b: $(grep -v ';leaf_b ' out | head -2)"
want=$(awk '$1 ~ /;leaf_b$/ { s += $2 } END { print s + 0 }' s.folded)
got=$(awk '{ s += $NF } END { print s + 0 }' out)
[ "$got" = "$want" ] || fail "--symbol leaf_b: $got samples, where $want stacks end in leaf_b"

# --- svg -----------------------------------------------------------------
run_prof report -i s.data --format svg -o s.svg
expect_rc 0 "prof report --format svg -o s.svg"
[ -s out ] && fail "-o: the report went to standard output too"
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout s.svg 2> xml.err || fail "s.svg is not well-formed XML: $(head -3 xml.err)"
else
	note "no xmllint (libxml2-utils): XML not checked"
fi
for f in leaf_a leaf_b leaf_c main run; do
	grep -q "data-n=\"$f\"" s.svg || fail "svg: no frame $f"
done
run_prof report -i s.data --format svg --inverted -o i.svg
expect_rc 0 "prof report --format svg --inverted"
grep -q 'Icicle Graph' i.svg || fail "--inverted: not an icicle graph"

browser=
for b in chromium chromium-browser; do
	command -v $b > /dev/null 2>&1 && browser=$b && break
done
if [ -n "$browser" ]; then
	# dom URL: the page after its script ran, zoomed on leaf_b, searched for leaf_.
	dom() {
		timeout 300 $browser --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$tmpdir/chrome" --dump-dom "$1" > dom.html 2> chrome.err ||
			fail "$browser --dump-dom $1 failed: $(tail -3 chrome.err)"
	}
	dom "file://$tmpdir/s.svg"
	grep -q 'data-ready="1"' dom.html || fail "svg: the script did not run to its end in $browser"
	for f in leaf_a leaf_b leaf_c; do
		grep -q ">$f</text>" dom.html || fail "svg: $f's name is not shown on its frame"
	done
	dom "file://$tmpdir/s.svg#zoom=leaf_b&search=leaf_"
	grep -q 'data-ready="1"' dom.html || fail "svg: the script failed zooming or searching"
	grep -o '<g class="f"[^>]*data-n="leaf_a"[^>]*>' dom.html | grep -q 'display: none' ||
		fail "svg: zoomed on leaf_b, leaf_a is still shown"
	# (the widest leaf_b: the one zoomed on)
	w=$(grep -o '<g class="f"[^>]*data-n="leaf_b"[^>]*><title>[^<]*</title><rect[^>]*>' dom.html |
		sed 's/.*<rect[^>]* width="\([0-9.]*\)".*/\1/' | sort -n | tail -n 1)
	expect_range "svg: leaf_b's width once zoomed on (px)" "${w:-0}" 1170 1190
	m=$(sed -n 's/.*Matched: \([0-9.]*\)%.*/\1/p' dom.html | head -n 1)
	note "svg in $browser: zoomed leaf_b is $w px; 'leaf_' matches $m%"
	expect_range "svg: the share matched by 'leaf_'" "${m:-0}" 90 100
else
	note "no Chromium: the flame graph is not rendered (apt-get install chromium)"
fi

# --- json ----------------------------------------------------------------
run_prof report -i s.data --format json -o s.json
expect_rc 0 "prof report --format json"
py=$(jsonschema_python)
if [ -n "$py" ]; then
	$py - "$srcdir/doc/prof-report.schema.json" s.json > json.out 2>&1 << 'EOF' || fail "json: $(tail -5 json.out)"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
ev = doc["events"][0]
leaf = [e for e in ev["flat"] if e["sym"] == "[.] leaf_a"]
print(ev["samples"], leaf[0]["self"] if leaf else -1)
tree = ev["tree"]
# a flat table: each node after its parent, the root's parent null
assert tree[0]["parent"] is None
assert all(0 <= n["parent"] < i for i, n in enumerate(tree) if i)
print(sum(n["self_samples"] for n in tree))
EOF
	set -- $(cat json.out)
	[ "$1" = "$total" ] || fail "json: $1 samples, the report has $total"
	[ "$3" = "$total" ] || fail "json: the tree holds $3 samples, the report has $total"
	text=$(awk '$NF == "leaf_a" && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' out 2> /dev/null)
	run_prof report -i s.data
	text=$(awk '$NF == "leaf_a" && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' out)
	d=$(awk -v a="$2" -v b="$text" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
	note "json: valid; leaf_a $2% (text report $text%)"
	expect_range "json: leaf_a's share minus the text report's" "$d" 0 0.01
else
	note "no python3 with jsonschema (python3-jsonschema): JSON not validated"
	grep -q '"schema": "prof-report/2"' s.json || fail "json: no schema line"
fi

# --- pprof -------------------------------------------------------------
run_prof report -i s.data --format pprof -o s.pb.gz
expect_rc 0 "prof report --format pprof"
gzip -t s.pb.gz 2> gz.err || fail "pprof: not gzip: $(cat gz.err)"
if command -v go > /dev/null 2>&1; then
	HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= timeout 300 go tool pprof -top s.pb.gz \
		> top.txt 2> top.err || fail "go tool pprof -top: $(tail -3 top.err)"
	grep -q '^Type: cpu' top.txt || fail "pprof: not a cpu profile: $(head -5 top.txt)"
	grep -q '^File: shape' top.txt || fail "pprof: the main mapping is not shape: $(head -3 top.txt)"
	run_prof report -i s.data
	for f in leaf_a leaf_b leaf_c; do
		want=$(awk -v f=$f '$NF == f && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' out)
		got=$(awk -v f=$f '$NF == f { sub("%", "", $2); print $2; exit }' top.txt)
		d=$(awk -v a="${got:-0}" -v b="${want:-0}" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
		note "pprof: $f flat $got% (prof report $want%)"
		expect_range "pprof: $f's flat share minus prof report's" "$d" 0 0.02
	done
	# Inline frames are lines of one location: -raw shows them indented under it.
	HOME=$tmpdir GOCACHE=$tmpdir/gocache timeout 300 go tool pprof -raw s.pb.gz > raw.txt 2>&1 ||
		fail "go tool pprof -raw: $(tail -3 raw.txt)"
	grep -q ' M=[0-9]* leaf_a .*shape.c:[0-9]' raw.txt ||
		fail "pprof: leaf_a's location has no file and line: $(grep leaf_a raw.txt | head -2)"
else
	note "no go (golang-go): the pprof file is not read back"
fi
run_prof report -i s.data --format pprof
[ "$rc" = 0 ] || [ "$rc" = 64 ] || fail "--format pprof to a pipe: exit $rc"

# --- OTLP ----------------------------------------------------------------
# Decoded by Google's protobuf library against opentelemetry-proto's field
# numbers (tests/agent/otlp-sum.py, which also checks the tables' rules).
run_prof report -i s.data --format otlp -o s.otlp
expect_rc 0 "prof report --format otlp"
if /usr/bin/python3 -c 'import google.protobuf' 2> /dev/null; then
	/usr/bin/python3 "$srcdir/tests/agent/otlp-sum.py" s.otlp > otlp.txt 2> otlp.err ||
		fail "OTLP: not a well-formed profile: $(cat otlp.err)"
	counts=$(awk '$1 == "profile" && $2 == "samples/count" { sub("total=", "", $6); print $6 }' otlp.txt)
	[ "$counts" = "$total" ] || fail "OTLP: the sample counts add up to '$counts', the report has $total"
	grep -q '^profile cpu/nanoseconds period_type=cpu/nanoseconds ' otlp.txt ||
		fail "OTLP: no cpu/nanoseconds profile: $(grep '^profile' otlp.txt)"
	# its CPU time is the pprof's second value
	value=$(awk '$1 == "profile" && $2 == "cpu/nanoseconds" { sub("total=", "", $6); print $6 }' otlp.txt)
	pvalue=$(python3 "$srcdir/tests/agent/pprof-sum.py" s.pb.gz | awk '{ print $3 }')
	[ "$value" = "$pvalue" ] || fail "OTLP: $value ns of CPU, the pprof of the same file $pvalue"
	run_prof report -i s.data
	for f in leaf_a leaf_b leaf_c; do
		want=$(awk -v f=$f '$NF == f && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' out)
		got=$(awk -v f=$f -v t="$value" '$1 == "leaf" && $2 == f { printf "%.2f", 100 * $3 / t }' otlp.txt)
		d=$(awk -v a="${got:-0}" -v b="${want:-0}" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
		note "OTLP: $f $got% of the CPU time (prof report $want%)"
		expect_range "OTLP: $f's share minus prof report's" "$d" 0 0.02
	done
	grep -q '^attrs thread.name=shape ' otlp.txt ||
		fail "OTLP: the samples do not carry thread.name=shape: $(grep '^attrs' otlp.txt | head -2)"
	grep -q '^frame_types .*native' otlp.txt || fail "OTLP: no location says profile.frame.type native"
	grep -q '^build_ids [1-9]' otlp.txt || fail "OTLP: no mapping carries its GNU build id"
else
	note "no python3-protobuf: the OTLP file is not decoded"
fi

# --- a program of several executable segments ------------------------------
# Debian's node has three PF_X PT_LOADs; its code lies in the second. Each
# segment is a Mapping of its own, so that every location lies in one (the
# checkers fail a location outside its mapping, and an OTLP dictionary
# entry that nothing refers to, or that is there twice).
if command -v node > /dev/null 2>&1 &&
	[ "$(readelf -lW "$(command -v node)" 2> /dev/null | grep -c ' LOAD .* R E ')" -gt 1 ] &&
	"$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1; then
	"$PROF" record -q -g -e cpu-clock -o node.data -- node "$srcdir/tests/workloads/jit/shape.js" 1 \
		> /dev/null 2> node.err || fail "prof record node: $(cat node.err)"
	run_prof report -i node.data --format pprof -o node.pb.gz
	expect_rc 0 "prof report --format pprof of node"
	python3 "$srcdir/tests/agent/pprof-sum.py" node.pb.gz > node.sum 2> node.err ||
		fail "node's pprof: $(cat node.err)"
	run_prof report -i node.data --format otlp -o node.otlp
	expect_rc 0 "prof report --format otlp of node"
	if /usr/bin/python3 -c 'import google.protobuf' 2> /dev/null; then
		/usr/bin/python3 "$srcdir/tests/agent/otlp-sum.py" node.otlp > node-otlp.txt 2> node.err ||
			fail "node's OTLP: $(cat node.err)"
	fi
	note "node (several code segments): every pprof and OTLP location in its mapping; $(cut -d' ' -f2 node.sum) samples"
else
	note "no node of several code segments, or no perf_event_open: that check is not made"
fi

# --- errors --------------------------------------------------------------
run_prof report -i s.data --format pdf
expect_rc 64 "--format pdf"
one_error_line "--format pdf"
if [ -w /dev/full ]; then
	run_prof report -i s.data --format svg -o /dev/full
	expect_rc 1 "-o /dev/full"
	one_error_line "-o /dev/full"
	grep -q "cannot write '/dev/full'" err || fail "-o /dev/full: $(cat err)"
fi
run_prof report -i s.data --format folded -o "$tmpdir/no/such/dir/x"
expect_rc 1 "-o into a missing directory"
one_error_line "-o into a missing directory"

# --- a program built with a relative source path (a tree configured as
# ../configure): the line table names ../shape.c against the build
# directory; pprof's Function.filename is the file itself, whatever
# directory the report runs in
if replaying || ! command -v cc > /dev/null 2>&1; then
	note "a relative build not checked: no live recording here"
	finish
fi
mkdir -p rel/b
cp "$srcdir/tests/workloads/shape.c" "$srcdir/tests/workloads/workload.h" rel/
(cd rel/b && cc -g -O1 -fno-omit-frame-pointer -fno-inline -o shape ../shape.c) 2> cc.err ||
	fail "cannot build shape from a relative path: $(cat cc.err)"
run_prof record -q -e cpu-clock -o rel.data -- rel/b/shape -s 0.3
expect_rc 0 "prof record of a relative build"
mkdir elsewhere
(cd elsewhere && "$PROF" report -i ../rel.data --format pprof -o ../rel.pb.gz) 2> err ||
	fail "prof report --format pprof of a relative build: $(cat err)"
zcat rel.pb.gz | tr -c '[:print:]' '\n' > rel.strings
grep -q -F "$tmpdir/rel/shape.c" rel.strings ||
	fail "pprof names shape.c not as $tmpdir/rel/shape.c: $(grep shape.c rel.strings | head -n 3)"
grep -q -F "../shape.c" rel.strings && fail "pprof names shape.c by its relative path"
finish
