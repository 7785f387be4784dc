/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the symbolizer finds files, in libdwfl's shape (its Dwfl_Callbacks
 * find_elf and find_debuginfo): a chain of finders, each one place to
 * look, asked in the order the caller put them in. A recorded path is
 * looked for under a sysroot (--symfs) and then at itself; a build id in
 * perf's build-id cache and the debug directory, under each root, and
 * then on the debuginfod servers; a file of a live process in the
 * directory where the recorder held it open. finders_new() makes the
 * chain a user of perf expects; finders_add() makes any other. The chain
 * is read-only once made, and may be shared by threads.
 */
#ifndef PROF_REPORT_FINDERS_H
#define PROF_REPORT_FINDERS_H

#include <stddef.h>
#include <stdint.h>

#include "objfile.h"

enum find_place {
	FIND_SYMFS,		/* a recorded path under root (the sysroot) */
	FIND_HOST,		/* the recorded path itself */
	FIND_BUILDID_CACHE,	/* perf's build-id cache ($PERF_BUILDID_DIR, ~/.debug) under root */
	FIND_DEBUG_DIR,		/* root/usr/lib/debug/.build-id/ab/cdef....debug */
	FIND_DEBUGINFOD,	/* the servers of $DEBUGINFOD_URLS */
};

struct finders;

/*
 * The chain perf's users expect: with symfs (NULL or "/": none), a path
 * under it, then (unless strict) the path itself; a build id in the
 * build-id cache and the debug directory under symfs, then, unless
 * strict, the host's and debuginfod. With strict,
 * nothing outside symfs is read: no ".." or link leading out. NULL and
 * errno when symfs is not a directory.
 */
struct finders *finders_new(const char *symfs, int strict);
/* An empty chain, for finders_add(): strict as above, root the symfs (NULL: none). */
struct finders *finders_empty(const char *symfs, int strict);
/* Ask place next, under root ("" or NULL: /). */
void finders_add(struct finders *f, enum find_place place, const char *root);
void finders_free(struct finders *f);

/* The sysroot, absolute (NULL: none), and whether nothing outside it is read. */
const char *finders_symfs(const struct finders *f);
int finders_strict(const struct finders *f);

/*
 * The file to open for recorded path (malloc'd): the first place of the
 * chain where it is; with strict, a name that says it is outside the
 * symfs when a link or ".." leads out (it cannot be opened).
 */
char *finders_locate(const struct finders *f, const char *path);

/*
 * Each file that may be the one of build id (len bytes), in the chain's
 * order, to try(ctx, path) until it returns 1 (the file is that build):
 * then 1; 0 when none is. Only regular files are tried.
 */
int finders_by_build_id(const struct finders *f, const unsigned char *id, size_t len,
			int (*try)(void *ctx, const char *path), void *ctx);
/* Where the debug file of build id is looked for first (the first debug directory): 0, or -1. */
int finders_debug_by_id(const struct finders *f, const unsigned char *id, size_t len,
			char *path, size_t size);
/* libdwfl's debuginfo search path for the chain (NULL: libdwfl's default). */
const char *finders_debuginfo_path(const struct finders *f);
/* Whether the cache of inflated debug files may be read: not when strict. */
int finders_debug_cache(const struct finders *f);

/*
 * A live recorder holds the files of processes that exit in dir, named
 * MAJ-MIN-INO (NULL: none). finders_held(): the file it held for the
 * device and inode given, as a link path, and its id: 0, or -1.
 */
void finders_hold_dir(struct finders *f, const char *dir);
int finders_holding(const struct finders *f);
int finders_held(const struct finders *f, unsigned maj, unsigned min, uint64_t ino, char *link,
		 size_t len, struct file_id *id);

/* The length of a recorded build id as files are named by it: perf pads 20-byte ids with zeros. */
size_t finders_build_id_len(const unsigned char *id, size_t len);

#endif
