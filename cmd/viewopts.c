// SPDX-License-Identifier: GPL-2.0-or-later
/* What to show of a profile, as every command that shows one takes it: see viewopts.h. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "viewopts.h"
#include "xalloc.h"

const char *const view_key_names[HIST_NKEYS] = {
	"comm", "pid", "tid", "dso", "sym", "srcline", "cpu", "parallelism", "dso_daddr",
	"symbol_daddr", "cgroup", "mem", "tlb", "snoop", "locked", "blocked", "local_weight", "weight",
	"local_ins_lat", "cgroup_id", "phys_daddr", "data_page_size", "code_page_size",
	"dso_from", "symbol_from", "dso_to", "symbol_to", "cycles", "mispredict", "transaction",
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

/* --sort: keys by prof's names, or perf's ("symbol" for sym). */
static int parse_sort(struct opt_state *st, struct view_args *a, const char *arg)
{
	const char **items = NULL;
	size_t n = 0;

	a->ho.nkeys = 0;
	a->sorted = 1;
	if (split_list(a, arg, &items, &n))
		return opt_error(st, "--sort: give a comma list of keys");
	for (size_t i = 0; i < n; i++) {
		const char *name = !strcmp(items[i], "symbol") ? "sym" : items[i];
		int k;

		for (k = 0; k < HIST_NKEYS && strcmp(name, view_key_names[k]); k++)
			;
		if (k == HIST_NKEYS) {
			opt_error(st, "--sort: unknown key '%s'; keys are comm, pid, tid, dso, sym, "
				  "srcline, cpu, parallelism, dso_daddr, symbol_daddr, cgroup, mem, tlb, "
				  "snoop, locked, blocked, local_weight, weight, local_ins_lat, cgroup_id, "
				  "phys_daddr, data_page_size, code_page_size, dso_from, symbol_from, "
				  "dso_to, symbol_to, cycles, mispredict, transaction", items[i]);
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

/* --- the options -------------------------------------------------------- */

enum {
	VIEW_OPT_SORT, VIEW_OPT_CHILDREN, VIEW_OPT_NO_CHILDREN, VIEW_OPT_LIMIT, VIEW_OPT_GRAPH,
	VIEW_OPT_CALLER, VIEW_OPT_TREE, VIEW_OPT_DEPTH, VIEW_OPT_MAX_STACK, VIEW_OPT_COMM,
	VIEW_OPT_PID, VIEW_OPT_TID, VIEW_OPT_DSO, VIEW_OPT_SYMBOL, VIEW_OPT_SYMBOLS,
	VIEW_OPT_SYMBOL_FILTER, VIEW_OPT_CPU, VIEW_OPT_TIME, VIEW_OPT_KALLSYMS, VIEW_OPT_QUIET,
};

/* A regular expression matching any of a comma list's names whole (whole 0: within). */
static int names_regex(struct view_args *a, const char *list, int whole, char *err, size_t len)
{
	size_t n = strlen(list);
	char *re = xmalloc(2 * n + 8), *w = re;
	int ret;

	if (whole)
		w += sprintf(w, "^(");
	for (const char *p = list; *p; p++) {
		if (*p == ',' && whole) {
			*w++ = '|';
			continue;
		}
		if (strchr("\\^$.|?*+()[]{}", *p))
			*w++ = '\\';
		*w++ = *p;
	}
	if (whole)
		w += sprintf(w, ")$");
	*w = '\0';
	if (a->has_symbol)
		regfree(&a->symbol);
	a->has_symbol = 0;
	ret = regcomp(&a->symbol, re, REG_EXTENDED | REG_NOSUB);
	if (ret)
		regerror(ret, &a->symbol, err, len);
	else
		a->has_symbol = 1;
	free(re);
	return ret ? -1 : 0;
}

/*
 * Whether an extended regular expression is one glibc's regcomp() compiles
 * in bounded memory. A repetition of a group, or of a repetition ("a+++",
 * "((a+)+)+"), copies the tree under it, so each doubles its size: 90
 * stacked '+' took regcomp past a gigabyte (found by fuzz-opt). At most
 * 8 such, a {count} of at most 255, 1024 bytes: more than a function
 * name's pattern needs.
 */
static int regex_bounded(const char *re)
{
	enum { ATOM, GROUP_END, REPEAT } prev = ATOM;
	unsigned doubling = 0;

	if (strlen(re) > 1024)
		return 0;
	for (const char *p = re; *p; p++) {
		switch (*p) {
		case '\\':
			if (p[1])
				p++;
			prev = ATOM;
			break;
		case '[':
			/* a bracket expression: ']' first is one of its members */
			p += p[1] == '^';
			p += p[1] == ']';
			while (p[1] && p[1] != ']')
				p++;
			if (p[1])
				p++;
			prev = ATOM;
			break;
		case ')':
			prev = GROUP_END;
			break;
		case '{': {
			char *end;
			unsigned long m = strtoul(p + 1, &end, 10), n = m;

			if (*end == ',')
				n = end[1] == '}' ? m : strtoul(end + 1, &end, 10);
			if (m > 255 || n > 255)
				return 0;
			while (*p && *p != '}')
				p++;
			if (!*p)
				return 1;	/* regcomp says what is wrong */
		}
			/* fall through */
		case '*':
		case '+':
		case '?':
			if (prev != ATOM && ++doubling > 8)
				return 0;
			prev = REPEAT;
			break;
		default:
			prev = ATOM;
		}
	}
	return 1;
}

/* The words of perf report's -g, besides numbers: see graph_option(). */
static const char *const graph_words[] = {
	"graph", "fractal", "flat", "folded", "none", "caller", "callee", "function", "address",
	"percent", "period", "count", "branch", NULL,
};

static int graph_item(const char *w, size_t n)
{
	char num[32];
	double v;

	for (int i = 0; graph_words[i]; i++)
		if (strlen(graph_words[i]) == n && !strncmp(w, graph_words[i], n))
			return 1;
	if (!n || n >= sizeof(num))
		return 0;
	memcpy(num, w, n);
	num[n] = '\0';
	return !parse_seconds(num, &v);
}

/* -g's value when the next word is one: each of its comma items a word of -g or a number. */
static int graph_peek(const char *word)
{
	for (const char *p = word;; p++) {
		size_t n = strcspn(p, ",");

		if (!graph_item(p, n))
			return 0;
		p += n;
		if (!*p)
			return 1;
	}
}

/*
 * -g, --call-graph: prof's caller or callee, or perf report's
 * print_type,threshold,print_limit,order,sort_key,branch,value in any
 * order, each part optional. Without a value, perf's default:
 * graph,0.5,caller. What prof draws differently is refused, saying what
 * it draws.
 */
static int graph_option(struct opt_state *st, struct view_args *a, const char *arg)
{
	enum hist_graph order = HIST_GRAPH_CALLER;
	int none = 0, numbers = 0;
	char item[64];

	for (const char *p = arg ? arg : "";;) {
		size_t n = strcspn(p, ",");
		double v;

		if (n >= sizeof(item) || (n && !graph_item(p, n)))
			return opt_error(st, "%s: give caller or callee (or perf's graph,THRESHOLD,"
					 "caller|callee, or none)", st->name);
		memcpy(item, p, n);
		item[n] = '\0';
		if (!n)
			;
		else if (!strcmp(item, "caller"))
			order = HIST_GRAPH_CALLER;
		else if (!strcmp(item, "callee"))
			order = HIST_GRAPH_CALLEE;
		else if (!strcmp(item, "none"))
			none = 1;
		else if (!strcmp(item, "flat") || !strcmp(item, "folded"))
			return opt_error(st, "%s %s: prof draws chains as a graph; --format folded "
					 "writes one line per stack", st->name, item);
		else if (!strcmp(item, "fractal"))
			return opt_error(st, "%s fractal: prof's graphs give shares of the total "
					 "(perf's graph), not of the parent", st->name);
		else if (!strcmp(item, "address"))
			return opt_error(st, "%s address: prof's graphs are by function; prof script "
					 "-S gives each frame's address", st->name);
		else if (!strcmp(item, "period") || !strcmp(item, "count"))
			return opt_error(st, "%s %s: prof's graphs give percentages; the Samples "
					 "column counts", st->name, item);
		else if (!strcmp(item, "branch"))
			return opt_error(st, "%s branch: prof records no branch stacks", st->name);
		else if (strcmp(item, "graph") && strcmp(item, "function") &&
			 strcmp(item, "percent")) {
			/* a number: the threshold, then perf's print_limit */
			if (numbers++)
				return opt_error(st, "%s: prof draws every branch above the threshold; "
						 "give %s graph,THRESHOLD", st->name, st->name);
			if (parse_seconds(item, &v) || v > 100)
				return opt_error(st, "%s: the threshold is a percentage, from 0 to 100",
						 st->name);
			a->graph_limit = v;
			a->has_graph_limit = 1;
		}
		p += n;
		if (!*p++)
			break;
	}
	a->ho.graph = none ? HIST_GRAPH_NONE : order;
	return 0;
}

/* --tree's value when the next word is one. */
static int tree_peek(const char *word)
{
	return !strcmp(word, "top-down") || !strcmp(word, "bottom-up");
}

static int view_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	struct view_args *a = st->ctx;
	char err[256];
	uint64_t v;
	int ret;

	switch (o->val) {
	case VIEW_OPT_SORT:
		return parse_sort(st, a, arg);
	case VIEW_OPT_CHILDREN:
		a->ho.children = 1;
		return 0;
	case VIEW_OPT_NO_CHILDREN:
		a->ho.children = 0;
		return 0;
	case VIEW_OPT_LIMIT: {
		double p;

		if (parse_seconds(arg, &p) || p > 100)
			return opt_error(st, "--percent-limit: give a number from 0 to 100");
		a->percent_limit = p;
		a->has_limit = 1;
		return 0;
	}
	case VIEW_OPT_GRAPH:
		return graph_option(st, a, arg);
	case VIEW_OPT_CALLER:
		a->ho.graph = HIST_GRAPH_CALLER;
		return 0;
	case VIEW_OPT_TREE:
		if (!arg || !strcmp(arg, "top-down"))
			a->ho.graph = HIST_TREE_TOP_DOWN;
		else if (!strcmp(arg, "bottom-up"))
			a->ho.graph = HIST_TREE_BOTTOM_UP;
		else
			return opt_error(st, "--tree: give top-down or bottom-up");
		return 0;
	case VIEW_OPT_DEPTH:
		if (parse_u64(arg, 1, 1024, &v))
			return opt_error(st, "--max-depth: give a number from 1 to 1024");
		a->max_depth = (int)v;
		return 0;
	case VIEW_OPT_MAX_STACK:
		if (parse_u64(arg, 1, 1 << 20, &v))
			return opt_error(st, "--max-stack: give a number of frames, at least 1");
		a->max_stack = (int)v;
		return 0;
	case VIEW_OPT_COMM:
		if (split_list(a, arg, &a->comm, &a->ncomm))
			return opt_error(st, "%s: give a comma list of command names", st->name);
		return 0;
	case VIEW_OPT_DSO:
		if (split_list(a, arg, &a->dso, &a->ndso))
			return opt_error(st, "%s: give a comma list of shared object names", st->name);
		return 0;
	case VIEW_OPT_PID:
		if (id_list(a, arg, &a->pid))
			return opt_error(st, "--pid: give a comma list of process ids");
		return 0;
	case VIEW_OPT_TID:
		if (id_list(a, arg, &a->tid))
			return opt_error(st, "--tid: give a comma list of thread ids");
		return 0;
	case VIEW_OPT_CPU:
		if (id_list(a, arg, &a->cpu))
			return opt_error(st, "--cpu: give a comma list of CPU numbers");
		return 0;
	case VIEW_OPT_SYMBOL:
		if (a->has_symbol)
			regfree(&a->symbol);
		a->has_symbol = 0;
		if (!regex_bounded(arg))
			return opt_error(st, "--symbol: '%s': more than 8 repetitions of groups or of "
					 "repetitions, a {count} over 255, or over 1024 bytes: give a "
					 "simpler pattern", arg);
		ret = regcomp(&a->symbol, arg, REG_EXTENDED | REG_NOSUB);
		if (ret) {
			regerror(ret, &a->symbol, err, sizeof(err));
			return opt_error(st, "--symbol: '%s': %s", arg, err);
		}
		a->has_symbol = 1;
		return 0;
	case VIEW_OPT_SYMBOLS:
	case VIEW_OPT_SYMBOL_FILTER:
		if (!*arg || names_regex(a, arg, o->val == VIEW_OPT_SYMBOLS, err, sizeof(err)))
			return opt_error(st, "%s: give a comma list of function names", st->name);
		return 0;
	case VIEW_OPT_TIME:
		if (parse_time(a, arg))
			return opt_error(st, "--time: give START,END in seconds from the first sample");
		return 0;
	case VIEW_OPT_KALLSYMS:
		if (access(arg, R_OK))
			return opt_error(st, "--kallsyms: cannot read '%s': %s", arg, strerror(errno));
		a->so.kallsyms = arg;
		return 0;
	case VIEW_OPT_QUIET:
		a->quiet = 1;
		return 0;
	}
	return opt_error(st, "%s: not an option of prof %s", st->name, a->cmd);
}

#define VA struct view_args

/* How names are found: report, diff and script. */
const struct opt view_name_options[] = {
	OPT_SET(0, "no-demangle", VA, so.demangle, 0,
		"keep C++ and Rust names as they are in the binary"),
	OPT_SET(0, "params", VA, so.params, 1,
		"C++ names with their parameter lists (perf's -v)"),
	OPT_SET(0, "no-inline", VA, so.inline_frames, 0,
		"fold inlined functions into their callers"),
	OPT_STRING(0, "symfs", "DIR", VA, so.symfs,
		   "look for binaries under DIR (then where recorded)"),
	OPT_SET(0, "strict-symfs", VA, so.strict_symfs, 1,
		"read no file outside the --symfs DIR"),
	OPT_CALL(0, "kallsyms", "FILE", view_cb, VIEW_OPT_KALLSYMS,
		 "the kernel's symbols from FILE, not /proc/kallsyms"),
	/* perf's spellings */
	OPT_PERF_SET(0, "demangle", VA, so.demangle, 1),
	OPT_PERF_SET(0, "inline", VA, so.inline_frames, 1),
	OPT_PERF('k', "vmlinux", "prof reads the kernel's symbols from /proc/kallsyms, or "
		 "--kallsyms FILE; a vmlinux is not read"),
	OPT_PERF_NOOP('f', "force"),
	OPT_END(),
};

/* Which samples to keep: report, diff and annotate. */
const struct opt view_filter_options[] = {
	OPT_CALL(0, "comm", "LIST", view_cb, VIEW_OPT_COMM, "keep only these commands"),
	OPT_CALL(0, "pid", "LIST", view_cb, VIEW_OPT_PID, "keep only these processes"),
	OPT_CALL(0, "tid", "LIST", view_cb, VIEW_OPT_TID, "keep only these threads"),
	OPT_CALL(0, "dso", "LIST", view_cb, VIEW_OPT_DSO, "keep only these shared objects"),
	OPT_CALL(0, "cpu", "LIST", view_cb, VIEW_OPT_CPU, "keep only these CPUs"),
	OPT_CALL(0, "symbol", "REGEX", view_cb, VIEW_OPT_SYMBOL,
		 "keep samples whose symbol matches"),
	OPT_CALL(0, "time", "START,END", view_cb, VIEW_OPT_TIME,
		 "seconds from the first sample"),
	OPT_STRING(0, "event", "NAME", VA, event,
		   "only this event (cpu-clock, off-cpu, preempted...)"),
	OPT_SET(0, "wall", VA, wall, 1,
		"wall-clock time: on-CPU samples and off-CPU time\n"
		"in nanoseconds (record with --off-cpu)"),
	OPT_SET(0, "latency", VA, latency, 1,
		"weigh each sample by 1 / the threads of its\n"
		"process running then (record with --off-cpu)"),
	OPT_SET(0, "mem-mode", VA, mem_mode, 1,
		"weigh each sample by its weight (-W), and sort\n"
		"by the data's keys (record with -d -W --data-src)"),
	OPT_END(),
};

/* perf's interactive reports, --tui and --gtk */
#define NO_UI "prof writes text here; prof view opens the interactive page (or --format html writes it)"

/* What to show: report and diff. */
const struct opt view_options[] = {
	OPT_CALL('s', "sort", "KEYS", view_cb, VIEW_OPT_SORT,
		 "comma list of comm,pid,tid,dso,sym,srcline,cpu,\n"
		 "parallelism, cgroup, the data's keys (dso_daddr,\n"
		 "symbol_daddr, phys_daddr, data_page_size, mem, tlb,\n"
		 "snoop, locked, blocked), code_page_size and\n"
		 "the weights' (local_weight, weight, local_ins_lat),\n"
		 "cgroup_id, the branches' (dso_from, symbol_from,\n"
		 "dso_to, symbol_to, cycles, mispredict),\n"
		 "transaction; default comm,dso,sym"),
	OPT_CALL_FLAG(0, "children", view_cb, VIEW_OPT_CHILDREN,
		      "add inclusive time, and sort by it"),
	OPT_CALL(0, "percent-limit", "P", view_cb, VIEW_OPT_LIMIT,
		 "hide entries below P percent"),
	OPT_CALL_OPT('g', "call-graph", "MODE", view_cb, VIEW_OPT_GRAPH, graph_peek,
		     "caller or callee: call trees under each entry\n"
		     "(perf's graph,THRESHOLD,caller|callee too)"),
	OPT_CALL_OPT(0, "tree", "top-down|bottom-up", view_cb, VIEW_OPT_TREE, tree_peek,
		     "the whole program as one tree"),
	OPT_CALL(0, "max-depth", "N", view_cb, VIEW_OPT_DEPTH, "limit the depth of trees"),
	OPT_CALL(0, "max-stack", "N", view_cb, VIEW_OPT_MAX_STACK,
		 "keep N frames of each stack, from the sampled one"),
	OPT_JOIN(view_filter_options),
	OPT_JOIN(view_name_options),
	OPT_SET(0, "no-comm", VA, no_comm, 1,
		"folded, svg: no command name at the stacks' root"),
	OPT_SET(0, "inverted", VA, inverted, 1, "svg: an icicle graph, the root on top"),
	OPT_CALL_FLAG('q', "quiet", view_cb, VIEW_OPT_QUIET, "no warnings about the input"),
	/* perf report's spellings */
	OPT_PERF_CALL(0, "no-children", view_cb, VIEW_OPT_NO_CHILDREN),
	OPT_PERF_CALL('G', NULL, view_cb, VIEW_OPT_CALLER),
	OPT_PERF_CALL_V('c', "comms", view_cb, VIEW_OPT_COMM),
	OPT_PERF_CALL_V('d', "dsos", view_cb, VIEW_OPT_DSO),
	OPT_PERF_CALL_V('S', "symbols", view_cb, VIEW_OPT_SYMBOLS),
	OPT_PERF_CALL_V(0, "symbol-filter", view_cb, VIEW_OPT_SYMBOL_FILTER),
	OPT_PERF_NOOP('n', "show-nr-samples"),
	OPT_PERF_NOOP(0, "stdio"),
	OPT_PERF_NOOP(0, "header"),
	OPT_PERF_NOOP('I', "show-info"),
	OPT_PERF(0, "tui", NO_UI),
	OPT_PERF(0, "gtk", NO_UI),
	OPT_PERF(0, "stdio2", "prof writes one text layout, the one of perf's --stdio"),
	OPT_PERF('v', "verbose", "--params gives C++ parameter lists; prof script -S gives "
		 "each sample's addresses"),
	OPT_PERF(0, "percentage", "prof's shares are of what the filters keep; prof report "
		 "without filters gives shares of the whole"),
	OPT_PERF('U', "hide-unresolved", "--dso LIST keeps the shared objects named"),
	OPT_PERF(0, "stats", "the header gives the samples and lost records; prof script "
		 "prints every record"),
	OPT_PERF('D', "dump-raw-trace", "prof script prints every record"),
	OPT_END(),
};

#undef VA

void view_args_done(struct view_args *a)
{
	/* perf report --mem-mode's keys (but the ones of POWER's pipeline stages) */
	static const enum hist_key mem_keys[] = {
		HIST_LOCAL_WEIGHT, HIST_MEM, HIST_SYM, HIST_DSO, HIST_SYM_DADDR, HIST_DSO_DADDR,
		HIST_SNOOP, HIST_TLB, HIST_LOCKED, HIST_BLOCKED, HIST_LOCAL_INS_LAT,
	};

	if (a->mem_mode && !a->sorted) {
		a->ho.nkeys = (int)(sizeof(mem_keys) / sizeof(mem_keys[0]));
		memcpy(a->ho.keys, mem_keys, sizeof(mem_keys));
	}
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
	o->mem_mode = a->mem_mode;
	o->max_stack = a->max_stack;
}

void view_format_view(const struct view_args *a, const char *input, struct format_view *v)
{
	memset(v, 0, sizeof(*v));
	v->input = input;
	v->ho = &a->ho;
	v->percent_limit = a->percent_limit;
	v->has_limit = a->has_limit;
	v->graph_limit = a->graph_limit;
	v->has_graph_limit = a->has_graph_limit;
	v->max_depth = a->max_depth;
	v->inverted = a->inverted;
	v->quiet = a->quiet;
	v->key_names = view_key_names;
}
