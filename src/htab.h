/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one hash table of the tree: an open-addressing index from a 64-bit
 * hash to items the caller keeps in an array of its own (item i is the
 * caller's element i). The caller decides which candidate is equal; the
 * table keeps 32 bits of each hash beside the item, so that it looks at
 * an element only when those bits match, and grows without asking.
 *
 *	struct htab_probe p;
 *	uint32_t i;
 *
 *	htab_probe(&t, hash, &p);
 *	while (htab_next(&t, &p, &i))
 *		if (equal(&items[i], key))
 *			return i;
 *	htab_put(&t, &p, n);	// after items[n] is filled in
 *
 * At most half full, linear probing; the hash is mixed first, so keys
 * that differ in a few bits only (addresses, ids) still spread.
 */
#ifndef PROF_HTAB_H
#define PROF_HTAB_H

#include <stddef.h>
#include <stdint.h>

struct htab {
	uint64_t *slots;	/* tag << 32 | (item + 1); 0: empty */
	size_t n, used;		/* slots (a power of two, or 0), items held */
};

struct htab_probe {
	size_t i;		/* the slot looked at next */
	uint32_t tag;
};

#define HTAB_INIT { NULL, 0, 0 }

void htab_init(struct htab *t);
void htab_release(struct htab *t);
/* Forget every item, keeping the memory. */
void htab_clear(struct htab *t);
size_t htab_count(const struct htab *t);

/*
 * What picks a slot: the high half of a multiplication (Fibonacci
 * hashing), the high half of x folded in first so that keys that differ
 * only there (sample ids, addresses) still spread. One multiply: a probe
 * is on the hot path of every frame of every sample.
 */
static inline uint64_t htab_mix(uint64_t x)
{
	return (x ^ x >> 32) * 0x9e3779b97f4a7c15ULL;
}

/* FNV-1a over bytes: for strings and byte keys. */
uint64_t htab_hash_bytes(const void *data, size_t len);
/*
 * Eight bytes a step, from h: for long keys and checksums of files,
 * about 8x htab_hash_bytes()'s speed (whose byte-a-multiply chain was 3%
 * of a small report, checking cached scope trees and interning names).
 */
uint64_t htab_hash_chunks(uint64_t h, const void *data, size_t len);
/*
 * Words, combined: for keys of several fields. Each word is multiplied on
 * its own (the multiplies run side by side), the sum rotated between.
 */
static inline uint64_t htab_hash_words(const uint64_t *w, size_t n)
{
	uint64_t h = n;

	for (size_t i = 0; i < n; i++) {
		h += w[i] * 0xc2b2ae3d27d4eb4fULL;
		h = h << 31 | h >> 33;
	}
	return h;
}

/* Start looking for items of hash. */
static inline void htab_probe(const struct htab *t, uint64_t hash, struct htab_probe *p)
{
	uint64_t m = htab_mix(hash);

	p->tag = (uint32_t)(m >> 32);
	p->i = t->n ? (size_t)p->tag & (t->n - 1) : 0;
}

/* The next item whose hash may be the probe's: 1 and *item, or 0 at the end. */
static inline int htab_next(const struct htab *t, struct htab_probe *p, uint32_t *item)
{
	if (!t->n)
		return 0;
	for (;;) {
		uint64_t s = t->slots[p->i];

		if (!s)
			return 0;
		p->i = (p->i + 1) & (t->n - 1);
		if ((uint32_t)(s >> 32) == p->tag) {
			*item = (uint32_t)s - 1;
			return 1;
		}
	}
}

/*
 * Add item under the hash of p, after htab_next() said 0 on p (so that
 * p stands on an empty slot). p is spent.
 */
void htab_put(struct htab *t, struct htab_probe *p, uint32_t item);

/*
 * Make t again from the items 0..n-1, item i under hash(ctx, i): after
 * the items were removed, moved or reordered (the table has no removal).
 */
void htab_reindex(struct htab *t, size_t n, uint64_t (*hash)(const void *ctx, size_t i),
		  const void *ctx);

#endif
