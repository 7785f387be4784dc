// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof report`: its options, then the model loads the profile (filtered,
 * added up as the format needs) and the format writes it. What a view
 * looks like is in report/formats/, how a profile is read in
 * report/model/profile.c.
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

#include "cli.h"
#include "file.h"
#include "format.h"
#include "parse.h"
#include "profile.h"
#include "report.h"
#include "warn.h"
#include "xalloc.h"


static const char usage[] =
	"usage: prof report [-i FILE] [options]\n"
	"\n"
	"  -i, --input FILE            profile to read (default prof.data, - for stdin)\n"
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
	"  -F, --format FORMAT         the output's format (below)\n"
	"  -o, --output FILE           write the report to FILE, not standard output\n"
	"      --no-comm               folded, svg: no command name at the stacks' root\n"
	"      --inverted              svg: an icicle graph, the root on top\n"
	"  -h, --help                  this help\n"
	"\n"
	"formats:\n";

static const char *const key_names[HIST_NKEYS] = {
	"comm", "pid", "tid", "dso", "sym", "srcline", "cpu", "parallelism",
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

struct report {
	const char *input;
	const struct format *format;
	const char *output;	/* -o; NULL for standard output */
	int no_comm, inverted;
	const char *event;	/* --event */
	int wall;		/* --wall */
	int latency;		/* --latency */
	char **copies;		/* option values split in place, freed at the end */
	size_t ncopies;
	struct hist_opts ho;
	double percent_limit;
	int has_limit;
	int max_depth;
	struct filters f;
	struct symbols_opts so;
};

static void usage_out(FILE *out)
{
	fputs(usage, out);
	for (size_t i = 0; formats[i]; i++)
		fprintf(out, "  %-26s  %s\n", formats[i]->name, formats[i]->help);
}

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
				"dso, sym, srcline, cpu, parallelism; see 'prof report --help'\n", items[i]);
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
	OPT_STRICT_SYMFS, OPT_NO_COMM, OPT_INVERTED, OPT_KALLSYMS, OPT_PARAMS, OPT_EVENT, OPT_WALL,
	OPT_LATENCY,
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
		{ "params", no_argument, NULL, OPT_PARAMS },
		{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "strict-symfs", no_argument, NULL, OPT_STRICT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "no-comm", no_argument, NULL, OPT_NO_COMM },
		{ "inverted", no_argument, NULL, OPT_INVERTED },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ "wall", no_argument, NULL, OPT_WALL },
		{ "latency", no_argument, NULL, OPT_LATENCY },
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
		case OPT_PARAMS:
			r->so.params = 1;
			break;
		case OPT_NO_INLINE:
			r->so.inline_frames = 0;
			break;
		case OPT_KALLSYMS:
			if (cli_kallsyms(optarg))
				return EXIT_USAGE;
			r->so.kallsyms = optarg;
			break;
		case OPT_STRICT_SYMFS:
			r->so.strict_symfs = 1;
			break;
		case OPT_SYMFS:
			r->so.symfs = optarg;
			break;
		case 'F':
			r->format = format_find(optarg);
			if (!r->format)
				bad = "--format: give text, folded, svg, json or pprof";
			break;
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
		case OPT_EVENT:
			r->event = optarg;
			break;
		case OPT_WALL:
			r->wall = 1;
			break;
		case OPT_LATENCY:
			r->latency = 1;
			break;
		case 'h':
			usage_out(stdout);
			return 0;
		default:
			return cli_bad_option("report", c, argv);
		}
		if (bad) {
			fprintf(stderr, "prof: %s; see 'prof report --help'\n", bad);
			return EXIT_USAGE;
		}
	}
	if (cli_no_args("report", argc, argv))
		return EXIT_USAGE;
	for (int k = 0; k < r->ho.nkeys; k++)
		if (r->ho.keys[k] == HIST_SRCLINE)
			r->so.srcline = 1;
	if (r->format->needs & FORMAT_SRCLINE)
		r->so.srcline = 1;
	return -1;
}

/* --- the command ---------------------------------------------------------- */

static void report_release(struct report *r)
{
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

/* The model's options for this report. */
static void load_opts(const struct report *r, struct profile_opts *o)
{
	const struct format *fmt = r->format;

	memset(o, 0, sizeof(*o));
	o->input = r->input;
	o->so = r->so;
	o->ho = r->ho;
	o->flat = !!(fmt->needs & FORMAT_FLAT);
	o->stacks = !!(fmt->needs & FORMAT_STACKS);
	o->with_comm = !r->no_comm;
	o->chains = r->ho.children || r->ho.graph != HIST_GRAPH_NONE ||
		    (fmt->needs & FORMAT_CHAINS);
	o->collector = fmt->collector;
	o->f.comm = r->f.comm;
	o->f.ncomm = r->f.ncomm;
	o->f.dso = r->f.dso;
	o->f.ndso = r->f.ndso;
	o->f.pid = r->f.pid.v;
	o->f.npid = r->f.pid.n;
	o->f.tid = r->f.tid.v;
	o->f.ntid = r->f.tid.n;
	o->f.cpu = r->f.cpu.v;
	o->f.ncpu = r->f.cpu.n;
	o->f.symbol = r->f.has_symbol ? &r->f.symbol : NULL;
	o->f.t_start = r->f.t_start;
	o->f.t_end = r->f.t_end;
	o->f.event = r->event;
	o->wall = r->wall;
	o->latency = r->latency;
}

#define pct format_pct

int cmd_report(int argc, char **argv)
{
	struct report r = {
		.input = "prof.data",
		.ho = { .keys = { HIST_COMM, HIST_DSO, HIST_SYM }, .nkeys = 3 },
		.so = { .demangle = 1, .inline_frames = 1 },
		.f = { .t_start = -1, .t_end = -1 },
	};
	struct profile_opts po;
	struct profile *p = NULL;
	struct format_view view;
	int ret, err, status = 1;
	char *out_tmp = NULL, why[1024];
	static char obuf[1 << 16];

	r.format = formats[0];
	ret = parse_options(&r, argc, argv);
	if (ret >= 0) {
		report_release(&r);
		return ret;
	}
	if ((r.format->needs & FORMAT_BINARY) && !r.output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "prof: --format %s writes binary data: give -o FILE, "
			"or redirect standard output\n", r.format->name);
		report_release(&r);
		return EXIT_USAGE;
	}
	load_opts(&r, &po);
	if (profile_load(&po, &p, why, sizeof(why))) {
		fprintf(stderr, "prof: %s\n", why);
		goto out;
	}
	input_warnings(r.input, p->rd, p->session, 0, 0, NULL, "reporting");
	if ((r.ho.graph != HIST_GRAPH_NONE || (r.format->needs & FORMAT_CHAINS)) && p->kept &&
	    !p->chains)
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
	view = (struct format_view){
		.input = r.input,
		.ho = &r.ho,
		.percent_limit = r.percent_limit,
		.has_limit = r.has_limit,
		.max_depth = r.max_depth,
		.inverted = r.inverted,
		.key_names = key_names,
	};
	ret = r.format->write(p, &view, stdout);	/* a failure is said below */
	symbols_warnings_print(p->sym);
	{
		uint64_t lost = session_lost(p->session);

		if (pct(lost, p->samples + lost) > 1.0)
			fprintf(stderr, "prof: warning: %" PRIu64 " records were lost (%.2f%% of "
				"samples); record with a bigger -m or a lower -F\n", lost,
				pct(lost, p->samples + lost));
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
	status = cli_commit_output(out_tmp, r.output, status);
	free(out_tmp);
	profile_free(p);
	report_release(&r);
	return status;
}
