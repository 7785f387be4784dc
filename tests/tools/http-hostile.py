#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile clients against prof's HTTP server (src/httpd.c), for
tests/run-serve.sh (prof view) and tests/run-agent.sh (the agent).

  http-hostile.py URL slow N        N connections that send half a head and
                                    stop, one that sends a byte every 4 s,
                                    and one that asks for the page 20 times
                                    and reads nothing; then URL must be
                                    answered 200 (its body to good.out) and
                                    the trickler cut before its head is whole
  http-hostile.py URL host          foreign Host names: 421; addresses and
                                    localhost: not 421
  http-hostile.py URL abandon N     N requests (long scrapes) opened and
                                    closed unanswered; then URL must be 200
  http-hostile.py URL flood N       N connections at once (past the cap),
                                    then URL must be 200

Each prints one line of what it saw; exit 0 when the server held, 1 when
not. Every wait is for a condition; the test's own guard bounds them.
"""
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

url = sys.argv[1]
what = sys.argv[2]
u = urllib.parse.urlsplit(url)
target = u.path + ("?" + u.query if u.query else "")


def conn():
    return socket.create_connection((u.hostname, u.port))


def get(extra_headers=None, timeout=600):
    req = urllib.request.Request(url, headers=extra_headers or {})
    t0 = time.monotonic()
    with urllib.request.urlopen(req, timeout=timeout) as r:
        body = r.read()
        return r.status, body, time.monotonic() - t0


def status_with_host(host):
    s = conn()
    s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % (target, host)).encode())
    data = b""
    while b"\r\n" not in data:
        b = s.recv(4096)
        if not b:
            break
        data += b
    s.close()
    return int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.") else 0


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


if what == "slow":
    n = int(sys.argv[3])
    held = []
    for _ in range(n):
        s = conn()
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append(s)
    # one that does not read: 20 requests pipelined, a small receive buffer
    nr = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    nr.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    nr.connect((u.hostname, u.port))
    nr.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % target).encode() * 20)
    held.append(nr)
    # a trickler: a byte every 4 s, which an idle timeout alone never cuts
    head = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: %s\r\n\r\n" % (target, "x" * 40)).encode()
    tr = conn()
    cut = {}

    def trickle():
        t0 = time.monotonic()
        for i, b in enumerate(head):
            try:
                tr.send(bytes([b]))
            except OSError:
                cut["at"] = (i, time.monotonic() - t0)
                return
            # the server's close shows as a readable socket with nothing (or its 408)
            tr.settimeout(4)
            try:
                got = tr.recv(4096)
                cut["at"] = (i, time.monotonic() - t0, got[:12])
                return
            except socket.timeout:
                pass
            except OSError:
                cut["at"] = (i, time.monotonic() - t0)
                return
        cut["whole"] = True

    th = threading.Thread(target=trickle)
    th.start()
    st, body, took = get()
    if st != 200:
        fail("the good request got %d beside %d slow connections" % (st, n))
    open("good.out", "wb").write(body)
    th.join()
    if "whole" in cut:
        fail("a client sending a byte every 4 s was never cut: its %d-byte head was taken" % len(head))
    print("held: a good request answered in %.2f s beside %d half-sent heads, a client that "
          "reads nothing and one trickling a byte every 4 s, which was cut after %d bytes and "
          "%.1f s" % (took, n, cut["at"][0], cut["at"][1]))
elif what == "host":
    bad = ["rebind.attacker.example", "rebind.attacker.example:%d" % u.port, "127.0.0.1.nip.io",
           "localhost.attacker.example"]
    good = ["127.0.0.1:%d" % u.port, "localhost:%d" % u.port, "localhost", "[::1]:%d" % u.port]
    for h in bad:
        st = status_with_host(h)
        if st != 421:
            fail("Host %s got %d, not 421" % (h, st))
    for h in good:
        st = status_with_host(h)
        if st in (0, 421):
            fail("Host %s got %d" % (h, st))
    print("held: %d foreign Host names got 421, %d of the server's own did not" % (len(bad), len(good)))
elif what == "abandon":
    n = int(sys.argv[3])
    long = urllib.parse.urlunsplit((u.scheme, u.netloc, u.path, "seconds=3600", ""))
    lu = urllib.parse.urlsplit(long)
    for _ in range(n):
        s = conn()
        s.sendall(("GET %s?%s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % (lu.path, lu.query)).encode())
        s.close()	# answered only in an hour: gone at once
    # the server sees each close; a new request may have to wait for that
    for attempt in range(600):
        try:
            st, body, took = get()
            break
        except urllib.error.HTTPError as e:
            if e.code != 429:
                fail("after %d abandoned scrapes: %d" % (n, e.code))
            time.sleep(0.1)
    else:
        fail("after %d abandoned scrapes every new one is 429" % n)
    print("held: %d abandoned hour-long requests, then one answered %d in %.2f s" % (n, st, took))
elif what == "flood":
    n = int(sys.argv[3])
    held = []
    for _ in range(n):
        try:
            held.append(conn())
        except OSError:
            break
    st, body, took = get()
    if st != 200:
        fail("with %d connections open, the good request got %d" % (len(held), st))
    print("held: %d idle connections open, a good request answered in %.2f s" % (len(held), took))
else:
    fail("unknown check " + what)
