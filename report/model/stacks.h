/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's stacks stage: samples held as addresses placed in their
 * process's maps (raw frames, resolve.h), named later.
 *   - Sums (session_sum()): samples of the same event, command, files
 *     and addresses (and pid, tid or cpu, as the keys ask) with the same
 *     walk marks are added up; each sum's frames are named once.
 *   - Parked samples (session_unordered()): a sample whose file is still
 *     being opened, put aside with its addresses placed in the maps of
 *     its time.
 * stacks_release() names and hands on what is held: the parked samples
 * in the order they came, then the sums in an order that keeps shared
 * callers together. On the delivery thread.
 */
#ifndef PROF_REPORT_STACKS_H
#define PROF_REPORT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"
#include "walk.h"

struct proc;
struct resolver;
struct stacks;

/* Sums and parked samples go to fn(ctx, ...), named by res. */
struct stacks *stacks_new(struct resolver *res, session_sample_fn fn, void *ctx);
void stacks_free(struct stacks *st);
/* What else than the frames tells sums apart: SESSION_SUM_PID, _TID, _CPU. */
void stacks_keys(struct stacks *st, unsigned keys);

/*
 * Summing one sample: stacks_sum_begin() with its process, then a walk
 * with stacks_sum_frame (arg: the stacks), then stacks_sum_add() with
 * the sample (its frames ignored) and what the walk found; mended: the
 * recorder's mending counts. A walk that stops (-1) met JIT code, which
 * is named by tables that change with time: the sample is not summed.
 * stacks_sum_add() returns 0, or the callback's non-zero when the sums
 * were full and handed on.
 */
void stacks_sum_begin(struct stacks *st, const struct proc *pr);
int stacks_sum_frame(void *st, uint64_t a, int kernel, int caller, int by_fp);
int stacks_sum_add(struct stacks *st, const struct rsample *rs, const struct walk_marks *mk,
		   int mended);

/*
 * Parking one sample rs (its frames ignored) of process pr, when there
 * is room (stacks_can_park(); else it must wait for its files):
 * stacks_park_begin(), a walk with stacks_park_frame, then
 * stacks_park_end() with what the walk found.
 */
int stacks_can_park(const struct stacks *st);
void stacks_park_begin(struct stacks *st, const struct rsample *rs, const struct proc *pr);
int stacks_park_frame(void *st, uint64_t a, int kernel, int caller, int by_fp);
void stacks_park_end(struct stacks *st, const struct walk_marks *mk);

/* Whether anything is held. */
int stacks_held(const struct stacks *st);
/* Name and hand on what is held. 0, or the callback's non-zero. */
int stacks_release(struct stacks *st);
/* Mark live (dso_mark_live()) the files of what is held. */
void stacks_mark_live(struct stacks *st);

#endif
