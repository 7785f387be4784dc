// SPDX-License-Identifier: GPL-2.0-or-later
/* Each thread's samples in time order (tsamples.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tsamples.h"
#include "xalloc.h"

static uint32_t frame_of(struct tsamples *c, const struct rframe *f, unsigned depth)
{
	struct ts_frame x = { 0 };
	struct htab_probe p;
	uint32_t i;
	uint64_t w[5];

	x.name = frame_name(c->pool, f, 0, &x.flags);
	x.dso = f->dso;
	if (c->by_addr) {
		x.addr = f->addr;
		x.sym_offset = f->name ? f->sym_offset : 0;
		x.file = f->file;
		x.line = f->line;
		x.depth = depth;
	}
	w[0] = (uint64_t)(uintptr_t)x.name;
	w[1] = x.flags;
	w[2] = (uint64_t)(uintptr_t)x.dso;
	w[3] = x.addr;
	w[4] = x.depth;
	htab_probe(&c->ftab, htab_hash_words(w, c->by_addr ? 5 : 3), &p);
	while (htab_next(&c->ftab, &p, &i))
		if (c->frame[i].name == x.name && c->frame[i].flags == x.flags &&
		    c->frame[i].dso == x.dso && c->frame[i].addr == x.addr &&
		    c->frame[i].depth == x.depth)
			return i;
	c->frame = xgrow(c->frame, &c->cap_frame, c->nframe + 1, sizeof(*c->frame));
	c->frame[c->nframe] = x;
	htab_put(&c->ftab, &p, (uint32_t)c->nframe);
	return (uint32_t)c->nframe++;
}

static uint32_t node_of(struct tsamples *c, uint32_t parent, uint32_t frame)
{
	uint64_t key = (uint64_t)parent << 32 | frame;
	uint32_t i;

	if (u64map_get(&c->ntab, key, &i))
		return i;
	c->node = xgrow(c->node, &c->cap_node, c->nnode + 1, sizeof(*c->node));
	c->node[c->nnode].parent = parent;
	c->node[c->nnode].frame = frame;
	u64map_add(&c->ntab, key, (uint32_t)c->nnode);
	return (uint32_t)c->nnode++;
}

static uint32_t line_of(struct tsamples *c, const struct rframe *f)
{
	struct htab_probe p;
	uint64_t w[2];
	uint32_t i;

	if (!f->file || f->line <= 0)
		return 0;
	w[0] = (uint64_t)(uintptr_t)f->file;
	w[1] = (uint64_t)f->line;
	htab_probe(&c->ltab, htab_hash_words(w, 2), &p);
	while (htab_next(&c->ltab, &p, &i))
		if (c->line[i].file == f->file && c->line[i].line == f->line)
			return i;
	c->line = xgrow(c->line, &c->cap_line, c->nline + 1, sizeof(*c->line));
	c->line[c->nline].file = f->file;
	c->line[c->nline].line = f->line;
	/* a file's lines come together: its owner looked up once for them (a stat) */
	if (f->dso != c->owner_dso) {
		c->owner_dso = f->dso;
		c->owner = f->dso ? dso_owner(f->dso) : (uid_t)-1;
	}
	c->line[c->nline].owner = c->owner;
	htab_put(&c->ltab, &p, (uint32_t)c->nline);
	return (uint32_t)c->nline++;
}

static struct ts_thread *thread_of(struct tsamples *c, const struct rsample *s)
{
	uint64_t key = (uint64_t)s->pid << 32 | s->tid;
	uint32_t i;
	struct htab_probe p = { 0 };

	/*
	 * full: a thread is also its command, as prof report's comm key has
	 * it, so that a thread that execs is two, before and after
	 */
	if (c->full) {
		uint64_t w[2] = { key, (uint64_t)(uintptr_t)s->comm };

		htab_probe(&c->ctab, htab_hash_words(w, 2), &p);
		while (htab_next(&c->ctab, &p, &i))
			if (c->thread[i].pid == (int)s->pid && c->thread[i].tid == (int)s->tid &&
			    c->thread[i].comm == s->comm)
				return &c->thread[i];
	} else if (u64map_get(&c->ttab, key, &i)) {
		return &c->thread[i];
	}
	c->thread = xgrow(c->thread, &c->cap_thread, c->nthread + 1, sizeof(*c->thread));
	memset(&c->thread[c->nthread], 0, sizeof(*c->thread));
	c->thread[c->nthread].pid = (int)s->pid;
	c->thread[c->nthread].tid = (int)s->tid;
	c->thread[c->nthread].comm = s->comm;
	if (c->full)
		htab_put(&c->ctab, &p, (uint32_t)c->nthread);
	else
		u64map_add(&c->ttab, key, (uint32_t)c->nthread);
	return &c->thread[c->nthread++];
}

static void *begin(const struct evdesc *ev, int merge, int full)
{
	struct tsamples *c = xcalloc(1, sizeof(*c));

	c->ev = ev;
	c->merge = merge;
	c->full = full;
	c->stride = 1;
	c->next_thin = TS_MAX_KEPT;
	c->owner = (uid_t)-1;
	c->nline = 1;
	if (full)
		c->leaves = addrs_new();
	htab_init(&c->ltab);
	htab_init(&c->ctab);
	c->pool = strpool_new();
	c->nnode = 1;
	c->cap_node = 16;	/* small, growing: a file may hold thousands of events */
	c->node = xcalloc(c->cap_node, sizeof(*c->node));
	htab_init(&c->ftab);
	u64map_init(&c->ntab);
	u64map_init(&c->ttab);
	return c;
}

/*
 * Keep half: each thread's samples in pairs, the first kept, weighing
 * both; what comes next keeps 1 in the doubled stride. Totals stay exact.
 */
static void thin(struct tsamples *c)
{
	if (c->stride < (1u << 30))
		c->stride *= 2;
	c->kept = 0;
	for (size_t k = 0; k < c->nthread; k++) {
		struct ts_thread *t = &c->thread[k];
		size_t j = 0;

		for (size_t i = 0; i < t->n; i += 2, j++) {
			t->stack[j] = t->stack[i];
			t->time[j] = t->time[i];
			t->weight[j] = t->weight[i] + (i + 1 < t->n ? t->weight[i + 1] : 0);
			if (c->full) {
				t->cpu[j] = t->cpu[i];
				t->line[j] = t->line[i];
				t->par[j] = t->par[i];
				t->insn[j] = t->insn[i];
			}
		}
		t->n = j;
		c->kept += j;
	}
	/*
	 * A thread keeps one sample at least: with more threads than the
	 * budget, thinning again would gain nothing, so the next is put off
	 * until there are twice as many kept (never once per sample).
	 */
	c->next_thin = c->kept > TS_MAX_KEPT / 2 ? 2 * c->kept : TS_MAX_KEPT;
}

int tsamples_say_thinned(struct tsamples *const *c, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (c[i]->stride > 1) {
			fprintf(stderr, "prof: warning: %s: %s has %llu samples, more than %s keeps one "
				"by one (%zu): each thread keeps 1 in %u, weighing those it stands for; "
				"totals are exact, the sequence coarser (--time or --pid shows all of a part)\n",
				what, c[i]->ev->name, (unsigned long long)c[i]->seen, what, TS_MAX_KEPT,
				c[i]->stride);
			return 1;
		}
	return 0;
}

static void collect_add(void *state, const struct rsample *s)
{
	struct tsamples *c = state;
	struct ts_thread *t;
	uint32_t at = 0;
	unsigned depth = 0;

	if (!s->period)
		return;		/* what weighs nothing shows nowhere */
	for (int i = s->nframes - 1; i >= 0; i--) {
		/* frames[i] inlined: into frames[i + 1], at the same address */
		depth = i < s->nframes - 1 && s->frames[i].inlined ? depth + 1 : 0;
		/* a run of a file's unnamed frames: one "??" (by address: each its own) */
		if (!c->by_addr && i < s->nframes - 1 && frame_run(&s->frames[i], &s->frames[i + 1]))
			continue;
		at = node_of(c, at, frame_of(c, &s->frames[i], depth));
	}
	if (!at)
		return;		/* no frame: nothing to show */
	t = thread_of(c, s);
	t->comm = s->comm;	/* the thread is named as it was last: after its exec (full: it is) */
	c->seen++;
	if (c->merge && t->n && t->stack[t->n - 1] == at) {
		t->weight[t->n - 1] += s->period;
	} else if (t->skip && t->n) {
		t->skip--;	/* thinned: this one's weight goes to the one kept before it */
		t->weight[t->n - 1] += s->period;
	} else {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 4;
			t->stack = xreallocarray(t->stack, t->cap, sizeof(*t->stack));
			t->weight = xreallocarray(t->weight, t->cap, sizeof(*t->weight));
			t->time = xreallocarray(t->time, t->cap, sizeof(*t->time));
			if (c->full) {
				t->cpu = xreallocarray(t->cpu, t->cap, sizeof(*t->cpu));
				t->line = xreallocarray(t->line, t->cap, sizeof(*t->line));
				t->par = xreallocarray(t->par, t->cap, sizeof(*t->par));
				t->insn = xreallocarray(t->insn, t->cap, sizeof(*t->insn));
			}
		}
		if (c->full) {
			t->cpu[t->n] = s->cpu;
			t->line[t->n] = line_of(c, &s->frames[0]);
			t->par[t->n] = s->parallelism;
			t->insn[t->n] = (uint32_t)addrs_add_leaf(c->leaves, s);
		}
		t->stack[t->n] = at;
		t->time[t->n] = s->time;
		t->weight[t->n++] = s->period;
		t->skip = c->stride > 1 ? c->stride - 1 : 0;
		if (++c->kept > c->next_thin)
			thin(c);
	}
	t->total += s->period;
}

static void collect_free(void *state)
{
	struct tsamples *c = state;

	if (!c)
		return;
	for (size_t i = 0; i < c->nthread; i++) {
		free(c->thread[i].stack);
		free(c->thread[i].weight);
		free(c->thread[i].time);
		free(c->thread[i].cpu);
		free(c->thread[i].line);
		free(c->thread[i].par);
		free(c->thread[i].insn);
	}
	addrs_free(c->leaves);
	free(c->line);
	htab_release(&c->ltab);
	htab_release(&c->ctab);
	free(c->thread);
	free(c->frame);
	free(c->node);
	htab_release(&c->ftab);
	u64map_release(&c->ntab);
	u64map_release(&c->ttab);
	strpool_free(c->pool);
	free(c);
}

static void *begin_each(void *ctx, const struct evdesc *ev)
{
	(void)ctx;
	return begin(ev, 0, 0);
}

static void *begin_merged(void *ctx, const struct evdesc *ev)
{
	(void)ctx;
	return begin(ev, 1, 0);
}

static void *begin_full(void *ctx, const struct evdesc *ev)
{
	(void)ctx;
	return begin(ev, 0, 1);
}

static void *begin_addr(void *ctx, const struct evdesc *ev)
{
	struct tsamples *c = begin(ev, 0, 0);

	(void)ctx;
	c->by_addr = 1;
	return c;
}

const struct profile_collector tsamples_each = {
	.begin = begin_each,
	.add = collect_add,
	.free = collect_free,
};

const struct profile_collector tsamples_merged = {
	.begin = begin_merged,
	.add = collect_add,
	.free = collect_free,
};

const struct profile_collector tsamples_full = {
	.begin = begin_full,
	.add = collect_add,
	.free = collect_free,
};

const struct profile_collector tsamples_addr = {
	.begin = begin_addr,
	.add = collect_add,
	.free = collect_free,
};

void ts_libs_init(struct ts_libs *l)
{
	memset(l, 0, sizeof(*l));
	u64map_init(&l->index);
}

uint32_t ts_libs_id(struct ts_libs *l, const struct dso *d)
{
	uint32_t i;

	if (u64map_get(&l->index, (uint64_t)(uintptr_t)d, &i))
		return i;
	l->dso = xgrow(l->dso, &l->cap, l->n + 1, sizeof(*l->dso));
	l->dso[l->n] = d;
	u64map_add(&l->index, (uint64_t)(uintptr_t)d, (uint32_t)l->n);
	return (uint32_t)l->n++;
}

void ts_libs_release(struct ts_libs *l)
{
	free(l->dso);
	u64map_release(&l->index);
}

struct tsamples **tsamples_of(const struct profile *p, size_t *n)
{
	struct tsamples **c = xcalloc(p->nev + 1, sizeof(*c));

	*n = 0;
	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].hist && p->ev[i].collected &&
		    ((struct tsamples *)p->ev[i].collected)->nthread)
			c[(*n)++] = p->ev[i].collected;
	return c;
}

/* Threads with the most weight first, then by pid and tid. */
static int thread_cmp(const void *a, const void *b)
{
	const struct ts_thread *x = *(const struct ts_thread *const *)a;
	const struct ts_thread *y = *(const struct ts_thread *const *)b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

const struct ts_thread **tsamples_threads(const struct tsamples *c)
{
	/* sorted through pointers: the collection may be fed on after a snapshot */
	const struct ts_thread **t = xreallocarray(NULL, c->nthread + 1, sizeof(*t));

	for (size_t i = 0; i < c->nthread; i++)
		t[i] = &c->thread[i];
	qsort(t, c->nthread, sizeof(*t), thread_cmp);
	return t;
}

int tsamples_in_ns(const struct tsamples *c)
{
	return evkind_ns(c->ev->name, c->ev->attr.config);
}

