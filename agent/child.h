/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recorder that prof top and prof agent run as their child (the live
 * source, report/model/live.h): its options in the command's own table,
 * and what it is told to be.
 */
#ifndef PROF_AGENT_CHILD_H
#define PROF_AGENT_CHILD_H

#include "opt.h"
#include "opts.h"

/*
 * The recorder's options, in the command's own table: record's target and
 * event options, --help, and the hidden --record-child that says this
 * process is the recorder (int field).
 */
#define LIVE_OPTIONS(type, rec, field) \
	OPT_TABLE(record_target_options, type, rec), \
	OPT_HELP(), \
	{ .kind = OPT_KIND_SET, .long_name = "record-child", .flags = OPT_HIDDEN, \
	  .off = offsetof(type, field), .val = 1 }

/*
 * Make o the recorder's: its stream uncompressed into the pipe, quiet,
 * keeping and carrying no files (the reader is live), and no build ids in
 * MMAP2, which the kernel would leak into the records of a perf session
 * beside it (record/evopen.c): the reader resolves from the files, which
 * the recorder holds open for it a while (record/hold.h), in the
 * directory $PROF_HOLD_DIR names (LIVE_HOLD_ENV).
 */
void live_child_opts(struct record_opts *o);

#endif
