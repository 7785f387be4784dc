// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prof's HTTP server's pure parts (src/httpd.c): the request parser on
 * good, cut and malformed heads (RFC 9112's rules that matter to a
 * server: a Host for HTTP/1.1, one Content-Length, no Transfer-Encoding,
 * no space before a colon, no folded lines), queries, the Host check
 * that stops DNS rebinding, the bearer token and listen addresses.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "httpd.h"
#include "tap.h"

static int parse(const char *text, struct httpd_req *r, char *buf, size_t cap)
{
	size_t n = strlen(text);

	if (n >= cap)
		return -999;
	memcpy(buf, text, n + 1);
	return httpd_parse(buf, n, r);
}

static void t_parse(void)
{
	static char buf[HTTPD_HEAD_MAX + 64];
	struct httpd_req r;
	const char *good = "GET /debug/pprof/profile?seconds=5 HTTP/1.1\r\nHost: 127.0.0.1:6061\r\n"
			   "authorization:  Bearer abc \r\nUser-Agent: Go-http-client/1.1\r\n\r\nNEXT";
	int n = parse(good, &r, buf, sizeof(buf));
	char copy[256];

	ok(n == (int)strlen(good) - 4, "a whole head: its length (%d)", n);
	ok(n > 0 && !strcmp(r.method, "GET") && !strcmp(r.path, "/debug/pprof/profile") &&
	   !strcmp(r.query, "seconds=5") && !strcmp(r.host, "127.0.0.1:6061") &&
	   !strcmp(r.authorization, "Bearer abc") && r.minor == 1 && r.keep_alive && !r.body,
	   "its method, path, query, Host, Authorization (trimmed), version, keep-alive");
	ok(n > 0 && !memcmp(buf + n, "NEXT", 4), "the bytes after it are left for the next request");

	/* cut anywhere: 0, and the buffer untouched */
	{
		int cut_ok = 1;

		for (size_t k = 0; k < strlen(good) - 4; k++) {
			memcpy(copy, good, k);
			if (httpd_parse(copy, k, &r) != 0 || memcmp(copy, good, k))
				cut_ok = 0;
		}
		ok(cut_ok, "every cut of the head is 'not yet', the buffer untouched");
	}
	ok(parse("GET / HTTP/1.0\n\n", &r, buf, sizeof(buf)) == 16 && !r.keep_alive && !r.host,
	   "bare LF lines; HTTP/1.0 without Host, closed after");
	ok(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &r, buf, sizeof(buf)) > 0 &&
	   r.keep_alive, "HTTP/1.0 with Connection: keep-alive is kept");
	ok(parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: upgrade, CLOSE\r\n\r\n", &r, buf,
		 sizeof(buf)) > 0 && !r.keep_alive, "Connection: close among others closes");
	ok(parse("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", &r, buf, sizeof(buf)) == 31 &&
	   !strcmp(r.method, "GET"), "empty lines before the request line are skipped");
	ok(parse("\r\n\r\n", &r, buf, sizeof(buf)) == 0, "empty lines alone: not yet a head");
	ok(parse("POST /debug/pprof/symbol HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n"
		 "Expect: 100-continue\r\n\r\n", &r, buf, sizeof(buf)) > 0 && r.body == 17 &&
	   r.expect_continue, "a body's length, and Expect: 100-continue");
	ok(parse("GET / HTTP/1.1\r\n\r\n", &r, buf, sizeof(buf)) == -400, "HTTP/1.1 without Host: 400");
	ok(parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "two Hosts: 400");
	ok(parse("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", &r, buf,
		 sizeof(buf)) == -501, "a Transfer-Encoding: 501");
	ok(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n", &r, buf,
		 sizeof(buf)) == -413, "a body over 1 MiB: 413");
	ok(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", &r,
		 buf, sizeof(buf)) == -413, "a Content-Length past 64 bits: 413, no overflow");
	ok(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "a Content-Length not a number: 400");
	ok(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", &r, buf,
		 sizeof(buf)) == -400, "two different Content-Lengths: 400");
	ok(parse("GET / HTTP/2.0\r\nHost: a\r\n\r\n", &r, buf, sizeof(buf)) == -505, "HTTP/2.0: 505");
	ok(parse("GET / FTP/1.1\r\nHost: a\r\n\r\n", &r, buf, sizeof(buf)) == -400, "not HTTP: 400");
	ok(parse("GET http://evil/ HTTP/1.1\r\nHost: a\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "absolute-form (a proxy's): 400");
	ok(parse("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "a method of other than token characters: 400");
	ok(parse("GET / HTTP/1.1\r\nHost : a\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "a space before the colon: 400");
	ok(parse("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n folded\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "a folded line: 400");
	ok(parse("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "a bare CR in a header: 400");
	ok(parse("GET / HTTP/1.1\r\nHost: a\x01\r\n\r\n", &r, buf, sizeof(buf)) == -400,
	   "a control byte in a value: 400");
	{
		static const char nul[] = "GET / HTTP/1.1\r\nHost: a\r\nX: a\0b\r\nContent-Length: 5\r\n\r\n";

		memcpy(buf, nul, sizeof(nul));
		ok(httpd_parse(buf, sizeof(nul) - 1, &r) == -400,
		   "a NUL in the head (that would hide the rest of it): 400");
	}
	{
		size_t k = 0;

		k += (size_t)snprintf(buf, sizeof(buf), "GET / HTTP/1.1\r\nHost: a\r\n");
		while (k < HTTPD_HEAD_MAX)
			buf[k++] = 'x';
		ok(httpd_parse(buf, k, &r) == -431, "16 KiB without the head's end: 431");
	}
	{
		char *many = malloc(8192);
		size_t k = (size_t)snprintf(many, 8192, "GET / HTTP/1.1\r\nHost: a\r\n");

		for (int i = 0; i < 120; i++)
			k += (size_t)snprintf(many + k, 8192 - k, "X%d: y\r\n", i);
		k += (size_t)snprintf(many + k, 8192 - k, "\r\n");
		ok(httpd_parse(many, k, &r) == -431, "over 100 headers: 431");
		free(many);
	}
}

static void t_query(void)
{
	char v[16];

	ok(httpd_query("seconds=5&debug=1", "seconds", v, sizeof(v)) && !strcmp(v, "5"), "seconds=5");
	ok(httpd_query("debug=1&seconds=30", "seconds", v, sizeof(v)) && !strcmp(v, "30"),
	   "the key after another");
	ok(!httpd_query("xseconds=5", "seconds", v, sizeof(v)), "a key that only ends in it is not it");
	ok(httpd_query("a=%41%zz+b%4", "a", v, sizeof(v)) && !strcmp(v, "A%zz b%4"),
	   "%%-escapes decoded, malformed ones kept, + a space");
	ok(httpd_query("seconds", "seconds", v, sizeof(v)) && !v[0], "a key without a value");
	ok(!httpd_query("seconds=12345678901234567890", "seconds", v, sizeof(v)),
	   "a value too long for the buffer is not there");
	ok(!httpd_query("", "seconds", v, sizeof(v)), "no query");
}

static void t_host(void)
{
	struct utsname u;
	const char *names[] = { "prof-agent.monitoring.svc" };

	ok(httpd_host_ok("127.0.0.1:6061", NULL, 0), "127.0.0.1:6061");
	ok(httpd_host_ok("10.1.2.3", NULL, 0), "an IPv4 address without a port");
	ok(httpd_host_ok("[::1]:6061", NULL, 0) && httpd_host_ok("[fe80::1]", NULL, 0), "IPv6 addresses");
	ok(httpd_host_ok("localhost:3000", NULL, 0) && httpd_host_ok("LocalHost.", NULL, 0),
	   "localhost, in any case, with its root dot");
	ok(!uname(&u) && httpd_host_ok(u.nodename, NULL, 0), "the host's own name (%s)", u.nodename);
	ok(!httpd_host_ok("rebind.attacker.example:6061", NULL, 0), "a rebinding domain: refused");
	ok(!httpd_host_ok("127.0.0.1.nip.io", NULL, 0), "a domain that spells an address: refused");
	ok(!httpd_host_ok("localhost.attacker.example", NULL, 0), "localhost as a subdomain: refused");
	ok(httpd_host_ok("prof-agent.monitoring.svc:6061", names, 1) &&
	   !httpd_host_ok("prof-agent.monitoring.svc.evil:6061", names, 1), "a name given to allow");
	ok(!httpd_host_ok("", NULL, 0) && !httpd_host_ok(":80", NULL, 0) &&
	   !httpd_host_ok("[::1", NULL, 0) && !httpd_host_ok("[::1]x", NULL, 0) &&
	   !httpd_host_ok("127.0.0.1:80x", NULL, 0) && !httpd_host_ok("[nope]:1", NULL, 0),
	   "malformed Hosts: refused");
	ok(httpd_host_ok(NULL, NULL, 0), "no Host (HTTP/1.0): no browser sends that");
}

static void t_bearer(void)
{
	ok(httpd_bearer_ok("Bearer s3cret", "s3cret"), "Bearer TOKEN");
	ok(httpd_bearer_ok("bearer s3cret", "s3cret") && httpd_bearer_ok("BEARER \ts3cret", "s3cret"),
	   "the scheme in any case (RFC 9110 11.1), more than one space");
	ok(!httpd_bearer_ok("Bearer s3cre", "s3cret") && !httpd_bearer_ok("Bearer s3crets", "s3cret") &&
	   !httpd_bearer_ok("Bearer S3CRET", "s3cret"), "a token shorter, longer, or in another case");
	ok(!httpd_bearer_ok("Basic s3cret", "s3cret") && !httpd_bearer_ok("Bearers3cret", "s3cret") &&
	   !httpd_bearer_ok("Bearer", "s3cret") && !httpd_bearer_ok(NULL, "s3cret"),
	   "another scheme, none, or no token");
	ok(!httpd_bearer_ok("Bearer ", ""), "an empty token never matches");
}

static void t_split(void)
{
	char h[64];
	unsigned port = 7;

	ok(!httpd_split("127.0.0.1:6061", h, sizeof(h), &port) && !strcmp(h, "127.0.0.1") && port == 6061,
	   "HOST:PORT");
	ok(!httpd_split("[::1]:0", h, sizeof(h), &port) && !strcmp(h, "::1") && port == 0, "[V6]:0");
	ok(!httpd_split(":65535", h, sizeof(h), &port) && !h[0] && port == 65535, ":PORT, every address");
	ok(httpd_split("127.0.0.1:4294967297", h, sizeof(h), &port) &&
	   httpd_split("127.0.0.1:65536", h, sizeof(h), &port) &&
	   httpd_split("127.0.0.1:", h, sizeof(h), &port) &&
	   httpd_split("127.0.0.1:-1", h, sizeof(h), &port) &&
	   httpd_split("127.0.0.1", h, sizeof(h), &port) &&
	   httpd_split("::1:80", h, sizeof(h), &port) &&
	   httpd_split("[]:80", h, sizeof(h), &port), "ports past 65535 (2^32 + 1 too), none, "
	   "signs, and IPv6 without brackets: refused");
}

int main(void)
{
	t_parse();
	t_query();
	t_host();
	t_bearer();
	t_split();
	return tap_done();
}
