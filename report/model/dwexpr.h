/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A CFI expression (DWARF 5 section 6.4.2: no calls, no TLS), the ops
 * libdw hands out for CFA and register rules, evaluated on a frame's
 * registers and memory as its caller reads them: the unwinder's
 * (unwind.c), apart from where the registers and bytes come from.
 */
#ifndef PROF_REPORT_DWEXPR_H
#define PROF_REPORT_DWEXPR_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct dwexpr_env {
	/* register r's value: 0, or -1 when unknown */
	int (*reg)(const void *ctx, unsigned r, uint64_t *out);
	/* the 8 bytes at addr: 0, or -1 when they cannot be read */
	int (*read)(const void *ctx, uint64_t addr, uint64_t *out);
	uint64_t cfa;			/* DW_OP_call_frame_cfa's */
	const void *ctx;
};

/*
 * ops on a stack seeded with nothing (a CFA's rule) or the CFA (a
 * register's, whose first op pushes it): 0 and the top in *out, or -1
 * (an op it does not take, a stack over- or underflow, a register or
 * byte unknown).
 */
int dwexpr_eval(const struct dwexpr_env *env, const Dwarf_Op *ops, size_t nops, uint64_t *out);

#endif
