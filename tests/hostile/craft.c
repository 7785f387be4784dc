// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes crafted profiles that once broke the reader or the report, one
 * file each, for tests/run-report-hostile.sh and the fuzzers' seeds:
 *   craft NAME [ARG]   writes NAME.data in the current directory
 * Each file is described where it is made. Records are laid out by hand
 * (only the byte layouts of perf_event.h and perf's header.h), so that a
 * file can be as wrong as the test needs.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <linux/perf_event.h>

#include "jitdump.h"
#include "pdata.h"

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *data, size_t len)
{
	if (b->n + len > b->cap) {
		b->cap = (b->n + len) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("craft");
			exit(1);
		}
	}
	if (data)
		memcpy(b->p + b->n, data, len);
	else
		memset(b->p + b->n, 0, len);
	b->n += len;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

/* A record: header, body, zeros to a multiple of 8. */
static void rec(struct buf *b, uint32_t type, uint16_t misc, const void *body, size_t len)
{
	size_t padded = (len + 7) & ~(size_t)7;
	struct perf_event_header h = { type, misc, (uint16_t)(sizeof(h) + padded) };

	put(b, &h, sizeof(h));
	put(b, body, len);
	put(b, NULL, padded - len);
}

static void pipe_header(struct buf *b)
{
	put64(b, PDATA_MAGIC);
	put64(b, PDATA_PIPE_HEADER_SIZE);
}

#define ST_BASE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static struct perf_event_attr make_attr(uint32_t type, uint64_t config, uint64_t st)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = PDATA_ATTR_SIZE;
	a.type = type;
	a.config = config;
	a.sample_type = st;
	a.sample_period = 1000000;
	a.sample_id_all = 1;
	return a;
}

/* HEADER_ATTR: the attr in PDATA_ATTR_SIZE bytes, then its ids. */
static void attr_rec(struct buf *b, const struct perf_event_attr *a, const uint64_t *ids, size_t n)
{
	unsigned char body[PDATA_ATTR_SIZE + 8 * 64];

	memset(body, 0, sizeof(body));
	memcpy(body, a, sizeof(*a) < PDATA_ATTR_SIZE ? sizeof(*a) : PDATA_ATTR_SIZE);
	if (n)
		memcpy(body + PDATA_ATTR_SIZE, ids, 8 * n);
	rec(b, PDATA_HEADER_ATTR, 0, body, PDATA_ATTR_SIZE + 8 * n);
}

/*
 * The sample_id trailer of ST_BASE events: TID, TIME, then IDENTIFIER when
 * the file's events have one (trailer_id, 0 for none).
 */
static uint64_t trailer_id;

static size_t trailer_size(void)
{
	return trailer_id ? 24 : 16;
}

static void trailer(struct buf *b, uint32_t pid, uint64_t time)
{
	uint32_t pt[2] = { pid, pid };

	put(b, pt, 8);
	put64(b, time);
	if (trailer_id)
		put64(b, trailer_id);
}

static void comm_rec(struct buf *b, uint32_t pid, const char *comm)
{
	unsigned char body[8 + 32];
	size_t len = (8 + strlen(comm) + 1 + 7) & ~(size_t)7;
	struct perf_event_header h = { PERF_RECORD_COMM, 0, (uint16_t)(8 + len + trailer_size()) };
	uint32_t pt[2] = { pid, pid };

	memset(body, 0, sizeof(body));
	memcpy(body, pt, 8);
	memcpy(body + 8, comm, strlen(comm));
	put(b, &h, sizeof(h));
	put(b, body, len);
	trailer(b, pid, 1);
}

/* MMAP2 as Linux 3.16 and later write it, or (old) as 3.12-3.15 did: no prot, flags. */
static void mmap2_rec(struct buf *b, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *path, int old)
{
	size_t fixed = old ? 56 : 64, name = (strlen(path) + 8) & ~(size_t)7;
	unsigned char body[64 + 4096];
	struct perf_event_header h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER,
				       (uint16_t)(8 + fixed + name + trailer_size()) };
	uint32_t pt[2] = { pid, pid }, prot = 5, flags = 2;
	uint64_t v[3] = { start, len, pgoff };

	memset(body, 0, sizeof(body));
	memcpy(body, pt, 8);
	memcpy(body + 8, v, 24);
	if (!old) {
		memcpy(body + 56, &prot, 4);
		memcpy(body + 60, &flags, 4);
	}
	memcpy(body + fixed, path, strlen(path));
	put(b, &h, sizeof(h));
	put(b, body, fixed + name);
	trailer(b, pid, 1);
}

/* A sample of an ST_BASE event (IDENTIFIER first when id), with a call chain when chain. */
static void sample_rec(struct buf *b, uint32_t pid, uint64_t time, uint64_t ip, const uint64_t *id,
		       const uint64_t *chain, size_t nchain)
{
	uint64_t w[8 + 1100];
	size_t n = 0;
	uint32_t pt[2] = { pid, pid };

	if (id)
		w[n++] = *id;
	w[n++] = ip;
	memcpy(&w[n++], pt, 8);
	w[n++] = time;
	w[n++] = 1000000;	/* PERIOD comes before CALLCHAIN */
	if (chain) {
		w[n++] = nchain;
		memcpy(&w[n], chain, 8 * nchain);
		n += nchain;
	}
	rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, 8 * n);
}

static void round_rec(struct buf *b)
{
	rec(b, PDATA_FINISHED_ROUND, 0, NULL, 0);
}

/* The COMPRESSED feature: version 0, zstd, level, ratio, mmap_len. */
static void compressed_feature(struct buf *b, uint32_t mmap_len)
{
	unsigned char body[8 + 20];
	uint64_t id = PDATA_FEAT_COMPRESSED;
	uint32_t c[5] = { 0, 1, 1, 0, mmap_len };

	memcpy(body, &id, 8);
	memcpy(body + 8, c, 20);
	rec(b, PDATA_HEADER_FEATURE, 0, body, sizeof(body));
}

/*
 * One COMPRESSED record holding src compressed at level (must fit in a
 * record). The same bytes again (a crafted file's rounds repeat one
 * buffer) reuse the last compression: level 19 of 48 MiB takes seconds.
 */
static void compressed_rec(struct buf *b, const void *src, size_t len, int level)
{
	static unsigned char *last_src, *last_z;
	static size_t last_len, last_n;
	static int last_level;
	struct perf_event_header h = { PDATA_COMPRESSED, 0, 0 };
	size_t n;

	if (!last_src || last_len != len || last_level != level || memcmp(last_src, src, len)) {
		size_t cap = ZSTD_compressBound(len);

		free(last_z);
		free(last_src);
		last_z = malloc(cap);
		last_src = malloc(len ? len : 1);
		if (!last_z || !last_src) {
			fprintf(stderr, "craft: out of memory\n");
			exit(1);
		}
		memcpy(last_src, src, len);
		last_len = len;
		last_level = level;
		last_n = ZSTD_compress(last_z, cap, src, len, level);
		if (ZSTD_isError(last_n) || last_n + 8 > PDATA_RECORD_MAX) {
			fprintf(stderr, "craft: %zu bytes compress to %zu: too big for a record\n", len,
				last_n);
			exit(1);
		}
	}
	n = last_n;
	h.size = (uint16_t)(n + 8);
	put(b, &h, 8);
	put(b, last_z, n);
}

static void save(const struct buf *b, const char *name)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s.data", name);
	f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"
#define BASE 0x7f0000000000ULL

/*
 * attr-after-park: samples in libc (whose DWARF, with libc6-dbg, loads on
 * a thread while the samples wait), two rounds, then 300 more events and
 * a round: the waiting samples must keep their event (a use-after-free).
 */
static void attr_after_park(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CALLCHAIN);
	uint64_t id = 1;

	trailer_id = 1;
	pipe_header(b);
	attr_rec(b, &a, &id, 1);
	comm_rec(b, 100, "parked");
	mmap2_rec(b, 100, BASE, 0x200000, 0, LIBC, 0);
	for (int i = 0; i < 3000; i++) {
		uint64_t chain[3] = { PERF_CONTEXT_USER, BASE + 0x28000 + 16 * (uint64_t)(i % 500),
				      BASE + 0x29000 };

		sample_rec(b, 100, 10 + (uint64_t)i, chain[1], &id, chain, 3);
	}
	round_rec(b);
	round_rec(b);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	for (uint64_t i = 2; i < 302; i++)
		attr_rec(b, &a, &i, 1);
	round_rec(b);
}

/* File mode: the 104-byte header, then sections. */
struct fsec {
	uint64_t off, size;
};

static void file_header(struct buf *b, struct fsec attrs, struct fsec data, const uint64_t feat[4])
{
	uint64_t attr_size = PDATA_ATTR_SIZE + 16;

	put64(b, PDATA_MAGIC);
	put64(b, PDATA_FILE_HEADER_SIZE);
	put64(b, attr_size);
	put(b, &attrs, 16);
	put(b, &data, 16);
	put(b, NULL, 16);	/* event_types, unused */
	put(b, feat, 32);
}

/* One attr of the attrs section: PDATA_ATTR_SIZE bytes, then where its ids are. */
static void file_attr(struct buf *b, const struct perf_event_attr *a, struct fsec ids)
{
	unsigned char body[PDATA_ATTR_SIZE];

	memset(body, 0, sizeof(body));
	memcpy(body, a, sizeof(*a) < PDATA_ATTR_SIZE ? sizeof(*a) : PDATA_ATTR_SIZE);
	put(b, body, sizeof(body));
	put(b, &ids, 16);
}

/* A file-mode file of one event without ids: header, attr, the records of d. */
static void one_event_file(struct buf *b, const struct perf_event_attr *a, const uint64_t feat[4],
			   const struct buf *d)
{
	struct fsec attrs, data, ids = { 0, 0 };

	attrs.off = PDATA_FILE_HEADER_SIZE;
	attrs.size = PDATA_ATTR_SIZE + 16;
	data.off = attrs.off + attrs.size;
	data.size = d->n;
	file_header(b, attrs, data, feat);
	file_attr(b, a, ids);
	put(b, d->p, d->n);
}

/*
 * feature-wrap: a file whose hostname feature is 65515 bytes, so that its
 * record would be 65536 bytes: a u16 size of 0, and the reader looped.
 */
static void feature_wrap(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	uint64_t feat[4] = { 1ULL << PDATA_FEAT_HOSTNAME, 0, 0, 0 };
	struct buf d = { 0 };
	struct fsec host;

	for (int i = 0; i < 10; i++)
		sample_rec(&d, 1, 10 + (uint64_t)i, 0x1000, NULL, NULL, 0);
	one_event_file(b, &a, feat, &d);
	host.off = b->n + 16;
	host.size = 65515;
	put(b, &host, 16);
	put(b, NULL, 65515);
	free(d.p);
}

/*
 * ids [NEV NIDS ROUNDS]: file mode, 50 events with 8000 ids each (more than one record
 * holds), and a sample of each event by its last id: each sample must
 * land in its own event, fast.
 */
static void many_ids(struct buf *b, int nev, int nids, int rounds)
{
	uint64_t feat[4] = { 0 };
	struct buf d = { 0 }, idb = { 0 };
	struct fsec attrs, data;
	size_t ids_at;

	for (int e = 0; e < nev; e++)
		for (int i = 0; i < nids; i++)
			put64(&idb, 1000000 * (uint64_t)(e + 1) + (uint64_t)i);
	for (int r = 0; r < rounds; r++)
		for (int e = 0; e < nev; e++) {
			uint64_t id = 1000000 * (uint64_t)(e + 1) + (uint64_t)(nids - 1 - r % nids);

			sample_rec(&d, 1, 10 + (uint64_t)r, 0x1000, &id, NULL, 0);
		}
	attrs.off = PDATA_FILE_HEADER_SIZE;
	attrs.size = (uint64_t)nev * (PDATA_ATTR_SIZE + 16);
	ids_at = attrs.off + attrs.size;
	data.off = ids_at + idb.n;
	data.size = d.n;
	file_header(b, attrs, data, feat);
	for (int e = 0; e < nev; e++) {
		/* software events 0..9 have names; the rest are named by number */
		struct perf_event_attr a = make_attr(e < 10 ? PERF_TYPE_SOFTWARE : PERF_TYPE_RAW,
						     (uint64_t)e, ST_BASE | PERF_SAMPLE_IDENTIFIER);
		struct fsec ids = { ids_at + 8 * (uint64_t)nids * (uint64_t)e, 8 * (uint64_t)nids };

		file_attr(b, &a, ids);
	}
	put(b, idb.p, idb.n);
	put(b, d.p, d.n);
	free(d.p);
	free(idb.p);
}

/*
 * ids-overlap: 8000 events whose id sections all name the same 32 KiB:
 * 1 MB naming 2 GB of ids. Refused as corrupt, in bounded memory.
 */
static void ids_overlap(struct buf *b)
{
	uint64_t feat[4] = { 0 };
	struct fsec attrs, data, ids;
	int nev = 8000;

	attrs.off = PDATA_FILE_HEADER_SIZE;
	attrs.size = (uint64_t)nev * (PDATA_ATTR_SIZE + 16);
	ids.off = attrs.off + attrs.size;
	ids.size = 32768;
	data.off = ids.off + ids.size;
	data.size = 0;
	file_header(b, attrs, data, feat);
	for (int e = 0; e < nev; e++) {
		struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
						     ST_BASE | PERF_SAMPLE_IDENTIFIER);

		file_attr(b, &a, ids);
	}
	for (uint64_t i = 0; i < 4096; i++)
		put64(b, i + 1);
}

/*
 * auxtrace: file mode, an AUXTRACE record whose 4 KiB payload (an Intel PT
 * trace) follows it outside its size, between samples: the payload must
 * be skipped, not read as records.
 */
static void auxtrace(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	uint64_t feat[4] = { 0 };
	struct buf d = { 0 };
	uint64_t aux[6] = { 4096, 0, 0, 0, 0, 0 };	/* size, offset, reference, idx, tid, cpu */
	unsigned char payload[4096];

	for (int i = 0; i < 10; i++)
		sample_rec(&d, 1, 10 + (uint64_t)i, 0x1000, NULL, NULL, 0);
	rec(&d, PDATA_AUXTRACE, 0, aux, sizeof(aux));
	/* a payload that reads as records of garbage: type 9 (SAMPLE), size 8 */
	for (size_t i = 0; i < sizeof(payload); i += 8) {
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 8 };

		memcpy(payload + i, &h, 8);
	}
	put(&d, payload, sizeof(payload));
	for (int i = 0; i < 10; i++)
		sample_rec(&d, 1, 20 + (uint64_t)i, 0x1000, NULL, NULL, 0);
	one_event_file(b, &a, feat, &d);
	free(d.p);
}

/* mmap2-old: libc mapped by an MMAP2 record of Linux 3.12-3.15 (RHEL 7), and samples in it. */
static void mmap2_old(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	comm_rec(b, 100, "rhel7");
	mmap2_rec(b, 100, BASE, 0x200000, 0, LIBC, 1);
	for (int i = 0; i < 100; i++)
		sample_rec(b, 100, 10 + (uint64_t)i, BASE + 0x28000, NULL, NULL, 0);
	round_rec(b);
}

/* *len bytes (cut to whole records) of one ST_BASE sample at time t, repeated. */
static unsigned char *repeated(size_t *len, uint64_t t)
{
	struct buf one = { 0 };
	unsigned char *big;

	sample_rec(&one, 1, t, 0x1000, NULL, NULL, 0);
	*len -= *len % one.n;
	big = malloc(*len);
	for (size_t i = 0; i < *len; i += one.n)
		memcpy(big + i, one.p, one.n);
	free(one.p);
	return big;
}

/*
 * bomb: compressed records whose frames expand to 256 MiB each, far over
 * the COMPRESSED feature's 1 MiB mmap_len (perf refuses them).
 */
static void bomb(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	size_t len = 256u << 20;
	unsigned char *big = repeated(&len, 5);

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 1 << 20);
	for (int i = 0; i < 3; i++)
		compressed_rec(b, big, len, 19);
	free(big);
}

/*
 * many [ROUNDS]: ROUNDS (default 30) compressed records of 48 MiB of
 * samples each, a FINISHED_ROUND after each: some 36 million samples in
 * under 1 MB, alternating between two addresses so that no run of one
 * stack merges. What an export keeps of each sample must stay bounded.
 */
static void many(struct buf *b, int rounds)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	struct buf two = { 0 };
	size_t len = 48u << 20;
	unsigned char *big;

	sample_rec(&two, 1, 5, 0x1000, NULL, NULL, 0);
	sample_rec(&two, 1, 5, 0x2000, NULL, NULL, 0);
	len -= len % two.n;
	big = malloc(len);
	for (size_t i = 0; i < len; i += two.n)
		memcpy(big + i, two.p, two.n);
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	for (int r = 0; r < rounds; r++) {
		compressed_rec(b, big, len, 19);
		round_rec(b);
	}
	free(big);
	free(two.p);
}

/*
 * threads [N [DEPTH]]: N threads (8000), each of its own name, with one
 * sample whose call chain is DEPTH frames (8100: a record's most), the
 * same addresses in each, compressed (level 9: seconds, where 19 took
 * ten times as long): 65 million frames in 300 KB. A
 * tree by thread (or a thread's stacks kept whole) grows with N * DEPTH.
 */
static void threads(struct buf *b, int n, int depth)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_CALLCHAIN);
	struct buf all = { 0 };
	uint64_t *w = calloc((size_t)depth + 8, 8);

	if (depth > 8180)
		depth = 8180;
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	for (int t = 0; t < n; t++) {
		char name[16];
		uint32_t pt[2] = { (uint32_t)(1000 + t), (uint32_t)(1000 + t) };
		size_t k = 0;

		snprintf(name, sizeof(name), "t%d", t);
		comm_rec(&all, pt[0], name);
		w[k++] = 0x1000;
		memcpy(&w[k++], pt, 8);
		w[k++] = 10 + (uint64_t)t;
		w[k++] = 1000000;
		w[k++] = (uint64_t)depth;
		w[k++] = PERF_CONTEXT_USER;
		for (int d = 1; d < depth; d++)
			w[k++] = 0x100000 + (uint64_t)d * 16;
		rec(&all, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, 8 * k);
		if (all.n > (40u << 20) || t == n - 1) {
			compressed_rec(b, all.p, all.n, 9);
			all.n = 0;
		}
	}
	round_rec(b);
	free(all.p);
	free(w);
}

/*
 * norounds: 192 MiB of samples in compressed records within their
 * mmap_len, and no FINISHED_ROUND: all of it would be queued.
 */
static void norounds(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	size_t len = 48u << 20;

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	for (uint64_t i = 0; i < 4; i++) {
		unsigned char *big = repeated(&len, 5 + i);

		compressed_rec(b, big, len, 19);
		free(big);
	}
}

/*
 * maps: N maps of one process, of one file, in random order, then
 * samples: each MMAP used to copy the whole map array.
 */
static void maps(struct buf *b, int n)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	uint32_t *order = malloc(sizeof(*order) * (size_t)n);

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	comm_rec(b, 100, "manymaps");
	for (int i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rnd() % (uint64_t)(i + 1));
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (int i = 0; i < n; i++)
		mmap2_rec(b, 100, BASE + 0x2000 * (uint64_t)order[i], 0x1000, 0, LIBC, 0);
	for (int i = 0; i < 1000; i++)
		sample_rec(b, 100, 10 + (uint64_t)i, BASE + 0x2000 * (rnd() % (uint64_t)n) + 0x10,
			   NULL, NULL, 0);
	round_rec(b);
	free(order);
}

/*
 * utf8: commands whose names are not UTF-8 (the kernel cut one at 15
 * bytes, mid-character; a surrogate; an overlong '/'; U+110000), and a
 * sample of each: every output must stay valid.
 */
static void utf8(struct buf *b)
{
	static const char *const comms[] = {
		"caf\xc3\xa9-\xe2\x82",		/* cut inside the euro sign */
		"sur\xed\xa0\x80",		/* U+D800 */
		"over\xc0\xaf",			/* overlong '/' */
		"big\xf4\x90\x80\x80",		/* U+110000 */
		"ok-\xc3\xa9\xe2\x82\xac",	/* valid: e-acute, euro */
	};
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_CALLCHAIN);

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	for (uint32_t p = 0; p < 5; p++) {
		uint64_t chain[2] = { PERF_CONTEXT_USER, 0x1000 + p };

		comm_rec(b, 100 + p, comms[p]);
		for (int i = 0; i < 10; i++)
			sample_rec(b, 100 + p, 10 + (uint64_t)i, chain[1], NULL, chain, 2);
	}
	round_rec(b);
}

/* deep: stacks of n frames (perf's limit is 127, prof keeps up to 1024). */
static void deep(struct buf *b, int n)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_CALLCHAIN);
	uint64_t chain[1100];

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	comm_rec(b, 100, "deep");
	chain[0] = PERF_CONTEXT_USER;
	for (int i = 1; i <= n; i++)
		chain[i] = 0x100000 + 16 * (uint64_t)i;
	for (int i = 0; i < 20; i++)
		sample_rec(b, 100, 10 + (uint64_t)i, chain[1], NULL, chain, (size_t)n + 1);
	round_rec(b);
}

/*
 * The user registers prof records for --call-graph dwarf (regs_user_mask()
 * in src/regs.c), and the perf_regs numbers of the frame pointer, stack
 * pointer and pc among them.
 */
#if defined(__aarch64__)
#define DWARF_REGS	((1ULL << 33) - 1)
#define REG_FP	29
#define REG_SP	31
#define REG_PC	32
#else
#define DWARF_REGS	(0xffffffULL & ~0xf000ULL)	/* x86-64 without DS, ES, FS, GS */
#define REG_FP	6
#define REG_SP	7
#define REG_PC	8
#endif

/*
 * A sample of an ST_BASE | REGS_USER | STACK_USER (64 bytes) event at ip:
 * what --call-graph dwarf records, small. Its attr needs
 * sample_regs_user = DWARF_REGS and sample_stack_user = 64.
 */
static void dwarf_sample(struct buf *b, uint32_t pid, uint64_t time, uint64_t ip)
{
	uint64_t w[128];
	size_t n = 0;
	uint32_t pt[2] = { pid, pid };

	w[n++] = ip;
	memcpy(&w[n++], pt, 8);
	w[n++] = time;
	w[n++] = 1000000;		/* period */
	w[n++] = PERF_SAMPLE_REGS_ABI_64;
	for (int r = 0; r < 64; r++)	/* the registers in bit order, 0 but three */
		if (DWARF_REGS >> r & 1)
			w[n++] = r == REG_FP ? 0x7ffc0000f000ULL : r == REG_SP ? 0x7ffc0000e000ULL :
				 r == REG_PC ? ip : 0;
	w[n++] = 64;			/* stack size */
	for (int i = 0; i < 8; i++)
		w[n++] = ip + 0x100;
	w[n++] = 64;			/* dyn size */
	rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, 8 * n);
}

/*
 * fifo PATH: a --call-graph dwarf sample in a file mapped from PATH (a
 * FIFO the test makes): unwinding must not open it and wait.
 */
static void fifo(struct buf *b, const char *path)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);

	a.sample_regs_user = DWARF_REGS;
	a.sample_stack_user = 64;
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	comm_rec(b, 100, "fifo");
	mmap2_rec(b, 100, BASE, 0x10000, 0, path, 0);
	dwarf_sample(b, 100, 20, BASE + 0x100);
	round_rec(b);
}

/* A string feature (hostname, osrelease...): u32 length, the string, NULs to 64. */
static void string_feature(struct buf *b, uint64_t id, const char *v)
{
	unsigned char body[8 + 4 + 256];
	uint32_t len = (uint32_t)((strlen(v) + 1 + 63) & ~(size_t)63);

	memset(body, 0, sizeof(body));
	memcpy(body, &id, 8);
	memcpy(body + 8, &len, 4);
	memcpy(body + 12, v, strlen(v));
	rec(b, PDATA_HEADER_FEATURE, 0, body, 12 + len);
}

/* A kernel map (pid -1) named name: [kernel.kallsyms]_text or a module's path. */
static void kernel_mmap_rec(struct buf *b, uint64_t start, uint64_t len, uint64_t pgoff,
			    const char *name)
{
	unsigned char body[32 + 256];
	size_t nlen = (strlen(name) + 8) & ~(size_t)7;
	uint32_t pt[2] = { UINT32_MAX, 0 };
	uint64_t v[3] = { start, len, pgoff };

	memset(body, 0, sizeof(body));
	memcpy(body, pt, 8);
	memcpy(body + 8, v, 24);
	memcpy(body + 32, name, strlen(name));
	{
		struct perf_event_header h = { PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
					       (uint16_t)(8 + 32 + nlen + 16) };

		put(b, &h, 8);
		put(b, body, 32 + nlen);
		trailer(b, 0, 1);
	}
}

/*
 * otherkernel TEXT FUNC: a profile of another kernel (osrelease
 * 2.6.32-foreign) whose _text was where this machine's is (TEXT), with
 * samples at FUNC (a function of this kernel: the name would be wrong),
 * in a module it mapped, and in no map at all.
 */
static void otherkernel(struct buf *b, uint64_t text, uint64_t func)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	uint64_t w[4];
	uint32_t pt[2] = { 100, 100 };

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	string_feature(b, PDATA_FEAT_OSRELEASE, "2.6.32-foreign");
	comm_rec(b, 100, "foreign");
	kernel_mmap_rec(b, text, 0x3f000000, text, "[kernel.kallsyms]_text");
	kernel_mmap_rec(b, 0xffffffffc1000000ULL, 0x100000, 0,
			"/lib/modules/2.6.32-foreign/kernel/drivers/gpu/nvidia-drm.ko");
	for (int i = 0; i < 30; i++) {
		uint64_t ip = i < 10 ? func : i < 20 ? 0xffffffffc1000100ULL : 0xffffffffff7ff000ULL;

		w[0] = ip;
		memcpy(&w[1], pt, 8);
		w[2] = 10 + (uint64_t)i;
		w[3] = 1000000;
		rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, sizeof(w));
	}
	round_rec(b);
}

/* missing N: N files, none of them on this machine, a sample in each. */
static void missing(struct buf *b, int n)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	char path[64];

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	comm_rec(b, 100, "missing");
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/nonexistent/prof-craft/lib%05d.so", i);
		mmap2_rec(b, 100, BASE + 0x10000 * (uint64_t)i, 0x10000, 0, path, 0);
	}
	for (int i = 0; i < n; i++)
		sample_rec(b, 100, 10 + (uint64_t)i, BASE + 0x10000 * (uint64_t)i + 0x100, NULL,
			   NULL, 0);
	round_rec(b);
}

/*
 * escape: a command, a file and a feature whose names hold terminal
 * escape sequences (clear the screen, set the window title).
 */
static void escape(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	string_feature(b, PDATA_FEAT_HOSTNAME, "host\033]0;pwned\007");
	comm_rec(b, 100, "\033[2J\033[31mx");
	mmap2_rec(b, 100, BASE, 0x10000, 0, "/tmp/\033[2Jlib.so", 0);
	for (int i = 0; i < 10; i++)
		sample_rec(b, 100, 10 + (uint64_t)i, BASE + 0x100, NULL, NULL, 0);
	round_rec(b);
}

/*
 * distinct [N [DEPTH]]: N samples at N different addresses, each with a
 * call chain of DEPTH frames of its own, in compressed records: the most distinct content a small
 * file can describe (the flat view, trees and pprof grow with it). zstd
 * level 3: 19 took 16 s for a file 7% smaller.
 */
static void distinct(struct buf *b, int n, int depth)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_CALLCHAIN);
	struct buf s = { 0 };

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	comm_rec(b, 100, "distinct");
	for (int i = 0; i < n; i++) {
		uint64_t ip = 0x100000 + 16 * (uint64_t)i;
		uint64_t chain[1 + 64] = { PERF_CONTEXT_USER, ip };

		/* every frame of every sample at an address of its own */
		for (int k = 2; k <= depth && k < 65; k++)
			chain[k] = ((uint64_t)k << 32) + 16 * (uint64_t)i;
		sample_rec(&s, 100, 10, ip, NULL, chain, (size_t)(depth < 64 ? depth : 64) + 1);
		if (s.n > (1u << 20) || i == n - 1) {
			compressed_rec(b, s.p, s.n, 3);
			s.n = 0;
		}
	}
	free(s.p);
}

/* FORK (or EXIT) of pid from ppid. */
static void fork_rec(struct buf *b, uint32_t pid, uint32_t ppid)
{
	uint32_t v[4] = { pid, ppid, pid, ppid };
	uint64_t time = 2;
	unsigned char body[16 + 8];

	memcpy(body, v, 16);
	memcpy(body + 16, &time, 8);
	{
		struct perf_event_header h = { PERF_RECORD_FORK, 0,
					       (uint16_t)(8 + 24 + trailer_size()) };

		put(b, &h, 8);
		put(b, body, 24);
		trailer(b, pid, 2);
	}
}

/*
 * forks NMAPS NFORKS [SAMPLE]: a process of NMAPS maps forks NFORKS
 * children, each of which maps one more file (and, with SAMPLE 1, is
 * sampled; with SAMPLE 2, sampled with a --call-graph dwarf stack):
 * every child starts with its parent's maps.
 */
static void forks(struct buf *b, int nmaps, int nforks, int sample)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);

	if (sample == 2) {
		a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a.sample_regs_user = DWARF_REGS;
		a.sample_stack_user = 64;
	}
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	comm_rec(b, 100, "parent");
	for (int i = 0; i < nmaps; i++)
		mmap2_rec(b, 100, BASE + 0x2000 * (uint64_t)i, 0x1000, 0, LIBC, 0);
	for (int i = 0; i < nforks; i++) {
		fork_rec(b, 1000 + (uint32_t)i, 100);
		mmap2_rec(b, 1000 + (uint32_t)i, 0x100000, 0x1000, 0, LIBC, 0);
		if (sample == 2)
			dwarf_sample(b, 1000 + (uint32_t)i, 3, BASE + 0x10);
		else if (sample)
			sample_rec(b, 1000 + (uint32_t)i, 3, BASE + 0x10, NULL, NULL, 0);
	}
	round_rec(b);
}

/*
 * dwarfbomb N FN: N --call-graph dwarf samples in libc, each with the
 * largest stack copy a record holds, every word of it a return address
 * into FN (the offset of a libc function's first instruction, where the
 * return address is at the stack pointer): each unwinds to as many frames
 * as it may. Compressed,
 * as they would be.
 */
static void dwarfbomb(struct buf *b, int n, uint64_t fn)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	size_t nregs = (size_t)__builtin_popcountll(DWARF_REGS);
	size_t stack = (PDATA_RECORD_MAX - 8 - 8 * (4 + 1 + nregs + 2)) & ~(size_t)7;
	struct buf s = { 0 };

	a.sample_regs_user = DWARF_REGS;
	a.sample_stack_user = (uint32_t)stack;
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	comm_rec(b, 100, "dwarfbomb");
	mmap2_rec(b, 100, BASE, 0x200000, 0, LIBC, 0);
	for (int i = 0; i < n; i++) {
		uint64_t w[8192];
		size_t k = 0;
		uint32_t pt[2] = { 100, 100 };

		w[k++] = BASE + fn;
		memcpy(&w[k++], pt, 8);
		w[k++] = 10 + (uint64_t)i;
		w[k++] = 1000000;
		w[k++] = PERF_SAMPLE_REGS_ABI_64;
		for (int r = 0; r < 64; r++)
			if (DWARF_REGS >> r & 1)
				w[k++] = r == REG_SP ? 0x7ffc00000000ULL : r == REG_PC ? BASE + fn : 0;
		w[k++] = stack;
		for (size_t j = 0; j < stack / 8; j++)
			w[k++] = BASE + fn + 1;	/* a return address: looked up at fn */
		w[k++] = stack;
		rec(&s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, 8 * k);
		if (s.n > (32u << 20) || i == n - 1) {
			compressed_rec(b, s.p, s.n, 19);
			s.n = 0;
		}
	}
	free(s.p);
}

/* swapper: samples of pid and tid 0 (the idle task, in -a), which has no COMM. */
static void swapper(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	for (int i = 0; i < 10; i++)
		sample_rec(b, 0, 10 + (uint64_t)i, 0x1000, NULL, NULL, 0);
	round_rec(b);
}

/*
 * The records in s, compressed into b in one COMPRESSED record: level 3
 * (fast) for pieces of zeros, 9 for the rest, which must be small enough
 * to compress into one record.
 */
static void flush_z(struct buf *b, struct buf *s)
{
	if (s->n)
		compressed_rec(b, s->p, s->n, s->n > (4u << 20) ? 3 : 9);
	s->n = 0;
}

/* A chunk of a carried file (src/jitdump.h): pid's kind, len bytes of data at off of total. */
static void carried_rec(struct buf *b, uint32_t kind, uint32_t pid, uint64_t total, uint64_t off,
			const void *data, uint32_t len)
{
	unsigned char body[sizeof(struct prof_ext) + PROF_EXT_CHUNK];
	struct prof_ext x;

	memset(&x, 0, sizeof(x));
	x.magic = PROF_EXT_MAGIC;
	x.kind = kind;
	x.pid = pid;
	x.total = total;
	x.offset = off;
	x.len = len;
	memcpy(body, &x, sizeof(x));
	if (data)
		memcpy(body + sizeof(x), data, len);
	else
		memset(body + sizeof(x), 0, len);
	rec(b, PDATA_HEADER_EVENT_TYPE, 0, body, sizeof(x) + len);
}

/* pid "jitproc", with one file mapped, sampled n times at JIT_ADDR, in no file's map. */
#define JIT_ADDR 0x40001000ULL
static void jit_process(struct buf *b, uint32_t pid, int n)
{
	comm_rec(b, pid, "jitproc");
	mmap2_rec(b, pid, BASE, 0x200000, 0, LIBC, 0);
	for (int i = 0; i < n; i++)
		sample_rec(b, pid, 10 + (uint64_t)i, JIT_ADDR, NULL, NULL, 0);
	round_rec(b);
}

/*
 * carried-bomb [MIB]: a carried perf map that says it is 1 TiB and never
 * ends, MIB MiB of chunks of zeros (2048): compressed, well under 1 MB.
 */
static void carried_bomb(struct buf *b, int mib)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	struct buf s = { 0 };

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	jit_process(b, 100, 10);
	for (uint64_t off = 0; off < (uint64_t)mib << 20; off += PROF_EXT_CHUNK) {
		carried_rec(&s, PROF_EXT_PERF_MAP, 100, 1ULL << 40, off, NULL, PROF_EXT_CHUNK);
		if (s.n > (48u << 20))
			flush_z(b, &s);
	}
	flush_z(b, &s);
	free(s.p);
}

/*
 * carried-many [N]: N processes' perf maps, each whole and one line
 * (300,000): every carried file once cost a table of 256 entries.
 */
static void carried_many(struct buf *b, int n)
{
	static const char map[] = "40001000 100 jitted_f\n";
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	struct buf s = { 0 };

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	jit_process(b, 1000, 10);
	for (int i = 0; i < n; i++) {
		carried_rec(&s, PROF_EXT_PERF_MAP, 1000 + (uint32_t)i, sizeof(map) - 1, 0, map,
			    sizeof(map) - 1);
		if (s.n > (1u << 20))
			flush_z(b, &s);
	}
	flush_z(b, &s);
	free(s.p);
}

/*
 * offcpu-threads [N]: N threads of one process, each with one sample of
 * the context-switches event --off-cpu adds (a switch-out) carrying a
 * stack copy of 64,000 bytes, and none of them ever back (8000).
 */
static void offcpu_threads(struct buf *b, int n)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
					     ST_BASE | PERF_SAMPLE_STACK_USER);
	struct buf s = { 0 };
	size_t stack = 64000;
	uint64_t *w = calloc(1, 64 + stack + 16);

	a.sample_period = 1;
	a.sample_stack_user = (uint32_t)stack;
	a.context_switch = 1;
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	comm_rec(b, 100, "blocked");
	for (int i = 0; i < n; i++) {
		size_t k = 0;
		uint32_t pt[2] = { 100, 1000 + (uint32_t)i };

		w[k++] = BASE + 0x100;
		memcpy(&w[k++], pt, 8);
		w[k++] = 10 + (uint64_t)i;
		w[k++] = 1;
		w[k++] = stack;
		k += stack / 8;		/* zeros */
		w[k++] = stack;		/* dyn size */
		rec(&s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, 8 * k);
		if (s.n > (48u << 20))
			flush_z(b, &s);
	}
	flush_z(b, &s);
	free(s.p);
	free(w);
}

/*
 * buildids [N]: N maps of one path, each of a build id of its own (as
 * Linux 5.12+ puts it in MMAP2), each sampled once (60,000).
 */
static void buildids(struct buf *b, int n)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	struct buf s = { 0 };
	static const char path[] = "/nonexistent/libmany.so";

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	comm_rec(b, 100, "buildids");
	for (int i = 0; i < n; i++) {
		unsigned char body[64 + 32];
		struct perf_event_header h = { PERF_RECORD_MMAP2,
					       PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID,
					       (uint16_t)(8 + 64 + 24 + trailer_size()) };
		uint32_t pt[2] = { 100, 100 }, prot = 5, flags = 2;
		uint64_t v[3] = { BASE + 0x2000 * (uint64_t)i, 0x1000, 0 };
		uint32_t id = 0x9e3779b9u * (uint32_t)(i + 1);

		memset(body, 0, sizeof(body));
		memcpy(body, pt, 8);
		memcpy(body + 8, v, 24);
		body[32] = 20;			/* build_id_size */
		memcpy(body + 36, &id, 4);	/* the build id: 20 bytes */
		memcpy(body + 40, &i, 4);
		memcpy(body + 56, &prot, 4);
		memcpy(body + 60, &flags, 4);
		memcpy(body + 64, path, sizeof(path));
		put(&s, &h, sizeof(h));
		put(&s, body, 64 + 24);
		trailer(&s, 100, 1);
		sample_rec(&s, 100, 10 + (uint64_t)i, v[0] + 0x10, NULL, NULL, 0);
		if (s.n > (512u << 10))
			flush_z(b, &s);
	}
	flush_z(b, &s);
	round_rec(b);
	free(s.p);
}

/*
 * wall-threads [N]: N threads of one process, each switched out and back
 * in and sampled once by cpu-clock (100,000), for --wall's per-thread times.
 */
static void wall_threads(struct buf *b, int n)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	struct buf s = { 0 };

	a.context_switch = 1;
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	compressed_feature(b, 64u << 20);
	comm_rec(b, 100, "threads");
	for (int i = 0; i < n; i++) {
		uint32_t tid = 1000 + (uint32_t)i;

		for (int in = 0; in < 2; in++) {
			struct perf_event_header h = { PERF_RECORD_SWITCH,
						       (uint16_t)(PERF_RECORD_MISC_USER |
								  (in ? 0 : PERF_RECORD_MISC_SWITCH_OUT)),
						       (uint16_t)(8 + trailer_size()) };
			uint32_t pt[2] = { 100, tid };

			put(&s, &h, sizeof(h));
			put(&s, pt, 8);
			put64(&s, 100 + 10 * (uint64_t)i + 5 * (uint64_t)in);
		}
		{
			uint64_t w[4] = { BASE + 0x100, (uint64_t)tid << 32 | 100,
					  103 + 10 * (uint64_t)i, 1000000 };

			rec(&s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, sizeof(w));
		}
		if (s.n > (256u << 10))
			flush_z(b, &s);
	}
	flush_z(b, &s);
	round_rec(b);
	free(s.p);
}

/*
 * self-trailer: a perf map carried where it stands, naming JIT_ADDR,
 * samples there, and a last record, prof's trailer, that says the carried
 * files start at itself: the report must not believe it.
 */
static void self_trailer(struct buf *b)
{
	static const char map[] = "40001000 100 carried_f\n";
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE);
	struct prof_ext x;

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	carried_rec(b, PROF_EXT_PERF_MAP, 100, sizeof(map) - 1, 0, map, sizeof(map) - 1);
	jit_process(b, 100, 10);
	memset(&x, 0, sizeof(x));
	x.magic = PROF_EXT_MAGIC;
	x.kind = PROF_EXT_TRAILER;
	x.total = 1;
	x.offset = b->n;	/* where this record starts */
	rec(b, PDATA_HEADER_EVENT_TYPE, 0, &x, sizeof(x));
}

/*
 * tp-escape: a tracepoint whose system, event and field names hold a
 * terminal's escape sequences and bytes that are not UTF-8, in its
 * TRACING_DATA, and one sample of it.
 */
static void tp_escape(struct buf *b)
{
	static const char fmt[] =
		"name: ev\033]0;pwned\007\xff\n"
		"ID: 4242\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int f\033[2J\xc3;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"\"\n";
	static const char sys[] = "sys\033[31m\xfe";
	struct perf_event_attr a = make_attr(PERF_TYPE_TRACEPOINT, 4242,
					     ST_BASE | PERF_SAMPLE_RAW);
	struct buf t = { 0 };
	uint32_t u32;
	uint64_t u64;

	/* the tracing data: magic, version, endianness, long size, page size */
	put(&t, "\x17\x08" "Dtracing", 10);
	put(&t, "0.6", 4);
	put(&t, "\0\x08", 2);
	u32 = 4096;
	put(&t, &u32, 4);
	put(&t, "header_page", 12);	/* header_page and header_event: empty */
	u64 = 0;
	put(&t, &u64, 8);
	put(&t, "header_event", 13);
	put(&t, &u64, 8);
	u32 = 0;			/* no ftrace formats */
	put(&t, &u32, 4);
	u32 = 1;			/* one system of one event */
	put(&t, &u32, 4);
	put(&t, sys, sizeof(sys));
	put(&t, &u32, 4);
	u64 = sizeof(fmt) - 1;
	put(&t, &u64, 8);
	put(&t, fmt, sizeof(fmt) - 1);
	put(&t, NULL, 64);		/* kallsyms, printk, the rest: none */
	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	{
		uint32_t size = (uint32_t)((t.n + 7) & ~(size_t)7);
		struct perf_event_header h = { PDATA_HEADER_TRACING_DATA, 0, 16 };

		put(b, &h, sizeof(h));
		put(b, &size, 4);
		put(b, NULL, 4);
		put(b, t.p, t.n);
		put(b, NULL, size - t.n);
	}
	comm_rec(b, 100, "tp");
	{
		uint64_t w[4 + 3] = { BASE + 0x100, 100ULL << 32 | 100, 10, 1 };
		uint32_t rsize = 16;
		unsigned char raw[16] = { 0 };

		w[4] = 0;
		memcpy(&w[4], &rsize, 4);	/* RAW: u32 size, then the data */
		memcpy((unsigned char *)&w[4] + 4, raw, 16);
		rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, 8 * 4 + 4 + 16 + 4);
	}
	round_rec(b);
	free(t.p);
}

/*
 * jit-many [N]: a carried perf map of N + 1 functions, and one sample in
 * each of the N, all called from the other (5000): a flame graph of N
 * frames each too narrow to see.
 */
static void jit_many(struct buf *b, int n)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_CALLCHAIN);
	struct buf map = { 0 };
	char line[64];

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	for (int i = 0; i <= n; i++) {
		int k = snprintf(line, sizeof(line), "%llx 10 %s%d\n",
				 (unsigned long long)(JIT_ADDR + 16 * (uint64_t)i), i ? "leaf" : "caller",
				 i);

		put(&map, line, (size_t)k);
	}
	for (size_t off = 0; off < map.n; off += PROF_EXT_CHUNK)
		carried_rec(b, PROF_EXT_PERF_MAP, 100, map.n, off, map.p + off,
			    (uint32_t)(map.n - off < PROF_EXT_CHUNK ? map.n - off : PROF_EXT_CHUNK));
	comm_rec(b, 100, "jitproc");
	mmap2_rec(b, 100, BASE, 0x200000, 0, LIBC, 0);
	for (int i = 1; i <= n; i++) {
		uint64_t chain[3] = { PERF_CONTEXT_USER, JIT_ADDR + 16 * (uint64_t)i, JIT_ADDR + 4 };

		sample_rec(b, 100, 10 + (uint64_t)i, chain[1], NULL, chain, 3);
	}
	round_rec(b);
	free(map.p);
}

/*
 * chain-zero: -g samples whose user chain ends in 0 and 0x1000, where the
 * kernel's walk of frame pointers ran off the stack: no frames of theirs.
 */
static void chain_zero(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_CALLCHAIN);

	pipe_header(b);
	attr_rec(b, &a, NULL, 0);
	comm_rec(b, 100, "chain");
	mmap2_rec(b, 100, BASE, 0x200000, 0, LIBC, 0);
	for (int i = 0; i < 10; i++) {
		uint64_t chain[5] = { PERF_CONTEXT_USER, BASE + 0x28000, BASE + 0x29000, 0x1000, 0 };

		sample_rec(b, 100, 10 + (uint64_t)i, chain[1], NULL, chain, 5);
	}
	round_rec(b);
}

/*
 * attr0: an ATTR record whose attr.size is 0, as files before Linux 2.6.32
 * were written (PERF_ATTR_SIZE_VER0: 64 bytes of attr), with one id
 * after it, and samples of that id.
 */
static void attr0(struct buf *b)
{
	struct perf_event_attr a = make_attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
					     ST_BASE | PERF_SAMPLE_IDENTIFIER);
	unsigned char body[64 + 8];
	uint64_t id = 0x1d1d1d1d1d1d1d1dULL;

	a.size = 0;
	memcpy(body, &a, 64);
	memcpy(body + 64, &id, 8);
	trailer_id = id;
	pipe_header(b);
	rec(b, PDATA_HEADER_ATTR, 0, body, sizeof(body));
	comm_rec(b, 100, "attr0");
	mmap2_rec(b, 100, BASE, 0x200000, 0, LIBC, 0);
	for (int i = 0; i < 20; i++)
		sample_rec(b, 100, 10 + (uint64_t)i, BASE + 0x100, &id, NULL, 0);
	round_rec(b);
}

int main(int argc, char **argv)
{
	struct buf b = { 0 };
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "attr-after-park"))
		attr_after_park(&b);
	else if (!strcmp(what, "feature-wrap"))
		feature_wrap(&b);
	else if (!strcmp(what, "ids"))
		many_ids(&b, argc > 2 ? atoi(argv[2]) : 50, argc > 3 ? atoi(argv[3]) : 8000,
			 argc > 4 ? atoi(argv[4]) : 2000);
	else if (!strcmp(what, "ids-overlap"))
		ids_overlap(&b);
	else if (!strcmp(what, "auxtrace"))
		auxtrace(&b);
	else if (!strcmp(what, "mmap2-old"))
		mmap2_old(&b);
	else if (!strcmp(what, "bomb"))
		bomb(&b);
	else if (!strcmp(what, "norounds"))
		norounds(&b);
	else if (!strcmp(what, "threads"))
		threads(&b, argc > 2 ? atoi(argv[2]) : 8000, argc > 3 ? atoi(argv[3]) : 8100);
	else if (!strcmp(what, "many"))
		many(&b, argc > 2 ? atoi(argv[2]) : 30);
	else if (!strcmp(what, "maps"))
		maps(&b, argc > 2 ? atoi(argv[2]) : 80000);
	else if (!strcmp(what, "utf8"))
		utf8(&b);
	else if (!strcmp(what, "deep"))
		deep(&b, argc > 2 ? atoi(argv[2]) : 500);
	else if (!strcmp(what, "otherkernel") && argc > 3)
		otherkernel(&b, strtoull(argv[2], NULL, 16), strtoull(argv[3], NULL, 16));
	else if (!strcmp(what, "missing"))
		missing(&b, argc > 2 ? atoi(argv[2]) : 20000);
	else if (!strcmp(what, "escape"))
		escape(&b);
	else if (!strcmp(what, "distinct"))
		distinct(&b, argc > 2 ? atoi(argv[2]) : 300000, argc > 3 ? atoi(argv[3]) : 3);
	else if (!strcmp(what, "forks"))
		forks(&b, argc > 2 ? atoi(argv[2]) : 6000, argc > 3 ? atoi(argv[3]) : 6000,
		      argc > 4 ? atoi(argv[4]) : 1);
	else if (!strcmp(what, "dwarfbomb") && argc > 3)
		dwarfbomb(&b, atoi(argv[2]), strtoull(argv[3], NULL, 16));
	else if (!strcmp(what, "swapper"))
		swapper(&b);
	else if (!strcmp(what, "fifo") && argc > 2)
		fifo(&b, argv[2]);
	else if (!strcmp(what, "carried-bomb"))
		carried_bomb(&b, argc > 2 ? atoi(argv[2]) : 2048);
	else if (!strcmp(what, "carried-many"))
		carried_many(&b, argc > 2 ? atoi(argv[2]) : 300000);
	else if (!strcmp(what, "offcpu-threads"))
		offcpu_threads(&b, argc > 2 ? atoi(argv[2]) : 8000);
	else if (!strcmp(what, "buildids"))
		buildids(&b, argc > 2 ? atoi(argv[2]) : 60000);
	else if (!strcmp(what, "wall-threads"))
		wall_threads(&b, argc > 2 ? atoi(argv[2]) : 100000);
	else if (!strcmp(what, "self-trailer"))
		self_trailer(&b);
	else if (!strcmp(what, "tp-escape"))
		tp_escape(&b);
	else if (!strcmp(what, "attr0"))
		attr0(&b);
	else if (!strcmp(what, "chain-zero"))
		chain_zero(&b);
	else if (!strcmp(what, "jit-many"))
		jit_many(&b, argc > 2 ? atoi(argv[2]) : 5000);
	else {
		fprintf(stderr, "usage: craft attr-after-park|feature-wrap|ids [NEV NIDS ROUNDS]|ids-overlap|auxtrace|"
			"mmap2-old|bomb|norounds|maps [N]|utf8|deep [N]|swapper|escape|missing [N]|distinct [N [DEPTH]]|forks [NMAPS NFORKS [SAMPLE]]|dwarfbomb N FN|otherkernel TEXT FUNC|\n"
			"fifo PATH|carried-bomb [MIB]|carried-many [N]|offcpu-threads [N]|buildids [N]|\n"
			"wall-threads [N]|self-trailer|tp-escape|attr0|chain-zero|jit-many [N]\n");
		return 64;
	}
	save(&b, what);
	free(b.p);
	return 0;
}
