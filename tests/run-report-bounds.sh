#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Files crafted against the parsers of carried JIT code, off-CPU
# switches, build ids, tracepoint formats and names (tests/hostile/craft
# makes them, each under 1 MB): report, diff, script, archive and convert
# stay within 256 MiB and finish (a quadratic cost hangs), read no more
# than the file carries, believe no trailer that points nowhere, and every
# text they print is valid UTF-8 with no control byte from the file.
# Needs no perf_event_open.
test_timeout=600
. "$srcdir/tests/test-subr.sh"

CRAFT=$builddir/tests/hostile/craft
[ -x "$CRAFT" ] || fail "no $CRAFT (make check builds it)"
memory=$(peak_memory_measured)

# bounded NAME PROF-ARGS...: prof PROF-ARGS, which must finish in 120 s and
# exit 0 (a quadratic cost on these files took minutes to hours), with
# its peak memory under 256 MiB where measured; output in out, err.
bounded() {
	name=$1
	shift
	prof_timed "$name" 300 "$@"
	[ "$rc" = 124 ] && fail "$name: prof $* did not finish in 120 s"
	expect_rc 0 "$name: prof $*"
	if [ -n "$memory" ]; then
		note "$name: prof $1: peak $((kib / 1024)) MiB"
		[ "$kib" -lt $((256 * 1024)) ] || fail "$name: prof $*: $((kib / 1024)) MiB, over 256 MiB"
	fi
}

# small NAME: the crafted file is under 1 MB, as the bound is stated for
small() {
	s=$(wc -c < "$1.data")
	note "$1: $s bytes"
	[ "$s" -lt 1000000 ] || fail "$1.data is $s bytes, not under 1 MB"
}

# clean FILE...: valid UTF-8, no control character but newline and tab
# (C0, DEL, C1)
clean() {
	python3 - "$@" << 'EOF'
import sys
for path in sys.argv[1:]:
    text = open(path, "rb").read().decode("utf-8", "strict")
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0]
    assert not bad, "%s: control characters %r" % (path, bad[:5])
EOF
}

# 1. One carried perf map that never ends: 2 GiB of chunks in 400 KB.
#    It took 2 GB and 8 s; convert wrote 2 GB of it.
"$CRAFT" carried-bomb || fail "craft carried-bomb"
small carried-bomb
bounded carried-bomb report -i carried-bomb.data
[ "$(grep -c 'more than a profile of this size carries' err)" = 1 ] ||
	fail "carried-bomb: not one warning of what was left out: $(head -3 err)"
bounded carried-bomb diff carried-bomb.data carried-bomb.data
bounded carried-bomb convert -i carried-bomb.data -o cb.perf
s=$(wc -c < cb.perf)
note "carried-bomb: converted to $s bytes"
[ "$s" -lt $((16 << 20)) ] || fail "carried-bomb: convert wrote $s bytes"
grep -q "carries more JIT code than a profile of its size holds" err ||
	fail "carried-bomb: convert says nothing of what it left out: $(cat err)"

# 2. 300,000 whole carried perf maps of a line each: each cost a table of
#    256 entries (3 GB). Those within the bound still name their code.
"$CRAFT" carried-many || fail "craft carried-many"
small carried-many
bounded carried-many report -i carried-many.data --sort comm,sym
grep -q ' jitproc  *\[\.\] jitted_f$' out || fail "carried-many: the first process's JIT code is not named: $(cat out)"

# 3. 8000 threads off the CPU to the end, each with a switch-out sample of
#    a 64,000-byte stack: each was kept (550 MB).
"$CRAFT" offcpu-threads || fail "craft offcpu-threads"
small offcpu-threads
bounded offcpu-threads report -i offcpu-threads.data
bounded offcpu-threads diff offcpu-threads.data offcpu-threads.data

# 4. 240,000 build ids for one path: each was looked for among all the
#    others (at 60,000: 11 s to report, 33 s to archive).
"$CRAFT" buildids 240000 || fail "craft buildids"
bounded buildids report -i buildids.data --sort dso
n=$(awk '$1 ~ /%$/ { s += $2 } END { print s + 0 }' out)
[ "$n" = 240000 ] || fail "buildids: $n samples reported, not 240000"
bounded buildids archive -i buildids.data -o buildids.tar
grep -q 'of 240000 build ids' err ||
	fail "buildids: archive does not count the build ids: $(cat err)"

# 5. 80,000 threads for --wall: its per-thread table grew by one entry at a
#    time (over 120 s under ASan at 100,000).
"$CRAFT" wall-threads 80000 || fail "craft wall-threads"
small wall-threads
bounded wall-threads report -i wall-threads.data --wall --sort comm
n=$(grep -c '^# thread: *100/' out)
grep -q "^# thread: *and $((80000 - n)) more$" out ||
	fail "wall-threads: the header does not count 80000 threads: $(grep '^# thread' out | tail -2)"

# 6. A trailer that points at itself: not believed, said, and the JIT
#    code carried where it stands names the samples.
"$CRAFT" self-trailer || fail "craft self-trailer"
bounded self-trailer report -i self-trailer.data --sort dso,sym
grep -q 'points at no such records' err || fail "self-trailer: no warning: $(cat err)"
grep -q '\[JIT\] tid 100 *\[\.\] carried_f$' out || fail "self-trailer: the JIT code is not named: $(cat out)"
bounded self-trailer convert -i self-trailer.data -o self-trailer.perf
bounded self-trailer script -i self-trailer.perf
[ "$(grep -c '^PROF_JIT ' out)" = 1 ] || fail "self-trailer: convert kept the carried map not once: $(grep PROF_JIT out)"

# 7. Tracepoint system, event and field names with a terminal's escapes
#    and bytes that are not UTF-8: the report's header, prof script and a
#    diff's error show them made safe.
"$CRAFT" tp-escape || fail "craft tp-escape"
bounded tp-escape report -i tp-escape.data
grep -q '^# event: *sys?\[31m.*:ev?\]0;pwned?' out || fail "tp-escape: the event's name is not shown: $(head -3 out)"
cp out tp-report.out
bounded tp-escape script -i tp-escape.data
grep -q ' f?=0$' out || fail "tp-escape: prof script shows no field: $(grep SAMPLE out)"
cp out tp-script.out
"$PROF" diff --event nosuch tp-escape.data tp-escape.data > out 2> tp-diff.err
rc=$?
expect_rc 2 "tp-escape: prof diff --event nosuch"
grep -q "has no event 'nosuch'; it has sys" tp-diff.err || fail "tp-escape: diff's error: $(cat tp-diff.err)"
clean tp-report.out tp-script.out tp-diff.err || fail "tp-escape: output that is not clean text"

# 8. Names that are not UTF-8 (a comm cut mid-character, a path): every
#    text output is valid, as JSON, SVG and folded already were.
"$CRAFT" utf8 || fail "craft utf8"
i=0
for how in "report" "report -g caller" "report --tree" "report --sort comm,dso,sym -g callee" \
	"script" "script -S" "diff utf8.data utf8.data" "diff -g caller utf8.data utf8.data"; do
	i=$((i + 1))
	case $how in
	diff*) set -- $how ;;
	*) set -- $how -i utf8.data ;;
	esac
	bounded utf8 "$@"
	cp out utf8-$i.out
	cp err utf8-$i.err
	clean utf8-$i.out utf8-$i.err || fail "utf8: prof $how: output that is not clean text"
done
grep -q "ok-$(printf '\303\251\342\202\254')" utf8-1.out || fail "utf8: a valid name is not kept as it is: $(cat utf8-1.out)"
grep -q "$(printf '\357\277\275')" utf8-1.out || fail "utf8: no U+FFFD for the bytes that are not UTF-8: $(cat utf8-1.out)"
# 9. A -g chain whose user part ends in 0 and 0x1000 (the kernel's frame
#    pointer walk ran off the stack): those are no frames (curl's off-CPU
#    stacks started at a frame 0x1000).
"$CRAFT" chain-zero || fail "craft chain-zero"
bounded chain-zero report -i chain-zero.data -F folded
grep -q -e '\[unknown\]' -e '0x1000' -e '+0x0\b' out && fail "chain-zero: frames from page zero: $(cat out)"
grep -q '^chain;[^;]' out || fail "chain-zero: no stack: $(cat out)"
# 10. 5000 functions of JIT code, a sample each, all called from one:
#     each 0.24 px wide in the flame graph, too narrow to see; drawn as
#     one frame, the count said (a JVM's graph was 9 MB of 24,000 frames,
#     most of them so).
"$CRAFT" jit-many 5000 || fail "craft jit-many"
bounded jit-many report -i jit-many.data -F svg -o jit-many.svg
xmllint --noout jit-many.svg 2> xml.err || fail "jit-many: the SVG is not well-formed: $(head -3 xml.err)"
n=$(grep -c '<g class="f"' jit-many.svg)
[ "$n" -lt 10 ] || fail "jit-many: $n frames drawn"
grep -q '<text id="narrow"[^>]* data-merged="5000" data-left-out="0">5000 frames under 0.5 px drawn merged' jit-many.svg ||
	fail "jit-many: the SVG does not say what it merged: $(grep -o '<text id="narrow".*' jit-many.svg)"
grep -q 'data-k="merged" data-n="\[5000 frames under 0.5 px\]"' jit-many.svg ||
	fail "jit-many: no merged frame"
grep -q 'data-n="caller0"' jit-many.svg || fail "jit-many: the caller is not drawn"
exit 0
