// SPDX-License-Identifier: GPL-2.0-or-later
/* Stack copies cut to what was copied. See trim.h. */
#include "config.h"

#include <string.h>

#include "trim.h"

/*
 * -g's stack copy of len bytes cut after the last word that may be a
 * return address (codemap_may_return(); one word at least), the words
 * past it being no more use to the report than zeros: the length to
 * keep. Looked for from the end, the words before it are not looked up
 * at all unless all is set (zeroed then where they cannot return, for
 * zstd's sake); each look-up is a probe of the codemap, and at 40 kHz on
 * every CPU they were a fifth of the recorder's CPU. A copy whose length
 * is not of whole words (the kernel gives none such on x86-64 or arm64)
 * is kept as long, its words zeroed when all is set.
 */
static uint64_t cut_non_code(struct codemap *code, unsigned char *data, uint64_t len, int all)
{
	uint64_t keep = len, zero_to = len;	/* the words below zero_to: zeroed where they cannot return */

	if (!(len & 7)) {
		for (; keep > 0; keep -= 8) {
			uint64_t w;

			memcpy(&w, data + keep - 8, 8);
			if (w && codemap_may_return(code, w))
				break;
		}
		if (!keep) {
			if (len)
				memset(data, 0, 8);	/* the one word kept, which cannot return */
			return len ? 8 : 0;
		}
		zero_to = keep - 8;	/* the word that may return stays as it is */
	}
	for (uint64_t i = 0; all && i + 8 <= zero_to; i += 8) {
		uint64_t w;

		memcpy(&w, data + i, 8);
		if (w && !codemap_may_return(code, w))
			memset(data + i, 0, 8);
	}
	return keep;
}

int trim_filter(void *ctx, struct rec *r)
{
	const struct trim *t = ctx;
	unsigned char *data, *after, *rec = r->p;
	size_t size = r->h.size;
	uint64_t keep, dyn;

	if (!r->ok || !r->s.stack)
		return REC_KEEP;
	data = rec + (r->s.stack - rec);
	dyn = r->s.stack_dyn_size;
	/*
	 * the words at its end that cannot return go: the report's repair
	 * stops at the end of a copy as it stops at a 0 (leaf_walk()). One
	 * word stays, so that the sample still has a copy to read.
	 */
	if (t->code)
		dyn = cut_non_code(t->code, data, dyn, t->zero_all);
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
