// SPDX-License-Identifier: GPL-2.0-or-later
/* Event table: attrs from HEADER_ATTR records, looked up by sample id. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evname.h"
#include "evtab.h"
#include "pdata.h"
#include "xalloc.h"

void evtab_init(struct evtab *t)
{
	t->ev = NULL;
	t->nr = 0;
}

void evtab_release(struct evtab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->ev[i].ids);
	free(t->ev);
	evtab_init(t);
}

int evtab_add_record(struct evtab *t, const struct perf_event_header *h)
{
	const unsigned char *p = (const unsigned char *)(h + 1);
	size_t body = h->size - sizeof(*h);
	struct evdesc *e;
	uint32_t asize;
	size_t ids_len, copy;
	const char *name;

	if (body < 8)
		return -EBADMSG;
	memcpy(&asize, p + 4, 4);
	if (asize == 0)
		asize = 64;	/* PERF_ATTR_SIZE_VER0: old files */
	/*
	 * perf 6.1 writes attr.size bytes of attr but finds the ids at its own
	 * struct size; prof writes PDATA_ATTR_SIZE. Trust attr.size when it
	 * fits, as newer perf does.
	 */
	if (asize > body || asize < 64)
		return -EBADMSG;
	ids_len = body - asize;
	if (ids_len % 8)
		return -EBADMSG;
	t->ev = xreallocarray(t->ev, t->nr + 1, sizeof(*t->ev));
	e = &t->ev[t->nr++];
	memset(e, 0, sizeof(*e));
	copy = asize < sizeof(e->attr) ? asize : sizeof(e->attr);
	memcpy(&e->attr, p, copy);
	e->nr_ids = ids_len / 8;
	e->ids = xcalloc(e->nr_ids, 8);
	memcpy(e->ids, p + asize, ids_len);
	name = evname_of(e->attr.type, e->attr.config);
	if (name)
		snprintf(e->name, sizeof(e->name), "%s", name);
	else
		snprintf(e->name, sizeof(e->name), "type%u/0x%llx", e->attr.type,
			 (unsigned long long)e->attr.config);
	return 0;
}

/* Where PERF_SAMPLE_ID sits in a sample when there is no IDENTIFIER. */
static int sample_id_index(uint64_t st)
{
	int i = 0;

	if (!(st & PERF_SAMPLE_ID))
		return -1;
	i += !!(st & PERF_SAMPLE_IP);
	i += !!(st & PERF_SAMPLE_TID);
	i += !!(st & PERF_SAMPLE_TIME);
	i += !!(st & PERF_SAMPLE_ADDR);
	return i;
}

/* ... and in the sample_id trailer of other records, counted from the end. */
static int trailer_id_index(uint64_t st)
{
	int i = 1;

	if (!(st & PERF_SAMPLE_ID))
		return -1;
	i += !!(st & PERF_SAMPLE_CPU);
	i += !!(st & PERF_SAMPLE_STREAM_ID);
	return i;
}

const struct evdesc *evtab_find(const struct evtab *t, const struct perf_event_header *h)
{
	const uint64_t *w = (const uint64_t *)(h + 1);
	size_t nw = (h->size - sizeof(*h)) / 8;
	uint64_t st, id;
	int idx;

	if (t->nr == 0)
		return NULL;
	if (t->nr == 1)
		return &t->ev[0];
	/* perf requires the id to sit where the first event's sample_type says. */
	st = t->ev[0].attr.sample_type;
	if (h->type == PERF_RECORD_SAMPLE) {
		idx = (st & PERF_SAMPLE_IDENTIFIER) ? 0 : sample_id_index(st);
		if (idx < 0 || (size_t)idx >= nw)
			return NULL;
		id = w[idx];
	} else {
		if (!t->ev[0].attr.sample_id_all)
			return &t->ev[0];
		idx = (st & PERF_SAMPLE_IDENTIFIER) ? 1 : trailer_id_index(st);
		if (idx < 0 || (size_t)idx > nw)
			return NULL;
		id = w[nw - idx];
	}
	/* perf synthesizes records with a zeroed trailer: id 0 is the first event's. */
	if (!id)
		return &t->ev[0];
	for (size_t i = 0; i < t->nr; i++)
		for (size_t j = 0; j < t->ev[i].nr_ids; j++)
			if (t->ev[i].ids[j] == id)
				return &t->ev[i];
	return NULL;
}
