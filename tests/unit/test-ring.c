// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ring_copy() on a simulated ring: plain spans, wrap-around, a full ring;
 * ring_read_to() over records that wrap; the codemap that -g's stack
 * words are checked against (codemap.h); and the leaf repair's memory of
 * processes (mend.h) under a churn of short ones.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "codemap.h"
#include "mend.h"
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

/* A record of type at pos: header, pid/tid, then start and len, as an MMAP2 begins. */
static void put_rec(uint64_t pos, uint32_t type, uint16_t size, uint64_t start, uint64_t len)
{
	unsigned char b[SIZE];
	struct perf_event_header h = { type, 0, size };

	memset(b, 0, sizeof(b));
	memcpy(b, &h, sizeof(h));
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	put(pos, b, size);
}

static void test_read(void)
{
	struct perf_event_mmap_page pc;
	struct ring r;
	unsigned char dst[SIZE];
	struct perf_event_header h;
	uint64_t start;

	memset(&pc, 0, sizeof(pc));
	memset(&r, 0, sizeof(r));
	r.data = ring;
	r.data_size = SIZE;
	r.pc = &pc;
	/* a sample of 16 bytes, then an MMAP2 of 40 that wraps at the ring's end */
	pc.data_tail = 3 * SIZE + 8;
	put_rec(3 * SIZE + 8, PERF_RECORD_SAMPLE, 16, 0, 0);
	put_rec(3 * SIZE + 24, PERF_RECORD_MMAP2, 40, 0x7f0000001000ULL, 0x2000);
	ok(ring_read_to(&r, dst, 3 * SIZE + 24) == 16 && pc.data_tail == 3 * SIZE + 24,
	   "ring_read_to() takes the records before head, and hands their space back");
	memset(dst, 0, sizeof(dst));
	ok(ring_read_to(&r, dst, 3 * SIZE + 64) == 40 && pc.data_tail == 3 * SIZE + 64,
	   "then the one that wraps");
	memcpy(&h, dst, sizeof(h));
	memcpy(&start, dst + 16, 8);
	ok(h.type == PERF_RECORD_MMAP2 && h.size == 40 && start == 0x7f0000001000ULL,
	   "a record that wraps comes out whole");
	ok(ring_read_to(&r, dst, 3 * SIZE + 64) == 0, "nothing new: nothing copied");
	ok(ring_read_to(&r, dst, 5 * SIZE + 64) == 0 && pc.data_tail == 5 * SIZE + 64,
	   "a head more than a ring ahead: nothing copied, the tail moved to it");
}

/* A FORK or EXIT record of pid (its own thread) at time t, with its sample_id (tid, time). */
static void mend_task(struct mend *m, uint32_t type, uint32_t pid, uint32_t ppid, uint64_t t)
{
	unsigned char b[8 + 24 + 16];
	struct perf_event_header h = { type, 0, sizeof(b) };
	uint32_t ids[4] = { pid, ppid, pid, ppid }, tid[2] = { pid, pid };

	memcpy(b, &h, sizeof(h));
	memcpy(b + 8, ids, sizeof(ids));
	memcpy(b + 24, &t, 8);
	memcpy(b + 32, tid, sizeof(tid));
	memcpy(b + 40, &t, 8);
	mend_record(m, b, sizeof(b));
}

/*
 * 3000 processes forked and gone, one a millisecond, 100 of them still
 * there: kept until a sweep (each 10 s of the records' time), then only
 * those still there.
 */
static void test_mend_procs(void)
{
	struct perf_event_attr attr;
	struct mend_stats st;
	struct mend *m;
	uint64_t t = 1000000000ULL;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.sample_id_all = 1;
	m = mend_new(&attr, NULL, NULL);
	{
		/* pid 1 execs: known from here, and so are the children it forks */
		unsigned char b[8 + 8 + 16 + 16];
		struct perf_event_header h = { PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, sizeof(b) };
		uint32_t ids[2] = { 1, 1 };

		memset(b, 0, sizeof(b));
		memcpy(b, &h, sizeof(h));
		memcpy(b + 8, ids, sizeof(ids));
		memcpy(b + 16, "init", 4);
		memcpy(b + 32, ids, sizeof(ids));
		memcpy(b + 40, &t, 8);
		mend_record(m, b, sizeof(b));
	}
	mend_pass(m);
	for (uint32_t i = 0; i < 3000; i++) {
		t += 1000000;
		mend_task(m, PERF_RECORD_FORK, 1000 + i, 1, t);
		if (i >= 100)
			mend_task(m, PERF_RECORD_EXIT, 1000 + i, 1, t + 500000);
		mend_pass(m);
	}
	mend_stats(m, &st);
	ok(st.procs == 3001, "processes gone are kept until a sweep (%llu)", (unsigned long long)st.procs);
	mend_task(m, PERF_RECORD_FORK, 9000, 1, t + 11000000000ULL);
	mend_pass(m);
	mend_stats(m, &st);
	ok(st.procs == 102, "a sweep keeps those still there: the 100, their parent and the new one (%llu)",
	   (unsigned long long)st.procs);
	mend_task(m, PERF_RECORD_EXIT, 1050, 1, t + 11000000001ULL);
	mend_task(m, PERF_RECORD_FORK, 1050, 1, t + 11000000002ULL);
	mend_pass(m);
	mend_stats(m, &st);
	ok(st.procs == 102, "a pid gone and made again after a sweep is one process (%llu)",
	   (unsigned long long)st.procs);
	mend_free(m);
}

static void test_codemap(void)
{
	struct codemap m;
	unsigned char rec[40];
	struct perf_event_header h = { PERF_RECORD_MMAP2, 0, sizeof(rec) };
	uint64_t start = 0x7f1234560000ULL, len = 0x30000;

	codemap_init(&m);
	ok(!codemap_has(&m, 0x7f1234560000ULL), "an empty codemap holds nothing");
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 16, &start, 8);
	memcpy(rec + 24, &len, 8);
	codemap_record(&m, rec, sizeof(rec));
	ok(codemap_has(&m, start) && codemap_has(&m, start + len - 1),
	   "an MMAP2's first and last bytes are where code may be");
	ok(!codemap_has(&m, start + len + 0x10000) && !codemap_has(&m, start - 0x10001),
	   "a granule past either end is not");
	codemap_add(&m, 0xffffffff81000000ULL, 0x1000000);
	ok(!m.full && !codemap_has(&m, 0xffffffff81000000ULL), "the kernel's text adds nothing");
	for (uint64_t i = 0; i < 4; i++)
		codemap_add(&m, 0x100000000000ULL + (i << 32), 0xffff0000ULL);
	ok(!m.full && !codemap_has(&m, 0x5555deadbeefULL) && codemap_has(&m, 0x100300001234ULL),
	   "four mappings of nearly 4 GiB (262140 granules, and the MMAP2's 3) fit");
	codemap_add(&m, 0x200000000000ULL, 0x10000);
	ok(!m.full && codemap_has(&m, 0x200000000000ULL), "and one granule more: 262144, the budget");
	codemap_add(&m, 0x210000000000ULL, 0x10000);
	ok(m.full && codemap_has(&m, 0x5555deadbeefULL),
	   "one more goes past the budget: every word is maybe code, so the map grows no more");
	codemap_release(&m);
	codemap_init(&m);
	codemap_add(&m, 0x10000, (uint64_t)1 << 40);
	ok(m.full && codemap_has(&m, 0x5555deadbeefULL),
	   "a mapping too big to list makes every word maybe code");
	codemap_release(&m);

	/* what it remembers of the granules asked (codemap.h's seen and maybe) follows the map */
	codemap_init(&m);
	ok(!codemap_has(&m, 0x7f9900000000ULL), "a granule not mapped yet is not code");
	codemap_add(&m, 0x7f9900000000ULL, 0x1000);
	ok(codemap_has(&m, 0x7f9900000000ULL), "once mapped, the same granule asked again is");
	{
		int wrong = 0;
		uint64_t x = 88172645463325252ULL;

		for (uint64_t i = 0; i < 40000; i += 2)
			codemap_add(&m, 0x300000000000ULL + i * 0x130000, 1);
		for (int round = 0; round < 3; round++)
			for (int k = 0; k < 40000; k++) {
				uint64_t i;

				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				i = x % 40000;
				wrong += codemap_has(&m, 0x300000000000ULL + i * 0x130000 + (x >> 48)) !=
					 !(i % 2);
			}
		ok(!m.full && !wrong,
		   "20000 of 40000 granules mapped, each asked three times at random: every answer the map's (%d wrong)",
		   wrong);
	}
	codemap_release(&m);
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
	test_read();
	test_codemap();
	test_mend_procs();
	return tap_done();
}
