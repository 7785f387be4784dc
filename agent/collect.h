/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What prof agent samples, aggregated while it goes: a pprof per event
 * for each window (aligned to the wall clock, --window long) and for each
 * scrape in progress (/debug/pprof/profile?seconds=N), each sample
 * labelled with its process, thread and container: the collector of the
 * agent's profile (collect_collector), fed by its delivery thread after
 * the profile's own filters (the idle task, --comm); windows closed by
 * collect_tick() on the agent's main thread; scrapes polled by the HTTP
 * server's thread. One mutex guards it all.
 *
 * Memory is what the open windows and scrapes hold, and a line per live
 * process: each window's pprof is freed once encoded.
 */
#ifndef PROF_AGENT_COLLECT_H
#define PROF_AGENT_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* The labels a sample can carry (--sample-labels). */
enum {
	LABEL_PID = 1,
	LABEL_PROCESS = 2,
	LABEL_THREAD = 4,
	LABEL_CONTAINER = 8,	/* cgroup, and container_id and pod_uid where it names them */
	LABEL_ALL = 15,
};

struct collect_opts {
	uint64_t window_ns;		/* --window */
	uint64_t grace_ns;		/* how long after its end a window waits for late samples */
	unsigned labels;		/* LABEL_* */
	int kernel_addresses;		/* keep kernel frames' addresses (else names alone) */
	char **cgroups;			/* --cgroup: only processes in these cgroups (prefixes) */
	size_t ncgroups;
	uint64_t period_ns;		/* between samples of a clock event, for pprof's period */
	int otlp;			/* encode each window as OTLP too (an OTLP backend) */
	const char *const *resource;	/* OTLP's Resource attributes: pairs, key then value */
	int nresource;
	/*
	 * Asks the recorder for what it has now (the agent: SIGURG to it),
	 * when the samples up to a moment already past are awaited: a
	 * scrape's end, a window's. Called under the collect's lock, at most
	 * every POKE_EVERY_NS; NULL: none.
	 */
	void (*poke)(void *ctx);
	void *poke_ctx;
};

/* Events a window or scrape tells apart (cpu-clock, off-cpu, preempted...); more are dropped. */
#define COLLECT_MAX_EVENTS 8

/* A window's profile of one event, encoded. */
struct window_event {
	char event[64];
	unsigned char *pprof;		/* gzipped profile.proto, malloc'd */
	size_t len;
	unsigned char *otlp;		/* gzipped OTLP request, malloc'd (collect_opts.otlp) */
	size_t otlp_len;
	uint64_t samples;
};

struct window {
	uint64_t start_ns, end_ns;	/* CLOCK_REALTIME */
	uint64_t seq;			/* 0, 1, ... in the agent's run */
	size_t nev;
	struct window_event ev[COLLECT_MAX_EVENTS];
};

struct collect;

struct collect *collect_new(const struct collect_opts *o);
void collect_free(struct collect *c);

/*
 * The profile's collector, the collect its collector_ctx: it sees every
 * sample's time (a window ends when the samples of its end are in,
 * whichever are kept), keeps those of the --cgroup given, and adds up
 * what the profile kept, whatever its event.
 */
extern const struct profile_collector collect_collector;

/*
 * Close the windows whose end is grace past now (CLOCK_MONOTONIC, ns),
 * or all of them with flush (the agent stopping: the last is cut short),
 * handing each to fn, which owns nothing of it after it returns. Opens
 * the window of now, so that an idle host's windows are there too.
 */
void collect_tick(struct collect *c, uint64_t now, int flush,
		  void (*fn)(void *arg, const struct window *w), void *arg);
/*
 * How long after now (CLOCK_MONOTONIC, ns) collect_tick() has work next:
 * a window's grace over, the next window to open, or, while the samples
 * of a window's end are awaited, a short while.
 */
uint64_t collect_due(struct collect *c, uint64_t now);
/* The latest sample time delivered (CLOCK_MONOTONIC, ns): every record before it is done. */
uint64_t collect_delivered(struct collect *c);

/*
 * A scrape: the pprof of event kind cpu (the first event when no clock
 * is sampled) from now for seconds. NULL when max scrapes are already in
 * progress. Polled until done (collect_scrape_poll()) or cancelled.
 */
struct span;
struct span *collect_scrape_start(struct collect *c, double seconds, int max);
/*
 * Whether sp is done (its end's samples in, or its grace past): 1 with
 * *data (malloc'd) and sp gone, -ENOMEM and sp gone, or 0 while it goes on.
 */
int collect_scrape_poll(struct collect *c, struct span *sp, unsigned char **data, size_t *len);
/* Drop sp: its client went away. */
void collect_scrape_cancel(struct collect *c, struct span *sp);

/* Counters for the agent's summary. */
struct collect_stats {
	uint64_t samples, late, windows, scrapes;
	uint64_t empty;			/* windows without samples: nothing is pushed of them */
};
void collect_stats(struct collect *c, struct collect_stats *st);

#endif
