// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's session: records are queued and handed on in time order
 * (perf's FINISHED_ROUND rule: when a round ends, everything up to the
 * newest time seen before the previous round ended is safe to process,
 * because every ring has been drained past it), then threads and maps are
 * updated and samples resolved into frames.
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

#define MAX_FRAMES	1024
#define INLINE_MAX	16

/* A process's JIT code: its perf map and jitdump, looked for at first need. */
struct pjit {
	int tried;		/* looked for its table */
	struct jit_table *t;	/* NULL: none */
	int own;		/* t was read from its files, not carried: free it */
	struct dso *dso;	/* "[JIT] tid PID", as perf calls it */
	char *dump;		/* its jitdump's path, from the MMAP of it */
};

struct proc {
	int pid;
	unsigned gen;		/* changes whenever maps do */
	struct maps maps;
	uint64_t start;		/* the time of the FORK or exec that began it; 0: before */
	struct pjit *jit;	/* (not const when the proc is) */
	int running;		/* its threads on a CPU now (switch records) */
	struct dso *exe;	/* its program: the first file it mapped since its exec */
};

/*
 * JIT tables the profile carries (type 65 records, src/jitdump.h), by
 * process and its start; and the files being put back together from
 * their chunks.
 */
struct carried {
	int pid;
	uint64_t start;
	struct jit_table *t;
};

struct pending {
	int pid;
	uint32_t kind;
	uint64_t start, total;
	unsigned char *buf;
	size_t len;
};

#define JIT_WARN_MAX 20

/* What a carried file costs before its bytes: its table and bookkeeping. */
#define CARRIED_FILE_COST 512

/*
 * What one address of one process resolved to, while its maps stay as
 * they were: hot loops sample the same few addresses over and over.
 */
struct fmemo {
	const struct proc *pr;	/* NULL for the kernel and for unknown pids */
	unsigned gen;
	unsigned flags;		/* kernel | caller << 1 */
	uint64_t addr;
	struct dso *dso;
	uint64_t a;		/* the address in dso */
	int k;			/* frames in fi */
	struct frame_info fi[2];
};

#define FMEMO 1024

/* An address placed in its dso, not resolved yet: a parked sample's frame. */
struct rawf {
	struct dso *dso;	/* NULL when no map covers it */
	uint64_t a;		/* the address in dso, or the address */
	const struct jit_sym *jit;	/* JIT code: what it is (a is the address) */
	unsigned jitc : 1;	/* in a process with JIT code, outside files */
	unsigned kernel : 1;
	unsigned caller : 1;
	unsigned by_fp : 1;	/* unwound by the frame pointer */
};

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
	int repaired;
	size_t first, n;	/* its frames: praw[first .. first + n) */
	int unwind_end, unwind_at;	/* as in struct rsample; at: from first */
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
 * behind its file offset (a u64), for messages.
 */
#define CHUNK_BYTES	(1u << 20)
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

struct session {
	struct symbols *sym;
	session_sample_fn fn;
	void *ctx;
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
	struct rframe frames[MAX_FRAMES];
	struct fmemo fmemo[FMEMO];
	struct unwind *unwind;	/* made at the first sample with a stack copy */
	uint64_t upcs[MAX_FRAMES];
	unsigned char upcs_fl[MAX_FRAMES];	/* how upcs[i] was found: UNWIND_* */
	int nupcs;		/* of the sample being delivered or parked */
	struct unwind_stop ustop;	/* why its unwinding stopped */
	int ustop_frame;	/* each_address's count of frames before ustop.at's, or -1 */
	int cur_fp;		/* the address each_address() hands out is such */
	const struct proc *cur_pr;	/* the process of the sample each_address() walks */
	int repaired;		/* ... and whether it put a frameless function's caller back */
	/* the last sample's process and thread: hot loops sample one of each */
	struct proc *last_proc;
	struct thread *last_thread;
	/* threads by tid & (TMEMO - 1): samples of a few threads alternate */
	struct thread *tmemo[TMEMO];
	int unordered;
	session_filter_fn filter;
	uint64_t first_time;	/* of the first sample in time order */
	int have_first;
	struct parked *pk;
	size_t npk, pk_cap;
	struct rawf *praw;
	size_t npraw, praw_cap;
	/* records skipped as malformed: by the reading thread, by the delivery thread */
	struct skipped skq, skd;
	uint64_t now;		/* the time of the record being delivered */
	struct evdesc swev[2];	/* off-cpu and preempted, made of switch records */
	size_t swbase;		/* their index: after the file's events */
	int swset;
	int has_switches;	/* an event records switches: parallelism is known */
	const char *no_switch_samples;	/* the frame of an off-CPU interval without a stack */
	size_t cs_bytes;	/* of the threads' switch-out copies (cs_keep()) */
	/* JIT tables carried in the profile (see struct carried) */
	struct carried *car;
	size_t ncar, carcap;
	struct pending *pend;
	size_t npend;
	int carried_read;	/* read ahead of the records (session_carried_done()) */
	uint64_t car_budget;	/* bytes of carried files to take in all (car_charge()) */
	uint64_t car_used;
	int car_over;		/* a file was left out for it: said once */
	struct htab cartab;	/* car by (pid, start) */
	struct htab cpidtab;	/* car by pid: the first of each */
	struct strpool *jpool;	/* JIT names */
	char *jwarn[JIT_WARN_MAX + 1];
	size_t njwarn, jmore;
};

static const char *const feat_names[4] = { "hostname", "osrelease", "arch", "cmdline" };

/*
 * The switch-out samples kept, for the threads off the CPU now, at most:
 * a --call-graph dwarf sample is up to 64 KiB, and a thread blocked to
 * the end of the recording keeps its own (its wait's stack). Past this,
 * an interval is counted without its stack ("[no stack: ...]").
 */
#define CS_HELD_MAX ((size_t)64 << 20)

/* Forget t's switch-out sample. */
static void cs_drop(struct session *s, struct thread *t)
{
	free(t->cs);
	s->cs_bytes -= t->cs_cap;
	t->cs = NULL;
	t->cs_cap = 0;
}

/* Keep the switch-out sample h as t's, within CS_HELD_MAX in all: 0, or -1 (dropped). */
static int cs_keep(struct session *s, struct thread *t, const struct perf_event_header *h)
{
	if (t->cs_cap < h->size) {
		if (s->cs_bytes - t->cs_cap + h->size > CS_HELD_MAX) {
			cs_drop(s, t);
			return -1;
		}
		t->cs = xreallocarray(t->cs, h->size, 1);
		s->cs_bytes += h->size - t->cs_cap;
		t->cs_cap = h->size;
	}
	memcpy(t->cs, h, h->size);
	return 0;
}

static void *itab_get(const struct itab *t, int key)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&t->t, (uint64_t)(unsigned)key, &p);
	while (htab_next(&t->t, &p, &i))
		if (t->keys[i] == key)
			return t->vals[i];
	return NULL;
}

/* Insert or replace. */
static void itab_put(struct itab *t, int key, void *val)
{
	struct htab_probe p;
	size_t n = htab_count(&t->t);
	uint32_t i;

	htab_probe(&t->t, (uint64_t)(unsigned)key, &p);
	while (htab_next(&t->t, &p, &i))
		if (t->keys[i] == key) {
			t->vals[i] = val;
			return;
		}
	if (n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->keys = xreallocarray(t->keys, t->cap, sizeof(*t->keys));
		t->vals = xreallocarray(t->vals, t->cap, sizeof(*t->vals));
	}
	t->keys[n] = key;
	t->vals[n] = val;
	htab_put(&t->t, &p, (uint32_t)n);
}

/* Forget a process's JIT code: it exec'd, or its pid is another process's now. */
static void pjit_reset(struct pjit *j)
{
	if (j->own)
		jit_free(j->t);
	free(j->dump);
	memset(j, 0, sizeof(*j));
}

static void jit_warn(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void jit_warn(struct session *s, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (s->njwarn == JIT_WARN_MAX) {
		s->jmore++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->jwarn[s->njwarn++] = xstrdup(buf);
}

const char *const *session_jit_warnings(const struct session *s, size_t *more)
{
	*more = s->jmore;
	return (const char *const *)s->jwarn;
}

struct session *session_new(struct symbols *sym, session_sample_fn fn, void *ctx)
{
	struct session *s = xcalloc(1, sizeof(*s));

	s->sym = sym;
	s->fn = fn;
	s->ctx = ctx;
	s->pool = strpool_new();
	s->fpool = strpool_new();
	s->jpool = strpool_new();
	s->no_switch_samples = strpool_intern(s->pool, "[no stack: switch-out not sampled]");
	s->car_budget = prof_ext_budget(0);	/* prof_ext_budget(): src/jitdump.h */
	for (size_t i = 0; i < FMEMO; i++)
		s->fmemo[i].k = -1;
	evtab_init(&s->ev);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->done, NULL);
	return s;
}

/* Forget every carried JIT file, whole or in parts, and what they cost. */
static void carried_reset(struct session *s)
{
	for (size_t i = 0; i < s->ncar; i++)
		jit_free(s->car[i].t);
	free(s->car);
	s->car = NULL;
	s->ncar = s->carcap = 0;
	for (size_t i = 0; i < s->npend; i++)
		free(s->pend[i].buf);
	free(s->pend);
	s->pend = NULL;
	s->npend = 0;
	htab_release(&s->cartab);
	htab_release(&s->cpidtab);
	s->car_used = 0;
	s->car_over = 0;
}

static void free_itab(struct itab *t, int procs)
{
	for (size_t i = 0; i < htab_count(&t->t); i++) {
		if (!t->vals[i])
			continue;
		if (procs) {
			struct proc *p = t->vals[i];

			maps_release(&p->maps);
			pjit_reset(p->jit);
			free(p->jit);
		} else {
			free(((struct thread *)t->vals[i])->cs);
		}
		free(t->vals[i]);
	}
	free(t->keys);
	free(t->vals);
	htab_release(&t->t);
}

void session_leaf_only(struct session *s, int on)
{
	s->leaf_only = on;
}

void session_filter(struct session *s, session_filter_fn fn)
{
	s->filter = fn;
}

void session_unordered(struct session *s, int on)
{
	s->unordered = on;
}

uint64_t session_first_time(const struct session *s)
{
	return s->first_time;
}

static void stop_thread(struct session *s, int abort);
static void set_on_cpu(struct session *s, struct thread *t, int on);
static void drain(struct session *s);

static void free_batch(struct batch *b)
{
	if (b) {
		free(b->e);
		free(b->c);
		free(b);
	}
}

void session_free(struct session *s)
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
	free_itab(&s->threads, 0);
	free_itab(&s->procs, 1);
	free(s->q);
	free(s->qtmp);
	free(s->pk);
	free(s->praw);
	unwind_free(s->unwind);
	carried_reset(s);
	for (size_t i = 0; i < s->njwarn; i++)
		free(s->jwarn[i]);
	strpool_free(s->jpool);
	evtab_release(&s->ev);
	strpool_free(s->pool);
	strpool_free(s->fpool);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->work);
	pthread_cond_destroy(&s->done);
	free(s);
}

static int skip(struct skipped *k, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A record that cannot be used is skipped and counted: never fatal. */
static int skip(struct skipped *k, uint64_t off, const char *fmt, ...)
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

static int is_switch_event(const struct evdesc *e);

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
	drain(s);	/* the delivery thread reads the names */
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
		if (is_switch_event(s->ev.ev[i]))
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

const char *session_feature(const struct session *s, const char *name)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(name, feat_names[i]))
			return s->feat[i];
	return NULL;
}

/* --- threads and maps ------------------------------------------------- */

static struct proc *get_proc(struct session *s, int pid)
{
	struct proc *p = itab_get(&s->procs, pid);

	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		p->jit = xcalloc(1, sizeof(*p->jit));
		maps_init(&p->maps);
		itab_put(&s->procs, pid, p);
	}
	return p;
}

static struct thread *get_thread(struct session *s, int pid, int tid)
{
	struct thread *t = itab_get(&s->threads, tid);

	if (!t) {
		char name[32];

		t = xcalloc(1, sizeof(*t));
		t->tid = tid;
		t->pid = pid;
		/* the idle task has no COMM record: perf calls it swapper too */
		if (tid == 0)
			snprintf(name, sizeof(name), "swapper");
		else
			snprintf(name, sizeof(name), ":%d", tid);
		t->comm = strpool_intern(s->pool, name);
		itab_put(&s->threads, tid, t);
	}
	return t;
}

/* Put m in p's maps, cutting away whatever it overlaps: the newer map wins. */
static void insert_map(struct proc *p, const struct map *m)
{
	maps_insert(&p->maps, m);
	p->gen++;
}

static const struct map *find_map(const struct proc *p, uint64_t addr)
{
	return p ? maps_find(&p->maps, addr) : NULL;
}

static void do_mmap(struct session *s, const struct kevent *k)
{
	const struct mmap_event *me = &k->mmap;
	struct map m;
	char name[4096];
	size_t namelen;

	namelen = me->name_len < sizeof(name) ? me->name_len : sizeof(name) - 1;
	memcpy(name, me->name, namelen);
	name[namelen] = '\0';
	if (me->len == 0 || me->start + me->len < me->start)
		return;		/* empty or wrapping: nothing to map */
	if (k->misc & PERF_RECORD_MISC_MMAP_DATA)
		return;		/* data (dwarf mode records them for perf): no samples there */
	m.start = me->start;
	m.end = me->start + me->len;
	m.pgoff = me->pgoff;
	if (!strncmp(name, "[kernel.kallsyms]", 17)) {
		/* The kernel resolves from kallsyms, checked against where it was. */
		symbols_kernel_map(s->sym, name + 17, me->pgoff, me->start, me->len);
		return;
	}
	if ((int32_t)me->pid == -1) {
		/* kernel modules: named from kallsyms, placed by these for another boot */
		symbols_kernel_module_map(s->sym, name, me->start, me->len);
		return;
	}
	m.dso = symbols_dso(s->sym, name, me->build_id, me->build_id_len);
	{
		struct proc *pr = get_proc(s, (int)me->pid);

		/* exec maps the program first, then its interpreter and libraries */
		if (!pr->exe && name[0] == '/' && !jitdump_path(name))
			pr->exe = m.dso;
		insert_map(pr, &m);
	}
	if (jitdump_path(name)) {
		/* a JIT runtime's jitdump, mapped so that its path is known */
		struct pjit *j = get_proc(s, (int)me->pid)->jit;

		free(j->dump);
		j->dump = xstrdup(name);
		if (j->tried && j->own) {	/* read again at the next need */
			jit_free(j->t);
			j->t = NULL;
			j->own = 0;
			j->tried = 0;
		}
	}
}

static void do_comm(struct session *s, const struct kevent *k)
{
	struct thread *t = get_thread(s, (int)k->pid, (int)k->tid);

	t->pid = (int)k->pid;
	t->comm = strpool_intern_text(s->pool, k->comm, k->comm_len);
	/* exec replaces the image: its new mappings follow this record */
	if (k->misc & PERF_RECORD_MISC_COMM_EXEC) {
		struct proc *pr = get_proc(s, (int)k->pid);

		maps_release(&pr->maps);
		pr->gen++;
		pr->start = s->now;
		pr->exe = NULL;
		pjit_reset(pr->jit);
	}
}

static void do_fork(struct session *s, const struct kevent *k)
{
	struct thread *parent = itab_get(&s->threads, (int)k->ptid), *t;

	struct thread *old = itab_get(&s->threads, (int)k->tid);

	t = xcalloc(1, sizeof(*t));	/* a reused tid is a new thread */
	t->pid = (int)k->pid;
	t->tid = (int)k->tid;
	t->comm = parent ? parent->comm : get_thread(s, (int)k->ppid, (int)k->ptid)->comm;
	/*
	 * A synthesized FORK (time 0) after the thread's synthesized COMM, as
	 * prof before 0.2 wrote them for -p and -t: the thread keeps its name.
	 */
	if (old && !k->time && old->pid == (int)k->pid && old->comm && old->comm[0] != ':')
		t->comm = old->comm;
	s->last_thread = NULL;	/* it may be the one freed */
	memset(s->tmemo, 0, sizeof(s->tmemo));
	/* looked up again: get_thread() above may have made the one at tid */
	old = itab_get(&s->threads, t->tid);
	if (old)
		set_on_cpu(s, old, 0);
	if (old) {
		/* the new thread keeps an off-CPU interval begun before its FORK was seen */
		t->out_time = old->out_time;
		t->out_state = old->out_state;
		t->out_cpu = old->out_cpu;
		cs_drop(s, old);
	}
	free(old);
	itab_put(&s->threads, t->tid, t);
	if (k->pid != k->ppid) {	/* a new process: it starts with its parent's maps */
		struct proc *pp = itab_get(&s->procs, (int)k->ppid);
		struct proc *np = get_proc(s, (int)k->pid);

		if (pp) {
			maps_copy(&np->maps, &pp->maps);
			np->exe = pp->exe;
		} else {
			maps_release(&np->maps);
			np->exe = NULL;
		}
		np->gen++;
		np->start = k->time;
		pjit_reset(np->jit);
	}
}

/* --- JIT code ------------------------------------------------------------ */

static uint64_t car_hash(int pid, uint64_t start)
{
	uint64_t w[2] = { (uint64_t)(unsigned)pid, start };

	return htab_hash_words(w, 2);
}

/* The carried table of (pid, start), made when new and make is set. */
static struct jit_table *carried_get(struct session *s, int pid, uint64_t start, int make)
{
	struct htab_probe p, pp;
	uint32_t i;

	htab_probe(&s->cartab, car_hash(pid, start), &p);
	while (htab_next(&s->cartab, &p, &i))
		if (s->car[i].pid == pid && s->car[i].start == start)
			return s->car[i].t;
	if (!make)
		return NULL;
	s->car = xgrow(s->car, &s->carcap, s->ncar + 1, sizeof(*s->car));
	s->car[s->ncar].pid = pid;
	s->car[s->ncar].start = start;
	s->car[s->ncar].t = jit_new(s->jpool);
	htab_put(&s->cartab, &p, (uint32_t)s->ncar);
	htab_probe(&s->cpidtab, (uint64_t)(unsigned)pid, &pp);
	while (htab_next(&s->cpidtab, &pp, &i))
		if (s->car[i].pid == pid)
			return s->car[s->ncar++].t;
	htab_put(&s->cpidtab, &pp, (uint32_t)s->ncar);
	return s->car[s->ncar++].t;
}

/* Whether the profile carries JIT code of any process of this pid. */
static int carried_pid(const struct session *s, int pid)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&s->cpidtab, (uint64_t)(unsigned)pid, &p);
	while (htab_next(&s->cpidtab, &p, &i))
		if (s->car[i].pid == pid)
			return 1;
	return 0;
}

/* What a perf map or jitdump of what says, into t; a warning when some of it is bad. */
static void jit_fill(struct session *s, struct jit_table *t, uint32_t kind, const void *data,
		     size_t len, const char *what)
{
	const char *why;
	uint64_t bad = kind == PROF_EXT_PERF_MAP ? jit_add_perf_map(t, data, len, &why)
						 : jit_add_jitdump(t, data, len, &why);

	if (bad)
		jit_warn(s, "%s: %s%s; %" PRIu64 " part%s of it skipped, the rest used", what,
			 why, bad > 1 ? " (and more)" : "", bad, bad > 1 ? "s" : "");
}

/* At most this many carried files put together at once: prof writes one at a time. */
#define PEND_MAX 8

/* Charge n bytes of carried file to the budget: 0, or -1 when it is spent. */
static int car_charge(struct session *s, uint64_t n, const char *what)
{
	if (n > s->car_budget - s->car_used) {
		if (!s->car_over)
			jit_warn(s, "%s, with the JIT code carried before it, is more than a profile "
				 "of this size carries (%" PRIu64 " MiB): left out, and any after it",
				 what, s->car_budget >> 20);
		s->car_over = 1;
		return -1;
	}
	s->car_used += n;
	return 0;
}

void session_carried_budget(struct session *s, uint64_t file_size)
{
	uint64_t b = prof_ext_budget(file_size);

	if (b > s->car_budget)
		s->car_budget = b;
}

int session_carried(struct session *s, const struct perf_event_header *h)
{
	struct prof_ext x;
	const unsigned char *data;
	struct pending *pd = NULL;
	char what[96];

	if (!prof_ext_of(h, &x) || x.kind == PROF_EXT_TRAILER)
		return 0;	/* perf's old EVENT_TYPE record, or the trailer */
	if ((x.kind != PROF_EXT_PERF_MAP && x.kind != PROF_EXT_JITDUMP) ||
	    x.len > h->size - sizeof(*h) - sizeof(x) || x.offset > x.total ||
	    x.len > x.total - x.offset) {
		jit_warn(s, "a record of the JIT code the profile carries is damaged: skipped");
		return 0;
	}
	if (s->car_over)
		return 0;	/* more than the profile can carry: said once */
	data = (const unsigned char *)(h + 1) + sizeof(x);
	snprintf(what, sizeof(what), "the %s of pid %u the profile carries",
		 x.kind == PROF_EXT_PERF_MAP ? "perf map" : "jitdump", x.pid);
	for (size_t i = 0; i < s->npend; i++)
		if (s->pend[i].pid == (int)x.pid && s->pend[i].kind == x.kind &&
		    s->pend[i].start == x.start)
			pd = &s->pend[i];
	if (pd && (x.offset != pd->len || x.total != pd->total)) {
		jit_warn(s, "%s lacks a part: left out", what);
		free(pd->buf);
		*pd = s->pend[--s->npend];
		pd = NULL;
		if (x.offset)
			return 0;
	}
	if (!pd) {
		if (x.offset) {
			jit_warn(s, "%s lacks its first part: left out", what);
			return 0;
		}
		if (s->npend == PEND_MAX) {
			jit_warn(s, "%s is one of too many carried at once: left out", what);
			return 0;
		}
		if (car_charge(s, CARRIED_FILE_COST, what))
			return 0;
		s->pend = xreallocarray(s->pend, s->npend + 1, sizeof(*s->pend));
		pd = &s->pend[s->npend++];
		memset(pd, 0, sizeof(*pd));
		pd->pid = (int)x.pid;
		pd->kind = x.kind;
		pd->start = x.start;
		pd->total = x.total;
	}
	if (car_charge(s, x.len, what)) {
		free(pd->buf);
		*pd = s->pend[--s->npend];
		return 0;
	}
	/* grown by what the file holds, never by what a size field claims */
	pd->buf = xreallocarray(pd->buf, pd->len + x.len + 1, 1);
	memcpy(pd->buf + pd->len, data, x.len);
	pd->len += x.len;
	if (pd->len == pd->total) {
		jit_fill(s, carried_get(s, pd->pid, pd->start, 1), pd->kind, pd->buf, pd->len,
			 what);
		free(pd->buf);
		*pd = s->pend[--s->npend];
	}
	return 0;
}

void session_carried_done(struct session *s)
{
	for (size_t i = 0; i < s->npend; i++) {
		jit_warn(s, "the %s of pid %d the profile carries is cut short: left out",
			 s->pend[i].kind == PROF_EXT_PERF_MAP ? "perf map" : "jitdump",
			 s->pend[i].pid);
		free(s->pend[i].buf);
	}
	s->npend = 0;
	s->carried_read = 1;
}

static int carried_one(void *arg, const struct perf_event_header *h)
{
	return session_carried(arg, h);
}

void session_read_ahead(struct session *s, const char *path)
{
	struct stat st;
	int ret;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode))
		session_carried_budget(s, (uint64_t)st.st_size);
	ret = reader_read_ahead(path, PDATA_HEADER_EVENT_TYPE, carried_one, s);

	if (ret > 0) {
		session_carried_done(s);
	} else if (ret < 0) {
		/* read where they stand instead, from the start */
		carried_reset(s);
		jit_warn(s, "the last record of '%s', which says where the JIT code it carries "
			 "is, points at no such records; reading them where they stand", path);
	}
}

/* A JIT runtime's file of pid's, read now (under --symfs as binaries are). */
static void jit_read(struct session *s, struct jit_table *t, uint32_t kind, const char *path,
		     int pid)
{
	char *where = symbols_locate(s->sym, path);
	size_t len;
	int err;
	void *data = file_read_regular(where, (size_t)1 << 32, &len, &err);
	struct jitdump_header h;
	const char *why;

	if (!data) {
		if (err != ENOENT || kind == PROF_EXT_JITDUMP)
			jit_warn(s, "cannot read %s: %s; its JIT code goes unnamed", where,
				 err == ENODEV ? "not a regular file" : strerror(err));
		free(where);
		return;
	}
	if (kind == PROF_EXT_JITDUMP && !jitdump_header(data, len, &h, &why) &&
	    h.pid != (uint32_t)pid)
		jit_warn(s, "%s is the jitdump of pid %u, not of pid %d: not used", where, h.pid,
			 pid);
	else
		jit_fill(s, t, kind, data, len, where);
	free(data);
	free(where);
}

/*
 * The JIT code of process pr, looked for at its first need: what the
 * profile carries of it; else, when the profile carries nothing (perf
 * wrote it, or prof was killed before the end), its perf map in /tmp
 * and its jitdump where it was mapped from, as perf reads them.
 */
static struct pjit *proc_jit(struct session *s, const struct proc *pr)
{
	struct pjit *j = pr->jit;
	char path[64];

	if (j->tried)
		return j;
	j->tried = 1;
	snprintf(path, sizeof(path), "[JIT] tid %d", pr->pid);
	j->dso = symbols_dso(s->sym, path, NULL, 0);
	if (s->carried_read || carried_pid(s, pr->pid)) {
		/* a pid the profile carries nothing of for this process had none */
		j->t = carried_get(s, pr->pid, pr->start, 0);
		return j;
	}
	j->t = jit_new(s->jpool);
	j->own = 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pr->pid);
	jit_read(s, j->t, PROF_EXT_PERF_MAP, path, pr->pid);
	if (j->dump)
		jit_read(s, j->t, PROF_EXT_JITDUMP, j->dump, pr->pid);
	return j;
}

/*
 * An address of pr in no file's map: JIT code when pr's runtime said so.
 * A caller's return address is looked up at the call, as files' are.
 */
static void jit_locate(struct session *s, const struct proc *pr, uint64_t addr,
		       struct rawf *r)
{
	struct pjit *j = proc_jit(s, pr);
	const struct jit_sym *js;

	if (!j->t)
		return;
	r->jitc = 1;
	js = jit_find(j->t, r->caller && addr ? addr - 1 : addr, s->now);
	if (js) {
		r->dso = j->dso;
		r->a = addr;
		r->jit = js;
	}
}

/* --- samples ------------------------------------------------------------ */

/* Append the k frames fi of address a of dso; returns the new count. */
static int append_frames(struct session *s, int n, struct dso *dso, uint64_t a, int kernel,
			 const struct frame_info *fi, int k)
{
	if (k == 0) {
		struct rframe *f = &s->frames[n];

		if (n >= MAX_FRAMES)
			return n;
		memset(f, 0, sizeof(*f));
		f->dso = dso;
		f->addr = a;
		f->kernel = kernel;
		return n + 1;
	}
	for (int i = 0; i < k && n < MAX_FRAMES; i++, n++) {
		struct rframe *f = &s->frames[n];

		f->dso = fi[i].dso ? fi[i].dso : dso;	/* a kernel module's */
		f->name = fi[i].name;
		f->addr = a;
		f->sym_offset = fi[i].sym_offset;
		f->file = fi[i].file;
		f->line = fi[i].line;
		f->kernel = kernel;
		f->inlined = fi[i].inlined;
		f->by_fp = 0;
	}
	return n;
}

/* Place an address in its dso: the process's maps of this moment. */
static void locate(struct session *s, const struct proc *pr, uint64_t addr, int kernel,
		   int caller, struct rawf *r)
{
	r->dso = NULL;
	r->a = addr;
	r->jit = NULL;
	r->jitc = 0;
	r->kernel = kernel;
	r->caller = caller;
	r->by_fp = 0;
	if (kernel) {
		r->dso = symbols_kernel(s->sym);
	} else {
		const struct map *mp = find_map(pr, addr);

		if (mp) {
			r->dso = mp->dso;
			r->a = addr - mp->start + mp->pgoff;
		}
		if (pr && (!mp || dso_is_anon(mp->dso)))
			jit_locate(s, pr, addr, r);
	}
}

/* The frames of r: a caller's address is where the call returns to, so look up the call. */
static int resolve_raw(struct session *s, const struct rawf *r, struct frame_info *fi)
{
	uint64_t look = r->caller && r->a ? r->a - 1 : r->a;

	if (r->jit) {
		const struct jit_line *l = symbols_srcline(s->sym) ? jit_line(r->jit, look) : NULL;

		memset(fi, 0, sizeof(*fi));
		fi->name = r->jit->name;
		fi->sym_offset = look - r->jit->start;
		fi->file = l ? l->file : NULL;
		fi->line = l ? (int)l->line : 0;
		return 1;
	}
	return r->dso ? dso_resolve(r->dso, look, fi, INLINE_MAX) : 0;
}

/*
 * A caller's frame was looked up at its return address - 1 (the call);
 * its offset is of the return address itself, as perf shows it.
 */
static void fix_caller_offsets(const struct rawf *r, struct frame_info *fi, int k)
{
	if (r->caller && r->a && k > 0 && fi[k - 1].name)
		fi[k - 1].sym_offset++;
}

/*
 * Append the frames of one address; returns the new count, or -1 when
 * nowait and its file is still being opened.
 */
static int add_frames(struct session *s, int n, const struct proc *pr, uint64_t addr,
		      int kernel, int caller, int nowait)
{
	struct frame_info fi[INLINE_MAX];
	unsigned flags = (unsigned)kernel | (unsigned)caller << 1;
	const struct proc *key = kernel ? NULL : pr;
	struct fmemo *m = &s->fmemo[(size_t)((addr >> 1) ^ (addr >> 13) ^
					     ((uintptr_t)key >> 4) ^ flags) & (FMEMO - 1)];
	struct rawf r;
	int k;

	if (m->addr == addr && m->pr == key && m->flags == flags &&
	    (!key || m->gen == key->gen) && m->k >= 0)
		return append_frames(s, n, m->dso, m->a, kernel, m->fi, m->k);
	locate(s, pr, addr, kernel, caller, &r);
	if (nowait && r.dso && !dso_ready(r.dso))
		return -1;
	k = resolve_raw(s, &r, fi);
	fix_caller_offsets(&r, fi, k);
	m->k = -1;
	if (k <= 2 && !r.jitc) {	/* JIT code changes with time: not kept */
		m->pr = key;
		m->gen = key ? key->gen : 0;
		m->flags = flags;
		m->addr = addr;
		m->dso = r.dso;
		m->a = r.a;
		memcpy(m->fi, fi, (size_t)k * sizeof(*fi));
		m->k = k;
	}
	return append_frames(s, n, r.dso, r.a, kernel, fi, k);
}

/* What the unwinder's look-ups need: the session (for JIT code) and the process. */
struct ufind {
	struct session *s;
	const struct proc *pr;
};

/*
 * CPython's perf trampoline at js (-X perf on x86-64): 11 bytes, named
 * "py::function:file". Its frame is known though it has no CFI.
 */
static int cpython_trampoline(const struct jit_sym *js)
{
#if defined(__x86_64__)
	return js->end - js->start == 11 && !strncmp(js->name, "py::", 4);
#else
	(void)js;
	return 0;	/* arm64's keeps the frame pointer */
#endif
}

/* The unwinder's look-up of a process's map (unwind_find_fn): ctx is a struct ufind. */
static int find_umap(void *ctx, uint64_t pc, struct unwind_map *u)
{
	const struct ufind *uf = ctx;
	const struct map *m = maps_find(&uf->pr->maps, pc);

	if (!m || dso_is_anon(m->dso)) {
		struct pjit *j = proc_jit(uf->s, uf->pr);
		const struct jit_sym *js = j->t ? jit_find(j->t, pc, uf->s->now) : NULL;

		if (js && cpython_trampoline(js)) {
			u->start = js->start;
			u->end = js->end;
			u->pgoff = 0;
			u->file = NULL;
			u->build_id_len = 0;
			u->trampoline = 1;
			return 1;
		}
	}
	if (!m)
		return 0;
	u->start = m->start;
	u->end = m->end;
	u->pgoff = m->pgoff;
	/* Only files that resolve: another build's CFI would mislead. */
	u->file = m->dso ? symbols_dso_file(m->dso) : NULL;
	u->build_id_len = u->file ? dso_build_id(m->dso, &u->build_id) : 0;
	u->trampoline = 0;
	return 1;
}

/*
 * The user frames of a --call-graph dwarf sample, unwound from its
 * registers and stack copy in the maps of process pr: into s->upcs.
 */
static int unwind_sample(struct session *s, const struct evdesc *e, const struct sample *smp,
			 const struct proc *pr)
{
	struct ufind uf;
	int n;

	if (!pr || !smp->stack_dyn_size || !smp->nr_user_regs)
		return 0;
	if (!s->unwind)
		s->unwind = unwind_new(symbols_debuginfo_path(s->sym));
	uf.s = s;
	uf.pr = pr;
	n = unwind_user(s->unwind, find_umap, &uf, smp, e->attr.sample_regs_user, s->upcs,
			s->upcs_fl, MAX_FRAMES, &s->ustop);
	/* Past the end of a copy the kernel did not fill: the stack ended there. */
	if (s->ustop.end == UNWIND_END_STACK && smp->stack_dyn_size < e->attr.sample_stack_user)
		s->ustop.end = UNWIND_END_BAD;
	return n;
}

/*
 * -g samples with a few bytes of the user stack (and no registers: not
 * --call-graph dwarf): the return addresses of the frameless functions
 * from user pc a on, which the chain skips (unwind_leaf_returns()).
 */
static int leaf_returns(struct session *s, const struct sample *smp, uint64_t a, uint64_t *ras,
			int max)
{
	struct ufind uf;

	if (!smp->stack || !smp->stack_dyn_size || smp->nr_user_regs || !s->cur_pr)
		return 0;
	if (!s->unwind)
		s->unwind = unwind_new(symbols_debuginfo_path(s->sym));
	uf.s = s;
	uf.pr = s->cur_pr;
	return unwind_leaf_returns(s->unwind, find_umap, &uf, a, smp->stack, smp->stack_dyn_size,
				   ras, max);
}

/*
 * Call fn for each address of a sample, innermost first: the call chain
 * (kernel and user parts, context markers followed), then the user frames
 * unwound from a stack copy, or the sampled ip when that gives nothing or
 * chains are not wanted. Stops at fn's -1.
 */
static int each_address(struct session *s, const struct sample *smp, int kernel,
			int (*fn)(struct session *s, void *arg, uint64_t a, int kernel, int caller),
			void *arg)
{
	int n = 0, got = 0;

	s->repaired = 0;
	if (smp->nr_chain && !s->leaf_only) {
		int ctx_kernel = kernel, first = 1, first_user = 0;

		for (uint64_t i = 0; i < smp->nr_chain && got < MAX_FRAMES; i++) {
			uint64_t a = smp->chain[i];

			if (a >= PERF_CONTEXT_MAX) {
				ctx_kernel = a == PERF_CONTEXT_KERNEL || a == PERF_CONTEXT_GUEST_KERNEL;
				first_user = a == PERF_CONTEXT_USER;
				continue;
			}
			/*
			 * A return address in the first 64 KiB is where the kernel's
			 * walk of frame pointers ran off the stack (an outermost
			 * frame's 0, a frameless function's data: curl's 0x1000),
			 * never code: Linux maps nothing below vm.mmap_min_addr, 65536
			 * by default on x86 (32768 on arm64), and no program is linked
			 * there.
			 */
			if (!ctx_kernel && !first && a < 0x10000)
				continue;
			n = fn(s, arg, a, ctx_kernel, !first);
			if (n < 0)
				return -1;
			got = n;
			first = 0;
			if (first_user) {
				/* frameless functions' callers, which the chain skips: from the stack */
				uint64_t ras[8], next = i + 1 < smp->nr_chain ? smp->chain[i + 1] : 0;
				int k = leaf_returns(s, smp, a, ras, 8);

				first_user = 0;
				for (int j = 0; j < k && ras[j] != next; j++) {
					n = fn(s, arg, ras[j], 0, 1);
					if (n < 0)
						return -1;
					got = n;
					s->repaired = 1;
				}
			}
		}
	}
	s->ustop_frame = -1;
	if (s->nupcs && !s->leaf_only) {
		for (int i = 0; i < s->nupcs; i++) {
			if (i == s->ustop.at)
				s->ustop_frame = got;
			/* the interrupted pcs are no return addresses; the rest are */
			s->cur_fp = (s->upcs_fl[i] & UNWIND_FP) != 0;
			n = fn(s, arg, s->upcs[i], 0, !(s->upcs_fl[i] & UNWIND_EXACT));
			s->cur_fp = 0;
			if (n < 0)
				return -1;
			got = n;
		}
	}
	if (got == 0)
		n = fn(s, arg, smp->ip, kernel, 0);
	return n;
}

struct build {
	const struct proc *pr;
	int n, nowait;
};

static int build_one(struct session *s, void *arg, uint64_t a, int kernel, int caller)
{
	struct build *b = arg;
	int n = add_frames(s, b->n, b->pr, a, kernel, caller, b->nowait);

	for (int i = b->n; s->cur_fp && i < n; i++)
		s->frames[i].by_fp = 1;
	b->n = n;
	return n;
}

static int park_one(struct session *s, void *arg, uint64_t a, int kernel, int caller)
{
	const struct proc *pr = arg;

	if (s->npraw == s->praw_cap) {
		s->praw_cap = s->praw_cap ? 2 * s->praw_cap : 4096;
		s->praw = xreallocarray(s->praw, s->praw_cap, sizeof(*s->praw));
	}
	locate(s, pr, a, kernel, caller, &s->praw[s->npraw]);
	s->praw[s->npraw++].by_fp = (unsigned)s->cur_fp;
	return (int)(s->npraw - s->pk[s->npk].first);
}

/* Put a sample aside until its files are open, its addresses placed now. */
static void park(struct session *s, const struct evdesc *e, const struct sample *smp,
		 const struct proc *pr, const char *comm, int kernel, uint32_t parallelism)
{
	struct parked *p;

	if (s->npk == s->pk_cap) {
		s->pk_cap = s->pk_cap ? 2 * s->pk_cap : 256;
		s->pk = xreallocarray(s->pk, s->pk_cap, sizeof(*s->pk));
	}
	p = &s->pk[s->npk];
	p->ev = e;
	p->pid = smp->pid;
	p->tid = smp->tid;
	p->cpu = smp->cpu;
	p->time = smp->time;
	p->period = (smp->present & PERF_SAMPLE_PERIOD) ? smp->period : 1;
	p->comm = comm;
	p->exe = pr ? pr->exe : NULL;
	p->parallelism = parallelism;
	p->first = s->npraw;
	s->cur_pr = pr;
	each_address(s, smp, kernel, park_one, (void *)pr);
	p->repaired = s->repaired;
	p->n = s->npraw - p->first;
	p->unwind_end = s->nupcs ? s->ustop.end : 0;
	p->unwind_at = s->ustop_frame;	/* praw entries are one an address */
	s->npk++;
}

/* Resolve and deliver the parked samples, waiting for their files. */
static int unpark(struct session *s)
{
	int ret = 0;

	for (size_t i = 0; i < s->npk && !ret; i++) {
		const struct parked *p = &s->pk[i];
		struct rsample rs;
		int n = 0;

		rs.unwind_at = -1;
		for (size_t j = 0; j < p->n; j++) {
			struct frame_info fi[INLINE_MAX];
			const struct rawf *r = &s->praw[p->first + j];
			int k = resolve_raw(s, r, fi);
			int n0 = n;

			if ((int)j == p->unwind_at)
				rs.unwind_at = n;
			fix_caller_offsets(r, fi, k);
			n = append_frames(s, n, r->dso, r->a, r->kernel, fi, k);
			for (int f = n0; r->by_fp && f < n; f++)
				s->frames[f].by_fp = 1;
		}
		rs.ev = p->ev;
		rs.pid = p->pid;
		rs.tid = p->tid;
		rs.cpu = p->cpu;
		rs.time = p->time;
		rs.period = p->period;
		rs.comm = p->comm;
		rs.exe = p->exe;
		rs.parallelism = p->parallelism;
		rs.repaired = p->repaired;
		rs.nframes = n;
		rs.frames = s->frames;
		rs.unwind_end = p->unwind_end;
		if (rs.unwind_at >= n)
			rs.unwind_at = -1;
		ret = s->fn(s->ctx, &rs);
	}
	s->npk = 0;
	s->npraw = 0;
	return ret;
}

/*
 * A decoded sample of event e (or one made of it: an off-CPU interval),
 * resolved and handed to the callback. pseudo: a sample with no stack,
 * whose one frame is named so.
 */
static int sample_go(struct session *s, const struct evdesc *e, const struct sample *sp,
		     int kernel, const char *pseudo)
{
	struct sample smp = *sp;
	struct rsample rs;
	struct build b;
	struct thread *t;

	if (!s->have_first) {
		s->first_time = smp.time;
		s->have_first = 1;
	}
	s->now = smp.time;
	/* Processes live as long as the session; a thread until a FORK reuses its tid. */
	if (!s->last_proc || s->last_proc->pid != (int)smp.pid)
		s->last_proc = itab_get(&s->procs, (int)smp.pid);
	b.pr = s->last_proc;
	b.n = 0;
	b.nowait = s->unordered && s->npk < PARK_MAX && s->npraw < PRAW_MAX;
	t = s->last_thread;
	if (!t || t->tid != (int)smp.tid) {
		struct thread **slot = &s->tmemo[smp.tid & (TMEMO - 1)];

		t = *slot;
		if (!t || t->tid != (int)smp.tid)
			t = *slot = get_thread(s, (int)smp.pid, (int)smp.tid);
		s->last_thread = t;
	}
	rs.ev = e;
	rs.pid = smp.pid;
	rs.tid = smp.tid;
	rs.cpu = smp.cpu;
	rs.time = smp.time;
	rs.period = (smp.present & PERF_SAMPLE_PERIOD) ? smp.period : 1;
	rs.comm = t->comm;
	rs.exe = b.pr ? b.pr->exe : NULL;
	rs.parallelism = 1;
	if (s->has_switches && !pseudo && !(e->attr.config == ~0ULL && e->attr.type == PERF_TYPE_SOFTWARE)) {
		/* a thread sampled is on a CPU, whatever record said so first */
		set_on_cpu(s, t, 1);
		rs.parallelism = (uint32_t)get_proc(s, t->pid)->running;
		if (!rs.parallelism)
			rs.parallelism = 1;
	}
	rs.nframes = 0;
	rs.frames = NULL;
	rs.unwind_end = 0;
	rs.unwind_at = -1;
	rs.repaired = 0;
	if (s->filter && !s->filter(s->ctx, &rs))
		return 0;
	if (pseudo) {
		struct rframe *f = &s->frames[0];

		memset(f, 0, sizeof(*f));
		f->name = pseudo;
		rs.nframes = 1;
		rs.frames = s->frames;
		return s->fn(s->ctx, &rs);
	}
	s->nupcs = s->leaf_only ? 0 : unwind_sample(s, e, &smp, b.pr);
	s->cur_pr = b.pr;
	if (each_address(s, &smp, kernel, build_one, &b) < 0) {
		park(s, e, &smp, b.pr, t->comm, kernel, rs.parallelism);
		return 0;
	}
	rs.nframes = b.n;
	rs.frames = s->frames;
	rs.unwind_end = s->nupcs ? s->ustop.end : 0;
	rs.unwind_at = s->ustop_frame < b.n ? s->ustop_frame : -1;
	rs.repaired = s->repaired;
	return s->fn(s->ctx, &rs);
}

static int is_kernel_mode(uint16_t misc)
{
	int cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

/* The context-switches event that --off-cpu adds: a sample at every switch-out. */
static int is_switch_event(const struct evdesc *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       e->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES && !e->attr.freq &&
	       e->attr.sample_period == 1;
}

static int deliver_sample(struct session *s, const struct evdesc *e,
			  const struct perf_event_header *h, uint64_t foff)
{
	struct sample smp;

	if (decode_sample(&e->attr, h, &smp))
		return skip(&s->skd, foff, "malformed SAMPLE record");
	if (is_switch_event(e) && (smp.present & PERF_SAMPLE_TID)) {
		/* where the thread is as it switches out: the stack of its wait */
		struct thread *t = get_thread(s, (int)smp.pid, (int)smp.tid);

		if (!cs_keep(s, t, h)) {
			t->cs_ev = e;
			t->cs_time = smp.time;
		}
	}
	return sample_go(s, e, &smp, is_kernel_mode(h->misc), NULL);
}

/* Thread t is on a CPU (on 1) or off it now: its process's running count follows. */
static void set_on_cpu(struct session *s, struct thread *t, int on)
{
	struct proc *pr;

	if (t->on_cpu == on)
		return;
	pr = get_proc(s, t->pid);
	t->on_cpu = on;
	pr->running += on ? 1 : -1;
	if (pr->running < 0)
		pr->running = 0;
}

/* The events made of switch records: off-CPU time, blocked and preempted. */
static struct evdesc *switch_event(struct session *s, int preempted)
{
	struct evdesc *e = &s->swev[preempted];

	if (!e->name[0]) {
		/* after the file's own events; an event declared later is refused */
		e->index = s->ev.nr + (size_t)preempted;
		s->swbase = s->ev.nr;
		s->swev[0].index = s->swbase;
		s->swev[1].index = s->swbase + 1;
		e->attr.type = PERF_TYPE_SOFTWARE;
		e->attr.config = ~0ULL;
		e->attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		snprintf(e->name, sizeof(e->name), "%s", preempted ? "preempted" : "off-cpu");
		s->swset = 1;
	}
	return e;
}

/*
 * A thread switched out (at its record's time) or back in: an interval
 * off the CPU ends, and becomes a sample of off-cpu (blocked: it waited
 * for something) or preempted (runnable, waiting for a CPU), weighing
 * its nanoseconds, with the stack of its switch-out when the recording
 * has one.
 */
static int do_switch(struct session *s, const struct kevent *k, const struct sample *id)
{
	struct thread *t;
	struct sample smp;
	struct evdesc *e;
	uint64_t d;
	int preempted, kernel = 0, ret;
	const char *pseudo = NULL;

	if (!(id->present & PERF_SAMPLE_TID) || !(id->present & PERF_SAMPLE_TIME))
		return 0;
	t = get_thread(s, (int)id->pid, (int)id->tid);
	set_on_cpu(s, t, !k->switch_out);
	if (k->switch_out) {
		t->out_time = id->time;
		t->out_state = k->preempt ? 2 : 1;
		t->out_cpu = (id->present & PERF_SAMPLE_CPU) ? id->cpu : 0;
		return 0;
	}
	if (!t->out_state || id->time <= t->out_time) {
		t->out_state = 0;
		return 0;
	}
	d = id->time - t->out_time;
	preempted = t->out_state == 2;
	t->out_state = 0;
	/* the switch-out's own sample comes just before its record */
	if (t->cs && t->cs_time <= t->out_time && t->out_time - t->cs_time < 1000000 &&
	    !decode_sample(&t->cs_ev->attr, (const struct perf_event_header *)t->cs, &smp)) {
		kernel = is_kernel_mode(((const struct perf_event_header *)t->cs)->misc);
	} else {
		memset(&smp, 0, sizeof(smp));
		smp.present = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		smp.pid = id->pid;
		smp.tid = id->tid;
		smp.cpu = t->out_cpu;
		pseudo = s->no_switch_samples;
	}
	smp.time = t->out_time;
	smp.period = d;
	smp.present |= PERF_SAMPLE_PERIOD;
	e = switch_event(s, preempted);
	if (!pseudo) {
		/* unwound as the switch-out's sample is: its registers, its stack copy */
		e->attr.sample_type = t->cs_ev->attr.sample_type;
		e->attr.sample_regs_user = t->cs_ev->attr.sample_regs_user;
		e->attr.sample_stack_user = t->cs_ev->attr.sample_stack_user;
	}
	ret = sample_go(s, e, &smp, kernel, pseudo);
	/* used: sample_go() took the addresses it needs (a parked sample too) */
	if (!pseudo)
		cs_drop(s, t);
	return ret;
}

/* Act on one kernel record, in time order. */
static int deliver(struct session *s, const struct perf_event_header *h, uint64_t foff)
{
	const struct evdesc *e = evtab_find(&s->ev, h);
	struct kevent k;
	struct sample id;

	if (!e)
		return skip(&s->skd, foff, "%s record of an unknown event",
			    pdata_record_name(h->type) ? pdata_record_name(h->type) : "a");
	if (h->type == PERF_RECORD_SAMPLE)
		return deliver_sample(s, e, h, foff);
	if (decode_kernel(&e->attr, h, &k, &id))
		return skip(&s->skd, foff, "malformed %s record",
			    pdata_record_name(h->type) ? pdata_record_name(h->type) : "kernel");
	s->now = (id.present & PERF_SAMPLE_TIME) ? id.time : 0;
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		do_mmap(s, &k);
		break;
	case PERF_RECORD_COMM:
		do_comm(s, &k);
		break;
	case PERF_RECORD_FORK:
		do_fork(s, &k);
		break;
	case PERF_RECORD_EXIT: {
		struct thread *t = itab_get(&s->threads, (int)k.tid);

		if (t)
			set_on_cpu(s, t, 0);
		break;
	}
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		s->lost += k.lost;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return do_switch(s, &k, &id);
	}
	return 0;
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
		ret = deliver(s, b->e[i].h, ((const uint64_t *)b->e[i].h)[-1]);
	for (size_t i = 0; i < b->nc; i++)
		chunk_put(s, b->c[i]);
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
			if (!s->abort && !s->ret && s->npk) {
				int err;

				pthread_mutex_unlock(&s->mu);
				err = unpark(s);
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
static void drain(struct session *s)
{
	pthread_mutex_lock(&s->mu);
	while (s->head || s->busy)
		pthread_cond_wait(&s->done, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

/* Let the delivery thread finish (or, with abort, skip) its batches and join it. */
static void stop_thread(struct session *s, int abort)
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
static int flush(struct session *s, uint64_t limit)
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

static int enqueue(struct session *s, const struct perf_event_header *h, uint64_t foff)
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
			return skip(&s->skq, foff, "malformed SAMPLE record");
		memcpy(&time, (const unsigned char *)h + at, 8);
	} else if (e) {
		if (h->type == PERF_RECORD_SAMPLE) {
			if (decode_sample(&e->attr, h, &smp))
				return skip(&s->skq, foff, "malformed SAMPLE record");
		} else if (decode_id(&e->attr, h, &smp)) {
			return skip(&s->skq, foff, "%s record too short",
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
		ret = flush(s, s->q[s->qn / 2].time);
		/* and no more batches in flight than this one: the bound is on all of it */
		drain(s);
		return ret ? ret : __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);
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
			drain(s);
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

int session_record(struct session *s, const struct reader_record *rec)
{
	const struct perf_event_header *h = rec->hdr;
	int ret = __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);

	if (ret)
		return ret;
	switch (h->type) {
	case PDATA_HEADER_ATTR:
		/* The delivery thread looks events up: let it finish first. */
		drain(s);
		if (s->swset && !(h->misc & READER_ATTR_MORE_IDS))
			/* off-cpu and preempted took the next indexes */
			return skip(&s->skq, rec->offset, "an ATTR record after the samples");
		if (evtab_add_record(&s->ev, h))
			return skip(&s->skq, rec->offset, "malformed ATTR record");
		if (s->ev.ev[s->ev.nr - 1]->attr.context_switch)
			s->has_switches = 1;
		return 0;
	case PDATA_HEADER_FEATURE:
		do_feature(s, h);
		return 0;
	case PDATA_HEADER_TRACING_DATA:
		/* the tracepoints' names, from their formats (session_tracing_data()) */
		return 0;
	case PDATA_HEADER_EVENT_TYPE:
		/* JIT code prof carries, when it was not read ahead: tables the delivery thread reads */
		if (!s->carried_read) {
			drain(s);
			return session_carried(s, h);
		}
		return 0;
	case PDATA_FINISHED_ROUND:
		ret = flush(s, s->round_limit);
		s->round_limit = s->max_time;
		return ret;
	}
	if (h->type >= 64)
		return 0;	/* perf's own bookkeeping: nothing for a report */
	return enqueue(s, h, rec->offset);
}

int session_sync(struct session *s)
{
	int ret;

	drain(s);
	ret = __atomic_load_n(&s->ret, __ATOMIC_ACQUIRE);
	if (!ret && s->npk) {
		/* the thread is idle (drained): what it put aside goes out here */
		ret = unpark(s);
		if (ret)
			__atomic_store_n(&s->ret, ret, __ATOMIC_RELEASE);
	}
	return ret;
}

void session_abort(struct session *s)
{
	stop_thread(s, 1);
}

int session_finish(struct session *s)
{
	int ret = flush(s, UINT64_MAX);

	stop_thread(s, 0);
	if (!ret && !s->ret && s->npk)
		s->ret = unpark(s);	/* parked without a thread: none could be made */
	return ret ? ret : s->ret;
}
