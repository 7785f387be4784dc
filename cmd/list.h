/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof list`: the events -e takes, as perf list prints them. */
#ifndef PROF_CMD_LIST_H
#define PROF_CMD_LIST_H

/* Runs `prof list`; argv[0] is "list". Returns the exit status. */
int cmd_list(int argc, char **argv);

#endif
