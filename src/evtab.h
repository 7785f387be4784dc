/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The events of a profile: each HEADER_ATTR's attr and a display name,
 * and the lookup from a record to the event it belongs to by its sample
 * id. Events never move once added: a pointer to one stays valid until
 * evtab_release(), however many events come after it.
 */
#ifndef PROF_EVTAB_H
#define PROF_EVTAB_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "u64map.h"

struct evdesc {
	struct perf_event_attr attr;	/* zero-extended to our struct size */
	size_t index;			/* its place in evtab.ev */
	char *name;			/* sname, or a longer one evtab owns */
	char sname[64];
	int unnamed;			/* its attr says no name: "type8/0x0" */
};

/* An event outside any table (off-CPU, --wall, a test's): named in sname. */
void evdesc_init(struct evdesc *e);

struct evtab {
	struct evdesc **ev;
	size_t nr, cap;
	struct u64map ids;		/* sample id -> index; each id once */
	size_t last;			/* the event the last ATTR record added to */
};

void evtab_init(struct evtab *t);
void evtab_release(struct evtab *t);

/*
 * The modifiers perf writes after an event's name for what its attr
 * excludes and how precise it is, ":u", ":k", ":ppp" (into buf; "" for
 * none): a recording of cycles:u, or one that fell back to user space
 * only, says so.
 */
void evtab_modifiers(const struct perf_event_attr *a, char *buf, size_t len);

/*
 * Add the event of a HEADER_ATTR record (decode_attr()). 0, or -EBADMSG
 * when it is malformed. An id
 * that an earlier event already claimed stays that event's.
 */
int evtab_add_record(struct evtab *t, const struct perf_event_header *h);

/*
 * A HEADER_ATTR record of a later file of the same profile: when an event
 * has the same attr, its ids are added to that event and 1 is returned;
 * 0 when it is another event (evtab_add_record() it) or malformed.
 */
int evtab_merge_record(struct evtab *t, const struct perf_event_header *h);

/*
 * The event a kernel record belongs to, found by its sample id (or the
 * only event there is) in O(1). NULL when the id is unknown or the record
 * is too short to hold one.
 */
const struct evdesc *evtab_find(const struct evtab *t, const struct perf_event_header *h);
/* The event sample id id belongs to, or NULL when no ATTR names it. */
const struct evdesc *evtab_by_id(const struct evtab *t, uint64_t id);

struct tpfmts;
/* Name the tracepoint events ("sched:sched_switch") from their formats. */
void evtab_name_tracepoints(struct evtab *t, const struct tpfmts *f);

/*
 * Name the events whose attr says no name (a PMU's of sysfs, a probe's)
 * from perf's EVENT_DESC feature (data, len bytes after its id): each
 * entry's attr, ids and the name as written; an entry is matched to an
 * event by its first id, or by its attr when it has none.
 */
void evtab_name_desc(struct evtab *t, const unsigned char *data, size_t len);

#endif
