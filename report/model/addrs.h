/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Samples by the address they hit: for each sampled instruction (its dso
 * and its address there, as a frame gives it), the function it is in and
 * its offset there, and the samples and period that hit it. What
 * annotate and a per-line view read; a profile keeps it per event when
 * its options ask (profile_opts.addresses).
 */
#ifndef PROF_REPORT_ADDRS_H
#define PROF_REPORT_ADDRS_H

#include <stddef.h>
#include <stdint.h>

#include "htab.h"
#include "session.h"

struct addr_count {
	const struct dso *dso;		/* NULL: no map covered it */
	uint64_t addr;			/* as rframe.addr: an offset in dso, or the address */
	const char *func;		/* the function (not an inlined one), NULL unknown */
	uint64_t sym_offset;		/* the address's offset in func */
	int kernel;
	uint64_t samples, period;
};

struct addrs {
	struct addr_count *a;		/* in the order first hit */
	size_t n, cap;
	struct htab index;		/* a by (dso, addr) */
	uint64_t samples, period;	/* of the samples added (counted once each) */
};

struct addrs *addrs_new(void);
void addrs_free(struct addrs *t);
/*
 * Count s at the address it hit (its frames[0]); for time off the CPU, at
 * the instruction of each frame outside the kernel (each function once),
 * the call or syscall it waited in: a function's count is then the time
 * it waited, in itself or in what it called. Nothing for a sample with no
 * frame.
 */
void addrs_add(struct addrs *t, const struct rsample *s);
/*
 * Count s at the address it hit, whatever its event: that count's index
 * + 1 in t->a (0: no frame). The indexes stay while addrs_sorted() is not
 * called.
 */
size_t addrs_add_leaf(struct addrs *t, const struct rsample *s);
/* The counts, ordered by dso, then address (for a listing); valid until the next add. */
const struct addr_count *addrs_sorted(struct addrs *t, size_t *n);

#endif
