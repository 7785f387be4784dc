#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof annotate on tests/workloads/shape and inline (recorded here, or the
# committed recordings where perf_event_open is refused):
#   - bad options: one line, exit 64;
#   - shape: leaf_a, leaf_b, leaf_c in that order and in 6:3:1, each one's
#     samples all at the line of its LEAF() in shape.c, the instructions'
#     and the lines' samples adding up to the function's (JSON, read by
#     python3), the loop's branch named <leaf_a+0x10>; text: the hottest
#     line marked, the shares of the instructions adding up to 100;
#   - perf annotate --stdio -l on the same file (rewritten by prof convert:
#     perf 6.1 cannot read compressed records there) names the same top
#     line, and the same hottest instruction, at shares within 3 points;
#   - inline: the time inl_leaf spends inlined in outer is on inl_leaf's
#     lines (16, 17), and outer's call of now() is named <now>; perf agrees;
#   - the source text is read under --symfs ("." and ".." resolved); a file
#     not there, a binary without symbols, and (recorded here) one without
#     debug info each say so in one line; control bytes and bad UTF-8 in a
#     source file do not reach the output;
#   - recorded here: off-CPU time (--off-cpu, --event off-cpu) is on the
#     line of sleep_work's nanosleep call and read_work's read call, in the
#     workload's 30:20 shares.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

py=python3
command -v $py > /dev/null 2>&1 || skip "no python3 to read the JSON"

bad() {
	_what=$1
	shift
	run_prof annotate "$@"
	expect_rc 64 "prof annotate $*"
	one_error_line "prof annotate $*"
	grep -q -- "$_what" err || fail "prof annotate $*: '$(cat err)' does not say '$_what'"
}
bad "intel or att" -M arm
bad "share from 0 to 100" --percent-limit 120
bad "drop it or the names" --percent-limit 5 leaf_a
bad "give a function" -s ''

need_recordings
src=$srcdir/tests/workloads
line_of() {
	grep -n "$1" "$2" | head -n 1 | cut -d: -f1
}

# --- shape ----------------------------------------------------------------------
record_or_replay oracle-prof-shape prof record -q -e cpu-clock -o shape.data -- "$WORKLOADS/shape" -s 1
expect_rc 0 "prof record of shape"
run_prof annotate -i shape.data $(symfs_opt) --json
expect_rc 0 "prof annotate --json"
mv out shape.json
la=$(line_of '^LEAF(leaf_a)' "$src/shape.c")
lb=$(line_of '^LEAF(leaf_b)' "$src/shape.c")
lc=$(line_of '^LEAF(leaf_c)' "$src/shape.c")
$py - shape.json "$la" "$lb" "$lc" > shape.check 2>&1 << 'PYEOF' || fail "shape's JSON: $(cat shape.check)"
import json, sys
d = json.load(open(sys.argv[1]))
lines = [int(x) for x in sys.argv[2:5]]
ev = d["events"][0]
fs = ev["functions"]
names = [f["name"] for f in fs[:3]]
assert names == ["leaf_a", "leaf_b", "leaf_c"], names
for f, want in zip(fs[:3], lines):
    ins = f["instructions"]
    s = sum(i["samples"] for i in ins)
    assert s + f["outside_samples"] == f["samples"], (f["name"], s, f["samples"])
    assert sum(l["samples"] for l in f["lines"]) == s, f["name"]
    assert abs(sum(i["percent"] for i in ins) - 100) < 0.01, f["name"]
    top = f["lines"][0]
    assert top["line"] == want and top["file"].endswith("/shape.c"), (f["name"], top)
    assert top["samples"] >= 0.99 * f["samples"], (f["name"], top)
    assert any(i.get("target_name") == f["name"] + "+0x10" for i in ins), f["name"]
tot = sum(f["samples"] for f in fs[:3])
print(" ".join("%.1f" % (100.0 * f["samples"] / tot) for f in fs[:3]))
PYEOF
read -r sa sb sc < shape.check
note "shape: leaf_a $sa%, leaf_b $sb%, leaf_c $sc% of the leaves; each at its LEAF() line"
expect_range "leaf_a's share" "$sa" 50 70
expect_range "leaf_b's share" "$sb" 20 40
expect_range "leaf_c's share" "$sc" 4 17

# text: the hottest line marked, the instruction shares adding up to 100
run_prof annotate -i shape.data $(symfs_opt) leaf_b
expect_rc 0 "prof annotate leaf_b"
mv out leaf_b.txt
grep -q "^leaf_b  \[shape\]  cpu-clock: [0-9]* samples" leaf_b.txt || fail "no leaf_b header: $(head -5 leaf_b.txt)"
grep -q '^leaf_a\|^leaf_c' leaf_b.txt && fail "prof annotate leaf_b shows other functions"
grep -q "^\*  *[0-9.]* : *$lb  " leaf_b.txt || fail "line $lb is not marked the hottest: $(head -12 leaf_b.txt)"
sum=$(awk '/^ *[0-9.]+ : +[0-9a-f]+:  / { s += $1 } END { printf "%.1f\n", s }' leaf_b.txt)
expect_range "leaf_b's instruction shares' sum" "$sum" 99.9 100.1

# perf annotate on the same file, uncompressed
if command -v perf > /dev/null 2>&1; then
	run_prof convert -i shape.data -o shape.perf
	expect_rc 0 "prof convert"
	# perf_cmp NAME FILE SYMBOL: perf's top line and hottest instruction against ours
	perf_cmp() {
		command perf annotate -i "$2" --stdio -l $(perf_symfs_opt) "$3" > "$1.perf" 2> "$1.perf.err" ||
			fail "perf annotate $3: $(tail -n 3 "$1.perf.err")"
		# perf: "   99.95 shape.c:45" after "Sorted summary"; "   85.10 :   401694: add ..."
		set -- "$1" "$2" "$3" $(awk '/^Sorted summary/ { s = 1; next }
			s && NF == 2 && $1 ~ /^[0-9.]+$/ { print $1, $2; exit }' "$1.perf")
		[ $# = 5 ] || fail "perf annotate -l gave no summary: $(head -n 20 "$1.perf")"
		pp=$4
		pl=$5
		set -- "$1" "$2" "$3" $(awk '$2 == ":" && $3 ~ /^[0-9a-f]+:$/ && $1 + 0 > m { m = $1 + 0; a = $3 }
			END { sub(/:$/, "", a); print m, a }' "$1.perf")
		pip=$4
		pia=$5
		run_prof annotate -i "$2" $(symfs_opt) --json "$3"
		expect_rc 0 "prof annotate --json $3"
		mv out "$1.json"
		set -- "$1" "$2" "$3" $($py -c '
import json, sys, os
f = json.load(open(sys.argv[1]))["events"][0]["functions"][0]
l = f["lines"][0]
i = max(f["instructions"], key=lambda i: i["samples"])
print("%.2f %s:%d %.2f %s" % (l["percent"], os.path.basename(l["file"]), l["line"], i["percent"], i["address"][2:]))' "$1.json")
		op=$4
		ol=$5
		oip=$6
		oia=$7
		note "$3: top line perf $pl $pp%, prof $ol $op%; hottest instruction perf $pia $pip%, prof $oia $oip%"
		[ "$pl" = "$ol" ] || fail "$3: perf's top line is $pl, prof's $ol"
		[ "$pia" = "$oia" ] || fail "$3: perf's hottest instruction is at $pia, prof's at $oia"
		expect_range "$3: prof's top line share beside perf's $pp" "$op" \
			"$(awk -v v="$pp" 'BEGIN { print v - 3 }')" "$(awk -v v="$pp" 'BEGIN { print v + 3 }')"
		expect_range "$3: prof's hottest instruction share beside perf's $pip" "$oip" \
			"$(awk -v v="$pip" 'BEGIN { print v - 3 }')" "$(awk -v v="$pip" 'BEGIN { print v + 3 }')"
	}
	perf_cmp leaf_a shape.perf leaf_a
else
	note "no perf: annotate is not compared with perf annotate"
fi

# --- inline: inl_leaf's time, inlined in outer, on inl_leaf's lines --------------
record_or_replay inline prof record -q -g -e cpu-clock -o inl.data -- "$WORKLOADS/inline" -s 1
expect_rc 0 "prof record of inline"
run_prof annotate -i inl.data $(symfs_opt) --json outer
expect_rc 0 "prof annotate outer"
mv out inl.json
l16=$(line_of 'for (unsigned long i = 0; i < 100000UL; i++)' "$src/inline.c")
l17=$(line_of 'acc += i;' "$src/inline.c")
$py - inl.json "$l16" "$l17" > inl.check 2>&1 << 'PYEOF' || fail "inline's JSON: $(cat inl.check)"
import json, sys
f = json.load(open(sys.argv[1]))["events"][0]["functions"][0]
assert f["name"] == "outer", f["name"]
want = {int(sys.argv[2]), int(sys.argv[3])}
inl = sum(l["samples"] for l in f["lines"] if l["line"] in want and l["file"].endswith("/inline.c"))
assert any(i.get("target_name") == "now" for i in f["instructions"]), "no call named <now>"
print("%.1f" % (100.0 * inl / f["samples"]))
PYEOF
note "inline: $(cat inl.check)% of outer's samples on inl_leaf's lines $l16 and $l17"
expect_range "outer's samples on inl_leaf's lines" "$(cat inl.check)" 90 100
# inl_leaf by its own name, as the report lists it: its code inside outer,
# its samples the report's row's; outer's header says how its share relates
run_prof report -i inl.data $(symfs_opt) --stdio -q --no-children --sort sym
expect_rc 0 "prof report of inline"
rrow=$(awk '/inl_leaf \(inlined in outer\)/ { print $2; exit }' out)
[ -n "$rrow" ] || fail "the report has no row 'inl_leaf (inlined in outer)': $(head -n 14 out)"
run_prof annotate -i inl.data $(symfs_opt) --json inl_leaf outer
expect_rc 0 "prof annotate of the inlined inl_leaf"
mv out inl2.json
$py - inl2.json "$rrow" "$l16" "$l17" > inl2.check 2>&1 << 'PYEOF' || fail "inl_leaf's JSON: $(cat inl2.check)"
import json, sys
fs = {(f["name"], f["inlined_in"]): f for f in json.load(open(sys.argv[1]))["events"][0]["functions"]}
rrow = int(sys.argv[2])
leaf = fs[("inl_leaf", "outer")]
outer = fs[("outer", None)]
assert leaf["report_samples"] == rrow, (leaf["report_samples"], rrow)
assert outer["samples"] - outer["report_samples"] >= rrow, (outer["samples"], outer["report_samples"])
# inl_leaf's body: from two lines above its loop to the line after it
lines = {l["line"] for l in leaf["lines"] if l["samples"]}
assert lines and all(int(sys.argv[3]) - 2 <= l <= int(sys.argv[4]) + 1 for l in lines), lines
assert all("inl_leaf" in i.get("inlined", []) for i in leaf["instructions"]), "an instruction not of inl_leaf"
assert len(leaf["instructions"]) < len(outer["instructions"])
print(leaf["samples"], outer["samples"], outer["report_samples"])
PYEOF
read -r ls os ors < inl2.check
note "inline: annotate inl_leaf: $ls samples (the report's row: $rrow), in outer's $os (its own row: $ors)"
run_prof annotate -i inl.data $(symfs_opt) outer
expect_rc 0 "prof annotate outer (text)"
grep -q "are in functions inlined into it, which prof report lists under their own names" out ||
	fail "outer's header does not say its samples are inl_leaf's in the report: $(sed -n 1,4p out)"
if command -v perf > /dev/null 2>&1; then
	run_prof convert -i inl.data -o inl.perf
	expect_rc 0 "prof convert of inl.data"
	perf_cmp outer inl.perf outer
fi

# --- source under --symfs; what cannot be shown, in one line each ------------------
path=$($py -c 'import json, sys; print(json.load(open(sys.argv[1]))["events"][0]["functions"][0]["lines"][0]["file"])' shape.json)
mkdir -p sym/prof-recorded "sym$(dirname "$path")"
ln -s "$recorded/root/prof-recorded/workloads" sym/prof-recorded/workloads
# line lb with an escape sequence and a byte that is no UTF-8
awk -v n="$lb" 'NR == n { printf "LEAF(leaf_b) /* \033[31mred\033[0m \377 */\n"; next } { print }' \
	"$src/shape.c" > "sym$path"
# (a live recording's binaries are not under sym: found where they are)
run_prof annotate -i shape.data --symfs sym leaf_b
expect_rc 0 "prof annotate --symfs with the source"
grep -q "$lb  LEAF(leaf_b) /\* ?\[31mred?\[0m � \*/" out ||
	fail "the source under --symfs is not shown, or not made safe: $(grep "$lb  LEAF" out)"
LC_ALL=C grep -q "$(printf '\033')" out && fail "an escape byte of the source reached the output"
iconv -f UTF-8 -t UTF-8 out > /dev/null 2>&1 || fail "the output is not valid UTF-8"
# a symfs with the binary alone, read strictly: the source is not found
bin=$($py -c 'import json, sys; print(json.load(open(sys.argv[1]))["events"][0]["functions"][0]["dso"])' shape.json)
mkdir -p "nosrc$(dirname "$bin")"
if replaying; then
	cp "$recorded/root$bin" "nosrc$bin" || fail "cannot copy $bin"
else
	cp "$bin" "nosrc$bin" || fail "cannot copy $bin"
fi
run_prof annotate -i shape.data --symfs nosrc --strict-symfs -q leaf_b
expect_rc 0 "prof annotate --strict-symfs without the source"
n=$(grep -c "source not shown: No such file or directory" out)
[ "$n" = 1 ] || fail "a missing source file: $n lines say so: $(head -12 out)"

# a binary without symbols: views-stripped
if ! replaying; then
	strip -o shape-stripped "$WORKLOADS/shape" || fail "strip failed"
fi
record_or_replay views-stripped prof record -q -e cpu-clock -o stripped.data -- ./shape-stripped -s 0.5
expect_rc 0 "prof record of a stripped shape"
# 10%: on a loaded machine a kernel function (a page fault's) can hold 1%.
# Its code is one "?? (shape-stripped)", as prof report's row: the
# instructions its samples hit, each decoded where it is; the hottest are
# the leaves' loops, as the unstripped shape's symbols place them.
run_prof annotate -i stripped.data $(symfs_opt) --percent-limit 10
expect_rc 0 "prof annotate of a stripped program"
grep -q '^?? (shape-stripped)  \[shape-stripped\]  cpu-clock: [0-9]* samples' out ||
	fail "stripped: no listing of ?? (shape-stripped): $(head -5 out)"
annot_hot 3 > hot.insns
[ "$(wc -l < hot.insns)" -ge 2 ] || fail "stripped: $(wc -l < hot.insns) sampled instructions listed: $(head -12 out)"
while read -r pct a text; do
	o=$(objdump_at "$WORKLOADS/shape" "$a")
	fn=$(addr2line -f -e "$WORKLOADS/shape" 0x"$a" | sed -n 1p)
	[ "$o" = "$text" ] || fail "stripped: at $a ($pct%) '$text', objdump of shape: '$o'"
	case $fn in leaf_[abc]) ;; *) fail "stripped: the hottest instruction at $a ($pct%) is in $fn, not a leaf" ;; esac
done < hot.insns
note "stripped: ?? (shape-stripped)'s hottest instructions, as objdump and shape's symbols place them: $(awk '{ printf "%s %s%%; ", $2, $1 }' hot.insns)"

# --- on a terminal: through a pager (less), q leaves it; --stdio: none --------------------
if command -v tmux > /dev/null 2>&1 && command -v less > /dev/null 2>&1; then
	sock=$PWD/tmux.sock
	cat > pane.sh << EOF
unset PAGER PROF_PAGER LESS
echo SHELL-MARK
"$PROF" annotate -i "$recorded/oracle-prof-shape.data" --symfs "$recorded/root" leaf_a 2> pager.err
echo "rc=\$?" > pager.rc
"$PROF" annotate --stdio -i "$recorded/oracle-prof-shape.data" --symfs "$recorded/root" leaf_a > /dev/null 2>&1
echo "rc=\$?" > stdio.rc
sleep 60
EOF
	tmux -S "$sock" -f /dev/null new-session -d -s ann -x 100 -y 15 "cd '$PWD' && sh pane.sh" ||
		fail "tmux cannot start"
	tmux_gone() {
		tmux -S "$sock" kill-server 2> /dev/null
	}
	on_exit tmux_gone
	i=0
	while [ $i -lt 3000 ]; do
		tmux -S "$sock" capture-pane -p -t ann > pane.1
		tail -n 1 pane.1 | grep -q '^:' && break
		sleep 0.2
		i=$((i + 1))
	done
	tail -n 1 pane.1 | grep -q '^:' || fail "no pager's prompt on the terminal: $(cat pane.1)"
	grep -q 'leaf_a  \[shape\]' pane.1 || fail "the pager does not show leaf_a: $(cat pane.1)"
	[ -e pager.rc ] && fail "prof annotate ended before the pager was left"
	tmux -S "$sock" send-keys -t ann q
	i=0
	while [ ! -s stdio.rc ] && [ $i -lt 3000 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	[ "$(cat pager.rc 2> /dev/null)" = "rc=0" ] || fail "prof annotate through the pager: $(cat pager.rc pager.err)"
	# --stdio on the terminal: no pager waits for a key
	[ "$(cat stdio.rc 2> /dev/null)" = "rc=0" ] || fail "prof annotate --stdio on a terminal did not end by itself"
	note "on a terminal: through less until q; --stdio without it"
else
	note "no tmux or less: the pager not checked"
fi

replaying && finish

# --- recorded here: no debug info; off-CPU time by line ----------------------------
strip --strip-debug -o shape-nodebug "$WORKLOADS/shape" || fail "strip --strip-debug failed"
run_prof record -q -e cpu-clock -o nodebug.data -- ./shape-nodebug -s 0.5
expect_rc 0 "prof record of shape without debug info"
run_prof annotate -i nodebug.data leaf_a
expect_rc 0 "prof annotate of shape without debug info"
n=$(grep -c "no source lines: no line information of shape-nodebug covers this code" out)
[ "$n" = 1 ] || fail "no debug info: $n lines say so: $(head -8 out)"
grep -q ':  add  ' out || fail "no debug info: no disassembly: $(head -12 out)"

PROF_WORKLOAD_WAITS=$tmpdir/waits
export PROF_WORKLOAD_WAITS
rm -f "$PROF_WORKLOAD_WAITS"
run_prof record -q --off-cpu -g -o off.data -- "$WORKLOADS/offcpu" -s 2
expect_rc 0 "prof record --off-cpu of offcpu"
run_prof annotate -i off.data --event off-cpu --json sleep_work read_work
expect_rc 0 "prof annotate --event off-cpu"
mv out off.json
ls_=$(line_of 'while (nanosleep(&ts, &ts)' "$src/offcpu.c")
lr=$(line_of 'read(tfd, &n, sizeof(n))' "$src/offcpu.c")
$py - off.json "$ls_" "$lr" > off.check 2>&1 << 'PYEOF' || fail "off-CPU JSON: $(cat off.check)"
import json, sys
e = json.load(open(sys.argv[1]))["events"][0]
assert e["event"] == "off-cpu", e["event"]
fs = {f["name"]: f for f in e["functions"]}
out = []
for name, want in (("sleep_work", int(sys.argv[2])), ("read_work", int(sys.argv[3]))):
    f = fs[name]
    top = f["lines"][0]
    assert top["line"] == want, (name, top)
    assert top["samples"] == f["samples"], (name, top, f["samples"])
    out.append(100.0 * f["period"] / e["period"])
print("%.1f %.1f" % tuple(out))
PYEOF
read -r os or < off.check
# the workload sleeps 30 ms and reads 20 ms a round: 60:40 of the off-CPU
# time on an idle machine; a busy one adds its wait for a CPU to each, and
# may take the CPU between arming the timer and the read (the timer then
# fires before the read blocks): the shares its own clock saw
[ -s "$PROF_WORKLOAD_WAITS" ] || fail "the workload wrote no $PROF_WORKLOAD_WAITS"
want=$(awk '{ printf "%.1f\n", 100 * $1 / ($1 + $2) }' "$PROF_WORKLOAD_WAITS")
note "off-CPU: sleep_work $os%, read_work $or% of the off-CPU time, each at its call's line (the workload saw $want:$(awk -v w="$want" 'BEGIN { print 100 - w }'))"
expect_range "sleep_work's share of the off-CPU time" "$os" "$(awk -v w="$want" 'BEGIN { print w - 10 }')" \
	"$(awk -v w="$want" 'BEGIN { print w + 10 }')"
expect_range "read_work's share of the off-CPU time" "$or" "$(awk -v w="$want" 'BEGIN { print 100 - w - 10 }')" \
	"$(awk -v w="$want" 'BEGIN { print 100 - w + 10 }')"
finish
