// SPDX-License-Identifier: GPL-2.0-or-later
/* u64 -> u32 map with linear probing, kept at most half full. */
#include "config.h"

#include <stdlib.h>

#include "u64map.h"
#include "xalloc.h"

void u64map_init(struct u64map *m)
{
	m->keys = NULL;
	m->vals = NULL;
	m->n = m->used = 0;
}

void u64map_release(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	u64map_init(m);
}

/* splitmix64's finalizer: ids that differ in high bits only still spread. */
static size_t slot_of(uint64_t k, size_t n)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (size_t)k & (n - 1);
}

static void put(struct u64map *m, uint64_t key, uint32_t v1)
{
	size_t i = slot_of(key, m->n);

	while (m->vals[i])
		i = (i + 1) & (m->n - 1);
	m->keys[i] = key;
	m->vals[i] = v1;
	m->used++;
}

int u64map_get(const struct u64map *m, uint64_t key, uint32_t *val)
{
	if (!m->n)
		return 0;
	for (size_t i = slot_of(key, m->n); m->vals[i]; i = (i + 1) & (m->n - 1))
		if (m->keys[i] == key) {
			*val = m->vals[i] - 1;
			return 1;
		}
	return 0;
}

int u64map_add(struct u64map *m, uint64_t key, uint32_t val)
{
	uint32_t old;

	if (u64map_get(m, key, &old))
		return 0;
	if ((m->used + 1) * 2 > m->n) {
		struct u64map o = *m;

		m->n = o.n ? o.n * 2 : 64;
		m->keys = xcalloc(m->n, sizeof(*m->keys));
		m->vals = xcalloc(m->n, sizeof(*m->vals));
		m->used = 0;
		for (size_t i = 0; i < o.n; i++)
			if (o.vals[i])
				put(m, o.keys[i], o.vals[i]);
		free(o.keys);
		free(o.vals);
	}
	put(m, key, val + 1);
	return 1;
}
