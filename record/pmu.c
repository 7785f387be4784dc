// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's PMUs as sysfs lists them. See pmu.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"

const char *pmu_source(void)
{
	const char *d = getenv("PROF_EVENT_SOURCE");

	return d && *d ? d : "/sys/bus/event_source/devices";
}

void pmu_alias_scale(const char *spec, double *scale, char *unit, size_t ulen)
{
	const char *slash = strchr(spec, '/'), *close, *t;
	char pmu[64], rel[192], buf[64];

	*scale = 1;
	if (ulen)
		unit[0] = '\0';
	if (!slash || !(close = strchr(slash + 1, '/')) || (size_t)(slash - spec) >= sizeof(pmu) ||
	    strcspn(spec, ":") < (size_t)(slash - spec))
		return;
	snprintf(pmu, sizeof(pmu), "%.*s", (int)(slash - spec), spec);
	/* the first term that is an alias (no '=') with a scale or a unit */
	for (t = slash + 1; t < close; t += strcspn(t, ",/") + (t[strcspn(t, ",/")] == ',')) {
		size_t n = strcspn(t, ",/");
		char *end;
		double v;

		if (!n || memchr(t, '=', n) || n > 100)
			continue;
		snprintf(rel, sizeof(rel), "events/%.*s.scale", (int)n, t);
		if (!pmu_read(pmu, rel, buf, sizeof(buf)) && (v = strtod(buf, &end)) > 0 &&
		    end != buf)
			*scale = v;
		snprintf(rel, sizeof(rel), "events/%.*s.unit", (int)n, t);
		if (!pmu_read(pmu, rel, buf, sizeof(buf))) {
			/* a file's bytes, shown: letters, digits and a few signs */
			size_t k = 0;

			for (const char *c = buf; *c && k + 1 < ulen; c++)
				if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
				    (*c >= '0' && *c <= '9') || strchr("/%._-", *c))
					unit[k++] = *c;
			if (ulen)
				unit[k] = '\0';
		}
		if (*scale != 1 || (ulen && unit[0]))
			return;
	}
}

int pmu_read(const char *pmu, const char *rel, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	size_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", pmu_source(), pmu, rel) >= sizeof(path) ||
	    !(f = fopen(path, "re")))
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
