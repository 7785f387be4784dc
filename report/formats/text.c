// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format text, the default: per event a header, then the flat view
 * (with call graphs under its entries, -g caller or callee) or the whole
 * program as one tree (--tree). Columns are sized to their contents and
 * names spelled as perf report spells them, "[.] f" and "[k] f", made
 * here from the model's names and flags: stable enough to diff.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "numfmt.h"
#include "table.h"
#include "unwind.h"
#include "xalloc.h"


/* Stopped in JIT code (a runtime's, in memory no file backs): said as such. */
#define END_JIT (UNWIND_END_BAD + 1)

/* Why stacks stopped, as the header says it, and what would help; by UNWIND_END_*. */
static const struct {
	const char *why, *fix;
} end_text[] = {
	[UNWIND_END_STACK] = { "stack copy too small",
			       "record with a bigger --call-graph dwarf,SIZE (at most 65528)" },
	[UNWIND_END_NOCFI] = { "no CFI",
			       "install their debug info or build them with frame pointers" },
	[UNWIND_END_NOFILE] = { "file missing or another build",
				"give prof report the files the recording used (--symfs)" },
	[UNWIND_END_NOMAP] = { "not in a file: JIT code or another stack",
			       "build the code that runs there with frame pointers" },
	[UNWIND_END_MAX] = { "too deep", NULL },
	[UNWIND_END_BAD] = { "CFI led nowhere", NULL },
	[END_JIT] = { "JIT code without frame pointers",
		      "run the runtime with frame pointers in its JIT code "
		      "(java -XX:+PreserveFramePointer; node and python keep them)" },
};

/* Why the stacks of stop st stopped: in JIT code, when it is there, whatever the unwinder saw. */
static int stop_end(const struct profile_unwind *u, int i)
{
	int end = u->stop[i].end;

	if ((end == UNWIND_END_NOFILE || end == UNWIND_END_NOMAP || end == UNWIND_END_NOCFI) &&
	    (!u->stop[i].dso || dso_is_jit(u->stop[i].dso)))
		return end == UNWIND_END_NOMAP && !u->stop[i].dso ? end : END_JIT;
	return end;
}

/* The words for end: those of UNWIND_END_BAD where it has none of its own. */
static int end_words(int end)
{
	return end > 0 && end < (int)(sizeof(end_text) / sizeof(*end_text)) && end_text[end].why
		       ? end
		       : UNWIND_END_BAD;
}


/*
 * Off-CPU time: why it has no stacks when it has none; with --wall, where
 * each thread's time went (the ten that had the most).
 */
static void off_cpu_header(const struct profile *p, const struct evdesc *e, FILE *out)
{
	if (!format_time_event(e))
		return;
	if (!p->info.switch_stacks)
		fprintf(out, "# off-cpu:  no stacks: the recording could not sample switch-outs "
			"(a normal user at perf_event_paranoid 2); off-CPU time is per thread only. "
			"For stacks, record with --off-cpu after 'sysctl "
			"kernel.perf_event_paranoid=1' or 'setcap cap_perfmon+ep prof'\n");
	if (p->ntt) {
		struct profile_thread_time *tt = xmalloc(p->ntt * sizeof(*tt));

		memcpy(tt, p->tt, p->ntt * sizeof(*tt));
		qsort(tt, p->ntt, sizeof(*tt), format_thread_time_cmp);
		for (size_t i = 0; i < p->ntt && i < 10; i++) {
			uint64_t t = tt[i].running + tt[i].preempted + tt[i].blocked;

			fprintf(out, "# thread:   %d/%d %s: %.3f s: running %.3f s (%.1f%%), "
				"preempted %.3f s (%.1f%%), blocked %.3f s (%.1f%%)\n", tt[i].pid,
				tt[i].tid, tt[i].comm ? tt[i].comm : "?", (double)t / 1e9,
				(double)tt[i].running / 1e9, format_pct(tt[i].running, t),
				(double)tt[i].preempted / 1e9, format_pct(tt[i].preempted, t),
				(double)tt[i].blocked / 1e9, format_pct(tt[i].blocked, t));
		}
		if (p->ntt > 10)
			fprintf(out, "# thread:   and %zu more\n", p->ntt - 10);
		free(tt);
	}
}

static void print_header(const struct profile *p, const struct evdesc *e, struct hist *h,
			 FILE *out)
{
	const char *cmd = p->info.cmdline;
	const char *host = p->info.hostname;
	const char *rel = p->info.osrelease;
	const char *arch = p->info.arch;
	const struct profile_unwind *u = &p->uw;
	uint64_t lost = p->info.lost;
	double lost_pct = format_pct(lost, p->samples + lost);
	char mods[16];

	fprintf(out, "# prof report of '%s'\n", p->input);
	evtab_modifiers(&e->attr, mods, sizeof(mods));
	fprintf(out, "# event:    %s%s\n", e->name, mods);
	fprintf(out, "# samples:  %" PRIu64 "\n", hist_samples(h));
	fprintf(out, "# lost:     %" PRIu64 " records (%.2f%% of samples)%s\n", lost, lost_pct,
	       lost_pct > 1.0 ? " -- WARNING: the profile is missing samples; record with a "
				"bigger -m or a lower -F" : "");
	fprintf(out, "# duration: %.3f s\n", (double)(p->last_time - p->first_time) / 1e9);
	if (cmd) {
		/* one line, whatever the command line held (a python -c script...) */
		fprintf(out, "# command:  ");
		for (const char *c = cmd; *c; c++)
			putc((unsigned char)*c < 0x20 ? ' ' : *c, out);
		fprintf(out, "\n");
	}
	if (host)
		fprintf(out, "# host:     %s (Linux %s %s)\n", host, rel ? rel : "?", arch ? arch : "?");
	if (u->total) {
		double q = format_pct(u->complete, u->total);

		fprintf(out, "# stacks:   %.1f%% complete (dwarf: %" PRIu64 " of %" PRIu64 " user stacks "
		       "reach the program's or a thread's entry)", q, u->complete, u->total);
		if (u->fp)
			fprintf(out, "; %" PRIu64 " (%.1f%%) needed a frame pointer where no CFI was found",
			       u->fp, format_pct(u->fp, u->total));
		if (q < 90) {
			int top[3] = { -1, -1, -1 };

			for (int i = 0; i < u->nstop; i++)
				for (int k = 0; k < 3; k++)
					if (top[k] < 0 || u->stop[i].n > u->stop[top[k]].n) {
						for (int j = 2; j > k; j--)
							top[j] = top[j - 1];
						top[k] = i;
						break;
					}
			/* the first always; the others if they weigh at least 1% */
			for (int k = 1; k < 3; k++)
				if (top[k] >= 0 && format_pct(u->stop[top[k]].n, u->total) < 1)
					top[k] = -1;
			fprintf(out, " -- WARNING: unwinding stopped most in");
			for (int k = 0; k < 3 && top[k] >= 0; k++)
				fprintf(out, "%s %s (%.0f%%, %s)", k ? "," : "",
				       u->stop[top[k]].dso ? dso_short_name(u->stop[top[k]].dso)
							      : "[unknown]",
				       format_pct(u->stop[top[k]].n, u->total),
				       end_text[end_words(stop_end(u, top[k]))].why);
			/* the fixes for those reasons, each once */
			for (int k = 0; k < 3 && top[k] >= 0; k++) {
				const char *fix = end_text[end_words(stop_end(u, top[k]))].fix;
				int again = 0;

				for (int j = 0; j < k; j++)
					again |= stop_end(u, top[j]) == stop_end(u, top[k]);
				if (fix && !again)
					fprintf(out, "; %s", fix);
			}
		}
		fprintf(out, "\n");
	}
	if (p->leaf_checked)
		fprintf(out, "# chains:   %" PRIu64 " of %" PRIu64 " frame-pointer stacks (%.1f%%) had the "
			"caller of a function without a frame of its own put back from the stack\n",
			p->leaf_repaired, p->leaf_checked, format_pct(p->leaf_repaired, p->leaf_checked));
	if (p->chains_cut)
		fprintf(out, "# chains:   %" PRIu64 " of %" PRIu64 " samples (%.1f%%) end where frame "
			"pointers led to no code (a return address in no mapping: a caller built "
			"without them); what followed is left out (--call-graph dwarf unwinds those)\n",
			p->chains_cut, p->samples, format_pct(p->chains_cut, p->samples));
	off_cpu_header(p, e, out);
	if (p->latency)
		fprintf(out, "# latency:  each sample weighs its period divided by the threads of its "
			"process running at its time (--latency)\n");
	fprintf(out, "#\n");
}

/* --- the layouts a report and a diff share ---------------------------------- */

/*
 * The call graphs and the tree are drawn from nodes of one tree (a
 * report's: at[0] is the node, d.v[0] its period) or of two merged (a
 * diff's): the source says which children a node shows and in what
 * order, whether an only child goes on as a straight run, how a branch is
 * labelled and what a node's value columns read. The layout is the same.
 */
struct layout {
	const struct format_view *v;
	/* n's children shown, in order: their count; *out malloc'd, NULL when none */
	size_t (*children)(const struct layout *l, const struct diff_node *n,
			   struct diff_node **out);
	/* whether kid, n's only child shown, goes on as a straight run: a column of names */
	int (*straight)(const struct layout *l, const struct diff_node *n,
			const struct diff_node *kid);
	/* a branch's label: "--60.00%--" */
	void (*head)(const struct layout *l, const struct diff_node *kid, char *buf, size_t len);
	/* --tree: n's value columns */
	void (*values)(const struct layout *l, const struct diff_node *n, FILE *out);
	const void *ctx;
};

/* Graph lines show the function without the Symbol column's [.]/[k] mark. */
static void put_graph_name(const struct diff_node *n, FILE *out)
{
	fprintf(out, "%s%s", n->name, n->flags & FRAME_INLINED ? " (inlined)" : "");
}

/* perf's graph layout: straight runs as a column, branches as |--LABEL--name. */
static void layout_graph(const struct layout *l, struct diff_node at, const char *prefix,
			 int depth, FILE *out)
{
	struct diff_node *kids;
	size_t n;
	char sub[4096], head[128];

	for (;;) {
		if (l->v->max_depth && depth >= l->v->max_depth)
			return;
		n = l->children(l, &at, &kids);
		if (n != 1 || !l->straight(l, &at, &kids[0]))
			break;
		fputs(prefix, out);
		put_graph_name(&kids[0], out);
		putc('\n', out);
		at = kids[0];
		depth++;
		free(kids);
	}
	for (size_t i = 0; i < n; i++) {
		int last = i + 1 == n;

		l->head(l, &kids[i], head, sizeof(head));
		fprintf(out, "%s|\n%s%s%s", prefix, prefix, last ? " " : "|", head);
		put_graph_name(&kids[i], out);
		putc('\n', out);
		snprintf(sub, sizeof(sub), "%s%s%*s", prefix, last ? " " : "|", (int)strlen(head), "");
		/* a prefix this wide is some 400 branchings deep: deeper is left out */
		if (strlen(sub) < sizeof(sub) - 64)
			layout_graph(l, kids[i], sub, depth + 1, out);
	}
	free(kids);
}

/* --tree: the value columns, then the frame indented by its depth. */
static void layout_tree(const struct layout *l, const struct diff_node *x, int depth, FILE *out)
{
	struct diff_node *kids;
	size_t n;

	l->values(l, x, out);
	fprintf(out, "  %*s", 2 * depth, "");
	if (x->flags == FRAME_ROOT) {
		fputs(x->name ? x->name : "[root]", out);
	} else {
		char *s = format_sym(x->name, x->flags, NULL);

		fputs(s, out);
		free(s);
	}
	putc('\n', out);
	if (l->v->max_depth && depth >= l->v->max_depth)
		return;
	n = l->children(l, x, &kids);
	for (size_t i = 0; i < n; i++)
		layout_tree(l, &kids[i], depth + 1, out);
	free(kids);
}

/* --- a report: one value column, or two with --children -------------------- */

/* What a report's layouts draw from: a tree, its total, and the least period shown. */
struct rsrc {
	const struct ctree *h;
	uint64_t total, min;
	const struct hist_entry *const *e;	/* the flat view's, sorted */
	int wsamples;				/* the Samples column's width */
};

/*
 * Bigger first; equals by name, since the order samples came in (which
 * session_unordered() lets vary) must not show.
 */
static int node_before(const struct ctree_node *a, const struct ctree_node *b)
{
	int c;

	if (a->period != b->period)
		return a->period > b->period;
	if (a->self_period != b->self_period)
		return a->self_period > b->self_period;
	/* as the names read: "[.] f" before "[k] f" */
	if ((a->flags & FRAME_KERNEL) != (b->flags & FRAME_KERNEL))
		return !(a->flags & FRAME_KERNEL);
	c = strcmp(a->name, b->name);
	return c ? c < 0 : a->flags < b->flags;
}

struct kid {
	size_t node, pos;	/* pos: in the child list, for ties */
};

static int kid_cmp(const void *a, const void *b, void *arg)
{
	const struct ctree *h = arg;
	const struct kid *x = a, *y = b;

	if (node_before(ctree_node(h, x->node), ctree_node(h, y->node)))
		return -1;
	if (node_before(ctree_node(h, y->node), ctree_node(h, x->node)))
		return 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Node id of h as a layout's node. */
static struct diff_node report_node(const struct ctree *h, size_t id)
{
	const struct ctree_node *c = ctree_node(h, id);

	return (struct diff_node){ .at = { id, 0 }, .name = c->name, .flags = c->flags,
				   .d.v = { c->period, 0 }, .self = { c->self_period, 0 },
				   .self_samples = { c->self_samples, 0 } };
}

/*
 * The children of node, sorted by total, at or above the limit; ties in
 * the order of the list. Counted first: a node may have 100,000 children.
 */
static size_t report_children(const struct layout *l, const struct diff_node *n,
			      struct diff_node **out)
{
	const struct rsrc *r = l->ctx;
	const struct ctree *h = r->h;
	size_t node = n->at[0], k = 0;
	struct kid *kids;

	*out = NULL;
	for (size_t c = ctree_node(h, node)->first_child; c; c = ctree_node(h, c)->next_sibling)
		k += ctree_node(h, c)->period >= r->min;
	if (!k)
		return 0;
	kids = xreallocarray(NULL, k, sizeof(*kids));
	k = 0;
	for (size_t c = ctree_node(h, node)->first_child; c; c = ctree_node(h, c)->next_sibling)
		if (ctree_node(h, c)->period >= r->min) {
			kids[k].node = c;
			kids[k].pos = k;
			k++;
		}
	qsort_r(kids, k, sizeof(*kids), kid_cmp, (void *)h);
	*out = xreallocarray(NULL, k, sizeof(**out));
	for (size_t i = 0; i < k; i++)
		(*out)[i] = report_node(h, kids[i].node);
	free(kids);
	return k;
}

/* An only child always goes on as a column: its share is said where it branches. */
static int report_straight(const struct layout *l, const struct diff_node *n,
			   const struct diff_node *kid)
{
	(void)l, (void)n, (void)kid;
	return 1;
}

static void report_head(const struct layout *l, const struct diff_node *kid, char *buf,
			size_t len)
{
	char v[NUMFMT_LEN];

	numfmt_fixed2(v, sizeof(v), 0, format_pct(kid->d.v[0], ((const struct rsrc *)l->ctx)->total));
	snprintf(buf, len, "--%s%%--", v);
}

static void report_values(const struct layout *l, const struct diff_node *n, FILE *out)
{
	uint64_t total = ((const struct rsrc *)l->ctx)->total;
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	numfmt_fixed2(a, sizeof(a), 7, format_pct(n->d.v[0], total));
	numfmt_fixed2(b, sizeof(b), 6, format_pct(n->self[0], total));
	fprintf(out, "%s%%  %s%%", a, b);
}

static struct layout report_layout(const struct format_view *v, const struct rsrc *r)
{
	return (struct layout){ .v = v, .children = report_children, .straight = report_straight,
				.head = report_head, .values = report_values, .ctx = r };
}

static int report_row(const struct table *t, size_t i, struct table_row *row)
{
	const struct hist_entry *e = ((const struct rsrc *)t->ctx)->e[i];

	hist_shown(e, row->shown, row->buf, sizeof(row->buf));
	row->text = row->shown;
	row->flags = e->flags;
	row->inl_in = e->inl_in;
	return 1;
}

static void report_row_values(const struct table *t, size_t i, FILE *out)
{
	const struct rsrc *r = t->ctx;
	const struct hist_entry *e = r->e[i];
	char a[NUMFMT_LEN], b[NUMFMT_LEN];

	numfmt_fixed2(b, sizeof(b), t->v->ho->children ? 7 : 9, format_pct(e->self, r->total));
	if (t->v->ho->children) {
		numfmt_fixed2(a, sizeof(a), 9, format_pct(e->children, r->total));
		fprintf(out, "%s%% %s%%  %*" PRIu64, a, b, r->wsamples, e->samples);
	} else {
		fprintf(out, "%s%%  %*" PRIu64, b, r->wsamples, e->samples);
	}
}

/* -g caller or callee: the entry's call graph, when it is big enough for a branch. */
static void report_under(const struct table *t, size_t i, FILE *out)
{
	const struct rsrc *r = t->ctx;
	const struct hist_entry *e = r->e[i];
	enum hist_graph g = t->v->ho->graph;
	struct layout l = report_layout(t->v, r);
	struct diff_node top, *kids;
	int one = 0;

	if (!e->tree || ctree_node(r->h, e->tree)->period < r->min ||
	    (g != HIST_GRAPH_CALLER && g != HIST_GRAPH_CALLEE))
		return;
	/*
	 * callee: the tree's root is the entry's own frame, callers under it;
	 * caller: the root only holds the outermost callers, so a single one
	 * is drawn on the --- line instead.
	 */
	top = report_node(r->h, e->tree);
	if (g == HIST_GRAPH_CALLER) {
		size_t nk = report_children(&l, &top, &kids);

		one = nk == 1;
		if (one)
			top = kids[0];
		free(kids);
		if (!nk)
			return;	/* every caller under the limit: no branch to draw, as perf */
	}
	fputs("            |\n            ---", out);
	if (one || g == HIST_GRAPH_CALLEE)
		put_graph_name(&top, out);
	putc('\n', out);
	layout_graph(&l, top, "               ", 1, out);
	putc('\n', out);
}

static void print_flat(const struct format_view *v, struct hist *h, FILE *out)
{
	const struct hist_opts *ho = v->ho;
	size_t n, shown = 0;
	double limit = v->has_limit ? v->percent_limit : 0;
	double glimit = v->has_graph_limit ? v->graph_limit : v->has_limit ? limit : 0.5;
	struct rsrc r = { .h = hist_tree(h), .total = hist_total(h), .e = hist_sorted(h, &n),
			  .wsamples = 7 };
	struct table t = { .v = v, .row = report_row, .values = report_row_values,
			   .under = report_under, .ctx = &r };
	char samples[32], titles[128], rule[128];

	r.min = (uint64_t)((double)r.total * glimit / 100.0);
	for (size_t i = 0; i < n; i++) {
		uint64_t val = ho->children ? r.e[i]->children : r.e[i]->self;

		if (format_pct(val, r.total) < limit || val == 0)
			break;
		shown++;
		snprintf(samples, sizeof(samples), "%" PRIu64, r.e[i]->samples);
		if ((int)strlen(samples) > r.wsamples)
			r.wsamples = (int)strlen(samples);
	}
	t.n = shown;
	snprintf(titles, sizeof(titles), "%s  %*s",
		 ho->children ? "# Children     Self" : "# Overhead", r.wsamples, "Samples");
	snprintf(rule, sizeof(rule), "# ........%s  %.*s", ho->children ? " ......." : "",
		 r.wsamples, "................................");
	t.titles = titles;
	t.rule = rule;
	layout_table(&t, out);
}

/* --- --group: the events side by side --------------------------------------- */

/* A row of the group's table: its keys (as the first event that has it holds them), an entry of each. */
struct grow {
	char *key;				/* the keys' texts joined, to merge by */
	const struct hist_entry *first;		/* the texts shown */
	const struct hist_entry **e;		/* each event's entry here, or NULL */
};

struct gsrc {
	struct grow *rows;
	size_t nev;
	const uint64_t *totals;
	int children;
	int wsamples;
};

/* The keys' texts of e as one string, a unit separator between. */
static char *joined_key(const struct hist_opts *ho, const struct hist_entry *e)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;

	for (int k = 0; k < ho->nkeys; k++) {
		const char *p[5];
		int n = format_key_pieces(ho->keys[k], hist_text(e, ho->keys[k]), e->flags, e->inl_in,
					  p);

		for (int i = 0; i < n; i++) {
			size_t l = strlen(p[i]);

			buf = xgrow(buf, &cap, len + l + 2, 1);
			memcpy(buf + len, p[i], l);
			len += l;
		}
		buf = xgrow(buf, &cap, len + 2, 1);
		buf[len++] = '\x1f';
	}
	buf = xgrow(buf, &cap, len + 1, 1);
	buf[len] = '\0';
	return buf;
}

static uint64_t gval(const struct gsrc *g, const struct grow *r, size_t k)
{
	return !r->e[k] ? 0 : g->children ? r->e[k]->children : r->e[k]->self;
}

static int grow_by_key(const void *a, const void *b)
{
	return strcmp(((const struct grow *)a)->key, ((const struct grow *)b)->key);
}

/* Rows by the first event's share, then the next's, then by their keys: an order of no chance. */
static int grow_by_value(const void *a, const void *b, void *arg)
{
	const struct gsrc *g = arg;
	const struct grow *x = a, *y = b;

	for (size_t k = 0; k < g->nev; k++) {
		double u = format_pct(gval(g, x, k), g->totals[k]);
		double w = format_pct(gval(g, y, k), g->totals[k]);

		if (u != w)
			return u > w ? -1 : 1;
	}
	return strcmp(x->key, y->key);
}

static int group_row(const struct table *t, size_t i, struct table_row *row)
{
	const struct grow *r = &((const struct gsrc *)t->ctx)->rows[i];

	hist_shown(r->first, row->shown, row->buf, sizeof(row->buf));
	row->text = row->shown;
	row->flags = r->first->flags;
	row->inl_in = r->first->inl_in;
	return 1;
}

static void group_values(const struct table *t, size_t i, FILE *out)
{
	const struct gsrc *g = t->ctx;
	const struct grow *r = &g->rows[i];
	uint64_t samples = 0;

	for (size_t k = 0; k < g->nev; k++) {
		char b[NUMFMT_LEN];

		numfmt_fixed2(b, sizeof(b), k ? 7 : 9, format_pct(gval(g, r, k), g->totals[k]));
		fprintf(out, "%s%%", b);
		if (r->e[k])
			samples += r->e[k]->samples;
	}
	fprintf(out, "  %*" PRIu64, g->wsamples, samples);
}

/*
 * The events of p with samples, in one table: a column of each one's
 * shares (self, or with --children inclusive), rows by the first's, then
 * the next's, as perf report --group; the Samples column counts all of
 * the row's.
 */
static void write_group(const struct profile *p, const struct format_view *v, FILE *out)
{
	const struct hist_opts *ho = v->ho;
	size_t nev = 0, nraw = 0, nrows = 0, shown = 0, cap = 0;
	const struct profile_event **ev = xcalloc(p->nev ? p->nev : 1, sizeof(*ev));
	uint64_t *totals;
	struct grow *raw = NULL, *rows;
	struct gsrc g = { .children = ho->children, .wsamples = 7 };
	struct table t = { .v = v, .row = group_row, .values = group_values, .ctx = &g };
	char titles[512], rule[512], names[512];
	size_t tl = 0, nl = 0;
	double limit = v->has_limit ? v->percent_limit : 0;

	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].hist && hist_samples(p->ev[i].hist))
			ev[nev++] = &p->ev[i];
	if (!nev) {
		free(ev);
		return;
	}
	totals = xcalloc(nev, sizeof(*totals));
	for (size_t k = 0; k < nev; k++) {
		size_t n;
		const struct hist_entry *const *e = hist_sorted(ev[k]->hist, &n);

		totals[k] = hist_total(ev[k]->hist);
		for (size_t i = 0; i < n; i++) {
			raw = xgrow(raw, &cap, nraw + 1, sizeof(*raw));
			raw[nraw].key = joined_key(ho, e[i]);
			raw[nraw].first = e[i];
			raw[nraw].e = xcalloc(nev, sizeof(*raw[nraw].e));
			raw[nraw].e[k] = e[i];
			nraw++;
		}
	}
	/* one row a key: the entries of each event merged (stable, so the first event's texts show) */
	if (nraw)
		qsort(raw, nraw, sizeof(*raw), grow_by_key);
	rows = xcalloc(nraw ? nraw : 1, sizeof(*rows));
	for (size_t i = 0; i < nraw; i++) {
		if (nrows && !strcmp(rows[nrows - 1].key, raw[i].key)) {
			for (size_t k = 0; k < nev; k++)
				if (raw[i].e[k])
					rows[nrows - 1].e[k] = raw[i].e[k];
			free(raw[i].key);
			free(raw[i].e);
			continue;
		}
		rows[nrows++] = raw[i];
	}
	free(raw);
	g.rows = rows;
	g.nev = nev;
	g.totals = totals;
	qsort_r(rows, nrows, sizeof(*rows), grow_by_value, &g);
	/* the shown: a share of some event over the limit, and not nothing */
	for (size_t i = 0; i < nrows; i++) {
		int keep = 0;

		for (size_t k = 0; k < nev; k++)
			if (gval(&g, &rows[i], k) && format_pct(gval(&g, &rows[i], k), totals[k]) >= limit)
				keep = 1;
		if (!keep)
			continue;
		if (shown != i) {
			struct grow tmp = rows[shown];

			rows[shown] = rows[i];
			rows[i] = tmp;
		}
		shown++;
	}
	for (size_t k = 0; k < nev && nl + 2 < sizeof(names); k++)
		nl += (size_t)snprintf(names + nl, sizeof(names) - nl, "%s%s", k ? ", " : "",
				       ev[k]->ev->name);
	fprintf(out, "# group:    %s%s, a column each\n#\n", names,
		ho->children ? " (inclusive)" : "");
	tl = (size_t)snprintf(titles, sizeof(titles), "#%*s", (int)(9 + 8 * (nev - 1)), "Overhead");
	snprintf(titles + tl, sizeof(titles) - tl, "  %*s", g.wsamples, "Samples");
	tl = (size_t)snprintf(rule, sizeof(rule), "# ");
	for (size_t k = 0; k < 9 + 8 * (nev - 1) - 1 && tl + 1 < sizeof(rule); k++)
		rule[tl++] = '.';
	snprintf(rule + tl, sizeof(rule) - tl, "  %.*s", g.wsamples, "................................");
	t.n = shown;
	t.titles = titles;
	t.rule = rule;
	layout_table(&t, out);
	for (size_t i = 0; i < nrows; i++) {
		free(rows[i].key);
		free(rows[i].e);
	}
	free(rows);
	free(totals);
	free(ev);
}

static int write_text(const struct profile *p, const struct format_view *v, FILE *out)
{
	int any = 0;

	if (v->group) {
		for (size_t i = 0; i < p->nev && !any; i++)
			if (p->ev[i].hist) {
				print_header(p, p->ev[i].ev, p->ev[i].hist, out);
				any = 1;
			}
		if (any && !v->header_only)
			write_group(p, v, out);
		if (any)
			return 0;
	}

	for (size_t i = 0; i < p->nev; i++) {
		struct hist *h = p->ev[i].hist;

		if (!h)
			continue;
		if (any)
			putc('\n', out);
		any = 1;
		print_header(p, p->ev[i].ev, h, out);
		if (v->header_only)
			continue;
		if (v->ho->graph == HIST_TREE_TOP_DOWN || v->ho->graph == HIST_TREE_BOTTOM_UP) {
			double limit = v->has_limit ? v->percent_limit : 0.5;
			struct rsrc r = { .h = hist_tree(h), .total = hist_total(h) };
			struct layout l = report_layout(v, &r);

			r.min = (uint64_t)((double)r.total * limit / 100.0);
			fputs("#   Total     Self  Function\n", out);
			if (hist_tree_root(h)) {
				struct diff_node root = report_node(r.h, hist_tree_root(h));

				layout_tree(&l, &root, 0, out);
			}
		} else {
			print_flat(v, h, out);
		}
	}
	if (!any) {
		uint64_t lost = p->info.lost;

		if (p->samples)
			fprintf(out, "# prof report of '%s': no samples left after the filters\n",
				p->input);
		else if (lost)
			fprintf(out, "# prof report of '%s': no samples: the kernel lost all of them "
				"(%" PRIu64 " records); record with a bigger -m or a lower -F\n",
				p->input, lost);
		else
			fprintf(out, "# prof report of '%s': no samples\n", p->input);
	}
	return 0;
}

/* --- a diff: BASE and NEW, the change, and the verdict ---------------------- */

static const char *const side_names[2] = { "BASE", "NEW" };

/* Periods in nanoseconds (clock events and off-CPU time), shown as seconds. */
static int in_ns(const struct diff *d)
{
	return evkind_ns(d->event, d->event_config);
}

/* An amount of the event, or with sign the difference of two: seconds or a count. */
static void put_amount(const struct diff *d, double v, int sign, int width, FILE *out)
{
	if (in_ns(d))
		fprintf(out, sign ? "%+*.3fs" : "%*.3fs", width - 1, v / 1e9);
	else
		fprintf(out, sign ? "%+*.0f" : "%*.0f", width, v);
}

static void put_inputs(const struct format_view *v, int s, FILE *out)
{
	for (size_t i = 0; i < v->ninputs[s]; i++)
		fprintf(out, "%s'%s'", i ? ", " : "", v->inputs[s][i]);
}

static void diff_header(const struct diff *d, const struct format_view *v, FILE *out)
{
	size_t grew = 0, shrank = 0, shown_n = 0;

	for (size_t i = 0; i < d->n; i++) {
		if (!diff_selected(v, &d->e[i]))
			continue;
		shown_n++;
		grew += d->e[i].d.significant && d->e[i].d.delta > 0;
		shrank += d->e[i].d.significant && d->e[i].d.delta < 0;
	}
	fprintf(out, "# prof diff\n");
	for (int s = 0; s < 2; s++) {
		const struct diff_side *x = &d->side[s];

		fprintf(out, "# %-5s    ", side_names[s]);
		put_inputs(v, s, out);
		fprintf(out, ": %" PRIu64 " samples (%.0f effective), %.3f s", x->samples,
			x->weight > 0 ? (double)x->total / x->weight : 0, x->seconds);
		if (x->lost)
			fprintf(out, ", %" PRIu64 " records lost", x->lost);
		putc('\n', out);
	}
	fprintf(out, "# event:    %s\n", d->event);
	if (d->abs)
		fprintf(out, "# compare:  absolute %s (--abs); percentages and deltas are of BASE's "
			"total\n", in_ns(d) ? "time" : "counts");
	else
		fprintf(out, "# compare:  shares of each side's total; delta in points, NEW minus "
			"BASE\n");
	if (d->dispersion_df) {
		if (d->dispersion > 1)
			fprintf(out, "# runs:     the runs of a side differ %.2f times as much as sampling "
				"noise would make them (variance, %zu degrees of freedom): every test "
				"allows for it\n", d->dispersion, d->dispersion_df);
		else
			fprintf(out, "# runs:     the runs of a side differ no more than sampling noise "
				"would make them (%zu degrees of freedom)\n", d->dispersion_df);
	}
	if (d->side[0].clock_ns > 0 || d->side[1].clock_ns > 0)
		fprintf(out, "# %-8s  not sampled: every interval is recorded; its noise is counted "
			"as a sampler every %.3f ms would see it\n", d->event,
			(d->side[1].clock_ns > 0 ? d->side[1].clock_ns : d->side[0].clock_ns) / 1e6);
	fprintf(out, "# noise:    a change is significant when sampling noise explains it with "
		"less than %g%% chance in the whole table (%s; Bonferroni over %zu of the %zu "
		"entries: those with samples enough to show a change, equal ones once)",
		100 * (1 - d->level), d->abs ? "Poisson z-test" : "two-proportion z-test", d->tested,
		d->compared);
	if (d->min_delta > 0)
		fprintf(out, " and it is %g points or more (--min-delta)", d->min_delta);
	putc('\n', out);
	fprintf(out, "# changed:  %zu of %zu entries: %zu grew, %zu shrank\n#\n", grew + shrank,
		shown_n, grew, shrank);
}

/* The value columns of x, as the header names them. */
static void put_change(const struct diff *d, const struct diff_value *x, FILE *out)
{
	if (d->abs) {
		put_amount(d, (double)x->v[0], 0, 12, out);
		putc(' ', out);
		put_amount(d, (double)x->v[1], 0, 12, out);
		putc(' ', out);
		put_amount(d, (double)x->v[1] - (double)x->v[0], 1, 12, out);
		fprintf(out, " %+9.2f  %-6s", x->delta, format_change_word(x));
	} else {
		fprintf(out, "%8.2f%% %8.2f%% %+9.2f  %-6s", x->pct[0], x->pct[1], x->delta,
			format_change_word(x));
	}
}

static const char *change_titles(const struct diff *d)
{
	return d->abs ? "#       Base          New        Delta    Points  Change"
		      : "#    Base      New     Delta  Change";
}

static size_t diff_kids(const struct layout *l, const struct diff_node *n, struct diff_node **out)
{
	size_t k = 0, count = diff_children(l->ctx, n->at[0], n->at[1], out);

	for (size_t i = 0; i < count; i++)
		if (format_diff_shown(l->v, &(*out)[i].d, 0.5))
			(*out)[k++] = (*out)[i];
	return k;
}

/* An only child goes on as a column when it is all of its parent on both sides. */
static int diff_straight(const struct layout *l, const struct diff_node *n,
			 const struct diff_node *kid)
{
	(void)l;
	return kid->d.v[0] == n->d.v[0] && kid->d.v[1] == n->d.v[1];
}

/* "--60.00% -> 30.00% (-30.00)--" */
static void diff_head(const struct layout *l, const struct diff_node *c, char *buf, size_t len)
{
	(void)l;
	snprintf(buf, len, "--%.2f%% -> %.2f%% (%+.2f%s)--", c->d.pct[0], c->d.pct[1], c->d.delta,
		 c->d.significant ? "" : " noise");
}

static void diff_values(const struct layout *l, const struct diff_node *n, FILE *out)
{
	put_change(l->ctx, &n->d, out);
}

static struct layout diff_layout(const struct format_view *v, const struct diff *d)
{
	return (struct layout){ .v = v, .children = diff_kids, .straight = diff_straight,
				.head = diff_head, .values = diff_values, .ctx = d };
}

static int diff_row(const struct table *t, size_t i, struct table_row *row)
{
	const struct diff_entry *e = &((const struct diff *)t->ctx)->e[i];

	row->text = e->text;
	row->flags = e->flags;
	row->inl_in = e->inl_in;
	return format_diff_shown(t->v, &e->d, 0) && diff_selected(t->v, e);
}

static void diff_row_values(const struct table *t, size_t i, FILE *out)
{
	const struct diff *d = t->ctx;

	fputc(' ', out);
	put_change(d, &d->e[i].d, out);
}

/* -g: the entry's graphs merged; their root is the entry (callee) or above the outermost callers. */
static void diff_under(const struct table *t, size_t i, FILE *out)
{
	const struct diff *d = t->ctx;
	const struct diff_entry *e = &d->e[i];
	struct layout l = diff_layout(t->v, d);
	enum hist_graph g = t->v->ho->graph;

	if ((g != HIST_GRAPH_CALLER && g != HIST_GRAPH_CALLEE) || (!e->graph[0] && !e->graph[1]))
		return;
	fputs("            |\n            ---\n", out);
	layout_graph(&l, diff_node_at(d, e->graph[0], e->graph[1]), "               ", 1, out);
	putc('\n', out);
}

static int write_text_diff(const struct diff *d, const struct format_view *v, FILE *out)
{
	diff_header(d, v, out);
	if (v->ho->graph == HIST_TREE_TOP_DOWN || v->ho->graph == HIST_TREE_BOTTOM_UP) {
		struct diff_node root = diff_root(d);
		struct layout l = diff_layout(v, d);

		fprintf(out, "%s  Function\n", change_titles(d));
		layout_tree(&l, &root, 0, out);
	} else {
		struct table t = { .v = v, .n = d->n, .row = diff_row, .values = diff_row_values,
				   .under = diff_under, .titles = change_titles(d), .ctx = d };

		layout_table(&t, out);
	}
	return ferror(out) ? -EIO : 0;
}

const struct format format_text = {
	.name = "text",
	.help = "the flat view, call graphs or the tree (the default)",
	.needs = FORMAT_FLAT,
	.write = write_text,
	.diff_help = "entries with both shares and the change (the default); -g, --tree",
	.write_diff = write_text_diff,
};
