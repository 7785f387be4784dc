// SPDX-License-Identifier: GPL-2.0-or-later
/* A function's samples by instruction and source line: see annot.h. */
#include "config.h"

#include <dis-asm.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annot.h"
#include "dynlib.h"
#include "objfile.h"
#include "symbols.h"
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

		if (!c->dso || (!c->func && dso_unknown(c->dso))) {
			*unnamed_samples += c->samples;
			*unnamed_period += c->period;
			continue;
		}
		k[nk].dso = (struct dso *)c->dso;
		k[nk].name = c->func;	/* NULL: the file's unnamed code, one "??" */
		k[nk].start = c->func ? c->addr - c->sym_offset : 0;
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
	/* a file's unnamed code: named as prof report's row */
	for (size_t i = 0; i < nf; i++)
		if (!f[i].name) {
			const char *dn = dso_short_name(f[i].dso);
			size_t len = strlen(dn) + 6;

			f[i].unnamed = 1;
			f[i].own_name = xmalloc(len);
			snprintf(f[i].own_name, len, "?? (%s)", dn);
			f[i].name = f[i].own_name;
		}
	qsort(f, nf, sizeof(*f), by_period);
	*n = nf;
	return f;
}

void annot_free_list(struct annot_func *f, size_t n)
{
	for (size_t i = 0; f && i < n; i++) {
		free(f[i].insn);
		free(f[i].lines);
		free(f[i].inl_names);
		free(f[i].own_name);
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

	if (!f->unnamed && in->target - f->where.vaddr < f->where.size) {
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
	sec = f->where.file ? section_of(f->where.file->elf, in->target, &sstart) : NULL;
	if (sec && sec[0])
		snprintf(in->target_name, sizeof(in->target_name), "%s+0x%llx", sec,
			 (unsigned long long)(in->target - sstart));
}

/*
 * GNU libopcodes, what objdump and perf annotate use: it decodes what
 * Debian's compilers and glibc emit (AVX-512, AMX, APX on x86-64; SVE2 on
 * aarch64), where capstone 4.0.2 showed glibc's evex functions as (bad).
 * Opened when first needed (dynlib.h). Debian's libbinutils has the
 * library for this machine's code; the cross binutils (binutils-aarch64-
 * linux-gnu, binutils-x86-64-linux-gnu) each one for another machine's, by
 * the same name with the Debian architecture for "system".
 */
struct opcodes {
	disassembler_ftype (*disassembler)(enum bfd_architecture, bool, unsigned long, bfd *);
	void (*init)(struct disassemble_info *, void *, fprintf_ftype, fprintf_styled_ftype);
	void (*init_for_target)(struct disassemble_info *);
	void (*free_target)(struct disassemble_info *);
};
static const char *const opc_names[] = {
	"disassembler", "init_disassemble_info", "disassemble_init_for_target",
	"disassemble_free_target",
};
_Static_assert(sizeof(struct opcodes) == sizeof(opc_names) / sizeof(opc_names[0]) * sizeof(void *),
	       "a name for each of libopcodes' functions");
static struct opcodes opc_lib[2];	/* this machine's code; another machine's */

/* What one instruction printed, and the last address it named. */
struct dis_text {
	char text[sizeof(((struct annot_insn *)0)->text)];
	size_t len;
	int has_addr;
	uint64_t addr;
};

__attribute__((format(printf, 2, 0)))
static int dis_vprintf(struct dis_text *t, const char *fmt, va_list ap)
{
	int n = vsnprintf(t->text + t->len, sizeof(t->text) - t->len, fmt, ap);

	if (n > 0)
		t->len += (size_t)n;
	if (t->len >= sizeof(t->text))
		t->len = sizeof(t->text) - 1;
	return n;
}

__attribute__((format(printf, 2, 3)))
static int dis_printf(void *stream, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = dis_vprintf(stream, fmt, ap);
	va_end(ap);
	return n;
}

__attribute__((format(printf, 3, 4)))
static int dis_styled(void *stream, enum disassembler_style style, const char *fmt, ...)
{
	va_list ap;
	int n;

	(void)style;
	va_start(ap, fmt);
	n = dis_vprintf(stream, fmt, ap);
	va_end(ap);
	return n;
}

/* An address in an operand: as a number (annot_insn's target_name names it) */
static void dis_address(bfd_vma a, struct disassemble_info *di)
{
	struct dis_text *t = di->stream;

	dis_printf(t, "0x%llx", (unsigned long long)a);
	t->has_addr = 1;
	t->addr = a;
}

struct disasm {
	struct opcodes *lib;
	struct disassemble_info di;
	disassembler_ftype decode;
	struct dis_text out;
	int arm64;
	unsigned step;			/* bytes to skip past what cannot be read */
};

/* The file name of the libopcodes that decodes machine code, in buf. */
static const char *opcodes_soname(int foreign, const char *debarch, char *buf, size_t len)
{
	const char *own = OPCODES_SONAME;
	size_t n = strlen(own);

	if (!foreign)
		return own;
	/* libopcodes-2.40-system.so -> libopcodes-2.40-arm64.so */
	if (n > 10 && !strcmp(own + n - 10, "-system.so") &&
	    snprintf(buf, len, "%.*s-%s.so", (int)(n - 10), own, debarch) < (int)len)
		return buf;
	return NULL;
}

static int open_disasm(Elf *elf, enum annot_syntax syntax, const unsigned char *code,
		       size_t len, uint64_t vaddr, struct disasm *d, const char **why)
{
	static char err[320];
	char name[128];
	const char *soname, *debarch, *package;
	enum bfd_architecture arch;
	unsigned long mach;
	int foreign;
	GElf_Ehdr eh;

	if (!elf || !gelf_getehdr(elf, &eh)) {
		*why = "its file is not ELF";
		return -1;
	}
	memset(d, 0, sizeof(*d));
	switch (eh.e_machine) {
	case EM_X86_64:
	case EM_386:
		arch = bfd_arch_i386;
		mach = eh.e_machine == EM_X86_64 ? bfd_mach_x86_64 : bfd_mach_i386_i386;
		debarch = "amd64";
		package = "binutils-x86-64-linux-gnu";
		d->step = 1;
#if defined(__x86_64__) || defined(__i386__)
		foreign = 0;
#else
		foreign = 1;
#endif
		break;
	case EM_AARCH64:
		arch = bfd_arch_aarch64;
		mach = bfd_mach_aarch64;
		debarch = "arm64";
		package = "binutils-aarch64-linux-gnu";
		d->step = 4;
		d->arm64 = 1;
#if defined(__aarch64__)
		foreign = 0;
#else
		foreign = 1;
#endif
		break;
	default:
		*why = "prof annotate disassembles x86-64, i386 and aarch64 code, not this machine's";
		return -1;
	}
	soname = opcodes_soname(foreign, debarch, name, sizeof(name));
	if (!soname) {
		snprintf(err, sizeof(err), "this prof's libopcodes (%s) decodes only this machine's "
			 "code, not %s", OPCODES_SONAME, d->arm64 ? "aarch64" : "x86");
		*why = err;
		return -1;
	}
	d->lib = &opc_lib[foreign];
	if (dynlib_open(soname, foreign ? package : "libbinutils (binutils)", opc_names, d->lib,
			sizeof(opc_names) / sizeof(opc_names[0]), err, sizeof(err))) {
		*why = err;
		return -1;
	}
	d->lib->init(&d->di, &d->out, dis_printf, dis_styled);
	d->di.arch = arch;
	d->di.mach = mach;
	d->di.endian = d->di.endian_code = BFD_ENDIAN_LITTLE;
	d->di.buffer = (bfd_byte *)code;
	d->di.buffer_length = len;
	d->di.buffer_vma = vaddr;
	d->di.print_address_func = dis_address;
	if (arch == bfd_arch_i386)
		d->di.disassembler_options = syntax == ANNOT_INTEL ? "intel" : "att";
	d->lib->init_for_target(&d->di);
	d->decode = d->lib->disassembler(arch, false, mach, NULL);
	if (!d->decode) {
		snprintf(err, sizeof(err), "%s does not decode %s code (install %s)", soname,
			 d->arm64 ? "aarch64" : "x86", package);
		d->lib->free_target(&d->di);
		*why = err;
		return -1;
	}
	return 0;
}

/* Whether an aarch64 mnemonic is a branch to an address in the instruction */
static int arm64_branch(const char *m, size_t n)
{
	static const char *const b[] = { "b", "bl", "cbz", "cbnz", "tbz", "tbnz" };

	if ((n > 2 && !strncmp(m, "b.", 2)) || (n > 3 && !strncmp(m, "bc.", 3)))
		return 1;
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		if (strlen(b[i]) == n && !strncmp(m, b[i], n))
			return 1;
	return 0;
}

/*
 * The instruction at addr into in: 0, or -1 when its bytes run past the
 * function's. The text as objdump shows it: aarch64's tab after the
 * mnemonic as x86's spaces, and no trailing blanks.
 */
static int disasm_one(struct disasm *d, uint64_t addr, struct annot_insn *in)
{
	struct dis_text *t = &d->out;
	char *tab;
	int n;

	t->len = 0;
	t->text[0] = 0;
	t->has_addr = 0;
	d->di.insn_info_valid = 0;
	d->di.target = 0;
	n = d->decode(addr, &d->di);
	if (n <= 0)
		return -1;
	in->vaddr = addr;
	in->nbytes = (unsigned)n < sizeof(in->bytes) ? (unsigned)n : sizeof(in->bytes);
	memcpy(in->bytes, d->di.buffer + (addr - d->di.buffer_vma), in->nbytes);
	while (t->len && (t->text[t->len - 1] == ' ' || t->text[t->len - 1] == '\t'))
		t->text[--t->len] = 0;
	if ((tab = strchr(t->text, '\t'))) {
		size_t m = (size_t)(tab - t->text);

		if (d->arm64 && arm64_branch(t->text, m) && t->has_addr) {
			in->branch = 1;
			in->target = t->addr;
		}
		snprintf(in->text, sizeof(in->text), "%.*s%*s%s", (int)m, t->text,
			 m < 6 ? (int)(7 - m) : 1, "", tab + 1);
		for (char *c = in->text; *c; c++)
			if (*c == '\t')
				*c = ' ';
	} else {
		snprintf(in->text, sizeof(in->text), "%s", t->text);
	}
	if (!d->arm64 && d->di.insn_info_valid &&
	    (d->di.insn_type == dis_branch || d->di.insn_type == dis_condbranch ||
	     d->di.insn_type == dis_jsr || d->di.insn_type == dis_condjsr) && t->has_addr) {
		in->branch = 1;
		in->target = d->di.target;
	}
	return n;
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

static void annot_lines(struct annot_func *f);

/* in's source line: the innermost of its n frames fi (n <= 0: none). */
static void insn_line(const struct annot_func *f, struct annot_insn *in,
		      const struct frame_info *fi, int n)
{
	if (n > 0 && fi[0].file && fi[0].line > 0) {
		in->file = fi[0].file;
		in->line = fi[0].line;
		if (in->file[0] != '/')
			in->comp_dir = dso_comp_dir(f->dso, in->off);
	}
}

/*
 * f unnamed: the instructions its samples hit, each decoded where it is
 * (no symbol says where the functions around it begin, so nothing between
 * them), in address order.
 */
static int disassemble_unnamed(struct annot_func *f, const struct addr_count *counts,
			       size_t ncounts, enum annot_syntax syntax)
{
	struct dso_func seg = { 0 };
	struct disasm d;
	size_t cap = 0;
	int open = 0;
	const char *why = NULL;

	for (size_t i = 0; i < ncounts && f->ninsn < ANNOT_MAX_INSNS; i++) {
		const struct addr_count *c = &counts[i];
		struct annot_insn *in;
		uint64_t vaddr;
		size_t left;

		if (c->dso != f->dso || c->func)
			continue;
		/* counts come by address: a new segment only where one ends */
		if (!open || c->addr - seg.off >= seg.size) {
			if (open)
				d.lib->free_target(&d.di);
			open = 0;
			if (!dso_code_at(f->dso, c->addr, &seg) || seg.nobits) {
				f->outside += c->samples;
				continue;
			}
			if (open_disasm(seg.file->elf, syntax, seg.file->image + seg.off, seg.size,
					seg.vaddr, &d, &why)) {
				f->no_code = why;
				return -1;
			}
			open = 1;
			f->where.file = seg.file;
		}
		vaddr = seg.vaddr + (c->addr - seg.off);
		left = seg.size - (c->addr - seg.off);
		f->insn = xgrow(f->insn, &cap, f->ninsn + 1, sizeof(*f->insn));
		in = &f->insn[f->ninsn++];
		memset(in, 0, sizeof(*in));
		if (disasm_one(&d, vaddr, in) <= 0 || in->nbytes > left) {
			memset(in, 0, sizeof(*in));
			in->vaddr = vaddr;
			in->nbytes = left < d.step ? (unsigned)left : d.step;
			memcpy(in->bytes, seg.file->image + c->addr, in->nbytes);
			snprintf(in->text, sizeof(in->text), "(bad)");
		}
		in->off = c->addr;
		in->samples = c->samples;
		in->period = c->period;
	}
	if (open)
		d.lib->free_target(&d.di);
	if (!f->ninsn) {
		f->no_code = "its file is not here, or holds no code where its samples are";
		return 0;
	}
	f->where.vaddr = f->insn[0].vaddr;
	f->where.size = f->insn[f->ninsn - 1].vaddr + f->insn[f->ninsn - 1].nbytes - f->insn[0].vaddr;
	f->where.off = f->insn[0].off;
	for (size_t i = 0; i < f->ninsn; i++) {
		struct annot_insn *in = &f->insn[i];
		struct frame_info fi[1];

		insn_line(f, in, fi, dso_resolve(f->dso, in->off, fi, 1));
		if (in->branch)
			name_target(f, in);
	}
	annot_lines(f);
	return 0;
}

int annot_disassemble(struct annot_func *f, const struct addr_count *counts, size_t ncounts,
		      enum annot_syntax syntax)
{
	uint64_t start = f->where.off;
	const unsigned char *code;
	size_t left, cap = 0;
	uint64_t addr;
	struct disasm d;
	const char *why = NULL;

	if (f->kernel) {
		f->no_code = "a kernel function: prof annotate reads code from ELF files, and the "
			     "kernel's image is not one here";
		return 0;
	}
	if (f->unnamed)
		return disassemble_unnamed(f, counts, ncounts, syntax);
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
	code = f->where.file->image + f->where.off;
	if (open_disasm(f->where.file->elf, syntax, code, f->where.size, f->where.vaddr, &d, &why)) {
		f->no_code = why;
		return -1;
	}
	left = f->where.size;
	addr = f->where.vaddr;
	while (left && f->ninsn < ANNOT_MAX_INSNS) {
		struct annot_insn *in;
		int n;

		f->insn = xgrow(f->insn, &cap, f->ninsn + 1, sizeof(*f->insn));
		in = &f->insn[f->ninsn++];
		memset(in, 0, sizeof(*in));
		n = disasm_one(&d, addr, in);
		if (n <= 0 || (size_t)n > left) {
			/* an instruction cut by the function's end: its bytes, as objdump */
			unsigned k = left < d.step ? (unsigned)left : d.step;

			memset(in, 0, sizeof(*in));
			in->vaddr = addr;
			in->nbytes = k;
			memcpy(in->bytes, code + (addr - f->where.vaddr), k);
			snprintf(in->text, sizeof(in->text), "(bad)");
			n = (int)k;
		}
		in->off = f->where.off + (in->vaddr - f->where.vaddr);
		left -= (size_t)n;
		addr += (uint64_t)n;
	}
	f->cut = left;
	d.lib->free_target(&d.di);

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
	/* each instruction's line and inline chain, and targets' names */
	for (size_t i = 0, cap_names = 0; i < f->ninsn; i++) {
		struct annot_insn *in = &f->insn[i];
		struct frame_info fi[64];
		int n = dso_resolve(f->dso, in->off, fi, 64);

		insn_line(f, in, fi, n);
		if (n > 1) {
			/* fi[0..n-1): inlined, innermost first; fi[n-1]: f itself */
			in->inl_at = (uint32_t)f->ninl_names;
			for (int k = 0; k < n - 1; k++) {
				f->inl_names = xgrow(f->inl_names, &cap_names, f->ninl_names + 1,
						     sizeof(*f->inl_names));
				f->inl_names[f->ninl_names++] = fi[k].name ? fi[k].name : "";
			}
			in->inl_n = (uint32_t)(n - 1);
			f->inl_samples += in->samples;
			f->inl_period += in->period;
		}
		if (in->branch)
			name_target(f, in);
	}
	annot_lines(f);
	return 0;
}

/* f's lines from its instructions: each instruction's samples on its line */
static void annot_lines(struct annot_func *f)
{
	free(f->lines);
	f->nlines = 0;
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
}

/* name in in's inline chain, as the chain spells it; NULL when not there */
static const char *chain_has(const struct annot_func *f, const struct annot_insn *in,
			     const char *name)
{
	for (uint32_t k = 0; k < in->inl_n; k++)
		if (!strcmp(f->inl_names[in->inl_at + k], name))
			return f->inl_names[in->inl_at + k];
	return NULL;
}

int annot_inlined_hit(const struct annot_func *f, const struct addr_count *counts,
		      size_t ncounts, const char *name)
{
	uint64_t start = f->where.off;

	for (size_t i = 0; i < ncounts; i++) {
		const struct addr_count *c = &counts[i];
		struct frame_info fi[64];
		int n;

		if (c->dso != f->dso || c->func != f->name || c->addr - c->sym_offset != start ||
		    !c->samples)
			continue;
		n = dso_resolve(f->dso, c->addr, fi, 64);
		for (int k = 0; k < n - 1; k++)
			if (fi[k].name && !strcmp(fi[k].name, name))
				return 1;
	}
	return 0;
}

void annot_focus(struct annot_func *f, const char *name)
{
	size_t kept = 0;

	const char *container = f->name;

	f->samples = f->period = f->outside = 0;
	f->own_samples = f->own_period = 0;
	f->inl_samples = f->inl_period = 0;
	for (size_t i = 0; i < f->ninsn; i++) {
		struct annot_insn *in = &f->insn[i];

		const char *as = chain_has(f, in, name);

		if (!as)
			continue;
		f->name = as;
		if (!strcmp(f->inl_names[in->inl_at], name)) {
			f->own_samples += in->samples;
			f->own_period += in->period;
		} else {
			f->inl_samples += in->samples;
			f->inl_period += in->period;
		}
		f->samples += in->samples;
		f->period += in->period;
		f->insn[kept++] = *in;
	}
	f->ninsn = kept;
	f->inlined_in = container;
	annot_lines(f);
}
