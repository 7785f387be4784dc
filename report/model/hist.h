/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Aggregation: the flat histogram (one entry per distinct sort key, self
 * and inclusive periods) and call trees (per entry, or the whole program).
 */
#ifndef PROF_REPORT_HIST_H
#define PROF_REPORT_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "ctree.h"
#include "session.h"

enum hist_key {
	HIST_COMM, HIST_PID, HIST_TID, HIST_DSO, HIST_SYM, HIST_SRCLINE, HIST_CPU,
	HIST_PARALLELISM,	/* threads of the sample's process running at its time */
	HIST_DSO_DADDR,		/* -d: the file mapped at the sample's data address */
	HIST_SYM_DADDR,		/* -d: the data object there, or the address */
	HIST_CGROUP,		/* --all-cgroups: the sample's cgroup */
	/* --data-src: the data source's fields in words (src/datasrc.h) */
	HIST_MEM, HIST_TLB, HIST_SNOOP, HIST_LOCKED, HIST_BLOCKED,
	/* -W: the sample's weight; weight shows an entry's sum of them */
	HIST_LOCAL_WEIGHT, HIST_WEIGHT,
	HIST_LOCAL_INS_LAT,	/* -W where the PMU gives it: the instruction's latency */
	HIST_CGROUP_ID,		/* --namespaces: the thread's cgroup namespace */
	HIST_PHYS_DADDR,	/* --phys-data: the data's physical address */
	HIST_DATA_PAGE_SIZE,	/* --data-page-size: the size of the data's page */
	HIST_CODE_PAGE_SIZE,	/* --code-page-size: the size of the code's page */
	/* branch mode (-b): each branch's ends, its cycles, whether it was mispredicted */
	HIST_DSO_FROM, HIST_SYM_FROM, HIST_DSO_TO, HIST_SYM_TO, HIST_CYCLES, HIST_MISPREDICT,
	HIST_TRANSACTION,	/* --transaction: the transaction's flags, as perf's words */
	HIST_NKEYS
};

enum hist_graph {
	HIST_GRAPH_NONE,
	HIST_GRAPH_CALLER,	/* under each entry: from the outermost caller down to it */
	HIST_GRAPH_CALLEE,	/* under each entry: from it out to its callers */
	HIST_TREE_TOP_DOWN,	/* the whole program from the root */
	HIST_TREE_BOTTOM_UP,	/* the whole program from the leaves */
};

struct hist_opts {
	enum hist_key keys[HIST_NKEYS];
	int nkeys;
	int children;
	enum hist_graph graph;
};

/*
 * One value of each sort key; text values are interned. The texts are
 * those of the histogram's keys alone, in their order (a flat view of a
 * million entries holds five keys, not all there are): hist_text().
 */
struct hist_entry {
	const signed char *slot;	/* the histogram's: key k's text at tx[slot[k]], or -1 */
	unsigned flags;			/* with sym: its frame's FRAME_* (ctree.h) */
	const char *inl_in;		/* with sym, an inlined frame: the function it was
					 * inlined into (one entry each, as perf's symbol) */
	uint64_t self, children;	/* periods */
	uint64_t samples;		/* samples whose leaf is this entry */
	uint64_t weight;		/* their weights (-W), summed */
	size_t tree;			/* root node of its call graph in hist_tree(), or 0 */
	const char *tx[];		/* the keys' values; for sym the frame's name */
};

/* Entry e's value of key k, or NULL where k is not one of its histogram's keys. */
static inline const char *hist_text(const struct hist_entry *e, enum hist_key k)
{
	return e->slot[k] >= 0 ? e->tx[e->slot[k]] : NULL;
}

struct hist;

struct hist *hist_new(const struct hist_opts *o);
void hist_free(struct hist *h);
/* Account a sample, or a sum of s->count of them (session_sum()). */
void hist_add(struct hist *h, const struct rsample *s);
/* Count s (s->count samples, periods summed) in the totals only, not in entries or trees. */
void hist_count(struct hist *h, const struct rsample *s);

/*
 * The texts e shows, into shown[HIST_NKEYS]: its keys', but the weight
 * key's as the sum of its samples' weights (perf's weight column), made in
 * buf (size bytes).
 */
void hist_shown(const struct hist_entry *e, const char **shown, char *buf, size_t size);
/* The one text of key k that e shows (hist_shown()'s), made in buf where it is made. */
const char *hist_key_shown(const struct hist_entry *e, enum hist_key k, char *buf, size_t size);

/* Entries sorted by children (with --children) or self, then by text. */
const struct hist_entry *const *hist_sorted(struct hist *h, size_t *n);
uint64_t hist_total(const struct hist *h);	/* summed period */
uint64_t hist_samples(const struct hist *h);
/* The call graphs and the whole-program tree; NULL when none was asked for. */
const struct ctree *hist_tree(const struct hist *h);
/*
 * A histogram holds HIST_MAX_ENTRIES at most, whatever a small file
 * describes (--children of 8,000 threads' 8,100-frame stacks: 65 million
 * entries in 130 KB): past them, what would be a new entry is counted in
 * one, "[more than the report holds]"; how many times that was.
 */
#define HIST_MAX_ENTRIES ((size_t)1 << 19)
uint64_t hist_folded(const struct hist *h);
/* Samples whose deeper frames h's trees left out (ctree_cut()). */
uint64_t hist_tree_cut(const struct hist *h);
/* The root of the whole-program tree (--tree) in hist_tree(). */
size_t hist_tree_root(struct hist *h);

#endif
