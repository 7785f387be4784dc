/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records synthesized from /proc for processes that were running before
 * recording started: COMM per thread, FORK per non-leader thread, MMAP2 per
 * executable mapping, so that the report can name and symbolize them.
 */
#ifndef PROF_RECORD_SYNTH_H
#define PROF_RECORD_SYNTH_H

#include <stdint.h>
#include <linux/perf_event.h>

struct writer;

struct synth {
	struct writer *w;
	const struct perf_event_attr *attr;	/* gives the sample_id trailer */
	uint64_t id;				/* sample id written in the trailer */
	uint64_t records;			/* records written so far */
};

/*
 * Write the records of process pid (of thread tid only, when tid > 0).
 * A process that vanished meanwhile is skipped: 0. Else 0 or the writer's
 * negative errno.
 */
int synth_process(struct synth *s, int pid, int tid);
/*
 * The kernel's text as perf names it, an MMAP of "[kernel.kallsyms]_text"
 * for pid -1, so that readers resolve kernel addresses. Nothing when
 * /proc/kallsyms hides addresses. 0 or the writer's negative errno.
 */
int synth_kernel(struct synth *s);
/* Every process in /proc. 0 or the writer's negative errno. */
int synth_all(struct synth *s);

#endif
