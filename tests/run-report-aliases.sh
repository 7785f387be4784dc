#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Functions of many names at one address (glibc's versioned aliases,
# free/cfree, memcpy's IFUNC names) named as perf names them: of the
# names alike by perf's rules (sized, not weak, global, fewest leading
# '_', longest), the first in the symbol table
# (pthread_rwlock_rdlock@GLIBC_2.2.5, but pthread_rwlock_unlock@@GLIBC_2.34,
# as the table orders them). A sample inside each such function of
# glibc (tests/golden/genprof; no kernel needed), each address a distinct
# number of samples; the table is perf 6.1's of the same file, and perf
# 6.12's, sample for sample.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

genprof=$builddir/tests/golden/genprof
[ -x "$genprof" ] || fail "no $genprof (make check builds it)"
command -v perf > /dev/null 2>&1 || skip "perf is not installed: it is this test's oracle"
libc=
for f in /usr/lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libc.so.6 \
	/usr/lib/aarch64-linux-gnu/libc.so.6; do
	[ -f "$f" ] && libc=$f && break
done
[ -n "$libc" ] || skip "no glibc shared library found"

# the addresses where two or more functions of the dynamic table start
nm -D --defined-only "$libc" | awk '$2 ~ /^[TtWwi]$/ { n[$1]++ } END { for (a in n) if (n[a] > 1) print a }' |
	sort | head -n 300 > addrs
[ "$(wc -l < addrs)" -ge 20 ] || skip "$libc has fewer than 20 addresses of many names"
seg=$(readelf -lW "$libc" | awk '$1 == "LOAD" && $NF ~ /^0x/ && $(NF - 1) ~ /E/ { print $3; exit }')
base=0x7f0000000000
{
	echo "event cpu-clock"
	echo "comm 100 100 aliases"
	printf 'mmap 100 0x%x %s\n' $((seg + base)) "$libc"
	echo "round"
	k=0
	while read -r a; do
		k=$((k + 1))
		printf 'sample 0 %d.000 100 100 0 1000000 x%d 0x%x\n' $k $k $((0x$a + base + 1))
	done < addrs
	echo "round"
} > a.spec
"$genprof" a.spec a.data 2> gen.err || fail "genprof: $(cat gen.err)"

run_prof report -i a.data --sort sym --no-inline
expect_rc 0 "prof report"
[ -s err ] && fail "warnings: $(cat err)"
awk '$1 ~ /%$/ && $3 == "[.]" { n = $4; for (i = 5; i <= NF; i++) n = n " " $i; print n "\t" $2 }' out | sort > prof.rows
note "$(wc -l < addrs) addresses of many names; e.g. $(grep -m 1 '@' prof.rows | tr '\t' ' ')"
grep -q '??' prof.rows && fail "unnamed rows: $(grep '??' prof.rows | head -n 3 | tr '\n' ';')"

# perf: a row a symbol, summed by name as prof's are
perf_rows() {
	awk '$1 ~ /%$/ && $3 == "[.]" { n = $4; for (i = 5; i <= NF; i++) n = n " " $i; c[n] += $2 }
		END { for (n in c) print n "\t" c[n] }' "$1" | sort
}
command perf report -i a.data --stdio -n --sort sym > perf.out 2> perf.err ||
	fail "perf report: $(tail -n 3 perf.err)"
perf_rows perf.out > perf.rows
cmp -s prof.rows perf.rows ||
	fail "rows differ from perf 6.1's: $(diff prof.rows perf.rows | head -n 8 | tr '\n' ' ')"
if have_perf612; then
	perf612 report -i a.data --stdio -n --sort sym > perf.out 2> perf.err ||
		fail "perf 6.12 report: $(tail -n 3 perf.err)"
	perf_rows perf.out > perf612.rows
	cmp -s prof.rows perf612.rows ||
		fail "rows differ from perf 6.12's: $(diff prof.rows perf612.rows | head -n 8 | tr '\n' ' ')"
fi
