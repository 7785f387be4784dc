#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A flat view that prints no function (--sort by command, pid, tid, object
# or CPU) leaves frames in files unnamed: it opens no object and reads no
# symbols or DWARF (resolver_names()). What it prints must be what the
# same view by function adds up to: for every committed recording (but the
# compressed or chainless twin of another), the
# samples of each row of --sort K are the sum of the rows of --sort K,sym
# that share K, row for row, and the two list the same Ks.
. "$srcdir/tests/test-subr.sh"

R=$srcdir/tests/data/recorded
n=0
# Under the sanitizers, which look for memory errors, not sums, every
# other view is run, the parity turning with each file: each file and each
# key still run, at half the starts of a sanitized prof (a fifth of a
# second each). The -Werror and distcheck runs compare them all.
half=
sanitized && half=1
asked=0
files=0
# rows NK FILE: each distinct value of the first NK columns after Samples, and its samples, sorted
rows() {
	awk -v nk="$1" '/^#/ || NF < 2 + nk { next }
		{ key = $3; for (i = 4; i < 3 + nk; i++) key = key " " $i; s[key] += $2 }
		END { for (k in s) print k, s[k] }' "$2" | sort
}
for f in "$R"/*.data; do
	# a recording that differs from a sibling only by its compression, or
	# by having no call chains, adds up as its sibling does: left out
	b=${f%.data}
	case $b in *-z | *-raw) continue ;; esac
	[ -f "$b-g.data" ] && continue
	files=$((files + 1))
	for k in comm pid tid dso comm,dso pid,dso cpu; do
		asked=$((asked + 1))
		[ -n "$half" ] && [ $(((asked + files) % 2)) = 1 ] && continue
		nk=$(echo "$k" | awk -F, '{ print NF }')
		timeout -k 5 300 "$PROF" report -i "$f" --sort "$k" > by.out 2> by.err
		a=$?
		timeout -k 5 300 "$PROF" report -i "$f" --sort "$k,sym" > sym.out 2> sym.err
		b=$?
		[ "$a" = "$b" ] || fail "$f --sort $k: exit $a, but $b with sym"
		[ "$a" = 0 ] || continue	# a recording of errors: both refused it alike
		rows "$nk" by.out > by.rows
		rows "$nk" sym.out > sym.rows
		[ -s by.rows ] || fail "$f --sort $k: no rows: $(sed -n 1,3p by.err)"
		cmp -s by.rows sym.rows ||
			fail "$f --sort $k is not what --sort $k,sym adds up to: $(diff sym.rows by.rows | sed -n 1,8p)"
		# the header's counts alike
		grep '^# samples:' by.out > by.hdr
		grep '^# samples:' sym.out > sym.hdr
		cmp -s by.hdr sym.hdr || fail "$f --sort $k: $(cat by.hdr), but $(cat sym.hdr) with sym"
		n=$((n + 1))
	done
done
[ "$n" -gt $((half ? 25 : 50)) ] || fail "only $n views compared"
note "$n views by command, process, thread, object and CPU agree with the views by function"
exit 0
