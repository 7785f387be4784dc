// SPDX-License-Identifier: GPL-2.0-or-later
/* prof agent's pull endpoint, on prof's server (serve.h, src/httpd.h). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "httpd.h"
#include "parse.h"
#include "serve.h"
#include "xalloc.h"

#define MAX_SECONDS 3600
#define MAX_SCRAPES 4

struct serve {
	struct httpd *h;
	struct collect *c;
	char *token;
};

int serve_is_loopback(const char *addr)
{
	char host[256];
	unsigned port;
	struct in_addr a4;
	struct in6_addr a6;

	if (!strncmp(addr, "unix:", 5))
		return addr[5] ? 1 : -1;
	if (httpd_split(addr, host, sizeof(host), &port))
		return -1;
	if (!strcmp(host, "localhost"))
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6);
	return 0;	/* a name, or every address */
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>/debug/pprof/</title></head>\n"
	"<body><p>prof agent: profiles of this host, as Go's net/http/pprof serves them.</p>\n"
	"<table><thead><tr><th>Profile</th><th>Description</th></tr></thead>\n"
	"<tr><td><a href=\"profile?seconds=30\">profile</a></td><td>CPU profile of every "
	"process sampled, for the number of seconds the seconds parameter says (default 30). "
	"Get it, then: go tool pprof FILE</td></tr>\n"
	"</table></body></html>\n";

static int text(struct httpd_reply *rep, unsigned status, const char *msg)
{
	*rep = (struct httpd_reply){ .status = status, .data = msg, .len = strlen(msg) };
	return 0;
}

/* Whether the client may have this host's profile: 0, or the refusal in rep. */
static int refused(const struct serve *s, const struct httpd_req *r, const struct httpd_peer *peer,
		   struct httpd_reply *rep)
{
	static char other[160];

	if (s->token) {
		if (httpd_bearer_ok(r->authorization, s->token))
			return 0;
		text(rep, 401, "this agent needs its bearer token: Authorization: Bearer TOKEN\n");
		return 1;
	}
	if (peer->uid_known && (peer->uid == geteuid() || peer->uid == 0))
		return 0;
	snprintf(other, sizeof(other), "this agent serves its own user (uid %u) only; to serve "
		 "others, start it with --token-file FILE and send that token\n", (unsigned)geteuid());
	text(rep, 403, other);
	return 1;
}

static int on_request(void *ctx, const struct httpd_req *r, const struct httpd_peer *peer,
		      struct httpd_reply *rep, void **job)
{
	struct serve *s = ctx;
	const char *method = r->method, *url = r->path;
	char sec[32];
	double seconds = 30;

	/*
	 * go tool pprof posts the addresses of the main program it finds no
	 * name for to /debug/pprof/symbol, and gives up when that fails: the
	 * agent named every address it could, so it answers, naming none.
	 */
	if (!strcmp(url, "/debug/pprof/symbol") && !strcmp(method, "POST"))
		method = "GET";
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return text(rep, 405, "only GET\n");
	if (refused(s, r, peer, rep))
		return 0;
	if (!strcmp(url, "/debug/pprof") || !strcmp(url, "/"))
		url = "/debug/pprof/";
	if (!strcmp(url, "/debug/pprof/")) {
		*rep = (struct httpd_reply){ .status = 200, .type = "text/html; charset=utf-8",
					     .data = index_page, .len = sizeof(index_page) - 1,
					     .no_body = !strcmp(method, "HEAD") };
		return 0;
	}
	if (!strcmp(url, "/debug/pprof/symbol"))
		return text(rep, 200, "num_symbols: 1\n");
	if (strcmp(url, "/debug/pprof/profile"))
		return text(rep, 404, "prof agent serves /debug/pprof/profile (CPU) only\n");
	if (httpd_query(r->query, "seconds", sec, sizeof(sec)) && sec[0]) {
		uint64_t v;

		/*
		 * As Go's pprof.Profile: what is not a whole number above 0
		 * (0, 1.5, abc) means 30; too long a one is 400 (Go's: longer
		 * than the server's write timeout).
		 */
		if (!parse_u64(sec, 1, UINT64_MAX, &v)) {
			if (v > MAX_SECONDS)
				return text(rep, 400, "profile duration exceeds the agent's limit "
					    "(3600 seconds)\n");
			seconds = (double)v;
		}
	}
	/* a HEAD is answered as the GET would be, without the seconds it would take */
	if (!strcmp(method, "HEAD")) {
		*rep = (struct httpd_reply){ .status = 200, .type = "application/octet-stream",
					     .filename = "profile", .no_body = 1 };
		return 0;
	}
	*job = collect_scrape_start(s->c, seconds, MAX_SCRAPES);
	if (!*job)
		return text(rep, 429, "too many profiles in progress; try again later\n");
	return 1;
}

static int on_poll(void *ctx, void *job, struct httpd_reply *rep)
{
	struct serve *s = ctx;
	unsigned char *data = NULL;
	size_t len = 0;
	int ret = collect_scrape_poll(s->c, job, &data, &len);

	if (!ret)
		return 0;
	if (ret < 0) {
		text(rep, 500, "could not make the profile\n");
		return 1;
	}
	/* saved under the name Go's handler gives it */
	*rep = (struct httpd_reply){ .status = 200, .type = "application/octet-stream",
				     .filename = "profile", .data = data, .len = len, .owned = data };
	return 1;
}

static void on_cancel(void *ctx, void *job)
{
	struct serve *s = ctx;

	collect_scrape_cancel(s->c, job);
}

struct serve *serve_start(const char *addr, const char *token, const char *const *names,
			  size_t nnames, struct collect *c, char *err, size_t errlen)
{
	struct serve *s = xcalloc(1, sizeof(*s));
	struct httpd_opts o = { .listen = addr, .names = names, .nnames = nnames, .peer_uid = !token };
	struct httpd_handler h = { .ctx = s, .request = on_request, .poll = on_poll,
				   .cancel = on_cancel };

	s->c = c;
	s->token = token ? xstrdup(token) : NULL;
	s->h = httpd_start(&o, &h, err, errlen);
	if (!s->h) {
		free(s->token);
		free(s);
		return NULL;
	}
	return s;
}

const char *serve_address(const struct serve *s)
{
	return httpd_address(s->h);
}

void serve_stop(struct serve *s)
{
	if (!s)
		return;
	httpd_stop(s->h);
	free(s->token);
	free(s);
}
