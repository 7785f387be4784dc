// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Aggregation. Every text is interned, so an entry's key is a tuple of
 * pointers (and the flags of its frame) found through one htab; the call
 * graphs are one ctree.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctree.h"
#include "datasrc.h"
#include "hist.h"
#include "htab.h"
#include "module.h"
#include "strpool.h"
#include "xalloc.h"

/*
 * The entry of a named frame, by what its key texts depend on when the
 * keys are comm, dso and sym: a hit skips formatting and hashing them.
 */
struct entry_memo {
	const char *comm, *name, *inl_in;
	const struct dso *dso;
	uint64_t addr;		/* an unnamed frame's (name NULL): its srcline text is dso+0xADDR */
	unsigned flags;
	struct hist_entry *e;
};

#define ENTRY_MEMO 256
/*
 * The memo is made once a hist has this many samples: they pay on hot
 * loops, and a file may hold thousands of events of a sample or two,
 * each of which must cost what it holds.
 */
#define MEMO_AFTER 64

struct hist {
	struct hist_opts o;
	signed char slot[HIST_NKEYS];	/* key k's place in an entry's tx, or -1 */
	struct strpool *pool;
	struct entry_memo *memo;	/* ENTRY_MEMO of them, from MEMO_AFTER samples on */
	int memo_ok;			/* the keys are among comm, dso, sym */
	int sym_key;			/* sym is one of the keys */
	struct hist_entry **ents;	/* the htab's items */
	size_t nents, cap_ents;
	struct hist_entry *over;	/* past HIST_MAX_ENTRIES: the one entry for all that follow */
	uint64_t folded;		/* look-ups that found no entry and got over */
	struct htab etab;
	struct hist_entry **sorted;
	struct ctree *tree;		/* the call graphs, made at the first */
	size_t root;
	uint64_t total, samples;
	int sorted_ok;
};

struct hist *hist_new(const struct hist_opts *o)
{
	struct hist *h = xcalloc(1, sizeof(*h));

	h->o = *o;
	memset(h->slot, -1, sizeof(h->slot));
	for (int k = 0; k < o->nkeys; k++)
		h->slot[o->keys[k]] = (signed char)k;
	h->memo_ok = 1;
	for (int k = 0; k < o->nkeys; k++)
		h->sym_key |= o->keys[k] == HIST_SYM;
	for (int k = 0; k < o->nkeys; k++)
		if (o->keys[k] != HIST_COMM && o->keys[k] != HIST_DSO && o->keys[k] != HIST_SYM)
			h->memo_ok = 0;
	h->pool = strpool_new();
	htab_init(&h->etab);	/* small, doubling: a file may hold thousands of events */
	return h;
}

void hist_free(struct hist *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nents; i++)
		free(h->ents[i]);
	free(h->ents);
	htab_release(&h->etab);
	free(h->sorted);
	ctree_free(h->tree);
	free(h->memo);
	strpool_free(h->pool);
	free(h);
}

/*
 * A sample's transaction flags in perf's words (its sort.c): each flag's,
 * NEITHER when neither sync nor async, and the abort code after a ':'.
 */
static void tx_words(uint64_t t, char *buf, size_t len)
{
	static const struct { uint64_t flag; const char *name; } bits[] = {
		{ PERF_TXN_ELISION, "EL " }, { PERF_TXN_TRANSACTION, "TX " },
		{ PERF_TXN_SYNC, "SYNC " }, { PERF_TXN_ASYNC, "ASYNC " },
		{ PERF_TXN_RETRY, "RETRY " }, { PERF_TXN_CONFLICT, "CON " },
		{ PERF_TXN_CAPACITY_WRITE, "CAP-WRITE " }, { PERF_TXN_CAPACITY_READ, "CAP-READ " },
	};
	size_t n = 0;

	buf[0] = '\0';
	if (!t)
		return;		/* perf's: nothing, not NEITHER */
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (t & bits[i].flag)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s", bits[i].name);
	if (!(t & (PERF_TXN_SYNC | PERF_TXN_ASYNC)) && n < len)
		n += (size_t)snprintf(buf + n, len - n, "NEITHER ");
	if ((t & PERF_TXN_ABORT_MASK) && n < len)
		n += (size_t)snprintf(buf + n, len - n, ":%llx",
				      (unsigned long long)((t & PERF_TXN_ABORT_MASK) >>
							   PERF_TXN_ABORT_SHIFT));
	else if (n && n <= len)
		buf[n - 1] = '\0';	/* the last word's space */
}

/* A page's size as perf names it: 4K, 2M, 1G; N/A for 0 (the kernel could not say). */
static void page_size_name(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "BKMGTPEZY";
	int i = 0;

	if (!size) {
		snprintf(buf, len, "N/A");
		return;
	}
	while (size / 1024 > 1 && i < 8) {
		size /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)size, units[i]);
}

static const char *key_text(struct hist *h, enum hist_key k, const struct rsample *s,
			    const struct rframe *f, unsigned *flags)
{
	char buf[1024];

	switch (k) {
	case HIST_COMM:
		return s->comm;
	case HIST_PID:
		/* as perf: -1 for a task the kernel no longer names (its exit under way) */
		snprintf(buf, sizeof(buf), "%d", (int)s->pid);
		break;
	case HIST_TID:
		snprintf(buf, sizeof(buf), "%d", (int)s->tid);
		break;
	case HIST_CPU:
		snprintf(buf, sizeof(buf), "%u", s->cpu);
		break;
	case HIST_PARALLELISM:
		snprintf(buf, sizeof(buf), "%u", s->parallelism);
		break;
	case HIST_DSO:
		return f->dso ? dso_short_name(f->dso) : "[unknown]";
	case HIST_DSO_DADDR:
		return s->ddso ? dso_short_name(s->ddso) : "[unknown]";
	case HIST_CGROUP:
		return s->cgroup ? s->cgroup : "unknown";
	case HIST_PHYS_DADDR:
		/* perf's: "%#.16llx", which writes 0 without its 0x */
		snprintf(buf, sizeof(buf), s->phys_addr ? "[.] 0x%016llx" : "[.] %016llx",
			 (unsigned long long)s->phys_addr);
		break;
	case HIST_DATA_PAGE_SIZE:
	case HIST_CODE_PAGE_SIZE:
		page_size_name(k == HIST_DATA_PAGE_SIZE ? s->data_page_size : s->code_page_size, buf,
			       sizeof(buf));
		break;
	case HIST_DSO_FROM:
	case HIST_DSO_TO: {
		const struct rframe *b = k == HIST_DSO_FROM ? s->br_from : s->br_to;

		return b && b->dso ? dso_short_name(b->dso) : "[unknown]";
	}
	case HIST_SYM_FROM:
	case HIST_SYM_TO: {
		const struct rframe *b = k == HIST_SYM_FROM ? s->br_from : s->br_to;
		unsigned fl;
		const char *name;

		if (!b)
			return "[unknown]";
		name = frame_name(h->pool, b, 0, &fl);
		snprintf(buf, sizeof(buf), "[%c] %s", fl & FRAME_KERNEL ? 'k' : '.', name);
		break;
	}
	case HIST_CYCLES:	/* perf_branch_entry's cycles, bits 4 to 19; "-" for none */
		if (!(s->br_flags >> 4 & 0xffff))
			return "-";
		snprintf(buf, sizeof(buf), "%u", (unsigned)(s->br_flags >> 4 & 0xffff));
		break;
	case HIST_MISPREDICT:	/* its mispred bit, else its predicted bit, else N/A */
		return s->br_flags & 1 ? "Y" : s->br_flags & 2 ? "N" : "N/A";
	case HIST_TRANSACTION:
		tx_words(s->transaction, buf, sizeof(buf));
		break;
	case HIST_CGROUP_ID:
		/*
		 * One row per dev/inode, as perf's sort__cgroup_id_cmp(): a thread
		 * the file never named a namespace of is 0/0x0, and so is one whose
		 * NAMESPACES record says 0/0 (the kernel's, for a task exiting); the
		 * latter's text is the session's, so both are interned here.
		 */
		return strpool_intern(h->pool, s->cgroup_ns ? s->cgroup_ns : "0/0x0");
	case HIST_SYM_DADDR:
		/* the data object, or (no object there, perf's way) the address */
		if (s->dsym)
			return s->dsym;
		snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)s->daddr);
		break;
	case HIST_MEM:
		return strpool_intern(h->pool, datasrc_lvl(s->data_src, buf, sizeof(buf)));
	case HIST_TLB:
		return strpool_intern(h->pool, datasrc_tlb(s->data_src, buf, sizeof(buf)));
	case HIST_SNOOP:
		return strpool_intern(h->pool, datasrc_snoop(s->data_src, buf, sizeof(buf)));
	case HIST_LOCKED:
		return strpool_intern(h->pool, datasrc_lock(s->data_src, buf, sizeof(buf)));
	case HIST_BLOCKED:
		return strpool_intern(h->pool, datasrc_blk(s->data_src, buf, sizeof(buf)));
	case HIST_LOCAL_WEIGHT:
	case HIST_WEIGHT:	/* the entry's sum is shown (hist_key_shown()), each weight apart */
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)s->weight);
		break;
	case HIST_LOCAL_INS_LAT:
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)s->ins_lat);
		break;
	case HIST_SYM:
		return frame_name(h->pool, f, 0, flags);
	case HIST_SRCLINE:
		/* As perf shows it: the file's base name, or symbol+offset. */
		if (f->file && f->line) {
			const char *base = strrchr(f->file, '/');

			snprintf(buf, sizeof(buf), "%s:%d", base ? base + 1 : f->file, f->line);
		} else if (f->name && !f->inlined) {
			snprintf(buf, sizeof(buf), "%s+%llu", f->name,
				 (unsigned long long)f->sym_offset);
		} else if (f->dso) {
			snprintf(buf, sizeof(buf), "%s+0x%llx", dso_short_name(f->dso),
				 (unsigned long long)f->addr);
		} else {
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)f->addr);
		}
		break;
	default:
		return "";
	}
	return strpool_intern(h->pool, buf);
}

/* A new entry of h, with the texts of its keys tx (in h's order). */
static struct hist_entry *new_entry(struct hist *h, const char *const *tx, unsigned flags,
				    const char *inl_in)
{
	struct hist_entry *e = xcalloc(1, sizeof(*e) + (size_t)h->o.nkeys * sizeof(*tx));

	e->slot = h->slot;
	memcpy(e->tx, tx, (size_t)h->o.nkeys * sizeof(*tx));
	e->flags = flags;
	e->inl_in = inl_in;
	return e;
}

/* The entry with these key texts (indexed by key; unused keys NULL), made when new. */
static struct hist_entry *entry(struct hist *h, const char *const *text, unsigned flags,
				const char *inl_in, size_t budget)
{
	uint64_t w[HIST_NKEYS + 2];
	const char *tx[HIST_NKEYS];
	int nk = h->o.nkeys;
	struct htab_probe p;
	struct hist_entry *e;
	uint32_t i;

	for (int k = 0; k < nk; k++)
		w[k] = (uint64_t)(uintptr_t)(tx[k] = text[h->o.keys[k]]);
	w[nk] = flags;
	w[nk + 1] = (uint64_t)(uintptr_t)inl_in;
	htab_probe(&h->etab, htab_hash_words(w, (size_t)nk + 2), &p);
	while (htab_next(&h->etab, &p, &i))
		if (h->ents[i]->flags == flags && h->ents[i]->inl_in == inl_in &&
		    !memcmp(h->ents[i]->tx, tx, (size_t)nk * sizeof(*tx)))
			return h->ents[i];
	if (h->nents >= budget) {
		/* a small file can name millions of distinct stacks' frames: one row for the rest */
		h->folded++;
		if (!h->over) {
			const char *rest = strpool_intern(h->pool, "[more than the report holds]");

			for (int k = 0; k < nk; k++)
				tx[k] = tx[k] ? rest : NULL;
			h->over = new_entry(h, tx, 0, NULL);
			if (h->nents == h->cap_ents) {
				h->cap_ents = 2 * h->cap_ents;
				h->ents = xreallocarray(h->ents, h->cap_ents, sizeof(*h->ents));
			}
			h->ents[h->nents++] = h->over;	/* listed, not hashed */
			h->sorted_ok = 0;
		}
		return h->over;
	}
	if (h->nents == h->cap_ents) {
		h->cap_ents = h->cap_ents ? 2 * h->cap_ents : 16;
		h->ents = xreallocarray(h->ents, h->cap_ents, sizeof(*h->ents));
	}
	e = h->ents[h->nents] = new_entry(h, tx, flags, inl_in);
	h->sorted_ok = 0;
	htab_put(&h->etab, &p, (uint32_t)h->nents++);
	return e;
}

static void key_of(struct hist *h, const struct rsample *s, const struct rframe *f,
		   const char **text, unsigned *flags)
{
	memset(text, 0, HIST_NKEYS * sizeof(*text));
	*flags = 0;
	for (int k = 0; k < h->o.nkeys; k++)
		text[h->o.keys[k]] = key_text(h, h->o.keys[k], s, f, flags);
}

/* The entry of sample s at frame f, made when new. */
static struct hist_entry *entry_of(struct hist *h, const struct rsample *s,
				   const struct rframe *f, size_t budget)
{
	const char *text[HIST_NKEYS];
	struct entry_memo *m = NULL;
	unsigned flags = f->kernel | f->inlined << 1;
	struct hist_entry *e;
	unsigned kflags;
	const char *inl_in = NULL;
	uint64_t addr;

	/* an inlined frame's entry is per function it was inlined into */
	if (f->inlined && h->sym_key && f >= s->frames && f < s->frames + s->nframes) {
		const struct rframe *c = f;

		while (c < s->frames + s->nframes && c->inlined)
			c++;
		if (c < s->frames + s->nframes)
			inl_in = c->name;
	}
	if (h->memo_ok && !h->memo && h->samples >= MEMO_AFTER)
		h->memo = xcalloc(ENTRY_MEMO, sizeof(*h->memo));
	/* a named frame's texts hang on its name; an unnamed one's on its address */
	addr = f->name ? 0 : f->addr;
	if (h->memo) {
		m = &h->memo[(((uintptr_t)f->name >> 3) ^ ((uintptr_t)s->comm >> 3) ^
			      ((uintptr_t)f->dso >> 4) ^ flags ^ (addr >> 2) ^ (addr >> 12)) &
			     (ENTRY_MEMO - 1)];
		if (m->e && m->name == f->name && m->addr == addr && m->comm == s->comm &&
		    m->dso == f->dso && m->flags == flags && m->inl_in == inl_in)
			return m->e;
	}
	key_of(h, s, f, text, &kflags);
	e = entry(h, text, kflags, inl_in, budget);
	if (m && e != h->over) {	/* the catch-all answers no later look-up of its own */
		m->comm = s->comm;
		m->name = f->name;
		m->addr = addr;
		m->inl_in = inl_in;
		m->dso = f->dso;
		m->flags = flags;
		m->e = e;
	}
	return e;
}

const char *hist_key_shown(const struct hist_entry *e, enum hist_key k, char *buf, size_t size)
{
	if (k != HIST_WEIGHT || !hist_text(e, k))
		return hist_text(e, k);
	snprintf(buf, size, "%llu", (unsigned long long)e->weight);
	return buf;
}

void hist_shown(const struct hist_entry *e, const char **shown, char *buf, size_t size)
{
	for (int k = 0; k < HIST_NKEYS; k++)
		shown[k] = hist_key_shown(e, (enum hist_key)k, buf, size);
}

void hist_count(struct hist *h, const struct rsample *s)
{
	h->total += s->period;
	h->samples += s->count;
}

void hist_add(struct hist *h, const struct rsample *s)
{
	static const struct rframe none = { 0 };
	const struct rframe *leaf = s->nframes ? &s->frames[0] : &none;
	struct hist_entry *e;
	int last = s->nframes - 1;

	h->total += s->period;
	h->samples += s->count;
	/* a sample's own entry first: the callers' (--children) give way before it */
	e = entry_of(h, s, leaf, 2 * HIST_MAX_ENTRIES);
	e->self += s->period;
	e->samples += s->count;
	e->weight += s->weight * s->count;
	if (h->o.children) {
		/* Inclusive: each distinct entry on the stack once (recursion counts once). */
		struct hist_entry *seen[256];
		int nseen = 0;

		for (int i = 0; i < s->nframes; i++) {
			struct hist_entry *c;
			int dup = 0;

			c = entry_of(h, s, &s->frames[i], HIST_MAX_ENTRIES);
			for (int j = 0; j < nseen && !dup; j++)
				dup = seen[j] == c;
			if (dup)
				continue;
			c->children += s->period;
			if (nseen < 256)
				seen[nseen++] = c;
		}
		if (!s->nframes)
			e->children += s->period;
	}
	switch (h->o.graph) {
	case HIST_GRAPH_CALLEE:
	case HIST_GRAPH_CALLER:
		if (!h->tree)
			h->tree = ctree_new(h->pool, 0);
		if (!e->tree)
			e->tree = ctree_root(h->tree, hist_text(e, HIST_SYM) ? hist_text(e, HIST_SYM) : "",
					     e->flags | FRAME_ROOT);
		/* The entry's own frame is the tree's root: start past it. */
		if (h->o.graph == HIST_GRAPH_CALLEE)
			ctree_add(h->tree, e->tree, s, 1, 1, 0);
		else
			ctree_add(h->tree, e->tree, s, last, -1, 0);
		break;
	case HIST_TREE_TOP_DOWN:
	case HIST_TREE_BOTTOM_UP:
		if (!h->tree)
			h->tree = ctree_new(h->pool, 0);
		if (!h->root)
			h->root = ctree_root(h->tree, "[root]", FRAME_ROOT);
		if (h->o.graph == HIST_TREE_TOP_DOWN)
			ctree_add(h->tree, h->root, s, last, -1, 0);
		else
			ctree_add(h->tree, h->root, s, 0, 1, 0);
		break;
	default:
		break;
	}
}

static int cmp_entries(const void *a, const void *b, void *arg)
{
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;
	const struct hist *h = arg;
	uint64_t vx = h->o.children ? x->children : x->self;
	uint64_t vy = h->o.children ? y->children : y->self;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	for (int k = 0; k < h->o.nkeys; k++) {
		int c;

		/* as the Symbol column reads: "[.] f" before "[k] f" */
		if (h->o.keys[k] == HIST_SYM && (x->flags & FRAME_KERNEL) != (y->flags & FRAME_KERNEL))
			return x->flags & FRAME_KERNEL ? 1 : -1;
		c = strcmp(x->tx[k], y->tx[k]);
		if (c)
			return c;
		if (h->o.keys[k] == HIST_SYM && x->flags != y->flags)
			return x->flags < y->flags ? -1 : 1;
		if (h->o.keys[k] == HIST_SYM && x->inl_in != y->inl_in)
			return !x->inl_in ? -1 : !y->inl_in ? 1 : strcmp(x->inl_in, y->inl_in);
	}
	return 0;
}

const struct hist_entry *const *hist_sorted(struct hist *h, size_t *n)
{
	if (!h->sorted_ok) {
		free(h->sorted);
		h->sorted = xcalloc(h->nents ? h->nents : 1, sizeof(*h->sorted));
		memcpy(h->sorted, h->ents, h->nents * sizeof(*h->sorted));
		qsort_r(h->sorted, h->nents, sizeof(*h->sorted), cmp_entries, h);
		h->sorted_ok = 1;
	}
	*n = h->nents;
	return (const struct hist_entry *const *)h->sorted;
}

uint64_t hist_total(const struct hist *h)
{
	return h->total;
}

uint64_t hist_samples(const struct hist *h)
{
	return h->samples;
}

const struct ctree *hist_tree(const struct hist *h)
{
	return h->tree;
}

size_t hist_tree_root(struct hist *h)
{
	return h->root;
}

uint64_t hist_tree_cut(const struct hist *h)
{
	return ctree_cut(h->tree);
}

uint64_t hist_folded(const struct hist *h)
{
	return h->folded;
}
