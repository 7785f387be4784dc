#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cache of inflated debug files: a program whose separate debug file
# (found by build id under --symfs, as Debian's -dbgsym packages are) has
# its DWARF compressed is reported alike with and without the cache; the
# first report writes the inflated copy (the user's only, nothing left
# compressed, sections and sizes as inflated), the next read it even when
# the debug file is gone; a cut copy or another file at its name is never
# believed, only replaced; so are the index of functions and the scope
# trees of inlined calls kept beside it;
# the copies used least lately go past 2 GiB, and temporary files their
# writers left an hour ago;
# --strict-symfs and PROF_NO_CACHE use none.
# Profiles from genprof: needs no perf_event_open.
. "$srcdir/tests/test-subr.sh"

genprof=$builddir/tests/golden/genprof
command -v objcopy > /dev/null 2>&1 || skip "no objcopy (binutils) to split a debug file"
mkdir -p full sfs/usr/bin
# -g3: its macros make DWARF enough to be worth caching (32 KiB inflated)
cc -O1 -g3 -fno-omit-frame-pointer -o full/inl "$srcdir/tests/workloads/inline.c" \
	-I"$srcdir/tests/workloads" 2> cc.err || fail "cc: $(cat cc.err)"
objcopy --only-keep-debug full/inl plain.debug || fail "objcopy --only-keep-debug"
objcopy --only-keep-debug --compress-debug-sections=zlib full/inl z.debug 2> oc.err ||
	skip "objcopy cannot compress debug sections: $(cat oc.err)"
objcopy --strip-debug full/inl sfs/usr/bin/inl || fail "objcopy --strip-debug"
bid=$(readelf -n full/inl | awk '/Build ID/ { print $3; exit }')
[ -n "$bid" ] || skip "cc gave no build id (no --build-id by default here)"
dbgdir=sfs/usr/lib/debug/.build-id/$(printf %.2s "$bid")
dbg=$dbgdir/${bid#??}.debug
mkdir -p "$dbgdir"
cp z.debug "$dbg"

# section NAME FILE: "FLAGS SIZE" of section NAME (flags - for none)
section() {
	readelf -SW "$2" 2> /dev/null | sed 's/^ *\[ *[0-9]*\]//' |
		awk -v n="$1" '$1 == n { f = ($7 ~ /^[A-Z]+$/) ? $7 : "-"; print f, $5; exit }'
}
case $(section .debug_info "$dbg") in
*C*) ;;
*) fail "the debug file's .debug_info is not compressed: $(section .debug_info "$dbg")" ;;
esac

# every byte of outer(): most of them are inl_leaf's, inlined
outer_spec full/inl /usr/bin/inl > inl.spec
"$genprof" inl.spec inl.data 2> gen.err || fail "genprof: $(cat gen.err)"

XDG_CACHE_HOME=$tmpdir/c
export XDG_CACHE_HOME
cache=$tmpdir/c/prof/debug/$bid.debug
report() {
	run_prof report -i inl.data --symfs sfs --sort sym,srcline "$@"
	expect_rc 0 "prof report $*"
}

PROF_NO_CACHE=1 report
mv out base.out
grep -q 'inl_leaf (inlined in outer)' base.out ||
	fail "no inlined frame from the compressed DWARF: $(cat base.out)"
grep -q 'inline\.c:[0-9]' base.out || fail "no source lines from the compressed DWARF: $(cat base.out)"
[ -e "$cache" ] && fail "PROF_NO_CACHE=1 wrote a debug cache"
[ -e "${cache%.debug}.sc" ] && fail "PROF_NO_CACHE=1 wrote scope trees"

# an old copy of 3 GiB (sparse) in the cache: over its 2 GiB, it goes
(umask 077 && mkdir -p c/prof/debug)
old=c/prof/debug/00112233445566778899aabbccddeeff00112233.debug
truncate -s 3G "$old" || fail "truncate -s 3G"
touch -d '2020-01-01' "$old"
# what a writer killed mid-copy leaves, and one writing now
dead=c/prof/debug/.00112233445566778899aabbccddeeff00112233.debug.AbCdEf
busy=c/prof/debug/.99112233445566778899aabbccddeeff00112233.debug.GhIjKl
echo partial > "$dead"
echo partial > "$busy"
touch -d '2 hours ago' "$dead"
report
[ -e "$dead" ] && fail "the cache kept a temporary file its writer left 2 hours ago"
[ -e "$busy" ] || fail "the cache removed a temporary file being written"
diff -u base.out out || fail "the report that wrote the debug cache differs"
[ -s "$cache" ] || fail "no inflated copy at $cache"
[ -e "$old" ] && fail "the cache kept an old copy past its 2 GiB"
[ "$(stat -c %a "$cache")" = 600 ] || fail "the cached copy is mode $(stat -c %a "$cache"), not 600"
[ "$(stat -c %a "$(dirname "$cache")")" = 700 ] || fail "the cache directory is not 700"
for s in .debug_info .debug_abbrev .debug_line .debug_str; do
	got=$(section $s "$cache")
	want=$(section $s plain.debug)
	case $got in
	*C*) fail "$s is still compressed in the cached copy: $got" ;;
	esac
	[ "${got#* }" = "${want#* }" ] || fail "$s: $got in the cached copy, $want inflated by objcopy"
done
for s in .text .symtab; do
	[ "$(section $s "$cache")" = "$(section $s "$dbg")" ] ||
		fail "$s: $(section $s "$cache") in the cached copy, $(section $s "$dbg") in the debug file"
done
note "cached: .debug_info $(section .debug_info "$cache"), compressed $(section .debug_info "$dbg")"
# and the index of its functions: 32 bytes of header, 24 a range (outer, main, usage)
fnx=${cache%.debug}.fn
[ -s "$fnx" ] || fail "no index of functions at $fnx"
nfn=$((($(stat -c %s "$fnx") - 32) / 24))
[ "$nfn" -ge 3 ] && [ $((32 + 24 * nfn)) -eq "$(stat -c %s "$fnx")" ] ||
	fail "the index of functions is $(stat -c %s "$fnx") bytes, not 32 + 24 a function"

# and the scope trees of its functions (inlined calls): a header, an
# index of 16 bytes a tree, the trees
sc=${cache%.debug}.sc
[ -s "$sc" ] || fail "no scope trees at $sc"
[ "$(head -c 8 "$sc")" = PROFSCX3 ] || fail "the scope trees do not start with PROFSCX3"
ntree=$(od -An -t u8 -j 16 -N 8 "$sc" | tr -d ' ')
note "scope trees: $ntree functions, $(stat -c %s "$sc") bytes"
[ "${ntree:-0}" -ge 1 ] && [ "$(stat -c %s "$sc")" -gt $((32 + 16 * ntree)) ] ||
	fail "the scope trees' file holds ${ntree:-no} trees in $(stat -c %s "$sc") bytes"

# read from the cache: the debug file may be gone
mv "$dbg" away.debug
report
diff -u base.out out || fail "the report from the cached copy differs"

# a cut file of trees, a changed tree: never believed, written again
cp "$sc" sc.good
head -c 50 sc.good > "$sc"
made_again "$sc" sc.good "a cut file of scope trees" \
	"the cut file of scope trees was not written again"
printf '\377\377\377\377' | dd of="$sc" bs=1 seek=$(($(stat -c %s "$sc") - 8)) conv=notrunc 2> /dev/null
cmp -s "$sc" sc.good && fail "dd did not change the last scope tree"
made_again "$sc" sc.good "a changed scope tree" "the changed scope tree was not written again"

# a cut index, a changed one: never believed, written again
mv away.debug "$dbg"
cp "$fnx" fn.good
head -c 50 fn.good > "$fnx"
made_again "$fnx" fn.good "a cut index of functions" \
	"the cut index of functions was not written again"
printf '\377\377\377\377' | dd of="$fnx" bs=1 seek=40 conv=notrunc 2> /dev/null
cmp -s "$fnx" fn.good && fail "dd did not change the index"
made_again "$fnx" fn.good "a changed index of functions" \
	"the changed index of functions was not written again"

# a cut copy, and another file at its name: replaced, never believed
head -c 20000 "$cache" > cut && cp cut "$cache"
report
diff -u base.out out || fail "the report over a cut cached copy differs"
cmp -s "$cache" cut && fail "the cut copy was not replaced"
[ "$(section .debug_info "$cache")" = "$(section .debug_info plain.debug)" ] ||
	fail "the replaced copy is not whole"
cp sfs/usr/bin/inl "$cache"
report
diff -u base.out out || fail "the report over another file at the cache's name differs"
cmp -s "$cache" sfs/usr/bin/inl && fail "another file at the cache's name was not replaced"

# --strict-symfs reads nothing outside its root: no cache either way
rm -f "$cache" "$fnx"
mv "$dbg" away.debug
report
mv out strict0.out
mv away.debug "$dbg"
report --strict-symfs
[ -e "$cache" ] && fail "--strict-symfs wrote a debug cache"
[ -e "$fnx" ] && fail "--strict-symfs wrote an index of functions"
diff -u base.out out || fail "the report with --strict-symfs differs"
grep -q 'inlined in' strict0.out && fail "a report without the debug file or its cache found inlined frames"
exit 0
