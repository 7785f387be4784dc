// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols: file offsets of mapped ELF files and kernel addresses turned into
 * function names, inline chains and source lines, each answer computed once.
 * This file is the interface: a dso's address resolved, through the
 * answers cache, the kernel's or a file's symbols and DWARF. The layers
 * below it, each calling only those under it, are listed in
 * symbols-core.c; symbols-int.h holds the state they share.
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
#include "debugcache.h"
#include "file.h"
#include "htab.h"
#include "kallsyms.h"
#include "objfile.h"
#include "strpool.h"
#include "symbols.h"
#include "gosym.h"
#include "xalloc.h"


#include "symbols-int.h"

/* --- resolving a file's address ------------------------------------------- */

/* The frames of module address a, appended to s->frames; their count. */
static int resolve_file(struct symbols *s, struct elfobj *obj, uint64_t off)
{
	struct fsym *sym;
	const char *name = NULL, *file = NULL;
	uint64_t a = 0, sym_offset = 0;
	Dwarf_Die chain[CHAIN_MAX], *outer = NULL, cudie;
	Dwarf_Addr dbias = 0;
	Dwarf_Files *files = NULL;
	int line = 0, nchain = 0, n = 0;
	struct frame_info *f;

	if (!sy_module_addr(obj, off, &a))
		return 0;
	sym = sy_find_symbol(obj, a);
	if (sym) {
		name = sy_intern_name_len(s, sym->name, sym->name_len);
		sym_offset = a - sym->start;
	}
	if (s->o.inline_frames || !name || s->o.srcline)
		obj->dwarf_read = 1;
	if (s->o.inline_frames || !name)
		nchain = sy_scope_chain(obj, sym, a, chain, &dbias, symbols_debug_cache(s));
	for (int i = 0; i < nchain; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point) {
			outer = &chain[i];
			nchain = i;	/* what is left is inlined into outer */
			break;
		}
	}
	/* No symbol (a stripped file with DWARF): the function DWARF names. */
	if (!name && outer) {
		Dwarf_Addr entry;

		name = sy_die_name(s, obj, outer);
		if (name && dwarf_entrypc(outer, &entry) == 0 && entry + dbias <= a)
			sym_offset = a - (entry + dbias);
	}
	if (!name)
		return 0;

	if (s->o.srcline) {
		Dwfl_Line *l = dwfl_module_getsrc(obj->mod, a);
		const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;

		file = sy_src_path(s, src, l ? dwfl_line_comp_dir(l) : NULL);
		if (!file || line < 0)
			line = 0;
		if (s->o.inline_frames && nchain && dwarf_diecu(&chain[0], &cudie, NULL, NULL) &&
		    dwarf_getsrcfiles(&cudie, &files, NULL) != 0)
			files = NULL;
	}
	/*
	 * Each inlined frame's line is where it is; the call site it records
	 * is the line of the frame it was inlined into.
	 */
	for (int i = 0; s->o.inline_frames && i < nchain && n < CHAIN_MAX - 1; i++) {
		Dwarf_Attribute attr;
		Dwarf_Word v;

		if (dwarf_tag(&chain[i]) != DW_TAG_inlined_subroutine)
			continue;
		f = sy_push_frame(s);
		f->name = sy_die_name(s, obj, &chain[i]);
		f->inlined = 1;
		f->file = file;
		f->line = line;
		n++;
		if (!s->o.srcline)
			continue;
		file = NULL;
		line = 0;
		if (files && dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_file, &attr), &v) == 0) {
			const char *src = dwarf_filesrc(files, v, NULL, NULL);
			Dwarf_Attribute ca;

			file = sy_src_path(s, src, dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &ca)));
		}
		if (file && dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line, &attr), &v) == 0)
			line = sy_clamp_line(v);
	}
	f = sy_push_frame(s);
	f->name = name;
	f->sym_offset = sym_offset;
	f->file = file;
	f->line = line;
	return n + 1;
}

/* --- the interface -------------------------------------------------------- */

struct symbols *symbols_new(const struct symbols_opts *o)
{
	struct symbols *s = xcalloc(1, sizeof(*s));

	if (o)
		s->o = *o;
	if (s->o.finders) {
		s->find = s->o.finders;
	} else {
		s->find = finders_new(s->o.symfs, s->o.strict_symfs);
		if (!s->find)
			goto fail;
		s->own_find = 1;
	}
	s->symfs = finders_symfs(s->find);
	s->o.symfs = s->symfs;
	s->o.strict_symfs = finders_strict(s->find);
	if (finders_debuginfo_path(s->find))
		s->debuginfo_path = xstrdup(finders_debuginfo_path(s->find));
	s->cb.find_elf = dwfl_build_id_find_elf;
	/*
	 * Build id, debug link, then debuginfod when DEBUGINFOD_URLS is set;
	 * compressed DWARF from the cache of inflated copies, unless no file
	 * outside --symfs may be read.
	 */
	s->cb.find_debuginfo = symbols_debug_cache(s) ? debugcache_find_debuginfo
						      : dwfl_standard_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->debuginfo_path;

	s->pool = strpool_new();
	s->files = objfiles_new();
	s->warnings = xcalloc(1, sizeof(*s->warnings));
	s->kernel.s = s;
	s->guest.s = s;
	s->guest.kname = "[guest]";
	s->guest.guest = 1;
	/* Another file than the running kernel's is read as it is, never cached. */
	s->kpath = s->o.kallsyms ? s->o.kallsyms : "/proc/kallsyms";
	s->kcache_dir = s->o.kallsyms ? NULL : kallsyms_cache_dir();
	pthread_mutex_init(&s->lmu, NULL);
	pthread_cond_init(&s->lwork, NULL);
	pthread_cond_init(&s->ldone, NULL);
	/* Without the thread, the first kernel lookup reads kallsyms itself. */
	s->kthread_on = pthread_create(&s->kthread, NULL, sy_kernel_prefetch, s) == 0;
	return s;

fail:
	{
		int e = errno;

		free(s);
		errno = e;
	}
	return NULL;
}

static void obj_free(struct elfobj *obj)
{
	struct dso *d, *next;

	for (d = obj->dsos; d; d = next) {
		next = d->next;
		free(d);
	}
	if (obj->dwfl)
		dwfl_end(obj->dwfl);
	free(obj->where);
	free(obj->warning);
	free(obj->loads);
	free(obj->syms);
	free(obj->made_names);
	sy_free_data_symbols(obj);
	free(obj->maxend);
	sy_free_cuidx(obj);
	sy_free_scopes(obj);
	sy_answers_free(obj);
	free(obj);
}

void symbols_stop(struct symbols *s)
{
	if (!s)
		return;
	sy_kernel_join(s);
	if (s->lthread_on) {
		pthread_mutex_lock(&s->lmu);
		s->lstop = 1;
		pthread_cond_broadcast(&s->lwork);
		pthread_mutex_unlock(&s->lmu);
		pthread_join(s->lthread, NULL);
		s->lthread_on = 0;
	}
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	symbols_stop(s);
	free(s->lq);
	pthread_mutex_destroy(&s->lmu);
	pthread_cond_destroy(&s->lwork);
	pthread_cond_destroy(&s->ldone);
	kallsyms_release(&s->kp);
	kallsyms_release(&s->k);
	free(s->kcache_dir);
	for (size_t i = 0; i < s->nkmods; i++)
		free(s->kmods[i]);
	free(s->kmods);
	free(s->kx);
	free(s->kmaps);
	free(s->krelease);
	for (size_t i = 0; i < s->nobjs; i++)
		sy_answers_flush(s, s->objs[i]);
	for (size_t i = 0; i < s->nobjs; i++)
		obj_free(s->objs[i]);
	free(s->objs);
	free(s->walk);
	htab_release(&s->otab);
	htab_release(&s->ltab);
	free(s->live);
	htab_release(&s->dtab);
	free(s->dsov);
	objfiles_free(s->files);	/* after libdwfl's modules, which read through dups */
	for (size_t i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->cache);
	htab_release(&s->ctab);
	free(s->frames);
	free(s->dm);
	htab_release(&s->dmtab);
	strpool_free(s->pool);
	free(s->debuginfo_path);
	if (s->own_find)
		finders_free(s->find);
	free(s);
}

static struct dso *dso_of(struct symbols *s, struct elfobj *obj,
			  const unsigned char *build_id, size_t build_id_len);

struct dso *symbols_dso(struct symbols *s, const char *path,
			const unsigned char *build_id, size_t build_id_len)
{
	return dso_of(s, sy_obj_get(s, path ? path : ""), build_id, build_id_len);
}

struct dso *symbols_dso_live(struct symbols *s, const char *path, const unsigned char *build_id,
			     size_t build_id_len, const struct live_map *m)
{
	return dso_of(s, sy_obj_get_live(s, path ? path : "", m), build_id, build_id_len);
}

void symbols_hold_dir(struct symbols *s, const char *dir)
{
	finders_hold_dir(s->find, dir);
}

static struct dso *dso_of(struct symbols *s, struct elfobj *obj,
			  const unsigned char *build_id, size_t build_id_len)
{
	struct htab_probe p;
	struct dso *d;
	size_t i;

	/* All zeros is how some writers say "no build id". */
	if (!build_id || build_id_len > BUILD_ID_MAX)
		build_id_len = 0;
	for (i = 0; i < build_id_len && !build_id[i]; i++)
		;
	if (i == build_id_len)
		build_id_len = 0;
	/* found by hash: a profile may name one path with thousands of build ids */
	{
		uint64_t w[2] = { (uint64_t)(uintptr_t)obj,
				  htab_hash_bytes(build_id, build_id_len) };
		uint32_t k;

		htab_probe(&s->dtab, htab_hash_words(w, 2), &p);
		while (htab_next(&s->dtab, &p, &k)) {
			d = s->dsov[k];
			if (d->obj == obj && d->build_id_len == build_id_len &&
			    (!build_id_len || !memcmp(d->build_id, build_id, build_id_len)))
				return d;
		}
	}
	d = xcalloc(1, sizeof(*d));
	d->s = s;
	d->obj = obj;
	d->res = obj;
	if (build_id_len)
		memcpy(d->build_id, build_id, build_id_len);
	d->build_id_len = build_id_len;
	d->next = obj->dsos;
	obj->dsos = d;
	if (s->ndsov == s->dsov_cap) {
		s->dsov_cap = s->dsov_cap ? 2 * s->dsov_cap : 64;
		s->dsov = xreallocarray(s->dsov, s->dsov_cap, sizeof(*s->dsov));
	}
	htab_put(&s->dtab, &p, (uint32_t)s->ndsov);
	s->dsov[s->ndsov++] = d;
	return d;
}

struct dso *symbols_kernel(struct symbols *s)
{
	return &s->kernel;
}

struct dso *symbols_guest(struct symbols *s)
{
	return &s->guest;
}

char *symbols_locate(const struct symbols *s, const char *path)
{
	return finders_locate(s->find, path);
}

int symbols_srcline(const struct symbols *s)
{
	return s->o.srcline;
}

const char *symbols_debuginfo_path(const struct symbols *s)
{
	return s->debuginfo_path;
}

int symbols_debug_cache(const struct symbols *s)
{
	return finders_debug_cache(s->find);
}

const char *symbols_symfs(const struct symbols *s)
{
	return s->symfs;
}

int dso_resolve(struct dso *d, uint64_t addr, struct frame_info *out, int max)
{
	struct symbols *s = d->s;
	const void *key;
	struct htab_probe p;
	const struct cent *c;
	int n;

	if (max < 1 || d->guest)
		return 0;
	if (d->obj) {
		dso_settle(d);
		if (d->dead)
			return 0;
	}
	key = d->obj ? (const void *)d->res : (const void *)d;	/* after sy_dso_check() set res */
	c = sy_cache_find(s, key, addr, &p);
	if (!c) {
		size_t first = s->nframes;

		if (!d->obj) {
			n = sy_resolve_kernel(s, addr);
		} else if ((n = sy_answers_find(s, d->res, addr)) < 0) {
			/*
			 * Not opened yet (the cache's answers checked it), or
			 * closed since by symbols_trim() (open it again), or
			 * being opened again by the loader since dso_ready()
			 * (wait for it).
			 */
			if (d->res->state == OBJ_NEW || s->ncloses || s->nreleased)
				sy_obj_settle(s, d->res);
			sy_obj_say(s, d->res);
			d->res->used = sy_now();
			n = resolve_file(s, d->res, addr);
			sy_release_pages(d->res);
			sy_answers_note(s, d->res, addr, first, n);
		}
		c = sy_cache_add(s, &p, key, addr, first, n);
	}
	n = (int)c->n < max ? (int)c->n : max;
	if (n)
		memcpy(out, s->frames + c->first, (size_t)n * sizeof(*out));
	return n;
}

const char *const *symbols_warnings(const struct symbols *s, size_t *more)
{
	*more = s->warnings_dropped;
	return (const char *const *)s->warnings;
}
