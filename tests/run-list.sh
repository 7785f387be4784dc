#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof list against perf list, and what it lists against what -e takes:
#   - its software events are perf list's (names and aliases), its PMU
#     events perf list pmu's, its tracepoints perf's (tracefs mounted in a
#     mount namespace of the test's own);
#   - --json holds the same events as the text, each kind as asked; a glob
#     keeps what matches; one that matches nothing is one line, exit 1;
#   - every hardware, software and cache event it lists is one -e takes:
#     counted by prof stat, or refused for want of a PMU, never unknown;
#   - a PMU by its sysfs name: prof stat -e msr/tsc/ and msr/event=0x0/
#     (the same counter, by its alias and by its term) count the TSC as
#     perf stat does, held to the task clock of the same run; an alias's
#     .scale and .unit files scale its counts and name their unit.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"
py=python3

# names KIND FILE: the names (and aliases) of prof list's or perf list's text of KIND, sorted
names() {
	awk -v k="$1" 'index($0, "[" k "]") { sub(/ *\[.*$/, ""); sub(/^ */, "")
		n = split($0, w, / OR /); for (i = 1; i <= n; i++) print w[i] }' "$2" | sort
}

run_prof list
expect_rc 0 "prof list"
cp out all.txt
grep -q '^List of pre-defined events' all.txt || fail "no title: $(head -3 all.txt)"
n=$(grep -c '\[' all.txt)
note "prof list: $n lines of events"
names "Software event" all.txt > prof.sw
grep -qx cpu-clock prof.sw && grep -qx faults prof.sw || fail "software events: $(tr '\n' ' ' < prof.sw)"

# --- against perf list ---------------------------------------------------------
command -v perf > /dev/null 2>&1 && command perf list sw > perf.txt 2> /dev/null
names "Software event" perf.txt 2> /dev/null > perf.sw
if [ ! -s perf.sw ]; then
	# perf lists the events it can open: none where perf_event_open is refused
	note "no perf, or perf list shows no software event (perf_event_open refused): prof list is not compared with it"
else
	cmp -s prof.sw perf.sw || fail "the software events differ from perf list's: $(diff perf.sw prof.sw | tr '\n' ' ')"
	command perf list pmu > perfpmu.txt 2> /dev/null
	names "Kernel PMU event" perfpmu.txt > perf.pmu
	run_prof list pmu
	names "Kernel PMU event" out > prof.pmu
	cmp -s prof.pmu perf.pmu || fail "the PMU events differ from perf list pmu's: $(diff perf.pmu prof.pmu | tr '\n' ' ')"
	note "as perf list: $(wc -l < prof.sw) software events, PMU events: $(tr '\n' ' ' < prof.pmu)"
fi

# --- --json, kinds and globs -------------------------------------------------------
run_prof list --json
expect_rc 0 "prof list --json"
$py - out all.txt > json.check 2>&1 << 'PYEOF' || fail "--json: $(cat json.check)"
import json, sys
ev = json.load(open(sys.argv[1]))
label = {"hardware": "Hardware event", "software": "Software event", "cache": "Hardware cache event",
         "syntax": "Raw event descriptor", "pmu": "Kernel PMU event", "tracepoint": "Tracepoint event"}
text = set()
for line in open(sys.argv[2]):
    if line.rstrip().endswith("]"):
        name, lab = line.rstrip().rsplit(" [", 1)
        text.add((name.strip().split(" OR ")[0], lab[:-1]))
js = set((e["name"], label[e["kind"]]) for e in ev)
assert js == text, (sorted(js ^ text)[:5])
assert all(isinstance(e["aliases"], list) for e in ev)
assert all(e.get("pmu") for e in ev if e["kind"] == "pmu")
print(len(ev))
PYEOF
note "--json: $(cat json.check) events, as the text lists them"
run_prof list cache
expect_rc 0 "prof list cache"
[ "$(grep -c '\[' out)" = "$(grep -c '\[Hardware cache event\]' out)" ] || fail "prof list cache lists other kinds"
grep -q '^  L1-dcache-load-misses ' out || fail "prof list cache: $(head -5 out)"
run_prof list '*-misses'
expect_rc 0 "prof list '*-misses'"
awk -F'[' '/\[/ { sub(/ *$/, "", $1); sub(/^ */, "", $1); if ($1 !~ /-misses$/) bad = 1 } END { exit bad }' out ||
	fail "the glob kept other names: $(cat out)"
run_prof list 'no-such-event*'
expect_rc 1 "prof list with a glob that matches nothing"
[ "$(wc -l < err)" = 1 ] && grep -q "no event matches 'no-such-event\*'" err || fail "no match: $(cat err)"

# --- what it lists, -e takes -----------------------------------------------------------
for kind in "Hardware event" "Software event" "Hardware cache event"; do
	names "$kind" all.txt
done > listed
good=0
nopmu=0
while read -r ev; do
	"$PROF" stat -x, -e "$ev" -- true > /dev/null 2> st.err
	rc=$?
	if grep -q 'unknown event\|unknown modifier\|is no event' st.err; then
		fail "prof list lists '$ev', which -e does not take: $(cat st.err)"
	elif [ "$rc" = 0 ] && awk -F, -v e="$ev" '$3 == e && $1 ~ /^[0-9.]+$/ { f = 1 } END { exit !f }' st.err; then
		good=$((good + 1))
	else
		nopmu=$((nopmu + 1))	# <not supported>, or refused in one line
	fi
done < listed
note "-e takes each of the $(wc -l < listed) names listed: $good counted, $nopmu refused by this machine"

# --- a PMU by its sysfs name --------------------------------------------------------------
if ! "$PROF" stat -e task-clock -- true > /dev/null 2>&1; then
	note "perf_event_open is refused: PMU terms are checked by test-opts' tree"
elif [ -r /sys/bus/event_source/devices/msr/events/tsc ]; then
	W=$WORKLOADS/shape
	run_prof stat -x, -e msr/tsc/,msr/event=0x0/,task-clock -- "$W" -s 0.3
	expect_rc 0 "prof stat -e msr/tsc/"
	t=$(awk -F, '$3 == "msr/tsc/" { print $1 }' err)
	e=$(awk -F, '$3 == "msr/event=0x0/" { print $1 }' err)
	c=$(awk -F, '$3 == "task-clock" { print $1 }' err)
	command perf stat -x, -e msr/tsc/,task-clock -- "$W" -s 0.3 > /dev/null 2> perf.st ||
		fail "perf stat -e msr/tsc/: $(cat perf.st)"
	pt=$(awk -F, '$3 == "msr/tsc/" { print $1 }' perf.st)
	pc=$(awk -F, '$3 == "task-clock" { print $1 }' perf.st)
	note "msr/tsc/: prof $t ticks, msr/event=0x0/ $e, in $c ms of task-clock; perf $pt in $pc ms"
	# ticks a ms of the task's CPU: the TSC's rate, whoever counts
	awk -v t="$t" -v e="$e" -v c="$c" -v pt="$pt" -v pc="$pc" 'BEGIN {
		if (t <= 0 || c <= 0 || pt <= 0 || pc <= 0) exit 1
		r = t / c; pr = pt / pc
		if (r / pr < 0.95 || r / pr > 1.05) exit 1
		if (e / t < 0.95 || e / t > 1.05) exit 1 }' ||
		fail "msr/tsc/: prof $t ticks in $c ms, perf $pt in $pc ms; msr/event=0x0/ $e"
	# an alias's scale and unit (events/A.scale, .unit, as RAPL's energy-pkg has them): a
	# tree of the same PMU twice, the second's tsc scaled by 1/1000 in kticks, in one group
	S=/sys/bus/event_source/devices/msr
	for p in msr msrx; do
		mkdir -p pmus/$p/events pmus/$p/format && cat $S/type > pmus/$p/type &&
			cat $S/format/event > pmus/$p/format/event && cat $S/events/tsc > pmus/$p/events/tsc ||
			fail "cannot make a PMU tree of $S"
	done
	echo 1e-3 > pmus/msrx/events/tsc.scale
	echo kticks > pmus/msrx/events/tsc.unit
	PROF_EVENT_SOURCE=$PWD/pmus
	export PROF_EVENT_SOURCE
	run_prof stat -x, -e '{msr/tsc/,msrx/tsc/}' -- "$W" -s 0.1
	expect_rc 0 "prof stat -e msrx/tsc/ (scaled)"
	t=$(awk -F, '$3 == "msr/tsc/" { print $1 }' err)
	k=$(awk -F, '$3 == "msrx/tsc/" { print $1 }' err)
	u=$(awk -F, '$3 == "msrx/tsc/" { print $2 }' err)
	note "scaled: msr/tsc/ $t ticks, msrx/tsc/ $k $u"
	[ "$u" = kticks ] || fail "msrx/tsc/'s unit is '$u', not its events/tsc.unit's kticks: $(cat err)"
	awk -v t="$t" -v k="$k" 'BEGIN { exit !(t > 0 && k * 1000 / t > 0.99 && k * 1000 / t < 1.01) }' ||
		fail "msrx/tsc/ counted $k kticks, not its group's $t ticks / 1000"
	run_prof stat -e msrx/tsc/ -- true
	unset PROF_EVENT_SOURCE
	grep -q '^ *[0-9]*\.[0-9][0-9] kticks msrx/tsc/' err || fail "the table's scaled line: $(grep tsc err)"
else
	note "no msr PMU here: PMU terms are checked by test-opts' tree"
fi

# --- tracepoints, with tracefs mounted in a mount namespace of the test's own ---------------
if command -v unshare > /dev/null && [ "$(id -u)" = 0 ] && command -v perf > /dev/null 2>&1; then
	cat > tp.sh << EOF
mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null || exit 77
"$PROF" list 'sched:*' > prof.tp 2> prof.tperr || exit 1
perf list 'sched:*' > perf.tp 2> /dev/null || exit 2
EOF
	unshare -m --propagation private sh tp.sh
	rc=$?
	if [ "$rc" = 77 ]; then
		note "tracefs cannot be mounted here: tracepoints left unlisted"
	else
		expect_rc 0 "prof list 'sched:*' with tracefs"
		names "Tracepoint event" prof.tp > a.tp
		names "Tracepoint event" perf.tp > b.tp
		[ -s a.tp ] && grep -qx sched:sched_switch a.tp || fail "prof list 'sched:*': $(head -5 prof.tp)"
		cmp -s a.tp b.tp || fail "the tracepoints differ from perf list's: $(diff b.tp a.tp | head -5 | tr '\n' ' ')"
		note "sched:*: $(wc -l < a.tp) tracepoints, as perf list"
	fi
fi
exit 0
