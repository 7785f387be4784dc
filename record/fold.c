// SPDX-License-Identifier: GPL-2.0-or-later
/* Switch-outs folded into their samples. See fold.h. */
#include "config.h"

#include <string.h>

#include "fold.h"
#include "pdata.h"

void fold_init(struct fold *f, const uint64_t *ids, size_t nr_ids)
{
	memset(f, 0, sizeof(*f));
	f->ids = ids;
	f->nr_ids = nr_ids;
}

/* Whether a sample (IDENTIFIER first) is of the context-switches event. */
static int switch_sample(const struct fold *f, const struct rec *r)
{
	uint64_t id;

	if (r->h.size < 16)
		return 0;
	memcpy(&id, r->p + 8, 8);
	for (size_t i = 0; i < f->nr_ids; i++)
		if (f->ids[i] == id)
			return 1;
	return 0;
}

/* Fold switch-out record r into the sample smp, when it is that sample's: 1 when folded. */
static int fold_into(unsigned char *smp, const struct rec *r)
{
	struct perf_event_header sh;
	uint32_t pt[2];

	if ((r->h.type != PERF_RECORD_SWITCH && r->h.type != PERF_RECORD_SWITCH_CPU_WIDE) ||
	    !(r->h.misc & PERF_RECORD_MISC_SWITCH_OUT) || !r->ok ||
	    !(r->s.present & PERF_SAMPLE_TID))
		return 0;
	memcpy(&sh, smp, sizeof(sh));
	/* IDENTIFIER, IP, then TID: the thread the sample is of */
	if (sh.size < 32 || (sh.misc & (PDATA_MISC_SAMPLE_SWITCH_OUT | PDATA_MISC_SAMPLE_PREEMPT)))
		return 0;
	memcpy(pt, smp + 24, 8);
	if (pt[0] != r->s.pid || pt[1] != r->s.tid)
		return 0;
	sh.misc |= PDATA_MISC_SAMPLE_SWITCH_OUT;
	if (r->k.preempt)
		sh.misc |= PDATA_MISC_SAMPLE_PREEMPT;
	memcpy(smp, &sh, sizeof(sh));
	return 1;
}

int fold_filter(void *ctx, struct rec *r)
{
	struct fold *f = ctx;
	int was = f->cs;

	f->cs = 0;
	if (was && f->cs_chunk == r->chunk && fold_into(r->out + f->cs_at, r))
		return REC_DROP;
	if (r->h.type == PERF_RECORD_SAMPLE && switch_sample(f, r)) {
		f->cs = 1;
		f->cs_at = r->at;
		f->cs_chunk = r->chunk;
	}
	return REC_KEEP;
}
