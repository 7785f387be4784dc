/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flame graphs from the stack tree: folded stacks (Brendan Gregg's format,
 * read by flamegraph.pl, speedscope and Pyroscope) and a self-contained
 * interactive SVG that needs nothing but a browser.
 */
#ifndef PROF_REPORT_FLAME_H
#define PROF_REPORT_FLAME_H

#include <stdio.h>

#include "stacks.h"

/*
 * One line per distinct stack, root first, frames joined by ';', then a
 * space and its sample count; kernel frames end in _[k] and inlined ones
 * in _[i], as stackcollapse-perf.pl --kernel --inline writes them.
 * st must be sorted (stacks_sort). 0, or -errno of the write.
 */
int flame_folded(const struct stacks *st, FILE *out);

struct flame_opts {
	const char *title;
	const char *subtitle;	/* the event and the file, or NULL */
	int inverted;		/* an icicle graph: the root on top */
};

/* The SVG. Same contract. */
int flame_svg(const struct stacks *st, const struct flame_opts *o, FILE *out);

#endif
