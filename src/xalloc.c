// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation wrappers. Out-of-memory is the one fatal error src/ knows:
 * no caller could do anything better than stop.
 */
#include "config.h"

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
