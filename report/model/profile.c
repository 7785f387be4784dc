// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading a profile: the session's samples, filtered, added up per event.
 * See profile.h.
 */
#include "config.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdata.h"
#include "profile.h"
#include "reader.h"
#include "regs.h"
#include "strpool.h"
#include "unwind.h"
#include "xalloc.h"

struct loader {
	const struct profile_opts *o;
	struct profile *p;
	int have_time;
	int pre_filter;		/* a filter that needs no frame */
	int post_filter;	/* a filter that needs the sampled frame resolved */
	int checked;		/* the events were checked at the first kernel record */
	int closed;
	int reset;		/* a window since profile_reset(): its span is its own */
	size_t later_from;	/* events from this index on came with a later file (0: one file) */
};

static int in_ids(const long *l, size_t n, long v)
{
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (l[i] == v)
			return 1;
	return 0;
}

static int in_names(const char *const *l, size_t n, const char *s)
{
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return 1;
	return 0;
}

/* What an event counts of wall-clock time: 0 running, 1 preempted, 2 blocked; -1 none. */
static int wall_kind(const struct evdesc *e)
{
	if (evkind_clock(e->name))
		return 0;
	if (e->attr.config == ~0ULL && !strcmp(e->name, "preempted"))
		return 1;
	if (e->attr.config == ~0ULL && !strcmp(e->name, "off-cpu"))
		return 2;
	return -1;
}

/* --wall: add s's nanoseconds to its thread's running, preempted or blocked time. */
static void thread_time(struct profile *p, const struct rsample *s)
{
	struct htab_probe hp;
	struct profile_thread_time *t = NULL;
	uint32_t i;

	htab_probe(&p->tt_index, (uint64_t)s->tid, &hp);
	while (htab_next(&p->tt_index, &hp, &i))
		if (p->tt[i].tid == (int)s->tid) {
			t = &p->tt[i];
			break;
		}
	if (!t) {
		p->tt = xgrow(p->tt, &p->tt_cap, p->ntt + 1, sizeof(*p->tt));
		t = &p->tt[p->ntt];
		memset(t, 0, sizeof(*t));
		t->pid = (int)s->pid;
		t->tid = (int)s->tid;
		htab_put(&p->tt_index, &hp, (uint32_t)p->ntt++);
	}
	t->comm = s->comm;
	switch (wall_kind(s->ev)) {
	case 0: t->running += s->period; break;
	case 1: t->preempted += s->period; break;
	case 2: t->blocked += s->period; break;
	}
}

/*
 * The filters that need no frame: the session asks before it resolves
 * and unwinds a sample, so that what they drop costs nothing.
 */
static int prefilter(void *ctx, const struct rsample *s)
{
	struct loader *l = ctx;
	const struct profile_filters *f = &l->o->f;
	const struct profile_collector *c = l->o->collector;
	double t;

	l->p->samples++;
	if (s->time > l->p->last_time)
		l->p->last_time = s->time;	/* the profile's span, whatever is kept */
	if (c && c->filter && !c->filter(l->o->collector_ctx, s))
		return 0;
	if (l->o->wall ? wall_kind(s->ev) < 0 : f->event && strcmp(s->ev->name, f->event))
		return 0;
	if (f->no_idle && !s->pid && !s->tid)
		return 0;
	if (!in_ids(f->pid, f->npid, s->pid) || !in_ids(f->tid, f->ntid, s->tid) ||
	    !in_ids(f->cpu, f->ncpu, s->cpu))
		return 0;
	if (!in_names(f->comm, f->ncomm, s->comm))
		return 0;
	t = (double)(s->time - session_first_time(l->p->session)) / 1e9;
	if (f->t_start >= 0 && t < f->t_start)
		return 0;
	if (f->t_end >= 0 && t > f->t_end)
		return 0;
	return 1;
}

/* The filters on the sampled frame. */
static int postfilter(const struct profile_filters *f, const struct rsample *s)
{
	const struct rframe *leaf = s->nframes ? &s->frames[0] : NULL;

	if (leaf && (leaf->kernel ? f->hide_kernel : f->hide_user))
		return 0;
	if (f->ndso && !in_names(f->dso, f->ndso,
				  leaf && leaf->dso ? dso_short_name(leaf->dso) : "[unknown]"))
		return 0;
	if (f->symbol && (!leaf || !leaf->name || regexec(f->symbol, leaf->name, 0, NULL, 0)))
		return 0;
	return 1;
}

/*
 * Where a complete user stack ends: the program's or a thread's entry,
 * glibc's or Go's (a goroutine starts in runtime.goexit, which its first
 * function returns to; an M, the runtime's thread, in runtime.mstart; the
 * first one in runtime.rt0_go). Go's assembly names end in ".abi0".
 */
static int is_root(const char *name)
{
	static const char *const roots[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "__libc_start_main_impl",
		"clone", "__clone", "clone3", "__clone3", "start_thread", "thread_start",
		"runtime.goexit", "runtime.mstart", "runtime.rt0_go", "runtime.mstart0",
	};
	size_t len;

	if (!name)
		return 0;
	len = strlen(name);
	if (len > 5 && !strcmp(name + len - 5, ".abi0"))
		len -= 5;
	for (size_t i = 0; i < sizeof(roots) / sizeof(*roots); i++)
		if (strlen(roots[i]) == len && !strncmp(name, roots[i], len))
			return 1;
	return 0;
}

/* Count a dwarf-unwound sample: complete, or where its stack stopped and why. */
static void stack_quality(struct profile_unwind *u, const struct rsample *s)
{
	const struct rframe *last = &s->frames[s->nframes - 1];
	const struct dso *at;
	int i;

	if (last->kernel)
		return;		/* no user part: a kernel thread */
	u->total += s->count;
	for (int k = 0; k < s->nframes; k++)
		if (s->frames[k].by_fp) {
			u->fp += s->count;
			break;
		}
	if (is_root(last->name) || s->unwind_end == UNWIND_END_ROOT) {
		u->complete += s->count;
		return;
	}
	at = s->unwind_at >= 0 ? s->frames[s->unwind_at].dso : last->dso;
	for (i = 0; i < u->nstop && (u->stop[i].dso != at || u->stop[i].end != s->unwind_end); i++)
		;
	if (i == u->nstop) {
		if (i == (int)(sizeof(u->stop) / sizeof(u->stop[0])))
			return;
		u->stop[u->nstop].dso = at;
		u->stop[u->nstop].end = s->unwind_end;
		u->stop[u->nstop++].n = 0;
	}
	u->stop[i].n += s->count;
}

static struct profile_event *event_of(struct loader *l, const struct evdesc *ev)
{
	struct profile *p = l->p;
	struct profile_event *e;
	size_t i = ev->index;

	if (i >= p->nev) {
		/* grown by half at least: a file may declare thousands of events */
		p->ev = xgrow(p->ev, &p->ev_cap, i + 1, sizeof(*p->ev));
		memset(p->ev + p->nev, 0, (i + 1 - p->nev) * sizeof(*p->ev));
		p->nev = i + 1;
	}
	e = &p->ev[i];
	if (e->same_as)
		return &p->ev[e->same_as - 1];
	if (!e->hist && l->later_from && i >= l->later_from) {
		/*
		 * An event of a later file with the attr of none before it: the
		 * same event, by name and modifiers, is one, as a reader of
		 * several files as one profile expects (another recording's
		 * cpu-clock, without -g).
		 */
		char m1[16], m2[16];

		evtab_modifiers(&ev->attr, m1, sizeof(m1));
		for (size_t j = 0; j < l->later_from && j < p->nev; j++) {
			if (!p->ev[j].hist || strcmp(p->ev[j].ev->name, ev->name))
				continue;
			evtab_modifiers(&p->ev[j].ev->attr, m2, sizeof(m2));
			if (!strcmp(m1, m2)) {
				e->same_as = j + 1;
				return &p->ev[j];
			}
		}
	}
	if (!e->hist) {
		e->ev = ev;
		/* branch mode as the file's feature turned it on: its keys, unless told others */
		e->hist = hist_new(session_branch_mode(p->session) && l->o->branch_ho ? l->o->branch_ho
											: &l->o->ho);
		if (l->o->stacks) {
			e->tree = ctree_new(p->pool, 1);
			e->tree_root = ctree_root(e->tree, "all", FRAME_ROOT);
		}
		if (l->o->collector)
			e->collected = l->o->collector->begin(l->o->collector_ctx, ev);
		if (l->o->addresses)
			e->addrs = addrs_new();
	}
	return e;
}

static int add_kept(struct loader *l, const struct rsample *s);
static int on_kept(struct loader *l, const struct rsample *s);

/* A thread's FORK or EXIT: its life's ends (opts.tasks). A reused tid's FORK starts anew. */
static void on_task(void *ctx, int kind, int pid, int tid, uint64_t time)
{
	struct profile *p = ctx;
	uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	uint32_t i;

	if (!u64map_get(&p->task_index, key, &i)) {
		p->task = xgrow(p->task, &p->task_cap, p->ntask + 1, sizeof(*p->task));
		i = (uint32_t)p->ntask++;
		u64map_add(&p->task_index, key, i);
		p->task[i].start = p->task[i].end = 0;
	}
	if (kind == SESSION_TASK_FORK) {
		p->task[i].start = time;
		p->task[i].end = 0;
	} else {
		p->task[i].end = time;
	}
}

/* A thread's count in a READ record (opts.thread_counts), added to its others'. */
static void on_read(void *ctx, int pid, int tid, const struct evdesc *e, uint64_t value)
{
	struct profile *p = ctx;
	uint64_t key = (uint64_t)(uint32_t)tid << 32 | (uint32_t)e->index;
	uint32_t i;

	if (!u64map_get(&p->tc_index, key, &i)) {
		p->tc = xgrow(p->tc, &p->tc_cap, p->ntc + 1, sizeof(*p->tc));
		i = (uint32_t)p->ntc++;
		u64map_add(&p->tc_index, key, i);
		p->tc[i] = (struct profile_tcount){ pid, tid, e, 0 };
	}
	p->tc[i].value += value;
}

int profile_task_times(const struct profile *p, int pid, int tid, uint64_t *start, uint64_t *end)
{
	uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	uint32_t i;

	*start = *end = 0;
	if (!p->task || !u64map_get(&p->task_index, key, &i))
		return 0;
	*start = p->task[i].start;
	*end = p->task[i].end;
	return 1;
}

/* A sample, or a sum of s->count of them (session_sum()). */
static int on_sample(void *ctx, const struct rsample *s)
{
	struct loader *l = ctx;
	struct profile *p = l->p;
	uint64_t count = s->count;

	if (l->reset) {
		/* a window's: its first sample (not always delivered first) */
		if (!l->have_time || s->first < p->first_time)
			p->first_time = s->first;
		l->have_time = 1;
	} else if (!l->have_time) {
		/* The first in time: with session_unordered(), not always this one. */
		p->first_time = session_first_time(p->session);
		l->have_time = 1;
	}
	if (!l->pre_filter) {
		/* no filter asked the session first: count here */
		p->samples += count;
		if (s->time > p->last_time)
			p->last_time = s->time;
	}
	if (s->nframes > 1)
		p->chains += count;	/* counted only when chains are resolved: for the trees */
	if (s->cut)
		p->chains_cut += count;
	if (l->o->chains && s->nframes > 1) {
		uint64_t st = s->ev->attr.sample_type;

		if ((st & PERF_SAMPLE_STACK_USER) && (st & PERF_SAMPLE_REGS_USER)) {
			stack_quality(&p->uw, s);
		} else if ((st & PERF_SAMPLE_STACK_USER) ||
			   ((st & PERF_SAMPLE_REGS_USER) &&
			    regs_is_leaf_mask(s->ev->attr.sample_regs_user))) {
			/*
			 * -g with a few bytes of stack, or aarch64's with the link
			 * register: chains whose frameless leaf was mended
			 */
			p->leaf_checked += count;
			p->leaf_repaired += s->repaired ? count : 0;
		}
	}
	if (l->post_filter && !postfilter(&l->o->f, s))
		return 0;
	p->kept += count;
	if (l->o->max_stack && s->nframes > l->o->max_stack) {
		struct rsample ms = *s;

		ms.nframes = l->o->max_stack;
		return on_kept(l, &ms);
	}
	return on_kept(l, s);
}

/*
 * Whether samples may be summed before they are named (session_sum()),
 * and by which keys: when what is made of them (the histogram, its
 * graphs, the stack trees) adds periods and counts up and looks at no
 * sample's time, parallelism or process; not for collectors (timelines,
 * pprof's mappings), --wall, --latency or the parallelism key.
 */
static int summable(const struct profile_opts *o, unsigned *keys)
{
	const char *no = getenv("PROF_NO_SUMS");	/* each sample named: what tests compare with */

	*keys = 0;
	if (no && *no)
		return 0;
	if (o->collector || o->wall || o->latency || o->mem_mode || o->addresses || o->ordered)
		return 0;
	for (int k = 0; k < o->ho.nkeys; k++)
		switch (o->ho.keys[k]) {
		case HIST_PID: *keys |= SESSION_SUM_PID; break;
		case HIST_TID: *keys |= SESSION_SUM_TID; break;
		case HIST_CPU: *keys |= SESSION_SUM_CPU; break;
		case HIST_COMM: case HIST_DSO: case HIST_SYM: case HIST_SRCLINE: break;
		default: return 0;	/* a key of each sample's own fields */
		}
	return 1;
}

/*
 * Whether what is made of the samples names no function: a flat view by
 * command, process, thread, object or CPU, with no symbol filter. Then
 * frames in files are left unnamed: opening their objects and reading
 * their symbols and DWARF was most of a --sort pid report.
 */
static int nameless(const struct profile_opts *o)
{
	if (o->chains || o->stacks || o->collector || o->addresses || o->f.symbol)
		return 0;
	if (o->branch_ho)	/* branch mode's own keys name the branches' ends */
		return 0;
	for (int k = 0; k < o->ho.nkeys; k++)
		if (o->ho.keys[k] == HIST_SYM || o->ho.keys[k] == HIST_SRCLINE ||
		    o->ho.keys[k] == HIST_SYM_FROM || o->ho.keys[k] == HIST_SYM_TO)
			return 0;
	return 1;
}

/* A kept sample, weighed for --mem-mode and --latency. */
static int on_kept(struct loader *l, const struct rsample *s)
{
	struct rsample ws;

	if (l->o->mem_mode) {
		/* the sample's cost, perf's way: its weight, or 1 without one */
		ws = *s;
		ws.period = s->weight ? s->weight : 1;
		s = &ws;
	}
	if (l->o->latency && s->parallelism > 1) {
		/* the period shared by the threads running side by side */
		struct rsample ls = *s;

		ls.period = s->period / s->parallelism;
		return add_kept(l, &ls);
	}
	return add_kept(l, s);
}

/* Add a kept sample (or sum) to its event's histogram, tree and collector. */
static int add_kept(struct loader *l, const struct rsample *s)
{
	struct profile *p = l->p;
	struct profile_event *e;

	if (l->o->wall)
		thread_time(p, s);
	e = event_of(l, l->o->wall ? &p->wall_ev : s->ev);
	if (l->o->flat)
		hist_add(e->hist, s);
	else
		hist_count(e->hist, s);
	if (e->tree)
		ctree_add(e->tree, e->tree_root, s, s->nframes - 1, -1, l->o->with_comm);
	if (e->collected)
		l->o->collector->add(e->collected, s);
	if (e->addrs)
		addrs_add(e->addrs, s);
	return 0;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	session_free(p->session);	/* first: its thread adds to the hists */
	for (size_t i = 0; i < p->nev; i++) {
		hist_free(p->ev[i].hist);
		ctree_free(p->ev[i].tree);
		addrs_free(p->ev[i].addrs);
		if (p->ev[i].collected)
			p->collector->free(p->ev[i].collected);
	}
	free(p->ev);
	free(p->task);
	u64map_release(&p->task_index);
	free(p->tc);
	u64map_release(&p->tc_index);
	free(p->tt);
	htab_release(&p->tt_index);
	strpool_free(p->pool);
	if (p->sym != p->ld->o->sym)
		symbols_free(p->sym);
	reader_free(p->rd);
	free(p->ld);
	free(p);
}

/*
 * --event names an event of the file; --wall has switch records and time
 * samples. Early, when the events are declared and no sample is read
 * yet: off-cpu and preempted are there when an event records switches
 * (a typo costs no load); else, after the load, when switches were seen.
 */
static int check_events(const struct profile_opts *o, const struct profile *p, int early,
			char *err, size_t errlen)
{
	const char *names[66];
	int n = session_event_names(p->session, names, 64), found = 0, time = 0;
	char list[512] = "";
	size_t len = 0;
	int switches = early ? session_records_switches(p->session) : session_switches(p->session);

	if (early && switches) {
		names[n++] = "off-cpu";
		names[n++] = "preempted";
	}
	for (int i = 0; i < n; i++) {
		found |= o->f.event && !strcmp(names[i], o->f.event);
		time |= evkind_clock(names[i]);
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
						names[i]);
	}
	if (o->latency && !session_records_switches(p->session)) {
		snprintf(err, errlen, "'%s' has no context switches for --latency: record with "
			 "prof record --off-cpu", o->input);
		return -1;
	}
	if (o->wall && !switches) {
		snprintf(err, errlen, "'%s' has no context switches for --wall: record with "
			 "prof record --off-cpu", o->input);
		return -1;
	}
	if (o->wall && !time) {
		snprintf(err, errlen, "--wall needs cpu-clock or task-clock samples, whose periods "
			 "are time; '%s' has %s", o->input, n ? list : "no event");
		return -1;
	}
	if (!o->wall && o->f.event && !found) {
		snprintf(err, errlen, "--event: '%s' has no event '%s'; it has %s%s", o->input,
			 o->f.event, n ? list : "none",
			 !strcmp(o->f.event, "off-cpu") || !strcmp(o->f.event, "preempted")
			 ? " (record with prof record --off-cpu)" : "");
		return -1;
	}
	return 0;
}

/* Which of the filters the samples meet, before and after they are resolved. */
static void set_filters(struct loader *l)
{
	const struct profile_opts *o = l->o;
	const struct profile_filters *f = &o->f;

	l->pre_filter = f->npid || f->ntid || f->ncpu || f->ncomm || f->t_start >= 0 ||
			f->t_end >= 0 || f->event || o->wall || f->no_idle ||
			(o->collector && o->collector->filter);
	l->post_filter = f->ndso || f->symbol || f->hide_kernel || f->hide_user;
	session_filter(l->p->session, l->pre_filter ? prefilter : NULL);
}

void profile_refilter(struct profile *p)
{
	set_filters(p->ld);
}

struct profile *profile_open(const struct profile_opts *o, struct reader *rd, char *err,
			     size_t errlen)
{
	struct profile *p = xcalloc(1, sizeof(*p));
	struct loader *l = xcalloc(1, sizeof(*l));
	unsigned keys;

	p->ld = l;
	p->rd = rd;
	l->o = o;
	l->p = p;
	p->input = o->input;
	p->collector = o->collector;
	evdesc_init(&p->wall_ev);
	snprintf(p->wall_ev.sname, sizeof(p->wall_ev.sname), "wall");
	p->latency = o->latency;
	p->wall_ev.attr.type = PERF_TYPE_SOFTWARE;
	p->wall_ev.attr.config = ~0ULL;
	htab_init(&p->tt_index);
	p->pool = strpool_new();
	p->sym = o->sym ? o->sym : symbols_new(&o->so);
	if (!p->sym) {
		snprintf(err, errlen, "cannot set up the symbolizer: %s", strerror(errno));
		profile_free(p);
		return NULL;
	}
	p->session = session_new(p->sym, on_sample, l);
	u64map_init(&p->task_index);
	u64map_init(&p->tc_index);
	if (o->tasks)
		session_on_task(p->session, on_task, p);
	if (o->thread_counts)
		session_on_read(p->session, on_read, p);
	session_branches(p->session, o->branch);
	set_filters(l);
	session_forget_exited(p->session, o->forget_exited);
	if (o->trim_idle || o->trim_budget)
		session_trim_symbols(p->session, o->trim_idle ? o->trim_idle : UINT64_MAX,
				     o->trim_budget);
	session_leaf_only(p->session, !o->chains);
	if (nameless(o))
		session_names(p->session, 0);
	if (summable(o, &keys))
		session_sum(p->session, 1, keys);
	for (int k = 0; k < o->ho.nkeys; k++)
		if (o->ho.keys[k] == HIST_DSO_DADDR || o->ho.keys[k] == HIST_SYM_DADDR)
			session_data_addrs(p->session, 1);
	/* (o->input may be a list or a glob: profile_load() reads ahead of its first file) */
	if (o->input && rd && (!strcmp(o->input, "-") || !access(o->input, F_OK)))
		session_read_ahead(p->session, o->input);
	/* What only adds samples up need not wait for them in time order. */
	session_unordered(p->session, !o->ordered);
	return p;
}

int profile_feed(struct profile *p, const struct reader_record *rec, char *err, size_t errlen)
{
	struct loader *l = p->ld;
	const struct profile_opts *o = l->o;
	int ret;

	/*
	 * The first kernel record: every event is declared, none sampled yet.
	 * (Written once: the delivery thread reads this struct for every
	 * sample, and a store per record would bounce its cache line.)
	 */
	if (rec->hdr->type < 64 && !l->checked) {
		l->checked = 1;
		if (check_events(o, p, 1, err, errlen))
			goto fail;
	}
	if (rec->hdr->type == PDATA_HEADER_EVENT_TYPE)	/* a pipe's carried JIT code */
		session_carried_budget(p->session, rec->offset + rec->hdr->size);
	if (rec->hdr->type == PDATA_HEADER_TRACING_DATA)
		session_tracing_data(p->session, rec->data, rec->data_len);
	ret = session_record(p->session, rec);
	if (!ret)
		return 0;
	if (ret == -EBADMSG && p->rd)
		snprintf(err, errlen, "'%s' is corrupt at offset %" PRIu64 ": %s", o->input,
			 reader_error_offset(p->rd), reader_error(p->rd));
	else if (ret < 0)
		snprintf(err, errlen, "cannot read '%s': %s", o->input, strerror(-ret));
	else
		snprintf(err, errlen, "cannot read '%s'", o->input);
fail:
	session_abort(p->session);	/* its thread stops before anything is read of it */
	return -1;
}

/* What formats show of the session, as it is now. */
static void fill_info(struct profile *p)
{
	p->info.cmdline = session_feature(p->session, "cmdline");
	p->info.hostname = session_feature(p->session, "hostname");
	p->info.osrelease = session_feature(p->session, "osrelease");
	p->info.arch = session_feature(p->session, "arch");
	p->info.lost = session_lost(p->session);
	p->info.switch_stacks = session_switch_stacks(p->session);
	session_wall_clock(p->session, &p->info.tod_ns, &p->info.clock_ns);
}

const struct profile *profile_snapshot(struct profile *p, char *err, size_t errlen)
{
	int ret = p->ld->closed ? 0 : session_sync(p->session);

	if (ret) {
		snprintf(err, errlen, "cannot read '%s': %s", p->input,
			 ret < 0 ? strerror(-ret) : "resolving stopped");
		return NULL;
	}
	fill_info(p);
	return p;
}

void profile_reset(struct profile *p)
{
	for (size_t i = 0; i < p->nev; i++) {
		struct profile_event *e = &p->ev[i];

		hist_free(e->hist);
		ctree_free(e->tree);
		addrs_free(e->addrs);
		if (e->collected)
			p->collector->free(e->collected);
		memset(e, 0, sizeof(*e));	/* made again by the next sample */
	}
	p->samples = p->kept = p->chains = 0;
	p->leaf_checked = p->leaf_repaired = 0;
	p->chains_cut = 0;
	memset(&p->uw, 0, sizeof(p->uw));
	p->ntt = 0;
	htab_release(&p->tt_index);
	htab_init(&p->tt_index);
	p->first_time = p->last_time = 0;
	p->ld->have_time = 0;
	p->ld->reset = 1;
}

int profile_close(struct profile *p, char *err, size_t errlen)
{
	struct loader *l = p->ld;
	int ret = session_finish(p->session);

	l->closed = 1;
	if (ret < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", p->input, strerror(-ret));
		return -1;
	}
	if (ret) {
		snprintf(err, errlen, "cannot read '%s'", p->input);
		return -1;
	}
	if (check_events(l->o, p, 0, err, errlen))
		return -1;
	fill_info(p);
	return 0;
}

/* The records of p->rd, fed. 0, or -1 with err. */
static int read_one(struct profile *p, char *err, size_t errlen)
{
	struct reader_record rec;
	int ret;

	while ((ret = reader_next(p->rd, &rec)) > 0)
		if (profile_feed(p, &rec, err, errlen))
			return -1;
	if (ret < 0) {
		session_abort(p->session);
		if (ret == -EBADMSG)
			snprintf(err, errlen, "'%s' is corrupt at offset %" PRIu64 ": %s", p->input,
				 reader_error_offset(p->rd), reader_error(p->rd));
		else
			snprintf(err, errlen, "cannot read '%s': %s", p->input, strerror(-ret));
		return -1;
	}
	return 0;
}

int profile_read(struct profile *p, char *err, size_t errlen)
{
	return read_one(p, err, errlen) ? -1 : profile_close(p, err, errlen);
}

struct inputs {
	char **name;
	size_t n;
};

static void inputs_add(struct inputs *in, const char *name)
{
	in->name = xreallocarray(in->name, in->n + 1, sizeof(*in->name));
	in->name[in->n++] = xstrdup(name);
}

static void inputs_free(struct inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->name[i]);
	free(in->name);
}

/* One name of a list into in: a glob's files, or the name. 0, or -1 and err. */
static int inputs_expand(struct inputs *in, const char *name, char *err, size_t errlen)
{
	struct stat st;
	glob_t g;
	int ret;

	if (!strpbrk(name, "*?[") || !stat(name, &st)) {
		inputs_add(in, name);
		return 0;
	}
	ret = glob(name, GLOB_ERR, NULL, &g);
	if (ret) {
		snprintf(err, errlen, ret == GLOB_NOMATCH ? "'%s' matches no file"
			 : "cannot list the files '%s' matches", name);
		if (ret != GLOB_NOMATCH)
			globfree(&g);
		return -1;
	}
	for (size_t i = 0; i < g.gl_pathc; i++)
		inputs_add(in, g.gl_pathv[i]);
	globfree(&g);
	return 0;
}

/* The files input names: itself, or a comma list's or glob's. 0, or -1 and err. */
static int inputs_of(struct inputs *in, const char *input, char *err, size_t errlen)
{
	struct stat st;
	char *list, *save = NULL;

	memset(in, 0, sizeof(*in));
	if (!strcmp(input, "-") || !stat(input, &st) || !strchr(input, ','))
		return inputs_expand(in, input, err, errlen);
	list = xstrdup(input);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (inputs_expand(in, t, err, errlen)) {
			free(list);
			inputs_free(in);
			return -1;
		}
	free(list);
	if (!in->n) {
		snprintf(err, errlen, "'%s' names no file", input);
		return -1;
	}
	for (size_t i = 0; i < in->n; i++)
		if (!strcmp(in->name[i], "-") && in->n > 1) {
			snprintf(err, errlen, "'-' (standard input) cannot be one of several files");
			inputs_free(in);
			return -1;
		}
	return 0;
}

int profile_load(const struct profile_opts *o, struct profile **out, char *err, size_t errlen)
{
	struct inputs in;
	struct reader *rd;
	struct profile *p;

	*out = NULL;
	if (inputs_of(&in, o->input, err, errlen))
		return -1;
	rd = reader_open(in.name[0]);
	if (!rd) {
		reader_open_why(in.name[0], errno, err, errlen);
		inputs_free(&in);
		return -1;
	}
	p = profile_open(o, rd, err, errlen);
	if (!p) {
		inputs_free(&in);
		return -1;
	}
	if (strcmp(in.name[0], o->input))
		session_read_ahead(p->session, in.name[0]);
	/* each file in turn, as one stream of records: the session's events and processes carry on */
	for (size_t i = 0; i < in.n; i++) {
		if (i) {
			size_t known;

			rd = reader_open(in.name[i]);
			if (!rd) {
				reader_open_why(in.name[i], errno, err, errlen);
				session_abort(p->session);
				goto fail;
			}
			reader_free(p->rd);
			p->rd = rd;
			known = session_next_file(p->session, in.name[i]);
			if (!p->ld->later_from)
				p->ld->later_from = known;
		}
		p->input = in.name[i];
		if (read_one(p, err, errlen))
			goto fail;
	}
	if (profile_close(p, err, errlen))
		goto fail;
	/* the name as given, for what the report says it read */
	p->input = o->input;
	inputs_free(&in);
	*out = p;
	return 0;
fail:
	p->input = o->input;
	profile_free(p);
	inputs_free(&in);
	return -1;
}

const struct profile_event *profile_first_event(const struct profile *p, size_t *others)
{
	const struct profile_event *first = NULL;

	*others = 0;
	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].hist) {
			if (!first)
				first = &p->ev[i];
			else
				(*others)++;
		}
	return first;
}

uint64_t profile_tree_cut(const struct profile *p)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nev; i++) {
		n += ctree_cut(p->ev[i].tree);
		if (p->ev[i].hist)
			n += hist_tree_cut(p->ev[i].hist);
	}
	return n;
}

uint64_t profile_hist_folded(const struct profile *p)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].hist)
			n += hist_folded(p->ev[i].hist);
	return n;
}
