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
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>

#include "dynlib.h"
#include "file.h"
#include "htab.h"
#include "backend.h"
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
	__typeof__(curl_mime_data_cb) *mime_data_cb;
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
	"curl_mime_data_cb",
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

/* A window's file name: 20 digits of its start, '-', its event's 2, ".win" */
#define WIN_NAME 48

struct queued {
	char name[WIN_NAME];
	uint64_t bytes;			/* on disk */
};

struct target {
	struct pusher *p;
	char *url;			/* as given */
	char *endpoint;			/* where the POST goes */
	enum push_kind kind;
	char dir[4096];			/* for messages; files are reached through dfd */
	int dfd;			/* the directory, opened once, checked as the agent's */
	struct queued *q;		/* the windows waiting, oldest first */
	size_t nq, qcap;
	pthread_t thread;
	int started;
	uint64_t bytes;			/* in the spool */
	uint64_t sent, dropped, rejected, failures;
	unsigned undeletable;		/* windows sent that could not be deleted */
	unsigned spool_failing;		/* windows not spooled since one last was */
	int down;			/* the last request failed */
};

struct pusher {
	struct push_opts o;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stopping;
	struct target *t;
	size_t nt;
	int spool_fd;			/* --spool, opened once and checked (open_own_dir()) */
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

/* --- the spool ---------------------------------------------------------------- */
/*
 * Each backend's directory is opened once (O_NOFOLLOW, checked as the
 * agent's own) and every file in it reached through that descriptor
 * (openat and friends): nothing on the way can be swapped for a link
 * another user made. The windows waiting are a sorted list in memory,
 * read from the directory once at start: spooling, dropping and sending
 * one cost the same whatever else the spool holds.
 */

/* What a file of n bytes takes on disk, as the spool's bound counts it: whole 4 KiB blocks. */
static uint64_t on_disk(uint64_t n)
{
	return (n + 4095) & ~(uint64_t)4095;
}

static int is_window_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && name[0] != '.' && !strcmp(name + n - 4, ".win");
}

/* Insert name in t's queue, in order (a new window's name is nearly always the last). */
static void q_insert(struct target *t, const char *name, uint64_t bytes)
{
	size_t i = t->nq;

	if (t->nq == t->qcap) {
		t->qcap = t->qcap ? 2 * t->qcap : 64;
		t->q = xreallocarray(t->q, t->qcap, sizeof(*t->q));
	}
	while (i > 0 && strcmp(t->q[i - 1].name, name) > 0)
		i--;
	memmove(t->q + i + 1, t->q + i, (t->nq - i) * sizeof(*t->q));
	snprintf(t->q[i].name, sizeof(t->q[i].name), "%s", name);
	t->q[i].bytes = bytes;
	t->nq++;
	t->bytes += bytes;
}

/* Take the window at index i out of t's queue (its bytes with it when gone from disk). */
static void q_remove(struct target *t, size_t i, int gone)
{
	if (gone)
		t->bytes = t->bytes > t->q[i].bytes ? t->bytes - t->q[i].bytes : 0;
	memmove(t->q + i, t->q + i + 1, (t->nq - i - 1) * sizeof(*t->q));
	t->nq--;
}

/* Where name is in t's queue, or -1. */
static long q_find(const struct target *t, const char *name)
{
	for (size_t i = 0; i < t->nq; i++)
		if (!strcmp(t->q[i].name, name))
			return (long)i;
	return -1;
}

/*
 * Delete t's window at index i, and take it out of the queue whatever
 * happens: a window that cannot be deleted is never tried again in this
 * run (it would be sent again and again), said once.
 */
static void unspool(struct target *t, size_t i)
{
	int gone = !unlinkat(t->dfd, t->q[i].name, 0) || errno == ENOENT;

	if (!gone && !t->undeletable++)
		say(t->p, "cannot delete '%s' in %s: %s; a window is not sent twice by this "
		    "agent, but one left there is sent again by the next", t->q[i].name, t->dir,
		    strerror(errno));
	q_remove(t, i, gone);
}

/* Delete the oldest window of t: 1 when there was one. Under p->mu. */
static int drop_oldest(struct target *t)
{
	if (!t->nq)
		return 0;
	unspool(t, 0);
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

	for (size_t i = 0; i < p->nt; i++) {
		struct target *t = &p->t[i];

		if (t->nq && (!pick || strcmp(t->q[0].name, pick->q[0].name) < 0))
			pick = t;
	}
	if (!pick)
		return 0;
	drop_oldest(pick);
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

/* Write all of b: 0, or -1 (errno; ENOSPC for a short write). */
static int write_all(int fd, const void *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = ENOSPC;
			return -1;
		}
		b = (const char *)b + w;
		n -= (size_t)w;
	}
	return 0;
}

/* Write one window event into t's spool, making room as its bound says. Under p->mu. */
static void spool_one(struct target *t, const struct window *w, const struct window_event *e,
		      size_t idx)
{
	struct pusher *p = t->p;
	struct spool_head h;
	char name[WIN_NAME], tmp[WIN_NAME + 8];
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
	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	while (t->bytes + need > p->o.spool_bytes && drop_oldest(t))
		;
	if (t->dropped > dropped)
		say(p, "the spool for %s is full (%llu bytes at most): dropped %llu of its oldest "
		    "windows, %llu in all; --spool-size sets the bound", t->url,
		    (unsigned long long)p->o.spool_bytes,
		    (unsigned long long)(t->dropped - dropped), (unsigned long long)t->dropped);
	for (;;) {
		fd = openat(t->dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0) {
			int ok = !write_all(fd, &h, sizeof(h)) && !write_all(fd, data, len) &&
				 !fdatasync(fd);

			if (!ok)
				err = errno ? errno : EIO;
			/* closed once, whatever it says: the number may be another thread's next */
			if (close(fd) && ok) {
				ok = 0;
				err = errno ? errno : EIO;	/* NFS says ENOSPC here */
			}
			if (ok && !renameat(t->dfd, tmp, t->dfd, name)) {
				long at = q_find(t, name);

				if (at >= 0)
					q_remove(t, (size_t)at, 1);	/* replaced: counted once */
				q_insert(t, name, need);
				t->spool_failing = 0;
				break;
			}
			if (ok)
				err = errno;
			unlinkat(t->dfd, tmp, 0);
		} else {
			err = errno;
		}
		/* a full disk: the oldest windows of all backends make room, up to 16 */
		if ((err == ENOSPC || err == EDQUOT) && tries++ < 16 && drop_oldest_any(p))
			continue;
		/* said once while it lasts; the last line counts them */
		if (!t->spool_failing++)
			say(p, "cannot spool a window for %s in %s: %s%s; it is lost, as are the next "
			    "until it can", t->url, t->dir, strerror(err), err == ENOSPC || err == EDQUOT ?
			    " (the disk, not --spool-size: free space there, or give --spool elsewhere)" :
			    "");
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

/* Pyroscope's form part: the data from where it is mapped. */
static size_t part_read(char *out, size_t size, size_t n, void *arg)
{
	return body_src_read(out, size, n, arg);
}

static int part_seek(void *arg, curl_off_t off, int origin)
{
	struct body_src *b = arg;

	if (origin != SEEK_SET || off < 0 || (uint64_t)off > body_src_len(b))
		return CURL_SEEKFUNC_CANTSEEK;
	b->off = (uint64_t)off;
	return CURL_SEEKFUNC_OK;
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
	struct body_src src = { .data = data, .len = (size_t)h->len };
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
		labels_each(p, backend_pyro_label, &pn);
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
			cu.mime_data_cb(part, (curl_off_t)h->len, part_read, part_seek, NULL, &src);
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

		backend_parca_name(h->event, pname, sizeof(pname));
		fputs("{\"series\":[{\"labels\":{\"labels\":[{\"name\":\"__name__\",\"value\":", f);
		utf8_put_json(f, pname, strlen(pname));
		fputc('}', f);
		labels_each(p, backend_parca_label, &pl);
		fputs("]},\"samples\":[{\"rawProfile\":\"", f);
		fclose(f);
		/* the window in base64 as libcurl takes the body: never all at once */
		src.head = body;
		src.head_len = bodylen;
		src.base64 = 1;
		src.tail = "\"}]}],\"normalized\":false}";
		src.tail_len = strlen(src.tail);
		url = xstrdup(t->endpoint);
		hdr = cu.slist_append(hdr, "Content-Type: application/json");
		cu.easy_setopt(c, CURLOPT_POST, 1L);
		cu.easy_setopt(c, CURLOPT_READFUNCTION, body_src_read);
		cu.easy_setopt(c, CURLOPT_READDATA, &src);
		cu.easy_setopt(c, CURLOPT_SEEKFUNCTION, part_seek);
		cu.easy_setopt(c, CURLOPT_SEEKDATA, &src);
		cu.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_src_len(&src));
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
	} else if (status >= 200 && status < 300 && !backend_success(t->kind, ctype, why, whylen)) {
		ret = -1;	/* not the backend's answer: kept until the URL is right */
	} else if (status >= 200 && status < 300) {
		ret = 0;
		if (t->kind == PUSH_OTLP && backend_otlp_rejected(reply.b, reply.n, why, whylen))
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

/*
 * Map a spooled window of t: 0 with its header, its data (within the
 * mapping *map of *maplen bytes, munmap'd by the caller); -1 when it is
 * not one (not a regular file, cut short, another format); -2 when it
 * cannot be read now (no file descriptor or memory left): tried again.
 */
static int read_window(struct target *t, const char *name, struct spool_head *h,
		       const unsigned char **data, void **map, size_t *maplen)
{
	int fd = openat(t->dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	void *m;

	if (fd < 0)
		return errno == ELOOP || errno == ENOENT ? -1 : -2;
	if (fstat(fd, &st)) {
		close(fd);
		return -2;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < sizeof(*h)) {
		close(fd);
		return -1;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -2;
	memcpy(h, m, sizeof(*h));
	if (memcmp(h->magic, SPOOL_MAGIC, 8) || h->len != (uint64_t)st.st_size - sizeof(*h)) {
		munmap(m, (size_t)st.st_size);
		return -1;
	}
	h->event[sizeof(h->event) - 1] = '\0';
	*data = (const unsigned char *)m + sizeof(*h);
	*map = m;
	*maplen = (size_t)st.st_size;
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
		char name[WIN_NAME], why[256];
		struct spool_head h;
		const unsigned char *data = NULL;
		void *map = NULL;
		size_t maplen = 0;
		long at;
		int ret;

		if (!t->nq) {
			if (p->stopping)
				break;
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		memcpy(name, t->q[0].name, sizeof(name));
		pthread_mutex_unlock(&p->mu);
		ret = read_window(t, name, &h, &data, &map, &maplen);
		if (ret == -1) {
			pthread_mutex_lock(&p->mu);
			if ((at = q_find(t, name)) >= 0) {
				say(p, "'%s' in %s is not a window prof agent spooled; deleted", name, t->dir);
				unspool(t, (size_t)at);
			}
			continue;
		}
		if (ret == 0) {
			ret = send_one(t, &h, data, why, sizeof(why));
			munmap(map, maplen);
		} else {
			snprintf(why, sizeof(why), "cannot read '%s' now: %s", name, strerror(errno));
			ret = -1;	/* kept, and tried again after the backoff */
		}
		pthread_mutex_lock(&p->mu);
		if (ret >= 0) {
			/* gone from the queue already when the spool was full and dropped it */
			if ((at = q_find(t, name)) >= 0)
				unspool(t, (size_t)at);
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

/*
 * Open dir, which must be the agent's own: reached through no link but
 * root's or the agent's user's, every directory on the way owned by root
 * or that user and writable by no one else unless sticky (/tmp), and dir
 * itself that user's and no one else's (made 0700 where missing; mode
 * 0700 set when it is wider). Its descriptor, or -1 with why in err.
 */
static int open_own_dir(const char *dir, char *err, size_t errlen)
{
	char buf[4096], cwd[4096], *comp, *save = NULL;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	uid_t me = geteuid();

	/* a relative one is checked from / too: the directories above it count */
	if ((dir[0] != '/' && !getcwd(cwd, sizeof(cwd))) ||
	    (size_t)snprintf(buf, sizeof(buf), "%s/%s", dir[0] == '/' ? "" : cwd, dir) >= sizeof(buf)) {
		snprintf(err, errlen, "--spool: '%s': the path is too long", dir);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (comp = strtok_r(buf, "/", &save); fd >= 0 && comp; comp = strtok_r(NULL, "/", &save)) {
		int last = !save || !*save || !save[strspn(save, "/")], next;
		struct stat st;

		if (!strcmp(comp, "."))
			continue;
		if (mkdirat(fd, comp, 0700) && errno != EEXIST)
			goto bad;
		next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (next < 0 && (errno == ELOOP || errno == ENOTDIR) &&
		    !fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode)) {
			/* a link: followed when root or this user made it (/var/run) */
			if (st.st_uid != 0 && st.st_uid != me) {
				snprintf(err, errlen, "--spool: '%s': '%s' on the way is a link of uid %u's, "
					 "who could point it anywhere; give a directory of this user's",
					 dir, comp, (unsigned)st.st_uid);
				close(fd);
				return -1;
			}
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		}
		if (next < 0)
			goto bad;
		close(fd);
		fd = next;
		if (fstat(fd, &st))
			goto bad;
		if (last) {
			if (st.st_uid != me) {
				snprintf(err, errlen, "--spool: '%s' is uid %u's, not this agent's (uid %u): "
					 "its owner could swap what it holds; give a directory of this "
					 "user's", dir, (unsigned)st.st_uid, (unsigned)me);
				close(fd);
				return -1;
			}
			if ((st.st_mode & 077) && fchmod(fd, 0700))
				goto bad;
		} else if ((st.st_uid != 0 && st.st_uid != me) ||
			   ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))) {
			snprintf(err, errlen, "--spool: '%s': '%s' on the way is %s; another user could "
				 "swap what is under it; give a directory of this user's", dir, comp,
				 st.st_uid != 0 && st.st_uid != me ? "another user's" :
				 "writable by others and not sticky");
			close(fd);
			return -1;
		}
	}
	return fd;
bad:
	snprintf(err, errlen, "--spool: cannot make or open '%s': %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* A backend's directory in the spool: made 0700, or checked as the agent's own. */
static int open_target_dir(int spool, const char *name, char *err, size_t errlen, const char *shown)
{
	struct stat st;
	int fd;

	if (mkdirat(spool, name, 0700) && errno != EEXIST) {
		snprintf(err, errlen, "--spool: cannot make '%s': %s", shown, strerror(errno));
		return -1;
	}
	fd = openat(spool, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "--spool: cannot open '%s': %s", shown, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "--spool: '%s' is uid %u's, not this agent's; remove it",
			 shown, (unsigned)st.st_uid);
		close(fd);
		return -1;
	}
	if (st.st_mode & 077)
		fchmod(fd, 0700);
	return fd;
}

/*
 * What an earlier run left in t's directory: windows queued; a killed
 * writer's unfinished files removed (how many into *cleared); anything
 * else said once and left alone.
 */
static void scan_dir(struct target *t, unsigned *cleared)
{
	int dup_fd = dup(t->dfd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;
	unsigned other = 0;
	char first[256] = "";

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;
		size_t n = strlen(e->d_name);

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "backend"))
			continue;
		if (fstatat(t->dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISREG(st.st_mode) && e->d_name[0] == '.' && n > 4 &&
		    !strcmp(e->d_name + n - 4, ".tmp")) {
			if (!unlinkat(t->dfd, e->d_name, 0))
				(*cleared)++;
			continue;
		}
		if (S_ISREG(st.st_mode) && is_window_name(e->d_name) && n < WIN_NAME) {
			q_insert(t, e->d_name, on_disk((uint64_t)st.st_size));
			continue;
		}
		if (!other++)
			snprintf(first, sizeof(first), "%s", e->d_name);
	}
	closedir(d);
	if (other)
		say(t->p, "%u files in %s are not windows prof agent spooled ('%s'%s); left alone",
		    other, t->dir, first, other > 1 ? ", ..." : "");
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
	p->spool_fd = o->nurls ? open_own_dir(o->spool, err, errlen) : -1;
	if (o->nurls && p->spool_fd < 0) {
		pusher_free(p, 0);
		return NULL;
	}
	for (size_t i = 0; i < o->nurls; i++) {
		struct target *t = &p->t[p->nt];
		char *u = xstrdup(o->urls[i]);
		size_t n = strlen(u);
		int kind = push_kind_of(u, err, errlen);
		unsigned cleared = 0;
		char dname[64];
		uint64_t h;

		if (kind < 0) {
			free(u);
			pusher_free(p, 0);
			return NULL;
		}
		while (n && u[n - 1] == '/')
			u[--n] = '\0';
		t->p = p;
		t->dfd = -1;
		t->url = xstrdup(o->urls[i]);	/* said in messages: it holds no password */
		t->endpoint = u;
		t->kind = (enum push_kind)kind;
		h = htab_hash_bytes(u, strlen(u));
		snprintf(dname, sizeof(dname), "%s-%016llx",
			 kind == PUSH_PARCA ? "parca" : kind == PUSH_OTLP ? "otlp" : "pyroscope",
			 (unsigned long long)h);
		snprintf(t->dir, sizeof(t->dir), "%s/%s", o->spool, dname);
		p->nt++;
		t->dfd = open_target_dir(p->spool_fd, dname, err, errlen, t->dir);
		if (t->dfd < 0) {
			pusher_free(p, 0);
			return NULL;
		}
		{
			/*
			 * For people: which backend the directory is for; the
			 * agent's alone, and never through a link another user
			 * put there.
			 */
			int fd = openat(t->dfd, "backend", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
					O_CLOEXEC, 0600);

			if (fd >= 0) {
				char *line = NULL;
				int len = asprintf(&line, "%s\n", t->url);

				if (len > 0 && write(fd, line, (size_t)len) != len)
					say(p, "cannot write %s/backend: %s", t->dir, strerror(errno));
				free(line);
				fchmod(fd, 0600);	/* one an older agent left readable */
				close(fd);
			}
		}
		scan_dir(t, &cleared);
		if (cleared)
			say(p, "removed %u unfinished windows a stopped agent left in %s", cleared, t->dir);
		if (t->nq && !o->quiet)
			say(p, "%zu windows an earlier run left for %s: sending them first", t->nq, t->url);
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

		if (t->started)
			say(p, "%s: %llu windows sent, %zu waiting in %s, %llu dropped, %llu refused",
			    t->url, (unsigned long long)t->sent, t->nq, t->dir,
			    (unsigned long long)t->dropped, (unsigned long long)t->rejected);
		free(t->url);
		free(t->endpoint);
		free(t->q);
		if (t->dfd >= 0)
			close(t->dfd);
	}
	free(p->t);
	if (p->spool_fd >= 0)
		close(p->spool_fd);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
}
