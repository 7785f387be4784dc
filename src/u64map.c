// SPDX-License-Identifier: GPL-2.0-or-later
/* u64 -> u32 map: keys and values in arrays, found through an htab. */
#include "config.h"

#include <stdlib.h>

#include "u64map.h"
#include "xalloc.h"

void u64map_init(struct u64map *m)
{
	htab_init(&m->t);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = 0;
}

void u64map_release(struct u64map *m)
{
	htab_release(&m->t);
	free(m->keys);
	free(m->vals);
	u64map_init(m);
}

int u64map_get(const struct u64map *m, uint64_t key, uint32_t *val)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&m->t, key, &p);
	while (htab_next(&m->t, &p, &i))
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return 1;
		}
	return 0;
}

int u64map_add(struct u64map *m, uint64_t key, uint32_t val)
{
	struct htab_probe p;
	size_t n = htab_count(&m->t);
	uint32_t i;

	htab_probe(&m->t, key, &p);
	while (htab_next(&m->t, &p, &i))
		if (m->keys[i] == key)
			return 0;
	if (n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->keys = xreallocarray(m->keys, m->cap, sizeof(*m->keys));
		m->vals = xreallocarray(m->vals, m->cap, sizeof(*m->vals));
	}
	m->keys[n] = key;
	m->vals[n] = val;
	htab_put(&m->t, &p, (uint32_t)n);
	return 1;
}
