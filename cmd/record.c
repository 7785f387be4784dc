// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof record`: the command. Its options are parsed and checked
 * (record/opts.c), then the recorder runs (record/record.c, record_main(),
 * which prof top and prof agent run as their child too).
 */
#include "config.h"

#include <stdio.h>

#include "opt.h"
#include "opts.h"
#include "record.h"

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	char err[512];
	int ret;

	ret = record_opts_parse(&o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		record_usage(stdout);
		record_opts_release(&o);
		return 0;
	}
	if (ret) {
		fprintf(stderr, "prof: %s; see 'prof record --help'\n", err);
		record_opts_release(&o);
		return EXIT_USAGE;
	}
	return record_main(&o, argc, argv);
}

