// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the pipe-mode stream. Records are buffered and flushed as whole
 * records; with compression each flush becomes one or more
 * PERF_RECORD_COMPRESSED records, each a complete zstd frame, so that a file
 * cut anywhere loses at most its last record and frames decode on their own.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "pdata.h"
#include "writer.h"
#include "xalloc.h"

/* A compressed record: 8-byte header, then the frame. */
#define FRAME_OUT_MAX	(PDATA_RECORD_MAX - sizeof(struct perf_event_header))

struct writer {
	int fd;
	int level;
	int err;		/* first write error, sticky */
	int regular;		/* fd is a regular file: can be cut back */
	off_t good;		/* file offset after the last complete write */
	unsigned char *buf;	/* records waiting for a flush */
	size_t len, cap;
	size_t frame_max;
	unsigned char *out;	/* one compressed record */
	ZSTD_CCtx *cctx;
	double ratio;		/* running estimate of in/out, to size frames */
	uint64_t bytes_in, bytes_out;
	uint64_t samples_out;	/* SAMPLE records that reached the file */
};

struct writer *writer_new(int fd, int level, size_t frame_max, size_t buf_size)
{
	struct writer *w;
	struct stat st;

	if (level < 0 || level > ZSTD_maxCLevel() || frame_max < 4096) {
		errno = EINVAL;
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->fd = fd;
	w->level = level;
	w->frame_max = frame_max;
	w->cap = buf_size > frame_max ? buf_size : frame_max;
	w->buf = xmalloc(w->cap);
	w->ratio = 4.0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		w->regular = 1;
		w->good = lseek(fd, 0, SEEK_CUR);
		if (w->good < 0)
			w->good = 0;
	}
	if (level) {
		w->out = xmalloc(PDATA_RECORD_MAX);
		w->cctx = ZSTD_createCCtx();
		/*
		 * A checksum per frame (4 bytes) lets a reader tell a damaged
		 * frame from garbage records that happen to parse.
		 */
		if (!w->cctx ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, level)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1))) {
			writer_free(w);
			errno = ENOMEM;
			return NULL;
		}
	}
	return w;
}

void writer_free(struct writer *w)
{
	if (!w)
		return;
	ZSTD_freeCCtx(w->cctx);
	free(w->out);
	free(w->buf);
	free(w);
}

/*
 * Write all of data, or fail and cut a regular file back to the end of the
 * last complete write, so that a full disk never leaves half a record.
 */
static int write_all(struct writer *w, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t left = len;

	if (w->err)
		return w->err;
	while (left) {
		ssize_t n = write(w->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n < 0 ? -errno : -EIO;
			if (w->regular && ftruncate(w->fd, w->good) == 0)
				lseek(w->fd, w->good, SEEK_SET);
			return w->err;
		}
		p += n;
		left -= (size_t)n;
	}
	w->good += (off_t)len;
	w->bytes_out += len;
	return 0;
}

int writer_header(struct writer *w)
{
	uint64_t h[2] = { PDATA_MAGIC, PDATA_PIPE_HEADER_SIZE };

	return write_all(w, h, sizeof(h));
}

/* A user record: header, a, then b, zero-padded to 8 bytes. */
static int write_record(struct writer *w, uint32_t type, const void *a, size_t alen,
			const void *b, size_t blen)
{
	size_t size = sizeof(struct perf_event_header) + ((alen + blen + 7) & ~(size_t)7);
	struct perf_event_header h = { type, 0, 0 };
	unsigned char *rec;
	int ret;

	if (size > PDATA_RECORD_MAX)
		return -E2BIG;
	rec = xcalloc(1, size);
	h.size = (uint16_t)size;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), a, alen);
	if (blen)
		memcpy(rec + sizeof(h) + alen, b, blen);
	ret = write_all(w, rec, size);
	free(rec);
	return ret;
}

int writer_user_record(struct writer *w, uint32_t type, const void *data, size_t len)
{
	int ret = writer_flush(w);

	return ret ? ret : write_record(w, type, data, len, NULL, 0);
}

int writer_tracing_data(struct writer *w, const void *data, size_t len)
{
	uint32_t size[2] = { (uint32_t)((len + 7) & ~(size_t)7), 0 };
	static const unsigned char pad[8];
	int ret;

	if (len > UINT32_MAX - 8)
		return -E2BIG;
	ret = writer_flush(w);
	if (!ret)
		ret = write_record(w, PDATA_HEADER_TRACING_DATA, size, sizeof(size), NULL, 0);
	if (!ret)
		ret = write_all(w, data, len);
	if (!ret && size[0] != len)
		ret = write_all(w, pad, size[0] - len);
	return ret;
}

int writer_attr(struct writer *w, const struct perf_event_attr *attr,
		const uint64_t *ids, size_t nr_ids)
{
	unsigned char a[PDATA_ATTR_SIZE] = { 0 };
	struct perf_event_attr copy = *attr;

	copy.size = PDATA_ATTR_SIZE;
	memcpy(a, &copy, sizeof(copy) < sizeof(a) ? sizeof(copy) : sizeof(a));
	return write_record(w, PDATA_HEADER_ATTR, a, sizeof(a), ids, nr_ids * sizeof(*ids));
}

int writer_feature(struct writer *w, uint64_t feat, const void *data, size_t len)
{
	return write_record(w, PDATA_HEADER_FEATURE, &feat, sizeof(feat), data, len);
}

/* perf's do_write_string(): u32 length incl. NUL padded to 64, then the bytes. */
static size_t put_string(unsigned char *dst, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t padded = (uint32_t)((n + PDATA_STRING_ALIGN - 1) &
				     ~(size_t)(PDATA_STRING_ALIGN - 1));

	if (dst) {
		memcpy(dst, &padded, 4);
		memset(dst + 4, 0, padded);
		memcpy(dst + 4, s, n);
	}
	return 4 + padded;
}

int writer_feature_strings(struct writer *w, uint64_t feat,
			   const char *const *s, size_t nr)
{
	size_t len = 4, off = 4;
	unsigned char *buf;
	uint32_t n32 = (uint32_t)nr;
	int ret;

	for (size_t i = 0; i < nr; i++)
		len += put_string(NULL, s[i]);
	buf = xcalloc(1, len);
	memcpy(buf, &n32, 4);
	for (size_t i = 0; i < nr; i++)
		off += put_string(buf + off, s[i]);
	ret = writer_feature(w, feat, buf, len);
	free(buf);
	return ret;
}

int writer_feature_string(struct writer *w, uint64_t feat, const char *s)
{
	size_t len = put_string(NULL, s);
	unsigned char *buf = xmalloc(len);
	int ret;

	put_string(buf, s);
	ret = writer_feature(w, feat, buf, len);
	free(buf);
	return ret;
}

int writer_end_features(struct writer *w)
{
	/*
	 * perf's reader decompresses each COMPRESSED record into a buffer of
	 * mmap_len bytes that it learns from this feature, so it must come
	 * before the first compressed record. FINISHED_INIT then closes the
	 * header records, as perf's own pipe-mode writer does.
	 */
	uint32_t c[5] = { 0, 1, (uint32_t)w->level, 0, (uint32_t)w->frame_max };
	struct perf_event_header h = { PDATA_FINISHED_INIT, 0, sizeof(h) };
	int ret = 0;

	if (w->level)
		ret = writer_feature(w, PDATA_FEAT_COMPRESSED, c, sizeof(c));
	return ret ? ret : write_all(w, &h, sizeof(h));
}

/* The SAMPLE records among the whole records of p. */
static uint64_t count_samples(const unsigned char *p, size_t len)
{
	uint64_t n = 0;

	for (size_t off = 0; off + sizeof(struct perf_event_header) <= len;) {
		struct perf_event_header h;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h))
			break;
		n += h.type == PERF_RECORD_SAMPLE;
		off += h.size;
	}
	return n;
}

/* Length of the longest run of whole records from p that fits in max bytes (at least one). */
static size_t whole_records(const unsigned char *p, size_t len, size_t max)
{
	size_t off = 0;

	while (off < len) {
		struct perf_event_header h;

		memcpy(&h, p + off, sizeof(h));
		if (off && off + h.size > max)
			break;
		off += h.size;
	}
	return off;
}

/*
 * Compress len bytes of whole records into one frame in one record. When
 * the frame would not fit in a record, halve the input at a record
 * boundary and try each half: records are at most 64 KiB and zstd's
 * worst case is a few bytes over its input, so this ends.
 */
static int write_frame(struct writer *w, const unsigned char *p, size_t len)
{
	struct perf_event_header h;
	size_t n, half;
	int ret;

	n = ZSTD_compress2(w->cctx, w->out + sizeof(h), FRAME_OUT_MAX, p, len);
	if (!ZSTD_isError(n)) {
		h.type = PDATA_COMPRESSED;
		h.misc = 0;
		h.size = (uint16_t)(n + sizeof(h));
		memcpy(w->out, &h, sizeof(h));
		w->ratio = 0.75 * w->ratio + 0.25 * ((double)len / (double)n);
		ret = write_all(w, w->out, n + sizeof(h));
		if (!ret)
			w->samples_out += count_samples(p, len);
		return ret;
	}
	if (ZSTD_getErrorCode(n) != ZSTD_error_dstSize_tooSmall)
		return -EIO;
	half = whole_records(p, len, len / 2);
	if (half == len)	/* one record: cannot happen, see above */
		return -EIO;
	ret = write_frame(w, p, half);
	if (!ret)
		ret = write_frame(w, p + half, len - half);
	return ret;
}

int writer_flush(struct writer *w)
{
	size_t off = 0;
	int ret = 0;

	if (w->err)
		return w->err;
	if (!w->len)
		return 0;
	if (!w->level) {
		/*
		 * In pieces of whole records, so that a disk filling up keeps all
		 * but the last piece, as it keeps all but the last frame.
		 */
		while (off < w->len && !ret) {
			size_t n = whole_records(w->buf + off, w->len - off, PDATA_RECORD_MAX);

			ret = write_all(w, w->buf + off, n);
			if (!ret)
				w->samples_out += count_samples(w->buf + off, n);
			off += n;
		}
		w->len = 0;
		return ret;
	}
	while (off < w->len && !ret) {
		/* Aim under the record limit by the ratio seen so far. */
		size_t target = (size_t)(FRAME_OUT_MAX * w->ratio * 0.8);
		size_t n;

		if (target > w->frame_max)
			target = w->frame_max;
		n = whole_records(w->buf + off, w->len - off, target);
		ret = write_frame(w, w->buf + off, n);
		off += n;
	}
	w->len = 0;
	return ret;
}

int writer_reserve(struct writer *w, size_t len, void **out)
{
	int ret;

	if (w->err)
		return w->err;
	if (len > w->cap)
		return -EMSGSIZE;
	if (w->cap - w->len < len && (ret = writer_flush(w)))
		return ret;
	*out = w->buf + w->len;
	return 0;
}

void writer_commit(struct writer *w, size_t len)
{
	w->len += len;
	w->bytes_in += len;
}

int writer_records(struct writer *w, const void *data, size_t len)
{
	void *dst;
	int ret = writer_reserve(w, len, &dst);

	if (ret)
		return ret;
	memcpy(dst, data, len);
	writer_commit(w, len);
	return 0;
}

uint64_t writer_bytes_in(const struct writer *w)
{
	return w->bytes_in;
}

uint64_t writer_samples_out(const struct writer *w)
{
	return w->samples_out;
}

uint64_t writer_bytes_out(const struct writer *w)
{
	return w->bytes_out;
}
