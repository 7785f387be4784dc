// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation wrappers. Out-of-memory is the one fatal error src/ knows:
 * no caller could do anything better than stop.
 */
#include "config.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "xalloc.h"

static void oom(size_t nmemb, size_t size)
{
	fprintf(stderr, "prof: out of memory allocating %zu x %zu bytes\n",
		nmemb, size);
	exit(1);
}

/*
 * The heap of the commands that read a profile (xalloc_report_heap()).
 * Their tables, sums, call tree and strings grow to tens of megabytes.
 * With glibc's defaults the heap is trimmed whenever 128 KiB of its top
 * is free and grown again (63 brk() calls in a 4x -g caller report, 4
 * with these settings), and the mmap threshold moves with what was freed.
 *
 * Not huge pages for the heap: MADV_HUGEPAGE on it cut the faults
 * 10,100 -> 1,500, but on a VM that gives free memory back to its host
 * (virtio-balloon free page reporting, of free blocks of 2 MiB and more)
 * a huge page is often one the host must back again, 4 KiB at a time.
 * Run between perf reports, as bench-scale runs them, clear_page_erms
 * took 36-41% of the slow runs, and the system time of a 16x -g caller
 * report was 0.202 s against 0.106 in small pages (4x: 0.115, 0.048).
 * See DESIGN.md, "That arena's heap".
 */
#define HEAP_MMAP ((size_t)1 << 20)

void xalloc_report_heap(void)
{
	/*
	 * The heap grows 64 MiB at once (address space, not memory: a page
	 * is memory once touched) and is kept; a block from HEAP_MMAP up
	 * that does not fit in the heap's top is a mapping of its own, which
	 * free() gives back, not a bigger heap kept after it is freed.
	 * malloc() takes such a block from the top while the top has room
	 * (glibc asks the mmap threshold only when it has none).
	 */
	mallopt(M_MMAP_THRESHOLD, HEAP_MMAP);
	mallopt(M_TOP_PAD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(1, size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb, size);
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
