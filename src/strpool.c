// SPDX-License-Identifier: GPL-2.0-or-later
/* String interning: an open-addressing hash set, strings in large blocks. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"
#include "xalloc.h"

/*
 * Blocks grow from FIRST_BLOCK to BLOCK bytes, and the table from 16
 * slots: a report makes a pool per event, and a file may hold thousands
 * of events of a sample or two, each of which must cost what it holds.
 */
#define BLOCK (64 * 1024)
#define FIRST_BLOCK 256

struct slot {
	const char *s;
	size_t len;
	unsigned long hash;
};

struct strpool {
	struct slot *slots;
	size_t nslots, used;
	char **blocks;
	size_t nblocks;
	char *cur;		/* free space in the last block */
	size_t left;
};

unsigned long strpool_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return (unsigned long)h;
}

struct strpool *strpool_new(void)
{
	struct strpool *p = xcalloc(1, sizeof(*p));

	p->nslots = 16;
	p->slots = xcalloc(p->nslots, sizeof(*p->slots));
	return p;
}

void strpool_free(struct strpool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	free(p->slots);
	free(p);
}

static char *store(struct strpool *p, const char *s, size_t len)
{
	char *dst;

	if (len + 1 > p->left) {
		size_t grow = p->nblocks < 8 ? (size_t)FIRST_BLOCK << p->nblocks : BLOCK;
		size_t size = len + 1 > grow ? len + 1 : grow;

		p->blocks = xreallocarray(p->blocks, p->nblocks + 1, sizeof(*p->blocks));
		p->blocks[p->nblocks++] = p->cur = xmalloc(size);
		p->left = size;
	}
	dst = p->cur;
	memcpy(dst, s, len);
	dst[len] = '\0';
	p->cur += len + 1;
	p->left -= len + 1;
	return dst;
}

static void grow(struct strpool *p)
{
	struct slot *old = p->slots;
	size_t n = p->nslots;

	p->nslots *= 2;
	p->slots = xcalloc(p->nslots, sizeof(*p->slots));
	for (size_t i = 0; i < n; i++) {
		size_t j;

		if (!old[i].s)
			continue;
		for (j = old[i].hash & (p->nslots - 1); p->slots[j].s; j = (j + 1) & (p->nslots - 1))
			;
		p->slots[j] = old[i];
	}
	free(old);
}

const char *strpool_intern_len(struct strpool *p, const char *s, size_t len)
{
	unsigned long h = strpool_hash(s, len);
	size_t i;

	for (i = h & (p->nslots - 1); p->slots[i].s; i = (i + 1) & (p->nslots - 1))
		if (p->slots[i].hash == h && p->slots[i].len == len &&
		    !memcmp(p->slots[i].s, s, len))
			return p->slots[i].s;
	p->slots[i].s = store(p, s, len);
	p->slots[i].len = len;
	p->slots[i].hash = h;
	if (++p->used * 2 > p->nslots) {
		const char *r = p->slots[i].s;

		grow(p);
		return r;
	}
	return p->slots[i].s;
}

const char *strpool_intern(struct strpool *p, const char *s)
{
	return strpool_intern_len(p, s, strlen(s));
}

/* s with its control characters as '?', interned. */
static const char *intern_cleaned(struct strpool *p, const char *s, size_t len)
{
	char *copy = xmalloc(len + 1);
	const char *out;

	for (size_t i = 0; i < len; i++)
		copy[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	out = strpool_intern_len(p, copy, len);
	free(copy);
	return out;
}

const char *strpool_intern_text(struct strpool *p, const char *s, size_t len)
{
	len = strnlen(s, len);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return intern_cleaned(p, s, len);
	return strpool_intern_len(p, s, len);
}
