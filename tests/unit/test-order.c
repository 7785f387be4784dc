// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The order stage (report/model/order.h) alone: records come out in time
 * order, those of one time in the order they came; a round hands on only
 * what came before the previous round's end; a delivery's non-zero stops
 * the order; order_sync() and order_finish() release what the consumer
 * holds; past 32 MiB queued, the older half goes on (forced) and time
 * order holds across what was handed on.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "tap.h"

struct rec {
	struct perf_event_header h;
	uint64_t time, seq;
};

struct got {
	uint64_t n, bad_order, last_time, last_seq, rounds, releases, stop_at;
	uint64_t bytes;		/* of the big records, for the forced test */
	uint64_t foff_bad;
};

static int deliver(void *ctx, const struct perf_event_header *h, uint64_t foff)
{
	struct got *g = ctx;
	struct rec r;

	memcpy(&r, h, sizeof(r));
	if (g->n && (r.time < g->last_time || (r.time == g->last_time && r.seq < g->last_seq)))
		g->bad_order++;
	if (foff != r.seq * 10)
		g->foff_bad++;
	g->last_time = r.time;
	g->last_seq = r.seq;
	g->n++;
	return g->stop_at && g->n == g->stop_at ? 42 : 0;
}

static void round_done(void *ctx)
{
	((struct got *)ctx)->rounds++;
}

static int release(void *ctx)
{
	((struct got *)ctx)->releases++;
	return 0;
}

static const struct order_ops ops = { deliver, round_done, release };

static int put(struct order *o, uint64_t time, uint64_t seq, size_t size)
{
	static unsigned char buf[65536];
	struct rec r = { { PERF_RECORD_SAMPLE, 0, (uint16_t)size }, time, seq };

	memset(buf, 0, size);
	memcpy(buf, &r, sizeof(r));
	return order_queue(o, (const struct perf_event_header *)buf, seq * 10, time);
}

int main(void)
{
	struct got g;
	struct order *o;
	uint64_t seq = 0;
	int ret;

	/* three rings' runs in a round, with ties */
	memset(&g, 0, sizeof(g));
	o = order_new(&ops, &g);
	for (int ring = 0; ring < 3; ring++)
		for (uint64_t t = 0; t < 100; t++)
			put(o, 1000 + t * 3 + (uint64_t)ring % 2, seq++, sizeof(struct rec));
	ok(order_round(o) == 0, "a first round returns 0");
	order_drain(o);
	ok(g.n == 0, "a first round hands nothing on: nothing was safe before it (%llu)",
	   (unsigned long long)g.n);
	put(o, 5000, seq++, sizeof(struct rec));
	ok(order_round(o) == 0, "a second round returns 0");
	order_drain(o);
	ok(g.n == 300, "the second round hands on what came before the first's end (%llu of 300)",
	   (unsigned long long)g.n);
	ok(g.bad_order == 0, "in time order, ties in the order they came (%llu out of order)",
	   (unsigned long long)g.bad_order);
	ok(g.foff_bad == 0, "each record keeps its file offset");
	ret = order_sync(o);
	ok(ret == 0 && g.releases == 1, "order_sync releases what is held (%llu)",
	   (unsigned long long)g.releases);
	put(o, 10, seq++, sizeof(struct rec));	/* before what was handed on: delivered late */
	ret = order_finish(o);
	ok(ret == 0, "the end returns 0");
	ok(g.n == 302 && g.releases >= 2, "the end delivers the rest (%llu) and releases",
	   (unsigned long long)g.n);
	ok(g.rounds >= 2, "round_done after each round (%llu)", (unsigned long long)g.rounds);
	ok(order_forced(o) == 0, "nothing forced");
	order_free(o);

	/* a delivery's non-zero stops the order */
	memset(&g, 0, sizeof(g));
	g.stop_at = 5;
	o = order_new(&ops, &g);
	for (seq = 0; seq < 50; seq++)
		put(o, seq, seq, sizeof(struct rec));
	ret = order_finish(o);
	ok(ret == 42 && g.n == 5, "a delivery's 42 stops it: %d after %llu", ret,
	   (unsigned long long)g.n);
	ok(order_result(o) == 42, "and is its result");
	ok(put(o, 100, 100, sizeof(struct rec)) == 42, "queueing after it says so");
	order_free(o);

	/* no rounds at all: bounded, forced on, still in order */
	memset(&g, 0, sizeof(g));
	o = order_new(&ops, &g);
	seq = 0;
	for (int i = 0; i < 1200; i++) {
		/* 32 KiB records, times increasing with a jitter of a few */
		put(o, (uint64_t)i * 4 + (rnd() % 3), seq++, 32768);
	}
	ok(order_forced(o) > 0, "past 32 MiB without rounds, records were forced on (%llu times)",
	   (unsigned long long)order_forced(o));
	ret = order_finish(o);
	ok(ret == 0 && g.n == 1200, "all delivered (%llu)", (unsigned long long)g.n);
	ok(g.bad_order == 0, "in order across the forced hand-overs (%llu out of order)",
	   (unsigned long long)g.bad_order);
	order_free(o);

	/* freed mid-file: what was not delivered is dropped, nothing leaks (ASan) */
	memset(&g, 0, sizeof(g));
	o = order_new(&ops, &g);
	for (seq = 0; seq < 100; seq++)
		put(o, seq, seq, sizeof(struct rec));
	order_round(o);
	order_round(o);
	order_abort(o);
	ok(g.n <= 100, "abort: at most what was queued (%llu)", (unsigned long long)g.n);
	order_free(o);
	return tap_done();
}
