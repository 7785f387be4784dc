/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process's address maps, as its MMAP records make them: ranges that do
 * not overlap, each with its file and offset, where a newer map cuts away
 * what it covers of older ones. The one model of them: the report's
 * machine (report/model/machine.c) and the recorder's leaf repair
 * (record/mend.c) both keep their processes' maps here. A treap keyed by
 * start: insert, lookup, copy and walk in O(log n) expected (plus what an
 * insert removes), so that a process with vm.max_map_count mappings, in
 * any order, costs n log n.
 */
#ifndef PROF_SRC_MAPS_H
#define PROF_SRC_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct dso;

struct map {
	uint64_t start, end, pgoff;
	uint64_t since;		/* the time of the record that made it (0: none) */
	union {			/* what it maps, as its keeper knows files: */
		struct dso *dso;	/* the report's (symbols.h) */
		int32_t file;		/* the recorder's: an index, or < 0 (mend.c) */
	};
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
/*
 * Keep only the maps keep(arg, map) says 1 of (their nodes made anew; m
 * unchanged, still shared, when it keeps all). How many went.
 */
size_t maps_keep(struct maps *m, int (*keep)(void *arg, const struct map *mp), void *arg);

#endif
