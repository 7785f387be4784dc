/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process's address maps: ranges that do not overlap, each with its
 * file and offset, where a newer map cuts away what it covers of older
 * ones. A treap keyed by start: insert, lookup, copy and walk in
 * O(log n) expected (plus what an insert removes), so that a process
 * with vm.max_map_count mappings, in any order, costs n log n.
 */
#ifndef PROF_REPORT_MAPS_H
#define PROF_REPORT_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct dso;

struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;
};

struct mnode;

struct maps {
	struct mnode *root;
	size_t nr;
	uint64_t seed;		/* for the nodes' priorities */
};

void maps_init(struct maps *m);
void maps_release(struct maps *m);
/* Put a copy of mp in, cutting away whatever of the others it overlaps. */
void maps_insert(struct maps *m, const struct map *mp);
/* The map holding addr, NULL when none; valid until the next change. */
const struct map *maps_find(const struct maps *m, uint64_t addr);
/* Make dst (released first) a copy of src: a fork. */
void maps_copy(struct maps *dst, const struct maps *src);
/* Call fn for each map, by start; stops at fn's non-zero value, returned. */
int maps_each(const struct maps *m, int (*fn)(void *arg, const struct map *mp), void *arg);

#endif
