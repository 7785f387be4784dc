/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening files a profile names: never a FIFO or a device, never a hang. */
#ifndef PROF_FILE_H
#define PROF_FILE_H

/*
 * Open path read-only if it is a regular file. O_NONBLOCK, so that a FIFO
 * planted at a recorded path cannot hang the report. Returns the fd, or
 * -1 with *err set: open(2)'s errno, EISDIR for a directory, ENODEV for
 * anything else that is not a regular file.
 */
int file_open_regular(const char *path, int *err);

#endif
