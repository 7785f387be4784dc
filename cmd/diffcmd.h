/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof diff`: what changed between two profiles, and a gate for CI. */
#ifndef PROF_REPORT_DIFFCMD_H
#define PROF_REPORT_DIFFCMD_H

/* Runs `prof diff`; argv[0] is "diff". Returns the exit status. */
int cmd_diff(int argc, char **argv);

#endif
