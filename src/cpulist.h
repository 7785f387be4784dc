/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sets of CPUs, as the kernel writes them in sysfs: "0-3,8,10-11". */
#ifndef PROF_CPULIST_H
#define PROF_CPULIST_H

struct cpulist {
	int nr;
	int *cpus;	/* sorted, no duplicates */
};

#define CPULIST_MAX 8192

/*
 * Parse s into l (which the caller later releases). Returns 0 or -EINVAL
 * for anything but a list of CPU numbers and ranges below CPULIST_MAX.
 */
int cpulist_parse(struct cpulist *l, const char *s);
/* The online CPUs, from /sys/devices/system/cpu/online. 0 or -errno. */
int cpulist_online(struct cpulist *l);
/* 1 when cpu is in l. */
int cpulist_has(const struct cpulist *l, int cpu);
/* The first CPU of l that is not online, or -1 (all are, or it cannot be read). */
int cpulist_offline(const struct cpulist *l);
void cpulist_release(struct cpulist *l);

#endif
