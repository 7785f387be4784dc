// SPDX-License-Identifier: GPL-2.0-or-later
// clocks: a program that lives in the vDSO. main -> ticks() calls
// clock_gettime(CLOCK_MONOTONIC_COARSE) and time(), which the kernel's
// vDSO answers from its data page without a system call, whatever the
// clock source (the fine clocks fall back to one where the TSC is not
// usable): nearly all samples fall in __vdso_clock_gettime, __vdso_time
// and glibc's clock_gettime, time and ticks around them.
//   clocks [-s SECONDS]
#include <stdio.h>
#include <stdlib.h>

#include "workload.h"

volatile unsigned long g;

__attribute__((noinline)) void ticks(void);
__attribute__((noinline)) void ticks(void)
{
	struct timespec ts;

	for (int i = 0; i < 100000; i++) {
		clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
		g += (unsigned long)ts.tv_nsec + (unsigned long)time(NULL);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: clocks [-s SECONDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double secs = only_seconds(argc, argv, 1, usage), end = now() + secs;

	while (now() < end)
		ticks();
	return 0;
}
