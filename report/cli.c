// SPDX-License-Identifier: GPL-2.0-or-later
/* What the commands that read a profile say alike about their command line. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		fprintf(stderr, "prof: option '%s' needs a value; see 'prof %s --help'\n",
			argv[optind - 1], cmd);
	else
		fprintf(stderr, "prof: unknown option '%s'; see 'prof %s --help'\n", argv[optind - 1],
			cmd);
	return EXIT_USAGE;
}

int cli_no_args(const char *cmd, int argc, char **argv)
{
	if (optind >= argc)
		return 0;
	fprintf(stderr, "prof: unexpected argument '%s'; see 'prof %s --help'\n", argv[optind], cmd);
	return EXIT_USAGE;
}

int cli_kallsyms(const char *path)
{
	if (access(path, R_OK) == 0)
		return 0;
	fprintf(stderr, "prof: --kallsyms: cannot read '%s': %s\n", path, strerror(errno));
	return EXIT_USAGE;
}
