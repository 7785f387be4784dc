/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state a profile describes as it goes: threads (COMM, FORK, EXIT),
 * address maps per process (MMAP, MMAP2), records put back in time order
 * across CPUs (FINISHED_ROUND), and each sample resolved into frames.
 */
#ifndef PROF_REPORT_SESSION_H
#define PROF_REPORT_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "evtab.h"
#include "reader.h"

struct symbols;
struct dso;
struct session;

struct rframe {
	struct dso *dso;	/* NULL when no map covers the address */
	const char *name;	/* function, NULL when unknown */
	uint64_t addr;		/* file offset in dso, or the address (kernel, no map) */
	uint64_t sym_offset;
	const char *file;	/* source, with srcline */
	int line;
	unsigned kernel : 1;
	unsigned inlined : 1;
	unsigned by_fp : 1;	/* --call-graph dwarf: found by the frame pointer, no CFI
				 * covering the frame below */
};

struct rsample {
	const struct evdesc *ev;
	uint32_t pid, tid, cpu;
	uint64_t time, period;
	/*
	 * the samples it stands for: 1, or a sum's (session_sum()), whose
	 * periods period adds up; first: time, or a sum's earliest
	 */
	uint64_t count, first;
	const char *comm;	/* interned, valid until session_free */
	const struct dso *exe;	/* its process's program (the first file it mapped), or NULL */
	/*
	 * threads of its process on a CPU at its time (itself included), as
	 * the switch records tell; 1 without them
	 */
	uint32_t parallelism;
	int nframes;		/* frames[0] is where the sample hit */
	const struct rframe *frames;
	/*
	 * --call-graph dwarf: why unwinding the user stack stopped
	 * (UNWIND_END_*, 0 when it did not run), and the frame to blame,
	 * an index into frames (-1: none)
	 */
	int unwind_end, unwind_at;
	/*
	 * -g: a frameless function's caller, which the frame-pointer chain
	 * skipped, was put back from the stack copy (unwind_leaf_return())
	 */
	int repaired;
	/*
	 * -g: the chain ended at a return address in no mapping of the
	 * process, where the kernel's walk of frame pointers went through
	 * a function built without them; the garbage after it is left out
	 */
	int cut;
	/*
	 * -d: the sample's data address (has_daddr), the file mapped there
	 * (NULL: no map held it) and the data object holding it (interned;
	 * NULL: none), as session_data_addrs() asks
	 */
	int has_daddr;
	uint64_t daddr;
	/*
	 * -W, --data-src: the sample's weight (WEIGHT_STRUCT's var1_dw), the
	 * instruction latency (its var2_w) and the data source, each 0 where
	 * the sample has none
	 */
	uint64_t weight, ins_lat, data_src;
	/* --phys-data, --data-page-size, --code-page-size: as the kernel gave them, or 0 */
	uint64_t phys_addr, data_page_size, code_page_size;
	uint64_t transaction;	/* --transaction: PERF_TXN_* flags, or 0 */
	/*
	 * session_branches(): one branch of a sample's branch stack (-b),
	 * with period 1: where it came from and went to (the functions,
	 * resolved), and its flags (struct perf_branch_entry's); NULL else
	 */
	const struct rframe *br_from, *br_to;
	uint64_t br_flags;
	/* --namespaces: the thread's cgroup namespace, "DEV/0xINODE", or NULL */
	const char *cgroup_ns;
	/* --all-cgroups: the path of the sample's cgroup (interned), or NULL */
	const char *cgroup;
	const struct dso *ddso;
	const char *dsym;
	uint64_t dsym_off;
};

/*
 * Called for each sample, in time order (but see session_unordered()).
 * Non-zero stops the session with that value.
 */
typedef int (*session_sample_fn)(void *ctx, const struct rsample *s);

/*
 * A thread began (FORK: pid, tid of the new one) or ended (EXIT), at
 * time; in time order with the samples.
 */
enum { SESSION_TASK_FORK, SESSION_TASK_EXIT };
typedef void (*session_task_fn)(void *ctx, int kind, int pid, int tid, uint64_t time);
struct session;
void session_on_task(struct session *s, session_task_fn fn, void *ctx);

/*
 * A count of event e in a READ record (prof record -s): thread tid's, at
 * its exit, of the counter it inherited, in time order with the samples.
 */
typedef void (*session_read_fn)(void *ctx, int pid, int tid, const struct evdesc *e,
				uint64_t value);
void session_on_read(struct session *s, session_read_fn fn, void *ctx);
/* READ records read so far. */
uint64_t session_reads(const struct session *s);

/*
 * Called for each sample before it is resolved or unwound, with no frames
 * (nframes 0): zero drops it, at no more cost. Gets the callback's ctx.
 */
typedef int (*session_filter_fn)(void *ctx, const struct rsample *s);

/* A session resolving through sym (not owned). NULL and errno. */
struct session *session_new(struct symbols *sym, session_sample_fn fn, void *ctx);
void session_free(struct session *s);
/* Filter samples before resolving them; NULL keeps all (the default). */
void session_filter(struct session *s, session_filter_fn fn);
/*
 * Resolve only the sampled frame of each sample, not its call chain: all
 * a flat view without --children needs, and most of the cost of the rest.
 */
void session_leaf_only(struct session *s, int on);
/* Name the frames in files (1, the default), or leave them their dso and address: resolver_names(). */
void session_names(struct session *s, int on);
/*
 * Samples added up before they are named: each sample's addresses (its
 * call chain, the callers a stack copy gives back, the frames unwound)
 * are placed in its process's maps of the moment, and samples of the
 * same event, command, files and addresses in them (and pid, tid or cpu,
 * as keys asks), with the same unwinding outcome, are summed; each sum's
 * frames are resolved once and handed to the sample callback as one
 * rsample whose count is the samples it stands for, when the samples are
 * synced (session_sync(), session_finish(); before that, when the sums
 * hold 8 MiB). A sample with an address in JIT code, named by tables
 * that change with time, is resolved at once. Only for callers that add
 * periods and counts up and look at no sample's time, parallelism or
 * process: a sum's time is the latest of all the samples summed between
 * two deliveries (first the earliest), which is all a caller can make of
 * a span; its parallelism is 1, its exe NULL, its pid, tid and cpu 0
 * unless keyed. Off by default.
 */
#define SESSION_SUM_PID 1u
#define SESSION_SUM_TID 2u
#define SESSION_SUM_CPU 4u
void session_sum(struct session *s, int on, unsigned keys);
/*
 * Place each sample's data address (PERF_SAMPLE_ADDR, prof record -d) in
 * the maps of its process, data and code, and name the data object there
 * (struct rsample's daddr fields); before the first record.
 */
void session_data_addrs(struct session *s, int on);
/* The groups of more than one event the file names (perf's GROUP_DESC), once read. */
uint32_t session_groups(const struct session *s);
/*
 * Branch mode (perf report -b): each branch of a sample's branch stack
 * is delivered as a sample of its own (rsample br_from, br_to), period 1,
 * no frames; samples without one are dropped. -1: on where the file has
 * perf's BRANCH_STACK feature (before its first sample). Before the
 * first record.
 */
void session_branches(struct session *s, int on);
/* Whether branch mode is on (session_branches(1), or -1 and the feature). */
int session_branch_mode(const struct session *s);

/* How many samples had each of the fields that some sort keys need. */
struct session_fields {
	uint64_t addr;		/* -d */
	uint64_t cgroup;	/* --all-cgroups */
	uint64_t src;		/* --data-src */
	uint64_t weight;	/* -W */
	uint64_t namespaces;	/* NAMESPACES records (--namespaces) */
	uint64_t phys;		/* --phys-data */
	uint64_t data_page;	/* --data-page-size */
	uint64_t code_page;	/* --code-page-size */
	uint64_t branches;	/* -b: samples with a branch stack */
	uint64_t transaction;	/* --transaction */
};
void session_sample_fields(const struct session *s, struct session_fields *f);
/*
 * Let samples come out of time order: a sample whose file the symbolizer
 * is still opening (its DWARF can take 40 ms to inflate) is put aside,
 * its addresses placed in the maps of its time, and delivered at the end,
 * so that the rest need not wait. For callers that only add samples up.
 */
void session_unordered(struct session *s, int on);
/*
 * Free a thread a second (of the records' time) after its EXIT, and a
 * process (its maps, its JIT names) with its first thread's: what a
 * session that runs for days needs (prof agent). The second is for the
 * samples stamped after the EXIT record (the thread's last moments in
 * the kernel, its last switch out), which are named as the thread was; a
 * FORK that reuses the tid or pid before then ends the wait.
 */
void session_forget_exited(struct session *s, int on);
/*
 * Close, between batches (symbols_trim(), which looks once a second), the
 * symbolizer's files that no new address has needed for idle_ns, and more
 * while the heap holds more than budget bytes: a session that runs for
 * days (prof agent) then holds the debug information of what it samples
 * now.
 */
void session_trim_symbols(struct session *s, uint64_t idle_ns, size_t budget);
/* The time of the first sample in time order (set before any callback). */
uint64_t session_first_time(const struct session *s);

/*
 * Feed the next record of the file. Returns 0 or the callback's non-zero
 * value; a malformed record is skipped (session_skipped()).
 */
int session_record(struct session *s, const struct reader_record *rec);
/* The end of the file: deliver what is still queued. Same returns. */
int session_finish(struct session *s);
/*
 * Mid-file: wait until every sample handed to the resolving thread so far
 * (every record up to the last round the file closed) has reached the
 * callback, the samples put aside included, and the thread is idle until
 * the next session_record(). Same returns.
 */
int session_sync(struct session *s);
/*
 * Give up: nothing more is delivered, and once this returns the callback
 * runs no more (it runs on a thread of the session's own). For the error
 * paths; session_error() is stable after it.
 */
void session_abort(struct session *s);

/*
 * Records that could not be used (malformed, of an unknown event, of a
 * layout no kernel wrote) are skipped, never fatal: how many, and the
 * offset and the reason of the first in the file. After session_finish().
 */
uint64_t session_skipped(const struct session *s, uint64_t *first, const char **why);

/*
 * How many times the queue, bounded at 32 MiB of records, had to hand
 * records on before a FINISHED_ROUND said it was safe, so that samples
 * may have met maps out of time order; 0 when never.
 */
uint64_t session_unrounded(const struct session *s);

/*
 * Read ahead the JIT code the file at path carries (records of type 65,
 * src/jitdump.h), when its last record is prof's trailer saying where it
 * starts (a regular file only): from then on a process the profile
 * carries nothing of had no JIT code (no /tmp/perf-PID.map of a later
 * process with its pid is read), and those records are skipped where they
 * stand. Without it, session_record() takes them as they come. Before the
 * first session_record().
 */
void session_read_ahead(struct session *s, const char *path);

/*
 * The records that follow are another file's, read as a continuation of
 * the same profile (prof report -i 'perf.data.*', of prof record
 * --switch-output): its events, where their attrs are those of events
 * already known, are the same events, their ids added; its JIT code
 * carried is read ahead from path (NULL: standard input). Returns the
 * number of events known before it: those of earlier files.
 */
size_t session_next_file(struct session *s, const char *path);
/*
 * The profile's size, or the bytes read of it so far: carried JIT files
 * may take up to a multiple of it in memory (resolve-jit.c, car_charge()).
 * Only ever raises the bound; session_read_ahead() sets it for a file.
 */
void session_carried_budget(struct session *s, uint64_t file_size);
/*
 * What went wrong reading JIT code (damaged perf maps or jitdumps, files
 * that cannot be read), one line each, NULL-terminated; *more past 20.
 */
const char *const *session_jit_warnings(const struct session *s, size_t *more);

const struct evtab *session_evtab(const struct session *s);
/*
 * Context switches (PERF_RECORD_SWITCH, from prof record --off-cpu) make
 * events of their own: "off-cpu", each interval a thread spent blocked
 * (it switched out waiting for something), and "preempted", each it spent
 * runnable but off the CPU; a sample weighs the interval's nanoseconds,
 * at the time it began, with the stack of the thread's context-switches
 * sample at its switch-out (or a frame that says there was none).
 * 1 when the file had switch records.
 */
int session_switches(const struct session *s);
/* A TRACING_DATA record's data (reader_tracing_data()): names the tracepoint events. */
void session_tracing_data(struct session *s, const unsigned char *data, size_t len);
/* 1 when an event of the file records switches (attr.context_switch). */
int session_records_switches(const struct session *s);
/* 1 when the file samples switch-outs too (stacks of off-CPU time). */
int session_switch_stacks(const struct session *s);
/* The names of the file's events, then off-cpu and preempted: at most max; how many. */
int session_event_names(const struct session *s, const char **names, int max);
/* Records the kernel lost (LOST, LOST_SAMPLES), and samples seen. */
uint64_t session_lost(const struct session *s);
/* Text features: "hostname", "osrelease", "arch", "cmdline"; NULL when absent. */
const char *session_feature(const struct session *s, const char *name);
/*
 * The wall clock of the records' times (their CLOCK_DATA feature): 1 and
 * at one moment the wall clock *tod_ns (ns since 1970) and the records'
 * clock *clock_ns; 0 when the file does not say.
 */
int session_wall_clock(const struct session *s, uint64_t *tod_ns, uint64_t *clock_ns);

#endif
