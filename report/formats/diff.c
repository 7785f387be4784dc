// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prof diff's formats (diffout.h): what changed, as text, JSON, a
 * differential flame graph and folded lines with both counts.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diffout.h"
#include "flame.h"
#include "format.h"
#include "json.h"
#include "xalloc.h"

static const char *const key_titles[HIST_NKEYS] = {
	"Command", "Pid", "Tid", "Shared Object", "Symbol", "Source", "CPU", "Parallelism",
};

static const char *const side_names[2] = { "BASE", "NEW" };

/* Periods in nanoseconds (clock events and off-CPU time), shown as seconds. */
static int in_ns(const struct diff *d)
{
	return !strcmp(d->event, "cpu-clock") || !strcmp(d->event, "task-clock") ||
	       profile_time_event(d->event, d->event_config);
}

/* An amount of the event, or with sign the difference of two: seconds or a count. */
static void put_amount(const struct diff *d, double v, int sign, int width, FILE *out)
{
	if (in_ns(d))
		fprintf(out, sign ? "%+*.3fs" : "%*.3fs", width - 1, v / 1e9);
	else
		fprintf(out, sign ? "%+*.0f" : "%*.0f", width, v);
}

static const char *change_word(const struct diff_value *x)
{
	return !x->significant ? "noise" : x->delta > 0 ? "grew" : "shrank";
}

static double larger(const struct diff_value *x)
{
	return x->pct[0] > x->pct[1] ? x->pct[0] : x->pct[1];
}

static int shown(const struct diff_view *v, const struct diff_value *x, double min)
{
	return (x->v[0] || x->v[1]) && larger(x) >= (v->has_limit ? v->percent_limit : min);
}

int diff_selected(const struct diff_view *v, const struct diff_entry *e)
{
	return !v->symbol || (e->text[HIST_SYM] && !regexec(v->symbol, e->text[HIST_SYM], 0, NULL, 0));
}

char *diff_entry_name(const struct diff_view *v, const struct diff_entry *e)
{
	size_t len = 1;
	char *s;

	if (e->text[HIST_SYM])
		return xstrdup(e->text[HIST_SYM]);
	for (int k = 0; k < v->ho->nkeys; k++)
		len += strlen(e->text[v->ho->keys[k]] ? e->text[v->ho->keys[k]] : "") + 3;
	s = xmalloc(len);
	s[0] = '\0';
	for (int k = 0; k < v->ho->nkeys; k++) {
		if (k)
			strcat(s, " / ");
		strcat(s, e->text[v->ho->keys[k]] ? e->text[v->ho->keys[k]] : "");
	}
	return s;
}

/* --- text ------------------------------------------------------------------ */

static void put_inputs(const struct diff_view *v, int s, FILE *out)
{
	for (size_t i = 0; i < v->ninput[s]; i++)
		fprintf(out, "%s'%s'", i ? ", " : "", v->input[s][i]);
}

static void text_header(const struct diff *d, const struct diff_view *v, FILE *out)
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
static void put_value(const struct diff *d, const struct diff_value *x, FILE *out)
{
	if (d->abs) {
		put_amount(d, (double)x->v[0], 0, 12, out);
		putc(' ', out);
		put_amount(d, (double)x->v[1], 0, 12, out);
		putc(' ', out);
		put_amount(d, (double)x->v[1] - (double)x->v[0], 1, 12, out);
		fprintf(out, " %+9.2f  %-6s", x->delta, change_word(x));
	} else {
		fprintf(out, "%8.2f%% %8.2f%% %+9.2f  %-6s", x->pct[0], x->pct[1], x->delta,
			change_word(x));
	}
}

static const char *value_titles(const struct diff *d)
{
	return d->abs ? "#       Base          New        Delta    Points  Change"
		      : "#    Base      New     Delta  Change";
}

static void put_key(const struct diff_entry *e, enum hist_key k, int width, FILE *out)
{
	char *s = format_key(k, e->text[k], e->flags, e->inl_in);

	fprintf(out, "%-*s", width, s);
	free(s);
}

static int key_width(const struct diff_entry *e, enum hist_key k)
{
	char *s = format_key(k, e->text[k], e->flags, e->inl_in);
	int n = (int)strlen(s);

	free(s);
	return n;
}

/* The labels of graph branches: "--60.00% -> 30.00% (-30.00)--". */
static void branch_head(const struct diff_node *c, char *buf, size_t len)
{
	snprintf(buf, len, "--%.2f%% -> %.2f%% (%+.2f%s)--", c->d.pct[0], c->d.pct[1], c->d.delta,
		 c->d.significant ? "" : " noise");
}

static void put_graph_name(const struct diff_node *n, FILE *out)
{
	fprintf(out, "%s%s", n->name, n->flags & FRAME_INLINED ? " (inlined)" : "");
}

/* perf's graph layout, each branch labelled with both shares and the change. */
static void text_graph(const struct diff *d, const struct diff_view *v, size_t a0, size_t a1,
		       const char *prefix, int depth, FILE *out)
{
	struct diff_node *kids, at = diff_node_at(d, a0, a1);
	size_t n, k;
	char sub[4096], head[128];

	for (;;) {
		if (v->max_depth && depth >= v->max_depth)
			return;
		n = diff_children(d, at.at[0], at.at[1], &kids);
		k = 0;
		for (size_t i = 0; i < n; i++)
			if (shown(v, &kids[i].d, 0.5))
				kids[k++] = kids[i];
		/* a straight run, all of it the same on both sides: a column of names */
		if (k != 1 || kids[0].d.v[0] != at.d.v[0] || kids[0].d.v[1] != at.d.v[1])
			break;
		fputs(prefix, out);
		put_graph_name(&kids[0], out);
		putc('\n', out);
		at = kids[0];
		depth++;
		free(kids);
	}
	for (size_t i = 0; i < k; i++) {
		int last = i + 1 == k;

		branch_head(&kids[i], head, sizeof(head));
		fprintf(out, "%s|\n%s%s%s", prefix, prefix, last ? " " : "|", head);
		put_graph_name(&kids[i], out);
		putc('\n', out);
		snprintf(sub, sizeof(sub), "%s%s%*s", prefix, last ? " " : "|", (int)strlen(head), "");
		if (strlen(sub) < sizeof(sub) - 64)
			text_graph(d, v, kids[i].at[0], kids[i].at[1], sub, depth + 1, out);
	}
	free(kids);
}

static void text_tree(const struct diff *d, const struct diff_view *v, const struct diff_node *x,
		      int depth, FILE *out)
{
	struct diff_node *kids;
	size_t n;
	char *s;

	put_value(d, &x->d, out);
	fprintf(out, "  %*s", 2 * depth, "");
	if (x->flags == FRAME_ROOT) {
		fputs(x->name ? x->name : "[root]", out);
	} else {
		s = format_sym(x->name, x->flags, NULL);
		fputs(s, out);
		free(s);
	}
	putc('\n', out);
	if (v->max_depth && depth >= v->max_depth)
		return;
	n = diff_children(d, x->at[0], x->at[1], &kids);
	for (size_t i = 0; i < n; i++)
		if (shown(v, &kids[i].d, 0.5))
			text_tree(d, v, &kids[i], depth + 1, out);
	free(kids);
}

static int write_text(const struct diff *d, const struct diff_view *v, FILE *out)
{
	const struct hist_opts *ho = v->ho;
	int w[HIST_NKEYS] = { 0 }, nk = ho->nkeys;

	text_header(d, v, out);
	if (ho->graph == HIST_TREE_TOP_DOWN || ho->graph == HIST_TREE_BOTTOM_UP) {
		struct diff_node root = diff_root(d);

		fprintf(out, "%s  Function\n", value_titles(d));
		text_tree(d, v, &root, 0, out);
		return ferror(out) ? -EIO : 0;
	}
	for (size_t i = 0; i < d->n; i++) {
		if (!shown(v, &d->e[i].d, 0) || !diff_selected(v, &d->e[i]))
			continue;
		for (int k = 0; k < nk; k++) {
			int l = key_width(&d->e[i], ho->keys[k]);

			if (l > w[k])
				w[k] = l;
		}
	}
	for (int k = 0; k < nk; k++)
		if ((int)strlen(key_titles[ho->keys[k]]) > w[k])
			w[k] = (int)strlen(key_titles[ho->keys[k]]);
	fputs(value_titles(d), out);
	for (int k = 0; k < nk; k++)
		fprintf(out, "  %-*s", k + 1 < nk ? w[k] : 0, key_titles[ho->keys[k]]);
	fputs("\n#\n", out);
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_entry *e = &d->e[i];

		if (!shown(v, &e->d, 0) || !diff_selected(v, e))
			continue;
		fputc(' ', out);
		put_value(d, &e->d, out);
		for (int k = 0; k < nk; k++) {
			fputs("  ", out);
			put_key(e, ho->keys[k], k + 1 < nk ? w[k] : 0, out);
		}
		putc('\n', out);
		if ((ho->graph == HIST_GRAPH_CALLER || ho->graph == HIST_GRAPH_CALLEE) &&
		    (e->graph[0] || e->graph[1])) {
			fputs("            |\n            ---\n", out);
			/* the graph's root is the entry (callee) or above the outermost callers */
			text_graph(d, v, e->graph[0], e->graph[1], "               ", 1, out);
			putc('\n', out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* --- json ------------------------------------------------------------------ */

static const char *const kind_names[] = { "root", "user", "kernel", "inlined", "unknown" };

static void json_value(struct json *j, const struct diff *d, const struct diff_value *x)
{
	json_double(j, "base", x->pct[0]);
	json_double(j, "new", x->pct[1]);
	json_double(j, "delta", x->delta);
	json_bool(j, "significant", x->significant);
	json_string(j, "change", change_word(x));
	json_prob(j, "p", fmin(1, x->p * (double)(d->tested ? d->tested : 1)));
	json_u64(j, "base_period", x->v[0]);
	json_u64(j, "new_period", x->v[1]);
}

/* The merged tree in pre-order, each node's parent its index. */
static void json_tree(struct json *j, const struct diff *d, const struct diff_view *v,
		      const struct diff_node *x, long parent, long *next, int depth)
{
	struct diff_node *kids;
	size_t n;
	long me = (*next)++;

	json_object(j, NULL);
	json_string(j, "name", x->name ? x->name : "all");
	json_string(j, "kind", kind_names[frame_kind(x->flags)]);
	if (parent < 0)
		json_string(j, "parent", NULL);
	else
		json_u64(j, "parent", (uint64_t)parent);
	json_double(j, "base", x->d.pct[0]);
	json_double(j, "new", x->d.pct[1]);
	json_double(j, "delta", x->d.delta);
	json_bool(j, "significant", x->d.significant);
	json_end(j);
	if (v->max_depth && depth >= v->max_depth)
		return;
	n = diff_children(d, x->at[0], x->at[1], &kids);
	for (size_t i = 0; i < n; i++)
		if (shown(v, &kids[i].d, 0))
			json_tree(j, d, v, &kids[i], me, next, depth + 1);
	free(kids);
}

static int write_json(const struct diff *d, const struct diff_view *v, FILE *out)
{
	struct json j;

	json_begin(&j, out);
	json_object(&j, NULL);
	json_string(&j, "schema", "prof-diff/1");
	for (int s = 0; s < 2; s++) {
		const struct diff_side *x = &d->side[s];

		json_object(&j, s ? "new" : "base");
		json_array(&j, "inputs");
		for (size_t i = 0; i < v->ninput[s]; i++)
			json_string(&j, NULL, v->input[s][i]);
		json_end(&j);
		json_u64(&j, "samples", x->samples);
		json_u64(&j, "total", x->total);
		json_double(&j, "effective_samples", x->weight > 0 ? (double)x->total / x->weight : 0);
		json_double(&j, "seconds", x->seconds);
		json_u64(&j, "lost", x->lost);
		json_end(&j);
	}
	json_string(&j, "event", d->event);
	json_string(&j, "compare", d->abs ? "absolute" : "shares");
	json_double(&j, "level", d->level);
	json_double(&j, "min_delta", d->min_delta);
	json_double(&j, "dispersion", d->dispersion);
	json_string(&j, "test", d->abs ? "poisson" : "two-proportion");
	json_u64(&j, "compared", d->compared);
	json_u64(&j, "tested", d->tested);
	json_array(&j, "keys");
	for (int k = 0; k < v->ho->nkeys; k++)
		json_string(&j, NULL, v->key_names[v->ho->keys[k]]);
	json_end(&j);
	json_array(&j, "entries");
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_entry *e = &d->e[i];
		char *name;

		if (!shown(v, &e->d, 0) || !diff_selected(v, e))
			continue;
		json_object(&j, NULL);
		name = diff_entry_name(v, e);
		json_string(&j, "name", name);
		free(name);
		for (int k = 0; k < v->ho->nkeys; k++)
			json_string(&j, v->key_names[v->ho->keys[k]], e->text[v->ho->keys[k]]);
		if (e->text[HIST_SYM])
			json_string(&j, "kind", kind_names[frame_kind(e->flags)]);
		if (e->inl_in)
			json_string(&j, "inlined_in", e->inl_in);
		json_value(&j, d, &e->d);
		if (e->graph[0] || e->graph[1]) {
			struct diff_node g = diff_node_at(d, e->graph[0], e->graph[1]);
			long next = 0;

			json_array(&j, "graph");
			json_tree(&j, d, v, &g, -1, &next, 0);
			json_end(&j);
		}
		json_end(&j);
	}
	json_end(&j);
	if (d->side[0].tree) {
		struct diff_node root = diff_root(d);
		long next = 0;

		json_array(&j, "tree");
		json_tree(&j, d, v, &root, -1, &next, 0);
		json_end(&j);
	}
	json_end(&j);
	putc('\n', out);
	return ferror(out) ? -EIO : 0;
}

/* --- svg: the differential flame graph ------------------------------------- */

struct svg_ctx {
	const struct diff *d;
	struct diff_value *by_new;	/* by node of NEW's tree */
	size_t n;
	double max_delta;
};

static void svg_collect(struct svg_ctx *c, const struct diff_node *x)
{
	struct diff_node *kids;
	size_t n;

	if (x->at[1] && x->at[1] < c->n) {
		c->by_new[x->at[1]] = x->d;
		if (x->d.significant && fabs(x->d.delta) > c->max_delta)
			c->max_delta = fabs(x->d.delta);
	}
	if (!x->at[1])
		return;		/* not drawn: sized by NEW */
	n = diff_children(c->d, x->at[0], x->at[1], &kids);
	for (size_t i = 0; i < n; i++)
		svg_collect(c, &kids[i]);
	free(kids);
}

/* Red for growth, blue for shrinkage, deeper for bigger changes; grey within noise. */
static void svg_fill(void *ctx, size_t id, const struct ctree_node *n, char *buf, size_t len)
{
	struct svg_ctx *c = ctx;
	const struct diff_value *x = id < c->n ? &c->by_new[id] : NULL;
	double s;
	int k;

	(void)n;
	if (!x || !x->significant || x->delta == 0) {
		snprintf(buf, len, "rgb(225,225,225)");
		return;
	}
	s = c->max_delta > 0 ? fabs(x->delta) / c->max_delta : 1;
	k = 215 - (int)(185 * (s < 0.15 ? 0.15 : s));
	if (x->delta > 0)
		snprintf(buf, len, "rgb(255,%d,%d)", k, k);
	else
		snprintf(buf, len, "rgb(%d,%d,255)", k, k);
}

static void svg_note(void *ctx, size_t id, FILE *out)
{
	struct svg_ctx *c = ctx;
	const struct diff_value *x = id < c->n ? &c->by_new[id] : NULL;

	if (!x)
		return;
	fprintf(out, ": BASE %.2f%%, NEW %.2f%%, %+.2f points, %s", x->pct[0], x->pct[1], x->delta,
		x->significant ? (x->delta > 0 ? "grew" : "shrank") : "within noise");
}

static int write_svg(const struct diff *d, const struct diff_view *v, FILE *out)
{
	struct svg_ctx c = { .d = d };
	struct diff_node root = diff_root(d);
	struct flame_opts fo = { .inverted = v->inverted, .fill = svg_fill, .note = svg_note,
				 .ctx = &c };
	char sub[1024];
	int ret;

	c.n = ctree_count(d->side[1].tree) + 1;
	c.by_new = xcalloc(c.n, sizeof(*c.by_new));
	svg_collect(&c, &root);
	ctree_sort(d->side[1].tree);
	fo.by_period = profile_time_event(d->event, d->event_config);
	snprintf(sub, sizeof(sub), "%s: NEW %s%s (%" PRIu64 " samples) against BASE %s%s (%" PRIu64
		 " samples)", d->event, v->input[1][0], v->ninput[1] > 1 ? " and more" : "",
		 d->side[1].samples, v->input[0][0], v->ninput[0] > 1 ? " and more" : "",
		 d->side[0].samples);
	fo.title = v->inverted ? "Differential Icicle Graph" : "Differential Flame Graph";
	fo.subtitle = sub;
	fo.legend = d->abs ? "Frames sized by NEW. Red: grew, blue: shrank, in points of BASE's "
			     "total time (deeper: more); grey: within sampling noise"
			   : "Frames sized by NEW. Red: grew, blue: shrank, in share of the profile "
			     "(deeper: more); grey: within sampling noise";
	ret = flame_svg(d->side[1].tree, d->side[1].root, &fo, out);
	free(c.by_new);
	return ret;
}

/* --- folded: both counts on each line, as difffolded.pl writes them -------- */

static void folded_walk(const struct diff *d, const struct diff_node *x, const char **names,
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
			for (int i = 0; i < depth; i++) {
				if (i)
					putc(';', out);
				folded_put_frame(names[i], flags[i], out);
			}
			fprintf(out, " %" PRIu64 " %" PRIu64 "\n", b, a);
		}
	}
	if (depth >= 1100)
		return;
	n = diff_children(d, x->at[0], x->at[1], &kids);
	for (size_t i = 0; i < n; i++)
		folded_walk(d, &kids[i], names, flags, depth + 1, by_period, out);
	free(kids);
}

static int write_folded(const struct diff *d, const struct diff_view *v, FILE *out)
{
	struct diff_node root = diff_root(d);
	const char *names[1101];
	unsigned flags[1101];

	(void)v;
	folded_walk(d, &root, names, flags, 0, profile_time_event(d->event, d->event_config),
		    out);
	return ferror(out) ? -EIO : 0;
}

/* --- the table ---------------------------------------------------------------- */

static const struct diff_format diff_text = {
	"text", "entries with both shares and the change (the default); -g, --tree", 0, write_text,
};
static const struct diff_format diff_json = {
	"json", "the same as JSON (doc/prof-diff.schema.json)", 0, write_json,
};
static const struct diff_format diff_svg = {
	"svg", "a differential flame graph: sized by NEW, red grew, blue shrank", 1, write_svg,
};
static const struct diff_format diff_folded = {
	"folded", "stacks with BASE's and NEW's counts (difffolded.pl, flamegraph.pl)", 1,
	write_folded,
};

const struct diff_format *const diff_formats[] = {
	&diff_text, &diff_json, &diff_svg, &diff_folded, NULL,
};

const struct diff_format *diff_format_find(const char *name)
{
	for (size_t i = 0; diff_formats[i]; i++)
		if (!strcmp(diff_formats[i]->name, name))
			return diff_formats[i];
	return NULL;
}
