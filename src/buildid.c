// SPDX-License-Identifier: GPL-2.0-or-later
/* Where files are kept by build id: see buildid.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "buildid.h"

int buildid_cache_dir(char *buf, size_t len)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	int n;

	if (dir && dir[0])
		n = snprintf(buf, len, "%s", dir);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.debug", home);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int buildid_path(char *buf, size_t buflen, const char *dir, const unsigned char *id, size_t len,
		 const char *tail)
{
	char hex[2 * 64 + 1];
	int n;

	if (len < 2 || len > 64)
		return -1;
	buildid_hex(hex, id, len);
	n = snprintf(buf, buflen, "%s%s.build-id/%.2s/%s%s", dir ? dir : "", dir ? "/" : "", hex,
		     hex + 2, tail);
	return n < 0 || (size_t)n >= buflen ? -1 : 0;
}

void buildid_hex(char *hex, const unsigned char *id, size_t len)
{
	static const char digit[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		hex[2 * i] = digit[id[i] >> 4];
		hex[2 * i + 1] = digit[id[i] & 15];
	}
	hex[2 * len] = '\0';
}
