/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A live source of records: prof's recorder, run as a child process
 * (`prof CMD --record-child ARGS...`), writes its stream into a pipe, and
 * a thread of ours feeds each record to a profile (profile.h), the one
 * consumer of records, as a file's reader does for prof report. The
 * recorder keeps its rings drained whatever the profile does: a slow
 * symbolizer or screen costs no samples, and a crash of either side
 * leaves the other. prof top and prof agent are built on it: top looks at
 * the profile whole each refresh (live_snapshot()), the agent hands each
 * sample to its collector as it comes.
 */
#ifndef PROF_REPORT_LIVE_H
#define PROF_REPORT_LIVE_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile.h"

/* The environment variable that tells the recorder its hold directory (record/hold.h). */
#define LIVE_HOLD_ENV "PROF_HOLD_DIR"

struct live {
	/* set by the caller */
	const char *cmd;		/* the prof command the recorder runs as: "agent", "top" */
	char **argv;			/* that command's arguments (argv[0] its name) */
	int argc;
	/*
	 * The profile's options, for a profile made anew at each
	 * live_start(); with them a symbolizer the caller keeps (po->sym),
	 * whose hold directory the source sets. They outlive the source.
	 */
	struct profile_opts *po;
	int err_fd;			/* where the recorder's stderr goes; -1: ours */
	/* the recorder and the thread that feeds its records */
	pid_t child;			/* 0 when none runs */
	int child_fd;			/* the read end of its pipe */
	pthread_t reader;
	int reading;
	pthread_mutex_t mu;		/* held while a record is fed, and between snapshot and release */
	int mu_made;
	struct profile *p;		/* the profile of the recorder's last run; NULL before */
	int ended;			/* its stream ended, and the profile was closed */
	uint64_t lost;			/* records lost in the streams that ended */
	char err[512];			/* why feeding stopped early (a corrupt stream); "" */
	double started;			/* when the recorder was started (mono_s()) */
	char hold_dir[256];		/* where the recorder links the files it holds; "" none */
	int hold_lock;			/* hold_dir open and locked, while hold_dir is set */
};

/* Start the recorder and the thread that feeds a new profile its records: 0, or -1 after a message. */
int live_start(struct live *l);
/* Whether the recorder has exited on its own: 1 with its wait status and the stream read to its end. */
int live_reap(struct live *l, int *status);
/* Stop the recorder (SIGTERM; SIGKILL a second later): its wait status, the stream read; the hold directory removed. */
int live_end(struct live *l);
/*
 * The profile as fed so far, every sample up to the recorder's last
 * round added up (profile_snapshot()); feeding waits until
 * live_release(), which resets the profile for a new window when asked.
 * NULL (and the lock not held) before any start, or with a reason in err.
 */
struct profile *live_snapshot(struct live *l, char *err, size_t errlen);
void live_release(struct live *l, int reset);
/* Records the kernel lost, in every stream so far (as of the last snapshot for the one going on). */
uint64_t live_lost(struct live *l);
/* The profile freed; after live_end(). */
void live_free(struct live *l);

#endif
