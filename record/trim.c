// SPDX-License-Identifier: GPL-2.0-or-later
/* Stack copies cut to what was copied. See trim.h. */
#include "config.h"

#include <string.h>

#include "trim.h"

/* The words of -g's stack that cannot be return addresses (codemap_may_return()), zeroed. */
static void zero_non_code(struct codemap *code, unsigned char *data, uint64_t len)
{
	for (uint64_t i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, data + i, 8);
		if (w && !codemap_may_return(code, w))
			memset(data + i, 0, 8);
	}
}

int trim_filter(void *ctx, struct rec *r)
{
	static const unsigned char zero[8];
	struct codemap *code = ctx;
	unsigned char *data, *after, *rec = r->p;
	size_t size = r->h.size;
	uint64_t keep, dyn;

	if (!r->ok || !r->s.stack)
		return REC_KEEP;
	data = rec + (r->s.stack - rec);
	dyn = r->s.stack_dyn_size;
	if (code) {
		zero_non_code(code, data, dyn);
		/*
		 * and the zeroed words at its end go: the report's repair stops
		 * at the end of a copy as it stops at a 0 (leaf_walk()). One
		 * word stays, so that the sample still has a copy to read.
		 */
		while (dyn > 8 && !(dyn & 7) && !memcmp(data + dyn - 8, zero, 8))
			dyn -= 8;
	}
	keep = (dyn + 7) & ~7ULL;
	if (keep < 8)
		keep = 8;	/* a size of 0 would drop dyn_size too */
	if (keep >= r->s.stack_size)
		return REC_KEEP;
	after = data + r->s.stack_size;	/* dyn_size, then any later fields */
	memmove(data + keep, after, (size_t)(rec + size - after));
	memset(data + dyn, 0, (size_t)(keep - dyn));
	memcpy(data - 8, &keep, 8);
	memcpy(data + keep, &dyn, 8);
	size -= (size_t)(r->s.stack_size - keep);
	r->h.size = (uint16_t)size;
	memcpy(rec, &r->h, sizeof(r->h));
	r->ok = 0;	/* s no longer describes it */
	return REC_KEEP;
}
