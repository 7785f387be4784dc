/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A map from u64 keys to u32 values, on the one hash table (htab.h):
 * sample ids to events. Lookups and inserts are O(1) on average,
 * whatever the keys, because htab mixes them before they pick a slot.
 */
#ifndef PROF_U64MAP_H
#define PROF_U64MAP_H

#include <stddef.h>
#include <stdint.h>

#include "htab.h"

struct u64map {
	struct htab t;
	uint64_t *keys;		/* item i's key */
	uint32_t *vals;		/* item i's value */
	size_t cap;
};

void u64map_init(struct u64map *m);
void u64map_release(struct u64map *m);
/* Add key with val unless key is there already: 1 added, 0 there (val kept). */
int u64map_add(struct u64map *m, uint64_t key, uint32_t val);
/* 1 and *val when key is there, 0 when not. */
int u64map_get(const struct u64map *m, uint64_t key, uint32_t *val);

#endif
