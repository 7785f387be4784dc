/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options that say what to show of a profile, which every command
 * that shows one takes alike (prof report, prof diff): sort keys, graphs
 * and trees, filters, names and where binaries are found. A command's
 * table joins view_options.
 */
#ifndef PROF_REPORT_VIEWOPTS_H
#define PROF_REPORT_VIEWOPTS_H

#include <regex.h>
#include <stddef.h>

#include "format.h"
#include "opt.h"
#include "profile.h"

struct view_idlist {
	long *v;
	size_t n;
};

struct view_args {
	const char *cmd;		/* "report", "diff": for the messages */
	struct hist_opts ho;
	double percent_limit;
	int has_limit;
	double graph_limit;		/* -g graph,THRESHOLD (perf's): the graphs' own */
	int has_graph_limit;
	int max_depth;			/* 0: no limit */
	int max_stack;			/* --max-stack: frames kept from the sampled one; 0: all */
	int no_comm, inverted;
	int quiet;			/* -q: no warnings about the input */
	const char *event;		/* --event */
	int wall, latency;
	int mem_mode;			/* --mem-mode */
	int sorted;			/* --sort was given */
	/* filters */
	const char **comm, **dso;
	size_t ncomm, ndso;
	struct view_idlist pid, tid, cpu;
	regex_t symbol;
	int has_symbol;
	double t_start, t_end;		/* seconds from the first sample; < 0: open */
	struct symbols_opts so;
	char **copies;			/* option values split in place */
	size_t ncopies;
};

/* The sort keys' names, by enum hist_key. */
extern const char *const view_key_names[HIST_NKEYS];

/*
 * The options, as a table to join (OPT_TABLE) into a command's, their
 * fields in a struct view_args: what to show (report, diff), and of those
 * how names are found, which prof script takes alone.
 */
extern const struct opt view_options[];
extern const struct opt view_name_options[];
/* the filters alone (--comm, --pid, --time, --event...), which annotate takes too */
extern const struct opt view_filter_options[];

/* Defaults: comm,dso,sym, names demangled, inlined frames shown. */
void view_args_init(struct view_args *a, const char *cmd);
void view_args_release(struct view_args *a);

/* After the options: what they imply (srcline for the srcline key). */
void view_args_done(struct view_args *a);

/* The model's options for these, for input: the filters, names, keys, graphs. */
void view_profile_opts(const struct view_args *a, const char *input, struct profile_opts *o);

/* The format's view of these (input: the profile's name, for titles). */
void view_format_view(const struct view_args *a, const char *input, struct format_view *v);

#endif
