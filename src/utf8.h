/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UTF-8 as RFC 3629 defines it, for every text prof writes: names come
 * from binaries and comms (the kernel cuts a comm at 15 bytes, mid-
 * character), so any byte may arrive; what goes out is always valid.
 */
#ifndef PROF_UTF8_H
#define PROF_UTF8_H

#include <stddef.h>

/* U+FFFD, which stands for each byte that starts no valid sequence. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * The length (1 to 4) of the valid sequence at s, a NUL-terminated
 * string, or 0 when none starts there: a stray continuation byte, an
 * overlong form, a surrogate (U+D800..DFFF), a code point over U+10FFFF,
 * or a sequence cut short. NUL itself counts as 1.
 */
int utf8_len(const char *s);

/* 1 when all of the NUL-terminated s is valid. */
int utf8_valid(const char *s);

/*
 * A copy of s with U+FFFD for each byte that starts no valid sequence;
 * the caller frees it.
 */
char *utf8_fix(const char *s);

/* The largest length <= max at which s can be cut between characters. */
size_t utf8_cut(const char *s, size_t max);

#endif
