// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The switches stage (switches.h): off-CPU intervals and parallelism,
 * made of context switches.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itab.h"
#include "switches.h"
#include "xalloc.h"

/*
 * The switch-out samples kept, for the threads off the CPU now, at most:
 * a --call-graph dwarf sample is up to 64 KiB, and a thread blocked to
 * the end of the recording keeps its own (its wait's stack). Past this,
 * an interval is counted without its stack ("[no stack: ...]").
 */
#define CS_HELD_MAX ((size_t)64 << 20)

/* A thread as its switches leave it. */
struct swthread {
	int pid;
	int on_cpu;		/* counted in its process's running */
	/* off the CPU since out_time (out_state 1 blocked, 2 preempted; 0: on it) */
	uint64_t out_time;
	int out_state;
	uint32_t out_cpu;
	/* its last sample of the context-switches event: the stack of a switch-out */
	unsigned char *cs;
	size_t cs_cap;
	uint64_t cs_time;
	const struct evdesc *cs_ev;
};

/* A process's threads on a CPU now. */
struct swproc {
	int running;
};

struct switches {
	const struct evtab *ev;
	struct evdesc swev[2];	/* off-cpu and preempted, made of switch records */
	int made;
	int recorded;		/* an event records switches: parallelism is known */
	const char *no_stack;	/* the frame of an off-CPU interval without a stack */
	size_t cs_bytes;	/* of the threads' switch-out copies (cs_keep()) */
	struct itab threads, procs;
};

struct switches *switches_new(const struct evtab *ev, const char *no_stack)
{
	struct switches *sw = xcalloc(1, sizeof(*sw));

	sw->ev = ev;
	sw->no_stack = no_stack;
	return sw;
}

static void free_thread(void *v)
{
	struct swthread *t = v;

	free(t->cs);
	free(t);
}

void switches_free(struct switches *sw)
{
	if (!sw)
		return;
	itab_release(&sw->threads, free_thread);
	itab_release(&sw->procs, free);
	free(sw);
}

void switches_attr(struct switches *sw, const struct evdesc *e)
{
	if (e->attr.context_switch)
		sw->recorded = 1;
}

int switches_recorded(const struct switches *sw)
{
	return sw->recorded;
}

int switches_made(const struct switches *sw)
{
	return sw->made;
}

const struct evdesc *switches_event(const struct switches *sw, int preempted)
{
	return sw->swev[preempted].name ? &sw->swev[preempted] : NULL;
}

static struct swthread *get_thread(struct switches *sw, int pid, int tid)
{
	struct swthread *t = itab_get(&sw->threads, tid);

	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->pid = pid;
		itab_put(&sw->threads, tid, t);
	}
	return t;
}

/* Forget t's switch-out sample. */
static void cs_drop(struct switches *sw, struct swthread *t)
{
	free(t->cs);
	sw->cs_bytes -= t->cs_cap;
	t->cs = NULL;
	t->cs_cap = 0;
}

/* Keep the switch-out sample h as t's, within CS_HELD_MAX in all: 0, or -1 (dropped). */
static int cs_keep(struct switches *sw, struct swthread *t, const struct perf_event_header *h)
{
	if (t->cs_cap < h->size) {
		if (sw->cs_bytes - t->cs_cap + h->size > CS_HELD_MAX) {
			cs_drop(sw, t);
			return -1;
		}
		t->cs = xreallocarray(t->cs, h->size, 1);
		sw->cs_bytes += h->size - t->cs_cap;
		t->cs_cap = h->size;
	}
	memcpy(t->cs, h, h->size);
	return 0;
}

void switches_keep(struct switches *sw, const struct evdesc *e,
		   const struct perf_event_header *h, const struct sample *smp)
{
	struct swthread *t;

	if (!(smp->present & PERF_SAMPLE_TID))
		return;
	t = get_thread(sw, (int)smp->pid, (int)smp->tid);
	if (!cs_keep(sw, t, h)) {
		t->cs_ev = e;
		t->cs_time = smp->time;
	}
}

/* Thread t is on a CPU (on 1) or off it now: its process's running count follows. */
static void set_on_cpu(struct switches *sw, struct swthread *t, int on)
{
	struct swproc *pr;

	if (t->on_cpu == on)
		return;
	pr = itab_get(&sw->procs, t->pid);
	if (!pr) {
		pr = xcalloc(1, sizeof(*pr));
		itab_put(&sw->procs, t->pid, pr);
	}
	t->on_cpu = on;
	pr->running += on ? 1 : -1;
	if (pr->running < 0)
		pr->running = 0;
}

uint32_t switches_running(struct switches *sw, int pid, int tid)
{
	struct swthread *t = get_thread(sw, pid, tid);
	struct swproc *pr;

	if (t->pid != pid) {	/* counted in another process's: no more */
		set_on_cpu(sw, t, 0);
		t->pid = pid;
	}
	set_on_cpu(sw, t, 1);
	pr = itab_get(&sw->procs, pid);
	return pr->running > 0 ? (uint32_t)pr->running : 1;
}

void switches_fork(struct switches *sw, int pid, int tid)
{
	struct swthread *t = itab_get(&sw->threads, tid);

	if (!t)
		return;
	/* the new thread keeps an off-CPU interval begun before its FORK was seen */
	set_on_cpu(sw, t, 0);
	cs_drop(sw, t);
	t->pid = pid;
}

void switches_exit(struct switches *sw, int tid)
{
	struct swthread *t = itab_get(&sw->threads, tid);

	if (t)
		set_on_cpu(sw, t, 0);
}

void switches_forget(struct switches *sw, int tid)
{
	struct swthread *t = itab_get(&sw->threads, tid);

	if (!t)
		return;
	set_on_cpu(sw, t, 0);
	cs_drop(sw, t);
	free(t);
	itab_put(&sw->threads, tid, NULL);
}

/* The events made of switch records: off-CPU time, blocked and preempted. */
static struct evdesc *switch_event(struct switches *sw, int preempted)
{
	struct evdesc *e = &sw->swev[preempted];

	if (!e->name) {
		/* after the file's own events; an event declared later is refused */
		e->index = sw->ev->nr + (size_t)preempted;
		sw->swev[0].index = sw->ev->nr;
		sw->swev[1].index = sw->ev->nr + 1;
		e->attr.type = PERF_TYPE_SOFTWARE;
		e->attr.config = ~0ULL;
		e->attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		evdesc_init(e);
		snprintf(e->sname, sizeof(e->sname), "%s", preempted ? "preempted" : "off-cpu");
		sw->made = 1;
	}
	return e;
}

/*
 * A thread switched out (at its record's time) or back in: an interval
 * off the CPU ends, and becomes a sample of off-cpu or preempted,
 * weighing its nanoseconds, with the stack of its switch-out when the
 * recording has one.
 */
int switches_record(struct switches *sw, const struct kevent *k, const struct sample *id,
		    struct switch_sample *out)
{
	struct swthread *t;
	struct sample *smp = &out->smp;
	struct evdesc *e;
	uint64_t d;
	int preempted;

	if (!(id->present & PERF_SAMPLE_TID) || !(id->present & PERF_SAMPLE_TIME))
		return 0;
	t = get_thread(sw, (int)id->pid, (int)id->tid);
	set_on_cpu(sw, t, !k->switch_out);
	if (k->switch_out) {
		t->out_time = id->time;
		t->out_state = k->preempt ? 2 : 1;
		t->out_cpu = (id->present & PERF_SAMPLE_CPU) ? id->cpu : 0;
		return 0;
	}
	if (!t->out_state || id->time <= t->out_time) {
		t->out_state = 0;
		return 0;
	}
	d = id->time - t->out_time;
	preempted = t->out_state == 2;
	t->out_state = 0;
	out->kernel = 0;
	out->pseudo = NULL;
	/* the switch-out's own sample comes just before its record */
	if (t->cs && t->cs_time <= t->out_time && t->out_time - t->cs_time < 1000000 &&
	    !decode_sample(&t->cs_ev->attr, (const struct perf_event_header *)t->cs, smp)) {
		out->kernel = decode_misc_kernel(((const struct perf_event_header *)t->cs)->misc);
	} else {
		memset(smp, 0, sizeof(*smp));
		smp->present = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		smp->pid = id->pid;
		smp->tid = id->tid;
		smp->cpu = t->out_cpu;
		out->pseudo = sw->no_stack;
	}
	smp->time = t->out_time;
	smp->period = d;
	smp->present |= PERF_SAMPLE_PERIOD;
	e = switch_event(sw, preempted);
	if (!out->pseudo) {
		/* unwound as the switch-out's sample is: its registers, its stack copy */
		e->attr.sample_type = t->cs_ev->attr.sample_type;
		e->attr.sample_regs_user = t->cs_ev->attr.sample_regs_user;
		e->attr.sample_stack_user = t->cs_ev->attr.sample_stack_user;
	}
	out->ev = e;
	return 1;
}

void switches_done(struct switches *sw, const struct switch_sample *out)
{
	struct swthread *t;

	/* used: the sample took the addresses it needs (a parked one too) */
	if (!out->pseudo && (t = itab_get(&sw->threads, (int)out->smp.tid)))
		cs_drop(sw, t);
}
