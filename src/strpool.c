// SPDX-License-Identifier: GPL-2.0-or-later
/* String interning: an open-addressing hash set, strings in large blocks. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "strpool.h"
#include "xalloc.h"

/*
 * Blocks grow from FIRST_BLOCK to BLOCK bytes, and the table from 16
 * slots: a report makes a pool per event, and a file may hold thousands
 * of events of a sample or two, each of which must cost what it holds.
 */
#define BLOCK (64 * 1024)
#define FIRST_BLOCK 256

struct str {
	const char *s;
	size_t len;
};

struct strpool {
	struct htab t;
	struct str *strs;	/* the htab's items */
	size_t cap;
	char **blocks;
	size_t nblocks;
	char *cur;		/* free space in the last block */
	size_t left;
};

struct strpool *strpool_new(void)
{
	struct strpool *p = xcalloc(1, sizeof(*p));

	htab_init(&p->t);
	return p;
}

void strpool_free(struct strpool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nblocks; i++)
		free(p->blocks[i]);
	free(p->blocks);
	htab_release(&p->t);
	free(p->strs);
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

const char *strpool_intern_len(struct strpool *p, const char *s, size_t len)
{
	struct htab_probe probe;
	size_t n = htab_count(&p->t);
	uint32_t i;

	htab_probe(&p->t, htab_hash_chunks(0, s, len), &probe);
	while (htab_next(&p->t, &probe, &i))
		if (p->strs[i].len == len && !memcmp(p->strs[i].s, s, len))
			return p->strs[i].s;
	if (n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->strs = xreallocarray(p->strs, p->cap, sizeof(*p->strs));
	}
	p->strs[n].s = store(p, s, len);
	p->strs[n].len = len;
	htab_put(&p->t, &probe, (uint32_t)n);
	return p->strs[n].s;
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
