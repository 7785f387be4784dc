#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The PLT's entries named as perf 6.12 names them ("labs@plt"; ".plt" for
# the lazy binder's header), where they were "?? (prog)": a sample on every
# entry of a program's .plt, .plt.sec and .plt.got (tests/golden/genprof
# writes them; no kernel needed), each entry a distinct number of samples:
#   - each row is the entry objdump -d labels at that address, where
#     objdump gives a name (not "*ABS*+0x...@plt", an IFUNC's call);
#   - the table is perf 6.12's of the same file, row for row;
# on a program with a lazy .plt (the clocks workload, -no-pie), glibc's
# shared library (.plt of IFUNC calls and .plt.got), and, where a compiler
# is here, one with .plt.sec (-fcf-protection -z ibtplt) and a static one
# (IRELATIVE entries only, named by their IFUNC).
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

genprof=$builddir/tests/golden/genprof
[ -x "$genprof" ] || fail "no $genprof (make check builds it)"
command -v objdump > /dev/null 2>&1 || skip "no objdump (binutils) to read the PLT with"

# check_plt NAME BINARY: the test on one binary
check_plt() {
	_n=$1
	_b=$2
	objdump -d -j .plt -j .plt.sec -j .plt.got "$_b" 2> /dev/null |
		awk '/^[0-9a-f]+ <.*>:$/ { a = $1; l = $2; sub(/^</, "", l); sub(/>:$/, "", l); print a, l }' > "$_n.labels"
	[ -s "$_n.labels" ] || fail "$_n: objdump -d found no PLT entries in $_b"
	# every entry of the PLT sections (entsize, else the alignment: a static
	# program's .plt is labelled once), with objdump's label where it has one
	readelf -SW "$_b" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk '$1 == ".plt" || $1 == ".plt.sec" || $1 == ".plt.got" { print $3, $5, $6, $NF }' |
		while read -r _addr _size _es _al; do
			_step=$((0x$_es))
			[ "$_step" = 0 ] && _step=$_al
			_o=0
			while [ $_o -lt $((0x$_size)) ]; do
				printf '%016x\n' $((0x$_addr + _o))
				_o=$((_o + _step))
			done
		done | awk 'NR == FNR { l[$1] = $2; next } { print $1, ($1 in l) ? l[$1] : "-" }' "$_n.labels" - > "$_n.entries"
	# where its code is mapped: its executable segment at its own address,
	# a shared library's 0x7f0000000000 higher
	seg=$(readelf -lW "$_b" | awk '$1 == "LOAD" && $NF ~ /^0x/ && $(NF - 1) ~ /E/ { print $3; exit }')
	base=0
	readelf -hW "$_b" | grep -q 'Type:.*DYN' && base=0x7f0000000000
	# (the shell's arithmetic: 64 bits, where mawk's %x stops at 32)
	start=$(printf '0x%x' $((seg + base)))
	{
		echo "event cpu-clock"
		echo "comm 100 100 $_n"
		echo "mmap 100 $start $_b"
		echo "round"
		k=0
		while read -r _a _l; do
			k=$((k + 1))
			printf 'sample 0 %d.000 100 100 0 1000000 x%d 0x%x\n' $k $k $((0x$_a + base + 2))
		done < "$_n.entries"
		echo "round"
	} > "$_n.spec"
	"$genprof" "$_n.spec" "$_n.data" 2> gen.err || fail "genprof $_n: $(cat gen.err)"
	run_prof report -i "$_n.data" --sort sym --no-inline
	expect_rc 0 "prof report of $_n"
	[ -s err ] && fail "$_n: warnings: $(cat err)"
	# name -> samples, of the user-space rows (entries of one name make one row)
	awk '$1 ~ /%$/ && $3 == "[.]" { n = $4; for (i = 5; i <= NF; i++) n = n " " $i; print n "\t" $2 }' out | sort > "$_n.rows"
	# entry k has k samples: each name objdump gives ("NAME@plt-0x10", the
	# header, is ".plt") has the samples of its entries; an IFUNC's call,
	# "*ABS*+0x...@plt" to objdump, what it labels by the section alone
	# (".plt": a header or not) or not at all, may add its own to a name
	awk -F '\t' 'NR == FNR { got[$1] = $2; next }
		{ split($0, f, " "); want = f[2]; if (want ~ /-0x[0-9a-f]+$/) want = ".plt"
		  else if (want ~ /^\*ABS\*/ || want ~ /^\.plt/ || want == "-") { abs = 1; next }
		  want_n[want] += FNR }
		END { for (w in want_n) if (!(w in got)) print w ": no row"
			else if (got[w] < want_n[w] || (!abs && got[w] != want_n[w])) print w ": " got[w] " samples, not " want_n[w] }' \
		"$_n.rows" "$_n.entries" > "$_n.bad"
	[ -s "$_n.bad" ] && fail "$_n: rows other than objdump's entries: $(head -n 5 "$_n.bad" | tr '\n' ';')"
	nplt=$(grep -c '@plt	' "$_n.rows")
	note "$_n: $(wc -l < "$_n.entries") PLT entries, $nplt rows named NAME@plt, e.g. $(grep '@plt' "$_n.rows" | sed -n 1p | tr '\t' ' ')"
	[ "$nplt" -gt 0 ] || fail "$_n: no NAME@plt row"
	grep -q '??' "$_n.rows" && fail "$_n: unnamed rows: $(grep '??' "$_n.rows" | head -n 3 | tr '\n' ';')"
	if have_perf612; then
		# perf makes a row of each symbol, prof of each name: summed by name
		perf612 report -i "$_n.data" --stdio -n --sort sym > perf.out 2> perf.err ||
			fail "perf 6.12 report of $_n: $(tail -n 3 perf.err)"
		awk '$1 ~ /%$/ && $3 == "[.]" { n = $4; for (i = 5; i <= NF; i++) n = n " " $i; c[n] += $2 }
			END { for (n in c) print n "\t" c[n] }' perf.out | sort > "$_n.perf"
		cmp -s "$_n.rows" "$_n.perf" ||
			fail "$_n: rows differ from perf 6.12's: $(diff "$_n.rows" "$_n.perf" | head -n 8 | tr '\n' ' ')"
	fi
}

check_plt clocks "$WORKLOADS/clocks"
for libc in /usr/lib/x86_64-linux-gnu/libc.so.6 /lib/x86_64-linux-gnu/libc.so.6 \
	/usr/lib/aarch64-linux-gnu/libc.so.6; do
	if [ -f "$libc" ]; then
		check_plt libc "$libc"
		break
	fi
done

CC=${CC:-cc}
if command -v "$CC" > /dev/null 2>&1; then
	cat > plt.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	printf("%ld %zu\n", labs(argc - 5), strlen(argv[0]));
	return 0;
}
EOF
	if "$CC" -O1 -fno-builtin -fcf-protection -Wl,-z,ibtplt -o ibt plt.c 2> cc.err &&
		readelf -SW ibt | grep -q '\.plt\.sec'; then
		check_plt ibt "$PWD/ibt"
	else
		note "no .plt.sec from $CC -fcf-protection -z ibtplt: that part is not run ($(head -n 1 cc.err))"
	fi
	if "$CC" -O1 -fno-builtin -static -o static plt.c 2> cc.err &&
		readelf -SW static | grep -q '\.plt '; then
		check_plt static "$PWD/static"
	else
		note "no static program with a .plt from $CC -static: that part is not run ($(head -n 1 cc.err))"
	fi
else
	note "no C compiler ($CC): the .plt.sec and static parts are not run"
fi
finish
