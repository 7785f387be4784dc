// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format folded: the first event's stacks as folded lines (Brendan
 * Gregg's format, read by flamegraph.pl, speedscope and Pyroscope).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

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

static void folded_node(const struct ctree *st, size_t id, size_t *path, int depth,
			int by_period, FILE *out)
{
	const struct ctree_node *n = ctree_node(st, id);
	uint64_t w = by_period ? n->self_period : n->self_samples;

	path[depth] = id;
	if (w) {
		for (int i = 1; i <= depth; i++) {
			const struct ctree_node *p = ctree_node(st, path[i]);

			if (i > 1)
				putc(';', out);
			folded_put_frame(p->name, p->flags, out);
		}
		fprintf(out, " %" PRIu64 "\n", w);
	}
	for (size_t c = n->first_child; c; c = ctree_node(st, c)->next_sibling)
		folded_node(st, c, path, depth + 1, by_period, out);
}

/*
 * One line per distinct stack, root first, frames joined by ';', then a
 * space and its sample count (nanoseconds for off-cpu, preempted and wall
 * time); kernel frames end in _[k] and inlined ones in _[i], as
 * stackcollapse-perf.pl --kernel --inline writes them.
 */
static int flame_folded(const struct ctree *st, size_t top, int by_period, FILE *out)
{
	/* The command, up to 1024 frames, and the root: the depth is bounded. */
	size_t path[1100];
	const struct ctree_node *root = ctree_node(st, top);

	for (size_t c = root->first_child; c; c = ctree_node(st, c)->next_sibling)
		folded_node(st, c, path, 1, by_period, out);
	return ferror(out) ? -EIO : 0;
}


static int write_folded(const struct profile *p, const struct format_view *v, FILE *out)
{
	const struct profile_event *e = format_one_event(p, v, "folded output");

	(void)v;
	if (!e)
		return 0;
	ctree_sort(e->tree);
	return flame_folded(e->tree, e->tree_root, format_time_event(e->ev), out);
}

const struct format format_folded = {
	.name = "folded",
	.help = "the first event's stacks, one line each (flamegraph.pl, speedscope)",
	.needs = FORMAT_STACKS | FORMAT_CHAINS,
	.write = write_folded,
};
