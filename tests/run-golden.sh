#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every view and format of prof report, and prof script, against golden
# output, with no kernel: tests/golden/genprof writes the profile from
# tests/data/golden/golden.spec through prof's own writer (plain and
# zstd-compressed), its addresses pointing into a committed binary
# (tests/data/golden/prof-golden/golden, built once by make-golden.sh) and
# a committed kallsyms. The spec's shape is known: 90 cpu-clock samples
# over pid 100 (60: leaf_a 40, leaf_b 20), pid 200's threads 200 (10) and
# 201 (10, in the kernel) and pid 300, whose binary is gone (10); 10
# task-clock samples; 2 records lost. Needs no perf_event_open.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

golden_profile
opts=$gopts

# same WHAT: ./out is ./want, or the test fails showing the difference.
same() {
	if ! cmp -s want out; then
		diff -u want out | sed -n 1,40p
		fail "$1 differs from the golden output above"
	fi
}

# golden ARGS <<EOF: prof report -i golden.data ARGS prints exactly the
# here-document, and so does the compressed copy of the profile.
golden() {
	cat > want
	for f in golden.data golden-z.data; do
		# shellcheck disable=SC2086  # $opts and $1 are option lists
		run_prof report -i "$f" $opts $1
		expect_rc 0 "prof report $1 ($f)"
		sed -i "s/golden-z\.data/golden.data/" out
		same "prof report $1 on $f"
	done
}

# The warnings of a report: the binary that is gone, the lost records.
run_prof report -i golden.data $opts
expect_rc 0 "prof report"
mv out flat.out
cat > want << 'EOF'
prof: warning: cannot open /prof-golden/gone: No such file or directory
prof: warning: 2 records were lost (1.96% of samples); record with a bigger -m or a lower -F
EOF
mv err out
same "the warnings of prof report"
# A filter that leaves the gone binary's samples out spares its warning:
# filters run before a sample is resolved.
run_prof report -i golden.data $opts --pid 100,200
expect_rc 0 "prof report --pid 100,200"
grep -q gone err && fail "--pid 100,200 still opened the binary of pid 300: $(cat err)"

# --- the text views, folded stacks and JSON -----------------------------------
# the flat view, both events
golden "" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command   Shared Object      Symbol
# ........  .......  ........  .................  ............................
#
    44.44%       40  golden    golden             [.] step (inlined in leaf_a)
    22.22%       20  golden    golden             [.] leaf_b
    11.11%       10  gone      gone               [.] ?? (gone)
    11.11%       10  worker    golden             [.] leaf_b
     6.67%        6  worker-2  [kernel.kallsyms]  [k] __x64_sys_write
     4.44%        4  worker-2  [kernel.kallsyms]  [k] schedule

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ............................
#
   100.00%       10  golden   golden         [.] step (inlined in leaf_a)
EOF

# --children
golden "--children" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Children     Self  Samples  Command   Shared Object      Symbol
# ........ .......  .......  ........  .................  ............................
#
    66.67%    0.00%        0  golden    golden             [.] main
    66.67%    0.00%        0  golden    golden             [.] mid
    66.67%    0.00%        0  golden    golden             [.] work::spin
    44.44%   44.44%       40  golden    golden             [.] step (inlined in leaf_a)
    44.44%    0.00%        0  golden    golden             [.] leaf_a
    22.22%   22.22%       20  golden    golden             [.] leaf_b
    11.11%   11.11%       10  gone      gone               [.] ?? (gone)
    11.11%   11.11%       10  worker    golden             [.] leaf_b
    11.11%    0.00%        0  worker    golden             [.] main
    11.11%    0.00%        0  worker    golden             [.] mid
     6.67%    6.67%        6  worker-2  [kernel.kallsyms]  [k] __x64_sys_write
     6.67%    0.00%        0  worker-2  [kernel.kallsyms]  [k] do_syscall_64
     6.67%    0.00%        0  worker-2  [kernel.kallsyms]  [k] entry_SYSCALL_64
     6.67%    0.00%        0  worker-2  [unknown]          [.] 0x7f0000001000
     4.44%    4.44%        4  worker-2  [kernel.kallsyms]  [k] schedule
     4.44%    0.00%        0  worker-2  golden             [.] leaf_a
     4.44%    0.00%        0  worker-2  golden             [.] main
     4.44%    0.00%        0  worker-2  golden             [.] mid
     4.44%    0.00%        0  worker-2  golden             [.] step (inlined in leaf_a)
     4.44%    0.00%        0  worker-2  golden             [.] work::spin

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Children     Self  Samples  Command  Shared Object  Symbol
# ........ .......  .......  .......  .............  ............................
#
   100.00%  100.00%       10  golden   golden         [.] step (inlined in leaf_a)
   100.00%    0.00%        0  golden   golden         [.] leaf_a
   100.00%    0.00%        0  golden   golden         [.] main
   100.00%    0.00%        0  golden   golden         [.] mid
   100.00%    0.00%        0  golden   golden         [.] work::spin
EOF

# call graphs, callers first
golden "-g caller" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command   Shared Object      Symbol
# ........  .......  ........  .................  ............................
#
    44.44%       40  golden    golden             [.] step (inlined in leaf_a)
            |
            ---main
               mid
               work::spin
               leaf_a
               step (inlined)

    22.22%       20  golden    golden             [.] leaf_b
            |
            ---main
               mid
               work::spin
               leaf_b

    11.11%       10  gone      gone               [.] ?? (gone)
            |
            ---?? (gone)

    11.11%       10  worker    golden             [.] leaf_b
            |
            ---main
               mid
               leaf_b

     6.67%        6  worker-2  [kernel.kallsyms]  [k] __x64_sys_write
            |
            ---0x7f0000001000
               entry_SYSCALL_64
               do_syscall_64
               __x64_sys_write

     4.44%        4  worker-2  [kernel.kallsyms]  [k] schedule
            |
            ---main
               mid
               work::spin
               leaf_a
               step (inlined)
               schedule


# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ............................
#
   100.00%       10  golden   golden         [.] step (inlined in leaf_a)
            |
            ---main
               mid
               work::spin
               leaf_a
               step (inlined)

EOF

# call graphs, callees first, above 10%
golden "-g callee --percent-limit 10" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ............................
#
    44.44%       40  golden   golden         [.] step (inlined in leaf_a)
            |
            ---step (inlined)
               leaf_a
               work::spin
               mid
               main

    22.22%       20  golden   golden         [.] leaf_b
            |
            ---leaf_b
               work::spin
               mid
               main

    11.11%       10  gone     gone           [.] ?? (gone)
            |
            ---?? (gone)

    11.11%       10  worker   golden         [.] leaf_b
            |
            ---leaf_b
               mid
               main


# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ............................
#
   100.00%       10  golden   golden         [.] step (inlined in leaf_a)
            |
            ---step (inlined)
               leaf_a
               work::spin
               mid
               main

EOF

# the whole program top-down
golden "--tree" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
#   Total     Self  Function
 100.00%    0.00%  [root]
  82.22%    0.00%    [.] main
  82.22%    0.00%      [.] mid
  71.11%    0.00%        [.] work::spin
  48.89%    0.00%          [.] leaf_a
  48.89%   44.44%            [.] step (inlined)
   4.44%    4.44%              [k] schedule
  22.22%   22.22%          [.] leaf_b
  11.11%   11.11%        [.] leaf_b
  11.11%   11.11%    [.] ?? (gone)
   6.67%    0.00%    [.] 0x7f0000001000
   6.67%    0.00%      [k] entry_SYSCALL_64
   6.67%    0.00%        [k] do_syscall_64
   6.67%    6.67%          [k] __x64_sys_write

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
#   Total     Self  Function
 100.00%    0.00%  [root]
 100.00%    0.00%    [.] main
 100.00%    0.00%      [.] mid
 100.00%    0.00%        [.] work::spin
 100.00%    0.00%          [.] leaf_a
 100.00%  100.00%            [.] step (inlined)
EOF

# bottom-up, three levels
golden "--tree=bottom-up --max-depth 3" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
#   Total     Self  Function
 100.00%    0.00%  [root]
  44.44%   44.44%    [.] step (inlined)
  44.44%    0.00%      [.] leaf_a
  44.44%    0.00%        [.] work::spin
  33.33%   33.33%    [.] leaf_b
  22.22%    0.00%      [.] work::spin
  22.22%    0.00%        [.] mid
  11.11%    0.00%      [.] mid
  11.11%    0.00%        [.] main
  11.11%   11.11%    [.] ?? (gone)
   6.67%    6.67%    [k] __x64_sys_write
   6.67%    0.00%      [k] do_syscall_64
   6.67%    0.00%        [k] entry_SYSCALL_64
   4.44%    4.44%    [k] schedule
   4.44%    0.00%      [.] step (inlined)
   4.44%    0.00%        [.] leaf_a

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
#   Total     Self  Function
 100.00%    0.00%  [root]
 100.00%  100.00%    [.] step (inlined)
 100.00%    0.00%      [.] leaf_a
 100.00%    0.00%        [.] work::spin
EOF

# sort keys pid, tid, cpu
golden "--sort pid,tid,cpu" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Pid  Tid  CPU
# ........  .......  ...  ...  ...
#
    44.44%       40  100  100  0
    22.22%       20  100  100  1
    11.11%       10  200  200  1
    11.11%       10  300  300  0
     6.67%        6  200  201  0
     4.44%        4  200  201  1

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Pid  Tid  CPU
# ........  .......  ...  ...  ...
#
   100.00%       10  100  100  0
EOF

# sort keys dso, sym
golden "--sort dso,sym" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Shared Object      Symbol
# ........  .......  .................  ............................
#
    44.44%       40  golden             [.] step (inlined in leaf_a)
    33.33%       30  golden             [.] leaf_b
    11.11%       10  gone               [.] ?? (gone)
     6.67%        6  [kernel.kallsyms]  [k] __x64_sys_write
     4.44%        4  [kernel.kallsyms]  [k] schedule

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Shared Object  Symbol
# ........  .......  .............  ............................
#
   100.00%       10  golden         [.] step (inlined in leaf_a)
EOF

# source lines
golden "--sort sym,srcline" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Symbol                        Source
# ........  .......  ............................  ..................
#
    44.44%       40  [.] step (inlined in leaf_a)  golden.cc:10
    33.33%       30  [.] leaf_b                    golden.cc:27
    11.11%       10  [.] ?? (gone)                 gone+0x1116
     6.67%        6  [k] __x64_sys_write           __x64_sys_write+16
     4.44%        4  [k] schedule                  schedule+16

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Symbol                        Source
# ........  .......  ............................  ............
#
   100.00%       10  [.] step (inlined in leaf_a)  golden.cc:10
EOF

# no inline frames, no demangling
golden "--no-inline --no-demangle -g caller --percent-limit 20" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ..........
#
    44.44%       40  golden   golden         [.] leaf_a
            |
            ---main
               mid
               _ZN4work4spinEi
               leaf_a

    22.22%       20  golden   golden         [.] leaf_b
            |
            ---main
               mid
               _ZN4work4spinEi
               leaf_b


# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ..........
#
   100.00%       10  golden   golden         [.] leaf_a
            |
            ---main
               mid
               _ZN4work4spinEi
               leaf_a

EOF

# C++ names with their parameter lists (perf report -v's spelling)
golden "--params --children --sort sym" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  90
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Children     Self  Samples  Symbol
# ........ .......  .......  ............................
#
    82.22%    0.00%        0  [.] main
    82.22%    0.00%        0  [.] mid
    71.11%    0.00%        0  [.] work::spin(int)
    48.89%   44.44%       40  [.] step (inlined in leaf_a)
    48.89%    0.00%        0  [.] leaf_a
    33.33%   33.33%       30  [.] leaf_b
    11.11%   11.11%       10  [.] ?? (gone)
     6.67%    6.67%        6  [k] __x64_sys_write
     6.67%    0.00%        0  [.] 0x7f0000001000
     6.67%    0.00%        0  [k] do_syscall_64
     6.67%    0.00%        0  [k] entry_SYSCALL_64
     4.44%    4.44%        4  [k] schedule

# prof report of 'golden.data'
# event:    task-clock
# samples:  10
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Children     Self  Samples  Symbol
# ........ .......  .......  ............................
#
   100.00%  100.00%       10  [.] step (inlined in leaf_a)
   100.00%    0.00%        0  [.] leaf_a
   100.00%    0.00%        0  [.] main
   100.00%    0.00%        0  [.] mid
   100.00%    0.00%        0  [.] work::spin(int)
EOF

# filters on commands
golden "--comm worker,worker-2 --sort comm,tid,sym" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  20
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command   Tid  Symbol
# ........  .......  ........  ...  ...................
#
    50.00%       10  worker    200  [.] leaf_b
    30.00%        6  worker-2  201  [k] __x64_sys_write
    20.00%        4  worker-2  201  [k] schedule
EOF

# filters on pid, tid and cpu
golden "--pid 100 --tid 100 --cpu 1" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  20
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ..........
#
   100.00%       20  golden   golden         [.] leaf_b
EOF

# filters on time, dso and symbol
golden "--time 0.2,0.45 --dso golden --symbol ^leaf" <<'EOF'
# prof report of 'golden.data'
# event:    cpu-clock
# samples:  30
# lost:     2 records (1.96% of samples) -- WARNING: the profile is missing samples; record with a bigger -m or a lower -F
# duration: 0.709 s
# command:  prof record -g -o golden.data -- /prof-golden/golden
# host:     golden-host (Linux 6.1.0-golden x86_64)
#
# Overhead  Samples  Command  Shared Object  Symbol
# ........  .......  .......  .............  ..........
#
    66.67%       20  golden   golden         [.] leaf_b
    33.33%       10  worker   golden         [.] leaf_b
EOF

# a filter that keeps nothing
golden "--pid 999" <<'EOF'
# prof report of 'golden.data': no samples left after the filters
EOF

# folded stacks
golden "-F folded" <<'EOF'
golden;main;mid;work::spin;leaf_a;step_[i] 40
golden;main;mid;work::spin;leaf_b 20
gone;?? (gone) 10
worker;main;mid;leaf_b 10
worker-2;[unknown];entry_SYSCALL_64_[k];do_syscall_64_[k];__x64_sys_write_[k] 6
worker-2;main;mid;work::spin;leaf_a;step_[i];schedule_[k] 4
EOF

# folded stacks without the command
golden "-F folded --no-comm" <<'EOF'
?? (gone) 10
[unknown];entry_SYSCALL_64_[k];do_syscall_64_[k];__x64_sys_write_[k] 6
main;mid;leaf_b 10
main;mid;work::spin;leaf_a;step_[i] 40
main;mid;work::spin;leaf_a;step_[i];schedule_[k] 4
main;mid;work::spin;leaf_b 20
EOF

# JSON
golden "-F json --percent-limit 10" <<'EOF'
{
  "schema": "prof-report/2",
  "input": "golden.data",
  "command": "prof record -g -o golden.data -- /prof-golden/golden",
  "host": "golden-host",
  "osrelease": "6.1.0-golden",
  "arch": "x86_64",
  "lost": 2,
  "duration": 0.7090,
  "sort": [
    "comm",
    "dso",
    "sym"
  ],
  "events": [
    {
      "event": "cpu-clock",
      "samples": 90,
      "period": 90000000,
      "flat": [
        {
          "comm": "golden",
          "dso": "golden",
          "sym": "[.] step (inlined in leaf_a)",
          "samples": 40,
          "self": 44.4444,
          "self_period": 40000000
        },
        {
          "comm": "golden",
          "dso": "golden",
          "sym": "[.] leaf_b",
          "samples": 20,
          "self": 22.2222,
          "self_period": 20000000
        },
        {
          "comm": "gone",
          "dso": "gone",
          "sym": "[.] ?? (gone)",
          "samples": 10,
          "self": 11.1111,
          "self_period": 10000000
        },
        {
          "comm": "worker",
          "dso": "golden",
          "sym": "[.] leaf_b",
          "samples": 10,
          "self": 11.1111,
          "self_period": 10000000
        }
      ],
      "tree": [
        {
          "name": "all",
          "kind": "root",
          "parent": null,
          "samples": 90,
          "self_samples": 0,
          "period": 90000000,
          "self_period": 0
        },
        {
          "name": "golden",
          "kind": "root",
          "parent": 0,
          "samples": 60,
          "self_samples": 0,
          "period": 60000000,
          "self_period": 0
        },
        {
          "name": "main",
          "kind": "user",
          "parent": 1,
          "samples": 60,
          "self_samples": 0,
          "period": 60000000,
          "self_period": 0
        },
        {
          "name": "mid",
          "kind": "user",
          "parent": 2,
          "samples": 60,
          "self_samples": 0,
          "period": 60000000,
          "self_period": 0
        },
        {
          "name": "work::spin",
          "kind": "user",
          "parent": 3,
          "samples": 60,
          "self_samples": 0,
          "period": 60000000,
          "self_period": 0
        },
        {
          "name": "leaf_a",
          "kind": "user",
          "parent": 4,
          "samples": 40,
          "self_samples": 0,
          "period": 40000000,
          "self_period": 0
        },
        {
          "name": "step",
          "kind": "inlined",
          "parent": 5,
          "samples": 40,
          "self_samples": 40,
          "period": 40000000,
          "self_period": 40000000
        },
        {
          "name": "leaf_b",
          "kind": "user",
          "parent": 4,
          "samples": 20,
          "self_samples": 20,
          "period": 20000000,
          "self_period": 20000000
        },
        {
          "name": "gone",
          "kind": "root",
          "parent": 0,
          "samples": 10,
          "self_samples": 0,
          "period": 10000000,
          "self_period": 0
        },
        {
          "name": "?? (gone)",
          "kind": "unknown",
          "parent": 8,
          "samples": 10,
          "self_samples": 10,
          "period": 10000000,
          "self_period": 10000000
        },
        {
          "name": "worker",
          "kind": "root",
          "parent": 0,
          "samples": 10,
          "self_samples": 0,
          "period": 10000000,
          "self_period": 0
        },
        {
          "name": "main",
          "kind": "user",
          "parent": 10,
          "samples": 10,
          "self_samples": 0,
          "period": 10000000,
          "self_period": 0
        },
        {
          "name": "mid",
          "kind": "user",
          "parent": 11,
          "samples": 10,
          "self_samples": 0,
          "period": 10000000,
          "self_period": 0
        },
        {
          "name": "leaf_b",
          "kind": "user",
          "parent": 12,
          "samples": 10,
          "self_samples": 10,
          "period": 10000000,
          "self_period": 10000000
        },
        {
          "name": "worker-2",
          "kind": "root",
          "parent": 0,
          "samples": 10,
          "self_samples": 0,
          "period": 10000000,
          "self_period": 0
        },
        {
          "name": "[unknown]",
          "kind": "unknown",
          "parent": 14,
          "samples": 6,
          "self_samples": 0,
          "period": 6000000,
          "self_period": 0
        },
        {
          "name": "entry_SYSCALL_64",
          "kind": "kernel",
          "parent": 15,
          "samples": 6,
          "self_samples": 0,
          "period": 6000000,
          "self_period": 0
        },
        {
          "name": "do_syscall_64",
          "kind": "kernel",
          "parent": 16,
          "samples": 6,
          "self_samples": 0,
          "period": 6000000,
          "self_period": 0
        },
        {
          "name": "__x64_sys_write",
          "kind": "kernel",
          "parent": 17,
          "samples": 6,
          "self_samples": 6,
          "period": 6000000,
          "self_period": 6000000
        },
        {
          "name": "main",
          "kind": "user",
          "parent": 14,
          "samples": 4,
          "self_samples": 0,
          "period": 4000000,
          "self_period": 0
        },
        {
          "name": "mid",
          "kind": "user",
          "parent": 19,
          "samples": 4,
          "self_samples": 0,
          "period": 4000000,
          "self_period": 0
        },
        {
          "name": "work::spin",
          "kind": "user",
          "parent": 20,
          "samples": 4,
          "self_samples": 0,
          "period": 4000000,
          "self_period": 0
        },
        {
          "name": "leaf_a",
          "kind": "user",
          "parent": 21,
          "samples": 4,
          "self_samples": 0,
          "period": 4000000,
          "self_period": 0
        },
        {
          "name": "step",
          "kind": "inlined",
          "parent": 22,
          "samples": 4,
          "self_samples": 0,
          "period": 4000000,
          "self_period": 0
        },
        {
          "name": "schedule",
          "kind": "kernel",
          "parent": 23,
          "samples": 4,
          "self_samples": 4,
          "period": 4000000,
          "self_period": 4000000
        }
      ]
    },
    {
      "event": "task-clock",
      "samples": 10,
      "period": 5000000,
      "flat": [
        {
          "comm": "golden",
          "dso": "golden",
          "sym": "[.] step (inlined in leaf_a)",
          "samples": 10,
          "self": 100.0000,
          "self_period": 5000000
        }
      ],
      "tree": [
        {
          "name": "all",
          "kind": "root",
          "parent": null,
          "samples": 10,
          "self_samples": 0,
          "period": 5000000,
          "self_period": 0
        },
        {
          "name": "golden",
          "kind": "root",
          "parent": 0,
          "samples": 10,
          "self_samples": 0,
          "period": 5000000,
          "self_period": 0
        },
        {
          "name": "main",
          "kind": "user",
          "parent": 1,
          "samples": 10,
          "self_samples": 0,
          "period": 5000000,
          "self_period": 0
        },
        {
          "name": "mid",
          "kind": "user",
          "parent": 2,
          "samples": 10,
          "self_samples": 0,
          "period": 5000000,
          "self_period": 0
        },
        {
          "name": "work::spin",
          "kind": "user",
          "parent": 3,
          "samples": 10,
          "self_samples": 0,
          "period": 5000000,
          "self_period": 0
        },
        {
          "name": "leaf_a",
          "kind": "user",
          "parent": 4,
          "samples": 10,
          "self_samples": 0,
          "period": 5000000,
          "self_period": 0
        },
        {
          "name": "step",
          "kind": "inlined",
          "parent": 5,
          "samples": 10,
          "self_samples": 10,
          "period": 5000000,
          "self_period": 5000000
        }
      ]
    }
  ]
}
EOF

# --- svg: well-formed, its frames where the stacks put them ------------------
run_prof report -i golden.data $opts -F svg
expect_rc 0 "prof report -F svg"
mv out g.svg
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout g.svg 2> xml.err || fail "the flame graph is not well-formed XML: $(head -3 xml.err)"
fi
grep -o '<g class="f"[^>]*>' g.svg > out
cat > want << 'EOF'
<g class="f" data-x="0" data-w="90" data-d="0" data-k="root" data-n="all">
<g class="f" data-x="0" data-w="60" data-d="1" data-k="root" data-n="golden">
<g class="f" data-x="0" data-w="60" data-d="2" data-k="user" data-n="main">
<g class="f" data-x="0" data-w="60" data-d="3" data-k="user" data-n="mid">
<g class="f" data-x="0" data-w="60" data-d="4" data-k="user" data-n="work::spin">
<g class="f" data-x="0" data-w="40" data-d="5" data-k="user" data-n="leaf_a">
<g class="f" data-x="0" data-w="40" data-d="6" data-k="inlined" data-n="step">
<g class="f" data-x="40" data-w="20" data-d="5" data-k="user" data-n="leaf_b">
<g class="f" data-x="60" data-w="10" data-d="1" data-k="root" data-n="gone">
<g class="f" data-x="60" data-w="10" data-d="2" data-k="unknown" data-n="?? (gone)">
<g class="f" data-x="70" data-w="10" data-d="1" data-k="root" data-n="worker">
<g class="f" data-x="70" data-w="10" data-d="2" data-k="user" data-n="main">
<g class="f" data-x="70" data-w="10" data-d="3" data-k="user" data-n="mid">
<g class="f" data-x="70" data-w="10" data-d="4" data-k="user" data-n="leaf_b">
<g class="f" data-x="80" data-w="10" data-d="1" data-k="root" data-n="worker-2">
<g class="f" data-x="80" data-w="6" data-d="2" data-k="unknown" data-n="[unknown]">
<g class="f" data-x="80" data-w="6" data-d="3" data-k="kernel" data-n="entry_SYSCALL_64">
<g class="f" data-x="80" data-w="6" data-d="4" data-k="kernel" data-n="do_syscall_64">
<g class="f" data-x="80" data-w="6" data-d="5" data-k="kernel" data-n="__x64_sys_write">
<g class="f" data-x="86" data-w="4" data-d="2" data-k="user" data-n="main">
<g class="f" data-x="86" data-w="4" data-d="3" data-k="user" data-n="mid">
<g class="f" data-x="86" data-w="4" data-d="4" data-k="user" data-n="work::spin">
<g class="f" data-x="86" data-w="4" data-d="5" data-k="user" data-n="leaf_a">
<g class="f" data-x="86" data-w="4" data-d="6" data-k="inlined" data-n="step">
<g class="f" data-x="86" data-w="4" data-d="7" data-k="kernel" data-n="schedule">
EOF
same "the flame graph's frames"
grep -q 'Flame Graph' g.svg || fail "the flame graph has no title"
grep -q "cpu-clock, 90 samples, golden.data" g.svg || fail "the flame graph's subtitle names no event"
grep -q "has 1 more events; the flame graph shows 'cpu-clock' only" err ||
	fail "no warning that task-clock is left out: $(cat err)"
# prof diff compares the first event, and says so once (the command says
# it, not the model)
run_prof diff golden.data golden.data
expect_rc 0 "prof diff of a profile of two events"
[ "$(grep -c "^prof: warning: 'golden.data' has samples of 1 more event; comparing cpu-clock (choose with --event)$" err)" = 1 ] ||
	fail "prof diff: not one warning of the event compared: $(cat err)"

# --- pprof: gzip, and when go is installed, its traces ------------------------
run_prof report -i golden.data $opts -F pprof -o g.pb.gz
expect_rc 0 "prof report -F pprof"
gzip -t g.pb.gz 2> gz.err || fail "pprof: not gzip: $(cat gz.err)"
gzip -dc g.pb.gz > g.pb
for s in cpu nanoseconds comm leaf_a leaf_b step /prof-golden/golden golden.cc \
	f5bc82042fd17b524c108b69099378bf48f7c64a; do
	grep -q -a "$s" g.pb || fail "pprof: no '$s' in the profile"
done
if command -v go > /dev/null 2>&1; then
	HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= timeout 300 go tool pprof -traces g.pb.gz \
		> traces.out 2> go.err || fail "go tool pprof -traces: $(tail -3 go.err)"
	# the traces, each a block, in a stable order (pprof keeps the order of
	# the samples, which the report's threads may vary among equals)
	blocks() {
		awk 'BEGIN { RS = "-----------\\+-+\n" } NR > 1 { gsub(/\n/, "|"); print }' "$1" | sort
	}
	sed -n '1,/^-----------+/p' traces.out | grep -v '^-' > out
	blocks traces.out >> out
	cat > traces.want << 'EOF'
File: golden
Build ID: f5bc82042fd17b524c108b69099378bf48f7c64a
Type: cpu
Duration: 709ms, Total samples = 90ms (12.69%)
-----------+-------------------------------------------------------
      comm:  golden
      15ms   step (inline)
             leaf_a
             work::spin
             mid
             main
-----------+-------------------------------------------------------
      comm:  golden
      25ms   step (inline)
             leaf_a
             work::spin
             mid
             main
-----------+-------------------------------------------------------
      comm:  golden
      20ms   leaf_b
             work::spin
             mid
             main
-----------+-------------------------------------------------------
      comm:  worker
      10ms   leaf_b
             mid
             main
-----------+-------------------------------------------------------
      comm:  worker-2
       6ms   __x64_sys_write
             do_syscall_64
             entry_SYSCALL_64
             [unknown]
-----------+-------------------------------------------------------
      comm:  worker-2
       4ms   schedule
             step (inline)
             leaf_a
             work::spin
             mid
             main
-----------+-------------------------------------------------------
      comm:  gone
      10ms   [gone]
             [gone]
             [gone]
             [gone]
-----------+-------------------------------------------------------
EOF
	sed -n '1,/^-----------+/p' traces.want | grep -v '^-' > want
	blocks traces.want >> want
	same "go tool pprof -traces"

	# Frames prof cannot name are left for pprof (or a fleet backend) to
	# name from the binary: an address and a Mapping of the file that
	# says it has no functions, never a made-up name. Here gone's file is
	# there at report time but stripped (and without a build id, which Go
	# 1.19's pprof cannot read from these binaries); pprof names its
	# frames from the unstripped copy PPROF_BINARY_PATH holds.
	mkdir -p sfs/prof-golden bin
	cp "$G/prof-golden/golden" sfs/prof-golden/golden
	objcopy --strip-all --remove-section .note.gnu.build-id "$G/prof-golden/golden" \
		sfs/prof-golden/gone || fail "objcopy"
	cp "$G/prof-golden/golden" bin/gone
	run_prof report -i golden.data --symfs sfs -F pprof -o gone.pb.gz
	expect_rc 0 "prof report -F pprof (gone stripped)"
	HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= PPROF_BINARY_PATH=$PWD/bin timeout 300 \
		go tool pprof -traces gone.pb.gz > traces.out 2> go.err || fail "go tool pprof -traces: $(tail -3 go.err)"
	awk 'BEGIN { RS = "-----------\\+-+\n" } /comm: +gone/' traces.out > gone.out
	for f in leaf_a mid main; do
		grep -q " $f\$" gone.out || fail "pprof did not name $f in gone's stack from the binary: $(cat gone.out)"
	done

	# pprof takes the first Mapping for the main program: the one stacks
	# start in, not the busiest (a JVM's time is in libjvm.so)
	cat > main.spec <<-SPEC
	event cpu-clock
	comm 400 400 java
	mmap 400 0x401000 $G/prof-golden/golden as /prof-golden/golden
	mmap 400 0x501000 $G/prof-golden/golden as /usr/lib/libjvm.so nobuildid
	sample 0 1.0 400 400 0 1000000 x30 0x501116 0x501168 0x401188 0x4011b0
	sample 0 1.1 400 400 0 1000000 x10 0x401144 0x401188 0x4011b0
	SPEC
	"$genprof" main.spec main.data 2> gen.err || fail "genprof main.spec: $(cat gen.err)"
	run_prof report -i main.data --symfs "$G" -F pprof -o main.pb.gz
	expect_rc 0 "prof report -F pprof (main.spec)"
	HOME=$tmpdir GOCACHE=$tmpdir/gocache GOFLAGS= timeout 300 go tool pprof -top main.pb.gz \
		> out 2> go.err || fail "go tool pprof -top: $(tail -3 go.err)"
	grep -q '^File: golden$' out || fail "pprof's main program is not the executable: $(sed -n 1,3p out)"
else
	note "go is not installed: pprof checked without go tool pprof"
fi

# --- script ------------------------------------------------------------------
run_prof script -i golden.data
expect_rc 0 "prof script"
mv out raw.out
grep -v '^SAMPLE' raw.out > out
cat > want << 'EOF'
ATTR event=cpu-clock type=1 config=0 sample_type=0x101a7 period=1000000 ids=1
ATTR event=task-clock type=1 config=1 sample_type=0x101a7 period=1000000 ids=2
FEATURE name=hostname value=golden-host
FEATURE name=osrelease value=6.1.0-golden
FEATURE name=arch value=x86_64
FEATURE name=cmdline value=prof record -g -o golden.data -- /prof-golden/golden
FINISHED_INIT
MMAP time=0.000000000 cpu=0 pid=-1 tid=0 addr=0xffffffff81000000 len=0x1000 pgoff=0xffffffff81000000 file=[kernel.kallsyms]_text
COMM time=0.000000000 cpu=0 pid=100 tid=100 comm=golden
MMAP2 time=0.000000000 cpu=0 pid=100 tid=100 addr=0x401000 len=0x1000 pgoff=0x1000 prot=r-x buildid=f5bc82042fd17b524c108b69099378bf48f7c64a file=/prof-golden/golden
COMM time=0.000000000 cpu=0 pid=200 tid=200 comm=worker
MMAP2 time=0.000000000 cpu=0 pid=200 tid=200 addr=0x401000 len=0x1000 pgoff=0x1000 prot=r-x buildid=f5bc82042fd17b524c108b69099378bf48f7c64a file=/prof-golden/golden
COMM time=0.000000000 cpu=0 pid=300 tid=300 comm=gone
MMAP2 time=0.000000000 cpu=0 pid=300 tid=300 addr=0x401000 len=0x1000 pgoff=0x1000 prot=r-x file=/prof-golden/gone
FINISHED_ROUND
FINISHED_ROUND
COMM time=0.000000000 cpu=0 pid=200 tid=201 comm=worker-2
FINISHED_ROUND
LOST time=0.000000000 cpu=0 id=1 lost=2
FINISHED_ROUND
EOF
same "prof script's records but samples"
[ "$(grep -c '^SAMPLE' raw.out)" = 100 ] || fail "prof script: $(grep -c '^SAMPLE' raw.out) samples, not 100"
awk '/^SAMPLE/ && (++n == 1 || n == 61 || n == 71 || n == 77 || n == 100)' raw.out > out
cat > want << 'EOF'
SAMPLE time=1.000000000 cpu=0 pid=100 tid=100 event=cpu-clock period=1000000 ip=0x401116 chain=0xfffffffffffffe00,0x401116,0x401168,0x401188,0x4011b0
SAMPLE time=1.300000000 cpu=1 pid=200 tid=200 event=cpu-clock period=1000000 ip=0x401144 chain=0xfffffffffffffe00,0x401144,0x40119a,0x4011b0
SAMPLE time=1.400000000 cpu=0 pid=200 tid=201 event=cpu-clock period=1000000 ip=0xffffffff81000310 chain=0xffffffffffffff80,0xffffffff81000310,0xffffffff81000210,0xffffffff81000110,0xfffffffffffffe00,0x7f0000001000
SAMPLE time=1.500000000 cpu=1 pid=200 tid=201 event=cpu-clock period=1000000 ip=0xffffffff81000410 chain=0xffffffffffffff80,0xffffffff81000410,0xfffffffffffffe00,0x401116,0x401168,0x401188,0x4011b0
SAMPLE time=1.709000000 cpu=0 pid=100 tid=100 event=task-clock period=500000 ip=0x40111b chain=0xfffffffffffffe00,0x40111b,0x401168,0x401188,0x4011b0
EOF
same "prof script's samples 1, 61, 71, 77 and 100"

# perf script's layout: "comm tid [cpu] time: period event:", the event's
# name aligned to the longest, a frame a line.
run_prof script -i golden.data --symbols $opts
expect_rc 0 "prof script --symbols"
mv out sym.out
[ "$(grep -c ' cpu-clock: $' sym.out)" = 90 ] || fail "prof script --symbols: not 90 cpu-clock samples"
[ "$(grep -c ' task-clock: $' sym.out)" = 10 ] || fail "prof script --symbols: not 10 task-clock samples"
awk 'BEGIN { RS = "" } NR == 1 || NR == 41 || NR == 61 || NR == 71 || NR == 77 || NR == 81 || NR == 91 {
	print; print "" }' sym.out > out
cat > want << 'EOF'
golden   100 [000]     1.000000:    1000000  cpu-clock: 
	            1116 step (inlined) (/prof-golden/golden)
	            1116 leaf_a+0x10 (/prof-golden/golden)
	            1168 work::spin+0xf (/prof-golden/golden)
	            1188 mid+0xf (/prof-golden/golden)
	            11b0 main+0xf (/prof-golden/golden)

golden   100 [001]     1.200000:    1000000  cpu-clock: 
	            1144 leaf_b+0x15 (/prof-golden/golden)
	            1172 work::spin+0x19 (/prof-golden/golden)
	            1188 mid+0xf (/prof-golden/golden)
	            11b0 main+0xf (/prof-golden/golden)

worker   200 [001]     1.300000:    1000000  cpu-clock: 
	            1144 leaf_b+0x15 (/prof-golden/golden)
	            119a mid+0x21 (/prof-golden/golden)
	            11b0 main+0xf (/prof-golden/golden)

worker-2   201 [000]     1.400000:    1000000  cpu-clock: 
	ffffffff81000310 __x64_sys_write+0x10 ([kernel.kallsyms])
	ffffffff81000210 do_syscall_64+0x10 ([kernel.kallsyms])
	ffffffff81000110 entry_SYSCALL_64+0x10 ([kernel.kallsyms])
	    7f0000001000 [unknown] ([unknown])

worker-2   201 [001]     1.500000:    1000000  cpu-clock: 
	ffffffff81000410 schedule+0x10 ([kernel.kallsyms])
	            1116 step (inlined) (/prof-golden/golden)
	            1116 leaf_a+0x10 (/prof-golden/golden)
	            1168 work::spin+0xf (/prof-golden/golden)
	            1188 mid+0xf (/prof-golden/golden)
	            11b0 main+0xf (/prof-golden/golden)

gone   300 [000]     1.600000:    1000000  cpu-clock: 
	            1116 [unknown] (/prof-golden/gone)
	            1168 [unknown] (/prof-golden/gone)
	            1188 [unknown] (/prof-golden/gone)
	            11b0 [unknown] (/prof-golden/gone)

golden   100 [000]     1.700000:     500000 task-clock: 
	            111b step (inlined) (/prof-golden/golden)
	            111b leaf_a+0x15 (/prof-golden/golden)
	            1168 work::spin+0xf (/prof-golden/golden)
	            1188 mid+0xf (/prof-golden/golden)
	            11b0 main+0xf (/prof-golden/golden)

EOF
same "prof script --symbols's samples 1, 41, 61, 71, 77, 81 and 91"

# --- perf reads the file too --------------------------------------------------
if command -v perf > /dev/null 2>&1; then
	perf script -i golden.data > perf.out 2> perf.err || fail "perf script: $(tail -3 perf.err)"
	[ "$(grep -c 'cpu-clock' perf.out)" = 90 ] ||
		fail "perf script reads $(grep -c 'cpu-clock' perf.out) cpu-clock samples, not 90"
else
	note "perf is not installed: not checked that perf reads the file"
fi

# --- small profiles of their own ----------------------------------------------
# Every record lost: the report says the kernel lost them, not just "no samples".
printf 'event cpu-clock\ncomm 1 1 x\nlost 40\n' > lost.spec
"$genprof" lost.spec lost.data 2> gen.err || fail "genprof: $(cat gen.err)"
run_prof report -i lost.data
expect_rc 0 "prof report of a profile whose records were all lost"
cat > want << 'EOF'
# prof report of 'lost.data': no samples: the kernel lost all of them (40 records); record with a bigger -m or a lower -F
EOF
same "the report of a profile whose records were all lost"

# A thread's COMM, then a FORK of it at time 0 (prof record -p and -t wrote
# them so until 0.2, and perf's synthesized records may): its name stays.
cat > tname.spec << EOF
event cpu-clock
comm 10 10 leader
comm 10 11 worker
fork 10 10 11 10 0
mmap 10 0x401000 $G/prof-golden/golden as /prof-golden/golden
sample 0 1.0 10 11 0 1000000 x5 leaf_b+0x15 mid+0x21 main+0xf
EOF
"$genprof" tname.spec tname.data 2> gen.err || fail "genprof: $(cat gen.err)"
run_prof report -i tname.data $opts --sort comm,tid
expect_rc 0 "prof report of a thread named before its synthesized FORK"
grep -Eq '^ *100\.00% +5 +worker +11$' out || fail "the thread lost its name: $(grep '%' out)"

# The binary is gone from its path, but its build id finds it: in perf's
# build-id cache (PERF_BUILDID_DIR, ~/.debug by default: .build-id/ab/
# cdef.../elf), then under --symfs in /usr/lib/debug/.build-id/ab/
# cdef....debug. The names come back, with one line saying from where.
bid=f5bc82042fd17b524c108b69099378bf48f7c64a
sed "s|SYMFS|$G|" "$G/moved.spec" > moved.spec
"$genprof" moved.spec moved.data 2> gen.err || fail "genprof: $(cat gen.err)"
PERF_BUILDID_DIR=$tmpdir/none run_prof report -i moved.data --sort comm,dso,sym,srcline
expect_rc 0 "prof report of a binary that is gone"
grep -Eq '^ *100\.00% +5 +moved +moved +\[\.\] \?\? \(moved\) +moved\+0x1144$' out ||
	fail "a binary gone, its build id nowhere: not an offset into it: $(grep '%' out)"
mkdir -p "cache/.build-id/f5/${bid#f5}"
cp "$G/prof-golden/golden" "cache/.build-id/f5/${bid#f5}/elf"
PERF_BUILDID_DIR=$tmpdir/cache run_prof report -i moved.data
expect_rc 0 "prof report with the binary in the build-id cache"
grep -Eq '^ *100\.00% +5 +moved +moved +\[\.\] leaf_b$' out ||
	fail "the build-id cache's copy did not name the frames: $(grep '%' out)"
grep -q "^prof: warning: /prof-golden/moved is gone; its frames are named from $tmpdir/cache/.build-id/f5/${bid#f5}/elf, of the recorded build id$" err ||
	fail "no line saying where the names came from: $(cat err)"
# and no second line that the path would not open: the names came, and from where is said
grep -q "cannot open /prof-golden/moved" err && fail "a line that the gone path cannot open, beside where its names came from: $(cat err)"
mkdir -p "root/usr/lib/debug/.build-id/f5"
cp "$G/prof-golden/golden" "root/usr/lib/debug/.build-id/f5/${bid#f5}.debug"
PERF_BUILDID_DIR=$tmpdir/none run_prof report -i moved.data --symfs root --strict-symfs
expect_rc 0 "prof report with the debug file under --symfs"
grep -Eq '^ *100\.00% +5 +moved +moved +\[\.\] leaf_b$' out ||
	fail "the debug directory's file did not name the frames: $(grep '%' out)"

# prof archive: the profile's files by build id, in a tar laid out as the
# build-id cache; extracted on "another machine" (where /prof-golden does
# not exist), it names the frames with no option.
cat > arch.spec << EOF
event cpu-clock
comm 30 30 arch
mmap 30 0x401000 $G/prof-golden/golden as /prof-golden/golden
sample 0 1.0 30 30 0 1000000 x5 leaf_b+0x15 mid+0x21 main+0xf
EOF
"$genprof" arch.spec arch.data 2> gen.err || fail "genprof: $(cat gen.err)"
run_prof archive -i arch.data --symfs "$G"
expect_rc 0 "prof archive"
grep -q "^prof: 1 files (0.0 MiB) of 1 build ids to 'arch.data.tar'; on the machine that reports: tar xf 'arch.data.tar' -C ~/.debug$" err ||
	fail "prof archive: not the summary expected: $(cat err)"
tar tf arch.data.tar > out 2> tar.err || fail "prof archive wrote no tar file: $(cat tar.err)"
cat > want << 'EOF'
.build-id/f5/bc82042fd17b524c108b69099378bf48f7c64a/elf
EOF
same "the archive's files"
mkdir laptop
tar xf arch.data.tar -C laptop || fail "cannot extract the archive"
cmp -s "laptop/.build-id/f5/bc82042fd17b524c108b69099378bf48f7c64a/elf" "$G/prof-golden/golden" ||
	fail "the archived file is not the binary"
PERF_BUILDID_DIR=$tmpdir/laptop run_prof report -i arch.data --sort sym
expect_rc 0 "prof report with the archive extracted into the build-id cache"
grep -Eq '^ *100\.00% +5 +\[\.\] leaf_b$' out || fail "the archive did not name the frames: $(grep '%' out)"
run_prof archive -i "$tmpdir/none.data"
expect_rc 1 "prof archive of a missing file"
one_error_line "prof archive of a missing file"

# prof convert: the profile as perf.data in file mode, uncompressed (for
# hotspot, and perf report --children): prof reads it to the same report,
# and perf sees both events and counts children.
run_prof convert -i golden-z.data -o golden.perf
expect_rc 0 "prof convert"
grep -q "^prof: [0-9]* records of 2 events to 'golden.perf' (perf.data, file mode, uncompressed)" err ||
	fail "prof convert: not the summary expected: $(cat err)"
[ "$(od -An -tu8 -j8 -N8 golden.perf | tr -d ' ')" = 104 ] || fail "prof convert wrote no file-mode header"
run_prof report -i golden.data $opts --children
mv out want
run_prof report -i golden.perf $opts --children
expect_rc 0 "prof report of the converted file"
sed -i "s/'golden.perf'/'golden.data'/" out
same "the report of the converted file"
if command -v perf > /dev/null 2>&1; then
	perf report -i golden.perf --stdio --children --sort sym --symfs "$G" > perf.out 2> perf.err ||
		fail "perf report of the converted file: $(tail -3 perf.err)"
	grep -q "^# Samples: 90  of event 'cpu-clock'" perf.out &&
		grep -q "^# Samples: 10  of event 'task-clock'" perf.out ||
		fail "perf report reads not both events of the converted file: $(grep '^# Samples' perf.out)"
	grep -q '^# Children' perf.out || fail "perf report --children shows no Children column"
	grep -Eq '^ +82\.22% +0\.00% +\[\.\] main$' perf.out ||
		fail "perf report --children: main is not at 82.22%: $(grep 'main$' perf.out)"
fi

# Aliases in kallsyms (two names at one address): perf names the address
# after the last of its lines, of any type and name (the others have no
# length there). The run that found it: perf named a page fault's frame
# __x86_indirect_thunk_rax, prof __pi___x86_indirect_thunk_rax, the line
# before it.
{
	head -3 "$G/kallsyms"
	echo "ffffffff81000300 T sys_write_alias_with_a_longer_name"
	echo "ffffffff81000300 t __x64_sys_write"
	echo "ffffffff81000400 T schedule"
	echo "ffffffff81000400 t __schedule_alias"
	tail -2 "$G/kallsyms"
} > alias.kallsyms
run_prof report -i golden.data --symfs "$G" --kallsyms alias.kallsyms --sort sym --no-children
expect_rc 0 "prof report with aliases in kallsyms"
grep '\[k\]' out | sed 's/^ *//; s/  */ /g' > got
printf '%s\n' '6.67% 6 [k] __x64_sys_write' '4.44% 4 [k] __schedule_alias' > want.k
cmp -s got want.k || fail "aliases in kallsyms: not the last line's name: $(tr '\n' ';' < got)"
if command -v perf > /dev/null 2>&1; then
	perf report -i golden.perf --stdio --no-children --sort sym --symfs "$G" \
		--kallsyms alias.kallsyms > perf.out 2> perf.err ||
		fail "perf report with aliases in kallsyms: $(tail -3 perf.err)"
	grep '\[k\]' perf.out | awk '{print $1, $NF}' > perf.k
	awk '{print $1, $NF}' got > prof.k
	cmp -s perf.k prof.k ||
		fail "aliases in kallsyms: perf names $(tr '\n' ';' < perf.k), prof $(tr '\n' ';' < prof.k)"
fi

# --- errors ------------------------------------------------------------------
run_prof report -i golden.data --kallsyms "$tmpdir/none"
expect_rc 64 "prof report --kallsyms of a missing file"
one_error_line "prof report --kallsyms of a missing file"
exit 0
