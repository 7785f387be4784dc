// SPDX-License-Identifier: GPL-2.0-or-later
// offcpu: a workload with known on- and off-CPU shares, in one thread.
// Each 100 ms round: spin_work spins on the CPU for SPIN ms, sleep_work
// sleeps (nanosleep) SLEEP ms, and read_work blocks READ ms in a read(2)
// of a timerfd. By default 50:30:20 of the wall time.
//   offcpu [-s SECONDS] [-w SPIN,SLEEP,READ]
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/timerfd.h>

#include "workload.h"

static volatile unsigned long sink;
static int tfd;

static void usage(void)
{
	fprintf(stderr, "usage: offcpu [-s SECONDS] [-w SPIN,SLEEP,READ]\n");
	exit(2);
}

__attribute__((noinline)) void spin_work(double ms);
__attribute__((noinline)) void spin_work(double ms)
{
	double end = now() + ms / 1000;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

__attribute__((noinline)) void sleep_work(double ms);
__attribute__((noinline)) void sleep_work(double ms)
{
	struct timespec ts = { 0, (long)(ms * 1e6) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

__attribute__((noinline)) void read_work(double ms);
__attribute__((noinline)) void read_work(double ms)
{
	struct itimerspec it = { { 0, 0 }, { 0, (long)(ms * 1e6) } };
	uint64_t n;

	if (timerfd_settime(tfd, 0, &it, NULL) < 0 || read(tfd, &n, sizeof(n)) != sizeof(n)) {
		perror("offcpu: timerfd");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	double secs = 1, w[3] = { 50, 30, 20 }, end;
	int c;

	while ((c = getopt(argc, argv, "s:w:")) != -1) {
		switch (c) {
		case 's':
			secs = parse_seconds(optarg, usage);
			break;
		case 'w':
			if (sscanf(optarg, "%lf,%lf,%lf", &w[0], &w[1], &w[2]) != 3 || w[0] < 0 ||
			    w[1] < 0 || w[2] < 0 || w[1] >= 1000 || w[2] >= 1000)
				usage();
			break;
		default:
			usage();
		}
	}
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (tfd < 0) {
		perror("offcpu: timerfd_create");
		return 1;
	}
	end = now() + secs;
	while (now() < end) {
		spin_work(w[0]);
		sleep_work(w[1]);
		read_work(w[2]);
	}
	return 0;
}
