#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof agent labels samples with the process's cgroup, and follows a
# process moved to another cgroup after it started (as systemd and
# cgclassify do):
#   - shape (as cgPID) started in cgroup A of the unified hierarchy:
#     a scrape's cgroup label is A alone;
#   - moved to B: a scrape from the next window on is labelled B alone;
#     the first after the move, where the kernel says each sample's cgroup.
# The scrapes are decoded by tests/agent/pprof-sum.py (profile.proto's
# field numbers). Needs root and a cgroup2 hierarchy.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

require_perf_event
cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$cg" ] || skip "no cgroup2 hierarchy mounted"
a=$cg/prof-test-a-$$
b=$cg/prof-test-b-$$
mkdir "$a" 2> /dev/null || skip "cannot make a cgroup under $cg (not root?)"
mkdir "$b" || { rmdir "$a"; skip "cannot make a cgroup under $cg"; }
cgroups_gone() {
	for d in "$a" "$b"; do
		[ -d "$d" ] || continue
		# processes left in it go back to the root first
		while read -r p; do echo "$p" > "$cg/cgroup.procs"; done < "$d/cgroup.procs" 2> /dev/null
		rmdir "$d" 2> /dev/null
	done
}
on_exit cgroups_gone
# the label is the path under the hierarchy's root
rel_a=/${a#"$cg"/}
rel_b=/${b#"$cg"/}

# a name of its own: another build's suite may run this test meanwhile
cgname=cg$$
cp "$WORKLOADS/shape" "$cgname" || fail "cannot copy shape"
sh -c 'echo $$ > "$1/cgroup.procs" && exec "./$2" -s 30 -w 1:0:0' sh "$a" "$cgname" > /dev/null &
pid=$!
bg_add $pid
# the shell puts itself in A, then becomes the copy: wait for the exec
i=0
while [ "$(cat /proc/$pid/comm 2> /dev/null)" != "$cgname" ] && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat /proc/$pid/comm 2> /dev/null)" = "$cgname" ] || fail "the shell never became $cgname"
grep -q "^0::$rel_a\$" /proc/$pid/cgroup || fail "$cgname is not in $rel_a: $(cat /proc/$pid/cgroup)"
"$PROF" agent --listen 127.0.0.1:0 -F 99 --comm "$cgname" --window 1 --duration 60 2> agent.err &
agent_pid=$!
bg_add $agent_pid
agent_url
psum=$srcdir/tests/agent/pprof-sum.py
# cgroups NAME: the distinct cgroup labels of a 2 s scrape
cgroups() {
	curl -s -o "$1.pb.gz" "$url?seconds=2" || fail "curl of a 2 s profile failed"
	python3 "$psum" "$1.pb.gz" > "$1.sum" || fail "the scraped profile does not decode"
	read -r _ n _ _ _ labels < "$1.sum"
	[ "$n" -gt 0 ] || fail "$1: the scrape has no samples"
	echo "$labels" | tr ',' '\n' | sed -n 's/^cgroup=//p'
}
got=$(cgroups before)
note "in A: cgroup=$got"
[ "$got" = "$rel_a" ] || fail "$cgname in $rel_a is labelled cgroup=$got"
echo $pid > "$b/cgroup.procs" || fail "cannot move $cgname to $rel_b"
# an agent that reads a process's cgroup once a window: a scrape that
# began in the window of the move may hold both; the ones after hold B alone
k=0
got=$(cgroups after)
while [ "$got" != "$rel_b" ] && [ $k -lt 30 ]; do
	k=$((k + 1))
	got=$(cgroups after)
done
note "moved to B: cgroup=$got after $k scrapes"
[ "$got" = "$rel_b" ] || fail "$cgname moved to $rel_b is labelled cgroup=$got"
# where the kernel says each sample's cgroup (Linux 5.7), the agent labels
# by the sample's (collect.c's cgroup_of()): the first scrape after the
# move is B's alone
if uname -r | awk -F. '{ exit !($1 > 5 || ($1 == 5 && $2 >= 7)) }'; then
	[ $k = 0 ] || fail "labelled by each sample's cgroup, yet $k scrapes after the move held A"
fi
kill $pid
kill -TERM $agent_pid
wait_gone $agent_pid 300 || fail "prof agent did not stop"
finish
