#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report --format speedscope, with no kernel: on the golden profile
# (known shape) the file follows speedscope's schema, each thread's
# weights are what prof report gives that thread, function by function;
# on a committed recording of a real multi-threaded run, each thread's
# samples come in the time order prof script prints them; and, where
# Chromium and the npm packages of tests/browser are installed
# (install-deps.sh), speedscope's own app loads both files and shows
# those weights, with no page error and no request off the machine.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

golden_profile
py=python3
command -v $py > /dev/null 2>&1 || skip "no python3 to read the files with"

# shellcheck disable=SC2086  # $gopts is an option list
run_prof report -i golden.data $gopts -F speedscope -o golden.json
expect_rc 0 "prof report -F speedscope"
# shellcheck disable=SC2086
run_prof report -i golden.data $gopts -F json --sort pid,tid,sym -o golden.report.json
expect_rc 0 "prof report -F json --sort pid,tid,sym"

# check.py FILE REPORT: the file's structure; each thread's self weight by
# function equal to the report's entries of that pid and tid.
cat > check.py << 'EOF'
import json, re, sys
ss = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
assert ss["$schema"] == "https://www.speedscope.app/file-format-schema.json"
frames = ss["shared"]["frames"]
assert all(isinstance(f["name"], str) and f["name"] for f in frames)
assert len({(f["name"], f.get("file")) for f in frames}) == len(frames), "a frame written twice"
got = {}
for p in ss["profiles"]:
    assert p["type"] == "sampled" and p["startValue"] == 0
    assert len(p["samples"]) == len(p["weights"]) > 0
    assert p["endValue"] == sum(p["weights"]), p["name"]
    assert all(w > 0 for w in p["weights"])
    m = re.fullmatch(r".* (\d+)/(\d+) \((.+)\)", p["name"])
    assert m, p["name"]
    pid, tid, ev = int(m[1]), int(m[2]), m[3]
    for s, w in zip(p["samples"], p["weights"]):
        assert s and all(0 <= i < len(frames) for i in s)
        leaf = frames[s[-1]]["name"].removesuffix(" (inlined)")
        k = (ev, pid, tid, leaf)
        got[k] = got.get(k, 0) + w
want = {}
for ev in rep["events"]:
    for e in ev["flat"]:
        name = re.sub(r" \(inlined( in .*)?\)$", "", e["sym"][4:])
        k = (ev["event"], int(e["pid"]), int(e["tid"]), name)
        want[k] = want.get(k, 0) + e["self_period"]
assert got == want, "speedscope %s, prof report %s" % (sorted(got.items()), sorted(want.items()))
print(len(ss["profiles"]), len(frames), sum(got.values()))
EOF
$py check.py golden.json golden.report.json > check.out 2>&1 || fail "speedscope on the golden profile: $(tail -3 check.out)"
# shellcheck disable=SC2046  # the numbers, one word each
set -- $(cat check.out)
[ "$1" = 5 ] || fail "golden: $1 profiles, not 5 (four threads of cpu-clock, one of task-clock)"
note "golden: $1 profiles, $2 frames, $3 ns, each thread as prof report has it"
grep -q '"name":"golden 100/100 (cpu-clock)".*"weights":\[40000000,20000000\]' golden.json ||
	grep -A2 '"name":"golden 100/100 (cpu-clock)"' golden.json | grep -q '"weights":\[40000000,20000000\]' ||
	fail "golden: pid 100's two stacks are not 40 ms and 20 ms: $(grep -A2 'golden 100/100 (cpu-clock)' golden.json)"

# speedscope's own schema, from its npm package, where it is installed
schema=$srcdir/tests/browser/node_modules/speedscope/dist/release/file-format-schema.json
jpy=$(jsonschema_python)
if [ -f "$schema" ] && [ -n "$jpy" ]; then
	$jpy - "$schema" golden.json > schema.out 2>&1 << 'EOF' || fail "golden.json against speedscope's schema: $(tail -3 schema.out)"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
EOF
else
	note "speedscope's schema not checked: no $schema or python3-jsonschema (install-deps.sh)"
fi

# --- time order, on a real run: tests/data/recorded ----------------------------
rec=$srcdir/tests/data/recorded
ropts="--symfs=$rec/root"
run_prof report -i "$rec/oracle-prof-threads-g.data" "$ropts" -F speedscope -o threads.json
expect_rc 0 "prof report -F speedscope of a recording"
run_prof script -S -i "$rec/oracle-prof-threads-g.data" "$ropts"
expect_rc 0 "prof script -S of a recording"
mv out threads.script
# Each thread's stacks in the order prof script prints its samples (time
# order), equal ones in a row as one weighing their summed periods, as
# speedscope's file has them.
cat > order.py << 'EOF'
import json, re, sys, os
ss = json.load(open(sys.argv[1]))
frames = ss["shared"]["frames"]
def norm(name, path):
    name = name.removesuffix(" (inlined)")
    # no symbol: its object (a kernel other than the recording's names none)
    if (name == "[unknown]" or name.startswith("?? (")) and path:
        return "?" + os.path.basename(path)
    return name
want = {}
for p in ss["profiles"]:
    if not p["name"].endswith("(cpu-clock)"):
        continue
    tid = int(re.fullmatch(r".* \d+/(\d+) \(.+\)", p["name"])[1])
    want[tid] = [(tuple(norm(frames[i]["name"], frames[i].get("file")) for i in s), w)
                 for s, w in zip(p["samples"], p["weights"])]
got, cur, tid, period = {}, None, None, 0
def done():
    if cur is not None:
        seq = got.setdefault(tid, [])
        # a run of a file's unnamed frames is one frame ("?? (file)"); not
        # so the frames of another machine's kernel, [unknown] each
        run = [n for i, n in enumerate(cur)
               if not (i and n == cur[i - 1] and n.startswith("?") and
                       n not in ("?[unknown]", "?[kernel.kallsyms]"))]
        st = tuple(reversed(run))
        if seq and seq[-1][0] == st:
            seq[-1] = (st, seq[-1][1] + period)
        else:
            seq.append((st, period))
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"\S.* (\d+) \[\d+\] +[0-9.]+: +(\d+) cpu-clock:", line)
    if m:
        done()
        tid, cur, period = int(m[1]), [], int(m[2])
        continue
    m = re.match(r"\t *[0-9a-f]+ (.*) \((.*)\)( \[fp\])?$", line)
    if m and cur is not None:
        name = m[1]
        if name == "[unknown]":
            name = "?" + os.path.basename(m[2])
        else:
            name = re.sub(r"\+0x[0-9a-f]+$", "", name).removesuffix(" (inlined)")
        cur.append(name)
done()
assert set(got) == set(want), (sorted(got), sorted(want))
for t in want:
    assert got[t] == want[t], "thread %d: %d stacks in speedscope, %d in prof script; first difference at %d" % (
        t, len(want[t]), len(got[t]),
        next((i for i, (a, b) in enumerate(zip(want[t], got[t])) if a != b), min(len(want[t]), len(got[t]))))
print(len(want), sum(len(v) for v in want.values()))
EOF
$py order.py threads.json threads.script > order.out 2>&1 || fail "speedscope's time order: $(tail -3 order.out)"
# shellcheck disable=SC2046
set -- $(cat order.out)
[ "$1" -ge 3 ] || fail "the threads recording gave $1 threads, not 3 or more"
note "recording: $1 threads, $2 stacks in prof script's time order"

# --- a whole host's threads: the busiest each a profile, the rest one per command
# 400 threads of 3 commands (sh, cc1, make), of many weights: past 256
# profiles (as few frames as these) the busiest 128 are each a profile, the
# other 272 one profile per command, each command's weight in it whole.
awk -v G="$srcdir/tests/data/golden" 'BEGIN {
	print "event cpu-clock"
	split("sh cc1 make", c, " ")
	# 4 processes (genprof maps a file 64 times at most) of 100 threads
	for (p = 0; p < 4; p++)
		printf "mmap %d 0x401000 %s/prof-golden/golden as /prof-golden/golden\n", 1000 + p * 1000, G
	for (t = 0; t < 400; t++)
		printf "comm %d %d %s\n", 1000 + int(t / 100) * 1000, 1000 + int(t / 100) * 1000 + t % 100, c[t % 3 + 1]
	print "round"
	for (t = 0; t < 400; t++)
		for (k = 0; k < 2; k++)
			printf "sample 0 %d.%06d %d %d %d 1000000 x%d %s mid+0xf main+0xf\n", 1 + k, t,
				1000 + int(t / 100) * 1000, 1000 + int(t / 100) * 1000 + t % 100, k,
				1 + int(t / 7), k ? "leaf_a+0x10" : "leaf_b+0x15"
}' > many.spec
"$genprof" many.spec many.data 2> gen.err || fail "genprof many: $(cat gen.err)"
# shellcheck disable=SC2086
run_prof report -i many.data $gopts -F speedscope -o many.json
expect_rc 0 "prof report -F speedscope of 400 threads"
grep -q 'prof: the speedscope file: 272 of 400 threads are in a profile per command' err ||
	fail "400 threads: no line on stderr that 272 are grouped: $(cat err)"
# shellcheck disable=SC2086
run_prof report -i many.data $gopts -F json --sort comm -o many.report.json
expect_rc 0 "prof report -F json --sort comm"
$py - many.json many.report.json > many.out 2>&1 << 'EOF' || fail "400 threads: $(tail -3 many.out)"
import json, re, sys
ss = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
alone, groups, got = 0, {}, {}
for p in ss["profiles"]:
    assert p["endValue"] == sum(p["weights"]), p["name"]
    m = re.fullmatch(r"(\S+) (\d+)/(\d+) \(cpu-clock\)", p["name"])
    if m:
        alone += 1
        comm = m[1]
    else:
        m = re.fullmatch(r"(\S+) \((\d+) threads\) \(cpu-clock\)", p["name"])
        assert m, p["name"]
        comm = m[1]
        groups[comm] = int(m[2])
        # each stack's run merged: no two neighbours the same
        assert all(a != b for a, b in zip(p["samples"], p["samples"][1:])), p["name"]
    got[comm] = got.get(comm, 0) + p["endValue"]
want = {}
for e in rep["events"][0]["flat"]:
    want[e["comm"]] = want.get(e["comm"], 0) + e["self_period"]
assert alone == 128 and sum(groups.values()) == 272 and sorted(groups) == ["cc1", "make", "sh"], (alone, groups)
assert got == want, (got, want)
# the busiest first: weights of the profiles alone fall
w = [p["endValue"] for p in ss["profiles"][:alone]]
assert w == sorted(w, reverse=True), w[:5]
print(alone, len(groups), sum(got.values()))
EOF
# shellcheck disable=SC2046
set -- $(cat many.out)
note "400 threads: $1 profiles of one thread each, $2 of a command's other threads, $3 ns in all as prof report's by command"

# --- speedscope's own app, in headless Chromium -------------------------------
browser=
for b in chromium chromium-browser; do
	command -v $b > /dev/null 2>&1 && browser=$(command -v $b) && break
done
driver=$srcdir/tests/browser/speedscope.mjs
if [ -z "$browser" ]; then
	note "speedscope's app not run: no Chromium (apt-get install chromium)"
elif ! command -v node > /dev/null 2>&1 || [ ! -d "$srcdir/tests/browser/node_modules/puppeteer-core" ]; then
	note "speedscope's app not run: no node or no tests/browser/node_modules (install-deps.sh runs npm ci there)"
else
	mkdir -p app
	timeout 300 node "$driver" "$browser" golden.json app 5 > app.out 2> app.err ||
		fail "speedscope in $browser: $(tail -3 app.out app.err)"
	grep '^error' app.out && fail "speedscope showed errors loading golden.json"
	[ "$(grep -c '^profile' app.out)" = 5 ] || fail "speedscope showed $(grep -c '^profile' app.out) profiles of 5: $(head -3 app.out)"
	# pid 100's thread: step (inlined) 40 ms of 60, leaf_b 20, main all of it
	awk -F'\t' '$1 == "profile" { n++ } n == 1 && $1 == "row" { print $4 "|" $3 "|" $2 }' app.out > t1
	grep -qx 'step (inlined)|40.00ms (67%)|40.00ms (67%)' t1 || fail "speedscope: pid 100's step is not 40 ms (67%) self: $(cat t1)"
	grep -qx 'leaf_b|20.00ms (33%)|20.00ms (33%)' t1 || fail "speedscope: pid 100's leaf_b is not 20 ms (33%) self: $(cat t1)"
	grep -qx 'main|0.00ns (<0.01%)|60.00ms (100%)' t1 || fail "speedscope: pid 100's main is not 60 ms in all: $(cat t1)"
	grep -q '^profile	worker-2 200/201 (cpu-clock)' app.out || fail "speedscope: no thread 200/201"
	awk -F'\t' '$1 == "profile" { n++ } n == 3 && $1 == "row" { print $4 "|" $3 }' app.out > t3
	grep -qx '__x64_sys_write|6.00ms (60%)' t3 || fail "speedscope: thread 201's kernel write is not 6 ms: $(cat t3)"
	# the real run: the busiest thread's hottest function as prof report has it
	timeout 300 node "$driver" "$browser" threads.json app 1 > app2.out 2> app2.err ||
		fail "speedscope in $browser on the recording: $(tail -3 app2.out app2.err)"
	grep '^error' app2.out && fail "speedscope showed errors loading the recording's file"
	top=$(awk -F'\t' '$1 == "row" { print $4; exit }' app2.out)
	tid=$(sed -n 's|^profile	.* [0-9]*/\([0-9]*\) (cpu-clock).*|\1|p' app2.out | head -n 1)
	run_prof report -i "$rec/oracle-prof-threads-g.data" "$ropts" --tid "$tid" --sort sym -q
	expect_rc 0 "prof report --tid $tid"
	want=$(awk '$1 ~ /%$/ { $1 = $2 = $3 = ""; sub(/^ +/, ""); sub(/ \(inlined( in .*)?\)$/, ""); print; exit }' out)
	if [ -z "$top" ] || [ "$top" != "$want" ]; then
		fail "speedscope's hottest function of thread $tid is '$top', prof report's '$want'"
	fi
	# the 400 threads' file: its 131 profiles
	timeout 300 node "$driver" "$browser" many.json app 1 > app3.out 2> app3.err ||
		fail "speedscope in $browser on 400 threads: $(tail -3 app3.out app3.err)"
	grep '^error' app3.out && fail "speedscope showed errors loading the 400 threads' file"
	grep -q '^profile	.* (1/131)$' app3.out || fail "speedscope did not show 131 profiles: $(grep '^profile' app3.out)"
	note "speedscope $(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$srcdir/tests/browser/node_modules/speedscope/package.json") in $browser: golden weights as prof report's; thread $tid's hottest is $top"
fi
finish
