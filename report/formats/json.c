// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small JSON writer: the report's output is a tree of objects, arrays,
 * strings and numbers, which a library would not make shorter. Names come
 * from binaries and may be any bytes: strings are escaped, and bytes that
 * are not UTF-8 become U+FFFD, so that the output always parses.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "format.h"
#include "json.h"
#include "utf8.h"
#include "xalloc.h"

void json_begin(struct json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->first[0] = 1;
}

void json_put_string(FILE *out, const char *v)
{
	utf8_put_json(out, v, strlen(v));
}

/* The separator and key before a value. */
static void lead(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		putc(',', j->out);
	j->first[j->depth] = 0;
	putc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
	if (key) {
		json_put_string(j->out, key);
		fputs(": ", j->out);
	}
}

static void open_with(struct json *j, const char *key, int c)
{
	if (j->depth)
		lead(j, key);
	putc(c, j->out);
	/* Deeper is cut off: the report nests five levels, see json.h. */
	if (j->depth + 1 < (int)sizeof(j->first))
		j->depth++;
	j->first[j->depth] = 1;
	j->close[j->depth] = c == '{' ? '}' : ']';
}

void json_object(struct json *j, const char *key)
{
	open_with(j, key, '{');
}

void json_array(struct json *j, const char *key)
{
	open_with(j, key, '[');
}

void json_end(struct json *j)
{
	int empty = j->first[j->depth];
	char c = j->close[j->depth];

	j->depth--;
	if (!empty) {
		putc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	putc(c, j->out);
	if (!j->depth)
		putc('\n', j->out);
}

void json_string(struct json *j, const char *key, const char *v)
{
	lead(j, key);
	if (v)
		json_put_string(j->out, v);
	else
		fputs("null", j->out);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	lead(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

void json_double(struct json *j, const char *key, double v)
{
	lead(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.4f", v);
	else
		fputs("null", j->out);
}

void json_prob(struct json *j, const char *key, double v)
{
	lead(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.3g", v);
	else
		fputs("null", j->out);
}

void json_bool(struct json *j, const char *key, int v)
{
	lead(j, key);
	fputs(v ? "true" : "false", j->out);
}

static const char *const kinds[] = { "root", "user", "kernel", "inlined", "unknown" };

/*
 * One object per node, in pre-order (a parent before its children, the
 * root first), each naming its parent's index: the nesting stays at three
 * levels however deep the stacks, so that every JSON reader takes it (jq
 * 1.6 refuses 256 levels, Python's json 1000).
 */
void json_stacks(struct json *j, const char *key, const struct ctree *st, size_t id)
{
	/* index[node] = its place in the array; nodes are numbered from 1 */
	size_t count = 0, cap = ctree_count(st) + 2;
	size_t *index = xcalloc(cap, sizeof(*index));

	json_array(j, key);
	for (size_t at = id; at;) {
		const struct ctree_node *n = ctree_node(st, at);

		if (at < cap)
			index[at] = count;
		json_object(j, NULL);
		json_string(j, "name", n->name);
		json_string(j, "kind", kinds[frame_kind(n->flags)]);
		if (at == id)
			json_string(j, "parent", NULL);
		else
			json_u64(j, "parent", n->parent < cap ? index[n->parent] : 0);
		json_u64(j, "samples", n->samples);
		json_u64(j, "self_samples", n->self_samples);
		json_u64(j, "period", n->period);
		json_u64(j, "self_period", n->self_period);
		json_end(j);
		count++;
		/* the next in pre-order: the first child, else the next sibling up the tree */
		if (n->first_child) {
			at = n->first_child;
			continue;
		}
		while (at && at != id && !ctree_node(st, at)->next_sibling)
			at = ctree_node(st, at)->parent;
		at = at && at != id ? ctree_node(st, at)->next_sibling : 0;
	}
	free(index);
	json_end(j);
}

/* --- the format -------------------------------------------------------------- */


/* Key k of entry e as the text view shows it: the sym key as "[.] f". */
static void key_value(struct json *j, const char *name, const struct hist_entry *e,
		      enum hist_key k)
{
	char *text;

	if (k != HIST_SYM) {
		char buf[24];

		json_string(j, name, hist_key_shown(e, k, buf, sizeof(buf)));
		return;
	}
	text = format_sym(hist_text(e, k), e->flags, e->inl_in);
	json_string(j, name, text);
	free(text);
}

static int write_json(const struct profile *p, const struct format_view *v, FILE *out)
{
	const struct hist_opts *ho = v->ho;
	struct json j;

	json_begin(&j, out);
	json_object(&j, NULL);
	json_string(&j, "schema", "prof-report/2");
	json_string(&j, "input", p->input);
	json_string(&j, "command", p->info.cmdline);
	json_string(&j, "host", p->info.hostname);
	json_string(&j, "osrelease", p->info.osrelease);
	json_string(&j, "arch", p->info.arch);
	json_u64(&j, "lost", p->info.lost);
	json_double(&j, "duration", (double)(p->last_time - p->first_time) / 1e9);
	json_array(&j, "sort");
	for (int k = 0; k < ho->nkeys; k++)
		json_string(&j, NULL, v->key_names[ho->keys[k]]);
	json_end(&j);
	json_array(&j, "events");
	for (size_t i = 0; i < p->nev; i++) {
		const struct profile_event *ev = &p->ev[i];
		struct hist *h = ev->hist;
		size_t n;
		const struct hist_entry *const *e;
		uint64_t total;
		double limit = v->has_limit ? v->percent_limit : 0;

		if (!h)
			continue;
		e = hist_sorted(h, &n);
		total = hist_total(h);
		json_object(&j, NULL);
		json_string(&j, "event", ev->ev->name);
		json_u64(&j, "samples", hist_samples(h));
		json_u64(&j, "period", total);
		json_array(&j, "flat");
		for (size_t k = 0; k < n; k++) {
			uint64_t val = ho->children ? e[k]->children : e[k]->self;

			if (!val || format_pct(val, total) < limit)
				break;
			json_object(&j, NULL);
			for (int key = 0; key < ho->nkeys; key++)
				key_value(&j, v->key_names[ho->keys[key]], e[k], ho->keys[key]);
			json_u64(&j, "samples", e[k]->samples);
			json_double(&j, "self", format_pct(e[k]->self, total));
			json_u64(&j, "self_period", e[k]->self);
			if (ho->children) {
				json_double(&j, "children", format_pct(e[k]->children, total));
				json_u64(&j, "children_period", e[k]->children);
			}
			json_end(&j);
		}
		json_end(&j);
		ctree_sort(ev->tree);
		json_stacks(&j, "tree", ev->tree, ev->tree_root);
		json_end(&j);
	}
	json_end(&j);
	if (p->ntt) {
		/* --wall: each thread's running, preempted and blocked time, most first */
		struct profile_thread_time *tt = xmalloc(p->ntt * sizeof(*tt));

		memcpy(tt, p->tt, p->ntt * sizeof(*tt));
		qsort(tt, p->ntt, sizeof(*tt), format_thread_time_cmp);
		json_array(&j, "threads");
		for (size_t i = 0; i < p->ntt; i++) {
			json_object(&j, NULL);
			json_u64(&j, "pid", (uint64_t)tt[i].pid);
			json_u64(&j, "tid", (uint64_t)tt[i].tid);
			json_string(&j, "comm", tt[i].comm ? tt[i].comm : "");
			json_u64(&j, "running", tt[i].running);
			json_u64(&j, "preempted", tt[i].preempted);
			json_u64(&j, "blocked", tt[i].blocked);
			json_end(&j);
		}
		json_end(&j);
		free(tt);
	}
	json_end(&j);
	return 0;
}

/* --- a diff (doc/prof-diff.schema.json) --------------------------------------- */

static void diff_value(struct json *j, const struct diff *d, const struct diff_value *x)
{
	json_double(j, "base", x->pct[0]);
	json_double(j, "new", x->pct[1]);
	json_double(j, "delta", x->delta);
	json_bool(j, "significant", x->significant);
	json_string(j, "change", format_change_word(x));
	json_prob(j, "p", fmin(1, x->p * (double)(d->tested ? d->tested : 1)));
	json_u64(j, "base_period", x->v[0]);
	json_u64(j, "new_period", x->v[1]);
}

/* The merged tree in pre-order, each node's parent its index, as json_stacks() writes one tree. */
static void diff_tree(struct json *j, const struct diff *d, const struct format_view *v,
		      const struct diff_node *x, long parent, long *next, int depth)
{
	struct diff_node *kids;
	size_t n;
	long me = (*next)++;

	json_object(j, NULL);
	json_string(j, "name", x->name ? x->name : "all");
	json_string(j, "kind", kinds[frame_kind(x->flags)]);
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
		if (format_diff_shown(v, &kids[i].d, 0))
			diff_tree(j, d, v, &kids[i], me, next, depth + 1);
	free(kids);
}

static int write_json_diff(const struct diff *d, const struct format_view *v, FILE *out)
{
	struct json j;

	json_begin(&j, out);
	json_object(&j, NULL);
	json_string(&j, "schema", "prof-diff/1");
	for (int s = 0; s < 2; s++) {
		const struct diff_side *x = &d->side[s];

		json_object(&j, s ? "new" : "base");
		json_array(&j, "inputs");
		for (size_t i = 0; i < v->ninputs[s]; i++)
			json_string(&j, NULL, v->inputs[s][i]);
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

		if (!format_diff_shown(v, &e->d, 0) || !diff_selected(v, e))
			continue;
		json_object(&j, NULL);
		name = diff_entry_name(v, e);
		json_string(&j, "name", name);
		free(name);
		for (int k = 0; k < v->ho->nkeys; k++)
			json_string(&j, v->key_names[v->ho->keys[k]], e->text[v->ho->keys[k]]);
		if (e->text[HIST_SYM])
			json_string(&j, "kind", kinds[frame_kind(e->flags)]);
		if (e->inl_in)
			json_string(&j, "inlined_in", e->inl_in);
		diff_value(&j, d, &e->d);
		if (e->graph[0] || e->graph[1]) {
			struct diff_node g = diff_node_at(d, e->graph[0], e->graph[1]);
			long next = 0;

			json_array(&j, "graph");
			diff_tree(&j, d, v, &g, -1, &next, 0);
			json_end(&j);
		}
		json_end(&j);
	}
	json_end(&j);
	if (d->side[0].tree) {
		struct diff_node root = diff_root(d);
		long next = 0;

		json_array(&j, "tree");
		diff_tree(&j, d, v, &root, -1, &next, 0);
		json_end(&j);
	}
	json_end(&j);
	putc('\n', out);
	return ferror(out) ? -EIO : 0;
}

const struct format format_json = {
	.name = "json",
	.help = "every event's flat view and stack tree (doc/prof-report.schema.json)",
	.needs = FORMAT_FLAT | FORMAT_STACKS | FORMAT_CHAINS,
	.write = write_json,
	.diff_help = "the same as JSON (doc/prof-diff.schema.json)",
	.write_diff = write_json_diff,
};
