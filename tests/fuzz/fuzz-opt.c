// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the option parser (src/opt.h) with the tables
 * users meet most: prof record's (record/opts.c: targets, events and
 * their modifiers, call graphs, sizes, CPU lists) and the view options
 * report and diff share (cmd/viewopts.c: sort keys, graphs, filters, time
 * ranges, percentages). The input is argv: its words split at NUL bytes,
 * at most 64. Either the parse succeeds, or its reason is one line; what
 * was parsed is released (ASan's leak check runs at the end).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "opts.h"
#include "profile.h"
#include "viewopts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

struct viewer {
	struct view_args va;
};

static const struct opt view_table[] = {
	OPT_TABLE(view_options, struct viewer, va),
	OPT_HELP(),
	OPT_END(),
};

/* A reason: one line, not empty. */
static void one_line(const char *err)
{
	if (!err[0] || strchr(err, '\n'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *argv[66], *argv2[66], err[512];
	int argc = 1, first, ret;

	if (size > 4096)
		return 0;
	copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[0] = (char *)"prof";
	for (size_t i = 0; i <= size && argc < 65;) {
		argv[argc++] = copy + i;
		i += strlen(copy + i) + 1;
	}
	argv[argc] = NULL;
	memcpy(argv2, argv, sizeof(argv));

	/* prof record's whole table, and its checks */
	{
		struct record_opts ro;

		err[0] = '\0';
		ret = record_opts_parse(&ro, argc, argv, err, sizeof(err));
		if (ret < 0)
			one_line(err);
		sink += (uint64_t)ro.freq + (uint64_t)ro.nr_pids;
		record_opts_release(&ro);
	}
	/* the view options, and the model's options they make */
	{
		struct viewer v;
		struct profile_opts po;

		memset(&v, 0, sizeof(v));
		view_args_init(&v.va, "report");
		err[0] = '\0';
		ret = opt_parse(view_table, &v, OPT_PERMUTE, argc, argv2, &first, err, sizeof(err));
		if (ret < 0) {
			one_line(err);
		} else if (ret == 0) {
			view_args_done(&v.va);
			view_profile_opts(&v.va, "prof.data", &po);
			sink += (uint64_t)po.ho.nkeys + po.f.npid + po.f.ncomm;
		}
		view_args_release(&v.va);
	}
	free(copy);
	return 0;
}
