// SPDX-License-Identifier: GPL-2.0-or-later
// threads: two threads of one process spin for the whole run, thread_a in
// spin_a and thread_b in spin_b (about half the samples each); main only
// waits for them.
//   threads [-s SECONDS] [-r READY_FIFO]
// With -r, writes "ready\n" to READY_FIFO once both threads have spun.
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

/* The two leaves are the same loop at the same alignment, so they cost the
 * same; the volatile local keeps the loop and, being on the stack, keeps
 * GCC from dropping the frame pointer of these leaf functions. */
#define SPIN_ITERS 100000UL

static volatile unsigned long sink_a, sink_b;
static double seconds = 2;
static pthread_barrier_t started;

__attribute__((noinline, aligned(64))) void spin_a(void);
__attribute__((noinline, aligned(64))) void spin_a(void)
{
	volatile unsigned long acc = 0;
	unsigned long i;

	for (i = 0; i < SPIN_ITERS; i++)
		acc += i;
	sink_a += acc;
}

__attribute__((noinline, aligned(64))) void spin_b(void);
__attribute__((noinline, aligned(64))) void spin_b(void)
{
	volatile unsigned long acc = 0;
	unsigned long i;

	for (i = 0; i < SPIN_ITERS; i++)
		acc += i;
	sink_b += acc;
}

/* Spin in leaf() until the end time; meet main at the barrier after the
 * first call, so that "ready" means both threads are running. */
static void spin_until(double end, void (*leaf)(void))
{
	leaf();
	pthread_barrier_wait(&started);
	while (now() < end)
		leaf();
}

__attribute__((noinline)) void *thread_a(void *arg);
__attribute__((noinline)) void *thread_a(void *arg)
{
	spin_until(*(double *)arg, spin_a);
	return NULL;
}

__attribute__((noinline)) void *thread_b(void *arg);
__attribute__((noinline)) void *thread_b(void *arg)
{
	spin_until(*(double *)arg, spin_b);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: threads [-s SECONDS] [-r READY_FIFO]\n");
	exit(64);
}

int main(int argc, char **argv)
{
	const char *ready = NULL;
	pthread_t ta, tb;
	double end;
	int c, err;

	signal(SIGPIPE, SIG_IGN);
	while ((c = getopt(argc, argv, "s:r:")) != -1) {
		switch (c) {
		case 's':
			seconds = parse_seconds(optarg, usage);
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	end = now() + seconds;
	pthread_barrier_init(&started, NULL, 3);
	err = pthread_create(&ta, NULL, thread_a, &end);
	if (!err)
		err = pthread_create(&tb, NULL, thread_b, &end);
	if (err) {
		fprintf(stderr, "threads: cannot create a thread: %s\n", strerror(err));
		return 1;
	}
	pthread_barrier_wait(&started);
	if (ready)
		say_ready("threads", ready);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&started);
	return 0;
}
