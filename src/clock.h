/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one monotonic clock every part reads: nanoseconds and seconds since boot. */
#ifndef PROF_CLOCK_H
#define PROF_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/* Within a tick (a few ms), and cheaper: for pacing, not for measuring. */
static inline uint64_t mono_coarse_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/* The calling thread's CPU time, ns: what a piece of work cost it, not the wall. */
static inline uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

static inline double mono_s(void)
{
	return (double)mono_ns() / 1e9;
}

#endif
