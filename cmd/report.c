// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof report`: its options, then the model loads the profile (filtered,
 * added up as the format needs) and the format writes it. What a view
 * looks like is in report/formats/, how a profile is read in
 * report/model/profile.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ctree.h"
#include "file.h"
#include "format.h"
#include "profile.h"
#include "report.h"
#include "report-run.h"
#include "utf8.h"
#include "viewopts.h"
#include "u64map.h"
#include "warn.h"
#include "xalloc.h"


/* perf report's -F (--fields) names the columns: prof's -F names a format. */
static const char *const perf_fields[] = {
	"overhead", "overhead_sys", "overhead_us", "overhead_children", "sample", "period",
	"comm", "pid", "dso", "sym", "symbol", "srcline", "cpu", NULL,
};

static int format_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	struct report *r = st->ctx;
	size_t n = strcspn(arg, ",");
	char names[128];

	(void)o;
	r->format = format_find(arg);
	if (r->format)
		return 0;
	for (int i = 0; perf_fields[i]; i++)
		if (strlen(perf_fields[i]) == n && !strncmp(arg, perf_fields[i], n))
			return opt_error(st, "%s '%s': prof's -F is --format (text, folded, svg, json, "
					 "pprof); perf's -F (--fields) is prof's --sort KEYS, the "
					 "Overhead and Samples columns always there", st->name, arg);
	format_names(0, names, sizeof(names));
	return opt_error(st, "--format: give %s", names);
}

static int output_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	(void)o;
	if (!arg[0])
		return opt_error(st, "--output: give a file name");
	((struct report *)st->ctx)->output = arg;
	return 0;
}

const struct opt report_options[] = {
	OPT_STRING('i', "input", "FILE", struct report, input,
		   "profile to read (default prof.data, - for stdin)"),
	OPT_TABLE(view_options, struct report, va),
	OPT_CALL('F', "format", "FORMAT", format_cb, 0, "the output's format (below)"),
	OPT_CALL('o', "output", "FILE", output_cb, 0,
		 "write the report to FILE, not standard output"),
	OPT_SET(0, "group", struct report, group, 1,
		"the events side by side, a column each, as\n"
		"perf report --group (the events of a group\n"
		"recorded with -e '{a,b}:S', or any two; the\n"
		"default, as perf's, for a file with groups)"),
	OPT_SET(0, "no-group", struct report, no_group, 1,
		"each event apart, though the file has groups"),
	OPT_SET('b', "branch-stack", struct report, branch, 1,
		"each branch of the samples' branch stacks (record\n"
		"-b) counted once, by where it came from and went\n"
		"to; the default for a file recorded with -b"),
	OPT_SET(0, "no-branch-stack", struct report, branch, 0,
		"the samples, though the file has branch stacks"),
	OPT_SET('T', "threads", struct report, threads, 1,
		"after the report, each thread's count of each\n"
		"event at its exit (record with -s), as perf\n"
		"report -T; --sort pid,tid gives their samples"),
	OPT_HELP(),
	/* perf's */
	OPT_PERF_SET(0, "header-only", struct report, header_only, 1),
	OPT_END(),
};

/* A sort key of what the file does not have: said, as its rows would all be [unknown]. */
static void key_warnings(const struct report *r, const struct profile *p)
{
	struct session_fields f;

	session_sample_fields(p->session, &f);
	if (r->branch == 1 && !f.branches)
		fprintf(stderr, "prof: warning: '%s' has no branch stacks for -b: record with -b (a "
			"PMU with branch records: Intel LBR, AMD BRS, arm64 BRBE)\n", r->input);
	for (int k = 0; k < r->va.ho.nkeys && p->samples; k++) {
		enum hist_key key = r->va.ho.keys[k];
		const char *need = NULL;

		if ((key == HIST_DSO_DADDR || key == HIST_SYM_DADDR) && !f.addr)
			need = "a data address|-d";
		else if (key == HIST_CGROUP && !f.cgroup)
			need = "a cgroup|--all-cgroups";
		else if (key >= HIST_MEM && key <= HIST_BLOCKED && !f.src)
			need = "a data source|--data-src (or -d on a PMU that gives one)";
		else if (key >= HIST_LOCAL_WEIGHT && key <= HIST_LOCAL_INS_LAT && !f.weight)
			need = "a weight|-W";
		else if (key == HIST_CGROUP_ID && !f.namespaces)
			need = "its thread's namespaces|--namespaces";
		else if (key == HIST_PHYS_DADDR && !f.phys)
			need = "a physical address|--phys-data";
		else if (key == HIST_DATA_PAGE_SIZE && !f.data_page)
			need = "a data page size|--data-page-size";
		else if (key == HIST_CODE_PAGE_SIZE && !f.code_page)
			need = "a code page size|--code-page-size";
		else if (key >= HIST_DSO_FROM && key <= HIST_MISPREDICT && !f.branches)
			need = "a branch stack|-b";
		else if (key == HIST_TRANSACTION && !f.transaction)
			need = "transaction flags|--transaction";
		if (need)
			fprintf(stderr, "prof: warning: '%s': no sample has %.*s for --sort %s; record "
				"with %s\n", r->input, (int)strcspn(need, "|"), need,
				view_key_names[key], strchr(need, '|') + 1);
	}
}

static void usage_out(FILE *out)
{
	fputs("usage: prof report [-i FILE] [options]\n\n", out);
	opt_usage(out, report_options);
	fputs("\nformats:\n", out);
	for (size_t i = 0; formats[i]; i++)
		fprintf(out, "  %-26s  %s\n", formats[i]->name, formats[i]->help);
}

void report_init(struct report *r, const char *cmd, const struct format *format)
{
	memset(r, 0, sizeof(*r));
	r->input = "prof.data";
	r->format = format ? format : formats[0];
	r->branch = -1;
	view_args_init(&r->va, cmd);
}

void report_release(struct report *r)
{
	view_args_release(&r->va);
}

int report_ready(struct report *r, char *err, size_t errlen)
{
	if (r->group && r->no_group) {
		snprintf(err, errlen, "--group and --no-group conflict: give one of them");
		return -1;
	}
	if (r->group && strcmp(r->format->name, "text")) {
		snprintf(err, errlen, "--group: the text format's; --format %s gives each event "
			 "apart", r->format->name);
		return -1;
	}
	if (r->group && r->va.ho.graph != HIST_GRAPH_NONE) {
		snprintf(err, errlen, "--group shows the flat view, a column per event; give "
			 "-g none, or no --group");
		return -1;
	}
	if (r->threads && strcmp(r->format->name, "text")) {
		snprintf(err, errlen, "-T: the text format's table of each thread's counts; --format "
			 "%s has none", r->format->name);
		return -1;
	}
	if (r->header_only && strcmp(r->format->name, "text")) {
		snprintf(err, errlen, "--header-only: the text format's header; --format %s "
			 "has none of its own", r->format->name);
		return -1;
	}
	view_args_done(&r->va);
	if (r->format->needs & FORMAT_SRCLINE)
		r->va.so.srcline = 1;
	return 0;
}

/* -1 to go on, or the exit status: --help, or bad options. */
static int parse_options(struct report *r, int argc, char **argv)
{
	char err[512];
	int first, ret = opt_parse(report_options, r, OPT_NO_WORDS, argc, argv, &first, err,
				   sizeof(err));

	if (ret == 1) {
		usage_out(stdout);
		return 0;
	}
	if (!ret)
		ret = report_ready(r, err, sizeof(err));
	if (ret)
		return opt_say("report", ret, err);
	return -1;
}

/* --- the command ---------------------------------------------------------- */

/* perf report -b's keys: where each branch came from, where it went, its cycles */
static const struct hist_opts branch_keys = {
	.keys = { HIST_COMM, HIST_DSO_FROM, HIST_SYM_FROM, HIST_SYM_TO, HIST_CYCLES },
	.nkeys = 5,
};

/* The model's options for this report. */
static void load_opts(const struct report *r, struct profile_opts *o)
{
	const struct format *fmt = r->format;

	view_profile_opts(&r->va, r->input, o);
	o->flat = !!(fmt->needs & FORMAT_FLAT);
	o->stacks = !!(fmt->needs & FORMAT_STACKS);
	o->chains |= !!(fmt->needs & FORMAT_CHAINS);
	o->collector = fmt->collector;
	o->ordered = !!(fmt->needs & FORMAT_ORDERED);
	o->addresses = !!(fmt->needs & FORMAT_ADDRESSES);
	o->tasks = !!(fmt->needs & FORMAT_TASKS);
	o->thread_counts = r->threads;
	o->branch = r->branch;
	o->branch_ho = r->va.sorted ? NULL : &branch_keys;
}

/*
 * -T: each thread's count of each event at its exit, from the READ
 * records record -s writes, as perf report -T prints them: a row a
 * thread, a column an event, in the order they came (more than
 * TC_COLUMNS events: a line a count).
 */
#define TC_COLUMNS 16

struct tc_at {
	uint32_t row, col;	/* the thread's rank, the event's column */
	size_t i;		/* in p->tc */
};

static int tc_cmp(const void *a, const void *b)
{
	const struct tc_at *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->col < y->col ? -1 : x->col > y->col;
}

static void thread_counts(const struct profile *p, FILE *out)
{
	const struct evdesc **ev = NULL;
	struct tc_at *at = xcalloc(p->ntc ? p->ntc : 1, sizeof(*at));
	struct u64map rows, cols;
	uint32_t nrow = 0, nev = 0, v;
	size_t cap = 0;

	u64map_init(&rows);
	u64map_init(&cols);
	for (size_t i = 0; i < p->ntc; i++) {
		if (!u64map_get(&rows, (uint32_t)p->tc[i].tid, &v))
			u64map_add(&rows, (uint32_t)p->tc[i].tid, v = nrow++);
		at[i].row = v;
		if (!u64map_get(&cols, p->tc[i].ev->index, &v)) {
			ev = xgrow(ev, &cap, nev + 1, sizeof(*ev));
			ev[nev] = p->tc[i].ev;
			u64map_add(&cols, p->tc[i].ev->index, v = nev++);
		}
		at[i].col = v;
		at[i].i = i;
	}
	qsort(at, p->ntc, sizeof(*at), tc_cmp);
	fputs("#\n#   PID    TID", out);
	for (uint32_t k = 0; k < nev && nev <= TC_COLUMNS; k++)
		fprintf(out, "  %10s", ev[k]->name);
	fputs(nev > TC_COLUMNS ? "  event  count\n" : "\n", out);
	for (size_t j = 0; j < p->ntc;) {
		const struct profile_tcount *t = &p->tc[at[j].i];
		uint32_t col = 0;

		if (nev > TC_COLUMNS) {
			fprintf(out, "  %5d  %5d  %s  %" PRIu64 "\n", t->pid, t->tid, t->ev->name,
				t->value);
			j++;
			continue;
		}
		fprintf(out, "  %5d  %5d", t->pid, t->tid);
		for (; j < p->ntc && p->tc[at[j].i].tid == t->tid; j++) {
			for (; col < at[j].col; col++)
				fprintf(out, "  %10d", 0);
			fprintf(out, "  %10" PRIu64, p->tc[at[j].i].value);
			col++;
		}
		for (; col < nev; col++)
			fprintf(out, "  %10d", 0);
		fputc('\n', out);
	}
	u64map_release(&rows);
	u64map_release(&cols);
	free(at);
	free(ev);
}

#define pct format_pct

int cmd_report(int argc, char **argv)
{
	struct report r;
	int ret;

	report_init(&r, "report", NULL);
	ret = parse_options(&r, argc, argv);
	if (ret < 0)
		ret = report_write(&r);
	report_release(&r);
	return ret;
}

int report_write(struct report *rp)
{
	struct report r = *rp;
	struct profile_opts po;
	struct profile *p = NULL;
	struct format_view view;
	int ret, err, status = 1;
	char *out_tmp = NULL, why[1024];
	static char obuf[1 << 16];
	FILE *out = stdout;

	if ((r.format->needs & FORMAT_BINARY) && !r.output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "prof: --format %s writes binary data: give -o FILE, "
			"or redirect standard output\n", r.format->name);
		return EXIT_USAGE;
	}
	load_opts(&r, &po);
	if (profile_load(&po, &p, why, sizeof(why))) {
		fprintf(stderr, "prof: %s\n", why);
		goto out;
	}
	/* branch mode, as -b or the file said: its keys shown, unless --sort said others */
	if (session_branch_mode(p->session) && !r.va.sorted) {
		r.va.ho.nkeys = branch_keys.nkeys;
		memcpy(r.va.ho.keys, branch_keys.keys, sizeof(branch_keys.keys));
	}
	if (!r.va.quiet) {
		input_warnings(r.input, p->rd, p->session, 0, 0, NULL, "reporting");
		key_warnings(&r, p);
	}
	if (!r.va.quiet &&
	    (r.va.ho.graph != HIST_GRAPH_NONE || (r.format->needs & FORMAT_CHAINS)) && p->kept &&
	    !p->chains)
		fprintf(stderr, "prof: warning: '%s' has no call chains (record with -g); "
			"the trees hold only the sampled functions\n", r.input);
	if (!r.va.quiet && profile_tree_cut(p))
		fprintf(stderr, "prof: warning: the call trees reached their budget of %zu nodes: "
			"%llu samples' deeper frames are left out, each counted at the deepest frame "
			"kept; show fewer stacks at once (--comm, --pid, --tid, --time)\n",
			CTREE_MAX_NODES, (unsigned long long)profile_tree_cut(p));
	if (!r.va.quiet && profile_hist_folded(p))
		fprintf(stderr, "prof: warning: the report reached its budget of %zu entries: what "
			"would be more is counted in one, '[more than the report holds]'; show fewer "
			"at once (--comm, --pid, --tid, --time, fewer --sort keys)\n", HIST_MAX_ENTRIES);
	if (r.output) {
		/* a temporary file renamed into place at the end: see file_create() */
		int fd = file_create(r.output, 0600, &out_tmp, &err);

		if (fd < 0) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", r.output,
				file_create_strerror(err));
			goto out;
		}
		out = fdopen(fd, "w");
		if (!out) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", r.output, strerror(errno));
			close(fd);
			goto out;
		}
	}
	setvbuf(out, obuf, _IOFBF, sizeof(obuf));
	view_format_view(&r.va, r.input, &view);
	view.header_only = r.header_only;
	/* as perf: a file that names groups is shown side by side, unless --no-group */
	view.group = r.group || (!r.no_group && session_groups(p->session) &&
				  !strcmp(r.format->name, "text") && r.va.ho.graph == HIST_GRAPH_NONE);
	/* text of any format is made valid UTF-8 with no control bytes on the way out */
	if (r.format->needs & FORMAT_BINARY) {
		ret = r.format->write(p, &view, out);	/* a failure is said below */
	} else {
		FILE *text = utf8_filter(out);

		if (text)
			setvbuf(text, NULL, _IOFBF, 1 << 16);
		if (!text) {
			ret = -errno;
		} else {
			ret = r.format->write(p, &view, text);
			if (!ret && r.threads)
				thread_counts(p, text);
			if (fclose(text) && !ret)
				ret = -(errno ? errno : EIO);
		}
	}
	if (!r.va.quiet) {
		uint64_t lost = p->info.lost;

		symbols_warnings_print(p->sym);
		if (r.threads && !session_reads(p->session))
			fprintf(stderr, "prof: warning: '%s' has no thread counts for -T: record the "
				"command with -s\n", r.input);
		if (pct(lost, p->samples + lost) > 1.0)
			fprintf(stderr, "prof: warning: %" PRIu64 " records were lost (%.2f%% of "
				"samples); record with a bigger -m or a lower -F\n", lost,
				pct(lost, p->samples + lost));
	}
	status = 0;
	if (fflush(out) || ferror(out))
		err = errno ? errno : EIO;
	else
		err = ret < 0 ? -ret : 0;
	if (out != stdout && fclose(out) && !err)
		err = errno ? errno : EIO;
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
	return status;
}
