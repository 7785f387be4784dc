/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `prof convert`: a profile as a file-mode, uncompressed perf.data. */
#ifndef PROF_REPORT_CONVERT_H
#define PROF_REPORT_CONVERT_H

/* Runs `prof convert`; argv[0] is "convert". Returns the exit status. */
int cmd_convert(int argc, char **argv);

#endif
