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

#include "buildid.h"	/* buildid_read(): the build id of a file it opened */
#include "htab.h"

/*
 * The file mapped at start..end in process pid, named path in its
 * /proc/PID/maps. Through /proc/PID/map_files first: the very file, even
 * deleted or in another mount namespace, but only for CAP_SYS_ADMIN (or
 * CAP_CHECKPOINT_RESTORE). Else, for a normal user, /proc/PID/root/PATH
 * (the path as the process sees it: a container's too) and
 * /proc/PID/exe (its executable, even deleted), and, the process gone,
 * PATH itself, each taken only when it is the mapped file: the same
 * device and inode when ino is not 0, else the same build id (bid,
 * bid_len). A descriptor, or -1.
 */
int mapfile_open(int pid, uint64_t start, uint64_t end, const char *path, unsigned maj,
		 unsigned min, uint64_t ino, const unsigned char *bid, size_t bid_len);

/* A mapped file's build id: len 0 when it has none, or could not be read. */
struct mapfile_bid {
	uint64_t dev, ino, gen;
	unsigned char len, id[20];
};

/* Build ids read, once a file, by device, inode and generation; all zeros: empty. */
struct mapfile_bids {
	struct mapfile_bid *e;
	size_t n, cap;
	struct htab tab;
};

/*
 * The build id of the file pid maps at start..end from path (device
 * maj:min, inode ino, generation gen: 0 where /proc/PID/maps tells none),
 * read through mapfile_open() the first time that file is asked for.
 */
const struct mapfile_bid *mapfile_bid_of(struct mapfile_bids *c, int pid, uint64_t start,
					 uint64_t end, const char *path, unsigned maj,
					 unsigned min, uint64_t ino, uint64_t gen);
void mapfile_bids_release(struct mapfile_bids *c);
/* b as an MMAP2 record with PERF_RECORD_MISC_MMAP_BUILD_ID has it over maj..ino_generation. */
void mapfile_bid_put(const struct mapfile_bid *b, unsigned char out[24]);
/*
 * The build id of a "[vdso]" map at start into b, when it is this
 * kernel's native vDSO (src/vdso.h), which has no file for the kernel or
 * mapfile_bid_of() to read it from: 1, else 0 (b empty).
 */
int mapfile_bid_vdso(const char *name, size_t name_len, uint64_t start, struct mapfile_bid *b);

#endif
