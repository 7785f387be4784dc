# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by every tests/run-*.sh: finds prof and the workloads, runs the
# test in a temporary directory of its own, and gives the helpers below.
# POSIX sh (dash) and awk only. Exit codes follow automake: 0 pass, 1 fail,
# 77 skip, 99 hard error.

# Bound the whole test, so that a hang fails it instead of stalling
# `make check`: the script runs again under timeout(1), as a child.
if [ -z "${PROF_TEST_GUARDED:-}" ] && command -v timeout > /dev/null 2>&1; then
	PROF_TEST_GUARDED=1
	export PROF_TEST_GUARDED
	timeout -k 5 "${test_timeout:-600}" /bin/sh "$0" "$@"
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "FAIL: $0: timed out after ${test_timeout:-600} s"
		exit 1
	fi
	exit "$rc"
fi

# automake runs the tests from the top build directory with srcdir and
# builddir set (AM_TESTS_ENVIRONMENT); by hand, run them from there too.
srcdir=${srcdir:-.}
builddir=${builddir:-$PWD}
case $srcdir in /*) ;; *) srcdir=$PWD/$srcdir ;; esac
case $builddir in /*) ;; *) builddir=$PWD/$builddir ;; esac
PROF=${PROF:-$builddir/prof}
WORKLOADS=${WORKLOADS:-$builddir/tests/workloads}
export srcdir builddir PROF WORKLOADS

test_name=$(basename "$0" .sh)

if [ ! -x "$PROF" ]; then
	echo "ERROR: no prof binary at $PROF (build it first)"
	exit 99
fi

# perf, the oracle: its `record` neither collects build ids (-B) nor
# writes the build-id cache (-N). perf 6.1 aborts now and then in that code
# at the end of a recording ("assertion failed at util/build-id.c:1010",
# then a fortify abort), seen while other profilers ran on the machine;
# the reports find the binaries by their paths, all on this machine.
perf() {
	if [ "${1:-}" = record ]; then
		shift
		command perf record -B -N "$@"
	else
		command perf "$@"
	fi
}

# perf 6.12, the second oracle (install-deps.sh unpacks bookworm-backports'
# linux-perf there): perf612 runs it as perf() runs perf; have_perf612
# says whether it is there.
PERF612=${PERF612:-/usr/local/lib/prof-deps/perf-6.12/usr/bin/perf}
have_perf612() {
	[ -x "$PERF612" ] && "$PERF612" --version > /dev/null 2>&1
}
perf612() {
	if [ "${1:-}" = record ]; then
		shift
		"$PERF612" record -B -N "$@"
	else
		"$PERF612" "$@"
	fi
}

# Processes started in the background: killed on exit, whatever happens.
bg_pids=
# Functions run on exit, after those are killed: on_exit FUNCTION
exit_hooks=
on_exit() {
	exit_hooks="$exit_hooks $1"
}

cleanup() {
	for e in $bg_pids; do
		# the same process still, not another given its pid since
		[ "$(proc_start "${e%%:*}")" = "${e#*:}" ] && kill -9 "${e%%:*}" 2> /dev/null
	done
	for h in $exit_hooks; do
		"$h"
	done
	cd /
	if [ -n "${PROF_TEST_KEEP:-}" ]; then
		echo "kept $tmpdir"
	else
		rm -rf "$tmpdir"
	fi
}

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/$test_name.XXXXXX") || {
	echo "ERROR: cannot make a temporary directory"
	exit 99
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$tmpdir" || exit 99

# leak_check_some I: in a loop of hundreds of prof runs on cut or damaged
# files, LeakSanitizer's scan at exit (in a sanitizer build, three fifths
# of each run's time) on one run in 8, by the loop's counter I: the leaks
# of the error paths are still found, for a sixth of the cost. ASan and
# UBSan check every run. Nothing in a build without sanitizers.
# run_prof does the same on one run in 4, its first of the test among them.
asan_options=${ASAN_OPTIONS:-}
leak_check_some() {
	ASAN_OPTIONS="${asan_options:+$asan_options:}detect_leaks=$(($1 % ${2:-8} == 0))"
	export ASAN_OPTIONS
}
prof_runs=0

# annot_hot N: from prof annotate's listing in ./out, its N hottest
# instructions, "PERCENT ADDRESS TEXT" a line (spaces squeezed).
annot_hot() {
	awk '$2 == ":" && $3 ~ /^[0-9a-f]+:$/ && $1 + 0 > 0 { a = $3; sub(/:$/, "", a); t = $0
		sub(/^[^:]*: +[0-9a-f]+: +/, "", t); gsub(/ +/, " ", t); print $1, a, t }' out |
		sort -rn | sed -n "1,$1p"
}

# objdump_at FILE ADDRESS: the instruction objdump -d decodes at ADDRESS
# (hex, no 0x) of FILE, decoding from there, its spaces squeezed.
objdump_at() {
	objdump -d --no-show-raw-insn --start-address=0x"$2" --stop-address=$((0x$2 + 16)) "$1" |
		awk '/^ +[0-9a-f]+:/ { sub(/^ +[0-9a-f]+:[ \t]+/, ""); gsub(/[ \t]+/, " "); print; exit }'
}

# skip REASON: the test cannot run here.
skip() {
	echo "SKIP: $*"
	exit 77
}

# fail MESSAGE: the property does not hold. Shows the last prof stderr.
fail() {
	echo "FAIL: $*"
	if [ -s err ]; then
		echo "--- stderr of the last prof run:"
		sed -n 1,20p err
	fi
	exit 1
}

# check_later MESSAGE: a failed check that need not stop the test (an
# error message's wording): reported at once, and `finish` fails the test.
failed_later=0
check_later() {
	echo "FAIL: $*"
	failed_later=$((failed_later + 1))
}

# finish: the last line of a test that uses check_later.
finish() {
	if [ "$failed_later" != 0 ]; then
		echo "FAIL: $failed_later check(s) failed above"
		exit 1
	fi
	exit 0
}

# note MESSAGE: a line in the test log (observed numbers).
note() {
	echo "$test_name: $*"
}

# wait_gone PID SECONDS: wait up to SECONDS (tenths) for PID to end;
# 1 when it still runs then.
wait_gone() {
	_w=0
	_wmax=$(awk -v s="$2" 'BEGIN { printf "%d", s * 10 }')
	while kill -0 "$1" 2> /dev/null; do
		[ "$_w" -ge "$_wmax" ] && return 1
		sleep 0.1
		_w=$((_w + 1))
	done
	return 0
}

# wait_until WHAT COMMAND...: run COMMAND every 0.1 s until it succeeds: a
# condition waited for, never a time slept (a loaded machine stretches
# any time). Fails saying WHAT never came after 6000 tries; the test's own
# guard (test_timeout) ends a hang first.
wait_until() {
	_wu_what=$1
	shift
	_wu_i=0
	while ! "$@"; do
		[ $_wu_i -ge 6000 ] && fail "$_wu_what: never came"
		sleep 0.1
		_wu_i=$((_wu_i + 1))
	done
}

# view_url PID: the URL prof view (PID; its standard output in url.out, its
# stderr in view.err) prints, in $url; fails when it ends, or after 3000 looks, without one.
view_url() {
	url=
	_i=0
	while [ $_i -lt 3000 ] && [ -z "$url" ]; do
		sleep 0.1
		url=$(head -n 1 url.out)
		kill -0 "$1" 2> /dev/null || break
		_i=$((_i + 1))
	done
	[ -n "$url" ] || fail "prof view printed no URL: $(cat view.err)"
}

# agent_url [ERRFILE]: the endpoint prof agent said it serves (its stderr
# in ERRFILE, agent.err by default), in $url; fails after 3000 looks without one.
agent_url() {
	_err=${1:-agent.err}
	url=
	_i=0
	while [ -z "$url" ] && [ $_i -lt 3000 ]; do
		sleep 0.1
		url=$(sed -n 's|^prof: agent: serving \(http://[^ ]*\).*|\1|p' "$_err")
		_i=$((_i + 1))
	done
	[ -n "$url" ] || fail "prof agent said no URL: $(cat "$_err")"
}

# stop_agent: SIGTERM to the prof agent $agent_pid; fails unless it ends within
# 300 s (a hang: a loaded machine is slow, not that slow) with status 0 (its stderr in agent.err).
stop_agent() {
	kill -TERM "$agent_pid"
	wait_gone "$agent_pid" 300 || fail "prof agent did not stop: $(cat agent.err)"
	wait "$agent_pid" || fail "prof agent exited $?: $(tail -n 5 agent.err)"
}

# start_rx DIR KIND [ARGS]: a stand-in backend of KIND (pyroscope, parca,
# otlp: tests/agent/receiver.py, which follows that server's code), its
# requests in DIR/KIND; its port in $port
rx_pids=
start_rx() {
	_d=$1/$2
	_k=$2
	shift 2
	rm -f port
	python3 "$srcdir/tests/agent/receiver.py" "$_d" --kind "$_k" --port-file port "$@" &
	rx_pid=$!
	rx_pids="$rx_pids $rx_pid"
	bg_add $rx_pid
	_i=0
	while [ ! -s port ] && [ $_i -lt 3000 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -s port ] || fail "the stand-in backend did not start"
	port=$(cat port)
}
stop_rx() {
	for _p in $rx_pids; do
		kill $_p 2> /dev/null
		wait $_p 2> /dev/null
	done
	rx_pids=
}

# proc_start PID: when process PID started (its stat's 22nd field), nothing when gone
proc_start() {
	sed -n 's/^.*) //p' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f20
}
# bg_add PID: kill PID when the test ends, if it is still the process it was.
# (pid_max is 32768 here: a suite's thousands of processes reuse the pid of
# one that ended, and a blind kill -9 once killed another test's driver)
bg_add() {
	bg_pids="$bg_pids $1:$(proc_start "$1")"
}

require_perf() {
	command -v perf > /dev/null 2>&1 || skip "perf is not installed"
}

# A failing probe run skips only when the kernel refused perf_event_open;
# any other failure is prof's and fails the test.
require_perf_event() {
	"$PROF" record -q -e cpu-clock -o probe.data true > probe.out 2> probe.err
	probe_rc=$?
	if [ "$probe_rc" != 0 ]; then
		if grep -q -i -e perf_event_paranoid -e 'not permitted' \
			-e 'permission denied' -e 'perf_event_open' probe.err; then
			skip "perf_event_open is refused: $(cat probe.err)"
		fi
		fail "probe 'prof record -q -e cpu-clock true' exited $probe_rc: $(cat probe.err)"
	fi
	rm -f probe.data probe.out probe.err
}

# perf_event_usable: true where the kernel lets us record, false where it
# refuses perf_event_open (the test goes on without its recording part);
# any other failure is prof's and fails the test.
perf_event_usable() {
	"$PROF" record -q -e cpu-clock -o probe.data true > probe.out 2> probe.err && return 0
	grep -q -i -e perf_event_paranoid -e 'not permitted' -e 'permission denied' \
		-e 'perf_event_open' probe.err ||
		fail "probe 'prof record -q -e cpu-clock true' failed: $(cat probe.err)"
	note "perf_event_open is refused; the recording part is not run: $(sed -n 1p probe.err)"
	return 1
}

# --- recordings: made here, or read from tests/data/recorded ---------------
# The reporter's tests read recordings of real programs. Where
# perf_event_open works they make them; where it is refused (a container,
# a CI runner, perf_event_paranoid 3) they read the ones committed in
# tests/data/recorded, made by its make-recorded.sh with the very commands
# the tests run, and report them with --symfs on the binaries committed
# beside them. So no test of the reporter skips for want of a kernel.
recorded=$srcdir/tests/data/recorded
replay=

# need_recordings: make recordings if the kernel lets us, else replay.
need_recordings() {
	"$PROF" record -q -e cpu-clock -o probe.data true > probe.out 2> probe.err
	probe_rc=$?
	if [ "$probe_rc" != 0 ]; then
		grep -q -i -e perf_event_paranoid -e 'not permitted' -e 'permission denied' \
			-e 'perf_event_open' probe.err ||
			fail "probe 'prof record -q -e cpu-clock true' exited $probe_rc: $(cat probe.err)"
		[ -d "$recorded/root/prof-recorded" ] || fail "no recordings in $recorded"
		replay=1
		WORKLOADS=$recorded/root/prof-recorded/workloads
		note "perf_event_open is refused: reading the recordings in tests/data/recorded"
	fi
	rm -f probe.data probe.out probe.err
}

# replaying: true when the test reads the committed recordings.
replaying() {
	[ -n "$replay" ]
}

# record_or_replay NAME TOOL ARGS...: `prof ARGS` (TOOL prof) or `perf
# ARGS` (TOOL perf, its output in perf.out and perf.err), or, replaying,
# the recording NAME (tests/data/recorded/MANIFEST) copied to the -o FILE
# of ARGS (standard output for "-o -"), and the CPU time its workload
# reported made the one expect_samples reads. Sets $rc.
record_or_replay() {
	_name=$1
	_tool=$2
	shift 2
	if ! replaying; then
		if [ "$_tool" = perf ] || [ "$_tool" = perf612 ]; then
			"$_tool" "$@" < /dev/null > perf.out 2> perf.err
			rc=$?
		else
			run_prof "$@"
		fi
		return 0
	fi
	grep -q "^$_name " "$recorded/MANIFEST" || fail "no recording $_name in $recorded/MANIFEST"
	_out=
	_prev=
	for _a in "$@"; do
		[ "$_prev" = -o ] && _out=$_a
		_prev=$_a
	done
	if [ "$_out" = - ]; then
		cp "$recorded/$_name.data" perf.out || fail "cannot copy the recording $_name"
	else
		cp "$recorded/$_name.data" "$_out" || fail "cannot copy the recording $_name"
	fi
	cp "$recorded/$_name.cpu" "$PROF_WORKLOAD_CPU" 2> /dev/null || rm -f "$PROF_WORKLOAD_CPU"
	: > out
	: > err
	rc=0
}

# symfs_opt: the --symfs a report of a recording needs ("" when made here).
# run_prof adds it, and an empty --kallsyms: the recordings' kernel is not
# this machine's, whose symbols would warn and name nothing. A test whose
# kernel samples are this machine's (genprof writes them at this kernel's
# addresses) sets host_kernel=1 to keep the host's kallsyms.
symfs_opt() {
	if replaying; then
		echo "--symfs=$recorded/root"
	fi
}

# perf_symfs_opt: the same for perf, whose --symfs has no fallback: a root
# of the recordings' binaries and the host's system directories.
perf_symfs_opt() {
	if replaying; then
		if [ ! -d "$tmpdir/perf-symfs" ]; then
			mkdir "$tmpdir/perf-symfs" || fail "cannot make $tmpdir/perf-symfs"
			ln -s "$recorded/root/prof-recorded" "$tmpdir/perf-symfs/prof-recorded"
			for d in /usr /lib /lib64 /lib32; do
				[ -e "$d" ] && ln -s "$d" "$tmpdir/perf-symfs$d"
			done
		fi
		echo "--symfs=$tmpdir/perf-symfs"
	fi
}

# run_prof ARGS...: runs prof with stdout in ./out, stderr in ./err and its
# exit status in $rc. Never pipe prof into another command: the pipe
# would hide its crash and its status. prof_timeout bounds one run.
# Replaying, prof report and prof script look for binaries under the
# recordings' root first (--symfs).
run_prof() {
	if replaying && { [ "$1" = report ] || [ "$1" = script ]; }; then
		_sub=$1
		shift
		if [ -n "${host_kernel:-}" ]; then
			set -- "$_sub" "$(symfs_opt)" "$@"
		else
			set -- "$_sub" "$(symfs_opt)" --kallsyms=/dev/null "$@"
		fi
	elif replaying && [ "$1" = annotate ] && [ -z "${host_kernel:-}" ]; then
		shift
		set -- annotate --kallsyms=/dev/null "$@"
	fi
	leak_check_some "$prof_runs" 4
	prof_runs=$((prof_runs + 1))
	timeout -k 5 "${prof_timeout:-${test_timeout:-600}}" "$PROF" "$@" > out 2> err
	rc=$?
	if [ "$rc" = 124 ]; then
		fail "prof $* did not finish in ${prof_timeout:-${test_timeout:-600}} s"
	fi
	return 0
}

# expect_rc WANT WHAT: $rc must be WANT.
expect_rc() {
	[ "$rc" = "$1" ] || fail "$2: exit status $rc, expected $1"
}

# one_error_line [WHAT]: stderr holds exactly one line, starting "prof: ".
one_error_line() {
	n=$(wc -l < err)
	[ "$n" = 1 ] || fail "${1:-prof}: $n lines on stderr, expected one"
	grep -q '^prof: ' err || fail "${1:-prof}: stderr does not start with 'prof: ': $(cat err)"
}

# expect_err WHAT < EXPECTED: ./err is exactly the text on standard input
# (a heredoc beside the command); a difference is shown with diff -u and
# fails the test at `finish`.
expect_err() {
	cat > expected.err
	diff -u expected.err err || check_later "$1: stderr differs from the expected text"
}

# golden_profile: ./golden.data and ./golden-z.data (zstd), the golden
# profile tests/golden/genprof writes from tests/data/golden/golden.spec;
# sets G (that directory), genprof and gopts (the options that report it).
golden_profile() {
	G=$srcdir/tests/data/golden
	genprof=$builddir/tests/golden/genprof
	[ -x "$genprof" ] || fail "no $genprof (make check builds it)"
	sed "s|SYMFS|$G|" "$G/golden.spec" > golden.spec
	"$genprof" golden.spec golden.data 2> gen.err || fail "genprof: $(cat gen.err)"
	"$genprof" -z golden.spec golden-z.data 2> gen.err || fail "genprof -z: $(cat gen.err)"
	gopts="--symfs $G --kallsyms $G/kallsyms"
}

# gen_spec NAME: NAME.spec from standard input (a here-document: not in a
# pipeline, whose fail would end only its subshell), and NAME.data that
# tests/golden/genprof writes from it.
gen_spec() {
	cat > "$1.spec" || fail "cannot write $1.spec"
	"$builddir/tests/golden/genprof" "$1.spec" "$1.data" 2> gen.err || fail "genprof $1: $(cat gen.err)"
}

# gen_shape NAME SEED A B C N [EVENT]: NAME.data (tests/golden/genprof), N
# samples of 1 ms drawn (awk's rand, seeded) with weights A:B:C among
# leaf_a, leaf_b and mid of the golden binary, each called from main.
gen_shape() {
	awk -v seed="$2" -v a="$3" -v b="$4" -v c="$5" -v n="$6" -v ev="${7:-cpu-clock}" \
		-v G="$srcdir/tests/data/golden" 'BEGIN {
		srand(seed)
		k[1] = k[2] = k[3] = 0
		for (i = 0; i < n; i++) {
			r = rand() * (a + b + c)
			k[r < a ? 1 : r < a + b ? 2 : 3]++
		}
		f[1] = "leaf_a+0x10"; f[2] = "leaf_b+0x15"; f[3] = "mid+0xf"
		print "event " ev
		print "comm 100 100 golden"
		print "mmap 100 0x401000 " G "/prof-golden/golden as /prof-golden/golden"
		print "round"
		t = 1
		for (j = 1; j <= 3; j++)
			if (k[j]) {
				printf "sample 0 %.3f 100 100 0 1000000 x%d %s main+0xf\n", t, k[j], f[j]
				t += k[j] / 1000 + 0.001
			}
		print "round"
	}' > "$1.spec"
	"$builddir/tests/golden/genprof" "$1.spec" "$1.data" 2> gen.err || fail "genprof $1: $(cat gen.err)"
}

# jsonschema_python: prints a python3 that has the jsonschema module
# (Debian's python3-jsonschema), or nothing.
jsonschema_python() {
	for _p in /usr/bin/python3 python3; do
		command -v $_p > /dev/null 2>&1 && $_p -c 'import jsonschema' 2> /dev/null &&
			echo "$_p" && return 0
	done
	return 0
}

# diff_delta SYM, diff_change SYM: the Delta and Change columns of SYM's
# entry in ./out, prof diff's text output.
diff_delta() {
	awk -v s="$1" '$NF == s && $1 ~ /%$/ { print $3 + 0; exit }' out
}
diff_change() {
	awk -v s="$1" '$NF == s && $1 ~ /%$/ { print $4; exit }' out
}

# count_lines REGEX FILE: how many lines of FILE match REGEX.
count_lines() {
	grep -c -e "$1" "$2"
}

# script_of DATAFILE OUTFILE: `prof script -i DATAFILE` into OUTFILE; must
# exit 0 and print nothing on stderr.
script_of() {
	run_prof script -i "$1"
	expect_rc 0 "prof script -i $1"
	[ -s err ] && fail "prof script -i $1 printed on stderr: $(cat err)"
	mv out "$2"
}

# The workloads add the CPU seconds they used to this file as they exit
# (tests/workloads/workload.h). Sample floors come from it, not from the
# wall time a workload was asked to run: on a busy machine (make -j8
# check on two CPUs) a program gets less CPU than its wall time, and a
# sampler sees only the CPU time.
PROF_WORKLOAD_CPU=$tmpdir/workload-cpu
export PROF_WORKLOAD_CPU
# perf's build-id cache, where prof report also finds binaries by build id:
# each test's own, empty at first, so that what another test (or the user)
# recorded with perf never names this one's frames.
PERF_BUILDID_DIR=$tmpdir/buildid-cache
export PERF_BUILDID_DIR

# cpu_reset: forget the CPU time reported so far (before a recording).
cpu_reset() {
	rm -f "$PROF_WORKLOAD_CPU"
}

# cpu_save DATA, cpu_load DATA: keep the CPU time reported while DATA was
# recorded beside it, and make it the one expect_samples reads.
cpu_save() {
	mv "$PROF_WORKLOAD_CPU" "$1.cpu" 2> /dev/null
}
cpu_load() {
	cp "$1.cpu" "$PROF_WORKLOAD_CPU" 2> /dev/null || rm -f "$PROF_WORKLOAD_CPU"
}

# expect_samples WHAT N HZ [SHARE]: N samples are at least SHARE (default
# 0.5, for samples lost or late) of what sampling at HZ takes of the CPU
# seconds the workloads reported since cpu_reset. Fails when no workload
# reported (it was killed, or is not one of ours).
expect_samples() {
	[ -s "$PROF_WORKLOAD_CPU" ] || fail "$1: no workload reported its CPU time"
	cpu=$(awk '{ s += $1 } END { printf "%.2f\n", s }' "$PROF_WORKLOAD_CPU")
	floor=$(awk -v c="$cpu" -v hz="$3" -v k="${4:-0.5}" 'BEGIN { printf "%d\n", c * hz * k }')
	note "$1: $2 samples of $cpu s of CPU at $3 Hz (at least $floor)"
	[ "$2" -ge "$floor" ] || fail "$1: $2 samples, expected at least $floor ($cpu s of CPU at $3 Hz)"
}

# proc_cpu PID: the CPU seconds process PID has used so far (user and
# system, all its threads), from /proc/PID/stat; for floors of recordings
# that attach to a process for a while.
proc_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.3f\n", ($12 + $13) / hz }' \
		"/proc/$1/stat" 2> /dev/null || echo 0
}

# samples_of DATAFILE: the "# samples:" count of prof report's header;
# prof report must exit 0.
samples_of() {
	run_prof report -i "$1" --sort comm
	expect_rc 0 "prof report -i $1"
	sed -n 's/^# samples: *//p' out
}

# in_range VALUE LOW HIGH: LOW <= VALUE <= HIGH, as numbers.
in_range() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v + 0 >= lo + 0 && v + 0 <= hi + 0) }'
}

# expect_range WHAT VALUE LOW HIGH
expect_range() {
	in_range "$2" "$3" "$4" || fail "$1 is $2, expected between $3 and $4"
}

# The awk functions shared by resolve and shares: hex to number (exact for
# user addresses; kernel addresses lose low bits, but never fall in a
# workload's text), a field of a prof script line, and a symbol table read
# from `nm -n -S` output (text symbols; a symbol without a size ends where
# the next begins).
awk_lib='
function hex(s,   i, c, v) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (!c)
			return -1
		v = v * 16 + c - 1
	}
	return v
}
function field(k,   i) {
	for (i = 2; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}
function load_nm(file,   line, f, n) {
	nsym = 0
	while ((getline line < file) > 0) {
		n = split(line, f, " ")
		if (n == 4 && (f[3] == "T" || f[3] == "t")) {
			nsym++; sstart[nsym] = hex(f[1]); send[nsym] = sstart[nsym] + hex(f[2]); sname[nsym] = f[4]
		} else if (n == 3 && (f[2] == "T" || f[2] == "t")) {
			nsym++; sstart[nsym] = hex(f[1]); send[nsym] = -1; sname[nsym] = f[3]
		}
	}
	close(file)
	for (n = 1; n <= nsym; n++)
		if (send[n] < 0)
			send[n] = n < nsym ? sstart[n + 1] : sstart[n] + 1
}
function sym(addr,   a, lo, hi, mid) {
	a = hex(addr)
	if (nsym == 0 || a < sstart[1])
		return "?"
	lo = 1; hi = nsym
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (sstart[mid] <= a) lo = mid; else hi = mid - 1
	}
	return a < send[lo] ? sname[lo] : "?"
}
'

# resolve NMFILE SCRIPTFILE: one line per SAMPLE of the prof script output
# SCRIPTFILE: "pid tid SYMBOL CHAIN", SYMBOL being the function of NMFILE's
# binary holding ip= ("?" when none) and CHAIN the chain= addresses mapped
# the same way, comma-separated ("-" without chain=; markers become "?").
resolve() {
	awk -v nmfile="$1" "$awk_lib"'
	BEGIN { load_nm(nmfile) }
	$1 == "SAMPLE" {
		c = field("chain")
		out = "-"
		if (c != "") {
			n = split(c, a, ",")
			out = ""
			for (i = 1; i <= n; i++)
				out = out (i > 1 ? "," : "") sym(a[i])
		}
		print field("pid"), field("tid"), sym(field("ip")), out
	}' "$2"
}

# shares NMFILE SCRIPTFILE [PID]: per function of NMFILE's binary, the
# SAMPLE lines (of PID only, when given) whose ip= falls in it:
# "name count percent", percent of the samples in that binary's functions.
shares() {
	awk -v nmfile="$1" -v pid="${3:-}" "$awk_lib"'
	BEGIN { load_nm(nmfile) }
	$1 == "SAMPLE" && (pid == "" || field("pid") == pid) {
		s = sym(field("ip"))
		if (s != "?") { cnt[s]++; total++ }
	}
	END {
		for (s in cnt)
			printf "%s %d %.2f\n", s, cnt[s], 100 * cnt[s] / total
	}' "$2"
}

# count_of NAME SHARESFILE: NAME's count in shares output (0 when absent).
count_of() {
	awk -v n="$1" '$1 == n { c = $2 } END { print c + 0 }' "$2"
}

# share_of NAME SHARESFILE NAMES...: NAME's count as a percentage of the
# sum of the counts of NAMES (0 when they have none).
share_of() {
	name=$1
	file=$2
	shift 2
	awk -v n="$name" -v group=" $* " '
	index(group, " " $1 " ") { total += $2 }
	$1 == n { c = $2 }
	END { printf "%.2f\n", total ? 100 * c / total : 0 }' "$file"
}

# wait_ready FIFO: wait for a workload's "ready" line (300 s: a hang, not a slow start).
wait_ready() {
	timeout 300 sh -c 'read x < "$1" && [ "$x" = ready ]' sh "$1" ||
		fail "the workload never said ready on $1"
}

# summary_field N: from the summary line in ./err ("prof: S samples, L lost
# records (P%), B bytes to 'F' ..."), field N: 1 samples, 2 lost, 3 bytes.
summary_field() {
	awk -v n="$1" '
	/^prof: [0-9]+ samples, [0-9]+ lost records \(/ {
		v[1] = $2; v[2] = $4; split($0, a, "\\), "); split(a[2], b, " "); v[3] = b[1]
		print v[n]; found = 1; exit
	}
	END { if (!found) exit 1 }' err
}

# --- a busy machine -----------------------------------------------------------
# What a test of timing can hold depends on what the machine gave it: on a
# shared, loaded machine a thread that wakes waits for a CPU, two threads
# do not run side by side, and a recorder may fall behind. The kernel's
# pressure stall information says how much of the time some runnable task
# waited for a CPU (/proc/pressure/cpu, Linux 4.20 and later).

# busy_begin: start measuring.
busy_begin() {
	_busy_t0=$(awk '{ print $1 }' /proc/uptime)
	_busy_p0=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu 2> /dev/null)
}

# busy_pct: the percentage of the time since busy_begin in which some task
# waited for a CPU; 100 where the kernel does not say (assume the worst).
busy_pct() {
	_p1=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu 2> /dev/null)
	if [ -z "$_busy_p0" ] || [ -z "$_p1" ]; then
		echo 100
		return 0
	fi
	awk -v t0="$_busy_t0" -v p0="$_busy_p0" -v p1="$_p1" '{
		dt = $1 - t0; if (dt < 0.01) dt = 0.01
		printf "%.1f\n", 100 * (p1 - p0) / 1e6 / dt }' /proc/uptime
}

# idle_enough WHAT [PCT]: true when the machine left the test's work alone
# since busy_begin (tasks waited for a CPU under PCT%, 5 by default, of
# the time); else says in the log that WHAT is not checked, and why. A
# check of timing takes 5; a share that only a machine several times
# overloaded bends (make -j2 check itself makes 6-10%) takes more.
idle_enough() {
	_b=$(busy_pct)
	if awk -v b="$_b" -v m="${2:-5}" 'BEGIN { exit !(b < m) }'; then
		return 0
	fi
	note "$1: not checked: tasks waited for a CPU $_b% of the time (a busy machine)"
	return 1
}

# sanitized: true when prof is built with the sanitizers (ASan's runtime in it)
sanitized() {
	nm "$PROF" 2> /dev/null | grep -q __asan_init
}

# peak_memory_measured: "1" where a test can measure prof's peak memory:
# GNU time is there, and prof is not built with the sanitizers (their
# shadow memory is no measure of prof's); "" elsewhere.
peak_memory_measured() {
	if [ -x /usr/bin/time ] && ! sanitized; then
		echo 1
	fi
}

# prof_timed NAME SECONDS ARGS...: prof ARGS, killed after SECONDS, its
# stdout in ./out and stderr in ./err; sets $rc, and $kib, its peak memory
# in KiB where peak_memory_measured says it can be measured (else 0).
prof_timed() {
	_pt_name=$1
	_pt_secs=$2
	shift 2
	[ -n "${_pt_checked:-}" ] || { _pt_memory=$(peak_memory_measured); _pt_checked=1; }
	kib=0
	if [ -n "$_pt_memory" ]; then
		timeout -k 2 "$_pt_secs" /usr/bin/time -f '%M' -o "$_pt_name.kib" "$PROF" "$@" \
			> out 2> err
		rc=$?
		kib=$(tail -n 1 "$_pt_name.kib")
	else
		timeout -k 2 "$_pt_secs" "$PROF" "$@" > out 2> err
		rc=$?
	fi
}

# made_again FILE GOOD WHAT MISSED: the test's own `report` over FILE, a cache
# file damaged as WHAT says, prints base.out's report, and writes FILE
# again as GOOD; fails "the report over WHAT differs" or with MISSED.
made_again() {
	report
	diff -u base.out out || fail "the report over $3 differs"
	cmp -s "$1" "$2" || fail "$4"
}

# outer_spec PROG PATH: the head of a genprof spec with a sample at every
# byte of outer() in PROG (tests/workloads/inline.c built), its code mapped
# as PATH, on stdout; sets $outer_size, outer()'s size in hex.
outer_spec() {
	outer_size=$(nm -S "$1" | awk '$4 == "outer" { print $2; exit }')
	[ -n "$outer_size" ] || fail "no outer in the workload's symbols"
	_os_seg=$(readelf -lW "$1" | awk '$1 == "LOAD" && / R?W?E / { print $3; exit }')
	echo "event cpu-clock"
	echo "comm 100 100 inl"
	echo "mmap 100 $_os_seg $1 as $2"
	_os_i=0
	while [ "$_os_i" -lt $((0x$outer_size)) ]; do
		printf 'sample 0 1.%04d 100 100 0 1000000 outer+0x%x\n' "$_os_i" "$_os_i"
		_os_i=$((_os_i + 1))
	done
}
