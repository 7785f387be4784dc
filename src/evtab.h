/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The events of a profile: each HEADER_ATTR's attr, its sample ids and a
 * display name, and the lookup from a record to the event it belongs to.
 */
#ifndef PROF_EVTAB_H
#define PROF_EVTAB_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct evdesc {
	struct perf_event_attr attr;	/* zero-extended to our struct size */
	uint64_t *ids;
	size_t nr_ids;
	char name[64];
};

struct evtab {
	struct evdesc *ev;
	size_t nr;
};

void evtab_init(struct evtab *t);
void evtab_release(struct evtab *t);

/*
 * Add the event of a HEADER_ATTR record. 0, or -EBADMSG when the record is
 * malformed (attr.size beyond the record, ids not a whole number of u64).
 */
int evtab_add_record(struct evtab *t, const struct perf_event_header *h);

/*
 * The event a kernel record belongs to, found by its sample id (or the
 * only event there is). NULL when the id is unknown or the record is too
 * short to hold one.
 */
const struct evdesc *evtab_find(const struct evtab *t, const struct perf_event_header *h);

#endif
