/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof stat`: count events, as perf stat does. */
#ifndef PROF_CMD_STAT_H
#define PROF_CMD_STAT_H

int cmd_stat(int argc, char **argv);

#endif
