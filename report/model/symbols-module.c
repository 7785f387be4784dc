// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One mapped file (module.h): what formats and commands ask of a dso, its
 * name, build id, owner, file and code, found through the files layer
 * (symbols-files.c) and read from the ELF object (symbols-elf.c). Names
 * of addresses are the symbolizer's (dso_resolve(), symbols.c).
 */
#include "config.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "objfile.h"
#include "strpool.h"
#include "symbols.h"

#include "symbols-int.h"

const char *dso_short_name(const struct dso *d)
{
	return d->obj ? d->obj->short_name : d->kname ? d->kname : "[kernel.kallsyms]";
}

const char *dso_path(const struct dso *d)
{
	return d->obj ? d->obj->path : d->kname ? d->kname : "[kernel.kallsyms]";
}

const struct objfile *dso_file(const struct dso *d)
{
	if (!d->res || d->dead)
		return NULL;
	/* opened, or still to be: the file the symbolizer reads */
	if (d->res->state != OBJ_READY && d->res->state != OBJ_NEW)
		return NULL;
	return sy_obj_file(d->s, d->res);
}

int dso_is_anon(const struct dso *d)
{
	return d->obj && d->obj->anon;
}

int dso_is_jit(const struct dso *d)
{
	return dso_is_anon(d) || (d->obj && !strncmp(d->obj->path, "[JIT] tid ", 10));
}

size_t dso_build_id(const struct dso *d, const unsigned char **id)
{
	if (d->build_id_len) {
		*id = d->build_id;
		return d->build_id_len;
	}
	/* set when the file opened, and kept when symbols_trim() closes it */
	if (d->obj && d->obj->build_id) {
		*id = d->obj->build_id;
		return d->obj->build_id_len;
	}
	*id = NULL;
	return 0;
}

void dso_settle(struct dso *d)
{
	if (d->obj && !d->checked && !sy_answers_try(d))
		sy_dso_check(d);
}

int dso_unknown(const struct dso *d)
{
	return d->unknown;
}

/* d's file, opened: its object, or NULL when it resolves nothing. */
static struct elfobj *dso_open_obj(struct dso *d)
{
	if (!d->obj)
		return NULL;
	if (!d->checked)
		sy_dso_check(d);
	if (d->dead)
		return NULL;
	if (d->res->state == OBJ_NEW || d->s->ncloses || d->s->nreleased)
		sy_obj_settle(d->s, d->res);
	return d->res->state == OBJ_READY ? d->res : NULL;
}

/*
 * Whether the file has no bytes for out's code: a separate debug file keeps
 * the program headers, not the code; or out ends past the file.
 */
static void code_nobits(const struct elfobj *obj, struct dso_func *out)
{
	Elf *elf = obj->file->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) &&
		    out->vaddr - sh.sh_addr < sh.sh_size) {
			out->nobits = sh.sh_type == SHT_NOBITS;
			break;
		}
	if (out->off + out->size > obj->file->size || out->off + out->size < out->off)
		out->nobits = 1;
}

int dso_function_at(struct dso *d, uint64_t off, struct dso_func *out)
{
	struct elfobj *obj = dso_open_obj(d);
	const struct fsym *sym;
	const struct load *l;
	uint64_t a = 0;

	if (!obj || !sy_module_addr(obj, off, &a) || !(sym = sy_find_symbol(obj, a)) ||
	    sym->end <= sym->start)
		return 0;
	memset(out, 0, sizeof(*out));
	out->name = sy_intern_name_len(d->s, sym->name, sym->name_len);
	out->vaddr = sym->start - obj->bias;
	out->size = sym->end - sym->start;
	out->file = obj->file;
	l = sy_load_of_vaddr(obj, out->vaddr);
	if (!l)
		return 0;
	out->off = out->vaddr - l->vaddr + l->off;
	/* the segment's file bytes end where the function may not */
	if (out->size > l->size - (out->vaddr - l->vaddr))
		out->size = l->size - (out->vaddr - l->vaddr);
	code_nobits(obj, out);
	return 1;
}

/*
 * Whether d's file is there and is no ELF file (ld.so.cache, a locale
 * archive, a font: what programs map as data): nothing to name in it,
 * nothing to warn of.
 */
static int not_elf(const struct dso *d)
{
	unsigned char magic[4];
	int fd = d->obj && d->obj->where ? open(d->obj->where, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	return n >= 0 && (n < 4 || memcmp(magic, "\177ELF", 4));
}

static int data_at(struct dso *d, uint64_t off, int bss, const char **name, uint64_t *into)
{
	struct elfobj *obj;
	const struct fsym *sym;
	uint64_t a = 0;

	if (!d->checked && not_elf(d)) {
		d->checked = 1;
		d->dead = 1;
	}
	obj = dso_open_obj(d);
	if (!obj || !sy_data_addr(obj, off, bss, &a))
		return 0;
	/* a data object, or a function: an instruction fetched is data too (perf's) */
	sym = sy_find_data_symbol(obj, a);
	if (!sym && !(sym = sy_find_symbol(obj, a)))
		return 0;
	*name = sy_intern_name_len(d->s, sym->name, sym->name_len);
	*into = a - sym->start;
	return 1;
}

int dso_data_at(struct dso *d, uint64_t off, const char **name, uint64_t *into)
{
	return data_at(d, off, 0, name, into);
}

int dso_bss_at(struct dso *d, uint64_t off, const char **name, uint64_t *into)
{
	return data_at(d, off, 1, name, into);
}

int dso_code_at(struct dso *d, uint64_t off, struct dso_func *out)
{
	struct elfobj *obj = dso_open_obj(d);
	const struct load *l = obj ? sy_load_of_off(obj, off) : NULL;

	if (!l)
		return 0;
	memset(out, 0, sizeof(*out));
	out->off = l->off;
	out->size = l->size;
	out->vaddr = l->vaddr;
	out->file = obj->file;
	code_nobits(obj, out);
	return 1;
}

const char *dso_comp_dir(struct dso *d, uint64_t off)
{
	struct elfobj *obj = dso_open_obj(d);
	Dwfl_Line *l;
	const char *dir;
	uint64_t a;

	if (!obj || !sy_module_addr(obj, off, &a))
		return NULL;
	l = dwfl_module_getsrc(obj->mod, a);
	dir = l ? dwfl_line_comp_dir(l) : NULL;
	return dir ? strpool_intern(d->s->pool, dir) : NULL;
}

int dso_offset_of(struct dso *d, uint64_t vaddr, uint64_t *off)
{
	struct elfobj *obj = dso_open_obj(d);
	const struct load *l = obj ? sy_load_of_vaddr(obj, vaddr) : NULL;

	if (!l)
		return 0;
	*off = vaddr - l->vaddr + l->off;
	return 1;
}

uid_t dso_owner(const struct dso *d)
{
	const struct objfile *f = dso_file(d);
	struct stat st;

	if (!f || f->fd < 0)
		return (uid_t)-1;
	/*
	 * The file at the path the process mapped (or that path under
	 * --symfs, a tree the user gave) is whose program it is; a copy found
	 * by build id (the cache's, which root's perf made, debuginfod's) is
	 * not: then the file still at that path, else not known.
	 */
	{
		size_t n = strlen(f->path), m = strlen(dso_path(d));

		if (n >= m && !strcmp(f->path + n - m, dso_path(d)))
			return fstat(f->fd, &st) ? (uid_t)-1 : st.st_uid;
	}
	return stat(dso_path(d), &st) ? (uid_t)-1 : st.st_uid;
}
