#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Crafted files that once broke the reader or the report (tests/hostile/
# craft.c makes them): each gives a report or one clear error, in bounded
# time and memory, with the property the bug broke checked. Needs no
# perf_event_open.
# before test-subr.sh, which reads it to bound the whole test
test_timeout=1200
. "$srcdir/tests/test-subr.sh"

CRAFT=$builddir/tests/hostile/craft
[ -x "$CRAFT" ] || fail "no $CRAFT (make check builds it)"
memory=$(peak_memory_measured)

# run_report NAME [ARGS]: prof report --children of NAME.data, bounded in
# time (a hang fails), its peak KiB in $kib when measured.
run_report() {
	name=$1
	shift
	prof_timed "$name" 300 report -i "$name.data" "$@"
	[ "$rc" = 124 ] && fail "$name: prof report hung"
	case $rc in 0|1) ;; *) fail "$name: prof report exited $rc" ;; esac
}

# under_mib MAX: the last run's peak memory is under MAX MiB.
under_mib() {
	[ -z "$memory" ] && return 0
	[ "$kib" -lt $(($1 * 1024)) ] || fail "$name: $((kib / 1024)) MiB, over $1 MiB"
	note "$name: peak $((kib / 1024)) MiB"
}

# 1. Samples waiting for libc's DWARF, then 300 more events: under ASan a
#    use-after-free once; the samples must keep their event.
"$CRAFT" attr-after-park || fail "craft attr-after-park"
run_report attr-after-park --sort comm
expect_rc 0 "attr-after-park"
n=$(awk '$NF == "parked" { print $2 }' out)
[ "$n" = 3000 ] || fail "attr-after-park: $n samples of 'parked', not 3000"
grep -q 'task-clock' out && fail "attr-after-park: samples moved to a later event"

# 2. A feature whose record would be 65536 bytes: its u16 size was 0 and
#    the reader looped, writing gigabytes.
"$CRAFT" feature-wrap || fail "craft feature-wrap"
timeout -k 2 300 "$PROF" script -i feature-wrap.data > out 2> err
rc=$?
[ "$rc" = 124 ] && fail "feature-wrap: prof script hung"
expect_rc 0 "feature-wrap"
[ "$(grep -c '^SAMPLE' out)" = 10 ] || fail "feature-wrap: not the 10 samples"
[ "$(wc -l < out)" -lt 100 ] || fail "feature-wrap: $(wc -l < out) lines of output"

# 3. 50 events of 8000 ids each (file mode): each sample in its event.
"$CRAFT" ids || fail "craft ids"
run_report ids --sort comm
expect_rc 0 "ids"
events=$(grep -c '^# event:' out)
[ "$events" = 50 ] || fail "ids: $events events reported, not 50"
grep -A 12 '^# event: *task-clock' out | grep -q ' 2000 ' ||
	fail "ids: task-clock does not have its 2000 samples"

# ... and 7000 events of one sample each (1.4 MB): each event's tables once
#     cost 70-140 KiB before it held anything (840 MiB for pprof).
"$CRAFT" ids 7000 1 1 || fail "craft ids 7000"
for f in text pprof speedscope firefox html; do
	run_report ids --format $f -o ids.$f
	expect_rc 0 "ids 7000 ($f)"
	under_mib 160
done

# ... and id sections that overlap, naming gigabytes from 1 MB: refused.
"$CRAFT" ids-overlap || fail "craft ids-overlap"
run_report ids-overlap
expect_rc 1 "ids-overlap"
grep -q "^prof: 'ids-overlap.data' is corrupt" err || fail "ids-overlap: $(cat err)"
under_mib 64

# 4. File-mode AUXTRACE: its payload is skipped, not read as records.
"$CRAFT" auxtrace || fail "craft auxtrace"
"$PROF" script -i auxtrace.data > out 2> err
rc=$?
expect_rc 0 "auxtrace"
[ "$(grep -c '^SAMPLE' out)" = 20 ] || fail "auxtrace: $(grep -c '^SAMPLE' out) samples, not 20"
[ -s err ] && fail "auxtrace: $(cat err)"

# 5. MMAP2 as Linux 3.12-3.15 wrote it (RHEL 7): no prot and flags.
"$CRAFT" mmap2-old || fail "craft mmap2-old"
"$PROF" script -i mmap2-old.data > out 2> err
rc=$?
expect_rc 0 "mmap2-old"
grep -q '^MMAP2 .* file=/usr/lib/x86_64-linux-gnu/libc.so.6$' out ||
	fail "mmap2-old: the file name is not read right: $(grep MMAP2 out)"
run_report mmap2-old --sort dso
grep -q ' libc.so.6$' out || fail "mmap2-old: the samples are not in libc.so.6"

# ... --symfs falls back to the host's path; --strict-symfs reads nothing
#     outside it, not even through a link that leads out.
mkdir -p empty link/usr/lib/x86_64-linux-gnu
ln -s /usr/lib/x86_64-linux-gnu/libc.so.6 link/usr/lib/x86_64-linux-gnu/libc.so.6
for how in "empty" "empty --strict-symfs" "link" "link --strict-symfs"; do
	# shellcheck disable=SC2086
	run_report mmap2-old --sort sym --symfs $how
	expect_rc 0 "mmap2-old --symfs $how"
	case $how in
	*strict*)
		grep -q '100.00%.*\[\.\] ?? (libc\.so\.6)$' out || fail "--symfs $how: libc was read from outside"
		grep -q "cannot open $PWD/$(echo "$how" | cut -d' ' -f1)/usr/lib/x86_64-linux-gnu/libc.so.6" err ||
			fail "--symfs $how: no warning: $(cat err)"
		;;
	*) grep -q '\[\.\] ?? (libc\.so\.6)' out && fail "--symfs $how: libc was not read" ;;
	esac
done

# 6. A zstd bomb: frames far over the COMPRESSED feature's mmap_len.
"$CRAFT" bomb || fail "craft bomb"
run_report bomb
expect_rc 0 "bomb"
grep -q "damaged compressed records skipped" err || fail "bomb: no warning: $(cat err)"
under_mib 128

# ... and 192 MiB of records without a FINISHED_ROUND: a bounded queue.
"$CRAFT" norounds || fail "craft norounds"
run_report norounds
expect_rc 0 "norounds"
grep -q "without FINISHED_ROUND" err || fail "norounds: no warning: $(cat err)"
n=$(awk '/^# samples:/ { print $3 }' out)
[ "$n" = 5033164 ] || fail "norounds: $n samples, not 5033164"
under_mib 256

# ... and the most distinct content under 1 MB: 200,000 samples at
#     addresses of their own, each with a call chain of its own.
"$CRAFT" distinct 200000 3 || fail "craft distinct"
[ "$(wc -c < distinct.data)" -lt 1048576 ] || fail "distinct.data is over 1 MiB"
for how in "-g caller" "--children" "--format pprof -o distinct.pb.gz" "--format json -o distinct.json"; do
	# shellcheck disable=SC2086
	run_report distinct $how
	expect_rc 0 "distinct ($how)"
	under_mib 256
done

# ... and 36 million samples in 130 KB (no run of one stack to merge): the
#     exports that keep each sample (the page, the Firefox Profiler's and
#     speedscope's files) keep 1 in a few, each weighing those it stands
#     for, say so, and stay bounded (they took 2 GB).
#     Under the sanitizers, which measure no memory, a fifth of it (6
#     rounds, 7.5 million samples: still thinned, at 1 in 8): the same
#     code, at a fifth of the 60 s it took there.
rounds=30
sanitized && rounds=6
"$CRAFT" many $rounds || fail "craft many"
[ "$(wc -c < many.data)" -lt 1048576 ] || fail "many.data is over 1 MiB"
for how in "--format html -o many.html" "--format firefox -o many.json" "--format speedscope -o many.ss"; do
	# shellcheck disable=SC2086
	run_report many $how
	expect_rc 0 "many ($how)"
	under_mib 256
	grep -q "^prof: warning: .*cpu-clock has $((1258290 * rounds)) samples, more than .* keeps one by one" err ||
		fail "many ($how): the thinning is not said: $(cat err)"
done
# ... and 8,000 threads of 8,100-frame stacks in 270 KB (65 million frames):
#     the call trees stop at their node budget and the --children histogram
#     at its entries', each said, bounded (they took 574 MB and 1.4 GB).
"$CRAFT" threads || fail "craft threads"
[ "$(wc -c < threads.data)" -lt 1048576 ] || fail "threads.data is over 1 MiB"
for how in "-g" "--format folded -o threads.folded" "--format svg -o threads.svg" \
	"--format json -o threads.json" "--children"; do
	# shellcheck disable=SC2086
	run_report threads $how
	expect_rc 0 "threads ($how)"
	under_mib 256
	grep -q "^prof: warning: the \(call trees\|report\) reached \(its\|their\) budget" err ||
		fail "threads ($how): the budget is not said: $(cat err)"
done
# the self column stays whole: every thread's own sample is its row
run_report threads --children
n=$(grep -c ' t[0-9]* .*0x100010$' out)
[ "$n" = 8000 ] || fail "threads --children: $n of 8000 threads' own rows"

# 7. 80,000 maps in random order: the maps were copied at every MMAP.
"$CRAFT" maps 80000 || fail "craft maps"
run_report maps --sort dso
expect_rc 0 "maps"
grep -q '100.00%.* libc.so.6$' out || fail "maps: the samples are not in libc.so.6"

# ... and 20,000 files, none of them here: 20 warnings and a count, fast
#     (every one was printed, each sorted in among the others). By
#     function: a view by object alone opens none of them, and says nothing.
"$CRAFT" missing 20000 || fail "craft missing"
run_report missing --sort dso
expect_rc 0 "missing --sort dso"
grep -q '^prof: warning: cannot open' err && fail "missing: --sort dso opened the files: $(head -n 1 err)"
run_report missing --sort dso,sym
expect_rc 0 "missing"
[ "$(grep -c '^prof: warning: cannot open' err)" = 20 ] || fail "missing: $(grep -c . err) warnings"
grep -q '^prof: warning: and 19980 more files like these resolve nothing$' err ||
	fail "missing: no count of the rest: $(tail -n 1 err)"

# ... and a process of 6000 maps that forks 5000 children, each mapping
#     one more file and sampled with a dwarf stack: every fork copied the
#     maps (1.9 GB), and the unwinder copied them again per process (1.2 GB).
"$CRAFT" forks 6000 5000 2 || fail "craft forks"
run_report forks --children
expect_rc 0 "forks"
n=$(awk '/^# samples:/ { print $3 }' out)
[ "$n" = 5000 ] || fail "forks: $n samples, not 5000"
under_mib 128

# ... and dwarf samples whose 64 KiB stack copies are all return
#     addresses (38 KB compressed for 4000 of them): each unwinds to the
#     frame limit, in bounded time and memory, and the header says why.
fn=$(nm -D /usr/lib/x86_64-linux-gnu/libc.so.6 2> /dev/null | awk '$3 ~ /^__getpid@/ { print $1; exit }')
if [ -n "$fn" ]; then
	"$CRAFT" dwarfbomb 4000 "$fn" || fail "craft dwarfbomb"
	run_report dwarfbomb --children
	expect_rc 0 "dwarfbomb"
	grep -q '^# stacks: .*(100%, too deep)' out || fail "dwarfbomb: $(grep '^# stacks' out)"
	under_mib 160
else
	note "no nm or no __getpid in libc: the dwarf bomb is not run"
fi

# 8. Commands that are not UTF-8: every format stays valid.
"$CRAFT" utf8 || fail "craft utf8"
run_report utf8 --format svg -o utf8.svg
expect_rc 0 "utf8 svg"
xmllint --noout utf8.svg 2> xml.err || fail "utf8: the SVG is not well-formed: $(head -3 xml.err)"
for f in json folded speedscope firefox; do
	run_report utf8 --format $f -o utf8.$f
	expect_rc 0 "utf8 $f"
done
python3 - utf8.json utf8.folded utf8.speedscope utf8.firefox << 'EOF' || fail "utf8: invalid UTF-8 in the JSON, folded, speedscope or firefox output"
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
names = [n["name"] for n in doc["events"][0]["tree"]]
assert any(n == "ok-\u00e9\u20ac" for n in names), names   # valid names stay as they are
assert any("\ufffd" in n for n in names), names
open(sys.argv[2], "rb").read().decode("utf-8", "strict")
ss = json.loads(open(sys.argv[3], "rb").read().decode("utf-8", "strict"))
threads = [p["name"] for p in ss["profiles"]]
assert any(n.startswith("ok-\u00e9\u20ac ") for n in threads), threads
assert any("\ufffd" in n for n in threads), threads
assert all(c >= " " for n in threads for c in n), threads
ff = json.loads(open(sys.argv[4], "rb").read().decode("utf-8", "strict"))
threads = [t["name"] for t in ff["threads"]]
assert any(n == "ok-\u00e9\u20ac" for n in threads), threads
assert any("\ufffd" in n for n in threads), threads
assert all(c >= " " for n in threads for c in n), threads
EOF

# ... and names that hold terminal escape sequences: none reaches a terminal.
"$CRAFT" escape || fail "craft escape"
esc=$(printf '\033')
for how in "report --sort comm,dso" "report -g caller" "script" "script -S"; do
	# shellcheck disable=SC2086
	"$PROF" $how -i escape.data > out 2> err
	rc=$?
	expect_rc 0 "escape: prof $how"
	grep -q "$esc" out err && fail "escape: prof $how printed an escape sequence"
done
grep -q '?\[2J?\[31mx' out || fail "escape: the command's name is not shown, made safe: $(head -3 out)"

# 9. 500-frame stacks: the JSON tree is flat, so jq and Python read it.
"$CRAFT" deep 500 || fail "craft deep"
run_report deep --format json -o deep.json
expect_rc 0 "deep"
python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["events"][0]["tree"]; assert len(t) > 500' \
	deep.json || fail "deep: Python cannot read the JSON"
if command -v jq > /dev/null 2>&1; then
	n=$(jq '.events[0].tree | length' deep.json) || fail "deep: jq cannot read the JSON"
	[ "$n" -gt 500 ] || fail "deep: jq finds $n nodes"
else
	note "no jq: the JSON was read with Python only"
fi

# 10. A FIFO at a recorded path, with a dwarf stack: no hang.
mkfifo "$PWD/lib.so" || fail "mkfifo"
"$CRAFT" fifo "$PWD/lib.so" || fail "craft fifo"
run_report fifo --children
expect_rc 0 "fifo"
grep -q "not a regular file" err || fail "fifo: no warning: $(cat err)"

# The idle task has no COMM: perf calls it swapper, and so does prof.
"$CRAFT" swapper || fail "craft swapper"
run_report swapper --sort comm
expect_rc 0 "swapper"
grep -q '100.00%.* swapper$' out || fail "swapper: pid 0 is not named swapper: $(grep -v '^#' out)"

# A profile of another kernel whose _text was where this one's is: its
# kernel frames must not take this kernel's names; they are placed by its
# own maps, as perf places them: the kernel, a module, or [unknown].
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
func=$(awk '$3 == "schedule" { print $1; exit }' /proc/kallsyms)
if [ -n "$text" ] && [ -n "$func" ] && [ "$text" != 0000000000000000 ]; then
	"$CRAFT" otherkernel "$text" "$func" || fail "craft otherkernel"
	run_report otherkernel --sort dso,sym
	expect_rc 0 "otherkernel"
	grep -q 'schedule' out && fail "otherkernel: this kernel's names for another's frames"
	grep -q "recorded on another kernel (2.6.32-foreign" err || fail "otherkernel: no warning: $(cat err)"
	for d in '\[kernel.kallsyms\]' '\[nvidia_drm\]' '\[unknown\]'; do
		grep -q "33.33%.* $d .*\[unknown\]" out || fail "otherkernel: no third in $d: $(grep -v '^#' out)"
	done
else
	note "kallsyms hides kernel addresses here: the other-kernel case is not run"
fi

# 11. One flipped bit in a compressed frame of a real profile: that frame
#     is skipped, with one warning, and the rest reported.
cp "$srcdir/tests/data/fixtures/prof-z.data" flip.data
chmod u+w flip.data
total=$("$PROF" script -i flip.data | grep -c '^SAMPLE')
size=$(wc -c < flip.data)
at=$((size / 2))
printf '\377' | dd of=flip.data bs=1 seek=$at conv=notrunc status=none
"$PROF" script -i flip.data > out 2> err
rc=$?
expect_rc 0 "flip"
grep -q "1 damaged compressed record skipped" err || fail "flip: $(cat err)"
n=$(grep -c '^SAMPLE' out)
# the fixture is small: a frame holds up to half of its samples
[ "$n" -ge $((total / 4)) ] && [ "$n" -lt "$total" ] ||
	fail "flip: $n samples of $total left (one frame's worth should go)"
note "flip at $at: $n of $total samples kept"
run_report flip
expect_rc 0 "flip report"
grep -q "damaged compressed record" err || fail "flip report: no warning"

note "every crafted file: a report or one error, bounded"
