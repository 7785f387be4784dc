/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof view`: the HTML page of a profile, opened in the browser or served. */
#ifndef PROF_REPORT_VIEW_H
#define PROF_REPORT_VIEW_H

/* Runs `prof view`; argv[0] is "view". Returns the exit status. */
int cmd_view(int argc, char **argv);

#endif
