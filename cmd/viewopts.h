/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options that say what to show of a profile, which every command
 * that shows one takes alike (prof report, prof diff): sort keys, graphs
 * and trees, filters, names and where binaries are found. A command's
 * getopt_long() loop hands each option to view_option() first.
 */
#ifndef PROF_REPORT_VIEWOPTS_H
#define PROF_REPORT_VIEWOPTS_H

#include <getopt.h>
#include <regex.h>
#include <stddef.h>

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
	int max_depth;			/* 0: no limit */
	int no_comm, inverted;
	const char *event;		/* --event */
	int wall, latency;
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

/* The lines of --help for these options. */
extern const char view_usage[];

/* Option values past the single letters, for a command's own to follow. */
enum {
	VIEW_OPT_CHILDREN = 256, VIEW_OPT_LIMIT, VIEW_OPT_TREE, VIEW_OPT_DEPTH, VIEW_OPT_COMM,
	VIEW_OPT_PID, VIEW_OPT_TID, VIEW_OPT_DSO, VIEW_OPT_SYMBOL, VIEW_OPT_CPU, VIEW_OPT_TIME,
	VIEW_OPT_NO_DEMANGLE, VIEW_OPT_NO_INLINE, VIEW_OPT_SYMFS, VIEW_OPT_STRICT_SYMFS,
	VIEW_OPT_NO_COMM, VIEW_OPT_INVERTED, VIEW_OPT_KALLSYMS, VIEW_OPT_PARAMS, VIEW_OPT_EVENT,
	VIEW_OPT_WALL, VIEW_OPT_LATENCY,
	VIEW_OPT_END	/* a command's own long options start here */
};

/* The long options, for a command's table to start with; VIEW_NLONGOPTS of them. */
#define VIEW_NLONGOPTS 24
extern const struct option view_longopts[VIEW_NLONGOPTS];
/* The short ones: -s KEYS, -g MODE. */
#define VIEW_SHORTOPTS "s:g:"

/* Defaults: comm,dso,sym, names demangled, inlined frames shown. */
void view_args_init(struct view_args *a, const char *cmd);
void view_args_release(struct view_args *a);

/*
 * Option c with its value arg: 1 when it is one of these (taken), 0 when
 * not, or EXIT_USAGE after one line saying what is wrong.
 */
int view_option(struct view_args *a, int c, const char *arg);

/* After the options: what they imply (srcline for the srcline key). */
void view_args_done(struct view_args *a);

/* The model's options for these, for input: the filters, names, keys, graphs. */
void view_profile_opts(const struct view_args *a, const char *input, struct profile_opts *o);

#endif
