// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's session: what a profile's records say, followed in time
 * order into resolved samples. It wires a pipeline of stages, each of
 * which owns its state behind its own header, as perf's session does:
 *   order.h     records put back in time order, handed to a delivery
 *               thread a sorted round at a time;
 *   machine.h   processes, threads, their maps and programs, perf's
 *               build-id table;
 *   walk.h      a sample's addresses, and their frames through the
 *               resolver (resolve.h: symbols, unwinding, JIT code);
 *   stacks.h    samples held as placed addresses: summed, or parked
 *               while their files open, named when handed on;
 *   switches.h  off-CPU and preempted intervals and parallelism, made
 *               of context switches.
 * This file is the session's interface: making and freeing one, feeding
 * records (session_record(): the reading thread's side), the records the
 * reading thread acts on itself (attrs, features, build ids), and on the
 * delivery thread the dispatch of a record by type (deliver()) and a
 * sample's way through the stages (sample_go()).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "decode.h"
#include "machine.h"
#include "module.h"
#include "order.h"
#include "pdata.h"
#include "resolve.h"
#include "session.h"
#include "stacks.h"
#include "strpool.h"
#include "switches.h"
#include "symbols.h"
#include "tpfmt.h"
#include "walk.h"
#include "vdso.h"
#include "xalloc.h"

/* Records the session could not use, skipped; the first one's offset and why. */
struct skipped {
	uint64_t n, first;
	char why[96];
};

struct session {
	struct symbols *sym;
	struct resolver *res;	/* addresses into frames: symbols, unwinding, JIT code */
	session_sample_fn fn;
	void *ctx;
	session_task_fn task_fn;	/* FORK and EXIT, or NULL */
	void *task_ctx;
	session_filter_fn filter;
	struct evtab ev;
	struct strpool *fpool;	/* reading thread: features */
	/* the stages */
	struct order *order;
	struct machine *mach;
	struct walk *walk;
	struct stacks *stacks;
	struct switches *sw;

	uint64_t lost;
	const char *feat[4];	/* hostname, osrelease, arch, cmdline */
	/* CLOCK_DATA: the wall clock (ns) when the records' clock read clock_ns; 0: unknown */
	uint64_t tod_ns, clock_ns;
	int sum;		/* session_sum() */
	int daddrs;		/* session_data_addrs() */
	uint32_t groups;	/* the groups of more than one event the file names (GROUP_DESC) */
	struct session_fields with;		/* the samples with each field: session.h */
	int branches;				/* session_branches() */
	int br_feature;				/* the file's BRANCH_STACK feature */
	uint64_t reads;				/* READ records (record -s) */
	session_read_fn read_fn;
	void *read_ctx;
	/* PERF_SAMPLE_READ: each count's last value, by its id (the index in prev) */
	struct u64map rp_ids;
	uint64_t *rp_prev;
	size_t rp_n, rp_cap;
	int unordered;		/* session_unordered() */
	int forget;		/* session_forget_exited() */
	uint64_t trim_idle;	/* session_trim_symbols(): 0 off */
	size_t trim_budget;
	uint64_t release_last;	/* when files of exited processes were last let go (sy_now()) */
	int more_files;		/* session_next_file(): an event already known is merged */
	uint64_t first_time;	/* of the first sample in time order */
	int have_first;
	/* records skipped as malformed: by the reading thread, by the delivery thread */
	struct skipped skq, skd;
	uint64_t now;		/* the time of the record being delivered */
	int mended;		/* the sample's: prof record put them back (PDATA_MISC_SAMPLE_MENDED) */
	struct rframe pseudo;	/* the one frame of a sample without a stack */
};

static int deliver(void *ctx, const struct perf_event_header *h, uint64_t foff);
static void round_done(void *ctx);
static int release(void *ctx);

static const struct order_ops order_ops = { deliver, round_done, release };

static const char *const feat_names[4] = { "hostname", "osrelease", "arch", "cmdline" };

static void forgot(void *ctx, int pid, int tid)
{
	struct session *s = ctx;

	(void)pid;
	switches_forget(s->sw, tid);
}

struct session *session_new(struct symbols *sym, session_sample_fn fn, void *ctx)
{
	struct session *s = xcalloc(1, sizeof(*s));

	u64map_init(&s->rp_ids);
	s->sym = sym;
	s->fn = fn;
	s->ctx = ctx;
	s->fpool = strpool_new();
	s->res = resolver_new(sym);
	evtab_init(&s->ev);
	s->order = order_new(&order_ops, s);
	s->mach = machine_new(sym, s->res);
	s->walk = walk_new(s->res);
	s->stacks = stacks_new(s->res, fn, ctx);
	s->sw = switches_new(&s->ev, machine_intern(s->mach, "[no stack: switch-out not sampled]"));
	return s;
}

void session_leaf_only(struct session *s, int on)
{
	walk_leaf_only(s->walk, on);
}

void session_names(struct session *s, int on)
{
	resolver_names(s->res, on);
}

void session_sum(struct session *s, int on, unsigned keys)
{
	s->sum = on;
	stacks_keys(s->stacks, keys);
}

void session_data_addrs(struct session *s, int on)
{
	s->daddrs = on;
	machine_data_maps(s->mach, on);
}

/* Where data address a of process pr lies: its file and object, into rs. */
static void data_of(const struct proc *pr, uint64_t a, struct rsample *rs)
{
	const struct map *mp = pr ? maps_find(&pr->dmaps, a) : NULL;

	rs->has_daddr = 1;
	rs->daddr = a;
	if (!mp || !mp->dso)
		return;
	rs->ddso = mp->dso;
	if (dso_data_at(mp->dso, a - mp->start + mp->pgoff, &rs->dsym, &rs->dsym_off))
		return;
	rs->dsym = NULL;
	/*
	 * anonymous memory right after a file's mapping: the bss past its
	 * last page (the kernel maps it apart), named by the file's symbols
	 */
	if (dso_is_anon(mp->dso) && mp->start) {
		const struct map *before = maps_find(&pr->dmaps, mp->start - 1);

		if (before && before->dso && before->end == mp->start && !dso_is_anon(before->dso) &&
		    !dso_bss_at(before->dso, a - before->start + before->pgoff, &rs->dsym,
				&rs->dsym_off))
			rs->dsym = NULL;
	}
}

uint32_t session_groups(const struct session *s)
{
	return s->groups;
}

void session_sample_fields(const struct session *s, struct session_fields *f)
{
	*f = s->with;
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
	machine_forget_exited(s->mach, on, forgot, s);
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
	order_free(s->order);	/* the delivery thread first: it uses the rest */
	switches_free(s->sw);
	stacks_free(s->stacks);
	walk_free(s->walk);
	machine_free(s->mach);
	resolver_free(s->res);
	evtab_release(&s->ev);
	strpool_free(s->fpool);
	u64map_release(&s->rp_ids);
	free(s->rp_prev);
	free(s);
}

/* A record that cannot be used is skipped and counted: never fatal. */
static int skip(struct skipped *k, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
	return order_forced(s->order);
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
	for (int k = 0; k < 2 && n < max; k++)
		if (switches_event(s->sw, k))
			names[n++] = switches_event(s->sw, k)->name;
	return n;
}

int session_switches(const struct session *s)
{
	return switches_made(s->sw);
}

void session_tracing_data(struct session *s, const unsigned char *data, size_t len)
{
	struct tpfmts *f = data ? tpfmts_parse(data, len) : NULL;

	if (!f)
		return;
	order_drain(s->order);	/* the delivery thread reads the names */
	evtab_name_tracepoints(&s->ev, f);
	tpfmts_free(f);
}

int session_records_switches(const struct session *s)
{
	return switches_recorded(s->sw);
}

int session_switch_stacks(const struct session *s)
{
	for (size_t i = 0; i < s->ev.nr; i++)
		if (switches_is_switch_event(s->ev.ev[i]))
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

void session_branches(struct session *s, int on)
{
	s->branches = on;
}

int session_branch_mode(const struct session *s)
{
	return s->branches > 0 || (s->branches < 0 && s->br_feature);
}

/*
 * Branch mode: each of smp's branches as a sample of its own (rs's
 * fields, period 1), its ends named in pr's maps (the function, not what
 * was inlined into it), as perf report -b counts them.
 */
static int deliver_branches(struct session *s, const struct proc *pr, const struct sample *smp,
			    struct rsample *rs)
{
	struct rframe fr[2][INLINE_MAX + 1];
	int ret = 0;

	rs->period = 1;
	rs->count = 1;
	rs->nframes = 0;
	rs->frames = NULL;
	for (uint64_t i = 0; i < smp->br_nr && !ret; i++) {
		uint64_t e[3];
		int n[2];

		memcpy(e, smp->br + 24 * i, 24);
		for (int k = 0; k < 2; k++) {
			/* the top bit: a kernel address, on the 64-bit machines prof reads */
			n[k] = resolver_frames(s->res, fr[k], 0, pr, e[k], (int64_t)e[k] < 0, 0, 0);
			if (n[k] <= 0) {
				memset(&fr[k][0], 0, sizeof(fr[k][0]));
				fr[k][0].addr = e[k];
				n[k] = 1;
			}
		}
		rs->br_from = &fr[0][n[0] - 1];
		rs->br_to = &fr[1][n[1] - 1];
		rs->br_flags = e[2];
		ret = s->fn(s->ctx, rs);
	}
	rs->br_from = rs->br_to = NULL;
	return ret;
}

void session_on_read(struct session *s, session_read_fn fn, void *ctx)
{
	s->read_fn = fn;
	s->read_ctx = ctx;
}

uint64_t session_reads(const struct session *s)
{
	return s->reads;
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

/* --- the delivery thread: the stages a record goes through ----------------- */

/*
 * A sample's weight: its period, or, where the samples carry none (-c
 * without PERF_SAMPLE_PERIOD), the event's fixed one, as perf reads it
 * (evsel__parse_sample() starts from attr.sample_period); 1 where neither.
 */
static uint64_t sample_period_of(const struct evdesc *e, const struct sample *smp)
{
	if (smp->present & PERF_SAMPLE_PERIOD)
		return smp->period;
	return !e->attr.freq && e->attr.sample_period ? e->attr.sample_period : 1;
}

/*
 * A decoded sample of event e (or one made of it: an off-CPU interval)
 * through the stages: its thread and process (the machine), its
 * parallelism (the switches), the filter, its walk, then summed, parked
 * or handed to the callback with its frames. pseudo: a sample with no
 * stack, whose one frame is named so.
 */
static int sample_go(struct session *s, const struct evdesc *e, const struct sample *smp,
		     int kernel, const char *pseudo)
{
	struct rsample rs;
	const struct rframe *frames;
	const struct walk_marks *mk;
	const struct proc *pr;
	struct thread *t;
	int n;

	if (!s->have_first) {
		s->first_time = smp->time;
		s->have_first = 1;
	}
	s->now = smp->time;
	resolver_at(s->res, smp->time);
	pr = machine_proc(s->mach, (int)smp->pid);
	t = machine_thread(s->mach, (int)smp->pid, (int)smp->tid);
	rs.ev = e;
	rs.pid = smp->pid;
	rs.tid = smp->tid;
	rs.cpu = smp->cpu;
	rs.time = rs.first = smp->time;
	rs.count = 1;
	rs.period = sample_period_of(e, smp);
	rs.comm = t->comm;
	rs.exe = pr ? pr->exe : NULL;
	rs.parallelism = 1;
	if (switches_recorded(s->sw) && !pseudo && !switches_is_made_event(e))
		rs.parallelism = switches_running(s->sw, t->pid, t->tid);
	rs.nframes = 0;
	rs.frames = NULL;
	rs.unwind_end = 0;
	rs.unwind_at = -1;
	rs.repaired = 0;
	rs.cut = 0;
	rs.cgroup = NULL;
	rs.cgroup_ns = t->cgroup_ns;
	if (smp->present & PERF_SAMPLE_CGROUP) {
		rs.cgroup = machine_cgroup_name(s->mach, smp->cgroup);
		s->with.cgroup++;
	}
	s->with.addr += (smp->present & PERF_SAMPLE_ADDR) != 0;
	s->with.src += (smp->present & PERF_SAMPLE_DATA_SRC) != 0;
	s->with.weight += (smp->present & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) != 0;
	rs.weight = smp->present & PERF_SAMPLE_WEIGHT_STRUCT ? smp->weight & 0xffffffff
		    : smp->present & PERF_SAMPLE_WEIGHT ? smp->weight : 0;
	rs.ins_lat = smp->present & PERF_SAMPLE_WEIGHT_STRUCT ? smp->weight >> 32 & 0xffff : 0;
	rs.data_src = smp->present & PERF_SAMPLE_DATA_SRC ? smp->data_src : 0;
	rs.phys_addr = smp->present & PERF_SAMPLE_PHYS_ADDR ? smp->phys_addr : 0;
	rs.data_page_size = smp->present & PERF_SAMPLE_DATA_PAGE_SIZE ? smp->data_page_size : 0;
	rs.code_page_size = smp->present & PERF_SAMPLE_CODE_PAGE_SIZE ? smp->code_page_size : 0;
	rs.transaction = smp->present & PERF_SAMPLE_TRANSACTION ? smp->transaction : 0;
	s->with.transaction += (smp->present & PERF_SAMPLE_TRANSACTION) != 0;
	s->with.phys += (smp->present & PERF_SAMPLE_PHYS_ADDR) != 0;
	s->with.data_page += (smp->present & PERF_SAMPLE_DATA_PAGE_SIZE) != 0;
	s->with.code_page += (smp->present & PERF_SAMPLE_CODE_PAGE_SIZE) != 0;
	rs.has_daddr = 0;
	rs.daddr = 0;
	rs.ddso = NULL;
	rs.dsym = NULL;
	rs.dsym_off = 0;
	if (s->daddrs && (smp->present & PERF_SAMPLE_ADDR) && !pseudo)
		data_of(pr, smp->addr, &rs);
	rs.br_from = rs.br_to = NULL;
	rs.br_flags = 0;
	s->with.branches += (smp->present & PERF_SAMPLE_BRANCH_STACK) != 0;
	if (s->filter && !s->filter(s->ctx, &rs))
		return 0;
	if (session_branch_mode(s))
		return pseudo || !(smp->present & PERF_SAMPLE_BRANCH_STACK) ? 0
		       : deliver_branches(s, pr, smp, &rs);
	if (pseudo) {
		memset(&s->pseudo, 0, sizeof(s->pseudo));
		s->pseudo.name = pseudo;
		rs.nframes = 1;
		rs.frames = &s->pseudo;
		return s->fn(s->ctx, &rs);
	}
	walk_start(s->walk, pr, e, smp, kernel, s->mended);
	if (s->sum) {
		/* added up now, named once a sum (session_sum()) */
		stacks_sum_begin(s->stacks, pr);
		if (walk_each(s->walk, stacks_sum_frame, s->stacks) >= 0)
			return stacks_sum_add(s->stacks, &rs, walk_marks(s->walk),
					      s->mended && !walk_is_leaf_only(s->walk));
	}
	n = walk_frames(s->walk, s->unordered && stacks_can_park(s->stacks), &frames);
	if (n < 0) {
		/* a file is still being opened: put aside, its addresses placed now */
		stacks_park_begin(s->stacks, &rs, pr);
		walk_each(s->walk, stacks_park_frame, s->stacks);
		stacks_park_end(s->stacks, walk_marks(s->walk));
		return 0;
	}
	mk = walk_marks(s->walk);
	rs.nframes = n;
	rs.frames = frames;
	rs.unwind_end = mk->unwind_end;
	rs.unwind_at = mk->unwind_at;
	rs.repaired = mk->repaired;
	rs.cut = mk->cut;
	return s->fn(s->ctx, &rs);
}

/* A switch record, or a switch-out folded into its sample: an interval off the CPU may end. */
static int do_switch(struct session *s, const struct kevent *k, const struct sample *id)
{
	struct switch_sample out;
	int ret;

	if (!switches_record(s->sw, k, id, &out))
		return 0;
	ret = sample_go(s, out.ev, &out.smp, out.kernel, out.pseudo);
	switches_done(s->sw, &out);
	return ret;
}

/* The last value read of id (0, made, when new). */
static uint64_t *readprev_slot(struct session *s, uint64_t id)
{
	uint32_t i;

	if (!u64map_get(&s->rp_ids, id, &i)) {
		s->rp_prev = xgrow(s->rp_prev, &s->rp_cap, s->rp_n + 1, sizeof(*s->rp_prev));
		s->rp_prev[s->rp_n] = 0;
		i = (uint32_t)s->rp_n++;
		u64map_add(&s->rp_ids, id, i);
	}
	return &s->rp_prev[i];
}

/*
 * A sample that read its group (PERF_SAMPLE_READ, a {...}:S leader's):
 * as perf delivers it, a sample of each event of the group at its place,
 * whose period is what that event counted since the last sample read it
 * (none where it counted nothing).
 */
static int deliver_read(struct session *s, const struct perf_event_header *h,
			const struct sample *smp)
{
	for (uint64_t i = 0; i < smp->read_nr; i++) {
		struct sample m = *smp;
		uint64_t v, id, *prev;
		const struct evdesc *re;
		int ret;

		sample_read_value(smp, i, &v, &id);
		if (!(re = evtab_by_id(&s->ev, id)))
			continue;	/* an id no ATTR names */
		prev = readprev_slot(s, id);
		m.period = v - *prev;
		*prev = v;
		if (!m.period)
			continue;
		m.present |= PERF_SAMPLE_PERIOD;
		ret = sample_go(s, re, &m, decode_misc_kernel(h->misc), NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static int deliver_sample(struct session *s, const struct evdesc *e,
			  const struct perf_event_header *h, uint64_t foff)
{
	struct sample smp;
	int ret;

	if (decode_sample(&e->attr, h, &smp))
		return skip(&s->skd, foff, "malformed SAMPLE record");
	/*
	 * Exits waiting out their grace are due by samples' time too: by
	 * kernel records' alone, a quiet host's exited program stayed (its
	 * maps, and its files open) until the next fork or exec.
	 */
	if (smp.present & PERF_SAMPLE_TIME)
		machine_due(s->mach, smp.time);
	if (switches_is_switch_event(e))
		/* where the thread is as it switches out: the stack of its wait */
		switches_keep(s->sw, e, h, &smp);
	s->mended = (h->misc & PDATA_MISC_SAMPLE_MENDED) != 0;
	/* a guest's addresses name nothing of the host's: its kernel, the VMM's maps */
	resolver_guest(s->res, decode_misc_guest(h->misc));
	if ((smp.present & PERF_SAMPLE_READ) && smp.read_nr && smp.read_id_off >= 0 &&
	    !switches_is_switch_event(e))
		ret = deliver_read(s, h, &smp);
	else
		ret = sample_go(s, e, &smp, decode_misc_kernel(h->misc), NULL);
	resolver_guest(s->res, 0);
	s->mended = 0;
	if (!ret && switches_is_switch_event(e) && (h->misc & PDATA_MISC_SAMPLE_SWITCH_OUT)) {
		/* prof record folded the thread's SWITCH out record into it */
		struct kevent k;

		memset(&k, 0, sizeof(k));
		k.type = PERF_RECORD_SWITCH;
		k.switch_out = 1;
		k.preempt = (h->misc & PDATA_MISC_SAMPLE_PREEMPT) != 0;
		ret = do_switch(s, &k, &smp);
	}
	return ret;
}

/* Act on one kernel record, in time order: order.h's deliver. */
static int deliver(void *ctx, const struct perf_event_header *h, uint64_t foff)
{
	struct session *s = ctx;
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
	machine_due(s->mach, s->now);
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		machine_mmap(s->mach, &k);
		break;
	case PERF_RECORD_COMM:
		machine_comm(s->mach, &k, s->now);
		break;
	case PERF_RECORD_FORK:
		machine_fork(s->mach, &k);
		switches_fork(s->sw, (int)k.pid, (int)k.tid);
		if (s->task_fn)
			s->task_fn(s->task_ctx, SESSION_TASK_FORK, (int)k.pid, (int)k.tid,
				   k.time ? k.time : s->now);
		break;
	case PERF_RECORD_EXIT:
		if (s->task_fn)
			s->task_fn(s->task_ctx, SESSION_TASK_EXIT, (int)k.pid, (int)k.tid,
				   k.time ? k.time : s->now);
		switches_exit(s->sw, (int)k.tid);
		machine_exit(s->mach, (int)k.pid, (int)k.tid, s->now);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		s->lost += k.lost;
		break;
	case PERF_RECORD_CGROUP:
		machine_cgroup(s->mach, k.id, k.path, k.path_len);
		break;
	case PERF_RECORD_READ:
		s->reads++;
		for (uint64_t i = 0; s->read_fn && i < k.read.read_nr; i++) {
			const struct evdesc *re = NULL;
			uint64_t v, rid;

			/* a count of a group names its event by its id; else the record's own */
			sample_read_value(&k.read, i, &v, &rid);
			if (rid)
				re = evtab_by_id(&s->ev, rid);
			s->read_fn(s->read_ctx, (int)k.pid, (int)k.tid, re ? re : e, v);
		}
		break;
	case PERF_RECORD_NAMESPACES:
		machine_namespaces(s->mach, &k);
		s->with.namespaces++;
		break;
	case PERF_RECORD_KSYMBOL:
		/* kernel JIT code (a BPF program): its name, registered; an unregistered one kept */
		if (!(k.ksym_flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER))
			symbols_kernel_ksymbol(s->sym, k.addr, k.len, k.path, k.path_len);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return do_switch(s, &k, &id);
	}
	return 0;
}

/*
 * Let go of the files no live process maps, nor a held sample names,
 * and no new address has needed for idle_ns (session_trim_symbols()),
 * every few seconds. With session_forget_exited() only: a report keeps
 * every process, and every file is mapped.
 */
#define RELEASE_EVERY_NS (5 * 1000000000ULL)

/* After each round, on the thread that resolves, between samples: nothing is in the files. */
static void round_done(void *ctx)
{
	struct session *s = ctx;
	uint64_t now;

	if (!s->trim_idle)
		return;
	symbols_trim(s->sym, s->trim_idle, s->trim_budget);
	now = mono_coarse_ns();
	if (!s->forget || now - s->release_last < RELEASE_EVERY_NS)
		return;
	s->release_last = now;
	symbols_mark_begin(s->sym);
	machine_mark_live(s->mach);
	stacks_mark_live(s->stacks);
	if (symbols_release(s->sym, s->trim_idle, resolver_forget_files, s->res))
		resolver_forget_memo(s->res);
}

/* What the stacks hold goes out: at the end, and at a sync. */
static int release(void *ctx)
{
	struct session *s = ctx;

	return stacks_held(s->stacks) ? stacks_release(s->stacks) : 0;
}

/* --- the reading thread ----------------------------------------------------- */

static void do_feature(struct session *s, const struct perf_event_header *h)
{
	struct feature f;
	int slot;
	char buf[1024];
	const char *str;
	size_t out = 0, off = 0, n;
	uint32_t i = 0;

	if (decode_feature(h, &f))
		return;
	if (f.id == PDATA_FEAT_GROUP_DESC) {
		/* u32 groups; each a string (u32 padded length, the bytes), u32 leader, u32 members */
		uint32_t ng, l, m;
		size_t o = 4;

		if (f.len < 4)
			return;
		memcpy(&ng, f.data, 4);
		for (uint32_t g = 0; g < ng && f.len - o >= 4; g++) {
			memcpy(&l, f.data + o, 4);
			if (l > f.len - o - 4 || f.len - o - 4 - l < 8)
				break;
			o += 4 + l + 4;
			memcpy(&m, f.data + o, 4);
			o += 4;
			s->groups += m > 1;
		}
		return;
	}
	if (f.id == PDATA_FEAT_BRANCH_STACK) {
		s->br_feature = 1;
		return;
	}
	if (f.id == PDATA_FEAT_EVENT_DESC) {
		order_drain(s->order);	/* the delivery thread reads the names */
		evtab_name_desc(&s->ev, f.data, f.len);
		return;
	}
	if (!f.whole)
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
			order_drain(s->order);
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
 * none by default), for the machine, and for its [vdso]; the kernel's
 * and its modules' are named from kallsyms.
 */
static void do_build_id(struct session *s, const struct perf_event_header *h)
{
	const unsigned char *b = (const unsigned char *)(h + 1);
	size_t body = h->size - sizeof(*h), len = 20, plen;

	if (body < 4 + 24 + 1)
		return;
	/* with the flag, the length is the byte's (0: none, as perf -B writes); else 20 */
	if (h->misc & MISC_BUILD_ID_SIZE)
		len = b[4 + 20] <= 20 ? b[4 + 20] : 0;
	if (!len)
		return;
	plen = strnlen((const char *)b + 28, body - 28);
	/* files, and the vDSO: perf names its 32-bit ones [vdso32], [vdsox32] */
	if (!plen || (b[28] != '/' && !vdso_named((const char *)b + 28, plen)))
		return;
	/* the delivery thread reads the table: let it finish first (pipe mode has it last) */
	order_drain(s->order);
	machine_add_build_id(s->mach, (const char *)b + 28, plen, b + 4, len);
}

/* A record into the order stage, at its time. */
static int queue(struct session *s, const struct perf_event_header *h, uint64_t foff)
{
	const struct evdesc *e = evtab_find(&s->ev, h);
	struct sample smp;
	uint64_t time = 0;

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
	return order_queue(s->order, h, foff, time);
}

int session_record(struct session *s, const struct reader_record *rec)
{
	const struct perf_event_header *h = rec->hdr;
	int ret = order_result(s->order);

	if (ret)
		return ret;
	switch (h->type) {
	case PDATA_HEADER_ATTR:
		/* The delivery thread looks events up: let it finish first. */
		order_drain(s->order);
		if (s->more_files && evtab_merge_record(&s->ev, h))
			return 0;	/* an event of an earlier file */
		if (switches_made(s->sw) && !(h->misc & READER_ATTR_MORE_IDS))
			/* off-cpu and preempted took the next indexes */
			return skip(&s->skq, rec->offset, "an ATTR record after the samples");
		if (evtab_add_record(&s->ev, h))
			return skip(&s->skq, rec->offset, "malformed ATTR record");
		switches_attr(s->sw, s->ev.ev[s->ev.nr - 1]);
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
			order_drain(s->order);
			return resolver_carried(s->res, h);
		}
		return 0;
	case PDATA_FINISHED_ROUND:
		return order_round(s->order);
	}
	if (h->type >= 64)
		return 0;	/* perf's own bookkeeping: nothing for a report */
	return queue(s, h, rec->offset);
}

int session_sync(struct session *s)
{
	return order_sync(s->order);
}

void session_abort(struct session *s)
{
	order_abort(s->order);
}

int session_finish(struct session *s)
{
	return order_finish(s->order);
}

/* JIT code the profile carries: the resolver's (resolve-jit.c). */

void session_read_ahead(struct session *s, const char *path)
{
	resolver_read_ahead(s->res, path);
}

size_t session_next_file(struct session *s, const char *path)
{
	order_drain(s->order);	/* the resolver's tables are the delivery thread's */
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
