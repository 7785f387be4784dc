// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sample into frames: each address placed in its process's maps at the
 * sample's time and named by the symbolizer (or the JIT tables), user
 * stacks unwound (--call-graph dwarf) or mended (-g's leaf), and, for
 * callers that only add up, samples whose file is still being opened put
 * aside to be delivered at the end. On the delivery thread.
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
		const struct map *mp = ss_find_map(pr, addr);

		if (mp) {
			r->dso = mp->dso;
			r->a = addr - mp->start + mp->pgoff;
		}
		if (pr && (!mp || dso_is_anon(mp->dso)))
			ss_jit_locate(s, pr, addr, r);
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
		struct pjit *j = ss_proc_jit(uf->s, uf->pr);
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
int ss_unpark(struct session *s)
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
int ss_sample_go(struct session *s, const struct evdesc *e, const struct sample *sp,
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
		s->last_proc = ss_itab_get(&s->procs, (int)smp.pid);
	b.pr = s->last_proc;
	b.n = 0;
	b.nowait = s->unordered && s->npk < PARK_MAX && s->npraw < PRAW_MAX;
	t = s->last_thread;
	if (!t || t->tid != (int)smp.tid) {
		struct thread **slot = &s->tmemo[smp.tid & (TMEMO - 1)];

		t = *slot;
		if (!t || t->tid != (int)smp.tid)
			t = *slot = ss_get_thread(s, (int)smp.pid, (int)smp.tid);
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
		ss_set_on_cpu(s, t, 1);
		rs.parallelism = (uint32_t)ss_get_proc(s, t->pid)->running;
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

int ss_deliver_sample(struct session *s, const struct evdesc *e,
		      const struct perf_event_header *h, uint64_t foff)
{
	struct sample smp;

	if (decode_sample(&e->attr, h, &smp))
		return ss_skip(&s->skd, foff, "malformed SAMPLE record");
	if (ss_is_switch_event(e) && (smp.present & PERF_SAMPLE_TID)) {
		/* where the thread is as it switches out: the stack of its wait */
		struct thread *t = ss_get_thread(s, (int)smp.pid, (int)smp.tid);

		if (!ss_cs_keep(s, t, h)) {
			t->cs_ev = e;
			t->cs_time = smp.time;
		}
	}
	return ss_sample_go(s, e, &smp, ss_is_kernel_mode(h->misc), NULL);
}
