// SPDX-License-Identifier: GPL-2.0-or-later
// shape: a workload with a known profile. main -> run() -> leaf_a, leaf_b,
// leaf_c, called 6:3:1 times a round with one fixed cost per call, so they
// take about 60%, 30% and 10% of the CPU time; -w A:B:C gives other
// counts (3:3:4 for 30%, 30%, 40%), for tests of what changed.
//   shape [-s SECONDS] [-r READY_FIFO] [-w A:B:C] [-d PERCENT] [-t]
// With -r, writes "ready\n" to READY_FIFO once the first round has run.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

/* Iterations per leaf call: about 0.1 ms, so a round (10 calls) is short
 * next to any duration a test asks for, and the clock is read once a round. */
#define LEAF_ITERS 100000UL

static volatile unsigned long sink;

/* The three leaves are the same loop, so one call costs the same in each;
 * only their call counts differ. noinline keeps each its own symbol, and
 * aligned(64) puts each loop at the same offset in a cache line, so that
 * code placement cannot make one leaf faster than another.
 * The accumulator is a volatile local: every iteration loads and stores it,
 * so the loop can be neither dropped nor folded, and because it lives on
 * the stack GCC keeps the frame pointer even in these leaf functions (with
 * only a global it drops the frame of a leaf that never touches the stack,
 * -fno-omit-frame-pointer or not, and call chains would skip run()). */
#define LEAF(name) \
	__attribute__((noinline, aligned(64))) void name(void); \
	__attribute__((noinline, aligned(64))) void name(void) \
	{ \
		volatile unsigned long acc = 0; \
		unsigned long i; \
		for (i = 0; i < LEAF_ITERS; i++) \
			acc += i; \
		sink += acc; \
	}

LEAF(leaf_a)
LEAF(leaf_b)
LEAF(leaf_c)

static void usage(void)
{
	fprintf(stderr, "usage: shape [-s SECONDS] [-r READY_FIFO] [-w A:B:C] [-d PERCENT] [-t]\n");
	exit(64);
}

/* Calls a round of leaf_a, leaf_b and leaf_c. */
static int weights[3] = { 6, 3, 1 };
/*
 * -d PERCENT: runs rounds that percent of the time and sleeps the rest, a
 * few ms at a time: a long-running target for tests that need its samples,
 * not a CPU of their own (their shares are those of the time it runs).
 * (Said here, not above: the committed recordings' line numbers of the
 * leaves are the lines above this one.)
 */
static int duty = 100;

/* After a round: sleep while the rounds ran over duty% of the time since start. */
static void rest(double start, double *busy, double round_began)
{
	double t = now(), owed;

	*busy += t - round_began;
	owed = *busy * 100 / duty - (t - start);
	if (owed > 0.001) {
		struct timespec ts = { (time_t)owed, (long)((owed - (double)(time_t)owed) * 1e9) };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
}

/*
 * A round's calls, in an order drawn anew each round (a fixed xorshift
 * seed, so the same run each time): a timer that samples at a fixed phase
 * of a round meets each leaf as often as it runs. On a loaded machine
 * cpu-clock's samples keep their phase across preemptions (the recorder,
 * woken by a sample, preempts the program at that sample, and the timer
 * resumes a full period later), so one phase holds for a whole run: a
 * fixed order gave leaf_a 50 to 64% where the thread's own clock gave it
 * 59%, and the order turned by one call a round 46 to 78% (sd 4.2 over
 * eight runs at load 9, against 2.4 drawn anew).
 * -t turns the order by one call each round instead (round r begins with
 * call r mod n): a PMU counting a deterministic guest's instructions then
 * meets each call as often, with no draw's noise (60.0% under -icount,
 * where a draw gave 61.8%).
 */
static void (*calls[3 * 1000])(void);
static int ncalls;
static int turned;

static void shuffle(void)
{
	static unsigned long x = 88172645463325252UL;

	for (int i = ncalls - 1; i > 0; i--) {
		void (*t)(void);
		int j;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (int)(x % (unsigned long)(i + 1));
		t = calls[i];
		calls[i] = calls[j];
		calls[j] = t;
	}
}

__attribute__((noinline)) void run(double seconds, const char *ready);
__attribute__((noinline)) void run(double seconds, const char *ready)
{
	double start = now(), end = start + seconds, busy = 0, began;
	int i, turn = 0;

	for (i = 0; i < weights[0]; i++)
		calls[ncalls++] = leaf_a;
	for (i = 0; i < weights[1]; i++)
		calls[ncalls++] = leaf_b;
	for (i = 0; i < weights[2]; i++)
		calls[ncalls++] = leaf_c;
	do {
		began = now();
		if (!turned)
			shuffle();
		for (i = 0; i < ncalls; i++)
			calls[(turn + i) % ncalls]();
		if (turned)
			turn = (turn + 1) % ncalls;
		if (ready) {
			say_ready("shape", ready);
			ready = NULL;
		}
		if (duty < 100)
			rest(start, &busy, began);
	} while (now() < end);
}

int main(int argc, char **argv)
{
	double seconds = 2;
	const char *ready = NULL;
	int c;

	/* A test that reads the ready line and closes the FIFO must not
	 * kill us with SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	while ((c = getopt(argc, argv, "s:r:w:d:t")) != -1) {
		switch (c) {
		case 's':
			seconds = parse_seconds(optarg, usage);
			break;
		case 'r':
			ready = optarg;
			break;
		case 't':
			turned = 1;
			break;
		case 'w': {
			char end;

			if (sscanf(optarg, "%d:%d:%d%c", &weights[0], &weights[1], &weights[2],
				   &end) != 3 || weights[0] < 0 || weights[1] < 0 || weights[2] < 0 ||
			    weights[0] > 1000 || weights[1] > 1000 || weights[2] > 1000 ||
			    weights[0] + weights[1] + weights[2] == 0)
				usage();
			break;
		}
		case 'd': {
			char end;

			if (sscanf(optarg, "%d%c", &duty, &end) != 1 || duty < 1 || duty > 100)
				usage();
			break;
		}
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	run(seconds, ready);
	return 0;
}
