/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -G: counting and sampling in one cgroup of the unified hierarchy
 * (cgroup2), as perf's -G: the event opened on each CPU with the cgroup's
 * directory as its pid (PERF_FLAG_PID_CGROUP) counts only while a task of
 * that cgroup (or of one below it) runs there.
 */
#ifndef PROF_RECORD_CGROUP_H
#define PROF_RECORD_CGROUP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The directory of cgroup name ("system.slice/cron.service", with or
 * without a leading '/', under the cgroup2 mount), opened: its fd, or -1
 * with a one-line reason in err.
 */
int cgroup_open(const char *name, char *err, size_t len);

/*
 * -G LIST given after n events (names, has[i]: event i has a cgroup):
 * the cgroups of the comma list go, in order, to the events without one;
 * a single cgroup to all of them; an empty name leaves its event on the
 * whole machine. out[i] is set (malloc'ed, NULL: none) for those given
 * one. 0, or -1 with a reason in err (more cgroups than events).
 */
int cgroup_assign(const char *list, size_t n, char **out, char *err, size_t len);

/* Where the cgroup2 hierarchy is mounted (/sys/fs/cgroup, usually), into buf: 0, or -1. */
int cgroup2_root(char *buf, size_t size);

/*
 * Whether the kernel gives each sample's cgroup of the unified hierarchy
 * (PERF_SAMPLE_CGROUP, Linux 5.7), and that hierarchy is mounted (the
 * recorder names its cgroups from there). 1 or 0.
 */
int cgroup_samples(void);

/* The id of the cgroup2 directory at path, as the kernel's samples give it: 0, or -1. */
int cgroup_id(const char *path, uint64_t *id);

#endif
