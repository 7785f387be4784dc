/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's first stage: records put back in time order and handed,
 * one sorted round at a time, to a delivery thread of its own (perf's
 * ordered events). The caller's thread queues (order_queue()) and says
 * where rounds end (order_round()); the delivery thread calls ops->deliver
 * for each record, in time order. It knows nothing of what records say:
 * the caller gives each its time.
 */
#ifndef PROF_REPORT_ORDER_H
#define PROF_REPORT_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct order_ops {
	/* One record, in time order, with its file offset; non-zero stops the order. */
	int (*deliver)(void *ctx, const struct perf_event_header *h, uint64_t foff);
	/* After each round delivered, on the same thread; NULL: nothing. */
	void (*round_done)(void *ctx);
	/*
	 * At the end (order_finish()) and at order_sync(), with no record
	 * in flight: what the consumer put aside goes out. 0 or non-zero as
	 * deliver. NULL: nothing.
	 */
	int (*release)(void *ctx);
};

struct order;

struct order *order_new(const struct order_ops *ops, void *ctx);
/* Stops the delivery thread, skipping what it has not delivered. */
void order_free(struct order *o);

/*
 * Queue a copy of record h (of file offset foff) at time. 0, or the
 * first non-zero a delivery returned (nothing more is delivered then).
 */
int order_queue(struct order *o, const struct perf_event_header *h, uint64_t foff,
		uint64_t time);
/* A FINISHED_ROUND: what came before the previous round's end is safe. Same returns. */
int order_round(struct order *o);
/*
 * The end: everything queued delivered, the delivery thread joined, then
 * ops->release. Same returns.
 */
int order_finish(struct order *o);
/* Wait until every round handed on has been delivered and the thread is idle. */
void order_drain(struct order *o);
/* order_drain(), then ops->release on the caller's thread. Same returns. */
int order_sync(struct order *o);
/* Give up: once this returns, ops->deliver runs no more. */
void order_abort(struct order *o);
/* The first non-zero a delivery returned, else 0. */
int order_result(const struct order *o);
/*
 * How many times the queue, bounded at 32 MiB of records, had to hand
 * records on before a round's end said it was safe.
 */
uint64_t order_forced(const struct order *o);

#endif
