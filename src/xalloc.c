// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation wrappers. Out-of-memory is the one fatal error src/ knows:
 * no caller could do anything better than stop.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xalloc.h"

static void oom(size_t nmemb, size_t size)
{
	fprintf(stderr, "prof: out of memory allocating %zu x %zu bytes\n",
		nmemb, size);
	exit(1);
}

/*
 * Huge pages for the commands that read a profile (xalloc_huge_heap()).
 * Their tables, sums, call tree and strings grow to tens of megabytes a
 * page at a time: 10,000 faults for a 115K-sample system-wide -g caller
 * report, a sixth of its CPU (the fault, the cgroup's charge, clearing
 * the page). Advised to be huge pages (MADV_HUGEPAGE), memory faults in
 * 2 MiB at a time: the heap past its first HEAP_SMALL (so that a small
 * report keeps its small peak), and each block of HEAP_MMAP or more
 * that malloc mapped on its own. malloc() takes such a block from the
 * heap's top while the top has room, and maps it only when it has none
 * (glibc asks the mmap threshold only then): a mapping, not a bigger
 * heap, which free() gives back (with the threshold at 32 MiB the heap
 * grew for them, and the hostile 200,000-stack pprof report peaked at
 * 227 MiB, not 186).
 */
#define HEAP_SMALL ((uintptr_t)4 << 20)
#define HEAP_MMAP ((size_t)1 << 20)
static int heap_huge;
static uintptr_t heap_advised;	/* the end of the heap advised so far */

/* The heap's end past heap_advised, advised; by any thread, any number of times. */
static uintptr_t heap_advise_now(void)
{
	uintptr_t end = (uintptr_t)sbrk(0), from = __atomic_load_n(&heap_advised, __ATOMIC_RELAXED);

	if (end == (uintptr_t)-1 || end <= from)
		return end;
	__atomic_store_n(&heap_advised, end, __ATOMIC_RELAXED);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)from, end - from, MADV_HUGEPAGE);	/* only advice: none is fine */
#endif
	return end;
}

/* After an allocation: sbrk(0) reads a variable, and the heap seldom grows. */
static inline void heap_advise(void *p, size_t size)
{
	uintptr_t end;

	if (!__atomic_load_n(&heap_huge, __ATOMIC_RELAXED))
		return;
	end = heap_advise_now();
#ifdef MADV_HUGEPAGE
	if (size >= HEAP_MMAP && (uintptr_t)p > end) {
		/* a mapping of its own (above the heap): all of it, so that it stays one */
		uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;

		(void)madvise((void *)a, (uintptr_t)p + size - a, MADV_HUGEPAGE);
	}
#else
	(void)p;
	(void)size;
#endif
}

void xalloc_huge_heap(void)
{
	/*
	 * The heap grows 64 MiB at once (address space, not memory: a page
	 * is memory once touched) and is kept, so that it grows seldom and
	 * its advice holds; past its top, blocks from HEAP_MMAP up are
	 * mapped, not added to it.
	 */
	mallopt(M_MMAP_THRESHOLD, HEAP_MMAP);
	mallopt(M_TOP_PAD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	heap_advised = ((uintptr_t)sbrk(0) + HEAP_SMALL + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
	__atomic_store_n(&heap_huge, 1, __ATOMIC_RELAXED);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(1, size);
	heap_advise(p, size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb, size);
	heap_advise(p, nmemb * size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		oom(nmemb, size);
	p = realloc(ptr, nmemb && size ? nmemb * size : 1);
	if (!p)
		oom(nmemb, size);
	heap_advise(p, nmemb * size);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void *xaligned_alloc(size_t align, size_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, align, size ? size : 1))
		oom(1, size);
	return p;
}

void *xmalloc_huge(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n, size, &bytes))
		oom(n, size);
	if (bytes < HUGE_BYTES)
		return xreallocarray(NULL, n, size);
	p = xaligned_alloc(HUGE_BYTES, bytes);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, bytes, MADV_HUGEPAGE);	/* only advice: none is fine */
#endif
	return p;
}

void *xcalloc_huge(size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		oom(n, size);
	if (bytes < HUGE_BYTES)
		return xcalloc(n, size);
	return memset(xmalloc_huge(n, size), 0, bytes);
}

void *xgrow(void *ptr, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap;

	if (need <= c)
		return ptr;
	c = c < 8 ? 8 : c;
	while (c < need)
		c = c > SIZE_MAX / 2 ? need : 2 * c;
	ptr = xreallocarray(ptr, c, size);
	*cap = c;
	return ptr;
}
