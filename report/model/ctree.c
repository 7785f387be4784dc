// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The call tree. Names are interned, so a node is found by (parent, name,
 * flags): in its parent's short list of children, or in one htab once the
 * parent has many; consecutive samples mostly share their path, which a
 * memo of the last one skips.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctree.h"
#include "htab.h"
#include "module.h"
#include "strpool.h"
#include "xalloc.h"

/*
 * The path memo is made once a tree has this many samples: it pays on
 * hot loops, and a file may hold thousands of events of a sample or two,
 * each of which must cost what it holds.
 */
#define PATH_MEMO 256
#define MEMO_AFTER 64

/*
 * A frame with no symbol is named by its object and address ("libfoo.so+0x1a2b"),
 * a text printed and interned: per frame per sample that was a tenth of a
 * system-wide -g caller report. The names are kept by (object, address)
 * once the tree has MEMO_AFTER samples.
 */
#define NAME_MEMO 1024

/*
 * A node's children are found in its list until it has KIDS_LISTED of
 * them, then in the htab. Most look-ups of a big tree make a node (of a
 * system-wide -g caller report's 1.25M, 988K made one), and most of
 * those are under a node as new, whose list is empty: in the htab, each
 * was a slot in a table of megabytes, a cache miss to find it empty and
 * another to fill it (lookup() was 15% of the report). A short list
 * costs a few nodes' reads, close by when made together.
 */
#define KIDS_LISTED 8

struct name_memo {
	const struct dso *dso;
	uint64_t addr;
	const char *name;	/* NULL: empty */
	unsigned kernel, flags;
};

/*
 * Nodes live in chunks that never move: the tree grows by a chunk at a
 * time, not by copying one array twice its size (a system-wide -g caller
 * report holds millions of nodes), and a node's address is stable.
 * Chunks double from 2^CHUNK0_BITS nodes up to 2^CHUNK_MAX_BITS, so a
 * tree of a few nodes stays small; only the directory of chunks, a
 * pointer for each 64K nodes, is an array that doubles.
 */
#define CHUNK0_BITS	4
#define CHUNK_MAX_BITS	16
/* the nodes the doubling chunks hold: 2^CHUNK0_BITS + ... + 2^CHUNK_MAX_BITS */
#define SMALL_NODES	(((size_t)1 << (CHUNK_MAX_BITS + 1)) - ((size_t)1 << CHUNK0_BITS))
#define SMALL_CHUNKS	(CHUNK_MAX_BITS - CHUNK0_BITS + 1)

struct ctree {
	struct strpool *pool;
	int merge;
	struct ctree_node **chunk;	/* node 0 means "none"; the htab's items */
	size_t nchunks, chunk_cap;
	size_t nnodes, cap;		/* cap: the nodes the chunks hold */
	struct htab tab;		/* (parent, name, flags) -> node, roots left out */
	uint64_t samples;
	/* the last path added */
	size_t path_start;
	int path_len, path_cap;		/* path_cap: 0, then PATH_MEMO */
	const char **path_name;
	unsigned *path_flags;
	size_t *path_node;
	struct name_memo *names;	/* NAME_MEMO of them, or NULL */
	uint64_t cut;			/* samples whose deeper frames the node budget left out */
};

/* Node id: in a doubling chunk (the first SMALL_NODES), or in one of 2^CHUNK_MAX_BITS. */
static inline struct ctree_node *node_at(const struct ctree *t, size_t id)
{
	if (id < SMALL_NODES) {
		size_t x = id + ((size_t)1 << CHUNK0_BITS);
		int b = 63 - __builtin_clzll((unsigned long long)x);	/* x in [2^b, 2^(b+1)) */

		return &t->chunk[b - CHUNK0_BITS][x - ((size_t)1 << b)];
	}
	id -= SMALL_NODES;
	return &t->chunk[SMALL_CHUNKS + (id >> CHUNK_MAX_BITS)]
			[id & (((size_t)1 << CHUNK_MAX_BITS) - 1)];
}

/* Room for node t->cap: one more chunk. */
static void grow(struct ctree *t)
{
	size_t n = t->nchunks < SMALL_CHUNKS ? (size_t)1 << (CHUNK0_BITS + t->nchunks)
					      : (size_t)1 << CHUNK_MAX_BITS;

	if (t->cap + n > UINT32_MAX) {
		fprintf(stderr, "prof: a call tree of over %u nodes: too big to hold\n", UINT32_MAX);
		exit(1);
	}
	t->chunk = xgrow(t->chunk, &t->chunk_cap, t->nchunks + 1, sizeof(*t->chunk));
	/* a big tree's chunks are megabytes, filled in order: a fault per 2 MiB, not per page */
	t->chunk[t->nchunks++] = xmalloc_huge(n, sizeof(struct ctree_node));
	t->cap += n;
}

/* "0x" and v in lower-case hex at p, as printf's "0x%llx": its length. */
static size_t put_hex(char *p, uint64_t v)
{
	char d[16];
	size_t n = 0, len;

	do {
		d[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	p[0] = '0';
	p[1] = 'x';
	for (len = 2; n; )
		p[len++] = d[--n];
	return len;
}

const char *frame_name(struct strpool *pool, const struct rframe *f, int merge,
		       unsigned *flags)
{
	char buf[512];
	size_t len = 0;

	if (f->name) {
		*flags = (f->kernel ? FRAME_KERNEL : 0) | (f->inlined ? FRAME_INLINED : 0);
		return f->name;	/* interned by the symbolizer: stable for the run */
	}
	*flags = FRAME_NONAME | (f->kernel && !merge ? FRAME_KERNEL : 0);
	if ((f->dso && dso_unknown(f->dso)) || (!f->dso && merge))
		return strpool_intern(pool, "[unknown]");
	/*
	 * Code of a file with no symbol there: "?? (file)", one entry a file
	 * (as hotspot's "??"), its addresses one level down (--sort
	 * sym,srcline); made by hand, not by snprintf(): a system-wide
	 * -g file has 240K such frames.
	 */
	if (f->dso) {
		const char *dn = dso_short_name(f->dso);

		memcpy(buf, "?? (", 4);
		len = 4 + strnlen(dn, sizeof(buf) - 8);
		memcpy(buf + 4, dn, len - 4);
		buf[len++] = ')';
		return strpool_intern_len(pool, buf, len);
	}
	/* "0x7f.." outside any file, as perf report shows it */
	len += put_hex(buf + len, f->addr);
	return strpool_intern_len(pool, buf, len);
}

int frame_run(const struct rframe *f, const struct rframe *prev)
{
	return !f->name && !prev->name && f->dso && f->dso == prev->dso && !dso_unknown(f->dso) &&
	       f->kernel == prev->kernel;
}

struct ctree *ctree_new(struct strpool *pool, int merge)
{
	struct ctree *t = xcalloc(1, sizeof(*t));

	t->pool = pool;
	t->merge = merge;
	grow(t);	/* 16 nodes: a file may hold thousands of events */
	memset(node_at(t, 0), 0, sizeof(struct ctree_node));
	t->nnodes = 1;
	htab_init(&t->tab);
	return t;
}

void ctree_free(struct ctree *t)
{
	if (!t)
		return;
	for (size_t c = 0; c < t->nchunks; c++)
		free(t->chunk[c]);
	free(t->chunk);
	htab_release(&t->tab);
	free(t->path_name);
	free(t->path_flags);
	free(t->path_node);
	free(t->names);
	free(t);
}

static size_t new_node(struct ctree *t, size_t parent, const char *name, unsigned flags)
{
	struct ctree_node *n;
	size_t id;

	if (t->nnodes == t->cap)
		grow(t);
	id = t->nnodes++;
	n = node_at(t, id);
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->flags = flags;
	n->parent = (uint32_t)parent;
	if (parent) {
		struct ctree_node *up = node_at(t, parent);

		n->next_sibling = up->first_child;
		up->first_child = (uint32_t)id;
	}
	return id;
}

size_t ctree_root(struct ctree *t, const char *name, unsigned flags)
{
	return new_node(t, 0, name, flags);
}

/* Whether the children of node at are in the htab (node 0's, the roots', would be). */
static int kids_hashed(const struct ctree *t, size_t at)
{
	return !at || node_at(t, at)->kids >= KIDS_LISTED;
}

static void probe_kid(const struct ctree *t, size_t at, const char *name, unsigned flags,
		      struct htab_probe *p)
{
	/* one multiply here, one in the probe: this runs for every frame */
	htab_probe(&t->tab, (uint64_t)at * 0xc2b2ae3d27d4eb4fULL ^ (uintptr_t)name ^ flags, p);
}

/*
 * The child of at called name with flags: its id, or 0; when at's
 * children are hashed, with p left on the empty slot.
 */
static size_t lookup(const struct ctree *t, size_t at, const char *name, unsigned flags,
		     struct htab_probe *p)
{
	uint32_t i;

	if (!kids_hashed(t, at)) {
		for (size_t c = node_at(t, at)->first_child; c; c = node_at(t, c)->next_sibling) {
			const struct ctree_node *n = node_at(t, c);

			if (n->name == name && n->flags == flags)
				return c;
		}
		return 0;
	}
	probe_kid(t, at, name, flags, p);
	while (htab_next(&t->tab, p, &i)) {
		const struct ctree_node *n = node_at(t, i);

		if (n->parent == at && n->name == name && n->flags == flags)
			return i;
	}
	return 0;
}

/* Node id into the htab, where lookup() finds it. */
static void hash_kid(struct ctree *t, size_t id)
{
	const struct ctree_node *n = node_at(t, id);
	struct htab_probe p;
	uint32_t i;

	probe_kid(t, n->parent, n->name, n->flags, &p);
	while (htab_next(&t->tab, &p, &i))
		;
	htab_put(&t->tab, &p, (uint32_t)id);
}

size_t ctree_child(struct ctree *t, size_t at, const char *name, unsigned flags)
{
	struct htab_probe p;
	size_t id = lookup(t, at, name, flags, &p);
	struct ctree_node *up;

	if (id)
		return id;
	id = new_node(t, at, name, flags);
	up = node_at(t, at);
	if (kids_hashed(t, at))
		htab_put(&t->tab, &p, (uint32_t)id);
	else if (++up->kids == KIDS_LISTED)
		for (size_t c = up->first_child; c; c = node_at(t, c)->next_sibling)
			hash_kid(t, c);
	return id;
}

size_t ctree_find(const struct ctree *t, size_t at, const char *name, unsigned flags)
{
	struct htab_probe p;

	return at && at < t->nnodes ? lookup(t, at, name, flags, &p) : 0;
}

void ctree_graft(struct ctree *dst, size_t at, const struct ctree *src, size_t from)
{
	const struct ctree_node *s = node_at(src, from);
	struct ctree_node *d = node_at(dst, at);

	d->samples += s->samples;
	d->period += s->period;
	d->self_samples += s->self_samples;
	d->self_period += s->self_period;
	for (size_t c = s->first_child; c; c = node_at(src, c)->next_sibling) {
		const struct ctree_node *sc = node_at(src, c);

		ctree_graft(dst, ctree_child(dst, at, strpool_intern(dst->pool, sc->name), sc->flags),
			    src, c);
	}
}

/* frame_name(), from the memo for a frame with no symbol. */
static const char *tree_frame_name(struct ctree *t, const struct rframe *f, unsigned *flags)
{
	struct name_memo *m;

	if (f->name || !t->names)
		return frame_name(t->pool, f, t->merge, flags);
	m = &t->names[(f->addr ^ f->addr >> 10 ^ (uintptr_t)f->dso >> 4) & (NAME_MEMO - 1)];
	if (!m->name || m->dso != f->dso || m->addr != f->addr || m->kernel != f->kernel) {
		m->name = frame_name(t->pool, f, t->merge, &m->flags);
		m->dso = f->dso;
		m->addr = f->addr;
		m->kernel = f->kernel;
	}
	*flags = m->flags;
	return m->name;
}

static void count(struct ctree *t, size_t at, const struct rsample *s)
{
	struct ctree_node *n = node_at(t, at);

	n->samples += s->count;
	n->period += s->period;
}

void ctree_add(struct ctree *t, size_t at, const struct rsample *s, int from, int step,
	       int with_comm)
{
	size_t self = at;
	int k = 0, same = at == t->path_start && !with_comm;

	if (!t->path_cap && t->samples >= MEMO_AFTER) {
		t->path_name = xcalloc(PATH_MEMO, sizeof(*t->path_name));
		t->path_flags = xcalloc(PATH_MEMO, sizeof(*t->path_flags));
		t->path_node = xcalloc(PATH_MEMO, sizeof(*t->path_node));
		t->path_cap = PATH_MEMO;
		t->names = xcalloc(NAME_MEMO, sizeof(*t->names));
	}
	t->samples += s->count;
	count(t, at, s);
	if (with_comm) {
		at = ctree_child(t, at, strpool_intern(t->pool, s->comm ? s->comm : "[unknown]"),
				 FRAME_COMM);
		count(t, at, s);
		same = at == t->path_start;
	}
	t->path_start = at;
	for (int i = from; i >= 0 && i < s->nframes; i += step) {
		unsigned flags;
		const char *name;

		/* a run of a file's unnamed frames is one "??" node */
		if (i - step >= 0 && i - step < s->nframes &&
		    frame_run(&s->frames[i], &s->frames[i - step])) {
			if (i == 0)
				self = at;
			continue;
		}
		name = tree_frame_name(t, &s->frames[i], &flags);
		if (same && k < t->path_len && t->path_name[k] == name &&
		    t->path_flags[k] == flags) {
			at = t->path_node[k];
		} else {
			same = 0;
			if (t->nnodes >= CTREE_MAX_NODES) {
				/* past the budget: a path already there is followed, none made */
				size_t known = ctree_find(t, at, name, flags);

				if (!known) {
					t->cut += s->count;
					if (step < 0)
						self = at;	/* the deepest it reached; callee-first has its leaf */
					break;
				}
				at = known;
			} else {
				at = ctree_child(t, at, name, flags);
			}
			if (k < t->path_cap) {
				t->path_name[k] = name;
				t->path_flags[k] = flags;
				t->path_node[k] = at;
			}
		}
		count(t, at, s);
		if (i == 0)
			self = at;
		k++;
	}
	t->path_len = k < t->path_cap ? k : t->path_cap;
	node_at(t, self)->self_samples += s->count;
	node_at(t, self)->self_period += s->period;
}

uint64_t ctree_cut(const struct ctree *t)
{
	return t ? t->cut : 0;
}

const struct ctree_node *ctree_node(const struct ctree *t, size_t i)
{
	return i && i < t->nnodes ? node_at(t, i) : NULL;
}

size_t ctree_count(const struct ctree *t)
{
	return t->nnodes - 1;
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct ctree *t = arg;
	const struct ctree_node *x = node_at(t, *(const size_t *)a);
	const struct ctree_node *y = node_at(t, *(const size_t *)b);
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->flags - (int)y->flags;
}

void ctree_sort(struct ctree *t)
{
	size_t *kids = NULL, cap = 0;

	for (size_t id = 1; id < t->nnodes; id++) {
		size_t n = 0;

		for (size_t c = node_at(t, id)->first_child; c; c = node_at(t, c)->next_sibling) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				kids = xreallocarray(kids, cap, sizeof(*kids));
			}
			kids[n++] = c;
		}
		if (n < 2)
			continue;
		qsort_r(kids, n, sizeof(*kids), by_name, t);
		node_at(t, id)->first_child = (uint32_t)kids[0];
		for (size_t i = 0; i + 1 < n; i++)
			node_at(t, kids[i])->next_sibling = (uint32_t)kids[i + 1];
		node_at(t, kids[n - 1])->next_sibling = 0;
	}
	free(kids);
}
