#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -g chains that the kernel's walk of frame pointers took through a
# function built without them: the return addresses after that are data
# (a stack address, 0x2e67696200632d00). prof ends the chain at the first
# return address in no mapping of the process and counts such samples in
# the header; the interrupted pc itself (the first user address) is kept
# wherever it is, and a process with no maps at all keeps its chains.
#   - genprof's profile (kernel-free): the frames, the header's count,
#     and folded, pprof and speedscope without a hex frame;
#   - recorded here: xz (Debian's, built without frame pointers) with -g:
#     no more than 5% of the samples end in an unnamed frame outside a
#     file (perf keeps them: its share is noted beside ours).
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

G=$srcdir/tests/data/golden
gen_spec g << EOF
event cpu-clock
feature arch x86_64
comm 100 100 golden
mmap 100 0x401000 $G/prof-golden/golden as /prof-golden/golden
comm 300 300 nomaps
round
sample 0 1.000 100 100 0 1000000 x30 leaf_a+0x10 mid+0xf main+0xf
sample 0 1.100 100 100 0 1000000 x50 leaf_b+0x15 mid+0xf 0x7ffd6b29f9be 0x2e67696200632d00 0x401116
sample 0 1.200 100 100 0 1000000 x10 0x7f0000001000 mid+0xf main+0xf
sample 0 1.300 300 300 0 1000000 x10 0x7f0000002000 0x7f0000003000
round
EOF
run_prof report -i g.data --symfs "$G" -F folded
expect_rc 0 "prof report -F folded"
mv out g.folded
# (leaf_a+0x10 is in step, inlined; folded names a frame in no map [unknown])
want='golden;main;mid;leaf_a;step_[i] 30
golden;mid;leaf_b 50
golden;main;mid;[unknown] 10
nomaps;[unknown];[unknown] 10'
sort g.folded > got.folded
echo "$want" | sort | cmp -s - got.folded ||
	fail "the chains through garbage are not cut where it starts: $(cat got.folded)"
run_prof report -i g.data --symfs "$G" --stdio -g
expect_rc 0 "prof report -g"
grep -q '^# chains:   50 of 100 samples (50.0%) end where frame pointers led to no code' out ||
	fail "the header does not count the cut chains: $(grep '^#' out)"
one=$(grep -c '0x2e67696200632d00\|0x7ffd6b29f9be' out)
[ "$one" = 0 ] || fail "a garbage address is in the report: $(grep -m 2 '0x2e67\|0x7ffd' out)"
for f in pprof speedscope firefox; do
	run_prof report -i g.data --symfs "$G" -F $f -o g.$f
	expect_rc 0 "prof report -F $f"
	if LC_ALL=C grep -a -q '0x2e67696200632d00\|0x7ffd6b29f9be\|7ffd6b29f9be' "g.$f"; then
		fail "-F $f shows a garbage address"
	fi
done
note "genprof: 50 of 100 chains end at the stack address; the interrupted pc outside any map kept"

# --- recorded here: xz, built without frame pointers --------------------------------
if ! "$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1; then
	note "perf_event_open is refused: xz not recorded"
	exit 0
fi
command -v xz > /dev/null 2>&1 || skip "no xz (xz-utils) to record"
command -v python3 > /dev/null 2>&1 || skip "no python3 to write xz's input"
# 2.4 MB of text with some repetition: xz's match finder and encoder, 2-3 s of CPU
python3 -c '
import random
r = random.Random(7)
words = ["".join(r.choice("abcdefghij") for _ in range(r.randrange(2, 9))) for _ in range(3000)]
print(" ".join(r.choice(words) for _ in range(400000)))' > in.txt
run_prof record -q -g -F 999 -o xz.data -- xz -6 -T1 -c in.txt
expect_rc 0 "prof record -g of xz"
run_prof report -i xz.data -F folded
expect_rc 0 "prof report -F folded of xz"
mv out xz.folded
# an unnamed frame outside any file: [unknown] (no map), or a bare address
share=$(awk '{ n = $NF; t += n; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, f, ";");
	for (i = 2; i <= k; i++) if (f[i] == "[unknown]" || f[i] ~ /^0x[0-9a-f]+$/) { b += n; break } }
	END { printf "%.1f %d\n", t ? 100 * b / t : 0, t }' xz.folded)
set -- $share
[ "$2" -gt 200 ] || fail "xz: only $2 samples to judge by"
run_prof report -i xz.data --stdio -g
cut=$(awk '/^# chains: .* end where frame pointers led to no code/ { print $3; exit }' out)
ptxt=
if command -v perf > /dev/null 2>&1; then
	run_prof convert -i xz.data -o xz.perf
	# perf: a sample's frames, one a line ("ip (dso)"), a blank line after each
	if command perf script -i xz.perf -F ip,dso 2> /dev/null > perf.script; then
		pshare=$(awk 'NF == 0 { if (n) { t++; if (bad) b++ } n = 0; bad = 0; next }
			{ n++; if (n > 1 && $2 == "([unknown])") bad = 1 }
			END { if (n) { t++; if (bad) b++ } printf "%.1f", t ? 100 * b / t : 0 }' perf.script)
		ptxt="; perf script of the same file: $pshare% with a caller in no object"
	fi
fi
note "xz -g: $1% of $2 samples end in an unnamed frame outside a file; ${cut:-0} chains cut at garbage$ptxt"
expect_range "xz: the share of samples with an unnamed frame outside a file" "$1" 0 5
[ -n "$cut" ] || fail "xz: the header does not say that chains were cut: $(grep '^# chains' out)"
