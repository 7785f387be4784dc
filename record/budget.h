/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A share of one CPU that some work the recorder may leave out is
 * allowed, and the leaving: -g's leaf repair (mend.h), whose samples,
 * left, keep their stack bytes for prof report to repair from, so that
 * nothing of the profile is lost, only file size. The writer's
 * compression has its own (writer_shed()). One item of work in
 * BUDGET_EVERY is timed (CLOCK_MONOTONIC through the vDSO, some 30 ns:
 * CLOCK_THREAD_CPUTIME_ID is a system call, 0.6 us here, as much as a
 * repair); a window of at least BUDGET_WINDOW_NS, or BUDGET_QUICK_NS when
 * already 4 times over, says whether the share was passed. Once left, the
 * work comes back when its cost a item, as last measured, at the rate of
 * the last window, keeps within half the share.
 */
#ifndef PROF_BUDGET_H
#define PROF_BUDGET_H

#include <stdint.h>

#include "drain.h"

#define BUDGET_EVERY	16
#define BUDGET_WINDOW_NS 1000000000ull
#define BUDGET_QUICK_NS	50000000ull

struct budget {
	unsigned share;			/* millionths of one CPU; 0: no limit */
	int over;			/* past it: the work is left */
	uint64_t win_start;		/* the window's start (mono_ns()); 0: none yet */
	uint64_t win_ns;		/* the work's time in it, the timed items' times BUDGET_EVERY */
	uint64_t win_done, win_seen;	/* items done in it; items that came */
	uint64_t tick;
	uint64_t ns_per;		/* an item's cost when the work was left */
	uint64_t times, left;		/* times the share was passed; items left */
};

void budget_init(struct budget *b, unsigned share);
/* At a pass's start: the window looked at when it is long enough. 1 while the work is left. */
int budget_pass(struct budget *b);

struct mend;
/* The leaf repair's filter (mend_filter()) within a budget: ctx is a struct mend_gate. */
struct mend_gate {
	struct mend *m;
	struct budget b;
};
int mend_gate_filter(void *ctx, struct rec *r);

#endif
