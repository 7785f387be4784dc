// SPDX-License-Identifier: GPL-2.0-or-later
/* prof agent's spool and its senders, on libcurl (push.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>

#include "base64.h"
#include "dynlib.h"
#include "file.h"
#include "htab.h"
#include "push.h"
#include "utf8.h"
#include "xalloc.h"

/* libcurl's functions, opened when a push is first set up (dynlib.h) */
static struct {
	__typeof__(curl_global_init) *global_init;
	__typeof__(curl_easy_init) *easy_init;
	__typeof__(curl_easy_setopt) *easy_setopt;
	__typeof__(curl_easy_escape) *easy_escape;
	__typeof__(curl_free) *free;
	__typeof__(curl_mime_init) *mime_init;
	__typeof__(curl_mime_addpart) *mime_addpart;
	__typeof__(curl_mime_name) *mime_name;
	__typeof__(curl_mime_filename) *mime_filename;
	__typeof__(curl_mime_type) *mime_type;
	__typeof__(curl_mime_data) *mime_data;
	__typeof__(curl_slist_append) *slist_append;
	__typeof__(curl_easy_perform) *easy_perform;
	__typeof__(curl_easy_getinfo) *easy_getinfo;
	__typeof__(curl_easy_strerror) *easy_strerror;
	__typeof__(curl_slist_free_all) *slist_free_all;
	__typeof__(curl_mime_free) *mime_free;
	__typeof__(curl_easy_cleanup) *easy_cleanup;
} cu;
static const char *const cu_names[] = {
	"curl_global_init",
	"curl_easy_init",
	"curl_easy_setopt",
	"curl_easy_escape",
	"curl_free",
	"curl_mime_init",
	"curl_mime_addpart",
	"curl_mime_name",
	"curl_mime_filename",
	"curl_mime_type",
	"curl_mime_data",
	"curl_slist_append",
	"curl_easy_perform",
	"curl_easy_getinfo",
	"curl_easy_strerror",
	"curl_slist_free_all",
	"curl_mime_free",
	"curl_easy_cleanup",
};
_Static_assert(sizeof(cu) == sizeof(cu_names) / sizeof(cu_names[0]) * sizeof(void *),
	       "a name for each of libcurl's functions");


#define SPOOL_MAGIC "PROFWIN1"
/* A spooled window: this header, then the gzipped pprof (OTLP's request for an OTLP backend). */
struct spool_head {
	char magic[8];
	uint64_t start_ns, end_ns, seq, samples;
	char event[64];
	uint64_t len;
};

struct target {
	struct pusher *p;
	char *url;			/* as given */
	char *endpoint;			/* where the POST goes */
	enum push_kind kind;
	char dir[4096];
	pthread_t thread;
	int started;
	uint64_t bytes;			/* in the spool */
	uint64_t sent, dropped, rejected, failures;
	int down;			/* the last request failed */
};

struct pusher {
	struct push_opts o;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stopping;
	struct target *t;
	size_t nt;
	uint64_t full_drops;		/* windows dropped for a full disk, all backends */
	int full_said;			/* ... and said so, since a window was last spooled freely */
};

static void say(const struct pusher *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const struct pusher *p, const char *fmt, ...)
{
	va_list ap;

	if (p->o.quiet)
		return;
	va_start(ap, fmt);
	fputs("prof: agent: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Whether url's authority holds a password (user:password@). */
static int has_password(const char *url)
{
	const char *a = strstr(url, "://"), *e, *u;

	if (!a)
		return 0;
	a += 3;
	e = a + strcspn(a, "/?#");
	u = memchr(a, '@', (size_t)(e - a));
	return u && memchr(a, ':', (size_t)(u - a));
}

int push_has_user(const char *url)
{
	const char *a = strstr(url, "://"), *e;

	if (!a)
		return 0;
	a += 3;
	e = a + strcspn(a, "/?#");
	return memchr(a, '@', (size_t)(e - a)) != NULL;
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

/* --- the spool ---------------------------------------------------------------- */

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_window(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".win");
}

/* The windows in t's spool, oldest first: how many; *names malloc'd (free each). */
static int list(struct target *t, struct dirent ***names)
{
	int n = scandir(t->dir, names, is_window, by_name);

	if (n < 0)
		*names = NULL;
	return n < 0 ? 0 : n;
}

/* What a file of n bytes takes on disk, as the spool's bound counts it: whole 4 KiB blocks. */
static uint64_t on_disk(uint64_t n)
{
	return (n + 4095) & ~(uint64_t)4095;
}

static uint64_t size_of(const char *dir, const char *name)
{
	char path[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? on_disk((uint64_t)st.st_size) : 0;
}

/* How many windows wait in t's spool; the oldest's path into path (when there is one). */
static int oldest(struct target *t, char *path, size_t len)
{
	struct dirent **names;
	int n = list(t, &names);

	if (n > 0)
		snprintf(path, len, "%s/%s", t->dir, names[0]->d_name);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return n;
}

/* Delete the window at path from t's spool, and its bytes from t's count: 0, or -1. */
static int unspool(struct target *t, const char *path)
{
	struct stat st;
	uint64_t sz = stat(path, &st) == 0 ? on_disk((uint64_t)st.st_size) : 0;

	if (unlink(path))
		return -1;
	t->bytes = t->bytes > sz ? t->bytes - sz : 0;
	return 0;
}

/* Delete the oldest window of t: 1 when there was one. Under p->mu. */
static int drop_oldest(struct target *t)
{
	char path[8192];

	if (!oldest(t, path, sizeof(path)) || unspool(t, path))
		return 0;
	t->dropped++;
	return 1;
}

/*
 * A full disk: delete the oldest window of any backend (names sort by
 * the window's start), so that what goes is the oldest data, not the
 * newest window of the backend that happened to write. 1 when there was
 * one. Under p->mu.
 */
static int drop_oldest_any(struct pusher *p)
{
	struct target *pick = NULL;
	char best[8192] = "", path[8192];

	for (size_t i = 0; i < p->nt; i++) {
		struct target *t = &p->t[i];

		if (oldest(t, path, sizeof(path)) &&
		    (!pick || strcmp(strrchr(path, '/'), strrchr(best, '/')) < 0)) {
			pick = t;
			snprintf(best, sizeof(best), "%s", path);
		}
	}
	if (!pick || unspool(pick, best))
		return 0;
	pick->dropped++;
	p->full_drops++;
	return 1;
}

/* A time ms from now on CLOCK_REALTIME, as pthread's timed waits take it. */
static struct timespec deadline_in(unsigned ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

/* Write one window event into t's spool, making room as its bound says. Under p->mu. */
static void spool_one(struct target *t, const struct window *w, const struct window_event *e,
		      size_t idx)
{
	struct pusher *p = t->p;
	struct spool_head h;
	char name[128], path[8192], tmp[8300];
	const unsigned char *data = t->kind == PUSH_OTLP ? e->otlp : e->pprof;
	size_t len = t->kind == PUSH_OTLP ? e->otlp_len : e->len;
	uint64_t need = on_disk(sizeof(h) + len), dropped = t->dropped, full = p->full_drops;
	int tries = 0, fd, err = 0;

	if (!data) {
		say(p, "cannot encode a window for %s; it is lost", t->url);
		t->dropped++;
		return;
	}

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, SPOOL_MAGIC, 8);
	h.start_ns = w->start_ns;
	h.end_ns = w->end_ns;
	h.seq = w->seq;
	h.samples = e->samples;
	snprintf(h.event, sizeof(h.event), "%s", e->event);
	h.len = len;
	/* names sort by time: the window's start, then its event */
	snprintf(name, sizeof(name), "%020llu-%02zu.win", (unsigned long long)w->start_ns, idx);
	snprintf(path, sizeof(path), "%s/%s", t->dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", t->dir, name);
	while (t->bytes + need > p->o.spool_bytes && drop_oldest(t))
		;
	if (t->dropped > dropped)
		say(p, "the spool for %s is full (%llu bytes at most): dropped %llu of its oldest "
		    "windows, %llu in all; --spool-size sets the bound", t->url,
		    (unsigned long long)p->o.spool_bytes,
		    (unsigned long long)(t->dropped - dropped), (unsigned long long)t->dropped);
	for (;;) {
		ssize_t a, b;

		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0) {
			a = write(fd, &h, sizeof(h));
			b = a == (ssize_t)sizeof(h) ? write(fd, data, len) : -1;
			if (a == (ssize_t)sizeof(h) && b == (ssize_t)len && fdatasync(fd) == 0 &&
			    close(fd) == 0 && rename(tmp, path) == 0) {
				t->bytes += need;
				break;
			}
			err = errno ? errno : EIO;
			if (a >= 0 && b >= 0 && (a != (ssize_t)sizeof(h) || b != (ssize_t)len))
				err = ENOSPC;	/* a short write: the disk is full */
			close(fd);
			unlink(tmp);
		} else {
			err = errno;
		}
		/* a full disk: the oldest windows of all backends make room, up to 16 */
		if ((err == ENOSPC || err == EDQUOT) && tries++ < 16 && drop_oldest_any(p))
			continue;
		say(p, "cannot spool a window for %s in %s: %s%s; it is lost", t->url, t->dir,
		    strerror(err), err == ENOSPC || err == EDQUOT ?
		    " (the disk, not --spool-size: free space there, or give --spool elsewhere)" : "");
		t->dropped++;
		break;
	}
	/* said once while the disk stays full; the last line counts them all */
	if (p->full_drops > full && !p->full_said++)
		say(p, "the disk holding %s is full (%s): dropping the oldest windows of all "
		    "backends to make room (%llu so far); free space there, or give --spool elsewhere",
		    p->o.spool, strerror(err), (unsigned long long)p->full_drops);
}

void pusher_window(struct pusher *p, const struct window *w)
{
	uint64_t full;

	pthread_mutex_lock(&p->mu);
	full = p->full_drops;
	for (size_t i = 0; i < p->nt; i++)
		for (size_t e = 0; e < w->nev; e++)
			spool_one(&p->t[i], w, &w->ev[e], e);
	if (p->full_drops == full)
		p->full_said = 0;	/* room again: a disk full later is said again */
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* --- requests ------------------------------------------------------------------- */

struct buf {
	char *b;
	size_t n;
};

static size_t keep_reply(char *d, size_t size, size_t n, void *arg)
{
	struct buf *r = arg;
	size_t take = size * n;

	/* the first 512 bytes of a reply: enough for an error's message */
	if (r->n < 512) {
		size_t k = take < 512 - r->n ? take : 512 - r->n;

		r->b = xreallocarray(r->b, r->n + k + 1, 1);
		memcpy(r->b + r->n, d, k);
		r->n += k;
		r->b[r->n] = '\0';
	}
	return take;
}

static int abort_if_stopping(void *arg, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	struct pusher *p = arg;
	int stop;

	(void)a;
	(void)b;
	(void)c;
	(void)d;
	pthread_mutex_lock(&p->mu);
	stop = p->stopping > 1;
	pthread_mutex_unlock(&p->mu);
	return stop;
}

/* Pyroscope's label values: no ',', '=', '{', '}' or quotes in its name syntax. */
static void put_label_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		unsigned char ch = (unsigned char)*v;

		fputc(ch > 0x20 && ch < 0x7f && !strchr(",={}\"'\\ ", ch) ? ch : '_', f);
	}
}

/* The labels every window of this agent carries: host, then --label's. */
static void labels_each(const struct pusher *p, void (*fn)(void *arg, const char *k, const char *v,
							  size_t klen), void *arg)
{
	fn(arg, "host", p->o.host, 4);
	for (size_t i = 0; i < p->o.nlabels; i++) {
		const char *eq = strchr(p->o.labels[i], '=');

		fn(arg, p->o.labels[i], eq + 1, (size_t)(eq - p->o.labels[i]));
	}
}

struct pyro_name {
	FILE *f;
	int n;
};

static void pyro_label(void *arg, const char *k, const char *v, size_t klen)
{
	struct pyro_name *pn = arg;

	fprintf(pn->f, "%s%.*s=", pn->n++ ? "," : "", (int)klen, k);
	put_label_value(pn->f, v);
}

struct parca_labels {
	FILE *f;
};

static void parca_label(void *arg, const char *k, const char *v, size_t klen)
{
	struct parca_labels *pl = arg;

	fputs(",{\"name\":", pl->f);
	utf8_put_json(pl->f, k, klen);
	fputs(",\"value\":", pl->f);
	utf8_put_json(pl->f, v, strlen(v));
	fputc('}', pl->f);
}

/* Parca's profile name for an event: process_cpu for CPU time, as its scrape names it. */
static void parca_name(const char *event, char *out, size_t n)
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
static int otlp_rejected(const struct buf *r, char *why, size_t whylen)
{
	const unsigned char *b = (const unsigned char *)r->b;
	size_t i = 0, n = r->n, end;
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
static int success_of(enum push_kind kind, const char *ctype, char *why, size_t whylen)
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
 * Send one spooled window. 0: sent; 1: refused for good (a 4xx but 408
 * and 429: sending it again would be refused again); -1: try again later.
 * *why says what went wrong.
 */
static int send_one(struct target *t, const struct spool_head *h, const unsigned char *data,
		    char *why, size_t whylen)
{
	struct pusher *p = t->p;
	CURL *c = cu.easy_init();
	struct curl_slist *hdr = NULL;
	curl_mime *mime = NULL;
	struct buf reply = { 0 };
	char *url = NULL, *body = NULL, *name = NULL, line[512];
	size_t urllen = 0, bodylen = 0, namelen = 0;
	long status = 0;
	char *ctype = NULL;	/* libcurl's, valid until cleanup */
	CURLcode cr;
	int ret;

	if (!c) {
		snprintf(why, whylen, "cannot start a request");
		return -1;
	}
	if (t->kind == PUSH_PYROSCOPE) {
		FILE *f = open_memstream(&name, &namelen);
		struct pyro_name pn = { f, 0 };
		char *ename;

		fprintf(f, "%s{", p->o.app);
		labels_each(p, pyro_label, &pn);
		fputc('}', f);
		fclose(f);
		ename = cu.easy_escape(c, name, (int)namelen);
		f = open_memstream(&url, &urllen);
		/*
		 * As Pyroscope's Go client sends a pprof (pyroscope-go's
		 * upstream/remote/remote.go): the form alone says what the
		 * body is. With format=pprof, Pyroscope's ingest handler
		 * (pkg/ingester/pyroscope/ingest_handler.go) takes the whole
		 * body, form and all, as the profile and refuses it (422).
		 */
		fprintf(f, "%s/ingest?name=%s&from=%llu&until=%llu&spyName=prof&sampleRate=%llu"
			"&units=samples&aggregationType=sum", t->endpoint, ename ? ename : "",
			(unsigned long long)h->start_ns, (unsigned long long)h->end_ns,
			(unsigned long long)p->o.freq);
		fclose(f);
		cu.free(ename);
		mime = cu.mime_init(c);
		{
			curl_mimepart *part = cu.mime_addpart(mime);

			cu.mime_name(part, "profile");
			cu.mime_filename(part, "profile.pprof");
			cu.mime_type(part, "application/octet-stream");
			cu.mime_data(part, (const char *)data, (size_t)h->len);
		}
		cu.easy_setopt(c, CURLOPT_MIMEPOST, mime);
	} else if (t->kind == PUSH_OTLP) {
		/* the request as spooled: protobuf, gzipped, which collectors take */
		url = xstrdup(t->endpoint);
		hdr = cu.slist_append(hdr, "Content-Type: application/x-protobuf");
		hdr = cu.slist_append(hdr, "Content-Encoding: gzip");
		/* the collector's name for the schema of proto v1.10.0 and v1.11.0 */
		hdr = cu.slist_append(hdr, "OTLP-Profiles-Development-Version: 1");
		cu.easy_setopt(c, CURLOPT_POSTFIELDS, (const char *)data);
		cu.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)h->len);
	} else {
		FILE *f = open_memstream(&body, &bodylen);
		struct parca_labels pl = { f };
		char pname[80];

		parca_name(h->event, pname, sizeof(pname));
		fputs("{\"series\":[{\"labels\":{\"labels\":[{\"name\":\"__name__\",\"value\":", f);
		utf8_put_json(f, pname, strlen(pname));
		fputc('}', f);
		labels_each(p, parca_label, &pl);
		fputs("]},\"samples\":[{\"rawProfile\":\"", f);
		base64_write(data, (size_t)h->len, 0, f);
		fputs("\"}]}],\"normalized\":false}", f);
		fclose(f);
		url = xstrdup(t->endpoint);
		hdr = cu.slist_append(hdr, "Content-Type: application/json");
		cu.easy_setopt(c, CURLOPT_POSTFIELDS, body);
		cu.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)bodylen);
	}
	if (p->o.tenant) {
		snprintf(line, sizeof(line), "X-Scope-OrgID: %s", p->o.tenant);
		hdr = cu.slist_append(hdr, line);
	}
	/* a URL with a user: basic authentication, with the password; else the token */
	if (push_has_user(t->endpoint)) {
		if (p->o.password)
			cu.easy_setopt(c, CURLOPT_PASSWORD, p->o.password);
	} else if (p->o.token) {
		snprintf(line, sizeof(line), "Authorization: Bearer %s", p->o.token);
		hdr = cu.slist_append(hdr, line);
	}
	hdr = cu.slist_append(hdr, "Expect:");
	cu.easy_setopt(c, CURLOPT_URL, url);
	cu.easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	cu.easy_setopt(c, CURLOPT_USERAGENT, "prof-agent/" PACKAGE_VERSION);
	cu.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	cu.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	cu.easy_setopt(c, CURLOPT_TIMEOUT, 60L);
	cu.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	cu.easy_setopt(c, CURLOPT_WRITEFUNCTION, keep_reply);
	cu.easy_setopt(c, CURLOPT_WRITEDATA, &reply);
	cu.easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	cu.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, abort_if_stopping);
	cu.easy_setopt(c, CURLOPT_XFERINFODATA, p);
	cr = cu.easy_perform(c);
	if (cr == CURLE_OK) {
		cu.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
		cu.easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ctype);
	}
	if (cr != CURLE_OK) {
		snprintf(why, whylen, "%s", cu.easy_strerror(cr));
		ret = -1;
	} else if (status >= 200 && status < 300 && !success_of(t->kind, ctype, why, whylen)) {
		ret = -1;	/* not the backend's answer: kept until the URL is right */
	} else if (status >= 200 && status < 300) {
		ret = 0;
		if (t->kind == PUSH_OTLP && otlp_rejected(&reply, why, whylen))
			ret = 1;	/* a partial success that took nothing of it */
	} else {
		/* the reply's first line, cleaned, says why */
		char msg[128] = "";
		size_t k = 0;

		for (size_t i = 0; reply.b && i < reply.n && k + 1 < sizeof(msg) && reply.b[i] != '\n'; i++)
			msg[k++] = reply.b[i] >= 0x20 && reply.b[i] < 0x7f ? reply.b[i] : '?';
		msg[k] = '\0';
		snprintf(why, whylen, "HTTP %ld%s%s", status, k ? ": " : "", msg);
		ret = status >= 400 && status < 500 && status != 408 && status != 429 ? 1 : -1;
	}
	cu.slist_free_all(hdr);
	cu.mime_free(mime);
	cu.easy_cleanup(c);
	free(reply.b);
	free(url);
	free(body);
	free(name);
	return ret;
}

/* Read a spooled window: 0, or -1 for a file that is not one (it is deleted). */
static int read_window(const char *path, struct spool_head *h, unsigned char **data)
{
	size_t len;
	int err;
	unsigned char *b = file_read_regular(path, 256u << 20, &len, &err);

	if (!b)
		return -1;
	if (len < sizeof(*h) || memcmp(b, SPOOL_MAGIC, 8)) {
		free(b);
		return -1;
	}
	memcpy(h, b, sizeof(*h));
	if (h->len != len - sizeof(*h)) {
		free(b);
		return -1;
	}
	h->event[sizeof(h->event) - 1] = '\0';
	memmove(b, b + sizeof(*h), len - sizeof(*h));
	*data = b;
	return 0;
}

static void *sender(void *arg)
{
	struct target *t = arg;
	struct pusher *p = t->p;
	unsigned backoff = 0;

	pthread_mutex_lock(&p->mu);
	/* stopping: what is spooled is sent while the backend answers, then the thread ends */
	while (p->stopping < 2) {
		char path[8192], why[256];
		struct spool_head h;
		unsigned char *data = NULL;
		int ret;

		if (!oldest(t, path, sizeof(path))) {
			if (p->stopping)
				break;
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		pthread_mutex_unlock(&p->mu);
		if (read_window(path, &h, &data)) {
			pthread_mutex_lock(&p->mu);
			say(p, "'%s' is not a window prof agent spooled; deleted", path);
			unspool(t, path);
			continue;
		}
		ret = send_one(t, &h, data, why, sizeof(why));
		free(data);
		pthread_mutex_lock(&p->mu);
		if (ret >= 0) {
			unspool(t, path);	/* fails when the spool was full and dropped it */
			if (ret == 0) {
				t->sent++;
			} else {
				t->rejected++;
				say(p, "%s refused a window (%s); it is dropped", t->url, why);
			}
			if (t->down) {
				say(p, "%s answers again; sending the windows that waited", t->url);
				t->down = 0;
			}
			backoff = 0;
			continue;
		}
		t->failures++;
		if (p->stopping)
			break;	/* the spool keeps it for the next run */
		if (!t->down) {
			say(p, "cannot send to %s: %s; windows wait in %s and are sent when it answers",
			    t->url, why, t->dir);
			t->down = 1;
		}
		backoff = backoff ? (backoff * 2 > 60000 ? 60000 : backoff * 2) : 1000;
		{
			struct timespec until = deadline_in(backoff - backoff / 4 +
							    (unsigned)(rand() % (int)(backoff / 4 + 1)));

			while (!p->stopping &&
			       pthread_cond_timedwait(&p->cv, &p->mu, &until) != ETIMEDOUT)
				;
		}
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* mkdir -p, mode 0700 for what it makes. 0 or an errno. */
static int make_dirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return errno;
		buf[i] = path[i];
	}
	return 0;
}

struct pusher *pusher_new(const struct push_opts *o, char *err, size_t errlen)
{
	struct pusher *p = xcalloc(1, sizeof(*p));
	static int curl_ready;

	if (o->nurls && dynlib_open("libcurl.so.4", "libcurl4", cu_names, &cu,
				    sizeof(cu_names) / sizeof(cu_names[0]), err, errlen)) {
		free(p);
		return NULL;
	}
	/* on the main thread, before any request: libcurl's set-up is not thread-safe */
	if (o->nurls && !curl_ready++)
		cu.global_init(CURL_GLOBAL_DEFAULT);
	p->o = *o;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->t = xcalloc(o->nurls ? o->nurls : 1, sizeof(*p->t));
	for (size_t i = 0; i < o->nurls; i++) {
		struct target *t = &p->t[p->nt];
		char *u = xstrdup(o->urls[i]);
		size_t n = strlen(u);
		struct dirent **names;
		int kind = push_kind_of(u, err, errlen), e, k;
		uint64_t h;

		if (kind < 0) {
			free(u);
			pusher_free(p, 0);
			return NULL;
		}
		while (n && u[n - 1] == '/')
			u[--n] = '\0';
		t->p = p;
		t->url = xstrdup(o->urls[i]);	/* said in messages: it holds no password */
		t->endpoint = u;
		t->kind = (enum push_kind)kind;
		h = htab_hash_bytes(u, strlen(u));
		snprintf(t->dir, sizeof(t->dir), "%s/%s-%016llx", o->spool,
			 kind == PUSH_PARCA ? "parca" : kind == PUSH_OTLP ? "otlp" : "pyroscope",
			 (unsigned long long)h);
		p->nt++;
		if ((e = make_dirs(t->dir)) != 0) {
			snprintf(err, errlen, "--spool: cannot make '%s': %s", t->dir, strerror(e));
			pusher_free(p, 0);
			return NULL;
		}
		{
			/*
			 * For people: which backend the directory is for; the
			 * agent's alone, and never through a link another user
			 * put there.
			 */
			char path[8192];
			int fd;

			snprintf(path, sizeof(path), "%s/backend", t->dir);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
			if (fd >= 0) {
				char *line = NULL;
				int len = asprintf(&line, "%s\n", t->url);

				if (len > 0 && write(fd, line, (size_t)len) != len)
					say(p, "cannot write %s: %s", path, strerror(errno));
				free(line);
				fchmod(fd, 0600);	/* one an older agent left readable */
				close(fd);
			}
		}
		k = list(t, &names);
		for (int j = 0; j < k; j++) {
			t->bytes += size_of(t->dir, names[j]->d_name);
			free(names[j]);
		}
		free(names);
		if (k && !o->quiet)
			say(p, "%d windows an earlier run left for %s: sending them first", k, t->url);
	}
	for (size_t i = 0; i < p->nt; i++) {
		if (pthread_create(&p->t[i].thread, NULL, sender, &p->t[i])) {
			snprintf(err, errlen, "cannot start a thread: %s", strerror(errno));
			pusher_free(p, 0);
			return NULL;
		}
		p->t[i].started = 1;
	}
	return p;
}

void pusher_free(struct pusher *p, int wait_ms)
{
	struct timespec until;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stopping = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	/* a request in flight may end in wait_ms; then it is cut */
	until = deadline_in((unsigned)wait_ms);
	for (size_t i = 0; i < p->nt; i++) {
		if (!p->t[i].started)
			continue;
		if (pthread_timedjoin_np(p->t[i].thread, NULL, &until)) {
			pthread_mutex_lock(&p->mu);
			p->stopping = 2;	/* abort_if_stopping() cuts the request */
			pthread_mutex_unlock(&p->mu);
			pthread_join(p->t[i].thread, NULL);
		}
	}
	for (size_t i = 0; i < p->nt; i++) {
		struct target *t = &p->t[i];
		char path[8192];
		int n = t->started ? oldest(t, path, sizeof(path)) : 0;

		if (t->started)
			say(p, "%s: %llu windows sent, %d waiting in %s, %llu dropped, %llu refused",
			    t->url, (unsigned long long)t->sent, n, t->dir,
			    (unsigned long long)t->dropped, (unsigned long long)t->rejected);
		free(t->url);
		free(t->endpoint);
	}
	free(p->t);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
}
