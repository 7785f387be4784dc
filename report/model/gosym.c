// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Go's function table, as the runtime lays it out (runtime/symtab.go) and
 * debug/gosym reads it: a header, then a table of (entry, offset of the
 * function's _func) pairs sorted by entry and ended by the end of the
 * text, each _func naming its function by an offset into a table of
 * NUL-terminated names. Four layouts by magic:
 *   0xfffffffb Go 1.2-1.15  entry and offset pointer-sized, entries
 *                           absolute; names and _funcs from the table start
 *   0xfffffffa Go 1.16-1.17 a header of offsets: funcnametab (word 2),
 *                           functab (word 6); fields pointer-sized
 *   0xfffffff0 Go 1.18-1.19 textStart (word 2), funcnametab (word 3),
 *   0xfffffff1 Go 1.20-     functab (word 7); fields 4 bytes, entries
 *                           offsets from textStart
 * Every offset and count is checked against the table's length: a
 * damaged or crafted binary gives fewer functions, never a read outside.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gosym.h"
#include "xalloc.h"

struct tab {
	const unsigned char *p;
	size_t len;
	unsigned ptr;		/* 4 or 8 */
};

/* The little-endian n-byte value at off, or 0 with *bad set when it is outside. */
static uint64_t get(const struct tab *t, uint64_t off, unsigned n, int *bad)
{
	uint64_t v = 0;

	if (off > t->len || t->len - off < n) {
		*bad = 1;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)t->p[off + i] << (8 * i);
	return v;
}

static int by_start(const void *a, const void *b)
{
	const struct gofunc *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

size_t gosym_read(const unsigned char *p, size_t len, uint64_t text_addr, struct gofunc **out)
{
	struct tab t = { p, len, 0 };
	uint64_t magic, nfunc, names, functab, funcs, text = 0;
	unsigned field;		/* bytes of a functab field */
	int bad = 0, rel;	/* rel: entries are offsets from text (1.18+) */
	struct gofunc *f;
	size_t n = 0;

	*out = NULL;
	if (len < 16 || p[4] || p[5] || (p[6] != 1 && p[6] != 2 && p[6] != 4) ||
	    (p[7] != 4 && p[7] != 8))
		return 0;
	t.ptr = p[7];
	magic = get(&t, 0, 4, &bad);
#define WORD(i) get(&t, 8 + (uint64_t)(i) * t.ptr, t.ptr, &bad)
	nfunc = WORD(0);
	switch (magic) {
	case 0xfffffffb:
		names = funcs = 0;
		functab = 8 + t.ptr;
		field = t.ptr;
		rel = 0;
		break;
	case 0xfffffffa:
		names = WORD(2);
		funcs = functab = WORD(6);
		field = t.ptr;
		rel = 0;
		break;
	case 0xfffffff0:
	case 0xfffffff1:
		text = text_addr ? text_addr : WORD(2);
		names = WORD(3);
		funcs = functab = WORD(7);
		field = 4;
		rel = 1;
		break;
	default:
		return 0;
	}
	/* 2 * nfunc + 1 fields must fit, whatever nfunc claims */
	if (bad || functab > len || nfunc > (len - functab) / (2 * (uint64_t)field))
		return 0;
	f = xreallocarray(NULL, nfunc ? (size_t)nfunc : 1, sizeof(*f));
	for (uint64_t i = 0; i < nfunc; i++) {
		uint64_t e = get(&t, functab + 2 * i * field, field, &bad);
		uint64_t end = get(&t, functab + (2 * i + 2) * field, field, &bad);
		uint64_t fo = get(&t, functab + (2 * i + 1) * field, field, &bad);
		/* the _func: its entry (4 bytes from 1.18, a pointer before), then its name's offset */
		uint64_t noff = get(&t, funcs + fo + (rel ? 4 : t.ptr), 4, &bad);
		uint64_t at = names + noff;
		const unsigned char *nul;

		if (bad)
			break;
		if (end <= e || at >= len || !(nul = memchr(p + at, '\0', len - at)) ||
		    nul == p + at)
			continue;
		f[n].start = rel ? text + e : e;
		f[n].end = rel ? text + end : end;
		f[n].name = (const char *)(p + at);
		n++;
	}
#undef WORD
	if (!n) {
		free(f);
		return 0;
	}
	qsort(f, n, sizeof(*f), by_start);
	*out = f;
	return n;
}
