// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the request parsing of prof's HTTP server
 * (src/httpd.c), which the agent's pull endpoint and prof view's page
 * answer through: the head as it arrives in pieces (every prefix must be
 * "not yet" and leave the buffer untouched, or the same answer as the
 * whole), then the query, Host and bearer checks on what it parsed.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "httpd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[HTTPD_HEAD_MAX + 1], copy[HTTPD_HEAD_MAX + 1];
	const char *names[] = { "prof.example" };
	struct httpd_req r;
	size_t n = size < HTTPD_HEAD_MAX ? size : HTTPD_HEAD_MAX;
	int whole;
	char v[64];

	memcpy(buf, data, n);
	whole = httpd_parse(buf, n, &r);
	if (whole > 0) {
		if ((size_t)whole > n || !r.method || !r.path || !r.query || r.path[0] != '/')
			abort();
		sink += (size_t)httpd_query(r.query, "seconds", v, sizeof(v));
		sink += (size_t)httpd_host_ok(r.host, names, 1);
		sink += (size_t)httpd_bearer_ok(r.authorization, "token");
		sink += strlen(r.method) + strlen(r.path) + (r.host ? strlen(r.host) : 0);
	}
	/* as it arrives: a prefix is "not yet" (untouched), or an answer that holds */
	for (size_t k = 1; k < n; k += 1 + k / 8) {
		int got;

		memcpy(copy, data, k);
		got = httpd_parse(copy, k, &r);
		if (got == 0 && memcmp(copy, data, k))
			abort();	/* "not yet" wrote into the buffer */
		if (got > 0 && whole > 0 && got != whole)
			abort();	/* a head ends in one place */
	}
	{
		char host[64];
		unsigned port;
		size_t m = n < sizeof(v) - 1 ? n : sizeof(v) - 1;

		memcpy(v, data, m);
		v[m] = '\0';
		sink += (size_t)httpd_split(v, host, sizeof(host), &port);
		sink += (size_t)httpd_host_ok(v, names, 1);
		sink += (size_t)httpd_bearer_ok(v, "token");
	}
	return 0;
}
