/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What changed between two profiles: prof diff's model. Each side is one
 * or more files, each loaded with profile_load() and merged into the
 * side by name: flat entries by the texts of their sort keys, tree nodes
 * by the names on their path, never by address, so that ASLR and
 * rebuilds do not matter. Every entry and node then carries its value in
 * BASE and NEW and whether the difference is beyond sampling noise.
 *
 * Noise. A sample lands in an entry or not, so an entry's count is
 * binomial (its share) or, over a run of given length, Poisson (its
 * absolute time). Samples of unequal weight (off-cpu nanoseconds, perf's
 * frequency mode) count as the effective number of samples
 * (sum w)^2 / sum w^2 (Kish), which is the sample count when weights are
 * equal. Off-CPU time is not sampled (every interval is recorded): it
 * counts as a sampler at the recording's rate would have seen it. Shares
 * are compared with the pooled two-proportion z-test,
 * absolute times with the normal approximation of two Poisson sums; the
 * level holds for the whole table (Bonferroni over the entries or nodes
 * tested, with Tarone's modification: only those with samples enough to
 * ever be significant count, and values equal on both sides count once),
 * so that two runs of one program show no change in all but 1 - level of
 * diffs. With two runs or more a side, the runs' own differences are
 * measured (the quasi-binomial dispersion) and widen the tests when they
 * are more than sampling noise. See doc/DESIGN.md.
 */
#ifndef PROF_REPORT_DIFF_H
#define PROF_REPORT_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "ctree.h"
#include "hist.h"
#include "profile.h"

enum diff_tree {
	DIFF_TREE_NONE,
	DIFF_TREE_GRAPHS,	/* -g: each entry's call graph */
	DIFF_TREE_WHOLE,	/* --tree: the whole program */
	DIFF_TREE_STACKS,	/* whole stacks, for flame graphs and folded lines */
};

struct diff_opts {
	const struct profile_opts *po;	/* for every file; its input is set per file */
	const char *const *input[2];	/* BASE, NEW */
	size_t ninput[2];
	enum diff_tree tree;
	int abs;			/* absolute time, not shares */
	double level;			/* e.g. 0.99 */
	double min_delta;		/* points: smaller changes are never significant */
	/* called with each file once it is loaded, for the command's warnings; may be NULL */
	void (*loaded)(void *ctx, const struct profile *p);
	void *ctx;
};

/* What a side holds of its event. */
struct diff_side {
	uint64_t samples;
	uint64_t total;			/* summed period */
	double weight;			/* sum w^2 / sum w: one effective sample's weight */
	double clock_ns;		/* time events: the clock's sampling period, or 0 */
	uint64_t lost;
	double seconds;			/* from first to last sample, summed over files */
	struct ctree *tree;		/* with opts.tree */
	size_t root;
};

/* One value in each side, and what the difference says. */
struct diff_value {
	uint64_t v[2];			/* periods: BASE, NEW */
	double pct[2];			/* of each side's total; --abs: of BASE's total */
	double delta;			/* pct[1] - pct[0], points */
	double p;			/* two-sided, before the Bonferroni correction */
	int significant;
};

struct diff_entry {
	const char *text[HIST_NKEYS];	/* as hist_entry */
	unsigned flags;
	const char *inl_in;
	const char *key;		/* the texts joined: one pointer per entry */
	struct diff_value d;
	size_t graph[2];		/* -g: its graph's root in each side's tree, or 0 */
};

/* A node of the merged trees: the nodes it is in each side (0: not there). */
struct diff_node {
	size_t at[2];
	const char *name;
	unsigned flags;
	struct diff_value d;		/* inclusive */
	uint64_t self[2];		/* self periods */
	uint64_t self_samples[2];
};

struct diff {
	struct strpool *pool;		/* every name and key */
	const char *event;
	uint64_t event_config;		/* its attr.config */
	int abs;
	double level;
	double min_delta;
	/*
	 * With several runs a side: how many times sampling noise's variance
	 * their differences show (1 at least), which widens every test; and
	 * the degrees of freedom it was measured with (0: not measured).
	 */
	double dispersion;
	size_t dispersion_df;
	struct diff_side side[2];
	struct diff_entry *e;		/* sorted: the biggest change first */
	size_t n;
	size_t compared;		/* entries with a value on either side */
	size_t tested;			/* of those, the divisor of the level (Tarone) */
	size_t nodes_tested;		/* the same for the nodes of the merged trees */
};

/*
 * Load both sides. 0 and *out, or -1 with a one-line reason in err (no
 * "prof: "). Warnings about the inputs go to standard error as the files
 * are read, one line each.
 */
int diff_load(const struct diff_opts *o, struct diff **out, char *err, size_t errlen);
void diff_free(struct diff *d);

/*
 * The children of the merged node (a0 in BASE's tree, a1 in NEW's; either
 * 0) with their values, sorted by the size of their change, then by the
 * larger share, then by name. Returns the count; *out is malloc'd.
 */
size_t diff_children(const struct diff *d, size_t a0, size_t a1, struct diff_node **out);
/* The merged root of the side trees (the whole program, or the stacks). */
struct diff_node diff_root(const struct diff *d);
/* The merged node of a0 in BASE's tree and a1 in NEW's (either 0), with its values. */
struct diff_node diff_node_at(const struct diff *d, size_t a0, size_t a1);

#endif
