// SPDX-License-Identifier: GPL-2.0-or-later
// leaf: frame pointers everywhere but in its leaves. Built with -O2
// -fno-omit-frame-pointer, as a distribution that keeps frame pointers
// builds: leaf_a and leaf_b touch no stack, so GCC gives them no frame,
// and a frame-pointer chain sampled in them skips their caller, mid.
// main -> mid -> leaf_a (2/3 of the time), leaf_b (1/3).
//   leaf [-s SECONDS]
#include <stdio.h>
#include <stdlib.h>

#include "workload.h"

volatile unsigned long g;

__attribute__((noinline)) void leaf_a(void);
__attribute__((noinline)) void leaf_a(void)
{
	for (unsigned long i = 0; i < 200000; i++)
		g += i;
}

__attribute__((noinline)) void leaf_b(void);
__attribute__((noinline)) void leaf_b(void)
{
	for (unsigned long i = 0; i < 100000; i++)
		g += i;
}

__attribute__((noinline)) void mid(void);
__attribute__((noinline)) void mid(void)
{
	leaf_a();
	leaf_b();
	g++;
}

static void usage(void)
{
	fprintf(stderr, "usage: leaf [-s SECONDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double secs = only_seconds(argc, argv, 1, usage), end = now() + secs;

	while (now() < end)
		mid();
	return 0;
}
