/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * UTF-8 as RFC 3629 defines it, for every text prof writes: names come
 * from binaries and comms (the kernel cuts a comm at 15 bytes, mid-
 * character), so any byte may arrive; what goes out is always valid.
 */
#ifndef PROF_UTF8_H
#define PROF_UTF8_H

#include <stddef.h>
#include <stdio.h>

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

/*
 * A stream that writes to dst what it is given, made valid text: U+FFFD
 * for each byte that starts no valid sequence, '?' for each control
 * character but newline and tab (C0, DEL and C1: a terminal's escape
 * sequences). A sequence cut between two writes is put together. fclose()
 * of it flushes dst and leaves it open. NULL (errno set) when it cannot
 * be made.
 */
FILE *utf8_filter(FILE *dst);

/* The largest length <= max at which s can be cut between characters. */
size_t utf8_cut(const char *s, size_t max);

/*
 * The len bytes at v as a JSON string, quoted: '"' and '\\' escaped,
 * control characters (C0, DEL, C1) as \\u00XX, bytes that start no valid
 * sequence as \\ufffd; so the text is valid UTF-8 and shows no control
 * byte, whatever v holds.
 */
void utf8_put_json(FILE *out, const char *v, size_t len);

#endif
