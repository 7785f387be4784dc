#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The answers kept across reports (BUILDID.aV in the debug cache): a
# report that made them and one that reads them print alike, and alike
# with none (PROF_NO_CACHE); the one that reads them opens neither the
# program nor its DWARF (strace); each set of options that shapes an
# answer has its own file; an address the file lacks is resolved and
# added; the cache's folder is read once a report, not once a file
# written; a program changed in place (a new ctime) is opened again and
# its answers made again; a cut or changed file is never believed, only
# replaced; --symfs keeps none.
# Profiles from genprof: needs no perf_event_open.
. "$srcdir/tests/test-subr.sh"

genprof=$builddir/tests/golden/genprof
cc -O1 -g -fno-omit-frame-pointer -o inl "$srcdir/tests/workloads/inline.c" \
	-I"$srcdir/tests/workloads" 2> cc.err || fail "cc: $(cat cc.err)"
bid=$(readelf -n inl | awk '/Build ID/ { print $3; exit }')
[ -n "$bid" ] || skip "cc gave no build id (no --build-id by default here)"
prog=$PWD/inl

# every byte of outer() (most of them inl_leaf's, inlined); with main too, more addresses
outer_spec inl "$prog" > inl.spec
{
	cat inl.spec
	printf 'sample 0 2.0 100 100 0 1000000 main+0x%x\n' 0 1 2 3 4
} > more.spec
"$genprof" inl.spec inl.data 2> gen.err || fail "genprof: $(cat gen.err)"
"$genprof" more.spec more.data 2> gen.err || fail "genprof: $(cat gen.err)"

XDG_CACHE_HOME=$tmpdir/c
export XDG_CACHE_HOME
dir=$tmpdir/c/prof/debug
# the file of the options --sort sym,srcline uses: inline frames 1, lines 2, demangled 4
ans=$dir/$bid.a7
report() {
	run_prof report -i "${data:-inl.data}" --sort sym,srcline "$@"
	expect_rc 0 "prof report $*"
}
# opens FILE: 0 when the last report under strace opened it
opened() {
	grep -q "\"$1\"" st.log
}
traced() {
	if command -v strace > /dev/null 2>&1; then
		# LeakSanitizer stops the world by ptrace, which strace holds
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -e trace=openat,open -o st.log "$PROF" report -i "${data:-inl.data}" \
			--sort sym,srcline "$@" > out 2> err
		rc=$?
		expect_rc 0 "prof report $* under strace"
	else
		report "$@"
		: > st.log
	fi
}

PROF_NO_CACHE=1 report
mv out base.out
grep -q 'inl_leaf (inlined in outer)' base.out || fail "no inlined frame: $(cat base.out)"
grep -q 'inline\.c:[0-9]' base.out || fail "no source lines: $(cat base.out)"
ls "$dir"/*.a* > /dev/null 2>&1 && fail "PROF_NO_CACHE=1 kept answers: $(ls "$dir")"

report
diff -u base.out out || fail "the report that kept its answers differs"
[ -s "$ans" ] || fail "no answers at $ans: $(ls "$dir" 2> /dev/null)"
[ "$(head -c 8 "$ans")" = PROFANS5 ] || fail "the answers do not start with PROFANS5"
nent=$(od -An -t u4 -j 24 -N 4 "$ans" | tr -d ' ')
[ "${nent:-0}" -ge $((0x$outer_size / 2)) ] ||
	fail "$nent answers kept for the $((0x$outer_size)) addresses of outer"
note "answers: $nent addresses, $(stat -c %s "$ans") bytes"
cp "$ans" ans.first

traced
diff -u base.out out || fail "the report from the kept answers differs"
if command -v strace > /dev/null 2>&1; then
	grep -q "\"$ans\"" st.log || fail "the report did not read $ans: $(grep -c . st.log) opens"
	opened "$prog" && fail "the report from kept answers opened $prog: $(grep "\"$prog\"" st.log)"
else
	note "no strace: whether the program was opened is not checked"
fi
cmp -s "$ans" ans.first || fail "a report with nothing new wrote its answers again"

# other options, another file; the same answers as without any
PROF_NO_CACHE=1 report --no-inline
mv out noinl.out
report --no-inline
diff -u noinl.out out || fail "the report --no-inline that kept answers differs"
[ -s "$dir/$bid.a6" ] || fail "--no-inline kept no answers of its own: $(ls "$dir")"
report --no-inline
diff -u noinl.out out || fail "the report --no-inline from kept answers differs"
cmp -s "$ans" ans.first || fail "a report --no-inline changed the answers with inline frames"

# addresses the file lacks: resolved, and added
data=more.data PROF_NO_CACHE=1 report
mv out more.out
data=more.data traced
diff -u more.out out || fail "the report with new addresses differs"
command -v strace > /dev/null 2>&1 && ! opened "$prog" &&
	fail "new addresses did not open $prog"
nent2=$(od -An -t u4 -j 24 -N 4 "$ans" | tr -d ' ')
[ "$nent2" -gt "$nent" ] || fail "the new addresses were not added: $nent2 answers, were $nent"
data=more.data report
diff -u more.out out || fail "the report from added answers differs"
cp "$ans" ans.first

# the program changed in place: opened again, its answers made again
sleep 0.01
touch "$prog"
traced
diff -u base.out out || fail "the report after the program changed differs"
command -v strace > /dev/null 2>&1 && ! opened "$prog" &&
	fail "a report after $prog changed believed the kept answers"
cmp -s "$ans" ans.first && fail "answers of a changed program were not made again"

# a cut file, a changed one: never believed, replaced
report
cp "$ans" ans.good
head -c 60 ans.good > "$ans"
made_again "$ans" ans.good "cut answers" "cut answers were not replaced"
# a name's bytes (the string table ends the file), then the count of answers
printf 'XX' | dd of="$ans" bs=1 seek=$(($(stat -c %s "$ans") - 6)) conv=notrunc 2> /dev/null
made_again "$ans" ans.good "changed answers" "changed answers were not replaced"
printf '\377\377\377\177' | dd of="$ans" bs=1 seek=24 conv=notrunc 2> /dev/null
made_again "$ans" ans.good "answers claiming 2^31 addresses" \
	"answers claiming 2^31 addresses were not replaced"

# the cache's folder is read (pruned) once a report, not once an answers file written: three
# programs' new answers, in a folder of 400 files, are 400 looks, not 1,200
if command -v strace > /dev/null 2>&1; then
	rm -f "$dir"/*.a*
	i=0
	while [ $i -lt 400 ]; do : > "$dir/x$i"; i=$((i + 1)); done
	{
		outer_spec inl "$prog"
		for n in 2 3; do
			cc -O1 -g -fno-omit-frame-pointer -o inl$n "$srcdir/tests/workloads/inline.c" \
				-I"$srcdir/tests/workloads" -Wl,--build-id=0x$n$n$n$n$n$n$n$n 2> cc.err ||
				fail "cc: $(cat cc.err)"
			outer_spec inl$n "$PWD/inl$n" | sed -n "s/ 100 100 / ${n}00 ${n}00 /; s/^mmap 100 /mmap ${n}00 /; /^event/!p"
		done
	} > three.spec
	"$genprof" three.spec three.data 2> gen.err || fail "genprof three: $(cat gen.err)"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=newfstatat,fstatat64,stat,lstat -o st3.log "$PROF" report -i three.data \
		--sort sym,srcline > out 2> err || fail "prof report of three programs: $(cat err)"
	looks=$(grep -c '"x[0-9]*"' st3.log)
	made=$(ls "$dir"/*.a* 2> /dev/null | wc -l)
	note "three programs' answers ($made files made): $looks looks at the 400 files of the folder"
	[ "$made" = 3 ] || fail "$made answers files made, not 3: $(ls "$dir")"
	[ "$looks" -ge 400 ] && [ "$looks" -lt 800 ] ||
		fail "the cache folder's files were looked at $looks times for 3 answers files (once is 400)"
	rm -f "$dir"/x*
fi

# --symfs: files from another root; nothing kept
rm -f "$dir"/*.a*
mkdir -p sfs
report --symfs sfs
diff -u base.out out || fail "the report with --symfs differs"
ls "$dir"/*.a* > /dev/null 2>&1 && fail "--symfs kept answers: $(ls "$dir")"
exit 0
