// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A process's maps (src/maps.c) against a model that keeps, for each
 * page of a small address space, which map covers it and at what file
 * offset: random inserts that cut each other, forks that share a tree and
 * then change apart, the maps made before a time dropped (the recorder's
 * leaf repair, at an exec read ahead), lookups of every page, walks in
 * order, and the count of maps, for several processes at once.
 *   test-maps [ROUNDS]
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps.h"
#include "tap.h"

#define PAGES	512
#define PAGE	0x1000ULL
#define PROCS	6

struct model {
	int id[PAGES];		/* the map covering the page, 0 none */
	uint64_t off[PAGES];	/* its file offset there */
};

static struct maps procs[PROCS];
static struct model models[PROCS];

/* The dso pointer stands for the map's id. */
static struct dso *dso_of(int id)
{
	return (struct dso *)(uintptr_t)(id * 16);
}

static void insert(int p, int id, int first, int n)
{
	struct map m = { .start = first * PAGE, .end = (first + n) * PAGE,
			  .pgoff = 0x100000ULL * (unsigned)id, .since = (uint64_t)id,
			  .dso = dso_of(id) };

	maps_insert(&procs[p], &m);
	for (int i = first; i < first + n; i++) {
		models[p].id[i] = id;
		models[p].off[i] = m.pgoff + (uint64_t)(i - first) * PAGE;
	}
}

struct walk {
	uint64_t last_end;
	size_t n;
	int sorted;
};

static int since_at_least(void *arg, const struct map *m)
{
	return m->since >= *(const uint64_t *)arg;
}

static int walk_one(void *arg, const struct map *m)
{
	struct walk *w = arg;

	if (m->start < w->last_end || m->end <= m->start)
		w->sorted = 0;
	w->last_end = m->end;
	w->n++;
	return 0;
}

/* Every page of p as the model has it; the walk in order, and as many maps as nr says. */
static int same(int p)
{
	struct walk w = { 0, 0, 1 };

	for (int i = 0; i < PAGES; i++) {
		const struct map *m = maps_find(&procs[p], i * PAGE + 8);

		if (!models[p].id[i] ? m != NULL
				     : !m || m->dso != dso_of(models[p].id[i]) ||
					       m->pgoff + (i * PAGE - m->start) != models[p].off[i])
			return 0;
	}
	maps_each(&procs[p], walk_one, &w);
	return w.sorted && w.n == procs[p].nr;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3000, bad = -1, id = 1;

	for (int p = 0; p < PROCS; p++)
		maps_init(&procs[p]);
	memset(models, 0, sizeof(models));
	for (int r = 0; r < rounds && bad < 0; r++) {
		int p = (int)(rnd() % PROCS);

		if (rnd() % 8 == 0) {
			/* a fork: q starts with p's maps, shared until either changes */
			int q = (int)(rnd() % PROCS);

			if (q != p) {
				maps_copy(&procs[q], &procs[p]);
				models[q] = models[p];
			}
		} else if (rnd() % 40 == 0) {
			maps_release(&procs[p]);	/* an exec */
			memset(&models[p], 0, sizeof(models[p]));
		} else if (rnd() % 30 == 0) {
			/* only the maps made since a time (a map's since is its id) */
			uint64_t t = (uint64_t)(id > 1 ? 1 + (int)(rnd() % (unsigned)id) : 1);
			size_t before = procs[p].nr, gone, want = 0;
			int last = 0;

			gone = maps_keep(&procs[p], since_at_least, &t);
			for (int i = 0; i < PAGES; i++) {
				/* a map's pieces count once each: runs of one id */
				if (models[p].id[i] && models[p].id[i] != last &&
				    (uint64_t)models[p].id[i] < t)
					want++;
				last = models[p].id[i];
				if ((uint64_t)models[p].id[i] < t)
					models[p].id[i] = 0;
			}
			if (gone != want || procs[p].nr != before - gone)
				bad = r;
		} else {
			int first = (int)(rnd() % PAGES);
			int n = 1 + (int)(rnd() % (rnd() % 4 ? 8 : 64));

			if (first + n > PAGES)
				n = PAGES - first;
			insert(p, id++, first, n);
		}
		for (int k = 0; k < PROCS && bad < 0; k++)
			if (!same(k))
				bad = r;
	}
	ok(bad < 0, "%d rounds of inserts, forks, execs and keeps over %d processes agree with the model%s",
	   rounds, PROCS, bad < 0 ? "" : " (not at some round)");
	if (bad >= 0)
		printf("# first disagreement at round %d\n", bad);
	{
		/* a fork of many maps costs nothing until it changes */
		struct maps a, b;
		struct map m = { .start = 0, .end = PAGE, .dso = dso_of(1) };

		maps_init(&a);
		maps_init(&b);
		for (int i = 0; i < 100000; i++) {
			m.start = (uint64_t)i * 2 * PAGE;
			m.end = m.start + PAGE;
			maps_insert(&a, &m);
		}
		for (int i = 0; i < 1000; i++) {
			maps_copy(&b, &a);
			m.start = 1ULL << 40;
			m.end = m.start + PAGE;
			maps_insert(&b, &m);
		}
		ok(a.nr == 100000 && b.nr == 100001 && !maps_find(&a, 1ULL << 40) &&
		   maps_find(&b, 1ULL << 40) && maps_find(&b, 2 * PAGE) == maps_find(&a, 2 * PAGE),
		   "1000 forks of 100,000 maps, each changed once: apart, and sharing the rest");
		/* keeping all changes nothing: still shared */
		ok(maps_keep(&b, since_at_least, &(uint64_t){ 0 }) == 0 &&
		   maps_find(&b, 2 * PAGE) == maps_find(&a, 2 * PAGE),
		   "keeping every map leaves the tree shared");
		maps_release(&a);
		maps_release(&b);
	}
	for (int p = 0; p < PROCS; p++)
		maps_release(&procs[p]);
	return tap_done();
}
