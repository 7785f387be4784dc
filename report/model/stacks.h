/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole stacks, merged into one tree from the root (the command, then the
 * outermost caller) to the sampled frame: what flame graphs, folded stacks
 * and the JSON tree are drawn from.
 */
#ifndef PROF_REPORT_STACKS_H
#define PROF_REPORT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

/* What a frame is, for colours and for the FlameGraph suffixes _[k] and _[i]. */
enum stacks_kind {
	STACKS_ROOT,		/* the tree's root, or a command at its top */
	STACKS_USER,
	STACKS_KERNEL,
	STACKS_INLINED,
	STACKS_UNKNOWN,		/* no symbol: [unknown] or object+0xoffset */
};

struct stacks_node {
	const char *name;	/* the function, demangled; interned */
	enum stacks_kind kind;
	uint64_t samples, period;	/* of the stacks through it (inclusive) */
	uint64_t self_samples, self_period;	/* of those that end in it */
	size_t parent;
	size_t first_child, next_sibling;	/* 0 ends a list; by name once sorted */
};

struct stacks;

/* with_comm: the command is the first frame of every stack. NULL never. */
struct stacks *stacks_new(int with_comm);
void stacks_free(struct stacks *st);
/* Add one sample's stack: s->frames[0] is the sampled frame. */
void stacks_add(struct stacks *st, const struct rsample *s);

/* The root (node 1), and node i; children are sorted by name after stacks_sort(). */
size_t stacks_root(const struct stacks *st);
const struct stacks_node *stacks_node(const struct stacks *st, size_t i);
void stacks_sort(struct stacks *st);
/* Nodes below the root, for sizing output. */
size_t stacks_count(const struct stacks *st);

#endif
