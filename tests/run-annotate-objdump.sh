#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof annotate's disassembly (report/model/annot.c: GNU libopcodes, the
# page's and --json's too) against objdump -d, instruction for instruction:
#   - every function of this machine's libc.so.6 (its .dynsym, and with
#     libc6-dbg every function its debug file names: glibc's AVX-512
#     __strcmp_evex, __memcmp_evex_movbe, __memchr_evex, ...), in AT&T and
#     Intel syntax: no "(bad)", no instruction that starts where objdump's
#     does not, no text that differs (addresses as objdump names them, its
#     "<symbol>" left out, blanks folded);
#   - the same for aarch64's libc.so.6 (libc6:arm64) with
#     aarch64-linux-gnu-objdump, where the cross binutils are installed;
#   - recorded here: LC_ALL=C sort of lines with long shared prefixes
#     (memcmp); each libc function prof annotate --json lists matches
#     objdump, and its hottest line is `prof report --no-inline --sort sym,srcline`'s.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

command -v python3 > /dev/null 2>&1 || skip "no python3 to compare"
command -v objdump > /dev/null 2>&1 || skip "no objdump (binutils)"
disasm=$builddir/tests/tools/disasm
[ -x "$disasm" ] || fail "no $disasm (make check builds it)"

# cmp.py OBJDUMP OURS: "instructions bad misaligned differing", then examples
cat > cmp.py << 'PYEOF'
import re, sys
od = {}
named = re.compile(r'\b([0-9a-f]+) <[^>]*>')
for l in open(sys.argv[1], errors="replace"):
    m = re.match(r'^\s+([0-9a-f]+):\t(.*)$', l.rstrip('\n'))
    if m:
        od[int(m.group(1), 16)] = named.sub(lambda x: '0x' + x.group(1), m.group(2).rstrip())
n = bad = mis = diff = 0
ex = []
for l in open(sys.argv[2], errors="replace"):
    if l.startswith('#'):
        continue
    a, t = l.rstrip('\n').split(': ', 1)
    a = int(a, 16)
    n += 1
    if t == '(bad)':
        bad += 1
    if a not in od:
        mis += 1
        ex.append('%x: ours "%s", objdump has no instruction there' % (a, t))
    elif re.sub(r'\s+', ' ', od[a]) != re.sub(r'\s+', ' ', t):
        diff += 1
        ex.append('%x: ours "%s", objdump "%s"' % (a, t, od[a]))
print(n, bad, mis, diff)
for e in ex[:5]:
    print(e)
PYEOF

# check NAME LIB OBJDUMP NM [DEBUGFILE]: every function of LIB, both syntaxes
check() {
	_name=$1 _lib=$2 _od=$3 _nm=$4 _dbg=${5:-}
	{
		$_nm -D --defined-only "$_lib"
		[ -n "$_dbg" ] && $_nm --defined-only "$_dbg"
	} 2> /dev/null | awk '$2 ~ /^[tTiW]$/ { print $1 }' | sort -u > "$_name.addrs"
	nf=$(wc -l < "$_name.addrs")
	[ "$nf" -gt 500 ] || fail "$_name: only $nf functions listed in $_lib"
	for syn in att intel; do
		[ "$_name" = aarch64 ] && [ $syn = intel ] && continue
		opt=
		[ $syn = intel ] && opt="-M intel"
		# shellcheck disable=SC2086
		$_od -d $opt --no-show-raw-insn "$_lib" > "$_name.$syn.od" 2> "$_name.od.err" ||
			fail "$_od -d $_lib: $(head -n 3 "$_name.od.err")"
		# shellcheck disable=SC2086
		"$disasm" $opt "$_lib" < "$_name.addrs" > "$_name.$syn.ours" 2> "$_name.err" ||
			fail "$_name: disassembling $_lib: $(grep -m 3 '^# .*:' "$_name.$syn.ours") $(head -n 3 "$_name.err")"
		python3 cmp.py "$_name.$syn.od" "$_name.$syn.ours" > "$_name.$syn.cmp" ||
			fail "$_name: comparing: $(cat "$_name.$syn.cmp")"
		read -r n bad mis diff < "$_name.$syn.cmp"
		note "$_name $syn: $nf functions of $_lib, $n instructions: $bad (bad), $mis misaligned, $diff differ from objdump"
		[ "$n" -gt 50000 ] || fail "$_name: only $n instructions disassembled"
		[ "$bad" = 0 ] && [ "$mis" = 0 ] && [ "$diff" = 0 ] ||
			fail "$_name $syn: not what objdump shows: $(sed -n '2,6p' "$_name.$syn.cmp")"
	done
}

case $(uname -m) in
x86_64)
	lib=/lib/x86_64-linux-gnu/libc.so.6
	[ -f "$lib" ] || skip "no $lib"
	bid=$(readelf -n "$lib" 2> /dev/null | awk '/Build ID/ { print $3 }')
	dbg=
	if [ -n "$bid" ]; then
		dbg=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
		[ -f "$dbg" ] || dbg=
	fi
	[ -n "$dbg" ] || note "no libc6-dbg: only libc's exported functions are compared"
	check x86_64 "$lib" objdump nm "$dbg"
	if [ -n "$dbg" ]; then
		grep -q '^# __strcmp_evex$' x86_64.att.ours || fail "no __strcmp_evex among libc's functions"
	fi
	;;
*)
	note "not x86-64: libc.so.6 of $(uname -m) is not compared here"
	;;
esac
alib=/usr/lib/aarch64-linux-gnu/libc.so.6
if [ -f "$alib" ] && command -v aarch64-linux-gnu-objdump > /dev/null 2>&1; then
	check aarch64 "$alib" aarch64-linux-gnu-objdump aarch64-linux-gnu-nm
else
	note "no libc6:arm64 or aarch64-linux-gnu-objdump: aarch64 not compared"
fi

# --- recorded here: annotate --json on libc's functions, hot lines as the report's ---
if ! "$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2> probe.err; then
	note "cannot record here ($(head -n 1 probe.err)): annotate --json not compared"
	exit 0
fi
# 60,000 lines sharing a 200-byte prefix: C sort's memcmp carries it
python3 -c '
import random
r = random.Random(1)
p = "x" * 200
print("\n".join(p + "%08d" % r.randrange(10**8) for _ in range(60000)))' > lines.txt
# a sample every 50 us of its CPU time: sort takes some 10 ms of it on a fast machine
run_prof record -q -e cpu-clock -c 50000 -o sort.data -- env LC_ALL=C sort -o sorted.txt lines.txt
expect_rc 0 "prof record of sort"
run_prof annotate -i sort.data --json --dso libc.so.6 --percent-limit 0
expect_rc 0 "prof annotate --json of sort"
mv out sort.json
python3 - sort.json > sort.funcs << 'PYEOF' || fail "sort's JSON: $(cat sort.funcs)"
import json, sys
for f in json.load(open(sys.argv[1]))["events"][0]["functions"]:
    if f["samples"] >= 20 and not f["no_code"]:
        with open(f["name"] + ".ins", "w") as o:
            for i in f["instructions"]:
                o.write("%s: %s\n" % (i["address"][2:], i["text"]))
        top = f["lines"][0]
        print(f["name"], f["samples"], "%s:%d" % (top["file"].rsplit("/", 1)[-1], top["line"]))
PYEOF
[ -s sort.funcs ] || fail "sort: no libc function with 20 samples: $(head -c 300 sort.json)"
while read -r fn ns line; do
	cat "$fn.ins" >> json.ours
	# --no-inline: annotate counts every instruction of the symbol, the code
	# inlined in it too (as perf annotate does); the report names that code
	# "callee (inlined in fn)", a row --symbols fn leaves out (CI met
	# _IO_file_xsputn's hottest line in its inlined _IO_new_file_xsputn)
	run_prof report -i sort.data --stdio --no-inline --sort sym,srcline --symbols "$fn" -q -n
	expect_rc 0 "prof report --no-inline --sort sym,srcline --symbols $fn"
	# the report's hottest lines: those with the first row's samples (a tie is either)
	rline=$(awk '$1 ~ /%$/ { if (m == "") m = $2; if ($2 == m) print $NF }' out)
	note "sort: $fn ($ns samples): annotate's hottest line $line, the report's $(echo $rline)"
	echo "$rline" | grep -qx "$line" || fail "$fn: annotate's hottest line $line, the report's $rline"
done < sort.funcs
python3 cmp.py x86_64.att.od json.ours > json.cmp || fail "comparing the JSON: $(cat json.cmp)"
read -r n bad mis diff < json.cmp
note "sort: annotate --json's $n instructions: $bad (bad), $mis misaligned, $diff differ from objdump"
[ "$bad" = 0 ] && [ "$mis" = 0 ] && [ "$diff" = 0 ] || fail "annotate --json: $(sed -n '2,6p' json.cmp)"
