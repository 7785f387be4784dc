// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "numfmt.h"

/*
 * printf rounds the double's exact value to hundredths, ties to even.
 * x = v * 100 is that value within a relative 2^-53 (under 1e-7 below
 * 1e9), so where x is further than a millionth from a half, rounding x
 * to the nearest integer rounds the same way; near a half, or out of
 * range, printf does it.
 */
int numfmt_fixed2(char *buf, size_t len, int w, double v)
{
	double x = v * 100.0;
	char d[24];
	int n = 0, pad, at = 0;
	uint64_t h;

	if (!(x >= 0 && x < 1e9) || fabs(x - floor(x) - 0.5) < 1e-6 || w > 32 || len < 36)
		return snprintf(buf, len, "%*.2f", w, v);
	h = (uint64_t)(x + 0.5);
	d[n++] = (char)('0' + h % 10);
	d[n++] = (char)('0' + h / 10 % 10);
	d[n++] = '.';
	h /= 100;
	do {
		d[n++] = (char)('0' + h % 10);
		h /= 10;
	} while (h);
	for (pad = w - n; pad > 0; pad--)
		buf[at++] = ' ';
	while (n)
		buf[at++] = d[--n];
	buf[at] = 0;
	return at;
}
