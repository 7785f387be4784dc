// SPDX-License-Identifier: GPL-2.0-or-later
/* The drain in two threads: the rings copied, the rest done by a worker. See pump.h. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "pdata.h"
#include "pump.h"
#include "record-int.h"
#include "xalloc.h"

/*
 * Buffers a ring may have waiting, each of a ring's size, kept for the
 * next time; past them, up to PUMP_MAX_BYTES in all, made as needed and
 * freed as they come back.
 */
#define BUFS_PER_RING	16
#define PUMP_MAX_BYTES	((size_t)128 << 20)
/*
 * Buffers waiting (of those kept) past which the worker skips the leaf
 * repair (mend_hurry()), and below which it does it again.
 */
#define HURRY_ON(kept)	((kept) / 2)
#define HURRY_OFF(kept)	((kept) / 4)

/* One ring's copy, or the end of a pass. */
struct chunk {
	struct chunk *next;
	int end;			/* the end of a pass: no records */
	int keep;			/* the end of a pass not flushed (recorder.pass_keeps) */
	int cpu;			/* whose ring: a message names it */
	int scan;			/* the leaf repair reads its maps first */
	size_t len;
	unsigned char *data;		/* size bytes */
};

struct pump {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t work;		/* the worker's: a pass came, or the end */
	pthread_cond_t done;		/* the recorder's: a buffer came back, or the worker is idle */
	struct chunk *head, **tail;	/* handed over, oldest first */
	struct chunk *free;		/* buffers to copy into */
	size_t nbufs, max_bufs, kept_bufs, size;
	size_t queued;			/* ring copies handed over, not yet done */
	int passes;			/* ends of passes handed over, not yet done */
	int stop, err;
	int hurry;			/* the worker's: mend_hurry() on */
	int held;			/* pump_hold(): passes wait for the worker */
	struct recorder *rc;
};

/* Every buffer the pump may have is out, with the worker (under mu). */
static int all_out(const struct pump *p)
{
	return !p->free && p->nbufs == p->max_bufs;
}

/*
 * A buffer to copy a ring into, waiting for the worker to give one back
 * when all are out; NULL when the worker failed, or is held with all out.
 */
static struct chunk *take_buf(struct pump *p)
{
	struct chunk *c;
	int make = 0;

	pthread_mutex_lock(&p->mu);
	if (all_out(p) && p->held) {
		/* held, the worker gives none back: no copy now (the rings fill, as before) */
		pthread_mutex_unlock(&p->mu);
		return NULL;
	}
	if (all_out(p) && !p->err) {
		/* the worker is behind by all the buffers: the rings fill meanwhile */
		uint64_t t0 = mono_ns();

		while (all_out(p) && !p->err)
			pthread_cond_wait(&p->done, &p->mu);
		p->rc->behind++;
		p->rc->behind_ns += mono_ns() - t0;
	}
	c = p->free;
	if (c)
		p->free = c->next;
	else if (!p->err)
		p->nbufs++, make = 1;
	pthread_mutex_unlock(&p->mu);
	if (make) {
		c = xcalloc(1, sizeof(*c));
		c->data = xmalloc(p->size);
	}
	return c;
}

/* Hand c over (a ring's copy, or the end of a pass). */
static void hand(struct pump *p, struct chunk *c)
{
	pthread_mutex_lock(&p->mu);
	c->next = NULL;
	*p->tail = c;
	p->tail = &c->next;
	if (c->end)
		p->passes++;
	else
		p->queued++;
	/* the worker waits for a whole pass: a chunk alone would only wake it to wait again */
	if (c->end)
		pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
}

/* Ring r copied (to head, when heads are taken; an overwrite ring's newest), handed over if not empty. */
static int copy_ring(struct pump *p, struct ring *r, const uint64_t *head, int scan)
{
	struct chunk *c;

	if (!r->base)
		return 0;
	c = take_buf(p);
	if (!c)
		return -1;
	c->end = 0;
	c->cpu = r->cpu;
	c->scan = scan;
	c->len = r->overwrite ? ring_snapshot(r, c->data) : head ? ring_read_to(r, c->data, *head)
							 : ring_read(r, c->data);
	if (!c->len) {
		pthread_mutex_lock(&p->mu);
		c->next = p->free;
		p->free = c;
		pthread_mutex_unlock(&p->mu);
		return 0;
	}
	hand(p, c);
	return 0;
}

static void run_pass(struct pump *p, struct chunk *first, struct chunk *end, int more);

/* Bytes of a pass small enough for the recorder's thread to do itself (inline_pass()). */
#define INLINE_BYTES	((size_t)64 << 10)

/*
 * A live reader's small pass (the agent's: a program's new maps, a
 * second of samples at 49 Hz), done on the recorder's own thread when
 * the worker is idle: 1 when done. Handing it over woke the worker for a
 * few records and cost a wake each way, 15 a second under a host's
 * churn of short programs, most of its recorder's CPU. Only for a live
 * reader (drain_ms): its writes go to a pipe, not through zstd to a disk
 * that may be slow, and its rings fill in minutes at its rate.
 */
static int inline_pass(struct pump *p, struct chunk *end)
{
	size_t bytes = 0;
	struct chunk *first;

	if (p->rc->o.drain_ms <= 0)
		return 0;
	pthread_mutex_lock(&p->mu);
	/* no pass handed over (the worker's counts until done), not held: the list is this pass's */
	if (p->passes || p->held || p->err) {
		pthread_mutex_unlock(&p->mu);
		return 0;
	}
	for (struct chunk *c = p->head; c; c = c->next)
		bytes += c->len;
	if (bytes > INLINE_BYTES) {
		pthread_mutex_unlock(&p->mu);
		return 0;
	}
	first = p->head ? p->head : end;
	if (p->head)
		*p->tail = end;
	end->next = NULL;
	p->head = NULL;
	p->tail = &p->head;
	run_pass(p, first, end, 0);
	pthread_mutex_unlock(&p->mu);
	return 1;
}

int pump_pass(struct recorder *rc, int snap)
{
	struct pump *p = rc->pump;
	struct chunk *end;

	/*
	 * -g's stack words are kept where code may be, which a sample's own
	 * ring may not say yet: its process's MMAP can be in another CPU's
	 * ring, copied after it. So every ring's head is taken first, and the
	 * worker reads the maps of the whole pass before any of its samples.
	 */
	for (int c = 0; rc->leaf_code && c < rc->cpus.nr; c++)
		if (rc->rings[c].base)
			rc->heads[c] = ring_head(&rc->rings[c]);
	for (int c = 0; c < rc->cpus.nr; c++) {
		if (rc->trings && copy_ring(p, &rc->trings[c], NULL, 0))
			return -1;
		if ((!rc->o.overwrite || snap) &&
		    copy_ring(p, &rc->rings[c], rc->leaf_code ? &rc->heads[c] : NULL,
			      rc->leaf_code != NULL))
			return -1;
	}
	end = xcalloc(1, sizeof(*end));
	end->end = 1;
	end->keep = rc->pass_keeps && !snap;
	if (!inline_pass(p, end))
		hand(p, end);
	return __atomic_load_n(&p->err, __ATOMIC_ACQUIRE) ? -1 : 0;
}

/* A record of the pass that changes maps: a map adds where code may be, and the repair follows them all. */
static void scan_chunk(struct recorder *rc, const struct chunk *c)
{
	uint64_t types = 1ULL << PERF_RECORD_MMAP | 1ULL << PERF_RECORD_MMAP2 |
			 (rc->mend ? 1ULL << PERF_RECORD_FORK | 1ULL << PERF_RECORD_COMM |
					     1ULL << PERF_RECORD_EXIT : 0);

	for (size_t off = 0; off + sizeof(struct perf_event_header) <= c->len;) {
		struct perf_event_header h;

		memcpy(&h, c->data + off, sizeof(h));
		if (!rec_whole(&h, c->len - off))
			break;
		if (h.type < 64 && (types >> h.type & 1)) {
			codemap_record(rc->leaf_code, c->data + off, h.size);
			if (rc->mend)
				mend_record(rc->mend, c->data + off, h.size);
		}
		off += h.size;
	}
}

/* c's records into the file, through the filters: 0, or -1 after a message. */
static int write_chunk(struct recorder *rc, const struct chunk *c)
{
	void *dst;
	size_t ok, kept;
	uint64_t samples = rc->drain.kept_samples;
	int ret = writer_reserve(rc->w, c->len, &dst);

	if (ret)
		return rec_write_error(rc, ret);
	kept = drain_chunk(&rc->drain, c->data, c->len, dst, &ok);
	writer_commit(rc->w, kept, rc->drain.kept_samples - samples);
	if (ok != c->len)
		fprintf(stderr, "prof: malformed record in the ring of cpu %d; dropped %zu bytes\n",
			c->cpu, c->len - ok);
	return 0;
}

/*
 * A pass (its chunks, the end last) into the writer, a round ending it:
 * 0, or -1 after a message. The worker flushes when no pass is waiting.
 */
static int do_pass(struct recorder *rc, struct chunk *first)
{
	static const struct perf_event_header round = { PDATA_FINISHED_ROUND, 0, 8 };
	int ret = 0, any = 0;

	if (rc->mend)
		mend_pass(rc->mend);
	rc->trim.zero_all = writer_compressing(rc->w);
	for (struct chunk *c = first; !c->end; c = c->next)
		if (c->scan)
			scan_chunk(rc, c);
	for (struct chunk *c = first; !c->end && !ret; c = c->next) {
		ret = write_chunk(rc, c);
		any = 1;
	}
	if (!ret && any) {
		ret = writer_records(rc->w, &round, sizeof(round));
		if (ret)
			ret = rec_write_error(rc, ret);
	}
	hold_expire(rc->hold, mono_ns());
	return ret;
}

/*
 * The pass first .. end (taken off the list), done and its buffers given
 * back: by the worker, or by the recorder's thread (pump_pass()) when the
 * worker is idle. Called and returns under mu.
 */
static void run_pass(struct pump *p, struct chunk *first, struct chunk *end, int more)
{
	struct chunk *c;
	int ret;

	/* far behind: the leaf repair is left to the report until it catches up */
	if (p->rc->mend && p->queued >= HURRY_ON(p->kept_bufs) && !p->hurry)
		p->hurry = 1, p->rc->hurried++;
	else if (p->queued <= HURRY_OFF(p->kept_bufs))
		p->hurry = 0;
	pthread_mutex_unlock(&p->mu);
	if (p->rc->mend) {
		mend_hurry(p->rc->mend, p->hurry);
		budget_pass(&p->rc->gate.b);
	}
	ret = p->err ? 0 : do_pass(p->rc, first);
	/*
	 * A live reader's (drain_ms) stream written as far as the rings were
	 * read, unless another pass waits or this one was only to hold a new
	 * program's files; a file's once a batch is worth it (writer_settle())
	 */
	if (!ret && !p->err && (p->rc->o.drain_ms <= 0 || (!more && !end->keep))) {
		ret = p->rc->o.drain_ms <= 0 ? writer_settle(p->rc->w) : writer_flush(p->rc->w);
		if (ret)
			ret = rec_write_error(p->rc, ret);
	}
	pthread_mutex_lock(&p->mu);
	if (ret)
		__atomic_store_n(&p->err, -1, __ATOMIC_RELEASE);
	for (c = first; c != end;) {
		struct chunk *next = c->next;

		p->queued--;
		if (p->nbufs > p->kept_bufs) {
			p->nbufs--;
			free(c->data);
			free(c);
		} else {
			c->next = p->free;
			p->free = c;
		}
		c = next;
	}
	free(end);
}

static void *worker(void *arg)
{
	struct pump *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct chunk *first, *end;
		int more;

		while ((!p->passes || p->held) && !p->stop)
			pthread_cond_wait(&p->work, &p->mu);
		if (!p->passes)
			break;
		/* the pass's chunks, up to its end, taken off the list */
		first = p->head;
		for (end = first; !end->end; end = end->next)
			;
		p->head = end->next;
		if (!p->head)
			p->tail = &p->head;
		more = p->passes > 1;
		run_pass(p, first, end, more);
		p->passes--;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int pump_start(struct recorder *rc)
{
	struct pump *p = xcalloc(1, sizeof(*p));
	size_t rings = 0;
	int err;

	for (int c = 0; c < rc->cpus.nr; c++) {
		if (rc->rings[c].base) {
			rings++;
			if (rc->rings[c].data_size > p->size)
				p->size = rc->rings[c].data_size;
		}
		if (rc->trings && rc->trings[c].base) {
			rings++;
			if (rc->trings[c].data_size > p->size)
				p->size = rc->trings[c].data_size;
		}
	}
	p->kept_bufs = (rings ? rings : 1) * BUFS_PER_RING;
	p->max_bufs = p->size && PUMP_MAX_BYTES / p->size > p->kept_bufs ? PUMP_MAX_BYTES / p->size
									   : p->kept_bufs;
	p->tail = &p->head;
	p->rc = rc;
	p->held = 1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	err = pthread_create(&p->thread, NULL, worker, p);
	if (err) {
		fprintf(stderr, "prof: cannot start the drain's worker thread: %s\n", strerror(err));
		free(p);
		return -1;
	}
	rc->pump = p;
	return 0;
}

void pump_hold(struct recorder *rc, int on)
{
	struct pump *p = rc->pump;

	pthread_mutex_lock(&p->mu);
	p->held = on;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
}

void pump_tick(void *arg)
{
	struct recorder *rc = arg;

	if (!rc->pump)
		return;
	/* a pass when a ring is a quarter full (as poll() would say), not a buffer each tick */
	for (int c = 0; c < rc->cpus.nr; c++) {
		const struct ring *r = &rc->rings[c];

		if (r->base && !r->overwrite &&
		    ring_head(r) - r->pc->data_tail >= r->data_size / RING_WAKE) {
			pump_pass(rc, 0);
			return;
		}
	}
}

int pump_idle(struct recorder *rc)
{
	struct pump *p = rc->pump;
	int err;

	pthread_mutex_lock(&p->mu);
	while (p->passes)
		pthread_cond_wait(&p->done, &p->mu);
	err = p->err;
	pthread_mutex_unlock(&p->mu);
	return err ? -1 : 0;
}

void pump_drop(struct recorder *rc)
{
	struct pump *p = rc->pump;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	__atomic_store_n(&p->err, -1, __ATOMIC_RELEASE);	/* the worker skips what waits */
	pthread_mutex_unlock(&p->mu);
	pump_stop(rc);
}

int pump_stop(struct recorder *rc)
{
	struct pump *p = rc->pump;
	int ret;

	if (!p)
		return 0;
	pump_hold(rc, 0);
	ret = pump_idle(rc);
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	while (p->free) {
		struct chunk *c = p->free;

		p->free = c->next;
		free(c->data);
		free(c);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p);
	rc->pump = NULL;
	return ret;
}
