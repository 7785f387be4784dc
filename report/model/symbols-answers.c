// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answers a file gave, kept across reports: what each address of it
 * resolved to (its inline chain's names, offsets and source lines), in
 * the debug cache as BUILDID.aV (V: the options that shape an answer).
 * A report of a file it has reported before then opens no ELF and no
 * DWARF for the addresses it has seen: a 29K-sample system-wide flat
 * report spends more than half its CPU opening, indexing and walking the
 * DWARF of the twenty files it names, for a few thousand addresses.
 *
 * An answer is only as good as the files it came from, so the cache names
 * them: the file resolved (device, inode, change time), and its separate
 * debug file, or the build-id path where one would be found when there
 * was none. A dso whose recorded build id has a cache file, whose path is
 * still that very file, and whose debug file is still the one (or still
 * none), is taken as checked without opening anything; an address the
 * cache lacks opens the file then, as it would have been opened anyway,
 * and the new answers are added when the report ends. Not with --symfs
 * (another root, other files) or debuginfod (a server's answer may
 * change), nor once a long-running session closes or lets go of files
 * (prof agent, prof top): those keep no answers. See doc/DESIGN.md.
 */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugcache.h"
#include "dynlib.h"
#include "file.h"
#include "htab.h"
#include "objfile.h"
#include "strpool.h"
#include "symbols.h"
#include "xalloc.h"

#include "symbols-int.h"

/* 2: source paths joined to their compilation directory; 3: .symver names keep their version;
 * 4: PLT entries named (symbols-plt.c); 5: of two aliases alike, the first in the table */
#define ANS_MAGIC	"PROFANS5"
#define ANS_FILE_MAX	((size_t)256 << 20)	/* a bigger file is not ours */
#define ANS_MAX		((size_t)1 << 20)	/* answers kept per file */
#define ANS_NONE	UINT32_MAX		/* no string */

struct anshdr {
	char magic[8];
	uint64_t sum;		/* of all that follows */
	uint32_t variant;	/* ans_variant() of the options it was made with */
	uint32_t ndep, nent, nfr, strsz, pad;
};

/* A file the answers came from: still this one, or (exists 0) still absent. */
struct ansdep {
	uint64_t dev, ino;
	int64_t ctime_ns;
	uint32_t path, exists;
};

/* An address and its frames, frs[first .. first + n); by address. */
struct ansent {
	uint64_t addr;
	uint32_t first, n;
};

struct ansfr {
	uint64_t sym_offset;
	uint32_t name, file, line, inlined;
};

/* A dependency while it is made: the path and what it is. */
struct ansdep_new {
	char path[PATH_MAX];
	struct file_id id;
	int exists;
};

#define ANS_DEPS 2	/* the file; its debug file, or where one would be */

struct answers {
	/* the cache's file, read: what the lookups find */
	char *buf;
	const struct ansent *ent;
	const struct ansfr *fr;
	const char *str;
	uint32_t nent, nfr, strsz;
	unsigned char bid[BUILD_ID_MAX];	/* the build id it is of */
	size_t bid_len;
	/* answers made here, to add */
	struct ansent *nv;
	size_t nn, ncap;
	struct frame_info *nf;
	size_t nnf, nfcap;
	int off;		/* keeps and adds nothing */
};

/* The options that change an answer. */
static unsigned ans_variant(const struct symbols *s)
{
	return (s->o.inline_frames ? 1u : 0) | (s->o.srcline ? 2u : 0) | (s->o.demangle ? 4u : 0) |
	       (s->o.params ? 8u : 0);
}

/* Whether answers are kept at all in this session. */
static int ans_on(const struct symbols *s)
{
	return !s->ans_off && !s->symfs && !s->o.strict_symfs && !dynlib_debuginfod_wanted();
}

static char *ans_path(const struct symbols *s, const unsigned char *bid, size_t len)
{
	char ext[8];

	snprintf(ext, sizeof(ext), ".a%x", ans_variant(s));
	return debugcache_path(bid, len, ext);
}

/* Whether the files the answers came from are still what they were. */
static int deps_hold(const char *buf, const struct anshdr *h, const char *where,
		     const struct file_id *self)
{
	const struct ansdep *d = (const struct ansdep *)(buf + sizeof(*h));
	const char *str = buf + sizeof(*h) + h->ndep * sizeof(*d) + h->nent * sizeof(struct ansent) +
			  (size_t)h->nfr * sizeof(struct ansfr);

	if (h->ndep < 1)
		return 0;
	for (uint32_t i = 0; i < h->ndep; i++) {
		struct file_id id, was = { d[i].dev, d[i].ino, d[i].ctime_ns };
		int there;

		if (d[i].path >= h->strsz)
			return 0;
		/* the first is the file resolved: the one the dso's path names */
		if (i == 0 && strcmp(str + d[i].path, where))
			return 0;
		there = file_id_of(str + d[i].path, &id) == 0;
		if (there != !!d[i].exists)
			return 0;
		/*
		 * A debug file is the same while its inode is (a package, or
		 * the cache of inflated copies, puts a new one in place); the
		 * cache touches its copies when it uses them, which changes
		 * their ctime.
		 */
		if (there && (i ? id.dev != was.dev || id.ino != was.ino : !file_id_equal(&id, &was)))
			return 0;
		/* ... now */
		if (i == 0 && (!there || (self && !file_id_equal(self, &was))))
			return 0;
	}
	return 1;
}

/* The cache's answers for obj (of build id bid) into a: 0, or -1 when there are none that hold. */
static int ans_read(struct symbols *s, struct elfobj *obj, struct answers *a,
		    const unsigned char *bid, size_t len)
{
	struct anshdr h;
	char *path = ans_path(s, bid, len), *buf;
	size_t flen, body;
	int err;
	const struct file_id *self = obj->id.dev || obj->id.ino ? &obj->id : NULL;

	buf = path ? file_read_regular(path, ANS_FILE_MAX, &flen, &err) : NULL;
	free(path);
	if (!buf)
		return -1;
	if (flen < sizeof(h))
		goto bad;
	memcpy(&h, buf, sizeof(h));
	body = (size_t)h.ndep * sizeof(struct ansdep) + (size_t)h.nent * sizeof(struct ansent) +
	       (size_t)h.nfr * sizeof(struct ansfr) + h.strsz;
	if (memcmp(h.magic, ANS_MAGIC, 8) || h.variant != ans_variant(s) || h.ndep > ANS_DEPS ||
	    h.nent > ANS_MAX || h.nfr > ANS_MAX * CHAIN_MAX || body != flen - sizeof(h) ||
	    (h.strsz && buf[flen - 1]) || htab_hash_chunks(0, buf + sizeof(h), body) != h.sum)
		goto bad;
	if (!deps_hold(buf, &h, obj->where, self))
		goto bad;
	a->ent = (const struct ansent *)(buf + sizeof(h) + h.ndep * sizeof(struct ansdep));
	a->fr = (const struct ansfr *)(a->ent + h.nent);
	a->str = (const char *)(a->fr + h.nfr);
	for (uint32_t i = 0; i < h.nent; i++)
		if (a->ent[i].n > CHAIN_MAX || a->ent[i].first > h.nfr ||
		    a->ent[i].n > h.nfr - a->ent[i].first ||
		    (i && a->ent[i - 1].addr >= a->ent[i].addr))
			goto bad;
	a->buf = buf;
	a->nent = h.nent;
	a->nfr = h.nfr;
	a->strsz = h.strsz;
	memcpy(a->bid, bid, len);
	a->bid_len = len;
	return 0;
bad:
	free(buf);
	a->ent = NULL;
	a->fr = NULL;
	a->str = NULL;
	return -1;
}

static struct answers *ans_of(struct elfobj *obj)
{
	if (!obj->ans)
		obj->ans = xcalloc(1, sizeof(*obj->ans));
	return obj->ans;
}

int sy_answers_try(struct dso *d)
{
	struct symbols *s = d->s;
	struct elfobj *obj = d->obj;
	size_t len = finders_build_id_len(d->build_id, d->build_id_len);
	struct answers *a;

	if (!ans_on(s) || !obj || obj->anon || obj->state != OBJ_NEW || obj->closed || len < 2 ||
	    (obj->ans && (obj->ans->buf || obj->ans->off)))
		return 0;
	a = ans_of(obj);
	if (ans_read(s, obj, a, d->build_id, len) < 0)
		return 0;
	d->checked = 1;
	d->res = obj;
	return 1;
}

/* By address: the order of a file's answers. */
static int ansent_cmp(const void *pa, const void *pb)
{
	const struct ansent *x = pa, *y = pb;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int sy_answers_held(const struct elfobj *obj)
{
	return obj->ans && obj->ans->buf && !obj->ans->off;
}

int sy_answers_find(struct symbols *s, struct elfobj *obj, uint64_t addr)
{
	const struct answers *a = obj->ans;
	const struct ansent key = { .addr = addr }, *e;

	if (!a || !a->buf || a->off)
		return -1;
	e = bsearch(&key, a->ent, a->nent, sizeof(*a->ent), ansent_cmp);
	if (!e)
		return -1;
	for (uint32_t i = 0; i < e->n; i++) {
		const struct ansfr *r = &a->fr[e->first + i];
		struct frame_info *f = sy_push_frame(s);

		/* strings end in the table's last NUL (ans_read()); text interned as text */
		if (r->name < a->strsz)
			f->name = strpool_intern_text(s->pool, a->str + r->name,
						      strlen(a->str + r->name));
		if (r->file < a->strsz)
			f->file = strpool_intern_text(s->pool, a->str + r->file,
						      strlen(a->str + r->file));
		f->line = f->file ? sy_clamp_line(r->line) : 0;
		f->inlined = r->inlined != 0;
		f->sym_offset = r->sym_offset;
	}
	return (int)e->n;
}

/*
 * What obj's answers come from, as it is now (open: its debug file is
 * found by now), into deps[ANS_DEPS]; their count, 0 when not known.
 */
static int ans_deps(struct symbols *s, struct elfobj *obj, struct ansdep_new *deps)
{
	const char *debug = NULL;

	if (!obj->file || !obj->file->id.ino || strlen(obj->where) >= sizeof(deps[0].path))
		return 0;
	memcpy(deps[0].path, obj->where, strlen(obj->where) + 1);
	deps[0].id = obj->file->id;
	deps[0].exists = 1;
	if (obj->mod)
		dwfl_module_info(obj->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug);
	if (debug && strlen(debug) < sizeof(deps[1].path) && file_id_of(debug, &deps[1].id) == 0) {
		memcpy(deps[1].path, debug, strlen(debug) + 1);
		deps[1].exists = 1;
		return 2;
	}
	/* a debug file was read and is gone, or is there and was not read */
	if (debug || finders_debug_by_id(s->find, obj->build_id, obj->build_id_len, deps[1].path,
				    sizeof(deps[1].path)) ||
	    file_id_of(deps[1].path, &deps[1].id) == 0)
		return 0;
	deps[1].exists = 0;
	return 2;
}

void sy_answers_note(struct symbols *s, struct elfobj *obj, uint64_t addr, size_t first, int n)
{
	struct answers *a;

	if (!ans_on(s) || obj->anon || obj->state != OBJ_READY || !obj->build_id ||
	    obj->build_id_len < 2)
		return;
	a = ans_of(obj);
	if (a->off)
		return;
	if (a->buf && (a->bid_len != obj->build_id_len ||
		       memcmp(a->bid, obj->build_id, a->bid_len))) {
		a->off = 1;	/* the path is another file now than the cache's */
		return;
	}
	if (a->nn + a->nent >= ANS_MAX)
		return;
	if (a->nn == a->ncap) {
		a->ncap = a->ncap ? 2 * a->ncap : 256;
		a->nv = xreallocarray(a->nv, a->ncap, sizeof(*a->nv));
	}
	while (a->nnf + (size_t)n > a->nfcap) {
		a->nfcap = a->nfcap ? 2 * a->nfcap : 512;
		a->nf = xreallocarray(a->nf, a->nfcap, sizeof(*a->nf));
	}
	a->nv[a->nn].addr = addr;
	a->nv[a->nn].first = (uint32_t)a->nnf;
	a->nv[a->nn].n = (uint32_t)n;
	a->nn++;
	if (n)
		memcpy(a->nf + a->nnf, s->frames + first, (size_t)n * sizeof(*a->nf));
	a->nnf += (size_t)n;
}

/* The strings of the file being written: the old table, then new ones once each. */
struct strtab {
	char *v;
	size_t n, cap;
	const char **keys;	/* interned pointers: the items of t */
	uint32_t *offs;
	size_t nkeys, kcap;
	struct htab t;
};

static void strtab_add(struct strtab *st, const char *p, size_t len)
{
	while (st->n + len > st->cap) {
		st->cap = st->cap ? 2 * st->cap : 4096;
		st->v = xreallocarray(st->v, st->cap, 1);
	}
	memcpy(st->v + st->n, p, len);
	st->n += len;
}

static uint32_t strtab_off(struct strtab *st, const char *p)
{
	struct htab_probe pr;
	uint32_t i;

	if (!p)
		return ANS_NONE;
	htab_probe(&st->t, htab_mix((uint64_t)(uintptr_t)p), &pr);
	while (htab_next(&st->t, &pr, &i))
		if (st->keys[i] == p)
			return st->offs[i];
	if (st->nkeys == st->kcap) {
		st->kcap = st->kcap ? 2 * st->kcap : 256;
		st->keys = xreallocarray(st->keys, st->kcap, sizeof(*st->keys));
		st->offs = xreallocarray(st->offs, st->kcap, sizeof(*st->offs));
	}
	st->keys[st->nkeys] = p;
	st->offs[st->nkeys] = (uint32_t)st->n;
	htab_put(&st->t, &pr, (uint32_t)st->nkeys);
	strtab_add(st, p, strlen(p) + 1);
	return st->offs[st->nkeys++];
}

/*
 * The old answers and the new (sorted here), by address, with the files
 * they came from, as the cache's file: its bytes, or NULL.
 */
static char *ans_build(struct answers *a, const struct ansdep_new *deps, int ndeps,
		       unsigned variant, size_t *lenp)
{
	struct strtab st = { 0 };
	struct ansent *ent;
	struct ansfr *fr;
	struct ansdep dep[ANS_DEPS];
	struct anshdr h = { .ndep = (uint32_t)ndeps, .variant = variant };
	size_t nent = 0, nfr = 0, i = 0, j = 0, body, maxfr = a->nfr + a->nnf;
	char *buf = NULL;
	const struct ansent *nv = a->nv;

	/* the new ones by address; one answer per address, the latest */
	qsort(a->nv, a->nn, sizeof(*a->nv), ansent_cmp);
	ent = xreallocarray(NULL, a->nent + a->nn + 1, sizeof(*ent));
	fr = xreallocarray(NULL, maxfr ? maxfr : 1, sizeof(*fr));
	if (a->strsz)
		strtab_add(&st, a->str, a->strsz);
	for (int k = 0; k < ndeps; k++)
		dep[k] = (struct ansdep){ deps[k].id.dev, deps[k].id.ino, deps[k].id.ctime_ns,
					  strtab_off(&st, deps[k].path), (uint32_t)deps[k].exists };
	while (i < a->nent || j < a->nn) {
		int take_new = i == a->nent || (j < a->nn && nv[j].addr <= a->ent[i].addr);
		const struct ansent *e = take_new ? &nv[j] : &a->ent[i];

		if (take_new) {
			if (i < a->nent && a->ent[i].addr == nv[j].addr)
				i++;	/* answered again: the new answer */
			while (j + 1 < a->nn && nv[j + 1].addr == e->addr)
				e = &nv[++j];
			j++;
		} else {
			i++;
		}
		ent[nent].addr = e->addr;
		ent[nent].first = (uint32_t)nfr;
		ent[nent].n = e->n;
		for (uint32_t k = 0; k < e->n; k++, nfr++) {
			if (!take_new) {
				fr[nfr] = a->fr[e->first + k];
				continue;
			}
			const struct frame_info *f = &a->nf[e->first + k];

			fr[nfr] = (struct ansfr){ f->sym_offset, strtab_off(&st, f->name),
						  strtab_off(&st, f->file),
						  f->line > 0 ? (uint32_t)f->line : 0,
						  (uint32_t)(f->inlined != 0) };
		}
		nent++;
	}
	if (st.n > UINT32_MAX - 1)
		goto out;
	h.nent = (uint32_t)nent;
	h.nfr = (uint32_t)nfr;
	h.strsz = (uint32_t)st.n;
	memcpy(h.magic, ANS_MAGIC, 8);
	body = h.ndep * sizeof(*dep) + nent * sizeof(*ent) + nfr * sizeof(*fr) + st.n;
	buf = xmalloc(sizeof(h) + body);
	{
		char *p = buf + sizeof(h);

		memcpy(p, dep, h.ndep * sizeof(*dep));
		p += h.ndep * sizeof(*dep);
		memcpy(p, ent, nent * sizeof(*ent));
		p += nent * sizeof(*ent);
		memcpy(p, fr, nfr * sizeof(*fr));
		p += nfr * sizeof(*fr);
		if (st.n)
			memcpy(p, st.v, st.n);
	}
	h.sum = htab_hash_chunks(0, buf + sizeof(h), body);
	memcpy(buf, &h, sizeof(h));
	*lenp = sizeof(h) + body;
out:
	free(ent);
	free(fr);
	free(st.v);
	free(st.keys);
	free(st.offs);
	htab_release(&st.t);
	return buf;
}

void sy_answers_flush(struct symbols *s, struct elfobj *obj)
{
	struct answers *a = obj->ans;
	struct ansdep_new deps[ANS_DEPS];
	char *path, *buf;
	size_t len;
	int ndeps;

	/*
	 * New answers were made with the file open, and it still is: only
	 * symbols_trim() and symbols_release() close files, and they stop
	 * the keeping of answers (sy_answers_stop()).
	 */
	if (!a || a->off || !a->nn || !ans_on(s) || !obj->build_id ||
	    !(ndeps = ans_deps(s, obj, deps)))
		return;
	path = ans_path(s, obj->build_id, obj->build_id_len);
	buf = path ? ans_build(a, deps, ndeps, ans_variant(s), &len) : NULL;
	if (buf)
		debugcache_put(path, buf, len);
	free(buf);
	free(path);
}

void sy_answers_free(struct elfobj *obj)
{
	struct answers *a = obj->ans;

	if (!a)
		return;
	free(a->buf);
	free(a->nv);
	free(a->nf);
	free(a);
	obj->ans = NULL;
}

void sy_answers_stop(struct symbols *s)
{
	if (s->ans_off)
		return;
	s->ans_off = 1;
	for (size_t i = 0; i < s->nobjs; i++) {
		struct answers *a = s->objs[i]->ans;

		if (!a)
			continue;
		/* what is read stays for look-ups; nothing new is kept */
		free(a->nv);
		free(a->nf);
		a->nv = NULL;
		a->nf = NULL;
		a->nn = a->ncap = a->nnf = a->nfcap = 0;
	}
}
