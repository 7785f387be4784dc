// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Address maps as a treap (a binary search tree by start that is also a
 * heap by random priority, so that its depth is O(log n) expected
 * whatever the order of inserts). Maps never overlap, so "by start" is
 * also "by address".
 *
 * The treap is persistent: nodes are reference-counted and shared
 * between processes, a fork takes its parent's tree in O(1), and a change
 * copies only the nodes on its path (own()). A process of 6000 maps that
 * forks 5000 children, each of which maps one more file, took 1.9 GB as
 * whole copies; shared, it takes what the 5000 changes touch.
 */
#include "config.h"

#include <stdlib.h>

#include "maps.h"
#include "xalloc.h"

struct mnode {
	struct map m;
	struct mnode *l, *r;
	uint64_t pri;
	unsigned long refs;	/* trees and parent nodes that point here */
};

void maps_init(struct maps *m)
{
	m->root = NULL;
	m->nr = 0;
	m->seed = 0x9e3779b97f4a7c15ULL;
}

/* Let go of one reference to t: the last frees it and lets go of its children. */
static void release(struct mnode *t)
{
	while (t && --t->refs == 0) {
		struct mnode *r = t->r;

		release(t->l);
		free(t);
		t = r;
	}
}

/*
 * A node of our own in place of t, whose reference we hold: t itself when
 * no one else holds it, else a copy (sharing t's children) that is ours.
 */
static struct mnode *own(struct mnode *t)
{
	struct mnode *n;

	if (t->refs == 1)
		return t;
	n = xmalloc(sizeof(*n));
	*n = *t;
	n->refs = 1;
	if (n->l)
		n->l->refs++;
	if (n->r)
		n->r->refs++;
	t->refs--;
	return n;
}

void maps_release(struct maps *m)
{
	release(m->root);
	maps_init(m);
}

static struct mnode *new_node(struct maps *m, const struct map *mp)
{
	struct mnode *n = xmalloc(sizeof(*n));

	/* xorshift64, which must not start at 0 */
	if (!m->seed)
		m->seed = 0x9e3779b97f4a7c15ULL;
	m->seed ^= m->seed << 13;
	m->seed ^= m->seed >> 7;
	m->seed ^= m->seed << 17;
	n->m = *mp;
	n->l = n->r = NULL;
	n->pri = m->seed;
	n->refs = 1;
	return n;
}

/*
 * Split t into the nodes starting below key (*a) and the rest (*b). Takes
 * the reference to t; gives one to each of *a and *b.
 */
static void split(struct mnode *t, uint64_t key, struct mnode **a, struct mnode **b)
{
	if (!t) {
		*a = *b = NULL;
	} else if (t->m.start < key) {
		t = own(t);
		split(t->r, key, &t->r, b);
		*a = t;
	} else {
		t = own(t);
		split(t->l, key, a, &t->l);
		*b = t;
	}
}

/* Join a and b, every node of a starting below every node of b; takes both references. */
static struct mnode *merge(struct mnode *a, struct mnode *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->pri > b->pri) {
		a = own(a);
		a->r = merge(a->r, b);
		return a;
	}
	b = own(b);
	b->l = merge(a, b->l);
	return b;
}

static struct mnode *rightmost(struct mnode *t)
{
	while (t && t->r)
		t = t->r;
	return t;
}

static size_t count(const struct mnode *t)
{
	size_t n = 0;

	for (; t; t = t->r)
		n += 1 + count(t->l);
	return n;
}

void maps_insert(struct maps *m, const struct map *mp)
{
	struct mnode *lo, *mid, *hi, *last, *rest = NULL;
	struct map cut;

	split(m->root, mp->start, &lo, &hi);
	split(hi, mp->end, &mid, &hi);
	/*
	 * The map before mp may run into it, or past it: it is taken out (a
	 * split at its start) and what is left of it outside mp put back as
	 * new nodes, since it may be shared.
	 */
	last = rightmost(lo);
	if (last && last->m.end > mp->start) {
		struct mnode *tail;
		struct map below = last->m;

		split(lo, last->m.start, &lo, &tail);	/* tail: last alone */
		if (below.end > mp->end) {
			cut = below;
			cut.pgoff += mp->end - cut.start;
			cut.start = mp->end;
			rest = new_node(m, &cut);
			m->nr++;
		}
		below.end = mp->start;
		release(tail);
		lo = merge(lo, new_node(m, &below));
	}
	/* Those starting inside mp go; the last may leave a part above it. */
	last = rightmost(mid);
	if (last && last->m.end > mp->end) {
		cut = last->m;
		cut.pgoff += mp->end - cut.start;
		cut.start = mp->end;
		rest = new_node(m, &cut);
		m->nr++;
	}
	m->nr -= count(mid);
	release(mid);
	m->nr++;
	m->root = merge(merge(lo, new_node(m, mp)), merge(rest, hi));
}

const struct map *maps_find(const struct maps *m, uint64_t addr)
{
	const struct mnode *t = m->root, *best = NULL;

	while (t) {
		if (t->m.start <= addr) {
			best = t;
			t = t->r;
		} else {
			t = t->l;
		}
	}
	return best && addr < best->m.end ? &best->m : NULL;
}

void maps_copy(struct maps *dst, const struct maps *src)
{
	struct mnode *root = src->root;

	if (root)
		root->refs++;	/* shared: a change copies its path (own()) */
	maps_release(dst);
	dst->root = root;
	dst->nr = src->nr;
}

static int each(const struct mnode *t, int (*fn)(void *arg, const struct map *mp), void *arg)
{
	int ret = 0;

	for (; t && !ret; t = t->r) {
		ret = each(t->l, fn, arg);
		if (!ret)
			ret = fn(arg, &t->m);
	}
	return ret;
}

int maps_each(const struct maps *m, int (*fn)(void *arg, const struct map *mp), void *arg)
{
	return each(m->root, fn, arg);
}

struct keeping {
	int (*keep)(void *arg, const struct map *mp);
	void *arg;
	struct map *kept;
	size_t n, cap;
	size_t gone;
};

static int count_gone(void *arg, const struct map *mp)
{
	struct keeping *k = arg;

	k->gone += !k->keep(k->arg, mp);
	return 0;
}

static int collect(void *arg, const struct map *mp)
{
	struct keeping *k = arg;

	if (k->keep(k->arg, mp)) {
		k->kept = xgrow(k->kept, &k->cap, k->n + 1, sizeof(*k->kept));
		k->kept[k->n++] = *mp;
	}
	return 0;
}

size_t maps_keep(struct maps *m, int (*keep)(void *arg, const struct map *mp), void *arg)
{
	struct keeping k = { keep, arg, NULL, 0, 0, 0 };

	maps_each(m, count_gone, &k);
	if (!k.gone)
		return 0;
	maps_each(m, collect, &k);
	maps_release(m);
	for (size_t i = 0; i < k.n; i++)
		maps_insert(m, &k.kept[i]);
	free(k.kept);
	return k.gone;
}
