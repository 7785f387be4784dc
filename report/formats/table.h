/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text format's flat view: value columns, then the sort keys'
 * columns, each as wide as its widest text, with perf's titles; a
 * report's, a diff's and --group's tables are laid out by it.
 */
#ifndef PROF_REPORT_TABLE_H
#define PROF_REPORT_TABLE_H

#include <stdio.h>

#include "format.h"

/* A row of the flat view: its keys' texts, as hist_entry and diff_entry hold them. */
struct table_row {
	const char *const *text;
	unsigned flags;
	const char *inl_in;
	const char *shown[HIST_NKEYS];	/* room for text, as hist_shown() makes it */
	char buf[24];
};

/*
 * The flat view: value columns, then the sort keys' columns, each as wide
 * as its widest text; under a row, what the source draws there (a graph).
 */
struct table {
	const struct format_view *v;
	size_t n;
	/* row i's keys; 0 when it is not shown */
	int (*row)(const struct table *t, size_t i, struct table_row *r);
	void (*values)(const struct table *t, size_t i, FILE *out);
	void (*under)(const struct table *t, size_t i, FILE *out);
	const char *titles;	/* the value columns' titles, from the '#' */
	const char *rule;	/* the dotted line's value part, or NULL for none */
	const void *ctx;
};

/* The table: its titles, the rule under them, and each row t->row() shows. */
void layout_table(const struct table *t, FILE *out);

#endif
