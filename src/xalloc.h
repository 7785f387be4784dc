/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation that cannot fail: on out-of-memory these print one line and
 * exit(1). Every count * size product is checked for overflow.
 */
#ifndef PROF_XALLOC_H
#define PROF_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
/* Like reallocarray(3): the old block is kept on failure, so this dies. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
/*
 * Room for need items of size in ptr, which holds *cap: grown by doubling
 * (*cap updated), for arrays that arrive one item at a time, so that n
 * items cost O(n) copies, not O(n^2). Returns the array.
 */
void *xgrow(void *ptr, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
/* size bytes aligned to align, a power of two; free() frees them. */
void *xaligned_alloc(size_t align, size_t size);
/*
 * xcalloc() for a table looked up at random (hash slots): from
 * HUGE_BYTES on, aligned to it and advised to be huge pages
 * (MADV_HUGEPAGE), so that a look-up costs no TLB miss and filling it a
 * fault per 2 MiB, not per 4 KiB. free() frees it.
 */
#define HUGE_BYTES ((size_t)2 << 20)
void *xcalloc_huge(size_t nmemb, size_t size);
/*
 * xreallocarray(NULL, n, size) for a big array filled as it is used (the
 * call tree's chunks of nodes): huge pages as xcalloc_huge()'s, not
 * zeroed. free() frees it.
 */
void *xmalloc_huge(size_t nmemb, size_t size);

/*
 * For a command that fills tables as it reads a profile (one arena, see
 * main()): from here on the heap grows in big steps and is kept, and big
 * blocks beyond its top are mappings of their own. Call before any
 * thread starts.
 */
void xalloc_report_heap(void);

#endif
