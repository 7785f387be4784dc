// SPDX-License-Identifier: GPL-2.0-or-later
/* Event table: attrs from HEADER_ATTR records, looked up by sample id. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evname.h"
#include "decode.h"
#include "evtab.h"
#include "tpfmt.h"
#include "pdata.h"
#include "reader.h"
#include "xalloc.h"

void evtab_init(struct evtab *t)
{
	t->ev = NULL;
	t->nr = t->cap = 0;
	t->last = 0;
	u64map_init(&t->ids);
}

void evtab_release(struct evtab *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		if (t->ev[i]->name != t->ev[i]->sname)
			free(t->ev[i]->name);
		free(t->ev[i]);
	}
	free(t->ev);
	u64map_release(&t->ids);
	evtab_init(t);
}

static void add_ids(struct evtab *t, const unsigned char *ids, size_t nr, size_t index)
{
	for (size_t i = 0; i < nr; i++) {
		uint64_t id;

		memcpy(&id, ids + 8 * i, 8);
		u64map_add(&t->ids, id, (uint32_t)index);
	}
}

void evdesc_init(struct evdesc *e)
{
	e->name = e->sname;
}

int evtab_add_record(struct evtab *t, const struct perf_event_header *h)
{
	struct attr_record ar;
	struct evdesc *e;
	const char *name;

	if (decode_attr(h, &ar))
		return -EBADMSG;
	if ((h->misc & READER_ATTR_MORE_IDS) && t->nr) {
		add_ids(t, ar.ids, ar.nids, t->last);	/* more of the last event's: reader.h */
		return 0;
	}
	e = xcalloc(1, sizeof(*e));
	evdesc_init(e);
	e->attr = ar.attr;
	e->index = t->nr;
	add_ids(t, ar.ids, ar.nids, e->index);
	/* named, cache, raw or a breakpoint, as perf names them; a tracepoint's comes with its format */
	name = evname_attr(&e->attr, e->sname, sizeof(e->sname));
	if (!name) {
		snprintf(e->sname, sizeof(e->sname), "type%u/0x%llx", e->attr.type,
			 (unsigned long long)e->attr.config);
		e->unnamed = 1;
	}
	else if (name != e->sname)
		snprintf(e->sname, sizeof(e->sname), "%s", name);
	t->ev = xgrow(t->ev, &t->cap, t->nr + 1, sizeof(*t->ev));
	t->ev[t->nr++] = e;
	t->last = e->index;
	return 0;
}

int evtab_merge_record(struct evtab *t, const struct perf_event_header *h)
{
	struct attr_record ar;

	if (decode_attr(h, &ar))
		return 0;
	if ((h->misc & READER_ATTR_MORE_IDS) && t->nr) {
		add_ids(t, ar.ids, ar.nids, t->last);
		return 1;
	}
	for (size_t i = 0; i < t->nr; i++)
		if (!memcmp(&t->ev[i]->attr, &ar.attr, sizeof(ar.attr))) {
			add_ids(t, ar.ids, ar.nids, i);
			t->last = i;
			return 1;
		}
	return 0;
}

void evtab_name_tracepoints(struct evtab *t, const struct tpfmts *f)
{
	for (size_t i = 0; i < t->nr; i++) {
		const char *name = t->ev[i]->attr.type == PERF_TYPE_TRACEPOINT
				   ? tpfmts_name(f, t->ev[i]->attr.config) : NULL;

		if (name)
			snprintf(t->ev[i]->sname, sizeof(t->ev[i]->sname), "%s", name);
	}
}

/* The event of sample id id, or NULL (evtab_by_id()'s, writable for the table's own). */
static struct evdesc *by_id(const struct evtab *t, uint64_t id)
{
	uint32_t i;

	return u64map_get(&t->ids, id, &i) && i < t->nr ? t->ev[i] : NULL;
}

void evtab_name_desc(struct evtab *t, const unsigned char *data, size_t len)
{
	uint32_t nr, asize;
	size_t off = 8;

	if (len < 8)
		return;
	memcpy(&nr, data, 4);
	memcpy(&asize, data + 4, 4);
	if (asize < 64 || asize > 4096)
		return;
	for (uint32_t k = 0; k < nr && off <= len; k++) {
		struct perf_event_attr a;
		uint32_t nids, slen;
		const char *str;
		struct evdesc *e = NULL;

		/* attr, u32 nr_ids, u32 string length, the string (NUL-padded), the ids */
		if (len - off < (size_t)asize + 8)
			return;
		memset(&a, 0, sizeof(a));
		memcpy(&a, data + off, asize < sizeof(a) ? asize : sizeof(a));
		off += asize;
		memcpy(&nids, data + off, 4);
		memcpy(&slen, data + off + 4, 4);
		off += 8;
		if (slen > len - off || (uint64_t)nids * 8 > len - off - slen)
			return;
		str = (const char *)data + off;
		off += slen;
		if (nids) {
			uint64_t id;

			memcpy(&id, data + off, 8);
			e = by_id(t, id);
		} else {
			for (size_t i = 0; !e && i < t->nr; i++)
				if (!memcmp(&t->ev[i]->attr, &a, sizeof(a)))
					e = t->ev[i];
		}
		off += (size_t)nids * 8;
		slen = (uint32_t)strnlen(str, slen);
		if (e && e->unnamed && slen) {
			/* a probe's path is as long as it is; the name is no more than the file holds */
			char *n = slen < sizeof(e->sname) ? e->sname : xmalloc((size_t)slen + 1);

			/* a file's bytes: no control byte reaches a terminal */
			for (uint32_t i = 0; i < slen; i++)
				n[i] = (unsigned char)str[i] < 0x20 || str[i] == 0x7f ? '?' : str[i];
			n[slen] = '\0';
			e->name = n;
			e->unnamed = 0;
		}
	}
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
		return t->ev[0];
	/* perf requires the id to sit where the first event's sample_type says. */
	st = t->ev[0]->attr.sample_type;
	if (h->type == PERF_RECORD_SAMPLE) {
		idx = (st & PERF_SAMPLE_IDENTIFIER) ? 0 : sample_id_index(st);
		if (idx < 0 || (size_t)idx >= nw)
			return NULL;
		id = w[idx];
	} else {
		if (!t->ev[0]->attr.sample_id_all)
			return t->ev[0];
		idx = (st & PERF_SAMPLE_IDENTIFIER) ? 1 : trailer_id_index(st);
		if (idx < 0 || (size_t)idx > nw)
			return NULL;
		id = w[nw - idx];
	}
	/* perf synthesizes records with a zeroed trailer: id 0 is the first event's. */
	if (!id)
		return t->ev[0];
	return evtab_by_id(t, id);
}

const struct evdesc *evtab_by_id(const struct evtab *t, uint64_t id)
{
	return by_id(t, id);
}

void evtab_modifiers(const struct perf_event_attr *a, char *buf, size_t len)
{
	size_t n = 0;

	if (len < 8)
		return;
	buf[0] = '\0';
	if (a->type == PERF_TYPE_TRACEPOINT || a->type == PERF_TYPE_BREAKPOINT)
		return;
	if (a->exclude_kernel && !a->exclude_user)
		n += (size_t)snprintf(buf + n, len - n, ":u");
	else if (a->exclude_user && !a->exclude_kernel)
		n += (size_t)snprintf(buf + n, len - n, ":k");
	else if (a->exclude_user && a->exclude_kernel && !a->exclude_hv)
		n += (size_t)snprintf(buf + n, len - n, ":h");
	/* a guest's alone (:G); the host, the default, is not said */
	if (a->exclude_host && !a->exclude_guest)
		n += (size_t)snprintf(buf + n, len - n, "%s", n ? "G" : ":G");
	for (unsigned i = 0; i < a->precise_ip && i < 3 && n + 2 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s", n ? "p" : ":p");
	if (a->exclude_idle && n + 2 < len)
		n += (size_t)snprintf(buf + n, len - n, "%s", n ? "I" : ":I");
}
