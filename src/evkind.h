/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an event's samples weigh, by its name and attr.config: a count of
 * the event, nanoseconds on the CPU (the clocks), or time of their own
 * (the intervals a report makes of context switches, and --wall's).
 */
#ifndef PROF_EVKIND_H
#define PROF_EVKIND_H

#include <stdint.h>

/*
 * 1 for an event whose samples weigh time of their own: the session's
 * off-cpu and preempted, and --wall's wall (config ~0: no kernel event;
 * nanoseconds each, and not sampled: every interval is there).
 */
int evkind_time(const char *name, uint64_t config);
/* 1 for the clocks, cpu-clock and task-clock: their periods are nanoseconds on the CPU. */
int evkind_clock(const char *name);
/* 1 when an event's periods are nanoseconds: a clock's, or a time event's. */
int evkind_ns(const char *name, uint64_t config);

#endif
