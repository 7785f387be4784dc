// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format folded: the first event's stacks as folded lines (Brendan
 * Gregg's format, read by flamegraph.pl, speedscope and Pyroscope).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "flame.h"
#include "format.h"
#include "utf8.h"

static const char *suffix(enum frame_kind k)
{
	return k == KIND_KERNEL ? "_[k]" : k == KIND_INLINED ? "_[i]" : "";
}

/*
 * A name as one field of a folded line: no ';' (the separator), no line
 * break, valid UTF-8.
 */
static void put_field(const char *s, FILE *out)
{
	while (*s) {
		int n = utf8_len(s);

		if (n == 0)
			fputs(UTF8_REPLACEMENT, out);
		else if (n > 1)
			fwrite(s, 1, (size_t)n, out);
		else
			putc(*s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s, out);
		s += n ? n : 1;
	}
}

void folded_put_frame(const char *name, unsigned flags, FILE *out)
{
	put_field(name, out);
	fputs(suffix(frame_kind(flags)), out);
}

/* One line: the frames of a stack, root first, joined by ';', then its weight(s). */
static void put_stack(const char *const *names, const unsigned *flags, int n, FILE *out)
{
	for (int i = 0; i < n; i++) {
		if (i)
			putc(';', out);
		folded_put_frame(names[i], flags[i], out);
	}
}

/* The command, up to 1024 frames, and the root: the depth is bounded. */
#define MAX_DEPTH 1100

static void folded_node(const struct ctree *st, size_t id, const char **names, unsigned *flags,
			int depth, int by_period, FILE *out)
{
	const struct ctree_node *n = ctree_node(st, id);
	uint64_t w = by_period ? n->self_period : n->self_samples;

	names[depth - 1] = n->name;
	flags[depth - 1] = n->flags;
	if (w) {
		put_stack(names, flags, depth, out);
		fprintf(out, " %" PRIu64 "\n", w);
	}
	if (depth >= MAX_DEPTH)
		return;
	for (size_t c = n->first_child; c; c = ctree_node(st, c)->next_sibling)
		folded_node(st, c, names, flags, depth + 1, by_period, out);
}

/*
 * One line per distinct stack, root first, frames joined by ';', then a
 * space and its sample count (nanoseconds for off-cpu, preempted and wall
 * time); kernel frames end in _[k] and inlined ones in _[i], as
 * stackcollapse-perf.pl --kernel --inline writes them.
 */
static int write_folded(const struct profile *p, const struct format_view *v, FILE *out)
{
	const struct profile_event *e = format_one_event(p, v, "folded output");
	const char *names[MAX_DEPTH];
	unsigned flags[MAX_DEPTH];
	const struct ctree_node *root;

	if (!e)
		return 0;
	ctree_sort(e->tree);
	root = ctree_node(e->tree, e->tree_root);
	for (size_t c = root->first_child; c; c = ctree_node(e->tree, c)->next_sibling)
		folded_node(e->tree, c, names, flags, 1, format_time_event(e->ev), out);
	return ferror(out) ? -EIO : 0;
}

/* --- a diff: both counts on each line, as difffolded.pl writes them ---------- */

static void diff_walk(const struct diff *d, const struct diff_node *x, const char **names,
		      unsigned *flags, int depth, int by_period, FILE *out)
{
	struct diff_node *kids;
	size_t n;

	if (depth > 0) {
		uint64_t b = by_period ? x->self[0] : x->self_samples[0];
		uint64_t a = by_period ? x->self[1] : x->self_samples[1];

		names[depth - 1] = x->name;
		flags[depth - 1] = x->flags;
		if (a || b) {
			put_stack(names, flags, depth, out);
			fprintf(out, " %" PRIu64 " %" PRIu64 "\n", b, a);
		}
	}
	if (depth >= MAX_DEPTH)
		return;
	n = diff_children(d, x->at[0], x->at[1], &kids);
	for (size_t i = 0; i < n; i++)
		diff_walk(d, &kids[i], names, flags, depth + 1, by_period, out);
	free(kids);
}

static int write_folded_diff(const struct diff *d, const struct format_view *v, FILE *out)
{
	struct diff_node root = diff_root(d);
	const char *names[MAX_DEPTH];
	unsigned flags[MAX_DEPTH];

	(void)v;
	diff_walk(d, &root, names, flags, 0, evkind_time(d->event, d->event_config), out);
	return ferror(out) ? -EIO : 0;
}

const struct format format_folded = {
	.name = "folded",
	.help = "the first event's stacks, one line each (flamegraph.pl, speedscope)",
	.needs = FORMAT_STACKS | FORMAT_CHAINS,
	.write = write_folded,
	.diff_help = "stacks with BASE's and NEW's counts (difffolded.pl, flamegraph.pl)",
	.diff_needs = FORMAT_STACKS,
	.write_diff = write_folded_diff,
};
