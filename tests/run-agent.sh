#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof agent against real clients and a stand-in backend:
#   - bad options are one line each and exit 64, before anything runs;
#   - pull: `go tool pprof -top` scrapes /debug/pprof/profile?seconds=N and
#     finds tests/workloads/shape's leaves in their 6:3:1 shares, the index
#     answers, a wrong method or path is refused; without a token another
#     user (nobody) gets 403, with one a request without it gets 401;
#     foreign Host names get 421; slow, non-reading and abandoning clients
#     (tests/tools/http-hostile.py) hold up no scrape; SIGTERM ends the
#     agent with an hour-long scrape in flight; a Unix socket is 0600;
#   - push: tests/agent/receiver.py stands in for Pyroscope's /ingest,
#     Parca's /api/profiles/writeraw and OTLP's /v1development/profiles,
#     following each server's code (it names the files): every window
#     with samples is stored by each, its time range the window's and its
#     labels the agent's, each pprof read by go tool pprof and decoded by
#     field number (tests/agent/pprof-sum.py), each OTLP request decoded by
#     Google's protobuf against the published field numbers
#     (tests/agent/otlp-sum.py), their samples adding up to the agent's; an
#     OTLP partial success that rejects the profiles is said;
#   - faults: a backend down, then up, gets every window; the agent killed
#     with -9 and started again sends what its spool kept, no window twice;
#     a spool over its size drops the oldest and says so; a slow backend
#     costs no samples (no records lost); a recorder killed is started
#     again and the windows go on.
test_timeout=600
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

py=python3
command -v $py > /dev/null 2>&1 || skip "no python3 for the stand-in backend"
rx=$srcdir/tests/agent/receiver.py
psum=$srcdir/tests/agent/pprof-sum.py
osum=$srcdir/tests/agent/otlp-sum.py
hostile=$srcdir/tests/tools/http-hostile.py
# OTLP is decoded by Debian's python3-protobuf, which only Debian's python3 sees
otlp_py=
/usr/bin/python3 -c 'import google.protobuf' 2> /dev/null && otlp_py=/usr/bin/python3

# --- options: one line, exit 64, nothing started ------------------------------
bad() {
	_what=$1
	shift
	run_prof agent "$@"
	expect_rc 64 "prof agent $*"
	one_error_line "prof agent $*"
	grep -q "$_what" err || fail "prof agent $*: '$(cat err)' does not say '$_what'"
}
bad "token-file" --listen 0.0.0.0:6061
bad "not HOST:PORT" --listen nowhere
bad "port from 0 to 65535" --listen 127.0.0.1:4294967297
bad "port from 0 to 65535" --listen 127.0.0.1:65536
bad "not a host name" --allow-host 'a b'
bad "http:// or https://" --push ftp://example.com
bad "the port after" --push http://127.0.0.1:
bad "the port after" --push http://127.0.0.1:99999/x
bad "names no host" --push http:///ingest
bad "query" --push 'http://example.com/x?y=1'
bad "whole number" --window 0
bad "prof's own" --label host=x
bad "KEY=VALUE" --label =x
bad "go nowhere" --listen none
bad "not pid, process" --sample-labels pid,bogus
bad "16K or more" --spool-size 1K
bad "cgroup path" --cgroup system.slice
echo "secret" > token
chmod 600 token
: > empty-token
bad "no token" --token-file empty-token
bad "cannot read" --token-file missing-token

require_perf_event
shape=$WORKLOADS/shape
host=$(uname -n)

# start_shape SECONDS PERCENT: the workload, 6:3:1, in the background,
# running PERCENT% of the time: the agent needs its samples, not a CPU
# taken from the tests beside this one for the whole test
start_shape() {
	"$shape" -s "$1" -d "$2" > /dev/null &
	shape_pid=$!
	bg_add $shape_pid
}
# start_agent ARGS: prof agent in the background, its stderr in agent.err
start_agent() {
	"$PROF" agent "$@" 2> agent.err &
	agent_pid=$!
	bg_add $agent_pid
}
# wait_agent: its end (status in $rc); the test's guard bounds it
wait_agent() {
	wait_gone $agent_pid 500 || fail "prof agent did not stop: $(cat agent.err)"
	wait $agent_pid
	rc=$?
	[ "$rc" = 0 ] || note "prof agent exited $rc: $(grep -v '^    #' agent.err | head -n 20)"
}
# summary FIELD: from the agent's last line: windows, empty, samples, lost
summary() {
	sed -n 's/^prof: agent: \([0-9]*\) windows (\([0-9]*\) without samples), \([0-9]*\) samples .*, \([0-9]*\) lost records.*/\1 \2 \3 \4/p' \
		agent.err | awk -v f="$1" '{ print $(f == "windows" ? 1 : f == "empty" ? 2 : f == "samples" ? 3 : 4) }'
}
# pushed URL FIELD: from the agent's line on backend URL: sent, waiting, dropped
pushed() {
	grep -F "prof: agent: $1: " agent.err | tail -n 1 |
		sed -n 's/.*: \([0-9]*\) windows sent, \([0-9]*\) waiting in .*, \([0-9]*\) dropped.*/\1 \2 \3/p' |
		awk -v f="$2" '{ print $(f == "sent" ? 1 : f == "waiting" ? 2 : 3) }'
}

# --- pull ------------------------------------------------------------------------
# (both run until this section stops them: its scrapes take what the machine gives them)
start_shape 600 70
start_agent --listen 127.0.0.1:0 -F 199 --comm shape --duration 600
agent_url
base=${url%/profile}
curl -s -o index.html -w '%{http_code}' "$base/" > code || fail "curl of the index failed"
[ "$(cat code)" = 200 ] && grep -q 'href="profile' index.html ||
	fail "the index: HTTP $(cat code): $(head -c 300 index.html)"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/heap")" = 404 ] || fail "/debug/pprof/heap is not 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "$url")" = 405 ] || fail "a POST is not 405"
# go tool pprof posts a stripped main program's addresses here, and gives up on an error
[ "$(curl -s -X POST -d '0x401000+0x401010' "$base/symbol")" = "num_symbols: 1" ] ||
	fail "POST /debug/pprof/symbol: not Go's answer"
[ "$(head -c 2000000 /dev/zero | curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @- "$base/symbol")" != 200 ] ||
	fail "a 2 MB body was taken"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$url?seconds=3601")" = 400 ] || fail "seconds=3601 is not 400"
# a HEAD answers without the hour a GET would take (else the test times out)
curl -s -I "$url?seconds=3600" > head.out || fail "HEAD of the profile failed"
grep -qi '^content-type: application/octet-stream' head.out || fail "HEAD of the profile: $(cat head.out)"
# a client that holds several connections (go tool pprof posts to /symbol on
# one per stripped program, beside its idle one) is still served
$py - "$base" <<'PYEOF2' || fail "with 8 connections open, a ninth request was not served"
import socket, sys, urllib.parse, urllib.request
u = urllib.parse.urlsplit(sys.argv[1])
held = [socket.create_connection((u.hostname, u.port)) for _ in range(8)]
with urllib.request.urlopen(sys.argv[1] + "/", timeout=10) as r:
    assert r.status == 200
PYEOF2
if command -v go > /dev/null 2>&1; then
	HOME=$PWD GOCACHE=$PWD/gocache GOFLAGS= timeout 300 go tool pprof -top "$url?seconds=4" \
		> top.out 2> top.err || fail "go tool pprof -top: $(tail -3 top.err)"
	# flat% of each leaf, as shares of the three
	awk '$6 ~ /^leaf_[abc]$/ { sub(/%/, "", $2); v[$6] = $2 }
	     END { t = v["leaf_a"] + v["leaf_b"] + v["leaf_c"]; if (!t) exit 1
		   printf "%.1f %.1f %.1f\n", 100 * v["leaf_a"] / t, 100 * v["leaf_b"] / t, 100 * v["leaf_c"] / t }' \
		top.out > shares || fail "go tool pprof -top names no leaf: $(head -20 top.out)"
	read -r sa sb sc < shares
	note "pull: go tool pprof -top: leaf_a $sa%, leaf_b $sb%, leaf_c $sc%"
	expect_range "leaf_a's share" "$sa" 50 70
	expect_range "leaf_b's share" "$sb" 20 40
	expect_range "leaf_c's share" "$sc" 4 17
	grep -q '^Type: cpu' top.out || fail "go tool pprof: not a cpu profile: $(head -5 top.out)"
	# six stripped programs (shape, stripped, from six paths): go tool pprof
	# asks /debug/pprof/symbol about each at once, and must get every answer
	for i in 1 2 3 4 5 6; do
		mkdir -p "strip$i"
		strip -o "strip$i/shape" "$WORKLOADS/shape" || fail "strip failed"
		"strip$i/shape" -s 6 -d 20 > /dev/null &
		bg_add $!
	done
	HOME=$PWD GOCACHE=$PWD/gocache GOFLAGS= timeout 300 go tool pprof -top "$url?seconds=3" \
		> top6.out 2> top6.err || fail "go tool pprof with six stripped programs: $(tail -3 top6.err)"
	n=$(grep -c '/symbol' top6.err)
	note "pull: go tool pprof -top with six stripped programs: done, $n symbol requests failed"
	[ "$n" = 0 ] || fail "go tool pprof: $(grep '/symbol' top6.err | head -2)"
else
	note "no go: the scrape is checked by curl and pprof-sum.py only"
fi
# a perf recording beside the agent stays perf's to read: the agent's
# recorder asks for no build ids in MMAP2, whose flag the kernel would
# leak into perf's records (record/evopen.c)
if command -v perf > /dev/null 2>&1; then
	perf record -q -e cpu-clock -o beside.data -- "$shape" -s 0.3 > /dev/null 2> beside.err ||
		fail "perf record beside the agent: $(tail -n 3 beside.err)"
	run_prof script -i beside.data
	n=$(grep -c '^MMAP2 .*buildid=' out)
	note "perf record beside the agent: $n MMAP2 records flagged with build ids"
	[ "$n" = 0 ] || fail "perf's MMAP2 records carry the build-id flag it did not ask for: $(grep -m 1 '^MMAP2 .*buildid=' out)"
	command perf report -i beside.data --stdio > beside.txt 2> beside.err ||
		fail "perf report of a recording made beside the agent: $(tail -n 3 beside.err)"
	grep -q 'leaf_a' beside.txt || fail "perf report beside the agent names no leaf_a: $(head -20 beside.txt)"
fi
curl -s -o scrape.pb.gz "$url?seconds=2" || fail "curl of a 2 s profile failed"
$py "$psum" --no-kernel-addresses scrape.pb.gz > scrape.sum || fail "the scraped profile does not decode"
read -r _ n _ t d labels < scrape.sum
note "scrape of 2 s: $n samples, labels $labels"
[ "$n" -gt 0 ] || fail "the 2 s scrape has no samples"
[ "$d" = 2000000000 ] || fail "the 2 s scrape's duration is $d ns"
case $labels in *"process=shape"*"thread=shape"*) ;; *) fail "the scrape's labels: $labels" ;; esac
# who is served without a token: the agent's own user (root here); another
# local user (nobody) gets 403, though the endpoint is on loopback
other=
if command -v setpriv > /dev/null 2>&1 && id nobody > /dev/null 2>&1; then
	other="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	# (its output through this shell: nobody cannot write here)
	$other curl -s -w '\n%{http_code}' "$url?seconds=1" > other.out
	code=$(tail -n 1 other.out)
	[ "$code" = 403 ] || fail "user nobody scraped the agent: HTTP $code, $(wc -c < other.out) bytes"
	grep -q 'its own user' other.out || fail "the 403 does not say why: $(cat other.out)"
else
	note "no setpriv or no user nobody: another user's scrape is not tried"
fi
# hostile clients (tests/tools/http-hostile.py): foreign Host names get 421;
# beside 100 half-sent requests, a reader that takes nothing and a trickler,
# a 1 s scrape is answered and the trickler cut; six hour-long scrapes
# abandoned free their places (4 at most run at once)
$py "$hostile" "$url?seconds=1" host > host.out 2>&1 || fail "Host: $(tail -n 3 host.out)"
$py "$hostile" "$url?seconds=1" slow 100 > slow.out 2>&1 || fail "slow clients: $(tail -n 3 slow.out)"
$py "$psum" good.out > /dev/null || fail "the scrape answered beside slow clients does not decode"
note "pull: $(sed 's/^held: //' slow.out)"
$py "$hostile" "$url?seconds=1" abandon 6 > abandon.out 2>&1 || fail "abandoned: $(tail -n 3 abandon.out)"
note "pull: $(sed 's/^held: //' abandon.out)"
# SIGTERM with an hour-long scrape in flight: the agent ends, and the scrape's
# connection with it (prof-agent(1): within 2 s; the time is noted, not
# asserted: a loaded machine may stretch it)
curl -s -o /dev/null "$url?seconds=3600" 2> /dev/null &
curl_pid=$!
bg_add $curl_pid
aport=$(echo "$url" | sed 's|^http://[^/]*:\([0-9]*\)/.*|\1|')
if command -v ss > /dev/null 2>&1; then
	wait_until "the hour-long scrape's connection" sh -c "ss -Htn state established '( dport = :$aport )' | grep -q ."
fi
t0=$(date +%s%N)
kill -TERM $agent_pid
wait_agent
expect_rc 0 "prof agent stopped by SIGTERM"
note "pull: the agent ended $((($(date +%s%N) - t0) / 1000000)) ms after SIGTERM, an hour-long scrape in flight"
wait_gone $curl_pid 300 || fail "the hour-long scrape's connection outlived the agent"
kill $shape_pid 2> /dev/null

# With a token: nothing without it, everything with it.
start_agent --listen 127.0.0.1:0 --token-file token --duration 600
agent_url
[ "$(curl -s -o /dev/null -w '%{http_code}' "${url%/profile}/")" = 401 ] || fail "no token: not 401"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer wrong' "${url%/profile}/")" = 401 ] ||
	fail "a wrong token: not 401"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer secret' "${url%/profile}/")" = 200 ] ||
	fail "the right token: not 200"
# with the token, any user is served, the scheme in any case (RFC 9110)
if [ -n "$other" ]; then
	[ "$($other curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: bearer secret' "${url%/profile}/")" = 200 ] ||
		fail "user nobody with the token, 'bearer': not 200"
	[ "$($other curl -s -o /dev/null -w '%{http_code}' "${url%/profile}/")" = 401 ] ||
		fail "user nobody without the token: not 401"
fi
kill -INT $agent_pid
wait_agent
expect_rc 0 "prof agent stopped by SIGINT"

# A Unix socket: mode 0600, this user served, nobody not even connected.
mkdir -m 755 sock
start_agent --listen "unix:$PWD/sock/agent.sock" --duration 600
wait_until "the agent's Unix socket" grep -q 'serving /debug/pprof/profile on unix:' agent.err
[ "$(stat -c %a sock/agent.sock)" = 600 ] || fail "the agent's socket is mode $(stat -c %a sock/agent.sock)"
[ "$(curl -s -o /dev/null -w '%{http_code}' --unix-socket sock/agent.sock http://localhost/debug/pprof/)" = 200 ] ||
	fail "this user through the Unix socket: not 200"
if [ -n "$other" ] && $other test -e sock/agent.sock; then
	$other curl -s -o /dev/null --unix-socket sock/agent.sock http://localhost/debug/pprof/ &&
		fail "user nobody was served through the Unix socket"
fi
stop_agent
[ -e sock/agent.sock ] && fail "the agent left its socket behind"

# Kernel frames leave the host by name alone, unless --kernel-addresses:
# their addresses say where KASLR put the kernel, which
# perf_event_paranoid keeps from users.
dd if=/dev/zero of=/dev/null bs=4k count=100000000 2> /dev/null &
dd_pid=$!
bg_add $dd_pid
for mode in names addresses; do
	start_agent --listen 127.0.0.1:0 -F 499 --duration 600 \
		$([ $mode = addresses ] && echo --kernel-addresses)
	agent_url
	curl -s -o "kernel-$mode.pb.gz" "$url?seconds=1" || fail "curl of a 1 s profile failed"
	stop_agent
	zcat "kernel-$mode.pb.gz" | grep -aq 'entry_SYSCALL_64\|do_syscall_64' ||
		fail "a 1 s profile of the host beside dd has no kernel frame"
done
kill $dd_pid 2> /dev/null
$py "$psum" --no-kernel-addresses kernel-names.pb.gz > kernel.out 2>&1 ||
	fail "a kernel address left the host: $(cat kernel.out)"
$py "$psum" --no-kernel-addresses kernel-addresses.pb.gz > kernel.out 2>&1 &&
	fail "--kernel-addresses: no kernel address in the profile"
note "kernel frames: by name alone, their addresses with --kernel-addresses ($(cat kernel.out | sed 's/^[^:]*: //'))"

# --- push -------------------------------------------------------------------------
# check_rx DIR: every request in DIR is a well-formed push of this agent;
# sets pyro (Pyroscope requests), parca, otlp, rx_samples (Pyroscope's
# total) and otlp_samples (OTLP's)
check_rx() {
	pyro=0
	parca=0
	otlp=0
	rx_samples=0
	otlp_samples=0
	: > ranges
	for j in "$1"/*/*.json; do
		[ -f "$j" ] || continue
		$py - "$j" "$host" >> ranges << 'EOF' || fail "request $j: $(cat check.err)"
import json, sys
r = json.load(open(sys.argv[1])); host = sys.argv[2]
def bad(m):
    open("check.err", "w").write(m + ": " + json.dumps(r)[:600]); sys.exit(1)
if r["status"] != 200 or not r["stored"]:
    bad("not stored: HTTP %d" % r["status"])
if r["path"] == "/ingest":
    q = r["query"]
    # as Pyroscope's Go client: the form says what the body is
    if "format" in q: bad("format")
    want = "prof{host=%s,env=test}" % host
    if q.get("name") != [want]: bad("name, not " + want)
    if r["headers"].get("x-scope-orgid") != "t1": bad("tenant")
    for s in r["stored"]:
        l = s["labels"]
        if l["__name__"] != "process_cpu" or l["service_name"] != "prof" or l["env"] != "test": bad("series")
    print("pyroscope", int(q["from"][0]) // 10**9, int(q["until"][0]) // 10**9, r["profiles"][0])
elif r["path"] == "/api/profiles/writeraw":
    if r["series_labels"] != [{"__name__": "process_cpu", "host": host, "env": "test"}]: bad("labels")
    if r["normalized"] is not False: bad("normalized")
    print("parca", 0, 0, r["profiles"][0])
elif r["path"] == "/v1development/profiles":
    h = r["headers"]
    if h.get("content-type") != "application/x-protobuf": bad("content type")
    if h.get("content-encoding") != "gzip": bad("content encoding")
    if h.get("otlp-profiles-development-version") != "1": bad("development version")
    print("otlp", 0, 0, r["profiles"][0])
else:
    bad("path")
EOF
	done
	pyro=$(grep -c '^pyroscope' ranges)
	parca=$(grep -c '^parca' ranges)
	otlp=$(grep -c '^otlp' ranges)
	: > otlp-ranges
	for o in $(awk '$1 == "otlp" { print $4 }' ranges); do
		[ -n "$otlp_py" ] || break
		$otlp_py "$osum" "$o" > otlp.sum 2> otlp.err || fail "OTLP request $o: $(cat otlp.err)"
		for want in "resource service.name=prof" "resource host.name=$host" "resource env=test" \
			"scope prof "; do
			grep -q "^$want" otlp.sum || fail "OTLP request $o: no '$want': $(grep -v '^attrs' otlp.sum | head -5)"
		done
		awk '$1 == "attrs" && $2 !~ /process.executable.name=shape/ { exit 1 }' otlp.sum ||
			fail "OTLP request $o: a sample without process.executable.name=shape: $(grep '^attrs' otlp.sum | head -2)"
		# the window: time and duration, in whole ns; the sample counts
		# (past 2^53: the sums in the shell's 64 bits, not awk's doubles)
		awk '$1 == "profile" && $2 == "samples/count" { sub("total=", "", $6); sub("time=", "", $7);
			sub("duration=", "", $8); print $7, $8, $6 }' otlp.sum |
			while read -r t d c; do echo "$t $((t + d)) $c"; done >> otlp-ranges
	done
	otlp_samples=$(awk '{ s += $3 } END { print s + 0 }' otlp-ranges)
	awk '$1 != "otlp" { print $4 }' ranges > profiles
	if [ -s profiles ]; then
		# shellcheck disable=SC2046  # one word per file
		$py "$psum" --no-kernel-addresses $(cat profiles) > sums || fail "a pushed profile does not decode"
		if command -v go > /dev/null 2>&1; then
			for p in $(cat profiles); do
				HOME=$PWD GOCACHE=$PWD/gocache GOFLAGS= go tool pprof -raw "$p" > raw.out 2> raw.err ||
					fail "go tool pprof -raw $p: $(tail -3 raw.err)"
			done
		fi
	fi
	rx_samples=$(awk 'FNR == NR { if ($1 == "pyroscope") w[$4] = 1; next } ($1 in w) { s += $2 } END { print s + 0 }' \
		ranges sums)
}

start_shape 600 20	# killed at the end: the sections below take what the machine gives them
start_rx rx1 pyroscope
pport=$port
start_rx rx1 parca
aport=$port
start_rx rx1 otlp
start_agent --listen none -F 99 --comm shape --window 2 --duration 9 --spool spool1 --label env=test \
	--tenant t1 --push "http://127.0.0.1:$pport" --push "http://127.0.0.1:$aport/api/profiles/writeraw/" \
	--push "http://127.0.0.1:$port/v1development/profiles"
wait_agent
expect_rc 0 "prof agent pushing"
stop_rx
check_rx rx1
windows=$(summary windows)
empty=$(summary empty)
samples=$(summary samples)
note "push: $windows windows ($empty without samples), $samples samples; received $pyro at /ingest, $parca at writeraw, $rx_samples samples"
[ $((windows - empty)) -ge 4 ] || fail "only $windows windows, $empty of them empty: $(cat agent.err)"
[ "$pyro" = $((windows - empty)) ] || fail "$pyro windows reached /ingest, of $((windows - empty))"
[ "$parca" = "$pyro" ] || fail "$parca windows reached Parca, $pyro Pyroscope"
[ "$otlp" = "$pyro" ] || fail "$otlp windows reached the OTLP collector, $pyro Pyroscope"
if [ -n "$otlp_py" ]; then
	note "push: OTLP: $otlp requests, $otlp_samples samples"
	[ "$otlp_samples" = "$samples" ] || fail "the OTLP requests hold $otlp_samples samples, the agent took $samples"
	# ns since the epoch, each window where the one before ended
	sort otlp-ranges | {
		e=
		while read -r t u c; do
			[ -z "$e" ] || [ "$t" = "$e" ] || exit 1
			[ $((u - t)) -le 2000000000 ] || exit 1
			e=$u
		done
	} || fail "the OTLP windows' time ranges: $(cat otlp-ranges)"
else
	note "no python3-protobuf for /usr/bin/python3: the OTLP requests are not decoded"
fi
[ "$rx_samples" = "$samples" ] || fail "the pushed windows hold $rx_samples samples, the agent took $samples"
# the windows follow each other: each begins where the one before ended
sort -n -k2 ranges | awk '$1 == "pyroscope" { if (n++ && $2 != u) bad = 1; u = $3; if ($3 - $2 > 2) bad = 1 }
	END { exit bad }' || fail "the windows' time ranges: $(grep pyroscope ranges)"
awk '{ if ($6 !~ /process=shape/) exit 1 }' sums || fail "labels of the pushed profiles: $(cut -d' ' -f1,6 sums)"
[ "$(pushed "http://127.0.0.1:$pport" waiting)" = 0 ] || fail "windows left in the spool: $(cat agent.err)"

# --- faults: the backend down, then up ------------------------------------------------
start_rx rx2 pyroscope
stop_rx	# its port, with nothing listening
start_agent --listen none -F 99 --comm shape --window 1 --duration 12 --spool spool2 --label env=test \
	--tenant t1 --push "http://127.0.0.1:$port"
# spooled N DIR: N windows or more wait in DIR
spooled() {
	[ "$(ls "$2"/pyroscope-*/*.win 2> /dev/null | wc -l)" -ge "$1" ]
}
wait_until "the backend down: a window in the spool" spooled 1 spool2
wait_until "the agent saying the backend is down" grep -q "cannot send to http://127.0.0.1:$port" agent.err
start_rx rx2 pyroscope --port "$port"
wait_agent
expect_rc 0 "prof agent, the backend down then up"
stop_rx
check_rx rx2
windows=$(summary windows)
empty=$(summary empty)
note "down, then up: $windows windows ($empty empty), $pyro received, sent $(pushed "http://127.0.0.1:$port" sent)"
[ "$pyro" = $((windows - empty)) ] || fail "down then up: $pyro of $((windows - empty)) windows arrived: $(cat agent.err)"
grep -q "answers again" agent.err || fail "the agent did not say the backend answers again"

# --- credentials: from a 0600 file or the environment; in no message, file or command line
printf 's3cret\n' > pw
chmod 600 pw
printf 't0ken\n' > pushtok
chmod 600 pushtok
start_rx rx2c pyroscope
port1=$port
start_rx rx2t pyroscope
PROF_PUSH_TOKEN=$(cat pushtok) start_agent --listen none -F 99 --comm shape --window 1 --duration 600 \
	--spool spoolc --push "http://alice@127.0.0.1:$port1" --push-password-file pw \
	--push "http://127.0.0.1:$port"
wait_until "a window pushed with each credential" sh -c "ls rx2c/*/*.json rx2t/*/*.json > /dev/null 2>&1"
child=$(pgrep -P $agent_pid)
for p in $agent_pid $child; do
	tr '\0' ' ' < "/proc/$p/cmdline" > cmdline 2> /dev/null
	grep -q 's3cret\|t0ken' cmdline && fail "a secret in ps: $(cat cmdline)"
done
for p in $child; do
	tr '\0' '\n' < "/proc/$p/environ" | grep -q '^PROF_PUSH' &&
		fail "the recorder has the push credentials in its environment"
done
stop_agent
stop_rx
# what the backends got: basic authentication with alice and the file's
# password where the URL names alice; the environment's token elsewhere
want_basic="Basic $(printf 'alice:s3cret' | base64)"
$py - "$want_basic" > cred.out << 'EOF' || fail "the credentials the backends got: $(cat cred.out)"
import glob, json, sys
def auth(d):
    return [json.load(open(j))["headers"].get("authorization") for j in glob.glob(d + "/*/*.json")]
basic, bearer = auth("rx2c"), auth("rx2t")
if not basic or any(a != sys.argv[1] for a in basic) or not bearer or any(a != "Bearer t0ken" for a in bearer):
    print(repr(basic[:3]), repr(bearer[:3])); sys.exit(1)
print(len(basic), len(bearer))
EOF
grep -rq 's3cret\|t0ken' agent.err spoolc && fail "a secret in the agent's messages or spool: $(grep -r 's3cret\|t0ken' agent.err spoolc)"
for b in spoolc/*/backend; do
	[ "$(stat -c %a "$b")" = 600 ] || fail "$b is mode $(stat -c %a "$b"), not 600"
done
# a password in the URL, a secret file others can read, a password without a user: one line each
bad "a password in the URL" --push "http://alice:s3cret@127.0.0.1:1"
grep -q 's3cret' err && fail "the refusal shows the password: $(cat err)"
chmod 644 pw
bad "chmod 600" --push "http://alice@127.0.0.1:1" --push-password-file pw
chmod 600 pw
bad "names its user" --push "http://127.0.0.1:1" --push-password-file pw
# a backend file that is a link another user put there is not followed
victim=$PWD/victim
echo "keep me" > "$victim"
b=$(grep -lx "http://alice@127.0.0.1:$port1" spoolc/pyroscope-*/backend)
[ -f "$b" ] || fail "no backend file names http://alice@127.0.0.1:$port1: $(cat spoolc/*/backend)"
rm "$b"
ln -s "$victim" "$b"
start_agent --listen none -F 99 --comm shape --window 1 --duration 2 --spool spoolc \
	--push "http://alice@127.0.0.1:$port1" --push-password-file pw
wait_agent
[ "$(cat "$victim")" = "keep me" ] || fail "the agent wrote through a link in its spool: $(cat "$victim")"
note "credentials: from a 0600 file and the environment, sent as basic authentication and as a bearer token ($(cut -d' ' -f1 cred.out) and $(cut -d' ' -f2 cred.out) requests); not in ps, the recorder's environment, messages or the spool; backend files 600; a link there not followed"

# --- the spool is the agent's own; what is not a window is left alone, once ---------
mkdir -m 755 others
chown nobody others 2> /dev/null && bad "another user's" --push "http://127.0.0.1:1" --spool "$PWD/others/spool"
mkdir -m 777 open
bad "writable by others" --push "http://127.0.0.1:1" --spool "$PWD/open/spool"
# spool_down DIR: windows spooled with the backend at $port down; their count in $left
spool_down() {
	start_agent --listen none -F 99 --comm shape --window 1 --duration 3 --spool spoolj \
		--push "http://127.0.0.1:$port"
	wait_agent
	left=$(find spoolj -type f -name '*.win' | wc -l)
	[ "$left" -ge 2 ] || fail "the backend down: $left windows spooled"
}
# an earlier run's leftovers: a killed writer's .tmp, a directory named like
# a window, junk: the .tmp removed, the others said once and left alone
start_rx rx2j pyroscope
stop_rx
spool_down
d=$(ls -d spoolj/pyroscope-*)
mkdir "$d/00000000000000000000-00.win"
: > "$d/.00000000000000000001-00.win.tmp"
: > "$d/junk"
start_rx rx2j pyroscope --port "$port"
start_agent --listen none -F 99 --comm shape --window 1 --duration 2 --spool spoolj \
	--push "http://127.0.0.1:$port"
wait_agent
stop_rx
grep -q "2 files in .* are not windows prof agent spooled" agent.err ||
	fail "the directory and junk were not said once: $(cat agent.err)"
grep -q "removed 1 unfinished windows" agent.err && [ ! -e "$d/.00000000000000000001-00.win.tmp" ] ||
	fail "the .tmp was not removed: $(cat agent.err)"
[ -d "$d/00000000000000000000-00.win" ] && [ -e "$d/junk" ] || fail "what is not a window was removed"
[ "$(pushed "http://127.0.0.1:$port" waiting)" = 0 ] || fail "windows left waiting: $(tail -n 2 agent.err)"
# windows in a spool that cannot be written (read-only): each sent once,
# none again and again; the spool's failure said once
if command -v unshare > /dev/null 2>&1 && unshare -m true 2> /dev/null; then
	spool_down
	start_rx rx2r pyroscope --port "$port"
	unshare -m sh -c "mount --bind -o ro '$PWD/$d' '$PWD/$d' && exec '$PROF' agent --listen none -F 99 \
		--comm shape --window 1 --duration 3 --spool spoolj --push 'http://127.0.0.1:$port'" 2> agent.err
	stop_rx
	got=$(ls rx2r/*/*.json 2> /dev/null | wc -l)
	note "a read-only spool of $left windows: $got requests"
	[ "$got" = "$left" ] || fail "a read-only spool of $left windows: $got requests: $(cat agent.err)"
	[ "$(grep -c 'cannot spool a window' agent.err)" = 1 ] ||
		fail "the read-only spool was not said once: $(cat agent.err)"
	find "$d" -type f -name '*.win' -delete
else
	note "no private mount namespace: a read-only spool is not tried"
fi

# --- faults: kill -9, then a new agent on the same spool --------------------------------
# (and the same TMPDIR, where the killed one left its hold directory)
saved_tmpdir=${TMPDIR:-/tmp}
mkdir holds
TMPDIR=$PWD/holds
export TMPDIR
start_rx rx3 pyroscope
stop_rx
start_agent --listen none -F 99 --comm shape --window 1 --duration 30 --spool spool3 --label env=test \
	--tenant t1 --push "http://127.0.0.1:$port"
wait_until "two windows in the spool before the kill" spooled 2 spool3
child=$(pgrep -P $agent_pid)
kill -KILL $agent_pid
wait $agent_pid 2> /dev/null
# its recorder ends too (told by the kernel), and with it the hold directory's lock
[ -z "$child" ] || wait_gone $child 500 || fail "the killed agent's recorder $child did not end"
kept=$(ls spool3/pyroscope-*/*.win 2> /dev/null | wc -l)
[ "$kept" -ge 2 ] || fail "killed: $kept windows in the spool"
dead=$(ls -d holds/prof-hold-* 2> /dev/null)
[ "$(echo "$dead" | grep -c .)" = 1 ] || fail "killed: hold directories '$dead', expected the one it left"
start_rx rx3 pyroscope --port "$port"
start_agent --listen none -F 99 --comm shape --window 1 --duration 4 --spool spool3 --label env=test \
	--tenant t1 --push "http://127.0.0.1:$port"
# its own hold directory made, and before it (make_hold_dir()) the killed one's removed
new_hold_dir() {
	live=$(ls -d holds/prof-hold-* 2> /dev/null | grep -vxF "$dead")
	[ -n "$live" ]
}
wait_until "the new agent's hold directory" new_hold_dir
[ ! -e "$dead" ] || fail "the new agent left the killed one's hold directory $dead"
# one more agent meanwhile sweeps nothing of the live one's
"$PROF" agent --listen 127.0.0.1:0 -F 99 --comm shape --window 1 --duration 1 2> agent3.err ||
	fail "a second agent at once: $(cat agent3.err)"
[ -d "$live" ] || fail "a second agent removed the running one's hold directory $live"
wait_agent
left=$(ls -A holds)
[ -z "$left" ] || fail "hold directories left after the agents' ends: $left"
TMPDIR=$saved_tmpdir
expect_rc 0 "prof agent after kill -9"
stop_rx
check_rx rx3
grep -q "$kept windows an earlier run left" agent.err || fail "the new agent did not say what it found: $(cat agent.err)"
windows=$(summary windows)
empty=$(summary empty)
note "kill -9: $kept windows kept, then $windows windows ($empty empty); $pyro received"
[ "$pyro" = $((kept + windows - empty)) ] || fail "after kill -9: $pyro windows arrived, expected $kept + $((windows - empty))"
dups=$(awk '$1 == "pyroscope" { print $2, $3 }' ranges | sort | uniq -d | wc -l)
[ "$dups" = 0 ] || fail "after kill -9: $dups windows arrived twice"

umount_disk() {
	umount disk 2> /dev/null
}

# --- faults: a spool over its size ------------------------------------------------------
start_agent --listen none -F 99 --comm shape --window 1 --duration 8 --spool spool4 --spool-size 16K \
	--push "http://127.0.0.1:$port"
wait_agent
expect_rc 0 "prof agent with a small spool"
grep -q "is full (16384 bytes at most): dropped" agent.err || fail "a full spool was not said: $(cat agent.err)"
dropped=$(pushed "http://127.0.0.1:$port" dropped)
size=$(cat spool4/pyroscope-*/*.win | wc -c)
note "a 16K spool: $dropped windows dropped, $size bytes left"
[ "$dropped" -gt 0 ] || fail "a full spool dropped nothing"
[ "$size" -le 16384 ] || fail "the spool holds $size bytes, over 16K"

# A shape that runs all the time, from here on. The full disk below counts
# what windows of its samples the spool holds (at 20%, smaller windows
# filled a 40K disk twice over); the slow backend holds the samples to its
# CPU time (one that sleeps and wakes hundreds of times a second takes 2-3
# times its CPU's share of a system-wide cpu-clock's samples on this kind
# of VM, perf's as well).
kill "$shape_pid" 2> /dev/null
start_shape 600 100

# --- faults: the disk full under two backends that are down ---------------------------------
# The oldest windows of both go, not the newest of the one that writes;
# the message says it is the disk, not --spool-size.
if [ "$(id -u)" = 0 ] && mkdir disk && mount -t tmpfs -o size=40k tmpfs disk 2> mount.err; then
	on_exit umount_disk
	start_rx rx4b pyroscope
	stop_rx	# nothing listening: the windows stay
	start_agent --listen none -F 99 --comm shape --window 1 --duration 14 --spool disk/spool \
		--push "http://127.0.0.1:$port" --push "http://127.0.0.1:$port/api/profiles/writeraw"
	wait_agent
	expect_rc 0 "prof agent on a full disk"
	[ "$(grep -c "the disk holding disk/spool is full (No space left on device): dropping the oldest windows of all backends" \
		agent.err)" = 1 ] || fail "a full disk was not said so, once: $(cat agent.err)"
	grep -q "spool for .* is full (" agent.err && fail "a full disk was blamed on --spool-size: $(cat agent.err)"
	pn=$(ls disk/spool/pyroscope-*/*.win | sed 's|.*/||' | sort)
	an=$(ls disk/spool/parca-*/*.win | sed 's|.*/||' | sort)
	note "a full disk: $(echo "$pn" | wc -l) and $(echo "$an" | wc -l) windows kept; $(grep -c 'is full' agent.err) lines said"
	# each backend keeps the newest windows; neither keeps one older than the other's oldest by more than a window
	[ "$(echo "$pn" | tail -n 1)" = "$(echo "$an" | tail -n 1)" ] ||
		fail "the backends' newest windows differ: $(echo "$pn" | tail -n 1) and $(echo "$an" | tail -n 1)"
	po=$(echo "$pn" | head -n 1 | cut -c1-20 | sed 's/^0*//')
	ao=$(echo "$an" | head -n 1 | cut -c1-20 | sed 's/^0*//')
	d=$((po > ao ? po - ao : ao - po))
	[ "$d" -le 2000000000 ] || fail "one backend kept windows $((d / 1000000000)) s older than the other's oldest"
else
	note "not root, or no tmpfs: the full disk is not tried"
fi

# --- faults: a slow backend -----------------------------------------------------------------
# sampling goes on while a push waits: the samples are what shape's CPU
# time in those 8 s makes at 199 Hz (half of it at least), whatever the
# machine gave it (0.9 s of CPU at load 20)
start_rx rx5 pyroscope --delay 4
c0=$(proc_cpu "$shape_pid")
start_agent --listen none -F 199 --comm shape --window 1 --duration 8 --spool spool5 --push "http://127.0.0.1:$port"
wait_agent
c1=$(proc_cpu "$shape_pid")
expect_rc 0 "prof agent with a slow backend"
stop_rx
lost=$(summary lost)
samples=$(summary samples)
floor=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%d", (b - a) * 199 * 0.5 }')
note "a slow backend: $samples samples ($(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }') s of shape's CPU), $lost records lost, $(pushed "http://127.0.0.1:$port" sent) windows sent"
[ "$lost" = 0 ] || fail "a slow backend: $lost records lost"
[ "$samples" -ge "$floor" ] || fail "a slow backend: only $samples samples, expected $floor for shape's CPU at 199 Hz"
[ "$samples" -gt 0 ] || fail "a slow backend: no samples"
# --- faults: the recorder killed: started again, the windows go on ---------------------------
start_rx rx6 pyroscope
start_agent --listen none -F 99 --comm shape --window 1 --duration 10 --spool spool6 --label env=test \
	--tenant t1 --push "http://127.0.0.1:$port"
wait_until "the agent's recorder process" pgrep -P $agent_pid
child=$(pgrep -P $agent_pid)
[ -n "$child" ] || fail "the agent has no recorder process"
kill -KILL $child
wait_agent
expect_rc 0 "prof agent whose recorder was killed"
stop_rx
grep -q "the recorder was killed by signal 9; starting it again" agent.err ||
	fail "the agent did not say it starts its recorder again: $(cat agent.err)"
check_rx rx6
last=$(sort -n -k2 ranges | awk '$1 == "pyroscope" { f = $4 } END { print f }')
n=$(awk -v f="$last" '$1 == f { print $2 }' sums)
note "the recorder killed: $pyro windows received, the last with $n samples"
[ "${n:-0}" -gt 0 ] || fail "no samples after the recorder was started again"
# --- an OTLP collector that takes nothing of a request: said, counted, not sent again -----
start_rx rx7 otlp --otlp-reject 2
start_agent --listen none -F 99 --comm shape --window 1 --duration 4 --spool spool7 \
	--push "http://127.0.0.1:$port/v1development/profiles"
wait_agent
expect_rc 0 "prof agent with an OTLP collector that rejects"
stop_rx
grep -q "refused a window (2 profiles rejected: too old); it is dropped" agent.err ||
	fail "the OTLP rejection was not said: $(cat agent.err)"
refused=$(grep -F "prof: agent: http://127.0.0.1:$port/v1development/profiles: " agent.err |
	sed -n 's/.*, \([0-9]*\) refused$/\1/p')
got=$(ls rx7/otlp/*.otlp 2> /dev/null | wc -l)
note "OTLP rejected: $got requests, $refused refused"
[ "$got" -ge 1 ] && [ "$refused" = "$got" ] || fail "OTLP rejected: $got requests, ${refused:-none} counted refused"
kill $shape_pid 2> /dev/null
finish
