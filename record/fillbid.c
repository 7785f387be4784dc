// SPDX-License-Identifier: GPL-2.0-or-later
/* Build ids put into MMAP2 records. See fillbid.h. */
#include "config.h"

#include <limits.h>
#include <string.h>
#include <sys/mman.h>

#include "fillbid.h"
#include "mapfile.h"

int fillbid_filter(void *ctx, struct rec *r)
{
	const struct mmap_event *m = &r->k.mmap;
	const struct mapfile_bid *b;
	struct mapfile_bid vdso;
	char path[PATH_MAX];
	uint32_t mm[2];
	uint64_t ig[2];

	if ((r->h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) || r->h.size < 72 || !r->ok)
		return REC_KEEP;
	if ((m->prot & PROT_EXEC) && (int32_t)m->pid != -1 &&
	    mapfile_bid_vdso(m->name, m->name_len, m->start, &vdso)) {
		b = &vdso;	/* no file: the kernel said nothing */
		goto put;
	}
	if (!(m->prot & PROT_EXEC) || (int32_t)m->pid == -1 || !m->name_len ||
	    m->name[0] != '/' || !strncmp(m->name, "//", 2) || !strncmp(m->name, "/memfd:", 7) ||
	    m->name_len >= sizeof(path))
		return REC_KEEP;
	memcpy(path, m->name, m->name_len);
	path[m->name_len] = '\0';
	memcpy(mm, r->p + 40, 8);
	memcpy(ig, r->p + 48, 16);
	b = mapfile_bid_of(ctx, (int)m->pid, m->start, m->start + m->len, path, mm[0], mm[1],
			   ig[0], ig[1]);
	if (!b->len)
		return REC_KEEP;
put:
	r->h.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	memcpy(r->p, &r->h, sizeof(r->h));
	mapfile_bid_put(b, r->p + 40);
	rec_decode(r);	/* its build id, for the filters after */
	return REC_KEEP;
}
