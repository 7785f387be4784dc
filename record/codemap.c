// SPDX-License-Identifier: GPL-2.0-or-later
/* Where code may be (codemap.h). */
#include "config.h"

#include <string.h>
#include <linux/perf_event.h>

#include "codemap.h"

#define GRANULE_SHIFT	16
/*
 * Granules one mapping may add (4 GiB of them), and the whole map's:
 * 256K, about 6 MB. Nothing leaves the map, and under process churn (a
 * system-wide recording of short programs under ASLR) it took 10K new
 * granules a second: with 4M it grew the recorder by 0.5 MB a second for
 * minutes, to about 100 MB, and its adds were 8% of the recorder's CPU.
 * Full, it answers "may be code" everywhere, which costs little: the
 * zeroed words saved 8.9 bytes a kept stack, and with the leaf repair in
 * the recorder 1-2% of -g samples keep one (under 1% of the file).
 */
#define MAP_GRANULES	((uint64_t)1 << 16)
#define ALL_GRANULES	((size_t)1 << 18)

void codemap_init(struct codemap *m)
{
	u64map_init(&m->g);
	m->full = 0;
	memset(m->seen, 0, sizeof(m->seen));
	memset(m->maybe, 0, sizeof(m->maybe));
}

/* Granule g's slot in seen. */
static size_t seen_slot(uint64_t g)
{
	return (size_t)(htab_mix(g) >> (64 - CODEMAP_SEEN_BITS));
}

/* Granule g's bit in maybe (other bits of its hash than its slot's). */
static size_t maybe_bit(uint64_t g)
{
	return (size_t)(htab_mix(g) >> (64 - CODEMAP_SEEN_BITS - CODEMAP_MAYBE_BITS)) &
	       (((size_t)1 << CODEMAP_MAYBE_BITS) - 1);
}

void codemap_release(struct codemap *m)
{
	u64map_release(&m->g);
}

void codemap_add(struct codemap *m, uint64_t start, uint64_t len)
{
	uint64_t first, last;

	if (m->full || !len || start >= (uint64_t)1 << 56)
		return;	/* the kernel's text and the like: no user word is there */
	first = start >> GRANULE_SHIFT;
	last = (start + len - 1 < start ? UINT64_MAX : start + len - 1) >> GRANULE_SHIFT;
	if (last - first >= MAP_GRANULES) {
		m->full = 1;	/* too big to list: say "maybe" everywhere */
		return;
	}
	for (uint64_t g = first; g <= last; g++) {
		if (m->g.t.used >= ALL_GRANULES) {
			m->full = 1;
			return;
		}
		/* a granule seen missing is not missing now */
		if (u64map_add(&m->g, g, 0) && m->seen[seen_slot(g)] >> 2 == g)
			m->seen[seen_slot(g)] = 0;
		m->maybe[maybe_bit(g) / 64] |= (uint64_t)1 << (maybe_bit(g) % 64);
	}
}

int codemap_has(struct codemap *m, uint64_t a)
{
	uint64_t g = a >> GRANULE_SHIFT, *e;
	uint32_t v;
	int in;

	if (m->full)
		return 1;
	e = &m->seen[seen_slot(g)];
	if (*e >> 2 == g && (*e & 2))
		return (int)(*e & 1);
	in = (m->maybe[maybe_bit(g) / 64] >> (maybe_bit(g) % 64) & 1) && u64map_get(&m->g, g, &v);
	*e = g << 2 | 2 | (uint64_t)in;
	return in;
}

int codemap_may_return(struct codemap *m, uint64_t w)
{
	return w >= 0x10000 && (!(w >> 56) || (w & ~0xfffULL) == 0xffffffffff600000ULL) &&
	       codemap_has(m, w - 1);
}

void codemap_record(struct codemap *m, const unsigned char *rec, size_t len)
{
	struct perf_event_header h;
	uint64_t start, size;

	if (len < sizeof(h) + 24)
		return;
	memcpy(&h, rec, sizeof(h));
	if ((h.type != PERF_RECORD_MMAP && h.type != PERF_RECORD_MMAP2) ||
	    (h.misc & PERF_RECORD_MISC_MMAP_DATA))
		return;		/* data (-d, --call-graph dwarf) holds no code */
	/* pid, tid, then addr and len: the same place in both */
	memcpy(&start, rec + sizeof(h) + 8, 8);
	memcpy(&size, rec + sizeof(h) + 16, 8);
	codemap_add(m, start, size);
}
