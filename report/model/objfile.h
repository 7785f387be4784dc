/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files a profile's maps name, each opened once: the one file layer
 * the symbolizer and the unwinder share. A path (already placed under
 * --symfs by the symbolizer's locate()) is opened as a regular file only,
 * O_NONBLOCK (a FIFO planted there must not hang a report), and its ELF
 * image, loadable segments and build id are read once. Both users then
 * read that very file: the symbolizer hands libdwfl a duplicate of its
 * descriptor, the unwinder reads its image. Thread-safe: the symbolizer's
 * loader thread and the session's delivery thread both ask.
 */
#ifndef PROF_REPORT_OBJFILE_H
#define PROF_REPORT_OBJFILE_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Which file a path named: its device, inode and inode change time. Two
 * opens with the same are the same bytes; a file rebuilt or replaced at
 * the same path differs (a new inode, or a reused one changed later). All
 * zero: not known (any file at the path will do).
 */
struct file_id {
	uint64_t dev, ino;
	int64_t ctime_ns;
};

struct objfile {
	const char *path;		/* as opened */
	struct file_id id;		/* what was opened; zeros when it was not */
	int fd;				/* -1 when it could not be opened */
	int err;			/* then why: an errno (ENODEV: not a regular file) */
	Elf *elf;			/* NULL when not ELF */
	const unsigned char *image;	/* the whole file, mapped by libelf */
	size_t size;
	const GElf_Phdr *load;		/* its PT_LOAD headers, in file order */
	size_t nload;
	const unsigned char *build_id;	/* in the image; NULL when it has none */
	size_t build_id_len;
	size_t refs;			/* the gets not yet forgotten (objfiles_forget()) */
	size_t slot;			/* where the table holds it */
};

struct objfiles;

struct objfiles *objfiles_new(void);
/* Frees every objfile: after their users (the unwinder, libdwfl's modules) are done. */
void objfiles_free(struct objfiles *t);
/* The file at path, opened on the first call. Never NULL; valid until objfiles_free(). */
const struct objfile *objfiles_get(struct objfiles *t, const char *path);
/*
 * The same, for the file id names (NULL or zeros: any): an open of path
 * that is another file is not it, and path is opened again. Never NULL;
 * valid until objfiles_free(), or until each get of it is forgotten
 * (objfiles_forget()): two holders may get one file (an object of the
 * path with no id is given the file its path's other object opened).
 */
const struct objfile *objfiles_get_id(struct objfiles *t, const char *path,
				      const struct file_id *id);
/*
 * Forget one get of each of files[0..n) (a file twice: two gets); the
 * last of a file's closes and frees it, once nothing reads it (libdwfl's
 * modules read dups of its fd), after drop(ctx, closing, m) is told of
 * the m files that close (the unwinder's view of them; drop may be
 * NULL). One pass over the table for all of them.
 */
void objfiles_forget(struct objfiles *t, const struct objfile *const *files, size_t n,
		     void (*drop)(void *ctx, const struct objfile *const *files, size_t n),
		     void *ctx);
/* What stat(2) says path is, into *id: 0, or -1 (errno) with *id zeros. */
int file_id_of(const char *path, struct file_id *id);
int file_id_equal(const struct file_id *a, const struct file_id *b);
/*
 * Where the file offset off of f is in its address space, as its program
 * headers lay it out (as if loaded at 0: a fixed executable's own
 * addresses, and a shared object's or PIE's before relocation): 1, *vaddr
 * and the PT_LOAD that holds it (seg may be NULL); 0 when none holds it.
 */
int objfile_vaddr(const struct objfile *f, uint64_t off, uint64_t *vaddr, const GElf_Phdr **seg);

#endif
