/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the workloads share: the clock, the -s value, and the ready signal. */
#ifndef PROF_TESTS_WORKLOAD_H
#define PROF_TESTS_WORKLOAD_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The -s value: a non-negative number of seconds, or usage() (which exits). */
static inline double parse_seconds(const char *s, void (*usage)(void))
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0))
		usage();
	return v;
}

/* The command line of a workload that takes -s SECONDS alone: its seconds (secs when not given). */
static inline double only_seconds(int argc, char **argv, double secs, void (*usage)(void))
{
	if (argc == 3 && !strcmp(argv[1], "-s"))
		return parse_seconds(argv[2], usage);
	if (argc != 1)
		usage();
	return secs;
}

/*
 * Tell a waiting test we are running. Opening a FIFO for writing blocks
 * until the test opens it for reading, which is what it waits for.
 */
static inline void say_ready(const char *prog, const char *fifo)
{
	static const char msg[] = "ready\n";
	int fd = open(fifo, O_WRONLY);

	if (fd < 0) {
		fprintf(stderr, "%s: cannot open '%s': %s\n", prog, fifo, strerror(errno));
		exit(1);
	}
	if (write(fd, msg, sizeof(msg) - 1) != (ssize_t)(sizeof(msg) - 1)) {
		fprintf(stderr, "%s: cannot write '%s': %s\n", prog, fifo, strerror(errno));
		exit(1);
	}
	close(fd);
}

/*
 * With PROF_WORKLOAD_CPU set, a workload adds a line to that file when it
 * exits: the CPU seconds it used, user and system, all its threads (a
 * child adds its own). Tests set their sample floors from it, not from
 * the wall time they asked for, so that a busy machine does not fail them.
 */
static void workload_cpu_report(void)
{
	const char *path = getenv("PROF_WORKLOAD_CPU");
	struct rusage ru;
	FILE *f;

	if (!path || !path[0] || getrusage(RUSAGE_SELF, &ru) < 0)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "%.6f\n", (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		(double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	fclose(f);
}

__attribute__((constructor)) static void workload_cpu_init(void)
{
	if (getenv("PROF_WORKLOAD_CPU"))
		atexit(workload_cpu_report);
}

#endif
