/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prof report as a stage other commands run: its options, then the report written. */
#ifndef PROF_REPORT_REPORT_RUN_H
#define PROF_REPORT_REPORT_RUN_H

#include <stddef.h>

#include "format.h"
#include "opt.h"
#include "viewopts.h"

/*
 * A report to write, as its options say: what another command that is a
 * report with a format of its own (prof view, the HTML page) fills from
 * report_options joined into its own table (OPT_TABLE).
 */
struct report {
	const char *input;
	const struct format *format;
	const char *output;	/* -o; NULL for standard output */
	int header_only;	/* --header-only (perf's): the text format's header */
	int group;		/* --group: the events side by side (text) */
	int no_group;		/* --no-group: apart, though the file has groups */
	int threads;		/* -T: each thread's counts (record -s) after the report */
	int branch;		/* -b: 1, --no-branch-stack: 0, else -1 (as the file says) */
	struct view_args va;
};

/* prof report's options: -i, the views and filters, -F, -o, --help and perf's. */
extern const struct opt report_options[];

/* Defaults for cmd (for its messages): prof.data, format (NULL: text). */
void report_init(struct report *r, const char *cmd, const struct format *format);
/* After the options: what they imply, or a reason they disagree (-1 and err). */
int report_ready(struct report *r, char *err, size_t errlen);
/* Load the profile and write the report: the exit status, every error said. */
int report_write(struct report *r);
void report_release(struct report *r);

#endif
