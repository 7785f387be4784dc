#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf report is the oracle for prof report: on the same files (prof's, with
# and without -g, and perf's own, plain and -z) the flat view by
# comm,dso,sym gives every entry above 1% the same share, within 0.5 points;
# and so does --children, Children and Self, on perf's -g file; then the
# same with perf 6.12 (bookworm-backports') on its own files and prof's.
. "$srcdir/tests/test-subr.sh"
require_perf
need_recordings

# perf_rows FILE OUT [--children]: perf's flat view of FILE as lines
# "percent<TAB>comm<TAB>dso<TAB>symbol" (the symbol without its [.]/[k]);
# with --children, "children<TAB>self<TAB>comm<TAB>dso<TAB>symbol".
perf_rows() {
	# shellcheck disable=SC2046  # symfs_opt is one word or none
	${oracle:-perf} report $(perf_symfs_opt) -i "$1" --stdio ${3:---no-children} --sort comm,dso,sym > "$1.perf$3" 2> "$1.perf.err"
	prc=$?
	[ "$prc" = 0 ] || fail "perf report -i $1 $3 exited $prc: $(sed -n 1,5p "$1.perf.err")"
	awk -v np="${3:+2}" 'BEGIN { np = np ? np : 1 }
	$1 ~ /^[0-9.]+%$/ && $(np + 3) ~ /^\[[.k]\]$/ && (np == 1 || $2 ~ /^[0-9.]+%$/) {
		s = $0
		for (i = 0; i < np + 2; i++)
			sub(/^ *[^ ]+ +/, "", s)
		sub(/^\[[.k]\] /, "", s); sub(/ +$/, "", s)
		for (i = 1; i <= np; i++) { p = $i; sub(/%$/, "", p); printf "%s\t", p }
		printf "%s\t%s\t%s\n", $(np + 1), $(np + 2), s
	}' "$1.perf$3" > "$2"
}

# prof_rows FILE OUT [--children]: the same from `prof report --sort
# comm,dso,sym`, whose rows are "[Children] Overhead Samples Command
# Shared-Object [.] symbol".
prof_rows() {
	run_prof report -i "$1" $3 --sort comm,dso,sym
	expect_rc 0 "prof report -i $1 $3 --sort comm,dso,sym"
	mv out "$1.prof$3"
	awk -v np="${3:+2}" 'BEGIN { np = np ? np : 1 }
	!/^#/ && $1 ~ /^[0-9.]+%$/ && $(np + 1) ~ /^[0-9]+$/ && $(np + 4) ~ /^\[[.k]\]$/ {
		s = $0
		for (i = 0; i < np + 3; i++)
			sub(/^ *[^ ]+ +/, "", s)
		sub(/^\[[.k]\] /, "", s); sub(/ +$/, "", s)
		for (i = 1; i <= np; i++) { p = $i; sub(/%$/, "", p); printf "%s\t", p }
		printf "%s\t%s\t%s\n", $(np + 2), $(np + 3), s
	}' "$1.prof$3" > "$2"
	[ -s "$2" ] || fail "prof report -i $1 $3: no entry rows in $(sed -n 1,20p "$1.prof$3")"
}

# compare FILE [--children]: every (comm, dso, symbol) above 1% in either
# view has the same percentage in the other, within 0.5 points (absent
# counts as 0); with --children, the same for its Children and its Self.
bad=0
compare() {
	perf_rows "$1" "$1.pv$2" $2
	prof_rows "$1" "$1.fv$2" $2
	awk -F '\t' -v name="$1${2:+ $2}" -v np="${2:+2}" '
	BEGIN { np = np ? np : 1; split("Overhead", col); if (np == 2) split("Children Self", col, " ") }
	# ld.so: _start calls _dl_start as its last instruction, so the return
	# address is _dl_start_user'"'"'s first byte; perf names that caller by the
	# return address (_dl_start_user), prof by the call (_start), as
	# prof-report(1) says. Where start-up holds 1% (a loaded machine),
	# the two are compared as one.
	$(np + 2) ~ /^ld-linux/ && $(np + 3) == "_dl_start_user" { $(np + 3) = "_start" }
	# a kernel address no symbol names (a recording replayed, its kernel
	# not this one): perf shows each address, prof one row for them all;
	# their Children, a sample counted under each address it passed, do
	# not add up, and are left out
	$(np + 2) == "[kernel.kallsyms]" && $(np + 3) ~ /^0x[0-9a-f]+$/ { $(np + 3) = "?? ([kernel.kallsyms])" }
	np == 2 && $(np + 2) == "[kernel.kallsyms]" && $(np + 3) == "?? ([kernel.kallsyms])" { next }
	{ k = $(np + 1) "\t" $(np + 2) "\t" $(np + 3); keys[k] = 1 }
	FILENAME == ARGV[1] { for (i = 1; i <= np; i++) perf[k, i] += $i; next }
	{ for (i = 1; i <= np; i++) prof[k, i] += $i }
	END {
		for (k in keys) {
			if (perf[k, 1] + 0 <= 1 && prof[k, 1] + 0 <= 1)
				continue
			split(k, f, "\t")
			for (i = 1; i <= np; i++) {
				a = perf[k, i] + 0; b = prof[k, i] + 0
				d = a - b; if (d < 0) d = -d
				printf "%s: %s %s %s: %s perf %.2f%%, prof %.2f%%%s\n", name, f[1], f[2], f[3], col[i],
					a, b, (d > 0.5 ? "  <-- differs by " d " points" : "")
				if (d > 0.5)
					bad++
			}
		}
		exit (bad > 0)
	}' "$1.pv$2" "$1.fv$2" > "$1.cmp$2"
	crc=$?
	sort -t: -k1,1 -s "$1.cmp$2" > "$1.cmps$2"
	while read -r line; do
		note "$line"
	done < "$1.cmps$2"
	[ -s "$1.cmp$2" ] || { note "$1: no entry above 1%"; bad=$((bad + 1)); }
	[ "$crc" = 0 ] || bad=$((bad + 1))
}

for w in shape threads; do
	bin=$WORKLOADS/$w
	record_or_replay oracle-prof-$w prof record -q -e cpu-clock -o prof-$w.data -- "$bin" -s 1
	expect_rc 0 "prof record -e cpu-clock -- $w -s 1"
	record_or_replay oracle-prof-$w-g prof record -q -g -e cpu-clock -o prof-$w-g.data -- "$bin" -s 1
	expect_rc 0 "prof record -g -e cpu-clock -- $w -s 1"
	record_or_replay oracle-perf-$w perf record -q -e cpu-clock -o perf-$w.data -- "$bin" -s 1
	[ "$rc" = 0 ] || fail "perf record -e cpu-clock -- $w exited $rc: $(sed -n 1,5p perf.err)"
	record_or_replay oracle-perf-$w-z perf record -q -z -e cpu-clock -o perf-$w-z.data -- "$bin" -s 1
	[ "$rc" = 0 ] || fail "perf record -z -e cpu-clock -- $w exited $rc: $(sed -n 1,5p perf.err)"
	for f in prof-$w.data prof-$w-g.data perf-$w.data perf-$w-z.data; do
		compare $f
	done
	# Children: perf 6.1 counts them only in its file mode (on a pipe,
	# its own or prof's, it ignores --children), so on perf's -g file.
	record_or_replay oracle-perf-$w-g perf record -q -g -e cpu-clock -o perf-$w-g.data -- "$bin" -s 1
	[ "$rc" = 0 ] || fail "perf record -g -e cpu-clock -- $w exited $rc: $(sed -n 1,5p perf.err)"
	compare perf-$w-g.data --children
done

# perf 6.12 (bookworm-backports), the second oracle: its own files, plain,
# -z and -g, and prof's, read by both.
if have_perf612; then
	oracle=perf612
	note "perf 6.12: $("$PERF612" --version)"
	bin=$WORKLOADS/shape
	for how in "" -z -g; do
		f=perf612-shape$how.data
		# shellcheck disable=SC2086  # how is one word or none
		record_or_replay oracle-perf612-shape$how perf612 record -q $how -e cpu-clock -o $f -- "$bin" -s 1
		[ "$rc" = 0 ] || fail "perf 6.12 record $how -- shape exited $rc: $(sed -n 1,5p perf.err)"
		compare $f
	done
	compare perf612-shape-g.data --children
	compare prof-shape.data
	compare prof-shape-g.data
else
	note "no perf 6.12 at $PERF612 (./install-deps.sh fetches it): only perf 6.1 compared"
fi

[ "$bad" = 0 ] || fail "$bad file(s) where prof report and perf report disagree (see above)"
exit 0
