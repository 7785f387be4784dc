/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small TAP producer for unit tests run by automake's tap-driver.sh. */
#ifndef PROF_TESTS_TAP_H
#define PROF_TESTS_TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5), unused))
static int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", pass ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	return pass;
}

/* xorshift64: the same numbers on every run; a test may reseed rnd_state. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

__attribute__((unused))
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
