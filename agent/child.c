// SPDX-License-Identifier: GPL-2.0-or-later
/* The recorder as prof top's and prof agent's child. See child.h. */
#include "config.h"

#include <stdlib.h>

#include "child.h"
#include "live.h"

void live_child_opts(struct record_opts *o)
{
	o->hold_dir = getenv(LIVE_HOLD_ENV);
	o->output = "-";
	o->no_compress = 1;
	o->quiet = 1;
	o->no_buildid_cache = 1;
	o->no_carry = 1;
	o->no_buildid_mmap = 1;
}
