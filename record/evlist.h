/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's event list grammar, as prof stat takes it: -e LIST, events and
 * {groups}[:modifiers] separated by commas, an event named (perf's
 * hardware and software events, src/evname.h), a generalized cache event
 * (L1-dcache-load-misses), raw (rNNN), a hardware breakpoint
 * (mem:ADDR[/LEN][:rwx]) or a tracepoint (SYSTEM:NAME), with perf's
 * modifiers (evname_apply_mods()). Issue 55 makes it the one grammar of
 * record, stat, top and the agent; record takes a plainer list today
 * (opts.c).
 */
#ifndef PROF_RECORD_EVLIST_H
#define PROF_RECORD_EVLIST_H

#include <stddef.h>
#include <linux/perf_event.h>

#define EVLIST_MAX 256

/* One event as written. */
struct evspec {
	char *name;			/* as written, with its group's modifiers */
	struct perf_event_attr attr;
	int leader;			/* index of its group's leader (itself when alone) */
};

struct evlist {
	struct evspec ev[EVLIST_MAX];
	int n;
};

/*
 * The events of arg added to l, groups' leaders by their index in l. 0,
 * or -1 with a one-line reason in err (l then holds what came before).
 */
int evlist_parse(struct evlist *l, const char *arg, char *err, size_t len);
/* The names freed; l empty. */
void evlist_release(struct evlist *l);

#endif
