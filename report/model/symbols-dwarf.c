// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF: the function holding an address (by CU, or by the object's index
 * kept in the debug cache) and the chain of inlined functions in it, with
 * the scope trees of functions met again, kept in the cache too.
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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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


static int is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* The scopes within a function that can hold an inlined call (libdw's scope
 * walk descends into the same ones). */
static int is_inner_scope(int tag)
{
	return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block ||
	       tag == DW_TAG_try_block || tag == DW_TAG_catch_block || tag == DW_TAG_with_stmt;
}

/*
 * The scopes holding pc below the function DIE top, innermost first, top
 * last, into chain[CHAIN_MAX]. A DIE budget bounds the walk: the tree is
 * input.
 */
static int descend(Dwarf_Die *top, Dwarf_Addr pc, Dwarf_Die *chain)
{
	Dwarf_Die path[CHAIN_MAX];
	long budget = 1L << 20;
	int n = 0;

	path[n++] = *top;
	while (n < CHAIN_MAX) {
		Dwarf_Die c;
		int found = 0;

		if (dwarf_child(&path[n - 1], &c) != 0)
			break;
		do {
			if (is_inner_scope(dwarf_tag(&c)) && dwarf_haspc(&c, pc) == 1) {
				found = 1;
				break;
			}
		} while (--budget > 0 && dwarf_siblingof(&c, &c) == 0);
		if (!found)
			break;
		path[n++] = c;
	}
	for (int i = 0; i < n; i++)
		chain[i] = path[n - 1 - i];
	return n;
}

/*
 * A function's inner scopes, read once: descend() asks libdw for every
 * child of every scope on the way down, parsing each one's attributes
 * again for each new address, which was most of a report's DWARF time on
 * big functions (CPython's eval loop has thousands of inlined calls). A
 * function met at a second address gets a tree of its scopes (the same
 * DIEs descend() would step into, with their address ranges), and its
 * addresses are looked up in that; the DIEs on the way are found again
 * by offset.
 */
struct fsnode {
	Dwarf_Off off;
	uint32_t first_child, next_sibling;	/* node indices; 0 ends (node 0 is the function) */
	uint32_t r, nr;				/* its ranges: rng[r .. r + nr) */
};

struct fnscopes {
	Dwarf *dw;
	Dwarf_Off off;		/* the function's DIE */
	unsigned seen;		/* addresses asked of it; the tree is made at the second
				 * (at the first when the cache keeps trees: descend_fn()) */
	int made;		/* the tree is made (it may be empty: node 0 alone) */
	int cached;		/* read from the cache (scx_find()): rng is in n's block */
	struct fsnode *n;
	size_t nn, ncap;
	struct { Dwarf_Addr lo, hi; } *rng;
	size_t nr, rcap;
};

/*
 * DWARF is input: a function's nodes and ranges are bounded, and so are
 * an object's (a range list may be named by many DIEs, so a crafted file
 * could describe far more ranges than it holds); past that, descend().
 */
#define FNSCOPES_MAX	(1u << 20)
#define FNSCOPES_OBJ_MAX	((size_t)1 << 22)

static uint32_t fs_node(struct fnscopes *f, Dwarf_Die *d)
{
	struct fsnode *n;

	f->n = xgrow(f->n, &f->ncap, f->nn + 1, sizeof(*f->n));
	n = &f->n[f->nn];
	memset(n, 0, sizeof(*n));
	n->off = dwarf_dieoffset(d);
	n->r = (uint32_t)f->nr;
	return (uint32_t)f->nn++;
}

/* The inner scopes under DIE d (node at) into f, in DIE order; as deep as descend() goes. */
static void fs_read(struct fnscopes *f, Dwarf_Die *d, uint32_t at, int depth, long *budget)
{
	Dwarf_Die c;
	uint32_t last = 0;

	if (depth >= CHAIN_MAX || dwarf_child(d, &c) != 0)
		return;
	do {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t o = 0;
		uint32_t k;

		if (!is_inner_scope(dwarf_tag(&c)))
			continue;
		if (f->nn >= FNSCOPES_MAX || f->nr >= FNSCOPES_MAX)
			return;
		k = fs_node(f, &c);
		while ((o = dwarf_ranges(&c, o, &base, &lo, &hi)) > 0 && f->nr < FNSCOPES_MAX) {
			f->rng = xgrow(f->rng, &f->rcap, f->nr + 1, sizeof(*f->rng));
			f->rng[f->nr].lo = lo;
			f->rng[f->nr++].hi = hi;
		}
		f->n[k].nr = (uint32_t)(f->nr - f->n[k].r);
		if (last)
			f->n[last].next_sibling = k;
		else
			f->n[at].first_child = k;
		last = k;
		fs_read(f, &c, k, depth + 1, budget);
	} while (--*budget > 0 && dwarf_siblingof(&c, &c) == 0);
}

static int fs_has(const struct fnscopes *f, const struct fsnode *n, Dwarf_Addr pc)
{
	for (uint32_t i = 0; i < n->nr; i++)
		if (pc >= f->rng[n->r + i].lo && pc < f->rng[n->r + i].hi)
			return 1;
	return 0;
}

static int scx_find(struct elfobj *obj, struct fnscopes *f);

/* The index of an object's DWARF, made as addresses need it, freed whole (sy_free_cuidx()). */
struct dwidx {
	struct cuidx **cuidx;	/* the functions of each CU met, by address: */
	size_t ncuidx, cuidx_cap;	/* the items of cutab */
	struct htab cutab;
	struct fnindex *fnx;	/* all its functions by address */
	int fnx_state;		/* 0: not looked for; 1: fnx; -1: none, CU by CU */
	struct fnscopes **fsc;	/* the scope trees of functions met twice or more: */
	size_t nfsc, fsc_cap;	/* the items of fsctab */
	size_t fsc_cells;	/* their nodes and ranges, bounded for the object */
	struct htab fsctab;
	char *scx_path;		/* the cache's file of its scope trees (BUILDID.sc); NULL: none */
	Dwarf *scx_dw;		/* the DWARF they are of */
	uint64_t scx_info;	/* its .debug_info's size */
	size_t scx_new;		/* trees made here: the file is written anew */
	int scx_fd;		/* the file, open (-1: none, or not whole) */
	size_t scx_len;
	struct scxidx *scx_idx;	/* its index, by DIE offset */
	size_t scx_n;
};

/* obj's index, made when it has none. */
static struct dwidx *dx_of(struct elfobj *obj)
{
	if (!obj->dx) {
		obj->dx = xcalloc(1, sizeof(*obj->dx));
		obj->dx->scx_fd = -1;	/* no file of scope trees open */
	}
	return obj->dx;
}

/* The record of function top, made when new (from the cache's tree when it has one). */
static struct fnscopes *fs_of(struct elfobj *obj, Dwarf_Die *top)
{
	Dwarf *dw = dwarf_cu_getdwarf(top->cu);
	Dwarf_Off off = dwarf_dieoffset(top);
	struct htab_probe p;
	uint32_t j;
	struct fnscopes *f;

	htab_probe(&obj->dx->fsctab, htab_mix(off) ^ (uint64_t)(uintptr_t)dw, &p);
	while (htab_next(&obj->dx->fsctab, &p, &j))
		if (obj->dx->fsc[j]->off == off && obj->dx->fsc[j]->dw == dw)
			return obj->dx->fsc[j];
	f = xcalloc(1, sizeof(*f));
	f->dw = dw;
	f->off = off;
	if (dw == obj->dx->scx_dw)
		scx_find(obj, f);
	obj->dx->fsc = xgrow(obj->dx->fsc, &obj->dx->fsc_cap, obj->dx->nfsc + 1, sizeof(*obj->dx->fsc));
	obj->dx->fsc[obj->dx->nfsc] = f;
	htab_put(&obj->dx->fsctab, &p, (uint32_t)obj->dx->nfsc++);
	return f;
}

/*
 * descend(), from the function's scope tree once it has been asked a
 * second address: the same scopes, innermost first, top last.
 */
static int descend_fn(struct elfobj *obj, Dwarf_Die *top, Dwarf_Addr pc, Dwarf_Die *chain)
{
	struct fnscopes *f = fs_of(obj, top);
	/* with a cache of trees, made at once: the next report reads it there */
	int kept = obj->dx->scx_path && f->dw == obj->dx->scx_dw;
	uint32_t path[CHAIN_MAX];
	int n = 0;

	if (!f->made && (++f->seen < (kept ? 1 : 2) || obj->dx->fsc_cells >= FNSCOPES_OBJ_MAX))
		return descend(top, pc, chain);
	if (!f->made) {
		long budget = 1L << 20;

		f->made = 1;
		fs_node(f, top);
		fs_read(f, top, 0, 1, &budget);
		obj->dx->fsc_cells += f->nn + f->nr;
		obj->dx->scx_new += kept;
	}
	path[n++] = 0;
	while (n < CHAIN_MAX) {
		uint32_t c = f->n[path[n - 1]].first_child;

		while (c && !fs_has(f, &f->n[c], pc))
			c = f->n[c].next_sibling;
		if (!c)
			break;
		path[n++] = c;
	}
	chain[n - 1] = *top;
	for (int i = 1; i < n; i++)
		if (!dwarf_offdie(f->dw, f->n[path[i]].off, &chain[n - 1 - i]))
			return descend(top, pc, chain);	/* not found again: the slow way */
	return n;
}


/*
 * The concrete functions of a CU by address: a libc6-dbg or CPython CU
 * has thousands of top-level DIEs, and dwarf_getscopes parses them all to
 * find one function; looking among them for each new function was 30% of
 * a dwarf report of Python. So a CU's functions are listed once, the first
 * time an address falls in it, looking into containers (namespaces,
 * classes) but stepping over every other subtree.
 */
struct cufn {
	Dwarf_Addr lo, hi;
	Dwarf_Die die;
};

struct cuidx {
	Dwarf *dw;
	Dwarf_Off off;		/* the CU DIE's */
	struct cufn *fn;	/* sorted by lo */
	size_t n, cap;
};

/* Where walk_functions() puts each range of a function DIE. */
typedef void fn_sink(void *arg, Dwarf_Addr lo, Dwarf_Addr hi, Dwarf_Die *die);

/*
 * The function DIEs under parent and the ranges of each, into add: in
 * containers (namespaces, classes), and with nested, in functions and
 * lexical blocks too (GNU C nested functions); every other subtree is
 * stepped over. At most *budget DIEs.
 */
static void walk_functions(Dwarf_Die *parent, int depth, int nested, fn_sink *add, void *arg,
			   long *budget)
{
	Dwarf_Die c;

	if (depth > 8 || dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		int fn = tag == DW_TAG_subprogram || tag == DW_TAG_entry_point;

		if (fn) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;

			while ((off = dwarf_ranges(&c, off, &base, &lo, &hi)) > 0)
				if (hi > lo)
					add(arg, lo, hi, &c);
		}
		if ((sy_is_container(tag) || (nested && (fn || tag == DW_TAG_lexical_block))) &&
		    dwarf_haschildren(&c))
			walk_functions(&c, depth + 1, nested, add, arg, budget);
	} while (--*budget > 0 && dwarf_siblingof(&c, &c) == 0);
}

static void cuidx_add(void *arg, Dwarf_Addr lo, Dwarf_Addr hi, Dwarf_Die *die)
{
	struct cuidx *x = arg;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 64;
		x->fn = xreallocarray(x->fn, x->cap, sizeof(*x->fn));
	}
	x->fn[x->n++] = (struct cufn){ lo, hi, *die };
}

static int cufn_cmp(const void *a, const void *b)
{
	const struct cufn *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Of n ranges sorted by start, each item stride bytes beginning with its
 * uint64 lo and hi: the latest-starting one holding pc, among the last 8
 * starting at or below it (ranges may nest: nested functions); its index,
 * or -1 for none.
 */
static ptrdiff_t innermost(const void *v, size_t n, size_t stride, uint64_t pc)
{
	const unsigned char *b = v;
	size_t lo = 0, hi = n;
	uint64_t r[2];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		memcpy(r, b + mid * stride, sizeof(r));
		if (r[0] <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i-- > 0 && k < 8; k++) {
		memcpy(r, b + i * stride, sizeof(r));
		if (pc < r[1])
			return (ptrdiff_t)i;
	}
	return -1;
}

/* The concrete function of obj's CU cu holding pc: 1 and *out, or 0. */
static int find_function(struct elfobj *obj, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf *dw = dwarf_cu_getdwarf(cu->cu);
	Dwarf_Off off = dwarf_dieoffset(cu);
	ptrdiff_t i;
	struct cuidx *x = NULL;
	struct htab_probe p;
	uint32_t j;

	htab_probe(&obj->dx->cutab, off ^ (uint64_t)(uintptr_t)dw, &p);
	while (!x && htab_next(&obj->dx->cutab, &p, &j))
		if (obj->dx->cuidx[j]->off == off && obj->dx->cuidx[j]->dw == dw)
			x = obj->dx->cuidx[j];
	if (!x) {
		long budget = 1L << 20;

		x = xcalloc(1, sizeof(*x));
		x->dw = dw;
		x->off = off;
		walk_functions(cu, 0, 0, cuidx_add, x, &budget);
		if (x->n > 1) /* a CU without functions leaves x->fn NULL */
			qsort(x->fn, x->n, sizeof(*x->fn), cufn_cmp);
		if (obj->dx->ncuidx == obj->dx->cuidx_cap) {
			obj->dx->cuidx_cap = obj->dx->cuidx_cap ? 2 * obj->dx->cuidx_cap : 16;
			obj->dx->cuidx = xreallocarray(obj->dx->cuidx, obj->dx->cuidx_cap, sizeof(*obj->dx->cuidx));
		}
		obj->dx->cuidx[obj->dx->ncuidx] = x;
		htab_put(&obj->dx->cutab, &p, (uint32_t)obj->dx->ncuidx++);
	}
	i = innermost(x->fn, x->n, sizeof(*x->fn), pc);
	if (i < 0)
		return 0;
	*out = x->fn[i].die;
	return 1;
}


/*
 * The functions of the whole object by address, kept in the cache of
 * debug files (debugcache.h) as BUILDID.fn. Finding the function of a
 * new address the way above costs the CU lookup (libdw sorts all of
 * .debug_aranges, faulting in every CU's header) and a walk of the CU's
 * top-level DIEs: for the ~200 libc functions of a small system-wide
 * report, a third of its CPU, in every report. Walking every CU once
 * costs about as much (21 ms for libc6-dbg's 2063 CUs), and the index it
 * leaves (24 bytes a function) is read in microseconds by the next.
 * Besides containers it looks into functions and lexical blocks for
 * nested functions (GNU C), so that an address no entry holds is in no
 * function: nothing more to look for.
 */
struct fnent {
	uint64_t lo, hi, off;	/* [lo, hi): a range of the function DIE at off */
};
_Static_assert(offsetof(struct cufn, hi) == 8 && offsetof(struct fnent, hi) == 8 &&
		       sizeof(Dwarf_Addr) == 8,
	       "innermost() reads lo and hi at the start of both");

struct fnhdr {
	char magic[8];
	uint64_t info;		/* .debug_info's size: the DWARF it was made from */
	uint64_t n;
	uint64_t sum;
};

#define FNX_MAGIC	"PROFFNX2"
#define FNX_INFO_MAX	((uint64_t)64 << 20)	/* bigger DWARF is looked at CU by CU */
#define FNX_DIES_MAX	(32L << 20)		/* DIEs one walk may visit */

struct fnindex {
	struct fnent *v;
	size_t n, cap;
};

static void fnx_add(void *arg, Dwarf_Addr lo, Dwarf_Addr hi, Dwarf_Die *die)
{
	struct fnindex *x = arg;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 1024;
		x->v = xreallocarray(x->v, x->cap, sizeof(*x->v));
	}
	x->v[x->n++] = (struct fnent){ lo, hi, dwarf_dieoffset(die) };
}

static int fnent_cmp(const void *a, const void *b)
{
	const struct fnent *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* .debug_info's size in dw's file; 0 when none. */
static uint64_t info_size(Dwarf *dw)
{
	Elf *elf = dwarf_getelf(dw);
	GElf_Shdr sh;

	return elf && sy_section_named(elf, ".debug_info", &sh) && sh.sh_type != SHT_NOBITS
		       ? sh.sh_size
		       : 0;
}

/* Every compile unit's functions; 0, or -1 for DWARF not indexed whole (split, huge). */
static int fnx_build(Dwarf *dw, struct fnindex *x)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die cudie, subdie;
	Dwarf_Half version;
	uint8_t type;
	long budget = FNX_DIES_MAX;

	while (dwarf_get_units(dw, cu, &next, &version, &type, &cudie, &subdie) == 0) {
		cu = next;
		if (type == DW_UT_type || type == DW_UT_split_type)
			continue;
		if (type != DW_UT_compile && type != DW_UT_partial)
			return -1;	/* skeleton units: their functions are in .dwo files */
		walk_functions(&cudie, 0, 1, fnx_add, x, &budget);
		if (budget <= 0)
			return -1;
	}
	if (x->n > 1)
		qsort(x->v, x->n, sizeof(*x->v), fnent_cmp);
	return 0;
}

/* The index in the cache at path, made from DWARF of .debug_info size info; 0 or -1. */
static int fnx_read(const char *path, uint64_t info, struct fnindex *x)
{
	struct fnhdr h;
	size_t len;
	int err;
	char *buf = file_read_regular(path, (size_t)1 << 30, &len, &err);

	if (!buf)
		return -1;
	if (len < sizeof(h))
		goto bad;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, FNX_MAGIC, 8) || h.info != info ||
	    h.n != (len - sizeof(h)) / sizeof(struct fnent) ||
	    len != sizeof(h) + h.n * sizeof(struct fnent) ||
	    htab_hash_chunks(0, buf + sizeof(h), len - sizeof(h)) != h.sum)
		goto bad;
	x->n = x->cap = h.n;
	x->v = xreallocarray(NULL, h.n ? h.n : 1, sizeof(*x->v));
	memcpy(x->v, buf + sizeof(h), h.n * sizeof(*x->v));
	free(buf);
	for (size_t i = 0; i < x->n; i++)
		if (x->v[i].lo >= x->v[i].hi || (i && fnent_cmp(&x->v[i - 1], &x->v[i]) > 0)) {
			free(x->v);
			memset(x, 0, sizeof(*x));
			return -1;
		}
	return 0;
bad:
	free(buf);
	return -1;
}

static void fnx_write(const char *path, uint64_t info, const struct fnindex *x)
{
	size_t body = x->n * sizeof(*x->v);
	struct fnhdr h = { .info = info, .n = x->n };
	char *buf = xmalloc(sizeof(h) + body);

	memcpy(h.magic, FNX_MAGIC, 8);
	if (body)
		memcpy(buf + sizeof(h), x->v, body);
	h.sum = htab_hash_chunks(0, buf + sizeof(h), body);
	memcpy(buf, &h, sizeof(h));
	debugcache_put(path, buf, sizeof(h) + body);
	free(buf);
}

/* By the uint64_t first in each item: DIE offsets, and the .sc records led by one. */
static int off_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}


/*
 * The scope trees of the object's functions (struct fnscopes), kept in
 * the cache beside the index as BUILDID.sc: making a function's tree
 * walks its DIEs through libdw, a fifth of a small system-wide report's
 * instructions, and the same functions come back report after report.
 * The file holds every tree made so far: a header, an index of the trees
 * by their function's DIE offset, then each tree (its offset, counts and
 * checksum, its nodes, its ranges). The index is read, and a tree is
 * read and checked only when its function is met: a report's memory
 * holds the trees it uses, however many the file has. A file that is not
 * whole, or of other DWARF, is not read, and is written anew with the
 * trees made.
 */
struct scxhdr {
	char magic[8];
	uint64_t info;		/* .debug_info's size */
	uint64_t ntrees;
	uint64_t isum;		/* of the index */
};

struct scxidx {
	uint64_t off, pos;	/* a function's DIE offset, where its tree is in the file */
};

struct scxtree {
	uint64_t off;
	uint32_t nn, nr;
	uint64_t sum;		/* of its nodes and ranges */
};

#define SCX_MAGIC	"PROFSCX3"
#define SCX_FILE_MAX	((size_t)64 << 20)
/* bytes read at once for a tree: most trees whole, for one syscall */
#define SCX_READ	2048

_Static_assert(sizeof(struct fsnode) == 24 && sizeof(struct scxtree) == 24 &&
		       sizeof(struct scxidx) == 16,
	       "the cache's records are the structs' bytes, 8-aligned");
_Static_assert(offsetof(struct scxidx, off) == 0, "off_cmp() orders the index");

/* Open the file at obj->dx->scx_path and read its index, when it is whole and of obj's DWARF. */
static void scx_open(struct elfobj *obj)
{
	struct scxhdr h;
	struct stat st;
	struct scxidx *x = NULL;
	int fd = open(obj->dx->scx_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);

	if (fd < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(h) ||
	    (uint64_t)st.st_size > SCX_FILE_MAX || pread(fd, &h, sizeof(h), 0) != sizeof(h) ||
	    memcmp(h.magic, SCX_MAGIC, 8) || h.info != obj->dx->scx_info ||
	    h.ntrees > ((size_t)st.st_size - sizeof(h)) / sizeof(*x))
		goto bad;
	x = xreallocarray(NULL, h.ntrees ? h.ntrees : 1, sizeof(*x));
	if (pread(fd, x, h.ntrees * sizeof(*x), sizeof(h)) != (ssize_t)(h.ntrees * sizeof(*x)) ||
	    htab_hash_chunks(0, x, h.ntrees * sizeof(*x)) != h.isum)
		goto bad;
	for (uint64_t i = 0; i < h.ntrees; i++)
		if ((i && x[i].off <= x[i - 1].off) || x[i].pos % 8 ||
		    x[i].pos < sizeof(h) + h.ntrees * sizeof(*x) ||
		    x[i].pos > (uint64_t)st.st_size - sizeof(struct scxtree))
			goto bad;
	obj->dx->scx_fd = fd;
	obj->dx->scx_len = (size_t)st.st_size;
	obj->dx->scx_idx = x;
	obj->dx->scx_n = h.ntrees;
	return;
bad:
	free(x);
	close(fd);
}

/*
 * The tree of the function at DIE offset off in the file, read and
 * checked: its header into *t, its nodes and then its ranges in one
 * block (free it); NULL when none or bad.
 */
static void *scx_tree(const struct elfobj *obj, uint64_t off, struct scxtree *t)
{
	const struct scxidx key = { off, 0 };
	const struct scxidx *x = obj->dx->scx_fd >= 0 ? bsearch(&key, obj->dx->scx_idx, obj->dx->scx_n,
							     sizeof(key), off_cmp)
						   : NULL;
	const struct fsnode *n;
	uint64_t room;
	size_t bytes, got;
	ssize_t r;
	/* the header and, most often, the whole tree in one read */
	union {
		struct scxtree t;
		unsigned char b[SCX_READ];
	} head;
	void *body;

	if (!x)
		return NULL;
	room = obj->dx->scx_len - x->pos;
	r = pread(obj->dx->scx_fd, head.b, room < sizeof(head) ? room : sizeof(head), (off_t)x->pos);
	if (r < (ssize_t)sizeof(*t))
		return NULL;
	*t = head.t;
	room -= sizeof(*t);
	if (t->off != off || !t->nn || t->nn > FNSCOPES_MAX || t->nr > FNSCOPES_MAX ||
	    room / sizeof(*n) < t->nn || (room - t->nn * sizeof(*n)) / 16 < t->nr)
		return NULL;
	bytes = t->nn * sizeof(*n) + (size_t)t->nr * 16;
	body = xmalloc(bytes);
	got = (size_t)r - sizeof(*t) < bytes ? (size_t)r - sizeof(*t) : bytes;
	memcpy(body, head.b + sizeof(*t), got);
	if ((got < bytes && pread(obj->dx->scx_fd, (char *)body + got, bytes - got,
				  (off_t)(x->pos + sizeof(*t) + got)) != (ssize_t)(bytes - got)) ||
	    htab_hash_chunks(0, body, bytes) != t->sum)
		goto bad;
	n = body;
	if (n[0].off != off)
		goto bad;
	/* as fs_read() makes them: children and siblings after, ranges its own */
	for (uint32_t i = 0; i < t->nn; i++)
		if ((n[i].first_child && (n[i].first_child <= i || n[i].first_child >= t->nn)) ||
		    (n[i].next_sibling && (n[i].next_sibling <= i || n[i].next_sibling >= t->nn)) ||
		    n[i].r > t->nr || n[i].nr > t->nr - n[i].r)
			goto bad;
	return body;
bad:
	free(body);
	return NULL;
}

/* f (new, of obj's DWARF) made from the cache's tree of its function: 1, or 0. */
static int scx_find(struct elfobj *obj, struct fnscopes *f)
{
	struct scxtree t;
	struct fsnode *body = obj->dx->scx_n ? scx_tree(obj, f->off, &t) : NULL;

	if (!body)
		return 0;
	if (obj->dx->fsc_cells + t.nn + t.nr > FNSCOPES_OBJ_MAX) {
		free(body);
		return 0;
	}
	f->made = 1;
	f->cached = 1;
	f->n = body;
	f->nn = f->ncap = t.nn;
	f->rng = (void *)(body + t.nn);
	f->nr = f->rcap = t.nr;
	obj->dx->fsc_cells += t.nn + t.nr;
	return 1;
}

struct scxout {
	uint64_t off;		/* first: off_cmp() orders them */
	const void *tree;	/* the file's, read (scx_tree()): nodes then ranges */
	const struct fnscopes *f;	/* or the report's */
	uint32_t nn, nr;
};

/*
 * When trees were made, write the file anew: the trees of obj's DWARF
 * made or read, and the file's others that this report did not meet.
 */
static void scx_write(struct elfobj *obj)
{
	struct scxhdr h = { .info = obj->dx->scx_info };
	struct scxout *v;
	size_t n = 0, len, at;
	char *buf;

	if (!obj->dx->scx_path || !obj->dx->scx_new)
		return;
	v = xreallocarray(NULL, obj->dx->nfsc + obj->dx->scx_n + 1, sizeof(*v));
	for (size_t i = 0; i < obj->dx->nfsc; i++) {
		const struct fnscopes *f = obj->dx->fsc[i];

		if (f->made && f->nn && f->dw == obj->dx->scx_dw)
			v[n++] = (struct scxout){ f->off, NULL, f, (uint32_t)f->nn, (uint32_t)f->nr };
	}
	qsort(v, n, sizeof(*v), off_cmp);
	for (size_t i = 0, m = n; i < obj->dx->scx_n; i++) {
		const struct scxout key = { obj->dx->scx_idx[i].off, NULL, NULL, 0, 0 };
		struct scxtree t;
		void *body;

		if (bsearch(&key, v, m, sizeof(*v), off_cmp))
			continue;	/* met here: written from the report's */
		body = scx_tree(obj, obj->dx->scx_idx[i].off, &t);
		if (body)
			v[n++] = (struct scxout){ t.off, body, NULL, t.nn, t.nr };
	}
	qsort(v, n, sizeof(*v), off_cmp);
	len = sizeof(h) + n * sizeof(struct scxidx);
	for (size_t i = 0; i < n; i++)
		len += sizeof(struct scxtree) + v[i].nn * sizeof(struct fsnode) + (size_t)v[i].nr * 16;
	if (len > SCX_FILE_MAX) {
		for (size_t i = 0; i < n; i++)
			free((void *)v[i].tree);
		free(v);
		return;
	}
	buf = xcalloc(1, len);
	at = sizeof(h) + n * sizeof(struct scxidx);
	for (size_t i = 0; i < n; i++) {
		struct scxidx x = { v[i].off, at };
		struct scxtree t = { v[i].off, v[i].nn, v[i].nr, 0 };
		size_t nb = v[i].nn * sizeof(struct fsnode), rb = (size_t)v[i].nr * 16;

		if (v[i].tree) {
			memcpy(buf + at + sizeof(t), v[i].tree, nb + rb);
		} else {
			memcpy(buf + at + sizeof(t), v[i].f->n, nb);
			if (rb)
				memcpy(buf + at + sizeof(t) + nb, v[i].f->rng, rb);
		}
		t.sum = htab_hash_chunks(0, buf + at + sizeof(t), nb + rb);
		memcpy(buf + at, &t, sizeof(t));
		memcpy(buf + sizeof(h) + i * sizeof(x), &x, sizeof(x));
		at += sizeof(t) + nb + rb;
	}
	memcpy(h.magic, SCX_MAGIC, 8);
	h.ntrees = n;
	h.isum = htab_hash_chunks(0, buf + sizeof(h), n * sizeof(struct scxidx));
	memcpy(buf, &h, sizeof(h));
	debugcache_put(obj->dx->scx_path, buf, len);
	free(buf);
	for (size_t i = 0; i < n; i++)
		free((void *)v[i].tree);
	free(v);
}

/* Let go of the cache's file of obj's trees. */
static void scx_close(struct elfobj *obj)
{
	if (obj->dx->scx_fd >= 0)
		close(obj->dx->scx_fd);
	obj->dx->scx_fd = -1;
	free(obj->dx->scx_idx);
	obj->dx->scx_idx = NULL;
	obj->dx->scx_len = obj->dx->scx_n = 0;
	free(obj->dx->scx_path);
	obj->dx->scx_path = NULL;
	obj->dx->scx_dw = NULL;
	obj->dx->scx_new = 0;
}

/* obj's index of dw's functions: read, or made and kept; NULL to look CU by CU. */
static struct fnindex *fnx_of(struct elfobj *obj, Dwarf *dw)
{
	struct fnindex x = { 0 };
	uint64_t info;
	char *path;

	if (obj->dx->fnx_state)
		return obj->dx->fnx_state > 0 ? obj->dx->fnx : NULL;
	obj->dx->fnx_state = -1;
	info = info_size(dw);
	path = obj->build_id ? debugcache_path(obj->build_id, obj->build_id_len, ".fn") : NULL;
	if (!path || !info)
		goto out;
	if (fnx_read(path, info, &x) < 0) {
		if (info > FNX_INFO_MAX || fnx_build(dw, &x) < 0) {
			free(x.v);
			goto out;
		}
		fnx_write(path, info, &x);
	}
	{
		/* the units' headers read now, their pages let go (sy_release_units()) */
		uint64_t *offs = xreallocarray(NULL, x.n ? x.n : 1, sizeof(*offs));

		for (size_t i = 0; i < x.n; i++)
			offs[i] = x.v[i].off;
		sy_release_units(dw, offs, x.n);
		free(offs);
	}
	obj->dx->fnx = xmalloc(sizeof(*obj->dx->fnx));
	*obj->dx->fnx = x;
	obj->dx->fnx_state = 1;
	/* the trees of its functions, when this DWARF's are in the cache */
	scx_close(obj);
	obj->dx->scx_path = debugcache_path(obj->build_id, obj->build_id_len, ".sc");
	obj->dx->scx_dw = dw;
	obj->dx->scx_info = info;
	if (obj->dx->scx_path)
		scx_open(obj);
out:
	free(path);
	return obj->dx->fnx;
}

/* The function DIE holding pc: 1, 0 when none does, -1 when the index is wrong. */
static int fnx_find(const struct fnindex *x, Dwarf *dw, Dwarf_Addr pc, Dwarf_Die *out)
{
	ptrdiff_t i = innermost(x->v, x->n, sizeof(*x->v), pc);
	int tag;

	if (i < 0)
		return 0;
	if (!dwarf_offdie(dw, x->v[i].off, out))
		return -1;
	tag = dwarf_tag(out);
	return (tag == DW_TAG_subprogram || tag == DW_TAG_entry_point) && dwarf_haspc(out, pc) == 1
		       ? 1
		       : -1;
}

/* Forget obj's index; state: 0 to look for it again when next needed, -1 never. */
static void fnx_drop(struct elfobj *obj, int state)
{
	if (obj->dx->fnx)
		free(obj->dx->fnx->v);
	free(obj->dx->fnx);
	obj->dx->fnx = NULL;
	obj->dx->fnx_state = state;
}

void sy_free_cuidx(struct elfobj *obj)
{
	if (!obj->dx)
		return;
	fnx_drop(obj, 0);
	for (size_t i = 0; i < obj->dx->ncuidx; i++) {
		free(obj->dx->cuidx[i]->fn);
		free(obj->dx->cuidx[i]);
	}
	free(obj->dx->cuidx);
	htab_release(&obj->dx->cutab);
	scx_write(obj);
	for (size_t i = 0; i < obj->dx->nfsc; i++) {
		free(obj->dx->fsc[i]->n);
		if (!obj->dx->fsc[i]->cached)
			free(obj->dx->fsc[i]->rng);
		free(obj->dx->fsc[i]);
	}
	scx_close(obj);
	free(obj->dx->fsc);
	htab_release(&obj->dx->fsctab);
	free(obj->dx);
	obj->dx = NULL;
}

/*
 * The concrete scopes holding module address a, innermost first, ending
 * with the function that holds them, into chain[CHAIN_MAX]; *dbias is
 * DWARF's bias. As elfutils' addr2line -i and stack -i do: the innermost
 * function-like scope from dwarf_getscopes, then its parents from
 * dwarf_getscopes_die (dwarf_getscopes goes on into the abstract origin's
 * scopes, which are no callers). That walks the whole CU, so the function's
 * DIE is remembered in its symbol, and the next address of the function
 * only searches the function's own subtree. With cache, a new function is
 * found in the object's index of functions (fnx_of()) instead.
 */
int sy_scope_chain(struct elfobj *obj, struct fsym *sym, Dwarf_Addr a, Dwarf_Die *chain,
		   Dwarf_Addr *dbias, int cache)
{
	Dwarf_Die *cu, *scopes = NULL, *full = NULL;
	Dwarf *dw;
	int n = 0, nscopes, nfull = 0;

	dx_of(obj);
	*dbias = 0;
	if (sym && sym->die == NO_DIE)
		return 0;
	if (sym && sym->die) {
		Dwarf_Die die;

		dw = dwfl_module_getdwarf(obj->mod, dbias);
		if (dw && dwarf_offdie(dw, sym->die, &die) && dwarf_haspc(&die, a - *dbias) == 1)
			return descend_fn(obj, &die, a - *dbias, chain);
	}
	dw = cache ? dwfl_module_getdwarf(obj->mod, dbias) : NULL;
	if (dw && fnx_of(obj, dw)) {
		Dwarf_Die fn;

		switch (fnx_find(obj->dx->fnx, dw, a - *dbias, &fn)) {
		case 1:
			if (sym)
				sym->die = dwarf_dieoffset(&fn);
			return descend_fn(obj, &fn, a - *dbias, chain);
		case 0:
			if (sym)
				sym->die = NO_DIE;
			return 0;
		default:	/* not this DWARF's: CU by CU from now on */
			fnx_drop(obj, -1);
		}
	}
	cu = dwfl_module_addrdie(obj->mod, a, dbias);
	if (!cu) {
		if (sym)
			sym->die = NO_DIE;
		return 0;
	}
	{
		Dwarf_Die fn;

		if (find_function(obj, cu, a - *dbias, &fn)) {
			dw = dwfl_module_getdwarf(obj->mod, &(Dwarf_Addr){ 0 });
			if (sym)
				sym->die = dw && dwarf_cu_getdwarf(fn.cu) == dw ? dwarf_dieoffset(&fn)
										 : 0;
			return descend_fn(obj, &fn, a - *dbias, chain);
		}
	}
	nscopes = dwarf_getscopes(cu, a - *dbias, &scopes);
	for (int i = 0; i < nscopes; i++) {
		if (is_function(dwarf_tag(&scopes[i]))) {
			nfull = dwarf_getscopes_die(&scopes[i], &full);
			break;
		}
	}
	if (sym)
		sym->die = NO_DIE;	/* unless a function turns up */
	for (int i = 0; i < nfull && n < CHAIN_MAX; i++) {
		int tag = dwarf_tag(&full[i]);
		Dwarf_Addr b;

		chain[n++] = full[i];
		if (tag != DW_TAG_subprogram && tag != DW_TAG_entry_point)
			continue;
		/* dwarf_offdie finds it again only in the main debug file. */
		dw = dwfl_module_getdwarf(obj->mod, &b);
		if (sym)
			sym->die = dw && dwarf_cu_getdwarf(full[i].cu) == dw ? dwarf_dieoffset(&full[i])
									    : 0;
		break;
	}
	free(scopes);
	free(full);
	return n;
}
