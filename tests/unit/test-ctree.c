// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The call tree's look-up (report/model/ctree.c) against a model that keeps
 * every (parent, name, flags) made and its node: random children asked of
 * random nodes, so that some nodes keep a short list of children and others
 * pass the point where the tree hashes them, some asked again before and
 * after; then every node found again by ctree_find(), the child lists
 * walked, sorted, and looked up once more; and ctree_add()'s counts on a
 * tree of known stacks.
 *   test-ctree [ROUNDS]
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctree.h"
#include "strpool.h"
#include "tap.h"

#define NAMES	64
#define MAXN	200000

struct made {
	size_t parent;
	const char *name;
	unsigned flags;
};

static struct made model[MAXN];
static size_t nmodel;

/* The model's node of (parent, name, flags): its id, or 0. */
static size_t model_find(size_t parent, const char *name, unsigned flags)
{
	for (size_t i = 1; i < nmodel; i++)
		if (model[i].parent == parent && model[i].name == name && model[i].flags == flags)
			return i;
	return 0;
}

/* A child list's length, and whether each of its nodes names at as its parent. */
static size_t kids(const struct ctree *t, size_t at, int *bad)
{
	size_t n = 0;

	for (size_t c = ctree_node(t, at)->first_child; c && n <= MAXN;
	     c = ctree_node(t, c)->next_sibling, n++)
		if (ctree_node(t, c)->parent != at)
			*bad = 1;
	return n;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 6000;
	struct strpool *pool = strpool_new();
	struct ctree *t = ctree_new(pool, 0);
	const char *name[NAMES];
	size_t roots[3], wrong = 0, again = 0, nmax = 0;
	int bad = 0;
	char buf[32];

	for (int i = 0; i < NAMES; i++) {
		snprintf(buf, sizeof(buf), "fn%d", i);
		name[i] = strpool_intern(pool, buf);
	}
	nmodel = 1;	/* node 0 is none */
	for (int i = 0; i < 3; i++) {
		roots[i] = ctree_root(t, name[i], FRAME_ROOT);
		model[nmodel++] = (struct made){ 0, name[i], FRAME_ROOT };
		ok(roots[i] == nmodel - 1, "root %d is node %zu", i, roots[i]);
	}
	/*
	 * Children of a few wide nodes (each of NAMES names, two flags: past
	 * the hashing point) and of many narrow ones (deep, new paths)
	 */
	for (long r = 0; r < rounds && nmodel < MAXN; r++) {
		/* node 4 too, often: a node not a root whose children pass the hashing point */
		size_t at = r % 40 == 0 && nmodel > 4 ? 4
			    : rnd() % 4 ? 1 + rnd() % (nmodel - 1) : roots[rnd() % 3];
		const char *nm = name[rnd() % (at <= 3 ? NAMES : 10)];
		unsigned fl = rnd() % 5 ? 0 : FRAME_INLINED;
		size_t want = model_find(at, nm, fl), id = ctree_child(t, at, nm, fl);

		if (want) {
			again++;
			wrong += id != want;
		} else {
			wrong += id != nmodel;
			model[nmodel++] = (struct made){ at, nm, fl };
		}
	}
	ok(wrong == 0 && again > 100, "%zu children asked of %zu nodes: %zu asked again, %zu wrong",
	   (size_t)rounds, nmodel, again, wrong);
	ok(ctree_count(t) == nmodel - 1, "the tree holds %zu nodes, the model %zu", ctree_count(t),
	   nmodel - 1);
	wrong = 0;
	for (size_t i = 1; i < nmodel; i++) {
		const struct ctree_node *n = ctree_node(t, i);

		wrong += !n || n->parent != model[i].parent || n->name != model[i].name ||
			 n->flags != model[i].flags ||
			 (model[i].parent &&
			  ctree_find(t, model[i].parent, model[i].name, model[i].flags) != i);
		nmax = kids(t, i, &bad) > nmax ? kids(t, i, &bad) : nmax;
	}
	ok(wrong == 0, "every node found again by ctree_find(): %zu wrong", wrong);
	ok(nmax > NAMES && kids(t, 4, &bad) > 12 && !bad,
	   "the child lists: the widest of %zu, node 4's of %zu, parents %s", nmax, kids(t, 4, &bad),
	   bad ? "wrong" : "right");
	ctree_sort(t);
	wrong = 0;
	for (size_t i = 1; i < nmodel; i++)
		if (model[i].parent)
			wrong += ctree_child(t, model[i].parent, model[i].name, model[i].flags) != i;
	ok(wrong == 0 && ctree_count(t) == nmodel - 1, "sorted, each found again: %zu wrong", wrong);
	wrong = 0;
	for (size_t i = 1; i < nmodel; i++) {
		const char *prev = NULL;

		for (size_t c = ctree_node(t, i)->first_child; c; c = ctree_node(t, c)->next_sibling) {
			if (prev && strcmp(prev, ctree_node(t, c)->name) > 0)
				wrong++;
			prev = ctree_node(t, c)->name;
		}
	}
	ok(wrong == 0, "each child list in order of name: %zu out of it", wrong);
	ctree_free(t);

	/* ctree_add(): stacks a -> b -> c{0..19}, every node's counts */
	{
		struct rframe fr[3];
		struct rsample s;
		size_t root, a, b;
		uint64_t sum = 0;

		t = ctree_new(pool, 0);
		root = ctree_root(t, "", FRAME_ROOT);
		memset(&s, 0, sizeof(s));
		memset(fr, 0, sizeof(fr));
		s.frames = fr;
		s.nframes = 3;
		fr[2].name = name[0];
		fr[1].name = name[1];
		for (int i = 0; i < 400; i++) {
			fr[0].name = name[2 + i % 20];
			s.count = 1;
			s.period = (uint64_t)i + 1;
			sum += s.period;
			ctree_add(t, root, &s, 2, -1, 0);
		}
		a = ctree_find(t, root, name[0], 0);
		b = a ? ctree_find(t, a, name[1], 0) : 0;
		ok(a && b && ctree_node(t, a)->samples == 400 && ctree_node(t, b)->period == sum &&
		   ctree_node(t, b)->self_samples == 0 && kids(t, b, &bad) == 20 && !bad,
		   "400 stacks through a -> b, 20 leaves under b");
		wrong = 0;
		for (int i = 0; i < 20; i++) {
			size_t c = b ? ctree_find(t, b, name[2 + i], 0) : 0;

			wrong += !c || ctree_node(t, c)->self_samples != 20 ||
				 ctree_node(t, c)->samples != 20;
		}
		ok(wrong == 0 && ctree_count(t) == 23, "each leaf counts its 20 as its own: %zu wrong",
		   wrong);
		ctree_free(t);
	}
	strpool_free(pool);
	return tap_done();
}
