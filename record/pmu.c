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
