// SPDX-License-Identifier: GPL-2.0-or-later
/* Strict number parsing: never atoi(), never a silent wrap. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "xalloc.h"

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_id_list(const char *s, int **out, int *nr, const char **bad)
{
	int *ids = NULL, n = 0;
	const char *p = s;

	for (;;) {
		size_t len = strcspn(p, ",");
		char item[32];
		uint64_t v;

		if (len == 0 || len >= sizeof(item))
			goto fail;
		memcpy(item, p, len);
		item[len] = '\0';
		if (parse_u64(item, 1, INT_MAX, &v))
			goto fail;
		ids = xreallocarray(ids, n + 1, sizeof(*ids));
		ids[n++] = (int)v;
		if (!p[len])
			break;
		p += len + 1;
	}
	*out = ids;
	*nr = n;
	return 0;
fail:
	free(ids);
	*bad = p;
	return -EINVAL;
}
