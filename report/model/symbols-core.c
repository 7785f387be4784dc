// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every part of the symbolizer uses, and nothing of theirs: its
 * warnings, names interned (and demangled), the answers cache's frames
 * and entries, the coarse clock, and letting a mapping's pages go. It
 * calls no other symbols*.c file, so that they stack without a circle:
 *
 *   symbols.c          the interface: resolving an address, its cache
 *   symbols-module.c   one mapped file (struct dso): its code, build id, owner
 *   symbols-files.c    which file answers for a path; the loader thread;
 *                      closing and releasing files
 *   symbols-answers.c  answers kept across reports
 *   symbols-dwarf.c    DWARF scope chains
 *   symbols-names.c    DWARF names and source paths
 *   symbols-elf.c      an ELF file opened: symbols, segments, build id
 *   symbols-kernel.c   the kernel and its modules, from kallsyms
 *   symbols-core.c     this file
 *
 * Each calls only those below it in this list (the kernel's only this).
 */
#include "config.h"

#include <libiberty/demangle.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "file.h"
#include "htab.h"
#include "strpool.h"
#include "symbols.h"
#include "xalloc.h"

#include "symbols-int.h"

#define WARN_MAX 20	/* warnings kept: symbols_warnings() */

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

/*
 * The name interned, demangled first when asked and it is a C++ name,
 * with no control characters: it goes out as text (strpool_intern_text).
 */
static const char *intern_name_raw(struct symbols *s, const char *raw, size_t len);

const char *sy_intern_name_len(struct symbols *s, const char *raw, size_t len)
{
	const char *name;

	/* a PLT entry's (symbols-plt.c): its function's name demangled, as perf has it */
	if (len > 6 && raw[0] == '_' && !memcmp(raw + len - 4, "@plt", 4)) {
		const char *plain = intern_name_raw(s, raw, len - 4);
		size_t n = strlen(plain);
		char *buf = xmalloc(n + 5);
		const char *out;

		memcpy(buf, plain, n);
		memcpy(buf + n, "@plt", 5);
		out = strpool_intern_text(s->pool, buf, n + 4);
		free(buf);
		return out;
	}
	name = intern_name_raw(s, raw, len);

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
	return sy_intern_name_len(s, raw, strlen(raw));
}

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

/* --- the answers cache: what dso_resolve() answered, by (key, address) --- */

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
 * go of): their entries are emptied (no look-up finds a NULL key), and
 * once a quarter of the entries are, the cache and its frames are made
 * again from what stays, in order. Made again at every release that let
 * a file go (every 5 s on a host that starts programs), its index was
 * 3.5% of an agent's resolving thread.
 */
void sy_cache_drop(struct symbols *s, const void **keys, size_t n)
{
	size_t kept = 0, nf = 0;

	qsort(keys, n, sizeof(*keys), cmp_ptr);
	for (size_t i = 0; i < s->ncache; i++)
		if (s->cache[i].key && bsearch(&s->cache[i].key, keys, n, sizeof(*keys), cmp_ptr)) {
			s->cache[i].key = NULL;
			s->cache_dead++;
		}
	if (s->cache_dead * 4 <= s->ncache)
		return;
	s->cache_dead = 0;
	for (size_t i = 0; i < s->ncache; i++) {
		struct cent e = s->cache[i];

		if (!e.key)
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

void sy_release_one(struct release_clock *c, int due, const void *p, size_t len)
{
	if (due)
		release_next(c, p && file_pages_release(p, len, RELEASE_KEEP) > 0);
}

uint64_t sy_now(void)
{
	return mono_coarse_ns();
}

int sy_clamp_line(Dwarf_Word v)
{
	return v > INT_MAX ? 0 : (int)v;
}

const struct cent *sy_cache_find(struct symbols *s, const void *key, uint64_t addr,
				 struct htab_probe *p)
{
	uint32_t i;

	htab_probe(&s->ctab, addr ^ htab_mix((uint64_t)(uintptr_t)key), p);
	while (htab_next(&s->ctab, p, &i))
		if (s->cache[i].key == key && s->cache[i].addr == addr)
			return &s->cache[i];
	return NULL;
}

const struct cent *sy_cache_add(struct symbols *s, struct htab_probe *p, const void *key,
				uint64_t addr, size_t first, int n)
{
	struct cent *e;

	if (s->ncache == s->cache_cap) {
		s->cache_cap = s->cache_cap ? 2 * s->cache_cap : 1024;
		s->cache = xreallocarray(s->cache, s->cache_cap, sizeof(*s->cache));
	}
	e = &s->cache[s->ncache];
	e->key = key;
	e->addr = addr;
	e->first = (uint32_t)first;
	e->n = (uint32_t)n;
	htab_put(&s->ctab, p, (uint32_t)s->ncache++);
	return e;
}
