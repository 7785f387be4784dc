#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof agent and the backends, as their own code reads what it sends:
#   - the stand-ins (tests/agent/receiver.py) refuse what the real servers
#     refuse: Pyroscope a form sent with format=pprof (the agent's request
#     before this test, 422), Parca a bad label name (400), and Parca's UI
#     answers a path outside /api with a web page that stores nothing;
#   - every backend example of prof-agent(1) runs against the stand-in of
#     its kind, its host and port replaced, and each window is stored;
#   - a Parca URL without /api: the web page is said once, with the URL
#     to give, and the windows wait in the spool, none counted as sent;
#   - programs that live 30-200 ms and whose binary is deleted at their
#     exit: 98% of their samples named or more;
#   - a whole host with a churn of short-lived programs: no sample is
#     labelled ':PID' or [unknown] after the first window (a thread is
#     named until its last sample), no pid label by default, every window
#     stored, and the series counted.
test_timeout=600
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

command -v python3 > /dev/null 2>&1 || skip "no python3 for the stand-in backends"
command -v curl > /dev/null 2>&1 || skip "no curl"
host=$(uname -n)

# --- the stand-ins refuse what the servers refuse (no perf_event_open) ----------
"$PROF" report -i "$srcdir/tests/data/recorded/export-s.data" -F pprof -o x.pb.gz 2> /dev/null ||
	fail "prof report -F pprof of export-s.data failed"
start_rx rx0 pyroscope
# code URL CURL-ARGS: the HTTP status of a POST
code() {
	_u=$1
	shift
	curl -s -o reply -w '%{http_code}' "$@" "$_u"
}
c=$(code "http://127.0.0.1:$port/ingest?name=app%7B%7D&format=pprof" -F "profile=@x.pb.gz")
[ "$c" = 422 ] || fail "the Pyroscope stand-in took a form with format=pprof: HTTP $c: $(cat reply)"
c=$(code "http://127.0.0.1:$port/ingest?name=app%7B%7D" -F "profile=@x.pb.gz")
[ "$c" = 200 ] || fail "the Pyroscope stand-in refused a form as pyroscope-go sends it: HTTP $c: $(cat reply)"
c=$(code "http://127.0.0.1:$port/ingest?name=app%7Bbad-key=1%7D" -F "profile=@x.pb.gz")
[ "$c" = 400 ] || fail "the Pyroscope stand-in took a label name with '-': HTTP $c: $(cat reply)"
start_rx rx0 parca
b64=$(base64 -w 0 x.pb.gz)
printf '{"series":[{"labels":{"labels":[{"name":"__name__","value":"process_cpu"},{"name":"%s","value":"x"}]},"samples":[{"rawProfile":"%s"}]}]}' \
	a-b "$b64" > bad.json
printf '{"series":[{"labels":{"labels":[{"name":"__name__","value":"process_cpu"},{"name":"%s","value":"x"}]},"samples":[{"rawProfile":"%s"}]}]}' \
	a_b "$b64" > good.json
c=$(code "http://127.0.0.1:$port/api/profiles/writeraw" -H 'Content-Type: application/json' --data-binary @bad.json)
[ "$c" = 400 ] || fail "the Parca stand-in took the label name a-b: HTTP $c: $(cat reply)"
c=$(code "http://127.0.0.1:$port/api/profiles/writeraw" -H 'Content-Type: application/json' --data-binary @good.json)
[ "$c" = 200 ] && [ "$(cat reply)" = "{}" ] || fail "the Parca stand-in refused WriteRaw: HTTP $c: $(cat reply)"
c=$(curl -s -o reply -w '%{http_code} %{content_type}' -H 'Content-Type: application/json' \
	--data-binary @good.json "http://127.0.0.1:$port/profiles/writeraw")
case $c in "200 text/html"*) ;; *) fail "the Parca stand-in's UI: $c" ;; esac
stored=$(cat rx0/*/*.json | python3 -c 'import json, sys
n = 0
for line in sys.stdin.read().replace("}{", "}\n{").splitlines():
    n += len(json.loads(line)["stored"])
print(n)')
note "the stand-ins: Pyroscope refused format=pprof with a form (422), took pyroscope-go's form; Parca refused a-b (400), answered /profiles/writeraw with its page; $stored series stored"
stop_rx

require_perf_event
shape=$WORKLOADS/shape

# --- the man page's examples, against the stand-ins ------------------------------
start_rx rx1 pyroscope
pport=$port
start_rx rx1 parca
aport=$port
start_rx rx1 otlp
oport=$port
"$shape" -s 600 -d 20 > /dev/null &	# its samples, not a CPU of its own
bg_add $!
# prof-agent(1)'s BACKENDS: 'prof agent \-\-push URL ...', its host the backend's
sed -n '/^\.SH BACKENDS/,/^\.SH /p' "$srcdir/doc/prof-agent.1" |
	sed -n 's/^prof agent \\-\\-push \(http:[^ ]*\)\(.*\)/\1 \2/p' | sed 's/\\-/-/g' > examples
[ "$(wc -l < examples)" -ge 3 ] || fail "prof-agent(1) has $(wc -l < examples) http examples: $(cat examples)"
i=0
while read -r u rest; do
	i=$((i + 1))
	case $u in
	*/profiles/writeraw) k=parca p=$aport ;;
	*/v1development/profiles) k=otlp p=$oport ;;
	*) k=pyroscope p=$pport ;;
	esac
	hp=${u#http://}
	hp=${hp%%/*}
	local_url=$(echo "$u" | sed "s|^http://$hp|http://127.0.0.1:$p|")
	before=$(ls rx1/$k/*.json 2> /dev/null | wc -l)
	# shellcheck disable=SC2086  # the example's own options, as words
	"$PROF" agent --push "$local_url" $rest --listen none -F 99 --comm shape --window 1 \
		--duration 3 --spool "spool-ex$i" 2> "ex$i.err" || fail "the example '$u $rest': $(cat "ex$i.err")"
	grep -q "prof: agent: $local_url: [1-9][0-9]* windows sent, 0 waiting" "ex$i.err" ||
		fail "the example '$u $rest' sent nothing: $(cat "ex$i.err")"
	n=0
	for j in rx1/$k/*.json; do
		n=$((n + 1))
		[ $n -gt "$before" ] || continue
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if r["status"] == 200 and r["stored"] else 1)' "$j" ||
			fail "the example '$u $rest': not stored: $(cat "$j")"
	done
	note "the example '$u$rest': $((n - before)) windows stored by the $k stand-in"
	[ $((n - before)) -ge 1 ] || fail "the example '$u $rest': nothing reached the $k stand-in"
done < examples

# --- a Parca URL without /api: its UI's page, said once, the windows kept --------
"$PROF" agent --push "http://127.0.0.1:$aport/profiles/writeraw" --listen none -F 99 --comm shape \
	--window 1 --duration 4 --spool spool-ui 2> ui.err || fail "prof agent to Parca's UI: $(cat ui.err)"
n=$(grep -c "a web page answered (text/html), not Parca's API: nothing was stored; Parca serves WriteRaw at http://HOST:7070/api/profiles/writeraw" ui.err)
[ "$n" = 1 ] || fail "the web page was said $n times: $(cat ui.err)"
grep -q "prof: agent: http://127.0.0.1:$aport/profiles/writeraw: 0 windows sent, [1-9][0-9]* waiting" ui.err ||
	fail "windows answered by a web page were not kept: $(cat ui.err)"
note "Parca's UI: $(grep -c . ui.err) lines said; $(tail -n 1 ui.err | sed 's/^prof: agent: //')"
stop_rx

# agent_stored DIR ERR ARGS: prof agent ARGS in the background (its stderr
# in ERR, its pid in $agent_pid), once the stand-in in DIR stored a window
agent_stored() {
	_dir=$1
	_err=$2
	shift 2
	"$PROF" agent "$@" 2> "$_err" &
	agent_pid=$!
	bg_add $agent_pid
	while ! ls "$_dir"/*.json > /dev/null 2>&1; do
		kill -0 $agent_pid 2> /dev/null || fail "prof agent $*: $(cat "$_err")"
		sleep 0.1
	done
}

# --- a whole host with short-lived programs: names, labels, series ---------------
start_rx rx2 pyroscope
# the churn begins once a window is stored: the threads that ran and exited
# in the moment the recorder started (named [unknown]) are in that one
agent_stored rx2/pyroscope churn.err --push "http://127.0.0.1:$port" --listen none -F 199 \
	--window 2 --duration 10 --spool spool-churn
busy_begin
i=0
while kill -0 $agent_pid 2> /dev/null && [ $i -lt 2000 ]; do
	"$shape" -s 0.01 > /dev/null
	sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done'
	i=$((i + 1))
done
wait $agent_pid || fail "prof agent on a churn: $(cat churn.err)"
stop_rx
python3 - rx2/pyroscope > churn.txt << 'EOF' || fail "the churn: $(cat churn.txt)"
import glob, json, re, sys
windows = stored = samples = 0
colon = {}
pid = unknown = 0
unknown_of = set()
series = set()
for k, j in enumerate(sorted(glob.glob(sys.argv[1] + "/*.json"))):
    r = json.load(open(j))
    if r["status"] != 200:
        print("HTTP %d: %s" % (r["status"], r.get("error")))
        sys.exit(1)
    windows += 1
    for s in r["stored"] if k else []:
        l = s["labels"]
        samples += s["samples"]
        series.add(tuple(sorted(l.items())))
        if "pid" in l:
            pid += s["samples"]
        if l.get("thread") == "[unknown]":
            unknown += s["samples"]
            unknown_of.add(l.get("process", "-"))
        for k in ("process", "thread"):
            if re.match(r"^:[0-9]+$", l.get(k, "")):
                colon[l[k]] = colon.get(l[k], 0) + s["samples"]
print(windows, samples, len(series), sum(colon.values()), pid, unknown, ",".join(sorted(x.replace(" ", "_") for x in unknown_of))[:100] or "-", " ".join(sorted(colon))[:200])
EOF
read -r windows samples nseries ncolon npid nunknown unknown_of which < churn.txt
# records the kernel dropped (the agent's last line): a lost FORK or COMM
# leaves its thread unnamed, as it would perf
lost=$(sed -n 's/.*), \([0-9]*\) lost records,.*/\1/p' churn.err | tail -n 1)
busy=$(busy_pct)
note "a churn of $i short programs ($busy% busy): $windows windows, $samples samples, $nseries series; $ncolon samples labelled :PID, $npid with a pid, $nunknown [unknown] after the first window"
[ "$windows" -ge 3 ] || fail "the churn: only $windows windows stored: $(cat churn.err)"
[ "$ncolon" = 0 ] || fail "the churn: $ncolon samples labelled :PID ($which)"
[ "$npid" = 0 ] || fail "the churn: $npid samples with a pid label, which is not a default"
if [ "$nunknown" != 0 ]; then
	[ "${lost:-0}" -gt 0 ] ||
		fail "the churn: $nunknown samples of threads that the agent forgot ([unknown]; of process $unknown_of), with no record lost: $(tail -n 2 churn.err)"
	note "the churn: $nunknown [unknown] samples (of process $unknown_of), ${lost} records lost"
fi
[ "$i" -ge 20 ] || fail "the churn ran only $i programs"
grep -q "0 waiting in" churn.err || fail "the churn: windows left unsent: $(tail -n 3 churn.err)"

# --- short-lived programs whose binary is deleted at their exit: named --------------
# (a test binary, a build's tool, go run): the recorder holds each
# executable open a while (record/hold.h), and the agent reads it so.
# The recorder is woken at each new mapping of code (rec_open_wake()):
# without those wakes, drained every 250 ms, 2% of the samples go
# unnamed (39 of 1,787), which the 98% floor below fails.
start_rx rx3 pyroscope
mkdir tmpd
# its hold directory where the test sees it
saved_tmpdir=${TMPDIR:-/tmp}
TMPDIR=$PWD/tmpd
export TMPDIR
agent_stored rx3/pyroscope del.err --push "http://127.0.0.1:$port" --listen none \
	-F 49 --window 2 --duration 300 --spool spool-del
TMPDIR=$saved_tmpdir
hold=$(ls tmpd)
[ "$(stat -c %a "tmpd/$hold")" = 700 ] || fail "the hold directory is not 700: $(ls -ld "tmpd/$hold")"
mkdir del
# children_cpu: the CPU this shell's children had, in centiseconds, into
# $cpu_cs (times in this shell: in $(...) it would be a subshell's). A
# loaded machine gives the programs less: the loop runs until they had
# 2 s, not for a fixed time.
children_cpu() {
	times > times.out
	cpu_cs=$(awk 'NR == 2 { split($1 " " $2, t, /[ms ]+/)
		print int((t[1] * 60 + t[2] + t[3] * 60 + t[4]) * 100) }' times.out)
}
children_cpu
cpu0=$cpu_cs
i=0
while kill -0 $agent_pid 2> /dev/null && { [ $i -lt 60 ] || [ $((cpu_cs - cpu0)) -lt 200 ]; }; do
	cp "$shape" "del/gone-$i"
	# a third of them for 30 ms, the rest for 200 ms: exec'd a few ms
	# after cp (and rm before it), as a build or a test runner would; a
	# wake ring that rested 50 ms after any two execs left 26 of ~415
	# samples unnamed here
	"del/gone-$i" -s "$([ $((i % 3)) = 0 ] && echo 0.03 || echo 0.2)" > /dev/null
	rm -f "del/gone-$i"
	# the freed inode taken, so that the next copy has another: with the
	# same number, a later copy held by a clock's pass answered for this
	# one unheld (the same bytes), and the test passed without the wakes
	: > "del/fill-$i"
	i=$((i + 1))
	children_cpu
done
cpu=$((cpu_cs - cpu0))
kill -INT $agent_pid 2> /dev/null
wait $agent_pid || fail "prof agent on deleted binaries: $(cat del.err)"
stop_rx
ls rx3/pyroscope/*.pprof > /dev/null 2>&1 || fail "nothing stored of the deleted binaries' run"
python3 "$srcdir/tests/agent/pprof-sum.py" --named-in /gone- rx3/pyroscope/*.pprof > del.sum ||
	fail "the deleted binaries' profiles do not decode"
read -r named unnamed << EOF
$(awk '{ n += $2; u += $3 } END { print n + 0, u + 0 }' del.sum)
EOF
note "$i programs deleted at their exit ($cpu cs of CPU): $named samples of their code named, $unnamed not"
# at 49 Hz, a sample per 2 cs of CPU, less what the kernel's exec, faults
# and exit took (under load 20, 35-49 samples of 150 cs): a quarter at least
[ $((8 * (named + unnamed))) -ge "$cpu" ] ||
	fail "only $((named + unnamed)) samples of the deleted programs, which had $cpu cs of CPU"
[ $((named + unnamed)) -ge 20 ] || fail "only $((named + unnamed)) samples of the deleted programs"
[ $((100 * named)) -ge $((98 * (named + unnamed))) ] ||
	fail "of the deleted programs' samples, $named named and $unnamed not: under 98%"
[ -z "$(ls tmpd)" ] || fail "the agent left its hold directory: $(ls -l tmpd)"
finish
