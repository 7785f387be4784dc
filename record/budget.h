/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A share of one CPU that some work the recorder may leave out is
 * allowed, and the leaving: -g's leaf repair (mend.h), whose samples,
 * left, keep their stack bytes for prof report to repair from, so that
 * nothing of the profile is lost, only file size. The writer's
 * compression is left by the same rule (writer_shed()). One item of work in
 * BUDGET_EVERY is timed (CLOCK_MONOTONIC through the vDSO, some 30 ns:
 * CLOCK_THREAD_CPUTIME_ID is a system call, 0.6 us here, as much as a
 * repair); the windows and the rule: share.h.
 */
#ifndef PROF_BUDGET_H
#define PROF_BUDGET_H

#include <stdint.h>

#include "drain.h"

#define BUDGET_EVERY	16

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
