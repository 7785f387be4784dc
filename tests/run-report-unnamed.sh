#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Code of a file with no symbol there is one entry a file, "?? (file)", as
# hotspot's "??", with its addresses one level down: --sort sym,srcline
# lists them, and the page's function list opens the row to them. A run of
# such frames in one file is one frame of a stack (a -g chain through a
# stripped library is not a tower of addresses); a named frame between
# two keeps both.
#   - genprof's profile (kernel-free): every view's rows and stacks;
#     the page in Chromium, where there is one;
#   - recorded here: xz -g (Debian's liblzma has no symbols for its
#     internal functions), read by perf report on the same file: its "??"
#     holds exactly the samples perf spreads over its addresses;
#     prof annotate "?? (file)" decodes each instruction they hit as
#     objdump does from that address.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

G=$srcdir/tests/data/golden
gen_spec u << EOF
event cpu-clock
feature arch x86_64
comm 100 100 app
mmap 100 0x401000 $G/prof-golden/golden as /prof-golden/golden
mmap 100 0x501000 $G/prof-golden/golden as /prof-golden/stripped nobuildid
round
sample 0 1.000 100 100 0 1000000 x30 0x501116 0x501168 0x501188 main+0xf
sample 0 1.100 100 100 0 1000000 x20 0x501144 0x501172 0x501188 main+0xf
sample 0 1.200 100 100 0 1000000 x10 leaf_a+0x10 0x501188 mid+0xf 0x5011b0 main+0xf
sample 0 1.300 100 100 0 1000000 x40 leaf_b+0x15 mid+0xf main+0xf
round
EOF

# the flat view: one row for the file's unnamed code, its leaves' 60 samples
run_prof report -i u.data --symfs "$G" --sort dso,sym
expect_rc 0 "prof report --sort dso,sym"
grep -Eq '^ +50\.00% +50 +stripped +\[\.\] \?\? \(stripped\)$' out ||
	fail "the unnamed code of 'stripped' is not one row of 50 samples: $(grep '%' out)"
[ "$(grep -c 'stripped+0x' out)" = 0 ] || fail "an address of 'stripped' is a row of its own: $(grep '%' out)"
# its addresses one level down: each with its own samples, adding up to the row
run_prof report -i u.data --symfs "$G" --sort sym,srcline
expect_rc 0 "prof report --sort sym,srcline"
grep '?? (stripped)' out | awk '{ print $NF, $2 }' | sort > addrs
printf '%s\n' 'stripped+0x1116 30' 'stripped+0x1144 20' | sort | cmp -s - addrs ||
	fail "--sort sym,srcline does not list the addresses of ?? (stripped): $(cat addrs)"
# --children: the entry once a sample, however many of its frames the stack holds
run_prof report -i u.data --symfs "$G" --children --sort sym
expect_rc 0 "prof report --children"
grep -Eq '^ +60\.00% +50\.00% +50 +\[\.\] \?\? \(stripped\)$' out ||
	fail "--children: ?? (stripped) is not in 60% of the stacks, 50% its own: $(grep '?? ' out)"

# stacks: the run of three unnamed frames is one; a named frame between two keeps both
run_prof report -i u.data --symfs "$G" -F folded --no-comm
expect_rc 0 "prof report -F folded"
want='main;?? (stripped) 50
main;?? (stripped);mid;?? (stripped);leaf_a;step_[i] 10
main;mid;leaf_b 40'
sort out > got
echo "$want" | sort | cmp -s - got || fail "folded stacks: $(cat got)"
run_prof report -i u.data --symfs "$G" -g caller --sort sym
expect_rc 0 "prof report -g caller"
# the entry's block: its row, then its chains up to a blank line
sed -n '/% .*\[\.\] ?? (stripped)$/,/^$/p' out > block
[ "$(grep -c '^ *-*?? (stripped)$' block)" = 1 ] && grep -q '^ *---main$' block ||
	fail "-g caller: the 50 samples' chain is not main, then one ?? (stripped): $(cat block)"
run_prof report -i u.data --symfs "$G" --tree
expect_rc 0 "prof report --tree"
# main's callee: the stacks of 50 samples and of 10, its own the 50
grep -Eq '^ +60\.00% +50\.00% +\[\.\] \?\? \(stripped\)$' out ||
	fail "--tree: main's callee ?? (stripped) is not one node of 60%, 50% its own: $(grep stripped out)"

# the page: the row opens to the same addresses, and its source tab lists them
browser=$(command -v chromium || command -v chromium-browser)
if [ -n "$browser" ] && command -v node > /dev/null 2>&1 &&
	[ -d "$srcdir/tests/browser/node_modules/puppeteer-core" ]; then
	run_prof report -i u.data --symfs "$G" --format html -o u.html
	expect_rc 0 "prof report --format html"
	timeout 300 node "$srcdir/tests/browser/page.mjs" "$browser" u.html . \
		'open:?? (stripped)' 'source:?? (stripped)' > page.out 2> page.err ||
		fail "the page could not be driven: $(tail -n 3 page.out page.err)"
	grep '^error' page.out && fail "the page: $(grep -m1 '^error' page.out)"
	awk -F '\t' '$1 == "addr" { print $2, $4 }' page.out | sort > page.addrs
	cmp -s addrs page.addrs ||
		fail "the page's ?? (stripped) opens to $(cat page.addrs), not prof report's $(cat addrs)"
	awk -F '\t' '$1 == "src" { print $2 }' page.out | sort > page.src
	awk '{ print $1 }' addrs | cmp -s - page.src ||
		fail "the page's source tab for ?? (stripped) lists $(cat page.src)"
else
	note "the page not driven: no Chromium, node or tests/browser/node_modules (install-deps.sh)"
fi
note "genprof: ?? (stripped) one row of 50 samples, 2 addresses under it, one frame a run"

# --- recorded here: xz's liblzma, with perf report on the same file ---------------
if ! "$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1; then
	note "perf_event_open is refused: xz not recorded"
	exit 0
fi
command -v xz > /dev/null 2>&1 || skip "no xz (xz-utils) to record"
require_perf
head -c 400000 /dev/urandom | od -An -tx1 > in.txt
run_prof record -q -g -F 999 -o xz.data -- xz -6 -T1 -c in.txt
expect_rc 0 "prof record -g of xz"
run_prof report -i xz.data --sort dso,sym -n --percent-limit 0
expect_rc 0 "prof report --sort dso,sym of xz"
# prof: "?? (file)" rows, samples by file
awk '$1 ~ /%$/ && $4 == "[.]" && $5 == "??" { print $3, $2 }' out | sort > prof.unnamed
[ -s prof.unnamed ] || fail "xz: no ?? row: $(grep '%' out | sed -n 1,10p)"
run_prof convert -i xz.data -o xz.perf
expect_rc 0 "prof convert"
# perf: "Overhead  Samples  Shared Object  Symbol": its rows of bare addresses, summed by file
perf report -i xz.perf --stdio --no-children -g none --sort dso,sym -n --percent-limit 0 2> perf.err > perf.out ||
	fail "perf report: $(tail -3 perf.err)"
awk '$1 ~ /%$/ && $4 == "[.]" && $5 ~ /^0x[0-9a-f]+$/ { s[$3] += $2 }
	END { for (d in s) print d, s[d] }' perf.out | sort > perf.unnamed
# liblzma, with no symbol for its internal code, exactly; elsewhere (a
# sample or two in libc once, at load 20) perf may name a place prof does
# not, or the reverse: said, not judged here
lz=$(awk '$1 ~ /^liblzma/ { print $1; exit }' prof.unnamed)
[ -n "$lz" ] || fail "xz: no ?? row for liblzma: $(tr '\n' ' ' < prof.unnamed)"
[ "$(grep "^$lz " prof.unnamed)" = "$(grep "^$lz " perf.unnamed)" ] ||
	fail "xz: prof's ?? ($lz) is not perf's unnamed rows of it summed: $(grep "^$lz " prof.unnamed), perf $(grep "^$lz " perf.unnamed)"
cmp -s prof.unnamed perf.unnamed ||
	note "xz: outside liblzma, prof's ?? rows ($(tr '\n' ' ' < prof.unnamed)) and perf's unnamed rows ($(tr '\n' ' ' < perf.unnamed)) differ"
rows=$(awk '$1 ~ /%$/ && $5 ~ /^0x/' perf.out | wc -l)
# prof annotate of the hottest "??": its samples, each instruction they hit
# decoded where it is, as objdump decodes from that address
set -- $(sort -k2 -n -r prof.unnamed | sed -n 1p)
lib=$1
want_s=$2
run_prof annotate -i xz.data "?? ($lib)"
expect_rc 0 "prof annotate '?? ($lib)'"
grep -q "^?? ($lib)  \[$lib\]  cpu-clock: $want_s samples" out ||
	fail "annotate '?? ($lib)' does not hold the report's $want_s samples: $(sed -n 2p out)"
path=$(awk -v l="$lib" '$0 ~ "instructions of .*/" l " its samples hit" { for (i = 1; i <= NF; i++) if ($i ~ "/" l "$") print $i; exit }' out)
[ -f "$path" ] || fail "annotate '?? ($lib)' names no file: $(grep instructions out)"
annot_hot 5 > hot.insns
[ "$(wc -l < hot.insns)" -ge 3 ] || fail "annotate '?? ($lib)' lists $(wc -l < hot.insns) sampled instructions"
while read -r pct a text; do
	o=$(objdump_at "$path" "$a")
	[ "$o" = "$text" ] || fail "annotate '?? ($lib)' at $a ($pct%): '$text', objdump: '$o'"
done < hot.insns
run_prof report -i xz.data -F folded --no-comm
expect_rc 0 "prof report -F folded of xz"
awk '{ s = $0; sub(/ [0-9]+$/, "", s); k = split(s, f, ";")
	for (i = 2; i <= k; i++) if (f[i] ~ /^\?\? / && f[i] == f[i - 1]) { print; exit 1 } }' out > twice ||
	fail "xz: a stack holds one file's ?? twice in a row: $(head -c 300 twice)"
note "xz: $(tr '\n' ' ' < prof.unnamed)samples in ?? rows, as perf's $rows rows of addresses add up; annotate's hottest instructions as objdump's: $(awk '{ printf "%s %s%%; ", $2, $1 }' hot.insns)"
exit 0
