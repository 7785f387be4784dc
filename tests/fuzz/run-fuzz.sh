#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs a libFuzzer target for a bounded time on a copy of a seed corpus
# (the seeds are never written to). A crash, hang or out-of-memory becomes
# a file in tests/data/bad/, which `make check` then replays.
#
# usage: tests/fuzz/run-fuzz.sh FUZZER SEED_DIR SECONDS [BAD_DIR]
#   FUZZER    the built target, e.g. tests/fuzz/fuzz-reader
#   SEED_DIR  seed inputs, e.g. tests/data/fixtures
#   SECONDS   how long to fuzz
#   BAD_DIR   where a crashing input goes (default: tests/data/bad beside
#             this script)
# Exit status: 0 no crash, 1 a crash (its new file is printed, with the
# command that reproduces it), 2 the fuzzer could not be run.
set -u

me=run-fuzz.sh
[ $# -ge 3 ] && [ $# -le 4 ] || {
	echo "usage: $me FUZZER SEED_DIR SECONDS [BAD_DIR]" >&2
	exit 64
}
fuzzer=$1
seeds=$2
secs=$3
bad=${4:-$(cd "$(dirname "$0")/.." && pwd)/data/bad}

case $secs in
'' | *[!0-9]*) echo "$me: SECONDS must be a whole number, not '$secs'" >&2; exit 64 ;;
esac
[ -x "$fuzzer" ] || { echo "$me: no fuzzer binary at $fuzzer" >&2; exit 2; }
[ -d "$seeds" ] || { echo "$me: no seed directory $seeds" >&2; exit 2; }
case $fuzzer in /*) ;; *) fuzzer=$PWD/$fuzzer ;; esac
mkdir -p "$bad" || { echo "$me: cannot make $bad" >&2; exit 2; }
bad=$(cd "$bad" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX") || { echo "$me: no temporary directory" >&2; exit 2; }
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$tmp/corpus" "$tmp/artifacts"
# Copy the seeds: libFuzzer adds what it finds to its first corpus directory.
for f in "$seeds"/*; do
	[ -f "$f" ] && cp "$f" "$tmp/corpus/"
done

name=$(basename "$fuzzer")
# UBSan reports and carries on unless told to stop; a report must be a crash.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export UBSAN_OPTIONS
echo "$me: $name for $secs s on a copy of $seeds ($(ls "$tmp/corpus" | wc -l) seeds)"
# libFuzzer honours -max_total_time; the outer timeout is for a fuzzer
# that does not (a hang in its own start-up).
# A report's memory must follow what its input describes: past 1 GiB (ASan
# included) an input is a finding, as is one malloc of 512 MiB.
timeout -k 10 $((secs + 120)) "$fuzzer" \
	-max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512 \
	-max_len=65536 \
	-artifact_prefix="$tmp/artifacts/" -print_final_stats=1 \
	"$tmp/corpus" > "$tmp/log" 2>&1
rc=$?

artifact=
for f in "$tmp/artifacts"/*; do
	[ -f "$f" ] && { artifact=$f; break; }
done

if [ -z "$artifact" ]; then
	if [ "$rc" != 0 ]; then
		echo "$me: $name exited $rc without leaving a crash file; the end of its log:"
		tail -n 30 "$tmp/log"
		exit 2
	fi
	grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added):' "$tmp/log" |
		sed "s/^/$me: /"
	echo "$me: no crash in $secs s"
	exit 0
fi

# A descriptive name: the kind of artifact (crash, timeout, oom, leak), the
# sanitizer's word for the bug, the first of our functions on the stack
# and a hash of the input, e.g.
# fuzz-reader-crash-heap-buffer-overflow-next_decompressed-1a2b3c4d.data
kind=$(basename "$artifact" | sed 's/-.*//')
what=$(awk '
	/ERROR: AddressSanitizer: / { for (i = 1; i <= NF; i++) if ($i == "AddressSanitizer:") { print $(i + 1); exit } }
	/ERROR: LeakSanitizer: / { print "leak"; exit }
	/runtime error: / { sub(/.*runtime error: /, ""); print $1 "-" $2; exit }
	/ERROR: libFuzzer: / { for (i = 1; i <= NF; i++) if ($i == "libFuzzer:") { print $(i + 1); exit } }
	' "$tmp/log" | tr -c 'A-Za-z0-9_\n-' '-' | sed 's/-*$//' | head -n 1)
func=$(awk '
	/^ *#[0-9]+ 0x[0-9a-f]+ in / && $4 != "LLVMFuzzerTestOneInput" && $0 ~ /\/(src|record|report)\// {
		print $4; exit
	}' "$tmp/log" | tr -c 'A-Za-z0-9_\n' '_' | head -n 1)
[ "$what" = "$kind" ] && what=
hash=$(sha1sum "$artifact" | cut -c1-8)
file=$name-$kind${what:+-$what}${func:+-$func}-$hash.data

new=1
for f in "$bad"/*; do
	[ -f "$f" ] && cmp -s "$f" "$artifact" && { file=$(basename "$f"); new=0; break; }
done
[ "$new" = 1 ] && cp "$artifact" "$bad/$file"

echo "$me: $name found a $kind; the sanitizer's report:"
# The first report and its stack, up to the fuzz target's own frame.
awk '/ERROR: |runtime error: / && !p { p = 1 }
	p { print }
	p && /in LLVMFuzzerTestOneInput/ { exit }' "$tmp/log" | head -n 30
grep -m 1 '^SUMMARY: ' "$tmp/log"
if [ "$new" = 1 ]; then
	echo "$me: new file: $bad/$file"
else
	echo "$me: already known: $bad/$file"
fi
echo "$me: reproduce with: UBSAN_OPTIONS=halt_on_error=1 $fuzzer -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512 $bad/$file"
echo "$me: and with prof:  prof script -i $bad/$file"
exit 1
