/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record filter that cuts a sample's stack copy
 * (PERF_SAMPLE_STACK_USER) to what the kernel copied (drain.h). The record
 * always has room for the whole size asked, but only dyn_size bytes of it
 * are the stack; the rest is whatever the ring held before: compressing
 * it cost CPU, and storing it bytes. The record says its own size, which
 * perf reads too. With -g's few bytes of stack (no registers), kept for
 * the report's leaf repair where mend.c could not do it, the words that
 * cannot be return addresses go too (stored as 0): the report reads
 * return addresses there and stops at a word that is not in code the
 * process maps, as it stops at a 0. Locals, heap and stack pointers,
 * canaries and doubles are most of these bytes, and they compressed
 * worst. The zeros at the copy's end go as well (dyn_size says less, one
 * word at least): the repair stops at the end of a copy as at a 0, and
 * uncompressed (past --cpu-budget) they were a third of a lean file.
 */
#ifndef PROF_RECORD_TRIM_H
#define PROF_RECORD_TRIM_H

#include "codemap.h"
#include "drain.h"

/* The filter, for SAMPLE; ctx: -g's codemap, or NULL for --call-graph dwarf's stacks. */
int trim_filter(void *ctx, struct rec *r);

#endif
