/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An int-keyed table of pointers (threads or processes by id): open
 * addressing over an htab. A value put back as NULL keeps its slot until
 * more than half the slots are such (and at least ITAB_EMPTY_MIN): then
 * the table is made again without them, so that a live reader's tables
 * of a host's threads hold what runs now, not every tid it ever ran.
 */
#ifndef PROF_ITAB_H
#define PROF_ITAB_H

#include <stddef.h>

#include "htab.h"

struct itab {
	struct htab t;
	int *keys;
	void **vals;
	size_t cap;
	size_t empty;	/* slots whose value is NULL */
};

#define ITAB_EMPTY_MIN 1024

/* On every record's path: inline. */
static inline void *itab_get(const struct itab *t, int key)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&t->t, (uint64_t)(unsigned)key, &p);
	while (htab_next(&t->t, &p, &i))
		if (t->keys[i] == key)
			return t->vals[i];
	return NULL;
}

/*
 * Insert or replace; a NULL for a key not there puts nothing, and a NULL
 * may drop the emptied slots (not while walking the slots).
 */
void itab_put(struct itab *t, int key, void *val);
/* Slots, in the order they were made: keys[], vals[] (NULL: put back empty). */
static inline size_t itab_count(const struct itab *t)
{
	return htab_count(&t->t);
}
/* Free each value with free_val (NULL: leave them), then the table. */
void itab_release(struct itab *t, void (*free_val)(void *val));

#endif
