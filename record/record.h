/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof record`: the command. */
#ifndef PROF_RECORD_RECORD_H
#define PROF_RECORD_RECORD_H

/* Runs `prof record`; argv[0] is "record". Returns the exit status. */
int cmd_record(int argc, char **argv);

#endif
