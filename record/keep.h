/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files a report could not find later: a process's executable mappings
 * whose file is not the one at their path (deleted or replaced since, or
 * in another mount namespace: a container). While the process still maps
 * it, the file is copied through /proc/PID/map_files into perf's build-id
 * cache ($PERF_BUILDID_DIR, else ~/.debug: .build-id/ab/cdef.../elf),
 * where prof report (and perf report) look for a file by its build id.
 * Other files are left where they are: a report finds them at their path.
 */
#ifndef PROF_RECORD_KEEP_H
#define PROF_RECORD_KEEP_H

#include <stddef.h>
#include <stdint.h>

struct keep;

/* NULL when there is nowhere to keep files (no $HOME, no $PERF_BUILDID_DIR). */
struct keep *keep_new(void);
void keep_free(struct keep *k);

/*
 * Pid maps [start, start + len) of the file named name (name_len bytes, as
 * the MMAP2 record has it) with build id bid: keep its file if it is at
 * risk. Best effort and quiet: a process already gone keeps nothing. The
 * file is opened now, while the process maps it; the copy is queued. A
 * native "[vdso]" map (vdso.h) keeps this kernel's vDSO, once, as
 * .build-id/ab/cdef.../vdso: no path outlives the kernel it came with.
 */
void keep_mapping(struct keep *k, int pid, uint64_t start, uint64_t len, const char *name,
		  size_t name_len, const unsigned char *bid, size_t bid_len);

/*
 * Wait for the copies queued (keep_mapping() opens a file and hands it to
 * a thread of keep's own, which copies it: the recorder's drain loop never
 * waits on a copy). Before keep_count(); keep_free() does it too.
 */
void keep_finish(struct keep *k);

/* Files at risk copied so far (not the vDSO, which is always kept), and where to. */
uint64_t keep_count(struct keep *k);
const char *keep_dir(const struct keep *k);

struct rec;
/*
 * keep_mapping() as a record filter (record/drain.h), for MMAP2: a map of
 * code with its build id, while its process lives. ctx: the keep.
 */
int keep_filter(void *ctx, struct rec *r);

#endif
