#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A binary replaced after recording by another build: prof report warns
# once and shows its frames as offsets into it (app+0x1f), never names from
# the other build. A binary that is gone: a warning too, and offsets. Where perf_event_open
# is refused, the profile is written by tests/golden/genprof.
. "$srcdir/tests/test-subr.sh"

# user_offsets FILE: the share of app's unnamed code ("?? (app)", whose
# addresses are offsets into app) among the user-space entries of a --sort
# sym --dso app report (the kernel's share, and on a loaded machine the
# loader's and libc's, are not what is checked).
user_offsets() {
	awk '$1 ~ /%$/ && $3 == "[.]" { p = $1; sub("%", "", p); all += p; if ($4 " " $5 == "?? (app)") u += p }
		END { print all ? 100 * u / all : 0 }' "$1"
}

need_recordings
cp "$WORKLOADS/shape" ./app
if replaying; then
	# No recording of a binary made here: genprof writes the profile the
	# recorder would, ./app mapped with its build id, 100 samples in leaf_a.
	gen_spec b <<EOF
event cpu-clock
comm 1 1 app
mmap 1 0x401000 $PWD/app
sample 0 1.0 1 1 0 1000000 x100 leaf_a+0x4 run+0x4 main+0x4
EOF
else
	run_prof record -q -e cpu-clock -o b.data -- ./app -s 0.5
	expect_rc 0 "prof record of a copy of shape"
fi
script_of b.data b.txt
grep -q '^MMAP2 .*buildid=[0-9a-f]* file=.*/app$' b.txt ||
	skip "this kernel records no build ids in MMAP2 (before Linux 5.12)"

run_prof report -i b.data --sort sym
expect_rc 0 "prof report with the recorded binary"
grep -q '\[\.\] leaf_a$' out || fail "leaf_a not resolved with the right binary"

# perf's own file: its build ids are in its build-id table, not its MMAP2
# records; a binary rebuilt after perf recorded is named from perf's
# build-id cache, where perf record put the recorded one
if ! replaying && command -v perf > /dev/null 2>&1; then
	cp "$WORKLOADS/shape" ./papp
	mkdir -p perfhome
	HOME=$PWD/perfhome command perf record -q -e cpu-clock -o pf.data -- ./papp -s 0.3 \
		> /dev/null 2> pf.err || fail "perf record: $(tail -n 3 pf.err)"
	# a new file, as a linker writes one: perf's cache holds the old one by a hard link
	rm -f ./papp
	cp "$WORKLOADS/threads" ./papp
	saved=$PERF_BUILDID_DIR
	PERF_BUILDID_DIR=$PWD/perfhome/.debug
	run_prof report -i pf.data --sort sym
	PERF_BUILDID_DIR=$saved
	expect_rc 0 "prof report of perf's file after the binary changed"
	grep -q "papp is another build; its frames are named from $PWD/perfhome/.debug/.build-id/" err ||
		fail "perf's file, binary changed: no warning naming perf's cache: $(cat err)"
	grep -q '\[\.\] leaf_a$' out || fail "perf's file, binary changed: leaf_a not named from the cache: $(head -14 out)"
	# the other build's own functions, as whole names: the kernel's getrusage
	# (the workload calls it at exit, for PROF_WORKLOAD_CPU) is no sign of it
	grep '\[\.\] \(parse_seconds\|usage\)$' out &&
		fail "perf's file: names from the other build: $(head -14 out)"
	note "perf's file: the changed binary is named from perf's build-id cache"
fi

# --no-buildid-mmap: the kernel's MMAP2 records carry no build ids (prof
# agent's recorder, and a prof beside perf); the file at the path names them
if ! replaying; then
	run_prof record -q --no-buildid-mmap -e cpu-clock -o nb.data -- ./app -s 0.3
	expect_rc 0 "prof record --no-buildid-mmap"
	script_of nb.data nb.txt
	grep -q '^MMAP2 .*file=.*/app$' nb.txt || fail "--no-buildid-mmap: no MMAP2 of app"
	grep -q '^MMAP2 .*buildid=.* file=.*/app$' nb.txt &&
		fail "--no-buildid-mmap: app's MMAP2 has a build id: $(grep -m 1 'MMAP2 .*/app$' nb.txt)"
	run_prof report -i nb.data --sort sym
	expect_rc 0 "prof report of a --no-buildid-mmap recording"
	grep -q '\[\.\] leaf_a$' out || fail "--no-buildid-mmap: leaf_a not named"
fi

# Another build at the same path: the threads workload has other symbols.
cp "$WORKLOADS/threads" ./app
run_prof report -i b.data --sort sym --dso app
expect_rc 0 "prof report after the binary changed"
n=$(grep -c "build id of .*/app differs from the recorded one, and no file has it" err)
[ "$n" = 1 ] || fail "expected one build-id warning, got $n: $(cat err)"
# (user-space names only: the kernel has its own spin_ functions)
grep -q '\[\.\] \(spin_\|thread_\|leaf_\)' out &&
	fail "names from another build: $(grep '\[\.\] \(spin_\|thread_\|leaf_\)' out)"
u=$(user_offsets out)
note "other build: offsets into app $u%"
expect_range "share of frames shown as offsets into app (a sum of rounded shares)" "$u" 90 100.5

rm ./app
run_prof report -i b.data --sort sym --dso app
expect_rc 0 "prof report after the binary was removed"
grep -q "cannot open .*app" err || fail "no warning for the missing binary: $(cat err)"
u=$(user_offsets out)
note "missing binary: offsets into app $u%"
expect_range "share of frames shown as offsets into app (a sum of rounded shares)" "$u" 90 100.5
