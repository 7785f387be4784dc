// SPDX-License-Identifier: GPL-2.0-or-later
// calls: a program whose events are counted before it runs, for the
// tests of probes and data addresses.
//   calls [-n N] [-m M] [-t PAGES] [-h PAGES]
// calls counted() N times (from main, through twice() for every other
// one), malloc (and free) M times, writes to PAGES pages of its own
// static array arena (in .bss: each page faults in once), then to PAGES
// pages of a fresh anonymous mapping, and prints what it did.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "workload.h"

#define ARENA_PAGES 4096

volatile unsigned long g;
char arena[ARENA_PAGES * 4096UL];

__attribute__((noinline)) void counted(unsigned long i);
__attribute__((noinline)) void counted(unsigned long i)
{
	g += i;
}

__attribute__((noinline)) void twice(unsigned long i);
__attribute__((noinline)) void twice(unsigned long i)
{
	counted(i);
	counted(i + 1);
}

static void usage(void)
{
	fprintf(stderr, "usage: calls [-n N] [-m M] [-t PAGES (up to %d)] [-h PAGES]\n",
		ARENA_PAGES);
	exit(2);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		usage();
	return v;
}

int main(int argc, char **argv)
{
	unsigned long n = 0, m = 0, t = 0, h = 0, i;
	void *volatile p;

	for (int a = 1; a < argc; a += 2) {
		if (a + 1 >= argc)
			usage();
		if (!strcmp(argv[a], "-n"))
			n = number(argv[a + 1]);
		else if (!strcmp(argv[a], "-m"))
			m = number(argv[a + 1]);
		else if (!strcmp(argv[a], "-t"))
			t = number(argv[a + 1]);
		else if (!strcmp(argv[a], "-h"))
			h = number(argv[a + 1]);
		else
			usage();
	}
	if (t > ARENA_PAGES)
		usage();
	for (i = 0; i + 1 < n; i += 2)
		twice(i);
	if (i < n)
		counted(i);
	for (i = 0; i < m; i++) {
		p = malloc(32 + i % 64);
		free(p);
	}
	for (i = 0; i < t; i++)
		arena[i * 4096] = 1;
	if (h) {
		char *q = mmap(NULL, h * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (q == MAP_FAILED) {
			perror("calls: mmap");
			return 1;
		}
		for (i = 0; i < h; i++)
			q[i * 4096] = 1;
	}
	printf("calls: counted %lu, malloc %lu, arena %lu pages, anonymous %lu pages\n", n, m, t, h);
	return 0;
}
