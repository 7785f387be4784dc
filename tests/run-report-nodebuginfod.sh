#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libdebuginfod (and its 30 libraries: libcurl, gnutls, krb5, ...) is not
# loaded by a report while DEBUGINFOD_URLS names no server: not by prof,
# and not by libdw, which opens it when a module's debug file is missing
# (dynlib.c refuses it). With a server named, libdw does load it: so the
# report below does reach that path. Seen through the dynamic loader's own
# log (LD_DEBUG=files). Profiles from genprof: needs no perf_event_open.
. "$srcdir/tests/test-subr.sh"

command -v objcopy > /dev/null 2>&1 || skip "no objcopy (binutils) to strip a binary"
G=$srcdir/tests/data/golden
# the golden binary with its build id, but no DWARF here nor a debug file anywhere
objcopy --strip-debug "$G/prof-golden/golden" stripped || fail "objcopy --strip-debug"
gen_spec s << EOF2
event cpu-clock
comm 20 20 stripped
mmap 20 0x401000 $tmpdir/stripped
sample 0 1.0 20 20 0 1000000 x5 leaf_b+0x15 mid+0x21 main+0xf
EOF2

# loaded LOG...: the libraries the dynamic loader opened, one per line
loaded() {
	sed -n 's/^ *[0-9]*:[[:space:]]*file=\([^ ]*\) .*dynamically loaded by.*/\1/p' "$@" | sort -u
}

unset DEBUGINFOD_URLS
LD_DEBUG=files LD_DEBUG_OUTPUT=$tmpdir/none
export LD_DEBUG LD_DEBUG_OUTPUT
run_prof report -i s.data --sort sym
expect_rc 0 "prof report of a binary with no debug file"
grep -Eq '^ *100\.00% +5 +\[\.\] leaf_b$' out || fail "leaf_b not named from the symbol table: $(cat out)"
set -- none.*
[ -f "$1" ] || skip "the dynamic loader wrote no LD_DEBUG log (not glibc?)"
loaded none.* | grep debuginfod &&
	fail "libdebuginfod was loaded with DEBUGINFOD_URLS unset"

# a server that is not there: libdw loads libdebuginfod, which fails to connect
DEBUGINFOD_URLS=http://127.0.0.1:9 DEBUGINFOD_CACHE_PATH=$tmpdir/dcache DEBUGINFOD_TIMEOUT=5
LD_DEBUG_OUTPUT=$tmpdir/some
export DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH DEBUGINFOD_TIMEOUT LD_DEBUG_OUTPUT
run_prof report -i s.data --sort sym
unset LD_DEBUG LD_DEBUG_OUTPUT
expect_rc 0 "prof report with an unreachable debuginfod server"
grep -Eq '^ *100\.00% +5 +\[\.\] leaf_b$' out || fail "leaf_b not named with a server set: $(cat out)"
if ! loaded some.* | grep -q '^libdebuginfod'; then
	[ -e /usr/lib/x86_64-linux-gnu/libdebuginfod.so.1 ] || ls /usr/lib/*/libdebuginfod.so.1 > /dev/null 2>&1 ||
		skip "libdebuginfod1 is not installed: nothing to refuse"
	fail "libdw did not load libdebuginfod with DEBUGINFOD_URLS set: $(loaded some.*)"
fi
exit 0
