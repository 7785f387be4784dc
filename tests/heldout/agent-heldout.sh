#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# agent-heldout.sh: prof agent on programs nobody here wrote, checked as a
# user would check it. Not part of `make check` (about two minutes, and it
# needs perf_event_open, go and perf); run it by hand or as `make heldout`:
#
#   PROF=./prof sh tests/heldout/agent-heldout.sh [WORKDIR]
#
# Debian's bzip2, sha256sum, gzip and xz (stripped, as shipped) run over
# and over on a 24 MB file while two profilers watch the same run:
#   - prof agent -F 49 --window 5, pushing every window to a stand-in
#     Pyroscope and to a stand-in OpenTelemetry collector (both
#     tests/agent/receiver.py), serving pprof on a loopback port;
#   - perf record -a -F 49 -g -k realtime, the oracle, whose timestamps are
#     the wall clock the windows are cut by.
# Meanwhile: go tool pprof scrapes /debug/pprof/profile?seconds=8; the
# receiver goes down for 20 s and comes back on the same port; the agent is
# killed with -9 and a new one started on the same spool.
#
# Then it checks, and prints the figures:
#   - every window accounted for: the first agent's windows closed before
#     the kill form an unbroken run of 5 s windows, every one of them
#     received once at each backend; the second agent's windows, as many
#     as it says it closed, received once each;
#   - the OTLP windows are the Pyroscope windows: same time ranges, same
#     sample counts (decoded by Google's protobuf, tests/agent/otlp-sum.py);
#   - the shares: per program (go tool pprof -tags on the pushed profiles)
#     and per leaf function (go tool pprof -top) against perf's samples
#     of the same programs in the same time ranges, within 4 points; and
#     the scrape's per-program shares against perf's in its range.
# Exit 0 when every check held, 1 when one failed, 77 when it cannot run.

PROF=${PROF:-./prof}
PERF=${PERF:-perf}
here=$(cd "$(dirname "$0")" && pwd)
rx=$here/../agent/receiver.py
psum=$here/../agent/pprof-sum.py
osum=$here/../agent/otlp-sum.py
me=agent-heldout
WIN=5
TOL=${HELDOUT_TOLERANCE:-4}

say() { printf '%s\n' "$*"; }
skip() { printf '%s: skipped: %s\n' "$me" "$*" >&2; exit 77; }
bad=0
fail() { printf '%s: FAIL: %s\n' "$me" "$*"; bad=1; }
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }

case $PROF in /*) ;; *) PROF=$PWD/$PROF ;; esac
[ -x "$PROF" ] || die "no prof at $PROF (build it, or set PROF)"
for t in "$PERF" go python3 bzip2 sha256sum gzip xz curl; do
	command -v "$t" > /dev/null 2>&1 || skip "$t not found"
done
/usr/bin/python3 -c 'import google.protobuf' 2> /dev/null || skip "no python3-protobuf for /usr/bin/python3"

if [ -n "${1:-}" ]; then
	w=$1
	mkdir -p "$w" || die "cannot make $w"
else
	w=$(mktemp -d) || die "mktemp failed"
fi
cd "$w" || die "cannot enter $w"
pids=
trap 'touch stop; for p in $pids; do kill -9 $p 2> /dev/null; done' EXIT
trap 'exit 130' INT TERM
"$PROF" record -q -e cpu-clock -a -o probe.data --duration 0.1 > /dev/null 2> probe.err ||
	skip "prof record -a is refused: $(head -n 1 probe.err)"

# the input: binaries and text, compressible but not trivially
: > big
for f in /usr/bin/* /usr/share/doc/*/copyright; do
	[ -f "$f" ] && cat "$f" >> big 2> /dev/null
	[ "$(wc -c < big)" -gt 25000000 ] && break
done
head -c 24000000 big > in && rm big

work() {
	while [ ! -e stop ]; do
		bzip2 -c in > /dev/null
		sha256sum in > /dev/null
		gzip -6 -c in > /dev/null
		xz -0 -T1 -c in > /dev/null
	done
}

now() { date +%s.%N; }
waitfor() {	# waitfor FILE: up to 10 s
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
	[ -s "$1" ]
}

rm -rf rx spool stop pport oport
# a stand-in of each server (receiver.py --kind: it follows that server's code)
python3 "$rx" rx/pyroscope --kind pyroscope --port-file pport &
rxp=$!
python3 "$rx" rx/otlp --kind otlp --port-file oport &
rxo=$!
pids="$rxp $rxo"
waitfor pport && waitfor oport || die "the receivers did not start"
pport=$(cat pport)
oport=$(cat oport)
pyro=http://127.0.0.1:$pport
otlp=http://127.0.0.1:$oport/v1development/profiles

# -B -N: perf 6.1's build-id pass at the end of a recording can abort (see
# tests/test-subr.sh); the binaries are all here, found by path
"$PERF" record -q -B -N -a -F 49 -g -k realtime -o perf.data > /dev/null 2> perf.err &
perfp=$!
pids="$pids $perfp"
"$PROF" agent --listen 127.0.0.1:0 -F 49 --window $WIN --spool spool --app heldout \
	--label run=heldout --push "$pyro" --push "$otlp" 2> agent1.err &
a1=$!
pids="$pids $a1"
t_a1=$(now)
sleep 1
url=$(sed -n 's|^prof: agent: serving \(http://[^ ]*\)/debug/pprof/profile.*|\1|p' agent1.err)
[ -n "$url" ] || die "the agent did not say where it serves: $(cat agent1.err)"
work &
wp=$!
pids="$pids $wp"
say "$me: agent at $url, pushing to $pyro and $otlp; perf record -a alongside"

# pull: the index, and an 8-second CPU profile through go tool pprof
sleep 2
curl -sf "$url/debug/pprof/" > index.html || fail "GET /debug/pprof/ failed"
grep -q 'profile' index.html || fail "the index names no profile: $(head -c 200 index.html)"
go tool pprof -proto "$url/debug/pprof/profile?seconds=8" > scrape.pb.gz 2> scrape.err ||
	fail "go tool pprof could not scrape: $(tail -n 2 scrape.err)"
go tool pprof -top -nodecount=8 scrape.pb.gz > scrape.top 2>&1 || fail "go tool pprof -top of the scrape: $(tail -n 2 scrape.top)"

# the receiver down for 20 s, then up again on the same port
kill $rxp $rxo
wait $rxp $rxo 2> /dev/null
say "$me: receivers down at $(now)"
sleep 20
python3 "$rx" rx/pyroscope --kind pyroscope --port "$pport" &
rxp=$!
python3 "$rx" rx/otlp --kind otlp --port "$oport" &
rxo=$!
pids="$pids $rxp $rxo"
say "$me: receivers up again"
sleep 8

# the agent killed with -9, a new one on the same spool
kill -KILL $a1
t_kill=$(now)
wait $a1 2> /dev/null
spooled=$(find spool -name '*.win' | wc -l)
say "$me: agent killed at $t_kill with $spooled window files in the spool"
sleep 1
t_a2=$(now)
"$PROF" agent --listen none -F 49 --window $WIN --spool spool --app heldout \
	--label run=heldout --push "$pyro" --push "$otlp" --duration 22 2> agent2.err
rc=$?
[ $rc = 0 ] || fail "the second agent exited $rc: $(tail -n 3 agent2.err)"
t_end=$(now)
touch stop
wait $wp
kill -INT $perfp
wait $perfp
sleep 1
kill $rxp $rxo
wait $rxp $rxo 2> /dev/null
pids=

# --- what arrived ----------------------------------------------------------------------
: > pyro.list
: > otlp.list
for j in rx/*/*.json; do
	grep -q '"status": 200' "$j" || fail "a window was refused: $(cat "$j" | head -c 400)"
	p=$(sed -n 's/.*"path": "\([^"]*\)".*/\1/p' "$j")
	case $p in
	*/ingest) echo "${j%.json}.pprof" >> pyro.list ;;
	*/v1development/profiles) echo "${j%.json}.otlp" >> otlp.list ;;
	esac
done
# pyro.sums: FILE SAMPLES VALUE START_NS DURATION_NS LABELS
python3 "$psum" $(cat pyro.list) > pyro.sums || fail "a pushed pprof did not decode"
# otlp.sums: START_NS SAMPLES, from each request's samples/count profile
for f in $(cat otlp.list); do
	/usr/bin/python3 "$osum" "$f" > o.out || { fail "an OTLP request did not decode: $f"; continue; }
	sed -n 's/^profile samples\/count .* total=\([0-9]*\) time=\([0-9]*\) .*/\2 \1/p' o.out
done > otlp.sums
n1=$(wc -l < pyro.sums)
n2=$(wc -l < otlp.sums)
say "$me: received $n1 Pyroscope windows, $n2 OTLP windows"

# pyro.win: INDEX (in window units of the wall clock) START_NS SAMPLES
awk -v w=$WIN '{ printf "%d %s %d\n", $4 / (w * 1e9), $4, $2 }' pyro.sums | sort -n -k2 > pyro.win
awk -v w=$WIN '{ printf "%d %s %d\n", $1 / (w * 1e9), $1, $2 }' otlp.sums | sort -n -k2 > otlp.win
dups=$(cut -d' ' -f2 pyro.win | uniq -d | wc -l)
[ "$dups" = 0 ] || fail "$dups Pyroscope windows arrived twice: $(cut -d' ' -f2 pyro.win | uniq -d | tr '\n' ' ')"
cmp -s pyro.win otlp.win || fail "the OTLP windows are not the Pyroscope windows: $(diff pyro.win otlp.win | head -n 6 | tr '\n' ' ')"

# agent 1: a window closes 2 s after its end once its samples are in, 8 s
# after at the latest (prof-agent(1)'s grace); every window that ended 9 s
# before the kill was closed and spooled, so it must arrive; those after
# may have; what arrived is an unbroken run from the first window on.
first=$(awk -v t="$t_a1" -v w=$WIN 'BEGIN { printf "%d\n", t / w }')
sure=$(awk -v t="$t_kill" -v w=$WIN 'BEGIN { printf "%d\n", (t - 9) / w - 1 }')
awk -v t="$t_kill" '$2 < t * 1e9 { print $1 }' pyro.win > a1.idx
a1rx=$(wc -l < a1.idx)
last=$(tail -n 1 a1.idx)
missing=
k=$first
while [ "$k" -le "${last:-0}" ] || [ "$k" -le "$sure" ]; do
	grep -qx "$k" a1.idx || missing="$missing $k"
	k=$((k + 1))
done
[ -z "$missing" ] || fail "windows of the first agent never arrived:$missing (received $(tr '\n' ' ' < a1.idx))"
[ "${last:-0}" -ge "$sure" ] || fail "the first agent's last window to arrive is $last, before $sure"
a1n=$((sure - first + 1))
# agent 2: what it says it closed, all received
a2w=$(sed -n 's/^prof: agent: \([0-9]*\) windows (\([0-9]*\) without samples).*/\1 \2/p' agent2.err)
a2n=$(echo "$a2w" | awk '{ print $1 - $2 }')
a2s=$(sed -n 's/^prof: agent: [0-9]* windows ([0-9]* without samples), \([0-9]*\) samples.*/\1/p' agent2.err)
a2rx=$(awk -v t="$t_a2" '$2 >= t * 1e9 - 1e6' pyro.win | wc -l)
a2rs=$(awk -v t="$t_a2" '$2 >= t * 1e9 - 1e6 { s += $3 } END { print s + 0 }' pyro.win)
stray=$(awk -v a="$t_a2" -v k="$t_kill" '$2 < a * 1e9 - 1e6 && $2 >= k * 1e9' pyro.win | wc -l)
[ "$stray" = 0 ] || fail "$stray windows start between the kill and the second agent"

[ "$a2rx" = "$a2n" ] || fail "the second agent closed $a2n windows with samples, $a2rx arrived after the kill"
[ "$a2rs" = "$a2s" ] || fail "the second agent took $a2s samples, its windows hold $a2rs"
say "$me: first agent: windows $first..$last received, each once ($a1rx; $a1n had surely closed before the kill)"
say "$me: second agent: $a2n windows, $a2s samples, all received once; OTLP and Pyroscope agree window by window"
grep -h "earlier run left\|stops answering\|answers again\|cannot send" agent1.err agent2.err | sed 's/^/    /' | head -n 8

# --- shares against perf, in the same time ranges ------------------------------------------
progs='bzip2 sha256sum gzip xz'
awk '{ printf "%.9f %.9f\n", $4 / 1e9, ($4 + $5) / 1e9 }' pyro.sums | sort -n > ranges
"$PERF" script -i perf.data -F comm,time,ip,sym --no-demangle 2> /dev/null > perf.txt ||
	die "perf script failed"
# perf.leaf: COMM TIME LEAF, one per sample (the first frame line after the header)
awk '/^[^ \t]/ { comm = $1; t = $2; sub(/:$/, "", t); want = 1; next }
	want && NF >= 2 { s = $2; if (s == "") s = "[unknown]"; print comm, t, s; want = 0 }
	want && NF == 1 { print comm, t, "[unknown]"; want = 0 }' perf.txt > perf.leaf
# perf samples of the programs in the pushed windows' ranges: by program and by leaf
awk -v progs="$progs" 'NR == FNR { a[n] = $1; b[n++] = $2; next }
	BEGIN { split(progs, p, " "); for (i in p) want[p[i]] = 1 }
	want[$1] { for (i = 0; i < n; i++) if ($2 >= a[i] && $2 < b[i]) { print; break } }' ranges perf.leaf > perf.in
pn=$(wc -l < perf.in)
[ "$pn" -gt 500 ] || fail "perf has only $pn samples of the programs in the windows"
awk -v n="$pn" '{ c[$1]++ } END { for (k in c) printf "%s %.2f\n", k, 100 * c[k] / n }' perf.in | sort > perf.prog
awk -v n="$pn" '{ c[$3]++ } END { for (k in c) printf "%.2f %s\n", 100 * c[k] / n, k }' perf.in | sort -rn > perf.func

# prof's: the pushed profiles merged by go tool pprof, the programs' samples only
go tool pprof -tags -sample_index=0 -symbolize=none $(cat pyro.list) > prof.tags 2> tags.err ||
	fail "go tool pprof -tags: $(tail -n 2 tags.err)"
focus=$(echo "$progs" | tr ' ' '|')
go tool pprof -top -nodecount=2000 -sample_index=0 -symbolize=none -tagfocus="process=^($focus)\$" \
	$(cat pyro.list) > prof.top 2> top.err || fail "go tool pprof -top: $(tail -n 2 top.err)"
# prof.prog: PROGRAM SHARE among the programs, from -tags' process histogram
awk -v progs="$progs" 'BEGIN { split(progs, p, " "); for (i in p) want[p[i]] = 1 }
	/^ *process:/ { on = 1; next } /^ *[a-z_]+:/ { on = 0 }
	on && /\(/ { n = $1; name = $NF; if (want[name]) { c[name] = n; t += n } }
	END { for (k in c) printf "%s %.2f\n", k, 100 * c[k] / t }' prof.tags | sort > prof.prog
# prof.func: SHARE LEAF, from -top's flat column (samples, so counts)
awk '/^ *flat  *flat%/ { on = 1; next } on && NF >= 6 { name = $6; for (i = 7; i <= NF; i++) name = name " " $i; print $1, name }' \
	prof.top > prof.flat
pt=$(awk '{ t += $1 } END { print t + 0 }' prof.flat)
tot=$(sed -n 's/.*of \([0-9]*\) total.*/\1/p' prof.top | head -n 1)
[ -n "$tot" ] || tot=$pt
awk -v t="$tot" '{ n = $1; $1 = ""; sub(/^ /, ""); printf "%.2f %s\n", 100 * n / t, $0 }' prof.flat | sort -rn > prof.func

say "$me: per program, share of the four programs' samples (prof agent / perf, $pn perf samples):"
for p in $progs; do
	a=$(awk -v k="$p" '$1 == k { print $2 }' prof.prog)
	b=$(awk -v k="$p" '$1 == k { print $2 }' perf.prog)
	say "    $(printf '%-10s %6s%% %6s%%' "$p" "${a:-0}" "${b:-0}")"
	awk -v a="${a:-0}" -v b="${b:-0}" -v t="$TOL" 'BEGIN { d = a - b; exit !(d > t || -d > t) }' &&
		fail "$p: prof $a%, perf $b%"
done
say "$me: the leaf functions perf names most, share of the programs' samples (prof agent / perf):"
named=0
while read -r b f; do
	case $f in '['*) continue ;; esac
	a=$(awk -v k="$f" '{ s = $1; $1 = ""; sub(/^ /, "") } $0 == k { print s; exit }' prof.func)
	say "    $(printf '%-36s %6s%% %6s%%' "$f" "${a:-0}" "$b")"
	awk -v a="${a:-0}" -v b="$b" -v t="$TOL" 'BEGIN { d = a - b; exit !(d > t || -d > t) }' &&
		fail "$f: prof ${a:-0}%, perf $b%"
	named=$((named + 1))
	[ $named = 8 ] && break
done < perf.func
[ $named -ge 4 ] || fail "perf named only $named leaf functions"

# the scrape: its programs' shares against perf's in its range
set -- $(python3 "$psum" scrape.pb.gz | awk '{ printf "%.9f %.9f\n", $4 / 1e9, ($4 + $5) / 1e9 }')
s0=$1 s1=$2
go tool pprof -tags -sample_index=0 scrape.pb.gz > scrape.tags 2> /dev/null
awk -v progs="$progs" 'BEGIN { split(progs, p, " "); for (i in p) want[p[i]] = 1 }
	/^ *process:/ { on = 1; next } /^ *[a-z_]+:/ { on = 0 }
	on && /\(/ { n = $1; name = $NF; if (want[name]) { c[name] = n; t += n } }
	END { for (k in c) printf "%s %.2f\n", k, 100 * c[k] / t }' scrape.tags | sort > scrape.prog
awk -v a="$s0" -v b="$s1" -v progs="$progs" 'BEGIN { split(progs, p, " "); for (i in p) want[p[i]] = 1 }
	want[$1] && $2 >= a && $2 < b { c[$1]++; n++ }
	END { for (k in c) printf "%s %.2f\n", k, 100 * c[k] / n }' perf.leaf | sort > scrape.perf
say "$me: the 8 s scrape by go tool pprof, per program (prof agent / perf in the same 8 s):"
for p in $progs; do
	a=$(awk -v k="$p" '$1 == k { print $2 }' scrape.prog)
	b=$(awk -v k="$p" '$1 == k { print $2 }' scrape.perf)
	say "    $(printf '%-10s %6s%% %6s%%' "$p" "${a:-0}" "${b:-0}")"
	awk -v a="${a:-0}" -v b="${b:-0}" -v t=$((TOL * 2)) 'BEGIN { d = a - b; exit !(d > t || -d > t) }' &&
		fail "the scrape, $p: prof $a%, perf $b%"
done
say "$me: go tool pprof -top of the scrape:"
sed -n '/flat%/,$p' scrape.top | head -n 6 | sed 's/^/    /'

if [ $bad = 0 ]; then
	say "$me: every check held"
fi
exit $bad
