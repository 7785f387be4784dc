// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU list parsing for -C and for sysfs' online mask. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "xalloc.h"

static int read_cpu(const char **p, long *out)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*out = strtol(*p, &end, 10);
	if (errno || *out >= CPULIST_MAX)
		return -EINVAL;
	*p = end;
	return 0;
}

int cpulist_parse(struct cpulist *l, const char *s)
{
	unsigned char *mask = xcalloc(CPULIST_MAX, 1);
	const char *p = s;
	int cpu;

	l->nr = 0;
	l->cpus = NULL;
	for (;;) {
		long lo, hi;

		if (read_cpu(&p, &lo))
			goto fail;
		hi = lo;
		if (*p == '-') {
			p++;
			if (read_cpu(&p, &hi) || hi < lo)
				goto fail;
		}
		for (long c = lo; c <= hi; c++)
			mask[c] = 1;
		if (*p == '\0' || *p == '\n')
			break;
		if (*p++ != ',')
			goto fail;
	}
	for (cpu = 0; cpu < CPULIST_MAX; cpu++)
		l->nr += mask[cpu];
	l->cpus = xcalloc(l->nr, sizeof(*l->cpus));
	l->nr = 0;
	for (cpu = 0; cpu < CPULIST_MAX; cpu++)
		if (mask[cpu])
			l->cpus[l->nr++] = cpu;
	free(mask);
	return 0;
fail:
	free(mask);
	return -EINVAL;
}

int cpulist_online(struct cpulist *l)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	int ret;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	ret = cpulist_parse(l, buf);
	return ret;
}

int cpulist_has(const struct cpulist *l, int cpu)
{
	for (int i = 0; i < l->nr; i++)
		if (l->cpus[i] == cpu)
			return 1;
	return 0;
}

int cpulist_offline(const struct cpulist *l)
{
	struct cpulist online;
	int off = -1;

	if (cpulist_online(&online))
		return -1;	/* unknown: perf_event_open will say */
	for (int i = 0; i < l->nr && off < 0; i++)
		if (!cpulist_has(&online, l->cpus[i]))
			off = l->cpus[i];
	cpulist_release(&online);
	return off;
}

void cpulist_release(struct cpulist *l)
{
	free(l->cpus);
	l->cpus = NULL;
	l->nr = 0;
}
