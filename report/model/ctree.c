// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The call tree. Names are interned, so a node is found by (parent, name,
 * flags) in one htab and a stack costs one lookup per frame; consecutive
 * samples mostly share their path, which a memo of the last one skips.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctree.h"
#include "htab.h"
#include "strpool.h"
#include "symbols.h"
#include "xalloc.h"

/*
 * The path memo is made once a tree has this many samples: it pays on
 * hot loops, and a file may hold thousands of events of a sample or two,
 * each of which must cost what it holds.
 */
#define PATH_MEMO 256
#define MEMO_AFTER 64

struct ctree {
	struct strpool *pool;
	int merge;
	struct ctree_node *nodes;	/* node 0 means "none"; the htab's items */
	size_t nnodes, cap;
	struct htab tab;		/* (parent, name, flags) -> node, roots left out */
	uint64_t samples;
	/* the last path added */
	size_t path_start;
	int path_len, path_cap;		/* path_cap: 0, then PATH_MEMO */
	const char **path_name;
	unsigned *path_flags;
	size_t *path_node;
};

const char *frame_name(struct strpool *pool, const struct rframe *f, int merge,
		       unsigned *flags)
{
	char buf[512];

	if (f->name) {
		*flags = (f->kernel ? FRAME_KERNEL : 0) | (f->inlined ? FRAME_INLINED : 0);
		return f->name;	/* interned by the symbolizer: stable for the run */
	}
	*flags = FRAME_NONAME | (f->kernel && !merge ? FRAME_KERNEL : 0);
	if ((f->dso && dso_unknown(f->dso)) || (!f->dso && merge))
		return strpool_intern(pool, "[unknown]");
	if (f->dso)
		snprintf(buf, sizeof(buf), "%s+0x%llx", dso_short_name(f->dso),
			 (unsigned long long)f->addr);
	else
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)f->addr);
	return strpool_intern(pool, buf);
}

struct ctree *ctree_new(struct strpool *pool, int merge)
{
	struct ctree *t = xcalloc(1, sizeof(*t));

	t->pool = pool;
	t->merge = merge;
	t->cap = 16;	/* small, doubling: a file may hold thousands of events */
	t->nodes = xcalloc(t->cap, sizeof(*t->nodes));
	t->nnodes = 1;
	htab_init(&t->tab);
	return t;
}

void ctree_free(struct ctree *t)
{
	if (!t)
		return;
	free(t->nodes);
	htab_release(&t->tab);
	free(t->path_name);
	free(t->path_flags);
	free(t->path_node);
	free(t);
}

static size_t new_node(struct ctree *t, size_t parent, const char *name, unsigned flags)
{
	struct ctree_node *n;
	size_t id;

	if (t->nnodes == t->cap) {
		t->cap *= 2;
		t->nodes = xreallocarray(t->nodes, t->cap, sizeof(*t->nodes));
	}
	id = t->nnodes++;
	n = &t->nodes[id];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->flags = flags;
	n->parent = parent;
	if (parent) {
		n->next_sibling = t->nodes[parent].first_child;
		t->nodes[parent].first_child = id;
	}
	return id;
}

size_t ctree_root(struct ctree *t, const char *name, unsigned flags)
{
	return new_node(t, 0, name, flags);
}

/* The child of at called name with flags: its id, or 0 with p left on the empty slot. */
static size_t lookup(const struct ctree *t, size_t at, const char *name, unsigned flags,
		     struct htab_probe *p)
{
	uint32_t i;

	/* one multiply here, one in the probe: this runs for every frame */
	htab_probe(&t->tab, (uint64_t)at * 0xc2b2ae3d27d4eb4fULL ^ (uintptr_t)name ^ flags, p);
	while (htab_next(&t->tab, p, &i)) {
		const struct ctree_node *n = &t->nodes[i];

		if (n->parent == at && n->name == name && n->flags == flags)
			return i;
	}
	return 0;
}

size_t ctree_child(struct ctree *t, size_t at, const char *name, unsigned flags)
{
	struct htab_probe p;
	size_t id = lookup(t, at, name, flags, &p);

	if (id)
		return id;
	id = new_node(t, at, name, flags);
	htab_put(&t->tab, &p, (uint32_t)id);
	return id;
}

size_t ctree_find(const struct ctree *t, size_t at, const char *name, unsigned flags)
{
	struct htab_probe p;

	return at && at < t->nnodes ? lookup(t, at, name, flags, &p) : 0;
}

void ctree_graft(struct ctree *dst, size_t at, const struct ctree *src, size_t from)
{
	const struct ctree_node *s = &src->nodes[from];

	dst->nodes[at].samples += s->samples;
	dst->nodes[at].period += s->period;
	dst->nodes[at].self_samples += s->self_samples;
	dst->nodes[at].self_period += s->self_period;
	for (size_t c = s->first_child; c; c = src->nodes[c].next_sibling)
		ctree_graft(dst, ctree_child(dst, at, strpool_intern(dst->pool, src->nodes[c].name),
					     src->nodes[c].flags), src, c);
}

static void count(struct ctree *t, size_t at, uint64_t period)
{
	t->nodes[at].samples++;
	t->nodes[at].period += period;
}

void ctree_add(struct ctree *t, size_t at, const struct rsample *s, int from, int step,
	       int with_comm)
{
	size_t self = at;
	int k = 0, same = at == t->path_start && !with_comm;

	if (!t->path_cap && t->samples >= MEMO_AFTER) {
		t->path_name = xcalloc(PATH_MEMO, sizeof(*t->path_name));
		t->path_flags = xcalloc(PATH_MEMO, sizeof(*t->path_flags));
		t->path_node = xcalloc(PATH_MEMO, sizeof(*t->path_node));
		t->path_cap = PATH_MEMO;
	}
	t->samples++;
	count(t, at, s->period);
	if (with_comm) {
		at = ctree_child(t, at, strpool_intern(t->pool, s->comm ? s->comm : "[unknown]"),
				 FRAME_COMM);
		count(t, at, s->period);
		same = at == t->path_start;
	}
	t->path_start = at;
	for (int i = from; i >= 0 && i < s->nframes; i += step, k++) {
		unsigned flags;
		const char *name = frame_name(t->pool, &s->frames[i], t->merge, &flags);

		if (same && k < t->path_len && t->path_name[k] == name &&
		    t->path_flags[k] == flags) {
			at = t->path_node[k];
		} else {
			same = 0;
			at = ctree_child(t, at, name, flags);
			if (k < t->path_cap) {
				t->path_name[k] = name;
				t->path_flags[k] = flags;
				t->path_node[k] = at;
			}
		}
		count(t, at, s->period);
		if (i == 0)
			self = at;
	}
	t->path_len = k < t->path_cap ? k : t->path_cap;
	t->nodes[self].self_samples++;
	t->nodes[self].self_period += s->period;
}

const struct ctree_node *ctree_node(const struct ctree *t, size_t i)
{
	return i && i < t->nnodes ? &t->nodes[i] : NULL;
}

size_t ctree_count(const struct ctree *t)
{
	return t->nnodes - 1;
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct ctree *t = arg;
	const struct ctree_node *x = &t->nodes[*(const size_t *)a];
	const struct ctree_node *y = &t->nodes[*(const size_t *)b];
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->flags - (int)y->flags;
}

void ctree_sort(struct ctree *t)
{
	size_t *kids = NULL, cap = 0;

	for (size_t id = 1; id < t->nnodes; id++) {
		size_t n = 0;

		for (size_t c = t->nodes[id].first_child; c; c = t->nodes[c].next_sibling) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				kids = xreallocarray(kids, cap, sizeof(*kids));
			}
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), by_name, t);
		t->nodes[id].first_child = kids[0];
		for (size_t i = 0; i + 1 < n; i++)
			t->nodes[kids[i]].next_sibling = kids[i + 1];
		t->nodes[kids[n - 1]].next_sibling = 0;
	}
	free(kids);
}
