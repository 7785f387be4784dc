// SPDX-License-Identifier: GPL-2.0-or-later
/* UTF-8 validation per RFC 3629, section 4 (the syntax of UTF-8 byte sequences). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "utf8.h"
#include "xalloc.h"

/*
 * What a sequence's first byte c says: its length (2 to 4), and the
 * range of its second byte in *lo..*hi; 0 when no sequence starts so.
 */
static int lead(unsigned char c, unsigned char *lo, unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef) {
		if (c == 0xe0)
			*lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			*hi = 0x9f;	/* surrogates */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if (c == 0xf0)
			*lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			*hi = 0x8f;	/* over U+10FFFF */
		return 4;
	}
	return 0;	/* a continuation byte, C0, C1, F5..FF */
}

/*
 * The sequence at s, of which avail bytes are there: its length when it
 * is valid and whole, else 0; *more is set when the avail bytes are the
 * valid start of a sequence that needs more of them.
 */
static int seq_len(const unsigned char *s, size_t avail, int *more)
{
	unsigned char lo, hi;
	int n;

	*more = 0;
	if (s[0] < 0x80)
		return 1;
	n = lead(s[0], &lo, &hi);
	if (!n)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((size_t)i >= avail) {
			*more = 1;
			return 0;
		}
		if (i == 1 ? s[1] < lo || s[1] > hi : (s[i] & 0xc0) != 0x80)
			return 0;
	}
	return n;
}

int utf8_len(const char *str)
{
	int more;

	/* a NUL (0x00) is no continuation byte: a cut sequence stops there */
	return seq_len((const unsigned char *)str, 4, &more);
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

struct ufilter {
	FILE *dst;
	unsigned char carry[4];
	size_t ncarry;
};

/*
 * s (len bytes) cleaned into f->dst; an unfinished sequence at its end is
 * kept for the next call unless final. 0, or -1 when dst failed.
 */
static int ufilter_put(struct ufilter *f, const unsigned char *s, size_t len, int final)
{
	unsigned char out[4096];
	size_t o = 0, i = 0;

	while (i < len) {
		unsigned char c = s[i];
		int n = 1, more = 0;

		if (o > sizeof(out) - 8) {
			if (fwrite(out, 1, o, f->dst) != o)
				return -1;
			o = 0;
		}
		if (c >= 0x20 && c < 0x7f) {
			/* most of any text: a run of printable ASCII, copied at once */
			size_t j = i + 1, room = sizeof(out) - 8 - o;

			while (j < len && j - i < room && s[j] >= 0x20 && s[j] < 0x7f)
				j++;
			memcpy(out + o, s + i, j - i);
			o += j - i;
			i = j;
			continue;
		}
		if (c < 0x80) {
			/* a terminal's escapes and the like: only newline and tab pass */
			out[o++] = (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? '?' : c;
			i++;
			continue;
		}
		n = seq_len(s + i, len - i, &more);
		if (more && !final) {
			f->ncarry = len - i;
			memcpy(f->carry, s + i, f->ncarry);
			break;
		}
		if (n == 2 && c == 0xc2 && s[i + 1] < 0xa0) {
			out[o++] = '?';	/* C1 controls: U+0080..U+009F (CSI is U+009B) */
		} else if (n) {
			memcpy(out + o, s + i, (size_t)n);
			o += (size_t)n;
		} else {
			memcpy(out + o, UTF8_REPLACEMENT, 3);
			o += 3;
			n = 1;
		}
		i += (size_t)n;
	}
	return o && fwrite(out, 1, o, f->dst) != o ? -1 : 0;
}

static ssize_t ufilter_write(void *cookie, const char *buf, size_t size)
{
	struct ufilter *f = cookie;
	unsigned char head[8];
	size_t take = 0;

	/* a sequence cut between two writes: put together first */
	while (f->ncarry) {
		int more;

		if (take == size) {
			return (ssize_t)size;	/* still unfinished: kept */
		}
		f->carry[f->ncarry++] = (unsigned char)buf[take++];
		memcpy(head, f->carry, f->ncarry);
		seq_len(head, f->ncarry, &more);
		if (!more || f->ncarry == 4) {
			size_t n = f->ncarry;

			f->ncarry = 0;
			if (ufilter_put(f, head, n, 0) < 0)
				return -1;
		}
	}
	if (ufilter_put(f, (const unsigned char *)buf + take, size - take, 0) < 0)
		return -1;
	return (ssize_t)size;
}

static int ufilter_close(void *cookie)
{
	struct ufilter *f = cookie;
	int ret = 0;

	if (f->ncarry)
		ret = ufilter_put(f, f->carry, f->ncarry, 1);
	if (fflush(f->dst))
		ret = -1;
	free(f);
	return ret;
}

FILE *utf8_filter(FILE *dst)
{
	static const cookie_io_functions_t io = {
		.write = ufilter_write,
		.close = ufilter_close,
	};
	struct ufilter *f = xcalloc(1, sizeof(*f));
	FILE *fp = fopencookie(f, "w", io);

	if (!fp)
		free(f);
	else
		f->dst = dst;
	return fp;
}

void utf8_put_json(FILE *out, const char *v, size_t len)
{
	const unsigned char *s = (const unsigned char *)v, *end = s + len;

	putc('"', out);
	while (s < end) {
		int n = utf8_len((const char *)s);

		if (n > end - s)
			n = 0;	/* a sequence cut by len */
		if (*s == '"' || *s == '\\') {
			putc('\\', out);
			putc(*s++, out);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\u%04x", *s++);
		} else if (n == 0) {
			fputs("\\ufffd", out);
			s++;
		} else if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
			fprintf(out, "\\u%04x", s[1]);	/* C1 controls, U+0080-U+009F */
			s += 2;
		} else {
			fwrite(s, 1, (size_t)n, out);
			s += n;
		}
	}
	putc('"', out);
}
