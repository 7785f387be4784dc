// SPDX-License-Identifier: GPL-2.0-or-later
/* The drained records, decoded once, through the record filters. See drain.h. */
#include "config.h"

#include <string.h>

#include "drain.h"
#include "ring.h"

void drain_init(struct drain *d, const struct perf_event_attr *attr)
{
	memset(d, 0, sizeof(*d));
	d->attr = attr;
}

void drain_add(struct drain *d, const char *name, uint64_t types, rec_filter_fn fn, void *ctx)
{
	if (d->nf == DRAIN_MAX_FILTERS)
		return;
	d->f[d->nf].name = name;
	d->f[d->nf].types = types;
	d->f[d->nf].fn = fn;
	d->f[d->nf++].ctx = ctx;
}

int rec_decode(struct rec *r)
{
	const struct perf_event_header *h = (const struct perf_event_header *)r->p;

	memcpy(&r->h, r->p, sizeof(r->h));
	if (r->h.type == PERF_RECORD_SAMPLE)
		r->ok = !decode_sample(r->attr, h, &r->s);
	else
		r->ok = r->h.type < 64 && !decode_kernel(r->attr, h, &r->k, &r->s);
	return r->ok ? 0 : -1;
}

/* What the drain counts of a record: samples, losses, throttling. */
static void count(struct drain *d, const struct rec *r)
{
	switch (r->h.type) {
	case PERF_RECORD_SAMPLE:
		d->samples++;
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		if (r->ok)
			d->lost += r->k.lost;
		break;
	case PERF_RECORD_THROTTLE:
		d->throttled++;
		break;
	}
}

size_t drain_chunk(struct drain *d, const unsigned char *src, size_t len, unsigned char *dst,
		   size_t *used)
{
	size_t off = 0, w = 0;

	d->chunks++;
	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		struct rec r;
		int keep = REC_KEEP;

		memcpy(&h, src + off, sizeof(h));
		if (!rec_whole(&h, len - off))
			break;
		/*
		 * copied first, to where it stays if kept: the filters rewrite
		 * the copy, and a record dropped or cut is written over by the
		 * next (in place, dst is src and the record moves down)
		 */
		if (dst + w != src + off)
			memmove(dst + w, src + off, h.size);
		r.attr = d->attr;
		r.p = dst + w;
		r.out = dst;
		r.at = w;
		r.chunk = d->chunks;
		rec_decode(&r);
		count(d, &r);
		for (int i = 0; i < d->nf && keep == REC_KEEP; i++)
			if (d->f[i].types & REC_TYPE(r.h.type & 63))
				keep = d->f[i].fn(d->f[i].ctx, &r);
		if (keep == REC_KEEP) {
			w += r.h.size;
			d->kept_samples += r.h.type == PERF_RECORD_SAMPLE;
		}
		off += h.size;
	}
	*used = off;
	return w;
}
