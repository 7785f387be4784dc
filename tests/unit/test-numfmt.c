// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * numfmt_fixed2() (src/numfmt.c) against printf's "%*.2f": percentages as
 * reports compute them (100 * a / b for random counts), values on and
 * next to every tie of hundredths, zero, widths narrower and wider than
 * the number, and values printf must be left to (huge, negative, NaN).
 *   test-numfmt [COUNT]
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "tap.h"

static size_t wrong;
static char first[256];

static void check(int w, double v)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN];
	int na = numfmt_fixed2(a, sizeof(a), w, v), nb = snprintf(b, sizeof(b), "%*.2f", w, v);

	if (na != nb || strcmp(a, b)) {
		if (!wrong++)
			snprintf(first, sizeof(first), "%%%d.2f of %.17g: '%s', printf '%s'", w, v, a, b);
	}
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 400000;
	static const int widths[] = { 0, 1, 4, 6, 7, 9, 12 };
	size_t ties = 0;

	for (long i = 0; i < count; i++) {
		uint64_t b = 1 + rnd() % (i % 3 ? 1000 : 100000000);
		uint64_t a = rnd() % (b + 1);

		check(widths[i % 7], b ? 100.0 * (double)a / (double)b : 0);
	}
	ok(wrong == 0, "%ld percentages of random counts as printf spells them%s%s", count,
	   wrong ? ": first wrong " : "", first);
	wrong = 0;
	/* every value whose thousandths end in 5, up to 100, and its neighbours */
	for (int k = 0; k <= 100000; k++) {
		double v = (double)k / 1000;

		if (k % 10 != 5)
			continue;
		ties++;
		check(7, v);
		check(9, nextafter(v, 0));
		check(9, nextafter(v, 200));
		check(0, (double)k / 8000);
	}
	ok(wrong == 0 && ties == 10000, "%zu ties of hundredths and their neighbours%s%s", ties,
	   wrong ? ": first wrong " : "", first);
	wrong = 0;
	check(9, 0);
	check(0, 0);
	check(9, 100);
	check(3, 99.999);
	check(9, 123456789.125);
	check(9, 1e300);
	check(9, -0.004);
	check(9, -12.5);
	check(9, NAN);
	check(9, INFINITY);
	check(40, 1.5);
	ok(wrong == 0, "zero, a hundred, huge, negative, NaN, infinite, wide%s%s",
	   wrong ? ": first wrong " : "", first);
	return tap_done();
}
