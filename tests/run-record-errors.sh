#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad options, bad targets, unwritable outputs and bad files: the exit
# code, and one error line on stderr that starts with "prof: ".
. "${srcdir:-.}/tests/test-subr.sh"

# perf_event_open refused by a seccomp filter (tests/noperf, as a container
# refuses it) where privilege or the sysctl allows it: the message names
# the filter, not perf_event_paranoid. Needs no perf_event_open itself.
p=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null)
if [ -x "$builddir/tests/noperf" ] && { [ "$(id -u)" = 0 ] || [ "${p:-3}" -le 2 ]; }; then
	"$builddir/tests/noperf" "$PROF" record -q -e cpu-clock -o sec.data -- true > out 2> err
	rc=$?
	expect_rc 1 "prof record under a seccomp filter"
	one_error_line "prof record under a seccomp filter"
	grep -q "^prof: perf_event_open refused (Permission denied) by a seccomp filter, not by perf_event_paranoid ($p): allow" err ||
		fail "under a seccomp filter: $(cat err)"
	[ -e sec.data ] && fail "under a seccomp filter: a profile was written"
fi
require_perf_event

shape=$WORKLOADS/shape

# usage ARGS...: `prof ARGS` is a usage error.
usage() {
	run_prof "$@"
	expect_rc 64 "prof $*"
	one_error_line "prof $*"
}

usage record -F abc -- true
expect_err "prof record -F abc" <<'EOF'
prof: -F: 'abc' is not a number; see 'prof record --help'
EOF
usage record -F 0 -- true
usage record -m 3 -- true
expect_err "prof record -m 3" <<'EOF'
prof: -m: 3 is not a power of two; see 'prof record --help'
EOF
usage record -m 0 -- true
usage record -C 0- -- true
usage record -C x -- true
usage record -z 99 -- true
usage record -z 0 -- true
usage record --duration -1 -- true
usage record --duration abc -- true
usage record --cpu-budget 101 -- true
usage record --cpu-budget 2x -- true
expect_err "prof record --cpu-budget 2x" <<'EOF'
prof: --cpu-budget: '2x' is not a share of one CPU in %, 0 to 100; see 'prof record --help'
EOF
usage record --bogus -- true
usage record -c 0 -- true
usage record -e no-such-event -- true
usage record
usage record -q
usage record -p notanumber
usage record -p 1, --duration 1
# A usage error does nothing: no profile written, none renamed.
[ -e prof.data ] && fail "a usage error wrote prof.data"

run_prof record -p 999999999 --duration 1 -o p.data
expect_rc 1 "prof record -p 999999999"
expect_err "prof record -p 999999999" <<'EOF'
prof: no such process: 999999999
EOF

# Above the kernel's limit, -F says so in one line and uses the limit.
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
over=$((max * 2))
run_prof record -F $over -e cpu-clock -o over.data -- true
expect_rc 0 "prof record -F $over (limit $max)"
n=$(grep -c -e "$over.*$max" -e "$max.*$over" err)
[ "$n" = 1 ] || fail "prof record -F $over: $n lines name -F $over and the limit $max"
script_of over.data over.txt
grep -q "^ATTR .* freq=$max " over.txt || fail "prof record -F $over: $(grep '^ATTR' over.txt), expected freq=$max"

# The bytes prof could not write: one line naming the file, exit 1.
# (/dev/full is not a regular file: it must not be renamed /dev/full.old.)
run_prof record -q -o /dev/full -- "$shape" -s 0.5
frc=$rc
if [ -e /dev/full.old ] && [ ! -e /dev/full ]; then
	mv /dev/full.old /dev/full
	fail "prof record -o /dev/full renamed /dev/full to /dev/full.old (put back)"
fi
[ "$frc" = 1 ] || fail "prof record -o /dev/full: exit status $frc, expected 1"
expect_err "prof record -o /dev/full" <<'EOF'
prof: cannot write '/dev/full': No space left on device
EOF

run_prof record -q -o /nonexistent/dir/x.data -- true
expect_rc 1 "prof record -o /nonexistent/dir/x.data"
one_error_line "prof record -o /nonexistent/dir/x.data"
grep -q "/nonexistent/dir/x.data.*No such file or directory" err ||
	fail "prof record -o /nonexistent/dir/x.data: $(cat err)"

# An existing output is kept as FILE.old, and a new one is mode 0600.
run_prof record -q -o x.data -- true
expect_rc 0 "prof record -o x.data (first)"
cp x.data first.data
run_prof record -q -o x.data -- true
expect_rc 0 "prof record -o x.data (second)"
[ -e x.data.old ] || fail "the second prof record -o x.data left no x.data.old"
cmp -s x.data.old first.data || fail "x.data.old is not the first x.data"
mode=$(stat -c %a x.data)
[ "$mode" = 600 ] || fail "x.data has mode $mode, expected 600"

# prof script on files that are not there, not profiles, or cut short.
run_prof script -i missing.data
expect_rc 1 "prof script -i missing.data"
expect_err "prof script -i missing.data" <<'EOF'
prof: cannot open 'missing.data': No such file or directory
EOF

head -c 4096 /dev/urandom > random.data
run_prof script -i random.data
expect_rc 1 "prof script -i random.data"
one_error_line "prof script -i random.data"
grep -q "^prof: 'random.data' is not a perf.data file" err ||
	check_later "prof script -i random.data: expected \"prof: 'random.data' is not a perf.data file\", got \"$(cat err)\""

# A good header, then a record whose size (4) is smaller than a record
# header: corrupt at offset 16.
printf 'PERFILE2\020\000\000\000\000\000\000\000\011\000\000\000\000\000\004\000' > small.data
run_prof script -i small.data
expect_rc 1 "prof script -i small.data"
one_error_line "prof script -i small.data"
grep -q "^prof: 'small.data' is corrupt at offset 16: " err ||
	fail "prof script -i small.data (record of size 4 at 16): $(cat err)"

# A profile cut in the middle: the records before the cut, a warning, 0.
for mode in compressed plain; do
	# compressed: zstd frames of up to 256 KiB of records, and a cut shows
	# only whole frames, so the recording is made large enough for several
	# even when a loaded machine gives the workload little CPU (-g, 20 kHz)
	case $mode in
	compressed) opt="-g -F 20000" ;;
	plain) opt=--no-compress ;;
	esac
	run_prof record -q $opt -o $mode.data -- "$shape" -s 1
	expect_rc 0 "prof record $opt -- shape -s 1"
	script_of $mode.data $mode.txt
	all=$(count_lines '^SAMPLE ' $mode.txt)
	size=$(wc -c < $mode.data)
	half=$((size / 2 + 3))
	head -c $half $mode.data > cut.data
	run_prof script -i cut.data
	expect_rc 0 "prof script -i cut.data ($mode, cut at $half of $size)"
	one_error_line "prof script -i cut.data ($mode)"
	grep -q "^prof: warning: 'cut.data' is truncated at offset [0-9]*; showing the records before it\$" err ||
		fail "prof script -i cut.data ($mode): $(cat err)"
	at=$(sed -n 's/.* truncated at offset \([0-9]*\);.*/\1/p' err)
	[ "$at" -le "$half" ] || fail "truncated at offset $at, but the file has $half bytes"
	some=$(count_lines '^SAMPLE ' out)
	note "$mode: cut at $half of $size bytes: $some of $all samples shown, truncated at $at"
	[ "$some" -ge 1 ] && [ "$some" -lt "$all" ] ||
		fail "cut $mode file: $some SAMPLE lines, expected some of the $all"
	head -n "$(wc -l < out)" $mode.txt > prefix.txt
	cmp -s out prefix.txt || fail "the cut $mode file does not show the first records of the whole one"
done
# -o through a symbolic link that another user planted (in /tmp, say):
# refused, and what it points to left alone; the old profile is kept as
# FILE.old, and the new file created with O_EXCL.
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	echo secret > target
	ln -s "$PWD/target" planted.data
	chown -h nobody planted.data
	run_prof record -q -e cpu-clock -o planted.data -- true
	expect_rc 1 "prof record -o a link of another user's"
	one_error_line "prof record -o planted.data"
	grep -q "symbolic link that belongs to another user" err || check_later "unclear: $(cat err)"
	[ "$(cat target)" = secret ] || fail "prof record wrote through the planted link"
else
	note "not root, or no user nobody: the planted-link case is not run"
fi
echo old > again.data
run_prof record -q -e cpu-clock -o again.data -- true
expect_rc 0 "prof record -o an existing file"
[ "$(cat again.data.old)" = old ] || fail "the old profile was not kept as again.data.old"
finish
