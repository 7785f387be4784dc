// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PLT's entries as functions, named as perf names them: "labs@plt" for
 * the stub a call to labs goes through, ".plt" for the lazy binder's
 * header, "offset_0x1040@plt" where nothing names the entry. No symbol
 * table covers the PLT, so its samples read "?? (prog)" where perf
 * showed labs@plt (a hot loop calling a libc function: 14% of the
 * samples). The rules are perf's (tools/perf/util/symbol-elf.c,
 * dso__synthesize_plt_symbols, as of Linux 6.12, which fixed 6.1's entry
 * off by one): each entry of .rela.plt (or .rel.plt), in GOT order, is
 * one PLT entry after the header, in .plt.sec where the program has one
 * (x86 IBT), else in .plt; an IRELATIVE entry is named by the IFUNC at
 * its addend; on x86-64, each .plt.got entry is named by the .rela.dyn
 * symbol of the GOT slot its jump reads.
 */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#include "symbols-int.h"

#define PLT_MAX		(1u << 20)	/* entries believed of one table */
#define NAME_MAX_LEN	1000		/* of a name before its "@plt" */

/*
 * What is made: entries, and their names in one block, names; an entry's
 * name is an offset into it (off) until the block stops growing.
 */
struct made {
	struct fsym *f;
	size_t *off;
	size_t n, cap, ocap;
	char *names;
	size_t nlen, ncap;
	uint64_t *ifuncs;	/* the IFUNC symbols' addresses, sorted, once asked */
	size_t nifuncs;
	int ifuncs_read;
};

static void add(struct made *m, uint64_t start, uint64_t size, const char *a, size_t alen,
		const char *b)
{
	size_t blen = strlen(b);

	if (!alen && !*b)
		return;
	if (alen > NAME_MAX_LEN)
		alen = NAME_MAX_LEN;	/* perf's buffer: a crafted table's names stay small */
	m->f = xgrow(m->f, &m->cap, m->n + 1, sizeof(*m->f));
	m->off = xgrow(m->off, &m->ocap, m->n + 1, sizeof(*m->off));
	m->names = xgrow(m->names, &m->ncap, m->nlen + alen + blen + 1, 1);
	m->off[m->n] = m->nlen;
	memcpy(m->names + m->nlen, a, alen);
	memcpy(m->names + m->nlen + alen, b, blen + 1);
	m->f[m->n] = (struct fsym){ .start = start, .end = start + size,
				    .name_len = alen + blen, .die = 0 };
	m->nlen += alen + blen + 1;
	m->n++;
}

/* perf's get_plt_sizes(): the header's and an entry's size; 0 when unknown. */
static int plt_sizes(const GElf_Ehdr *eh, const GElf_Shdr *sh, uint64_t *hdr, uint64_t *ent)
{
	switch (eh->e_machine) {
	case EM_ARM:
		*hdr = 20;
		*ent = 12;
		return 1;
	case EM_AARCH64:
	case EM_LOONGARCH:
		*hdr = 32;
		*ent = 16;
		return 1;
	case EM_SPARC:
		*hdr = 48;
		*ent = 12;
		return 1;
	case EM_SPARCV9:
		*hdr = 128;
		*ent = 32;
		return 1;
	case EM_386:
	case EM_X86_64:
		*ent = sh->sh_entsize;
		if (*ent != 8 && *ent != 16)
			*ent = sh->sh_addralign == 8 ? 8 : 16;
		*hdr = *ent;
		return 1;
	default:
		*hdr = *ent = sh->sh_entsize;
		return *ent != 0;
	}
}

/* A relocation: where (its GOT slot), its symbol, its type, its addend. */
struct rel {
	uint64_t offset, addend;
	uint32_t sym, type;
};

static int rel_cmp(const void *pa, const void *pb)
{
	const struct rel *a = pa, *b = pb;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The relocations of section sh (REL or RELA), sorted by offset: how many (0: none). */
static size_t read_rels(Elf_Scn *scn, const GElf_Shdr *sh, struct rel **out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, k = 0;
	struct rel *r;

	*out = NULL;
	if (!d || !n || n > PLT_MAX || (sh->sh_type != SHT_RELA && sh->sh_type != SHT_REL))
		return 0;
	r = xcalloc(n, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		GElf_Rela ra;
		GElf_Rel rl;

		if (sh->sh_type == SHT_RELA && gelf_getrela(d, (int)i, &ra)) {
			r[k] = (struct rel){ ra.r_offset, (uint64_t)ra.r_addend,
					     (uint32_t)GELF_R_SYM(ra.r_info),
					     (uint32_t)GELF_R_TYPE(ra.r_info) };
			k++;
		} else if (sh->sh_type == SHT_REL && gelf_getrel(d, (int)i, &rl)) {
			r[k] = (struct rel){ rl.r_offset, 0, (uint32_t)GELF_R_SYM(rl.r_info),
					     (uint32_t)GELF_R_TYPE(rl.r_info) };
			k++;
		}
	}
	*out = r;
	return k;
}

/* A symbol table (the one a relocation section links to): its symbols and their strings. */
struct symtab {
	Elf_Data *syms, *strs;
	size_t strndx;
};

static int symtab_of(Elf *elf, const GElf_Shdr *rel, struct symtab *t)
{
	Elf_Scn *scn = rel->sh_link ? elf_getscn(elf, rel->sh_link) : NULL;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
		return 0;
	t->syms = elf_getdata(scn, NULL);
	t->strndx = sh.sh_link;
	t->strs = t->syms ? elf_getdata(elf_getscn(elf, sh.sh_link), NULL) : NULL;
	return t->syms && t->strs && t->strs->d_size;
}

/* Symbol i's name ("" when none, or not inside its string table). */
static const char *sym_name(const struct symtab *t, uint32_t i)
{
	GElf_Sym s;
	const char *strs = t->strs->d_buf;

	if (!gelf_getsym(t->syms, (int)i, &s) || s.st_name >= t->strs->d_size || !strs)
		return "";
	/* a name must end inside the table */
	if (!memchr(strs + s.st_name, '\0', t->strs->d_size - s.st_name))
		return "";
	return strs + s.st_name;
}

/* Whether an IFUNC symbol of obj's tables starts at address a (module address). */
static int ifunc_at(struct made *m, struct elfobj *obj, uint64_t a)
{
	if (!m->ifuncs_read) {
		int n = dwfl_module_getsymtab(obj->mod);
		size_t cap = 0;

		m->ifuncs_read = 1;
		for (int i = 1; i < n; i++) {
			GElf_Sym sym;
			GElf_Addr addr;

			if (dwfl_module_getsym_info(obj->mod, i, &sym, &addr, NULL, NULL, NULL) &&
			    GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) {
				m->ifuncs = xgrow(m->ifuncs, &cap, m->nifuncs + 1, sizeof(*m->ifuncs));
				m->ifuncs[m->nifuncs++] = addr;
			}
		}
		if (m->nifuncs)
			qsort(m->ifuncs, m->nifuncs, sizeof(*m->ifuncs), sy_u64_cmp);
	}
	return m->nifuncs && bsearch(&a, m->ifuncs, m->nifuncs, sizeof(*m->ifuncs), sy_u64_cmp);
}

/* x86-64 .plt.got: each entry's jump reads a GOT slot .rela.dyn names. */
static void plt_got(struct made *m, struct elfobj *obj, Elf *elf, const GElf_Ehdr *eh)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	GElf_Shdr sh, dsh;
	Elf_Scn *scn = sy_section_named(elf, ".plt.got", &sh), *dscn;
	Elf_Data *d;
	struct rel *r = NULL;
	struct symtab t;
	size_t nr = 0;

	if (!scn || !sh.sh_entsize || sh.sh_type == SHT_NOBITS || sh.sh_size / sh.sh_entsize > PLT_MAX)
		return;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size < sh.sh_size)
		return;		/* a table the file does not hold */
	if (eh->e_machine == EM_X86_64 && (dscn = sy_section_named(elf, ".rela.dyn", &dsh)) &&
	    symtab_of(elf, &dsh, &t))
		nr = read_rels(dscn, &dsh, &r);
	if (nr)
		qsort(r, nr, sizeof(*r), rel_cmp);
	for (uint64_t i = 0; i + sh.sh_entsize <= sh.sh_size; i += sh.sh_entsize) {
		const unsigned char *p = (const unsigned char *)d->d_buf + i;
		const char *name = "";
		char off[48];
		size_t k = 0;

		if (nr && sh.sh_entsize >= 6) {
			if (!memcmp(p, endbr64, 4))
				k = 4;
			if (p[k] == 0xf2)	/* bnd */
				k++;
			if (k + 6 <= sh.sh_entsize && p[k] == 0xff && p[k + 1] == 0x25) {
				/* little-endian, whatever this host is */
				int32_t disp = (int32_t)((uint32_t)p[k + 2] | (uint32_t)p[k + 3] << 8 |
							 (uint32_t)p[k + 4] << 16 | (uint32_t)p[k + 5] << 24);
				struct rel key, *hit;

				key.offset = sh.sh_addr + i + k + 6 + (uint64_t)(int64_t)disp;
				hit = bsearch(&key, r, nr, sizeof(*r), rel_cmp);
				if (hit && hit->sym)
					name = sym_name(&t, hit->sym);
			}
		}
		if (*name) {
			add(m, sh.sh_addr + i + obj->bias, sh.sh_entsize, name, strlen(name), "@plt");
		} else {
			snprintf(off, sizeof(off), "offset_%#" PRIx64 "@plt", sh.sh_offset + i);
			add(m, sh.sh_addr + i + obj->bias, sh.sh_entsize, "", 0, off);
		}
	}
	free(r);
}

static void plt_entries(struct made *m, struct elfobj *obj, Elf *elf, const GElf_Ehdr *eh)
{
	GElf_Shdr plt, sec, rsh;
	Elf_Scn *rscn;
	uint64_t hdr, ent, at, off, hdr_end, end;
	struct symtab t;
	struct rel *r;
	size_t nr;
	int x86 = eh->e_machine == EM_386 || eh->e_machine == EM_X86_64, lazy = 1;

	if (!sy_section_named(elf, ".plt", &plt) || !plt_sizes(eh, &plt, &hdr, &ent))
		return;
	hdr_end = hdr;
	if (x86)
		plt_got(m, obj, elf, eh);
	at = plt.sh_addr;
	off = plt.sh_offset;
	end = plt.sh_addr + plt.sh_size;
	if (x86 && sy_section_named(elf, ".plt.sec", &sec)) {
		if (!plt_sizes(eh, &sec, &hdr, &ent))
			return;
		hdr_end = plt.sh_size;	/* the whole .plt is the binder's */
		at = sec.sh_addr;
		off = sec.sh_offset;
		end = sec.sh_addr + sec.sh_size;
		lazy = 0;
	}
	rscn = sy_section_named(elf, ".rela.plt", &rsh);
	if (!rscn)
		rscn = sy_section_named(elf, ".rel.plt", &rsh);
	if (!rscn || !symtab_of(elf, &rsh, &t) || !(nr = read_rels(rscn, &rsh, &r)))
		return;
	/* a .plt of just as many entries is not lazy: no header */
	if (lazy && nr * ent == plt.sh_size) {
		hdr_end = 0;
	} else if (lazy) {
		at += hdr;
		off += hdr;
	}
	if (hdr_end)
		add(m, plt.sh_addr + obj->bias, hdr_end, ".plt", 4, "");
	/* x86 puts IRELATIVE relocations out of the PLT's order */
	if (x86)
		qsort(r, nr, sizeof(*r), rel_cmp);
	for (size_t i = 0; i < nr && at + ent <= end; i++, at += ent, off += ent) {
		const char *name = r[i].sym ? sym_name(&t, r[i].sym) : "";
		char buf[48];

		if (!*name && eh->e_machine == EM_X86_64 && r[i].type == R_X86_64_IRELATIVE &&
		    rsh.sh_type == SHT_RELA) {
			/* an IFUNC's call: named by the IFUNC its addend is */
			const struct fsym *f = sy_find_symbol(obj, r[i].addend + obj->bias);

			if (f && f->start == r[i].addend + obj->bias && ifunc_at(m, obj, f->start)) {
				add(m, at + obj->bias, ent, f->name, f->name_len, "@plt");
				continue;
			}
		}
		if (*name) {
			add(m, at + obj->bias, ent, name, strlen(name), "@plt");
		} else {
			snprintf(buf, sizeof(buf), "offset_%#" PRIx64 "@plt", off);
			add(m, at + obj->bias, ent, "", 0, buf);
		}
	}
	free(r);
}

size_t sy_plt_symbols(struct elfobj *obj, Elf *elf, const GElf_Ehdr *eh, struct fsym **out,
		      char **names)
{
	struct made m = { 0 };

	plt_entries(&m, obj, elf, eh);
	free(m.ifuncs);
	for (size_t i = 0; i < m.n; i++)
		m.f[i].name = m.names + m.off[i];
	free(m.off);
	*out = m.f;
	*names = m.names;
	return m.n;
}
