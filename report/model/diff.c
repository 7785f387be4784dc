// SPDX-License-Identifier: GPL-2.0-or-later
/* What changed between two profiles: see diff.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "diff.h"
#include "htab.h"
#include "strpool.h"
#include "xalloc.h"

/* sum w^2 of an event's kept samples, beside hist's sum w */
struct sq {
	double sum;
};

static void *sq_begin(void *ctx, const struct evdesc *ev)
{
	(void)ctx;
	(void)ev;
	return xcalloc(1, sizeof(struct sq));
}

static void sq_add(void *state, const struct rsample *s)
{
	((struct sq *)state)->sum += (double)s->period * (double)s->period;
}

static const struct profile_collector sq_collector = {
	.begin = sq_begin,
	.add = sq_add,
	.free = free,
};

/* --- loading ------------------------------------------------------------- */

/* One file's values, for the run-to-run variation of a side of several. */
struct run {
	int side;
	double total, sq;		/* sum w and sum w^2 of its event's samples */
	uint32_t *entry;		/* index in diff.e */
	uint64_t *v;
	size_t n;
};

struct loading {
	struct diff *d;
	const struct diff_opts *o;
	struct htab index;		/* entries by key */
	size_t cap;
	struct run *runs;
	size_t nruns;
};

/* The entry of key, made when new. */
static struct diff_entry *entry_of(struct loading *l, const struct hist_entry *he, const char *key)
{
	struct diff *d = l->d;
	struct htab_probe p;
	uint32_t i;
	struct diff_entry *e;

	htab_probe(&l->index, (uint64_t)(uintptr_t)key, &p);
	while (htab_next(&l->index, &p, &i))
		if (d->e[i].key == key)
			return &d->e[i];
	if (d->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		d->e = xreallocarray(d->e, l->cap, sizeof(*d->e));
	}
	e = &d->e[d->n];
	memset(e, 0, sizeof(*e));
	for (int k = 0; k < HIST_NKEYS; k++)
		if (hist_text(he, (enum hist_key)k))
			e->text[k] = strpool_intern(d->pool, hist_text(he, (enum hist_key)k));
	e->flags = he->flags;
	e->inl_in = he->inl_in ? strpool_intern(d->pool, he->inl_in) : NULL;
	e->key = key;
	htab_put(&l->index, &p, (uint32_t)d->n);
	return &d->e[d->n++];
}

/* Append the len bytes at t to the growing buffer *buf. */
static void append(char **buf, size_t *len, size_t *cap, const char *t, size_t tl)
{
	while (*len + tl + 64 > *cap)
		*buf = xreallocarray(*buf, *cap *= 2, 1);
	memcpy(*buf + *len, t, tl);
	*len += tl;
}

/* The texts of he's keys and what its name says of it, joined: equal for equal entries. */
static const char *entry_key(struct diff *d, const struct hist_opts *ho,
			     const struct hist_entry *he)
{
	size_t len = 0, cap = 256;
	char *buf = xmalloc(cap);
	const char *key;

	for (int k = 0; k < ho->nkeys; k++) {
		const char *t = hist_text(he, ho->keys[k]) ? hist_text(he, ho->keys[k]) : "";

		append(&buf, &len, &cap, t, strlen(t));
		append(&buf, &len, &cap, "\x1f", 1);
	}
	if (he->inl_in)
		append(&buf, &len, &cap, he->inl_in, strlen(he->inl_in));
	/* append() left 64 bytes free */
	len += (size_t)snprintf(buf + len, cap - len, "\x1f%u", he->flags);
	key = strpool_intern_len(d->pool, buf, len);
	free(buf);
	return key;
}

/*
 * The nanoseconds between two samples of the profile's clock event
 * (cpu-clock or task-clock, -F or -c), else prof record's default 4000 Hz:
 * the grain at which a sampler would have seen its off-CPU time.
 */
static double clock_period(const struct profile *p)
{
	const struct evtab *t = session_evtab(p->session);

	for (size_t i = 0; t && i < t->nr; i++) {
		const struct perf_event_attr *a = &t->ev[i]->attr;

		if (a->type != PERF_TYPE_SOFTWARE ||
		    (a->config != PERF_COUNT_SW_CPU_CLOCK && a->config != PERF_COUNT_SW_TASK_CLOCK))
			continue;
		if (a->freq && a->sample_freq)
			return 1e9 / (double)a->sample_freq;
		if (!a->freq && a->sample_period)
			return (double)a->sample_period;
	}
	return 1e9 / 4000;
}

/* The event of p this diff is about; NULL with err when it has none or another. */
static const struct profile_event *pick_event(struct loading *l, const struct profile *p,
					      const char *input, char *err, size_t errlen)
{
	const struct profile_opts *po = l->o->po;
	const struct profile_event *e = NULL;
	size_t others = 0;

	if (po->f.event || po->wall) {
		const char *want = po->wall ? "wall" : po->f.event;

		for (size_t i = 0; i < p->nev && !e; i++)
			if (p->ev[i].hist && !strcmp(p->ev[i].ev->name, want))
				e = &p->ev[i];
		return e;	/* none: no samples of it here, which the totals say */
	}
	e = profile_first_event(p, &others);
	if (!e)
		return NULL;
	if (!l->d->event) {
		/* the first file's; the command says what else it has (diff_opts.loaded) */
		l->d->event = strpool_intern(l->d->pool, e->ev->name);
	} else if (strcmp(l->d->event, e->ev->name)) {
		snprintf(err, errlen, "'%s' samples %s where the files before it sample %s; "
			 "compare one event with --event NAME", input, e->ev->name, l->d->event);
		return NULL;
	}
	return e;
}

/* Merge one file into side s. */
static int load_file(struct loading *l, int s, const char *input, char *err, size_t errlen)
{
	struct diff *d = l->d;
	struct diff_side *side = &d->side[s];
	struct profile_opts po = *l->o->po;
	struct profile *p = NULL;
	const struct profile_event *e;
	const struct hist_entry *const *he;
	struct run *run;
	size_t n;
	char why[1024];

	po.input = input;
	po.collector = &sq_collector;
	po.flat = 1;
	po.stacks = l->o->tree == DIFF_TREE_STACKS;
	if (l->o->tree != DIFF_TREE_NONE)
		po.chains = 1;
	if (profile_load(&po, &p, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (l->o->loaded)
		l->o->loaded(l->o->ctx, p);
	side->lost += p->info.lost;
	err[0] = '\0';
	e = pick_event(l, p, input, err, errlen);
	if (err[0]) {
		profile_free(p);
		return -1;
	}
	if (!e) {
		profile_free(p);
		return 0;	/* nothing of the event: the side's totals say so */
	}
	d->event_config = e->ev->attr.config;
	if (evkind_time(e->ev->name, e->ev->attr.config) && !side->clock_ns)
		side->clock_ns = clock_period(p);
	if (p->last_time > p->first_time)
		side->seconds += (double)(p->last_time - p->first_time) / 1e9;
	side->samples += hist_samples(e->hist);
	side->total += hist_total(e->hist);
	he = hist_sorted(e->hist, &n);
	l->runs = xreallocarray(l->runs, l->nruns + 1, sizeof(*l->runs));
	run = &l->runs[l->nruns++];
	run->side = s;
	run->total = (double)hist_total(e->hist);
	run->sq = ((const struct sq *)e->collected)->sum;
	run->entry = xreallocarray(NULL, n + 1, sizeof(*run->entry));
	run->v = xreallocarray(NULL, n + 1, sizeof(*run->v));
	run->n = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = po.ho.children ? he[i]->children : he[i]->self;
		const char *key;
		struct diff_entry *de;

		if (!v && !he[i]->tree)
			continue;
		key = entry_key(d, &po.ho, he[i]);
		de = entry_of(l, he[i], key);
		de->d.v[s] += v;
		run->entry[run->n] = (uint32_t)(de - d->e);
		run->v[run->n++] = v;
		if (l->o->tree == DIFF_TREE_GRAPHS && he[i]->tree) {
			size_t at = ctree_child(side->tree, side->root, key, FRAME_ROOT);

			ctree_graft(side->tree, at, hist_tree(e->hist), he[i]->tree);
			de->graph[s] = at;
		}
	}
	if (l->o->tree == DIFF_TREE_WHOLE && hist_tree_root(e->hist))
		ctree_graft(side->tree, side->root, hist_tree(e->hist), hist_tree_root(e->hist));
	else if (l->o->tree == DIFF_TREE_STACKS && e->tree)
		ctree_graft(side->tree, side->root, e->tree, e->tree_root);
	profile_free(p);
	return 0;
}

/* --- noise ---------------------------------------------------------------- */

/*
 * What one effective sample weighs, for samples summing to total with
 * squares summing to sq: sq / total (Kish), so that total / weight is the
 * effective count. Off-CPU intervals (clock_ns set) are not sampled: each
 * is there, with its length; they count as a sampler at the recording's
 * rate would have seen them, or by their effective number where that says
 * more (many short waits).
 */
static double sample_weight(double total, double sq, double clock_ns)
{
	double w = total > 0 && sq > 0 ? sq / total : 1;

	return clock_ns > 0 && clock_ns < w ? clock_ns : w;
}

/* The two-sided p of z under the standard normal. */
static double p_of_z(double z)
{
	return erfc(fabs(z) / M_SQRT2);
}

/* Two shares, v[s] of total[s], as effective counts: the pooled two-proportion z-test. */
static double p_shares(const struct diff *d, const double v[2])
{
	double x[2], n[2], p0, se;

	for (int s = 0; s < 2; s++) {
		x[s] = v[s] / d->side[s].weight;
		n[s] = (double)d->side[s].total / d->side[s].weight;
		if (n[s] <= 0)
			return 1;
	}
	p0 = (x[0] + x[1]) / (n[0] + n[1]);
	se = sqrt(d->dispersion * p0 * (1 - p0) * (1 / n[0] + 1 / n[1]));
	if (!(se > 0))
		return 1;	/* nothing or everything on both sides: no change */
	return p_of_z((x[1] / n[1] - x[0] / n[0]) / se);
}

/* Two absolute times: each a Poisson count of effective samples times their weight. */
static double p_abs(const struct diff *d, const double v[2])
{
	double var = 0;

	for (int s = 0; s < 2; s++)
		var += v[s] * d->side[s].weight;
	var *= d->dispersion;
	if (!(var > 0))
		return 1;
	return p_of_z((v[1] - v[0]) / sqrt(var));
}

static double p_value(const struct diff *d, const double v[2])
{
	return d->abs ? p_abs(d, v) : p_shares(d, v);
}

/*
 * The least p that any split of v's samples between the sides could give:
 * all of them on one side. An entry of a few samples can never be
 * significant, and Tarone's correction does not count it.
 */
static double p_least(const struct diff *d, const uint64_t v[2])
{
	const double w0 = d->side[0].weight, w1 = d->side[1].weight;
	const double c = (double)v[0] / w0 + (double)v[1] / w1;
	const double a[2] = { c * w0, 0 }, b[2] = { 0, c * w1 };

	return fmin(p_value(d, a), p_value(d, b));
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Tarone's modification of Bonferroni: the fewest m such that at most m
 * of the values could reach p < alpha / m at all (their least p). Only
 * those can be significant, so the family-wise level holds dividing by m,
 * and a profile's hundreds of one-sample entries do not blunt the test
 * of its big ones.
 */
static size_t tarone(double *least, size_t n, double alpha)
{
	size_t k = n;

	if (n > 1)
		qsort(least, n, sizeof(*least), double_cmp);
	for (size_t m = 1; m <= n; m++) {
		while (k > 0 && !(least[k - 1] < alpha / (double)m))
			k--;
		if (k <= m)
			return m;
	}
	return n ? n : 1;
}

/* Fill in x's shares, change and significance; m: the divisor of the level. */
static void judge(const struct diff *d, struct diff_value *x, size_t m)
{
	double v[2] = { (double)x->v[0], (double)x->v[1] };

	for (int s = 0; s < 2; s++) {
		uint64_t t = d->abs ? d->side[0].total : d->side[s].total;

		x->pct[s] = t ? 100.0 * (double)x->v[s] / (double)t : 0;
	}
	x->delta = x->pct[1] - x->pct[0];
	x->p = p_value(d, v);
	x->significant = x->p * (double)(m ? m : 1) < 1 - d->level &&
			 fabs(x->delta) >= d->min_delta;
}

/* Bigger change first, then the bigger share, then by name: an order that does not vary. */
static int value_cmp(const struct diff_value *a, const struct diff_value *b)
{
	double da = fabs(a->delta), db = fabs(b->delta);
	double ma = a->pct[0] > a->pct[1] ? a->pct[0] : a->pct[1];
	double mb = b->pct[0] > b->pct[1] ? b->pct[0] : b->pct[1];

	if (a->significant != b->significant)
		return a->significant ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	return 0;
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct diff_entry *a = pa, *b = pb;
	int c = value_cmp(&a->d, &b->d);

	return c ? c : strcmp(a->key, b->key);
}

static int node_cmp(const void *pa, const void *pb)
{
	const struct diff_node *a = pa, *b = pb;
	int c = value_cmp(&a->d, &b->d);

	if (c)
		return c;
	c = strcmp(a->name, b->name);
	return c ? c : (int)a->flags - (int)b->flags;
}

/*
 * How much more the runs of a side differ among themselves than sampling
 * noise would make them: the quasi-binomial dispersion, Pearson's X^2
 * over its degrees of freedom, pooled over the entries expected at five
 * effective samples or more in every run and over both sides. 1 (no
 * more than noise) when no side has two runs.
 */
static void measure_dispersion(struct diff *d, const struct loading *l)
{
	double x2 = 0, *pb = xcalloc(d->n + 1, sizeof(*pb)), *chi = xcalloc(d->n + 1, sizeof(*chi));
	double *w = xcalloc(l->nruns + 1, sizeof(*w)), *nj = xcalloc(l->nruns + 1, sizeof(*nj));
	size_t df = 0;

	for (int s = 0; s < 2; s++) {
		double nsum = 0, nmin = 0;
		size_t k = 0;

		memset(pb, 0, (d->n + 1) * sizeof(*pb));
		memset(chi, 0, (d->n + 1) * sizeof(*chi));
		for (size_t j = 0; j < l->nruns; j++) {
			const struct run *r = &l->runs[j];

			if (r->side != s || !(r->total > 0))
				continue;
			w[j] = sample_weight(r->total, r->sq, d->side[s].clock_ns);
			nj[j] = r->total / w[j];
			nsum += nj[j];
			nmin = k ? fmin(nmin, nj[j]) : nj[j];
			k++;
			for (size_t i = 0; i < r->n; i++)
				pb[r->entry[i]] += (double)r->v[i] / w[j];
		}
		if (k < 2)
			continue;
		for (size_t e = 0; e < d->n; e++) {
			pb[e] /= nsum;
			if (!(nmin * pb[e] >= 5) || !(pb[e] < 1)) {
				pb[e] = -1;	/* too few samples to tell: left out */
				continue;
			}
			/* every run as if it had none of e; the runs that have some, below */
			chi[e] = nsum * pb[e] / (1 - pb[e]);
			df += k - 1;
		}
		for (size_t j = 0; j < l->nruns; j++) {
			const struct run *r = &l->runs[j];

			if (r->side != s || !(r->total > 0))
				continue;
			for (size_t i = 0; i < r->n; i++) {
				size_t e = r->entry[i];
				double m = nj[j] * pb[e], x = (double)r->v[i] / w[j];

				if (pb[e] < 0)
					continue;
				chi[e] += (x - m) * (x - m) / (m * (1 - pb[e])) - m / (1 - pb[e]);
			}
		}
		for (size_t e = 0; e < d->n; e++)
			if (pb[e] >= 0)
				x2 += chi[e];
	}
	free(pb);
	free(chi);
	free(w);
	free(nj);
	d->dispersion = df && x2 / (double)df > 1 ? x2 / (double)df : 1;
	d->dispersion_df = df;
}

/* --- the merged trees ------------------------------------------------------ */

/* x's values in each side's tree, from the nodes it is. */
static void node_values(const struct diff *d, struct diff_node *x)
{
	for (int s = 0; s < 2; s++) {
		const struct ctree_node *n = x->at[s] ? ctree_node(d->side[s].tree, x->at[s]) : NULL;

		x->d.v[s] = n ? n->period : 0;
		x->self[s] = n ? n->self_period : 0;
		x->self_samples[s] = n ? n->self_samples : 0;
		if (n) {
			x->name = n->name;
			x->flags = n->flags;
		}
	}
}

/*
 * The children of the merged node a0/a1 with their values, unjudged and
 * unsorted: NEW's, each with its match in BASE, then BASE's that NEW has
 * not. Returns the count; *out is malloc'd.
 */
static size_t match_children(const struct diff *d, size_t a0, size_t a1, struct diff_node **out)
{
	const struct ctree *t0 = d->side[0].tree, *t1 = d->side[1].tree;
	size_t n = 0, cap = 0;
	struct diff_node *v = NULL;

	*out = NULL;
	if (!t0 || !t1)
		return 0;
	for (int s = 1; s >= 0; s--) {
		const struct ctree *t = s ? t1 : t0;
		size_t at = s ? a1 : a0;

		if (!at)
			continue;
		for (size_t c = ctree_node(t, at)->first_child; c; c = ctree_node(t, c)->next_sibling) {
			const struct ctree_node *cn = ctree_node(t, c);
			size_t other = ctree_find(s ? t0 : t1, s ? a0 : a1, cn->name, cn->flags);

			if (!s && other)
				continue;	/* met from NEW's side */
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				v = xreallocarray(v, cap, sizeof(*v));
			}
			memset(&v[n], 0, sizeof(v[n]));
			v[n].at[s] = c;
			v[n].at[!s] = other;
			node_values(d, &v[n]);
			n++;
		}
	}
	*out = v;
	return n;
}

size_t diff_children(const struct diff *d, size_t a0, size_t a1, struct diff_node **out)
{
	size_t n = match_children(d, a0, a1, out);

	for (size_t i = 0; i < n; i++)
		judge(d, &(*out)[i].d, d->nodes_tested);
	if (n > 1)
		qsort(*out, n, sizeof(**out), node_cmp);
	return n;
}

struct diff_node diff_node_at(const struct diff *d, size_t a0, size_t a1)
{
	struct diff_node r = { .at = { a0, a1 } };

	if (d->side[0].tree && d->side[1].tree) {
		node_values(d, &r);
		judge(d, &r.d, d->nodes_tested);
	}
	return r;
}

struct diff_node diff_root(const struct diff *d)
{
	return diff_node_at(d, d->side[0].root, d->side[1].root);
}

/*
 * The distinct tests of a table, for Tarone's divisor: values that are
 * the same on both sides (a chain of callers with one caller each) are
 * one test whose rejections are one event, so they count once.
 */
struct tests {
	struct htab seen;
	uint64_t (*pair)[2];
	double *least;
	size_t n, cap;
};

static void tests_add(const struct diff *d, struct tests *t, const uint64_t v[2])
{
	struct htab_probe p;
	uint32_t i;

	if (!v[0] && !v[1])
		return;
	htab_probe(&t->seen, htab_hash_words(v, 2), &p);
	while (htab_next(&t->seen, &p, &i))
		if (t->pair[i][0] == v[0] && t->pair[i][1] == v[1])
			return;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->pair = xreallocarray(t->pair, t->cap, sizeof(*t->pair));
		t->least = xreallocarray(t->least, t->cap, sizeof(*t->least));
	}
	t->pair[t->n][0] = v[0];
	t->pair[t->n][1] = v[1];
	t->least[t->n] = p_least(d, v);
	htab_put(&t->seen, &p, (uint32_t)t->n++);
}

/* The divisor of the level for the tests added; t is emptied. */
static size_t tests_divisor(struct tests *t, double alpha)
{
	size_t m = tarone(t->least, t->n, alpha);

	htab_release(&t->seen);
	free(t->pair);
	free(t->least);
	memset(t, 0, sizeof(*t));
	return m;
}

/* Every node under a0/a1, as a test. */
static void collect_nodes(const struct diff *d, size_t a0, size_t a1, struct tests *t)
{
	struct diff_node *kids;
	size_t k = match_children(d, a0, a1, &kids);

	for (size_t i = 0; i < k; i++) {
		if (!kids[i].d.v[0] && !kids[i].d.v[1])
			continue;
		tests_add(d, t, kids[i].d.v);
		collect_nodes(d, kids[i].at[0], kids[i].at[1], t);
	}
	free(kids);
}

/* --- the whole --------------------------------------------------------------- */

static void runs_free(struct loading *l)
{
	for (size_t j = 0; j < l->nruns; j++) {
		free(l->runs[j].entry);
		free(l->runs[j].v);
	}
	free(l->runs);
	htab_release(&l->index);
}

int diff_load(const struct diff_opts *o, struct diff **out, char *err, size_t errlen)
{
	struct diff *d = xcalloc(1, sizeof(*d));
	struct loading l = { .d = d, .o = o };
	static const char *const side_name[2] = { "BASE", "NEW" };
	struct tests t = { .n = 0 };

	*out = NULL;
	d->pool = strpool_new();
	d->abs = o->abs;
	d->level = o->level;
	d->min_delta = o->min_delta;
	d->dispersion = 1;
	htab_init(&l.index);
	if (o->po->wall)
		d->event = strpool_intern(d->pool, "wall");
	else if (o->po->f.event)
		d->event = strpool_intern(d->pool, o->po->f.event);
	for (int s = 0; s < 2; s++) {
		if (o->tree != DIFF_TREE_NONE) {
			d->side[s].tree = ctree_new(d->pool, o->tree == DIFF_TREE_STACKS);
			d->side[s].root = ctree_root(d->side[s].tree, "all", FRAME_ROOT);
		}
		for (size_t i = 0; i < o->ninput[s]; i++)
			if (load_file(&l, s, o->input[s][i], err, errlen))
				goto fail;
	}
	for (int s = 0; s < 2; s++) {
		double sq = 0;

		if (!d->side[s].total) {
			snprintf(err, errlen, "%s (%s%s) has no samples%s%s%s; nothing to compare",
				 side_name[s], o->input[s][0], o->ninput[s] > 1 ? " and more" : "",
				 d->event ? " of " : "", d->event ? d->event : "",
				 o->po->f.ncomm || o->po->f.ndso || o->po->f.npid || o->po->f.ntid ||
				 o->po->f.ncpu || o->po->f.symbol || o->po->f.t_start >= 0 ||
				 o->po->f.t_end >= 0 ? " left after the filters" : "");
			goto fail;
		}
		for (size_t j = 0; j < l.nruns; j++)
			if (l.runs[j].side == s)
				sq += l.runs[j].sq;
		d->side[s].weight = sample_weight((double)d->side[s].total, sq,
						  d->side[s].clock_ns);
	}
	measure_dispersion(d, &l);
	htab_init(&t.seen);
	for (size_t i = 0; i < d->n; i++) {
		d->compared += d->e[i].d.v[0] || d->e[i].d.v[1];
		tests_add(d, &t, d->e[i].d.v);
	}
	d->tested = tests_divisor(&t, 1 - d->level);
	for (size_t i = 0; i < d->n; i++)
		judge(d, &d->e[i].d, d->tested);
	if (d->n > 1)
		qsort(d->e, d->n, sizeof(*d->e), entry_cmp);
	if (o->tree != DIFF_TREE_NONE) {
		htab_init(&t.seen);
		collect_nodes(d, d->side[0].root, d->side[1].root, &t);
		d->nodes_tested = tests_divisor(&t, 1 - d->level);
	}
	runs_free(&l);
	*out = d;
	return 0;
fail:
	runs_free(&l);
	diff_free(d);
	return -1;
}

void diff_free(struct diff *d)
{
	if (!d)
		return;
	for (int s = 0; s < 2; s++)
		ctree_free(d->side[s].tree);
	free(d->e);
	strpool_free(d->pool);
	free(d);
}
