#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A host with no tracefs mounted (a fresh boot often has none until
# something mounts it): prof mounts it, as perf does, where it may. In a
# mount namespace of its own (unshare -m) with tracefs unmounted:
#   - root: prof record -e sched:sched_process_exec records each exec of
#     a shell that runs two programs, and tracefs is mounted after;
#   - user nobody: one line saying tracefs is not mounted and how to
#     mount it, exit 1, no file.
# Needs root, unshare and a tracefs-capable kernel.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
require_perf_event

[ "$(id -u)" = 0 ] || skip "needs root to unmount tracefs in a namespace of its own"
command -v unshare > /dev/null 2>&1 || skip "no unshare"
grep -q tracefs /proc/filesystems || skip "no tracefs in this kernel"
unshare -m true 2> /dev/null || skip "unshare -m is refused here"

# in_ns CMD...: CMD in a mount namespace of its own with tracefs unmounted
# (its own mount and debugfs's), after checking that it is gone
in_ns() {
	unshare -m sh -c '
		for m in /sys/kernel/debug/tracing /sys/kernel/tracing /sys/kernel/debug; do
			grep -q " $m " /proc/self/mountinfo && umount "$m"
		done
		[ -e /sys/kernel/tracing/events ] && { echo "tracefs still there" >&2; exit 99; }
		"$@"
		rc=$?
		grep " tracefs " /proc/self/mountinfo | cut -d" " -f5 > mounted
		exit $rc' sh "$@"
}

in_ns "$PROF" record -q -e sched:sched_process_exec -o tp.data -- sh -c '/bin/true; /bin/true' \
	> out 2> err
rc=$?
[ "$rc" != 99 ] || fail "tracefs could not be unmounted in the namespace"
expect_rc 0 "prof record -e sched:sched_process_exec with no tracefs mounted"
note "mounted after: $(cat mounted)"
grep -qx /sys/kernel/tracing mounted || fail "tracefs is not mounted at /sys/kernel/tracing after prof"
run_prof script -i tp.data
expect_rc 0 "prof script"
n=$(grep -c "^SAMPLE .*event=sched:sched_process_exec" out)
note "$n exec samples"
[ "$n" -ge 2 ] || fail "$n samples of sched_process_exec; the shell ran two programs"

if command -v setpriv > /dev/null 2>&1 && id nobody > /dev/null 2>&1; then
	in_ns setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PROF" record -q -e sched:sched_process_exec -o "$PWD/nobody.data" -- true > out 2> err
	rc=$?
	expect_rc 1 "user nobody, no tracefs"
	one_error_line "user nobody, no tracefs"
	grep -q "^prof: -e sched:sched_process_exec: tracefs is not mounted, and cannot be by this user (as root: mount -t tracefs nodev /sys/kernel/tracing)" err ||
		fail "user nobody: $(cat err)"
	[ ! -e nobody.data ] || fail "user nobody: a file was left"
else
	note "no setpriv or no user nobody: the refusal is not tried"
fi
finish
