// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF file's function symbols (.symtab, else .dynsym, plus .gopclntab's
 * and the entry point), sorted once and binary-searched; its loadable
 * segments, by which addresses become file offsets; its build id.
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libiberty/demangle.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buildid.h"
#include "file.h"
#include "htab.h"
#include "kallsyms.h"
#include "objfile.h"
#include "strpool.h"
#include "symbols.h"
#include "gosym.h"
#include "xalloc.h"


#include "symbols-int.h"

/* --- ELF files ------------------------------------------------------------ */

/*
 * Which of two symbols at one address names it: perf's choice, so that the
 * two tools agree: sized, not weak, global, fewer leading '_', longer; 0
 * for a tie, which perf gives to the one first in the table
 * (pthread_rwlock_rdlock@GLIBC_2.2.5 over pthread_rwlock_rdlock@@GLIBC_2.34).
 */
static int sym_rank_cmp(const GElf_Sym *a, const char *an, const GElf_Sym *b, const char *bn)
{
	size_t ua = strspn(an, "_"), ub = strspn(bn, "_");
	size_t la, lb;

	if (!a->st_size != !b->st_size)
		return a->st_size ? -1 : 1;
	if ((GELF_ST_BIND(a->st_info) == STB_WEAK) != (GELF_ST_BIND(b->st_info) == STB_WEAK))
		return GELF_ST_BIND(a->st_info) == STB_WEAK ? 1 : -1;
	if ((GELF_ST_BIND(a->st_info) == STB_GLOBAL) != (GELF_ST_BIND(b->st_info) == STB_GLOBAL))
		return GELF_ST_BIND(a->st_info) == STB_GLOBAL ? -1 : 1;
	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(an);
	lb = strlen(bn);
	if (la != lb)
		return la > lb ? -1 : 1;
	return 0;
}

struct rawsym {
	struct fsym f;
	GElf_Sym sym;
	uint64_t sec_end;	/* end of its section, for sizeless symbols */
	int idx;		/* its place in the table: a tie goes to the first */
};

static int rawsym_cmp(const void *pa, const void *pb)
{
	const struct rawsym *a = pa, *b = pb;
	int r;

	if (a->f.start != b->f.start)
		return a->f.start < b->f.start ? -1 : 1;
	r = sym_rank_cmp(&a->sym, a->f.name, &b->sym, b->f.name);
	return r ? r : a->idx - b->idx;
}

/*
 * The function symbols of the module (.symtab of the file or of its debug
 * file, else .dynsym, plus MiniDebugInfo: what libdwfl chose), sorted once.
 * dwfl_module_addrsym looks through the whole table on every call, which a
 * profile with many distinct addresses cannot afford. The rules are its
 * own: a sized symbol containing the address wins; failing that, a sizeless
 * one (assembly) reaches to the next symbol or the end of its section, and
 * never from inside a sized symbol.
 */
static void index_symbols(struct elfobj *obj)
{
	int n = dwfl_module_getsymtab(obj->mod);
	struct rawsym *raw;
	size_t nraw = 0, k = 0;
	uint64_t maxend = 0;

	if (n <= 1)
		return;
	raw = xcalloc((size_t)n, sizeof(*raw));
	for (int i = 1; i < n; i++) {
		struct rawsym *r = &raw[nraw];
		GElf_Addr addr, bias;
		GElf_Word shndx;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(obj->mod, i, &r->sym, &addr, &shndx,
							   &elf, &bias);
		int type = GELF_ST_TYPE(r->sym.st_info);
		GElf_Shdr shdr;

		if (!name || !name[0] || r->sym.st_shndx == SHN_UNDEF)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
			continue;
		/* shndx is -1 outside SHF_ALLOC sections; ABS and COMMON are no code. */
		if (shndx == (GElf_Word)-1 || shndx == SHN_UNDEF ||
		    (shndx >= SHN_LORESERVE && shndx <= SHN_HIRESERVE))
			continue;
		r->sec_end = UINT64_MAX;
		if (type == STT_NOTYPE || r->sym.st_size == 0) {
			Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;

			if (!scn || !gelf_getshdr(scn, &shdr))
				continue;
			/* An untyped label is code only in code. */
			if (type == STT_NOTYPE && !(shdr.sh_flags & SHF_EXECINSTR))
				continue;
			r->sec_end = shdr.sh_addr + shdr.sh_size + bias;
		}
		if (r->sym.st_size && addr + r->sym.st_size < addr)
			continue;
		r->f.start = addr;
		r->f.end = addr + r->sym.st_size;
		r->f.name = name;
		/*
		 * As the table says it: .symtab keeps the version of a .symver
		 * name (glibc's cfree@GLIBC_2.2.5 at free), and perf shows it.
		 */
		r->f.name_len = strlen(name);
		r->idx = i;
		nraw++;
	}
	qsort(raw, nraw, sizeof(*raw), rawsym_cmp);

	obj->syms = xcalloc(nraw ? nraw : 1, sizeof(*obj->syms));
	obj->maxend = xcalloc(nraw ? nraw : 1, sizeof(*obj->maxend));
	for (size_t i = 0; i < nraw; i++) {
		struct rawsym *r = &raw[i];

		/* The first at an address is the best (rawsym_cmp): aliases go. */
		if (i && raw[i - 1].f.start == r->f.start)
			continue;
		if (!r->sym.st_size) {
			size_t j = i + 1;

			if (r->f.start < maxend)
				continue;	/* a label inside a sized symbol */
			while (j < nraw && raw[j].f.start == r->f.start)
				j++;
			r->f.end = j < nraw && raw[j].f.start < r->sec_end ? raw[j].f.start
									     : r->sec_end;
			if (r->f.end <= r->f.start)
				continue;
		}
		if (r->f.end > maxend)
			maxend = r->f.end;
		obj->syms[k] = r->f;
		obj->maxend[k] = maxend;
		k++;
	}
	obj->nsyms = k;
	free(raw);
}

/* Whether a symbol of obj's own tables starts at a. */
static int starts_at(const struct elfobj *obj, uint64_t a)
{
	size_t lo = 0, hi = obj->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj->syms[mid].start < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < obj->nsyms && obj->syms[lo].start == a;
}

static int fsym_cmp(const void *pa, const void *pb)
{
	const struct fsym *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

/* The ELF section named name, or NULL. */
Elf_Scn *sy_section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/*
 * Names the symbol tables lack, put among obj's symbols:
 * - a Go program's functions from its own table, .gopclntab, which Go
 *   keeps in a stripped binary too (hugo: 73% of its samples unnamed);
 *   only where there is no .symtab, which would name them already;
 * - the PLT's entries, as perf names them: labs@plt (symbols-plt.c);
 * - the entry point the ELF header gives, as _start, where no symbol
 *   covers it (a stripped program's _start read 'sqlite3+0xa7a1'): up to
 *   the next symbol, 64 bytes at most (glibc's is 38 on x86-64).
 */
static void extra_symbols(struct elfobj *obj, Elf *elf, const GElf_Ehdr *eh)
{
	struct fsym *extra = NULL;
	size_t nextra = 0, cap = 0;
	GElf_Shdr sh, text;
	Elf_Scn *scn;
	Elf_Data *d;

	if (!sy_section_named(elf, ".symtab", &sh) && (scn = sy_section_named(elf, ".gopclntab", &sh)) &&
	    sh.sh_type != SHT_NOBITS && (d = elf_getdata(scn, NULL)) && d->d_buf) {
		struct gofunc *gf;
		uint64_t t = sy_section_named(elf, ".text", &text) ? text.sh_addr : 0;
		size_t n = gosym_read(d->d_buf, d->d_size, t, &gf);

		extra = xgrow(extra, &cap, n + 1, sizeof(*extra));
		for (size_t i = 0; i < n; i++) {
			if (starts_at(obj, gf[i].start + obj->bias))
				continue;	/* .dynsym's (cgo): the symbol table's wins */
			extra[nextra].start = gf[i].start + obj->bias;
			extra[nextra].end = gf[i].end + obj->bias;
			extra[nextra].name = gf[i].name;
			extra[nextra].name_len = strlen(gf[i].name);
			extra[nextra++].die = 0;
		}
		free(gf);
	}
	{
		struct fsym *plt;
		size_t n = sy_plt_symbols(obj, elf, eh, &plt, &obj->made_names);

		extra = xgrow(extra, &cap, nextra + n + 1, sizeof(*extra));
		for (size_t i = 0; i < n; i++)
			if (!starts_at(obj, plt[i].start))	/* a table's symbol there wins */
				extra[nextra++] = plt[i];
		free(plt);
	}
	if (eh->e_entry && !sy_find_symbol(obj, eh->e_entry + obj->bias)) {
		uint64_t start = eh->e_entry + obj->bias, end = start + 64;
		int covered = 0;

		for (size_t i = 0; i < obj->nsyms; i++)
			if (obj->syms[i].start > start && obj->syms[i].start < end)
				end = obj->syms[i].start;
		for (size_t i = 0; i < nextra; i++) {
			covered |= extra[i].start <= start && start < extra[i].end;
			if (extra[i].start > start && extra[i].start < end)
				end = extra[i].start;
		}
		if (!covered) {
			extra = xgrow(extra, &cap, nextra + 1, sizeof(*extra));
			extra[nextra].start = start;
			extra[nextra].end = end;
			extra[nextra].name = "_start";
			extra[nextra].name_len = 6;
			extra[nextra++].die = 0;
		}
	}
	if (!nextra) {
		free(extra);
		return;
	}
	/* merged and sorted again; no two start at one address (starts_at()) */
	obj->syms = xreallocarray(obj->syms, obj->nsyms + nextra, sizeof(*obj->syms));
	memcpy(obj->syms + obj->nsyms, extra, nextra * sizeof(*extra));
	free(extra);
	qsort(obj->syms, obj->nsyms + nextra, sizeof(*obj->syms), fsym_cmp);
	{
		size_t k = 0;
		uint64_t maxend = 0;

		obj->maxend = xreallocarray(obj->maxend, obj->nsyms + nextra, sizeof(*obj->maxend));
		for (size_t i = 0; i < obj->nsyms + nextra; i++) {
			obj->syms[k] = obj->syms[i];
			if (obj->syms[k].end > maxend)
				maxend = obj->syms[k].end;
			obj->maxend[k++] = maxend;
		}
		obj->nsyms = k;
	}
}

struct fsym *sy_find_symbol(const struct elfobj *obj, uint64_t a)
{
	size_t lo = 0, hi = obj->nsyms;

	/* The last symbol starting at or before a ... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj->syms[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ... or, when it ends before a, an earlier one that holds it. */
	for (size_t i = lo, seen = 0; i-- > 0 && seen < SCAN_MAX; seen++) {
		if (obj->maxend[i] <= a)
			break;
		if (a < obj->syms[i].end)
			return &obj->syms[i];
	}
	return NULL;
}

static int dsym_cmp(const void *pa, const void *pb)
{
	const struct fsym *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	/* aliases at one address: the longest first, then by name, for one answer */
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The data objects of the module's symbol table: sized STT_OBJECTs in allocated sections. */
static void index_data_symbols(struct elfobj *obj)
{
	int n = obj->mod ? dwfl_module_getsymtab(obj->mod) : 0;
	size_t k = 0;

	obj->dsyms_made = 1;
	if (n <= 1)
		return;
	obj->dsyms = xcalloc((size_t)n, sizeof(*obj->dsyms));
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr, bias;
		GElf_Word shndx;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(obj->mod, i, &sym, &addr, &shndx,
							   &elf, &bias);

		if (!name || !name[0] || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || !sym.st_size ||
		    sym.st_shndx == SHN_UNDEF || shndx == (GElf_Word)-1 || shndx == SHN_UNDEF ||
		    (shndx >= SHN_LORESERVE && shndx <= SHN_HIRESERVE) || addr + sym.st_size < addr)
			continue;
		obj->dsyms[k].start = addr;
		obj->dsyms[k].end = addr + sym.st_size;
		obj->dsyms[k].name = name;
		obj->dsyms[k].name_len = strlen(name);
		k++;
	}
	qsort(obj->dsyms, k, sizeof(*obj->dsyms), dsym_cmp);
	obj->ndsyms = k;
}

const struct fsym *sy_find_data_symbol(struct elfobj *obj, uint64_t a)
{
	size_t lo = 0, hi;

	if (!obj->dsyms_made)
		index_data_symbols(obj);
	hi = obj->ndsyms;
	/* the last object starting at or before a; objects do not nest */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (obj->dsyms[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* among the aliases starting where it does, the first holding a */
	while (lo > 0 && obj->dsyms[lo - 1].start <= a) {
		size_t first = lo - 1;

		while (first > 0 && obj->dsyms[first - 1].start == obj->dsyms[lo - 1].start)
			first--;
		return a < obj->dsyms[first].end ? &obj->dsyms[first] : NULL;
	}
	return NULL;
}

void sy_free_data_symbols(struct elfobj *obj)
{
	free(obj->dsyms);
	obj->dsyms = NULL;
	obj->ndsyms = 0;
	obj->dsyms_made = 0;
}

int sy_data_addr(const struct elfobj *obj, uint64_t off, int bss, uint64_t *a)
{
	const struct objfile *f = obj->file;

	/* a segment's file bytes, and the bss in the rest of its last page */
	for (size_t i = 0; f && i < f->nload; i++) {
		const GElf_Phdr *ph = &f->load[i];
		uint64_t len = ph->p_filesz, page_end;

		if (ph->p_offset + ph->p_filesz < ph->p_offset)
			continue;
		page_end = ((ph->p_offset + ph->p_filesz + 4095) & ~(uint64_t)4095) - ph->p_offset;
		/* the bss in the last page; with bss, past it too, as if the file mapped on */
		if (ph->p_memsz > len)
			len = bss || ph->p_memsz < page_end ? ph->p_memsz : page_end;
		if (off >= ph->p_offset && off - ph->p_offset < len) {
			*a = off - ph->p_offset + ph->p_vaddr + obj->bias;
			return 1;
		}
	}
	return 0;
}

/* The file's loadable segments with bytes in the file. */
static void load_segments(struct elfobj *obj)
{
	const struct objfile *f = obj->file;

	obj->loads = xcalloc(f->nload ? f->nload : 1, sizeof(*obj->loads));
	for (size_t i = 0; i < f->nload; i++) {
		const GElf_Phdr *ph = &f->load[i];

		if (!ph->p_filesz || ph->p_offset + ph->p_filesz < ph->p_offset)
			continue;
		obj->loads[obj->nloads].off = ph->p_offset;
		obj->loads[obj->nloads].size = ph->p_filesz;
		obj->loads[obj->nloads].vaddr = ph->p_vaddr;
		obj->nloads++;
	}
}

/* Open, report to libdwfl and index the file; on failure say why, once. */
void sy_obj_open(struct symbols *s, struct elfobj *obj)
{
	const char *path = obj->path;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int fd, err = 0;
	GElf_Ehdr eh;
	Elf *elf;

	obj->state = OBJ_BROKEN;
	obj->used = obj->opened = sy_now();
	if (obj->closed) {
		obj->closed = 0;
		s->nreopens++;
	}
	if (sy_ends_with(path, " (deleted)") && !strcmp(obj->where, path)) {
		sy_obj_warn(obj, "%.*s was deleted after it was mapped",
		     (int)(strlen(path) - strlen(" (deleted)")), path);
		return;
	}
	/* the one open of the file, which the unwinder reads too */
	sy_obj_file(s, obj);
	if (obj->file->fd < 0) {
		err = obj->file->err;
		sy_obj_warn(obj, "cannot open %s: %s", obj->where,
		     err == ENODEV ? "not a regular file" : strerror(err));
		return;
	}
	fd = dup(obj->file->fd);	/* libdwfl's own, to close */
	if (fd < 0) {
		sy_obj_warn(obj, "cannot open %s: %s", obj->where, strerror(errno));
		return;
	}

	obj->dwfl = dwfl_begin(&s->cb);
	if (!obj->dwfl) {
		sy_obj_warn(obj, "cannot open %s: %s", obj->where, dwfl_errmsg(-1));
		close(fd);
		return;
	}
	dwfl_report_begin(obj->dwfl);
	/* Base 0, p_vaddr added: module addresses are the ELF's own vaddrs. */
	obj->mod = dwfl_report_elf(obj->dwfl, base, obj->where, fd, 0, true);
	if (!obj->mod) {
		/* libdwfl takes the descriptor only when it succeeds. */
		sy_obj_warn(obj, "cannot open %s: %s", obj->where, dwfl_errmsg(-1));
		close(fd);
		return;
	}
	dwfl_report_end(obj->dwfl, NULL, NULL);
	elf = dwfl_module_getelf(obj->mod, &obj->bias);
	if (!elf) {
		sy_obj_warn(obj, "cannot open %s: %s", obj->where, dwfl_errmsg(-1));
		return;
	}
	if (!gelf_getehdr(elf, &eh)) {
		sy_obj_warn(obj, "cannot open %s: %s", obj->where, elf_errmsg(-1));	/* libelf's */
		return;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		sy_obj_warn(obj, "cannot open %s: not an executable or a shared library", obj->where);
		return;
	}
	load_segments(obj);
	/*
	 * Once, and a copy: an encoder on another thread may read it
	 * (dso_build_id()), after symbols_release() closed the file. An open
	 * again is of the same file (its id).
	 */
	if (!obj->build_id && obj->file->build_id && obj->file->build_id_len <= BUILD_ID_MAX) {
		memcpy(obj->bid, obj->file->build_id, obj->file->build_id_len);
		obj->build_id_len = obj->file->build_id_len;
		obj->build_id = obj->bid;
	}
	index_symbols(obj);
	extra_symbols(obj, elf, &eh);
	obj->state = OBJ_READY;
}

int build_id_equal(const unsigned char *recorded, size_t recorded_len,
		   const unsigned char *file, size_t file_len)
{
	if (!file || !file_len || file_len > recorded_len)
		return 0;
	if (memcmp(recorded, file, file_len))
		return 0;
	for (size_t i = file_len; i < recorded_len; i++)
		if (recorded[i])
			return 0;
	return 1;
}

int sy_build_id_matches(const struct dso *d, const struct elfobj *obj)
{
	return build_id_equal(d->build_id, d->build_id_len, obj->build_id, obj->build_id_len);
}

void sy_release_pages(struct elfobj *obj)
{
	int due[3] = { release_due(&obj->rel[0]), release_due(&obj->rel[1]),
		       release_due(&obj->rel[2]) };
	Dwarf_Addr b;
	Dwarf *dw;
	Elf *e;
	const char *image, *raw = NULL, *dwraw = NULL;
	size_t len = 0, dwlen = 0;

	if (!due[0] && !due[1] && !due[2])
		return;
	dw = obj->dwarf_read && obj->mod ? dwfl_module_getdwarf(obj->mod, &b) : NULL;
	e = obj->mod ? dwfl_module_getelf(obj->mod, &b) : NULL;
	image = obj->file ? (const char *)obj->file->image : NULL;
	if (e && (raw = elf_rawfile(e, &len)) == image)
		raw = NULL;
	e = dw ? dwarf_getelf(dw) : NULL;
	if (e && ((dwraw = elf_rawfile(e, &dwlen)) == raw || dwraw == image))
		dwraw = NULL;
	sy_release_one(&obj->rel[0], due[0], image, image ? obj->file->size : 0);
	sy_release_one(&obj->rel[1], due[1], raw, len);
	sy_release_one(&obj->rel[2], due[2], dwraw, dwlen);
}

/*
 * libdw finds the unit of a DIE offset by reading the header of every unit
 * before it (__libdw_findcu), and a small unit's header is a page of
 * .debug_info to itself: the index's first look-up deep into the file made
 * most of .debug_info resident (4.4 MB of libc6-dbg's, 6.8 MB of a
 * CPython built with -g) for the few hundred functions a report reads.
 * Read the headers now, a stretch at a time, letting each stretch's pages
 * go once read (as kallsyms.c does with its cache): those used come back
 * from the page cache (file_pages_release(): a page a write copied stays).
 */
#define RELEASE_STRETCH	((uint64_t)1 << 20)

int sy_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void sy_release_units(Dwarf *dw, uint64_t *offs, size_t n)
{
	Elf *elf = dwarf_getelf(dw);
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), base, done;
	GElf_Shdr sh;
	const char *raw;
	size_t rawlen;
	uint64_t next;

	if (!elf || n < 2 || page - 1 >= 1 << 20 || (page & (page - 1)))
		return;
	raw = elf_rawfile(elf, &rawlen);
	if (!raw || !sy_section_named(elf, ".debug_info", &sh) || sh.sh_type == SHT_NOBITS ||
	    (sh.sh_flags & SHF_COMPRESSED) || sh.sh_offset > rawlen ||
	    sh.sh_size > rawlen - sh.sh_offset || sh.sh_size < 2 * RELEASE_STRETCH)
		return;
	base = (uintptr_t)raw + sh.sh_offset;
	done = (base + page - 1) & ~(page - 1);	/* released up to here */
	qsort(offs, n, sizeof(*offs), sy_u64_cmp);
	next = offs[0] + RELEASE_STRETCH;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Die d;
		uintptr_t upto;

		if (offs[i] < next && i + 1 < n)
			continue;
		if (offs[i] >= sh.sh_size || !dwarf_offdie(dw, offs[i], &d))
			break;
		/* the unit holding offs[i] is read: what lies before it was only headers */
		upto = (base + (uintptr_t)offs[i]) & ~(page - 1);
		if (upto > done) {
			file_pages_release((const void *)done, upto - done, 0);
			done = upto;
		}
		next = offs[i] + RELEASE_STRETCH;
	}
}

/*
 * obj's file, opened when it is not: the file its id names, or what its
 * where names now. An object with a file is in the walk.
 */
const struct objfile *sy_obj_file(struct symbols *s, struct elfobj *obj)
{
	if (!obj->file)
		obj->file = objfiles_get_id(s->files, obj->where, &obj->id);
	if (!obj->walked) {
		s->walk = xgrow(s->walk, &s->walk_cap, s->nwalk + 1, sizeof(*s->walk));
		s->walk[s->nwalk++] = obj;
		obj->walked = 1;
	}
	return obj->file;
}

/* The loadable segment of obj holding file offset off, or NULL. */
const struct load *sy_load_of_off(const struct elfobj *obj, uint64_t off)
{
	for (size_t i = 0; i < obj->nloads; i++)
		if (off - obj->loads[i].off < obj->loads[i].size)
			return &obj->loads[i];
	return NULL;
}

/* The module address of file offset off of obj: 1, or 0 when no segment holds it. */
int sy_module_addr(const struct elfobj *obj, uint64_t off, uint64_t *a)
{
	const struct load *l = sy_load_of_off(obj, off);

	if (!l)
		return 0;
	*a = off - l->off + l->vaddr + obj->bias;
	return 1;
}

/* The segment holding ELF address vaddr of obj's file, or NULL. */
const struct load *sy_load_of_vaddr(const struct elfobj *obj, uint64_t vaddr)
{
	for (size_t i = 0; i < obj->nloads; i++)
		if (vaddr - obj->loads[i].vaddr < obj->loads[i].size)
			return &obj->loads[i];
	return NULL;
}
