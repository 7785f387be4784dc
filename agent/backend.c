// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What each backend prof agent pushes to takes and answers (backend.h):
 * the push URLs, Pyroscope's and Parca's names and labels, a 2xx that is
 * the backend's own success, OTLP's partial success, a request's body.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "push.h"
#include "utf8.h"

/* The user information of url's authority (before '@'): its start and length; NULL when none. */
static const char *userinfo(const char *url, size_t *len)
{
	const char *a = strstr(url, "://"), *e, *u;

	if (!a)
		return NULL;
	a += 3;
	e = a + strcspn(a, "/?#");
	u = memchr(a, '@', (size_t)(e - a));
	if (!u)
		return NULL;
	*len = (size_t)(u - a);
	return a;
}

/* Whether url's authority holds a password (user:password@). */
static int has_password(const char *url)
{
	size_t n;
	const char *u = userinfo(url, &n);

	return u && memchr(u, ':', n);
}

int push_has_user(const char *url)
{
	size_t n;

	return userinfo(url, &n) != NULL;
}

int push_kind_of(const char *url, char *err, size_t errlen)
{
	const char *path;
	size_t n;
	char shown[256];

	snprintf(shown, sizeof(shown), "%.*s%s", 200, url, strlen(url) > 200 ? "..." : "");
	if (has_password(url)) {
		/* said without it */
		const char *a = strstr(url, "://") + 3, *c = strchr(a, ':');

		snprintf(err, errlen, "--push: '%.*s:***%s': a password in the URL is in every "
			 "process list and log; keep the user there and give the password in "
			 "--push-password-file FILE (mode 600) or $PROF_PUSH_PASSWORD",
			 (int)(c - url), url, strchr(a, '@'));
		return -1;
	}

	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) {
		snprintf(err, errlen, "--push: '%s' is not an http:// or https:// URL", shown);
		return -1;
	}
	{
		/* the authority: [user[:password]@]host[:port], a port of digits */
		const char *a = url + (url[4] == 's' ? 8 : 7), *e = a + strcspn(a, "/?#");
		const char *at = memchr(a, '@', (size_t)(e - a)), *h = at ? at + 1 : a, *colon;
		const char *hend = h < e && *h == '[' ? memchr(h, ']', (size_t)(e - h)) : h;

		if (!hend || h == e || (*h == '[' && hend == h + 1)) {
			snprintf(err, errlen, "--push: '%s' names no host", shown);
			return -1;
		}
		colon = memchr(hend, ':', (size_t)(e - hend));
		if (colon) {
			unsigned long port = 0;
			const char *d = colon + 1;

			for (; d < e && *d >= '0' && *d <= '9' && port <= 65535; d++)
				port = port * 10 + (unsigned long)(*d - '0');
			if (d == colon + 1 || d != e || port == 0 || port > 65535) {
				snprintf(err, errlen, "--push: '%s': the port after ':' must be a number "
					 "from 1 to 65535", shown);
				return -1;
			}
		}
	}
	path = strchr(url + (url[4] == 's' ? 8 : 7), '/');
	if (strchr(url, '?') || strchr(url, '#')) {
		snprintf(err, errlen, "--push: '%s' has a query or fragment; give the server's URL",
			 shown);
		return -1;
	}
	n = path ? strlen(path) : 0;
	while (n && path[n - 1] == '/')
		n--;
	if (n >= 18 && !strncmp(path + n - 18, "/profiles/writeraw", 18))
		return PUSH_PARCA;
	if (n >= 23 && !strncmp(path + n - 23, "/v1development/profiles", 23))
		return PUSH_OTLP;
	return PUSH_PYROSCOPE;
}

/* Pyroscope's label values: no ',', '=', '{', '}' or quotes in its name syntax. */
static void label_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		unsigned char ch = (unsigned char)*v;

		fputc(ch > 0x20 && ch < 0x7f && !strchr(",={}\"'\\ ", ch) ? ch : '_', f);
	}
}

void backend_pyro_label(void *arg, const char *k, const char *v, size_t klen)
{
	struct pyro_name *pn = arg;

	fprintf(pn->f, "%s%.*s=", pn->n++ ? "," : "", (int)klen, k);
	label_value(pn->f, v);
}

void backend_parca_label(void *arg, const char *k, const char *v, size_t klen)
{
	struct parca_labels *pl = arg;

	fputs(",{\"name\":", pl->f);
	utf8_put_json(pl->f, k, klen);
	fputs(",\"value\":", pl->f);
	utf8_put_json(pl->f, v, strlen(v));
	fputc('}', pl->f);
}

/* Parca's profile name for an event: process_cpu for CPU time, as its scrape names it. */
void backend_parca_name(const char *event, char *out, size_t n)
{
	size_t k = 0;

	if (!strcmp(event, "cpu-clock") || !strcmp(event, "task-clock")) {
		snprintf(out, n, "process_cpu");
		return;
	}
	k = (size_t)snprintf(out, n, "prof_");
	for (const char *e = event; *e && k + 1 < n; e++)
		out[k++] = (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
			   (*e >= '0' && *e <= '9') ? *e : '_';
	out[k] = '\0';
}

/* A protobuf varint at *i of b[0 .. n): 0, or -1 when cut short. */
static int reply_varint(const unsigned char *b, size_t n, size_t *i, uint64_t *v)
{
	*v = 0;
	for (int s = 0; *i < n && s < 64; s += 7) {
		unsigned char ch = b[(*i)++];

		*v |= (uint64_t)(ch & 0x7f) << s;
		if (!(ch & 0x80))
			return 0;
	}
	return -1;
}

/*
 * An OTLP ExportProfilesServiceResponse that says the collector rejected
 * profiles (partial_success.rejected_profiles, field 1.1): 1 and why; 0
 * for a plain success (an empty reply, or a JSON one).
 */
int backend_otlp_rejected(const void *reply, size_t n, char *why, size_t whylen)
{
	const unsigned char *b = reply;
	size_t i = 0, end;
	uint64_t key, len, rejected = 0;
	char msg[128] = "";

	if (!b || n < 2 || b[0] != 0x0a)
		return 0;
	i = 1;
	if (reply_varint(b, n, &i, &len) || len > n - i)
		return 0;
	end = i + (size_t)len;
	while (i < end) {
		if (reply_varint(b, end, &i, &key))
			return 0;
		if (key == 0x08) {
			if (reply_varint(b, end, &i, &rejected))
				return 0;
		} else if ((key & 7) == 2) {
			if (reply_varint(b, end, &i, &len) || len > end - i)
				return 0;
			if (key == 0x12) {
				size_t k = 0;

				for (size_t j = 0; j < len && k + 1 < sizeof(msg); j++)
					msg[k++] = b[i + j] >= 0x20 && b[i + j] < 0x7f ? (char)b[i + j] : '?';
				msg[k] = '\0';
			}
			i += (size_t)len;
		} else if ((key & 7) == 0) {
			if (reply_varint(b, end, &i, &len))
				return 0;
		} else {
			return 0;
		}
	}
	if (!rejected)
		return 0;
	snprintf(why, whylen, "%llu profiles rejected%s%s", (unsigned long long)rejected,
		 msg[0] ? ": " : "", msg);
	return 1;
}

/* A media type's name, lower case, without parameters, into out. */
static void media_type(const char *ctype, char *out, size_t n)
{
	size_t k = 0;

	for (; ctype && *ctype && *ctype != ';' && k + 1 < n; ctype++)
		if (*ctype != ' ' && *ctype != '\t')
			out[k++] = (char)(*ctype >= 'A' && *ctype <= 'Z' ? *ctype + 32 : *ctype);
	out[k] = '\0';
}

/*
 * Whether a 2xx answer of content type ctype is the backend's own success:
 * 1, or 0 and what to fix in why. A web UI answers 200 with a page for
 * any path it does not route (Parca's UI for /profiles/writeraw without
 * /api, pkg/server/fallback.go; Grafana's for a wrong port): nothing was
 * stored then. Parca's API answers JSON (grpc-gateway); the collector's
 * OTLP/HTTP receiver answers in the request's encoding, protobuf here;
 * Pyroscope's /ingest answers with no body at all.
 */
int backend_success(enum push_kind kind, const char *ctype, char *why, size_t whylen)
{
	char mt[64];

	media_type(ctype, mt, sizeof(mt));
	if (!strcmp(mt, "text/html")) {
		snprintf(why, whylen, "a web page answered (text/html), not %s: nothing was stored; %s",
			 kind == PUSH_PARCA ? "Parca's API" :
			 kind == PUSH_OTLP ? "an OTLP receiver" : "Pyroscope's /ingest",
			 kind == PUSH_PARCA ? "Parca serves WriteRaw at http://HOST:7070/api/profiles/writeraw" :
			 kind == PUSH_OTLP ? "a collector's OTLP/HTTP receiver is at "
					     "http://HOST:4318/v1development/profiles" :
			 "give the Pyroscope server's URL, as http://HOST:4040");
		return 0;
	}
	if (kind == PUSH_PARCA && strcmp(mt, "application/json")) {
		snprintf(why, whylen, "the answer is %s, not the JSON of Parca's API; Parca serves "
			 "WriteRaw at http://HOST:7070/api/profiles/writeraw", mt[0] ? mt : "empty");
		return 0;
	}
	if (kind == PUSH_OTLP && mt[0] && strcmp(mt, "application/x-protobuf")) {
		snprintf(why, whylen, "the answer is %s, not the protobuf of an OTLP receiver", mt);
		return 0;
	}
	return 1;
}

/*
 * A request's body read from the spooled window where it lies (mapped),
 * never copied whole: Pyroscope's form part as it is, Parca's JSON with
 * the window in base64 made as libcurl asks for it.
 */
uint64_t body_src_len(const struct body_src *b)
{
	return b->head_len + (b->base64 ? (b->len + 2) / 3 * 4 : b->len) + b->tail_len;
}

size_t body_src_read(char *out, size_t size, size_t n, void *arg)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	struct body_src *b = arg;
	size_t room = size * n, k = 0;
	uint64_t dlen = b->base64 ? (b->len + 2) / 3 * 4 : b->len;

	while (k < room) {
		uint64_t at = b->off;

		if (at < b->head_len) {
			out[k++] = b->head[at];
		} else if ((at -= b->head_len) < dlen) {
			if (!b->base64) {
				size_t take = room - k < dlen - at ? room - k : (size_t)(dlen - at);

				memcpy(out + k, b->data + at, take);
				k += take;
				b->off += take;
				continue;
			} else {
				uint64_t g = at / 4 * 3;
				unsigned v = (unsigned)b->data[g] << 16;
				int pos = (int)(at % 4);

				if (g + 1 < b->len)
					v |= (unsigned)b->data[g + 1] << 8;
				if (g + 2 < b->len)
					v |= b->data[g + 2];
				out[k++] = pos > 1 && g + (uint64_t)pos - 1 >= b->len ? '=' :
					   b64[(v >> (18 - 6 * pos)) & 63];
			}
		} else if ((at -= dlen) < b->tail_len) {
			out[k++] = b->tail[at];
		} else {
			break;
		}
		b->off++;
	}
	return k;
}
