/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's switches stage: the events it makes of context switches
 * (PERF_RECORD_SWITCH, prof record --off-cpu). Each interval a thread
 * spends off the CPU becomes a sample of "off-cpu" (blocked: it switched
 * out waiting for something) or "preempted" (runnable, waiting for a
 * CPU), weighing the interval's nanoseconds, with the stack of the
 * thread's context-switches sample at its switch-out, or a frame that
 * says there was none. It also counts, per process, the threads on a CPU
 * at each moment (a sample's parallelism). Its state is its own, per
 * thread and process id; the session tells it of FORK, EXIT and threads
 * forgotten. On the delivery thread.
 */
#ifndef PROF_REPORT_SWITCHES_H
#define PROF_REPORT_SWITCHES_H

#include <stdint.h>

#include "decode.h"
#include "evtab.h"

/* The context-switches event that --off-cpu adds: a sample at every switch-out. */
static inline int switches_is_switch_event(const struct evdesc *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       e->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES && !e->attr.freq &&
	       e->attr.sample_period == 1;
}

/* An event the switches stage made (off-cpu, preempted). */
static inline int switches_is_made_event(const struct evdesc *e)
{
	return e->attr.config == ~0ULL && e->attr.type == PERF_TYPE_SOFTWARE;
}

/* An interval off the CPU, to be delivered as a sample of ev. */
struct switch_sample {
	const struct evdesc *ev;
	struct sample smp;	/* its stack points into the kept switch-out sample */
	int kernel;		/* the switch-out sample was taken in the kernel */
	const char *pseudo;	/* no stack: the one frame's name; else NULL */
};

struct switches;

/*
 * The events made follow ev's (evtab_find() never returns them); a
 * stackless interval's one frame is named no_stack (interned).
 */
struct switches *switches_new(const struct evtab *ev, const char *no_stack);
void switches_free(struct switches *sw);

/* Event e of the file, as its ATTR comes: does it record switches? */
void switches_attr(struct switches *sw, const struct evdesc *e);
/* 1 when an event of the file records switches (parallelism is known). */
int switches_recorded(const struct switches *sw);
/* 1 when switch records made events. */
int switches_made(const struct switches *sw);
/* The made event: preempted 0 off-cpu, 1 preempted; NULL when not made. */
const struct evdesc *switches_event(const struct switches *sw, int preempted);

/*
 * Sample smp (record h) of the switch event e: where its thread is as it
 * switches out, the stack of its wait, kept (within a bound on all kept).
 */
void switches_keep(struct switches *sw, const struct evdesc *e,
		   const struct perf_event_header *h, const struct sample *smp);
/*
 * A thread sampled is on a CPU, whatever record said so first: the
 * threads of its process on one now, itself included.
 */
uint32_t switches_running(struct switches *sw, int pid, int tid);
/* A FORK made a new thread at tid (of process pid); EXIT: it left the CPU. */
void switches_fork(struct switches *sw, int pid, int tid);
void switches_exit(struct switches *sw, int tid);
/* The machine let go of the thread: so does this stage. */
void switches_forget(struct switches *sw, int tid);

/*
 * A switch record k (its sample id in id): 1 when it ends an interval
 * off the CPU, filled into *out, to be delivered; then switches_done().
 * 0 when there is nothing to deliver.
 */
int switches_record(struct switches *sw, const struct kevent *k, const struct sample *id,
		    struct switch_sample *out);
/* The interval in *out was delivered: the stack it used is let go. */
void switches_done(struct switches *sw, const struct switch_sample *out);

#endif
