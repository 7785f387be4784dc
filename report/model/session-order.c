// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's ordering and delivery. Records are queued and handed on
 * in time order (perf's FINISHED_ROUND rule: when a round ends,
 * everything up to the newest time seen before the previous round ended
 * is safe to process, because every ring has been drained past it).
 *
 * Two stages on two threads: the caller's thread reads, queues and sorts
 * (session_record), and a delivery thread of the session's own follows
 * threads and maps, resolves symbols and calls the sample callback, one
 * sorted round (a batch) at a time. Decompressing and sorting the next
 * round so overlaps resolving the last one. Records are copied once, into
 * chunks that are recycled when no queued or delivered record needs them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "clock.h"
#include "decode.h"
#include "file.h"
#include "htab.h"
#include "jit.h"
#include "jitdump.h"
#include "maps.h"
#include "pdata.h"
#include "session.h"
#include "strpool.h"
#include "symbols.h"
#include "tpfmt.h"
#include "unwind.h"
#include "xalloc.h"

#include "session-int.h"

void ss_free_batch(struct batch *b)
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
static void sort_queue(struct session *s)
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
static void chunk_put(struct session *s, struct chunk *c)
{
	if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_mutex_lock(&s->mu);
	c->next = s->free_chunks;
	s->free_chunks = c;
	pthread_mutex_unlock(&s->mu);
}

/* The reading thread lets go of a chunk it no longer fills nor queues from. */
static void chunk_unhold(struct session *s, struct chunk *c)
{
	if (c->held && !c->queued && c != s->cur) {
		c->held = 0;
		chunk_put(s, c);
	}
}

/* Room for size more bytes: a recycled chunk, or a new one. */
static void chunk_room(struct session *s, size_t size)
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
static int run_batch(struct session *s, struct batch *b, int skip)
{
	int ret = 0;

	for (size_t i = 0; i < b->n && !ret && !skip; i++)
		ret = ss_deliver(s, b->e[i].h, ((const uint64_t *)b->e[i].h)[-1]);
	for (size_t i = 0; i < b->nc; i++)
		chunk_put(s, b->c[i]);
	/* on the thread that resolves, between samples: nothing is in the files */
	if (s->trim_idle) {
		symbols_trim(s->sym, s->trim_idle, s->trim_budget);
		ss_release_files(s, mono_coarse_ns());
	}
	return ret;
}

static void *deliver_main(void *arg)
{
	struct session *s = arg;

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
			if (!s->abort && !s->ret && ss_held(s)) {
				int err;

				pthread_mutex_unlock(&s->mu);
				err = ss_unpark(s);
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
void ss_drain(struct session *s)
{
	pthread_mutex_lock(&s->mu);
	while (s->head || s->busy)
		pthread_cond_wait(&s->done, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

/* Let the delivery thread finish (or, with abort, skip) its batches and join it. */
void ss_stop_thread(struct session *s, int abort)
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
int ss_flush(struct session *s, uint64_t limit)
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

int ss_enqueue(struct session *s, const struct perf_event_header *h, uint64_t foff)
{
	const struct evdesc *e = evtab_find(&s->ev, h);
	struct sample smp;
	size_t sz = (h->size + 7) & ~(size_t)7;
	uint64_t time = 0;
	struct qent *q;

	if (e && h->type == PERF_RECORD_SAMPLE && (e->attr.sample_type & PERF_SAMPLE_TIME)) {
		/* Only fixed-size fields come before TIME: read it where it is. */
		uint64_t st = e->attr.sample_type;
		size_t at = sizeof(*h) + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) +
					      !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID));

		if (h->size < at + 8)
			return ss_skip(&s->skq, foff, "malformed SAMPLE record");
		memcpy(&time, (const unsigned char *)h + at, 8);
	} else if (e) {
		if (h->type == PERF_RECORD_SAMPLE) {
			if (decode_sample(&e->attr, h, &smp))
				return ss_skip(&s->skq, foff, "malformed SAMPLE record");
		} else if (decode_id(&e->attr, h, &smp)) {
			return ss_skip(&s->skq, foff, "%s record too short",
				    pdata_record_name(h->type) ? pdata_record_name(h->type) : "kernel");
		}
		if (smp.present & PERF_SAMPLE_TIME)
			time = smp.time;
	}
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
		int ret;

		sort_queue(s);
		s->forced++;
		ret = ss_flush(s, s->q[s->qn / 2].time);
		/* and no more batches in flight than this one: the bound is on all of it */
		ss_drain(s);
		return ret ? ret : __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);
	}
	return 0;
}
