// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the writer -> reader round trip (src/writer.h,
 * src/reader.h): the input says how to write (a compression level and a
 * frame size, from its first byte) and what (then records: a byte
 * of kind, a byte of length in 8-byte words, that many bytes of body,
 * zero-padded where the input ends). Kinds write a kernel record (types
 * 1 to 19), a FINISHED_ROUND, a flush, the end of a frame, or one big
 * record through writer_reserve()/writer_commit(). The stream is written
 * to a memory file and read back, from memory and from the file: every
 * kernel record must come back byte for byte, in order, and nothing
 * more; the reader must end cleanly (not truncated, no error).
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pdata.h"
#include "reader.h"
#include "writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What was written: the kernel records, one after another. */
struct written {
	unsigned char *b;
	size_t n, cap;
};

static void keep(struct written *w, const void *rec, size_t len)
{
	if (w->n + len > w->cap) {
		w->cap = 2 * (w->n + len);
		w->b = realloc(w->b, w->cap);
		if (!w->b)
			abort();
	}
	memcpy(w->b + w->n, rec, len);
	w->n += len;
}

/* Read r to its end: its kernel records must be exactly wr's. */
static void check(struct reader *r, const struct written *wr)
{
	struct reader_record rec;
	size_t at = 0;
	int ret;

	if (!r)
		abort();	/* what the writer wrote is a stream */
	while ((ret = reader_next(r, &rec)) > 0) {
		if (rec.hdr->type >= 64)
			continue;	/* the stream's own: attrs, features, rounds */
		if (at + rec.hdr->size > wr->n || memcmp(wr->b + at, rec.hdr, rec.hdr->size))
			abort();	/* not the record written there */
		at += rec.hdr->size;
	}
	if (ret < 0 || reader_truncated(r) || at != wr->n)
		abort();	/* an error, a cut, or records missing */
	reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int levels[4] = { 0, 1, 3, 0 };
	static const size_t frames[4] = { 4096, 16384, 65536, 262144 };
	static const struct perf_event_header round = { PDATA_FINISHED_ROUND, 0, 8 };
	struct written wr = { NULL, 0, 0 };
	struct perf_event_attr attr;
	uint64_t id = 7;
	struct writer *w;
	unsigned char *map;
	size_t i = 1;
	off_t len;
	int fd, ret = 0;

	if (size < 1)
		return 0;
	fd = memfd_create("roundtrip", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	w = writer_new(fd, levels[data[0] & 3], frames[(data[0] >> 2) & 3], 1 << 16);
	if (!w) {
		close(fd);
		return 0;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	ret |= writer_header(w);
	ret |= writer_attr(w, &attr, &id, 1);
	ret |= writer_feature_string(w, PDATA_FEAT_HOSTNAME, "fuzz");
	ret |= writer_end_features(w);
	while (!ret && i + 2 <= size) {
		unsigned kind = data[i], words = data[i + 1];
		unsigned char rec[8 * 256 + 8];
		size_t body = 8 * (size_t)words, take;
		struct perf_event_header h;

		i += 2;
		take = size - i < body ? size - i : body;
		switch (kind % 24) {
		case 20:
			ret = writer_records(w, &round, sizeof(round));
			continue;
		case 21:
			ret = writer_flush(w);
			continue;
		case 22:
			ret = writer_end_frame(w);
			continue;
		case 23: {
			/* a big record, made in place: up to 64 KiB */
			size_t big = 8 * (1 + (size_t)words * 31);
			void *p;

			ret = writer_reserve(w, big, &p);
			if (ret)
				continue;
			memset(p, (int)kind, big);
			h = (struct perf_event_header){ PERF_RECORD_SAMPLE, 0, (uint16_t)big };
			memcpy(p, &h, sizeof(h));
			keep(&wr, p, big);
			writer_commit(w, big, 1);
			continue;
		}
		}
		memset(rec, 0, sizeof(rec));
		h = (struct perf_event_header){ 1 + kind % 20 % 19, (uint16_t)(kind << 8),
						(uint16_t)(8 + body) };
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + 8, data + i, take);
		i += take;
		ret = writer_records(w, rec, 8 + body);
		if (!ret)
			keep(&wr, rec, 8 + body);
	}
	if (!ret)
		ret = writer_end_frame(w);
	writer_free(w);
	if (ret)
		abort();	/* a memory file takes every write */
	len = lseek(fd, 0, SEEK_END);
	map = len > 0 ? mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	if (map == MAP_FAILED)
		abort();
	check(reader_mem(map, (size_t)len), &wr);
	lseek(fd, 0, SEEK_SET);
	check(reader_fdopen(fd), &wr);	/* it closes fd */
	munmap(map, (size_t)len);
	free(wr.b);
	return 0;
}
