// SPDX-License-Identifier: GPL-2.0-or-later
/* A sample's data source in words. See datasrc.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "datasrc.h"

/* Append the names of the bits set in v (bit i: names[i]), '|' first unless at the start. */
static size_t bits(char *buf, size_t size, size_t n, uint64_t v, const char *const *names,
		   size_t nnames, const char *joiner)
{
	int first = 1;

	for (size_t i = 0; i < nnames && n < size; i++) {
		if (!(v >> i & 1) || !names[i])
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s", first ? (n ? "|" : "") : joiner,
				      names[i]);
		first = 0;
	}
	return n < size ? n : size - 1;
}

const char *datasrc_text(uint64_t v, char *buf, size_t size)
{
	/* the fields of union perf_mem_data_src, lowest first (little-endian) */
	static const char *const op[] = { NULL, "Load", "Store", "Prefetch", "Exec" };
	static const char *const lvl[] = {
		NULL, NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM",
		"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached",
	};
	static const char *const snoop[] = { NULL, "Snoop None", "Snoop Hit", "Snoop Miss",
					     "Snoop HitM" };
	static const char *const lock[] = { NULL, "Locked" };
	static const char *const tlb[] = { NULL, "TLB Hit", "TLB Miss", "L1 TLB", "L2 TLB",
					   "TLB Walker", "TLB Fault" };
	uint64_t o = v & 0x1f, l = v >> 5 & 0x3fff, sn = v >> 19 & 0x1f, lk = v >> 24 & 3,
		 t = v >> 26 & 0x7f;
	size_t n = 0;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	if (!v || v == ((uint64_t)PERF_MEM_OP_NA | (uint64_t)PERF_MEM_LVL_NA << 5 |
			(uint64_t)PERF_MEM_SNOOP_NA << 19 | (uint64_t)PERF_MEM_LOCK_NA << 24 |
			(uint64_t)PERF_MEM_TLB_NA << 26)) {
		snprintf(buf, size, "N/A");
		return buf;
	}
	n = bits(buf, size, n, o, op, sizeof(op) / sizeof(op[0]), " or ");
	n = bits(buf, size, n, l, lvl, sizeof(lvl) / sizeof(lvl[0]), " or ");
	if ((l & (PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS)) && n + 6 < size)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", l & ~(uint64_t)7 ? " " : n ? "|" : "",
				      l & PERF_MEM_LVL_HIT ? "hit" : "miss");
	n = bits(buf, size, n, sn, snoop, sizeof(snoop) / sizeof(snoop[0]), " or ");
	n = bits(buf, size, n, lk, lock, sizeof(lock) / sizeof(lock[0]), " ");
	bits(buf, size, n, t, tlb, sizeof(tlb) / sizeof(tlb[0]), " ");
	if (!buf[0])
		snprintf(buf, size, "N/A");
	return buf;
}
