/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output formats: each a file of its own with one struct format, listed
 * in formats.c's table as cmd/main.c lists commands, for prof report and
 * prof diff alike. A format says what it needs the model to keep (the
 * flat histogram, whole stacks, source lines, a collector of its own)
 * and writes a loaded profile, and where it can, a diff: the same
 * entries and trees with two value columns and a verdict. Adding one is
 * a file and a row: see doc/DESIGN.md.
 */
#ifndef PROF_REPORT_FORMAT_H
#define PROF_REPORT_FORMAT_H

#include <regex.h>
#include <stdio.h>

#include "diff.h"
#include "hist.h"
#include "profile.h"

/* What a format needs of the model. */
enum {
	FORMAT_FLAT = 1,	/* the flat histogram's entries (else sample counts only) */
	FORMAT_STACKS = 2,	/* a ctree of whole stacks per event */
	FORMAT_SRCLINE = 4,	/* source files and lines */
	FORMAT_BINARY = 8,	/* not text: refused on a terminal */
	FORMAT_CHAINS = 16,	/* whole stacks resolved, whatever the view */
	FORMAT_ORDERED = 32,	/* its collector gets the samples in time order (a timeline) */
	FORMAT_ADDRESSES = 64,	/* samples counted by address (annotate) */
	FORMAT_TASKS = 128,	/* threads' FORK and EXIT times (profile_task_times) */
};

/* How to show what the model holds: the view's options. */
struct format_view {
	const char *input;		/* the profile's name, for titles */
	const char *const *inputs[2];	/* a diff's: BASE's files and NEW's */
	size_t ninputs[2];
	const regex_t *symbol;		/* a diff's entries shown: those whose function
					   matches (--symbol); NULL: all */
	const struct hist_opts *ho;	/* sort keys, --children, -g/--tree */
	double percent_limit;
	int has_limit;
	double graph_limit;		/* text: the call graphs' threshold (default: */
	int has_graph_limit;		/* the percent limit, else 0.5) */
	int max_depth;			/* 0: no limit */
	int inverted;			/* svg: an icicle graph */
	int header_only;		/* text: the header of each event, no table */
	int group;			/* text: the events side by side (--group) */
	int quiet;			/* -q: no warnings */
	const char *const *key_names;	/* the sort keys' names, by enum hist_key */
	int gate;			/* prof diff --fail-above given: */
	double fail_above;		/* ... its points */
};

struct format {
	const char *name;		/* -F NAME */
	const char *help;		/* one line for --help */
	unsigned needs;			/* FORMAT_* */
	const struct profile_collector *collector;	/* NULL: none */
	/* Write p to out. 0, or -errno of a failed write (said by the caller). */
	int (*write)(const struct profile *p, const struct format_view *v, FILE *out);
	/* prof diff: one line for its --help, and FORMAT_STACKS when it draws whole stacks */
	const char *diff_help;
	unsigned diff_needs;
	/* Write d to out, as write(); NULL: the format is for one profile. */
	int (*write_diff)(const struct diff *d, const struct format_view *v, FILE *out);
};

/* v as a percentage of total, 0 when total is. */
static inline double format_pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0;
}

/*
 * A frame as the Symbol column (text, JSON) spells it, malloc'd: "[.] f",
 * "[k] f", "[.] f (inlined)", or with inl_in, the function a flat entry's
 * inlined frame was inlined into, "[.] f (inlined in g)".
 */
char *format_sym(const char *name, unsigned flags, const char *inl_in);

/* Key k's text as a column shows it: the sym key's spelled by format_sym(); malloc'd. */
char *format_key(enum hist_key k, const char *text, unsigned flags, const char *inl_in);

/*
 * The same text in pieces, without making it: p[0..n) joined is
 * format_key()'s string (text NULL is ""); returns n, at most 5. For
 * layouts that measure and write many keys.
 */
int format_key_pieces(enum hist_key k, const char *text, unsigned flags, const char *inl_in,
		      const char *p[5]);

/* The table, NULL-terminated. */
extern const struct format *const formats[];

/* The format called name; NULL when none is. */
const struct format *format_find(const char *name);

/*
 * The names of the formats (diff: those that write a diff) as an
 * error says them: "text, folded, svg, json or pprof".
 */
void format_names(int diff, char *buf, size_t len);

/*
 * For formats of one event (folded, svg, pprof): the first event with
 * samples, with one warning on standard error when others have samples
 * too (unless v->quiet). NULL when none has any.
 */
const struct profile_event *format_one_event(const struct profile *p, const struct format_view *v,
					    const char *what);
/*
 * 1 for an event whose samples weigh time of their own (off-cpu,
 * preempted, wall: nanoseconds each): its stacks are weighed by period,
 * not counted, in folded output and flame graphs.
 */
int format_time_event(const struct evdesc *e);
/* qsort order of --wall's threads: the most time first, then by tid. */
int format_thread_time_cmp(const void *a, const void *b);

/* --- what diffs share ------------------------------------------------------- */

/* x's verdict: "grew", "shrank" or "noise". */
const char *format_change_word(const struct diff_value *x);
/* Whether x is shown: on either side, and its larger share at the limit (else min) or above. */
int format_diff_shown(const struct format_view *v, const struct diff_value *x, double min);
/* Whether entry e is one --symbol selects (all when v->symbol is NULL). */
int diff_selected(const struct format_view *v, const struct diff_entry *e);
/* Whether entry e trips --fail-above: it grew beyond noise by more than its points, and is selected. */
int format_diff_trips(const struct format_view *v, const struct diff_entry *e);
/* e as its name reads: the function for the sym key, else the keys' texts joined; malloc'd. */
char *diff_entry_name(const struct format_view *v, const struct diff_entry *e);

#endif
