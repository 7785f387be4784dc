// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The resolver (resolve.h): an address of a process placed in the
 * process's maps of the moment and named by the symbolizer or the JIT
 * tables, with a memo of recent ones; user stacks unwound (--call-graph
 * dwarf) or mended (-g's leaf) with the unwinder it owns, whose look-ups
 * of a mapping it answers from the process it was handed. JIT code is in
 * resolve-jit.c.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jitdump.h"
#include "regs.h"
#include "resolve-int.h"
#include "xalloc.h"

struct resolver *resolver_new(struct symbols *sym)
{
	struct resolver *r = xcalloc(1, sizeof(*r));

	r->sym = sym;
	r->jpool = strpool_new();
	r->car_budget = prof_ext_budget(0);	/* prof_ext_budget(): src/jitdump.h */
	for (size_t i = 0; i < FMEMO; i++)
		r->fmemo[i].k = -1;
	u64map_init(&r->pmaps);
	return r;
}

void resolver_free(struct resolver *r)
{
	if (!r)
		return;
	unwind_free(r->unwind);
	rs_carried_reset(r);
	for (size_t i = 0; i < r->njwarn; i++)
		free(r->jwarn[i]);
	strpool_free(r->jpool);
	u64map_release(&r->pmaps);
	free(r);
}

void resolver_forget_files(void *ctx, const struct objfile *const *files, size_t n)
{
	struct resolver *r = ctx;

	unwind_forget_files(r->unwind, files, n);
}

void resolver_forget_memo(struct resolver *r)
{
	/* its procs may be freed and made again at the same address, its answers of released files */
	memset(r->fmemo, 0, sizeof(r->fmemo));
}

void resolver_at(struct resolver *r, uint64_t now)
{
	r->now = now;
}

/* Append the k frames fi of address a of dso; returns the new count. */
static int append_frames(struct rframe *frames, int n, struct dso *dso, uint64_t a, int kernel,
			 const struct frame_info *fi, int k)
{
	if (k == 0) {
		struct rframe *f = &frames[n];

		if (n >= MAX_FRAMES)
			return n;
		memset(f, 0, sizeof(*f));
		f->dso = dso;
		f->addr = a;
		f->kernel = kernel;
		return n + 1;
	}
	for (int i = 0; i < k && n < MAX_FRAMES; i++, n++) {
		struct rframe *f = &frames[n];

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
void resolver_locate(struct resolver *rv, const struct proc *pr, uint64_t addr, int kernel,
		     int caller, struct rawf *r)
{
	r->dso = NULL;
	r->a = addr;
	r->jit = NULL;
	r->jitc = 0;
	r->kernel = kernel;
	r->caller = caller;
	r->by_fp = 0;
	if (rv->guest) {
		/* a guest's address, kernel or user: none of the host's files or symbols */
		r->dso = symbols_guest(rv->sym);
		r->kernel = 1;
	} else if (kernel) {
		r->dso = symbols_kernel(rv->sym);
	} else {
		const struct map *mp = pr ? maps_find(&pr->maps, addr) : NULL;

		if (mp) {
			r->dso = mp->dso;
			r->a = addr - mp->start + mp->pgoff;
		}
		if (pr && (!mp || dso_is_anon(mp->dso)))
			rs_jit_locate(rv, pr, addr, r);
	}
}

void resolver_names(struct resolver *r, int on)
{
	r->no_names = !on;
}

void resolver_guest(struct resolver *r, int on)
{
	r->guest = on;
}

/* The frames of r: a caller's address is where the call returns to, so look up the call. */
static int resolve_raw(struct resolver *rv, const struct rawf *r, struct frame_info *fi)
{
	uint64_t look = r->caller && r->a ? r->a - 1 : r->a;

	if (rv->no_names && !r->kernel)
		return 0;	/* the dso and address alone */

	if (r->jit) {
		const struct jit_line *l = symbols_srcline(rv->sym) ? jit_line(r->jit, look) : NULL;

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

int resolver_frames(struct resolver *rv, struct rframe *frames, int n, const struct proc *pr,
		    uint64_t addr, int kernel, int caller, int nowait)
{
	struct frame_info fi[INLINE_MAX];
	unsigned flags = (unsigned)kernel | (unsigned)caller << 1 | (unsigned)rv->guest << 2;
	const struct proc *key = kernel || rv->guest ? NULL : pr;
	struct fmemo *m = &rv->fmemo[(size_t)((addr >> 1) ^ (addr >> 13) ^
					      ((uintptr_t)key >> 4) ^ flags) & (FMEMO - 1)];
	struct rawf r;
	int k;

	if (m->addr == addr && m->pr == key && m->flags == flags &&
	    (!key || m->gen == key->gen) && m->k >= 0)
		return append_frames(frames, n, m->dso, m->a, kernel || rv->guest, m->fi, m->k);
	resolver_locate(rv, pr, addr, kernel, caller, &r);
	if (nowait && r.dso && !dso_ready(r.dso))
		return -1;
	k = resolve_raw(rv, &r, fi);
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
	return append_frames(frames, n, r.dso, r.a, r.kernel, fi, k);
}

int resolver_raw_frames(struct resolver *rv, struct rframe *frames, int n, const struct rawf *raw)
{
	struct frame_info fi[INLINE_MAX];
	int k = resolve_raw(rv, raw, fi), n0 = n;

	fix_caller_offsets(raw, fi, k);
	n = append_frames(frames, n, raw->dso, raw->a, raw->kernel, fi, k);
	for (int f = n0; raw->by_fp && f < n; f++)
		frames[f].by_fp = 1;
	return n;
}

/* What the unwinder's look-ups need: the resolver (for JIT code) and the process. */
struct ufind {
	struct resolver *r;
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
		struct pjit *j = rs_proc_jit(uf->r, uf->pr);
		const struct jit_sym *js = j->t ? jit_find(j->t, pc, uf->r->now) : NULL;

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
	/*
	 * Only files that resolve: another build's CFI would mislead. Which
	 * file that is (the path's, or one of the recorded build id) is
	 * settled first, as the dso's first resolve does: else the answer
	 * would hang on whether a sample of it was named yet, and on the
	 * loader thread's progress, and the same file would report two ways.
	 */
	if (m->dso)
		dso_settle(m->dso);
	u->file = m->dso ? dso_file(m->dso) : NULL;
	u->build_id_len = u->file ? dso_build_id(m->dso, &u->build_id) : 0;
	u->trampoline = 0;
	return 1;
}

static struct unwind *unwinder(struct resolver *r)
{
	if (!r->unwind)
		r->unwind = unwind_new(symbols_debuginfo_path(r->sym), symbols_debug_cache(r->sym));
	return r->unwind;
}

int resolver_unwind(struct resolver *r, const struct proc *pr, const struct evdesc *e,
		    const struct sample *smp, uint64_t *pcs, unsigned char *flags, int max,
		    struct unwind_stop *stop)
{
	struct ufind uf = { r, pr };
	int n;

	if (!pr || !smp->stack_dyn_size || !smp->nr_user_regs)
		return 0;
	n = unwind_user(unwinder(r), find_umap, &uf, smp, e->attr.sample_regs_user, pcs, flags,
			max, stop);
	/* Past the end of a copy the kernel did not fill: the stack ended there. */
	if (stop->end == UNWIND_END_STACK && smp->stack_dyn_size < e->attr.sample_stack_user)
		stop->end = UNWIND_END_BAD;
	return n;
}

int resolver_leaf_returns(struct resolver *r, const struct proc *pr, const struct evdesc *e,
			  const struct sample *smp, uint64_t a, uint64_t *ras, int max)
{
	struct ufind uf = { r, pr };
	uint64_t lr;
	int link = 0;

	if (!pr)
		return 0;
	/* the link register alone (aarch64's -g, perf's too); never --call-graph dwarf's set */
	if (smp->nr_user_regs && regs_is_leaf_mask(e->attr.sample_regs_user) &&
	    !regs_link(smp->user_regs, (size_t)smp->nr_user_regs, e->attr.sample_regs_user, &lr))
		link = 1;
	else if (smp->nr_user_regs || !smp->stack || !smp->stack_dyn_size)
		return 0;
	/* a proc's gen is unique in the session: it names these maps */
	return unwind_leaf_returns(unwinder(r), find_umap, &uf, pr->gen, a, smp->stack,
				   smp->stack ? smp->stack_dyn_size : 0, link ? &lr : NULL, ras, max);
}
