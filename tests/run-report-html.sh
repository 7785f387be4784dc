#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report --format html: one self-contained page. Without a browser:
# the page has no reference off itself, and the data inlined in it
# (deflated, base64) holds each event's samples and weight as prof report
# counts them. In headless Chromium (tests/browser/page.mjs drives it by
# mouse and keyboard): on the golden profile and on committed recordings
# of real runs, the function list equals prof report's entries to the
# hundredth of a percent; flame graph frames are as wide as their share;
# clicking zooms; search gives the share prof report gives; the bottom-up
# tree lists a leaf's callers; a time range dragged on the timeline gives
# prof report --time's totals for the range the page names, and a thread
# clicked prof report --tid's; switching the event shows its totals.
# Names with quotes, </script>, bad UTF-8 and control characters show
# escaped; an empty profile, 100k threads and a 2000-frame stack load.
# prof diff --format html: the 6:3:1 -> 3:3:4 shift coloured and its
# entries as prof diff's, both flame graphs sized by their side (what
# vanished shows in BASE's), two equal runs grey, the gate's verdict.
# Live (when perf_event_open is allowed): the source view of the 6:3:1
# workload puts leaf_a's loop line first, and the timeline of an
# --off-cpu run is blue where prof script says the thread was off the
# CPU, and "weigh by latency" gives prof report --latency's entries. No
# run may log a console error or make a request.
test_timeout=1200
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

py=python3
command -v $py > /dev/null 2>&1 || skip "no python3 to read the pages with"
golden_profile

# blob.py PAGE: the data of the page, decoded: "event NAME SAMPLES WEIGHT" per
# event (WEIGHT in the event's unit), "threads N", "sources N EMBEDDED".
cat > blob.py << 'EOF'
import base64, json, re, sys, zlib
page = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
m = re.search(r'<script id="prof-data" type="application/octet-stream">([A-Za-z0-9+/=\s]*)</script>', page)
assert m, "no data script"
raw = zlib.decompress(base64.b64decode("".join(m.group(1).split())))
n = int.from_bytes(raw[:4], "little")
P = json.loads(raw[4:4 + n].decode("utf-8", "strict"))
b, pos = raw, 4 + n
def uv():
    global pos
    v, s = 0, 0
    while True:
        c = b[pos]; pos += 1
        v |= (c & 127) << s; s += 7
        if not c & 128:
            return v
threads = set()
for e in P["events"]:
    for _ in range(3 * e["nframe"] + 2 * e["nnode"] + 2 * e["nline"]):
        uv()
    ilib = [uv() for _ in range(e["ninsn"])]
    ioff = [uv() for _ in range(e["ninsn"])]
    assert ilib[0] == 0 and ioff[0] == 0, (ilib[:1], ioff[:1])
    assert all(l <= len(P["libs"]) for l in ilib)
    samples = weight = 0
    for t in e["threads"]:
        threads.add((t["pid"], t["tid"]))
        stack = [uv() for _ in range(t["n"])]
        assert all(0 < s < e["nnode"] for s in stack)
        for _ in range(t["n"]):
            uv()
        w = [uv() for _ in range(t["n"])]
        assert sum(w) == t["total"], (t, sum(w))
        for _ in range(t["n"] * 2):
            uv()
        insn = [uv() for _ in range(t["n"])]
        assert all(i < e["ninsn"] for i in insn)
        for _ in range(t["n"] if P["parallelism"] else 0):
            uv()
        samples += t["n"]
        weight += sum(w)
    print("event", e["name"], samples, weight)
assert pos == len(b), (pos, len(b))
print("threads", len(threads))
print("sources", len(P["sources"]), sum("text" in s for s in P["sources"]))
print("listings", len(P["listings"]), sum(len(l.get("insn", [])) for l in P["listings"]))
EOF

# same.py PAGE.out REPORT.json [EVENT]: the page's function list (func lines)
# equals the report's flat entries: self and children to the hundredth of
# a percent, samples exactly, keys as the report spells them.
cat > same.py << 'EOF'
import json, sys
page = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.startswith("func\t")]
rep = json.load(open(sys.argv[2]))
ev = [e for e in rep["events"] if len(sys.argv) < 4 or e["event"] == sys.argv[3]][0]
keys = rep["sort"]
want = {}
for x in ev["flat"]:
    if x["samples"] or x.get("children", 0) >= 0.005:
        want[tuple(str(x[k]) for k in keys)] = x
got = {}
for f in page:
    self, children, samples = float(f[1].rstrip("%")), f[2], int(f[3])
    if samples or (children != "-" and float(children.rstrip("%")) >= 0.005):
        got[tuple(f[4:4 + len(keys)])] = (self, children, samples)
missing = set(want) - set(got)
extra = set(got) - set(want)
assert not missing and not extra, ("only in the report", sorted(missing)[:5], "only in the page", sorted(extra)[:5])
for k, x in want.items():
    self, children, samples = got[k]
    assert samples == x["samples"], (k, samples, x["samples"])
    assert abs(self - x["self"]) < 0.0051, (k, self, x["self"])
    if children != "-" and "children" in x:
        assert abs(float(children.rstrip("%")) - x["children"]) < 0.0051, (k, children, x["children"])
print(len(want))
EOF

# --- the page without a browser -----------------------------------------------------
# shellcheck disable=SC2086  # $gopts is an option list
run_prof report -i golden.data $gopts -F html -o golden.html
expect_rc 0 "prof report -F html"
head -c 15 golden.html | grep -q '^<!DOCTYPE html>' || fail "golden.html is not an HTML page"
grep -Eq '(src|href)=|https?:|url\(|@import' golden.html &&
	fail "the page refers to something off itself: $(grep -Eo '(src|href)=.{0,40}|https?:.{0,40}|url\(.{0,40}|@import.{0,40}' golden.html | head -3)"
$py blob.py golden.html > blob.out 2>&1 || fail "the page's data: $(tail -3 blob.out)"
# shellcheck disable=SC2086
run_prof report -i golden.data $gopts -F json --children -o golden.report.json
expect_rc 0 "prof report -F json --children"
$py - golden.report.json blob.out << 'EOF' || fail "the page's data is not the report's samples"
import json, sys
rep = json.load(open(sys.argv[1]))
got = {l.split()[1]: (int(l.split()[2]), int(l.split()[3])) for l in open(sys.argv[2]) if l.startswith("event ")}
want = {e["event"]: (e["samples"], e["period"]) for e in rep["events"]}
assert got == want, (got, want)
EOF
note "golden: $(tr '\n' ' ' < blob.out)"

# --- in a browser -------------------------------------------------------------------
browser=
for b in chromium chromium-browser; do
	command -v $b > /dev/null 2>&1 && browser=$(command -v $b) && break
done
[ -n "$browser" ] || skip "the page's data checked; no Chromium to open it in (apt-get install chromium)"
command -v node > /dev/null 2>&1 && [ -d "$srcdir/tests/browser/node_modules/puppeteer-core" ] ||
	skip "the page's data checked; no node or no tests/browser/node_modules (install-deps.sh runs npm ci there)"
driver=$srcdir/tests/browser/page.mjs

# page NAME FILE STEP...: drive FILE, output in NAME.out; no error allowed.
page() {
	_n=$1
	_f=$2
	shift 2
	timeout 300 node "$driver" "$browser" "$_f" . "$@" > "$_n.out" 2> "$_n.err" ||
		fail "$_n: the page could not be driven: $(tail -n 3 "$_n.out" "$_n.err")"
	grep '^error' "$_n.out" && fail "$_n: $(grep -m1 '^error' "$_n.out")"
	grep -q '^ready' "$_n.out" || fail "$_n: the page never became ready"
}
val() { awk -F '\t' -v k="$1" '$1 == k { print $2; exit }' "${2:-out}"; }

# 1. The golden profile: the function list, the flame graph, zoom, search, callers.
page golden golden.html funcs flame zoom:leaf_b search:'^leaf_[ab]$' callers:leaf_b \
	event:task-clock
$py same.py golden.out golden.report.json cpu-clock > same.out 2>&1 ||
	fail "golden: the function list is not prof report's: $(tail -2 same.out)"
note "golden: $(cat same.out) entries of the function list as prof report's"
# widths: the frames of a function, together, are as wide as its children share
$py - golden.out golden.report.json > widths.out 2>&1 << 'EOF' || fail "golden: flame graph widths: $(tail -2 widths.out)"
import json, sys
rep = json.load(open(sys.argv[2]))
ev = rep["events"][0]
share = {}
for x in ev["flat"]:
    name = x["sym"][4:].split(" (inlined")[0]
    share[name] = share.get(name, 0) + x["children"]
width = {}
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split("\t")
    if f[0] == "frame":
        width[f[3]] = width.get(f[3], 0) + float(f[2]) * 100
assert width, "no frames"
for name, w in width.items():
    if name in share:
        assert abs(w - share[name]) < 0.1, (name, w, share[name])
print(len(width))
EOF
set -- $(awk -F '\t' '$1 == "zoom" { print $2, $3 }' golden.out)
[ -n "$2" ] && awk -v r="$1" -v w="$2" 'BEGIN { exit !(w > 0 && r - w < 1.5) }' ||
	fail "golden: zoomed into leaf_b, it is $2 px of $1"
# search: the share of stacks through leaf_a or leaf_b, as --children counts them
want=$($py -c "
import json
ev = json.load(open('golden.report.json'))['events'][0]
print('%.2f%%' % sum(x['children'] for x in ev['flat'] if x['sym'] in ('[.] leaf_a', '[.] leaf_b')))")
[ "$(val match golden.out)" = "Matched: $want" ] || fail "golden: search gave '$(val match golden.out)', not $want"
# leaf_b's callers, bottom-up: work::spin and mid, then main above both
awk -F '\t' '$1 == "caller" && $2 == 1 { print $4 }' golden.out | sort > callers.out
printf 'mid\nwork::spin\n' | cmp -s - callers.out || fail "golden: leaf_b's callers are $(tr '\n' ' ' < callers.out)"
grep -q "$(printf 'caller\t2\t[0-9.]*%%\tmain')" golden.out || fail "golden: main is not above leaf_b's callers"
# the other event
$py - golden.out golden.report.json << 'EOF' || fail "golden: task-clock's totals"
import json, sys
tot = [l.split("\t") for l in open(sys.argv[1]) if l.startswith("totals\t")][-1]
ev = [e for e in json.load(open(sys.argv[2]))["events"] if e["event"] == "task-clock"][0]
assert (int(tot[1]), int(tot[2])) == (ev["samples"], ev["period"]), (tot, ev["samples"], ev["period"])
EOF

# Double clicks: a function list row and a call tree row each open the source view
# of that function, as Enter does (the first click redraws the rows: the
# browser's own dblclick event never came)
page dbl golden.html dblclick:funcs:leaf_b
[ "$(val tab dbl.out)" = source ] || fail "a double click on leaf_b's row in the function list showed the tab '$(val tab dbl.out)', not source"
case "$(val srctitle dbl.out)" in
*leaf_b*) ;;
*) fail "the source view after a double click on leaf_b shows '$(val srctitle dbl.out)'" ;;
esac
page dbl2 golden.html dblclick:tree:main
[ "$(val tab dbl2.out)" = source ] || fail "a double click on main's row in the call tree showed the tab '$(val tab dbl2.out)', not source"
case "$(val srctitle dbl2.out)" in
*main*) ;;
*) fail "the source view after a double click on main in the call tree shows '$(val srctitle dbl2.out)'" ;;
esac
note "double clicks: the function list's and the call tree's rows open their source view"

# 2. A range of the timeline and one thread, against prof report --time and --tid.
page range golden.html range:0.15,0.45 funcs
r=$(sed -n 's/.*prof report --time \([0-9.]*,[0-9.]*\).*/\1/p' range.out)
[ -n "$r" ] || fail "range: the page does not name the range: $(grep '^range' range.out)"
# shellcheck disable=SC2086
run_prof report -i golden.data $gopts --children --time "$r" -F json -o range.report.json
expect_rc 0 "prof report --time $r"
$py same.py range.out range.report.json cpu-clock > same.out 2>&1 ||
	fail "range $r: the function list is not prof report --time's: $(tail -2 same.out)"
set -- $(awk -F '\t' '$1 == "totals" { print $2, $3 }' range.out)
want=$($py -c "
import json
ev = json.load(open('range.report.json'))['events'][0]
print(ev['samples'], ev['period'])")
[ "$1 $2" = "$want" ] || fail "range $r: totals $1 $2, prof report --time: $want"
note "range $r: $1 samples, as prof report --time"
page thread golden.html thread:201 funcs
# shellcheck disable=SC2086
run_prof report -i golden.data $gopts --children --tid 201 -F json -o tid.report.json
expect_rc 0 "prof report --tid 201"
$py same.py thread.out tid.report.json cpu-clock > same.out 2>&1 ||
	fail "thread 201: the function list is not prof report --tid's: $(tail -2 same.out)"

# 3. A recording of a real run (multi-threaded, with inlined frames and libc), other keys.
rec=$srcdir/tests/data/recorded
run_prof report -i "$rec/oracle-prof-threads-g.data" --symfs "$rec/root" -F html -o threads.html
expect_rc 0 "prof report -F html of a recording"
run_prof report -i "$rec/oracle-prof-threads-g.data" --symfs "$rec/root" --children -s pid,tid,sym -F json -o threads.report.json
expect_rc 0 "prof report -F json of a recording"
page threads threads.html keys:pid,tid,sym funcs
$py same.py threads.out threads.report.json > same.out 2>&1 ||
	fail "recording: the function list by pid,tid,sym is not prof report's: $(tail -2 same.out)"
note "recording: $(cat same.out) entries by pid, tid and sym as prof report's; ready in $(val ready threads.out) ms"

# 4. Bad input: hostile names, an empty profile, 100k threads, a 2000-frame stack.
{
	grep -v '^sample' golden.spec
	printf 'comm 400 400 </script>"\047&<b\n'
	printf 'mmap 400 0x401000 %s/prof-golden/golden as /prof-golden/golden\n' "$G"
	printf 'comm 500 500 bad\377\001\033[31m\n'
	printf 'mmap 500 0x401000 %s/prof-golden/golden as /prof-golden/golden\n' "$G"
	printf 'sample 0 1.000 400 400 0 1000000 x5 leaf_a+0x10 main+0xf\n'
	printf 'sample 0 1.100 500 500 0 1000000 x5 leaf_b+0x15 main+0xf\n'
	printf 'sample 0 1.200 500 500 0 1000000 0x401116'
	i=0
	# named frames (a run of a file's unnamed ones would be one "??" frame)
	while [ $i -lt 1000 ]; do printf ' mid+0xf main+0xf'; i=$((i + 1)); done
	printf '\n'
} > hostile.spec
"$genprof" hostile.spec hostile.data 2> gen.err || fail "genprof hostile: $(cat gen.err)"
# a file name with a control character, as the page's title
ctl=$(printf 'ctl\001<i>.data')
cp hostile.data "$ctl"
# shellcheck disable=SC2086
run_prof report -i "$ctl" $gopts -F html -o hostile.html -q
expect_rc 0 "prof report -F html of hostile names"
grep -c '</script>' hostile.html | grep -qx 2 || fail "hostile: '</script>' got into the page's markup"
page hostile hostile.html keys:comm,sym funcs flame text:#input
grep -q "$(printf 'func\t[0-9.]*%%\t[0-9.]*%%\t5\t</script>"\047&<b\t')" hostile.out ||
	fail "hostile: the quoted name is not shown as it is: $(grep '^func' hostile.out | head -3)"
# control characters: the model makes them '?' in commands, the page '\xNN' in what it shows
grep -q "$(printf '\tbad\357\277\275??\\[31m\t')" hostile.out ||
	fail "hostile: bad UTF-8 and control characters are not replaced: $(grep '^func.*bad' hostile.out | head -2)"
[ "$(val text hostile.out)" = 'ctl\x01<i>.data' ] || fail "hostile: the input's name is shown as '$(val text hostile.out)'"
LC_ALL=C grep -q "$(printf '[\001-\010\016-\037]')" hostile.out && fail "hostile: a control character reached the page's text"
depth=$(awk -F '\t' '$1 == "frame" && $2 > d { d = $2 } END { print d + 0 }' hostile.out)
# the model keeps a stack's innermost MAX_FRAMES (1024, resolve.h) frames
[ "$depth" -ge 1024 ] || fail "hostile: the 2000-frame stack is drawn $depth deep, not 1024"

printf 'event cpu-clock\ncmdline prof record true\nround\n' > empty.spec
"$genprof" empty.spec empty.data 2> gen.err || fail "genprof empty: $(cat gen.err)"
run_prof report -i empty.data -F html -o empty.html -q
expect_rc 0 "prof report -F html of an empty profile"
page empty empty.html text:main
grep -q 'no samples' empty.out || fail "empty: the page does not say it has no samples: $(grep '^text' empty.out)"

awk 'BEGIN {
	print "event cpu-clock"
	for (t = 0; t < 100000; t++) printf "sample 0 1.%06d 7 %d 0 1000000 0x401116\n", t, 10000 + t
}' > many.spec
"$genprof" many.spec many.data 2> gen.err || fail "genprof many: $(cat gen.err)"
run_prof report -i many.data -F html -o many.html -q
expect_rc 0 "prof report -F html of 100k threads"
page many many.html text:#tl-more funcs
grep -q "$(printf 'text\tand 99700 more threads')" many.out || fail "many: $(grep '^text' many.out)"
[ "$(val funcrows many.out)" = 100000 ] && grep -q "$(printf '^func\t0.00%%\t0.00%%\t1\t:[0-9]*\t')" many.out ||
	fail "many: the function list does not have the 100000 threads' entries of one sample each"
note "100k threads: $(val size many.out) bytes, ready in $(val ready many.out) ms"

# 5. prof diff --format html: 6:3:1 against 3:3:4, and two runs of 6:3:1.
dopts="--symfs $G --kallsyms $G/kallsyms --no-inline"
gen_shape dbase 1 6 3 1 5000
gen_shape dnew 2 3 3 4 5000
gen_shape dsame 3 6 3 1 5000
gen_shape dgone 4 6 4 0 5000
# shellcheck disable=SC2086
run_prof diff $dopts --fail-above 5 -F html -o shift.html dbase.data dnew.data
expect_rc 1 "prof diff -F html --fail-above 5 of a shift (the gate fails)"
# shellcheck disable=SC2086
run_prof diff $dopts -F json -o shift.json dbase.data dnew.data
expect_rc 0 "prof diff -F json"
page shift shift.html diff
# the page's rows are prof diff's entries: shares, delta, change
$py - shift.out shift.json << 'EOF' > dsame.out 2>&1 || fail "diff page: $(tail -3 dsame.out)"
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.startswith("drow\t")]
want = {e["name"]: e for e in json.load(open(sys.argv[2]))["entries"]}
assert len(rows) == len(want), (len(rows), len(want))
for r in rows:
    e = want[r[6]]
    assert r[1] == e["change"], (r, e["change"])
    assert abs(float(r[2].rstrip("%")) - e["base"]) < 0.0051 and abs(float(r[3].rstrip("%")) - e["new"]) < 0.0051, (r, e)
    assert abs(float(r[4]) - e["delta"]) < 0.0051, (r, e)
# both flame graphs: widths the side's shares, colours the change
fr = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.startswith("dframe\t")]
for side, k in (("base", "base"), ("new", "new")):
    got = {f[5]: (float(f[3]) * 100, f[4]) for f in fr if f[1] == side}
    for name in ("leaf_a", "leaf_b", "mid"):
        assert abs(got[name][0] - want[name][k]) < 0.1, (side, name, got[name], want[name][k])
        assert got[name][1] == want[name]["change"], (side, name, got[name])
    assert got["main"][1] == "noise", got["main"]
print(len(rows))
EOF
grep -q "$(printf '^verdict\tfail\tGate failed: mid grew by [0-9.]* points')" shift.out ||
	fail "diff page: the gate's verdict is '$(val verdict shift.out)'"
# two runs of one shape: nothing coloured, the gate passes
# shellcheck disable=SC2086
run_prof diff $dopts --fail-above 5 -F html -o same.html dbase.data dsame.data
expect_rc 0 "prof diff -F html of two runs of one shape"
page same same.html diff
grep -q "$(printf '^verdict\tpass\tGate passed')" same.out || fail "equal runs: verdict '$(val verdict same.out)'"
awk -F '\t' '($1 == "drow" && $2 != "noise") || ($1 == "dframe" && $5 != "noise")' same.out | grep . &&
	fail "equal runs: something is coloured"
# what vanished shows in BASE's flame graph, not in NEW's
# shellcheck disable=SC2086
run_prof diff $dopts -F html -o gone.html dbase.data dgone.data
expect_rc 0 "prof diff -F html where mid vanished"
page gone gone.html diff
grep -q "$(printf '^dframe\tbase\t3\t0.[0-9]*\tshrank\tmid$')" gone.out || fail "mid vanished: not in BASE's flame graph as shrank"
grep -q "$(printf '^dframe\tnew\t.*\tmid$')" gone.out && fail "mid vanished but is in NEW's flame graph"
note "diff page: $(cat dsame.out) entries as prof diff's, flame graphs sized by each side, equal runs grey"

# 6. The disassembly under the source view, from a recording: each instruction's
# share is prof annotate's period over the event's, the hottest marked, and the
# shares add up to the function's.
run_prof report -i "$rec/oracle-prof-shape-g.data" --symfs "$rec/root" -F html -o dis.html
expect_rc 0 "prof report -F html of shape's recording"
run_prof annotate -i "$rec/oracle-prof-shape-g.data" --symfs "$rec/root" --json -o dis.json leaf_a
expect_rc 0 "prof annotate --json leaf_a"
page dis dis.html source:leaf_a
$py - dis.out dis.json << 'EOF' > dis.sum 2>&1 || fail "disassembly: $(tail -3 dis.sum)"
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
dis = [r for r in rows if r[0] == "dis"]
ev = json.load(open(sys.argv[2]))["events"][0]
fn = ev["functions"][0]
want = {int(i["address"], 16): i for i in fn["instructions"]}
assert len(dis) == len(want), (len(dis), len(want))
hot = max(want.values(), key=lambda i: i["period"])
for r in dis:
    vaddr = int(r[3], 16)
    i = want[vaddr]
    share = 100 * i["period"] / ev["period"]
    got = float(r[2].rstrip("%")) if r[2] else 0.0
    assert abs(got - share) < 0.0051, (r, share)
    text = i["text"] + (" <%s>" % i["target_name"] if i.get("target_name") else "")
    assert r[4] == text, (r[4], text)
    assert (r[5] == "hot") == (i is hot), (r, hot["address"])
total = sum(float(r[2].rstrip("%")) for r in dis if r[2])
assert abs(total - fn["percent"]) < 0.05, (total, fn["percent"])
lines = [r[1] for r in rows if r[0] == "disline"]
assert lines and all(l.startswith("shape.c:") for l in lines), lines
print(len(dis), hot["address"], "%.2f%%" % (100 * hot["period"] / ev["period"]), "%.2f%%" % total)
EOF
note "disassembly: $(cat dis.sum) (instructions, the hottest, its share, leaf_a's), as prof annotate"

# 7. Live: the source view and the off-CPU timeline.
if ! "$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1; then
	note "source view and off-CPU timeline not checked live: perf_event_open is refused here"
	finish
fi
run_prof record -q -g -o shape.data -- "$WORKLOADS/shape" -s 1
expect_rc 0 "prof record of shape"
run_prof report -i shape.data -F html -o shape.html
expect_rc 0 "prof report -F html of shape"
run_prof report -i shape.data -s sym,srcline --percent-limit 0 -F json -o shape.report.json
expect_rc 0 "prof report -s sym,srcline"
page shape shape.html source:leaf_a
hot=$($py -c "
import json
ev = json.load(open('shape.report.json'))['events'][0]
x = max((x for x in ev['flat'] if x['sym'] == '[.] leaf_a'), key=lambda x: x['samples'])
print(x['srcline'], x['self'])")
set -- $hot
got=$(awk -F '\t' '$1 == "src" { n = split($2, p, "/"); print p[n], $3 + 0; exit }' shape.out)
# to the hundredth of a percent (the report's JSON has four decimals)
echo "$got" | awk -v l="$1" -v s="$2" '{ d = $2 - s; exit !($1 == l && d < 0.0051 && d > -0.0051) }' ||
	fail "source: leaf_a's first line is '$got', prof report's hottest '$1 $2'"
line=${1##*:}
first=$(val srcfirst shape.out)
case "$first" in
"$line "*LEAF\(leaf_a\)*) ;;
*) fail "source: the text's highlighted line is '$first', not line $line with leaf_a's loop" ;;
esac
note "source: leaf_a's hot line $1 first ($2), its text shown"

# a thread that execs: its track named as its samples after the exec were (a
# shell's busy loop, then shape)
run_prof record -q -o exec.data -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; exec "$0" -s 0.3' "$WORKLOADS/shape"
expect_rc 0 "prof record of sh, then an exec of shape"
run_prof report -i exec.data -F html -o exec.html
expect_rc 0 "prof report -F html of sh then shape"
run_prof report -i exec.data --sort comm -F json -o exec.report.json
expect_rc 0 "prof report --sort comm of sh then shape"
grep -q '"comm": *"sh"' exec.report.json || fail "no samples of sh before its exec: $(head -c 400 exec.report.json)"
page exec exec.html tracks
name=$(awk -F '\t' '$1 == "trackname" && $2 == $3 { print $4; exit }' exec.out)
[ "$name" = shape ] || fail "the track of a thread that ran sh, then exec'd shape, is named '$name', not shape"
note "exec: the track of a thread that ran sh, then shape, is named '$name'"

run_prof record -q --off-cpu -g -o off.data -- "$WORKLOADS/offcpu" -s 1
expect_rc 0 "prof record --off-cpu"
run_prof report -i off.data -F html -o off.html
expect_rc 0 "prof report -F html of an off-CPU recording"
run_prof script -i off.data -S
expect_rc 0 "prof script -S of an off-CPU recording"
mv out off.script
tid=$(awk '$NF == "off-cpu:" || $(NF) ~ /off-cpu:/ { print $2; exit }' off.script)
[ -n "$tid" ] || fail "off-CPU: prof script shows no off-cpu sample"
# the README's picture (doc/page.png) is this one: tests/page.png in the build tree
page off off.html track:"$tid" shot:"$builddir/tests/page.png"
# each run of blue on the track is off-cpu intervals of prof script, end to end
$py - off.out off.script << 'EOF' > track.out 2>&1 || fail "off-CPU timeline: $(tail -3 track.out)"
import re, sys
runs = [tuple(map(float, l.split("\t")[1:3])) for l in open(sys.argv[1]) if l.startswith("blocked\t")]
first, iv = None, []
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"\S.* (\d+) (?:\[\d+\] )? *(\d+)\.(\d+): +(\d+) +(\S+):", line)
    if not m:
        continue
    t = int(m[2]) + int(m[3]) / 1e6
    first = t if first is None else min(first, t)
    if m[5] == "off-cpu":
        iv.append((t, t + int(m[4]) / 1e9))
iv = sorted((a - first, b - first) for a, b in iv)
# a pixel is about a millisecond: a run starts and ends where intervals do,
# and every interval of more than a few pixels is under a run
tol = 0.003
assert runs, "no blocked run drawn"
for a, b in runs:
    assert min(abs(a - s) for s, _ in iv) < tol, ("a run starts where no interval does", a, b)
    assert min(abs(b - e) for _, e in iv) < tol, ("a run ends where no interval does", a, b)
long = [(s, e) for s, e in iv if e - s > tol]
for s, e in long:
    m = (s + e) / 2
    assert any(a <= m <= b for a, b in runs), ("an interval is not drawn", s, e)
print(len(runs), len(long))
EOF
set -- $(cat track.out)
note "off-CPU: $1 blocked runs drawn where prof script's off-cpu samples are (to 3 ms), covering all $2 of over 3 ms"

# --latency: threads running side by side, weighed as prof report --latency weighs them
run_prof record -q --off-cpu -g -o par.data -- "$WORKLOADS/threads" -s 1
expect_rc 0 "prof record --off-cpu of threads"
run_prof report -i par.data -F html -o par.html
expect_rc 0 "prof report -F html of threads"
run_prof report -i par.data --latency --children -F json -o par.report.json
expect_rc 0 "prof report --latency"
page par par.html latency funcs
$py same.py par.out par.report.json cpu-clock > same.out 2>&1 ||
	fail "latency: the function list is not prof report --latency's: $(tail -2 same.out)"
set -- $(awk -F '\t' '$1 == "totals" { print $2, $3 }' par.out)
want=$($py -c "
import json
ev = [e for e in json.load(open('par.report.json'))['events'] if e['event'] == 'cpu-clock'][0]
print(ev['samples'], ev['period'])")
[ "$1 $2" = "$want" ] || fail "latency: the page's totals $1 $2, prof report --latency's $want"
note "latency: $(cat same.out) entries, and the total ($2 of $1 samples), as prof report --latency weighs them"
finish
