#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A binary gone from its path and from every local build-id directory is
# asked of the debuginfod servers in $DEBUGINFOD_URLS, by its build id: a
# debuginfod of our own serves the golden binary, and prof report names
# the frames of a genprof profile that recorded it at a path that does
# not exist. Not with --strict-symfs. Needs no perf_event_open; skips
# without debuginfod(8) or a prof built without libdebuginfod.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

command -v debuginfod > /dev/null 2>&1 || skip "no debuginfod (Debian: debuginfod)"
command -v debuginfod-find > /dev/null 2>&1 || skip "no debuginfod-find (Debian: debuginfod)"
G=$srcdir/tests/data/golden
bid=f5bc82042fd17b524c108b69099378bf48f7c64a
mkdir srv
cp "$G/prof-golden/golden" srv/
port=$((20000 + $$ % 20000))
debuginfod -F srv -p "$port" -d "$tmpdir/db.sqlite" > debuginfod.log 2>&1 &
bg_add $!
DEBUGINFOD_URLS=http://127.0.0.1:$port
DEBUGINFOD_CACHE_PATH=$tmpdir/dcache
export DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
i=0
# (a fresh client cache each time: a client remembers a miss for minutes)
until DEBUGINFOD_CACHE_PATH=$tmpdir/probe$i debuginfod-find executable $bid > /dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 60 ] || skip "debuginfod did not serve the binary in 30 s: $(tail -3 debuginfod.log)"
	sleep 0.5
done

sed "s|SYMFS|$G|" "$G/moved.spec" > moved.spec
"$builddir/tests/golden/genprof" moved.spec moved.data 2> gen.err || fail "genprof: $(cat gen.err)"
run_prof report -i moved.data --sort sym
expect_rc 0 "prof report with a debuginfod server"
if ! grep -Eq '^ *100\.00% +5 +\[\.\] leaf_b$' out; then
	grep -q '^#define HAVE_DEBUGINFOD 1' "$builddir/config.h" 2> /dev/null ||
		skip "prof was built without libdebuginfod"
	fail "debuginfod's binary did not name the frames: $(grep '%' out) $(cat err)"
fi
grep -q "^prof: warning: /prof-golden/moved is gone; its frames are named from $DEBUGINFOD_CACHE_PATH/$bid/executable, of the recorded build id$" err ||
	fail "no line saying the names came from debuginfod's cache: $(cat err)"
# --strict-symfs reads nothing from outside, debuginfod's cache neither
mkdir root
run_prof report -i moved.data --sort sym --symfs root --strict-symfs
expect_rc 0 "prof report --strict-symfs with a debuginfod server"
grep -q '\[\.\] leaf_b$' out && fail "--strict-symfs asked debuginfod"
exit 0
