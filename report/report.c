// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof report`: reads a profile through the session, filters samples,
 * aggregates them (hist) and prints the flat view, call graphs under its
 * entries, or the whole program as one tree. Output is plain text with
 * columns sized to their contents, stable enough to diff.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "flame.h"
#include "hist.h"
#include "json.h"
#include "parse.h"
#include "pprof.h"
#include "reader.h"
#include "report.h"
#include "session.h"
#include "stacks.h"
#include "symbols.h"
#include "unwind.h"
#include "warn.h"
#include "xalloc.h"

#define EXIT_USAGE 64

static const char usage[] =
	"usage: prof report [-i FILE] [options]\n"
	"\n"
	"  -i, --input FILE            profile to read (default prof.data, - for stdin)\n"
	"  -s, --sort KEYS             comma list of comm,pid,tid,dso,sym,srcline,cpu\n"
	"                              (default comm,dso,sym)\n"
	"      --children              add inclusive time, and sort by it\n"
	"      --percent-limit P       hide entries below P percent\n"
	"  -g, --call-graph MODE       caller or callee: call trees under each entry\n"
	"      --tree[=top-down|bottom-up]  the whole program as one tree\n"
	"      --max-depth N           limit the depth of trees\n"
	"      --comm, --pid, --tid, --dso, --cpu LIST   keep only these\n"
	"      --symbol REGEX          keep samples whose symbol matches\n"
	"      --time START,END        seconds from the first sample\n"
	"      --no-demangle           keep C++ names as they are in the binary\n"
	"      --no-inline             fold inlined functions into their callers\n"
	"      --symfs DIR             look for binaries under DIR (then where recorded)\n"
	"      --strict-symfs          read no file outside the --symfs DIR\n"
	"  -F, --format FORMAT         text (default), folded, svg (a flame graph), json,\n"
	"                              pprof (gzipped profile.proto)\n"
	"  -o, --output FILE           write the report to FILE, not standard output\n"
	"      --no-comm               folded, svg: no command name at the stacks' root\n"
	"      --inverted              svg: an icicle graph, the root on top\n"
	"  -h, --help                  this help\n";

static const char *const key_names[HIST_NKEYS] = {
	"comm", "pid", "tid", "dso", "sym", "srcline", "cpu",
};
static const char *const key_titles[HIST_NKEYS] = {
	"Command", "Pid", "Tid", "Shared Object", "Symbol", "Source", "CPU",
};

struct idlist {
	long *v;
	size_t n;
};

struct filters {
	const char **comm;
	size_t ncomm;
	const char **dso;
	size_t ndso;
	struct idlist pid, tid, cpu;
	regex_t symbol;
	int has_symbol;
	double t_start, t_end;	/* seconds from the first sample; < 0: open */
};

enum format { FMT_TEXT, FMT_FOLDED, FMT_SVG, FMT_JSON, FMT_PPROF };

static const char *const format_names[] = { "text", "folded", "svg", "json", "pprof" };

struct report {
	const char *input;
	enum format format;
	const char *output;	/* -o; NULL for standard output */
	int no_comm, inverted;
	struct stacks **stacks;	/* one per event, for the formats that draw stacks */
	struct pprof **pprofs;	/* one per event, for pprof */
	char **copies;		/* option values split in place, freed at the end */
	size_t ncopies;
	struct hist_opts ho;
	double percent_limit;
	int has_limit;
	int max_depth;
	struct filters f;
	struct symbols_opts so;
	struct session *session;
	struct hist **hists;	/* one per event */
	size_t nhists;
	uint64_t first_time, last_time, samples, chains;
	int have_time;
	/* --call-graph dwarf: samples unwound, those that reached a root, where the rest stopped */
	uint64_t dw_total, dw_complete, dw_fp;	/* dw_fp: with frames found by the frame pointer */
	/* where and why incomplete stacks stopped (UNWIND_END_*) */
	struct { const struct dso *dso; int end; uint64_t n; } dw_stop[32];
	int ndw_stop;
	int filtering;		/* any filter given */
	int chains_wanted;	/* the view resolves (and unwinds) whole stacks */
};

/* --- options -------------------------------------------------------------- */

/* Split a comma list; the items point into a copy the report frees. */
static int split_list(struct report *r, const char *arg, const char ***out, size_t *n)
{
	char *copy = xstrdup(arg), *save = NULL;

	r->copies = xreallocarray(r->copies, r->ncopies + 1, sizeof(*r->copies));
	r->copies[r->ncopies++] = copy;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		(*out)[(*n)++] = t;
	}
	return *n ? 0 : -EINVAL;
}

static int id_list(struct report *r, const char *arg, struct idlist *l)
{
	const char **items = NULL;
	size_t n = 0;
	uint64_t v;

	if (split_list(r, arg, &items, &n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (parse_u64(items[i], 0, INT_MAX, &v)) {
			free(items);
			return -EINVAL;
		}
		l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
		l->v[l->n++] = (long)v;
	}
	free(items);
	return 0;
}

static int parse_sort(struct report *r, const char *arg)
{
	const char **items = NULL;
	size_t n = 0;

	r->ho.nkeys = 0;
	if (split_list(r, arg, &items, &n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int k;

		for (k = 0; k < HIST_NKEYS && strcmp(items[i], key_names[k]); k++)
			;
		if (k == HIST_NKEYS) {
			fprintf(stderr, "prof: --sort: unknown key '%s'; keys are comm, pid, tid, "
				"dso, sym, srcline, cpu; see 'prof report --help'\n", items[i]);
			free(items);
			return -1;
		}
		for (int j = 0; j < r->ho.nkeys; j++)
			if (r->ho.keys[j] == (enum hist_key)k)
				k = -1;
		if (k >= 0)
			r->ho.keys[r->ho.nkeys++] = (enum hist_key)k;
	}
	free(items);
	return 0;
}

static int parse_time(struct report *r, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char a[64], b[64];
	size_t la;

	if (!comma || strlen(arg) >= sizeof(a))
		return -EINVAL;
	la = (size_t)(comma - arg);
	memcpy(a, arg, la);
	a[la] = '\0';
	snprintf(b, sizeof(b), "%s", comma + 1);
	r->f.t_start = r->f.t_end = -1;
	if (*a && parse_seconds(a, &r->f.t_start))
		return -EINVAL;
	if (*b && parse_seconds(b, &r->f.t_end))
		return -EINVAL;
	if (r->f.t_end >= 0 && r->f.t_start > r->f.t_end)
		return -EINVAL;
	return 0;
}

enum {
	OPT_CHILDREN = 256, OPT_LIMIT, OPT_TREE, OPT_DEPTH, OPT_COMM, OPT_PID, OPT_TID,
	OPT_DSO, OPT_SYMBOL, OPT_CPU, OPT_TIME, OPT_NO_DEMANGLE, OPT_NO_INLINE, OPT_SYMFS,
	OPT_STRICT_SYMFS, OPT_NO_COMM, OPT_INVERTED,
};

static int parse_options(struct report *r, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "sort", required_argument, NULL, 's' },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "percent-limit", required_argument, NULL, OPT_LIMIT },
		{ "call-graph", required_argument, NULL, 'g' },
		{ "tree", optional_argument, NULL, OPT_TREE },
		{ "max-depth", required_argument, NULL, OPT_DEPTH },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "dso", required_argument, NULL, OPT_DSO },
		{ "symbol", required_argument, NULL, OPT_SYMBOL },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "strict-symfs", no_argument, NULL, OPT_STRICT_SYMFS },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-comm", no_argument, NULL, OPT_NO_COMM },
		{ "inverted", no_argument, NULL, OPT_INVERTED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;
	uint64_t v;
	char err[256];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:s:g:F:o:h", longopts, NULL)) != -1) {
		const char *bad = NULL;

		switch (c) {
		case 'i':
			r->input = optarg;
			break;
		case 's':
			if ((ret = parse_sort(r, optarg)) == -1)
				return EXIT_USAGE;
			if (ret)
				bad = "--sort: give a comma list of keys";
			break;
		case OPT_CHILDREN:
			r->ho.children = 1;
			break;
		case OPT_LIMIT: {
			double p;

			if (parse_seconds(optarg, &p) || p > 100)
				bad = "--percent-limit: give a number from 0 to 100";
			r->percent_limit = p;
			r->has_limit = 1;
			break;
		}
		case 'g':
			if (!strcmp(optarg, "caller"))
				r->ho.graph = HIST_GRAPH_CALLER;
			else if (!strcmp(optarg, "callee"))
				r->ho.graph = HIST_GRAPH_CALLEE;
			else
				bad = "-g: give caller or callee";
			break;
		case OPT_TREE:
			if (!optarg || !strcmp(optarg, "top-down"))
				r->ho.graph = HIST_TREE_TOP_DOWN;
			else if (!strcmp(optarg, "bottom-up"))
				r->ho.graph = HIST_TREE_BOTTOM_UP;
			else
				bad = "--tree: give top-down or bottom-up";
			break;
		case OPT_DEPTH:
			if (parse_u64(optarg, 1, 1024, &v))
				bad = "--max-depth: give a number from 1 to 1024";
			r->max_depth = (int)v;
			break;
		case OPT_COMM:
			if (split_list(r, optarg, &r->f.comm, &r->f.ncomm))
				bad = "--comm: give a comma list of command names";
			break;
		case OPT_DSO:
			if (split_list(r, optarg, &r->f.dso, &r->f.ndso))
				bad = "--dso: give a comma list of shared object names";
			break;
		case OPT_PID:
			if (id_list(r, optarg, &r->f.pid))
				bad = "--pid: give a comma list of process ids";
			break;
		case OPT_TID:
			if (id_list(r, optarg, &r->f.tid))
				bad = "--tid: give a comma list of thread ids";
			break;
		case OPT_CPU:
			if (id_list(r, optarg, &r->f.cpu))
				bad = "--cpu: give a comma list of CPU numbers";
			break;
		case OPT_SYMBOL:
			if (r->f.has_symbol)
				regfree(&r->f.symbol);
			ret = regcomp(&r->f.symbol, optarg, REG_EXTENDED | REG_NOSUB);
			if (ret) {
				regerror(ret, &r->f.symbol, err, sizeof(err));
				fprintf(stderr, "prof: --symbol: '%s': %s; see 'prof report --help'\n",
					optarg, err);
				return EXIT_USAGE;
			}
			r->f.has_symbol = 1;
			break;
		case OPT_TIME:
			if (parse_time(r, optarg))
				bad = "--time: give START,END in seconds from the first sample";
			break;
		case OPT_NO_DEMANGLE:
			r->so.demangle = 0;
			break;
		case OPT_NO_INLINE:
			r->so.inline_frames = 0;
			break;
		case OPT_STRICT_SYMFS:
			r->so.strict_symfs = 1;
			break;
		case OPT_SYMFS:
			r->so.symfs = optarg;
			break;
		case 'F': {
			size_t f;

			for (f = 0; f < sizeof(format_names) / sizeof(*format_names); f++)
				if (!strcmp(optarg, format_names[f]))
					break;
			if (f == sizeof(format_names) / sizeof(*format_names))
				bad = "--format: give text, folded, svg, json or pprof";
			else
				r->format = (enum format)f;
			break;
		}
		case 'o':
			if (!optarg[0])
				bad = "--output: give a file name";
			r->output = optarg;
			break;
		case OPT_NO_COMM:
			r->no_comm = 1;
			break;
		case OPT_INVERTED:
			r->inverted = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case ':':
			fprintf(stderr, "prof: option '%s' needs a value; see 'prof report --help'\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "prof: unknown option '%s'; see 'prof report --help'\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
		if (bad) {
			fprintf(stderr, "prof: %s; see 'prof report --help'\n", bad);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "prof: unexpected argument '%s'; see 'prof report --help'\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	for (int k = 0; k < r->ho.nkeys; k++)
		if (r->ho.keys[k] == HIST_SRCLINE)
			r->so.srcline = 1;
	if (r->format == FMT_PPROF)
		r->so.srcline = 1;	/* its functions have files, its lines numbers */
	return -1;
}

/* --- samples -------------------------------------------------------------- */

static int in_ids(const struct idlist *l, long v)
{
	if (!l->n)
		return 1;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return 1;
	return 0;
}

static int in_names(const char *const *l, size_t n, const char *s)
{
	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return 1;
	return 0;
}

static int keep(struct report *r, const struct rsample *s)
{
	const struct filters *f = &r->f;
	const struct rframe *leaf = s->nframes ? &s->frames[0] : NULL;
	double t = (double)(s->time - r->first_time) / 1e9;

	if (!in_ids(&f->pid, s->pid) || !in_ids(&f->tid, s->tid) || !in_ids(&f->cpu, s->cpu))
		return 0;
	if (!in_names(f->comm, f->ncomm, s->comm))
		return 0;
	if (f->ndso && !in_names(f->dso, f->ndso,
				  leaf && leaf->dso ? dso_short_name(leaf->dso) : "[unknown]"))
		return 0;
	if (f->has_symbol && (!leaf || !leaf->name ||
			      regexec(&f->symbol, leaf->name, 0, NULL, 0)))
		return 0;
	if (f->t_start >= 0 && t < f->t_start)
		return 0;
	if (f->t_end >= 0 && t > f->t_end)
		return 0;
	return 1;
}

/* Where a complete user stack ends: the program's or a thread's entry. */
static int is_root(const char *name)
{
	static const char *const roots[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "__libc_start_main_impl",
		"clone", "__clone", "clone3", "__clone3", "start_thread", "thread_start",
	};

	for (size_t i = 0; name && i < sizeof(roots) / sizeof(*roots); i++)
		if (!strcmp(name, roots[i]))
			return 1;
	return 0;
}

/* Count a dwarf-unwound sample: complete, or where its stack stopped and why. */
static void stack_quality(struct report *r, const struct rsample *s)
{
	const struct rframe *last = &s->frames[s->nframes - 1];
	const struct dso *at;
	int i;

	if (last->kernel)
		return;		/* no user part: a kernel thread */
	r->dw_total++;
	for (int k = 0; k < s->nframes; k++)
		if (s->frames[k].by_fp) {
			r->dw_fp++;
			break;
		}
	if (is_root(last->name) || s->unwind_end == UNWIND_END_ROOT) {
		r->dw_complete++;
		return;
	}
	at = s->unwind_at >= 0 ? s->frames[s->unwind_at].dso : last->dso;
	for (i = 0; i < r->ndw_stop && (r->dw_stop[i].dso != at || r->dw_stop[i].end != s->unwind_end);
	     i++)
		;
	if (i == r->ndw_stop) {
		if (i == (int)(sizeof(r->dw_stop) / sizeof(r->dw_stop[0])))
			return;
		r->dw_stop[r->ndw_stop].dso = at;
		r->dw_stop[r->ndw_stop].end = s->unwind_end;
		r->dw_stop[r->ndw_stop++].n = 0;
	}
	r->dw_stop[i].n++;
}

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
};

/* The words for end: those of UNWIND_END_BAD where it has none of its own. */
static int end_words(int end)
{
	return end > 0 && end < (int)(sizeof(end_text) / sizeof(*end_text)) && end_text[end].why
		       ? end
		       : UNWIND_END_BAD;
}

static int on_sample(void *ctx, const struct rsample *s)
{
	struct report *r = ctx;
	const struct evtab *t = session_evtab(r->session);
	size_t ev = s->ev->index;

	if (!r->have_time) {
		/* The first in time: with session_unordered(), not always this one. */
		r->first_time = session_first_time(r->session);
		r->have_time = 1;
	}
	if (s->time > r->last_time)
		r->last_time = s->time;
	r->samples++;
	if (s->nframes > 1)
		r->chains++;	/* counted only when chains are resolved: for the trees */
	if (r->chains_wanted && s->nframes > 1 &&
	    (s->ev->attr.sample_type & PERF_SAMPLE_STACK_USER))
		stack_quality(r, s);
	if (r->filtering && !keep(r, s))
		return 0;
	if (ev >= r->nhists) {
		r->hists = xreallocarray(r->hists, ev + 1, sizeof(*r->hists));
		r->stacks = xreallocarray(r->stacks, ev + 1, sizeof(*r->stacks));
		r->pprofs = xreallocarray(r->pprofs, ev + 1, sizeof(*r->pprofs));
		for (size_t i = r->nhists; i <= ev; i++) {
			r->hists[i] = NULL;
			r->stacks[i] = NULL;
			r->pprofs[i] = NULL;
		}
		r->nhists = ev + 1;
	}
	if (!r->hists[ev]) {
		r->hists[ev] = hist_new(&r->ho);
		if (r->format == FMT_PPROF) {
			const char *name = t->ev[ev]->name;

			r->pprofs[ev] = pprof_new(name, !strcmp(name, "cpu-clock") ||
							!strcmp(name, "task-clock"));
		} else if (r->format != FMT_TEXT) {
			r->stacks[ev] = stacks_new(!r->no_comm);
		}
	}
	/*
	 * The flat histogram is for the text and JSON views; the pictures and
	 * pprof are made from their own tree, and a hist of a file of many
	 * distinct addresses would double what the report holds.
	 */
	if (r->format == FMT_TEXT || r->format == FMT_JSON)
		hist_add(r->hists[ev], s);
	else
		hist_count(r->hists[ev], s);
	if (r->stacks[ev])
		stacks_add(r->stacks[ev], s);
	if (r->pprofs[ev])
		pprof_add(r->pprofs[ev], s);
	return 0;
}

/* --- output --------------------------------------------------------------- */

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0;
}

static void print_header(struct report *r, const struct evdesc *e, struct hist *h)
{
	const char *cmd = session_feature(r->session, "cmdline");
	const char *host = session_feature(r->session, "hostname");
	const char *rel = session_feature(r->session, "osrelease");
	const char *arch = session_feature(r->session, "arch");
	uint64_t lost = session_lost(r->session);
	double lost_pct = pct(lost, r->samples + lost);

	printf("# prof report of '%s'\n", r->input);
	printf("# event:    %s\n", e->name);
	printf("# samples:  %" PRIu64 "\n", hist_samples(h));
	printf("# lost:     %" PRIu64 " records (%.2f%% of samples)%s\n", lost, lost_pct,
	       lost_pct > 1.0 ? " -- WARNING: the profile is missing samples; record with a "
				"bigger -m or a lower -F" : "");
	printf("# duration: %.3f s\n", (double)(r->last_time - r->first_time) / 1e9);
	if (cmd) {
		/* one line, whatever the command line held (a python -c script...) */
		printf("# command:  ");
		for (const char *c = cmd; *c; c++)
			putchar((unsigned char)*c < 0x20 ? ' ' : *c);
		printf("\n");
	}
	if (host)
		printf("# host:     %s (Linux %s %s)\n", host, rel ? rel : "?", arch ? arch : "?");
	if (r->dw_total) {
		double q = pct(r->dw_complete, r->dw_total);

		printf("# stacks:   %.1f%% complete (dwarf: %" PRIu64 " of %" PRIu64 " user stacks "
		       "reach the program's or a thread's entry)", q, r->dw_complete, r->dw_total);
		if (r->dw_fp)
			printf("; %" PRIu64 " (%.1f%%) needed a frame pointer where no CFI was found",
			       r->dw_fp, pct(r->dw_fp, r->dw_total));
		if (q < 90) {
			int top[3] = { -1, -1, -1 };

			for (int i = 0; i < r->ndw_stop; i++)
				for (int k = 0; k < 3; k++)
					if (top[k] < 0 || r->dw_stop[i].n > r->dw_stop[top[k]].n) {
						for (int j = 2; j > k; j--)
							top[j] = top[j - 1];
						top[k] = i;
						break;
					}
			/* the first always; the others if they weigh at least 1% */
			for (int k = 1; k < 3; k++)
				if (top[k] >= 0 && pct(r->dw_stop[top[k]].n, r->dw_total) < 1)
					top[k] = -1;
			printf(" -- WARNING: unwinding stopped most in");
			for (int k = 0; k < 3 && top[k] >= 0; k++)
				printf("%s %s (%.0f%%, %s)", k ? "," : "",
				       r->dw_stop[top[k]].dso ? dso_short_name(r->dw_stop[top[k]].dso)
							      : "[unknown]",
				       pct(r->dw_stop[top[k]].n, r->dw_total),
				       end_text[end_words(r->dw_stop[top[k]].end)].why);
			/* the fixes for those reasons, each once */
			for (int k = 0; k < 3 && top[k] >= 0; k++) {
				const char *fix = end_text[end_words(r->dw_stop[top[k]].end)].fix;
				int again = 0;

				for (int j = 0; j < k; j++)
					again |= r->dw_stop[top[j]].end == r->dw_stop[top[k]].end;
				if (fix && !again)
					printf("; %s", fix);
			}
		}
		printf("\n");
	}
	printf("#\n");
}

/*
 * Bigger first; equals by name, since the order samples came in (which
 * session_unordered() lets vary) must not show.
 */
static int node_before(const struct hist_node *a, const struct hist_node *b)
{
	if (a->total != b->total)
		return a->total > b->total;
	if (a->self != b->self)
		return a->self > b->self;
	return strcmp(a->name, b->name) < 0;
}

/* The children of node, sorted by total, at or above the limit. */
static size_t sorted_children(struct hist *h, size_t node, uint64_t min, size_t **out)
{
	size_t n = 0;

	*out = NULL;
	for (size_t c = hist_node(h, node)->first_child; c; c = hist_node(h, c)->next_sibling) {
		if (hist_node(h, c)->total < min)
			continue;
		*out = xreallocarray(*out, n + 1, sizeof(**out));
		(*out)[n++] = c;
	}
	for (size_t i = 1; i < n; i++)	/* insertion sort: child lists are short */
		for (size_t j = i; j > 0 && node_before(hist_node(h, (*out)[j]),
							hist_node(h, (*out)[j - 1])); j--) {
			size_t t = (*out)[j];

			(*out)[j] = (*out)[j - 1];
			(*out)[j - 1] = t;
		}
	return n;
}

/* Graph lines show the function without the Symbol column's [.]/[k] mark. */
static const char *graph_name(const char *text)
{
	return (!strncmp(text, "[.] ", 4) || !strncmp(text, "[k] ", 4)) ? text + 4 : text;
}

/* perf's graph layout: straight runs as a column, branches as |--P%--name. */
static void print_graph(struct hist *h, size_t node, const char *prefix, uint64_t total,
			uint64_t min, int depth, int max_depth)
{
	size_t *kids, n;
	char sub[4096];

	for (;;) {
		if (max_depth && depth >= max_depth)
			return;
		n = sorted_children(h, node, min, &kids);
		if (n != 1)
			break;
		printf("%s%s\n", prefix, graph_name(hist_node(h, kids[0])->name));
		node = kids[0];
		depth++;
		free(kids);
	}
	for (size_t i = 0; i < n; i++) {
		const struct hist_node *c = hist_node(h, kids[i]);
		int last = i + 1 == n;
		char head[64];

		snprintf(head, sizeof(head), "--%.2f%%--", pct(c->total, total));
		printf("%s|\n", prefix);
		printf("%s%s%s%s\n", prefix, last ? " " : "|", head, graph_name(c->name));
		snprintf(sub, sizeof(sub), "%s%s%*s", prefix, last ? " " : "|", (int)strlen(head), "");
		print_graph(h, kids[i], sub, total, min, depth + 1, max_depth);
	}
	free(kids);
}

static void print_tree(struct hist *h, size_t node, int depth, uint64_t total, uint64_t min,
		       int max_depth)
{
	const struct hist_node *n = hist_node(h, node);
	size_t *kids, k;

	printf("%7.2f%%  %6.2f%%  %*s%s\n", pct(n->total, total), pct(n->self, total),
	       2 * depth, "", n->name);
	if (max_depth && depth >= max_depth)
		return;
	k = sorted_children(h, node, min, &kids);
	for (size_t i = 0; i < k; i++)
		print_tree(h, kids[i], depth + 1, total, min, max_depth);
	free(kids);
}

static void print_flat(struct report *r, struct hist *h)
{
	size_t n, shown = 0;
	const struct hist_entry *const *e = hist_sorted(h, &n);
	uint64_t total = hist_total(h);
	int w[HIST_NKEYS] = { 0 }, wsamples = 7, nk = r->ho.nkeys;
	double limit = r->has_limit ? r->percent_limit : 0;
	uint64_t graph_min = (uint64_t)((double)total * (r->has_limit ? limit : 0.5) / 100.0);
	char samples[32];

	for (size_t i = 0; i < n; i++) {
		double p = pct(r->ho.children ? e[i]->children : e[i]->self, total);

		if (p < limit || (r->ho.children ? e[i]->children : e[i]->self) == 0)
			break;
		shown++;
		for (int k = 0; k < nk; k++) {
			int l = (int)strlen(e[i]->text[r->ho.keys[k]]);

			if (l > w[k])
				w[k] = l;
		}
		snprintf(samples, sizeof(samples), "%" PRIu64, e[i]->samples);
		if ((int)strlen(samples) > wsamples)
			wsamples = (int)strlen(samples);
	}
	for (int k = 0; k < nk; k++)
		if ((int)strlen(key_titles[r->ho.keys[k]]) > w[k])
			w[k] = (int)strlen(key_titles[r->ho.keys[k]]);

	printf(r->ho.children ? "# Children     Self" : "# Overhead");
	printf("  %*s", wsamples, "Samples");
	for (int k = 0; k < nk; k++)
		printf("  %-*s", k + 1 < nk ? w[k] : 0, key_titles[r->ho.keys[k]]);
	printf("\n# ........");
	if (r->ho.children)
		printf(" .......");
	printf("  %.*s", wsamples, "................................");
	for (int k = 0; k < nk; k++) {
		printf("  ");
		for (int j = 0; j < w[k]; j++)
			putchar('.');
	}
	printf("\n#\n");
	for (size_t i = 0; i < shown; i++) {
		if (r->ho.children)
			printf("%9.2f%% %7.2f%%", pct(e[i]->children, total), pct(e[i]->self, total));
		else
			printf("%9.2f%%", pct(e[i]->self, total));
		printf("  %*" PRIu64, wsamples, e[i]->samples);
		for (int k = 0; k < nk; k++)
			printf("  %-*s", k + 1 < nk ? w[k] : 0, e[i]->text[r->ho.keys[k]]);
		printf("\n");
		/* A graph under an entry too small for any branch would be empty. */
		if (e[i]->tree && hist_node(h, e[i]->tree)->total >= graph_min &&
		    (r->ho.graph == HIST_GRAPH_CALLER || r->ho.graph == HIST_GRAPH_CALLEE)) {
			size_t top = e[i]->tree, *kids;

			/*
			 * callee: the tree's root is the entry's own frame, callers
			 * under it; caller: the root only holds the outermost callers,
			 * so a single one is drawn on the --- line instead.
			 */
			if (r->ho.graph == HIST_GRAPH_CALLER &&
			    sorted_children(h, top, graph_min, &kids) == 1) {
				top = kids[0];
				free(kids);
			} else if (r->ho.graph == HIST_GRAPH_CALLER) {
				free(kids);
				top = 0;
			}
			printf("            |\n");
			printf("            ---%s\n", top ? graph_name(hist_node(h, top)->name) : "");
			print_graph(h, top ? top : e[i]->tree, "               ", total, graph_min,
				    1, r->max_depth);
			printf("\n");
		}
	}
}

static void print_report(struct report *r)
{
	const struct evtab *t = session_evtab(r->session);
	int any = 0;

	for (size_t i = 0; i < r->nhists; i++) {
		struct hist *h = r->hists[i];

		if (!h)
			continue;
		if (any)
			printf("\n");
		any = 1;
		print_header(r, t->ev[i], h);
		if (r->ho.graph == HIST_TREE_TOP_DOWN || r->ho.graph == HIST_TREE_BOTTOM_UP) {
			uint64_t total = hist_total(h);
			double limit = r->has_limit ? r->percent_limit : 0.5;

			printf("#   Total     Self  Function\n");
			if (hist_tree_root(h))
				print_tree(h, hist_tree_root(h), 0, total,
					   (uint64_t)((double)total * limit / 100.0), r->max_depth);
		} else {
			print_flat(r, h);
		}
	}
	if (!any)
		printf("# prof report of '%s': no samples%s\n", r->input,
		       r->samples ? " left after the filters" : "");
}

/* --- the other formats ---------------------------------------------------- */

static void print_json(struct report *r)
{
	const struct evtab *t = session_evtab(r->session);
	struct json j;

	json_begin(&j, stdout);
	json_object(&j, NULL);
	json_string(&j, "schema", "prof-report/2");
	json_string(&j, "input", r->input);
	json_string(&j, "command", session_feature(r->session, "cmdline"));
	json_string(&j, "host", session_feature(r->session, "hostname"));
	json_string(&j, "osrelease", session_feature(r->session, "osrelease"));
	json_string(&j, "arch", session_feature(r->session, "arch"));
	json_u64(&j, "lost", session_lost(r->session));
	json_double(&j, "duration", (double)(r->last_time - r->first_time) / 1e9);
	json_array(&j, "sort");
	for (int k = 0; k < r->ho.nkeys; k++)
		json_string(&j, NULL, key_names[r->ho.keys[k]]);
	json_end(&j);
	json_array(&j, "events");
	for (size_t i = 0; i < r->nhists; i++) {
		struct hist *h = r->hists[i];
		size_t n;
		const struct hist_entry *const *e;
		uint64_t total;
		double limit = r->has_limit ? r->percent_limit : 0;

		if (!h)
			continue;
		e = hist_sorted(h, &n);
		total = hist_total(h);
		json_object(&j, NULL);
		json_string(&j, "event", t->ev[i]->name);
		json_u64(&j, "samples", hist_samples(h));
		json_u64(&j, "period", total);
		json_array(&j, "flat");
		for (size_t k = 0; k < n; k++) {
			uint64_t v = r->ho.children ? e[k]->children : e[k]->self;

			if (!v || pct(v, total) < limit)
				break;
			json_object(&j, NULL);
			for (int key = 0; key < r->ho.nkeys; key++)
				json_string(&j, key_names[r->ho.keys[key]],
					    e[k]->text[r->ho.keys[key]]);
			json_u64(&j, "samples", e[k]->samples);
			json_double(&j, "self", pct(e[k]->self, total));
			json_u64(&j, "self_period", e[k]->self);
			if (r->ho.children) {
				json_double(&j, "children", pct(e[k]->children, total));
				json_u64(&j, "children_period", e[k]->children);
			}
			json_end(&j);
		}
		json_end(&j);
		stacks_sort(r->stacks[i]);
		json_stacks(&j, "tree", r->stacks[i], stacks_root(r->stacks[i]));
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
}

/* Folded stacks, a flame graph or a pprof profile of the first event with samples. */
static int print_stacks(struct report *r)
{
	const struct evtab *t = session_evtab(r->session);
	size_t ev = r->nhists, others = 0;
	char sub[512];
	struct flame_opts fo = { .inverted = r->inverted };

	for (size_t i = 0; i < r->nhists; i++)
		if (r->hists[i]) {
			if (ev == r->nhists)
				ev = i;
			else
				others++;
		}
	if (ev == r->nhists)
		return 0;
	if (others)
		fprintf(stderr, "prof: warning: '%s' has %zu more events; the %s shows '%s' "
			"only (--format json has them all)\n", r->input, others,
			r->format == FMT_SVG ? "flame graph" : r->format == FMT_PPROF ?
			"pprof profile" : "folded output", t->ev[ev]->name);
	if (r->format == FMT_PPROF)
		return pprof_write(r->pprofs[ev], r->last_time - r->first_time, stdout);
	stacks_sort(r->stacks[ev]);
	if (r->format == FMT_FOLDED)
		return flame_folded(r->stacks[ev], stdout);
	snprintf(sub, sizeof(sub), "%s, %" PRIu64 " samples, %s", t->ev[ev]->name,
		 hist_samples(r->hists[ev]), r->input);
	fo.title = r->inverted ? "Icicle Graph" : "Flame Graph";
	fo.subtitle = sub;
	return flame_svg(r->stacks[ev], &fo, stdout);
}

/* --- the command ---------------------------------------------------------- */

static void report_release(struct report *r)
{
	session_free(r->session);	/* first: its thread adds to the hists */
	for (size_t i = 0; i < r->nhists; i++) {
		hist_free(r->hists[i]);
		stacks_free(r->stacks[i]);
		pprof_free(r->pprofs[i]);
	}
	free(r->hists);
	free(r->stacks);
	free(r->pprofs);
	if (r->f.has_symbol)
		regfree(&r->f.symbol);
	free(r->f.comm);
	free(r->f.dso);
	free(r->f.pid.v);
	free(r->f.tid.v);
	free(r->f.cpu.v);
	for (size_t i = 0; i < r->ncopies; i++)
		free(r->copies[i]);
	free(r->copies);
}

int cmd_report(int argc, char **argv)
{
	struct report r = {
		.input = "prof.data",
		.ho = { .keys = { HIST_COMM, HIST_DSO, HIST_SYM }, .nkeys = 3 },
		.so = { .demangle = 1, .inline_frames = 1 },
		.f = { .t_start = -1, .t_end = -1 },
	};
	struct reader *rd = NULL;
	struct symbols *sym = NULL;
	struct reader_record rec;
	int ret, err, status = 1;
	char *out_tmp = NULL;
	static char obuf[1 << 16];

	ret = parse_options(&r, argc, argv);
	if (ret >= 0) {
		report_release(&r);
		return ret;
	}
	r.filtering = r.f.ncomm || r.f.ndso || r.f.pid.n || r.f.tid.n || r.f.cpu.n ||
		      r.f.has_symbol || r.f.t_start >= 0 || r.f.t_end >= 0;
	if (r.format == FMT_PPROF && !r.output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "prof: --format pprof writes gzip-compressed data: give -o FILE, "
			"or redirect standard output\n");
		report_release(&r);
		return EXIT_USAGE;
	}
	rd = reader_open(r.input);
	if (!rd) {
		if (errno == EBADMSG)
			fprintf(stderr, "prof: '%s' is not a perf.data file\n", r.input);
		else if (errno == ENOTSUP)
			fprintf(stderr, "prof: '%s' was written on a machine of the other "
				"endianness, which prof does not read\n", r.input);
		else
			fprintf(stderr, "prof: cannot open '%s': %s\n", r.input, strerror(errno));
		goto out;
	}
	sym = symbols_new(&r.so);
	if (!sym) {
		fprintf(stderr, "prof: cannot set up the symbolizer: %s\n", strerror(errno));
		goto out;
	}
	r.session = session_new(sym, on_sample, &r);
	r.chains_wanted = r.ho.children || r.ho.graph != HIST_GRAPH_NONE || r.format != FMT_TEXT;
	session_leaf_only(r.session, !r.chains_wanted);
	/* Every view adds samples up: none needs them in time order. */
	session_unordered(r.session, 1);
	while ((ret = reader_next(rd, &rec)) > 0) {
		ret = session_record(r.session, &rec);
		if (ret)
			break;
	}
	if (ret)
		session_abort(r.session);	/* its thread stops before anything is read of it */
	if (ret == -EBADMSG) {
		fprintf(stderr, "prof: '%s' is corrupt at offset %" PRIu64 ": %s\n", r.input,
			reader_error_offset(rd), reader_error(rd));
		goto out;
	}
	if (ret < 0) {
		fprintf(stderr, "prof: cannot read '%s': %s\n", r.input, strerror(-ret));
		goto out;
	}
	ret = session_finish(r.session);
	if (ret < 0) {
		fprintf(stderr, "prof: cannot read '%s': %s\n", r.input, strerror(-ret));
		goto out;
	}
	input_warnings(r.input, rd, r.session, 0, 0, NULL, "reporting");
	if ((r.ho.graph == HIST_GRAPH_CALLER || r.ho.graph == HIST_GRAPH_CALLEE ||
	     r.ho.graph == HIST_TREE_TOP_DOWN || r.ho.graph == HIST_TREE_BOTTOM_UP ||
	     r.format != FMT_TEXT) &&
	    r.samples && !r.chains)
		fprintf(stderr, "prof: warning: '%s' has no call chains (record with -g); "
			"the trees hold only the sampled functions\n", r.input);
	if (r.output) {
		/* a temporary file renamed into place at the end: see file_create() */
		int fd = file_create(r.output, 0666, &out_tmp, &err);

		if (fd < 0) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", r.output,
				file_create_strerror(err));
			goto out;
		}
		fflush(stdout);
		if (dup2(fd, STDOUT_FILENO) < 0) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", r.output, strerror(errno));
			close(fd);
			goto out;
		}
		close(fd);
	}
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	if (r.format == FMT_TEXT)
		print_report(&r);
	else if (r.format == FMT_JSON)
		print_json(&r);
	else
		ret = print_stacks(&r);	/* a failure is said below, as any failed write */
	symbols_warnings_print(sym);
	{
		uint64_t lost = session_lost(r.session);

		if (pct(lost, r.samples + lost) > 1.0)
			fprintf(stderr, "prof: warning: %" PRIu64 " records were lost (%.2f%% of "
				"samples); record with a bigger -m or a lower -F\n", lost,
				pct(lost, r.samples + lost));
	}
	status = 0;
	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	else
		err = ret < 0 ? -ret : 0;
	if (err) {
		if (r.output)
			fprintf(stderr, "prof: cannot write '%s': %s\n", r.output, strerror(err));
		else
			fprintf(stderr, "prof: cannot write the report: %s\n", strerror(err));
		status = 1;
	}
out:
	/* the report into place, or (on any error) the old output kept */
	if (out_tmp && file_commit(out_tmp, r.output, !status, &err)) {
		fprintf(stderr, "prof: cannot write '%s': %s\n", r.output, strerror(err));
		status = 1;
	}
	free(out_tmp);
	report_release(&r);
	symbols_free(sym);
	reader_free(rd);
	return status;
}
