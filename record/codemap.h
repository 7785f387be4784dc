/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where code may be: every 64 KiB granule that an MMAP or MMAP2 record
 * of the recording covered, in any process, at any time. A superset of
 * what any one process maps, for the -g stack words (record.c): a word
 * no granule holds cannot be the return address a report's leaf repair
 * accepts, since the report's maps are those same records. Bounded: past
 * its budget (256K granules: codemap.c), or for a mapping too big to
 * list, the map says "may be code" for everything.
 */
#ifndef PROF_RECORD_CODEMAP_H
#define PROF_RECORD_CODEMAP_H

#include <stdint.h>

#include "u64map.h"

#define CODEMAP_SEEN_BITS	9
#define CODEMAP_MAYBE_BITS	18
struct codemap {
	struct u64map g;	/* granule numbers (address >> 16) */
	int full;		/* over budget: everything may be code */
	/*
	 * The granules asked lately, by their hash: granule << 2 | 2 | in
	 * the map; 0: none. A kept -g stack's 8 words cost 8 of the map's
	 * look-ups, 12% of a system-wide recorder's CPU at 40 kHz, most of
	 * them the same few granules (a process's stack, its code).
	 */
	uint64_t seen[1u << CODEMAP_SEEN_BITS];
	/*
	 * A bit per hash of the granules in the map (32 KiB): a word whose
	 * bit is clear is in no granule, without a probe of the map. Most
	 * words seen once are heap addresses and data, in none, and each
	 * probe of the map for them was a miss of every cache.
	 */
	uint64_t maybe[(1u << CODEMAP_MAYBE_BITS) / 64];
};

void codemap_init(struct codemap *m);
void codemap_release(struct codemap *m);
/* A mapping of [start, start + len) was recorded. */
void codemap_add(struct codemap *m, uint64_t start, uint64_t len);
/* 1 when a may be in code some process maps (always, once full); 0 when not. */
int codemap_has(struct codemap *m, uint64_t a);
/*
 * Whether the stack word w may be a return address: one a user mapping
 * can hold (not below 64 KiB, which Linux never maps, nor past 2^56,
 * above any 64-bit user address space, but for x86-64's vsyscall page)
 * whose address less 1 (the leaf repair looks up ra - 1) may be in code.
 */
int codemap_may_return(struct codemap *m, uint64_t w);
/* A record (its first len bytes): an MMAP or MMAP2 of a process adds its range. */
void codemap_record(struct codemap *m, const unsigned char *rec, size_t len);

#endif
