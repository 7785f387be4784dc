/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prof diff's output formats, a table as format.h's: text (the flat view,
 * -g graphs or --tree), json (doc/prof-diff.schema.json), svg (a
 * differential flame graph) and folded (both counts on each line).
 */
#ifndef PROF_REPORT_DIFFOUT_H
#define PROF_REPORT_DIFFOUT_H

#include <regex.h>
#include <stdio.h>

#include "diff.h"

struct diff_view {
	const char *const *input[2];
	size_t ninput[2];
	const struct hist_opts *ho;
	const char *const *key_names;	/* by enum hist_key */
	double percent_limit;		/* hide what is below it on both sides */
	int has_limit;
	int max_depth;			/* 0: no limit */
	int inverted;
	const regex_t *symbol;		/* entries shown: those whose function matches; NULL all */
};

struct diff_format {
	const char *name;
	const char *help;
	int stacks;			/* needs whole stacks (DIFF_TREE_STACKS) */
	/* 0, or -errno of a failed write */
	int (*write)(const struct diff *d, const struct diff_view *v, FILE *out);
};

extern const struct diff_format *const diff_formats[];
const struct diff_format *diff_format_find(const char *name);

/* Whether entry e is one --symbol selects (all when v->symbol is NULL). */
int diff_selected(const struct diff_view *v, const struct diff_entry *e);

/* e as its name reads: the function for the sym key, else the keys' texts joined; malloc'd. */
char *diff_entry_name(const struct diff_view *v, const struct diff_entry *e);

#endif
