#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# soak-agent.sh [SECONDS]: prof agent for SECONDS (600 by default) on a
# host that builds software, with its default options, pushing to the
# three stand-in backends (tests/agent/receiver.py, which follow
# Pyroscope's, Parca's and the OpenTelemetry collector's code), while
# scrapes of 10 s come now and then. Prints what the backends stored:
# windows sent, refused and stored per backend; the distinct series
# Pyroscope holds; samples labelled ':PID'; the share of the samples of
# programs deleted at their exit that are named; the scrapes' latency.
# Not a test (its numbers depend on the machine); issue 51's numbers.
# From the top of the build tree: sh ../tests/bench/soak-agent.sh 600
set -u
secs=${1:-600}
here=$(cd "$(dirname "$0")" && pwd)
PROF=${PROF:-$PWD/prof}
WORKLOADS=${WORKLOADS:-$PWD/tests/workloads}
rx=$here/../agent/receiver.py
psum=$here/../agent/pprof-sum.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/soak-agent.XXXXXX")
pids=
cleanup() {
	for p in $pids; do kill "$p" 2> /dev/null; done
	wait 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
die() {
	echo "soak-agent: $*" >&2
	exit 1
}
[ -x "$PROF" ] || die "no prof at $PROF"
for k in pyroscope parca otlp; do
	python3 "$rx" "$tmp/rx/$k" --kind $k --port-file "$tmp/$k.port" &
	pids="$pids $!"
done
for k in pyroscope parca otlp; do
	i=0
	while [ ! -s "$tmp/$k.port" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$tmp/$k.port" ] || die "the $k stand-in did not start"
done
pp=$(cat "$tmp/pyroscope.port")
ap=$(cat "$tmp/parca.port")
op=$(cat "$tmp/otlp.port")
"$PROF" agent --listen 127.0.0.1:0 --duration "$secs" --spool "$tmp/spool" \
	--push "http://127.0.0.1:$pp" --push "http://127.0.0.1:$ap/api/profiles/writeraw" \
	--push "http://127.0.0.1:$op/v1development/profiles" 2> "$tmp/agent.err" &
agent=$!
pids="$pids $agent"
i=0
while ! grep -q 'serving http' "$tmp/agent.err" && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
url=$(sed -n 's|^prof: agent: serving \(http://[^ ]*\).*|\1|p' "$tmp/agent.err")
[ -n "$url" ] || die "the agent did not start: $(cat "$tmp/agent.err")"

# the host's work: a build of prof's sources, short programs, binaries deleted at exit
src=$here/../..
(
	n=0
	while kill -0 $agent 2> /dev/null; do
		for f in "$src"/src/*.c; do
			kill -0 $agent 2> /dev/null || break
			gcc -O2 -w -I"$src/src" -I"$PWD" -c "$f" -o "$tmp/o.o" 2> /dev/null
		done
		n=$((n + 1))
	done
) &
pids="$pids $!"
(
	mkdir -p "$tmp/del"
	i=0
	while kill -0 $agent 2> /dev/null; do
		# a new file each time under one of 8 names, as test binaries are
		cp "$WORKLOADS/shape" "$tmp/del/gone-$((i % 8))"
		"$tmp/del/gone-$((i % 8))" -s 0.$((i % 4 + 1)) > /dev/null
		rm -f "$tmp/del/gone-$((i % 8))"
		for c in true date "ls /" "sort /etc/passwd"; do $c > /dev/null; done
		i=$((i + 1))
	done
) &
pids="$pids $!"
: > "$tmp/scrapes"
# the agent's RSS each 30 s, to see it flat over a long churn (issue 57):
# its own and its recorder's (its child), KiB
(
	t=0
	while kill -0 $agent 2> /dev/null; do
		a=$(awk '/^VmRSS:/ { print $2 }' /proc/$agent/status 2> /dev/null)
		c=0
		for k in $(pgrep -P $agent); do
			c=$((c + $(awk '/^VmRSS:/ { print $2 }' /proc/$k/status 2> /dev/null || echo 0)))
		done
		[ -n "$a" ] && echo "$t $a $c" >> "$tmp/rss"
		sleep 30
		t=$((t + 30))
	done
) &
pids="$pids $!"
while kill -0 $agent 2> /dev/null; do
	t0=$(date +%s%N)
	curl -s -o /dev/null "$url?seconds=10" || break
	echo $((($(date +%s%N) - t0) / 1000000)) >> "$tmp/scrapes"
	sleep 20
done
wait $agent
echo "soak-agent: $secs s; $(grep -c . "$tmp/scrapes") scrapes of 10 s"
tail -n 4 "$tmp/agent.err" | sed 's/^/  /'
python3 - "$tmp/rx" << 'EOF'
import glob, json, re, sys
for k in ("pyroscope", "parca", "otlp"):
    st = {}
    stored = 0
    colon = 0
    for j in glob.glob("%s/%s/*.json" % (sys.argv[1], k)):
        r = json.load(open(j))
        st[r["status"]] = st.get(r["status"], 0) + 1
        stored += bool(r["stored"])
        for s in r["stored"]:
            for key in ("process", "thread"):
                if re.match(r"^:[0-9]+$", s["labels"].get(key, "")):
                    colon += s.get("samples", 0)
    series = sum(1 for _ in open("%s/%s/series" % (sys.argv[1], k))) if k != "otlp" else "-"
    if k == "pyroscope":
        vals = {}
        for line in open("%s/%s/series" % (sys.argv[1], k)):
            for kv in line.rstrip("\n").split(","):
                key, _, v = kv.partition("=")
                vals.setdefault(key, set()).add(v)
        print("  pyroscope's series: distinct values by label: %s"
              % ", ".join("%s %d" % (key, len(v)) for key, v in sorted(vals.items())))
    print("  %-9s requests by status %s, %d stored; %s distinct series; %d samples labelled :PID"
          % (k, dict(sorted(st.items())), stored, series, colon))
EOF
python3 "$psum" --named-in /gone- "$tmp"/rx/pyroscope/*.pprof |
	awk '{ n += $2; u += $3 } END { printf "  deleted at exit: %d samples named, %d not (%.1f%%)\n", n, u, n + u ? 100 * n / (n + u) : 0 }'
sort -n "$tmp/scrapes" | awk '{ v[NR] = $1 } END { if (NR) printf "  scrape of 10 s answered in %.2f s (median), %.2f s at most\n", v[int((NR + 1) / 2)] / 1000, v[NR] / 1000 }'
# RSS from minute 5 on, the agent's, its recorder's and both: flat means within 10% of minute 5's
[ -s "$tmp/rss" ] && awk '
	{ t[NR] = $1; r[1, NR] = $2; r[2, NR] = $3; r[3, NR] = $2 + $3 }
	END {
		split("agent,recorder,both", name, ",")
		for (k = 1; k <= 3; k++) {
			line = ""
			for (i = 1; i <= NR; i++)
				if (t[i] % 300 == 0)
					line = line sprintf(" %dm %.1f", t[i] / 60, r[k, i] / 1024)
			printf "  %s RSS (MiB) by minute:%s\n", name[k], line
			b = 0
			for (i = 1; i <= NR; i++)
				if (t[i] >= 300) {
					if (!b) { b = r[k, i]; lo = hi = r[k, i] }
					if (r[k, i] < lo) lo = r[k, i]
					if (r[k, i] > hi) hi = r[k, i]
				}
			if (b)
				printf "    from minute 5 (%.1f MiB): lowest %.1f, highest %.1f (%+.1f%%), last %.1f (%+.1f%%)\n", b / 1024, lo / 1024, hi / 1024, 100 * (hi - b) / b, r[k, NR] / 1024, 100 * (r[k, NR] - b) / b
		}
	}' "$tmp/rss"
