// SPDX-License-Identifier: GPL-2.0-or-later
/* Work the recorder leaves past a share of a CPU. See budget.h. */
#include "config.h"

#include <string.h>

#include "budget.h"
#include "clock.h"
#include "mend.h"
#include "share.h"

void budget_init(struct budget *b, unsigned share)
{
	memset(b, 0, sizeof(*b));
	b->share = share;
}

int budget_pass(struct budget *b)
{
	uint64_t now = mono_ns(), wall, share;

	if (!b->share)
		return 0;
	if (!b->win_start) {
		b->win_start = now;
		return b->over;
	}
	wall = now - b->win_start;
	if (!b->over) {
		share = b->win_ns * 1000000 / wall;
		if (!share_judged(share, b->share, wall))
			return 0;
		if (share_passed(share, b->share, wall) && b->win_done) {
			b->ns_per = b->win_ns / b->win_done;
			b->over = 1;
			b->times++;
		}
	} else {
		if (wall < SHARE_WINDOW_NS)
			return 1;
		if (share_back(b->win_seen, b->ns_per, wall, b->share))
			b->over = 0;
	}
	b->win_start = now;
	b->win_ns = b->win_done = b->win_seen = 0;
	return b->over;
}

int mend_gate_filter(void *ctx, struct rec *r)
{
	struct mend_gate *g = ctx;
	uint64_t t0;
	int ret;

	if (!g->b.share)
		return mend_filter(g->m, r);
	if (!r->ok || !r->s.stack)
		return REC_KEEP;
	g->b.win_seen++;
	if (g->b.over) {
		g->b.left++;
		return REC_KEEP;	/* its stack kept, as mend_filter() keeps one it cannot mend */
	}
	g->b.win_done++;
	if (++g->b.tick % BUDGET_EVERY)
		return mend_filter(g->m, r);
	t0 = mono_ns();
	ret = mend_filter(g->m, r);
	g->b.win_ns += BUDGET_EVERY * (mono_ns() - t0);
	return ret;
}
