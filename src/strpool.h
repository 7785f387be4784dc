/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interned strings: equal strings get one pointer, so that the report can
 * compare and hash names by pointer. The pool owns them.
 */
#ifndef PROF_STRPOOL_H
#define PROF_STRPOOL_H

#include <stddef.h>

struct strpool;

struct strpool *strpool_new(void);
void strpool_free(struct strpool *p);
/* The pool's copy of the len bytes at s (a NUL is added). */
const char *strpool_intern_len(struct strpool *p, const char *s, size_t len);
const char *strpool_intern(struct strpool *p, const char *s);
/*
 * The same for a name that goes out as text (a comm, a symbol, a file
 * name from a profile or a binary): the C0 controls and DEL in it become
 * '?', so that no profile can send escape sequences to a terminal.
 */
const char *strpool_intern_text(struct strpool *p, const char *s, size_t len);

#endif
