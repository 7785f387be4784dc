// SPDX-License-Identifier: GPL-2.0-or-later
// offcpu: a workload with known on- and off-CPU shares, in one thread.
// Each 100 ms round: spin_work spins on the CPU for SPIN ms, sleep_work
// sleeps (nanosleep) SLEEP ms, and read_work blocks READ ms in a read(2)
// of a timerfd. By default 50:30:20 of the wall time.
//   offcpu [-s SECONDS] [-w SPIN,SLEEP,READ]
// -l N: N threads take turns on one mutex instead, each holding it while
// it spins 2 ms (locked_work) and waiting for it in lock_wait.
// -p: two threads bounce a byte over two pipes as fast as they can
// (ping and pong): a context switch or two each way.
// With PROF_WORKLOAD_WAITS=FILE, the seconds the sleeps and the reads
// really took (waking included) and the whole loop's are added to FILE
// as one line.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/timerfd.h>

#include "workload.h"

static volatile unsigned long sink;
static int tfd;

static void usage(void)
{
	fprintf(stderr, "usage: offcpu [-s SECONDS] [-w SPIN,SLEEP,READ | -l THREADS | -p]\n");
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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double until;

__attribute__((noinline)) void lock_wait(void);
__attribute__((noinline)) void lock_wait(void)
{
	pthread_mutex_lock(&lock);
}

__attribute__((noinline)) void locked_work(void);
__attribute__((noinline)) void locked_work(void)
{
	spin_work(2);
}

static void *locker(void *arg)
{
	(void)arg;
	while (now() < until) {
		lock_wait();
		locked_work();
		pthread_mutex_unlock(&lock);
		sched_yield();
	}
	return NULL;
}

static int ping[2], pong[2];
static volatile unsigned long bounces;

static void *ponger(void *arg)
{
	char b;

	(void)arg;
	while (read(ping[0], &b, 1) == 1 && b)
		if (write(pong[1], &b, 1) != 1)
			break;
	return NULL;
}

__attribute__((noinline)) void pingpong(void);
__attribute__((noinline)) void pingpong(void)
{
	pthread_t t;
	char b = 1;

	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, ponger, NULL)) {
		perror("offcpu: pingpong");
		exit(1);
	}
	while (now() < until) {
		for (int i = 0; i < 100; i++) {
			if (write(ping[1], &b, 1) != 1 || read(pong[0], &b, 1) != 1) {
				perror("offcpu: pingpong");
				exit(1);
			}
			bounces++;
		}
	}
	b = 0;
	if (write(ping[1], &b, 1) != 1)
		exit(1);
	pthread_join(t, NULL);
	printf("offcpu: %lu round trips\n", bounces);
}

int main(int argc, char **argv)
{
	double secs = 1, w[3] = { 50, 30, 20 }, start, end, waited[2] = { 0, 0 };
	int c, nlock = 0, pp = 0;

	while ((c = getopt(argc, argv, "s:w:l:p")) != -1) {
		switch (c) {
		case 's':
			secs = parse_seconds(optarg, usage);
			break;
		case 'l':
			nlock = atoi(optarg);
			if (nlock < 2 || nlock > 64)
				usage();
			break;
		case 'p':
			pp = 1;
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
	until = now() + secs;
	if (pp) {
		pingpong();
		return 0;
	}
	if (nlock) {
		pthread_t t[64];

		for (int i = 0; i < nlock; i++)
			if (pthread_create(&t[i], NULL, locker, NULL)) {
				perror("offcpu: pthread_create");
				return 1;
			}
		for (int i = 0; i < nlock; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (tfd < 0) {
		perror("offcpu: timerfd_create");
		return 1;
	}
	start = now();
	end = start + secs;
	while (now() < end) {
		double t0, t1, t2;

		spin_work(w[0]);
		t0 = now();
		sleep_work(w[1]);
		t1 = now();
		read_work(w[2]);
		t2 = now();
		waited[0] += t1 - t0;
		waited[1] += t2 - t1;
	}
	/*
	 * What the waits really took, as the tests' measure of what the
	 * machine gave: on a busy one a woken thread waits for a CPU too,
	 * and off-CPU time counts that wait.
	 */
	if (getenv("PROF_WORKLOAD_WAITS")) {
		FILE *f = fopen(getenv("PROF_WORKLOAD_WAITS"), "a");

		if (f) {
			fprintf(f, "%.6f %.6f %.6f\n", waited[0], waited[1], now() - start);
			fclose(f);
		}
	}
	return 0;
}
