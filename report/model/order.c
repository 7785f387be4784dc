// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The order stage (order.h). Records are queued and handed on in time
 * order (perf's FINISHED_ROUND rule: when a round ends, everything up to
 * the newest time seen before the previous round ended is safe to
 * process, because every ring has been drained past it).
 *
 * Two threads: the caller's reads, queues and sorts (order_queue()), and
 * a delivery thread of the order's own hands each record of one sorted
 * round (a batch) at a time to ops->deliver. Decompressing and sorting
 * the next round so overlaps delivering the last one. Records are copied
 * once, into chunks that are recycled when no queued or delivered record
 * needs them.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "xalloc.h"

/*
 * Records are queued in chunks, aligned to their size so that a record's
 * address gives its chunk; a record never spans two. Each record is kept
 * behind its file offset (a u64), for messages. A quarter MiB: a small
 * report has three or four chunks in flight, and 1 MiB ones were 3 MB of
 * its peak; records are at most 64 KiB, so one always fits.
 */
#define CHUNK_BYTES	(1u << 18)
#define CHUNK_OF(h)	((struct chunk *)((uintptr_t)(h) & ~(uintptr_t)(CHUNK_BYTES - 1)))
/* Sorted rounds waiting for the delivery thread: bounds the memory in flight. */
#define MAX_BATCHES	4
/*
 * Bytes of records queued at most. A file without FINISHED_ROUND records
 * (or with rounds far apart) would otherwise be held whole in memory,
 * however much its compressed records expand to: past this the older
 * half, by time, is handed on, as perf's ordered events do at their
 * memory limit.
 */
#define QUEUE_MAX	(32u << 20)

struct chunk {
	struct chunk *next;	/* in the free list */
	struct chunk *all;	/* every chunk, freed with the order */
	size_t len;		/* bytes used in data */
	size_t queued;		/* queue entries in it (reading thread only) */
	uint64_t stamp;		/* last batch that took a record of it (reading thread) */
	int refs;		/* atomic: the reading thread's hold, plus one per
				 * batch holding its records */
	int held;		/* the reading thread's hold is still on it */
	uint64_t data[];	/* 8-aligned records */
};

/* 16 bytes: the queue is sorted and copied by the million. */
struct qent {
	uint64_t time;
	const struct perf_event_header *h;	/* in a chunk, after its file offset */
};

/* One sorted round, handed to the delivery thread. */
struct batch {
	struct batch *next;
	struct qent *e;
	size_t n, cap;
	struct chunk **c;	/* the chunks its records are in, each once */
	size_t nc, ccap;
};

struct order {
	struct order_ops ops;
	void *ctx;

	/* the reading thread's queue */
	struct chunk *cur;	/* being filled */
	struct chunk *chunks;	/* all of them, through ->all */
	struct qent *q, *qtmp;	/* queue and merge buffer, qcap entries each */
	size_t qn, qcap;
	uint64_t max_time, round_limit, nbatch;
	size_t qbytes;		/* bytes the queued records hold, with their offsets */
	uint64_t forced;	/* flushes QUEUE_MAX forced */

	/* the hand-over, under mu */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	pthread_t thread;
	int started, sync;
	struct batch *head, *tail, *free_batches;
	size_t nbatches;
	struct chunk *free_chunks;
	int busy, stop, abort;
	int ret;		/* the delivery thread's first non-zero result; atomic */
};

static void free_batch(struct batch *b)
{
	if (b) {
		free(b->e);
		free(b->c);
		free(b);
	}
}

/* --- the queue (reading thread) ----------------------------------------- */

static inline int qless(const struct qent *x, const struct qent *y)
{
	return x->time < y->time;
}

/*
 * Sort the queue by time, records of one time in the order they came (the
 * merges are stable). A round holds one run already in time order per
 * ring the recorder drained, so merging neighbouring runs until one is
 * left costs O(n log runs), where a general sort pays O(n log n).
 */
static void sort_queue(struct order *s)
{
	size_t n = s->qn;

	for (;;) {
		size_t i = 0, out = 0, runs = 0;

		while (i < n) {
			size_t a = i, b, c;

			for (b = a + 1; b < n && !qless(&s->q[b], &s->q[b - 1]); b++)
				;
			for (c = b; c < n && (c == b || !qless(&s->q[c], &s->q[c - 1])); c++)
				;
			/* merge [a, b) and [b, c) into qtmp */
			{
				size_t x = a, y = b;

				while (x < b && y < c)
					s->qtmp[out++] = qless(&s->q[y], &s->q[x]) ? s->q[y++] : s->q[x++];
				while (x < b)
					s->qtmp[out++] = s->q[x++];
				while (y < c)
					s->qtmp[out++] = s->q[y++];
			}
			runs++;
			i = c;
		}
		{
			struct qent *t = s->q;

			s->q = s->qtmp;
			s->qtmp = t;
		}
		if (runs <= 1)
			return;
	}
}

/* A chunk no record needs any more goes back to the free list. */
static void chunk_put(struct order *s, struct chunk *c)
{
	if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_mutex_lock(&s->mu);
	c->next = s->free_chunks;
	s->free_chunks = c;
	pthread_mutex_unlock(&s->mu);
}

/* The reading thread lets go of a chunk it no longer fills nor queues from. */
static void chunk_unhold(struct order *s, struct chunk *c)
{
	if (c->held && !c->queued && c != s->cur) {
		c->held = 0;
		chunk_put(s, c);
	}
}

/* Room for size more bytes: a recycled chunk, or a new one. */
static void chunk_room(struct order *s, size_t size)
{
	struct chunk *c, *old = s->cur;

	if (old && sizeof(*old) + old->len + size <= CHUNK_BYTES)
		return;
	pthread_mutex_lock(&s->mu);
	c = s->free_chunks;
	if (c)
		s->free_chunks = c->next;
	pthread_mutex_unlock(&s->mu);
	if (!c) {
		c = xaligned_alloc(CHUNK_BYTES, CHUNK_BYTES);
		c->all = s->chunks;
		s->chunks = c;
	}
	c->len = 0;
	c->queued = 0;
	c->stamp = 0;
	c->held = 1;
	__atomic_store_n(&c->refs, 1, __ATOMIC_RELAXED);
	s->cur = c;
	if (old)
		chunk_unhold(s, old);
}

/* --- the delivery thread -------------------------------------------------- */

/* Deliver a batch (unless skip), then let go of its chunks. */
static int run_batch(struct order *s, struct batch *b, int skip)
{
	int ret = 0;

	for (size_t i = 0; i < b->n && !ret && !skip; i++)
		ret = s->ops.deliver(s->ctx, b->e[i].h, ((const uint64_t *)b->e[i].h)[-1]);
	for (size_t i = 0; i < b->nc; i++)
		chunk_put(s, b->c[i]);
	if (s->ops.round_done)
		s->ops.round_done(s->ctx);
	return ret;
}

static void *deliver_main(void *arg)
{
	struct order *s = arg;

	pthread_setname_np(pthread_self(), "prof-resolve");
	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct batch *b;
		int ret, abort;

		while (!s->head && !s->stop)
			pthread_cond_wait(&s->work, &s->mu);
		b = s->head;
		if (!b) {
			/* The end: what was parked goes out last. */
			if (!s->abort && !s->ret && s->ops.release) {
				int err;

				pthread_mutex_unlock(&s->mu);
				err = s->ops.release(s->ctx);
				pthread_mutex_lock(&s->mu);
				if (err)
					__atomic_store_n(&s->ret, err, __ATOMIC_RELEASE);
			}
			break;
		}
		s->head = b->next;
		if (!s->head)
			s->tail = NULL;
		s->nbatches--;
		s->busy = 1;
		abort = s->abort;
		ret = s->ret;
		pthread_mutex_unlock(&s->mu);

		ret = run_batch(s, b, ret || abort);

		pthread_mutex_lock(&s->mu);
		if (ret && !s->ret)
			__atomic_store_n(&s->ret, ret, __ATOMIC_RELEASE);
		s->busy = 0;
		b->next = s->free_batches;
		s->free_batches = b;
		pthread_cond_broadcast(&s->done);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Wait until the delivery thread has delivered every batch it was given. */
void order_drain(struct order *s)
{
	pthread_mutex_lock(&s->mu);
	while (s->head || s->busy)
		pthread_cond_wait(&s->done, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

/* Let the delivery thread finish (or, with abort, skip) its batches and join it. */
static void stop_thread(struct order *s, int abort)
{
	if (!s->started)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	s->abort |= abort;
	pthread_cond_broadcast(&s->work);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	s->started = 0;
}

/*
 * Hand every queued record with time <= limit, in time order, to the
 * delivery thread; keep the rest for the next round. 0, or the delivery
 * thread's non-zero result (it stops at the first).
 */
static int flush(struct order *s, uint64_t limit)
{
	struct batch *b;
	size_t n, keep = 0;
	int ret = __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);

	if (ret || !s->qn)
		return ret;
	sort_queue(s);
	for (n = 0; n < s->qn && s->q[n].time <= limit; n++)
		;
	if (!n)
		return 0;
	/* Without a thread (none could be made), batches are delivered here. */
	if (!s->started && !s->sync)
		s->started = !pthread_create(&s->thread, NULL, deliver_main, s);
	s->sync = !s->started;

	pthread_mutex_lock(&s->mu);
	while (s->nbatches >= MAX_BATCHES)
		pthread_cond_wait(&s->done, &s->mu);
	b = s->free_batches;
	if (b)
		s->free_batches = b->next;
	pthread_mutex_unlock(&s->mu);
	if (!b)
		b = xcalloc(1, sizeof(*b));
	if (b->cap < n) {
		b->cap = n;
		free(b->e);
		b->e = xreallocarray(NULL, n, sizeof(*b->e));
	}
	memcpy(b->e, s->q, n * sizeof(*b->e));
	b->n = n;
	b->nc = 0;
	/* The batch holds each chunk it has records in once. */
	s->nbatch++;
	for (size_t i = 0; i < n; i++) {
		struct chunk *c = CHUNK_OF(s->q[i].h);

		s->qbytes -= 8 + ((s->q[i].h->size + 7) & ~(size_t)7);
		c->queued--;
		if (c->stamp == s->nbatch)
			continue;
		c->stamp = s->nbatch;
		if (b->nc == b->ccap) {
			b->ccap = b->ccap ? 2 * b->ccap : 16;
			b->c = xreallocarray(b->c, b->ccap, sizeof(*b->c));
		}
		b->c[b->nc++] = c;
		__atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
	}
	for (size_t i = 0; i < b->nc; i++)
		chunk_unhold(s, b->c[i]);
	for (size_t i = n; i < s->qn; i++)
		s->q[keep++] = s->q[i];
	s->qn = keep;

	if (s->sync) {
		ret = run_batch(s, b, 0);
		b->next = s->free_batches;
		s->free_batches = b;
		if (ret)
			__atomic_store_n(&s->ret, ret, __ATOMIC_RELEASE);
		return ret;
	}
	b->next = NULL;
	pthread_mutex_lock(&s->mu);
	if (s->tail)
		s->tail->next = b;
	else
		s->head = b;
	s->tail = b;
	s->nbatches++;
	pthread_cond_signal(&s->work);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

int order_queue(struct order *s, const struct perf_event_header *h, uint64_t foff,
		uint64_t time)
{
	size_t sz = (h->size + 7) & ~(size_t)7;
	struct qent *q;
	int ret = __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);

	if (ret)
		return ret;
	chunk_room(s, 8 + sz);
	if (s->qn == s->qcap) {
		s->qcap = s->qcap ? s->qcap * 2 : 4096;
		s->q = xreallocarray(s->q, s->qcap, sizeof(*s->q));
		s->qtmp = xreallocarray(s->qtmp, s->qcap, sizeof(*s->qtmp));
	}
	q = &s->q[s->qn++];
	{
		unsigned char *at = (unsigned char *)s->cur->data + s->cur->len;

		memcpy(at, &foff, 8);
		memcpy(at + 8, h, h->size);
		q->h = (const struct perf_event_header *)(at + 8);
	}
	q->time = time;
	s->cur->len += 8 + sz;
	s->cur->queued++;
	s->qbytes += 8 + sz;
	if (time > s->max_time)
		s->max_time = time;
	if (s->qbytes > QUEUE_MAX) {
		sort_queue(s);
		s->forced++;
		ret = flush(s, s->q[s->qn / 2].time);
		/* and no more batches in flight than this one: the bound is on all of it */
		order_drain(s);
		return ret ? ret : __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);
	}
	return 0;
}

struct order *order_new(const struct order_ops *ops, void *ctx)
{
	struct order *s = xcalloc(1, sizeof(*s));

	s->ops = *ops;
	s->ctx = ctx;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->done, NULL);
	return s;
}

void order_free(struct order *s)
{
	if (!s)
		return;
	stop_thread(s, 1);
	while (s->head) {	/* batches the aborted thread left */
		struct batch *b = s->head;

		s->head = b->next;
		free_batch(b);
	}
	while (s->free_batches) {
		struct batch *b = s->free_batches;

		s->free_batches = b->next;
		free_batch(b);
	}
	while (s->chunks) {
		struct chunk *c = s->chunks;

		s->chunks = c->all;
		free(c);
	}
	free(s->q);
	free(s->qtmp);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->work);
	pthread_cond_destroy(&s->done);
	free(s);
}

int order_round(struct order *s)
{
	int ret = flush(s, s->round_limit);

	s->round_limit = s->max_time;
	return ret;
}

int order_finish(struct order *s)
{
	int ret = flush(s, UINT64_MAX);

	stop_thread(s, 0);
	/* what was put aside, without a thread (none could be made, or none was needed) */
	if (!ret && !s->ret && s->ops.release)
		s->ret = s->ops.release(s->ctx);
	return ret ? ret : s->ret;
}

int order_sync(struct order *s)
{
	int ret;

	order_drain(s);
	ret = __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);
	if (!ret && s->ops.release) {
		/* the thread is idle (drained): what was put aside goes out here */
		ret = s->ops.release(s->ctx);
		if (ret)
			__atomic_store_n(&s->ret, ret, __ATOMIC_RELEASE);
	}
	return ret;
}

void order_abort(struct order *s)
{
	stop_thread(s, 1);
}

int order_result(const struct order *s)
{
	return __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);
}

uint64_t order_forced(const struct order *s)
{
	return s->forced;
}
