/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `prof stat`'s state, shared by its files: stat.c (options, counting, a
 * run) and stat-print.c (what it prints, as perf stat spells it). Not for
 * use outside cmd/stat*.c.
 */
#ifndef PROF_CMD_STAT_INT_H
#define PROF_CMD_STAT_INT_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <linux/perf_event.h>

#include "cpulist.h"

#define MAX_EVENTS 256
#define READ_FORMAT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		     PERF_FORMAT_ID | PERF_FORMAT_GROUP)

/* One event as written. */
struct sev {
	char *name;		/* as written, modifiers and all */
	struct perf_event_attr attr;
	int leader;		/* index of its group's leader as written (itself when alone) */
	const char *filter;	/* a tracepoint's --filter (in argv), or NULL */
	char *cgroup;		/* -G: its cgroup ("" none; malloc'ed), or NULL */
	int cgfd;		/* that cgroup's directory while counting, or -1 */
	enum { EV_UNKNOWN, EV_OPEN, EV_UNSUPPORTED } state;
	double scale;		/* a PMU alias's: counts shown times scale, in unit (evlist.h) */
	char unit[24];
	/* -r: the scaled count of each run; its times enabled and running, summed */
	double sum, sumsq;
	unsigned runs;
	uint64_t ena_sum, run_sum;
};

/* One event's counter on one unit. */
struct counter {
	int fd;			/* -1 where not open */
	int lead;		/* its group's leader here: read() reads the group */
	uint64_t id;
	uint64_t val, ena, run;		/* the last reading, cumulative */
	uint64_t pval, pena, prun;	/* the one before (-I) */
};

/* Where counters are opened: a thread (cpu -1) or a CPU (pid -1). */
struct unit {
	int pid, cpu;
	char label[64];		/* comm-tid (with --per-thread), or CPUn */
	struct counter *c;	/* per event */
	int gone;		/* a thread that exited before it was opened */
};

struct stat_opts {
	struct sev ev[MAX_EVENTS];
	int nev;
	int default_events;
	int *pids, nr_pids;
	int *tids, nr_tids;
	int all_cpus;
	struct cpulist cpus;
	int has_cpus;
	int no_inherit;
	int per_thread, per_cpu;
	const char *sep;	/* -x */
	int json;
	const char *output;
	int append;
	uint64_t repeat;	/* -r */
	uint64_t interval_ms;	/* -I */
	uint64_t interval_count;
	uint64_t timeout_ms;
	int null_run;
	int quiet;
	int detailed;
	int all_user, all_kernel;
	char **argv;
};

struct stat_run {
	struct stat_opts *o;
	struct unit *units;
	int nunits;
	int system_wide;
	int user_only_notice;
	FILE *out;
	char *header;		/* 'command', process id 'N', ... */
	double t0;		/* monotonic, when counting began */
	double elapsed;		/* seconds, of this run */
	struct rusage ru;	/* the command's */
	int have_ru;
	/* -r */
	double el_sum, el_sumsq;
	const sigset_t *sigs;	/* what ends or interrupts the wait */
	sigset_t ignored;	/* what prof was started ignoring: the command ignores it too */
	int interrupted;
};

/* stat-print.c */
/* A set of counts: one unit's, or all units' summed; deltas with -I. */
struct counts {
	double *v;		/* scaled */
	uint64_t *ena, *run;
	uint64_t *raw;
};

/* c's arrays, for n events; freed. */
void stat_counts_init(struct counts *c, int n);
void stat_counts_free(struct counts *c);
/* Unit k's counts (-1: all units summed) into c, or their change since the last reading. */
void stat_gather(struct stat_run *r, int k, int delta, struct counts *c);
/* -I: the interval's rows at t seconds, dt long (first: with the header). */
void stat_print_interval(struct stat_run *r, double t, double dt, int first);
/* The end: every row, and the time (with -r, the spread over runs). */
void stat_print_final(struct stat_run *r, int runs);

#endif
