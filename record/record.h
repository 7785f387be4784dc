/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof record`: the command (cmd/record.c), and the recorder it runs. */
#ifndef PROF_RECORD_RECORD_H
#define PROF_RECORD_RECORD_H

/* Runs `prof record`; argv[0] is "record". Returns the exit status. */
int cmd_record(int argc, char **argv);

struct record_opts;
/*
 * Record as o says (checked by record_opts_check(); taken over and
 * released); argc and argv are the command line the profile names.
 * Returns the exit status.
 */
int record_main(struct record_opts *o, int argc, char **argv);

#endif
