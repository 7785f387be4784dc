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

struct objfile {
	const char *path;		/* as opened */
	int fd;				/* -1 when it could not be opened */
	int err;			/* then why: an errno (ENODEV: not a regular file) */
	Elf *elf;			/* NULL when not ELF */
	const unsigned char *image;	/* the whole file, mapped by libelf */
	size_t size;
	const GElf_Phdr *load;		/* its PT_LOAD headers, in file order */
	size_t nload;
	const unsigned char *build_id;	/* in the image; NULL when it has none */
	size_t build_id_len;
};

struct objfiles;

struct objfiles *objfiles_new(void);
/* Frees every objfile: after their users (the unwinder, libdwfl's modules) are done. */
void objfiles_free(struct objfiles *t);
/* The file at path, opened on the first call. Never NULL; valid until objfiles_free(). */
const struct objfile *objfiles_get(struct objfiles *t, const char *path);

#endif
