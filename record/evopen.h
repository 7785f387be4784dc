/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building perf_event_attr for `prof record` and opening it. */
#ifndef PROF_RECORD_EVOPEN_H
#define PROF_RECORD_EVOPEN_H

#include <linux/perf_event.h>

struct evname;
struct record_opts;

/*
 * Fill a for event ev with the options in o. The tracking event (the
 * first) also asks for MMAP2, COMM, FORK/EXIT records; enable_on_exec is
 * for a command prof starts.
 */
void evopen_attr(struct perf_event_attr *a, const struct evname *ev,
		 const struct record_opts *o, int tracking, int enable_on_exec);

/*
 * perf_event_open(a, pid, cpu, group_fd: -1, or its group's leader's fd
 * on the same pid and cpu; flags beside FD_CLOEXEC: PERF_FLAG_PID_CGROUP,
 * pid then a cgroup directory's fd). Returns the fd or -errno. Where the kernel
 * predates build ids in MMAP2 (EINVAL), clears a->build_id and tries again,
 * so that later calls with the same a agree.
 */
int evopen_fd(struct perf_event_attr *a, int pid, int cpu, int group_fd, unsigned long flags);

/* 1 when this errno from perf_event_open means "no such hardware here". */
int evopen_no_hardware(int err);

/* /proc/sys/kernel/perf_event_paranoid, or INT_MIN when unreadable. */
int evopen_paranoid(void);
/* Whether this process has CAP_PERFMON or CAP_SYS_ADMIN in effect. */
int evopen_privileged(void);
/* Whether a seccomp filter applies to this process (/proc/self/status). */
int evopen_seccomp(void);
/*
 * Say in one line on stderr why perf_event_open refused with err (EACCES,
 * EPERM): perf_event_paranoid and what to set it to, or else a seccomp
 * filter or a security module. system_wide: -a or -C was asked.
 */
void evopen_refused(int system_wide, int err);
/* /proc/sys/kernel/perf_event_max_sample_rate, or 0 when unreadable. */
unsigned long evopen_max_rate(void);

#endif
