// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Address maps as a treap (a binary search tree by start that is also a
 * heap by random priority, so that its depth is O(log n) expected
 * whatever the order of inserts). Maps never overlap, so "by start" is
 * also "by address".
 */
#include "config.h"

#include <stdlib.h>

#include "maps.h"
#include "xalloc.h"

struct mnode {
	struct map m;
	struct mnode *l, *r;
	uint64_t pri;
};

void maps_init(struct maps *m)
{
	m->root = NULL;
	m->nr = 0;
	m->seed = 0x9e3779b97f4a7c15ULL;
}

static void free_tree(struct mnode *t)
{
	while (t) {
		struct mnode *r = t->r;

		free_tree(t->l);
		free(t);
		t = r;
	}
}

void maps_release(struct maps *m)
{
	free_tree(m->root);
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
	return n;
}

/* Split t into the nodes starting below key (*a) and the rest (*b). */
static void split(struct mnode *t, uint64_t key, struct mnode **a, struct mnode **b)
{
	if (!t) {
		*a = *b = NULL;
	} else if (t->m.start < key) {
		split(t->r, key, &t->r, b);
		*a = t;
	} else {
		split(t->l, key, a, &t->l);
		*b = t;
	}
}

/* Join a and b, every node of a starting below every node of b. */
static struct mnode *merge(struct mnode *a, struct mnode *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->pri > b->pri) {
		a->r = merge(a->r, b);
		return a;
	}
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
	/* The map before mp may run into it, or past it. */
	last = rightmost(lo);
	if (last && last->m.end > mp->start) {
		if (last->m.end > mp->end) {
			cut = last->m;
			cut.pgoff += mp->end - cut.start;
			cut.start = mp->end;
			rest = new_node(m, &cut);
			m->nr++;
		}
		last->m.end = mp->start;
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
	free_tree(mid);
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

static struct mnode *copy_tree(const struct mnode *t)
{
	struct mnode *n;

	if (!t)
		return NULL;
	n = xmalloc(sizeof(*n));
	*n = *t;
	n->l = copy_tree(t->l);
	n->r = copy_tree(t->r);
	return n;
}

void maps_copy(struct maps *dst, const struct maps *src)
{
	maps_release(dst);
	dst->root = copy_tree(src->root);
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
