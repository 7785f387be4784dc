// SPDX-License-Identifier: GPL-2.0-or-later
// unwind: a workload without frame pointers. main -> outer() -> unw_mid()
// -> unw_leaf(), the last two in a shared library of its own (unwlib), all
// built -O2 -fomit-frame-pointer: with -g the call chains break, with
// --call-graph dwarf they are whole.
//   unwind [-s SECONDS]
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unwlib.h"
#include "workload.h"

static volatile unsigned long sink;

static void usage(void)
{
	fprintf(stderr, "usage: unwind [-s SECONDS]\n");
	exit(64);
}

__attribute__((noinline)) unsigned long outer(unsigned long n);
__attribute__((noinline)) unsigned long outer(unsigned long n)
{
	unsigned long r = unw_mid(n);

	sink += r;
	return r + 1;
}

int main(int argc, char **argv)
{
	double seconds = 2, end;
	int c;

	while ((c = getopt(argc, argv, "s:")) != -1) {
		if (c == 's')
			seconds = parse_seconds(optarg, usage);
		else
			usage();
	}
	end = now() + seconds;
	do
		sink += outer(200000);
	while (now() < end);
	return 0;
}
