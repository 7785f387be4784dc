#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Stripped programs, named as their own tables allow: a Go program built
# with -ldflags='-s -w' by its .gopclntab (Go keeps it in every binary:
# hugo's samples were 73% unnamed), and a stripped C program's entry
# point as _start, where the ELF header says it is. Profiles from genprof
# at addresses of the unstripped builds, reported with --symfs on the
# stripped ones: needs no perf_event_open.
test_timeout=1200
. "$srcdir/tests/test-subr.sh"

genprof=$builddir/tests/golden/genprof
mkdir -p full root/bin

# --- Go -----------------------------------------------------------------------
if command -v go > /dev/null 2>&1; then
	for how in full:-w root/bin:-s\ -w; do
		HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= timeout 600 go build \
			-ldflags="${how#*:}" -o "${how%%:*}/shape-go" "$srcdir/tests/workloads/native/shape.go" \
			> go.err 2>&1 || fail "go build -ldflags='${how#*:}': $(tail -3 go.err)"
	done
	readelf -S full/shape-go | grep -q ' \.symtab ' || fail "the unstripped Go build has no .symtab"
	readelf -S root/bin/shape-go | grep -q ' \.symtab ' && fail "the stripped Go build has a .symtab"
	# the executable segment where the kernel maps it: its own address
	seg=$(readelf -lW full/shape-go | awk '$1 == "LOAD" && / R?W?E / { print $3; exit }')
	cat > go.spec <<-EOF
	event cpu-clock
	comm 100 100 shape-go
	mmap 100 $seg full/shape-go as /bin/shape-go nobuildid
	sample 0 1.0 100 100 0 1000000 x60 main.spin+0x10 main.leafA+0x8 main.main+0x20 runtime.main+0x100
	sample 0 1.1 100 100 0 1000000 x30 main.spin+0x10 main.leafB+0x8 main.main+0x40 runtime.main+0x100
	sample 0 1.2 100 100 0 1000000 x10 main.spin+0x10 main.leafC+0x8 main.main+0x60 runtime.main+0x100
	EOF
	"$genprof" go.spec go.data 2> gen.err || fail "genprof go.spec: $(cat gen.err)"
	run_prof report -i go.data --symfs root -F folded --no-comm
	expect_rc 0 "prof report of a stripped Go program"
	for st in "runtime.main;main.main;main.leafA;main.spin 60" "runtime.main;main.main;main.leafB;main.spin 30" \
		"runtime.main;main.main;main.leafC;main.spin 10"; do
		grep -qx "$st" out || fail "stripped Go: no stack '$st' in: $(cat out)"
	done
	note "stripped Go: every frame named from .gopclntab"
else
	note "go is not installed: the stripped Go program is not checked"
fi

# --- C: the entry point ---------------------------------------------------------
cc -O2 -o full/shape-c "$srcdir/tests/workloads/shape.c" -I"$srcdir/tests/workloads" 2> cc.err ||
	fail "cc: $(cat cc.err)"
strip -o root/bin/shape-c full/shape-c || fail "strip"
seg=$(readelf -lW full/shape-c | awk '$1 == "LOAD" && / R?W?E / { print $3; exit }')
cat > c.spec <<-EOF
event cpu-clock
comm 200 200 shape-c
mmap 200 $seg full/shape-c as /bin/shape-c nobuildid
sample 0 1.0 200 200 0 1000000 x10 _start+0x20
EOF
"$genprof" c.spec c.data 2> gen.err || fail "genprof c.spec: $(cat gen.err)"
run_prof report -i c.data --symfs root --sort sym
expect_rc 0 "prof report of a stripped C program"
grep -q '100.00% .*\[\.\] _start$' out || fail "stripped C: the entry point is not _start: $(cat out)"
exit 0
