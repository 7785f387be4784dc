// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The incremental profile (profile.h) on a committed recording: fed
 * record by record with snapshots on the way, it ends where profile_load()
 * does; a reset starts a window whose sums are the rest; ordered, a
 * collector gets every sample in time order; by address, every sample is
 * counted at the instruction it hit; the filters on the sampled frame's
 * side (kernel or user) split the samples in two, the idle task's are
 * left out, a collector's filter sees every sample and drops what it
 * says, and filters changed halfway (profile_refilter()) decide from then
 * on.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hist.h"
#include "profile.h"
#include "reader.h"
#include "tap.h"

static char input[PATH_MAX], symfs[PATH_MAX];

static void opts(struct profile_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->input = input;
	o->so.symfs = symfs;
	o->so.demangle = 1;
	o->ho.keys[0] = HIST_SYM;
	o->ho.nkeys = 1;
	o->ho.children = 1;
	o->flat = 1;
	o->stacks = 1;
	o->chains = 1;
	o->f.t_start = o->f.t_end = -1;
}

/* The sum of every event's histogram, and how many events have one. */
static uint64_t total(const struct profile *p, int *nev)
{
	uint64_t t = 0;

	*nev = 0;
	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].hist) {
			t += hist_total(p->ev[i].hist);
			++*nev;
		}
	return t;
}

/* A collector checking time order: every sample's time at least the one before. */
struct order {
	uint64_t n, last, backwards;
};

static void *order_begin(void *ctx, const struct evdesc *ev)
{
	(void)ev;
	return ctx;
}

static void order_add(void *state, const struct rsample *s)
{
	struct order *o = state;

	if (o->n++ && s->time < o->last)
		o->backwards++;
	o->last = s->time;
}

static void order_free(void *state)
{
	(void)state;
}

static const struct profile_collector order_collector = {
	.begin = order_begin, .add = order_add, .free = order_free,
};

/* A collector whose filter counts every sample and keeps those of even tids. */
struct even {
	uint64_t seen, kept_even, added, odd;
};

static int even_filter(void *ctx, const struct rsample *s)
{
	struct even *e = ctx;

	e->seen++;
	e->kept_even += !(s->tid & 1);
	return !(s->tid & 1);
}

static void even_add(void *state, const struct rsample *s)
{
	struct even *e = state;

	e->added++;
	e->odd += s->tid & 1;
}

static const struct profile_collector even_collector = {
	.filter = even_filter, .begin = order_begin, .add = even_add, .free = order_free,
};

/* A collector counting the idle task's samples (pid and tid 0). */
static void idle_add(void *state, const struct rsample *s)
{
	((struct order *)state)->n += !s->pid && !s->tid;
}

static const struct profile_collector idle_collector = {
	.begin = order_begin, .add = idle_add, .free = order_free,
};

/* Load with o, and the samples kept; 0 after a failed check. */
static uint64_t kept_with(const struct profile_opts *o, const char *what)
{
	struct profile *p;
	char err[1024];
	uint64_t k;

	if (profile_load(o, &p, err, sizeof(err))) {
		ok(0, "%s: %s", what, err);
		return 0;
	}
	k = p->kept;
	profile_free(p);
	return k;
}

int main(void)
{
	const char *src = getenv("srcdir");
	struct profile_opts o;
	struct profile *whole, *p;
	const struct profile *snap;
	struct reader_record rec;
	struct order ord = { 0, 0, 0 };
	uint64_t records = 0, n, t_whole, t_half = 0, s_half = 0, half_last = 0;
	char err[1024];
	int nev, ret;

	snprintf(input, sizeof(input), "%s/tests/data/recorded/oracle-prof-threads-g.data",
		 src ? src : ".");
	snprintf(symfs, sizeof(symfs), "%s/tests/data/recorded/root", src ? src : ".");
	if (access(input, R_OK)) {
		printf("1..0 # SKIP no %s\n", input);
		return 0;
	}
	opts(&o);
	ok(profile_load(&o, &whole, err, sizeof(err)) == 0, "profile_load: %s", err);
	t_whole = total(whole, &nev);
	ok(whole->samples > 1000 && t_whole > 0 && nev == 1, "loaded: %llu samples, period %llu",
	   (unsigned long long)whole->samples, (unsigned long long)t_whole);

	/* how many records the file has, for a snapshot halfway */
	{
		struct reader *r = reader_open(input);

		while (r && reader_next(r, &rec) > 0)
			records++;
		reader_free(r);
	}

	/* fed, with a snapshot halfway: the end is the same as a load's */
	p = profile_open(&o, reader_open(input), err, sizeof(err));
	ok(p != NULL, "profile_open: %s", p ? "" : err);
	n = 0;
	while ((ret = reader_next(p->rd, &rec)) > 0) {
		if (profile_feed(p, &rec, err, sizeof(err)))
			break;
		if (++n == records / 2) {
			snap = profile_snapshot(p, err, sizeof(err));
			ok(snap == p, "a snapshot halfway: %s", snap ? "" : err);
			t_half = total(p, &nev);
			s_half = p->samples;
			half_last = p->last_time;
		}
	}
	ok(ret == 0, "every record fed");
	ok(s_half > 0 && s_half < whole->samples && t_half < t_whole,
	   "the snapshot halfway holds part of the samples: %llu of %llu",
	   (unsigned long long)s_half, (unsigned long long)whole->samples);
	ok(profile_close(p, err, sizeof(err)) == 0, "profile_close: %s", err);
	ok(p->samples == whole->samples && total(p, &nev) == t_whole && p->kept == whole->kept &&
	   p->chains == whole->chains, "fed whole, the sums are the load's");
	ok(p->info.cmdline && whole->info.cmdline && !strcmp(p->info.cmdline, whole->info.cmdline)
	   && strstr(p->info.cmdline, "threads"), "the info says the command: %s",
	   p->info.cmdline ? p->info.cmdline : "(none)");
	profile_free(p);

	/* reset after the snapshot: the window holds the rest */
	p = profile_open(&o, reader_open(input), err, sizeof(err));
	n = 0;
	while (p && reader_next(p->rd, &rec) > 0) {
		if (profile_feed(p, &rec, err, sizeof(err)))
			break;
		if (++n == records / 2) {
			snap = profile_snapshot(p, err, sizeof(err));
			s_half = snap ? snap->samples : 0;
			t_half = snap ? total(snap, &nev) : 0;
			profile_reset(p);
			ok(p->samples == 0 && total(p, &nev) == 0 && nev == 0,
			   "a reset empties the sums");
		}
	}
	ok(p && profile_close(p, err, sizeof(err)) == 0, "closed after a reset: %s", err);
	ok(p && s_half + p->samples == whole->samples && t_half + total(p, &nev) == t_whole,
	   "the window after the reset holds the rest: %llu + %llu of %llu",
	   (unsigned long long)s_half, (unsigned long long)(p ? p->samples : 0),
	   (unsigned long long)whole->samples);
	ok(p && p->first_time >= half_last - 1000000000ULL && p->first_time <= p->last_time,
	   "the window's span is its own");
	profile_free(p);

	/* ordered: the collector sees every sample, in time order */
	opts(&o);
	o.ordered = 1;
	o.collector = &order_collector;
	o.collector_ctx = &ord;
	ok(profile_load(&o, &p, err, sizeof(err)) == 0, "ordered load: %s", err);
	ok(ord.n == whole->samples && ord.backwards == 0,
	   "ordered: %llu samples to the collector, %llu out of order",
	   (unsigned long long)ord.n, (unsigned long long)ord.backwards);
	profile_free(p);

	/* by address: every kept sample at one, each inside its function */
	opts(&o);
	o.addresses = 1;
	ok(profile_load(&o, &p, err, sizeof(err)) == 0, "load by address: %s", err);
	{
		const struct profile_event *e = &p->ev[0];
		size_t na = 0;
		const struct addr_count *a = e->addrs ? addrs_sorted(e->addrs, &na) : NULL;
		uint64_t sum = 0, spin = 0, far = 0, order = 0;

		for (size_t i = 0; i < na; i++) {
			sum += a[i].samples;
			if (a[i].func && (!strcmp(a[i].func, "spin_a") || !strcmp(a[i].func, "spin_b"))) {
				spin += a[i].samples;
				far += a[i].sym_offset >= 256;	/* the spin loops are small */
			}
			if (i && a[i - 1].dso == a[i].dso && a[i - 1].addr >= a[i].addr)
				order++;
		}
		ok(na > 2 && sum == p->kept, "%zu addresses hold the %llu samples kept", na,
		   (unsigned long long)p->kept);
		ok(spin * 10 > sum * 8 && far == 0,
		   "spin_a and spin_b hold %llu of %llu, at offsets inside them",
		   (unsigned long long)spin, (unsigned long long)sum);
		ok(order == 0, "sorted by dso and address");
	}
	profile_free(p);

	/* the sampled frame's side: the kernel's and user space's samples are every sample */
	{
		uint64_t user, kernel, idle_left, other;
		struct order idle = { 0, 0, 0 };
		struct even ev = { 0, 0, 0, 0 };

		opts(&o);
		o.f.hide_kernel = 1;
		user = kept_with(&o, "-K");
		opts(&o);
		o.f.hide_user = 1;
		kernel = kept_with(&o, "-U");
		ok(user > 0 && user + kernel == whole->kept,
		   "user %llu + kernel %llu samples are the %llu kept", (unsigned long long)user,
		   (unsigned long long)kernel, (unsigned long long)whole->kept);

		/* the idle task's samples, counted, then left out */
		opts(&o);
		o.collector = &idle_collector;
		o.collector_ctx = &idle;
		kept_with(&o, "idle counted");
		opts(&o);
		o.f.no_idle = 1;
		idle_left = kept_with(&o, "no idle");
		ok(idle_left + idle.n == whole->kept,
		   "without the idle task's %llu samples, %llu of %llu kept",
		   (unsigned long long)idle.n, (unsigned long long)idle_left,
		   (unsigned long long)whole->kept);

		/* a collector's filter: it sees every sample, and its drops are not added */
		opts(&o);
		o.collector = &even_collector;
		o.collector_ctx = &ev;
		other = kept_with(&o, "a collector's filter");
		ok(ev.seen == whole->samples && ev.added == ev.kept_even && ev.odd == 0 &&
		   other == ev.kept_even && ev.kept_even < whole->kept,
		   "the collector's filter saw %llu of %llu samples and kept %llu, all added",
		   (unsigned long long)ev.seen, (unsigned long long)whole->samples,
		   (unsigned long long)ev.kept_even);
	}

	/* filters changed halfway decide from then on */
	opts(&o);
	p = profile_open(&o, reader_open(input), err, sizeof(err));
	n = 0;
	s_half = 0;
	while (p && reader_next(p->rd, &rec) > 0) {
		if (profile_feed(p, &rec, err, sizeof(err)))
			break;
		if (++n == records / 2) {
			snap = profile_snapshot(p, err, sizeof(err));
			s_half = snap ? snap->kept : 0;
			o.f.hide_kernel = o.f.hide_user = 1;	/* nothing with a frame is kept */
			profile_refilter(p);
			profile_reset(p);
		}
	}
	ok(p && profile_close(p, err, sizeof(err)) == 0, "closed after a refilter: %s", err);
	ok(p && s_half > 0 && p->samples > 0 && p->kept == 0,
	   "kept %llu before the refilter, then %llu of %llu",
	   (unsigned long long)s_half, (unsigned long long)(p ? p->kept : 0),
	   (unsigned long long)(p ? p->samples : 0));
	profile_free(p);
	profile_free(whole);
	return tap_done();
}
