// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdlib.h>

#include "itab.h"
#include "xalloc.h"

void itab_put(struct itab *t, int key, void *val)
{
	struct htab_probe p;
	size_t n = htab_count(&t->t);
	uint32_t i;

	htab_probe(&t->t, (uint64_t)(unsigned)key, &p);
	while (htab_next(&t->t, &p, &i))
		if (t->keys[i] == key) {
			t->vals[i] = val;
			return;
		}
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
