/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The call tree: every view that shows stacks is drawn from one (the
 * call graphs under flat entries, --tree, folded stacks, the flame graph,
 * the JSON tree). A node is a frame, named once for all of them (a
 * function, or where it was when it has no name) with flags that say
 * what it is; output formats the name as each view spells it.
 */
#ifndef PROF_REPORT_CTREE_H
#define PROF_REPORT_CTREE_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct strpool;

/* What a frame is. */
enum {
	FRAME_KERNEL = 1,	/* in the kernel */
	FRAME_INLINED = 2,	/* a function inlined into the frame below it */
	FRAME_NONAME = 4,	/* no symbol: "[unknown]", "?? (dso)", "0x7f.." */
	FRAME_COMM = 8,		/* not a frame: the command, atop the stacks */
	FRAME_ROOT = 16,	/* not a frame: a tree's root */
};

/* What a frame is for colours, the JSON tree's "kind" and FlameGraph's _[k] and _[i]. */
enum frame_kind { KIND_ROOT, KIND_USER, KIND_KERNEL, KIND_INLINED, KIND_UNKNOWN };

static inline enum frame_kind frame_kind(unsigned flags)
{
	return flags & (FRAME_ROOT | FRAME_COMM) ? KIND_ROOT
	       : flags & FRAME_NONAME		 ? KIND_UNKNOWN
	       : flags & FRAME_INLINED		 ? KIND_INLINED
	       : flags & FRAME_KERNEL		 ? KIND_KERNEL
						 : KIND_USER;
}

/*
 * The name and flags of frame f, interned in pool. Code of a file with no
 * symbol there is "?? (file)", one entry for the file's unnamed code. With
 * merge set (flame graphs), frames without a name lose FRAME_KERNEL and
 * those outside any file are one "[unknown]"; without, an address outside
 * any file is its own "0x7f..", as perf report shows it.
 */
const char *frame_name(struct strpool *pool, const struct rframe *f, int merge,
		       unsigned *flags);
/*
 * Whether f continues a run of unnamed frames in one file with prev (the
 * frame beside it in a stack): views that name functions show the run as
 * one "?? (file)", as a recursion is not.
 */
int frame_run(const struct rframe *f, const struct rframe *prev);

struct ctree_node {
	const char *name;	/* interned */
	unsigned flags : 24;	/* FRAME_* */
	unsigned kids : 8;	/* children, counted up to where the tree's htab holds them (ctree.c) */
	/* node ids fit 32 bits: the tree's htab holds 32-bit items */
	uint32_t parent;	/* 0: none */
	uint64_t samples, period;	/* of the stacks through it */
	uint64_t self_samples, self_period;	/* of those that end in it */
	uint32_t first_child, next_sibling;	/* 0 ends a list; unsorted until ctree_sort() */
};

struct ctree;

/* A tree whose frames are named with frame_name(pool, ..., merge). pool is not owned. */
struct ctree *ctree_new(struct strpool *pool, int merge);
void ctree_free(struct ctree *t);

/* A new root (a tree may have many: one per flat entry), named so. */
size_t ctree_root(struct ctree *t, const char *name, unsigned flags);
/* The child of node at called name with flags, made when new. */
size_t ctree_child(struct ctree *t, size_t at, const char *name, unsigned flags);

/* The child of node at called name (interned in the tree's pool) with flags; 0 when none. */
size_t ctree_find(const struct ctree *t, size_t at, const char *name, unsigned flags);
/*
 * Add src's node from and every node under it onto dst's node at: their
 * counts, the names interned anew in dst's pool (src may be another's).
 */
void ctree_graft(struct ctree *dst, size_t at, const struct ctree *src, size_t from);

/*
 * Add sample s under node at: at, then with_comm its command, then
 * frames[from], frames[from + step], ... (from the outermost caller,
 * step -1, or from the sampled frame, step 1). Every node on the way
 * counts the sample; the node of frames[0] (at, when the path leaves
 * it out) counts it as its own.
 */
void ctree_add(struct ctree *t, size_t at, const struct rsample *s, int from, int step,
	       int with_comm);

/*
 * A tree holds CTREE_MAX_NODES at most, whatever a small file describes
 * (8,000 threads of 8,100-frame stacks are 65 million frames in 130 KB):
 * past them, a sample follows the nodes already there and its deeper
 * frames are left out, the deepest node it reached counting it as its
 * own; how many samples were cut so.
 */
#define CTREE_MAX_NODES ((size_t)1 << 21)
uint64_t ctree_cut(const struct ctree *t);

/* Node i; NULL for 0 and past the end. */
const struct ctree_node *ctree_node(const struct ctree *t, size_t i);
/* Nodes in the tree, roots included. */
size_t ctree_count(const struct ctree *t);
/* Each child list sorted by name, then flags, as flame graphs lay them out. */
void ctree_sort(struct ctree *t);

#endif
