// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdlib.h>

#include "itab.h"
#include "xalloc.h"

static uint64_t key_hash(const void *ctx, size_t i)
{
	const struct itab *t = ctx;

	return (uint64_t)(unsigned)t->keys[i];
}

/* The slots without a value dropped, in their order, and the index made again. */
static void compact(struct itab *t)
{
	size_t n = htab_count(&t->t), kept = 0;

	for (size_t i = 0; i < n; i++)
		if (t->vals[i]) {
			t->keys[kept] = t->keys[i];
			t->vals[kept++] = t->vals[i];
		}
	htab_reindex(&t->t, kept, key_hash, t);
	t->empty = 0;
}

void itab_put(struct itab *t, int key, void *val)
{
	struct htab_probe p;
	size_t n = htab_count(&t->t);
	uint32_t i;

	htab_probe(&t->t, (uint64_t)(unsigned)key, &p);
	while (htab_next(&t->t, &p, &i))
		if (t->keys[i] == key) {
			t->empty += !val - !t->vals[i];
			t->vals[i] = val;
			if (!val && t->empty >= ITAB_EMPTY_MIN && t->empty * 2 > n)
				compact(t);
			return;
		}
	if (!val)
		return;	/* nothing there, nothing to put: no slot made empty */
	if (n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->keys = xreallocarray(t->keys, t->cap, sizeof(*t->keys));
		t->vals = xreallocarray(t->vals, t->cap, sizeof(*t->vals));
	}
	t->keys[n] = key;
	t->vals[n] = val;
	htab_put(&t->t, &p, (uint32_t)n);
}

void itab_release(struct itab *t, void (*free_val)(void *val))
{
	for (size_t i = 0; free_val && i < htab_count(&t->t); i++)
		if (t->vals[i])
			free_val(t->vals[i]);
	free(t->keys);
	free(t->vals);
	htab_release(&t->t);
}
