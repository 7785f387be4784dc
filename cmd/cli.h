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
struct reader;

/* reader_open(path), or NULL after one line saying why (reader_open_why()). */
struct reader *cli_open_input(const char *path);
/*
 * An output file made whole or not at all (file_create(): a temporary
 * beside path, *tmp, renamed into place by cli_commit_output()); NULL after
 * one line saying why.
 */
FILE *cli_create_output(const char *path, char **tmp);
/*
 * The end of an output made through file_create() (tmp NULL: none was):
 * into place when status is 0, else removed, the old file kept. Returns
 * status, or 1 after one line when the rename failed.
 */
int cli_commit_output(char *tmp, const char *path, int status);
/* --kallsyms FILE: 0, or one line and EXIT_USAGE when FILE cannot be read. */
int cli_kallsyms(const char *path);

#endif
