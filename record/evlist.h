/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf's event list grammar, the one -e of record, stat, top and the
 * agent: events and {groups}[:modifiers] separated by commas, an event named (perf's
 * hardware and software events, src/evname.h), a generalized cache event
 * (L1-dcache-load-misses), raw (rNNN), a hardware breakpoint
 * (mem:ADDR[/LEN][:rwx]), a PMU's (PMU/term=value,.../), a dynamic
 * probe (probe.h) or a tracepoint (SYSTEM:NAME), with perf's modifiers
 * (evname_apply_mods()), S among a group's for leader sampling.
 */
#ifndef PROF_RECORD_EVLIST_H
#define PROF_RECORD_EVLIST_H

#include <stddef.h>
#include <linux/perf_event.h>

#define EVLIST_MAX 256

enum evlist_kind { EVLIST_NAMED, EVLIST_TRACEPOINT, EVLIST_PROBE };

/* One event as written. */
struct evspec {
	char *name;			/* as written, with its group's modifiers */
	size_t name_len;		/* of its name alone, without modifiers (a
					 * tracepoint's or probe's: all of it) */
	struct perf_event_attr attr;	/* modifiers applied; a tracepoint's type and
					 * config unless EVLIST_LATE_TRACEPOINTS */
	enum evlist_kind kind;
	char mods[16];			/* its modifiers, then its group's, S left out */
	int leader;			/* index of its group's leader (itself when alone) */
	int sample_read;		/* its group is {...}:S: the leader samples, reading the rest */
	double scale;			/* a PMU alias's counts times this (events/A.scale), else 1 */
	char unit[24];			/* and in this unit (events/A.unit), else "" */
};

struct evlist {
	struct evspec ev[EVLIST_MAX];
	int n;
};

/*
 * The events of arg added to l, groups' leaders by their index in l. 0,
 * or -1 with a one-line reason in err (l then holds what came before).
 */
int evlist_parse(struct evlist *l, const char *arg, unsigned flags, char *err, size_t len);
/* evlist_parse()'s flags: a tracepoint's id is looked up when it is opened, not now */
#define EVLIST_LATE_TRACEPOINTS	1
/* The names freed; l empty. */
void evlist_release(struct evlist *l);

/*
 * One event as written (no braces, no commas), but for its modifiers:
 * named, cache, raw or mem: (0), its type, config and breakpoint in a
 * (zeroed first), its name's length in *name_len (a breakpoint's :rwx is
 * of its name), and *mods where its modifiers' letters begin ("" for
 * none); or SYSTEM:NAME, a tracepoint, not looked up (1; *name_len the
 * whole); a dynamic probe (probe.h: uprobe:PATH:FUNCTION...), its attr
 * whole, its sample_period 1, no modifiers (2; *name_len the whole); or
 * -1 with a one-line reason in err.
 */
int evlist_base(const char *spec, struct perf_event_attr *a, size_t *name_len,
		const char **mods, char *err, size_t len);
/*
 * The length of the event at p in a list: up to the first of stops
 * (",", or ",}" in a group), but a PMU's terms (PMU/t=v,t=v/) are whole.
 */
size_t evlist_event_len(const char *p, const char *stops);

#endif
