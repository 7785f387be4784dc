/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening files a profile names: never a FIFO or a device, never a hang. */
#ifndef PROF_FILE_H
#define PROF_FILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Open path read-only if it is a regular file. O_NONBLOCK, so that a FIFO
 * planted at a recorded path cannot hang the report. Returns the fd, or
 * -1 with *err set: open(2)'s errno, EISDIR for a directory, ENODEV for
 * anything else that is not a regular file.
 */
int file_open_regular(const char *path, int *err);

/*
 * The whole of the regular file at path (file_open_regular()), or of fd
 * from where it stands, malloc'ed: *len bytes. NULL and *err (EFBIG: more
 * than max bytes).
 */
void *file_read_regular(const char *path, size_t max, size_t *len, int *err);
void *file_read_fd(int fd, size_t max, size_t *len, int *err);

/*
 * Open path to write an output, safely in a directory others can write
 * to (/tmp): never through a symbolic link someone else planted, never
 * into a file that appears between a check and the open.
 * - No file there: created with O_EXCL, mode (less the umask); with tmp,
 *   as a temporary file beside it instead, *tmp its name (the caller
 *   frees it): file_commit() renames it into place at the end, so that
 *   a failed run leaves the old output as it was.
 * - A regular file there: with tmp, as above; without, EEXIST (move it
 *   aside first).
 * - A symbolic link: followed only when it belongs to us or to root (as
 *   /dev/stdout does), like the kernel's fs.protected_symlinks; else
 *   ELOOP.
 * - A FIFO, a character device or a socket: opened for writing as it is.
 * Returns the fd, or -1 and *err (EISDIR for a directory).
 */
int file_create(const char *path, int mode, char **tmp, int *err);

/* Words for file_create()'s err, for "cannot write 'FILE': ...". */
const char *file_create_strerror(int err);

/* Put the temporary file tmp of file_create() in place as path, or (ok 0) remove it. */
int file_commit(const char *tmp, const char *path, int ok, int *err);

/*
 * Write len bytes of buf as the file path (mode, less the umask), whole or
 * not at all: through a temporary file beside it (file_create()) renamed
 * into place. 0, or -1 and *err.
 */
int file_put(const char *path, int mode, const void *buf, size_t len, int *err);

struct stat;

/*
 * Whether the directory entry name (st its lstat) is a temporary file of
 * file_create() that its writer left: named ".NAME.XXXXXX", regular, and
 * untouched for an hour. A writer alive renames or removes its file within
 * seconds; one killed mid-write never will. For caches to remove.
 */
int file_temp_abandoned(const char *name, const struct stat *st);

/*
 * When more than keep bytes of the mapping [p, p + len) are resident, let
 * go of its pages that are the file's own: mapped from the page cache
 * unchanged (/proc/self/pagemap). A page a write copied (a private
 * mapping relocated in place) stays. Reading a page let go maps it again
 * from the page cache: nothing is lost. Why: a file read through a
 * mapping at random makes each fault map 16 pages around the page read
 * (the kernel's fault-around, which MADV_RANDOM does not stop), so the few
 * hundred functions a report names from a large DWARF file made megabytes
 * of it resident. Returns the bytes of the runs let go: 0 when at most
 * keep were resident, or when pagemap cannot say.
 */
size_t file_pages_release(const void *p, size_t len, size_t keep);

/*
 * Whether user uid could read path: the file readable by it, and every
 * directory on the way searchable, by owner, group (its groups, as the
 * system's database says) or others' bits, with no ACL on the way (its
 * entries are not weighed: such a file is not read for another);
 * (uid_t)-1 for a user not known: others' bits alone. Always 1 unless we
 * are root, and for root's files: only root reads what others cannot. For
 * a source file a profile's line table names: prof, run by root, must
 * not show another user what that user could not read.
 */
int file_readable_by(const char *path, uid_t uid);
/*
 * path's bytes (file_read_regular()) when uid could read it
 * (file_readable_by()); else NULL with *err EACCES. The file read is the
 * one checked (device and inode): a link swapped in between serves no
 * other.
 */
void *file_read_as(const char *path, uid_t uid, size_t max, size_t *len, int *err);

#endif
