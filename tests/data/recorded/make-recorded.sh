#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Make the recordings in this directory: each command of MANIFEST, run as
# its test runs it, with the workloads copied to /prof-recorded/workloads
# (so that every profile names them there; the tests report with --symfs
# root/, where they are committed). Needs root (for /prof-recorded),
# perf_event_open and perf.
#
#   sh tests/data/recorded/make-recorded.sh BUILDDIR
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?give the build directory}" && pwd)
W=/prof-recorded/workloads
rm -rf /prof-recorded
mkdir -p $W
for f in shape threads inline unwind forkexec offcpu leaf libunwlib.so libunwdbf.so libunwdbf.so.debug \
	libunwfp.so; do
	cp "$build/tests/workloads/$f" $W/
done
mkdir -p /prof-recorded/views
cp $W/shape /prof-recorded/views/shape-stripped
strip /prof-recorded/views/shape-stripped
rm -f "$here"/*.data "$here"/*.cpu
grep -v '^#' "$here/MANIFEST" | while read -r name dir tool cmd; do
	mkdir -p "/prof-recorded/$dir"
	cd "/prof-recorded/$dir"
	rm -f ./*.data
	PROF_WORKLOAD_CPU=$here/$name.cpu
	export PROF_WORKLOAD_CPU
	case $tool in
	prof) set -- "$build/prof" ;;
	perf) set -- perf ;;
	esac
	# shellcheck disable=SC2086  # cmd is a word list
	eval "set -- \"\$@\" $cmd"
	out=
	prev=
	for a in "$@"; do
		[ "$prev" = -o ] && out=$a
		prev=$a
	done
	if [ "$out" = - ]; then
		"$@" > "$here/$name.data" < /dev/null
	else
		"$@" < /dev/null > /dev/null
		mv "$out" "$here/$name.data"
	fi
	echo "$name: $(wc -c < "$here/$name.data") bytes"
done
rm -rf "$here/root"
mkdir -p "$here/root"
cp -a /prof-recorded "$here/root/"
find "$here/root" -name '*.data' -delete
