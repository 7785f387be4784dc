/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof script`: every record of a profile, one line each. */
#ifndef PROF_REPORT_SCRIPT_H
#define PROF_REPORT_SCRIPT_H

/* Runs `prof script`; argv[0] is "script". Returns the exit status. */
int cmd_script(int argc, char **argv);

#endif
