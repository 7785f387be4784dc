/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's state, shared by its files (session.c lists them), and
 * what each offers the others. Not for use outside report/model/session*.c.
 */
#ifndef PROF_REPORT_SESSION_INT_H
#define PROF_REPORT_SESSION_INT_H

#include <pthread.h>
#include <stdint.h>

#include "decode.h"
#include "evtab.h"
#include "htab.h"
#include "maps.h"
#include "session.h"
#include "strpool.h"
#include "symbols.h"
#include "resolve.h"
#include "unwind.h"

/*
 * A sample whose file is still being opened (see session_unordered()),
 * put aside with its frames placed in the maps of its time.
 */
struct parked {
	const struct evdesc *ev;
	uint32_t pid, tid, cpu;
	uint64_t time, period;
	const char *comm;
	const struct dso *exe;
	uint32_t parallelism;
	int repaired, cut;
	size_t first, n;	/* its frames: praw[first .. first + n) */
	int unwind_end, unwind_at;	/* as in struct rsample; at: from first */
};

/* Samples summed by what names them (session_sum()): 72 bytes. */
struct stacksum {
	uint64_t leaf[2];	/* the first raw frame's words (session-resolve.c) */
	const struct evdesc *ev;
	const char *comm;
	uint64_t count, period;
	uint32_t n;		/* raw frames: leaf, then swords[first .. first + 2(n - 1)) */
	uint32_t first;
	uint32_t pid, tid, cpu;	/* 0 unless session_sum() keys them */
	int16_t unwind_at;	/* as in struct rsample, a raw frame's index */
	uint8_t unwind_end;	/* as in struct rsample */
	uint8_t bits;		/* SUM_PUT_BACK, SUM_MENDED, SUM_CUT (session-resolve.c) */
};

/* A sample summed, not yet added to its sum (session-resolve.c) */
struct sumpend {
	struct stacksum key;	/* count 1, the sample's period */
	uint64_t hash, time;
	const uint64_t *rest;	/* its frames past the leaf: in a swbuf */
	size_t nrest;
};

/*
 * Samples summed and not yet added, at most (2 or more): a sample's index
 * slot is fetched as it comes, its sum SUM_PEND / 2 samples later, and it
 * is added SUM_PEND samples later (sum_add()).
 */
#define SUM_PEND 4

/* A sum's place in the order sums are delivered in (session-resolve.c) */
struct sumkey {
	uint64_t k;	/* the command's rank, then the sampled address */
	uint32_t k2;	/* the outermost frame's address, low half */
	uint32_t i;	/* the sum */
};

/* Parked samples, and their frames, at most; past that, a sample waits for its file. */
#define PARK_MAX 65536
#define PRAW_MAX (1u << 20)

struct thread {
	int pid, tid;
	const char *comm;
	int on_cpu;		/* counted in its proc's running */
	/* off the CPU since out_time (out_state 1 blocked, 2 preempted; 0: on it) */
	uint64_t out_time;
	int out_state;
	uint32_t out_cpu;
	/* its last sample of the context-switches event: the stack of a switch-out */
	unsigned char *cs;
	size_t cs_cap;
	uint64_t cs_time;
	const struct evdesc *cs_ev;
};

/* An int-keyed open-addressing table of pointers. */
/* Threads or processes by id: items of an htab. */
struct itab {
	struct htab t;
	int *keys;
	void **vals;
	size_t cap;
};

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
	struct chunk *all;	/* every chunk, freed with the session */
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

/* Records the session could not use, skipped; the first one's offset and why. */
struct skipped {
	uint64_t n, first;
	char why[96];
};

#define TMEMO 16

/* A file's build id from perf's build-id table (HEADER_BUILD_ID), by path. */
struct bident {
	const char *path;	/* malloc'd */
	unsigned char id[20];
	size_t len;
};

struct session {
	struct symbols *sym;
	struct resolver *res;	/* addresses into frames: symbols, unwinding, JIT code */
	session_sample_fn fn;
	void *ctx;
	session_task_fn task_fn;	/* FORK and EXIT, or NULL */
	void *task_ctx;
	struct evtab ev;
	struct strpool *pool;	/* delivery thread: comms */
	struct strpool *fpool;	/* reading thread: features */
	struct itab threads, procs;

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

	uint64_t lost;
	int leaf_only;
	const char *feat[4];	/* hostname, osrelease, arch, cmdline */
	/* CLOCK_DATA: the wall clock (ns) when the records' clock read clock_ns; 0: unknown */
	uint64_t tod_ns, clock_ns;
	struct rframe frames[MAX_FRAMES];
	uint64_t upcs[MAX_FRAMES];
	unsigned char upcs_fl[MAX_FRAMES];	/* how upcs[i] was found: UNWIND_* */
	int nupcs;		/* of the sample being delivered or parked */
	struct unwind_stop ustop;	/* why its unwinding stopped */
	int ustop_frame;	/* each_address's count of frames before ustop.at's, or -1 */
	int cur_fp;		/* the address each_address() hands out is such */
	const struct proc *cur_pr;	/* the process of the sample each_address() walks */
	int repaired;		/* ... and whether a frameless function's caller is back in it */
	int put_back;		/* ... put back from the stack copy, here (else by the recorder) */
	int cut;		/* ... its chain ended at a return address in no mapping */
	int mended;		/* the sample's: prof record put them back (PDATA_MISC_SAMPLE_MENDED) */
	/* the last sample's process and thread: hot loops sample one of each */
	struct proc *last_proc;
	struct thread *last_thread;
	/* threads by tid & (TMEMO - 1): samples of a few threads alternate */
	struct thread *tmemo[TMEMO];
	int unordered;
	int forget;		/* session_forget_exited() */
	/* EXITs of forget mode waiting out FORGET_GRACE_NS, oldest first from pex_head */
	struct pending_exit {
		uint64_t time;
		int pid, tid;	/* tid 0: cancelled, the pid and tid are another's now */
	} *pex;
	size_t npex, pex_head, pex_cap;
	/* perf's build-id table, for maps whose MMAP2 carries none */
	struct bident *bids;
	size_t nbids, bids_cap;
	struct htab bidtab;
	uint64_t trim_idle;	/* session_trim_symbols(): 0 off */
	size_t trim_budget;
	uint64_t release_last;	/* when files of exited processes were last let go (sy_now()) */
	unsigned map_gen;	/* the last struct proc gen handed out */
	int more_files;		/* session_next_file(): an event already known is merged */
	session_filter_fn filter;
	uint64_t first_time;	/* of the first sample in time order */
	int have_first;
	struct parked *pk;
	size_t npk, pk_cap;
	struct rawf *praw;
	size_t npraw, praw_cap;
	int sum;		/* session_sum() */
	unsigned sum_keys;
	struct stacksum *sums;
	size_t nsums, sums_cap;
	uint64_t *swords;	/* their frames, two words each (session-resolve.c) */
	size_t nswords, swords_cap;
	struct htab sumtab;
	uint64_t sum_first, sum_last;	/* the times of the samples summed since the last delivery */
	uint64_t *swork;	/* the frames of the sample being summed: one of swbuf */
	size_t nswork;
	unsigned swi;		/* swork's swbuf */
	uint64_t swbuf[SUM_PEND + 1][2 * MAX_FRAMES];
	/* the last samples summed, not yet added (session-resolve.c): pend0 the oldest */
	struct sumpend pend[SUM_PEND];
	unsigned npend, pend0;
	struct sumkey *skeys, *skeys2;	/* the order sums are delivered in, and a sort's scratch */
	size_t skeys_cap;
	const char **scomms;	/* the commands of the sums being ordered, by rank */
	size_t nscomms, scomms_cap;
	struct htab scommtab;
	/* records skipped as malformed: by the reading thread, by the delivery thread */
	struct skipped skq, skd;
	uint64_t now;		/* the time of the record being delivered */
	struct evdesc swev[2];	/* off-cpu and preempted, made of switch records */
	size_t swbase;		/* their index: after the file's events */
	int swset;
	int has_switches;	/* an event records switches: parallelism is known */
	const char *no_switch_samples;	/* the frame of an off-CPU interval without a stack */
	size_t cs_bytes;	/* of the threads' switch-out copies (cs_keep()) */
};

/* Small and on every record's path: inline, as they were in one file. */

static inline void *ss_itab_get(const struct itab *t, int key)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&t->t, (uint64_t)(unsigned)key, &p);
	while (htab_next(&t->t, &p, &i))
		if (t->keys[i] == key)
			return t->vals[i];
	return NULL;
}

static inline int ss_is_kernel_mode(uint16_t misc)
{
	int cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

/* A sample taken while a KVM guest ran (cycles:G): its addresses are the guest's. */
static inline int ss_is_guest_mode(uint16_t misc)
{
	int cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER;
}

/* The context-switches event that --off-cpu adds: a sample at every switch-out. */
static inline int ss_is_switch_event(const struct evdesc *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       e->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES && !e->attr.freq &&
	       e->attr.sample_period == 1;
}

/* session.c */
int ss_deliver(struct session *s, const struct perf_event_header *h, uint64_t foff);
/* Count a record skipped (the first one's offset and why); returns 0. */
int ss_skip(struct skipped *k, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* session-order.c */
void ss_drain(struct session *s);
int ss_enqueue(struct session *s, const struct perf_event_header *h, uint64_t foff);
int ss_flush(struct session *s, uint64_t limit);
void ss_free_batch(struct batch *b);
void ss_stop_thread(struct session *s, int abort);

/* session-threads.c */
void ss_do_comm(struct session *s, const struct kevent *k);
void ss_do_fork(struct session *s, const struct kevent *k);
void ss_do_mmap(struct session *s, const struct kevent *k);
/* The build id perf's table gives the file at path (len bytes): NULL when none. */
const unsigned char *ss_build_id_of(struct session *s, const char *path, size_t len,
				    size_t *idlen);
void ss_free_itab(struct itab *t, int procs);
struct proc *ss_get_proc(struct session *s, int pid);
void ss_forget(struct session *s, int pid, int tid);
void ss_forget_later(struct session *s, int pid, int tid);
void ss_forget_due(struct session *s);
void ss_forget_cancel(struct session *s, int pid, int tid);
void ss_release_files(struct session *s, uint64_t now);
struct thread *ss_get_thread(struct session *s, int pid, int tid);

/* session-resolve.c */
int ss_deliver_sample(struct session *s, const struct evdesc *e,
		      const struct perf_event_header *h, uint64_t foff);
int ss_sample_go(struct session *s, const struct evdesc *e, const struct sample *sp,
		 int kernel, const char *pseudo);
/* Deliver what was put aside: parked samples, then sums (session_sum()). */
int ss_unpark(struct session *s);
/* The files the sums name stay open (ss_release_files()). */
void ss_sums_mark_live(struct session *s);
/* Whether anything is put aside for ss_unpark(). */
static inline int ss_held(const struct session *s)
{
	return s->npk || s->nsums || s->npend;
}

/* session-switch.c */
void ss_cs_drop(struct session *s, struct thread *t);
int ss_cs_keep(struct session *s, struct thread *t, const struct perf_event_header *h);
int ss_do_switch(struct session *s, const struct kevent *k, const struct sample *id);
void ss_set_on_cpu(struct session *s, struct thread *t, int on);

#endif
