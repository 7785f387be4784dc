#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# top-heldout.sh: prof top against perf top on programs nobody here wrote,
# live, side by side (issue 24). Each program runs for 14 s; both tools
# watch it at once (-p, cpu-clock at 4000 Hz, -z: each table counts its own
# interval, -d 3), and their last whole tables are compared: the five
# hottest functions of perf's are in prof's, each within 3 points (code
# without symbols by its address: perf's 0x15a50, prof's liblzma...+0x15a50).
# Programs: python3, perl, xz (liblzma), gzip, sha256sum.
# Prints a row per function; exit 0 when every check held, 1 when one
# failed, 77 when it cannot run.
#
#   PROF=./prof sh tests/heldout/top-heldout.sh [WORKDIR]

PROF=${PROF:-prof}
me=top-heldout
say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }

command -v perf > /dev/null 2>&1 || skip "no perf"
command -v python3 > /dev/null 2>&1 || skip "no python3"
dir=${1:-$(mktemp -d)}
mkdir -p "$dir" && cd "$dir" || exit 1
"$PROF" record -q -e cpu-clock -o probe.data true > /dev/null 2>&1 || skip "prof record is refused here"
head -c 64000000 /dev/urandom > random.bin

# last_table FILE: the rows of the last table but one (the last may be cut
# short), as "share name", for prof's or perf's --stdio layout
last_table() {
	awk '/^# prof top |PerfTop:/ { n++ } { t[n] = t[n] "\n" $0 } END { print t[n - 1] }' "$1" |
		awk '$1 ~ /^[0-9.]+%$/ && ($3 == "[.]" || $3 == "[k]") {
			sub(/%/, "", $1); name = $4; for (i = 5; i <= NF; i++) name = name " " $i
			print $1, name }'
}

# watch NAME COMMAND...: run it, both tops on it, compare
watch() {
	name=$1
	shift
	"$@" > /dev/null 2> /dev/null &
	pid=$!
	sleep 0.5
	"$PROF" top --stdio -z -d 3 -E 15 -F 4000 -p $pid --duration 12 > "$name.prof" 2> "$name.prof.err" &
	ppid=$!
	# perf top reads keys from its standard input: one that stays open and silent
	sleep 20 | perf top --stdio -z -d 3 -E 15 -F 4000 -e cpu-clock -p $pid > "$name.perf" 2> "$name.perf.err" &
	fpid=$!
	sleep 12.5
	pkill -INT -f "perf top --stdio -z -d 3 -E 15 -F 4000 -e cpu-clock -p $pid\$" 2> /dev/null
	wait $ppid
	wait $fpid 2> /dev/null
	pkill -f "^sleep 20\$" 2> /dev/null
	kill $pid 2> /dev/null
	wait $pid 2> /dev/null
	last_table "$name.prof" > "$name.prof.t"
	last_table "$name.perf" | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' > "$name.perf.t"
	if [ ! -s "$name.prof.t" ] || [ ! -s "$name.perf.t" ]; then
		say "$name: no table from $([ -s "$name.prof.t" ] && echo perf || echo prof)"
		echo x >> fails
		return
	fi
	head -n 5 "$name.perf.t" | while read -r share fn; do
		# perf cuts long names to its columns: a prefix of prof's then; an
		# address without a symbol is perf's 0x0000000000015a50, prof's
		# liblzma.so.5.4.1+0x15a50
		hex=
		case $fn in 0x*) hex=+0x$(printf '%x' "$fn") ;; esac
		mine=$(awk -v f="$fn" -v h="$hex" '{ s = $1; $1 = ""; sub(/^ /, "") }
			$0 == f || (length(f) >= 20 && index($0, f) == 1) ||
			(h != "" && substr($0, length($0) - length(h) + 1) == h) { print s; exit }' "$name.prof.t")
		ok=yes
		if [ -z "$mine" ]; then
			ok=MISSING
		elif ! awk -v a="$share" -v b="$mine" 'BEGIN { d = a - b; exit !(d < 3 && d > -3) }'; then
			ok=DIFFERS
		fi
		printf '%-10s %-44s perf %6.2f%%  prof %6s%%  %s\n' "$name" "$fn" "$share" "${mine:--}" "$ok"
		[ "$ok" = yes ] || echo x >> fails
	done
}

: > fails
watch python3 python3 -c 'import json
while True: json.loads(json.dumps([{"a": i, "b": str(i) * 3} for i in range(100000)]))'
watch perl perl -e 'my %h; while (1) { $h{$_ % 9973} .= "x$_" for 1..200000; %h = () }'
# filters read a FIFO that a loop keeps full: the one process watched is
# theirs (sh execs it, keeping its pid; a command put in the background
# would read /dev/null)
feed() {
	rm -f fifo
	mkfifo fifo
	# it stops when its reader is gone: cat fails writing to a FIFO nobody reads
	(while cat random.bin; do :; done) > fifo 2> /dev/null &
	feeder=$!
}
feed
watch xz sh -c 'exec xz -3 -c < fifo'
kill $feeder
feed
watch gzip sh -c 'exec gzip -6 -c < fifo'
kill $feeder
feed
watch sha256sum sh -c 'exec sha256sum < fifo'
kill $feeder
n=$(wc -l < fails)
if [ "$n" -gt 0 ]; then
	say "$me: $n checks failed (tables in $dir)"
	exit 1
fi
say "$me: every check held"
exit 0
