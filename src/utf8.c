// SPDX-License-Identifier: GPL-2.0-or-later
/* UTF-8 validation per RFC 3629, section 4 (the syntax of UTF-8 byte sequences). */
#include "config.h"

#include <string.h>

#include "utf8.h"
#include "xalloc.h"

int utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;	/* the second byte's range */
	int n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (s[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		if (s[0] == 0xf0)
			lo = 0x90;	/* overlong */
		else if (s[0] == 0xf4)
			hi = 0x8f;	/* over U+10FFFF */
	} else {
		return 0;	/* a continuation byte, C0, C1, F5..FF */
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	/* a NUL (0x00) is no continuation byte: a cut sequence stops here */
	for (int i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

int utf8_valid(const char *s)
{
	while (*s) {
		int n = utf8_len(s);

		if (!n)
			return 0;
		s += n;
	}
	return 1;
}

char *utf8_fix(const char *s)
{
	/* at most three bytes out for each byte in */
	char *out = xmalloc(3 * strlen(s) + 1), *o = out;

	while (*s) {
		int n = utf8_len(s);

		if (n) {
			memcpy(o, s, (size_t)n);
			o += n;
			s += n;
		} else {
			memcpy(o, UTF8_REPLACEMENT, 3);
			o += 3;
			s++;
		}
	}
	*o = '\0';
	return out;
}

size_t utf8_cut(const char *s, size_t max)
{
	size_t at = 0;

	while (s[at]) {
		int n = utf8_len(s + at);

		if (!n)
			n = 1;
		if (at + (size_t)n > max)
			break;
		at += (size_t)n;
	}
	return at;
}
