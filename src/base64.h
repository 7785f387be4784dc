/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Base64 (RFC 4648, with padding), for the HTML page's data and JSON bytes. */
#ifndef PROF_BASE64_H
#define PROF_BASE64_H

#include <stddef.h>
#include <stdio.h>

/* b[0 .. n) to out, a newline after every wrap characters (0: one line). */
void base64_write(const unsigned char *b, size_t n, size_t wrap, FILE *out);

#endif
