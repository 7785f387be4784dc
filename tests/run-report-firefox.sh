#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report --format firefox: the Firefox Profiler's processed profile,
# version 48. The profiler is not on npm and does not build with Debian's
# node, so the file is checked against what its types (src/types/profile.js
# at version 48) and its upgraders to today's version (48 -> 70,
# src/profile-logic/processed-profile-versioning.ts) require of it: every
# column as long as its table, every index in range, prefixes before the
# stacks they prefix, a category and subcategory for every frame, pid as a
# string, times that never go back; and each thread's weights by function
# equal to prof report's, on the golden profile and on a committed
# recording of a real run (kernel-free). Recording live (when
# perf_event_open is allowed): --off-cpu intervals become interval
# markers at the times prof script gives those samples.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

py=python3
command -v $py > /dev/null 2>&1 || skip "no python3 to read the files with"
golden_profile

# check.py FILE REPORT.json: the invariants, then each thread's weights by
# the function its samples end in against the report's entries by pid,
# tid and sym, in milliseconds for time events and in periods for others.
cat > check.py << 'EOF'
import json, re, sys
ff = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
meta = ff["meta"]
assert meta["preprocessedProfileVersion"] == 48 and meta["symbolicated"] is True
assert isinstance(meta["markerSchema"], list) and meta["interval"] > 0
cats = meta["categories"]
assert all(c["subcategories"] and c["subcategories"][0] == "Other" for c in cats)
libs = ff["libs"]
for lib in libs:
    for k in ("arch", "name", "path", "debugName", "debugPath", "breakpadId"):
        assert isinstance(lib[k], str), (k, lib)
    assert lib["codeId"] is None or re.fullmatch(r"[0-9A-F]+", lib["codeId"]), lib
    assert lib["breakpadId"] == "" or re.fullmatch(r"[0-9A-F]{33}", lib["breakpadId"]), lib
def table(t, cols):
    n = t["length"]
    for c in cols:
        assert len(t[c]) == n, (c, len(t[c]), n)
    return n
got, markers, ev_ms = {}, 0, {}
for th in ff["threads"]:
    assert isinstance(th["pid"], str) and isinstance(th["tid"], int)
    strs = th["stringArray"]
    ns = table(th["samples"], ["stack", "time", "weight"])
    assert th["samples"]["weightType"] in ("samples", "tracing-ms")
    nst = table(th["stackTable"], ["frame", "category", "subcategory", "prefix"])
    nf = table(th["frameTable"], ["address", "inlineDepth", "category", "subcategory", "func",
                                  "nativeSymbol", "innerWindowID", "implementation", "line", "column"])
    nfu = table(th["funcTable"], ["name", "isJS", "relevantForJS", "resource", "fileName",
                                  "lineNumber", "columnNumber"])
    nr = table(th["resourceTable"], ["lib", "name", "host", "type"])
    nm = table(th["markers"], ["data", "name", "startTime", "endTime", "phase", "category"])
    table(th["nativeSymbols"], ["libIndex", "address", "name", "functionSize"])
    st, fr, fu, rs, sm, mk = (th[k] for k in ("stackTable", "frameTable", "funcTable",
                                             "resourceTable", "samples", "markers"))
    for i in range(nst):
        assert 0 <= st["frame"][i] < nf
        assert st["prefix"][i] is None or 0 <= st["prefix"][i] < i, "a prefix after its stack"
        assert 0 <= st["category"][i] < len(cats) and st["subcategory"][i] == 0
    for i in range(nf):
        assert 0 <= fr["func"][i] < nfu and fr["address"][i] == -1
        assert 0 <= fr["category"][i] < len(cats) and fr["subcategory"][i] == 0
    for i in range(nfu):
        assert 0 <= fu["name"][i] < len(strs) and (fu["resource"][i] == -1 or 0 <= fu["resource"][i] < nr)
    for i in range(nr):
        assert 0 <= rs["lib"][i] < len(libs) and 0 <= rs["name"][i] < len(strs) and rs["type"][i] == 1
    assert all(a <= b for a, b in zip(sm["time"], sm["time"][1:])), "samples out of time order"
    for i in range(nm):
        assert 0 <= mk["name"][i] < len(strs) and mk["phase"][i] == 1
        assert mk["startTime"][i] <= mk["endTime"][i]
    markers += nm
    m = re.fullmatch(r"(.*?)(?: \[(.+)\])?", th["name"])
    ev = m[2] or rep["events"][0]["event"]
    for i in range(ns):
        leaf = strs[fu["name"][fr["func"][st["frame"][sm["stack"][i]]]]].removesuffix(" (inlined)")
        k = (ev, int(th["pid"]), th["tid"], leaf)
        got[k] = got.get(k, 0) + sm["weight"][i]
    ev_ms[ev] = sm["weightType"] == "tracing-ms"
want = {}
for ev in rep["events"]:
    ms = ev_ms.get(ev["event"], False)
    for e in ev["flat"]:
        name = re.sub(r" \(inlined( in .*)?\)$", "", e["sym"][4:])
        k = (ev["event"], int(e["pid"]), int(e["tid"]), name)
        want[k] = want.get(k, 0) + (e["self_period"] / 1e6 if ms else e["self_period"])
bad = [(k, want.get(k), got.get(k)) for k in set(want) | set(got)
       if abs(want.get(k, 0) - got.get(k, 0)) > 1e-6 * max(1, abs(want.get(k, 0)))]
assert not bad, "weights that differ from prof report's: %s" % sorted(bad)[:5]
print(len(ff["threads"]), len(libs), len(want), markers)
EOF

# shellcheck disable=SC2086  # $gopts is an option list
run_prof report -i golden.data $gopts -F firefox -o golden.ff.json
expect_rc 0 "prof report -F firefox"
# shellcheck disable=SC2086
run_prof report -i golden.data $gopts -F json --sort pid,tid,sym -o golden.report.json
expect_rc 0 "prof report -F json --sort pid,tid,sym"
$py check.py golden.ff.json golden.report.json > check.out 2>&1 || fail "firefox, golden profile: $(tail -3 check.out)"
# shellcheck disable=SC2046  # the numbers, one word each
set -- $(cat check.out)
[ "$1" = 5 ] || fail "golden: $1 threads, not 5 (four of cpu-clock, one of task-clock)"
note "golden: $1 threads, $2 libraries, $3 functions of threads as prof report has them"
grep -q '"pid":"100","tid":100,' golden.ff.json || fail "golden: no thread 100 of pid \"100\""
grep -q '"name":"golden \[task-clock\]"' golden.ff.json || fail "golden: no thread for task-clock"

rec=$srcdir/tests/data/recorded
run_prof report -i "$rec/oracle-prof-threads-g.data" "--symfs=$rec/root" -F firefox -o threads.ff.json
expect_rc 0 "prof report -F firefox of a recording"
run_prof report -i "$rec/oracle-prof-threads-g.data" "--symfs=$rec/root" -F json --sort pid,tid,sym \
	-o threads.report.json
expect_rc 0 "prof report -F json of a recording"
$py check.py threads.ff.json threads.report.json > check.out 2>&1 || fail "firefox, recording: $(tail -3 check.out)"
# shellcheck disable=SC2046
set -- $(cat check.out)
[ "$1" -ge 3 ] || fail "recording: $1 threads, not 3 or more"
[ "$2" -ge 2 ] || fail "recording: $2 libraries, not the program and libc at least"
note "recording: $1 threads, $2 libraries with their build ids, $3 functions of threads"

# --- off-CPU intervals as markers, live -------------------------------------------
if "$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1; then
	run_prof record -q --off-cpu -g -o off.data -- "$WORKLOADS/offcpu" -s 1
	expect_rc 0 "prof record --off-cpu"
	run_prof report -i off.data -F firefox -o off.ff.json
	expect_rc 0 "prof report -F firefox of an off-CPU recording"
	run_prof report -i off.data -F json --sort pid,tid,sym -o off.report.json
	expect_rc 0 "prof report -F json of an off-CPU recording"
	$py check.py off.ff.json off.report.json > check.out 2>&1 || fail "firefox, off-CPU: $(tail -3 check.out)"
	# shellcheck disable=SC2046
	set -- $(cat check.out)
	[ "$4" -gt 0 ] || fail "off-CPU: no interval markers"
	run_prof script -i off.data -S
	expect_rc 0 "prof script -S of an off-CPU recording"
	mv out off.script
	# each off-cpu sample of prof script is a marker from its time for its period
	$py - off.ff.json off.script > marks.out 2>&1 << 'EOF' || fail "off-CPU markers: $(tail -3 marks.out)"
import json, re, sys
ff = json.load(open(sys.argv[1]))
first = None
want = []
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"\S.* (\d+) (?:\[\d+\] )? *(\d+)\.(\d+): +(\d+) +(\S+):", line)
    if not m:
        continue
    t = int(m[2]) * 1000000 + int(m[3])
    first = t if first is None else min(first, t)
    if m[5] == "off-cpu":
        want.append((int(m[1]), t, int(m[4])))
got = []
for th in ff["threads"]:
    mk = th["markers"]
    for i in range(mk["length"]):
        if th["stringArray"][mk["name"][i]] == "off-cpu":
            got.append((th["tid"], mk["startTime"][i], mk["endTime"][i] - mk["startTime"][i]))
assert len(got) == len(want), (len(got), len(want))
# script prints microseconds: compare starts to the microsecond, lengths to the nanosecond
ws = sorted((tid, t - first, p) for tid, t, p in want)
gs = sorted((tid, round(s * 1000), round(d * 1e6)) for tid, s, d in got)
for (a, b) in zip(ws, gs):
    assert a[0] == b[0] and abs(a[1] - b[1]) <= 1 and abs(a[2] - b[2]) <= 1, (a, b)
print(len(got))
EOF
	note "off-CPU: $4 interval markers (off-cpu and preempted); the $(cat marks.out) off-cpu ones at the times and lengths of prof script's off-cpu samples"
else
	note "off-CPU markers not checked live: perf_event_open is refused here"
fi
finish
