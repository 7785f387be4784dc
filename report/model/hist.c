// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Aggregation. Every text is interned, so an entry's key is a tuple of
 * pointers and hashes as bytes; tree nodes are found by (parent, name) in
 * one table, so inserting a stack costs one lookup per frame.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "strpool.h"
#include "symbols.h"
#include "xalloc.h"

struct text_cache {
	const char *name;	/* interned by the symbolizer */
	unsigned flags;
	const char *text;
};

/*
 * Open addressing, grown at half full: a deep interpreter profile meets
 * thousands of functions per tree walk, and a direct-mapped cache missed
 * often enough that formatting was 7% of a dwarf report.
 */

/*
 * The entry of a named frame, by what its key texts depend on when the
 * keys are comm, dso and sym: a hit skips formatting and hashing them.
 */
struct entry_memo {
	const char *comm, *name;
	const struct dso *dso;
	unsigned flags;
	struct hist_entry *e;
};

#define ENTRY_MEMO 256
#define PATH_MEMO 256
/*
 * The memos are made once a hist has this many samples: they pay on hot
 * loops, and a file may hold thousands of events of a sample or two,
 * each of which must cost what it holds.
 */
#define MEMO_AFTER 64

struct hist {
	struct hist_opts o;
	struct strpool *pool;
	struct text_cache *tc;
	size_t ntc, ntc_used;
	struct entry_memo *memo;	/* ENTRY_MEMO of them, from MEMO_AFTER samples on */
	int memo_ok;			/* the keys are among comm, dso, sym */
	struct hist_entry **ents;	/* table, open addressing */
	size_t nslots, nents;
	struct hist_entry **sorted;
	struct hist_node *nodes;
	size_t nnodes, cap_nodes;
	size_t *ntab;			/* (parent, name) -> node, open addressing */
	size_t nntab;
	size_t root;
	/* the last path added: consecutive samples share most of theirs */
	size_t path_start;
	int path_len, path_cap;		/* path_cap: 0, then PATH_MEMO */
	const char **path_text;
	size_t *path_node;
	uint64_t total, samples;
	int sorted_ok;
};

struct hist *hist_new(const struct hist_opts *o)
{
	struct hist *h = xcalloc(1, sizeof(*h));

	h->o = *o;
	h->memo_ok = 1;
	for (int k = 0; k < o->nkeys; k++)
		if (o->keys[k] != HIST_COMM && o->keys[k] != HIST_DSO && o->keys[k] != HIST_SYM)
			h->memo_ok = 0;
	h->pool = strpool_new();
	/* all tables start small and double: a file may hold thousands of events */
	h->ntc = 64;
	h->tc = xcalloc(h->ntc, sizeof(*h->tc));
	h->nslots = 16;
	h->ents = xcalloc(h->nslots, sizeof(*h->ents));
	h->cap_nodes = 16;
	h->nodes = xcalloc(h->cap_nodes, sizeof(*h->nodes));
	h->nnodes = 1;			/* node 0 means "none" */
	h->nntab = 32;
	h->ntab = xcalloc(h->nntab, sizeof(*h->ntab));
	return h;
}

void hist_free(struct hist *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nslots; i++)
		free(h->ents[i]);
	free(h->ents);
	free(h->sorted);
	free(h->nodes);
	free(h->ntab);
	free(h->memo);
	free(h->path_text);
	free(h->path_node);
	free(h->tc);
	strpool_free(h->pool);
	free(h);
}

static size_t tc_slot(const struct text_cache *tc, size_t n, const char *name, unsigned flags)
{
	size_t i = (size_t)(((uintptr_t)name * 0x9e3779b97f4a7c15ULL) >> 32 ^ flags) & (n - 1);

	while (tc[i].name && (tc[i].name != name || tc[i].flags != flags))
		i = (i + 1) & (n - 1);
	return i;
}

static void tc_grow(struct hist *h)
{
	struct text_cache *old = h->tc;
	size_t n = h->ntc;

	h->ntc *= 2;
	h->tc = xcalloc(h->ntc, sizeof(*h->tc));
	for (size_t i = 0; i < n; i++)
		if (old[i].name)
			h->tc[tc_slot(h->tc, h->ntc, old[i].name, old[i].flags)] = old[i];
	free(old);
}

const char *hist_frame_text(struct hist *h, const struct rframe *f)
{
	char buf[1024];
	unsigned flags = f->kernel | f->inlined << 1;
	struct text_cache *c = NULL;

	/* Named frames are the common case: their text depends on the name only. */
	if (f->name) {
		if ((h->ntc_used + 1) * 2 > h->ntc)
			tc_grow(h);
		c = &h->tc[tc_slot(h->tc, h->ntc, f->name, flags)];
		if (c->name)
			return c->text;
		h->ntc_used++;
	}
	if (f->name)
		snprintf(buf, sizeof(buf), "[%c] %s%s", f->kernel ? 'k' : '.', f->name,
			 f->inlined ? " (inlined)" : "");
	else if (f->dso && dso_unknown(f->dso))
		snprintf(buf, sizeof(buf), "[%c] [unknown]", f->kernel ? 'k' : '.');
	else if (f->dso)
		snprintf(buf, sizeof(buf), "[%c] %s+0x%llx", f->kernel ? 'k' : '.',
			 dso_short_name(f->dso), (unsigned long long)f->addr);
	else
		snprintf(buf, sizeof(buf), "[%c] 0x%llx", f->kernel ? 'k' : '.',
			 (unsigned long long)f->addr);
	if (c) {
		c->name = f->name;
		c->flags = flags;
		return c->text = strpool_intern(h->pool, buf);
	}
	return strpool_intern(h->pool, buf);
}

static const char *key_text(struct hist *h, enum hist_key k, const struct rsample *s,
			    const struct rframe *f)
{
	char buf[1024];

	switch (k) {
	case HIST_COMM:
		return s->comm;
	case HIST_PID:
		snprintf(buf, sizeof(buf), "%u", s->pid);
		break;
	case HIST_TID:
		snprintf(buf, sizeof(buf), "%u", s->tid);
		break;
	case HIST_CPU:
		snprintf(buf, sizeof(buf), "%u", s->cpu);
		break;
	case HIST_DSO:
		return f->dso ? dso_short_name(f->dso) : "[unknown]";
	case HIST_SYM:
		return hist_frame_text(h, f);
	case HIST_SRCLINE:
		/* As perf shows it: the file's base name, or symbol+offset. */
		if (f->file && f->line) {
			const char *base = strrchr(f->file, '/');

			snprintf(buf, sizeof(buf), "%s:%d", base ? base + 1 : f->file, f->line);
		} else if (f->name && !f->inlined) {
			snprintf(buf, sizeof(buf), "%s+%llu", f->name,
				 (unsigned long long)f->sym_offset);
		} else if (f->dso) {
			snprintf(buf, sizeof(buf), "%s+0x%llx", dso_short_name(f->dso),
				 (unsigned long long)f->addr);
		} else {
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)f->addr);
		}
		break;
	default:
		return "";
	}
	return strpool_intern(h->pool, buf);
}

/* The texts are interned: hash the pointers, a word at a time. */
static unsigned long key_hash(const char *const *text, int n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < n; i++) {
		h ^= (uint64_t)(uintptr_t)text[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return (unsigned long)h;
}

static void grow_entries(struct hist *h)
{
	struct hist_entry **old = h->ents;
	size_t n = h->nslots;

	h->nslots *= 2;
	h->ents = xcalloc(h->nslots, sizeof(*h->ents));
	for (size_t i = 0; i < n; i++) {
		size_t j;

		if (!old[i])
			continue;
		j = key_hash(old[i]->text, HIST_NKEYS) & (h->nslots - 1);
		while (h->ents[j])
			j = (j + 1) & (h->nslots - 1);
		h->ents[j] = old[i];
	}
	free(old);
}

/* The entry with these key texts (unused keys NULL), made when new. */
static struct hist_entry *entry(struct hist *h, const char *const *text)
{
	size_t i = key_hash(text, HIST_NKEYS) & (h->nslots - 1);
	struct hist_entry *e;

	for (; h->ents[i]; i = (i + 1) & (h->nslots - 1))
		if (!memcmp(h->ents[i]->text, text, sizeof(h->ents[i]->text)))
			return h->ents[i];
	e = h->ents[i] = xcalloc(1, sizeof(*e));
	memcpy(e->text, text, sizeof(e->text));
	h->sorted_ok = 0;
	if (++h->nents * 2 > h->nslots)
		grow_entries(h);
	return e;
}

static void key_of(struct hist *h, const struct rsample *s, const struct rframe *f,
		   const char **text)
{
	memset(text, 0, HIST_NKEYS * sizeof(*text));
	for (int k = 0; k < h->o.nkeys; k++)
		text[h->o.keys[k]] = key_text(h, h->o.keys[k], s, f);
}

/* The entry of sample s at frame f, made when new. */
static struct hist_entry *entry_of(struct hist *h, const struct rsample *s,
				   const struct rframe *f)
{
	const char *text[HIST_NKEYS];
	struct entry_memo *m = NULL;
	unsigned flags = f->kernel | f->inlined << 1;
	struct hist_entry *e;

	if (h->memo_ok && f->name && !h->memo && h->samples >= MEMO_AFTER)
		h->memo = xcalloc(ENTRY_MEMO, sizeof(*h->memo));
	if (h->memo && f->name) {
		m = &h->memo[(((uintptr_t)f->name >> 3) ^ ((uintptr_t)s->comm >> 3) ^
			      ((uintptr_t)f->dso >> 4) ^ flags) & (ENTRY_MEMO - 1)];
		if (m->name == f->name && m->comm == s->comm && m->dso == f->dso &&
		    m->flags == flags)
			return m->e;
	}
	key_of(h, s, f, text);
	e = entry(h, text);
	if (m) {
		m->comm = s->comm;
		m->name = f->name;
		m->dso = f->dso;
		m->flags = flags;
		m->e = e;
	}
	return e;
}

static size_t node_hash(size_t parent, const char *name)
{
	return (size_t)((parent * 0x9e3779b97f4a7c15ULL) ^
			((uintptr_t)name * 0xff51afd7ed558ccdULL));
}

static void grow_ntab(struct hist *h)
{
	free(h->ntab);
	h->nntab *= 2;
	h->ntab = xcalloc(h->nntab, sizeof(*h->ntab));
	for (size_t id = 1; id < h->nnodes; id++) {
		size_t j;

		if (!h->nodes[id].parent)
			continue;	/* roots are not looked up by name */
		j = node_hash(h->nodes[id].parent, h->nodes[id].name) & (h->nntab - 1);

		while (h->ntab[j])
			j = (j + 1) & (h->nntab - 1);
		h->ntab[j] = id;
	}
}

static size_t new_node(struct hist *h, size_t parent, const char *name)
{
	struct hist_node *n;
	size_t id;

	if (h->nnodes == h->cap_nodes) {
		h->cap_nodes *= 2;
		h->nodes = xreallocarray(h->nodes, h->cap_nodes, sizeof(*h->nodes));
	}
	id = h->nnodes++;
	n = &h->nodes[id];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->parent = parent;
	if (parent) {
		n->next_sibling = h->nodes[parent].first_child;
		h->nodes[parent].first_child = id;
	}
	return id;
}

/* The child of parent called name, made when new. */
static size_t child(struct hist *h, size_t parent, const char *name)
{
	size_t j = node_hash(parent, name) & (h->nntab - 1), id;

	for (; h->ntab[j]; j = (j + 1) & (h->nntab - 1)) {
		id = h->ntab[j];
		if (h->nodes[id].parent == parent && h->nodes[id].name == name)
			return id;
	}
	id = new_node(h, parent, name);
	h->ntab[j] = id;
	if (h->nnodes * 2 > h->nntab)
		grow_ntab(h);
	return id;
}

/*
 * Add a path of frames under node at: frames[from], frames[from + step],
 * ... Every node on the path gets the period in total; the node of the
 * sampled frame, frames[0], gets it in self (the root when it is not on
 * the path).
 */
static void add_path(struct hist *h, size_t at, const struct rsample *s, int from, int step)
{
	size_t self = at;
	int k = 0, same = at == h->path_start;

	if (!h->path_cap && h->samples >= MEMO_AFTER) {
		h->path_text = xcalloc(PATH_MEMO, sizeof(*h->path_text));
		h->path_node = xcalloc(PATH_MEMO, sizeof(*h->path_node));
		h->path_cap = PATH_MEMO;
	}
	h->nodes[at].total += s->period;
	h->nodes[at].samples++;
	h->path_start = at;
	for (int i = from; i >= 0 && i < s->nframes; i += step, k++) {
		const char *text = hist_frame_text(h, &s->frames[i]);

		if (same && k < h->path_len && h->path_text[k] == text) {
			at = h->path_node[k];
		} else {
			same = 0;
			at = child(h, at, text);
			if (k < h->path_cap) {
				h->path_text[k] = text;
				h->path_node[k] = at;
			}
		}
		h->nodes[at].total += s->period;
		h->nodes[at].samples++;
		if (i == 0)
			self = at;
	}
	h->path_len = k < h->path_cap ? k : h->path_cap;
	h->nodes[self].self += s->period;
}

void hist_count(struct hist *h, const struct rsample *s)
{
	h->total += s->period;
	h->samples++;
}

void hist_add(struct hist *h, const struct rsample *s)
{
	static const struct rframe none = { 0 };
	const struct rframe *leaf = s->nframes ? &s->frames[0] : &none;
	struct hist_entry *e;
	int last = s->nframes - 1;

	h->total += s->period;
	h->samples++;
	e = entry_of(h, s, leaf);
	e->self += s->period;
	e->samples++;
	if (h->o.children) {
		/* Inclusive: each distinct entry on the stack once (recursion counts once). */
		struct hist_entry *seen[256];
		int nseen = 0;

		for (int i = 0; i < s->nframes; i++) {
			struct hist_entry *c;
			int dup = 0;

			c = entry_of(h, s, &s->frames[i]);
			for (int j = 0; j < nseen && !dup; j++)
				dup = seen[j] == c;
			if (dup)
				continue;
			c->children += s->period;
			if (nseen < 256)
				seen[nseen++] = c;
		}
		if (!s->nframes)
			e->children += s->period;
	}
	switch (h->o.graph) {
	case HIST_GRAPH_CALLEE:
	case HIST_GRAPH_CALLER:
		if (!e->tree)
			e->tree = new_node(h, 0, e->text[HIST_SYM] ? e->text[HIST_SYM] : "");
		/* The entry's own frame is the tree's root: start past it. */
		if (h->o.graph == HIST_GRAPH_CALLEE)
			add_path(h, e->tree, s, 1, 1);
		else
			add_path(h, e->tree, s, last, -1);
		break;
	case HIST_TREE_TOP_DOWN:
	case HIST_TREE_BOTTOM_UP:
		if (!h->root)
			h->root = new_node(h, 0, "[root]");
		if (h->o.graph == HIST_TREE_TOP_DOWN)
			add_path(h, h->root, s, last, -1);
		else
			add_path(h, h->root, s, 0, 1);
		break;
	default:
		break;
	}
}

static int cmp_entries(const void *a, const void *b, void *arg)
{
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;
	const struct hist *h = arg;
	uint64_t vx = h->o.children ? x->children : x->self;
	uint64_t vy = h->o.children ? y->children : y->self;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	for (int k = 0; k < h->o.nkeys; k++) {
		int c = strcmp(x->text[h->o.keys[k]], y->text[h->o.keys[k]]);

		if (c)
			return c;
	}
	return 0;
}

const struct hist_entry *const *hist_sorted(struct hist *h, size_t *n)
{
	if (!h->sorted_ok) {
		size_t j = 0;

		free(h->sorted);
		h->sorted = xcalloc(h->nents, sizeof(*h->sorted));
		for (size_t i = 0; i < h->nslots; i++)
			if (h->ents[i])
				h->sorted[j++] = h->ents[i];
		qsort_r(h->sorted, j, sizeof(*h->sorted), cmp_entries, h);
		h->sorted_ok = 1;
	}
	*n = h->nents;
	return (const struct hist_entry *const *)h->sorted;
}

uint64_t hist_total(const struct hist *h)
{
	return h->total;
}

uint64_t hist_samples(const struct hist *h)
{
	return h->samples;
}

const struct hist_node *hist_node(struct hist *h, size_t i)
{
	return i && i < h->nnodes ? &h->nodes[i] : NULL;
}

size_t hist_tree_root(struct hist *h)
{
	return h->root;
}
