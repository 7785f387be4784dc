// SPDX-License-Identifier: GPL-2.0-or-later
// inline: a workload whose hot code is inlined. main -> outer() spends its
// time in inl_leaf(), which is always inlined into outer() (even under
// -fno-inline), so samples land in outer's code at lines of inl_leaf.
//   inline [-s SECONDS]
#include <unistd.h>

#include "workload.h"

static volatile unsigned long sink;

static inline __attribute__((always_inline)) void inl_leaf(void)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < 100000UL; i++)
		acc += i;
	sink += acc;
}

__attribute__((noinline)) void outer(double seconds);
__attribute__((noinline)) void outer(double seconds)
{
	double end = now() + seconds;

	do
		inl_leaf();
	while (now() < end);
}

static void usage(void)
{
	fprintf(stderr, "usage: inline [-s SECONDS]\n");
	exit(64);
}

int main(int argc, char **argv)
{
	double seconds = 1;
	int c;

	while ((c = getopt(argc, argv, "s:")) != -1) {
		if (c != 's')
			usage();
		seconds = parse_seconds(optarg, usage);
	}
	if (optind != argc)
		usage();
	outer(seconds);
	return 0;
}
