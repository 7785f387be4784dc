#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The per-boot cache of the kernel's symbols: a report made from it names
# kernel frames exactly as one made from /proc/kallsyms; the cache is the
# user's only; a damaged or cut cache is never believed, only replaced;
# caches of other boots are removed, and temporary files their writers
# left an hour ago; PROF_NO_CACHE writes none. Where
# perf_event_open is refused, tests/golden/genprof writes the kernel samples.
. "$srcdir/tests/test-subr.sh"

need_recordings
[ -r /proc/sys/kernel/random/boot_id ] || skip "no /proc/sys/kernel/random/boot_id: no cache"
awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms ||
	skip "/proc/kallsyms hides kernel addresses here (kernel.kptr_restrict): nothing to cache"
boot=$(cat /proc/sys/kernel/random/boot_id)

if replaying; then
	# No kernel samples to record: genprof writes them, at this kernel's
	# own function addresses (the kernel's map from its _text), so that
	# they resolve through /proc/kallsyms as recorded ones would.
	awk '$2 == "T" && $1 !~ /^0+$/ && !/\[/ { print; if (++n == 40) exit }' /proc/kallsyms > k.syms
	text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
	[ -n "$text" ] && [ -s k.syms ] || fail "no _text or functions in /proc/kallsyms"
	{
		echo "event cpu-clock"
		echo "kernel 0x$text 0x40000000"
		echo "comm 1 1 dd"
		awk '{ printf "sample 0 1.%03d 1 1 0 1000000 x3 k 0x%s\n", NR, $1 }' k.syms
	} > k.spec
	"$builddir/tests/golden/genprof" k.spec k.data 2> gen.err || fail "genprof: $(cat gen.err)"
	host_kernel=1	# the samples are at this kernel's addresses
else
	# Kernel time: reading /dev/zero is all kernel.
	run_prof record -q -e cpu-clock -o k.data -- dd if=/dev/zero of=/dev/null bs=64k count=100000
	expect_rc 0 "prof record of dd"
	grep -q . out && fail "prof record wrote to standard output"
fi

XDG_CACHE_HOME=$tmpdir/c
export XDG_CACHE_HOME
cache=$tmpdir/c/prof/kallsyms-$boot
mkdir -p c/prof
: > c/prof/kallsyms-00000000-1111-2222-3333-444444444444	# an older boot's
# what a writer killed mid-write leaves, and one writing now
echo partial > "c/prof/.kallsyms-$boot.AbCdEf"
echo partial > "c/prof/.kallsyms-$boot.GhIjKl"
touch -d '2 hours ago' "c/prof/.kallsyms-$boot.AbCdEf"

PROF_NO_CACHE=1
export PROF_NO_CACHE
run_prof report -i k.data --sort dso,sym
expect_rc 0 "prof report with PROF_NO_CACHE"
unset PROF_NO_CACHE
[ -e "$cache" ] && fail "PROF_NO_CACHE=1 wrote a cache"
mv out plain.out
k=$(grep -c '\[k\] ' plain.out)
note "$k kernel entries"
[ "$k" -ge 1 ] || skip "no kernel samples in the profile (kernel sampling refused?)"
grep -q '\[k\] 0x' plain.out && fail "kernel frames without names: $(grep '\[k\] 0x' plain.out)"

run_prof report -i k.data --sort dso,sym
expect_rc 0 "prof report that writes the cache"
[ -s "$cache" ] || fail "no cache at $cache"
diff -u plain.out out || fail "the report that wrote the cache differs"
[ -e c/prof/kallsyms-00000000-1111-2222-3333-444444444444 ] &&
	fail "the cache of another boot was left behind"
[ -e "c/prof/.kallsyms-$boot.AbCdEf" ] && fail "a temporary file its writer left 2 hours ago was kept"
[ -e "c/prof/.kallsyms-$boot.GhIjKl" ] || fail "a temporary file being written was removed"
mode=$(stat -c %a "$cache")
[ "$mode" = 600 ] || fail "the cache is mode $mode, not 600"
cp "$cache" good.cache

run_prof report -i k.data --sort dso,sym
expect_rc 0 "prof report from the cache"
diff -u plain.out out || fail "the report from the cache differs from /proc/kallsyms'"
cmp -s "$cache" good.cache || fail "a good cache was rewritten"

# A byte changed in the names, then a cut file: each is read past and rewritten.
size=$(stat -c %s "$cache")
printf 'X' | dd of="$cache" bs=1 seek=$((size - 10)) conv=notrunc 2> /dev/null
run_prof report -i k.data --sort dso,sym
expect_rc 0 "prof report with a damaged cache"
diff -u plain.out out || fail "a damaged cache changed the report"
cmp -s "$cache" good.cache || fail "the damaged cache was not replaced"

head -c $((size / 2)) good.cache > "$cache"
run_prof report -i k.data --sort dso,sym
expect_rc 0 "prof report with a cut cache"
diff -u plain.out out || fail "a cut cache changed the report"
cmp -s "$cache" good.cache || fail "the cut cache was not replaced"

finish
