/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records synthesized from /proc for processes that were running before
 * recording started: COMM per thread, FORK per non-leader thread, MMAP2 per
 * executable mapping (with the file's build id, as the kernel gives it for
 * new mappings, so that a report never names frames from another build),
 * so that the report can name and symbolize them.
 */
#ifndef PROF_RECORD_SYNTH_H
#define PROF_RECORD_SYNTH_H

#include <stdint.h>
#include <linux/perf_event.h>

struct writer;

struct mapfile_bids;

struct codemap;

struct mend;

struct synth {
	struct writer *w;
	const struct perf_event_attr *attr;	/* gives the sample_id trailer */
	uint64_t id;				/* sample id written in the trailer */
	uint64_t records;			/* records written so far */
	struct mapfile_bids *bids;		/* build ids read, by file (the recorder's) */
	struct keep *keep;			/* files at risk kept by build id; NULL: none */
	struct codemap *code;			/* where code may be, told of each map; NULL: none */
	struct mend *mend;			/* the leaf repair, told of each record; NULL: none */
	int data;				/* the data mappings too (-d), as perf's */
	int namespaces;				/* a NAMESPACES record a thread (--namespaces) */
	void (*tick)(void *ctx);		/* called after each process written; NULL: none */
	void *tick_ctx;
};

/*
 * Write the records of process pid (of thread tid only, when tid > 0).
 * A process that vanished meanwhile is skipped: 0. Else 0 or the writer's
 * negative errno.
 */
int synth_process(struct synth *s, int pid, int tid);
/*
 * A COMM of pid named comm (at most 15 bytes kept, as the kernel keeps):
 * the command prof launches, which the kernel names only at its exec, so
 * that its samples before (the exec itself) are named as perf names them.
 * 0 or the writer's negative errno.
 */
int synth_comm_as(struct synth *s, int pid, const char *comm);
/*
 * The kernel's text as perf names it, an MMAP of "[kernel.kallsyms]_text"
 * for pid -1, so that readers resolve kernel addresses. Nothing when
 * /proc/kallsyms hides addresses. 0 or the writer's negative errno.
 */
int synth_kernel(struct synth *s);
/*
 * A CGROUP record (id, path under the cgroup2 root) of every cgroup there
 * is, as perf record --all-cgroups writes them, for the samples' ids.
 * 0 or the writer's negative errno.
 */
int synth_cgroups(struct synth *s);
/* Every process in /proc. 0 or the writer's negative errno. */
int synth_all(struct synth *s);
/*
 * Every process in /proc that descends from one of roots[0 .. n) (not
 * the roots themselves): what a target started. 0 or the writer's
 * negative errno.
 */
int synth_descendants(struct synth *s, const int *roots, int n);

#endif
