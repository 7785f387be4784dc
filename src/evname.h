/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event names prof knows, as perf spells them, and their (type, config). */
#ifndef PROF_EVNAME_H
#define PROF_EVNAME_H

#include <stddef.h>
#include <stdint.h>

struct perf_event_attr;

struct evname {
	const char *name;
	uint32_t type;		/* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
};

/* The entry called name (or one of its aliases), or NULL. */
const struct evname *evname_lookup(const char *name);
/* The table: canonical names first, then aliases (of an entry before them). */
const struct evname *evname_table(size_t *n);
/* The configs of the generalized cache events perf lists (at most max), in order: their count. */
size_t evname_caches(uint64_t *configs, size_t max);
/* The canonical name of (type, config), or NULL when it is not in the table. */
const char *evname_of(uint32_t type, uint64_t config);
/*
 * A generalized cache event by perf's name (L1-dcache-load-misses,
 * LLC-loads, dTLB-store-misses, branch-loads...): 0 and the config of
 * PERF_TYPE_HW_CACHE, or -1.
 */
int evname_cache(const char *name, uint64_t *config);
/* The name of a PERF_TYPE_HW_CACHE config, in buf; NULL when it is none. */
const char *evname_cache_of(uint64_t config, char *buf, size_t size);
/*
 * An event's name from its attr, as perf spells it: a named event's, a
 * cache event's (L1-dcache-load-misses), raw (r1a8) or a breakpoint
 * (mem:0x404110:w), in buf when made; NULL when none of these (a
 * tracepoint's is in its format).
 */
const char *evname_attr(const struct perf_event_attr *a, char *buf, size_t size);
/* All canonical names, comma-separated, for messages. */
const char *evname_list(void);

struct perf_event_attr;

/*
 * Modifiers after an event's ':' applied to its attr, as perf's parser
 * applies them: u, k and h keep only those levels (the first of them
 * excludes all three; u also leaves guests out), G and H only the guest
 * or the host, p raises precise_ip, P asks for the most precise the PMU
 * takes, D pins, I leaves out the idle task, e asks for the PMU alone
 * (exclusive). 0, or -1 on a letter that is none of these (or a fourth
 * p, or p with P).
 */
int evname_apply_mods(struct perf_event_attr *a, const char *m);
/* Whether modifiers mods ask for P: precise_ip lowered as the PMU needs, not said. */
int evname_precise_max(const char *mods);

#endif
