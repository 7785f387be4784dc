// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writer/reader round trip: records come back byte for byte, compressed or
 * not; every COMPRESSED record is one complete zstd frame of whole records
 * that fits in a record; a file cut anywhere reads up to the cut.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "pdata.h"
#include "reader.h"
#include "tap.h"
#include "writer.h"

#define NR_REC 3000

static unsigned char *recs[NR_REC];

/* Samples of varied size: compressible ones, and some of noise, which zstd cannot shrink. */
static void make_records(void)
{
	for (int i = 0; i < NR_REC; i++) {
		size_t size = 8 * (2 + rnd() % (i % 397 == 0 ? 8000 : 30));
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)size };
		uint64_t *p = calloc(1, size);

		memcpy(p, &h, sizeof(h));
		for (size_t w = 1; w < size / 8; w++)
			p[w] = i % 397 == 0 ? rnd() : 0x400000 + (uint64_t)(i % 13) * 16 + w;
		recs[i] = (unsigned char *)p;
	}
}

static size_t write_file(const char *path, int level)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct writer *w = writer_new(fd, level, 256 * 1024, 512 * 1024);
	struct perf_event_attr attr;
	uint64_t ids[2] = { 11, 12 };
	static const struct perf_event_header round = { PDATA_FINISHED_ROUND, 0, 8 };
	int ret = 0;
	off_t size;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.sample_type = PERF_SAMPLE_IP;
	ret |= writer_header(w);
	ret |= writer_attr(w, &attr, ids, 2);
	ret |= writer_feature_string(w, PDATA_FEAT_HOSTNAME, "testhost");
	ret |= writer_end_features(w);
	for (int i = 0; i < NR_REC; i++) {
		struct perf_event_header h;

		memcpy(&h, recs[i], sizeof(h));
		ret |= writer_records(w, recs[i], h.size);
		if (i % 500 == 499) {
			ret |= writer_records(w, &round, 8);
			ret |= writer_flush(w);
		}
	}
	ret |= writer_flush(w);
	ok(ret == 0, "level %d: writing %d records succeeds", level, NR_REC);
	writer_free(w);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	return (size_t)size;
}

/* Read path; count records in *n and check they are ours, in order. Returns reader_next's last value. */
static int read_back(const void *buf, size_t len, int *n, int *compressed, int *truncated)
{
	struct reader *r = reader_mem(buf, len);
	struct reader_record rec;
	int ret, i = 0, bad = 0;

	*n = *compressed = *truncated = 0;
	if (!r)
		return -errno;
	while ((ret = reader_next(r, &rec)) > 0) {
		if (rec.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		if (i >= NR_REC || memcmp(rec.hdr, recs[i], rec.hdr->size))
			bad = 1;
		i++;
		*compressed += rec.compressed;
	}
	*n = bad ? -1 : i;
	*truncated = reader_truncated(r);
	reader_free(r);
	return ret;
}

static unsigned char *slurp(const char *path, size_t len)
{
	unsigned char *buf = malloc(len);
	int fd = open(path, O_RDONLY);

	if (read(fd, buf, len) != (ssize_t)len)
		len = 0;
	close(fd);
	return buf;
}

/* Walk the top-level records; check each compressed one decodes alone to whole records. */
static void check_frames(const unsigned char *buf, size_t len)
{
	size_t off = 16, frames = 0, bad = 0;
	unsigned char *out = malloc(1 << 20);

	while (off + 8 <= len) {
		struct perf_event_header h;

		memcpy(&h, buf + off, sizeof(h));
		if (h.type == PDATA_COMPRESSED) {
			size_t n = ZSTD_decompress(out, 1 << 20, buf + off + 8, h.size - 8u);
			size_t walk = 0;

			frames++;
			if (ZSTD_isError(n) || n > 256 * 1024)
				bad++;
			else {
				while (walk + 8 <= n) {
					struct perf_event_header in;

					memcpy(&in, out + walk, sizeof(in));
					if (in.size < 8)
						break;
					walk += in.size;
				}
				if (walk != n)
					bad++;
			}
		}
		off += h.size;
	}
	ok(frames > 3, "the data spans %zu compressed records", frames);
	ok(bad == 0, "each compressed record is one whole frame of whole records, at most frame_max (%zu bad)",
	   bad);
	free(out);
}

/*
 * 40 records of noise in one flush: zstd cannot shrink them, so the frame
 * the ratio estimate aims for does not fit in a record and must be halved,
 * at record boundaries, until each piece does.
 */
static void test_incompressible(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct writer *w = writer_new(fd, 1, 512 * 1024, 512 * 1024);
	static uint64_t rec[40][1001];
	struct reader *r;
	struct reader_record rr;
	int ret = 0, n = 0, same = 1, frames = 0;
	off_t size;
	unsigned char *buf;

	ret |= writer_header(w);
	ret |= writer_end_features(w);
	for (int i = 0; i < 40; i++) {
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec[i]) };

		memcpy(rec[i], &h, sizeof(h));
		for (int j = 1; j < 1001; j++)
			rec[i][j] = rnd();
		ret |= writer_records(w, rec[i], sizeof(rec[i]));
	}
	ret |= writer_flush(w);
	ok(ret == 0, "320 KiB of noise in one flush is written");
	writer_free(w);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	buf = slurp(path, (size_t)size);
	r = reader_mem(buf, (size_t)size);
	while (r && reader_next(r, &rr) > 0) {
		if (rr.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		same &= n < 40 && !memcmp(rr.hdr, rec[n], sizeof(rec[n]));
		n++;
	}
	reader_free(r);
	for (off_t off = 16; off + 8 <= size;) {
		struct perf_event_header h;

		memcpy(&h, buf + off, sizeof(h));
		frames += h.type == PDATA_COMPRESSED;
		off += h.size;
	}
	ok(n == 40 && same, "the noise reads back whole (%d records)", n);
	ok(frames >= 5, "it took %d compressed records (at least 5 for 320 KiB that cannot shrink)",
	   frames);
	free(buf);
}

int main(void)
{
	char path[] = "/tmp/prof-test-rw-XXXXXX";
	int fd = mkstemp(path);
	size_t len;
	unsigned char *buf;
	int n, compressed, truncated, ret, worst = 0;

	close(fd);
	make_records();

	for (int level = 0; level <= 3; level += 3) {
		len = write_file(path, level);
		buf = slurp(path, len);
		ret = read_back(buf, len, &n, &compressed, &truncated);
		ok(ret == 0 && n == NR_REC && !truncated, "level %d: all records read back, in order (%d)",
		   level, n);
		ok(level ? compressed == NR_REC : compressed == 0,
		   "level %d: %d records came out of compressed records", level, compressed);
		if (level)
			check_frames(buf, len);

		/*
		 * Cut at every offset of the head and the tail, where the header
		 * records and the last frame are, and at random offsets between.
		 */
		for (int i = 0; i < 1024 + 256 + 128; i++) {
			size_t cut = i < 1024 ? (size_t)i : i < 1280 ? len - (size_t)(i - 1023)
				   : (size_t)(rnd() % len);
			int m;

			if (cut > len)
				continue;
			ret = read_back(buf, cut, &m, &compressed, &truncated);
			if (cut < 16 ? ret != -EBADMSG && ret != 0 : ret != 0 || m < 0 || m > NR_REC)
				worst++;
		}
		ok(worst == 0, "level %d: a file cut at any offset reads up to the cut (%d failures)",
		   level, worst);
		free(buf);
	}

	test_incompressible(path);

	/* Random bytes after a valid header: an error or an end, never a crash. */
	buf = malloc(65536);
	worst = 0;
	for (int round = 0; round < 200; round++) {
		uint64_t h[2] = { PDATA_MAGIC, 16 };
		int m;

		for (size_t i = 0; i < 65536; i++)
			buf[i] = (unsigned char)rnd();
		memcpy(buf, h, sizeof(h));
		ret = read_back(buf, 65536, &m, &compressed, &truncated);
		if (ret > 0)
			worst++;
	}
	ok(worst == 0, "random data after a header gives an error or an end");
	free(buf);
	ok(reader_mem("NOTPERF!........", 16) == NULL && errno == EBADMSG,
	   "a file without the magic is refused with EBADMSG");
	unlink(path);
	for (int i = 0; i < NR_REC; i++)
		free(recs[i]);
	return tap_done();
}
