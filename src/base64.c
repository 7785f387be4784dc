// SPDX-License-Identifier: GPL-2.0-or-later
/* Base64 (base64.h). */
#include "config.h"

#include <stdint.h>

#include "base64.h"

void base64_write(const unsigned char *b, size_t n, size_t wrap, FILE *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char buf[4096 + 2];
	size_t at = 0, col = 0;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) |
			     (i + 2 < n ? b[i + 2] : 0);
		char q[4] = { abc[v >> 18 & 63], abc[v >> 12 & 63],
			      i + 1 < n ? abc[v >> 6 & 63] : '=', i + 2 < n ? abc[v & 63] : '=' };

		for (int k = 0; k < 4; k++) {
			buf[at++] = q[k];
			if (wrap && ++col == wrap) {
				buf[at++] = '\n';
				col = 0;
			}
		}
		if (at >= 4096 - 8) {
			fwrite(buf, 1, at, out);
			at = 0;
		}
	}
	if (at)
		fwrite(buf, 1, at, out);
}
