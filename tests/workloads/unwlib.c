// SPDX-License-Identifier: GPL-2.0-or-later
// unwlib: the shared-library half of the unwind workload, built -O2
// -fomit-frame-pointer like a distribution library: frame pointers cannot
// walk through it, DWARF CFI can.
#include "unwlib.h"

volatile unsigned long unw_sink;

/* noinline and a use of each result after the call: every function keeps
 * its frame on the stack, neither inlined nor a sibling call. */
__attribute__((noinline)) unsigned long unw_leaf(unsigned long n)
{
	unsigned long x = 1;

	for (unsigned long i = 0; i < n; i++)
		x = x * 2862933555777941757UL + i;
	unw_sink = x;
	return x;
}

__attribute__((noinline)) unsigned long unw_mid(unsigned long n)
{
	unsigned long r = unw_leaf(n);

	unw_sink += r;
	return r ^ n;
}
