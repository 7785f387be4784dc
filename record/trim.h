/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record filter that cuts a sample's stack copy
 * (PERF_SAMPLE_STACK_USER) to what the kernel copied (drain.h). The record
 * always has room for the whole size asked, but only dyn_size bytes of it
 * are the stack; the rest is whatever the ring held before: compressing
 * it cost CPU, and storing it bytes. The record says its own size, which
 * perf reads too. With -g's few bytes of stack (no registers), kept for
 * the report's leaf repair where mend.c could not do it, the words after
 * the last that may be a return address go too (dyn_size says less, one
 * word at least): the report reads return addresses there and stops at a
 * word that is not in code the process maps, as at a 0 and at the copy's
 * end; uncompressed (past --cpu-budget) they were a third of a lean
 * file. When compressing, the words before it that cannot be return
 * addresses are stored as 0 (struct trim): locals, heap and stack
 * pointers, canaries and doubles are most of these bytes, and they
 * compressed worst.
 */
#ifndef PROF_RECORD_TRIM_H
#define PROF_RECORD_TRIM_H

#include "codemap.h"
#include "drain.h"

struct trim {
	struct codemap *code;	/* -g's: where code may be; NULL: --call-graph dwarf's stacks, kept whole */
	/*
	 * -g's words before the last that may return zeroed too where they
	 * cannot: for zstd, which compressed them worst; stored as they
	 * come (past --cpu-budget, --no-compress, a live reader's stream),
	 * they are left as they are, and not looked up.
	 */
	int zero_all;
};

/* The filter, for SAMPLE; ctx: a struct trim. */
int trim_filter(void *ctx, struct rec *r);

#endif
