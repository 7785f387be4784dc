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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "format.h"
#include "profile.h"
#include "report.h"
#include "utf8.h"
#include "viewopts.h"
#include "warn.h"


static const char usage[] =
	"usage: prof report [-i FILE] [options]\n"
	"\n"
	"  -i, --input FILE            profile to read (default prof.data, - for stdin)\n";
static const char usage_end[] =
	"  -F, --format FORMAT         the output's format (below)\n"
	"  -o, --output FILE           write the report to FILE, not standard output\n"
	"  -h, --help                  this help\n"
	"\n"
	"formats:\n";

struct report {
	const char *input;
	const struct format *format;
	const char *output;	/* -o; NULL for standard output */
	struct view_args va;
};

static void usage_out(FILE *out)
{
	fputs(usage, out);
	fputs(view_usage, out);
	fputs(usage_end, out);
	for (size_t i = 0; formats[i]; i++)
		fprintf(out, "  %-26s  %s\n", formats[i]->name, formats[i]->help);
}

static int parse_options(struct report *r, int argc, char **argv)
{
	struct option longopts[VIEW_NLONGOPTS + 5] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
	};
	int c, ret;

	memcpy(longopts + 4, view_longopts, sizeof(view_longopts));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:F:o:h" VIEW_SHORTOPTS, longopts, NULL)) != -1) {
		const char *bad = NULL;

		if ((ret = view_option(&r->va, c, optarg)) == EXIT_USAGE)
			return EXIT_USAGE;
		if (ret)
			continue;
		switch (c) {
		case 'i':
			r->input = optarg;
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
	view_args_done(&r->va);
	if (r->format->needs & FORMAT_SRCLINE)
		r->va.so.srcline = 1;
	return -1;
}

/* --- the command ---------------------------------------------------------- */

/* The model's options for this report. */
static void load_opts(const struct report *r, struct profile_opts *o)
{
	const struct format *fmt = r->format;

	view_profile_opts(&r->va, r->input, o);
	o->flat = !!(fmt->needs & FORMAT_FLAT);
	o->stacks = !!(fmt->needs & FORMAT_STACKS);
	o->chains |= !!(fmt->needs & FORMAT_CHAINS);
	o->collector = fmt->collector;
}

#define pct format_pct

int cmd_report(int argc, char **argv)
{
	struct report r = { .input = "prof.data" };
	struct profile_opts po;
	struct profile *p = NULL;
	struct format_view view;
	int ret, err, status = 1;
	char *out_tmp = NULL, why[1024];
	static char obuf[1 << 16];

	view_args_init(&r.va, "report");
	r.format = formats[0];
	ret = parse_options(&r, argc, argv);
	if (ret >= 0) {
		view_args_release(&r.va);
		return ret;
	}
	if ((r.format->needs & FORMAT_BINARY) && !r.output && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "prof: --format %s writes binary data: give -o FILE, "
			"or redirect standard output\n", r.format->name);
		view_args_release(&r.va);
		return EXIT_USAGE;
	}
	load_opts(&r, &po);
	if (profile_load(&po, &p, why, sizeof(why))) {
		fprintf(stderr, "prof: %s\n", why);
		goto out;
	}
	input_warnings(r.input, p->rd, p->session, 0, 0, NULL, "reporting");
	if ((r.va.ho.graph != HIST_GRAPH_NONE || (r.format->needs & FORMAT_CHAINS)) && p->kept &&
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
		.ho = &r.va.ho,
		.percent_limit = r.va.percent_limit,
		.has_limit = r.va.has_limit,
		.max_depth = r.va.max_depth,
		.inverted = r.va.inverted,
		.key_names = view_key_names,
	};
	/* text of any format is made valid UTF-8 with no control bytes on the way out */
	if (r.format->needs & FORMAT_BINARY) {
		ret = r.format->write(p, &view, stdout);	/* a failure is said below */
	} else {
		FILE *text = utf8_filter(stdout);

		if (text)
			setvbuf(text, NULL, _IOFBF, 1 << 16);
		if (!text) {
			ret = -errno;
		} else {
			ret = r.format->write(p, &view, text);
			if (fclose(text) && !ret)
				ret = -(errno ? errno : EIO);
		}
	}
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
	view_args_release(&r.va);
	return status;
}
