#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof view, with no kernel, on the golden profile. With no display it
# serves the page on 127.0.0.1 at the URL it prints: the page served is
# byte for byte prof report -F html's with the same options, a wrong
# token gets 404, headless Chromium opens the URL without an error, and
# SIGINT ends it with status 0 and its temporary page gone. With a
# display it hands the page to xdg-open (a stand-in here, in PATH) and
# exits 0, the page left where it said; when xdg-open fails it serves
# instead. -F, a bad --port and a missing file are one line each, and a
# taken --port is said.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

py=python3
command -v $py > /dev/null 2>&1 || skip "no python3 to fetch the page with"
golden_profile
mkdir tmp bin
# shellcheck disable=SC2086  # $gopts is an option list
run_prof report -i golden.data $gopts --comm golden,worker -F html -o want.html
expect_rc 0 "prof report -F html"

# wait_url: the URL prof view ($pid) prints in url.out, in $url
wait_url() {
	view_url $pid
	# its last words come just after the URL
	sleep 0.2
}
# start ARGS...: prof view ARGS in the background, no display, its URL in $url
start() {
	env -u DISPLAY -u WAYLAND_DISPLAY TMPDIR="$PWD/tmp" "$PROF" view "$@" > url.out 2> view.err &
	pid=$!
	wait_url
}
# stop: SIGINT; prof view must exit 0
stop() {
	kill -INT $pid
	wait $pid
	_rc=$?
	[ $_rc = 0 ] || fail "prof view exited $_rc on SIGINT: $(cat view.err)"
}

# shellcheck disable=SC2086
start golden.data $gopts --comm golden,worker
case $url in
http://127.0.0.1:[0-9]*/[0-9a-f]*/) ;;
*) fail "prof view's URL: '$url'" ;;
esac
ls tmp/prof-view-*.html > /dev/null 2>&1 || fail "no temporary page in TMPDIR while serving"
$py - "$url" << 'EOF' > fetch.out 2>&1 || fail "fetching the page: $(tail -3 fetch.out)"
import sys, urllib.request, urllib.error
url = sys.argv[1]
open("got.html", "wb").write(urllib.request.urlopen(url).read())
head = urllib.request.urlopen(urllib.request.Request(url, method="HEAD"))
assert head.status == 200 and head.read() == b"" and head.headers["Content-Type"].startswith("text/html")
for bad in (url.rsplit("/", 2)[0] + "/0123/", url.rsplit("/", 2)[0] + "/", url + "../etc/passwd"):
    try:
        urllib.request.urlopen(bad)
        raise SystemExit("served " + bad)
    except urllib.error.HTTPError as e:
        assert e.code == 404, (bad, e.code)
EOF
cmp -s got.html want.html || fail "the page served is not prof report -F html's"
browser=$(command -v chromium || command -v chromium-browser)
if [ -n "$browser" ] && command -v node > /dev/null 2>&1 &&
	[ -d "$srcdir/tests/browser/node_modules/puppeteer-core" ]; then
	timeout 300 node "$srcdir/tests/browser/page.mjs" "$browser" "$url" . funcs > page.out 2> page.err ||
		fail "Chromium could not open $url: $(tail -3 page.out page.err)"
	grep '^error' page.out && fail "the served page: $(grep -m1 '^error' page.out)"
	grep -q "$(printf '^func\t.*\t\[\.\] leaf_b$')" page.out || fail "the served page shows no leaf_b: $(head -5 page.out)"
	note "served page opened in $browser in $(awk -F '\t' '$1 == "ready" { print $2 }' page.out) ms"
else
	note "the served page not opened in a browser: no Chromium, node or tests/browser/node_modules"
fi
# a second one cannot have the same --port
port=$(echo "$url" | sed 's|http://127.0.0.1:\([0-9]*\)/.*|\1|')
env -u DISPLAY "$PROF" view golden.data $gopts --port "$port" > url2.out 2> err
rc=$?
expect_rc 1 "prof view --port $port while it is taken"
grep -q "^prof: cannot serve on 127.0.0.1:$port: Address already in use; give another --port$" err ||
	fail "a taken port: $(cat err)"
stop
ls tmp/prof-view-*.html > /dev/null 2>&1 && fail "the temporary page is left after SIGINT"

# with a display: the page to xdg-open, which is given the page's path
cat > bin/xdg-open << 'EOF'
#!/bin/sh
cp "$1" "$XDG_TEST_COPY" && echo "$1" > "$XDG_TEST_COPY.path"
exit ${XDG_TEST_STATUS:-0}
EOF
chmod +x bin/xdg-open
# shellcheck disable=SC2086
PATH="$PWD/bin:$PATH" DISPLAY=:99 XDG_TEST_COPY="$PWD/opened.html" TMPDIR="$PWD/tmp" \
	"$PROF" view golden.data $gopts --comm golden,worker > out 2> err
rc=$?
expect_rc 0 "prof view with a display"
cmp -s opened.html want.html || fail "xdg-open was not given prof report -F html's page"
page=$(cat opened.html.path)
[ -f "$page" ] || fail "the page xdg-open was given is gone: $page"
grep -q "^prof: opened $page in the browser$" err || fail "prof view with a display said: $(cat err)"
rm -f "$page"
# shellcheck disable=SC2086
PATH="$PWD/bin:$PATH" DISPLAY=:99 XDG_TEST_COPY="$PWD/opened.html" \
	"$PROF" view golden.data $gopts -o mine.html > out 2> err
rc=$?
expect_rc 0 "prof view -o mine.html"
[ "$(cat opened.html.path)" = mine.html ] && cmp -s mine.html opened.html || fail "-o: the page is not mine.html"

# xdg-open fails: served instead
rm -f opened.html.path
PATH="$PWD/bin:$PATH" XDG_TEST_STATUS=3 XDG_TEST_COPY="$PWD/opened.html" TMPDIR="$PWD/tmp" \
	DISPLAY=:99 "$PROF" view golden.data $gopts --serve > url.out 2> view.err &
pid=$!
# --serve with a display serves without asking xdg-open
wait_url
[ -e opened.html.path ] && fail "--serve: xdg-open was run"
stop
rm -f opened.html.path
PATH="$PWD/bin:$PATH" XDG_TEST_STATUS=3 XDG_TEST_COPY="$PWD/opened.html" TMPDIR="$PWD/tmp" \
	DISPLAY=:99 "$PROF" view golden.data $gopts > url.out 2> view.err &
pid=$!
wait_url
grep -q '^prof: warning: xdg-open failed (exit status 3); serving the page instead$' view.err ||
	fail "xdg-open failing: $(cat view.err)"
grep -q '^http://127.0.0.1:' url.out || fail "xdg-open failing: no URL"
stop

# bad command lines: one line each
run_prof view golden.data -F text
expect_rc 64 "prof view -F text"
grep -q "^prof: -F: prof view writes the HTML page; prof report -F FORMAT writes the others$" err ||
	fail "-F: $(cat err)"
run_prof view golden.data --port 70000
expect_rc 64 "prof view --port 70000"
[ "$(wc -l < err)" = 1 ] && grep -q "^prof: --port: give a port from 1 to 65535" err || fail "--port: $(cat err)"
env -u DISPLAY TMPDIR="$PWD/tmp" "$PROF" view missing.data > out 2> err
rc=$?
expect_rc 1 "prof view missing.data"
grep -q "missing.data" err && [ "$(wc -l < err)" = 1 ] || fail "a missing file: $(cat err)"
ls tmp/prof-view-*.html > /dev/null 2>&1 && fail "a temporary page is left after a failed view"
finish
