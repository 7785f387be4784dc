// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format text, the default: per event a header, then the flat view
 * (with call graphs under its entries, -g caller or callee) or the whole
 * program as one tree (--tree). Columns are sized to their contents and
 * names spelled as perf report spells them, "[.] f" and "[k] f", made
 * here from the model's names and flags: stable enough to diff.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "unwind.h"
#include "xalloc.h"

static const char *const key_titles[HIST_NKEYS] = {
	"Command", "Pid", "Tid", "Shared Object", "Symbol", "Source", "CPU", "Parallelism",
};

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

#define pct format_pct

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
				(double)tt[i].running / 1e9, pct(tt[i].running, t),
				(double)tt[i].preempted / 1e9, pct(tt[i].preempted, t),
				(double)tt[i].blocked / 1e9, pct(tt[i].blocked, t));
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
	double lost_pct = pct(lost, p->samples + lost);
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
		double q = pct(u->complete, u->total);

		fprintf(out, "# stacks:   %.1f%% complete (dwarf: %" PRIu64 " of %" PRIu64 " user stacks "
		       "reach the program's or a thread's entry)", q, u->complete, u->total);
		if (u->fp)
			fprintf(out, "; %" PRIu64 " (%.1f%%) needed a frame pointer where no CFI was found",
			       u->fp, pct(u->fp, u->total));
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
				if (top[k] >= 0 && pct(u->stop[top[k]].n, u->total) < 1)
					top[k] = -1;
			fprintf(out, " -- WARNING: unwinding stopped most in");
			for (int k = 0; k < 3 && top[k] >= 0; k++)
				fprintf(out, "%s %s (%.0f%%, %s)", k ? "," : "",
				       u->stop[top[k]].dso ? dso_short_name(u->stop[top[k]].dso)
							      : "[unknown]",
				       pct(u->stop[top[k]].n, u->total),
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
			p->leaf_repaired, p->leaf_checked, pct(p->leaf_repaired, p->leaf_checked));
	off_cpu_header(p, e, out);
	if (p->latency)
		fprintf(out, "# latency:  each sample weighs its period divided by the threads of its "
			"process running at its time (--latency)\n");
	fprintf(out, "#\n");
}

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

/*
 * The children of node, sorted by total, at or above the limit; ties in
 * the order of the list. Counted first: a node may have 100,000 children.
 */
static size_t sorted_children(const struct ctree *h, size_t node, uint64_t min, size_t **out)
{
	size_t n = 0;
	struct kid *k;

	*out = NULL;
	for (size_t c = ctree_node(h, node)->first_child; c; c = ctree_node(h, c)->next_sibling)
		n += ctree_node(h, c)->period >= min;
	if (!n)
		return 0;
	k = xreallocarray(NULL, n, sizeof(*k));
	n = 0;
	for (size_t c = ctree_node(h, node)->first_child; c; c = ctree_node(h, c)->next_sibling)
		if (ctree_node(h, c)->period >= min) {
			k[n].node = c;
			k[n].pos = n;
			n++;
		}
	qsort_r(k, n, sizeof(*k), kid_cmp, (void *)h);
	*out = xreallocarray(NULL, n, sizeof(**out));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = k[i].node;
	free(k);
	return n;
}

/* A frame as --tree shows it: "[.] f", "[k] f (inlined)"; its root "[root]". */
static void put_frame(const char *name, unsigned flags, FILE *out)
{
	char *s;

	if (flags == FRAME_ROOT) {
		fputs(name, out);
		return;
	}
	s = format_sym(name, flags, NULL);
	fputs(s, out);
	free(s);
}

/* Graph lines show the function without the Symbol column's [.]/[k] mark. */
static void put_graph_name(const struct ctree_node *n, FILE *out)
{
	fprintf(out, "%s%s", n->name, n->flags & FRAME_INLINED ? " (inlined)" : "");
}

/* perf's graph layout: straight runs as a column, branches as |--P%--name. */
static void print_graph(const struct ctree *h, size_t node, const char *prefix, uint64_t total,
			uint64_t min, int depth, int max_depth, FILE *out)
{
	size_t *kids, n;
	char sub[4096];

	for (;;) {
		if (max_depth && depth >= max_depth)
			return;
		n = sorted_children(h, node, min, &kids);
		if (n != 1)
			break;
		fputs(prefix, out);
		put_graph_name(ctree_node(h, kids[0]), out);
		putc('\n', out);
		node = kids[0];
		depth++;
		free(kids);
	}
	for (size_t i = 0; i < n; i++) {
		const struct ctree_node *c = ctree_node(h, kids[i]);
		int last = i + 1 == n;
		char head[64];

		snprintf(head, sizeof(head), "--%.2f%%--", pct(c->period, total));
		fprintf(out, "%s|\n", prefix);
		fprintf(out, "%s%s%s", prefix, last ? " " : "|", head);
		put_graph_name(c, out);
		putc('\n', out);
		snprintf(sub, sizeof(sub), "%s%s%*s", prefix, last ? " " : "|", (int)strlen(head), "");
		print_graph(h, kids[i], sub, total, min, depth + 1, max_depth, out);
	}
	free(kids);
}

static void print_tree(const struct ctree *h, size_t node, int depth, uint64_t total,
		       uint64_t min, int max_depth, FILE *out)
{
	const struct ctree_node *n = ctree_node(h, node);
	size_t *kids, k;

	fprintf(out, "%7.2f%%  %6.2f%%  %*s", pct(n->period, total), pct(n->self_period, total),
		2 * depth, "");
	put_frame(n->name, n->flags, out);
	putc('\n', out);
	if (max_depth && depth >= max_depth)
		return;
	k = sorted_children(h, node, min, &kids);
	for (size_t i = 0; i < k; i++)
		print_tree(h, kids[i], depth + 1, total, min, max_depth, out);
	free(kids);
}

/*
 * The text of key k of entry e: the sym key's is its frame's name, spelled
 * here; an inlined function's says what it was inlined into, so that the
 * entries match perf's, which are named by symbol.
 */
static int key_width(const struct hist_entry *e, enum hist_key k)
{
	char *s = format_key(k, e->text[k], e->flags, e->inl_in);
	int n = (int)strlen(s);

	free(s);
	return n;
}

static void put_key(const struct hist_entry *e, enum hist_key k, int width, FILE *out)
{
	char *s = format_key(k, e->text[k], e->flags, e->inl_in);

	fprintf(out, "%-*s", width, s);
	free(s);
}

static void print_flat(const struct format_view *v, struct hist *h, FILE *out)
{
	const struct hist_opts *ho = v->ho;
	const struct ctree *tree = hist_tree(h);
	size_t n, shown = 0;
	const struct hist_entry *const *e = hist_sorted(h, &n);
	uint64_t total = hist_total(h);
	int w[HIST_NKEYS] = { 0 }, wsamples = 7, nk = ho->nkeys;
	double limit = v->has_limit ? v->percent_limit : 0;
	double glimit = v->has_graph_limit ? v->graph_limit : v->has_limit ? limit : 0.5;
	uint64_t graph_min = (uint64_t)((double)total * glimit / 100.0);
	char samples[32];

	for (size_t i = 0; i < n; i++) {
		double p = pct(ho->children ? e[i]->children : e[i]->self, total);

		if (p < limit || (ho->children ? e[i]->children : e[i]->self) == 0)
			break;
		shown++;
		for (int k = 0; k < nk; k++) {
			int l = key_width(e[i], ho->keys[k]);

			if (l > w[k])
				w[k] = l;
		}
		snprintf(samples, sizeof(samples), "%" PRIu64, e[i]->samples);
		if ((int)strlen(samples) > wsamples)
			wsamples = (int)strlen(samples);
	}
	for (int k = 0; k < nk; k++)
		if ((int)strlen(key_titles[ho->keys[k]]) > w[k])
			w[k] = (int)strlen(key_titles[ho->keys[k]]);

	fputs(ho->children ? "# Children     Self" : "# Overhead", out);
	fprintf(out, "  %*s", wsamples, "Samples");
	for (int k = 0; k < nk; k++)
		fprintf(out, "  %-*s", k + 1 < nk ? w[k] : 0, key_titles[ho->keys[k]]);
	fputs("\n# ........", out);
	if (ho->children)
		fputs(" .......", out);
	fprintf(out, "  %.*s", wsamples, "................................");
	for (int k = 0; k < nk; k++) {
		fputs("  ", out);
		for (int j = 0; j < w[k]; j++)
			putc('.', out);
	}
	fputs("\n#\n", out);
	for (size_t i = 0; i < shown; i++) {
		if (ho->children)
			fprintf(out, "%9.2f%% %7.2f%%", pct(e[i]->children, total),
				pct(e[i]->self, total));
		else
			fprintf(out, "%9.2f%%", pct(e[i]->self, total));
		fprintf(out, "  %*" PRIu64, wsamples, e[i]->samples);
		for (int k = 0; k < nk; k++) {
			fputs("  ", out);
			put_key(e[i], ho->keys[k], k + 1 < nk ? w[k] : 0, out);
		}
		putc('\n', out);
		/* A graph under an entry too small for any branch would be empty. */
		if (e[i]->tree && ctree_node(tree, e[i]->tree)->period >= graph_min &&
		    (ho->graph == HIST_GRAPH_CALLER || ho->graph == HIST_GRAPH_CALLEE)) {
			size_t top = e[i]->tree, *kids;

			/*
			 * callee: the tree's root is the entry's own frame, callers
			 * under it; caller: the root only holds the outermost callers,
			 * so a single one is drawn on the --- line instead.
			 */
			if (ho->graph == HIST_GRAPH_CALLER &&
			    sorted_children(tree, top, graph_min, &kids) == 1) {
				top = kids[0];
				free(kids);
			} else if (ho->graph == HIST_GRAPH_CALLER) {
				free(kids);
				top = 0;
			}
			fputs("            |\n            ---", out);
			if (top)
				put_graph_name(ctree_node(tree, top), out);
			putc('\n', out);
			print_graph(tree, top ? top : e[i]->tree, "               ", total, graph_min,
				    1, v->max_depth, out);
			putc('\n', out);
		}
	}
}

static int write_text(const struct profile *p, const struct format_view *v, FILE *out)
{
	int any = 0;

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
			uint64_t total = hist_total(h);
			double limit = v->has_limit ? v->percent_limit : 0.5;

			fputs("#   Total     Self  Function\n", out);
			if (hist_tree_root(h))
				print_tree(hist_tree(h), hist_tree_root(h), 0, total,
					   (uint64_t)((double)total * limit / 100.0), v->max_depth, out);
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

const struct format format_text = {
	.name = "text",
	.help = "the flat view, call graphs or the tree (the default)",
	.needs = FORMAT_FLAT,
	.write = write_text,
};
