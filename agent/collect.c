// SPDX-License-Identifier: GPL-2.0-or-later
/* prof agent's aggregation: windows and scrapes of labelled samples (collect.h). */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "collect.h"
#include "format.h"
#include "module.h"
#include "pprof.h"
#include "profile.h"
#include "utf8.h"
#include "xalloc.h"


/* A window or a scrape: the samples of [start, end) (CLOCK_MONOTONIC), a pprof per event. */
struct span {
	uint64_t start, end;
	uint64_t k;			/* a window's number: its start / window_ns */
	int scrape;
	/* by name: a session's evdescs go with it, and the recorder may be started again */
	char ev[COLLECT_MAX_EVENTS][64];
	struct pprof *pp[COLLECT_MAX_EVENTS];
	size_t nev;
	uint64_t samples;
	struct span *next;
};

/* What labels say of a process, read once from /proc while it lives. */
struct pinfo {
	int pid;
	const struct dso *exe;		/* the program it was read for: an exec reads again */
	char *process, *cgroup, *container, *pod;
	uint64_t used;			/* the window it last labelled a sample in */
	uint64_t cg_k;			/* the window its cgroup was read in, + 1 */
	const char *cg_of;		/* the sample's cgroup it was set from (the session's), or NULL */
};

struct collect {
	struct collect_opts o;
	pthread_mutex_t mu;
	int64_t off;			/* realtime - monotonic */
	uint64_t delivered;		/* the latest sample time seen */
	uint64_t started;		/* realtime of the first window's start */
	struct span *spans;		/* windows by k, then scrapes */
	uint64_t closed;		/* windows up to k = closed - 1 are closed (0: none yet) */
	uint64_t seq, cur_k;
	struct pinfo **ptab;		/* open addressing by pid */
	size_t pcap, pn;
	uint64_t samples, late, windows, empty, scrapes;
	int nscrapes;
	uint64_t poked;			/* when o.poke was last called (mono_ns()) */
};

/* How often at most the recorder is asked for its samples (collect_opts.poke). */
#define POKE_EVERY_NS 50000000ULL
/* While a window's end is awaited, collect_due()'s wait. */
#define AWAIT_NS 100000000ULL

/*
 * How long until window sp closes (0: now): its grace after its end, and
 * then, while the samples of its end are awaited, AWAIT_NS at a time, up
 * to four graces. Under mu.
 */
static uint64_t close_in(const struct collect *c, const struct span *sp, uint64_t now)
{
	if (now < sp->end + c->o.grace_ns)
		return sp->end + c->o.grace_ns - now;
	if (c->delivered < sp->end && now < sp->end + 4 * c->o.grace_ns)
		return AWAIT_NS;
	return 0;
}

/* The samples up to end, already past at now, awaited: the recorder asked for them. Under mu. */
static void await(struct collect *c, uint64_t end, uint64_t now)
{
	if (c->o.poke && c->delivered < end && now >= end && now - c->poked >= POKE_EVERY_NS) {
		c->poked = now;
		c->o.poke(c->o.poke_ctx);
	}
}

struct collect *collect_new(const struct collect_opts *o)
{
	struct collect *c = xcalloc(1, sizeof(*c));
	struct timespec m, r;

	c->o = *o;
	pthread_mutex_init(&c->mu, NULL);
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &r);
	c->off = ((int64_t)r.tv_sec - m.tv_sec) * 1000000000 + (r.tv_nsec - m.tv_nsec);
	c->started = (uint64_t)((int64_t)mono_ns() + c->off);
	c->pcap = 256;
	c->ptab = xcalloc(c->pcap, sizeof(*c->ptab));
	return c;
}

/* What was read of a process, gone: it is read again. */
static void pinfo_clear(struct pinfo *p)
{
	free(p->process);
	free(p->cgroup);
	free(p->container);
	free(p->pod);
	p->process = p->cgroup = p->container = p->pod = NULL;
	p->cg_of = NULL;
	p->cg_k = 0;
}

static void pinfo_free(struct pinfo *p)
{
	if (!p)
		return;
	pinfo_clear(p);
	free(p);
}

static void span_free(struct span *s)
{
	for (size_t i = 0; i < s->nev; i++)
		pprof_free(s->pp[i]);
	free(s);
}

void collect_free(struct collect *c)
{
	if (!c)
		return;
	while (c->spans) {
		struct span *s = c->spans;

		c->spans = s->next;
		span_free(s);
	}
	for (size_t i = 0; i < c->pcap; i++)
		pinfo_free(c->ptab[i]);
	free(c->ptab);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

/* --- labels ----------------------------------------------------------------- */

/* A label's text: valid UTF-8, no control bytes, at most 255 bytes; malloc'd. */
static char *clean(const char *s, size_t n)
{
	char *t = xmalloc(n + 1), *u;

	memcpy(t, s, n);
	t[n] = '\0';
	if (!utf8_valid(t)) {
		u = utf8_fix(t);
		free(t);
		t = u;
	}
	for (char *p = t; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	if (strlen(t) > 255) {
		size_t k = 255;

		while (k && ((unsigned char)t[k] & 0xc0) == 0x80)
			k--;
		t[k] = '\0';
	}
	return t;
}

static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/*
 * The container and pod a cgroup path names, as Docker, containerd,
 * CRI-O, Podman and the kubelet lay them out: a 64-digit hex id as a
 * component, or inside docker-ID.scope, cri-containerd-ID.scope,
 * crio-ID.scope, libpod-ID.scope; a pod as podUID (with _ for - under
 * systemd) in a kubepods component.
 */
static void container_of(const char *path, char **container, char **pod)
{
	const char *p = path;

	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n >= 64 + 3) {
			/* the id as the last 64 characters before an optional .scope */
			size_t m = n;

			if (m > 6 && !memcmp(p + m - 6, ".scope", 6))
				m -= 6;
			if (m >= 64 && is_hex(p + m - 64, 64) && (m == 64 || p[m - 65] == '-'))
				*container = clean(p + m - 64, 64);
		} else if (n == 64 && is_hex(p, 64)) {
			*container = clean(p, 64);
		}
		if (n > 3 && (p = memmem(p, n, "pod", 3)) != NULL) {
			/* kubepods-burstable-pod<uid>.slice, or pod<uid> */
			const char *u = p + 3;
			const char *end = e ? e : u + strlen(u);
			size_t k = 0;
			char uid[37];

			while (u + k < end && k < 36 && (u[k] == '-' || u[k] == '_' ||
							  (u[k] >= '0' && u[k] <= '9') ||
							  (u[k] >= 'a' && u[k] <= 'f')))
				k++;
			if (k == 36) {
				memcpy(uid, u, 36);
				uid[36] = '\0';
				for (int i = 0; i < 36; i++)
					if (uid[i] == '_')
						uid[i] = '-';
				free(*pod);
				*pod = clean(uid, 36);
			}
		}
		if (!e)
			break;
		p = e + 1;
	}
}

/*
 * The cgroup of pid from /proc: v2's "0::PATH", else v1's cpu or systemd
 * line, whichever is not the root first. NULL: none.
 */
static char *read_cgroup(int pid)
{
	char path[64], line[4096], *best = NULL;
	int rank = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
		int r;

		if (!b)
			continue;
		/* "ID:CONTROLLERS:PATH"; cgroup v2's is "0::PATH" */
		b[strcspn(b, "\n")] = '\0';
		*a++ = '\0';
		*b++ = '\0';
		r = !strcmp(line, "0") && !*a ? 3 : strstr(a, "cpu") ? 2 :
		    !strcmp(a, "name=systemd") ? 1 : 0;
		/* on a hybrid host, containers are in v1's hierarchies, v2's is the root */
		if (strcmp(b, "/"))
			r += 10;
		if (r > rank) {
			free(best);
			best = clean(b, strlen(b));
			rank = r;
		}
	}
	fclose(f);
	return best;
}

static struct pinfo **pslot(struct collect *c, int pid)
{
	size_t i = ((size_t)(unsigned)pid * 0x9e3779b1u) & (c->pcap - 1);

	while (c->ptab[i] && c->ptab[i]->pid != pid)
		i = (i + 1) & (c->pcap - 1);
	return &c->ptab[i];
}

static void pput(struct collect *c, struct pinfo *p)
{
	if (2 * (c->pn + 1) > c->pcap) {
		struct pinfo **old = c->ptab;
		size_t n = c->pcap;

		c->pcap *= 2;
		c->ptab = xcalloc(c->pcap, sizeof(*c->ptab));
		for (size_t i = 0; i < n; i++)
			if (old[i])
				*pslot(c, old[i]->pid) = old[i];
		free(old);
	}
	*pslot(c, p->pid) = p;
	c->pn++;
}

/* Processes that labelled nothing in the last windows go; the table is made again. */
static void purge(struct collect *c, uint64_t k)
{
	struct pinfo **old = c->ptab;
	size_t n = c->pcap;

	c->ptab = xcalloc(c->pcap, sizeof(*c->ptab));
	c->pn = 0;
	for (size_t i = 0; i < n; i++) {
		if (!old[i])
			continue;
		if (old[i]->used + 2 < k) {
			pinfo_free(old[i]);
			continue;
		}
		*pslot(c, old[i]->pid) = old[i];
		c->pn++;
	}
	free(old);
}

/* p's cgroup cg (taken), and what it names, when it is another. */
static void set_cgroup(struct pinfo *p, char *cg)
{
	if (!cg || (p->cgroup && !strcmp(cg, p->cgroup))) {
		free(cg);
		return;
	}
	free(p->cgroup);
	free(p->container);
	free(p->pod);
	p->container = p->pod = NULL;
	p->cgroup = cg;
	container_of(p->cgroup, &p->container, &p->pod);
}

/*
 * p's cgroup as its sample s says it (the recorder's PERF_SAMPLE_CGROUP:
 * cgroup_samples()) where that is not the unified hierarchy's root, which
 * read_cgroup() would choose too. Else read from /proc (on a hybrid host a
 * v1 hierarchy's may say more) at the first sample and once a window (k)
 * after, since a process can be moved to another after it starts (systemd
 * puts a service's process in its cgroup just after the fork; cgclassify
 * at any time): on a host of 300 busy processes, 30 reads a second.
 */
static void cgroup_of(struct pinfo *p, const struct rsample *s, uint64_t k)
{
	if (s->cgroup && strcmp(s->cgroup, "/")) {
		if (p->cg_of != s->cgroup)
			set_cgroup(p, clean(s->cgroup, strlen(s->cgroup)));
		p->cg_of = s->cgroup;
	} else if (p->cg_k != k + 1) {
		p->cg_k = k + 1;
		set_cgroup(p, p->pid ? read_cgroup(p->pid) : NULL);
	}
}

/*
 * A thread's name as a label: the session names a thread it saw no COMM
 * of ":TID" (one that ran and exited in the moment the recorder started,
 * before it read /proc), and a label per tid would make a series of each;
 * such threads are "[unknown]", as a frame without a name is.
 */
static const char *known_name(const char *comm)
{
	const char *c = comm;

	if (c && *c == ':' && c[1]) {
		while (*++c >= '0' && *c <= '9')
			;
		if (!*c)
			return "[unknown]";
	}
	return comm && *comm ? comm : "[unknown]";
}

/*
 * What labels say of s's process, read at its first sample and again
 * after an exec; its cgroup as cgroup_of() says.
 */
static struct pinfo *pinfo_of(struct collect *c, const struct rsample *s, uint64_t k)
{
	struct pinfo *p = *pslot(c, (int)s->pid);

	if (p && p->exe == s->exe) {
		cgroup_of(p, s, k);
		return p;
	}
	if (p) {
		pinfo_clear(p);	/* an exec, or a new process at the pid: read again */
	} else {
		p = xcalloc(1, sizeof(*p));
		p->pid = (int)s->pid;
		pput(c, p);
	}
	p->exe = s->exe;
	if (s->exe && dso_path(s->exe)[0] == '/') {
		const char *path = dso_path(s->exe), *base = strrchr(path, '/') + 1;

		p->process = clean(base, strlen(base));
	} else {
		const char *name = known_name(s->comm);

		p->process = clean(name, strlen(name));
	}
	cgroup_of(p, s, k);
	return p;
}

/* The labels of s into l (pairs), as --sample-labels chose them: how many pairs. */
static int labels_of(struct collect *c, const struct rsample *s, struct pinfo *p, char *pidbuf,
		     const char **l)
{
	int n = 0;

	if (c->o.labels & LABEL_PID) {
		l[2 * n] = "pid";
		l[2 * n++ + 1] = pidbuf;
	}
	if (c->o.labels & LABEL_PROCESS) {
		l[2 * n] = "process";
		l[2 * n++ + 1] = p->process;
	}
	if (c->o.labels & LABEL_THREAD) {
		l[2 * n] = "thread";
		l[2 * n++ + 1] = known_name(s->comm);
	}
	if ((c->o.labels & LABEL_CONTAINER) && p->cgroup && strcmp(p->cgroup, "/")) {
		l[2 * n] = "cgroup";
		l[2 * n++ + 1] = p->cgroup;
		if (p->container) {
			l[2 * n] = "container_id";
			l[2 * n++ + 1] = p->container;
		}
		if (p->pod) {
			l[2 * n] = "pod_uid";
			l[2 * n++ + 1] = p->pod;
		}
	}
	return n;
}

/* --- spans -------------------------------------------------------------------- */

static void span_add(const struct collect *c, struct span *sp, const struct rsample *s,
		     const char *const *l, int nl)
{
	size_t i = 0;

	while (i < sp->nev && strcmp(sp->ev[i], s->ev->name))
		i++;
	if (i == sp->nev) {
		int clock = evkind_clock(s->ev->name);

		if (i == COLLECT_MAX_EVENTS)
			return;
		snprintf(sp->ev[i], sizeof(sp->ev[i]), "%s", s->ev->name);
		sp->pp[i] = pprof_new(sp->ev[i], clock ? 1 : format_time_event(s->ev) ? 2 : 0);
		pprof_kernel_names_only(sp->pp[i], !c->o.kernel_addresses);
		sp->nev++;
	}
	pprof_add(sp->pp[i], s, l, nl);
	sp->samples++;
}

/* Window k, made when new (after every window before it, in order). */
static struct span *window_k(struct collect *c, uint64_t k)
{
	struct span **pp = &c->spans, *sp;

	while (*pp && !(*pp)->scrape && (*pp)->k < k)
		pp = &(*pp)->next;
	if (*pp && !(*pp)->scrape && (*pp)->k == k)
		return *pp;
	sp = xcalloc(1, sizeof(*sp));
	sp->k = k;
	sp->start = (uint64_t)((int64_t)(k * c->o.window_ns) - c->off);
	sp->end = sp->start + c->o.window_ns;
	sp->next = *pp;
	*pp = sp;
	return sp;
}

static uint64_t k_of(const struct collect *c, uint64_t mono)
{
	return (uint64_t)((int64_t)mono + c->off) / c->o.window_ns;
}

static int cgroup_matches(const struct collect *c, const char *cg)
{
	for (size_t i = 0; cg && i < c->o.ncgroups; i++) {
		size_t n = strlen(c->o.cgroups[i]);

		while (n > 1 && c->o.cgroups[i][n - 1] == '/')
			n--;
		if (!strncmp(cg, c->o.cgroups[i], n) && (cg[n] == '\0' || cg[n] == '/' || n == 1))
			return 1;
		if (!fnmatch(c->o.cgroups[i], cg, 0))
			return 1;
	}
	return 0;
}

static int collect_filter(void *ctx, const struct rsample *s)
{
	struct collect *c = ctx;
	int keep = 1;

	pthread_mutex_lock(&c->mu);
	if (s->time > c->delivered)
		c->delivered = s->time;
	if (c->o.ncgroups)
		keep = cgroup_matches(c, pinfo_of(c, s, k_of(c, s->time))->cgroup);
	pthread_mutex_unlock(&c->mu);
	return keep;
}

/* Each event's state is the collect itself: a span keeps a pprof per event of its own. */
static void *collect_begin(void *ctx, const struct evdesc *ev)
{
	(void)ev;
	return ctx;
}

static void collect_end(void *state)
{
	(void)state;
}

static void collect_sample(void *state, const struct rsample *s)
{
	struct collect *c = state;
	const char *l[2 * 8];
	char pidbuf[16];
	struct pinfo *p;
	struct span *w;
	uint64_t k;
	int nl;

	pthread_mutex_lock(&c->mu);
	c->samples++;
	k = k_of(c, s->time);
	p = pinfo_of(c, s, k);
	p->used = k;
	snprintf(pidbuf, sizeof(pidbuf), "%u", s->pid);
	nl = labels_of(c, s, p, pidbuf, l);
	if (k < c->closed) {
		/* its window is gone: the oldest open one takes it */
		c->late++;
		k = c->closed;
	}
	w = window_k(c, k);
	span_add(c, w, s, l, nl);
	for (struct span *sp = c->spans; sp; sp = sp->next)
		if (sp->scrape && s->time >= sp->start && s->time < sp->end)
			span_add(c, sp, s, l, nl);
	pthread_mutex_unlock(&c->mu);
}

const struct profile_collector collect_collector = {
	.filter = collect_filter,
	.begin = collect_begin,
	.add = collect_sample,
	.free = collect_end,
};

static void encode_event(struct collect *c, struct span *sp, size_t i, uint64_t start_real,
			 uint64_t duration, struct window_event *we)
{
	int clock = evkind_clock(sp->ev[i]);
	struct pprof_window pw = {
		.time_ns = start_real,
		.duration_ns = duration,
		.period = clock ? c->o.period_ns : 0,
	};

	if (pprof_encode(sp->pp[i], &pw, &we->pprof, &we->len)) {
		we->pprof = NULL;
		we->len = 0;
		return;
	}
	if (c->o.otlp && pprof_encode_otlp(sp->pp[i], &pw, c->o.resource, c->o.nresource,
					   &we->otlp, &we->otlp_len)) {
		we->otlp = NULL;
		we->otlp_len = 0;
	}
}

void collect_tick(struct collect *c, uint64_t now, int flush,
		  void (*fn)(void *arg, const struct window *w), void *arg)
{
	uint64_t nowk = k_of(c, now);

	pthread_mutex_lock(&c->mu);
	if (!c->closed)
		c->closed = c->cur_k = k_of(c, (uint64_t)((int64_t)c->started - c->off));
	/* the window of now exists, samples or not */
	window_k(c, nowk);
	for (;;) {
		struct span *sp = c->spans;
		struct window *w;
		uint64_t start_real, end_real;

		if (!sp || sp->scrape)
			break;
		if (!flush && close_in(c, sp, now)) {
			await(c, sp->end, now);
			break;
		}
		c->spans = sp->next;
		c->closed = sp->k + 1;
		w = xcalloc(1, sizeof(*w));
		start_real = sp->k * c->o.window_ns;
		if (start_real < c->started)
			start_real = c->started;	/* the agent's first window begins with it */
		end_real = (sp->k + 1) * c->o.window_ns;
		if (flush && (uint64_t)((int64_t)now + c->off) < end_real)
			end_real = (uint64_t)((int64_t)now + c->off);
		if (end_real < start_real)
			end_real = start_real;
		w->start_ns = start_real;
		w->end_ns = end_real;
		w->seq = c->seq++;
		for (size_t i = 0; i < sp->nev; i++) {
			struct window_event *we = &w->ev[w->nev];

			snprintf(we->event, sizeof(we->event), "%s", sp->ev[i]);
			we->samples = pprof_count(sp->pp[i], NULL);
			encode_event(c, sp, i, start_real, end_real - start_real, we);
			if (we->pprof)
				w->nev++;
		}
		c->windows++;
		c->empty += !w->nev;
		span_free(sp);
		purge(c, c->closed);
		/* fn sends and writes files: not under the lock */
		pthread_mutex_unlock(&c->mu);
		fn(arg, w);
		for (size_t i = 0; i < w->nev; i++) {
			free(w->ev[i].pprof);
			free(w->ev[i].otlp);
		}
		free(w);
		pthread_mutex_lock(&c->mu);
		if (flush && !c->spans)
			break;
	}
	pthread_mutex_unlock(&c->mu);
}

uint64_t collect_delivered(struct collect *c)
{
	uint64_t d;

	pthread_mutex_lock(&c->mu);
	d = c->delivered;
	pthread_mutex_unlock(&c->mu);
	return d;
}

uint64_t collect_due(struct collect *c, uint64_t now)
{
	uint64_t next, due;
	struct span *sp;

	pthread_mutex_lock(&c->mu);
	/* the next window's start, where collect_tick() opens it */
	next = (uint64_t)((int64_t)((k_of(c, now) + 1) * c->o.window_ns) - c->off);
	due = next > now ? next - now : 0;
	sp = c->spans;
	if (sp && !sp->scrape) {
		uint64_t w = close_in(c, sp, now);

		due = w < due ? w : due;
	}
	pthread_mutex_unlock(&c->mu);
	return due;
}

struct span *collect_scrape_start(struct collect *c, double seconds, int max)
{
	struct span *sp, **pp;
	uint64_t now = mono_ns();

	pthread_mutex_lock(&c->mu);
	if (c->nscrapes >= max) {
		pthread_mutex_unlock(&c->mu);
		return NULL;
	}
	sp = xcalloc(1, sizeof(*sp));
	sp->scrape = 1;
	sp->start = now;
	sp->end = now + (uint64_t)(seconds * 1e9);
	c->nscrapes++;
	c->scrapes++;
	for (pp = &c->spans; *pp; pp = &(*pp)->next)
		;
	*pp = sp;
	pthread_mutex_unlock(&c->mu);
	return sp;
}

/* Take sp out of the spans. Under c->mu. */
static void scrape_unlink(struct collect *c, struct span *sp)
{
	struct span **pp;

	for (pp = &c->spans; *pp != sp; pp = &(*pp)->next)
		;
	*pp = sp->next;
	c->nscrapes--;
}

int collect_scrape_poll(struct collect *c, struct span *sp, unsigned char **data, size_t *len)
{
	size_t pick = 0;
	int ret = 1;

	pthread_mutex_lock(&c->mu);
	/* until the samples of its end are in, or a grace after it at most */
	if (c->delivered < sp->end && mono_ns() < sp->end + c->o.grace_ns) {
		await(c, sp->end, mono_ns());
		pthread_mutex_unlock(&c->mu);
		return 0;
	}
	scrape_unlink(c, sp);
	/* CPU time: the clock event, as Go's /debug/pprof/profile is */
	for (size_t i = 0; i < sp->nev; i++)
		if (evkind_clock(sp->ev[i])) {
			pick = i;
			break;
		}
	if (!sp->nev) {
		snprintf(sp->ev[0], sizeof(sp->ev[0]), "cpu-clock");
		sp->pp[0] = pprof_new(sp->ev[0], 1);
		sp->nev = 1;
	}
	{
		struct pprof_window pw = {
			.time_ns = (uint64_t)((int64_t)sp->start + c->off),
			.duration_ns = sp->end - sp->start,
			.period = c->o.period_ns,
		};

		if (pprof_encode(sp->pp[pick], &pw, data, len))
			ret = -ENOMEM;
	}
	pthread_mutex_unlock(&c->mu);
	span_free(sp);
	return ret;
}

void collect_scrape_cancel(struct collect *c, struct span *sp)
{
	pthread_mutex_lock(&c->mu);
	scrape_unlink(c, sp);
	pthread_mutex_unlock(&c->mu);
	span_free(sp);
}

void collect_stats(struct collect *c, struct collect_stats *st)
{
	pthread_mutex_lock(&c->mu);
	st->samples = c->samples;
	st->late = c->late;
	st->windows = c->windows;
	st->empty = c->empty;
	st->scrapes = c->scrapes;
	pthread_mutex_unlock(&c->mu);
}
