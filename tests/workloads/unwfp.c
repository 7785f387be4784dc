// SPDX-License-Identifier: GPL-2.0-or-later
// unwfp: built without unwind tables or debug info, with frame pointers:
// no CFI covers fp_mid anywhere, so the unwinder gets past it only by its
// frame pointer, and marks the frame it finds that way.
#include "unwlib.h"

volatile unsigned long fp_sink;

__attribute__((noinline)) unsigned long fp_mid(unsigned long n)
{
	unsigned long r = unw_leaf(n);

	fp_sink += r;
	return r ^ n;
}
