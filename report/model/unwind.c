// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF unwinding of --call-graph dwarf samples: our own loop over the
 * call frame information libdw parses.
 *
 * libdwfl's unwinder (dwfl_attach_state, as elfutils' stack(1) and perf's
 * unwind-libdw use it) wants a Dwfl per process, so each process opened
 * its files and parsed their CFI again, and it asks libdw for every frame
 * anew: a malloc'd Dwarf_Frame, seventeen register rules and a module
 * lookup per frame were half of a dwarf report's time. Here:
 *
 *  - each file is opened once, its .eh_frame read in place, and shared by
 *    every process that maps it (struct ufile);
 *  - a rule row, once asked of libdw (dwarf_cfi_addrframe), is compiled
 *    into a small struct rule that holds for its whole pc range, and
 *    found again by a memo and a binary search: an interpreter returns
 *    to the same few hundred call sites over and over;
 *  - a process is only its sorted maps, rebuilt when they change.
 *
 * .debug_frame, the file's own or its separate debug file's, is read only
 * for pcs .eh_frame has no entry for. Where neither has one, the frame
 * pointer is followed when it points into the copied stack, and the
 * frames found that way are marked.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debugcache.h"
#include "dwexpr.h"
#include "htab.h"
#include "objfile.h"
#include "regs.h"
#include "symbols.h"
#include "leaf.h"
#include "unwind.h"
#include "xalloc.h"

#if defined(__x86_64__)
#define DW_SP	7
#define DW_FP	6
#elif defined(__aarch64__)
#define DW_SP	31
#define DW_FP	29
#else
#error "the unwinder knows the DWARF registers of x86_64 and aarch64 only: add this machine's"
#endif
#define NREG	REGS_DWARF_MAX
/* A read this far past the stack copy's end is taken for one the copy was too small for. */
#define STACK_BEYOND	(1u << 20)

/* How the caller's value of a register, or the CFA, is found. */
enum {
	R_UNDEF,	/* lost: call-clobbered */
	R_SAME,		/* unchanged */
	R_AT_CFA,	/* in memory at CFA + off */
	R_VAL_CFA,	/* CFA + off */
	R_REG,		/* in register reg */
	R_REG_OFF,	/* register reg + off: the usual CFA */
	R_EXPR,		/* in memory at the address ops compute */
	R_VAL_EXPR,	/* what ops compute */
};

struct rloc {
	uint8_t kind, reg;
	uint16_t nops;
	int64_t off;
	Dwarf_Op *ops;		/* R_EXPR, R_VAL_EXPR; owned */
};

/* One row of a file's CFI: how to find the caller's registers at pcs [start, end). */
struct rule {
	uint64_t start, end;	/* in the file's addresses (p_vaddr) */
	uint8_t ra;		/* the return address column */
	uint8_t signal;		/* a signal frame: its caller's pc is exact */
	struct rloc cfa;
	struct rloc reg[];	/* nreg of them */
};

/* No CFI covers the pc: what the memo remembers of a miss. */
static const struct rule no_rule;

/* A file, opened once for every process that maps it. */
/* What the unwinder keeps of a file (objfile.h), opened by the symbolizer's layer. */
struct ufile {
	const struct objfile *file;
	Dwarf_CFI *eh;			/* .eh_frame; NULL when none */
	Dwfl *dwfl;			/* for .debug_frame, made when first needed */
	Dwarf_CFI *dbg;
	Dwarf_Addr dbg_bias;
	int dbg_tried;
	struct rule **rules;		/* sorted by start, not overlapping */
	size_t nrules, cap;
};

/*
 * A process's mapping of a file: pc + delta is the file's address, for
 * the pcs whose file offset (pc - start + pgoff) lies in [lo, hi), the
 * bytes of the segment last looked up (see file_addr()).
 */
struct pmap {
	uint64_t start, end, pgoff;
	int64_t delta;
	uint64_t lo, hi;
	struct ufile *f;		/* NULL: no file to unwind with */
	int trampoline;			/* unwind_map's: start is the trampoline's */
};

#define MEMO	8192

struct memo {
	const struct ufile *f;
	uint64_t pc;
	const struct rule *r;
};

/*
 * The leaf repair's answers for a pc of a space (unwind_leaf_returns()):
 * a file's pc whose CFI finds its frame from sp (the CFA's offset from
 * sp, and where the return address is from sp), one where it does not,
 * and a return address seen to be in mapped code. Only answers that hang
 * on the maps and the files alone, never on JIT code (which changes with
 * time), are kept.
 */
#define LMEMO	4096

enum { LM_NONE, LM_STEP, LM_STOP, LM_CODE, LM_LINK };

struct lmemo {
	uint64_t space, pc;
	int64_t cfa_off, ra_at;
	int kind;
};

struct unwind {
	int nreg;			/* the machine's DWARF registers we track */
	struct lmemo lmemo[LMEMO];
	char *debuginfo_path;
	Dwfl_Callbacks cb;
	struct ufile **files;		/* by path: the htab's items */
	size_t nfiles, fcap;
	struct htab ftab;
	struct memo memo[MEMO];
};

/*
 * The sample being unwound. Its process's maps are the session's, looked
 * up by find() as pcs come: copying them per process (as this did) made a
 * file of 5000 forks of a 6000-map process cost 1.2 GB. The last map the
 * loop used and the last one a read used are kept apart, so that a read
 * does not take the loop's from under it.
 */
struct pslot {
	struct pmap m;
	int have;
};

struct uctx {
	struct unwind *u;
	unwind_find_fn find;
	void *ctx;
	struct pslot *cur, *rcur;	/* the loop's, the reads' (rd() takes a const uctx) */
	const unsigned char *stack;
	uint64_t stack_lo, stack_len;
	uint64_t v[NREG];		/* the registers of the frame being unwound */
	uint64_t known;			/* bit r: v[r] is known */
	uint64_t cfa;
	int *over;			/* set when a read fell past the copy's end */
};

struct unwind *unwind_new(const char *debuginfo_path, int cache)
{
	struct unwind *u = xcalloc(1, sizeof(*u));

	elf_version(EV_CURRENT);
	if (debuginfo_path)
		u->debuginfo_path = xstrdup(debuginfo_path);
	u->cb.find_elf = dwfl_build_id_find_elf;
	u->cb.find_debuginfo = cache ? debugcache_find_debuginfo : dwfl_standard_find_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	u->cb.debuginfo_path = &u->debuginfo_path;
	htab_init(&u->ftab);
	return u;
}

static void free_rule(struct rule *r, int nreg)
{
	free(r->cfa.ops);
	for (int i = 0; i < nreg; i++)
		free(r->reg[i].ops);
	free(r);
}

static void free_file(struct ufile *f, int nreg)
{
	for (size_t i = 0; i < f->nrules; i++)
		free_rule(f->rules[i], nreg);
	free(f->rules);
	if (f->dwfl)
		dwfl_end(f->dwfl);
	/* the .eh_frame CFI is the Elf's, and the Elf the objfile's */
	if (f->eh)
		dwarf_cfi_end(f->eh);
	free(f);
}

void unwind_free(struct unwind *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nfiles; i++)
		free_file(u->files[i], u->nreg);
	free(u->files);
	htab_release(&u->ftab);
	free(u->debuginfo_path);
	free(u);
}

static uint64_t file_hash(const void *ctx, size_t i)
{
	const struct unwind *u = ctx;

	return (uint64_t)(uintptr_t)u->files[i]->file;
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;

	return x < y ? -1 : x > y;
}

void unwind_forget_files(struct unwind *u, const struct objfile *const *files, size_t n)
{
	const struct objfile **sorted;
	size_t kept = 0;

	if (!u || !n || !u->nfiles)
		return;
	sorted = xreallocarray(NULL, n, sizeof(*sorted));
	memcpy(sorted, files, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), ptr_cmp);
	/* one pass and one reindex for them all */
	for (size_t i = 0; i < u->nfiles; i++) {
		const struct objfile *f = u->files[i]->file;

		if (bsearch(&f, sorted, n, sizeof(*sorted), ptr_cmp))
			free_file(u->files[i], u->nreg);
		else
			u->files[kept++] = u->files[i];
	}
	free(sorted);
	if (kept == u->nfiles)
		return;
	u->nfiles = kept;
	htab_reindex(&u->ftab, u->nfiles, file_hash, u);
	memset(u->memo, 0, sizeof(u->memo));	/* it names rules of the files */
}

/* The unwinder's view of file: its .eh_frame. Never NULL; a file that cannot be read has no CFI. */
static struct ufile *get_file(struct unwind *u, const struct objfile *file)
{
	struct htab_probe p;
	struct ufile *f;
	uint32_t i;

	htab_probe(&u->ftab, (uint64_t)(uintptr_t)file, &p);
	while (htab_next(&u->ftab, &p, &i))
		if (u->files[i]->file == file)
			return u->files[i];
	if (u->nfiles == u->fcap) {
		u->fcap = u->fcap ? 2 * u->fcap : 16;
		u->files = xreallocarray(u->files, u->fcap, sizeof(*u->files));
	}
	f = u->files[u->nfiles] = xcalloc(1, sizeof(*f));
	f->file = file;
	if (file->elf)
		f->eh = dwarf_getcfi_elf(file->elf);
	htab_put(&u->ftab, &p, (uint32_t)u->nfiles++);
	return f;
}

/*
 * A process's mapping with its file. 0, or -1 for an empty mapping. A
 * build id other than the recorded one leaves the file out: its CFI
 * would lead the unwinder astray.
 */
static int make_pmap(struct unwind *u, const struct unwind_map *um, struct pmap *m)
{
	if (um->end <= um->start)
		return -1;
	m->start = um->start;
	m->end = um->end;
	m->pgoff = um->pgoff;
	m->f = um->file ? get_file(u, um->file) : NULL;
	m->trampoline = um->trampoline;
	m->delta = 0;
	m->lo = m->hi = 0;
	if (m->f && um->build_id_len &&
	    !build_id_equal(um->build_id, um->build_id_len, m->f->file->build_id,
			    m->f->file->build_id_len))
		m->f = NULL;
	if (m->f && !m->f->file->elf)
		m->f = NULL;
	return 0;
}

/*
 * The file's own address of pc in mapping m: through the PT_LOAD segment
 * whose bytes hold pc's file offset. Not the segment the mapping starts
 * in: lld lays segments out so that two share a file page (the
 * read-only one at offset 0, the code from 0xd80 at 0x1d80), and the
 * mapping of the code starts at file offset 0, in the other. 0 and *out,
 * or -1 when no segment holds it.
 */
static int file_addr(struct pmap *m, uint64_t pc, uint64_t *out)
{
	uint64_t fo = pc - m->start + m->pgoff;
	const struct objfile *f = m->f->file;

	if (fo < m->lo || fo >= m->hi) {
		const GElf_Phdr *seg = NULL;

		for (size_t k = 0; k < f->nload && !seg; k++)
			if (f->load[k].p_offset <= fo && fo - f->load[k].p_offset < f->load[k].p_filesz)
				seg = &f->load[k];
		if (!seg)
			return -1;
		m->lo = seg->p_offset;
		m->hi = seg->p_offset + seg->p_filesz;
		m->delta = (int64_t)(m->pgoff - m->start) + (int64_t)(seg->p_vaddr - seg->p_offset);
	}
	*out = pc + (uint64_t)m->delta;
	return 0;
}

/* The map holding pc, through slot (the loop's or the reads'); NULL when none. */
static struct pmap *find_pmap(const struct uctx *c, struct pslot *slot, uint64_t pc)
{
	struct unwind_map um;

	if (slot->have && pc >= slot->m.start && pc < slot->m.end)
		return &slot->m;
	slot->have = 0;
	memset(&um, 0, sizeof(um));
	if (!c->find(c->ctx, pc, &um) || pc < um.start || pc >= um.end ||
	    make_pmap(c->u, &um, &slot->m))
		return NULL;
	slot->have = 1;
	return &slot->m;
}

/*
 * For a read the stack copy could not serve: whether a bigger copy would
 * have (addr at or above the copy's start, and not far past its end).
 */
static int past_copy(const struct uctx *c, uint64_t addr)
{
	return addr >= c->stack_lo && addr - c->stack_lo < c->stack_len + STACK_BEYOND;
}

/* 8 bytes at addr: from the stack copy, else from an executable file's image. */
static int rd(const struct uctx *c, uint64_t addr, uint64_t *out)
{
	const struct pmap *m;
	uint64_t off;

	if (addr >= c->stack_lo && addr - c->stack_lo < c->stack_len &&
	    c->stack_len - (addr - c->stack_lo) >= 8) {
		memcpy(out, c->stack + (addr - c->stack_lo), 8);
		return 0;
	}
	if (past_copy(c, addr))
		*c->over = 1;
	m = find_pmap(c, c->rcur, addr);
	if (!m || !m->f || !m->f->file->image)
		return -1;
	off = addr - m->start + m->pgoff;
	if (off >= m->f->file->size || m->f->file->size - off < 8)
		return -1;
	memcpy(out, m->f->file->image + off, 8);
	return 0;
}

static int reg_of(const struct uctx *c, unsigned r, uint64_t *out)
{
	if (r >= NREG || !(c->known >> r & 1))
		return -1;
	*out = c->v[r];
	return 0;
}

/* The CFI expression ops in c's registers and memory (dwexpr.h). */
static int reg_cb(const void *ctx, unsigned r, uint64_t *out)
{
	return reg_of(ctx, r, out);
}

static int read_cb(const void *ctx, uint64_t addr, uint64_t *out)
{
	return rd(ctx, addr, out);
}

static int eval(const struct uctx *c, const Dwarf_Op *ops, size_t nops, uint64_t *out)
{
	const struct dwexpr_env env = { .reg = reg_cb, .read = read_cb, .cfa = c->cfa, .ctx = c };

	return dwexpr_eval(&env, ops, nops, out);
}

static Dwarf_Op *copy_ops(const Dwarf_Op *ops, size_t n)
{
	Dwarf_Op *o = xmalloc(n * sizeof(*o));

	memcpy(o, ops, n * sizeof(*o));
	return o;
}

/* What libdw gives for a register (libdw.h, dwarf_frame_register), in our terms. */
static void compile_reg(Dwarf_Frame *fr, int r, struct rloc *l)
{
	Dwarf_Op mem[3], *ops = NULL;
	size_t n = 0;

	memset(l, 0, sizeof(*l));
	if (dwarf_frame_register(fr, r, mem, &ops, &n) < 0)
		return;		/* R_UNDEF */
	if (n == 0) {
		l->kind = ops ? R_UNDEF : R_SAME;
		return;
	}
	if (ops[n - 1].atom == DW_OP_stack_value) {
		n--;
		l->kind = R_VAL_EXPR;
	} else {
		l->kind = R_EXPR;
	}
	if (n >= 1 && n <= 2 && ops[0].atom == DW_OP_call_frame_cfa &&
	    (n == 1 || ops[1].atom == DW_OP_plus_uconst)) {
		l->kind = l->kind == R_EXPR ? R_AT_CFA : R_VAL_CFA;
		l->off = n == 2 ? (int64_t)ops[1].number : 0;
		return;
	}
	if (n == 1 && l->kind == R_EXPR && ops[0].atom == DW_OP_regx && ops[0].number < NREG) {
		l->kind = R_REG;
		l->reg = (uint8_t)ops[0].number;
		return;
	}
	if (n == 0) {
		l->kind = R_UNDEF;
		return;
	}
	l->ops = copy_ops(ops, n);
	l->nops = (uint16_t)n;
}

/* The rule row of f's CFI cfi (whose addresses + bias are f's) holding at addr, or NULL. */
static struct rule *compile(struct unwind *u, Dwarf_CFI *cfi, Dwarf_Addr bias, uint64_t addr)
{
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr start, end;
	Dwarf_Op *ops;
	size_t nops;
	bool signal;
	struct rule *r;
	int ra;

	if (!cfi || addr < bias || dwarf_cfi_addrframe(cfi, addr - bias, &fr) || !fr)
		return NULL;
	ra = dwarf_frame_info(fr, &start, &end, &signal);
	/*
	 * libdw 0.188 gives a row that DW_CFA_restore_state began the start
	 * of the row remembered (glibc's and CPython's -O2 code have many):
	 * from the pc asked on, the row is right.
	 */
	if (start + bias < addr)
		start = addr - bias;
	if (ra < 0 || ra >= u->nreg || dwarf_frame_cfa(fr, &ops, &nops) || !nops) {
		free(fr);
		return NULL;
	}
	r = xcalloc(1, sizeof(*r) + (size_t)u->nreg * sizeof(r->reg[0]));
	r->start = start + bias;
	r->end = end + bias;
	r->ra = (uint8_t)ra;
	r->signal = signal;
	if (nops == 1 && ops[0].atom == DW_OP_bregx && ops[0].number < NREG) {
		r->cfa.kind = R_REG_OFF;
		r->cfa.reg = (uint8_t)ops[0].number;
		r->cfa.off = (int64_t)ops[0].number2;
	} else if (nops == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		r->cfa.kind = R_REG_OFF;
		r->cfa.reg = (uint8_t)(ops[0].atom - DW_OP_breg0);
		r->cfa.off = (int64_t)ops[0].number;
	} else {
		r->cfa.kind = R_VAL_EXPR;
		r->cfa.ops = copy_ops(ops, nops);
		r->cfa.nops = (uint16_t)nops;
	}
	for (int i = 0; i < u->nreg; i++)
		compile_reg(fr, i, &r->reg[i]);
	free(fr);
	if (r->start > addr || r->end <= addr)
		r->start = addr, r->end = addr + 1;	/* trust only what was asked */
	return r;
}

/* .debug_frame of f, in the file or its separate debug file: loaded on first need. */
static Dwarf_CFI *debug_cfi(struct unwind *u, struct ufile *f, Dwarf_Addr *bias)
{
	if (!f->dbg_tried) {
		Dwfl_Module *mod;
		const char *path = f->file->path, *base = strrchr(path, '/');
		int fd = f->file->fd >= 0 ? dup(f->file->fd) : -1;

		f->dbg_tried = 1;
		f->dwfl = fd >= 0 ? dwfl_begin(&u->cb) : NULL;
		if (f->dwfl) {
			dwfl_report_begin(f->dwfl);
			/* the file opened once: libdwfl reads it through a duplicate descriptor */
			mod = dwfl_report_elf(f->dwfl, base ? base + 1 : path, path, fd, 0, false);
			if (!mod)
				close(fd);	/* libdwfl takes it only when it succeeds */
			dwfl_report_end(f->dwfl, NULL, NULL);
			if (mod)
				f->dbg = dwfl_module_dwarf_cfi(mod, &f->dbg_bias);
		}
	}
	*bias = f->dbg_bias;
	return f->dbg;
}

static void insert_rule(struct ufile *f, size_t at, struct rule *r)
{
	if (f->nrules == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->rules = xreallocarray(f->rules, f->cap, sizeof(*f->rules));
	}
	memmove(&f->rules[at + 1], &f->rules[at], (f->nrules - at) * sizeof(*f->rules));
	f->rules[at] = r;
	f->nrules++;
}

/* The rule for f's address addr: remembered, or compiled from .eh_frame or .debug_frame. */
static const struct rule *rule_for(struct unwind *u, struct ufile *f, uint64_t addr)
{
	struct memo *m = &u->memo[((uintptr_t)f >> 4 ^ addr ^ addr >> 12) & (MEMO - 1)];
	size_t lo = 0, hi = f->nrules;
	struct rule *r;

	if (m->f == f && m->pc == addr)
		return m->r;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < f->rules[mid]->start)
			hi = mid;
		else if (addr >= f->rules[mid]->end)
			lo = mid + 1;
		else {
			lo = mid;
			break;
		}
	}
	if (lo < f->nrules && f->rules[lo]->start <= addr && addr < f->rules[lo]->end) {
		r = f->rules[lo];
	} else {
		Dwarf_Addr bias = 0;

		r = compile(u, f->eh, 0, addr);
		if (!r && f->file->elf)
			r = compile(u, debug_cfi(u, f, &bias), bias, addr);
		if (r) {
			/* a row may not overlap its neighbours: clip it to the gap */
			if (lo > 0 && r->start < f->rules[lo - 1]->end)
				r->start = f->rules[lo - 1]->end;
			if (lo < f->nrules && r->end > f->rules[lo]->start)
				r->end = f->rules[lo]->start;
			insert_rule(f, lo, r);
		}
	}
	m->f = f;
	m->pc = addr;
	m->r = r ? r : &no_rule;
	return m->r;
}

/* The caller's value of register i under rule l; -1 when lost. */
static int apply(const struct uctx *c, const struct rloc *l, int i, uint64_t *out)
{
	uint64_t a;

	switch (l->kind) {
	case R_SAME:
		return reg_of(c, (unsigned)i, out);
	case R_AT_CFA:
		return rd(c, c->cfa + (uint64_t)l->off, out);
	case R_VAL_CFA:
		*out = c->cfa + (uint64_t)l->off;
		return 0;
	case R_REG:
		return reg_of(c, l->reg, out);
	case R_EXPR:
		return eval(c, l->ops, l->nops, &a) || rd(c, a, out) ? -1 : 0;
	case R_VAL_EXPR:
		return eval(c, l->ops, l->nops, out);
	default:
		return -1;
	}
}

static struct lmemo *lmemo_of(struct unwind *u, uint64_t space, uint64_t pc, int code)
{
	uint64_t h = (space * 0x9e3779b97f4a7c15ULL) ^ pc ^ (pc >> 13) ^ (uint64_t)code << 7;

	return &u->lmemo[(h ^ h >> 29) & (LMEMO - 1)];
}

/*
 * What the repair does with pc (LM_STEP, with the CFA's offset and the
 * return address's from sp; LM_LINK, the return address still in the
 * link register, with the CFA's offset from sp; or LM_STOP): from the
 * memo, or found and kept when the answer is the maps' and the file's
 * alone.
 */
static int leaf_rule(struct unwind *u, unwind_find_fn find, void *ctx, uint64_t space,
		     uint64_t look, int64_t *cfa_off, int64_t *ra_at)
{
	struct lmemo *lm = space ? lmemo_of(u, space, look, 0) : NULL;
	struct unwind_map um;
	struct pmap m;
	const struct rule *r;
	uint64_t fa;
	int kind = LM_STOP, keep = 0;

	if (lm && lm->kind != LM_NONE && lm->kind != LM_CODE && lm->space == space &&
	    lm->pc == look) {
		*cfa_off = lm->cfa_off;
		*ra_at = lm->ra_at;
		return lm->kind;
	}
	memset(&um, 0, sizeof(um));
	if (find(ctx, look, &um) && look >= um.start && look < um.end && !um.trampoline &&
	    !make_pmap(u, &um, &m) && m.f && !file_addr(&m, look, &fa)) {
		keep = 1;	/* a file's code: no JIT table had a say */
		r = rule_for(u, m.f, fa);
		if (r != &no_rule) {
			/* the row as the repair reads it: its rule is leaf.h's, the recorder's too */
			struct leaf_row row = {
				.signal = r->signal,
				.cfa_sp = r->cfa.kind == R_REG_OFF && r->cfa.reg == DW_SP,
				.cfa_off = r->cfa.off,
				.ra = r->reg[r->ra].kind == R_AT_CFA ? LEAF_RA_AT_CFA
				      : r->reg[r->ra].kind == R_SAME ? LEAF_RA_SAME : LEAF_RA_OTHER,
				.ra_off = r->reg[r->ra].off,
				.ra_is_sp = r->ra == DW_SP,
			};

			switch (leaf_classify(&row, cfa_off, ra_at)) {
			case LEAF_STEP: kind = LM_STEP; break;
			case LEAF_LINK: kind = LM_LINK; break;
			default: break;
			}
		}
	}
	if (lm && keep) {
		lm->space = space;
		lm->pc = look;
		lm->kind = kind;
		lm->cfa_off = kind == LM_STEP || kind == LM_LINK ? *cfa_off : 0;
		lm->ra_at = kind == LM_STEP ? *ra_at : 0;
	}
	return kind;
}

/* Whether a is in code the process maps: from the memo when it was seen to be. */
static int mapped_code(struct unwind *u, unwind_find_fn find, void *ctx, uint64_t space,
		       uint64_t a)
{
	struct lmemo *lm = space ? lmemo_of(u, space, a, 1) : NULL;
	struct unwind_map um;

	if (lm && lm->kind == LM_CODE && lm->space == space && lm->pc == a)
		return 1;
	memset(&um, 0, sizeof(um));
	if (!find(ctx, a, &um) || a < um.start || a >= um.end)
		return 0;
	if (lm && um.file && !um.trampoline) {	/* a file's map: the maps' answer alone */
		lm->space = space;
		lm->pc = a;
		lm->kind = LM_CODE;
	}
	return 1;
}

/* leaf_walk()'s side of the report: its rows and maps, memoized by space. */
struct leafctx {
	struct unwind *u;
	unwind_find_fn find;
	void *ctx;
	uint64_t space;
};

static int leaf_rule_of(void *arg, uint64_t look, int64_t *cfa_off, int64_t *ra_at)
{
	struct leafctx *l = arg;

	switch (leaf_rule(l->u, l->find, l->ctx, l->space, look, cfa_off, ra_at)) {
	case LM_STEP: return LEAF_STEP;
	case LM_LINK: return LEAF_LINK;
	default: return LEAF_STOP;
	}
}

/* a return address is in code the process maps; else not one (data, 0x1000) */
static int leaf_take(void *arg, uint64_t ra)
{
	struct leafctx *l = arg;

	return mapped_code(l->u, l->find, l->ctx, l->space, ra - 1);
}

static const struct leaf_ops leaf_ops = { leaf_rule_of, leaf_take };

int unwind_leaf_returns(struct unwind *u, unwind_find_fn find, void *ctx, uint64_t space,
			uint64_t pc, const unsigned char *stack, size_t len, const uint64_t *lr,
			uint64_t *ras, int max)
{
	struct leafctx l = { u, find, ctx, space };

	if (!u->nreg)
		u->nreg = regs_dwarf_count();
	if (!u->nreg)
		return 0;
	return leaf_walk(&leaf_ops, &l, pc, stack, len, lr, ras, max);
}

int unwind_user(struct unwind *u, unwind_find_fn find, void *ctx, const struct sample *s,
		uint64_t regs_mask, uint64_t *pcs, unsigned char *flags, int max,
		struct unwind_stop *stop)
{
	struct pslot cur = { .have = 0 }, rcur = { .have = 0 };
	struct uctx c;
	uint64_t pc, sp, nv[NREG];
	int nreg, out = 0, exact = 1, over = 0, end = UNWIND_END_MAX;
	int fp_from = -1, fp_end = 0;	/* the frame a run of frame pointer frames began at, and why */

	stop->end = 0;
	stop->at = 0;
	if (!s->nr_user_regs || !s->user_regs || !s->stack || !s->stack_dyn_size || max < 1)
		return 0;
	nreg = regs_to_dwarf(s->user_regs, (size_t)s->nr_user_regs, regs_mask, c.v, &pc, &sp);
	if (!nreg)
		return 0;
	if (!u->nreg)
		u->nreg = nreg;
	c.u = u;
	c.find = find;
	c.ctx = ctx;
	c.cur = &cur;
	c.rcur = &rcur;
	c.stack = s->stack;
	c.stack_lo = sp;
	c.stack_len = s->stack_dyn_size;
	c.known = nreg >= 64 ? ~0ULL : (1ULL << nreg) - 1;
	c.over = &over;
	pcs[out] = pc;
	flags[out++] = UNWIND_EXACT;
	while (out < max) {
		uint64_t look = exact ? pc : pc - 1, npc, nsp, nknown = 0;
		struct pmap *m = find_pmap(&c, c.cur, look);
		uint64_t fa;
		const struct rule *r = m && m->f && !file_addr(m, look, &fa) ? rule_for(u, m->f, fa)
									     : &no_rule;
		int fp = r == &no_rule;

		end = UNWIND_END_BAD;
		over = 0;
		if (m && m->trampoline) {
			/*
			 * CPython's perf trampoline (x86-64): sub $8,%rsp; call *%rcx;
			 * add $8,%rsp; ret. Outside the sub and the add, the caller's
			 * return address is at sp + 8; registers are left as they were.
			 */
			uint64_t off = look - m->start, cfa = sp + (off >= 4 && off < 10 ? 16 : 8);

			if (rd(&c, cfa - 8, &npc)) {
				over |= past_copy(&c, cfa - 8);
				break;
			}
			nsp = cfa;
			memcpy(nv, c.v, sizeof(nv));
			nv[DW_SP] = nsp;
			nknown = c.known | 1ULL << DW_SP;
			r = NULL;
			fp = 0;
			fp_from = -1;
		} else if (!fp) {
			if (r->cfa.kind == R_REG_OFF) {
				if (reg_of(&c, r->cfa.reg, &c.cfa))
					break;
				c.cfa += (uint64_t)r->cfa.off;
			} else if (eval(&c, r->cfa.ops, r->cfa.nops, &c.cfa)) {
				break;
			}
			if (r->reg[r->ra].kind == R_UNDEF) {
				end = UNWIND_END_ROOT;	/* the outermost frame: _start, a thread's start */
				break;
			}
			for (int i = 0; i < nreg; i++)
				if (!apply(&c, &r->reg[i], i, &nv[i]))
					nknown |= 1ULL << i;
			if (!(nknown >> r->ra & 1))
				break;
			npc = nv[r->ra];
			if (!(nknown >> DW_SP & 1) || r->reg[DW_SP].kind == R_SAME) {
				nv[DW_SP] = c.cfa;	/* the caller's sp is the CFA */
				nknown |= 1ULL << DW_SP;
			}
			nsp = nv[DW_SP];
			fp_from = -1;
		} else {
			/* No CFI: a frame record [saved fp, return address] at fp, in the stack copy. */
			uint64_t f = c.v[DW_FP], ofp, ra;

			if (fp_from < 0) {
				fp_from = out - 1;
				fp_end = !m ? UNWIND_END_NOMAP
				     : !m->f || !m->f->file->elf ? UNWIND_END_NOFILE : UNWIND_END_NOCFI;
			}
			end = fp_end;
			if (!(c.known >> DW_FP & 1) || f < sp || f & 7)
				break;
			if (f - c.stack_lo >= c.stack_len || c.stack_len - (f - c.stack_lo) < 16) {
				over |= past_copy(&c, f);
				break;
			}
			memcpy(&ofp, c.stack + (f - c.stack_lo), 8);
			memcpy(&ra, c.stack + (f - c.stack_lo) + 8, 8);
			npc = ra;
			nsp = f + 16;
			nv[DW_FP] = ofp;
			nv[DW_SP] = nsp;
			nknown = 1ULL << DW_FP | 1ULL << DW_SP;
			r = NULL;
		}
		if (r && r->signal)
			flags[out - 1] |= UNWIND_EXACT;	/* a trampoline: nothing called it */
		if (npc == 0 || nsp < sp || (nsp == sp && npc == pc))
			break;		/* the end, or going nowhere */
		pcs[out] = npc;
		flags[out++] = (unsigned char)((fp ? UNWIND_FP : 0) |
					       (r && r->signal ? UNWIND_EXACT : 0));
		memcpy(c.v, nv, sizeof(nv));
		c.known = nknown;
#if defined(__x86_64__)
		c.v[16] = npc;		/* rip is DWARF register 16 */
		c.known |= 1ULL << 16;
#endif
		pc = npc;
		sp = nsp;
		exact = r && r->signal;
		end = UNWIND_END_MAX;
	}
	/*
	 * Why it stopped, and whose frame to blame: past a frame without CFI,
	 * the frame pointer's frames are guesses, and where they lead is no
	 * one's fault but that frame's.
	 */
	stop->end = end;
	stop->at = out - 1;
	if (end != UNWIND_END_ROOT && end != UNWIND_END_MAX) {
		if (fp_from >= 0) {
			stop->end = fp_end;
			stop->at = fp_from;
		} else if (over) {
			stop->end = UNWIND_END_STACK;
		}
	}
	return out;
}
