// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the pipe-mode stream. Records are buffered and flushed as whole
 * records. With compression the records are one zstd stream, as perf's
 * own -z writes them: each flush compresses what is buffered and flushes
 * the stream into PERF_RECORD_COMPRESSED records, so that a file cut
 * after any of them decodes to every record flushed, and each frame
 * ends, with its checksum, after about FRAME_SPAN bytes of records (and
 * wherever writer_end_frame() asks), so that damage costs at most the
 * rest of its frame. A frame per flush, as this wrote before, made files
 * 7% bigger: every frame began with no history to match against.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "clock.h"
#include "pdata.h"
#include "share.h"
#include "writer.h"
#include "xalloc.h"

/* A compressed record: 8-byte header, then a piece of the stream. */
#define FRAME_OUT_MAX	(PDATA_RECORD_MAX - sizeof(struct perf_event_header))
/*
 * Records a frame holds before it ends. One MiB keeps 6.0% of the 6.9%
 * that one frame for the whole file would save (a system-wide -g
 * recording), and bounds what one damaged byte can take with it.
 */
#define FRAME_SPAN_LOG	20
#define FRAME_SPAN	((size_t)1 << FRAME_SPAN_LOG)
/*
 * Records one COMPRESSED record holds at most: compressed, even when they
 * do not shrink, with a frame's header and checksum, they fit in it. So
 * every COMPRESSED record decompresses to whole records, and never to
 * nothing (perf takes that for damage: "Couldn't decompress data"), as
 * a block split between two records would. A flush of one such segment
 * costs 0.3% of the file against one per pass over the rings.
 */
#define SEG_MAX		((size_t)65024)
_Static_assert(ZSTD_COMPRESSBOUND(SEG_MAX) <= FRAME_OUT_MAX, "a segment fits in a record");

/*
 * writer_adapt(): the share of one CPU compressing may take, in
 * millionths (ADAPT_BUDGET, or writer_shed()'s), and how long a look at
 * it spans at least. The level goes
 * down as soon as the budget is passed, and up where the next level's
 * estimated cost keeps within ADAPT_UP of it (5/6). adapt_cost is each level's CPU
 * relative to level 1's as measured inside the recorder (an 8 s
 * system-wide -g recording, 6K samples a second: 0.4%, 0.75% and 1.5% of
 * a CPU at levels 1, 3 and 6); the per-call costs the levels share
 * (flushes, caches a drain left cold) make the steps closer than zstd's
 * own benchmark says (1.35x, 3.1x). The windows, and when a share is
 * past the budget, are share.h's, as the leaf repair's are.
 *
 * A step up is a trial: the first whole frame at the new level must come
 * out ADAPT_GAIN% smaller than the same records at the level below, which
 * a second context compresses beside it for that frame alone (one frame
 * against the next would not do: a system-wide recording's frames differ
 * by 10% at one level), or the level goes back and stays there
 * ADAPT_HOLD_NS, twice that after the next failed trial, and so on up to
 * ADAPT_HOLD_MAX_NS: a level that costs twice the CPU for a few % of
 * bytes is not worth it (a switch storm's level 3 saves nothing).
 *
 * Past the budget at level 1 (writer_shed()), the records are written as
 * they come: at -a -g -F 40000 on 2 CPUs level 1 took 3.5% of a CPU, and
 * with the leaf repair made the recorder 3.5 times perf's CPU over 20 s.
 * A higher level whose share, scaled by adapt_cost to level 1's, is past
 * the budget goes there at once, not through a frame of level 1: frames
 * are a MiB of records, and a short recording may have only two. In a
 * window too short to judge by (over 4 times the budget at its level, not
 * yet at level 1), it goes straight to level 1, not a level between: the
 * levels between cost more than one that is already over.
 */
#define ADAPT_BUDGET	30000	/* millionths of a CPU: 3%, unless writer_shed() says */
#define ADAPT_UP(b)	((b) * 5 / 6)
#define ADAPT_GAIN	5
#define ADAPT_HOLD_NS	30000000000ull
#define ADAPT_HOLD_MAX_NS 960000000000ull
static const int adapt_levels[] = { 1, 3, 6 };
static const unsigned adapt_cost[] = { 100, 190, 380 };
/*
 * And their hash and chain tables (log2 entries, 0: the level's own),
 * sized for a frame of a MiB rather than for any input: compressing a
 * drain's few segments at a time, the tables are cold each time, and
 * level 3's 17/16 and level 6's 19/18 cost 37 and 88 ms a 9.5 MB
 * system-wide -g stream, these 27 and 66 ms, for 0.1% and 0.3% more bytes.
 */
static const int adapt_hash_log[] = { 0, 16, 17 };
static const int adapt_chain_log[] = { 0, 15, 16 };
#define ADAPT_STEPS	((int)(sizeof(adapt_levels) / sizeof(adapt_levels[0])))

struct writer {
	int fd;
	int level;
	int err;		/* first write error, sticky */
	int regular;		/* fd is a regular file: can be cut back */
	off_t good;		/* file offset after the last complete write */
	unsigned char *buf;	/* records waiting for a flush */
	size_t len, cap;
	uint64_t buf_samples;	/* SAMPLE records in buf (writer_commit()) */
	uint64_t buf_since;	/* mono_ns() when buf's first record came (writer_settle()) */
	size_t frame_max;
	unsigned char *out;	/* one compressed record */
	ZSTD_CCtx *cctx;
	size_t frame_in;	/* bytes of records in the open frame; 0: none open */
	uint64_t bytes_in, bytes_out;
	uint64_t settle_at;	/* writer_settle_at(): bytes out that end a batch early (0: none) */
	uint64_t samples_out;	/* SAMPLE records that reached the file */
	int adapt;		/* writer_adapt(): 1 + the index of level in adapt_levels */
	int adapt_max;		/* the index of the highest level it may take */
	uint64_t win_start;	/* the window's start, mono_ns() */
	uint64_t win_cpu;	/* this thread's CPU ns in ZSTD_compressStream2 since */
	uint64_t frame_out;	/* compressed bytes of the open frame */
	int whole;		/* a whole frame ended at this level */
	int trial;		/* the level was just raised: its first whole frame decides */
	ZSTD_CCtx *below;	/* in a trial, the same records at the level below */
	uint64_t below_out;	/* its bytes for the open frame */
	uint64_t hold_until;	/* no step up before then (mono_ns()) */
	uint64_t hold;		/* how long the next failed trial holds */
	uint64_t win_in;	/* bytes compressed in the window */
	unsigned budget;	/* millionths of a CPU compressing may take (ADAPT_BUDGET) */
	int shed;		/* writer_shed(): past budget at level 1, store */
	int stored;		/* past shed at level 1: records written as they come */
	uint64_t ns_per_kb;	/* level 1's CPU ns a KiB of records, when it was left */
	uint64_t stored_in;	/* bytes written as they came in the window */
	uint64_t stored_bytes, stores;	/* writer_stored() */
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
		 * frame from garbage records that happen to parse. A window of
		 * FRAME_SPAN: a frame holds little more, so a larger one (level
		 * 3's is 2 MiB) finds nothing more, and a reader holds a buffer
		 * of the window's size (1.1 MiB less for every report).
		 */
		if (!w->cctx ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, level)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_windowLog, FRAME_SPAN_LOG)) ||
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
	ZSTD_freeCCtx(w->below);
	free(w->out);
	free(w->buf);
	free(w);
}

static size_t whole_prefix(const unsigned char *p, size_t len);

/*
 * Write all of data, or fail and cut a regular file back to the end of the
 * last complete write, so that a full disk never leaves half a record.
 * With records set, data is whole records, and a write that fails part
 * way keeps those of them that reached the file whole (*kept: their bytes).
 */
static int write_cut(struct writer *w, const void *data, size_t len, int records, size_t *kept)
{
	const unsigned char *p = data;
	size_t left = len, keep;

	if (kept)
		*kept = 0;
	if (w->err)
		return w->err;
	while (left) {
		ssize_t n = write(w->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n < 0 ? -errno : -EIO;
			keep = records ? whole_prefix(data, len - left) : 0;
			if (w->regular && ftruncate(w->fd, w->good + (off_t)keep) == 0) {
				lseek(w->fd, w->good + (off_t)keep, SEEK_SET);
				w->good += (off_t)keep;
				w->bytes_out += keep;
				if (kept)
					*kept = keep;
			}
			return w->err;
		}
		p += n;
		left -= (size_t)n;
	}
	w->good += (off_t)len;
	w->bytes_out += len;
	if (kept)
		*kept = len;
	return 0;
}

static int write_all(struct writer *w, const void *data, size_t len)
{
	return write_cut(w, data, len, 0, NULL);
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
	int ret = writer_end_frame(w);

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

/* Length of the longest run of whole records at the start of the len bytes at p. */
static size_t whole_prefix(const unsigned char *p, size_t len)
{
	size_t off = 0;

	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			break;
		off += h.size;
	}
	return off;
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

static int level_params(ZSTD_CCtx *c, int i)
{
	return ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, adapt_levels[i])) ||
	       ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, adapt_hash_log[i])) ||
	       ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_chainLog, adapt_chain_log[i])) ? -1 : 0;
}

static int set_level(struct writer *w, int i)
{
	if (level_params(w->cctx, i))
		return -1;
	w->adapt = i + 1;
	w->level = adapt_levels[i];
	w->whole = 0;
	return 0;
}

/* A trial of the level above i: up, with i's own beside it for a frame. */
static void start_trial(struct writer *w, int i)
{
	if (!w->below)
		w->below = ZSTD_createCCtx();
	if (!w->below || ZSTD_isError(ZSTD_CCtx_reset(w->below, ZSTD_reset_session_and_parameters)) ||
	    level_params(w->below, i) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->below, ZSTD_c_windowLog, FRAME_SPAN_LOG)) ||
	    set_level(w, i + 1))
		return;
	w->trial = 1;	/* below_out is 0: adapt() calls this between frames */
}

/*
 * Between two frames (the only place zstd takes a new level in a
 * stream), in and out being the bytes of the frame that ended: the level
 * for the next one, by the share of a CPU that compressing took over the
 * window that ends here, and by what a raised level saved.
 */
static void adapt(struct writer *w, uint64_t in, uint64_t out)
{
	uint64_t now = mono_ns(), wall = now - w->win_start, share, one;
	int i = w->adapt - 1;

	if (in >= FRAME_SPAN / 2) {
		w->whole = 1;
		if (w->trial) {
			w->trial = 0;
			if (out * 100 > w->below_out * (100 - ADAPT_GAIN)) {
				if (!set_level(w, i - 1)) {
					w->hold_until = now + w->hold;
					w->hold = w->hold * 2 > ADAPT_HOLD_MAX_NS ? ADAPT_HOLD_MAX_NS
										    : w->hold * 2;
				}
				w->win_start = now;
				w->win_cpu = 0;
				w->win_in = 0;
				return;
			}
			w->hold = ADAPT_HOLD_NS;
		}
	}
	w->below_out = 0;
	if (wall < SHARE_QUICK_NS)
		return;
	share = w->win_cpu * 1000000 / wall;	/* millionths of a CPU */
	/* what level 1 would have taken: at level 1 itself, the share */
	one = share * adapt_cost[0] / adapt_cost[i];
	if (w->shed && w->win_in && share_passed(one, w->budget, wall)) {
		/*
		 * level 1 costs (or would) more than the budget: records as
		 * they come, from this frame's end, and level 1 when they are
		 * compressed again; not a frame more at a level that is over
		 */
		w->ns_per_kb = w->win_cpu * adapt_cost[0] / adapt_cost[i] * 1024 / w->win_in;
		if (i > 0 && !set_level(w, 0))
			w->trial = 0;
		w->stored = 1;
		w->stores++;
		w->stored_in = 0;
	} else if (i > 0 && share_passed(share, w->budget, wall)) {
		/* a short window: where even level 1 is over, there, to be judged at a whole one */
		if (!set_level(w, w->shed && one > w->budget ? 0 : i - 1))
			w->trial = 0;
	} else if (wall < SHARE_WINDOW_NS) {
		return;
	} else if (i < w->adapt_max && !w->trial && w->whole && now >= w->hold_until &&
		   share * adapt_cost[i + 1] / adapt_cost[i] <= ADAPT_UP(w->budget)) {
		start_trial(w, i);
	}
	w->win_start = now;
	w->win_cpu = 0;
	w->win_in = 0;
}

/*
 * Writing records as they come (past the budget at level 1): compress
 * again once level 1's cost for the KiB of the last window, at the cost
 * a KiB it had, keeps within half the budget (share_back()).
 */
static void unstore(struct writer *w)
{
	uint64_t now = mono_ns(), wall = now - w->win_start;

	if (wall < SHARE_WINDOW_NS)
		return;
	if (share_back(w->stored_in / 1024, w->ns_per_kb, wall, w->budget))
		w->stored = 0;
	w->stored_in = 0;
	w->win_start = now;
	w->win_cpu = 0;
	w->win_in = 0;
}

/*
 * Compress len (at most SEG_MAX) bytes of whole records into the stream,
 * flush it (end the frame too, when end is set) and write what came out
 * as one COMPRESSED record.
 */
static int write_segment(struct writer *w, const unsigned char *p, size_t len, int end)
{
	struct perf_event_header h = { PDATA_COMPRESSED, 0, 0 };
	ZSTD_inBuffer in = { p, len, 0 };
	ZSTD_outBuffer out = { w->out + sizeof(h), FRAME_OUT_MAX, 0 };
	uint64_t t0 = w->adapt ? thread_cpu_ns() : 0;
	size_t left = ZSTD_compressStream2(w->cctx, &out, &in, end ? ZSTD_e_end : ZSTD_e_flush);
	int ret;

	if (w->adapt) {
		w->win_cpu += thread_cpu_ns() - t0;
		w->win_in += len;
		w->frame_out += out.pos;
	}

	if (ZSTD_isError(left) || left || in.pos < len) {
		/* past the bound SEG_MAX was chosen by, or out of memory: the stream is lost */
		w->err = -EIO;
		return w->err;
	}
	h.size = (uint16_t)(out.pos + sizeof(h));
	memcpy(w->out, &h, sizeof(h));
	ret = write_all(w, w->out, out.pos + sizeof(h));
	if (ret)
		return ret;
	if (w->trial) {
		/* the level below on the same records, into the record just written */
		ZSTD_inBuffer bin = { p, len, 0 };
		ZSTD_outBuffer bout = { w->out, FRAME_OUT_MAX, 0 };

		left = ZSTD_compressStream2(w->below, &bout, &bin, end ? ZSTD_e_end : ZSTD_e_flush);
		if (ZSTD_isError(left) || left || bin.pos < len)
			w->trial = 0;	/* no comparison: the raise stands */
		w->below_out += bout.pos;
	}
	w->frame_in += len;
	w->samples_out += count_samples(p, len);
	if (end) {
		if (w->adapt)
			adapt(w, w->frame_in, w->frame_out);
		w->frame_in = 0;
		w->frame_out = 0;
	}
	return 0;
}

/*
 * The buffer's records from from on, uncompressed and at once: a full
 * disk keeps the whole records that made it (write_cut()), and the
 * samples are those the buffer was filled with, not counted by reading
 * it again (two walks of its records, each a cache miss a record: 11% of
 * a system-wide recorder at 40 kHz). Past writer_shed()'s budget, the
 * same: perf's own uncompressed records, between two frames of the stream.
 */
static int write_raw(struct writer *w, size_t from)
{
	size_t kept;
	int ret = write_cut(w, w->buf + from, w->len - from, 1, &kept);

	w->samples_out += ret || from ? count_samples(w->buf + from, kept) : w->buf_samples;
	if (w->level)
		w->stored_bytes += kept;
	return ret;
}

/* Write out what is buffered; end the open frame too when end is set. */
static int flush(struct writer *w, int end)
{
	size_t off = 0, seg = w->frame_max < SEG_MAX ? w->frame_max : SEG_MAX;
	int ret = 0;

	if (w->err)
		return w->err;
	if (w->stored) {
		w->stored_in += w->len;
		unstore(w);
	}
	if ((!w->level || w->stored) && w->len) {
		ret = write_raw(w, 0);
		off = w->len;
	}
	while (off < w->len && !ret) {
		size_t n = whole_records(w->buf + off, w->len - off, seg);

		/* compressed, a segment each, but for one record too big for a segment: as it is, between two */
		if (n > seg) {
			ret = write_all(w, w->buf + off, n);
			if (!ret)
				w->samples_out += count_samples(w->buf + off, n);
		} else {
			ret = write_segment(w, w->buf + off, n,
					    w->frame_in + n >= FRAME_SPAN || (end && off + n == w->len));
		}
		off += n;
		if (!ret && w->stored && off < w->len) {
			/* the frame that just ended passed the budget: the rest as it is */
			ret = write_raw(w, off);
			off = w->len;
		}
	}
	w->len = 0;
	w->buf_samples = 0;
	if (!ret && end && w->frame_in) {
		/*
		 * Nothing was left to end the frame with (or only a record too
		 * big for it): it ends in a FINISHED_ROUND, which says nothing
		 * new where no sample follows (writer.h).
		 */
		static const struct perf_event_header round = { PDATA_FINISHED_ROUND, 0, 8 };

		w->bytes_in += sizeof(round);
		ret = write_segment(w, (const unsigned char *)&round, sizeof(round), 1);
	}
	return ret;
}

int writer_flush(struct writer *w)
{
	return flush(w, 0);
}

int writer_settle(struct writer *w)
{
	if (w->err)
		return w->err;
	if (w->len >= WRITER_BATCH || (w->len && mono_ns() - w->buf_since >= WRITER_AGE_NS) ||
	    (w->settle_at && w->len && w->bytes_out + w->len >= w->settle_at))
		return flush(w, 0);
	return 0;
}

void writer_settle_at(struct writer *w, uint64_t bytes)
{
	w->settle_at = bytes;
}

int writer_end_frame(struct writer *w)
{
	return flush(w, 1);
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

void writer_commit(struct writer *w, size_t len, uint64_t samples)
{
	if (!w->len && len)
		w->buf_since = mono_ns();
	w->len += len;
	w->bytes_in += len;
	w->buf_samples += samples;
}

int writer_records(struct writer *w, const void *data, size_t len)
{
	void *dst;
	int ret = writer_reserve(w, len, &dst);

	if (ret)
		return ret;
	memcpy(dst, data, len);
	writer_commit(w, len, count_samples(data, len));
	return 0;
}

int writer_adapt(struct writer *w, int max)
{
	int at = -1, top = -1;

	if (!w->level)
		return 0;
	for (int i = 0; i < ADAPT_STEPS; i++) {
		if (adapt_levels[i] <= w->level)
			at = i;
		if (adapt_levels[i] <= max)
			top = i;
	}
	if (at < 0 || top < at)
		return -EINVAL;
	if (set_level(w, at))
		return -EINVAL;
	w->adapt_max = top;
	w->budget = ADAPT_BUDGET;
	w->win_start = mono_ns();
	w->win_cpu = 0;
	w->hold = ADAPT_HOLD_NS;
	return 0;
}

void writer_shed(struct writer *w, unsigned millionths)
{
	w->shed = millionths > 0;
	w->budget = millionths ? millionths : ADAPT_BUDGET;
}

uint64_t writer_stored(const struct writer *w, uint64_t *times)
{
	if (times)
		*times = w->stores;
	return w->stored_bytes;
}

int writer_level(const struct writer *w)
{
	return w->level;
}

int writer_compressing(const struct writer *w)
{
	return w->level > 0 && !w->stored;
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
