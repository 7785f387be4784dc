// SPDX-License-Identifier: GPL-2.0-or-later
// unwdbf: built without unwind tables but with -g, so its CFI is only in
// .debug_frame, and that is moved out to libunwdbf.so.debug beside it (a
// separate debug file found through .gnu_debuglink): the unwinder must
// read the separate debug file's .debug_frame to get past dbf_mid.
#include "unwlib.h"

volatile unsigned long dbf_sink;

__attribute__((noinline)) unsigned long dbf_mid(unsigned long n)
{
	unsigned long r = unw_leaf(n);

	dbf_sink += r;
	return r ^ n;
}
