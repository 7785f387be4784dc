#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The options a perf user types, walked as a table: each perf spelling
# that means something to prof gives the very output of prof's own
# spelling of it (or, for what prof always does, of none); each that does
# not is refused in one line that names what prof does instead. The
# reports read committed recordings, so no perf_event_open is needed
# but for the last part, prof record's spellings.
. "${srcdir:-.}/tests/test-subr.sh"

rec=$srcdir/tests/data/recorded
g=$rec/oracle-prof-shape-g.data
symfs=--symfs=$rec/root

# report_of FILE ARGS...: prof report -i FILE ARGS into ./out, ./err, $rc.
report_of() {
	_f=$1
	shift
	timeout -k 5 300 "$PROF" report -i "$_f" "$symfs" "$@" > out 2> err
	rc=$?
}

# same FILE 'PERF SPELLING' 'PROF SPELLING': both exit 0, the same output.
same() {
	# shellcheck disable=SC2086 # the spellings are word lists
	report_of "$1" $3
	[ "$rc" = 0 ] || fail "prof report $3: exit status $rc: $(cat err)"
	mv out want.out
	# shellcheck disable=SC2086
	report_of "$1" $2
	[ "$rc" = 0 ] || fail "prof report $2 (perf's): exit status $rc: $(cat err)"
	[ -s out ] || fail "prof report $2: no output"
	cmp -s out want.out || fail "prof report $2 differs from prof report ${3:-(no option)}:
$(diff want.out out | sed -n 1,12p)"
}

# refused CMD 'SPELLING' TEXT: exit 64, one line on stderr, and it says TEXT.
refused() {
	_cmd=$1
	# shellcheck disable=SC2086
	if [ "$_cmd" = report ]; then
		report_of "$g" $2
	else
		timeout -k 5 300 "$PROF" "$_cmd" $2 > out 2> err
		rc=$?
	fi
	[ "$rc" = 64 ] || fail "prof $_cmd $2: exit status $rc, expected 64: $(cat err)"
	one_error_line "prof $_cmd $2"
	grep -q -F -e "$3" err || fail "prof $_cmd $2 does not say '$3': $(cat err)"
	[ -s out ] && fail "prof $_cmd $2 wrote to standard output: $(sed -n 1,3p out)"
	return 0
}

# --- prof report: perf's spellings with perf's meaning ----------------------
#     file  perf's                                 prof's
same "$g" "--stdio"                                ""
same "$g" "-n"                                     ""
same "$g" "--show-nr-samples --header -I -f"      ""
same "$g" "--demangle --inline"                    ""
same "$g" "--no-children"                          ""
same "$g" "--children --no-children"               ""
same "$g" "-g none"                                ""
same "$g" "--call-graph=none"                      ""
same "$g" "-G"                                     "-g caller"
same "$g" "-g"                                     "-g caller"
same "$g" "-g graph,0.5,caller"                    "-g caller"
same "$g" "-g graph,0.5,callee,function,percent"   "-g callee"
same "$g" "--call-graph=callee"                    "-g callee"
same "$g" "-g caller --stdio"                      "-g caller"
same "$g" "-c shape"                               "--comm shape"
same "$g" "--comms=shape"                          "--comm shape"
same "$g" "-d libc.so.6"                           "--dso libc.so.6"
same "$g" "--dsos shape"                           "--dso shape"
same "$g" "-S leaf_a,leaf_b"                       "--symbol ^(leaf_a|leaf_b)$"
same "$g" "--symbol-filter eaf_"                   "--symbol eaf_"
same "$g" "--sort symbol"                          "--sort sym"
same "$g" "--sort dso,symbol --children"           "--children --sort dso,sym"
# (and an optional value as the next word, where it can only be one)
same "$g" "--tree bottom-up"                       "--tree=bottom-up"
same "$g" "--tree -s sym"                          "--tree=top-down -s sym"

# -S names functions whole; --symbol-filter finds them inside names.
report_of "$g" -S leaf_
[ "$rc" = 0 ] || fail "prof report -S leaf_: exit status $rc: $(cat err)"
grep -q 'leaf_a' out && fail "prof report -S leaf_ kept leaf_a: -S names functions whole"

# -q: the warnings go, the report stays.
lost=$rec/views-lost.data
report_of "$lost"
grep -q 'records were lost' err || fail "views-lost.data: no warning of lost records to hide: $(cat err)"
mv out want.out
report_of "$lost" -q
[ "$rc" = 0 ] && [ ! -s err ] || fail "prof report -q: exit status $rc, stderr: $(cat err)"
cmp -s out want.out || fail "prof report -q changed the report"
report_of "$rec/oracle-prof-shape.data" -g caller -q
[ "$rc" = 0 ] && [ ! -s err ] || fail "prof report -g caller -q on a file without chains: $(cat err)"

# ... in every format: one event of two drawn, and not said.
two=$srcdir/tests/data/fixtures/perf-file-2ev.data
report_of "$two" -F folded
grep -q 'more event' err || fail "perf-file-2ev.data -F folded: no warning of the other event to hide: $(cat err)"
mv out want.out
report_of "$two" -F folded -q
[ "$rc" = 0 ] && [ ! -s err ] || fail "prof report -F folded -q: exit status $rc, stderr: $(cat err)"
cmp -s out want.out || fail "prof report -F folded -q changed the output"

# --header-only: the header, the lines before the table, and nothing more.
report_of "$g" --header-only
[ "$rc" = 0 ] || fail "prof report --header-only: exit status $rc: $(cat err)"
mv out head.out
report_of "$g"
awk '/^# Overhead/ { exit } { print }' out > want.out
[ -s head.out ] && cmp -s head.out want.out || fail "prof report --header-only:
$(diff want.out head.out | sed -n 1,10p)"

# -g graph,THRESHOLD: a graph's branches below THRESHOLD percent go. A
# profile of known branches (genprof): leaf_b reached from main through
# mid (60 samples), through mid and work::spin (36), and from main (4).
G=$srcdir/tests/data/golden
gen_spec branches << EOF
event cpu-clock
feature arch x86_64
comm 100 100 golden
mmap 100 0x401000 $G/prof-golden/golden as /prof-golden/golden
round
sample 0 1.000 100 100 0 1000000 x60 leaf_b+0x15 mid+0xf main+0xf
sample 0 1.100 100 100 0 1000000 x36 leaf_b+0x15 _ZN4work4spinEi+0x19 mid+0xf main+0xf
sample 0 1.200 100 100 0 1000000 x4 leaf_b+0x15 main+0xf
round
EOF
run_prof report -i branches.data --symfs "$G" -g caller
branches() {
	sed -n 's/.*--\([0-9][0-9.]*\)%--.*/\1/p' out
}
small=$(branches | awk '$1 < 5' | wc -l)
big=$(branches | awk '$1 >= 5' | wc -l)
[ "$small" -gt 0 ] || fail "branches.data -g caller: no branch under 5% to drop: $(cat out)"
run_prof report -i branches.data --symfs "$G" -g graph,5,caller
[ "$rc" = 0 ] || fail "prof report -g graph,5,caller: exit status $rc: $(cat err)"
s5=$(branches | awk '$1 < 5' | wc -l)
b5=$(branches | awk '$1 >= 5' | wc -l)
[ "$s5" = 0 ] || fail "-g graph,5,caller kept $s5 branches under 5%"
# (a branch left alone under its parent is drawn without its share)
[ "$b5" -ge 1 ] && [ "$b5" -le "$big" ] || fail "-g graph,5,caller: $b5 branches of 5% and more, of $big"
note "-g graph,5: $small branches under 5% dropped, $b5 of $big shown"

# --max-stack N keeps the N frames nearest the sample, as perf does in
# callee order: the Children column against perf's on perf's recording.
if command -v perf > /dev/null 2>&1; then
	pg=$rec/oracle-perf-shape-g.data
	mkdir psym
	ln -s "$rec/root/prof-recorded" psym/prof-recorded
	for d in /usr /lib /lib64; do
		[ -e "$d" ] && ln -s "$d" "psym$d"
	done
	for n in 1 2 3; do
		perf report -i "$pg" --symfs="$PWD/psym" --max-stack $n --children \
			--call-graph=graph,0.5,callee --stdio -q --sort sym 2> perf.err |
			awk '/^ +[0-9.]+% +[0-9.]+% +\[\.\]/ && $1 + 0 >= 1 { print $1, $4 }' |
			sort > perf.$n
		report_of "$pg" --max-stack $n --children --sort sym
		[ "$rc" = 0 ] || fail "prof report --max-stack $n: exit status $rc: $(cat err)"
		awk '/^ +[0-9.]+% +[0-9.]+% +[0-9]+ +\[\.\]/ && $1 + 0 >= 1 { print $1, $5 }' out |
			sort > prof.$n
		[ -s perf.$n ] || fail "perf report --max-stack $n: no entries: $(cat perf.err)"
		cmp -s perf.$n prof.$n || fail "--max-stack $n: prof's Children differ from perf's:
$(diff perf.$n prof.$n)"
	done
	grep -q main prof.2 && fail "--max-stack 2 kept main, three frames from the leaves"
	grep -q main prof.3 || fail "--max-stack 3 lost main"
else
	note "perf is not installed: --max-stack not compared with it"
fi

# --- prof report: refused, saying what prof does -----------------------------
refused report "--tui"                    "prof view opens the interactive page"
refused report "--gtk"                    "prof view opens the interactive page"
refused report "-T -F json"               "the text format's table"
refused report "-F overhead,sym"          "--sort KEYS"
refused report "-g fractal"               "shares of the total"
refused report "-g flat"                  "--format folded"
refused report "-g graph,0.5,10"          "give -g graph,THRESHOLD"
refused report "-g caller,address"        "prof script"
refused report "-D"                       "prof script"
refused report "-k /boot/vmlinux"         "--kallsyms"
refused report "-v"                       "--params"
refused report "--stats"                  "prof script"
refused report "--header-only -F json"    "text format"
refused report "--bogus"                  "unknown option '--bogus'"
refused report "--s"                      "ambiguous"
refused report "-g caller,2 --max-stack"  "needs a value"
refused diff "-g caller,2 a b"            "--percent-limit"
refused script "-F ip,sym"                "-S"
refused report "-i $g extra"              "unexpected argument 'extra'"

# The usage and its refusals come from one table: every option --help
# shows is one the parser takes. (Before anything runs, the next word, an
# unknown option, is refused, or taken as the value of one that has one.)
for cmd in report diff script archive convert record agent; do
	"$PROF" $cmd --help > help.$cmd || fail "prof $cmd --help failed"
	sed -n 's/^  \(-[^ ,]*, \)\{0,1\}\(--[a-z-]*\).*/\2/p' help.$cmd | sort -u > opts.$cmd
	[ "$(wc -l < opts.$cmd)" -ge 3 ] || fail "prof $cmd --help: too few options: $(cat help.$cmd)"
	while read -r o; do
		[ "$o" = --help ] && continue
		"$PROF" $cmd "$o" --no-such-option > /dev/null 2> err
		grep -q "^prof: " err ||
			fail "prof $cmd $o --no-such-option: $(cat err)"
		grep -q -e "unknown option '$o'" -e ambiguous err &&
			fail "prof $cmd: $o from --help is not taken: $(cat err)"
		# and its man page tells of it
		roff=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -e "$roff" "$srcdir/doc/prof-$cmd.1" ||
			fail "prof $cmd: $o is in --help but not in doc/prof-$cmd.1"
	done < opts.$cmd
done

# --- prof record: perf's spellings -------------------------------------------
need_recordings
if replaying; then
	note "perf_event_open is refused: prof record's spellings are not tried"
	finish
fi
shape=$WORKLOADS/shape
threads=$WORKLOADS/threads

# -z without a level before another option, as perf takes it.
run_prof record -q -z -e cpu-clock -o z.data -- "$shape" -s 0.2
expect_rc 0 "prof record -z -e cpu-clock"
script_of z.data z.txt
grep -q '^ATTR ' z.txt || fail "prof record -z: no ATTR in the profile"

# What prof always records: -T, --sample-cpu, -P, -R, -B, -k mono change
# nothing in the events' attributes.
run_prof record -q -e cpu-clock -o plain.data -- "$shape" -s 0.1
expect_rc 0 "prof record"
run_prof record -q -T --sample-cpu -P -R -B -k mono -e cpu-clock -o perfish.data -- \
	"$shape" -s 0.1
expect_rc 0 "prof record -T --sample-cpu -P -R -B -k mono"
script_of plain.data plain.txt
script_of perfish.data perfish.txt
grep '^ATTR' plain.txt | sed 's/ ids=[^ ]*//' > plain.attr
grep '^ATTR' perfish.txt | sed 's/ ids=[^ ]*//' > perfish.attr
cmp -s plain.attr perfish.attr || fail "perf's no-op spellings changed the attributes:
$(diff plain.attr perfish.attr)"

# --all-user: every sample in user space.
run_prof record -q --all-user -e cpu-clock -o user.data -- "$shape" -s 0.3
expect_rc 0 "prof record --all-user"
report_of user.data --sort dso
grep -q 'kernel' out && fail "prof record --all-user: kernel samples: $(grep kernel out)"
grep -q 'shape' out || fail "prof record --all-user: no samples of shape: $(cat out)"

# --no-inherit: the threads the command starts are not followed. Those
# of threads spin; its first thread only waits for them.
run_prof record -q -e cpu-clock -o inh.data -- "$threads" -s 0.5
expect_rc 0 "prof record of threads"
report_of inh.data --sort sym
grep -q spin_a out && grep -q spin_b out || fail "prof record of threads: no spin_a and spin_b: $(cat out)"
run_prof record -q --no-inherit -e cpu-clock -o noinh.data -- "$threads" -s 0.5
expect_rc 0 "prof record --no-inherit"
report_of noinh.data --sort sym
grep -q -e spin_a -e spin_b out && fail "prof record --no-inherit sampled the threads: $(grep spin out)"

# -F max: the kernel's limit (which the kernel lowers when sampling takes
# too long: read before and after).
max0=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
run_prof record -q -F max -e cpu-clock -o max.data -- true
expect_rc 0 "prof record -F max"
max1=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
script_of max.data max.txt
grep -q -e "^ATTR .* freq=$max0 " -e "^ATTR .* freq=$max1 " max.txt ||
	fail "prof record -F max: $(grep '^ATTR' max.txt), expected freq=$max0"

refused record "-k realtime -- true"     "CLOCK_MONOTONIC"
refused record "--call-graph lbr -- true" "fp or dwarf"
refused record "--switch-events -- true" "--off-cpu"
finish
