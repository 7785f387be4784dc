/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A profile: the one entry point of the model. A profile is opened with
 * its options, fed records (from a file, or from a recorder's rings),
 * looked at whole at any moment (profile_snapshot()), emptied for a new
 * window (profile_reset()) and closed at the end of its input;
 * profile_load() is that loop over a file. Fed, it reads records through
 * the session (ordering, processes and maps, symbols, unwinding), drops
 * the samples the filters leave out before they are resolved, and adds
 * the rest up per event: the flat histogram with its call graphs (hist),
 * a call tree of whole stacks (ctree), and the collector a format brings
 * of its own, which gets each thread's samples in time order when it asks
 * (ordered). Commands (report, diff, a viewer, top, an agent) feed and
 * read; nothing here prints.
 */
#ifndef PROF_REPORT_PROFILE_H
#define PROF_REPORT_PROFILE_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "addrs.h"
#include "ctree.h"
#include "evkind.h"
#include "htab.h"
#include "hist.h"
#include "session.h"
#include "symbols.h"
#include "u64map.h"

struct reader;
struct strpool;

/* Which samples to keep. Lists are empty (n 0) for all. */
struct profile_filters {
	const char *const *comm;
	size_t ncomm;
	const char *const *dso;		/* of the sampled frame: dso_short_name() */
	size_t ndso;
	const long *pid, *tid, *cpu;
	size_t npid, ntid, ncpu;
	const regex_t *symbol;		/* the sampled frame's function; NULL for all */
	double t_start, t_end;		/* seconds from the first sample; < 0: open */
	const char *event;		/* only this event's samples; NULL for all */
	int no_idle;			/* leave out the idle task's samples (pid and tid 0) */
	/* leave out the samples whose sampled frame is in the kernel, in user space */
	int hide_kernel, hide_user;
};

/*
 * A format's (or a command's) own per-event aggregate, for what hist and
 * ctree do not keep: begin() makes an event's state when its first sample
 * comes, with the options' collector_ctx; add() gets each kept sample of
 * it (in time order with ordered); free() ends it.
 */
struct profile_collector {
	/*
	 * NULL, or called for every sample before the profile's filters,
	 * with no frames and the options' collector_ctx: 0 drops it.
	 */
	int (*filter)(void *ctx, const struct rsample *s);
	void *(*begin)(void *ctx, const struct evdesc *ev);
	void (*add)(void *state, const struct rsample *s);
	void (*free)(void *state);
};

struct profile_opts {
	const char *input;		/* a file, or "-" for standard input */
	struct symbols_opts so;
	/*
	 * A symbolizer the caller keeps, which outlives the profile (so
	 * unused): what one profile after another shares (prof agent's, one
	 * for each run of its recorder). NULL: the profile makes its own.
	 */
	struct symbols *sym;
	struct hist_opts ho;
	int flat;			/* fill the flat histogram (else count samples only) */
	int stacks;			/* a ctree of whole stacks per event */
	int with_comm;			/* ... under the command at their root */
	int chains;			/* resolve whole stacks (else the sampled frame only) */
	const struct profile_collector *collector;	/* NULL for none */
	void *collector_ctx;
	struct profile_filters f;
	/*
	 * Wall-clock time: the samples of cpu-clock or task-clock (their
	 * periods are nanoseconds on the CPU) and the off-CPU intervals
	 * (off-cpu, preempted: nanoseconds off it) as one event, "wall".
	 */
	int wall;
	/*
	 * Latency (perf 6.15's --latency): each sample weighs its period
	 * divided by its parallelism, so that time several threads of a
	 * process spent side by side counts once, as the wait for it does.
	 */
	int latency;
	/*
	 * perf's -b: each branch of the samples' branch stacks counted once,
	 * by the branch keys (1); or not (0); or as the file says (-1:
	 * perf's BRANCH_STACK feature), then by branch_ho's keys when not NULL
	 */
	int branch;
	const struct hist_opts *branch_ho;
	/* perf's --mem-mode: each sample weighs its weight (-W; 1 when it has none) */
	int mem_mode;
	/* perf's --max-stack: a stack's frames from the sampled one, the rest dropped; 0: all */
	int max_stack;
	int tasks;			/* keep each thread's FORK and EXIT times (profile_task_times) */
	int thread_counts;		/* keep each thread's counts of READ records (p->tc) */
	/*
	 * Samples reach the collector in time order (for a timeline), not
	 * as soon as resolved: a sample whose file is still being opened
	 * then waits for it, as do those after it.
	 */
	int ordered;
	/* samples counted by the address they hit (addrs.h), per event: for annotate */
	int addresses;
	/*
	 * A profile that runs for days (prof agent's, prof top's): threads
	 * and processes forgotten after they exit (session_forget_exited()),
	 * and the symbolizer's files closed after trim_idle ns unused, more
	 * past trim_budget bytes of heap (session_trim_symbols(); 0 and 0:
	 * never).
	 */
	int forget_exited;
	uint64_t trim_idle;
	size_t trim_budget;
};

/* What the recording says of itself, for headers: NULL or 0 where it does not say. */
struct profile_info {
	const char *cmdline, *hostname, *osrelease, *arch;
	uint64_t lost;			/* records the kernel lost */
	int switch_stacks;		/* off-CPU intervals have stacks (not only a name) */
	/* the wall clock (ns since 1970) when the records' clock read clock_ns; 0: unknown */
	uint64_t tod_ns, clock_ns;
};

/* Where a thread's time went, for --wall: nanoseconds. */
struct profile_thread_time {
	int pid, tid;
	const char *comm;
	uint64_t running, preempted, blocked;
};

struct profile_event {
	const struct evdesc *ev;
	struct hist *hist;
	struct ctree *tree;		/* with opts.stacks: whole stacks from tree_root */
	size_t tree_root;
	void *collected;		/* the collector's state */
	struct addrs *addrs;		/* with opts.addresses */
	size_t same_as;			/* index + 1 of the event of an earlier file it is */
};

/* Why and where dwarf-unwound user stacks stopped: the stacks line. */
struct profile_unwind {
	uint64_t total, complete, fp;	/* fp: with frames found by the frame pointer */
	struct { const struct dso *dso; int end; uint64_t n; } stop[32];
	int nstop;
};

struct loader;

struct profile {
	const char *input;		/* the file being read (of several: profile_load()) */
	struct profile_info info;	/* as of the last snapshot */
	struct reader *rd;
	struct symbols *sym;
	struct session *session;
	struct strpool *pool;		/* the trees' names */
	const struct profile_collector *collector;
	struct profile_event *ev;	/* by event index; ev[i].hist NULL: no samples */
	size_t nev, ev_cap;
	/*
	 * What follows is written by the resolving thread for every sample:
	 * a cache line apart from what the reading thread reads per record
	 * above (rd, session), so that neither waits on the other's line.
	 */
	char apart[64];
	uint64_t first_time;
	uint64_t last_time;
	uint64_t samples;		/* every sample in the file */
	uint64_t kept;			/* of those, the ones the filters kept */
	uint64_t chains;		/* samples with a call chain, among those resolved */
	struct profile_unwind uw;
	/* -g samples that carry a few bytes of stack, and those whose chain it mended */
	uint64_t leaf_checked, leaf_repaired;
	/* samples whose chain ended at a return address in no mapping (rsample.cut) */
	uint64_t chains_cut;
	struct evdesc wall_ev;		/* the event of --wall */
	int latency;			/* loaded with --latency */
	struct profile_thread_time *tt;	/* --wall: per thread, by first sample */
	size_t ntt, tt_cap;
	struct htab tt_index;		/* tt by tid */
	/* with opts.tasks: each thread's FORK and EXIT times, by pid << 32 | tid */
	struct profile_task *task;
	size_t ntask, task_cap;
	struct u64map task_index;
	/* with opts.thread_counts: each thread's counts (record -s), in the order they came */
	struct profile_tcount *tc;
	size_t ntc, tc_cap;
	struct u64map tc_index;		/* tc by tid << 32 | event index */
	struct loader *ld;		/* how records are fed: profile.c's */
};

/* A thread's count of an event, its READ records' summed (one a CPU it ran on). */
struct profile_tcount {
	int pid, tid;
	const struct evdesc *ev;
	uint64_t value;
};

/* A thread's life, as its FORK and EXIT records tell: 0 where they do not. */
struct profile_task {
	uint64_t start, end;
};
/* pid/tid's life (opts.tasks): 1, or 0 when no FORK or EXIT named it. */
int profile_task_times(const struct profile *p, int pid, int tid, uint64_t *start, uint64_t *end);

/*
 * A profile to feed, reading rd's records (rd owned from here on; NULL
 * for records from elsewhere, as a recorder's). o and what it points to
 * must outlive it. NULL with a one-line reason in err (no "prof: ").
 */
struct profile *profile_open(const struct profile_opts *o, struct reader *rd, char *err,
			     size_t errlen);
/*
 * The next record. 0, or -1 with a one-line reason in err: the file is
 * corrupt, or does not have what the options ask (--event, --wall).
 */
int profile_feed(struct profile *p, const struct reader_record *rec, char *err, size_t errlen);
/*
 * Every sample fed up to the last round the input closed, added up: p
 * whole for formats to read, until the next profile_feed() or
 * profile_reset(). NULL with a reason in err when resolving failed.
 */
const struct profile *profile_snapshot(struct profile *p, char *err, size_t errlen);
/*
 * A new window: the sums (histograms, trees, collections, counts, the
 * span) start again from nothing; what the session knows (threads, maps,
 * names, symbols) stays. Right after a snapshot.
 */
void profile_reset(struct profile *p);
/*
 * The options' filters (o->f) changed: from the next record on, they
 * decide. Right after a snapshot, while nothing is fed (prof top's zoom).
 */
void profile_refilter(struct profile *p);
/* The end of the input: the rest delivered, the options' checks made. 0, or -1 and err. */
int profile_close(struct profile *p, char *err, size_t errlen);

/*
 * Every record of the profile's reader fed, then profile_close(). 0, or
 * -1 with a one-line reason in err (a corrupt or unreadable file too).
 */
int profile_read(struct profile *p, char *err, size_t errlen);

/*
 * Load o->input: profile_open() on its reader, then profile_read(). 0 and *out, or -1 with a one-line reason in err (no
 * "prof: "). o->input may name several files, read in turn as one
 * profile (the files of prof record --switch-output): a comma list, or a
 * glob (perf.data.*, in quotes past the shell), in the order a glob sorts
 * them; a file of that very name is read as itself. The warnings about the input are the command's to give:
 * see warn.h.
 */
int profile_load(const struct profile_opts *o, struct profile **out, char *err, size_t errlen);
void profile_free(struct profile *p);


/* The first event with samples, and how many others have some; NULL when none. */
const struct profile_event *profile_first_event(const struct profile *p, size_t *others);

/* Samples whose deeper frames p's call trees left out (their node budget: ctree.h). */
uint64_t profile_tree_cut(const struct profile *p);
/* Look-ups past the histograms' budget of entries, counted in one (hist.h). */
uint64_t profile_hist_folded(const struct profile *p);

#endif
