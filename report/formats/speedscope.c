// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format speedscope: the profile as speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json; the types are
 * src/lib/file-format-spec.ts in jlfwong/speedscope). One "sampled"
 * profile per event and thread, its samples in time order, each a stack
 * of indices into one shared frame table, root first, weighed by its
 * period: nanoseconds for the clocks and off-CPU time, else a count.
 * Names are resolved here, so the file reads the same on any machine.
 *
 * Consecutive samples of a thread with the same stack are one sample of
 * their summed weight, which is what speedscope makes of them anyway: its
 * time order view merges them the same way.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "htab.h"
#include "json.h"
#include "strpool.h"
#include "symbols.h"
#include "xalloc.h"

struct sframe {
	const char *name;	/* interned (the symbolizer's, or pool's) */
	unsigned flags;		/* FRAME_* */
	const struct dso *dso;
};

/* A stack: its innermost frame on the stack of its caller (0: the root). */
struct snode {
	uint32_t parent, frame;
};

struct sthread {
	int pid, tid;
	const char *comm;
	uint32_t *stack;	/* per sample, in time order: its stack (a node) */
	uint64_t *weight;
	size_t n, cap;
	uint64_t total;
};

struct scollect {
	const struct evdesc *ev;
	struct strpool *pool;	/* names of frames with no symbol */
	struct sframe *frame;
	size_t nframe, cap_frame;
	struct htab ftab;
	struct snode *node;	/* node[0] is the root */
	size_t nnode, cap_node;
	struct htab ntab;
	struct sthread *thread;
	size_t nthread, cap_thread;
	struct htab ttab;
};

static uint32_t frame_of(struct scollect *c, const struct rframe *f)
{
	struct sframe x;
	struct htab_probe p;
	uint32_t i;
	uint64_t w[3];

	x.name = frame_name(c->pool, f, 0, &x.flags);
	x.dso = f->dso;
	w[0] = (uint64_t)(uintptr_t)x.name;
	w[1] = x.flags;
	w[2] = (uint64_t)(uintptr_t)x.dso;
	htab_probe(&c->ftab, htab_hash_words(w, 3), &p);
	while (htab_next(&c->ftab, &p, &i))
		if (c->frame[i].name == x.name && c->frame[i].flags == x.flags &&
		    c->frame[i].dso == x.dso)
			return i;
	c->frame = xgrow(c->frame, &c->cap_frame, c->nframe + 1, sizeof(*c->frame));
	c->frame[c->nframe] = x;
	htab_put(&c->ftab, &p, (uint32_t)c->nframe);
	return (uint32_t)c->nframe++;
}

static uint32_t node_of(struct scollect *c, uint32_t parent, uint32_t frame)
{
	struct htab_probe p;
	uint32_t i;
	uint64_t w[2] = { parent, frame };

	htab_probe(&c->ntab, htab_hash_words(w, 2), &p);
	while (htab_next(&c->ntab, &p, &i))
		if (c->node[i].parent == parent && c->node[i].frame == frame)
			return i;
	c->node = xgrow(c->node, &c->cap_node, c->nnode + 1, sizeof(*c->node));
	c->node[c->nnode].parent = parent;
	c->node[c->nnode].frame = frame;
	htab_put(&c->ntab, &p, (uint32_t)c->nnode);
	return (uint32_t)c->nnode++;
}

static struct sthread *thread_of(struct scollect *c, const struct rsample *s)
{
	struct htab_probe p;
	uint32_t i;
	uint64_t key = (uint64_t)s->pid << 32 | s->tid;

	htab_probe(&c->ttab, key, &p);
	while (htab_next(&c->ttab, &p, &i))
		if (c->thread[i].pid == (int)s->pid && c->thread[i].tid == (int)s->tid)
			return &c->thread[i];
	c->thread = xgrow(c->thread, &c->cap_thread, c->nthread + 1, sizeof(*c->thread));
	memset(&c->thread[c->nthread], 0, sizeof(*c->thread));
	c->thread[c->nthread].pid = (int)s->pid;
	c->thread[c->nthread].tid = (int)s->tid;
	c->thread[c->nthread].comm = s->comm;
	htab_put(&c->ttab, &p, (uint32_t)c->nthread);
	return &c->thread[c->nthread++];
}

static void *collect_begin(void *ctx, const struct evdesc *ev)
{
	struct scollect *c = xcalloc(1, sizeof(*c));

	(void)ctx;
	c->ev = ev;
	c->pool = strpool_new();
	c->nnode = 1;
	c->cap_node = 16;	/* small, growing: a file may hold thousands of events */
	c->node = xcalloc(c->cap_node, sizeof(*c->node));
	htab_init(&c->ftab);
	htab_init(&c->ntab);
	htab_init(&c->ttab);
	return c;
}

static void collect_add(void *state, const struct rsample *s)
{
	struct scollect *c = state;
	struct sthread *t;
	uint32_t at = 0;

	if (!s->period)
		return;		/* speedscope ignores what weighs nothing */
	for (int i = s->nframes - 1; i >= 0; i--)
		at = node_of(c, at, frame_of(c, &s->frames[i]));
	if (!at)
		return;		/* no frame: nothing to show */
	t = thread_of(c, s);
	t->comm = s->comm;	/* the thread is named as it was last: after its exec */
	if (t->n && t->stack[t->n - 1] == at) {
		t->weight[t->n - 1] += s->period;
	} else {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->stack = xreallocarray(t->stack, t->cap, sizeof(*t->stack));
			t->weight = xreallocarray(t->weight, t->cap, sizeof(*t->weight));
		}
		t->stack[t->n] = at;
		t->weight[t->n++] = s->period;
	}
	t->total += s->period;
}

static void collect_free(void *state)
{
	struct scollect *c = state;

	if (!c)
		return;
	for (size_t i = 0; i < c->nthread; i++) {
		free(c->thread[i].stack);
		free(c->thread[i].weight);
	}
	free(c->thread);
	free(c->frame);
	free(c->node);
	htab_release(&c->ftab);
	htab_release(&c->ntab);
	htab_release(&c->ttab);
	strpool_free(c->pool);
	free(c);
}

static const struct profile_collector collector = {
	.begin = collect_begin,
	.add = collect_add,
	.free = collect_free,
};

/* --- the file ---------------------------------------------------------------- */

/*
 * The frames of every event as one table, each written once: an event's
 * frame i is map[e][i] in it. Names are compared as text: those of
 * frames with no symbol are each event's own.
 */
static uint32_t **put_frames(struct scollect *const *c, size_t n, FILE *out)
{
	uint32_t **map = xcalloc(n + 1, sizeof(*map));
	const struct sframe **all = NULL;
	size_t nall = 0, cap = 0;
	struct htab tab;

	htab_init(&tab);
	fputs("\"shared\":{\"frames\":[", out);
	for (size_t e = 0; e < n; e++) {
		map[e] = xreallocarray(NULL, c[e]->nframe + 1, sizeof(**map));
		for (size_t i = 0; i < c[e]->nframe; i++) {
			const struct sframe *f = &c[e]->frame[i];
			uint64_t w[3] = { htab_hash_bytes(f->name, strlen(f->name)), f->flags,
					  (uint64_t)(uintptr_t)f->dso };
			struct htab_probe p;
			uint32_t j;
			int found = 0;

			htab_probe(&tab, htab_hash_words(w, 3), &p);
			while (!found && htab_next(&tab, &p, &j))
				found = all[j]->flags == f->flags && all[j]->dso == f->dso &&
					!strcmp(all[j]->name, f->name);
			if (found) {
				map[e][i] = j;
				continue;
			}
			all = xgrow(all, &cap, nall + 1, sizeof(*all));
			all[nall] = f;
			htab_put(&tab, &p, (uint32_t)nall);
			map[e][i] = (uint32_t)nall;
			fputs(nall++ ? ",\n{\"name\":" : "\n{\"name\":", out);
			if (f->flags & FRAME_INLINED) {
				size_t len = strlen(f->name) + sizeof(" (inlined)");
				char *name = xmalloc(len);

				snprintf(name, len, "%s (inlined)", f->name);
				json_put_string(out, name);
				free(name);
			} else {
				json_put_string(out, f->name);
			}
			if (f->dso) {
				fputs(",\"file\":", out);
				json_put_string(out, dso_path(f->dso));
			}
			putc('}', out);
		}
	}
	fputs("]},\n", out);
	free(all);
	htab_release(&tab);
	return map;
}

static void put_thread(const struct scollect *c, const struct sthread *t, const uint32_t *map,
		       uint32_t *path, FILE *out)
{
	int nsec = format_time_event(c->ev) || !strcmp(c->ev->name, "cpu-clock") ||
		   !strcmp(c->ev->name, "task-clock");
	char name[512];

	snprintf(name, sizeof(name), "%s %d/%d (%s)", t->comm ? t->comm : "?", t->pid, t->tid,
		 c->ev->name);
	fputs("{\"type\":\"sampled\",\"name\":", out);
	json_put_string(out, name);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		nsec ? "nanoseconds" : "none", t->total);
	for (size_t i = 0; i < t->n; i++) {
		size_t depth = 0;

		for (uint32_t at = t->stack[i]; at; at = c->node[at].parent)
			path[depth++] = c->node[at].frame;
		fputs(i ? ",[" : "[", out);
		while (depth--)
			fprintf(out, "%" PRIu32 "%s", map[path[depth]], depth ? "," : "");
		putc(']', out);
		if (i % 32 == 31)
			putc('\n', out);
	}
	fputs("],\n\"weights\":[", out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(out, "%s%" PRIu64 "%s", i ? "," : "", t->weight[i], i % 32 == 31 ? "\n" : "");
	fputs("]}", out);
}

/* Threads with the most weight first, then by pid and tid. */
static int thread_cmp(const void *a, const void *b)
{
	const struct sthread *x = *(const struct sthread *const *)a;
	const struct sthread *y = *(const struct sthread *const *)b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int write_speedscope(const struct profile *p, const struct format_view *v, FILE *out)
{
	struct scollect **c = xcalloc(p->nev + 1, sizeof(*c));
	size_t n = 0, profiles = 0;
	uint32_t **map;

	(void)v;
	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].hist && p->ev[i].collected &&
		    ((struct scollect *)p->ev[i].collected)->nthread)
			c[n++] = p->ev[i].collected;
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n", out);
	fputs("\"exporter\":\"prof " PACKAGE_VERSION "\",\"name\":", out);
	json_put_string(out, p->input);
	/* the first event's busiest thread: threads are sorted so, and it comes first */
	fputs(",\"activeProfileIndex\":0,\n", out);
	map = put_frames(c, n, out);
	fputs("\"profiles\":[", out);
	for (size_t e = 0; e < n; e++) {
		/* sorted through pointers: the collection may be fed on after a snapshot */
		const struct sthread **t = xreallocarray(NULL, c[e]->nthread, sizeof(*t));
		uint32_t *path = xreallocarray(NULL, c[e]->nnode, sizeof(*path));

		for (size_t i = 0; i < c[e]->nthread; i++)
			t[i] = &c[e]->thread[i];
		qsort(t, c[e]->nthread, sizeof(*t), thread_cmp);
		for (size_t i = 0; i < c[e]->nthread; i++) {
			if (profiles++)
				fputs(",\n", out);
			put_thread(c[e], t[i], map[e], path, out);
		}
		free(path);
		free(t);
		free(map[e]);
	}
	fputs("]}\n", out);
	free(map);
	free(c);
	return ferror(out) ? -EIO : 0;
}

const struct format format_speedscope = {
	.name = "speedscope",
	.help = "each thread's samples in time order, for speedscope",
	.needs = FORMAT_CHAINS | FORMAT_ORDERED,
	.collector = &collector,
	.write = write_speedscope,
};
