#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Make the recordings in this directory: each command of MANIFEST, run as
# its test runs it, with the workloads copied to /prof-recorded/workloads
# (so that every profile names them there; the tests report with --symfs
# root/, where they are committed). Needs root (for /prof-recorded),
# perf_event_open and perf.
#
#   sh tests/data/recorded/make-recorded.sh BUILDDIR [NAME...]
# With NAMEs, only those are made (again), from the workloads committed in
# root/, which stays as it is: the other recordings keep naming them.
# perf612 in MANIFEST is perf 6.12 (PERF612, install-deps.sh fetches it).
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?give the build directory}" && pwd)
shift
only=$*
W=/prof-recorded/workloads
PERF612=${PERF612:-/usr/local/lib/prof-deps/perf-6.12/usr/bin/perf}
rm -rf /prof-recorded
if [ -n "$only" ]; then
	cp -a "$here/root/prof-recorded" /prof-recorded
else
	mkdir -p $W
	for f in shape threads inline unwind forkexec offcpu leaf libunwlib.so libunwdbf.so \
		libunwdbf.so.debug libunwfp.so; do
		cp "$build/tests/workloads/$f" $W/
	done
	mkdir -p /prof-recorded/views
	cp $W/shape /prof-recorded/views/shape-stripped
	strip /prof-recorded/views/shape-stripped
	rm -f "$here"/*.data "$here"/*.cpu
fi
grep -v '^#' "$here/MANIFEST" | while read -r name dir tool cmd; do
	if [ -n "$only" ]; then
		case " $only " in *" $name "*) ;; *) continue ;; esac
	fi
	mkdir -p "/prof-recorded/$dir"
	cd "/prof-recorded/$dir"
	rm -f ./*.data
	PROF_WORKLOAD_CPU=$here/$name.cpu
	export PROF_WORKLOAD_CPU
	case $tool in
	prof) set -- "$build/prof" ;;
	perf) set -- perf ;;
	perf612) set -- "$PERF612" ;;
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
[ -z "$only" ] || exit 0
rm -rf "$here/root"
mkdir -p "$here/root"
cp -a /prof-recorded "$here/root/"
find "$here/root" -name '*.data' -delete
