// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A structure-aware mutator for perf.data inputs, shared by the fuzz
 * targets: besides libFuzzer's byte mutations, it works on whole records
 * of a pipe-mode stream (insert, duplicate, reorder, delete, truncate),
 * forges the fields that size everything after them (a record's size,
 * an attr's sample_type and size, sample ids, call chain and stack
 * lengths, file-mode section offsets), wraps runs of records into
 * COMPRESSED records and opens them again, so that the bytes inside a
 * frame are mutated too, and plants the records that bound a report
 * (FINISHED_ROUND, the COMPRESSED feature's mmap_len).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <linux/perf_event.h>

#include "pdata.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define MAX_RECS 4096

struct span {
	size_t off, len;
};

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* The records of a pipe-mode stream, up to the first that does not fit. */
static size_t split(const uint8_t *d, size_t size, struct span *r)
{
	size_t n = 0, off = 16;

	while (off + 8 <= size && n < MAX_RECS) {
		struct perf_event_header h;

		memcpy(&h, d + off, sizeof(h));
		if (h.size < 8 || h.size > size - off)
			break;
		r[n].off = off;
		r[n].len = h.size;
		n++;
		off += h.size;
	}
	return n;
}

static const uint64_t interesting[] = {
	0, 1, 2, 7, 8, 0x7f, 0x80, 0xff, 0xffff, 0x10000, 0xfff8, 65528, 65535,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL,
	0xffffffffffffffffULL, PERF_CONTEXT_USER, PERF_CONTEXT_KERNEL, PERF_CONTEXT_MAX,
};

static uint64_t pick_value(unsigned *s)
{
	return interesting[rnd(s) % (sizeof(interesting) / sizeof(interesting[0]))];
}

/* Overwrite a u64 (or u32, u16) at a random aligned place of [p, p + len). */
static void forge_word(uint8_t *p, size_t len, unsigned *s)
{
	uint64_t v = pick_value(s);
	size_t w = (size_t)1 << (1 + rnd(s) % 3);	/* 2, 4 or 8 bytes */

	if (len < w)
		return;
	memcpy(p + (rnd(s) % (len / w)) * w, &v, w);
}

/* Build out from the records of d in the order ord[0..n), each a span of d. */
static size_t assemble(uint8_t *out, size_t max, const uint8_t *d, const struct span *ord,
		       size_t n, size_t tail_off, size_t tail_len)
{
	size_t o = 16;

	memcpy(out, d, 16);
	for (size_t i = 0; i < n; i++) {
		if (o + ord[i].len > max)
			return o;
		memcpy(out + o, d + ord[i].off, ord[i].len);
		o += ord[i].len;
	}
	if (tail_len && o + tail_len <= max) {
		memcpy(out + o, d + tail_off, tail_len);
		o += tail_len;
	}
	return o;
}

/* Records [a, b) of d compressed into one COMPRESSED record at out; its size, 0 when none fits. */
static size_t compress_run(uint8_t *out, size_t max, const uint8_t *d, const struct span *r,
			   size_t a, size_t b)
{
	size_t len = r[b - 1].off + r[b - 1].len - r[a].off, n;
	struct perf_event_header h = { PDATA_COMPRESSED, 0, 0 };

	if (max < 8 + ZSTD_compressBound(len) || len > 60000)
		return 0;
	n = ZSTD_compress(out + 8, max - 8, d + r[a].off, len, 1);
	if (ZSTD_isError(n) || n + 8 > PDATA_RECORD_MAX)
		return 0;
	h.size = (uint16_t)(n + 8);
	memcpy(out, &h, 8);
	return n + 8;
}

static size_t mutate_pipe(uint8_t *data, size_t size, size_t max, unsigned *s)
{
	static struct span r[MAX_RECS], ord[MAX_RECS + 1];
	size_t n = split(data, size, r), tail, o, m;
	uint8_t *copy, *out;
	unsigned op;

	if (n == 0)
		return LLVMFuzzerMutate(data, size, max);
	tail = r[n - 1].off + r[n - 1].len;
	copy = malloc(size);
	out = malloc(max);
	if (!copy || !out) {
		free(copy);
		free(out);
		return LLVMFuzzerMutate(data, size, max);
	}
	memcpy(copy, data, size);
	memcpy(ord, r, n * sizeof(*r));
	m = n;
	op = rnd(s) % 12;
	switch (op) {
	case 0: {	/* duplicate a record somewhere */
		size_t i = rnd(s) % n, at = rnd(s) % (n + 1);

		memmove(ord + at + 1, ord + at, (m - at) * sizeof(*ord));
		ord[at] = r[i];
		m++;
		break;
	}
	case 1: {	/* delete one */
		size_t i = rnd(s) % n;

		memmove(ord + i, ord + i + 1, (m - i - 1) * sizeof(*ord));
		m--;
		break;
	}
	case 2: {	/* swap two: out of time order, attrs after samples */
		size_t i = rnd(s) % n, j = rnd(s) % n;
		struct span t = ord[i];

		ord[i] = ord[j];
		ord[j] = t;
		break;
	}
	case 3:		/* cut at a record, or inside one */
		m = rnd(s) % n;
		break;
	case 4: case 5: {	/* forge a field of one record, header included */
		size_t i = rnd(s) % n;

		forge_word(copy + r[i].off + (op == 4 ? 8 : 0), r[i].len - (op == 4 ? 8 : 0), s);
		break;
	}
	case 6: {	/* libFuzzer's bytes inside one record's body, its size kept */
		size_t i = rnd(s) % n;

		if (r[i].len > 8)
			LLVMFuzzerMutate(copy + r[i].off + 8, r[i].len - 8, r[i].len - 8);
		break;
	}
	case 7: {	/* wrap a run of records into a COMPRESSED record */
		size_t a = rnd(s) % n, b = a + 1 + rnd(s) % 16;
		size_t z;

		if (b > n)
			b = n;
		o = assemble(out, max, copy, ord, a, 0, 0);
		z = compress_run(out + o, max - o, copy, r, a, b);
		if (z) {
			o += z;
			for (size_t i = b; i < n && o + r[i].len <= max; i++) {
				memcpy(out + o, copy + r[i].off, r[i].len);
				o += r[i].len;
			}
			goto done;
		}
		break;
	}
	case 8: {	/* open a COMPRESSED record: its records in its place */
		for (size_t i = 0; i < n; i++) {
			struct perf_event_header h;
			unsigned long long full;

			memcpy(&h, copy + r[i].off, 8);
			if (h.type != PDATA_COMPRESSED)
				continue;
			full = ZSTD_getFrameContentSize(copy + r[i].off + 8, r[i].len - 8);
			o = assemble(out, max, copy, ord, i, 0, 0);
			if (full > max - o)
				break;
			full = ZSTD_decompress(out + o, max - o, copy + r[i].off + 8, r[i].len - 8);
			if (ZSTD_isError(full))
				break;
			o += full;
			for (size_t k = i + 1; k < n && o + r[k].len <= max; k++) {
				memcpy(out + o, copy + r[k].off, r[k].len);
				o += r[k].len;
			}
			goto done;
		}
		break;
	}
	case 9: {	/* plant a FINISHED_ROUND, or a COMPRESSED feature with a forged mmap_len */
		static uint8_t round[8] = { PDATA_FINISHED_ROUND, 0, 0, 0, 0, 0, 8, 0 };
		uint8_t feat[36];
		uint64_t id = PDATA_FEAT_COMPRESSED;
		uint32_t c[5] = { 0, 1, 1, 0, (uint32_t)pick_value(s) };
		struct perf_event_header h = { PDATA_HEADER_FEATURE, 0, 36 };
		size_t at = rnd(s) % (n + 1);
		int is_round = rnd(s) & 1;

		memcpy(feat, &h, 8);
		memcpy(feat + 8, &id, 8);
		memcpy(feat + 16, c, 20);
		o = assemble(out, max, copy, ord, at, 0, 0);
		if (o + 36 <= max) {
			memcpy(out + o, is_round ? round : feat, is_round ? 8 : 36);
			o += is_round ? 8 : 36;
		}
		for (size_t i = at; i < n && o + r[i].len <= max; i++) {
			memcpy(out + o, copy + r[i].off, r[i].len);
			o += r[i].len;
		}
		goto done;
	}
	default:	/* libFuzzer's own, on the whole */
		free(copy);
		free(out);
		return LLVMFuzzerMutate(data, size, max);
	}
	o = assemble(out, max, copy, ord, m, tail, size - tail);
	if (op == 3 && m < n && o + 1 < max && r[m].len > 1) {
		size_t part = 1 + rnd(s) % (r[m].len - 1);

		memcpy(out + o, copy + r[m].off, part);
		o += part;
	}
done:
	memcpy(data, out, o);
	free(copy);
	free(out);
	return o;
}

/* File mode: forge the header's section offsets and sizes, else bytes. */
static size_t mutate_file(uint8_t *data, size_t size, size_t max, unsigned *s)
{
	if (size >= PDATA_FILE_HEADER_SIZE && rnd(s) % 3 == 0) {
		forge_word(data + 16, 48, s);	/* attr_size, attrs, data sections */
		return size;
	}
	return LLVMFuzzerMutate(data, size, max);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	uint64_t h[2];
	unsigned s = seed;

	if (size < 16)
		return LLVMFuzzerMutate(data, size, max_size);
	memcpy(h, data, 16);
	if (h[0] != PDATA_MAGIC)
		return LLVMFuzzerMutate(data, size, max_size);
	if (h[1] == PDATA_PIPE_HEADER_SIZE)
		return mutate_pipe(data, size, max_size, &s);
	return mutate_file(data, size, max_size, &s);
}
