// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flat histogram's rows (hist.h) are one per value of its keys, as
 * perf's sort keys compare them, wherever the value's text was made: by
 * cgroup id, a thread with no NAMESPACES record and one whose record says
 * 0/0 (the kernel's answer for a task exiting) are one row, 0/0x0, as in
 * perf's sort__cgroup_id_cmp(), which compares dev and inode.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "tap.h"

static void add(struct hist *h, const char *ns, uint64_t period)
{
	struct rframe f;
	struct rsample s;

	memset(&f, 0, sizeof(f));
	memset(&s, 0, sizeof(s));
	s.comm = "shape";
	s.period = period;
	s.count = 1;
	s.nframes = 1;
	s.frames = &f;
	s.unwind_at = -1;
	s.cgroup_ns = ns;
	hist_add(h, &s);
}

int main(void)
{
	struct hist_opts o;
	struct hist *h;
	const struct hist_entry *const *e;
	char *zero = strdup("0/0x0"), *other = strdup("4/0xf0000151");
	size_t n, i, rows0 = 0;
	uint64_t self0 = 0;

	memset(&o, 0, sizeof(o));
	o.keys[0] = HIST_CGROUP_ID;
	o.nkeys = 1;
	h = hist_new(&o);
	add(h, NULL, 10);
	add(h, zero, 20);
	add(h, other, 40);
	add(h, NULL, 5);
	e = hist_sorted(h, &n);
	for (i = 0; i < n; i++) {
		if (!strcmp(hist_text(e[i], HIST_CGROUP_ID), "0/0x0")) {
			rows0++;
			self0 += e[i]->self;
		}
	}
	ok(n == 2, "two cgroup ids, two rows: %zu", n);
	ok(rows0 == 1 && self0 == 35, "0/0x0 is one row of 35: %zu rows of %llu", rows0,
	   (unsigned long long)self0);
	hist_free(h);
	free(zero);
	free(other);
	return tap_done();
}
