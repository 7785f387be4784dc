// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The switches stage (report/model/switches.h) alone: a switch out and
 * back in is an interval of off-cpu (blocked) or preempted (switched out
 * while runnable), weighing its nanoseconds, at the time it began, with
 * the stack of the switch-out's sample when one came just before, else a
 * frame saying there was none; the events are made after the file's;
 * the threads of a process on a CPU are counted, and a thread leaves
 * that count at its switch-out, its EXIT and when forgotten.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "switches.h"
#include "tap.h"

static struct sample id_of(int pid, int tid, uint64_t time)
{
	struct sample s;

	memset(&s, 0, sizeof(s));
	s.present = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	s.pid = (uint32_t)pid;
	s.tid = (uint32_t)tid;
	s.time = time;
	s.cpu = 1;
	return s;
}

static int sw_rec(struct switches *sw, int pid, int tid, uint64_t time, int out, int preempt,
		  struct switch_sample *o)
{
	struct kevent k;
	struct sample id = id_of(pid, tid, time);

	memset(&k, 0, sizeof(k));
	k.type = PERF_RECORD_SWITCH;
	k.switch_out = out;
	k.preempt = preempt;
	return switches_record(sw, &k, &id, o);
}

int main(void)
{
	struct evtab ev;
	struct switches *sw;
	struct switch_sample o;
	static const char no_stack[] = "[no stack]";
	struct evdesc cs;
	int r;

	evtab_init(&ev);
	sw = switches_new(&ev, no_stack);
	ok(!switches_made(sw) && !switches_event(sw, 0), "no events made before a switch");

	ok(sw_rec(sw, 1, 1, 1000, 1, 0, &o) == 0, "a switch-out delivers nothing");
	r = sw_rec(sw, 1, 1, 4000, 0, 0, &o);
	ok(r == 1, "the switch back in ends an interval");
	ok(r == 1 && !strcmp(o.ev->name, "off-cpu") && o.smp.period == 3000 && o.smp.time == 1000,
	   "blocked: off-cpu, 3000 ns, at the switch-out (%s %llu at %llu)", r ? o.ev->name : "-",
	   (unsigned long long)o.smp.period, (unsigned long long)o.smp.time);
	ok(r == 1 && o.pseudo == no_stack, "no switch-out sample: a frame says so");
	ok(r == 1 && o.ev->index == ev.nr && switches_is_made_event(o.ev),
	   "made after the file's events");
	switches_done(sw, &o);

	sw_rec(sw, 1, 1, 5000, 1, 1, &o);
	r = sw_rec(sw, 1, 1, 5500, 0, 0, &o);
	ok(r == 1 && !strcmp(o.ev->name, "preempted") && o.smp.period == 500,
	   "switched out runnable: preempted, 500 ns");
	ok(switches_made(sw) && switches_event(sw, 0) && switches_event(sw, 1), "both made");
	switches_done(sw, &o);
	ok(sw_rec(sw, 1, 1, 6000, 0, 0, &o) == 0, "a switch in without a switch-out: nothing");

	/* with the switch-out's own sample: its stack */
	memset(&cs, 0, sizeof(cs));
	evdesc_init(&cs);
	cs.attr.type = PERF_TYPE_SOFTWARE;
	cs.attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	cs.attr.sample_period = 1;
	cs.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	ok(switches_is_switch_event(&cs), "the context-switches event is known");
	{
		struct {
			struct perf_event_header h;
			uint64_t ip;
			uint32_t pid, tid;
			uint64_t time;
		} rec = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, sizeof(rec) },
			  0xffffffff81001234ULL, 2, 2, 9000 };
		struct sample smp;

		ok(decode_sample(&cs.attr, &rec.h, &smp) == 0, "a switch-out sample decodes");
		switches_keep(sw, &cs, &rec.h, &smp);
		memset(&rec, 0xff, sizeof(rec));	/* kept as a copy */
	}
	sw_rec(sw, 2, 2, 9100, 1, 0, &o);
	r = sw_rec(sw, 2, 2, 19100, 0, 0, &o);
	ok(r == 1 && !o.pseudo && o.smp.ip == 0xffffffff81001234ULL && o.kernel,
	   "the interval has the switch-out sample's stack, in the kernel");
	ok(r == 1 && o.smp.period == 10000 && o.ev->attr.sample_type == cs.attr.sample_type,
	   "and its layout");
	switches_done(sw, &o);
	sw_rec(sw, 2, 2, 20000, 1, 0, &o);
	r = sw_rec(sw, 2, 2, 21000, 0, 0, &o);
	ok(r == 1 && o.pseudo == no_stack, "a kept stack serves one interval");

	/* parallelism */
	ok(switches_running(sw, 7, 7) == 1, "one thread of 7 on a CPU");
	ok(switches_running(sw, 7, 8) == 2, "two");
	ok(switches_running(sw, 7, 8) == 2, "a thread is counted once");
	sw_rec(sw, 7, 8, 30000, 1, 0, &o);
	ok(switches_running(sw, 7, 7) == 1, "a switch-out leaves the count");
	switches_running(sw, 7, 8);
	switches_exit(sw, 8);
	ok(switches_running(sw, 7, 7) == 1, "so does an EXIT");
	switches_running(sw, 7, 9);
	switches_forget(sw, 9);
	ok(switches_running(sw, 7, 7) == 1, "and a thread forgotten");
	switches_running(sw, 7, 10);
	switches_fork(sw, 7, 10);
	ok(switches_running(sw, 7, 7) == 1, "a FORK at a tid is a new thread, off the CPU");
	ok(switches_running(sw, 3, 3) == 1, "another process counts its own");

	switches_attr(sw, &cs);
	ok(!switches_recorded(sw), "an event without context_switch records none");
	cs.attr.context_switch = 1;
	switches_attr(sw, &cs);
	ok(switches_recorded(sw), "one with it does");
	switches_free(sw);
	evtab_release(&ev);
	return tap_done();
}
