// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's collector's clock (agent/collect.h) alone, on made-up
 * times: collect_due() says when collect_tick() next has work (the next
 * window's start, a window's grace over, a short wait while the samples
 * of its end are awaited), so that the agent sleeps until then; and the
 * recorder is poked (collect_opts.poke) when samples up to a moment
 * already past are awaited, never before that moment and at most every
 * 50 ms.
 */
#include "config.h"

#include <stdint.h>

#include "clock.h"
#include "collect.h"
#include "tap.h"

#define MS 1000000ULL
#define S (1000 * MS)

static int pokes, windows;

static void poke(void *ctx)
{
	(void)ctx;
	pokes++;
}

static void on_window(void *arg, const struct window *w)
{
	(void)arg;
	(void)w;
	windows++;
}

int main(void)
{
	struct collect_opts o = { .window_ns = 10 * S, .grace_ns = 2 * S, .poke = poke };
	struct collect *c = collect_new(&o);
	uint64_t now = mono_ns(), d, b;

	/* the next window's start: b, a window's end */
	d = collect_due(c, now);
	ok(d > 0 && d <= 10 * S, "the next window starts within one (%llu ns)", (unsigned long long)d);
	b = now + d;
	ok(collect_due(c, b - 1) == 1, "1 ns before it, due in 1 ns (%llu)",
	   (unsigned long long)collect_due(c, b - 1));

	collect_tick(c, b - 1, 0, on_window, NULL);
	ok(pokes == 0 && windows == 0, "before its end, no poke, no window (%d, %d)", pokes, windows);

	/* just past its end: closed when its grace is over */
	d = collect_due(c, b + 1);
	ok(d == 2 * S - 1, "past its end, due when its grace is over (%llu ns)", (unsigned long long)d);
	collect_tick(c, b + 1, 0, on_window, NULL);
	ok(pokes == 1 && windows == 0, "its samples awaited: the recorder poked once (%d), no window (%d)",
	   pokes, windows);
	collect_tick(c, b + 2, 0, on_window, NULL);
	ok(pokes == 1, "not again within 50 ms (%d)", pokes);
	collect_tick(c, b + 60 * MS, 0, on_window, NULL);
	ok(pokes == 2, "again after 50 ms (%d)", pokes);

	/* grace over, no samples of its end came: a short wait, at most 4 graces */
	d = collect_due(c, b + 2 * S + 1);
	ok(d == 100 * MS, "grace over, samples awaited: looked at again in 100 ms (%llu ns)",
	   (unsigned long long)d);
	collect_tick(c, b + 8 * S, 0, on_window, NULL);
	ok(windows == 1, "closed after four graces without them (%d)", windows);
	/* the next: opened by that tick, ending at b + 10 s; the one after starts then */
	d = collect_due(c, b + 8 * S);
	ok(d == 2 * S, "then due when the next window starts (%llu ns)", (unsigned long long)d);
	collect_tick(c, b + 8 * S + MS, 0, on_window, NULL);
	ok(pokes == 2, "a window whose end is to come is not poked for (%d)", pokes);

	collect_free(c);
	return tap_done();
}
