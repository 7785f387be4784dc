/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file behind a mapping of a running process, opened for reading,
 * and its build id: for the build ids of the mappings prof record finds
 * in /proc (synth.c) and the files it keeps (keep.c).
 */
#ifndef PROF_RECORD_MAPFILE_H
#define PROF_RECORD_MAPFILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The file mapped at start..end in process pid, named path in its
 * /proc/PID/maps. Through /proc/PID/map_files first: the very file, even
 * deleted or in another mount namespace, but only for CAP_SYS_ADMIN (or
 * CAP_CHECKPOINT_RESTORE). Else, for a normal user, /proc/PID/root/PATH
 * (the path as the process sees it: a container's too) and
 * /proc/PID/exe (its executable, even deleted), each taken only when it
 * is the mapped file: the same device and inode when ino is not 0, else
 * the same build id (bid, bid_len). A descriptor, or -1.
 */
int mapfile_open(int pid, uint64_t start, uint64_t end, const char *path, unsigned maj,
		 unsigned min, uint64_t ino, const unsigned char *bid, size_t bid_len);

/*
 * The GNU build id note of an open ELF file of this machine's class and
 * byte order, from its PT_NOTE segments, into id (20 bytes); its length,
 * 0 when there is none. The kernel reads it the same way for MMAP2 with
 * attr.build_id.
 */
size_t mapfile_build_id(int fd, unsigned char *id);

#endif
