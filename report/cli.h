/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the commands that read a profile say alike about their command line. */
#ifndef PROF_REPORT_CLI_H
#define PROF_REPORT_CLI_H

#define EXIT_USAGE 64

/*
 * After getopt_long() returned c, ':' (a value missing) or anything else
 * it did not know: one line naming the option and 'prof CMD --help'.
 * Returns EXIT_USAGE.
 */
int cli_bad_option(const char *cmd, int c, char **argv);
/* Words left after the options: one line naming the first; EXIT_USAGE, or 0 when none. */
int cli_no_args(const char *cmd, int argc, char **argv);
/* --kallsyms FILE: 0, or one line and EXIT_USAGE when FILE cannot be read. */
int cli_kallsyms(const char *path);

#endif
