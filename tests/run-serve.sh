#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What prof serves and writes, against other users and hostile clients,
# with no kernel (prof view's server; the agent's is in run-agent.sh):
#   - prof view's page, report's and convert's -o outputs are mode 0600,
#     and another user (nobody) cannot read them;
#   - a program of nobody's whose line table names a root-only file: the
#     page and annotate leave it out (and show it for root's program);
#   - beside 100 half-sent requests, a client that reads nothing and one
#     that trickles a byte every 4 s, the page is answered whole, and the
#     trickler is cut before its request is in; with 150 connections open
#     (past the cap of 128) it is answered too;
#   - foreign Host names (DNS rebinding) get 421; the server's own do not;
#   - SIGTERM ends it, status 0, its page gone, with those clients open.
test_timeout=600
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

py=python3
command -v $py > /dev/null 2>&1 || skip "no python3 for the clients"
hostile=$srcdir/tests/tools/http-hostile.py
golden_profile
mkdir tmp

# --- files: 0600, whatever the umask ---------------------------------------------
umask 022
# shellcheck disable=SC2086  # $gopts is an option list
run_prof report -i golden.data $gopts -F html -o page.html
expect_rc 0 "prof report -F html -o page.html"
run_prof report -i golden.data $gopts -F folded -o page.folded
expect_rc 0 "prof report -F folded -o page.folded"
run_prof convert -i golden.data -o golden.pb.gz
expect_rc 0 "prof convert -o golden.pb.gz"
for f in page.html page.folded golden.pb.gz; do
	[ "$(stat -c %a "$f")" = 600 ] || fail "$f is mode $(stat -c %a "$f"), not 600"
done
# another user: nobody, where this directory lets it look at all
other=
if command -v setpriv > /dev/null 2>&1 && id nobody > /dev/null 2>&1; then
	other="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	chmod 755 . tmp
	if $other test -e page.html 2> /dev/null; then
		$other cat page.html > /dev/null 2>&1 && fail "nobody read page.html"
	else
		note "nobody cannot reach this directory; the modes alone are checked"
		other=
	fi
else
	note "no setpriv or no user nobody; the modes alone are checked"
fi

# --- a line table naming a file its program's user could not read ---------------
# A program of user nobody's whose debug info names a root-only file: prof,
# run by root, shows neither its bytes in the page nor a line in annotate;
# the same program of root's shows them (the check can fail).
if command -v cc > /dev/null 2>&1 && [ -n "$other" ]; then
	mkdir -m 700 secret
	echo "TOPSECRET_8d1f = 1;" > secret/secret.c
	chmod 600 secret/secret.c
	mkdir -m 755 evil
	printf '#line 1 "%s/secret/secret.c"\nint hot(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * i; return s; }\nint main(int argc, char **argv) { (void)argv; return hot(argc * 1000); }\n' \
		"$PWD" > evil/evil.c
	cc -g -O0 -o evil/evil evil/evil.c 2> cc.err || fail "cc: $(cat cc.err)"
	cat > evil.spec << EOF
event cpu-clock
comm 100 100 evil
mmap 100 0x400000 $PWD/evil/evil
sample 0 0.001 100 100 0 1000000 x50 hot+0x1a main+0x20
EOF
	"$genprof" evil.spec evil.data 2> gen.err || fail "genprof: $(cat gen.err)"
	for who in nobody root; do
		chown "$who" evil/evil
		run_prof report -i evil.data -F html -o "evil-$who.html"
		expect_rc 0 "prof report -F html of a program of $who's"
		# the page's sources, from its data (deflated, base64: run-report-html.sh)
		$py - "evil-$who.html" > "evil-$who.sources" << 'EOF' || fail "the page's data: $(cat "evil-$who.sources")"
import base64, json, re, sys, zlib
page = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
m = re.search(r'<script id="prof-data" type="application/octet-stream">([A-Za-z0-9+/=\s]*)</script>', page)
raw = zlib.decompress(base64.b64decode("".join(m.group(1).split())))
n = int.from_bytes(raw[:4], "little")
print(json.dumps(json.loads(raw[4:4 + n].decode("utf-8", "strict"))["sources"]))
EOF
		run_prof annotate -i evil.data --stdio hot
		cp out "annotate-$who.out"
	done
	grep -q TOPSECRET evil-root.sources && grep -q TOPSECRET annotate-root.out ||
		fail "root's own program: its source is not shown: $(cat evil-root.sources; head -5 annotate-root.out)"
	grep -q TOPSECRET evil-nobody.sources evil-nobody.html &&
		fail "the page shows a root-only file nobody's program names"
	grep -q TOPSECRET annotate-nobody.out && fail "annotate shows a root-only file nobody's program names"
	grep -q 'left out' evil-nobody.sources || fail "the page does not say the source was left out: $(cat evil-nobody.sources)"
	grep -q 'left out' annotate-nobody.out || fail "annotate does not say the source was left out: $(head -20 annotate-nobody.out)"
	note "a root-only source named by nobody's program: left out of the page and annotate, shown for root's"
else
	note "no cc or no user nobody: the root-only source is not tried"
fi

# --- prof view's server ----------------------------------------------------------
env -u DISPLAY -u WAYLAND_DISPLAY TMPDIR="$PWD/tmp" "$PROF" view golden.data $gopts \
	> url.out 2> view.err &
pid=$!
bg_add $pid
view_url $pid
page=$(ls tmp/prof-view-*.html)
[ "$(stat -c %a "$page")" = 600 ] || fail "the served page $page is mode $(stat -c %a "$page")"
[ -n "$other" ] && $other cat "$page" > /dev/null 2>&1 && fail "nobody read the served page"

$py "$hostile" "$url" slow 100 > slow.out 2>&1 || fail "slow clients: $(tail -n 3 slow.out)"
cmp -s good.out "$page" || fail "the page answered beside slow clients is not the page"
note "prof view: $(sed 's/^held: //' slow.out)"
$py "$hostile" "$url" host > host.out 2>&1 || fail "Host: $(tail -n 3 host.out)"
$py "$hostile" "$url" flood 150 > flood.out 2>&1 || fail "flood: $(tail -n 3 flood.out)"
note "prof view: $(sed 's/^held: //' flood.out)"

# SIGTERM with hostile clients open: ends, 0, the page gone
$py - "$url" > held.out 2>&1 << 'EOF' &
import socket, sys, time, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
held = []
for _ in range(50):
    s = socket.create_connection((u.hostname, u.port)); s.sendall(b"GET / HTTP/1.1\r\n"); held.append(s)
print("open", flush=True)
time.sleep(600)
EOF
holder=$!
bg_add $holder
wait_until "the holder's 50 connections" grep -q open held.out
t0=$(date +%s%N)
kill -TERM $pid
wait_gone $pid 300 || fail "prof view did not end on SIGTERM with 50 clients open"
wait $pid
rc=$?
[ "$rc" = 0 ] || fail "prof view exited $rc on SIGTERM: $(cat view.err)"
note "prof view ended $((($(date +%s%N) - t0) / 1000000)) ms after SIGTERM, 50 clients open"
kill $holder 2> /dev/null
[ -e "$page" ] && fail "the temporary page is left after SIGTERM"
finish
