// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rule by which the recorder leaves work past a share of a CPU and
 * takes it up again (src/share.h), which the leaf repair's budget and the
 * writer's compression both follow: a window judges at a second, or at
 * 50 ms where the share is over 4 times the limit; a share is past only
 * above the limit; left work comes back only over a whole window, and
 * only where it would take half the limit or less.
 */
#include "config.h"

#include "share.h"
#include "tap.h"

#define MS 1000000ull

int main(void)
{
	unsigned limit = 30000;	/* 3% of a CPU */

	ok(!share_judged(10 * (uint64_t)limit, limit, SHARE_QUICK_NS - 1),
	   "a window under 50 ms says nothing, however far over");
	ok(share_judged(4 * (uint64_t)limit + 1, limit, SHARE_QUICK_NS),
	   "a 50 ms window over 4 times the limit judges");
	ok(!share_judged(4 * (uint64_t)limit, limit, 999 * MS),
	   "a window under a second at 4 times the limit waits");
	ok(share_judged(0, limit, SHARE_WINDOW_NS), "a second's window judges whatever it holds");

	ok(!share_passed(limit, limit, SHARE_WINDOW_NS), "at the limit is not past it");
	ok(share_passed(limit + 1, limit, SHARE_WINDOW_NS), "over it, a second's window says past");
	ok(!share_passed(2 * (uint64_t)limit, limit, 500 * MS),
	   "twice the limit in half a second: not yet");
	ok(share_passed(5 * (uint64_t)limit, limit, 60 * MS), "5 times in 60 ms: past at once");

	/* 1,000 items at 15 us each in a second: 1.5% of a CPU, half of 3% */
	ok(share_back(1000, 15000, SHARE_WINDOW_NS, limit), "half the limit: back");
	ok(!share_back(1001, 15000, SHARE_WINDOW_NS, limit), "over half: still left");
	ok(!share_back(0, 15000, SHARE_WINDOW_NS - 1, limit), "not before a whole window");
	ok(share_back(2000, 15000, 2 * SHARE_WINDOW_NS, limit), "a longer window: the rate counts");
	/* a writer's window of 1 GiB/s stored, at 2 us a KiB: no overflow */
	ok(!share_back((uint64_t)1 << 20, 2000, SHARE_WINDOW_NS, limit),
	   "a GiB stored a second at 2 us a KiB is 200%% of a CPU: still left");
	return tap_done();
}
