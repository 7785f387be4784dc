/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record filter that gives an MMAP2 of code its file's build id
 * (drain.h), when it came without one (a system-wide recording asks the
 * kernel for none: evopen.c; kernels before 5.12 give none): read here,
 * once a file (mapfile.h), while the process most likely still maps it,
 * and put where the kernel puts it (PERF_RECORD_MISC_MMAP_BUILD_ID, the
 * size byte and 20 bytes over maj, min, ino and ino_generation), so that
 * reports, perf's too, and the filters after it (keep.c) see it as the
 * kernel's. A "[vdso]" map, which the kernel never gives one, gets this
 * kernel's vDSO's (mapfile_bid_vdso()), as perf's build-id table has it.
 */
#ifndef PROF_RECORD_FILLBID_H
#define PROF_RECORD_FILLBID_H

#include "drain.h"

/* The filter, for MMAP2; ctx: the recorder's struct mapfile_bids. */
int fillbid_filter(void *ctx, struct rec *r);

#endif
