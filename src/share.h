/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one rule for work the recorder leaves while it costs more than a
 * share of one CPU: the leaf repair (record/budget.h) and the writer's
 * compression (writer_shed(); its steps between levels too). A share is
 * in millionths of a CPU, measured over a window of wall time: a window
 * says whether the share was passed once it is SHARE_WINDOW_NS long, or
 * already at SHARE_QUICK_NS where it is over 4 times the share (a burst
 * at 40 kHz fills a ring in well under a second). The work comes back
 * once its cost an item when it was left, for the items of a whole
 * window, keeps within half the share, so that it does not come back
 * only to be left again at the next window.
 */
#ifndef PROF_SHARE_H
#define PROF_SHARE_H

#include <stdint.h>

#define SHARE_WINDOW_NS	1000000000ull
#define SHARE_QUICK_NS	50000000ull

/* Whether a window of wall ns in which the work took share says anything of limit. */
static inline int share_judged(uint64_t share, unsigned limit, uint64_t wall)
{
	return wall >= SHARE_WINDOW_NS || (wall >= SHARE_QUICK_NS && share > 4 * (uint64_t)limit);
}

/* The work took share of a CPU in wall ns: past limit, in a window that says so. */
static inline int share_passed(uint64_t share, unsigned limit, uint64_t wall)
{
	return share > limit && share_judged(share, limit, wall);
}

/*
 * Left, items came in a whole window of wall ns: whether they, at ns_per
 * each (as measured when the work was left), keep within half of limit.
 */
static inline int share_back(uint64_t items, uint64_t ns_per, uint64_t wall, unsigned limit)
{
	return wall >= SHARE_WINDOW_NS && items * ns_per * 1000000 / wall <= limit / 2;
}

#endif
