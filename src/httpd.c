// SPDX-License-Identifier: GPL-2.0-or-later
/* prof's HTTP/1.1 server: one poll() loop, every connection bounded (httpd.h). */
#define _GNU_SOURCE
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "clock.h"
#include "httpd.h"
#include "xalloc.h"

#define SEC 1000000000ull
#define HEAD_TIME (10 * SEC)		/* a head, from the connection or its first byte */
#define IDLE_TIME (30 * SEC)		/* a kept-alive connection, between requests */
#define BODY_TIME (10 * SEC)		/* a body, after its head */
#define STALL_TIME (10 * SEC)		/* an answer's reader taking nothing */
#define SEND_TIME (30 * SEC)		/* an answer, besides 1 s per SEND_RATE bytes */
#define SEND_RATE 65536
#define JOB_POLL_MS 50			/* how often a job is asked whether it is done */
#define DEFAULT_CONNS 128

/* --- parsing -------------------------------------------------------------------- */

/* tchar of RFC 9110: what a method or a header's name is made of */
static int tchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Whether a comma-separated header value holds word (any case). */
static int has_token(const char *v, const char *word)
{
	size_t n = strlen(word);

	while (*v) {
		size_t k, e;

		v += strspn(v, " \t,");
		k = strcspn(v, ",");
		for (e = k; e && (v[e - 1] == ' ' || v[e - 1] == '\t'); e--)
			;
		if (e == n && !strncasecmp(v, word, n))
			return 1;
		v += k;
	}
	return 0;
}

/* Where the head at buf[0 .. len) ends (after its empty line): its length, or 0. */
static size_t head_end(const char *buf, size_t len)
{
	size_t i = 0;

	/* empty lines before the request line are not its end (RFC 9112 2.2) */
	while (i < len && (buf[i] == '\r' || buf[i] == '\n'))
		i++;
	for (; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (i + 1 < len && buf[i + 1] == '\n')
			return i + 2;
		if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

int httpd_parse(char *buf, size_t len, struct httpd_req *r)
{
	size_t end = head_end(buf, len < HTTPD_HEAD_MAX ? len : HTTPD_HEAD_MAX);
	char *line, *next, *sp, *target, *version;
	const char *conn = NULL, *te = NULL, *cl = NULL;
	int nheaders = 0;

	memset(r, 0, sizeof(*r));
	r->query = "";
	if (!end)
		return len >= HTTPD_HEAD_MAX ? -431 : 0;
	if (memchr(buf, '\0', end))
		return -400;	/* a NUL would end the head early: the rest read as a request */
	/* RFC 9112 2.2: empty lines before the request line are skipped */
	line = buf;
	while (line < buf + end && (*line == '\r' || *line == '\n'))
		line++;
	if (line >= buf + end)
		return -400;
	buf[end - 1] = '\0';
	next = strchr(line, '\n');
	if (!next)
		return -400;
	*next++ = '\0';
	if (next - line >= 2 && next[-2] == '\r')
		next[-2] = '\0';
	if (strchr(line, '\r'))
		return -400;

	/* METHOD SP target SP HTTP/1.x */
	sp = strchr(line, ' ');
	if (!sp || sp == line)
		return -400;
	*sp = '\0';
	for (const char *m = line; *m; m++)
		if (!tchar((unsigned char)*m))
			return -400;
	r->method = line;
	target = sp + 1;
	sp = strchr(target, ' ');
	if (!sp || sp == target)
		return -400;
	*sp = '\0';
	version = sp + 1;
	if (strncmp(version, "HTTP/", 5))
		return -400;
	if (version[5] != '1' || version[6] != '.' || version[7] < '0' || version[7] > '9' || version[8])
		return version[5] >= '0' && version[5] <= '9' ? -505 : -400;
	r->minor = version[7] - '0';
	for (const char *t = target; *t; t++)
		if ((unsigned char)*t <= 0x20 || *t == 0x7f)
			return -400;
	if (target[0] != '/')
		return -400;	/* origin-form only: no proxy here */
	r->path = target;
	{
		char *q = strchr(target, '?');

		if (q) {
			*q = '\0';
			r->query = q + 1;
		}
		q = strchr(r->query, '#');
		if (q)
			*q = '\0';
	}

	/* Name: value lines */
	for (line = next; *line; line = next) {
		char *colon, *v, *e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		e = line + strlen(line);
		if (e > line && e[-1] == '\r')
			*--e = '\0';
		if (!*line)
			break;
		if (strchr(line, '\r') || line[0] == ' ' || line[0] == '\t')
			return -400;	/* a bare CR, or an obsolete folded line */
		if (++nheaders > 100)
			return -431;
		colon = strchr(line, ':');
		if (!colon || colon == line)
			return -400;
		*colon = '\0';
		for (const char *n = line; *n; n++)
			if (!tchar((unsigned char)*n))
				return -400;	/* no space before the colon: RFC 9112 5.1 */
		v = colon + 1;
		v += strspn(v, " \t");
		e = v + strlen(v);
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c < 0x20 && *c != '\t')
				return -400;
		if (!strcasecmp(line, "host")) {
			if (r->host)
				return -400;	/* two Hosts: RFC 9112 3.2 */
			r->host = v;
		} else if (!strcasecmp(line, "authorization")) {
			if (r->authorization)
				return -400;
			r->authorization = v;
		} else if (!strcasecmp(line, "connection")) {
			conn = v;
		} else if (!strcasecmp(line, "transfer-encoding")) {
			te = v;
		} else if (!strcasecmp(line, "content-length")) {
			if (cl && strcmp(cl, v))
				return -400;
			cl = v;
		} else if (!strcasecmp(line, "expect")) {
			r->expect_continue = !strcasecmp(v, "100-continue");
		}
	}
	if (te)
		return -501;	/* chunked bodies: no client of prof's sends one */
	if (cl) {
		uint64_t n = 0;

		if (!*cl || strspn(cl, "0123456789") != strlen(cl))
			return -400;
		for (const char *d = cl; *d; d++) {
			if (n > HTTPD_BODY_MAX)
				return -413;
			n = n * 10 + (uint64_t)(*d - '0');
		}
		if (n > HTTPD_BODY_MAX)
			return -413;
		r->body = n;
	}
	if (r->minor >= 1 && !r->host)
		return -400;	/* RFC 9112 3.2: HTTP/1.1 needs a Host */
	r->keep_alive = r->minor >= 1 ? !(conn && has_token(conn, "close")) :
					(conn && has_token(conn, "keep-alive"));
	return (int)end;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int httpd_query(const char *query, const char *key, char *out, size_t outlen)
{
	size_t klen = strlen(key);

	if (!outlen)
		return 0;
	for (const char *p = query; *p;) {
		size_t n = strcspn(p, "&;");

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			size_t k = 0;

			for (size_t i = klen + 1; i < n; i++) {
				int c = (unsigned char)p[i];

				if (c == '+')
					c = ' ';
				else if (c == '%' && i + 2 < n && hexval((unsigned char)p[i + 1]) >= 0 &&
					 hexval((unsigned char)p[i + 2]) >= 0) {
					c = hexval((unsigned char)p[i + 1]) * 16 + hexval((unsigned char)p[i + 2]);
					i += 2;
				}
				if (k + 1 >= outlen)
					return 0;
				out[k++] = (char)c;
			}
			out[k] = '\0';
			return 1;
		}
		if (n == klen && !strncmp(p, key, klen)) {
			out[0] = '\0';
			return 1;
		}
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

int httpd_host_ok(const char *host, const char *const *names, size_t nnames)
{
	char h[256];
	size_t n;
	struct in_addr a4;
	struct in6_addr a6;
	struct utsname u;

	if (!host)
		return 1;	/* HTTP/1.0 without one: no browser sends that */
	if (host[0] == '[') {
		const char *e = strchr(host, ']');

		if (!e || (size_t)(e - host - 1) >= sizeof(h) || (e[1] && e[1] != ':'))
			return 0;
		memcpy(h, host + 1, (size_t)(e - host - 1));
		h[e - host - 1] = '\0';
		return inet_pton(AF_INET6, h, &a6) == 1;
	}
	n = strcspn(host, ":");
	if (!n || n >= sizeof(h) || (host[n] && strspn(host + n + 1, "0123456789") != strlen(host + n + 1)))
		return 0;
	memcpy(h, host, n);
	h[n] = '\0';
	if (n && h[n - 1] == '.')
		h[--n] = '\0';	/* the root's dot: "localhost." is localhost */
	if (inet_pton(AF_INET, h, &a4) == 1 || !strcasecmp(h, "localhost"))
		return 1;
	if (!uname(&u) && !strcasecmp(h, u.nodename))
		return 1;
	for (size_t i = 0; i < nnames; i++)
		if (!strcasecmp(h, names[i]))
			return 1;
	return 0;
}

int httpd_bearer_ok(const char *auth, const char *token)
{
	size_t na, nb;
	unsigned char d;

	if (!auth || strncasecmp(auth, "bearer", 6) || (auth[6] != ' ' && auth[6] != '\t'))
		return 0;
	auth += 6;
	auth += strspn(auth, " \t");
	/* compared whole, in time that does not say where they differ */
	na = strlen(auth);
	nb = strlen(token);
	d = na != nb || !nb;
	for (size_t i = 0; i < na; i++)
		d |= (unsigned char)(auth[i] ^ token[nb ? i % nb : 0]);
	return !d;
}

int httpd_split(const char *addr, char *host, size_t hlen, unsigned *port)
{
	const char *colon, *p;
	unsigned long v = 0;

	if (addr[0] == '[') {
		const char *end = strchr(addr, ']');

		if (!end || end[1] != ':' || (size_t)(end - addr - 1) >= hlen || end == addr + 1)
			return -1;
		memcpy(host, addr + 1, (size_t)(end - addr - 1));
		host[end - addr - 1] = '\0';
		colon = end + 1;
	} else {
		colon = strrchr(addr, ':');
		if (!colon || (size_t)(colon - addr) >= hlen || memchr(addr, ':', (size_t)(colon - addr)))
			return -1;
		memcpy(host, addr, (size_t)(colon - addr));
		host[colon - addr] = '\0';
	}
	p = colon + 1;
	if (!*p || strlen(p) > 5 || strspn(p, "0123456789") != strlen(p))
		return -1;
	for (; *p; p++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

/* --- who is at the other end ------------------------------------------------- */

/*
 * The user of the socket at the other end of a TCP connection on this
 * host, as the kernel's sock_diag finds it by the connection's four-tuple
 * (what ss -tep shows): 0 and *uid, or -1 when there is none here (a
 * client on another host) or the lookup fails.
 */
static int tcp_peer_uid(int fd, uid_t *uid)
{
	struct sockaddr_storage me, peer;
	socklen_t ml = sizeof(me), pl = sizeof(peer);
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	union {
		struct nlmsghdr h;
		char b[8192];
	} ans;
	int s, ret = -1;
	ssize_t n;
	struct timeval tv = { .tv_sec = 1 };

	if (getsockname(fd, (struct sockaddr *)&me, &ml) || getpeername(fd, (struct sockaddr *)&peer, &pl) ||
	    me.ss_family != peer.ss_family)
		return -1;
	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST;
	req.r.sdiag_family = (unsigned char)me.ss_family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = ~0u;
	/* the client's socket: its own end is our peer, its other end us */
	req.r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	req.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	if (me.ss_family == AF_INET) {
		struct sockaddr_in *m = (struct sockaddr_in *)&me, *p = (struct sockaddr_in *)&peer;

		req.r.id.idiag_sport = p->sin_port;
		req.r.id.idiag_dport = m->sin_port;
		memcpy(req.r.id.idiag_src, &p->sin_addr, 4);
		memcpy(req.r.id.idiag_dst, &m->sin_addr, 4);
	} else if (me.ss_family == AF_INET6) {
		struct sockaddr_in6 *m = (struct sockaddr_in6 *)&me, *p = (struct sockaddr_in6 *)&peer;

		req.r.id.idiag_sport = p->sin6_port;
		req.r.id.idiag_dport = m->sin6_port;
		memcpy(req.r.id.idiag_src, &p->sin6_addr, 16);
		memcpy(req.r.id.idiag_dst, &m->sin6_addr, 16);
	} else {
		return -1;
	}
	s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (s < 0)
		return -1;
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(s, &req, sizeof(req), 0, (struct sockaddr *)&nl, sizeof(nl)) == (ssize_t)sizeof(req)) {
		n = recv(s, &ans, sizeof(ans), 0);
		for (struct nlmsghdr *h = &ans.h; n > 0 && NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
			    h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
				const struct inet_diag_msg *m = NLMSG_DATA(h);

				/*
				 * a connected socket of that four-tuple, not a listener
				 * or a closed one's remains (which say uid 0)
				 */
				if (m->idiag_state == 1 /* TCP_ESTABLISHED */ &&
				    m->id.idiag_sport == req.r.id.idiag_sport &&
				    m->id.idiag_dport == req.r.id.idiag_dport) {
					*uid = m->idiag_uid;
					ret = 0;
				}
			}
			break;
		}
	}
	close(s);
	return ret;
}

/* --- the server ------------------------------------------------------------------ */

enum { C_HEAD, C_BODY, C_JOB, C_SEND };

struct conn {
	int fd;
	int state;
	char in[HTTPD_HEAD_MAX + 1];
	size_t inlen;
	size_t used;			/* the head and the body's bytes within in[] */
	uint64_t deadline;		/* of the state, mono ns */
	uint64_t waiting_since;		/* for a head: its connection, or its first byte */
	uint64_t body_left;		/* body bytes still to read and drop */
	struct httpd_req req;
	struct httpd_peer peer;
	int keep;
	void *job;
	/* the answer: head, then body */
	char head[768];
	size_t headlen, off;
	const char *body;
	size_t bodylen;
	void *owned;
	uint64_t progress;		/* when the reader last took something */
};

struct httpd {
	struct httpd_opts o;
	char **names;
	struct httpd_handler h;
	int lfd, wake[2];
	int unix_socket;
	char path[108];			/* the Unix socket's */
	char bound[160];
	unsigned port;
	pthread_t thread;
	struct conn **c;
	size_t nc;
	uint64_t rest_until;		/* the listener not polled until then (no fd left) */
};

static const char *reason(unsigned status)
{
	switch (status) {
	case 100: return "Continue";
	case 200: return "OK";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 413: return "Content Too Large";
	case 421: return "Misdirected Request";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	}
	return "Status";
}

static void conn_close(struct httpd *s, size_t i)
{
	struct conn *c = s->c[i];

	if (c->state == C_JOB && c->job)
		s->h.cancel(s->h.ctx, c->job);
	free(c->owned);
	close(c->fd);
	free(c);
	s->c[i] = s->c[--s->nc];
}

/* Start sending rep on c. */
static void send_reply(struct conn *c, const struct httpd_reply *rep, int keep)
{
	int n;

	c->keep = keep;
	n = snprintf(c->head, sizeof(c->head),
		     "HTTP/1.1 %u %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		     "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n%s%s%s%s%s\r\n",
		     rep->status, reason(rep->status), rep->type ? rep->type : "text/plain; charset=utf-8",
		     rep->len, rep->filename ? "Content-Disposition: attachment; filename=\"" : "",
		     rep->filename ? rep->filename : "", rep->filename ? "\"\r\n" : "",
		     rep->status == 401 ? "WWW-Authenticate: Bearer\r\n" : "",
		     keep ? "" : "Connection: close\r\n");
	c->headlen = n > 0 && (size_t)n < sizeof(c->head) ? (size_t)n : 0;
	c->off = 0;
	c->body = rep->no_body ? NULL : rep->data;
	c->bodylen = rep->no_body ? 0 : rep->len;
	c->owned = rep->owned;
	c->state = C_SEND;
	c->progress = mono_ns();
	c->deadline = c->progress + SEND_TIME + (uint64_t)(c->bodylen / SEND_RATE) * SEC;
}

static void send_text(struct conn *c, unsigned status, const char *msg, int keep)
{
	struct httpd_reply rep = { .status = status, .data = msg, .len = strlen(msg) };

	send_reply(c, &rep, keep);
}

/* The head and body of c's request are in: ask the handler. */
static void dispatch(struct httpd *s, struct conn *c)
{
	struct httpd_reply rep = { 0 };
	void *job = NULL;

	if (!s->unix_socket &&
	    !httpd_host_ok(c->req.host, (const char *const *)s->names, s->o.nnames)) {
		send_text(c, 421, "this server does not answer to that Host name; use the address it "
			  "printed\n", 0);
		return;
	}
	if (s->h.request(s->h.ctx, &c->req, &c->peer, &rep, &job)) {
		c->state = C_JOB;
		c->job = job;
		return;
	}
	send_reply(c, &rep, c->req.keep_alive);
}

/* What is in c->in: a head to parse. */
static void take_head(struct httpd *s, struct conn *c)
{
	int n = httpd_parse(c->in, c->inlen, &c->req);

	if (n == 0)
		return;
	if (n < 0) {
		send_text(c, (unsigned)-n, n == -413 ? "a body of 1 MiB at most\n" :
			  n == -431 ? "the request's head is too long\n" :
			  n == -501 ? "no Transfer-Encoding: give Content-Length\n" :
			  "a malformed request\n", 0);
		return;
	}
	/* bytes past the head are the body's, then the next request's */
	c->used = (size_t)n;
	if (c->req.body) {
		size_t extra = c->inlen - c->used, take = extra < c->req.body ? extra : (size_t)c->req.body;

		c->used += take;
		c->body_left = c->req.body - take;
	}
	if (c->body_left) {
		if (c->req.expect_continue)
			send(c->fd, "HTTP/1.1 100 Continue\r\n\r\n", 25, MSG_NOSIGNAL | MSG_DONTWAIT);
		c->state = C_BODY;
		c->deadline = mono_ns() + BODY_TIME;
		return;
	}
	dispatch(s, c);
}

/* c's answer is sent: the next request, or the end. 0, or -1 to close. */
static int next_request(struct httpd *s, struct conn *c)
{
	free(c->owned);
	c->owned = NULL;
	if (!c->keep)
		return -1;
	memmove(c->in, c->in + c->used, c->inlen - c->used);
	c->inlen -= c->used;
	c->used = 0;
	c->state = C_HEAD;
	c->waiting_since = mono_ns();
	c->deadline = c->waiting_since + (c->inlen ? HEAD_TIME : IDLE_TIME);
	if (c->inlen)
		take_head(s, c);
	return 0;
}

/* Read what c sent: 0, or -1 to close. */
static int on_read(struct httpd *s, struct conn *c)
{
	if (c->state == C_BODY) {
		char junk[16384];
		ssize_t r = recv(c->fd, junk, c->body_left < sizeof(junk) ? (size_t)c->body_left :
					sizeof(junk), 0);

		if (r <= 0)
			return r < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -1;
		c->body_left -= (uint64_t)r;
		if (!c->body_left)
			dispatch(s, c);
		return 0;
	}
	if (c->state == C_HEAD) {
		ssize_t r = recv(c->fd, c->in + c->inlen, HTTPD_HEAD_MAX - c->inlen, 0);

		if (r <= 0)
			return r < 0 && (errno == EAGAIN || errno == EINTR) ? 0 : -1;
		if (!c->inlen) {
			/* a kept-alive connection's next request has begun */
			uint64_t now = mono_ns();

			if (now + HEAD_TIME < c->deadline)
				c->deadline = now + HEAD_TIME;
		}
		c->inlen += (size_t)r;
		take_head(s, c);
	}
	return 0;
}

/* Send what c can take: 0, or -1 to close. */
static int on_write(struct httpd *s, struct conn *c)
{
	while (c->state == C_SEND) {
		const char *p;
		size_t left;
		ssize_t w;

		if (c->off < c->headlen) {
			p = c->head + c->off;
			left = c->headlen - c->off;
		} else if (c->off - c->headlen < c->bodylen) {
			p = c->body + (c->off - c->headlen);
			left = c->bodylen - (c->off - c->headlen);
		} else {
			return next_request(s, c);
		}
		w = send(c->fd, p, left, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		c->off += (size_t)w;
		c->progress = mono_ns();
	}
	return 0;
}

/* Make room for a new connection: close the one that has waited longest for a head. */
static int evict(struct httpd *s)
{
	size_t pick = s->nc;

	for (size_t i = 0; i < s->nc; i++)
		if ((s->c[i]->state == C_HEAD || s->c[i]->state == C_BODY) &&
		    (pick == s->nc || s->c[i]->waiting_since < s->c[pick]->waiting_since))
			pick = i;
	if (pick == s->nc)
		return -1;
	conn_close(s, pick);
	return 0;
}

static void on_accept(struct httpd *s)
{
	for (int k = 0; k < 64; k++) {
		int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct conn *c;

		if (fd < 0) {
			/* no descriptor left: the listener rests a while, not the loop spinning */
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				s->rest_until = mono_ns() + SEC / 10;
			return;
		}
		if (s->nc >= s->o.max_conns && evict(s)) {
			close(fd);	/* every one is busy answering: this one waits for none */
			continue;
		}
		c = xcalloc(1, sizeof(*c));
		c->fd = fd;
		c->state = C_HEAD;
		c->waiting_since = mono_ns();
		c->deadline = c->waiting_since + HEAD_TIME;
		if (s->unix_socket) {
			struct ucred cr;
			socklen_t n = sizeof(cr);

			c->peer.local = 1;
			if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &n)) {
				c->peer.uid = cr.uid;
				c->peer.uid_known = 1;
			}
		} else if (s->o.peer_uid) {
			c->peer.uid_known = !tcp_peer_uid(fd, &c->peer.uid);
		}
		s->c[s->nc++] = c;
	}
}

static void *run(void *arg)
{
	struct httpd *s = arg;
	struct pollfd *pf = xcalloc(s->o.max_conns + 2, sizeof(*pf));

	for (;;) {
		uint64_t now = mono_ns(), next = now + IDLE_TIME;
		int jobs = 0, timeout;
		size_t n = s->nc;

		pf[0] = (struct pollfd){ .fd = s->wake[0], .events = POLLIN };
		/* a negative fd is not polled: the listener resting */
		pf[1] = (struct pollfd){ .fd = now < s->rest_until ? -1 : s->lfd, .events = POLLIN };
		if (now < s->rest_until && s->rest_until < next)
			next = s->rest_until;
		for (size_t i = 0; i < n; i++) {
			struct conn *c = s->c[i];
			short ev = c->state == C_SEND ? POLLOUT : c->state == C_JOB ? POLLRDHUP : POLLIN;

			pf[i + 2] = (struct pollfd){ .fd = c->fd, .events = ev };
			if (c->state == C_JOB)
				jobs = 1;
			else if (c->state == C_SEND && c->progress + STALL_TIME < next)
				next = c->progress + STALL_TIME;
			if (c->state != C_JOB && c->deadline < next)
				next = c->deadline;
		}
		timeout = next > now ? (int)((next - now) / 1000000) + 1 : 0;
		if (jobs && timeout > JOB_POLL_MS)
			timeout = JOB_POLL_MS;
		if (poll(pf, n + 2, timeout) < 0 && errno != EINTR)
			break;
		if (pf[0].revents)
			break;
		/* connections first, by their place in pf: accepting appends to s->c */
		now = mono_ns();
		for (size_t i = n; i-- > 0;) {
			struct conn *c = s->c[i];
			short re = pf[i + 2].revents;
			int bad = 0;

			if (c->state == C_JOB) {
				struct httpd_reply rep;

				if (re & (POLLRDHUP | POLLHUP | POLLERR)) {
					conn_close(s, i);	/* its client went away: the job too */
					continue;
				}
				if (s->h.poll(s->h.ctx, c->job, &rep)) {
					c->job = NULL;
					send_reply(c, &rep, c->req.keep_alive);
					bad = on_write(s, c);
				}
			} else if (re & (POLLERR | POLLNVAL)) {
				bad = 1;
			} else if (re & POLLOUT) {
				bad = on_write(s, c);
			} else if (re & (POLLIN | POLLHUP)) {
				bad = on_read(s, c);
				if (!bad && c->state == C_SEND)
					bad = on_write(s, c);
			}
			if (!bad && c->state == C_SEND &&
			    (now > c->progress + STALL_TIME || now > c->deadline))
				bad = 1;	/* a reader that stalls, or takes too long */
			if (!bad && (c->state == C_HEAD || c->state == C_BODY) && now > c->deadline) {
				static const char late[] = "HTTP/1.1 408 Request Timeout\r\n"
					"Content-Length: 0\r\nConnection: close\r\n\r\n";

				if (c->inlen || c->state == C_BODY)
					send(c->fd, late, sizeof(late) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
				bad = 1;
			}
			if (bad)
				conn_close(s, i);
		}
		if (pf[1].revents)
			on_accept(s);
	}
	while (s->nc)
		conn_close(s, s->nc - 1);
	free(pf);
	return NULL;
}

/* A listening socket for o->listen: its fd, or -1 after a line in err. */
static int open_listener(struct httpd *s, char *err, size_t errlen)
{
	const char *addr = s->o.listen;
	int fd, one = 1;

	if (!strncmp(addr, "unix:", 5)) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		const char *path = addr + 5;
		struct stat st;
		mode_t old;

		if (!*path || strlen(path) >= sizeof(un.sun_path)) {
			snprintf(err, errlen, "'%s': a Unix socket's path is 1 to %zu bytes",
				 addr, sizeof(un.sun_path) - 1);
			return -1;
		}
		/* one a run of ours left behind is replaced; anything else is not ours to remove */
		if (!lstat(path, &st)) {
			if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) {
				snprintf(err, errlen, "'%s' exists and is not a socket of this "
					 "user's; remove it or give another path", path);
				return -1;
			}
			unlink(path);
		}
		strcpy(un.sun_path, path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0) {
			snprintf(err, errlen, "socket: %s", strerror(errno));
			return -1;
		}
		old = umask(0177);	/* 0600: the agent's own user, and root, connect */
		if (bind(fd, (struct sockaddr *)&un, sizeof(un)) || listen(fd, 128)) {
			int e = errno;

			umask(old);
			snprintf(err, errlen, "cannot serve on %s: %s", path, strerror(e));
			close(fd);
			return -1;
		}
		umask(old);
		s->unix_socket = 1;
		snprintf(s->path, sizeof(s->path), "%s", path);
		snprintf(s->bound, sizeof(s->bound), "unix:%s", path);
		return fd;
	}
	{
		char host[256], shown[INET6_ADDRSTRLEN];
		unsigned port;
		struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICSERV, .ai_socktype = SOCK_STREAM };
		struct addrinfo *ai;
		char ps[8];
		int gai;
		struct sockaddr_storage b;
		socklen_t bl = sizeof(b);

		if (httpd_split(addr, host, sizeof(host), &port)) {
			snprintf(err, errlen, "'%s' is not HOST:PORT with a port from 0 to 65535 "
				 "(127.0.0.1:6061, [::1]:6061, :6061, unix:/run/prof.sock)", addr);
			return -1;
		}
		snprintf(ps, sizeof(ps), "%u", port);
		gai = getaddrinfo(host[0] ? host : NULL, ps, &hints, &ai);
		if (gai) {
			snprintf(err, errlen, "cannot resolve '%s': %s", host, gai_strerror(gai));
			return -1;
		}
		for (unsigned k = 0;; k++) {
			unsigned p = port + k;

			fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
			if (fd < 0) {
				snprintf(err, errlen, "socket: %s", strerror(errno));
				freeaddrinfo(ai);
				return -1;
			}
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (ai->ai_family == AF_INET6)
				((struct sockaddr_in6 *)ai->ai_addr)->sin6_port = htons((uint16_t)p);
			else
				((struct sockaddr_in *)ai->ai_addr)->sin_port = htons((uint16_t)p);
			if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 128))
				break;
			if (errno == EADDRINUSE && port && k < s->o.port_tries && p < 65535) {
				close(fd);
				continue;
			}
			if (k)
				snprintf(err, errlen, "cannot serve on %s ports %u to %u: %s", host[0] ? host :
					 "every address", port, p, strerror(errno));
			else
				snprintf(err, errlen, "cannot serve on %s: %s", addr, strerror(errno));
			close(fd);
			freeaddrinfo(ai);
			return -1;
		}
		freeaddrinfo(ai);
		getsockname(fd, (struct sockaddr *)&b, &bl);
		if (b.ss_family == AF_INET6) {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&b;

			inet_ntop(AF_INET6, &a->sin6_addr, shown, sizeof(shown));
			s->port = ntohs(a->sin6_port);
			snprintf(s->bound, sizeof(s->bound), "[%s]:%u", shown, s->port);
		} else {
			struct sockaddr_in *a = (struct sockaddr_in *)&b;

			inet_ntop(AF_INET, &a->sin_addr, shown, sizeof(shown));
			s->port = ntohs(a->sin_port);
			snprintf(s->bound, sizeof(s->bound), "%s:%u", shown, s->port);
		}
	}
	return fd;
}

struct httpd *httpd_start(const struct httpd_opts *o, const struct httpd_handler *h, char *err,
			  size_t errlen)
{
	struct httpd *s = xcalloc(1, sizeof(*s));

	s->o = *o;
	s->h = *h;
	if (!s->o.max_conns)
		s->o.max_conns = DEFAULT_CONNS;
	s->names = xcalloc(o->nnames + 1, sizeof(*s->names));
	for (size_t i = 0; i < o->nnames; i++)
		s->names[i] = xstrdup(o->names[i]);
	s->o.names = NULL;
	s->c = xcalloc(s->o.max_conns, sizeof(*s->c));
	s->wake[0] = s->wake[1] = -1;
	s->lfd = open_listener(s, err, errlen);
	if (s->lfd < 0 || pipe2(s->wake, O_CLOEXEC)) {
		if (s->lfd >= 0)
			snprintf(err, errlen, "cannot serve: pipe: %s", strerror(errno));
		httpd_stop(s);
		return NULL;
	}
	if (pthread_create(&s->thread, NULL, run, s)) {
		snprintf(err, errlen, "cannot serve: a thread: %s", strerror(errno));
		close(s->wake[1]);
		s->wake[1] = -1;
		httpd_stop(s);
		return NULL;
	}
	return s;
}

const char *httpd_address(const struct httpd *s)
{
	return s->bound;
}

unsigned httpd_port(const struct httpd *s)
{
	return s->port;
}

void httpd_stop(struct httpd *s)
{
	if (!s)
		return;
	if (s->wake[1] >= 0) {
		char b = 1;

		if (write(s->wake[1], &b, 1) == 1)
			pthread_join(s->thread, NULL);
		close(s->wake[1]);
	}
	if (s->wake[0] >= 0)
		close(s->wake[0]);
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->unix_socket)
		unlink(s->path);
	for (size_t i = 0; i < s->o.nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->c);
	free(s);
}
