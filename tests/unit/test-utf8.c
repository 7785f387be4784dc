// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * utf8_filter(): what it writes is valid UTF-8 with no control character
 * but newline and tab, whatever it is given and however the writes cut
 * the text; valid text passes unchanged, byte for byte.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "utf8.h"

/* in, written through the filter in pieces of step bytes (0: at once). */
static char *filtered(const char *in, size_t len, size_t step, size_t *outlen)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, outlen);
	FILE *f = utf8_filter(mem);

	for (size_t at = 0; at < len;) {
		size_t n = step && len - at > step ? step : len - at;

		fwrite(in + at, 1, n, f);
		fflush(f);	/* each piece a write of its own */
		at += n;
	}
	fclose(f);
	fclose(mem);
	return buf;
}

/* Whether s (len bytes, no NUL inside) is valid UTF-8 with no control but \n and \t. */
static int clean(const char *s, size_t len)
{
	if (memchr(s, '\0', len) || !utf8_valid(s))
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return 0;
		if (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] < 0xa0)
			return 0;	/* C1 */
	}
	return 1;
}

static void check(const char *what, const char *in, size_t len, const char *want)
{
	for (size_t step = 0; step < 5; step++) {
		size_t n;
		char *out = filtered(in, len, step, &n);

		ok(n == strlen(want) && !memcmp(out, want, n), "%s, written %zu bytes at a time: '%s'",
		   what, step, out);
		free(out);
	}
}

int main(void)
{
	static const char valid[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5\tend\n";

	check("valid text", valid, sizeof(valid) - 1, valid);
	check("a terminal's escapes", "\033]0;pwned\007x\033[2J\n", 16, "?]0;pwned?x?[2J\n");
	check("C1 CSI, DEL, a carriage return", "a\xc2\x9b" "2Jb\x7f\r", 8, "a?2Jb??");
	check("stray and overlong bytes", "\x80x\xc0\xafy\xff", 6,
	      UTF8_REPLACEMENT "x" UTF8_REPLACEMENT UTF8_REPLACEMENT "y" UTF8_REPLACEMENT);
	check("a surrogate and a cut sequence at the end", "\xed\xa0\x80z\xe2\x82", 6,
	      UTF8_REPLACEMENT UTF8_REPLACEMENT UTF8_REPLACEMENT "z" UTF8_REPLACEMENT
	      UTF8_REPLACEMENT);

	/*
	 * a long line, printable runs copied at once across the filter's
	 * 4 KiB buffer: escapes and a two-byte character around its edges
	 */
	{
		static char in[9001], want[9001];

		for (size_t i = 0; i < 9000; i++)
			in[i] = want[i] = (char)(' ' + i % 95);
		for (size_t at = 4080; at < 4100; at += 3) {
			in[at] = '\033';
			want[at] = '?';
		}
		memcpy(in + 8190, "\xc3\xa9", 2);
		memcpy(want + 8190, "\xc3\xa9", 2);
		check("9000 bytes of text with escapes near 4 KiB", in, 9000, want);
	}

	/* random bytes, in random pieces: always clean, never longer than 3x */
	{
		int bad = 0;

		for (int round = 0; round < 500; round++) {
			char in[256];
			size_t len = rnd() % sizeof(in), n;
			char *out;

			for (size_t i = 0; i < len; i++) {
				in[i] = (char)(rnd() % 4 ? 0x80 + rnd() % 0x80 : rnd() % 0x80);
				if (!in[i])
					in[i] = 'x';
			}
			out = filtered(in, len, 1 + rnd() % 7, &n);
			out = realloc(out, n + 1);
			out[n] = '\0';
			bad += !clean(out, n) || n > 3 * len;
			free(out);
		}
		ok(!bad, "500 strings of random bytes: %d outputs not clean", bad);
	}
	{
		/* utf8_put_json: quotes, escapes, controls as \u00XX, bad bytes as \ufffd */
		static const struct { const char *in; size_t len; const char *want; } js[] = {
			{ "a\"b\\c", 5, "\"a\\\"b\\\\c\"" },
			{ "caf\xc3\xa9 \xf0\x9f\x94\xa5", 10, "\"caf\xc3\xa9 \xf0\x9f\x94\xa5\"" },
			{ "\x1b[2J\x7f\xc2\x9b!", 8, "\"\\u001b[2J\\u007f\\u009b!\"" },
			{ "x\xffy\xc3", 4, "\"x\\ufffdy\\ufffd\"" },
			{ "ab\xc3\xa9", 3, "\"ab\\ufffd\"" },	/* a sequence cut by len */
		};

		for (size_t i = 0; i < sizeof(js) / sizeof(js[0]); i++) {
			char *buf = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&buf, &n);

			utf8_put_json(f, js[i].in, js[i].len);
			fclose(f);
			ok(!strcmp(buf, js[i].want), "utf8_put_json case %zu: %s", i, buf);
			free(buf);
		}
	}
	return tap_done();
}
