// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof diff`: its options, then the diff model loads both sides
 * (report/model/diff.c) and a format of report/formats/ writes them (its
 * write_diff); --fail-above turns the result into an exit status for CI.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diffcmd.h"
#include "format.h"
#include "parse.h"
#include "utf8.h"
#include "viewopts.h"
#include "warn.h"
#include "xalloc.h"

/* Exit statuses: 1 is the gate's (as diff(1) says "different"), so errors are 2. */
#define EXIT_GATE 1
#define EXIT_ERROR 2

struct diffcmd {
	const struct format *format;
	const char *output;
	int abs;
	double fail_above;
	int gate;
	double level;
	double min_delta;
	char **lists[2];		/* the sides' files */
	size_t nlist[2];
	char *copies[2];
	struct view_args va;
	int event_chosen;	/* --event or --wall: the event compared is the user's */
	int told_events;	/* the first file's other events were said */
};

enum { OPT_FORMAT, OPT_OUTPUT, OPT_FAIL_ABOVE, OPT_LEVEL, OPT_MIN_DELTA };

static int diff_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	struct diffcmd *c = st->ctx;
	double v;

	switch (o->val) {
	case OPT_FORMAT:
		c->format = format_find(arg);
		if (!c->format || !c->format->write_diff) {
			char names[128];

			format_names(1, names, sizeof(names));
			if (c->format)
				return opt_error(st, "--format %s writes one profile; a diff is "
						 "written as %s", arg, names);
			return opt_error(st, "--format: give %s", names);
		}
		return 0;
	case OPT_OUTPUT:
		if (!arg[0])
			return opt_error(st, "--output: give a file name");
		c->output = arg;
		return 0;
	case OPT_FAIL_ABOVE:
		if (parse_seconds(arg, &v) || v > 100)
			return opt_error(st, "--fail-above: give the points of growth to allow, from "
					 "0 to 100");
		c->fail_above = v;
		c->gate = 1;
		return 0;
	case OPT_LEVEL:
		if (parse_seconds(arg, &v) || v < 50 || v >= 100)
			return opt_error(st, "--level: give a confidence in percent, at least 50 and "
					 "under 100");
		c->level = v / 100;
		return 0;
	case OPT_MIN_DELTA:
		if (parse_seconds(arg, &v) || v > 100)
			return opt_error(st, "--min-delta: give the points below which a change is "
					 "noise, from 0 to 100");
		c->min_delta = v;
		return 0;
	}
	return -1;
}

static const struct opt diff_options[] = {
	OPT_SET(0, "abs", struct diffcmd, abs, 1,
		"compare absolute time (samples times period), not\n"
		"shares: what shrank when a program got faster"),
	OPT_CALL(0, "fail-above", "POINTS", diff_cb, OPT_FAIL_ABOVE,
		 "exit 1 when an entry (those --symbol selects) grew\n"
		 "significantly by more than POINTS"),
	OPT_CALL(0, "level", "PERCENT", diff_cb, OPT_LEVEL,
		 "the confidence that a change is not noise, for the\n"
		 "whole table (default 99)"),
	OPT_CALL(0, "min-delta", "POINTS", diff_cb, OPT_MIN_DELTA,
		 "smaller changes are never significant (default 0.5;\n"
		 "0: sampling noise alone decides)"),
	OPT_TABLE(view_options, struct diffcmd, va),
	OPT_CALL('F', "format", "FORMAT", diff_cb, OPT_FORMAT, "the output's format (below)"),
	OPT_CALL('o', "output", "FILE", diff_cb, OPT_OUTPUT, "write to FILE, not standard output"),
	OPT_HELP(),
	OPT_END(),
};

static void usage_out(FILE *out)
{
	fputs("usage: prof diff [options] [BASE NEW]\n"
	      "\n"
	      "What changed from BASE to NEW, each a profile or a comma list of profiles\n"
	      "(merged); without them, prof.data.old and prof.data. Entries are matched by\n"
	      "name, never by address, and each change is tested against sampling noise.\n"
	      "\n", out);
	opt_usage(out, diff_options);
	fputs("\nExit status: 0; 1 when --fail-above found growth; 2 on an error; 64 on a bad "
	      "option.\n\nformats:\n", out);
	for (size_t i = 0; formats[i]; i++)
		if (formats[i]->write_diff)
			fprintf(out, "  %-26s  %s\n", formats[i]->name, formats[i]->diff_help);
}

/* A side's files: a comma list (a name without commas is one file). */
static int side_files(struct diffcmd *c, int s, const char *arg)
{
	char *save = NULL;

	c->copies[s] = xstrdup(arg);
	for (char *t = strtok_r(c->copies[s], ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		c->lists[s] = xreallocarray(c->lists[s], c->nlist[s] + 1, sizeof(*c->lists[s]));
		c->lists[s][c->nlist[s]++] = t;
	}
	return c->nlist[s] ? 0 : -1;
}

static int parse_options(struct diffcmd *c, int argc, char **argv)
{
	char err[512];
	int first, ret = opt_parse(diff_options, c, OPT_PERMUTE, argc, argv, &first, err,
				   sizeof(err));

	if (ret == 1) {
		usage_out(stdout);
		return 0;
	}
	if (!ret && c->va.has_graph_limit) {
		snprintf(err, sizeof(err), "-g's threshold: prof diff shows the graphs' branches "
			 "above --percent-limit");
		ret = -1;
	}
	if (ret)
		return opt_say("diff", ret, err);
	view_args_done(&c->va);
	switch (argc - first) {
	case 0:
		side_files(c, 0, "prof.data.old");
		side_files(c, 1, "prof.data");
		break;
	case 2:
		for (int s = 0; s < 2; s++)
			if (side_files(c, s, argv[first + s])) {
				fprintf(stderr, "prof: diff: %s is empty; give a profile, or a comma "
					"list of them\n", s ? "NEW" : "BASE");
				return EXIT_USAGE;
			}
		break;
	default:
		fprintf(stderr, "prof: diff: give two profiles, BASE and NEW (or none, for "
			"prof.data.old and prof.data); see 'prof diff --help'\n");
		return EXIT_USAGE;
	}
	if (c->va.wall && c->va.event) {
		fprintf(stderr, "prof: --wall and --event: --wall is an event of its own; give one "
			"of them\n");
		return EXIT_USAGE;
	}
	return -1;
}

static void release(struct diffcmd *c)
{
	for (int s = 0; s < 2; s++) {
		free(c->lists[s]);
		free(c->copies[s]);
	}
	view_args_release(&c->va);
}

/* Each file's warnings, as prof report gives them, once it is read. */
static void loaded(void *ctx, const struct profile *p)
{
	struct diffcmd *c = ctx;
	size_t others;
	const struct profile_event *e = profile_first_event(p, &others);

	if (c->va.quiet)
		return;
	/* the first file with samples says which event is compared (diff.c) */
	if (!c->event_chosen && !c->told_events && e) {
		c->told_events = 1;
		if (others)
			fprintf(stderr, "prof: warning: '%s' has samples of %zu more event%s; comparing "
				"%s (choose with --event)\n", p->input, others, others == 1 ? "" : "s",
				e->ev->name);
	}
	input_warnings(p->input, p->rd, p->session, 0, 0, NULL, "comparing");
	symbols_warnings_print(p->sym);
}

/* --fail-above: the entries that grew too much, one line each; 1 when any did. */
static int gate(const struct diffcmd *c, const struct diff *d, const struct format_view *v)
{
	size_t over = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct diff_entry *e = &d->e[i];
		char *name;

		if (!format_diff_trips(v, e))
			continue;
		name = diff_entry_name(v, e);
		fprintf(stderr, "prof: diff: %s grew by %.2f points (%.2f%% -> %.2f%%), above "
			"--fail-above %g\n", name, e->d.delta, e->d.pct[0], e->d.pct[1], c->fail_above);
		free(name);
		over++;
	}
	if (over)
		return EXIT_GATE;
	fprintf(stderr, "prof: diff: nothing grew significantly by more than %g points\n",
		c->fail_above);
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct diffcmd c = { .level = 0.99, .min_delta = 0.5 };
	struct profile_opts po;
	struct diff_opts dopts;
	struct format_view view;
	struct diff *d = NULL;
	FILE *out = stdout;
	char *out_tmp = NULL, why[1024];
	int ret, status = EXIT_ERROR;

	view_args_init(&c.va, "diff");
	c.format = formats[0];
	ret = parse_options(&c, argc, argv);
	if (ret >= 0) {
		release(&c);
		return ret;
	}
	view_profile_opts(&c.va, NULL, &po);
	memset(&dopts, 0, sizeof(dopts));
	if (c.format->diff_needs & FORMAT_STACKS) {
		dopts.tree = DIFF_TREE_STACKS;
		po.ho.graph = HIST_GRAPH_NONE;
	} else if (po.ho.graph == HIST_GRAPH_CALLER || po.ho.graph == HIST_GRAPH_CALLEE) {
		dopts.tree = DIFF_TREE_GRAPHS;
	} else if (po.ho.graph != HIST_GRAPH_NONE) {
		dopts.tree = DIFF_TREE_WHOLE;
	}
	/*
	 * In the flat view --symbol picks entries, and shares stay shares of
	 * the whole: a gate on one function's share means its share of all.
	 * Trees have no entries: there it keeps stacks, as in prof report.
	 */
	if (dopts.tree == DIFF_TREE_NONE || dopts.tree == DIFF_TREE_GRAPHS)
		po.f.symbol = NULL;
	dopts.po = &po;
	for (int s = 0; s < 2; s++) {
		dopts.input[s] = (const char *const *)c.lists[s];
		dopts.ninput[s] = c.nlist[s];
	}
	dopts.abs = c.abs;
	dopts.level = c.level;
	dopts.min_delta = c.min_delta;
	dopts.loaded = loaded;
	dopts.ctx = &c;
	c.event_chosen = po.f.event || po.wall;
	if (diff_load(&dopts, &d, why, sizeof(why))) {
		fprintf(stderr, "prof: %s\n", why);
		goto out;
	}
	view = (struct format_view){
		.ho = &c.va.ho,
		.key_names = view_key_names,
		.percent_limit = c.va.percent_limit,
		.has_limit = c.va.has_limit,
		.max_depth = c.va.max_depth,
		.inverted = c.va.inverted,
		.symbol = c.va.has_symbol && !po.f.symbol ? &c.va.symbol : NULL,
		.gate = c.gate,
		.fail_above = c.fail_above,
	};
	for (int s = 0; s < 2; s++) {
		view.inputs[s] = dopts.input[s];
		view.ninputs[s] = dopts.ninput[s];
	}
	if (c.output && !(out = cli_create_output(c.output, &out_tmp)))
		goto out;
	{
		/* valid UTF-8 with no control byte a file put in a name, in every format */
		FILE *text = utf8_filter(out);

		if (!text) {
			ret = -errno;
		} else {
			setvbuf(text, NULL, _IOFBF, 1 << 16);
			ret = c.format->write_diff(d, &view, text);
			if (fclose(text) && ret >= 0)
				ret = -(errno ? errno : EIO);
		}
	}
	if (fflush(out) || ferror(out) || ret < 0) {
		int err = ret < 0 ? -ret : errno ? errno : EIO;

		if (c.output)
			fprintf(stderr, "prof: cannot write '%s': %s\n", c.output, strerror(err));
		else
			fprintf(stderr, "prof: cannot write the diff: %s\n", strerror(err));
		if (out != stdout)
			fclose(out);
		goto out;
	}
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "prof: cannot write '%s': %s\n", c.output, strerror(errno));
		goto out;
	}
	status = c.gate ? gate(&c, d, &view) : 0;
out:
	/* the output into place, or (on an error) the old one kept; the gate's 1 keeps it too */
	if (cli_commit_output(out_tmp, c.output, status == EXIT_ERROR) && status != EXIT_ERROR)
		status = EXIT_ERROR;
	free(out_tmp);
	diff_free(d);
	release(&c);
	return status;
}
