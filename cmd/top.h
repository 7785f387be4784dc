/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof top`: what is hot right now, live, without a file. */
#ifndef PROF_CMD_TOP_H
#define PROF_CMD_TOP_H

/* Runs `prof top`; argv[0] is "top". Returns the exit status. */
int cmd_top(int argc, char **argv);

#endif
