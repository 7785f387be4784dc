// SPDX-License-Identifier: GPL-2.0-or-later
// forkexec: the parent spins in parent_spin() while its child execs the
// `shape` workload beside this binary, both for SECONDS.
//   forkexec [-s SECONDS]
// Exits 0, or with the child's failure (128+N when signal N killed it).
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

#define SPIN_ITERS 100000UL

static volatile unsigned long sink;

__attribute__((noinline)) void parent_spin(double seconds);
__attribute__((noinline)) void parent_spin(double seconds)
{
	double end = now() + seconds;
	volatile unsigned long acc = 0;
	unsigned long i;

	do {
		for (i = 0; i < SPIN_ITERS; i++)
			acc += i;
	} while (now() < end);
	sink += acc;
}

static void usage(void)
{
	fprintf(stderr, "usage: forkexec [-s SECONDS]\n");
	exit(64);
}

/* The path of `shape` in the directory of this executable. */
static void shape_path(char *buf, size_t size)
{
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		fprintf(stderr, "forkexec: cannot read /proc/self/exe: %s\n", strerror(errno));
		exit(1);
	}
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	if ((size_t)snprintf(buf, size, "%s/shape", slash ? self : ".") >= size) {
		fprintf(stderr, "forkexec: path too long\n");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *secs = "2";
	char shape[PATH_MAX + 8];
	double seconds;
	pid_t pid;
	int c, status;

	while ((c = getopt(argc, argv, "s:")) != -1) {
		switch (c) {
		case 's':
			secs = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	seconds = parse_seconds(secs, usage);

	shape_path(shape, sizeof(shape));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "forkexec: cannot fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execl(shape, "shape", "-s", secs, (char *)NULL);
		fprintf(stderr, "forkexec: cannot run '%s': %s\n", shape, strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	parent_spin(seconds);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "forkexec: cannot wait: %s\n", strerror(errno));
			return 1;
		}
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
