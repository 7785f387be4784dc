/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A live profile: prof's recorder, run as a child process (`prof CMD
 * --record-child ARGS...`), writes its stream into a pipe, and a thread
 * of ours reads it through a session (report/model) that resolves every
 * frame while the files are there and hands each sample to fn. The
 * recorder keeps its rings drained whatever the reader does: a slow
 * symbolizer or screen costs no samples, and a crash of either side
 * leaves the other. prof agent and prof top are built on it.
 */
#ifndef PROF_AGENT_LIVE_H
#define PROF_AGENT_LIVE_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "opt.h"
#include "opts.h"
#include "session.h"

struct symbols;

struct live {
	/* set by the caller */
	const char *cmd;		/* the prof command the recorder runs as: "agent", "top" */
	char **argv;			/* that command's arguments (argv[0] its name) */
	int argc;
	struct symbols *sym;
	session_sample_fn fn;
	session_filter_fn filter;	/* NULL: every sample */
	void *ctx;
	uint64_t trim_idle;		/* session_trim_symbols(): 0 off */
	size_t trim_budget;
	int err_fd;			/* where the recorder's stderr goes; -1: ours */
	/* the recorder and its reader */
	pid_t child;			/* 0 when none runs */
	int child_fd;			/* the read end of its pipe */
	pthread_t reader;
	int reading;
	uint64_t lost;			/* records lost, as the stream said so far (atomic) */
	double started;			/* when the recorder was started (mono_s()) */
	char hold_dir[256];		/* where the recorder links the files it holds; "" none */
};

/* The environment variable that tells the recorder its hold directory. */
#define LIVE_HOLD_ENV "PROF_HOLD_DIR"

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

struct record_opts;
/*
 * Make o the recorder's: its stream uncompressed into the pipe, quiet,
 * keeping and carrying no files (the reader is live), and no build ids in
 * MMAP2, which the kernel would leak into the records of a perf session
 * beside it (record/evopen.c): the reader resolves from the files, which
 * the recorder holds open for it a while (record/hold.h), in the
 * directory $PROF_HOLD_DIR names.
 */
void live_child_opts(struct record_opts *o);

/* Start the recorder and its reader: 0, or -1 after a message. */
int live_start(struct live *l);
/* Whether the recorder has exited on its own: 1 with its wait status and the reader joined. */
int live_reap(struct live *l, int *status);
/* Stop the recorder (SIGTERM; SIGKILL a second later): its wait status, the reader joined; the hold directory removed. */
int live_end(struct live *l);

#endif
