#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report -o in a directory others write to: a symbolic link another
# user planted is refused and what it points to left alone; an old output
# is replaced whole, or (when the report fails) kept; /dev/stdout and a
# FIFO are written as they are. prof report -i - with standard input
# closed says so. Needs no perf_event_open.
. "$srcdir/tests/test-subr.sh"

in=$srcdir/tests/data/fixtures/prof-z.data

# A new output, then the same name again: replaced, never written through.
run_prof report -i "$in" -o rep.txt
expect_rc 0 "prof report -o rep.txt"
grep -q '^# samples: ' rep.txt || fail "rep.txt holds no report"
echo old > victim
ln victim rep2.txt 2> /dev/null && {
	# a hard link to another file: the output replaces the name, not the file
	run_prof report -i "$in" -o rep2.txt
	expect_rc 0 "prof report -o a hard link"
	[ "$(cat victim)" = old ] || fail "the report was written into the linked file"
	grep -q '^# samples: ' rep2.txt || fail "rep2.txt holds no report"
}

# A failed report keeps the old output as it was.
echo previous > keep.txt
run_prof report -i missing.data -o keep.txt
expect_rc 1 "prof report of a missing file"
[ "$(cat keep.txt)" = previous ] || fail "a failed report clobbered keep.txt"
ls -a | grep -q '^\.keep\.txt\.' && fail "a temporary file was left: $(ls -a)"

# A link planted by another user (root owns this test's files, so use nobody).
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	echo secret > target
	ln -s "$PWD/target" planted.txt
	chown -h nobody planted.txt
	run_prof report -i "$in" -o planted.txt
	expect_rc 1 "prof report -o a link of another user's"
	one_error_line "prof report -o planted.txt"
	grep -q "symbolic link that belongs to another user" err || fail "unclear: $(cat err)"
	[ "$(cat target)" = secret ] || fail "the report was written through the link"
	# ours is followed
	ln -s "$PWD/target" mine.txt
	run_prof report -i "$in" -o mine.txt
	expect_rc 0 "prof report -o a link of our own"
	grep -q '^# samples: ' target || fail "our own link was not followed"
else
	note "not root, or no user nobody: the planted-link case is not run"
fi

# Devices and FIFOs are written as they are.
run_prof report -i "$in" -o /dev/stdout
expect_rc 0 "prof report -o /dev/stdout"
grep -q '^# samples: ' out || fail "nothing on /dev/stdout"
mkfifo pipe.txt
cat pipe.txt > from-fifo &
bg_add $!
run_prof report -i "$in" -o pipe.txt
expect_rc 0 "prof report -o a FIFO"
wait
grep -q '^# samples: ' from-fifo || fail "nothing came through the FIFO"

# -i - with standard input closed: one line, no "not a perf.data file".
timeout 120 "$PROF" report -i - > out 2> err <&-
rc=$?
expect_rc 1 "prof report -i - with stdin closed"
one_error_line "prof report -i - <&-"
grep -q "cannot open '-': Bad file descriptor" err || fail "unclear: $(cat err)"
note "outputs: no write through a planted link; old outputs kept on failure"
