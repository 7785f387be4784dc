/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recorder's state, shared by its files: record.c (the output, the
 * loop, the end) and record-open.c (opening the events on the target).
 * Not for use outside record/record*.c.
 */
#ifndef PROF_RECORD_RECORD_INT_H
#define PROF_RECORD_RECORD_INT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/perf_event.h>

#include "budget.h"
#include "carry.h"
#include "codemap.h"
#include "cpulist.h"
#include "drain.h"
#include "fold.h"
#include "hold.h"
#include "keep.h"
#include "mapfile.h"
#include "mend.h"
#include "opts.h"
#include "ring.h"
#include "target.h"
#include "trim.h"
#include "writer.h"

struct rec_event {
	struct perf_event_attr attr;
	const char *name;
	const char *filter;		/* a tracepoint's --filter, or NULL */
	int precise_max;		/* :P: precise_ip lowered as the PMU needs, not said */
	int leader;			/* its group's leader's index in the recorder's (itself alone) */
	int cgroup_fd;			/* -G: its cgroup's directory, opened; -1: none */
	/* its fd on each (thread index t, CPU index c) at [t * CPUs + c], -1 none: members' group_fd */
	int *slot;
	size_t nslot;
	uint64_t *ids;
	size_t nr_ids;
};

struct recorder {
	struct record_opts o;
	char **argv;			/* prof's own, for the CMDLINE feature */
	int argc;
	struct cpulist cpus;
	int system_wide;
	int fill_build_ids;		/* MMAP2s of code without one get their file's build id */
	struct mapfile_bids bids;	/* build ids read, once a file: fillbid.c and synth */
	struct rec_event *ev;
	int sample_read;		/* a group has :S: every sample reads its group */
	size_t nr_ev;
	int *threads;			/* what events are opened on: tids, or -1 */
	int nr_threads;
	int *fds;
	size_t nr_fds;
	struct ring *rings;		/* one per entry of cpus */
	/* --overwrite: the tracking event's rings, drained as they fill (rings: overwritten) */
	struct ring *trings;
	uint64_t *heads;		/* pump_pass()'s: each ring's head as a pass began */
	struct codemap code;		/* where code may be (trim.c's cut_non_code()) */
	struct codemap *leaf_code;	/* &code with -g's leaf stacks; NULL: no such stacks */
	struct trim trim;		/* the stack copies' cut (trim_filter()) */
	struct mend_gate gate;		/* the leaf repair (mend) within --cpu-budget */
	struct mend *mend;		/* -g's leaf repair, done here (mend.h); NULL: none */
	struct pump *pump;		/* the drain's worker (pump.h), while run() runs */
	int pass_keeps;			/* the next pump_pass() leaves its records in the writer */
	uint64_t behind, behind_ns;	/* the copies' waits for the worker, all buffers full */
	uint64_t hurried;		/* times the worker left the leaf repair to the report */
	struct launch launch;
	int launched;			/* a command was started */
	int profile_command;		/* ... and it is the target */
	int child_done, child_status, child_killed;
	char launch_comm[16];		/* the command's name after its exec */
	int out_fd;
	const char *out_name;
	char *out_path;			/* --switch-output: the file being written */
	char **files;			/* --switch-output: the files this run wrote, oldest first */
	size_t nfiles;
	double file_start;		/* when the file being written began (mono_s()) */
	int switch_asked;		/* SIGUSR2 with --switch-output (signal) */
	uint64_t done_samples, done_in, done_out;	/* in the files before this one */
	uint64_t done_stored, done_stores;	/* writer_stored() of those files */
	struct writer *w;
	int sfd;
	int ctl_fd, ack_fd;		/* --control's FIFOs, or -1 */
	char ctl_buf[256];		/* a command read in part */
	size_t ctl_len;
	double enable_at;		/* -D: when to enable the events (mono_s()); 0: not pending */
	struct drain drain;		/* the record filters, and the counts of samples and losses */
	struct fold fold;		/* --off-cpu's switch-outs into their samples */
	struct timespec start;
	struct keep *keep;		/* deleted and containers' binaries, kept by build id */
	struct hold *hold;		/* executables held open for a live reader (hold.h) */
	struct ring *wake;		/* with hold: a ring per CPU that wakes us at an exec (rec_open_wake()) */
	int *wake_exec;			/* the exec tracepoint per CPU that writes into it, or -1 */
	int nwake;
	struct carry *carry;		/* JIT runtimes' perf maps and jitdumps */
	int tracepoints;		/* an event is a tracepoint: its formats go in the file */
	int cs_event;			/* the last event is --off-cpu's context-switches */
};

/*
 * A line on stderr, "prof: ..." (not with -q): here, so that the files
 * share it without calling each other.
 */
static inline void rec_notice(const struct recorder *rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void rec_notice(const struct recorder *rc, const char *fmt, ...)
{
	va_list ap;

	if (rc->o.quiet)
		return;
	va_start(ap, fmt);
	fputs("prof: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* "cannot write" the output: -1. */
static inline int rec_write_error(const struct recorder *rc, int err)
{
	fprintf(stderr, "prof: cannot write '%s': %s\n", rc->out_name ? rc->out_name : rc->o.output,
		strerror(-err));
	return -1;
}

/* record-open.c */
/* Every event on every thread or CPU of the target, wired to the rings: 0, or -1 said. */
int rec_open_events(struct recorder *rc);
/*
 * With a live reader's hold (hold.h), system-wide: a dummy event per CPU
 * whose small ring takes the new mappings of code, and wakes the recorder
 * at each exec (the sched_process_exec tracepoint writes into it), or
 * where that is refused at each record, so that a program's files are
 * held at its exec without a pass every 50 ms on an idle host. None when
 * they cannot be opened: then the loop polls every 50 ms (record.c).
 */
void rec_open_wake(struct recorder *rc);
/*
 * After a poll of the wake rings (their pollfds, then set to -1): when one
 * woke, hold the files of the new mappings of code they all carry
 * (hold_wake(), into buf, a ring's data_size). 0: none woke; else
 * WAKE_WOKE, and WAKE_CODE when there were such mappings, WAKE_PASS when
 * a drain pass must hold what a ring lost or the rings are off (*wake_on
 * set to 0: one cannot be polled).
 */
#define WAKE_WOKE 1
#define WAKE_PASS 2
#define WAKE_CODE 4
struct pollfd;
int rec_wake_hold(struct recorder *rc, struct pollfd *wake, void *buf, int *wake_on);
void rec_close_wake(struct recorder *rc);
/* --switch-output's next file: the events opened again where they were. 0, or -1 said. */
int rec_open_switched(struct recorder *rc);

/*
 * --control fifo:CTL[,ACK] (control.c): the FIFOs opened, 0, or -1 having
 * said why; the commands come in (1: stop); every event on or off.
 */
/* The summary on stderr (summary.c), unless -q. */
void record_summary(const struct recorder *rc);
int rec_control_open(struct recorder *rc);
int rec_control(struct recorder *rc);
void rec_enable_all(struct recorder *rc, int on);

#endif
