// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack tree. Names are interned, so a node is found by (parent,
 * name, kind) in one open-addressing table, and a stack costs one lookup
 * per frame.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"
#include "strpool.h"
#include "symbols.h"
#include "xalloc.h"

struct stacks {
	int with_comm;
	struct strpool *pool;
	struct stacks_node *nodes;	/* node 0 is "none", node 1 the root */
	size_t nnodes, cap;
	size_t *tab;			/* (parent, name, kind) -> node */
	size_t ntab;
};

struct stacks *stacks_new(int with_comm)
{
	struct stacks *st = xcalloc(1, sizeof(*st));

	st->with_comm = with_comm;
	st->pool = strpool_new();
	st->cap = 16;	/* small, doubling: a file may hold thousands of events */
	st->nodes = xcalloc(st->cap, sizeof(*st->nodes));
	st->nnodes = 2;
	st->nodes[1].name = strpool_intern(st->pool, "all");
	st->nodes[1].kind = STACKS_ROOT;
	st->ntab = 32;
	st->tab = xcalloc(st->ntab, sizeof(*st->tab));
	return st;
}

void stacks_free(struct stacks *st)
{
	if (!st)
		return;
	strpool_free(st->pool);
	free(st->nodes);
	free(st->tab);
	free(st);
}

static size_t node_hash(size_t parent, const char *name, enum stacks_kind kind)
{
	return (size_t)((parent * 0x9e3779b97f4a7c15ULL) ^
			((uintptr_t)name * 0xff51afd7ed558ccdULL) ^ (uint64_t)kind);
}

static void grow_tab(struct stacks *st)
{
	free(st->tab);
	st->ntab *= 2;
	st->tab = xcalloc(st->ntab, sizeof(*st->tab));
	for (size_t id = 2; id < st->nnodes; id++) {
		const struct stacks_node *n = &st->nodes[id];
		size_t j = node_hash(n->parent, n->name, n->kind) & (st->ntab - 1);

		while (st->tab[j])
			j = (j + 1) & (st->ntab - 1);
		st->tab[j] = id;
	}
}

/* The child of parent called name, of kind, made when new. */
static size_t child(struct stacks *st, size_t parent, const char *name, enum stacks_kind kind)
{
	size_t j = node_hash(parent, name, kind) & (st->ntab - 1), id;
	struct stacks_node *n;

	for (; st->tab[j]; j = (j + 1) & (st->ntab - 1)) {
		n = &st->nodes[st->tab[j]];
		if (n->parent == parent && n->name == name && n->kind == kind)
			return st->tab[j];
	}
	if (st->nnodes == st->cap) {
		st->cap *= 2;
		st->nodes = xreallocarray(st->nodes, st->cap, sizeof(*st->nodes));
	}
	id = st->nnodes++;
	n = &st->nodes[id];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->kind = kind;
	n->parent = parent;
	n->next_sibling = st->nodes[parent].first_child;
	st->nodes[parent].first_child = id;
	st->tab[j] = id;
	if (st->nnodes * 2 > st->ntab)
		grow_tab(st);
	return id;
}

/* A frame's name as flame graphs show it, and its kind. */
static const char *frame_name(struct stacks *st, const struct rframe *f, enum stacks_kind *kind)
{
	char buf[512];

	if (f->name) {
		*kind = f->inlined ? STACKS_INLINED : f->kernel ? STACKS_KERNEL : STACKS_USER;
		return f->name;	/* interned by the symbolizer: stable for the run */
	}
	*kind = STACKS_UNKNOWN;
	if (!f->dso || dso_unknown(f->dso))
		return strpool_intern(st->pool, "[unknown]");
	snprintf(buf, sizeof(buf), "%s+0x%llx", dso_short_name(f->dso), (unsigned long long)f->addr);
	return strpool_intern(st->pool, buf);
}

void stacks_add(struct stacks *st, const struct rsample *s)
{
	size_t at = 1;

	st->nodes[1].samples++;
	st->nodes[1].period += s->period;
	if (st->with_comm) {
		at = child(st, at, strpool_intern(st->pool, s->comm ? s->comm : "[unknown]"),
			   STACKS_ROOT);
		st->nodes[at].samples++;
		st->nodes[at].period += s->period;
	}
	for (int i = s->nframes - 1; i >= 0; i--) {
		enum stacks_kind kind;
		const char *name = frame_name(st, &s->frames[i], &kind);

		at = child(st, at, name, kind);
		st->nodes[at].samples++;
		st->nodes[at].period += s->period;
	}
	st->nodes[at].self_samples++;
	st->nodes[at].self_period += s->period;
}

size_t stacks_root(const struct stacks *st)
{
	(void)st;
	return 1;
}

const struct stacks_node *stacks_node(const struct stacks *st, size_t i)
{
	return i && i < st->nnodes ? &st->nodes[i] : NULL;
}

size_t stacks_count(const struct stacks *st)
{
	return st->nnodes - 2;
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct stacks *st = arg;
	const struct stacks_node *x = &st->nodes[*(const size_t *)a];
	const struct stacks_node *y = &st->nodes[*(const size_t *)b];
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->kind - (int)y->kind;
}

/* Each child list sorted by name, as flame graphs lay frames out: stable to diff. */
void stacks_sort(struct stacks *st)
{
	size_t *kids = NULL, cap = 0;

	for (size_t id = 1; id < st->nnodes; id++) {
		size_t n = 0;

		for (size_t c = st->nodes[id].first_child; c; c = st->nodes[c].next_sibling) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				kids = xreallocarray(kids, cap, sizeof(*kids));
			}
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), by_name, st);
		st->nodes[id].first_child = kids[0];
		for (size_t i = 0; i + 1 < n; i++)
			st->nodes[kids[i]].next_sibling = kids[i + 1];
		st->nodes[kids[n - 1]].next_sibling = 0;
	}
	free(kids);
}
