// SPDX-License-Identifier: GPL-2.0-or-later
/* The one hash table: see htab.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "xalloc.h"

void htab_init(struct htab *t)
{
	t->slots = NULL;
	t->n = t->used = 0;
}

void htab_release(struct htab *t)
{
	free(t->slots);
	htab_init(t);
}

void htab_clear(struct htab *t)
{
	if (t->n)
		memset(t->slots, 0, t->n * sizeof(*t->slots));
	t->used = 0;
}

void htab_reindex(struct htab *t, size_t n, uint64_t (*hash)(const void *ctx, size_t i),
		  const void *ctx)
{
	htab_clear(t);
	for (size_t i = 0; i < n; i++) {
		struct htab_probe p;
		uint32_t j;

		htab_probe(t, hash(ctx, i), &p);
		while (htab_next(t, &p, &j))
			;
		htab_put(t, &p, (uint32_t)i);
	}
}

size_t htab_count(const struct htab *t)
{
	return t->used;
}

uint64_t htab_hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

uint64_t htab_hash_chunks(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, p, len);
	h = (h ^ w ^ len) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

static void place(uint64_t *slots, size_t n, uint64_t s)
{
	size_t i = (size_t)(s >> 32) & (n - 1);

	while (slots[i])
		i = (i + 1) & (n - 1);
	slots[i] = s;
}

void htab_put(struct htab *t, struct htab_probe *p, uint32_t item)
{
	uint64_t s = (uint64_t)p->tag << 32 | ((uint64_t)item + 1);

	if ((t->used + 1) * 2 > t->n) {
		uint64_t *old = t->slots;
		size_t n = t->n;

		t->n = n ? 2 * n : 16;
		t->slots = xcalloc_huge(t->n, sizeof(*t->slots));
		for (size_t i = 0; i < n; i++)
			if (old[i])
				place(t->slots, t->n, old[i]);
		free(old);
		place(t->slots, t->n, s);
	} else {
		/* htab_next() stopped on the empty slot p->i */
		t->slots[p->i] = s;
	}
	t->used++;
}
