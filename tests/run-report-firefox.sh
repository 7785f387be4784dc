#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report --format firefox: the Firefox Profiler's processed profile,
# version 66, as samply writes it. Checked against what its types
# (src/types/profile.ts at version 66) require: every shared column as
# long as its table, every index in range, prefixes before the stacks they
# prefix, a category and subcategory for every frame, pid and tid as
# strings, times that never go back, a wall-clock start; each thread's
# weights by function equal to prof report's and the clocks' CPU deltas
# their periods, on the golden profile and on a committed recording of a
# real run (kernel-free). Then the profiler's own loader and upgraders
# (npm @firefox-devtools/profiler-cli, where tests/browser has it) read
# the recording's file: every working thread with CPU time. Recording
# live (when perf_event_open is allowed): make -j2 of six C files, whose
# compilers each live their own span with CPU time of their own, the
# profile starting between the recording's start and end; --off-cpu
# intervals become interval markers at the times prof script gives those
# samples.
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
assert meta["preprocessedProfileVersion"] == 66 and meta["symbolicated"] is True
assert isinstance(meta["markerSchema"], list) and meta["interval"] > 0
assert meta["startTime"] > 1.5e12, "a start before 2017: %r" % meta["startTime"]
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
sh = ff["shared"]
strs = sh["stringArray"]
st, fr, fu, rs, nat, src = (sh[k] for k in ("stackTable", "frameTable", "funcTable",
                                            "resourceTable", "nativeSymbols", "sources"))
nst = table(st, ["frame", "prefixOffset"])
nf = table(fr, ["address", "inlineDepth", "category", "subcategory", "func", "nativeSymbol",
                "innerWindowID", "line", "column", "originalLocation"])
nfu = table(fu, ["name", "isJS", "relevantForJS", "resource", "source", "lineNumber",
                 "columnNumber", "originalLocation"])
nr = table(rs, ["lib", "name", "host", "type"])
nn = table(nat, ["libIndex", "address", "name", "functionSize"])
nsrc = table(src, ["id", "filename", "startLine", "startColumn", "sourceMapURL", "content"])
for i in range(nst):
    assert 0 <= st["frame"][i] < nf
    assert 0 <= st["prefixOffset"][i] <= i, "a prefix after its stack"
addressed = lined = 0
for i in range(nf):
    assert 0 <= fr["func"][i] < nfu and fr["address"][i] >= -1 and fr["inlineDepth"][i] >= 0
    assert 0 <= fr["category"][i] < len(cats) and fr["subcategory"][i] == 0
    assert fr["nativeSymbol"][i] is None or 0 <= fr["nativeSymbol"][i] < nn
    assert fr["line"][i] is None or fr["line"][i] > 0
    addressed += fr["address"][i] >= 0
    lined += fr["line"][i] is not None
for i in range(nfu):
    assert 0 <= fu["name"][i] < len(strs) and (fu["resource"][i] is None or 0 <= fu["resource"][i] < nr)
    assert fu["source"][i] is None or 0 <= fu["source"][i] < nsrc
for i in range(nr):
    assert 0 <= rs["lib"][i] < len(libs) and 0 <= rs["name"][i] < len(strs) and rs["type"][i] == 1
for i in range(nn):
    assert 0 <= nat["libIndex"][i] < len(libs) and 0 <= nat["name"][i] < len(strs)
got, markers, ev_ms, cpu = {}, 0, {}, {}
for th in ff["threads"]:
    assert isinstance(th["pid"], str) and isinstance(th["tid"], str)
    sm, mk = th["samples"], th["markers"]
    cols = ["stack", "timeDeltas", "weight"] + (["threadCPUDelta"] if "threadCPUDelta" in sm else [])
    ns = table(sm, cols)
    assert sm["weightType"] in ("samples", "tracing-ms")
    assert all(d >= 0 for d in sm["timeDeltas"][1:]), "samples out of time order"
    assert th["unregisterTime"] is None or th["registerTime"] <= th["unregisterTime"]
    nm = table(mk, ["data", "name", "startTime", "endTime", "phase", "category"])
    for i in range(nm):
        assert 0 <= mk["name"][i] < len(strs) and mk["phase"][i] == 1
        assert mk["startTime"][i] <= mk["endTime"][i]
    markers += nm
    m = re.fullmatch(r"(.*?)(?: \[(.+)\])?", th["name"])
    ev = m[2] or rep["events"][0]["event"]
    for i in range(ns):
        assert 0 <= sm["stack"][i] < nst
        leaf = strs[fu["name"][fr["func"][st["frame"][sm["stack"][i]]]]]
        k = (ev, int(th["pid"]), int(th["tid"]), leaf)
        got[k] = got.get(k, 0) + sm["weight"][i]
    if "threadCPUDelta" in sm:
        cpu[ev] = cpu.get(ev, 0) + sum(sm["threadCPUDelta"]) / 1000.0
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
# the clocks' CPU deltas: their periods, to the microsecond a sample
for ev in rep["events"]:
    if ev["event"] in ("cpu-clock", "task-clock"):
        ms = sum(e["self_period"] for e in ev["flat"]) / 1e6
        n = sum(len(th["samples"]["stack"]) for th in ff["threads"])
        assert abs(cpu.get(ev["event"], 0) - ms) <= 0.001 * n + 1e-6 * ms, (cpu, ms)
print(len(ff["threads"]), len(libs), len(want), markers, addressed, lined, nn)
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
grep -q '"pid":"100","tid":"100",' golden.ff.json || fail "golden: no thread 100 of pid \"100\""
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
note "recording: $1 threads, $2 libraries with their build ids, $3 functions of threads; $5 frames with addresses, $6 with lines, $7 native symbols"
[ "$5" -gt 0 ] && [ "$6" -gt 0 ] && [ "$7" -gt 0 ] ||
	fail "recording: frames without addresses ($5), lines ($6) or native symbols ($7)"

# --- the Firefox Profiler's own loader: profiler-cli -----------------------------
cli=$srcdir/tests/browser/node_modules/@firefox-devtools/profiler-cli/dist/profiler-cli.js
if command -v node > /dev/null 2>&1 && [ -f "$cli" ]; then
	PROFILER_CLI_SESSION_DIR=$tmpdir/pq
	export PROFILER_CLI_SESSION_DIR
	pq_stop() {
		node "$cli" stop --all > /dev/null 2>&1
	}
	on_exit pq_stop
	# pq_info FILE: its processes and threads (FILE.info) and meta (FILE.meta) as the profiler reads them
	# profiler-cli gives its daemon 500 ms to start, which a loaded machine
	# can exceed (CI at load 20 did, twenty tries running): it then says so
	# ("still starting") and leaves the daemon running, which has the file
	# and becomes the active session once it is up: that is waited for.
	pq_ready() {
		node "$cli" profile meta --json > /dev/null 2>&1 && return 0
		kill -0 "$1" 2> /dev/null || fail "profiler-cli's daemon (pid $1) ended before it was ready: $(tail -n 5 "$2.load")"
		return 1
	}
	pq_info() {
		if ! node "$cli" load "$1" > "$1.load" 2>&1; then
			_pid=$(sed -n 's/.*running as pid \([0-9]*\).*/\1/p' "$1.load" | sed -n 1p)
			grep -q 'did not become ready' "$1.load" && [ -n "$_pid" ] ||
				fail "profiler-cli cannot load $1: $(tail -n 5 "$1.load")"
			wait_until "profiler-cli's daemon for $1 ready" pq_ready "$_pid" "$1"
			note "profiler-cli's daemon took more than the 500 ms it allows itself; waited for it"
		fi
		node "$cli" profile info --all --json > "$1.info" 2> "$1.err" ||
			fail "profiler-cli profile info: $(tail -n 5 "$1.err")"
		node "$cli" profile meta --json > "$1.meta" 2> "$1.err" ||
			fail "profiler-cli profile meta: $(tail -n 5 "$1.err")"
		pq_stop
	}
	pq_info threads.ff.json
	$py - threads.ff.json.info threads.ff.json.meta > pq.out 2>&1 << 'PYEOF' || fail "profiler-cli on the recording: $(tail -3 pq.out)"
import json, sys
info = json.load(open(sys.argv[1]))
meta = json.load(open(sys.argv[2]))
assert meta["preprocessedProfileVersion"] >= 66, meta["preprocessedProfileVersion"]
threads = [t for p in info["processes"] for t in p["threads"]]
assert len(threads) >= 3, threads
# the workload's two workers run; its main thread waits
busy = [t for t in threads if t["cpuMs"] > 0]
assert len(busy) >= 2, threads
print(len(threads), " ".join("%.0f" % t["cpuMs"] for t in threads), meta["preprocessedProfileVersion"])
PYEOF
	note "profiler-cli: the recording's threads, their CPU ms, the version it upgraded to: $(cat pq.out)"
else
	note "no node or npm profiler-cli in tests/browser (./install-deps.sh): the profiler's loader not run"
	cli=
fi

# --- live: make -j2's short processes; off-CPU intervals as markers ---------------
if "$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1; then
	if [ -n "$cli" ] && command -v make > /dev/null 2>&1 && command -v gcc > /dev/null 2>&1; then
		mkdir mk
		for i in 1 2 3 4 5 6; do
			printf 'int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * %d; return s; }\n' \
				$i $i > mk/f$i.c
		done
		printf 'all: f1.o f2.o f3.o f4.o f5.o f6.o\n%%.o: %%.c\n\tgcc -O2 -g -c $< -o $@\n' > mk/Makefile
		before=$(date +%s)
		run_prof record -q -g -o mk.data -- make -C mk -j2 -s
		expect_rc 0 "prof record of make -j2"
		after=$(date +%s)
		run_prof report -i mk.data -F firefox -o mk.ff.json
		expect_rc 0 "prof report -F firefox of make -j2"
		pq_info mk.ff.json
		$py - mk.ff.json.info mk.ff.json.meta "$before" "$after" > pq.out 2>&1 << 'PYEOF' || fail "profiler-cli on make -j2: $(tail -3 pq.out)"
import json, sys
info = json.load(open(sys.argv[1]))
meta = json.load(open(sys.argv[2]))
before, after = int(sys.argv[3]), int(sys.argv[4])
start = meta["startTime"] / 1000
assert before - 1 <= start <= after + 1, (start, before, after)
dur = meta["durationMs"]
procs = info["processes"]
cc1 = [p for p in procs if p["name"] == "cc1"]
assert len(cc1) == 6, [p["name"] for p in procs]
# each compiler lives a span of its own, less than the whole profile's
for p in cc1:
    assert p["cpuMs"] > 0, p
    span = p["endTime"] - p["startTime"]
    assert 0 < span < 0.95 * dur, (p["name"], p["startTime"], p["endTime"], dur)
print(len(procs), len(cc1), "%.0f" % dur, " ".join("%.0f-%.0f" % (p["startTime"], p["endTime"]) for p in cc1))
PYEOF
		note "make -j2: processes, cc1s, ms, each cc1's span as the profiler reads them: $(cat pq.out)"
	fi
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
strs = ff["shared"]["stringArray"]
for th in ff["threads"]:
    mk = th["markers"]
    for i in range(mk["length"]):
        if strs[mk["name"][i]] == "off-cpu":
            got.append((int(th["tid"]), mk["startTime"][i], mk["endTime"][i] - mk["startTime"][i]))
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
