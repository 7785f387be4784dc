// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -g's leaf repair (src/leaf.h), the one rule of the recorder and the
 * report: a row that finds its frame from sp steps, with the return
 * address at CFA + n; a signal frame, a CFA off another register, or a
 * return address elsewhere does not; aarch64's leaf (the return address
 * still in x30) takes the link register, once, first; the walk reads
 * each return address from the stack copy at the offset the rows add up
 * to, stops where the caller refuses one, where the copy ends, at 0, and
 * gives up where a side is unsure.
 */
#include "config.h"

#include <string.h>

#include "leaf.h"
#include "tap.h"

/* The fake process: functions by pc range, each with a row; code is 0x400000..0x500000. */
struct fn {
	uint64_t lo, hi;
	int kind;
	int64_t cfa_off, ra_at;
};

struct fake {
	const struct fn *fn;
	int n;
	int unsure_take;	/* take() is unsure of this address */
};

static int rule(void *ctx, uint64_t look, int64_t *cfa_off, int64_t *ra_at)
{
	const struct fake *f = ctx;

	for (int i = 0; i < f->n; i++)
		if (look >= f->fn[i].lo && look < f->fn[i].hi) {
			*cfa_off = f->fn[i].cfa_off;
			*ra_at = f->fn[i].ra_at;
			return f->fn[i].kind;
		}
	return LEAF_UNSURE;
}

static int take(void *ctx, uint64_t ra)
{
	const struct fake *f = ctx;

	if (f->unsure_take && ra == (uint64_t)f->unsure_take)
		return -1;
	return ra >= 0x400000 && ra < 0x500000;
}

static const struct leaf_ops ops = { rule, take };

int main(void)
{
	struct leaf_row r;
	int64_t co = 0, ra = 0;
	uint64_t stack[16], ras[8], lr;
	int n;
	/* leaf: sp + 8 holds its return address into mid (CFA = sp + 16, RA at CFA - 8);
	 * mid: its frame 32 more bytes, RA at CFA - 8; top: a frame pointer's (stop) */
	static const struct fn fns[] = {
		{ 0x401000, 0x402000, LEAF_STEP, 16, 8 },
		{ 0x402000, 0x403000, LEAF_STEP, 32, 24 },
		{ 0x403000, 0x404000, LEAF_STOP, 0, 0 },
		{ 0x405000, 0x406000, LEAF_LINK, 0, 0 },
	};
	struct fake f = { fns, 4, 0 };

	memset(&r, 0, sizeof(r));
	r.cfa_sp = 1;
	r.cfa_off = 16;
	r.ra = LEAF_RA_AT_CFA;
	r.ra_off = -8;
	n = leaf_classify(&r, &co, &ra);
	ok(n == LEAF_STEP && co == 16 && ra == 8,
	   "CFA = sp + 16, RA at CFA - 8: a step, the RA at sp + 8 (%lld)", (long long)ra);
	r.signal = 1;
	ok(leaf_classify(&r, &co, &ra) == LEAF_STOP, "a signal frame: no step");
	r.signal = 0;
	r.cfa_sp = 0;
	ok(leaf_classify(&r, &co, &ra) == LEAF_STOP, "a CFA off the frame pointer: no step");
	r.cfa_sp = 1;
	r.cfa_off = 0;
	ok(leaf_classify(&r, &co, &ra) == LEAF_STOP, "a CFA at sp itself with the RA saved: no step");
	r.ra = LEAF_RA_SAME;
	ok(leaf_classify(&r, &co, &ra) == LEAF_LINK, "the RA in its register still: the link register");
	r.ra_is_sp = 1;
	ok(leaf_classify(&r, &co, &ra) == LEAF_STOP, "unless that register is sp");
	r.ra_is_sp = 0;
	r.ra = LEAF_RA_OTHER;
	r.cfa_off = 16;
	ok(leaf_classify(&r, &co, &ra) == LEAF_STOP, "the RA elsewhere: no step");

	memset(stack, 0, sizeof(stack));
	stack[1] = 0x402010;		/* leaf's RA, at sp + 8: into mid */
	stack[2 + 3] = 0x403010;	/* mid's, at its sp (16) + 24 = 40: into top */
	n = leaf_walk(&ops, &f, 0x401010, (const unsigned char *)stack, sizeof(stack), NULL, ras, 8);
	ok(n == 2 && ras[0] == 0x402010 && ras[1] == 0x403010,
	   "leaf then mid: two return addresses (%d)", n);
	n = leaf_walk(&ops, &f, 0x401010, (const unsigned char *)stack, 40, NULL, ras, 8);
	ok(n == 1, "a copy that ends before the second: one (%d)", n);
	n = leaf_walk(&ops, &f, 0x401010, (const unsigned char *)stack, sizeof(stack), NULL, ras, 1);
	ok(n == 1, "at most max");
	stack[1] = 0x1000;		/* data, not a return address */
	n = leaf_walk(&ops, &f, 0x401010, (const unsigned char *)stack, sizeof(stack), NULL, ras, 8);
	ok(n == 0, "a refused return address stops it");
	stack[1] = 0;
	n = leaf_walk(&ops, &f, 0x401010, (const unsigned char *)stack, sizeof(stack), NULL, ras, 8);
	ok(n == 0, "so does 0");
	stack[1] = 0x402010;
	f.unsure_take = 0x403010;
	n = leaf_walk(&ops, &f, 0x401010, (const unsigned char *)stack, sizeof(stack), NULL, ras, 8);
	ok(n == -1, "a side unsure of a return address: unsure");
	f.unsure_take = 0;
	n = leaf_walk(&ops, &f, 0x409000, (const unsigned char *)stack, sizeof(stack), NULL, ras, 8);
	ok(n == -1, "a side unsure of a row: unsure");

	lr = 0x402010;
	n = leaf_walk(&ops, &f, 0x405010, (const unsigned char *)stack, sizeof(stack), &lr, ras, 8);
	ok(n >= 1 && ras[0] == 0x402010, "aarch64's leaf: the link register first (%d)", n);
	n = leaf_walk(&ops, &f, 0x405010, (const unsigned char *)stack, sizeof(stack), NULL, ras, 8);
	ok(n == 0, "without a sampled link register: nothing");
	return tap_done();
}
