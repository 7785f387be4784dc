// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reads perf.data: pipe mode (a stream of records) and file mode (header,
 * attrs section, data section). Compressed records are decompressed with
 * one zstd stream that persists across records, because perf's own writer
 * lets frames and records span compressed records; prof's files, one frame
 * of whole records per compressed record, are a special case of that.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zstd.h>

#include "jitdump.h"
#include "pdata.h"
#include "decode.h"
#include "reader.h"
#include "xalloc.h"

#define IN_CHUNK	(256 * 1024)
/* Sample ids in one HEADER_ATTR record the reader makes: its size is a u16. */
#define IDS_PER_RECORD	((PDATA_RECORD_MAX - 8 - PDATA_ATTR_SIZE) / 8)
/*
 * What one compressed record may decompress to when the file has no
 * COMPRESSED feature to say (perf refuses such files): 64 MiB, above any
 * ring perf or prof maps by default.
 */
#define ZCAP_DEFAULT	(64ULL << 20)
/*
 * ... and at most, whatever mmap_len says: a file cannot make a 64 KiB
 * record stand for gigabytes. perf's rings are rarely over a few MiB.
 */
#define ZCAP_MAX	(256ULL << 20)
/* Decompressed bytes held at once: room for a whole record plus a chunk. */
#define DEC_CAP		(PDATA_RECORD_MAX + 256 * 1024)

struct file_section {
	uint64_t offset, size;
};

struct reader {
	int fd;			/* -1 when reading memory */
	const unsigned char *mem;
	size_t mem_len;

	unsigned char *in;	/* input window */
	size_t in_pos, in_len, in_cap;
	uint64_t in_base;	/* file offset of in[0] */
	int eof;
	uint64_t end;		/* file mode: end of the data section */

	int pipe;
	int truncated;
	uint64_t done;		/* offset after the last complete record */

	/* file mode: the attrs section, handed out as HEADER_ATTR records */
	unsigned char *attrs;
	size_t attrs_len, attrs_pos, attrs_cap;

	/* compressed records */
	ZSTD_DStream *zds;
	unsigned char *zsrc;	/* the compressed bytes of the current record */
	size_t zsrc_pos, zsrc_len;
	unsigned char *dec;	/* decompressed records, dec_pos..dec_len */
	size_t dec_pos, dec_len;
	uint64_t zoffset;	/* offset of the current compressed record */
	int zpending;		/* the decoder may hold more output */
	int zmid;		/* the decoder is inside a frame */
	uint64_t zout;		/* bytes the current compressed record gave so far */
	uint64_t zcap;		/* ... at most: the COMPRESSED feature's mmap_len */

	/* damaged compressed records, skipped */
	uint64_t bad_records, bad_bytes, bad_first;
	char bad_why[96];

	uint64_t *aligned;	/* a copy of a record that was not 8-aligned */

	char why[160];
	uint64_t why_offset;
	unsigned char *tracing;	/* the last TRACING_DATA's data */
	size_t tracing_len;
	int pending;		/* an error found at open, given by the first reader_next */
};

static int corrupt(struct reader *r, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int corrupt(struct reader *r, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	r->why_offset = offset;
	return -EBADMSG;
}

/* Make at least n bytes available at in + in_pos. 1 ok, 0 at EOF, -errno. */
static int ensure(struct reader *r, size_t n)
{
	if (r->in_len - r->in_pos >= n)
		return 1;
	if (r->fd < 0) {
		r->eof = 1;
		return 0;
	}
	if (r->in_pos) {
		memmove(r->in, r->in + r->in_pos, r->in_len - r->in_pos);
		r->in_base += r->in_pos;
		r->in_len -= r->in_pos;
		r->in_pos = 0;
	}
	if (n > r->in_cap) {
		r->in_cap = n + IN_CHUNK;
		r->in = xreallocarray(r->in, r->in_cap, 1);
	}
	while (r->in_len < n && !r->eof) {
		size_t want = r->in_cap - r->in_len;
		ssize_t got;

		if (r->end && r->in_base + r->in_len + want > r->end)
			want = r->end - (r->in_base + r->in_len);
		if (!want) {
			r->eof = 1;
			break;
		}
		got = read(r->fd, r->in + r->in_len, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			r->eof = 1;
		r->in_len += (size_t)got;
	}
	return r->in_len - r->in_pos >= n;
}

static uint64_t in_offset(const struct reader *r)
{
	return r->in_base + r->in_pos;
}

/* Skip n bytes of input that follow a record (AUXTRACE, TRACING_DATA). */
static int skip_input(struct reader *r, uint64_t n)
{
	while (n) {
		size_t step = n > IN_CHUNK ? IN_CHUNK : (size_t)n;
		int ret = ensure(r, step);

		if (ret <= 0) {
			if (!ret)
				r->truncated = 1;
			return ret ? ret : 0;
		}
		r->in_pos += step;
		n -= step;
	}
	return 1;
}

/*
 * The tracing data that follows a TRACING_DATA record: kept (the last
 * one, up to TRACING_MAX bytes) for reader_tracing_data(), else skipped.
 */
#define TRACING_MAX ((uint64_t)64 << 20)

static int keep_tracing(struct reader *r, uint64_t n)
{
	size_t got = 0;

	if (n > TRACING_MAX)
		return skip_input(r, n);
	free(r->tracing);
	r->tracing = xmalloc(n ? (size_t)n : 1);
	r->tracing_len = 0;
	while (got < n) {
		size_t step = n - got > IN_CHUNK ? IN_CHUNK : (size_t)(n - got);
		int ret = ensure(r, step);

		if (ret <= 0) {
			if (!ret)
				r->truncated = 1;
			return ret;
		}
		memcpy(r->tracing + got, r->in + r->in_pos, step);
		r->in_pos += step;
		got += step;
	}
	r->tracing_len = got;
	return 1;
}

const unsigned char *reader_tracing_data(const struct reader *r, size_t *len)
{
	*len = r->tracing_len;
	return r->tracing_len ? r->tracing : NULL;
}

static int read_exact_at(struct reader *r, uint64_t off, void *buf, size_t len)
{
	if (r->fd < 0) {
		if (off > r->mem_len || len > r->mem_len - off)
			return -EBADMSG;
		memcpy(buf, r->mem + off, len);
		return 0;
	}
	while (len) {
		ssize_t n = pread(r->fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EBADMSG;
		buf = (unsigned char *)buf + n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/*
 * Room for a record of type with a zeroed body of body bytes after the
 * records handed out before the data (attrs, features); returns the body,
 * or NULL when no record can be that large. It counts once the caller
 * adds its size, sizeof(header) + body, to out.
 */
static unsigned char *new_record(struct reader *r, size_t out, uint32_t type, uint16_t misc,
				 size_t body)
{
	struct perf_event_header h = { type, misc, (uint16_t)(sizeof(h) + body) };

	if (body > PDATA_RECORD_MAX - sizeof(h))
		return NULL;	/* header.size is a u16: it would wrap */

	/* grown by half at least: thousands of attrs must not cost a copy each */
	r->attrs = xgrow(r->attrs, &r->attrs_cap, out + sizeof(h) + body, 1);
	memset(r->attrs + out, 0, sizeof(h) + body);
	memcpy(r->attrs + out, &h, sizeof(h));
	return r->attrs + out + sizeof(h);
}

/*
 * The COMPRESSED feature's five u32s (version, type, level, ratio,
 * mmap_len): mmap_len bounds what one compressed record may hold, as in
 * perf, which decompresses each into a buffer of that size.
 */
static void set_zcap(struct reader *r, const unsigned char *c, size_t len)
{
	struct feature f;

	decode_feature_payload(PDATA_FEAT_COMPRESSED, c, len, &f);
	if (f.whole && f.compressed[4])
		r->zcap = f.compressed[4] < ZCAP_MAX ? f.compressed[4] : ZCAP_MAX;
}

static void compressed_feature(struct reader *r, const struct file_section *sec)
{
	unsigned char c[20];

	if (sec->size >= sizeof(c) && !read_exact_at(r, sec->offset, c, sizeof(c)))
		set_zcap(r, c, sizeof(c));
}

/* perf's build-id table: at most this much of it is read (some 100K files). */
#define BUILD_IDS_MAX	(16u << 20)

/*
 * The BUILD_ID feature: perf's table of the build ids of the files its
 * samples hit, which its MMAP2 records do not carry unless asked. Each
 * entry becomes a HEADER_BUILD_ID record, as pipe mode has them, for the
 * session to name files by (pid, build id, path). Entries that do not fit
 * the section end the table.
 */
static size_t add_build_ids(struct reader *r, const struct file_section *sec, size_t out)
{
	size_t len = sec->size < BUILD_IDS_MAX ? (size_t)sec->size : BUILD_IDS_MAX;
	unsigned char *tab = xmalloc(len ? len : 1);
	size_t at = 0;

	if (read_exact_at(r, sec->offset, tab, len)) {
		free(tab);
		return out;
	}
	while (at + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		unsigned char *body;

		memcpy(&h, tab + at, sizeof(h));
		/* pid, 24 bytes of build id, and a path of at least its NUL */
		if (h.size < sizeof(h) + 4 + 24 + 1 || h.size > len - at)
			break;
		body = new_record(r, out, PDATA_HEADER_BUILD_ID, h.misc, h.size - sizeof(h));
		if (!body)
			break;
		memcpy(body, tab + at + sizeof(h), h.size - sizeof(h));
		out += h.size;
		at += h.size;
	}
	free(tab);
	return out;
}

/*
 * File mode keeps the features in sections after the data: a table of
 * sections, one per bit set in the header's feature bitmap, in bit order.
 * The ones a report shows become HEADER_FEATURE records after the attrs,
 * as pipe mode has them. A feature that cannot be read is left out: it
 * describes the profile, it is not part of it.
 */
static size_t add_file_features(struct reader *r, const unsigned char *hdr,
				const struct file_section *data, size_t out)
{
	uint64_t bits[4], table = data->offset + data->size;
	size_t idx = 0;

	if (table < data->offset)
		return out;
	memcpy(bits, hdr + 72, sizeof(bits));
	for (unsigned feat = 0; feat < 256; feat++) {
		struct file_section sec;
		unsigned char *body;
		size_t rec;

		if (!(bits[feat / 64] >> (feat % 64) & 1))
			continue;
		if (read_exact_at(r, table + 16 * idx++, &sec, sizeof(sec)))
			break;
		if (feat == PDATA_FEAT_COMPRESSED) {
			compressed_feature(r, &sec);
			continue;
		}
		if (feat == PDATA_FEAT_BUILD_ID) {
			out = add_build_ids(r, &sec, out);
			continue;
		}
		if (feat != PDATA_FEAT_HOSTNAME && feat != PDATA_FEAT_OSRELEASE &&
		    feat != PDATA_FEAT_VERSION && feat != PDATA_FEAT_ARCH &&
		    feat != PDATA_FEAT_NRCPUS && feat != PDATA_FEAT_CMDLINE &&
		    feat != PDATA_FEAT_CLOCK_DATA && feat != PDATA_FEAT_EVENT_DESC &&
		    feat != PDATA_FEAT_GROUP_DESC && feat != PDATA_FEAT_BRANCH_STACK)
			continue;
		if (sec.size > PDATA_RECORD_MAX)
			continue;
		rec = 8 + (((size_t)sec.size + 7) & ~(size_t)7);
		body = new_record(r, out, PDATA_HEADER_FEATURE, 0, rec);
		if (!body)
			continue;	/* too big for a record: a report shows none that big */
		{
			uint64_t id = feat;

			memcpy(body, &id, 8);
		}
		if (read_exact_at(r, sec.offset, body + 8, (size_t)sec.size))
			continue;	/* the space stays, zeroed: not counted below */
		out += sizeof(struct perf_event_header) + rec;
	}
	return out;
}

/*
 * File mode: the header names the attrs section (attr_size bytes of attr,
 * then a section locating its ids) and the data section. The attrs become
 * HEADER_ATTR records so that readers see one kind of stream.
 */
static int open_file_mode(struct reader *r, const unsigned char *hdr)
{
	uint64_t attr_size;
	struct file_section attrs, data;
	size_t n, out = 0;
	unsigned char *sec = NULL;
	uint64_t file_size, all_ids = 0;
	int ret = -EBADMSG;

	memcpy(&attr_size, hdr + 16, 8);
	memcpy(&attrs, hdr + 24, sizeof(attrs));
	memcpy(&data, hdr + 40, sizeof(data));
	if (data.size > UINT64_MAX - data.offset)
		return -EBADMSG;
	/* attr_size covers an attr and the section locating its ids. */
	if (attr_size < 64 + 16 || attr_size > 4096 || attrs.size % attr_size ||
	    attrs.size > (1 << 20))
		return -EBADMSG;
	attr_size -= 16;
	n = attrs.size / (attr_size + 16);
	if (r->fd < 0) {
		file_size = r->mem_len;
	} else {
		struct stat st;

		if (fstat(r->fd, &st) < 0)
			return -errno;
		file_size = (uint64_t)st.st_size;
	}
	sec = xmalloc(attrs.size ? attrs.size : 1);
	if (read_exact_at(r, attrs.offset, sec, attrs.size))
		goto out;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *e = sec + i * (attr_size + 16);
		struct file_section ids;
		uint32_t asz = attr_size < PDATA_ATTR_SIZE ? (uint32_t)attr_size : PDATA_ATTR_SIZE;
		uint64_t done = 0;
		int more = 0;

		memcpy(&ids, e + attr_size, sizeof(ids));
		/*
		 * Id sections may not overlap or repeat: together they fit in the
		 * file. Else 1 MB of attrs could name gigabytes of ids.
		 */
		if (ids.size % 8 || ids.size > file_size || all_ids + ids.size > file_size)
			goto out;
		all_ids += ids.size;
		/* An event with more ids than a record holds takes several. */
		do {
			size_t chunk = ids.size - done < IDS_PER_RECORD * 8 ?
				       (size_t)(ids.size - done) : IDS_PER_RECORD * 8;
			unsigned char *body = new_record(r, out, PDATA_HEADER_ATTR,
							 more ? READER_ATTR_MORE_IDS : 0,
							 PDATA_ATTR_SIZE + chunk);

			memcpy(body, e, asz);
			memcpy(body + 4, &asz, 4);	/* attr.size: what was copied */
			if (chunk && read_exact_at(r, ids.offset + done, body + PDATA_ATTR_SIZE, chunk))
				goto out;
			out += sizeof(struct perf_event_header) + PDATA_ATTR_SIZE + chunk;
			done += chunk;
			more = 1;
		} while (done < ids.size);
	}
	out = add_file_features(r, hdr, &data, out);
	r->attrs_len = out;
	/* Position the input at the data section. */
	if (r->fd < 0) {
		if (data.offset > r->mem_len)
			goto out;
		r->in_pos = data.offset;
		r->in_len = data.size < r->mem_len - data.offset ?
			    data.offset + data.size : r->mem_len;
	} else {
		if (data.offset > INT64_MAX || lseek(r->fd, (off_t)data.offset, SEEK_SET) < 0) {
			ret = data.offset > INT64_MAX || errno == EINVAL ? -EBADMSG : -errno;
			goto out;
		}
		r->in_base = data.offset;
		r->in_pos = r->in_len = 0;
		r->eof = 0;
		r->end = data.offset + data.size;
	}
	r->done = data.offset;
	ret = 0;
out:
	free(sec);
	return ret;
}

static struct reader *reader_start(struct reader *r)
{
	uint64_t h[2];
	unsigned char fh[PDATA_FILE_HEADER_SIZE];
	int ret;

	r->zcap = ZCAP_DEFAULT;
	r->aligned = xmalloc(PDATA_RECORD_MAX + 8);
	r->dec = xmalloc(DEC_CAP);
	r->zsrc = xmalloc(PDATA_RECORD_MAX);
	ret = ensure(r, sizeof(h));
	if (ret <= 0) {
		ret = ret ? ret : -EBADMSG;
		goto fail;
	}
	memcpy(h, r->in + r->in_pos, sizeof(h));
	if (h[0] == __builtin_bswap64(PDATA_MAGIC)) {
		ret = -ENOTSUP;
		goto fail;
	}
	if (h[0] != PDATA_MAGIC) {
		ret = -EBADMSG;
		goto fail;
	}
	if (h[1] == PDATA_PIPE_HEADER_SIZE) {
		r->pipe = 1;
		r->in_pos += sizeof(h);
		r->done = sizeof(h);
		return r;
	}
	if (h[1] != PDATA_FILE_HEADER_SIZE) {
		ret = -EBADMSG;
		goto fail;
	}
	if (ensure(r, sizeof(fh)) <= 0) {
		ret = -EBADMSG;
		goto fail;
	}
	memcpy(fh, r->in + r->in_pos, sizeof(fh));
	ret = open_file_mode(r, fh);
	if (ret == -EBADMSG) {
		/* A perf.data file with a broken header: corrupt, not foreign. */
		corrupt(r, 0, "the file header's sections do not fit in the file");
		r->pending = -EBADMSG;
		r->attrs_len = 0;
		return r;
	}
	if (ret)
		goto fail;
	return r;
fail:
	reader_free(r);
	errno = -ret;
	return NULL;
}

struct reader *reader_fdopen(int fd)
{
	struct reader *r = xcalloc(1, sizeof(*r));

	r->fd = fd;
	r->in_cap = IN_CHUNK;
	r->in = xmalloc(r->in_cap);
	return reader_start(r);
}

void reader_open_why(const char *path, int err, char *buf, size_t len)
{
	if (err == EBADMSG)
		snprintf(buf, len, "'%s' is not a perf.data file", path);
	else if (err == ENOTSUP)
		snprintf(buf, len, "'%s' was written on a machine of the other endianness, "
			 "which prof does not read", path);
	else
		snprintf(buf, len, "cannot open '%s': %s", path, strerror(err));
}

struct reader *reader_open(const char *path)
{
	int fd;

	if (!strcmp(path, "-")) {
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? NULL : reader_fdopen(fd);	/* EBADF: stdin closed */
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	return reader_fdopen(fd);
}

struct reader *reader_mem(const void *data, size_t len)
{
	struct reader *r = xcalloc(1, sizeof(*r));

	r->fd = -1;
	r->mem = data;
	r->mem_len = len;
	r->in = (unsigned char *)data;	/* never written through in memory mode */
	r->in_len = len;
	return reader_start(r);
}

void reader_free(struct reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0) {
		close(r->fd);
		free(r->in);
	}
	ZSTD_freeDStream(r->zds);
	free(r->attrs);
	free(r->zsrc);
	free(r->dec);
	free(r->aligned);
	free(r->tracing);
	free(r);
}

static const struct perf_event_header *aligned(struct reader *r, const unsigned char *p,
					       size_t size)
{
	if (((uintptr_t)p & 7) == 0)
		return (const struct perf_event_header *)p;
	memcpy(r->aligned, p, size);
	return (const struct perf_event_header *)r->aligned;
}

/*
 * The current compressed record cannot be decompressed: skip it, count
 * it, and start the next one afresh. A partial record it was to finish
 * goes with it. perf's frames may span records, so the records after it
 * may fail too, until a new frame starts.
 */
static void damaged(struct reader *r, const char *why)
{
	if (!r->bad_records++) {
		r->bad_first = r->zoffset;
		snprintf(r->bad_why, sizeof(r->bad_why), "%s", why);
	}
	r->bad_bytes += r->zsrc_len;
	ZSTD_DCtx_reset(r->zds, ZSTD_reset_session_only);
	r->zsrc_pos = r->zsrc_len;
	r->dec_pos = r->dec_len = 0;
	r->zpending = 0;
	r->zmid = 0;
}

/*
 * Hand out the next whole record from the decompressed bytes,
 * decompressing more of the current compressed record as needed. 1 with
 * a record, 0 when this compressed record is used up (a partial record
 * may stay in dec for the next one). A record that fails to decompress,
 * or gives more than mmap_len, or holds a malformed record, is skipped
 * (see damaged()).
 */
static int next_decompressed(struct reader *r, struct reader_record *rec)
{
	for (;;) {
		size_t avail = r->dec_len - r->dec_pos;

		if (avail >= sizeof(struct perf_event_header)) {
			struct perf_event_header h;

			memcpy(&h, r->dec + r->dec_pos, sizeof(h));
			if (h.size < sizeof(h)) {
				damaged(r, "a record of fewer than 8 bytes inside");
				return 0;
			}
			if (h.type == PDATA_COMPRESSED || h.type == PDATA_COMPRESSED2) {
				damaged(r, "a compressed record inside");
				return 0;
			}
			if (avail >= h.size) {
				rec->hdr = aligned(r, r->dec + r->dec_pos, h.size);
				rec->offset = r->zoffset;
				rec->compressed = 1;
				r->dec_pos += h.size;
				return 1;
			}
		}
		if (r->zsrc_pos >= r->zsrc_len && !r->zpending)
			return 0;
		/*
		 * A compressed record that is one whole frame with its size
		 * (prof writes nothing else) decodes in one call, straight into
		 * dec: a third faster than the stream, which copies through its
		 * window. perf's frames can span records: those stream.
		 */
		if (!r->zmid && !r->zsrc_pos && avail == 0) {
			unsigned long long size = ZSTD_getFrameContentSize(r->zsrc, r->zsrc_len);

			if (size <= DEC_CAP && size <= r->zcap &&
			    ZSTD_findFrameCompressedSize(r->zsrc, r->zsrc_len) == r->zsrc_len) {
				size_t n = ZSTD_decompressDCtx(r->zds, r->dec, DEC_CAP, r->zsrc,
							       r->zsrc_len);

				if (ZSTD_isError(n)) {
					damaged(r, ZSTD_getErrorName(n));
					return 0;
				}
				r->dec_pos = 0;
				r->dec_len = n;
				r->zout = n;
				r->zsrc_pos = r->zsrc_len;
				r->zpending = 0;
				continue;
			}
		}
		/* Keep the partial record, make room after it, decompress more. */
		memmove(r->dec, r->dec + r->dec_pos, avail);
		r->dec_pos = 0;
		r->dec_len = avail;
		{
			ZSTD_inBuffer zin = { r->zsrc, r->zsrc_len, r->zsrc_pos };
			ZSTD_outBuffer zout = { r->dec, DEC_CAP, r->dec_len };
			size_t ret = ZSTD_decompressStream(r->zds, &zout, &zin);

			if (ZSTD_isError(ret)) {
				damaged(r, ZSTD_getErrorName(ret));
				return 0;
			}
			r->zout += zout.pos - avail;
			if (r->zout > r->zcap) {
				/* perf: "Destination buffer is too small"; a zstd bomb */
				damaged(r, "more bytes than the COMPRESSED feature's mmap_len");
				return 0;
			}
			r->zsrc_pos = zin.pos;
			r->dec_len = zout.pos;
			r->zmid = ret != 0;	/* 0: a frame ended here */
			/* A full output buffer may hide more output. */
			r->zpending = zout.pos == zout.size;
			if (zout.pos == avail && zin.pos == zin.size && !r->zpending)
				return 0;
		}
	}
}

static int start_compressed(struct reader *r, const struct perf_event_header *h,
			    uint64_t offset)
{
	const unsigned char *p = (const unsigned char *)h + sizeof(*h);
	size_t len = h->size - sizeof(*h);

	if (!r->zds) {
		r->zds = ZSTD_createDStream();
		if (!r->zds || ZSTD_isError(ZSTD_initDStream(r->zds)))
			return -ENOMEM;
	}
	r->zoffset = offset;
	r->zout = 0;
	if (h->type == PDATA_COMPRESSED2) {
		uint64_t data_size = 0;

		if (len >= 8)
			memcpy(&data_size, p, 8);
		if (len < 8 || data_size > len - 8) {
			r->zsrc_pos = r->zsrc_len = len;
			damaged(r, "COMPRESSED2 data size beyond its record");
			return 0;
		}
		p += 8;
		len = (size_t)data_size;
	}
	memcpy(r->zsrc, p, len);
	r->zsrc_pos = 0;
	r->zsrc_len = len;
	return 0;
}

int reader_next(struct reader *r, struct reader_record *rec)
{
	if (r->pending)
		return r->pending;
	rec->data = NULL;
	rec->data_len = 0;
	for (;;) {
		struct perf_event_header h;
		const unsigned char *p;
		uint64_t off;
		int ret;

		if (r->attrs_pos < r->attrs_len) {
			memcpy(&h, r->attrs + r->attrs_pos, sizeof(h));
			rec->hdr = aligned(r, r->attrs + r->attrs_pos, h.size);
			rec->offset = 0;
			rec->compressed = 0;
			r->attrs_pos += h.size;
			return 1;
		}
		ret = next_decompressed(r, rec);
		if (ret)
			return ret;

		off = in_offset(r);
		ret = ensure(r, sizeof(h));
		if (ret < 0)
			return ret;
		if (!ret) {
			/* Clean end, unless bytes of a record (or of a frame) were left. */
			if (r->in_len > r->in_pos || r->dec_len > r->dec_pos)
				r->truncated = 1;
			return 0;
		}
		memcpy(&h, r->in + r->in_pos, sizeof(h));
		if (h.size < sizeof(h))
			return corrupt(r, off, "record of %u bytes (type %u)", h.size, h.type);
		ret = ensure(r, h.size);
		if (ret < 0)
			return ret;
		if (!ret) {
			r->truncated = 1;
			return 0;
		}
		p = r->in + r->in_pos;
		r->in_pos += h.size;
		rec->hdr = aligned(r, p, h.size);
		rec->offset = off;
		rec->compressed = 0;

		if (h.type == PDATA_COMPRESSED || h.type == PDATA_COMPRESSED2) {
			ret = start_compressed(r, rec->hdr, off);
			if (ret)
				return ret;
			r->done = in_offset(r);
			continue;
		}
		if (h.type == PDATA_HEADER_FEATURE) {
			struct feature f;

			if (!decode_feature(rec->hdr, &f) && f.id == PDATA_FEAT_COMPRESSED)
				set_zcap(r, f.data, f.len);
		}
		/*
		 * AUXTRACE's payload (an Intel PT or ARM SPE trace) follows the
		 * record, outside header.size, in both modes; TRACING_DATA's, a
		 * pipe-mode record, too.
		 */
		if (h.type == PDATA_AUXTRACE && h.size >= 16) {
			uint64_t size;

			memcpy(&size, (const unsigned char *)rec->hdr + 8, 8);
			memmove(r->aligned, rec->hdr, h.size);	/* may be r->aligned */
			rec->hdr = (const struct perf_event_header *)r->aligned;
			ret = skip_input(r, size);
			if (ret <= 0)
				return ret;
		} else if (r->pipe && h.type == PDATA_HEADER_TRACING_DATA && h.size >= 12) {
			uint32_t size;

			memcpy(&size, (const unsigned char *)rec->hdr + 8, 4);
			memmove(r->aligned, rec->hdr, h.size);	/* may be r->aligned */
			rec->hdr = (const struct perf_event_header *)r->aligned;
			ret = keep_tracing(r, ((uint64_t)size + 7) & ~7ULL);
			if (ret <= 0)
				return ret;
			rec->data = reader_tracing_data(r, &rec->data_len);
		}
		r->done = in_offset(r);
		return 1;
	}
}

int reader_seek(struct reader *r, uint64_t offset)
{
	if (!r->pipe || r->pending || r->attrs_pos < r->attrs_len)
		return -EINVAL;
	if (r->fd < 0) {
		if (offset > r->mem_len)
			return -EINVAL;
		r->in_pos = (size_t)offset;
	} else {
		if (lseek(r->fd, (off_t)offset, SEEK_SET) < 0)
			return -errno;
		r->in_base = offset;
		r->in_pos = r->in_len = 0;
		r->eof = 0;
	}
	/* whatever a compressed record was in the middle of is gone */
	r->dec_pos = r->dec_len = 0;
	r->zsrc_pos = r->zsrc_len = 0;
	r->zpending = r->zmid = 0;
	r->zout = 0;
	if (r->zds)
		ZSTD_DCtx_reset(r->zds, ZSTD_reset_session_only);
	r->truncated = 0;
	r->done = offset;
	return 0;
}

int reader_read_ahead(const char *path, uint32_t type,
		      int (*fn)(void *arg, const struct perf_event_header *h), void *arg)
{
	unsigned char tail[sizeof(struct perf_event_header) + sizeof(struct prof_ext)];
	struct perf_event_header h;
	struct prof_ext x;
	struct reader_record rec;
	struct reader *r;
	struct stat st;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	int ret, done = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < 16 + sizeof(tail) ||
	    pread(fd, tail, sizeof(tail), st.st_size - (off_t)sizeof(tail)) != (ssize_t)sizeof(tail)) {
		close(fd);
		return 0;
	}
	memcpy(&h, tail, sizeof(h));
	memcpy(&x, tail + sizeof(h), sizeof(x));
	if (h.type != PDATA_HEADER_EVENT_TYPE || h.size != sizeof(tail) ||
	    x.magic != PROF_EXT_MAGIC || x.kind != PROF_EXT_TRAILER || x.offset < 16 ||
	    x.offset > (uint64_t)st.st_size - sizeof(tail)) {
		close(fd);
		return 0;	/* no trailer: perf's file, or prof's cut short */
	}
	r = reader_fdopen(fd);
	if (!r) {
		close(fd);
		return 0;
	}
	/* the header records say how records are compressed; then to the carried ones */
	while ((ret = reader_next(r, &rec)) > 0 && rec.hdr->type != PDATA_FINISHED_INIT)
		if (rec.hdr->type < 64 || rec.hdr->type == PDATA_COMPRESSED)
			break;
	/*
	 * The trailer counts the files carried: one that leads to none of
	 * them (that points at itself), or to more than it counts, is not
	 * believed; the report then reads the records where they stand, and
	 * the runtimes' files as perf does. (Fewer is a damaged file's.)
	 */
	if (ret > 0 && !reader_seek(r, x.offset)) {
		uint64_t files = 0, chunks = 0;
		struct prof_ext cx;

		while ((ret = reader_next(r, &rec)) > 0) {
			if (rec.hdr->type != type)
				continue;
			if (prof_ext_of(rec.hdr, &cx) && cx.kind != PROF_EXT_TRAILER) {
				chunks++;
				files += !cx.offset;
			}
			if (fn(arg, rec.hdr))
				break;
		}
		done = !ret && !reader_truncated(r) && chunks && files <= x.total;
	}
	reader_free(r);
	return done ? 1 : -1;
}

uint64_t reader_damaged(const struct reader *r, uint64_t *bytes, uint64_t *first,
			const char **why)
{
	*bytes = r->bad_bytes;
	*first = r->bad_first;
	*why = r->bad_why;
	return r->bad_records;
}

int reader_truncated(const struct reader *r)
{
	return r->truncated;
}

uint64_t reader_offset(const struct reader *r)
{
	return r->done;
}

const char *reader_error(const struct reader *r)
{
	return r->why;
}

uint64_t reader_error_offset(const struct reader *r)
{
	return r->why_offset;
}

int reader_is_pipe(const struct reader *r)
{
	return r->pipe;
}
