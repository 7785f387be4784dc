// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stacks stage (report/model/stacks.h) alone: samples of the same
 * event, command and addresses add up into one sum, their counts and
 * periods; different addresses, commands, walk marks or keyed threads
 * make sums of their own; a sum's times span its samples; parked samples
 * come out first, one each, with the frames placed when they were
 * parked; nothing is held after a release.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "resolve.h"
#include "stacks.h"
#include "symbols.h"
#include "tap.h"

struct out {
	int n;
	uint64_t count[16], period[16], first[16], time[16];
	int nframes[16];
	uint64_t addr0[16];
	uint32_t tid[16];
	const char *comm[16];
	int cut[16];
};

static int got(void *ctx, const struct rsample *s)
{
	struct out *o = ctx;

	if (o->n < 16) {
		o->count[o->n] = s->count;
		o->period[o->n] = s->period;
		o->first[o->n] = s->first;
		o->time[o->n] = s->time;
		o->nframes[o->n] = s->nframes;
		o->addr0[o->n] = s->nframes ? s->frames[0].addr : 0;
		o->tid[o->n] = s->tid;
		o->comm[o->n] = s->comm;
		o->cut[o->n] = s->cut;
	}
	o->n++;
	return 0;
}

static struct evdesc ev;

static void sum(struct stacks *st, const char *comm, uint32_t tid, uint64_t time,
		uint64_t period, const uint64_t *addrs, int n, int cut)
{
	struct rsample rs;
	struct walk_marks mk = { 0, 0, cut, 0, -1 };

	memset(&rs, 0, sizeof(rs));
	rs.ev = &ev;
	rs.comm = comm;
	rs.pid = rs.tid = tid;
	rs.time = time;
	rs.period = period;
	stacks_sum_begin(st, NULL);
	for (int i = 0; i < n; i++)
		stacks_sum_frame(st, addrs[i], 0, i > 0, 0);
	stacks_sum_add(st, &rs, &mk, 0);
}

int main(void)
{
	struct symbols *sym = symbols_new(NULL);
	struct resolver *res = resolver_new(sym);
	struct out o;
	struct stacks *st;
	static const uint64_t a[] = { 0x1000, 0x2000, 0x3000 }, b[] = { 0x1000, 0x2000, 0x4000 };
	static const char *const sh = "sh", *const cc = "cc";
	int i;

	evdesc_init(&ev);
	resolver_names(res, 0);
	memset(&o, 0, sizeof(o));
	st = stacks_new(res, got, &o);
	ok(!stacks_held(st), "nothing held at first");
	for (i = 0; i < 10; i++)
		sum(st, sh, 1, 100 + (uint64_t)i, 7, a, 3, 0);
	sum(st, sh, 2, 50, 5, b, 3, 0);
	sum(st, cc, 1, 300, 5, a, 3, 0);
	sum(st, sh, 1, 200, 3, a, 3, 1);
	ok(stacks_held(st), "sums held");
	ok(stacks_release(st) == 0, "released");
	ok(!stacks_held(st), "nothing held after");
	ok(o.n == 4, "four sums: one stack 10 times, another stack, another command, a cut (%d)",
	   o.n);
	{
		int found = 0;

		for (i = 0; i < o.n && i < 16; i++)
			if (o.comm[i] == sh && o.count[i] == 10 && o.period[i] == 70 &&
			    o.nframes[i] == 3 && !o.cut[i])
				found++;
		ok(found == 1, "ten samples of one stack: count 10, period 70, three frames");
		for (found = 0, i = 0; i < o.n && i < 16; i++)
			if (o.cut[i] && o.count[i] == 1 && o.period[i] == 3)
				found++;
		ok(found == 1, "a cut chain is a sum of its own");
		for (found = 0, i = 0; i < o.n && i < 16; i++)
			if (o.first[i] == 50 && o.time[i] == 300 && o.tid[i] == 0)
				found++;
		ok(found == o.n, "every sum spans the samples summed, and no tid is kept unkeyed");
	}

	/* keyed by thread */
	memset(&o, 0, sizeof(o));
	stacks_keys(st, SESSION_SUM_TID);
	sum(st, sh, 1, 1, 1, a, 3, 0);
	sum(st, sh, 2, 2, 1, a, 3, 0);
	sum(st, sh, 2, 3, 1, a, 3, 0);
	stacks_release(st);
	ok(o.n == 2, "keyed by tid: two threads, two sums (%d)", o.n);
	ok(o.n == 2 && o.count[0] + o.count[1] == 3 && o.tid[0] != o.tid[1],
	   "of their own threads");

	/* parked, then a sum: parked first */
	memset(&o, 0, sizeof(o));
	stacks_keys(st, 0);
	sum(st, sh, 1, 10, 1, a, 3, 0);
	ok(stacks_can_park(st), "room to park");
	{
		struct rsample rs;
		struct walk_marks mk = { 0, 0, 0, 0, -1 };

		memset(&rs, 0, sizeof(rs));
		rs.ev = &ev;
		rs.comm = cc;
		rs.time = 20;
		rs.period = 9;
		stacks_park_begin(st, &rs, NULL);
		stacks_park_frame(st, 0x5000, 0, 0, 0);
		stacks_park_frame(st, 0x6000, 0, 1, 0);
		stacks_park_end(st, &mk);
	}
	stacks_release(st);
	ok(o.n == 2 && o.comm[0] == cc && o.count[0] == 1 && o.period[0] == 9 &&
	   o.nframes[0] == 2 && o.time[0] == 20, "the parked sample first, with its own time");
	ok(o.n == 2 && o.addr0[0] == 0x5000, "and the frames placed when parked (%#llx)",
	   (unsigned long long)o.addr0[0]);
	ok(o.n == 2 && o.comm[1] == sh, "then the sum");
	stacks_free(st);
	resolver_free(res);
	symbols_free(sym);
	return tap_done();
}
