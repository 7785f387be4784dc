/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flame graphs and folded stacks drawn from a call tree: the profile's
 * (svg.c, folded.c) and prof diff's, which colours each frame by its
 * change and writes both sides' counts on each folded line.
 */
#ifndef PROF_REPORT_FLAME_H
#define PROF_REPORT_FLAME_H

#include <stddef.h>
#include <stdio.h>

#include "ctree.h"

struct flame_opts {
	const char *title;
	const char *subtitle;	/* the event and the file, or NULL */
	const char *legend;	/* a line saying what the colours mean, or NULL */
	int inverted;		/* an icicle graph: the root on top */
	int by_period;		/* frames weigh their nanoseconds (off-cpu, wall), not samples */
	/* a frame's fill colour, and more words for its tooltip; NULL: by kind, none */
	void (*fill)(void *ctx, size_t id, const struct ctree_node *n, char *buf, size_t len);
	void (*note)(void *ctx, size_t id, FILE *out);
	void *ctx;
};

/* The tree st from node top as an interactive SVG. 0, or -EIO. */
int flame_svg(const struct ctree *st, size_t top, const struct flame_opts *o, FILE *out);

/* XML text: escaped, valid UTF-8, no control characters. */
void flame_put_xml(const char *s, FILE *out);

/* A name as one field of a folded line (no ';', no line break, valid UTF-8), then its _[k] or _[i]. */
void folded_put_frame(const char *name, unsigned flags, FILE *out);

#endif
