// SPDX-License-Identifier: GPL-2.0-or-later
/* ring_copy() on a simulated ring: plain spans, wrap-around, a full ring. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "ring.h"
#include "tap.h"

#define SIZE 64

static unsigned char ring[SIZE];

/* Write len bytes of pattern at logical position pos, wrapping as the kernel does. */
static void put(uint64_t pos, const unsigned char *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		ring[(pos + i) & (SIZE - 1)] = src[i];
}

int main(void)
{
	unsigned char src[SIZE], dst[SIZE];
	size_t n;

	for (int i = 0; i < SIZE; i++)
		src[i] = (unsigned char)(i * 7 + 1);

	put(0, src, 24);
	n = ring_copy(ring, SIZE, 0, 24, dst);
	ok(n == 24 && !memcmp(dst, src, 24), "a span that does not wrap comes out whole");

	put(56, src, 24);	/* 8 bytes at the end, 16 at the start */
	memset(dst, 0, sizeof(dst));
	n = ring_copy(ring, SIZE, 56, 80, dst);
	ok(n == 24 && !memcmp(dst, src, 24), "a span that wraps comes out in order");

	put(1000 * SIZE + 40, src, SIZE);
	n = ring_copy(ring, SIZE, 1000 * SIZE + 40, 1001 * SIZE + 40, dst);
	ok(n == SIZE && !memcmp(dst, src, SIZE), "a full ring, far into the stream, comes out whole");

	n = ring_copy(ring, SIZE, 5 * SIZE, 5 * SIZE, dst);
	ok(n == 0, "an empty ring copies nothing");

	/* head past 2^32: positions are u64 and must not be truncated */
	put(0x100000000ULL - 8, src, 16);
	n = ring_copy(ring, SIZE, 0x100000000ULL - 8, 0x100000000ULL + 8, dst);
	ok(n == 16 && !memcmp(dst, src, 16), "positions across 2^32 wrap correctly");
	return tap_done();
}
