#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A disk that fills up while recording: prof stops with one clear line and
# a non-zero status, and the file keeps every record written before, with
# no half record at its end (prof cuts it back).
. "$srcdir/tests/test-subr.sh"

require_perf_event
[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs"
mkdir disk
mount -t tmpfs -o size=96k tmpfs disk 2> mount.err ||
	skip "cannot mount a tmpfs here: $(cat mount.err)"
umount_disk() {
	umount disk 2> /dev/null
}
trap 'umount_disk; cleanup' EXIT

# Uncompressed at a high rate, 96 KiB fill in well under the run.
run_prof record --no-compress -F 10000 -e cpu-clock -o disk/full.data -- "$WORKLOADS/shape" -s 10
[ "$rc" != 0 ] || fail "prof record exited 0 though the disk was full"
grep -q "^prof: cannot write 'disk/full.data': No space left on device" err ||
	fail "no clear message for the full disk: $(cat err)"
[ "$(grep -c . err)" -le 3 ] || fail "more than the notice, the error and the summary on stderr: $(cat err)"
said=$(sed -n 's/^prof: \([0-9]*\) samples, .*/\1/p' err)

size=$(wc -c < disk/full.data)
expect_range "bytes kept on the full disk" "$size" 4096 98304
run_prof script -i disk/full.data
expect_rc 0 "prof script of the file left by a full disk"
grep -q truncated err && fail "the file ends in half a record: $(cat err)"
n=$(count_lines '^SAMPLE' out)
expect_range "samples kept" "$n" 100 100000
# The summary counts what reached the file, not what the rings gave.
[ -z "$said" ] || [ "$said" = "$n" ] || fail "the summary says $said samples, the file holds $n"
note "full disk after $size bytes: $n samples kept, file ends on a whole record"
