// SPDX-License-Identifier: GPL-2.0-or-later
// unwind: a workload without frame pointers. main -> outer() -> unw_mid()
// -> unw_leaf(), the last two in a shared library of its own (unwlib), all
// built -O2 -fomit-frame-pointer: with -g the call chains break, with
// --call-graph dwarf they are whole. -m picks the middle function:
//   eh          unw_mid, CFI in .eh_frame (the default)
//   debugframe  dbf_mid (libunwdbf.so), CFI only in .debug_frame of a
//               separate debug file
//   fp          fp_mid (libunwfp.so), no CFI, frame pointers
//   signal      sig_mid, which raises SIGUSR1, whose handler on_signal
//               calls unw_leaf: the stack goes through the kernel's
//               signal frame (glibc's __restore_rt, CFI expressions)
//   unwind [-s SECONDS] [-m eh|debugframe|fp|signal]
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unwlib.h"
#include "workload.h"

static volatile unsigned long sink;

static void usage(void)
{
	fprintf(stderr, "usage: unwind [-s SECONDS] [-m eh|debugframe|fp|signal]\n");
	exit(64);
}

static volatile unsigned long sig_n, sig_r;

void on_signal(int sig);
void on_signal(int sig)
{
	(void)sig;
	sig_r = unw_leaf(sig_n);
}

__attribute__((noinline)) unsigned long sig_mid(unsigned long n);
__attribute__((noinline)) unsigned long sig_mid(unsigned long n)
{
	sig_n = n;
	raise(SIGUSR1);
	return sig_r ^ n;
}

static unsigned long (*mid)(unsigned long) = unw_mid;

__attribute__((noinline)) unsigned long outer(unsigned long n);
__attribute__((noinline)) unsigned long outer(unsigned long n)
{
	unsigned long r = mid(n);

	sink += r;
	return r + 1;
}

int main(int argc, char **argv)
{
	double seconds = 2, end;
	int c;

	while ((c = getopt(argc, argv, "s:m:")) != -1) {
		if (c == 's')
			seconds = parse_seconds(optarg, usage);
		else if (c == 'm' && !strcmp(optarg, "eh"))
			mid = unw_mid;
		else if (c == 'm' && !strcmp(optarg, "debugframe"))
			mid = dbf_mid;
		else if (c == 'm' && !strcmp(optarg, "fp"))
			mid = fp_mid;
		else if (c == 'm' && !strcmp(optarg, "signal"))
			mid = sig_mid;
		else
			usage();
	}
	signal(SIGUSR1, on_signal);
	end = now() + seconds;
	do
		sink += outer(200000);
	while (now() < end);
	return 0;
}
