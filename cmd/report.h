/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof report`: flat and call-graph views of a profile. */
#ifndef PROF_REPORT_REPORT_H
#define PROF_REPORT_REPORT_H

/* Runs `prof report`; argv[0] is "report". Returns the exit status. */
int cmd_report(int argc, char **argv);

#endif
