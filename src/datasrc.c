// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sample's data source in words. See datasrc.h. The words are perf's
 * (tools/perf/util/mem-events.c, as perf 6.1 prints them), checked value
 * by value against perf script by tests/run-report-mem.sh.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "datasrc.h"

/* union perf_mem_data_src's fields, lowest bit first (little-endian) */
#define F(v, at, bits)	((v) >> (at) & ((1ULL << (bits)) - 1))
#define OP(v)		F(v, 0, 5)
#define LVL(v)		F(v, 5, 14)
#define SNOOP(v)	F(v, 19, 5)
#define LOCK(v)		F(v, 24, 2)
#define TLB(v)		F(v, 26, 7)
#define LVLNUM(v)	F(v, 33, 4)
#define REMOTE(v)	F(v, 37, 1)
#define SNOOPX(v)	F(v, 38, 2)
#define BLK(v)		F(v, 40, 3)
#define HOPS(v)		F(v, 43, 3)

struct out {
	char *buf;
	size_t size, n;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (o->n + 1 >= o->size)
		return;
	va_start(ap, fmt);
	r = vsnprintf(o->buf + o->n, o->size - o->n, fmt, ap);
	va_end(ap);
	if (r > 0)
		o->n = o->n + (size_t)r < o->size ? o->n + (size_t)r : o->size - 1;
}

static struct out start(char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	return o;
}

/* the names of the bits set in m (bit i: names[i]), " or " between them; how many */
static int names(struct out *o, uint64_t m, const char *const *nm, size_t nn, int printed)
{
	for (size_t i = 0; m && i < nn; i++, m >>= 1)
		if (m & 1)
			put(o, "%s%s", printed++ ? " or " : "", nm[i]);
	return printed;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

const char *datasrc_op(uint64_t v, char *buf, size_t size)
{
	struct out o = start(buf, size);
	uint64_t op = OP(v);

	put(&o, "%s", op & PERF_MEM_OP_NA ? "N/A" : op & PERF_MEM_OP_LOAD ? "LOAD"
		      : op & PERF_MEM_OP_STORE ? "STORE" : op & PERF_MEM_OP_PFETCH ? "PFETCH"
		      : op & PERF_MEM_OP_EXEC ? "EXEC" : "No");
	return buf;
}

const char *datasrc_lvl(uint64_t v, char *buf, size_t size)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
		"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached",
	};
	/* levels by number; 1 to 8 are "L<n>" */
	static const char *const lvlnum[16] = {
		[9] = "CXL", [10] = "I/O", [11] = "Any cache", [12] = "LFB/MAB", [13] = "RAM",
		[14] = "PMEM", [15] = "N/A",
	};
	static const char *const hops[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	struct out o = start(buf, size);
	uint64_t m = LVL(v), hit = m & PERF_MEM_LVL_HIT, miss = m & PERF_MEM_LVL_MISS;
	int printed = 0;

	m &= ~(uint64_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS);
	if (REMOTE(v))
		put(&o, "Remote ");
	if (HOPS(v))
		/* a level by hops says where, and the level bits are not read */
		put(&o, "%s ", HOPS(v) < N(hops) ? hops[HOPS(v)] : "beyond a board");
	else
		printed = names(&o, m, lvl, N(lvl), 0);
	if (LVLNUM(v)) {
		unsigned n = (unsigned)LVLNUM(v);

		if (printed++)
			put(&o, " or ");
		if (lvlnum[n])
			put(&o, "%s", lvlnum[n]);
		else
			put(&o, "L%u", n);
	}
	if (!o.n)
		put(&o, "N/A");
	if (hit)
		put(&o, " hit");
	if (miss)
		put(&o, " miss");
	return buf;
}

const char *datasrc_snoop(uint64_t v, char *buf, size_t size)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	struct out o = start(buf, size);
	int printed = names(&o, SNOOP(v), snoop, N(snoop), 0);

	if (!names(&o, SNOOPX(v), snoopx, N(snoopx), printed))
		put(&o, "N/A");
	return buf;
}

const char *datasrc_tlb(uint64_t v, char *buf, size_t size)
{
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	struct out o = start(buf, size);
	uint64_t m = TLB(v);

	if (!names(&o, m & ~(uint64_t)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS), tlb, N(tlb), 0))
		put(&o, "N/A");
	if (m & PERF_MEM_TLB_HIT)
		put(&o, " hit");
	if (m & PERF_MEM_TLB_MISS)
		put(&o, " miss");
	return buf;
}

const char *datasrc_lock(uint64_t v, char *buf, size_t size)
{
	struct out o = start(buf, size);

	put(&o, "%s", LOCK(v) & PERF_MEM_LOCK_NA ? "N/A" : LOCK(v) & PERF_MEM_LOCK_LOCKED ? "Yes"
							  : "No");
	return buf;
}

const char *datasrc_blk(uint64_t v, char *buf, size_t size)
{
	struct out o = start(buf, size);
	uint64_t m = BLK(v);

	if (!m || (m & PERF_MEM_BLK_NA)) {
		put(&o, "N/A");
		return buf;
	}
	if (m & PERF_MEM_BLK_DATA)
		put(&o, "Data");
	if (m & PERF_MEM_BLK_ADDR)
		put(&o, "%sAddr", o.n ? " " : "");
	return buf;
}

const char *datasrc_text(uint64_t v, char *buf, size_t size)
{
	char f[6][128];

	snprintf(buf, size, "OP %s|LVL %s|SNP %s|TLB %s|LCK %s|BLK %s",
		 datasrc_op(v, f[0], sizeof(f[0])), datasrc_lvl(v, f[1], sizeof(f[1])),
		 datasrc_snoop(v, f[2], sizeof(f[2])), datasrc_tlb(v, f[3], sizeof(f[3])),
		 datasrc_lock(v, f[4], sizeof(f[4])), datasrc_blk(v, f[5], sizeof(f[5])));
	return buf;
}
