/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prof's HTTP/1.1 server, for the agent's pull endpoint and `prof view`'s
 * page: one thread, one poll() loop, and every connection bounded in time
 * and count, whatever its client does.
 *
 *   - A request's head must arrive whole within 10 s of the connection
 *     (or of its first byte, on a kept-alive one, idle up to 30 s), its
 *     body within 10 s more; a reader that takes nothing for 10 s, or
 *     longer than 30 s and 1 s per 64 KiB for its answer, is cut.
 *   - At most max_conns connections (128): a new one past that closes the
 *     one that has waited longest for its head, or is refused.
 *   - A request whose Host is not a name the server answers to (an IP
 *     address, localhost, this host's name, or one of names) gets 421:
 *     a web page the user visits cannot reach it by rebinding DNS.
 *   - A request that takes time (a profile of N seconds) is a job the
 *     handler polls; its client closing the connection cancels it.
 *   - httpd_stop() ends it at once: jobs cancelled, connections closed.
 *
 * Why not libmicrohttpd, which prof used: its idle timeout is its only
 * bound (a byte every 10 s keeps a connection forever), it cannot watch a
 * suspended connection for its client going away, and its thread-per-
 * connection mode needs a thread for each slow client (doc/DESIGN.md).
 */
#ifndef PROF_HTTPD_H
#define PROF_HTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HTTPD_HEAD_MAX 16384		/* a request's line and headers */
#define HTTPD_BODY_MAX ((uint64_t)1 << 20)	/* a body, read and dropped */

/* A request's head, parsed in place: each string points into the buffer parsed. */
struct httpd_req {
	const char *method;		/* as sent: GET, HEAD, POST... */
	const char *path;		/* the target up to '?' */
	const char *query;		/* after '?', "" when none */
	const char *host;		/* Host, NULL when none */
	const char *authorization;	/* Authorization, NULL when none */
	int minor;			/* HTTP/1.minor */
	int keep_alive;			/* the client may send another request on the connection */
	int expect_continue;		/* Expect: 100-continue */
	uint64_t body;			/* Content-Length (0: none) */
};

/*
 * Parse the request head at buf[0 .. len). > 0: its length, and r filled
 * (NULs written into buf); 0: not whole yet (buf untouched); < 0: minus
 * the status to answer: 400 malformed, 413 a body too long, 431 a head too
 * long, 501 a Transfer-Encoding, 505 not HTTP/1.
 */
int httpd_parse(char *buf, size_t len, struct httpd_req *r);

/* The %-decoded value of key in query, into out: 1, or 0 when not there (or too long). */
int httpd_query(const char *query, const char *key, char *out, size_t outlen);

/*
 * Whether a Host header names this server as its user reaches it: an IP
 * address, localhost, this host's name (uname), or one of names; any
 * port. A domain that an attacker's DNS points here is none of them.
 */
int httpd_host_ok(const char *host, const char *const *names, size_t nnames);

/* Whether an Authorization value is "Bearer TOKEN" (the scheme in any case) with this token. */
int httpd_bearer_ok(const char *authorization, const char *token);

/*
 * Split "HOST:PORT", "[V6]:PORT" or ":PORT" (host "": every address);
 * the port a number from 0 to 65535. 0, or -1.
 */
int httpd_split(const char *addr, char *host, size_t hlen, unsigned *port);

/* An answer. */
struct httpd_reply {
	unsigned status;
	const char *type;		/* Content-Type */
	const char *filename;		/* Content-Disposition: attachment; NULL for none */
	const void *data;
	size_t len;
	void *owned;			/* freed once sent (or dropped); NULL when data stays */
	int no_body;			/* a HEAD: the head alone, Content-Length len */
};

/* Who is at the other end of a connection. */
struct httpd_peer {
	int uid_known;			/* 1: uid is the user of the client's socket */
	uid_t uid;
	int local;			/* a Unix socket */
};

struct httpd_handler {
	void *ctx;
	/* Answer r: 0 with *rep, or 1 with *job, which poll() then finishes. */
	int (*request)(void *ctx, const struct httpd_req *r, const struct httpd_peer *peer,
		       struct httpd_reply *rep, void **job);
	/* 1 with *rep when job is done (and gone), 0 while it goes on. */
	int (*poll)(void *ctx, void *job, struct httpd_reply *rep);
	/* Its client went away, or the server stops: job is dropped. */
	void (*cancel)(void *ctx, void *job);
};

struct httpd_opts {
	const char *listen;		/* HOST:PORT, [V6]:PORT, :PORT, or unix:PATH */
	const char *const *names;	/* more names Host may say (besides httpd_host_ok's) */
	size_t nnames;
	int peer_uid;			/* find the user of each TCP client's socket (sock_diag) */
	unsigned max_conns;		/* 0: 128 */
	unsigned port_tries;		/* a port in use: try this many after it (0: none) */
};

/* Listen and start the server's thread: NULL after a one-line reason in err. */
struct httpd *httpd_start(const struct httpd_opts *o, const struct httpd_handler *h, char *err,
			  size_t errlen);
/* Where it listens, as bound: "127.0.0.1:6061", "[::1]:6061", "unix:/path". */
const char *httpd_address(const struct httpd *s);
/* The port bound, 0 for a Unix socket. */
unsigned httpd_port(const struct httpd *s);
/* Stop: jobs cancelled, connections closed, the thread joined, a Unix socket removed. */
void httpd_stop(struct httpd *s);

#endif
