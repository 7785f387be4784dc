// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events the session makes of context switches: a thread's time off the
 * CPU as off-cpu (blocked) and preempted intervals, with the stack its
 * switch-out sample had, and how many threads of each process run at a
 * time (parallelism). On the delivery thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "decode.h"
#include "file.h"
#include "htab.h"
#include "jit.h"
#include "jitdump.h"
#include "maps.h"
#include "pdata.h"
#include "session.h"
#include "strpool.h"
#include "symbols.h"
#include "tpfmt.h"
#include "unwind.h"
#include "xalloc.h"

#include "session-int.h"

/*
 * The switch-out samples kept, for the threads off the CPU now, at most:
 * a --call-graph dwarf sample is up to 64 KiB, and a thread blocked to
 * the end of the recording keeps its own (its wait's stack). Past this,
 * an interval is counted without its stack ("[no stack: ...]").
 */
#define CS_HELD_MAX ((size_t)64 << 20)

/* Forget t's switch-out sample. */
void ss_cs_drop(struct session *s, struct thread *t)
{
	free(t->cs);
	s->cs_bytes -= t->cs_cap;
	t->cs = NULL;
	t->cs_cap = 0;
}

/* Keep the switch-out sample h as t's, within CS_HELD_MAX in all: 0, or -1 (dropped). */
int ss_cs_keep(struct session *s, struct thread *t, const struct perf_event_header *h)
{
	if (t->cs_cap < h->size) {
		if (s->cs_bytes - t->cs_cap + h->size > CS_HELD_MAX) {
			ss_cs_drop(s, t);
			return -1;
		}
		t->cs = xreallocarray(t->cs, h->size, 1);
		s->cs_bytes += h->size - t->cs_cap;
		t->cs_cap = h->size;
	}
	memcpy(t->cs, h, h->size);
	return 0;
}

/* Thread t is on a CPU (on 1) or off it now: its process's running count follows. */
void ss_set_on_cpu(struct session *s, struct thread *t, int on)
{
	struct proc *pr;

	if (t->on_cpu == on)
		return;
	pr = ss_get_proc(s, t->pid);
	t->on_cpu = on;
	pr->running += on ? 1 : -1;
	if (pr->running < 0)
		pr->running = 0;
}

/* The events made of switch records: off-CPU time, blocked and preempted. */
static struct evdesc *switch_event(struct session *s, int preempted)
{
	struct evdesc *e = &s->swev[preempted];

	if (!e->name[0]) {
		/* after the file's own events; an event declared later is refused */
		e->index = s->ev.nr + (size_t)preempted;
		s->swbase = s->ev.nr;
		s->swev[0].index = s->swbase;
		s->swev[1].index = s->swbase + 1;
		e->attr.type = PERF_TYPE_SOFTWARE;
		e->attr.config = ~0ULL;
		e->attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		snprintf(e->name, sizeof(e->name), "%s", preempted ? "preempted" : "off-cpu");
		s->swset = 1;
	}
	return e;
}

/*
 * A thread switched out (at its record's time) or back in: an interval
 * off the CPU ends, and becomes a sample of off-cpu (blocked: it waited
 * for something) or preempted (runnable, waiting for a CPU), weighing
 * its nanoseconds, with the stack of its switch-out when the recording
 * has one.
 */
int ss_do_switch(struct session *s, const struct kevent *k, const struct sample *id)
{
	struct thread *t;
	struct sample smp;
	struct evdesc *e;
	uint64_t d;
	int preempted, kernel = 0, ret;
	const char *pseudo = NULL;

	if (!(id->present & PERF_SAMPLE_TID) || !(id->present & PERF_SAMPLE_TIME))
		return 0;
	t = ss_get_thread(s, (int)id->pid, (int)id->tid);
	ss_set_on_cpu(s, t, !k->switch_out);
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
	/* the switch-out's own sample comes just before its record */
	if (t->cs && t->cs_time <= t->out_time && t->out_time - t->cs_time < 1000000 &&
	    !decode_sample(&t->cs_ev->attr, (const struct perf_event_header *)t->cs, &smp)) {
		kernel = ss_is_kernel_mode(((const struct perf_event_header *)t->cs)->misc);
	} else {
		memset(&smp, 0, sizeof(smp));
		smp.present = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		smp.pid = id->pid;
		smp.tid = id->tid;
		smp.cpu = t->out_cpu;
		pseudo = s->no_switch_samples;
	}
	smp.time = t->out_time;
	smp.period = d;
	smp.present |= PERF_SAMPLE_PERIOD;
	e = switch_event(s, preempted);
	if (!pseudo) {
		/* unwound as the switch-out's sample is: its registers, its stack copy */
		e->attr.sample_type = t->cs_ev->attr.sample_type;
		e->attr.sample_regs_user = t->cs_ev->attr.sample_regs_user;
		e->attr.sample_stack_user = t->cs_ev->attr.sample_stack_user;
	}
	ret = ss_sample_go(s, e, &smp, kernel, pseudo);
	/* used: ss_sample_go() took the addresses it needs (a parked sample too) */
	if (!pseudo)
		ss_cs_drop(s, t);
	return ret;
}
