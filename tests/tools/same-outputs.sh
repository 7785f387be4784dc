#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every output of two builds of prof, compared byte for byte: for a
# refactoring that must change nothing (issue 54), or to see what a change
# does change. Not run by make check: it needs two builds.
#   tests/tools/same-outputs.sh OLD_PROF NEW_PROF
# runs report (text; sorted by process; caller graphs with --children; the
# tree; source lines; folded, JSON, pprof, speedscope, Firefox, SVG and the
# HTML page), script (and -S), annotate, a --comm filter, --wall and diff
# on each committed recording (tests/data/recorded, with its symfs), or on
# the files FILES names (SYMFS= for none), each build with a cache of its
# own, and says which outputs (or errors, or exit statuses) differ.
# pprof's Samples come in the order they were first seen, which a warm
# answers cache changes from run to run: its traces and totals, as go tool
# pprof prints them, are compared instead of its bytes.
set -u
abs() {
	case $1 in /*) echo "$1" ;; */*) echo "$PWD/$1" ;; *) command -v "$1" ;; esac
}
old=$(abs "$1")
new=$(abs "$2")
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/tests/data/recorded
S=${SYMFS---symfs=$R/root}
out=$(mktemp -d "${TMPDIR:-/tmp}/same.XXXXXX")
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/a" "$out/b"
n=0
bad=0
run() {
	local name=$1
	shift
	(cd "$out/a" && XDG_CACHE_HOME=$out/cache-a "$old" "$@" > "$name.out" 2> "$name.err"
	 echo $? > "$name.rc")
	(cd "$out/b" && XDG_CACHE_HOME=$out/cache-b "$new" "$@" > "$name.out" 2> "$name.err"
	 echo $? > "$name.rc")
	n=$((n + 1))
	local what="out err rc"
	case $name in *-pprof)
		for x in a b; do
			go tool pprof -traces "$out/$x/$name.out" 2> /dev/null |
				awk '/^-+/ { if (t != "") print t; t = ""; next } { t = t "|" $0 }
				     END { print t }' | sort > "$out/$x/$name.traces"
			go tool pprof -top -nodecount=100000 "$out/$x/$name.out" 2> /dev/null |
				sed 1,3d > "$out/$x/$name.top"
		done
		what="traces top err rc"
	esac
	for e in $what; do
		if ! cmp -s "$out/a/$name.$e" "$out/b/$name.$e"; then
			bad=$((bad + 1))
			echo "differs: $name.$e: prof $*"
			break
		fi
	done
}
# shellcheck disable=SC2086
for f in ${FILES:-$R/*.data}; do
	b=$(basename "$f" .data)
	run "$b-text" report -i "$f" $S
	run "$b-sort" report -i "$f" $S --sort pid,comm,dso,sym
	run "$b-caller" report -i "$f" $S -g caller --children
	run "$b-tree" report -i "$f" $S --tree --sort sym
	run "$b-srcline" report -i "$f" $S --sort sym,srcline
	run "$b-folded" report -i "$f" $S -F folded
	run "$b-json" report -i "$f" $S -F json
	run "$b-pprof" report -i "$f" $S -F pprof -o /dev/stdout
	run "$b-speedscope" report -i "$f" $S -F speedscope
	run "$b-firefox" report -i "$f" $S -F firefox
	run "$b-svg" report -i "$f" $S -F svg
	run "$b-html" report -i "$f" $S -F html -o /dev/stdout
	run "$b-script" script -i "$f" $S
	run "$b-scriptS" script -i "$f" $S -S
	run "$b-annotate" annotate -i "$f" $S --stdio
	run "$b-comm" report -i "$f" $S --comm shape --sort sym
	run "$b-wall" report -i "$f" $S --wall
	run "$b-diff" diff "$f" "$R/oracle-prof-shape.data" $S
done
echo "$n outputs compared, $bad differ"
[ "$bad" = 0 ]
