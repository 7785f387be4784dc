// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's session: what a profile's records say, followed in time
 * order into resolved samples. This file is its interface: making and
 * freeing one, feeding records (session_record(): the reading thread's
 * side), the records the reading thread acts on itself (attrs, features),
 * and the dispatch of a record by type on the delivery thread (deliver()).
 * The rest, by concern:
 *   session-order.c    the queue: time order (perf's FINISHED_ROUND rule)
 *                      and the delivery thread it hands sorted rounds to;
 *   session-threads.c  processes, threads and their maps;
 *   session-resolve.c  a sample's addresses handed to the resolver
 *                      (resolve.h: maps, symbols, unwinding, JIT names),
 *                      and samples put aside;
 *   session-switch.c   the events the session makes of context switches:
 *                      off-CPU and preempted intervals, parallelism.
 * session-int.h holds the state they share.
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

static const char *const feat_names[4] = { "hostname", "osrelease", "arch", "cmdline" };

struct session *session_new(struct symbols *sym, session_sample_fn fn, void *ctx)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->sym = sym;
	s->fn = fn;
	s->ctx = ctx;
	s->swork = s->swbuf[0];
	s->pool = strpool_new();
	s->fpool = strpool_new();
	s->res = resolver_new(sym);
	s->no_switch_samples = strpool_intern(s->pool, "[no stack: switch-out not sampled]");
	evtab_init(&s->ev);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->done, NULL);
	return s;
}

void session_leaf_only(struct session *s, int on)
{
	s->leaf_only = on;
}

void session_names(struct session *s, int on)
{
	resolver_names(s->res, on);
}

void session_sum(struct session *s, int on, unsigned keys)
{
	s->sum = on;
	s->sum_keys = keys;
}

void session_filter(struct session *s, session_filter_fn fn)
{
	s->filter = fn;
}

void session_unordered(struct session *s, int on)
{
	s->unordered = on;
}

void session_forget_exited(struct session *s, int on)
{
	s->forget = on;
}

void session_trim_symbols(struct session *s, uint64_t idle_ns, size_t budget)
{
	s->trim_idle = idle_ns;
	s->trim_budget = budget;
}

uint64_t session_first_time(const struct session *s)
{
	return s->first_time;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	ss_stop_thread(s, 1);
	for (size_t i = 0; i < s->nbids; i++)
		free((char *)s->bids[i].path);
	free(s->bids);
	htab_release(&s->bidtab);
	while (s->head) {	/* batches the aborted thread left */
		struct batch *b = s->head;

		s->head = b->next;
		ss_free_batch(b);
	}
	while (s->free_batches) {
		struct batch *b = s->free_batches;

		s->free_batches = b->next;
		ss_free_batch(b);
	}
	while (s->chunks) {
		struct chunk *c = s->chunks;

		s->chunks = c->all;
		free(c);
	}
	free(s->pex);
	ss_free_itab(&s->threads, 0);
	ss_free_itab(&s->procs, 1);
	free(s->q);
	free(s->qtmp);
	free(s->pk);
	free(s->praw);
	free(s->sums);
	htab_release(&s->sumtab);
	free(s->swords);
	free(s->skeys);
	free(s->skeys2);
	free(s->scomms);
	htab_release(&s->scommtab);
	resolver_free(s->res);
	evtab_release(&s->ev);
	strpool_free(s->pool);
	strpool_free(s->fpool);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->work);
	pthread_cond_destroy(&s->done);
	free(s);
}

int ss_skip(struct skipped *k, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A record that cannot be used is skipped and counted: never fatal. */
int ss_skip(struct skipped *k, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (k->n++)
		return 0;
	va_start(ap, fmt);
	vsnprintf(k->why, sizeof(k->why), fmt, ap);
	va_end(ap);
	k->first = off;
	return 0;
}

uint64_t session_unrounded(const struct session *s)
{
	return s->forced;
}

uint64_t session_skipped(const struct session *s, uint64_t *first, const char **why)
{
	const struct skipped *k = &s->skq;

	if (!k->n || (s->skd.n && s->skd.first < k->first))
		k = &s->skd;
	*first = k->first;
	*why = k->why;
	return s->skq.n + s->skd.n;
}

/* The names of the events of the file and of those made of its switch records. */
int session_event_names(const struct session *s, const char **names, int max)
{
	int n = 0;

	for (size_t i = 0; i < s->ev.nr && n < max; i++)
		names[n++] = s->ev.ev[i]->name;
	for (int k = 0; k < 2 && s->swset && n < max; k++)
		if (s->swev[k].name[0])
			names[n++] = s->swev[k].name;
	return n;
}

int session_switches(const struct session *s)
{
	return s->swset;
}

void session_tracing_data(struct session *s, const unsigned char *data, size_t len)
{
	struct tpfmts *f = data ? tpfmts_parse(data, len) : NULL;

	if (!f)
		return;
	ss_drain(s);	/* the delivery thread reads the names */
	evtab_name_tracepoints(&s->ev, f);
	tpfmts_free(f);
}

int session_records_switches(const struct session *s)
{
	return s->has_switches;
}

int session_switch_stacks(const struct session *s)
{
	for (size_t i = 0; i < s->ev.nr; i++)
		if (ss_is_switch_event(s->ev.ev[i]))
			return 1;
	return 0;
}

const struct evtab *session_evtab(const struct session *s)
{
	return &s->ev;
}

uint64_t session_lost(const struct session *s)
{
	return s->lost;
}

void session_on_task(struct session *s, session_task_fn fn, void *ctx)
{
	s->task_fn = fn;
	s->task_ctx = ctx;
}

int session_wall_clock(const struct session *s, uint64_t *tod_ns, uint64_t *clock_ns)
{
	*tod_ns = s->tod_ns;
	*clock_ns = s->clock_ns;
	return s->tod_ns != 0;
}

const char *session_feature(const struct session *s, const char *name)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(name, feat_names[i]))
			return s->feat[i];
	return NULL;
}

/* Act on one kernel record, in time order. */
int ss_deliver(struct session *s, const struct perf_event_header *h, uint64_t foff)
{
	const struct evdesc *e = evtab_find(&s->ev, h);
	struct kevent k;
	struct sample id;

	if (!e)
		return ss_skip(&s->skd, foff, "%s record of an unknown event",
			    pdata_record_name(h->type) ? pdata_record_name(h->type) : "a");
	if (h->type == PERF_RECORD_SAMPLE)
		return ss_deliver_sample(s, e, h, foff);
	if (decode_kernel(&e->attr, h, &k, &id))
		return ss_skip(&s->skd, foff, "malformed %s record",
			    pdata_record_name(h->type) ? pdata_record_name(h->type) : "kernel");
	s->now = (id.present & PERF_SAMPLE_TIME) ? id.time : 0;
	if (s->npex > s->pex_head)
		ss_forget_due(s);
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		ss_do_mmap(s, &k);
		break;
	case PERF_RECORD_COMM:
		ss_do_comm(s, &k);
		break;
	case PERF_RECORD_FORK:
		ss_do_fork(s, &k);
		if (s->task_fn)
			s->task_fn(s->task_ctx, SESSION_TASK_FORK, (int)k.pid, (int)k.tid,
				   k.time ? k.time : s->now);
		break;
	case PERF_RECORD_EXIT: {
		struct thread *t = ss_itab_get(&s->threads, (int)k.tid);

		if (s->task_fn)
			s->task_fn(s->task_ctx, SESSION_TASK_EXIT, (int)k.pid, (int)k.tid,
				   k.time ? k.time : s->now);
		if (t)
			ss_set_on_cpu(s, t, 0);
		if (s->forget)
			ss_forget_later(s, (int)k.pid, (int)k.tid);
		break;
	}
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		s->lost += k.lost;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return ss_do_switch(s, &k, &id);
	}
	return 0;
}

static void do_feature(struct session *s, const struct perf_event_header *h)
{
	struct feature f;
	int slot;
	char buf[1024];
	const char *str;
	size_t out = 0, off = 0, n;
	uint32_t i = 0;

	if (decode_feature(h, &f) || !f.whole)
		return;
	if (f.id == PDATA_FEAT_CLOCK_DATA) {
		s->tod_ns = f.tod_ns;
		s->clock_ns = f.clock_ns;
		return;
	}
	switch (f.id) {
	case PDATA_FEAT_HOSTNAME: slot = 0; break;
	case PDATA_FEAT_OSRELEASE: slot = 1; break;
	case PDATA_FEAT_ARCH: slot = 2; break;
	case PDATA_FEAT_CMDLINE: slot = 3; break;
	default: return;
	}
	if (slot < 3) {
		s->feat[slot] = strpool_intern_text(s->fpool, f.text, f.text_len);
		if (slot == 1) {
			/* the symbolizer is the delivery thread's: let it finish first */
			ss_drain(s);
			symbols_kernel_release(s->sym, s->feat[1]);
		}
		return;
	}
	while (feature_string(&f, &off, &i, &str, &n) && out + n + 2 < sizeof(buf)) {
		if (out)
			buf[out++] = ' ';
		memcpy(buf + out, str, n);
		out += n;
	}
	s->feat[3] = strpool_intern_text(s->fpool, buf, out);
}

/* perf's: the build id's own length is in its 21st byte */
#define MISC_BUILD_ID_SIZE	(1 << 15)

/*
 * An entry of perf's build-id table: the build id of a file its samples
 * hit, which its MMAP2 records did not carry (perf asks the kernel for
 * none by default). Kept by path, for ss_do_mmap(); the kernel's and its
 * modules' are named from kallsyms.
 */
static void do_build_id(struct session *s, const struct perf_event_header *h)
{
	const unsigned char *b = (const unsigned char *)(h + 1);
	size_t body = h->size - sizeof(*h), len = 20, plen;
	const char *path;
	struct htab_probe p;
	uint32_t i;

	if (body < 4 + 24 + 1)
		return;
	/* with the flag, the length is the byte's (0: none, as perf -B writes); else 20 */
	if (h->misc & MISC_BUILD_ID_SIZE)
		len = b[4 + 20] <= 20 ? b[4 + 20] : 0;
	if (!len)
		return;
	plen = strnlen((const char *)b + 28, body - 28);
	if (!plen || b[28] != '/')
		return;
	/* the delivery thread reads the table: let it finish first (pipe mode has it last) */
	ss_drain(s);
	path = (const char *)b + 28;
	htab_probe(&s->bidtab, htab_hash_bytes(path, plen), &p);
	while (htab_next(&s->bidtab, &p, &i))
		if (!strncmp(s->bids[i].path, path, plen) && !s->bids[i].path[plen])
			return;	/* the first of a path: one file a path in one recording */
	s->bids = xgrow(s->bids, &s->bids_cap, s->nbids + 1, sizeof(*s->bids));
	{
		char *copy = xmalloc(plen + 1);

		memcpy(copy, path, plen);
		copy[plen] = '\0';
		s->bids[s->nbids].path = copy;
	}
	memcpy(s->bids[s->nbids].id, b + 4, len);
	s->bids[s->nbids].len = len;
	htab_put(&s->bidtab, &p, (uint32_t)s->nbids++);
}

const unsigned char *ss_build_id_of(struct session *s, const char *path, size_t len,
				    size_t *idlen)
{
	struct htab_probe p;
	uint32_t i;

	if (!s->nbids)
		return NULL;
	htab_probe(&s->bidtab, htab_hash_bytes(path, len), &p);
	while (htab_next(&s->bidtab, &p, &i))
		if (!strncmp(s->bids[i].path, path, len) && !s->bids[i].path[len]) {
			*idlen = s->bids[i].len;
			return s->bids[i].id;
		}
	return NULL;
}

int session_record(struct session *s, const struct reader_record *rec)
{
	const struct perf_event_header *h = rec->hdr;
	int ret = __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);

	if (ret)
		return ret;
	switch (h->type) {
	case PDATA_HEADER_ATTR:
		/* The delivery thread looks events up: let it finish first. */
		ss_drain(s);
		if (s->more_files && evtab_merge_record(&s->ev, h))
			return 0;	/* an event of an earlier file */
		if (s->swset && !(h->misc & READER_ATTR_MORE_IDS))
			/* off-cpu and preempted took the next indexes */
			return ss_skip(&s->skq, rec->offset, "an ATTR record after the samples");
		if (evtab_add_record(&s->ev, h))
			return ss_skip(&s->skq, rec->offset, "malformed ATTR record");
		if (s->ev.ev[s->ev.nr - 1]->attr.context_switch)
			s->has_switches = 1;
		return 0;
	case PDATA_HEADER_FEATURE:
		do_feature(s, h);
		return 0;
	case PDATA_HEADER_BUILD_ID:
		do_build_id(s, h);
		return 0;
	case PDATA_HEADER_TRACING_DATA:
		/* the tracepoints' names, from their formats (session_tracing_data()) */
		return 0;
	case PDATA_HEADER_EVENT_TYPE:
		/* JIT code prof carries, when it was not read ahead: tables the delivery thread reads */
		if (!resolver_carried_read(s->res)) {
			ss_drain(s);
			return resolver_carried(s->res, h);
		}
		return 0;
	case PDATA_FINISHED_ROUND:
		ret = ss_flush(s, s->round_limit);
		s->round_limit = s->max_time;
		return ret;
	}
	if (h->type >= 64)
		return 0;	/* perf's own bookkeeping: nothing for a report */
	return ss_enqueue(s, h, rec->offset);
}

int session_sync(struct session *s)
{
	int ret;

	ss_drain(s);
	ret = __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);
	if (!ret && ss_held(s)) {
		/* the thread is idle (drained): what it put aside goes out here */
		ret = ss_unpark(s);
		if (ret)
			__atomic_store_n(&s->ret, ret, __ATOMIC_RELEASE);
	}
	return ret;
}

void session_abort(struct session *s)
{
	ss_stop_thread(s, 1);
}

int session_finish(struct session *s)
{
	int ret = ss_flush(s, UINT64_MAX);

	ss_stop_thread(s, 0);
	if (!ret && !s->ret && ss_held(s))
		s->ret = ss_unpark(s);	/* parked without a thread: none could be made */
	return ret ? ret : s->ret;
}

/* JIT code the profile carries: the resolver's (resolve-jit.c). */

void session_read_ahead(struct session *s, const char *path)
{
	resolver_read_ahead(s->res, path);
}

size_t session_next_file(struct session *s, const char *path)
{
	ss_drain(s);	/* the resolver's tables are the delivery thread's */
	s->more_files = 1;
	if (path && resolver_carried_read(s->res))
		resolver_read_ahead(s->res, path);
	return s->ev.nr;
}

void session_carried_budget(struct session *s, uint64_t file_size)
{
	resolver_carried_budget(s->res, file_size);
}

const char *const *session_jit_warnings(const struct session *s, size_t *more)
{
	return resolver_jit_warnings(s->res, more);
}
