/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the commands that read a profile say alike about their command line. */
#ifndef PROF_REPORT_CLI_H
#define PROF_REPORT_CLI_H

#include "opt.h"

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
#endif
