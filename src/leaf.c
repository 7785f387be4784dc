// SPDX-License-Identifier: GPL-2.0-or-later
/* -g's leaf repair (leaf.h): its rule and its walk. */
#include "config.h"

#include <string.h>

#include "leaf.h"

int leaf_classify(const struct leaf_row *r, int64_t *cfa_off, int64_t *ra_at)
{
	if (r->signal || !r->cfa_sp)
		return LEAF_STOP;
	/* a frame found from sp, not from a frame pointer of its own */
	if (r->ra == LEAF_RA_AT_CFA && r->cfa_off > 0) {
		*cfa_off = r->cfa_off;
		/* wrapping, not overflowing, on a crafted file's offsets */
		*ra_at = (int64_t)((uint64_t)r->cfa_off + (uint64_t)r->ra_off);
		return LEAF_STEP;
	}
	/* aarch64's leaf, or any function before it saves x30 */
	if (r->ra == LEAF_RA_SAME && r->cfa_off >= 0 && !r->ra_is_sp) {
		*cfa_off = r->cfa_off;
		*ra_at = 0;
		return LEAF_LINK;
	}
	return LEAF_STOP;
}

int leaf_walk(const struct leaf_ops *ops, void *ctx, uint64_t pc, const unsigned char *stack,
	      size_t len, const uint64_t *lr, uint64_t *ras, int max)
{
	uint64_t look = pc, off = 0;
	int n = 0;

	while (n < max) {
		int64_t cfa_off = 0, ra_at = 0, at;
		uint64_t ra;
		int kind = ops->rule(ctx, look, &cfa_off, &ra_at), take;

		if (kind == LEAF_UNSURE)
			return -1;
		/* the link register holds the interrupted function's return address alone */
		if (kind == LEAF_LINK && n == 0 && lr) {
			take = *lr ? ops->take(ctx, *lr) : 0;
			if (take < 0)
				return -1;
			if (!take)
				break;
			ras[n++] = *lr;
			off += (uint64_t)cfa_off;
			look = *lr - 1;
			continue;
		}
		if (kind != LEAF_STEP)
			break;
		at = (int64_t)(off + (uint64_t)ra_at);
		if (at < 0 || (uint64_t)at > len || len - (uint64_t)at < 8)
			break;
		memcpy(&ra, stack + at, 8);
		take = ra ? ops->take(ctx, ra) : 0;
		if (take < 0)
			return -1;
		if (!take)
			break;
		ras[n++] = ra;
		off += (uint64_t)cfa_off;	/* the caller's sp is the CFA */
		look = ra - 1;
	}
	return n;
}
