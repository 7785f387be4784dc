#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record a process that forks a child which execs shape: both processes
# are sampled, each in its own binary, and the records link them.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

forkexec=$WORKLOADS/forkexec
shape=$WORKLOADS/shape
nm -n -S "$forkexec" > forkexec.nm || fail "nm $forkexec"
nm -n -S "$shape" > shape.nm || fail "nm $shape"

cpu_reset
run_prof record -q -o fe.data -- "$forkexec" -s 2
expect_rc 0 "prof record -- forkexec -s 2"
script_of fe.data fe.txt

parent=$(awk "$awk_lib"'$1 == "COMM" && / exec=1 comm=forkexec$/ { print field("pid"); exit }' fe.txt)
child=$(awk "$awk_lib"'$1 == "COMM" && / exec=1 comm=shape$/ { print field("pid"); exit }' fe.txt)
[ -n "$parent" ] || fail "no 'COMM ... exec=1 comm=forkexec'"
[ -n "$child" ] || fail "no 'COMM ... exec=1 comm=shape' for the child's exec"
[ "$parent" != "$child" ] || fail "forkexec and shape have the same pid $parent"
note "forkexec pid $parent, shape pid $child"

grep -q "^FORK .*pid=$child ppid=$parent tid=$child ptid=$parent\( \|\$\)" fe.txt ||
	fail "no 'FORK pid=$child ppid=$parent tid=$child ptid=$parent'"
grep -q "^MMAP2 .*pid=$child .*prot=r-x .*file=$(readlink -f "$shape")\$" fe.txt ||
	fail "no executable MMAP2 of shape in pid $child"
grep -q "^MMAP2 .*pid=$parent .*prot=r-x .*file=$(readlink -f "$forkexec")\$" fe.txt ||
	fail "no executable MMAP2 of forkexec in pid $parent"

shares forkexec.nm fe.txt "$parent" > parent.shares
shares shape.nm fe.txt "$child" > child.shares
spin=$(count_of parent_spin parent.shares)
la=$(count_of leaf_a child.shares)
lb=$(count_of leaf_b child.shares)
lc=$(count_of leaf_c child.shares)
leaves=$((la + lb + lc))
note "parent_spin: $spin samples in pid $parent; shape's leaves: $leaves samples in pid $child"
# each spins about half of the CPU time the two report: at least a fifth
# of what 4000 Hz takes of it, however busy the machine
expect_samples "parent_spin in pid $parent" "$spin" 4000 0.2
expect_samples "shape's leaves in pid $child" "$leaves" 4000 0.2
a=$(share_of leaf_a child.shares leaf_a leaf_b leaf_c)
note "leaf_a has $a% of the child's leaf samples"
expect_range "the child's leaf_a share" "$a" 45 75

exit 0
