#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# annotate-heldout.sh: prof annotate against perf annotate on programs
# nobody here wrote, in one run (issue 24). Each program is recorded once
# by prof record --no-compress (perf 6.1's annotate cannot read compressed
# records), and for its hottest functions (three, each with 3% or more of
# the samples) both tools annotate the same file:
#   - the hottest instruction: the same address, shares within 3 points;
#   - where the function has line information (libc's, from libc6-dbg;
#     Python's and Perl's own have none in Debian), the hottest line: the
#     same file:line, shares within 3 points.
# Programs: python3 (the interpreter loop), perl, xz (liblzma), gzip,
# sha256sum, and a C program's memcpy and strlen through libc6-dbg.
# Prints a row per function; exit 0 when every check held, 1 when one
# failed, 77 when it cannot run.
#
#   PROF=./prof sh tests/heldout/annotate-heldout.sh [WORKDIR]

PROF=${PROF:-prof}
me=annotate-heldout
say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }

command -v perf > /dev/null 2>&1 || skip "no perf"
command -v python3 > /dev/null 2>&1 || skip "no python3"
dir=${1:-$(mktemp -d)}
mkdir -p "$dir" && cd "$dir" || exit 1
"$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1 || skip "prof record is refused here"

big=/usr/bin/perl
[ -r "$big" ] || big=/bin/bash
cat > strings.c << 'EOF'
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(void)
{
	static char a[1 << 20], b[1 << 20];
	size_t n = 0;
	time_t end = time(NULL) + 3;

	memset(a, 'x', sizeof(a) - 1);
	while (time(NULL) < end)
		for (int i = 0; i < 64; i++) {
			memcpy(b, a, sizeof(a));
			n += strlen(b);
		}
	return n == 0;
}
EOF
cc -O2 -o strings strings.c || skip "no C compiler"

failed=0
# check NAME FILE: the hottest functions of FILE, prof against perf
check() {
	if ! "$PROF" annotate -i "$2" --json --percent-limit 3 -q > "$1.json" 2> "$1.err"; then
		# a stripped program's own functions have no names, in perf as in prof
		if grep -q "no function holds" "$1.err"; then
			say "  $1: no named function holds 3% (stripped; perf names none either)"
		else
			say "  $1: prof annotate failed: $(head -n 2 "$1.err")"
			failed=1
		fi
		return
	fi
	python3 - "$1.json" > "$1.funcs" << 'PYEOF'
import json, sys
e = json.load(open(sys.argv[1]))["events"][0]
for f in [f for f in e["functions"] if not f["no_code"]][:3]:
    i = max(f["instructions"], key=lambda i: i["samples"])
    l = f["lines"][0] if f["lines"] and f["lines"][0]["file"] else None
    print(f["name"], "%.2f" % f["percent"], i["address"][2:], "%.2f" % i["percent"],
          ("%s:%d" % (l["file"].rsplit("/", 1)[-1], l["line"])) if l else "-",
          "%.2f" % l["percent"] if l else "-")
PYEOF
	while read -r fn fp ia ip ll lp; do
		perf annotate -i "$2" --stdio -l "$fn" > "$1.$fn.perf" 2> /dev/null
		set -- "$1" "$2" $(awk '$2 == ":" && $3 ~ /^[0-9a-f]+:$/ && $1 + 0 > m { m = $1 + 0; a = $3 }
			END { sub(/:$/, "", a); print m, a }' "$1.$fn.perf")
		pip=$3
		pia=$4
		set -- "$1" "$2" $(awk '/^Sorted summary/ { s = 1; next }
			s && NF == 2 && $1 ~ /^[0-9.]+$/ { print $1, $2; exit }' "$1.$fn.perf")
		plp=${3:--}
		pll=${4:--}
		ok=yes
		[ "$pia" = "$ia" ] || ok=no
		awk -v a="$ip" -v b="$pip" 'BEGIN { d = a - b; exit !(d <= 3 && d >= -3) }' || ok=no
		if [ "$ll" != - ]; then
			[ "$pll" = "$ll" ] || ok=no
			awk -v a="$lp" -v b="$plp" 'BEGIN { d = a - b; exit !(d <= 3 && d >= -3) }' || ok=no
		fi
		printf '  %-10s %-32s %6s%%  insn prof %s %6s%% perf %s %6s%%  line prof %s %s%% perf %s %s%%  %s\n' \
			"$1" "$fn" "$fp" "$ia" "$ip" "$pia" "$pip" "$ll" "$lp" "$pll" "$plp" "$ok"
		[ $ok = yes ] || failed=1
	done < "$1.funcs"
}

rec() {
	_name=$1
	shift
	"$PROF" record -q --no-compress -e cpu-clock -o "$_name.data" -- "$@" > /dev/null 2> "$_name.rec.err" ||
		{ say "  $_name: prof record failed: $(head -n 2 "$_name.rec.err")"; failed=1; return 1; }
}

say "$me: prof annotate against perf annotate, the hottest instruction and line of each hot function"
rec python3 python3 -c 'import json; [json.dumps(list(range(2000))) for _ in range(3000)]' && check python3 python3.data
rec perl perl -e 'my %h; $h{$_ % 97} .= "x" for 1 .. 3000000' && check perl perl.data
rec xz xz -6 -c "$big" && check xz xz.data
rec gzip sh -c "for i in 1 2 3 4 5 6; do gzip -9 -c '$big'; done" && check gzip gzip.data
rec sha256sum sh -c "for i in 1 2 3 4 5 6 7 8; do sha256sum '$big'; done" && check sha256sum sha256sum.data
rec strings ./strings && check strings strings.data
if [ $failed = 0 ]; then
	say "$me: every check held"
else
	say "$me: a check failed"
fi
exit $failed
