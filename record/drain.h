/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the recorder does to the records it drains, between the rings
 * and the writer: each record of a ring's chunk, copied once into the
 * writer's buffer, is decoded there once (a sample's fields, or a kernel
 * record's body and sample_id trailer) and handed to a table of record
 * filters, one file each, in the order they were added: the leaf repair
 * (mend.c), the stack copy cut to what was copied (trim.c), switch-outs
 * folded into their samples (fold.c), build ids put into MMAP2
 * (fillbid.c), files kept (keep.c), held for a live reader (hold.c) and
 * JIT files carried (carry.c). A filter sees the records of the types it
 * asked for; it may rewrite a record in place, shorten it, or drop it;
 * each record is copied to where the one kept before it ends. The drain
 * counts samples, losses and throttling itself.
 */
#ifndef PROF_RECORD_DRAIN_H
#define PROF_RECORD_DRAIN_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "decode.h"

/* A record as the filters see it. */
struct rec {
	const struct perf_event_attr *attr;	/* its event's layout */
	unsigned char *p;		/* the record, 8-aligned; a filter may rewrite it */
	struct perf_event_header h;	/* its header as it is now (a cut shortens size) */
	int ok;				/* decoded: s (and k) describe it */
	struct sample s;		/* SAMPLE: its fields; else its sample_id trailer */
	struct kevent k;		/* not SAMPLE: its body */
	unsigned char *out;		/* where the chunk's kept records go, from the first */
	size_t at;			/* where this one goes, from out */
	uint64_t chunk;			/* which chunk it is of: a run of records ends with one */
};

enum { REC_KEEP, REC_DROP };

/* A filter: REC_KEEP or REC_DROP (the record goes; later filters do not see it). */
typedef int (*rec_filter_fn)(void *ctx, struct rec *r);

#define DRAIN_MAX_FILTERS 8

struct drain {
	const struct perf_event_attr *attr;	/* every event's, alike in layout */
	struct {
		const char *name;
		uint64_t types;			/* 1 << PERF_RECORD_* it sees */
		rec_filter_fn fn;
		void *ctx;
	} f[DRAIN_MAX_FILTERS];
	int nf;
	uint64_t chunks;
	uint64_t samples, lost, throttled;
	uint64_t kept_samples;			/* SAMPLE records the filters kept */
};

#define REC_TYPE(t) (1ULL << (t))
#define REC_ALL (~0ULL)

void drain_init(struct drain *d, const struct perf_event_attr *attr);
/* Add a filter after those there are. */
void drain_add(struct drain *d, const char *name, uint64_t types, rec_filter_fn fn, void *ctx);
/* r (its header, and s or k) decoded again after a filter rewrote it: 0, or -1 (r->ok 0). */
int rec_decode(struct rec *r);
/*
 * The records of a chunk of len bytes at src through the filters, those
 * kept copied to dst (at least len bytes; src itself, or a buffer apart):
 * the length they take there. One copy a record, which the filters then
 * rewrite: the worker drains a ring's copy straight into the writer's
 * buffer. *used is how much of src was whole records (all of it, but for
 * a kernel bug).
 */
size_t drain_chunk(struct drain *d, const unsigned char *src, size_t len, unsigned char *dst,
		   size_t *used);

#endif
