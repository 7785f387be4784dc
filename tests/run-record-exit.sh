#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof record returns the command's status like a shell does: its exit
# code, 128+N when signal N killed it, 127 not found, 126 not runnable;
# and the profile it wrote stays readable.
. "${srcdir:-.}/tests/test-subr.sh"
require_perf_event

# readable FILE: prof script reads FILE to the end, without complaint.
readable() {
	run_prof script -i "$1"
	expect_rc 0 "prof script -i $1"
	[ -s err ] && fail "prof script -i $1 printed on stderr: $(cat err)"
	grep -q '^ATTR ' out || fail "prof script -i $1 shows no ATTR record"
}

run_prof record -q -o ok.data -- true
expect_rc 0 "prof record -- true"
[ -s err ] && fail "prof record -q -- true printed on stderr: $(cat err)"
readable ok.data

run_prof record -q -o three.data -- sh -c 'exit 3'
expect_rc 3 "prof record -- sh -c 'exit 3'"
[ -s err ] && fail "prof record -q -- sh -c 'exit 3' printed on stderr: $(cat err)"
readable three.data

run_prof record -q -o max.data -- sh -c 'exit 255'
expect_rc 255 "prof record -- sh -c 'exit 255'"
readable max.data

# Without -q, the summary line shows that prof itself ended normally and
# did not die of the signal.
run_prof record -o segv.data -- sh -c 'kill -SEGV $$'
expect_rc 139 "prof record -- sh -c 'kill -SEGV \$\$'"
grep -q '^prof: [0-9]* samples, ' err || fail "no summary line after the command died of SIGSEGV"
readable segv.data

run_prof record -o term.data -- sh -c 'kill -TERM $$'
expect_rc 143 "prof record -- sh -c 'kill -TERM \$\$'"
grep -q '^prof: [0-9]* samples, ' err || fail "no summary line after the command died of SIGTERM"
readable term.data

missing=prof-test-no-such-command-$$
run_prof record -q -o missing.data -- "$missing"
expect_rc 127 "prof record -- $missing"
one_error_line "prof record -- $missing"
grep -q "$missing" err || fail "the error does not name $missing: $(cat err)"
note "not found: $(cat err)"
if [ -e missing.data ]; then
	readable missing.data
fi

printf '#!/bin/sh\nexit 0\n' > script.sh
chmod 644 script.sh
run_prof record -q -o noexec.data -- ./script.sh
expect_rc 126 "prof record -- ./script.sh (mode 644)"
one_error_line "prof record -- ./script.sh (mode 644)"
grep -q 'script.sh' err || fail "the error does not name script.sh: $(cat err)"
note "not executable: $(cat err)"
if [ -e noexec.data ]; then
	readable noexec.data
else
	note "no noexec.data written"
fi

# SIGTERM to prof goes to the command; prof then returns its status.
mkfifo fifo || fail "mkfifo"
"$PROF" record -o sigterm.data -- "$WORKLOADS/shape" -s 30 -r fifo > out 2> err &
ppid=$!
bg_add $ppid
wait_ready fifo
kill -TERM $ppid
wait $ppid
rc=$?
expect_rc 143 "prof record -- shape, given SIGTERM"
grep -q '^prof: [0-9]* samples, ' err || fail "no summary line after SIGTERM"
readable sigterm.data
wpid=$(awk "$awk_lib"'$1 == "COMM" && / exec=1 comm=shape$/ { print field("pid"); exit }' out)
[ -n "$wpid" ] || fail "no 'COMM ... exec=1 comm=shape' in sigterm.data"
if kill -0 "$wpid" 2> /dev/null; then
	kill -9 "$wpid"
	fail "shape $wpid still runs after prof got SIGTERM"
fi

# prof started ignoring SIGINT (by a script, with '&'): kill -INT still
# stops it (the signal was dropped, never seen); the command, which
# ignores it too as it would without prof, is ended with SIGTERM, as perf
# ends its workload.
rm -f fifo
mkfifo fifo || fail "mkfifo"
env --ignore-signal=INT "$PROF" record -o sigint.data -- "$WORKLOADS/shape" -s 30 -r fifo > out 2> err &
ppid=$!
bg_add $ppid
wait_ready fifo
wpid=$(awk '{ print $1 }' /proc/$ppid/task/$ppid/children 2> /dev/null)
ign=$(awk '$1 == "SigIgn:" { print $2 }' "/proc/${wpid:-0}/status" 2> /dev/null)
kill -INT $ppid
# bounded: prof once never stopped (609 s)
wait_gone $ppid 300 || fail "prof started ignoring SIGINT did not stop on kill -INT"
wait $ppid
rc=$?
# prof ended the command itself, as when --duration runs out: 0
expect_rc 0 "prof record -- shape, started ignoring SIGINT, given SIGINT"
[ -n "$wpid" ] && kill -0 "$wpid" 2> /dev/null && { kill -9 "$wpid"; fail "shape still runs after prof stopped"; }
grep -q '^prof: [0-9]* samples, ' err || fail "no summary line after SIGINT: $(cat err)"
case $ign in
'') note "the command's ignored signals were not read" ;;
*) [ $((0x$ign >> 1 & 1)) = 1 ] || fail "the command does not ignore SIGINT as prof was started (SigIgn $ign)" ;;
esac

# Any signal that would end prof (SIGUSR1, SIGQUIT, a real-time one) is
# passed on the same way: prof once died of them, with no summary, and
# left the command running. SIGWINCH is passed on and stops nothing.
for signum in USR1:10 QUIT:3; do
	sig=${signum%:*}
	rm -f fifo
	mkfifo fifo || fail "mkfifo"
	# a background job of sh starts with SIGQUIT ignored: give it back
	env --default-signal=QUIT "$PROF" record -o sig.data -- \
		"$WORKLOADS/shape" -s 30 -r fifo > out 2> err &
	ppid=$!
	bg_add $ppid
	wait_ready fifo
	kill -WINCH $ppid
	kill -$sig $ppid
	wait $ppid
	rc=$?
	want=$((128 + ${signum#*:}))
	expect_rc $want "prof record -- shape, given SIGWINCH then SIG$sig"
	grep -q '^prof: [0-9]* samples, ' err || fail "no summary line after SIG$sig: $(cat err)"
	"$PROF" script -i sig.data > out 2> /dev/null
	wpid=$(awk "$awk_lib"'$1 == "COMM" && / exec=1 comm=shape$/ { print field("pid"); exit }' out)
	[ -n "$wpid" ] || fail "no 'COMM ... exec=1 comm=shape' in sig.data"
	if kill -0 "$wpid" 2> /dev/null; then
		kill -9 "$wpid"
		fail "shape $wpid still runs after prof got SIG$sig"
	fi
done
exit 0
