#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -o - writes the profile to standard output, to a file or to a pipe, and
# prof script reads it from a file or from standard input.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

shape=$WORKLOADS/shape

cpu_reset
run_prof record -q -o - -- "$shape" -s 1
expect_rc 0 "prof record -q -o - -- shape -s 1"
[ -s err ] && fail "prof record -q -o - printed on stderr: $(cat err)"
mv out s.data
[ -e prof.data ] && fail "prof record -o - also wrote prof.data"
[ -e ./- ] && fail "prof record -o - wrote a file named '-'"
head -c 8 s.data > magic
[ "$(cat magic)" = PERFILE2 ] || fail "standard output does not start with PERFILE2"

script_of s.data s.txt
samples=$(count_lines '^SAMPLE ' s.txt)
note "-o - to a file: $samples samples"
expect_samples "-o -" "$samples" 4000

run_prof script -i - < s.data
expect_rc 0 "prof script -i - < s.data"
[ -s err ] && fail "prof script -i - printed on stderr: $(cat err)"
cmp -s out s.txt || fail "prof script -i - shows other records than prof script -i s.data"

# Standard output a pipe, that cannot seek: through a FIFO, so that both
# ends keep their exit status.
mkfifo pipe || fail "mkfifo"
"$PROF" script -i - < pipe > p.txt 2> p.err &
reader=$!
bg_add $reader
cpu_reset
timeout 300 "$PROF" record -q -o - -- "$shape" -s 1 > pipe 2> w.err
wrc=$?
wait $reader
prc=$?
[ "$wrc" = 0 ] || fail "prof record -o - into a pipe exited $wrc: $(cat w.err)"
[ "$prc" = 0 ] || fail "prof script -i - from a pipe exited $prc: $(cat p.err)"
[ -s p.err ] && fail "prof script -i - from a pipe printed on stderr: $(cat p.err)"
psamples=$(count_lines '^SAMPLE ' p.txt)
note "-o - into a pipe: $psamples samples"
expect_samples "through a pipe" "$psamples" 4000
exit 0
