#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerates the recorded profiles in tests/data/fixtures/ and their
# COUNTS, perf being the oracle for the number of samples in each. See
# tests/data/README.md for what each fixture is and why it exists.
#
# usage: tests/data/make-fixtures.sh WORKLOADS_DIR PROF [OUTDIR]
#   WORKLOADS_DIR  where `make check` built shape, threads and forkexec
#                  (tests/workloads in the build directory)
#   PROF           the prof binary
#   OUTDIR         default: the fixtures/ directory beside this script
set -u

me=make-fixtures.sh
die() {
	echo "$me: $*" >&2
	exit 1
}

[ $# -ge 2 ] && [ $# -le 3 ] || {
	echo "usage: $me WORKLOADS_DIR PROF [OUTDIR]" >&2
	exit 64
}
wl=$1
prof=$2
out=${3:-$(cd "$(dirname "$0")" && pwd)/fixtures}

for w in shape threads forkexec; do
	[ -x "$wl/$w" ] || die "no workload $wl/$w (run make check first)"
done
[ -x "$prof" ] || die "no prof binary at $prof"
command -v perf > /dev/null 2>&1 || die "perf is not installed"
mkdir -p "$out" || die "cannot make $out"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fixtures.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Short runs at 1 kHz keep every fixture well under the 300 KiB limit.
max_bytes=$((300 * 1024))
secs=0.5
ev="-e cpu-clock -F 1000"

# rec NAME STDOUT_TO_FILE CMD...: runs CMD (which writes $tmp/NAME itself,
# or to standard output when STDOUT_TO_FILE is 1) and checks it succeeded.
rec() {
	name=$1
	to_stdout=$2
	shift 2
	if [ "$to_stdout" = 1 ]; then
		"$@" < /dev/null > "$tmp/$name" 2> "$tmp/$name.err"
	else
		"$@" < /dev/null > /dev/null 2> "$tmp/$name.err"
	fi
	rc=$?
	[ "$rc" = 0 ] || die "$name: '$*' exited $rc: $(sed -n 1,5p "$tmp/$name.err")"
	[ -s "$tmp/$name" ] || die "$name: '$*' wrote nothing"
}

f=$tmp
# perf, file mode (104-byte header, attrs and features in sections).
rec perf-file-g.data 0 perf record -q $ev -g -o "$f/perf-file-g.data" -- "$wl/shape" -s $secs
rec perf-file-z.data 0 perf record -q -z $ev -g -o "$f/perf-file-z.data" -- "$wl/threads" -s $secs
# Two events: samples and side records must be told apart by id, and
# perf's synthesized records carry id 0.
rec perf-file-2ev.data 0 perf record -q -e cpu-clock,task-clock -F 1000 -g \
	-o "$f/perf-file-2ev.data" -- "$wl/threads" -s 0.25
# perf, pipe mode (-o - writes the stream to standard output, whatever it is).
rec perf-pipe.data 1 perf record -q $ev -g -o - -- "$wl/forkexec" -s $secs
rec perf-pipe-z.data 1 perf record -q -z $ev -g -o - -- "$wl/shape" -s $secs
# prof: compressed (the default) with call chains, and --no-compress without.
rec prof-z.data 0 "$prof" record -q $ev -g -o "$f/prof-z.data" -- "$wl/threads" -s $secs
rec prof-raw.data 0 "$prof" record -q --no-compress $ev -o "$f/prof-raw.data" -- "$wl/forkexec" -s $secs

names="perf-file-g.data perf-file-z.data perf-file-2ev.data perf-pipe.data perf-pipe-z.data prof-z.data prof-raw.data"

# The oracle: the SAMPLE count in the "Aggregated stats" of perf's raw dump,
# which decodes every record, compressed ones included.
{
	echo "# name samples: SAMPLE records in each fixture, as perf report -D counts them"
	echo "# made by $me with $(perf version 2> /dev/null), Linux $(uname -r) $(uname -m)"
} > "$tmp/COUNTS"
for n in $names; do
	size=$(wc -c < "$tmp/$n")
	[ "$size" -lt "$max_bytes" ] || die "$n is $size bytes, over the $max_bytes limit"
	perf report -D -i "$tmp/$n" > "$tmp/dump" 2> "$tmp/dump.err" ||
		die "perf report -D -i $n failed: $(sed -n 1,5p "$tmp/dump.err")"
	samples=$(awk '/^Aggregated stats:/ { agg = 1; next }
		agg && /^[^ ]/ { agg = 0 }
		agg && $1 == "SAMPLE" && $2 == "events:" { s = $3 }
		END { print s + 0 }' "$tmp/dump")
	[ "$samples" -gt 0 ] || die "perf finds no samples in $n"
	echo "$n $samples" >> "$tmp/COUNTS"
	echo "$me: $n: $size bytes, $samples samples"
done

for n in $names COUNTS; do
	chmod 644 "$tmp/$n" && mv "$tmp/$n" "$out/$n" || die "cannot write $out/$n"
done
echo "$me: wrote $(echo $names | wc -w) fixtures and COUNTS to $out"
