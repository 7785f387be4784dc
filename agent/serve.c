// SPDX-License-Identifier: GPL-2.0-or-later
/* prof agent's pull endpoint, on libmicrohttpd (serve.h). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "dynlib.h"
#include "parse.h"
#include "serve.h"
#include "xalloc.h"

#define MAX_SECONDS 3600
/* a request's body, dropped unread: go tool pprof's list of addresses fits */
#define MAX_BODY ((size_t)1 << 20)
#define MAX_SCRAPES 4

/* libmicrohttpd's functions, opened when first needed (dynlib.h) */
static struct {
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_stop_daemon) *stop_daemon;
} mhd;
static const char *const mhd_names[] = {
	"MHD_create_response_from_buffer",
	"MHD_add_response_header",
	"MHD_queue_response",
	"MHD_destroy_response",
	"MHD_lookup_connection_value",
	"MHD_start_daemon",
	"MHD_get_daemon_info",
	"MHD_stop_daemon",
};
_Static_assert(sizeof(mhd) == sizeof(mhd_names) / sizeof(mhd_names[0]) * sizeof(void *),
	       "a name for each of libmicrohttpd's functions");

struct serve {
	struct MHD_Daemon *d;
	struct collect *c;
	char *token;
	char bound[128];
};

/* Split "HOST:PORT" / "[V6]:PORT" / ":PORT" into host (NULL: any) and port. 0 or -1. */
static int split(const char *addr, char *host, size_t hlen, char *port, size_t plen)
{
	const char *colon;

	if (addr[0] == '[') {
		const char *end = strchr(addr, ']');

		if (!end || end[1] != ':' || (size_t)(end - addr - 1) >= hlen)
			return -1;
		memcpy(host, addr + 1, (size_t)(end - addr - 1));
		host[end - addr - 1] = '\0';
		colon = end + 1;
	} else {
		colon = strrchr(addr, ':');
		if (!colon || (size_t)(colon - addr) >= hlen)
			return -1;
		memcpy(host, addr, (size_t)(colon - addr));
		host[colon - addr] = '\0';
	}
	if (!colon[1] || strlen(colon + 1) >= plen || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -1;
	snprintf(port, plen, "%s", colon + 1);
	return atoi(port) <= 65535 ? 0 : -1;
}

int serve_is_loopback(const char *addr)
{
	char host[256], port[16];
	struct in_addr a4;
	struct in6_addr a6;

	if (split(addr, host, sizeof(host), port, sizeof(port)))
		return -1;
	if (!strcmp(host, "localhost"))
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6);
	return 0;	/* a name, or every address */
}

/*
 * A response of data (freed here with MHD_RESPMEM_MUST_FREE, whatever
 * happens); with a file name, one to save (Content-Disposition).
 */
static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *type,
			     const char *file, void *data, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = mhd.create_response_from_buffer(len, data, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(data);
		return MHD_NO;
	}
	mhd.add_response_header(r, "Content-Type", type);
	if (file) {
		char disp[64];

		snprintf(disp, sizeof(disp), "attachment; filename=\"%s\"", file);
		mhd.add_response_header(r, "Content-Disposition", disp);
	}
	mhd.add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (status == 401)
		mhd.add_response_header(r, "WWW-Authenticate", "Bearer");
	ret = mhd.queue_response(conn, status, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result text(struct MHD_Connection *conn, unsigned status, const char *msg)
{
	return reply(conn, status, "text/plain; charset=utf-8", NULL, (void *)msg, strlen(msg),
		     MHD_RESPMEM_PERSISTENT);
}

/* Compare without leaking where they differ through the time taken. */
static int same_secret(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	unsigned char d = na != nb;

	for (size_t i = 0; i < na; i++)
		d |= (unsigned char)(a[i] ^ b[i % (nb ? nb : 1)]);
	return !d && nb;
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>/debug/pprof/</title></head>\n"
	"<body><p>prof agent: profiles of this host, as Go's net/http/pprof serves them.</p>\n"
	"<table><thead><tr><th>Profile</th><th>Description</th></tr></thead>\n"
	"<tr><td><a href=\"profile?seconds=30\">profile</a></td><td>CPU profile of every "
	"process sampled, for the number of seconds the seconds parameter says (default 30). "
	"Get it, then: go tool pprof FILE</td></tr>\n"
	"</table></body></html>\n";

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	struct serve *s = cls;
	const char *auth, *sec;
	size_t *body;
	double seconds = 30;
	unsigned char *data;
	size_t len;
	int ret;

	(void)version;
	(void)upload;
	if (!*state) {
		/* the headers are in: count the body, which is dropped (done()) */
		*state = xcalloc(1, sizeof(size_t));
		return MHD_YES;
	}
	body = *state;
	if (*upload_size) {
		*body += *upload_size;
		*upload_size = 0;	/* dropped: nothing here reads a body */
		return *body > MAX_BODY ? MHD_NO : MHD_YES;	/* too much: the connection is cut */
	}
	/*
	 * go tool pprof posts the addresses of the main program it finds no
	 * name for to /debug/pprof/symbol, and gives up when that fails: the
	 * agent named every address it could, so it answers, naming none.
	 */
	if (!strcmp(url, "/debug/pprof/symbol") && !strcmp(method, "POST"))
		method = "GET";
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return text(conn, 405, "only GET\n");
	if (s->token) {
		auth = mhd.lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
		if (!auth || strncmp(auth, "Bearer ", 7) || !same_secret(auth + 7, s->token))
			return text(conn, 401, "this agent needs a bearer token\n");
	}
	if (!strcmp(url, "/debug/pprof") || !strcmp(url, "/"))
		url = "/debug/pprof/";
	if (!strcmp(url, "/debug/pprof/"))
		return reply(conn, 200, "text/html; charset=utf-8", NULL, (void *)index_page,
			     sizeof(index_page) - 1, MHD_RESPMEM_PERSISTENT);
	if (!strcmp(url, "/debug/pprof/symbol"))
		return text(conn, 200, "num_symbols: 1\n");
	if (strcmp(url, "/debug/pprof/profile"))
		return text(conn, 404, "prof agent serves /debug/pprof/profile (CPU) only\n");
	sec = mhd.lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "seconds");
	if (sec && sec[0]) {
		uint64_t v;

		/*
		 * As Go's pprof.Profile: what is not a whole number above 0
		 * (0, 1.5, abc) means 30; too long a one is 400 (Go's: longer
		 * than the server's write timeout).
		 */
		if (!parse_u64(sec, 1, UINT64_MAX, &v)) {
			if (v > MAX_SECONDS)
				return text(conn, 400, "profile duration exceeds the agent's limit "
					    "(3600 seconds)\n");
			seconds = (double)v;
		}
	}
	/* a HEAD is answered as the GET would be, without the seconds it would take */
	if (!strcmp(method, "HEAD"))
		return reply(conn, 200, "application/octet-stream", "profile", (void *)"", 0,
			     MHD_RESPMEM_PERSISTENT);
	ret = collect_scrape(s->c, seconds, MAX_SCRAPES, &data, &len);
	if (ret == -EBUSY)
		return text(conn, 429, "too many profiles in progress; try again later\n");
	if (ret)
		return text(conn, 500, "could not make the profile\n");
	/* saved under the name Go's handler gives it */
	return reply(conn, 200, "application/octet-stream", "profile", data, len,
		     MHD_RESPMEM_MUST_FREE);
}

static void done(void *cls, struct MHD_Connection *conn, void **state,
		 enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)conn;
	(void)why;
	free(*state);
	*state = NULL;
}

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;	/* connection errors are the clients' business */
}

struct serve *serve_start(const char *addr, const char *token, struct collect *c,
			  char *err, size_t errlen)
{
	struct serve *s;
	char host[256], port[16], shown[INET6_ADDRSTRLEN];
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV, .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai;
	const union MHD_DaemonInfo *info;
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
			 MHD_USE_ERROR_LOG;
	int gai;

	if (dynlib_open("libmicrohttpd.so.12", "libmicrohttpd12", mhd_names, &mhd,
			sizeof(mhd_names) / sizeof(mhd_names[0]), err, errlen))
		return NULL;
	if (split(addr, host, sizeof(host), port, sizeof(port))) {
		snprintf(err, errlen, "--listen: '%s' is not HOST:PORT (127.0.0.1:6061, [::1]:6061, "
			 ":6061)", addr);
		return NULL;
	}
	gai = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai);
	if (gai) {
		snprintf(err, errlen, "--listen: cannot resolve '%s': %s", host, gai_strerror(gai));
		return NULL;
	}
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	s = xcalloc(1, sizeof(*s));
	s->c = c;
	s->token = token ? xstrdup(token) : NULL;
	errno = 0;
	s->d = mhd.start_daemon(flags, (uint16_t)atoi(port), NULL, NULL, handle, s,
				MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				/*
				 * go tool pprof posts to /debug/pprof/symbol once per
				 * stripped program, all at once, beside its idle
				 * keep-alive connection: a bound of 4 per address cut
				 * it off (and every loopback client is one address).
				 */
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)32,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
				MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
				MHD_OPTION_NOTIFY_COMPLETED, done, NULL,
				MHD_OPTION_END);
	if (!s->d) {
		int e = errno;

		snprintf(err, errlen, "--listen: cannot listen on '%s': %s", addr,
			 e ? strerror(e) : "the address is in use or not this host's");
		freeaddrinfo(ai);
		free(s->token);
		free(s);
		return NULL;
	}
	info = mhd.get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	if (ai->ai_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, shown, sizeof(shown));
		snprintf(s->bound, sizeof(s->bound), "[%s]:%u", shown, info ? info->port : 0);
	} else {
		inet_ntop(AF_INET, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, shown, sizeof(shown));
		snprintf(s->bound, sizeof(s->bound), "%s:%u", shown, info ? info->port : 0);
	}
	freeaddrinfo(ai);
	return s;
}

const char *serve_address(const struct serve *s)
{
	return s->bound;
}

void serve_stop(struct serve *s)
{
	if (!s)
		return;
	mhd.stop_daemon(s->d);
	free(s->token);
	free(s);
}
