/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record filter that folds a switch-out into its sample (drain.h):
 * with --off-cpu, a SWITCH (or SWITCH_CPU_WIDE) out record right after its
 * thread's context-switches sample says what the sample says (who, when:
 * the kernel writes both in one call) and one bit more, preempted or not:
 * that bit goes into the sample's misc (PDATA_MISC_SAMPLE_*), and the
 * record goes. Of --off-cpu's bytes a switch, the two SWITCH records were
 * most: their times do not compress.
 */
#ifndef PROF_RECORD_FOLD_H
#define PROF_RECORD_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "drain.h"

struct fold {
	const uint64_t *ids;		/* the context-switches event's sample ids */
	size_t nr_ids;
	int cs;				/* the record before was one of its samples */
	size_t cs_at;			/* ... going there, from rec.out */
	uint64_t cs_chunk;		/* ... in this chunk */
};

void fold_init(struct fold *f, const uint64_t *ids, size_t nr_ids);
/* The filter (ctx: the fold), for every record type: each may end a run. */
int fold_filter(void *ctx, struct rec *r);

#endif
