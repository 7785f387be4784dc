// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols: file offsets of mapped ELF files and kernel addresses turned into
 * function names, inline chains and source lines, each answer computed once.
 * This file is the interface and the cache of answers; by concern:
 *   symbols-elf.c     an ELF file's function symbols, sorted once, and its
 *                     segments and build id;
 *   symbols-files.c   which file a recorded path or build id leads to
 *                     (--symfs, the build-id cache, debuginfod), and the
 *                     loader thread that opens files and inflates DWARF;
 *   symbols-dwarf.c   DWARF: functions' qualified names, inline chains and
 *                     source lines;
 *   symbols-kernel.c  the kernel and its modules, from kallsyms.
 *   symbols-answers.c what each address of a file resolved to, kept across
 *                     reports in the debug cache.
 * symbols-int.h holds the state they share.
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

/* --- small helpers -------------------------------------------------------- */

/*
 * A message. One line per warning: control bytes of a hostile path would
 * break it, so they become '?'.
 */
__attribute__((format(printf, 1, 0)))
static char *format_msg(const char *fmt, va_list ap)
{
	va_list again;
	char *msg;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0) {
		va_end(again);
		return NULL;
	}
	msg = xmalloc((size_t)n + 1);
	vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return msg;
}

#define WARN_MAX 20

/*
 * Warnings are kept sorted: which sample first needs a file can depend on
 * when the loader finished with it (see session_unordered()), and the
 * same profile must give the same messages.
 */
void sy_add_warning(struct symbols *s, char *msg)
{
	size_t i;

	if (!msg)
		return;
	/*
	 * At most WARN_MAX are kept, the first in sort order: a profile of
	 * thousands of missing files must not print thousands of lines (nor
	 * sort them in quadratic time); the rest are counted.
	 */
	if (s->nwarnings == WARN_MAX) {
		s->warnings_dropped++;
		if (strcmp(s->warnings[WARN_MAX - 1], msg) <= 0) {
			free(msg);
			return;
		}
		free(s->warnings[--s->nwarnings]);
	}
	s->warnings = xreallocarray(s->warnings, s->nwarnings + 2, sizeof(*s->warnings));
	for (i = s->nwarnings; i > 0 && strcmp(s->warnings[i - 1], msg) > 0; i--)
		s->warnings[i] = s->warnings[i - 1];
	s->warnings[i] = msg;
	s->warnings[++s->nwarnings] = NULL;
}

__attribute__((format(printf, 2, 3)))
void sy_warn(struct symbols *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sy_add_warning(s, format_msg(fmt, ap));
	va_end(ap);
}

/* A file's warning waits in the file: the loader thread may be opening it. */
__attribute__((format(printf, 2, 3)))
void sy_obj_warn(struct elfobj *obj, const char *fmt, ...)
{
	va_list ap;

	if (obj->warning)
		return;
	va_start(ap, fmt);
	obj->warning = format_msg(fmt, ap);
	va_end(ap);
}

void sy_obj_say(struct symbols *s, struct elfobj *obj)
{
	if (obj->warning) {
		sy_add_warning(s, obj->warning);
		obj->warning = NULL;
	}
}

int sy_ends_with(const char *str, const char *suffix)
{
	size_t n = strlen(str), m = strlen(suffix);

	return n >= m && !memcmp(str + n - m, suffix, m);
}

static const char *intern_name_raw(struct symbols *s, const char *raw, size_t len);

/*
 * The name interned, demangled first when asked and it is a C++ name,
 * with no control characters: it goes out as text (strpool_intern_text).
 */
static const char *intern_name_len(struct symbols *s, const char *raw, size_t len)
{
	const char *name = intern_name_raw(s, raw, len);

	return strpool_intern_text(s->pool, name, strlen(name));
}

static const char *intern_name_raw(struct symbols *s, const char *raw, size_t len)
{
	const char *name = strpool_intern_len(s->pool, raw, len);
	char *plain;
	struct htab_probe p;
	uint32_t i;

	/*
	 * Only mangled names: the Itanium ABI's "_Z" (C++, and Rust's legacy
	 * scheme inside it) and Rust's v0 "_R"; others would demangle as types.
	 */
	if (!s->o.demangle || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
		return name;
	htab_probe(&s->dmtab, (uint64_t)(uintptr_t)name, &p);
	while (htab_next(&s->dmtab, &p, &i))
		if (s->dm[i].mangled == name)
			return s->dm[i].plain;
	/*
	 * libiberty's demangler, GCC's and binutils': C++, Rust legacy (the
	 * ::h<hash> dropped, $LT$ and the like decoded) and Rust v0. As perf
	 * spells names: no parameter lists unless asked.
	 */
	{
		int opts = s->o.params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;

		/*
		 * Rust first: its legacy names are Itanium names too (what
		 * cplus_demangle does in its AUTO style, without the part of
		 * libiberty that wants an xmalloc of the program's).
		 */
		plain = rust_demangle(name, opts);
		if (!plain && name[1] == 'Z')
			plain = cplus_demangle_v3(name, opts);
	}
	if (s->ndm == s->dm_cap) {
		s->dm_cap = s->dm_cap ? 2 * s->dm_cap : 64;
		s->dm = xreallocarray(s->dm, s->dm_cap, sizeof(*s->dm));
	}
	s->dm[s->ndm].mangled = name;
	s->dm[s->ndm].plain = plain && plain[0] ? strpool_intern_text(s->pool, plain, strlen(plain))
					      : name;
	free(plain);
	htab_put(&s->dmtab, &p, (uint32_t)s->ndm);
	return s->dm[s->ndm++].plain;
}

const char *sy_intern_name(struct symbols *s, const char *raw)
{
	return intern_name_len(s, raw, strlen(raw));
}

/* --- the resolution cache ------------------------------------------------- */

struct frame_info *sy_push_frame(struct symbols *s)
{
	struct frame_info *f;

	if (s->nframes == s->frames_cap) {
		s->frames_cap = s->frames_cap ? 2 * s->frames_cap : 4096;
		s->frames = xreallocarray(s->frames, s->frames_cap, sizeof(*s->frames));
	}
	f = &s->frames[s->nframes++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* What a cache entry is found by (dso_resolve()): its address and key. */
static uint64_t cent_hash(const void *ctx, size_t i)
{
	const struct cent *c = &((const struct symbols *)ctx)->cache[i];

	return c->addr ^ htab_mix((uint64_t)(uintptr_t)c->key);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;

	return x < y ? -1 : x > y;
}

/*
 * Forget the answers cached for keys[0..n) (objects symbols_release() let
 * go of), and the frames only they used: the cache and its frames are
 * made again from what stays, in order.
 */
void sy_cache_drop(struct symbols *s, const void **keys, size_t n)
{
	size_t kept = 0, nf = 0;

	qsort(keys, n, sizeof(*keys), cmp_ptr);
	for (size_t i = 0; i < s->ncache; i++) {
		struct cent e = s->cache[i];

		if (bsearch(&e.key, keys, n, sizeof(*keys), cmp_ptr))
			continue;
		/* frames go to lower or equal places only: entries are in push order */
		memmove(s->frames + nf, s->frames + e.first, e.n * sizeof(*s->frames));
		e.first = (uint32_t)nf;
		nf += e.n;
		s->cache[kept++] = e;
	}
	if (kept == s->ncache)
		return;
	s->ncache = kept;
	s->nframes = nf;
	htab_reindex(&s->ctab, kept, cent_hash, s);
	/* give back what the arrays hold over twice what stays */
	if (s->cache_cap > 1024 && s->cache_cap > 4 * kept) {
		s->cache_cap = kept > 512 ? 2 * kept : 1024;
		s->cache = xreallocarray(s->cache, s->cache_cap, sizeof(*s->cache));
	}
	if (s->frames_cap > 4096 && s->frames_cap > 4 * nf) {
		s->frames_cap = nf > 2048 ? 2 * nf : 4096;
		s->frames = xreallocarray(s->frames, s->frames_cap, sizeof(*s->frames));
	}
}

/* The module address of file offset off of obj: 1, or 0 when no segment holds it. */
/* The loadable segment of obj holding file offset off, or NULL. */
static const struct load *load_of_off(const struct elfobj *obj, uint64_t off)
{
	for (size_t i = 0; i < obj->nloads; i++)
		if (off - obj->loads[i].off < obj->loads[i].size)
			return &obj->loads[i];
	return NULL;
}

static int module_addr(const struct elfobj *obj, uint64_t off, uint64_t *a)
{
	const struct load *l = load_of_off(obj, off);

	if (!l)
		return 0;
	*a = off - l->off + l->vaddr + obj->bias;
	return 1;
}

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

	if (!module_addr(obj, off, &a))
		return 0;
	sym = sy_find_symbol(obj, a);
	if (sym) {
		name = intern_name_len(s, sym->name, sym->name_len);
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
	free(obj->maxend);
	sy_free_cuidx(obj);
	sy_free_scopes(obj);
	sy_answers_free(obj);
	free(obj);
}

void symbols_free(struct symbols *s)
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
	}
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
	free(s->kmaps);
	free(s->krelease);
	for (size_t i = 0; i < s->nobjs; i++)
		sy_answers_flush(s, s->objs[i]);
	for (size_t i = 0; i < s->nobjs; i++)
		obj_free(s->objs[i]);
	free(s->objs);
	htab_release(&s->otab);
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

const char *dso_short_name(const struct dso *d)
{
	return d->obj ? d->obj->short_name : d->kname ? d->kname : "[kernel.kallsyms]";
}

const char *dso_path(const struct dso *d)
{
	return d->obj ? d->obj->path : d->kname ? d->kname : "[kernel.kallsyms]";
}

const struct objfile *symbols_dso_file(const struct dso *d)
{
	if (!d->res || d->dead)
		return NULL;
	/* opened, or still to be: the file the symbolizer reads */
	if (d->res->state != OBJ_READY && d->res->state != OBJ_NEW)
		return NULL;
	return sy_obj_file(d->s, d->res);
}

char *symbols_locate(const struct symbols *s, const char *path)
{
	return finders_locate(s->find, path);
}

int dso_is_anon(const struct dso *d)
{
	return d->obj && d->obj->anon;
}

int dso_is_jit(const struct dso *d)
{
	return dso_is_anon(d) || (d->obj && !strncmp(d->obj->path, "[JIT] tid ", 10));
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

int dso_resolve(struct dso *d, uint64_t addr, struct frame_info *out, int max)
{
	struct symbols *s = d->s;
	const void *key;
	struct htab_probe p;
	const struct cent *c = NULL;
	uint32_t i;
	int n;

	if (max < 1 || d->guest)
		return 0;
	if (d->obj) {
		dso_settle(d);
		if (d->dead)
			return 0;
	}
	key = d->obj ? (const void *)d->res : (const void *)d;	/* after sy_dso_check() set res */
	htab_probe(&s->ctab, addr ^ htab_mix((uint64_t)(uintptr_t)key), &p);
	while (!c && htab_next(&s->ctab, &p, &i))
		if (s->cache[i].key == key && s->cache[i].addr == addr)
			c = &s->cache[i];
	if (!c) {
		size_t first = s->nframes;
		struct cent *e;

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
		if (s->ncache == s->cache_cap) {
			s->cache_cap = s->cache_cap ? 2 * s->cache_cap : 1024;
			s->cache = xreallocarray(s->cache, s->cache_cap, sizeof(*s->cache));
		}
		e = &s->cache[s->ncache];
		e->key = key;
		e->addr = addr;
		e->first = (uint32_t)first;
		e->n = (uint32_t)n;
		htab_put(&s->ctab, &p, (uint32_t)s->ncache++);
		c = e;
	}
	n = (int)c->n < max ? (int)c->n : max;
	if (n)
		memcpy(out, s->frames + c->first, (size_t)n * sizeof(*out));
	return n;
}

/* The segment holding ELF address vaddr of obj's file, or NULL. */
static const struct load *load_of_vaddr(const struct elfobj *obj, uint64_t vaddr)
{
	for (size_t i = 0; i < obj->nloads; i++)
		if (vaddr - obj->loads[i].vaddr < obj->loads[i].size)
			return &obj->loads[i];
	return NULL;
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

	if (!obj || !module_addr(obj, off, &a) || !(sym = sy_find_symbol(obj, a)) ||
	    sym->end <= sym->start)
		return 0;
	memset(out, 0, sizeof(*out));
	out->name = intern_name_len(d->s, sym->name, sym->name_len);
	out->vaddr = sym->start - obj->bias;
	out->size = sym->end - sym->start;
	out->file = obj->file;
	l = load_of_vaddr(obj, out->vaddr);
	if (!l)
		return 0;
	out->off = out->vaddr - l->vaddr + l->off;
	/* the segment's file bytes end where the function may not */
	if (out->size > l->size - (out->vaddr - l->vaddr))
		out->size = l->size - (out->vaddr - l->vaddr);
	code_nobits(obj, out);
	return 1;
}

int dso_code_at(struct dso *d, uint64_t off, struct dso_func *out)
{
	struct elfobj *obj = dso_open_obj(d);
	const struct load *l = obj ? load_of_off(obj, off) : NULL;

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

	if (!obj || !module_addr(obj, off, &a))
		return NULL;
	l = dwfl_module_getsrc(obj->mod, a);
	dir = l ? dwfl_line_comp_dir(l) : NULL;
	return dir ? strpool_intern(d->s->pool, dir) : NULL;
}

int dso_offset_of(struct dso *d, uint64_t vaddr, uint64_t *off)
{
	struct elfobj *obj = dso_open_obj(d);
	const struct load *l = obj ? load_of_vaddr(obj, vaddr) : NULL;

	if (!l)
		return 0;
	*off = vaddr - l->vaddr + l->off;
	return 1;
}

const char *const *symbols_warnings(const struct symbols *s, size_t *more)
{
	*more = s->warnings_dropped;
	return (const char *const *)s->warnings;
}

uid_t symbols_dso_owner(const struct dso *d)
{
	const struct objfile *f = symbols_dso_file(d);
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
