/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof archive`: the files a profile needs, by build id, in one tar file. */
#ifndef PROF_REPORT_ARCHIVE_H
#define PROF_REPORT_ARCHIVE_H

/* Runs `prof archive`; argv[0] is "archive". Returns the exit status. */
int cmd_archive(int argc, char **argv);

#endif
