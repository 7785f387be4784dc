// SPDX-License-Identifier: GPL-2.0-or-later
/* What to show of a profile, as every command that shows one takes it: see viewopts.h. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "viewopts.h"
#include "xalloc.h"

const char *const view_key_names[HIST_NKEYS] = {
	"comm", "pid", "tid", "dso", "sym", "srcline", "cpu", "parallelism",
};

const char view_usage[] =
	"  -s, --sort KEYS             comma list of comm,pid,tid,dso,sym,srcline,cpu,\n"
	"                              parallelism (default comm,dso,sym)\n"
	"      --children              add inclusive time, and sort by it\n"
	"      --percent-limit P       hide entries below P percent\n"
	"  -g, --call-graph MODE       caller or callee: call trees under each entry\n"
	"      --tree[=top-down|bottom-up]  the whole program as one tree\n"
	"      --max-depth N           limit the depth of trees\n"
	"      --comm, --pid, --tid, --dso, --cpu LIST   keep only these\n"
	"      --symbol REGEX          keep samples whose symbol matches\n"
	"      --time START,END        seconds from the first sample\n"
	"      --event NAME            only this event (cpu-clock, off-cpu, preempted...)\n"
	"      --wall                  wall-clock time: on-CPU samples and off-CPU time\n"
	"                              in nanoseconds (record with --off-cpu)\n"
	"      --latency               weigh each sample by 1 / the threads of its\n"
	"                              process running then (record with --off-cpu)\n"
	"      --no-demangle           keep C++ and Rust names as they are in the binary\n"
	"      --params                C++ names with their parameter lists (perf's -v)\n"
	"      --no-inline             fold inlined functions into their callers\n"
	"      --symfs DIR             look for binaries under DIR (then where recorded)\n"
	"      --strict-symfs          read no file outside the --symfs DIR\n"
	"      --kallsyms FILE         the kernel's symbols from FILE, not /proc/kallsyms\n"
	"      --no-comm               folded, svg: no command name at the stacks' root\n"
	"      --inverted              svg: an icicle graph, the root on top\n";

const struct option view_longopts[VIEW_NLONGOPTS] = {
	{ "sort", required_argument, NULL, 's' },
	{ "children", no_argument, NULL, VIEW_OPT_CHILDREN },
	{ "percent-limit", required_argument, NULL, VIEW_OPT_LIMIT },
	{ "call-graph", required_argument, NULL, 'g' },
	{ "tree", optional_argument, NULL, VIEW_OPT_TREE },
	{ "max-depth", required_argument, NULL, VIEW_OPT_DEPTH },
	{ "comm", required_argument, NULL, VIEW_OPT_COMM },
	{ "pid", required_argument, NULL, VIEW_OPT_PID },
	{ "tid", required_argument, NULL, VIEW_OPT_TID },
	{ "dso", required_argument, NULL, VIEW_OPT_DSO },
	{ "symbol", required_argument, NULL, VIEW_OPT_SYMBOL },
	{ "cpu", required_argument, NULL, VIEW_OPT_CPU },
	{ "time", required_argument, NULL, VIEW_OPT_TIME },
	{ "no-demangle", no_argument, NULL, VIEW_OPT_NO_DEMANGLE },
	{ "params", no_argument, NULL, VIEW_OPT_PARAMS },
	{ "no-inline", no_argument, NULL, VIEW_OPT_NO_INLINE },
	{ "symfs", required_argument, NULL, VIEW_OPT_SYMFS },
	{ "strict-symfs", no_argument, NULL, VIEW_OPT_STRICT_SYMFS },
	{ "kallsyms", required_argument, NULL, VIEW_OPT_KALLSYMS },
	{ "no-comm", no_argument, NULL, VIEW_OPT_NO_COMM },
	{ "inverted", no_argument, NULL, VIEW_OPT_INVERTED },
	{ "event", required_argument, NULL, VIEW_OPT_EVENT },
	{ "wall", no_argument, NULL, VIEW_OPT_WALL },
	{ "latency", no_argument, NULL, VIEW_OPT_LATENCY },
};

void view_args_init(struct view_args *a, const char *cmd)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->ho.keys[0] = HIST_COMM;
	a->ho.keys[1] = HIST_DSO;
	a->ho.keys[2] = HIST_SYM;
	a->ho.nkeys = 3;
	a->so.demangle = 1;
	a->so.inline_frames = 1;
	a->t_start = a->t_end = -1;
}

void view_args_release(struct view_args *a)
{
	if (a->has_symbol)
		regfree(&a->symbol);
	free(a->comm);
	free(a->dso);
	free(a->pid.v);
	free(a->tid.v);
	free(a->cpu.v);
	for (size_t i = 0; i < a->ncopies; i++)
		free(a->copies[i]);
	free(a->copies);
}

/* Split a comma list; the items point into a copy released with a. */
static int split_list(struct view_args *a, const char *arg, const char ***out, size_t *n)
{
	char *copy = xstrdup(arg), *save = NULL;

	a->copies = xreallocarray(a->copies, a->ncopies + 1, sizeof(*a->copies));
	a->copies[a->ncopies++] = copy;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		*out = xreallocarray(*out, *n + 1, sizeof(**out));
		(*out)[(*n)++] = t;
	}
	return *n ? 0 : -EINVAL;
}

static int id_list(struct view_args *a, const char *arg, struct view_idlist *l)
{
	const char **items = NULL;
	size_t n = 0;
	uint64_t v;

	if (split_list(a, arg, &items, &n))
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

static int parse_sort(struct view_args *a, const char *arg)
{
	const char **items = NULL;
	size_t n = 0;

	a->ho.nkeys = 0;
	if (split_list(a, arg, &items, &n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int k;

		for (k = 0; k < HIST_NKEYS && strcmp(items[i], view_key_names[k]); k++)
			;
		if (k == HIST_NKEYS) {
			fprintf(stderr, "prof: --sort: unknown key '%s'; keys are comm, pid, tid, "
				"dso, sym, srcline, cpu, parallelism; see 'prof %s --help'\n", items[i],
				a->cmd);
			free(items);
			return -1;
		}
		for (int j = 0; j < a->ho.nkeys; j++)
			if (a->ho.keys[j] == (enum hist_key)k)
				k = -1;
		if (k >= 0)
			a->ho.keys[a->ho.nkeys++] = (enum hist_key)k;
	}
	free(items);
	return 0;
}

static int parse_time(struct view_args *a, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char s[64], e[64];
	size_t ls;

	if (!comma || strlen(arg) >= sizeof(s))
		return -EINVAL;
	ls = (size_t)(comma - arg);
	memcpy(s, arg, ls);
	s[ls] = '\0';
	snprintf(e, sizeof(e), "%s", comma + 1);
	a->t_start = a->t_end = -1;
	if (*s && parse_seconds(s, &a->t_start))
		return -EINVAL;
	if (*e && parse_seconds(e, &a->t_end))
		return -EINVAL;
	if (a->t_end >= 0 && a->t_start > a->t_end)
		return -EINVAL;
	return 0;
}

int view_option(struct view_args *a, int c, const char *arg)
{
	const char *bad = NULL;
	char err[256];
	uint64_t v;
	int ret;

	switch (c) {
	case 's':
		if ((ret = parse_sort(a, arg)) == -1)
			return EXIT_USAGE;
		if (ret)
			bad = "--sort: give a comma list of keys";
		break;
	case VIEW_OPT_CHILDREN:
		a->ho.children = 1;
		break;
	case VIEW_OPT_LIMIT: {
		double p;

		if (parse_seconds(arg, &p) || p > 100)
			bad = "--percent-limit: give a number from 0 to 100";
		a->percent_limit = p;
		a->has_limit = 1;
		break;
	}
	case 'g':
		if (!strcmp(arg, "caller"))
			a->ho.graph = HIST_GRAPH_CALLER;
		else if (!strcmp(arg, "callee"))
			a->ho.graph = HIST_GRAPH_CALLEE;
		else
			bad = "-g: give caller or callee";
		break;
	case VIEW_OPT_TREE:
		if (!arg || !strcmp(arg, "top-down"))
			a->ho.graph = HIST_TREE_TOP_DOWN;
		else if (!strcmp(arg, "bottom-up"))
			a->ho.graph = HIST_TREE_BOTTOM_UP;
		else
			bad = "--tree: give top-down or bottom-up";
		break;
	case VIEW_OPT_DEPTH:
		if (parse_u64(arg, 1, 1024, &v))
			bad = "--max-depth: give a number from 1 to 1024";
		a->max_depth = (int)v;
		break;
	case VIEW_OPT_COMM:
		if (split_list(a, arg, &a->comm, &a->ncomm))
			bad = "--comm: give a comma list of command names";
		break;
	case VIEW_OPT_DSO:
		if (split_list(a, arg, &a->dso, &a->ndso))
			bad = "--dso: give a comma list of shared object names";
		break;
	case VIEW_OPT_PID:
		if (id_list(a, arg, &a->pid))
			bad = "--pid: give a comma list of process ids";
		break;
	case VIEW_OPT_TID:
		if (id_list(a, arg, &a->tid))
			bad = "--tid: give a comma list of thread ids";
		break;
	case VIEW_OPT_CPU:
		if (id_list(a, arg, &a->cpu))
			bad = "--cpu: give a comma list of CPU numbers";
		break;
	case VIEW_OPT_SYMBOL:
		if (a->has_symbol)
			regfree(&a->symbol);
		a->has_symbol = 0;
		ret = regcomp(&a->symbol, arg, REG_EXTENDED | REG_NOSUB);
		if (ret) {
			regerror(ret, &a->symbol, err, sizeof(err));
			fprintf(stderr, "prof: --symbol: '%s': %s; see 'prof %s --help'\n", arg, err,
				a->cmd);
			return EXIT_USAGE;
		}
		a->has_symbol = 1;
		break;
	case VIEW_OPT_TIME:
		if (parse_time(a, arg))
			bad = "--time: give START,END in seconds from the first sample";
		break;
	case VIEW_OPT_NO_DEMANGLE:
		a->so.demangle = 0;
		break;
	case VIEW_OPT_PARAMS:
		a->so.params = 1;
		break;
	case VIEW_OPT_NO_INLINE:
		a->so.inline_frames = 0;
		break;
	case VIEW_OPT_KALLSYMS:
		if (cli_kallsyms(arg))
			return EXIT_USAGE;
		a->so.kallsyms = arg;
		break;
	case VIEW_OPT_STRICT_SYMFS:
		a->so.strict_symfs = 1;
		break;
	case VIEW_OPT_SYMFS:
		a->so.symfs = arg;
		break;
	case VIEW_OPT_NO_COMM:
		a->no_comm = 1;
		break;
	case VIEW_OPT_INVERTED:
		a->inverted = 1;
		break;
	case VIEW_OPT_EVENT:
		a->event = arg;
		break;
	case VIEW_OPT_WALL:
		a->wall = 1;
		break;
	case VIEW_OPT_LATENCY:
		a->latency = 1;
		break;
	default:
		return 0;
	}
	if (bad) {
		fprintf(stderr, "prof: %s; see 'prof %s --help'\n", bad, a->cmd);
		return EXIT_USAGE;
	}
	return 1;
}

void view_args_done(struct view_args *a)
{
	for (int k = 0; k < a->ho.nkeys; k++)
		if (a->ho.keys[k] == HIST_SRCLINE)
			a->so.srcline = 1;
}

void view_profile_opts(const struct view_args *a, const char *input, struct profile_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->input = input;
	o->so = a->so;
	o->ho = a->ho;
	o->with_comm = !a->no_comm;
	o->chains = a->ho.children || a->ho.graph != HIST_GRAPH_NONE;
	o->f.comm = a->comm;
	o->f.ncomm = a->ncomm;
	o->f.dso = a->dso;
	o->f.ndso = a->ndso;
	o->f.pid = a->pid.v;
	o->f.npid = a->pid.n;
	o->f.tid = a->tid.v;
	o->f.ntid = a->tid.n;
	o->f.cpu = a->cpu.v;
	o->f.ncpu = a->cpu.n;
	o->f.symbol = a->has_symbol ? &a->symbol : NULL;
	o->f.t_start = a->t_start;
	o->f.t_end = a->t_end;
	o->f.event = a->event;
	o->wall = a->wall;
	o->latency = a->latency;
}
