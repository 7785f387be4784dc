// SPDX-License-Identifier: GPL-2.0-or-later
/* A function's samples by instruction and source line: see annot.h. */
#include "config.h"

#include <capstone/capstone.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annot.h"
#include "dynlib.h"
#include "objfile.h"
#include "xalloc.h"

/* --- the functions hit ------------------------------------------------------ */

struct fkey {
	struct dso *dso;
	const char *name;
	uint64_t start;			/* the function's offset: addr - sym_offset */
	int kernel;
	uint64_t samples, period;
};

static int fkey_cmp(const void *pa, const void *pb)
{
	const struct fkey *a = pa, *b = pb;

	if (a->dso != b->dso)
		return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->name != b->name)
		return (uintptr_t)a->name < (uintptr_t)b->name ? -1 : 1;
	return 0;
}

static int by_period(const void *pa, const void *pb)
{
	const struct annot_func *a = pa, *b = pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct annot_func *annot_functions(const struct addr_count *counts, size_t ncounts, size_t *n,
				   uint64_t *unnamed_samples, uint64_t *unnamed_period)
{
	struct fkey *k = xreallocarray(NULL, ncounts ? ncounts : 1, sizeof(*k));
	struct annot_func *f;
	size_t nk = 0, nf = 0;

	for (size_t i = 0; i < ncounts; i++) {
		const struct addr_count *c = &counts[i];

		if (!c->func || !c->dso) {
			*unnamed_samples += c->samples;
			*unnamed_period += c->period;
			continue;
		}
		k[nk].dso = (struct dso *)c->dso;
		k[nk].name = c->func;
		k[nk].start = c->addr - c->sym_offset;
		k[nk].kernel = c->kernel;
		k[nk].samples = c->samples;
		k[nk].period = c->period;
		nk++;
	}
	qsort(k, nk, sizeof(*k), fkey_cmp);
	f = xcalloc(nk ? nk : 1, sizeof(*f));
	for (size_t i = 0; i < nk; i++) {
		if (nf && f[nf - 1].dso == k[i].dso && f[nf - 1].name == k[i].name &&
		    f[nf - 1].where.off == k[i].start) {
			f[nf - 1].samples += k[i].samples;
			f[nf - 1].period += k[i].period;
			continue;
		}
		f[nf].dso = k[i].dso;
		f[nf].name = k[i].name;
		f[nf].kernel = k[i].kernel;
		f[nf].where.off = k[i].start;	/* until annot_disassemble() */
		f[nf].samples = k[i].samples;
		f[nf].period = k[i].period;
		nf++;
	}
	free(k);
	qsort(f, nf, sizeof(*f), by_period);
	*n = nf;
	return f;
}

void annot_free_list(struct annot_func *f, size_t n)
{
	for (size_t i = 0; f && i < n; i++) {
		free(f[i].insn);
		free(f[i].lines);
	}
	free(f);
}

/* --- disassembly -------------------------------------------------------------- */

/* The instruction holding file offset off, or NULL. */
static struct annot_insn *insn_at(struct annot_func *f, uint64_t off)
{
	size_t lo = 0, hi = f->ninsn;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->insn[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || off - f->insn[lo - 1].off >= f->insn[lo - 1].nbytes)
		return NULL;
	return &f->insn[lo - 1];
}

/* The section of the file holding ELF address a, for a target no symbol names. */
static const char *section_of(Elf *elf, uint64_t a, uint64_t *start)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && a - sh.sh_addr < sh.sh_size) {
			*start = sh.sh_addr;
			return elf_strptr(elf, shstrndx, sh.sh_name);
		}
	return NULL;
}

/* The name of a branch's target: in f, by f's name; else what resolves it. */
static void name_target(struct annot_func *f, struct annot_insn *in)
{
	uint64_t toff, sstart;
	struct frame_info fi[64];
	const char *sec;
	int n;

	if (in->target - f->where.vaddr < f->where.size) {
		snprintf(in->target_name, sizeof(in->target_name), "%s+0x%llx", f->name,
			 (unsigned long long)(in->target - f->where.vaddr));
		return;
	}
	if (dso_offset_of(f->dso, in->target, &toff) &&
	    (n = dso_resolve(f->dso, toff, fi, 64)) > 0 && fi[n - 1].name) {
		if (fi[n - 1].sym_offset)
			snprintf(in->target_name, sizeof(in->target_name), "%s+0x%llx",
				 fi[n - 1].name, (unsigned long long)fi[n - 1].sym_offset);
		else
			snprintf(in->target_name, sizeof(in->target_name), "%s", fi[n - 1].name);
		return;
	}
	/* .plt entries and the like have no symbol: the section and the offset */
	sec = section_of(f->where.file->elf, in->target, &sstart);
	if (sec && sec[0])
		snprintf(in->target_name, sizeof(in->target_name), "%s+0x%llx", sec,
			 (unsigned long long)(in->target - sstart));
}

/* capstone's functions, opened when first needed (dynlib.h) */
static struct {
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	const char *(*strerror)(cs_err);
	bool (*insn_group)(csh, const cs_insn *, unsigned int);
	cs_insn *(*malloc)(csh);
	bool (*disasm_iter)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *);
	void (*free)(cs_insn *, size_t);
	cs_err (*close)(csh *);
} capst;
static const char *const cap_names[] = {
	"cs_open", "cs_option", "cs_strerror", "cs_insn_group",
	"cs_malloc", "cs_disasm_iter", "cs_free", "cs_close",
};
_Static_assert(sizeof(capst) == sizeof(cap_names) / sizeof(cap_names[0]) * sizeof(void *),
	       "a name for each of capstone's functions");
#define CAP_STR(x) #x
#define CAP_SONAME(major) "libcapstone.so." CAP_STR(major)

/* capstone for the file's machine; *step: bytes to skip past what it cannot decode */
static int open_capstone(Elf *elf, enum annot_syntax syntax, csh *h, unsigned *step,
			 const char **why)
{
	static char err[256];
	GElf_Ehdr eh;
	cs_err e;

	if (dynlib_open(CAP_SONAME(CS_API_MAJOR), "libcapstone" CAP_STR(CS_API_MAJOR), cap_names,
			&capst, sizeof(cap_names) / sizeof(cap_names[0]), err, sizeof(err))) {
		*why = err;
		return -1;
	}
	if (!elf || !gelf_getehdr(elf, &eh)) {
		*why = "its file is not ELF";
		return -1;
	}
	switch (eh.e_machine) {
	case EM_X86_64:
		e = capst.open(CS_ARCH_X86, CS_MODE_64, h);
		*step = 1;
		break;
	case EM_386:
		e = capst.open(CS_ARCH_X86, CS_MODE_32, h);
		*step = 1;
		break;
	case EM_AARCH64:
		e = capst.open(CS_ARCH_ARM64, CS_MODE_ARM, h);
		*step = 4;
		break;
	default:
		*why = "prof annotate disassembles x86-64, i386 and aarch64 code, not this machine's";
		return -1;
	}
	if (e != CS_ERR_OK) {
		*why = capst.strerror(e);
		return -1;
	}
	if (eh.e_machine != EM_AARCH64)
		capst.option(*h, CS_OPT_SYNTAX, syntax == ANNOT_INTEL ? CS_OPT_SYNTAX_INTEL
								   : CS_OPT_SYNTAX_ATT);
	capst.option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	return 0;
}

/* The immediate target of a jump or call, as capstone gives it: 1, or 0 for none. */
static int branch_target(csh h, const cs_insn *ci, int arm64, uint64_t *target)
{
	const cs_detail *d = ci->detail;
	int found = 0;

	if (!d || !(capst.insn_group(h, ci, CS_GRP_JUMP) || capst.insn_group(h, ci, CS_GRP_CALL)))
		return 0;
	if (arm64) {
		/* b, bl, b.cond, cbz's second, tbz's third: the last immediate */
		for (int i = 0; i < d->arm64.op_count; i++)
			if (d->arm64.operands[i].type == ARM64_OP_IMM) {
				*target = (uint64_t)d->arm64.operands[i].imm;
				found = 1;
			}
		return found;
	}
	for (int i = 0; i < d->x86.op_count; i++)
		if (d->x86.operands[i].type == X86_OP_IMM) {
			*target = (uint64_t)d->x86.operands[i].imm;
			return 1;
		}
	return 0;
}

static int line_cmp(const void *pa, const void *pb)
{
	const struct annot_line *a = pa, *b = pb;

	if (a->file != b->file)
		return (uintptr_t)a->file < (uintptr_t)b->file ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int line_by_period(const void *pa, const void *pb)
{
	const struct annot_line *a = pa, *b = pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->file != b->file)
		return !a->file ? 1 : !b->file ? -1 : strcmp(a->file, b->file);
	return a->line - b->line;
}

/*
 * A function's listing is bounded: a crafted symbol may claim a whole
 * file. 64K instructions (some 27 MB here) is more than any function a
 * compiler writes; the rest of one is said to be cut.
 */
#define ANNOT_MAX_BYTES	(4u << 20)
#define ANNOT_MAX_INSNS	65536

int annot_disassemble(struct annot_func *f, const struct addr_count *counts, size_t ncounts,
		      enum annot_syntax syntax)
{
	uint64_t start = f->where.off;
	const unsigned char *code;
	size_t left, cap = 0;
	uint64_t addr;
	csh h;
	cs_insn *ci;
	unsigned step;
	int arm64;
	const char *why = NULL;

	if (f->kernel) {
		f->no_code = "a kernel function: prof annotate reads code from ELF files, and the "
			     "kernel's image is not one here";
		return 0;
	}
	if (!dso_function_at(f->dso, start, &f->where)) {
		f->no_code = dso_is_jit(f->dso) ? "JIT code: its bytes are not in a file"
						 : "its file is not here, or has no symbol for it";
		return 0;
	}
	if (f->where.nobits) {
		f->no_code = "its file holds no code for it (a separate debug file?)";
		return 0;
	}
	if (f->where.size > ANNOT_MAX_BYTES)
		f->where.size = ANNOT_MAX_BYTES;
	if (open_capstone(f->where.file->elf, syntax, &h, &step, &why)) {
		f->no_code = why;
		return -1;
	}
	arm64 = step == 4;
	ci = capst.malloc(h);
	code = f->where.file->image + f->where.off;
	left = f->where.size;
	addr = f->where.vaddr;
	while (left && f->ninsn < ANNOT_MAX_INSNS) {
		struct annot_insn *in;
		const unsigned char *at = code;
		int ok = capst.disasm_iter(h, &code, &left, &addr, ci);

		f->insn = xgrow(f->insn, &cap, f->ninsn + 1, sizeof(*f->insn));
		in = &f->insn[f->ninsn++];
		memset(in, 0, sizeof(*in));
		if (!ok) {
			/* what it cannot decode: shown as bytes, and on */
			unsigned k = left < step ? (unsigned)left : step;

			in->vaddr = addr;
			in->nbytes = k;
			memcpy(in->bytes, at, k);
			snprintf(in->text, sizeof(in->text), "(bad)");
			code += k;
			left -= k;
			addr += k;
		} else {
			in->vaddr = ci->address;
			in->nbytes = ci->size < sizeof(in->bytes) ? ci->size : sizeof(in->bytes);
			memcpy(in->bytes, ci->bytes, in->nbytes);
			snprintf(in->text, sizeof(in->text), "%s%s%s", ci->mnemonic,
				 ci->op_str[0] ? " " : "", ci->op_str);
			in->branch = branch_target(h, ci, arm64, &in->target);
		}
		in->off = f->where.off + (in->vaddr - f->where.vaddr);
	}
	f->cut = left;
	capst.free(ci, 1);
	capst.close(&h);

	/* the samples: on the instruction they hit */
	for (size_t i = 0; i < ncounts; i++) {
		const struct addr_count *c = &counts[i];
		struct annot_insn *in;

		if (c->dso != f->dso || c->func != f->name || c->addr - c->sym_offset != start)
			continue;
		in = insn_at(f, c->addr);
		if (!in) {
			f->outside += c->samples;
			continue;
		}
		in->samples += c->samples;
		in->period += c->period;
	}
	/* each instruction's line, and targets' names */
	for (size_t i = 0; i < f->ninsn; i++) {
		struct annot_insn *in = &f->insn[i];
		struct frame_info fi[64];
		int n = dso_resolve(f->dso, in->off, fi, 64);

		if (n > 0 && fi[0].file && fi[0].line > 0) {
			in->file = fi[0].file;
			in->line = fi[0].line;
			if (in->file[0] != '/')
				in->comp_dir = dso_comp_dir(f->dso, in->off);
		}
		if (in->branch)
			name_target(f, in);
	}
	/* the lines: each instruction's samples on its line */
	f->lines = xcalloc(f->ninsn ? f->ninsn : 1, sizeof(*f->lines));
	for (size_t i = 0; i < f->ninsn; i++) {
		f->lines[i].file = f->insn[i].file;
		f->lines[i].line = f->insn[i].file ? f->insn[i].line : 0;
		f->lines[i].comp_dir = f->insn[i].comp_dir;
		f->lines[i].samples = f->insn[i].samples;
		f->lines[i].period = f->insn[i].period;
	}
	qsort(f->lines, f->ninsn, sizeof(*f->lines), line_cmp);
	for (size_t i = 0; i < f->ninsn; i++) {
		if (f->nlines && !line_cmp(&f->lines[f->nlines - 1], &f->lines[i])) {
			f->lines[f->nlines - 1].samples += f->lines[i].samples;
			f->lines[f->nlines - 1].period += f->lines[i].period;
		} else {
			f->lines[f->nlines++] = f->lines[i];
		}
	}
	qsort(f->lines, f->nlines, sizeof(*f->lines), line_by_period);
	return 0;
}
