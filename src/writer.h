/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile writer: a perf.data pipe-mode stream, append-only, so that
 * the bytes on disk are a valid profile after every write (doc/FORMAT.md).
 */
#ifndef PROF_WRITER_H
#define PROF_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct writer;

/*
 * A writer appending to fd, which it does not own (writer_free leaves it
 * open). level 0 writes records as they are; 1..22 packs them into
 * PERF_RECORD_COMPRESSED records, pieces of one zstd stream, each of which
 * decompresses to at most frame_max bytes (doc/FORMAT.md). buf_size is the
 * largest span a caller will ask writer_reserve() for. NULL and errno on
 * failure.
 */
struct writer *writer_new(int fd, int level, size_t frame_max, size_t buf_size);
void writer_free(struct writer *w);

/*
 * Every function below returns 0 or a negative errno. After the first
 * failed write every call returns that error again; on a regular file the
 * writer first cuts the file back to its last complete record.
 */
int writer_header(struct writer *w);
/*
 * A HEADER_ATTR record: attr (written at PDATA_ATTR_SIZE) and its sample
 * ids. -E2BIG when they do not fit in one record (more than 8174 ids).
 */
int writer_attr(struct writer *w, const struct perf_event_attr *attr,
		const uint64_t *ids, size_t nr_ids);
/* A HEADER_FEATURE record with a raw payload (padded to 8 bytes). */
int writer_feature(struct writer *w, uint64_t feat, const void *data, size_t len);
/* A HEADER_FEATURE record holding one string, or nr strings (CMDLINE). */
int writer_feature_string(struct writer *w, uint64_t feat, const char *s);
int writer_feature_strings(struct writer *w, uint64_t feat,
			   const char *const *s, size_t nr);

/*
 * A TRACING_DATA record (type 66) and then, outside it, the len bytes of
 * tracing data it announces (padded to 8), as perf's pipe mode has it.
 * Before writer_end_features(): a reader takes them from the stream.
 */
int writer_tracing_data(struct writer *w, const void *data, size_t len);

/*
 * End the header records: the COMPRESSED feature when compressing, then
 * FINISHED_INIT. Call it once, after the attrs and features and before
 * any kernel record.
 */
int writer_end_features(struct writer *w);

/*
 * Room for len bytes of whole records at the end of the buffer, flushing
 * it first when needed; fill them, then writer_commit() what was filled
 * and how many SAMPLE records it holds (the filler saw each record, hot;
 * the writer counts what reaches the file from it without reading them
 * again). *out is valid until the next call. -EMSGSIZE when len > buf_size.
 */
int writer_reserve(struct writer *w, size_t len, void **out);
void writer_commit(struct writer *w, size_t len, uint64_t samples);
/* Append whole records (copying them into the buffer). */
int writer_records(struct writer *w, const void *data, size_t len);
/*
 * Write out (compressing) everything buffered: a reader of the file then
 * gets every record given so far.
 */
int writer_flush(struct writer *w);
/*
 * Write out what is buffered once it is worth a write: WRITER_BATCH
 * bytes of records, or the oldest of them WRITER_AGE_NS old (or at the
 * next call after that). A recorder's pass calls it, a file being the
 * reader: zstd compressing a pass's 100 KiB finds its window and tables
 * cold (the load ran between two passes) and ran at a fifth of its speed
 * inside the recorder; a MiB at a time keeps what it matches against hot.
 * A recorder killed loses at most WRITER_AGE_NS and a pass of records more.
 */
#define WRITER_BATCH	((size_t)1 << 20)
#define WRITER_AGE_NS	200000000ull
int writer_settle(struct writer *w);
/*
 * And at once where what is buffered would bring the bytes out to bytes
 * (0: no such mark): --switch-output=SIZE reads the file's size after a
 * pass, and a batch of 200 ms would overrun its 64K by half again. The
 * buffered bytes are counted before compression, so it writes a little
 * early, never late.
 */
void writer_settle_at(struct writer *w, uint64_t bytes);
/*
 * The same, and end the open zstd frame, so that what comes next can be
 * read from there on without what came before (a reader that seeks), and
 * the frame's checksum is in the file. Before the file is closed. With
 * nothing buffered the frame ends in a FINISHED_ROUND record: call it
 * where no sample follows, or with records buffered.
 */
int writer_end_frame(struct writer *w);
/*
 * Let the level move, from one zstd frame to the next, between 1 and max
 * (the steps 1, 3, 6, from the one at or below the level given), by what
 * compressing costs: down where it takes more than 3% of a CPU, up where
 * the next step's estimated cost stays within 2.5%, and back down when
 * the raised level's first whole frame did not come out 5% smaller than
 * the same records at the level below (then no raise for 30 s,
 * doubling). For a recorder's default level: the records' rate is
 * unknown until they come. Nothing when not compressing; -EINVAL when
 * max is below the level.
 */
int writer_adapt(struct writer *w, int max);
/*
 * After writer_adapt(): compressing may take millionths of a CPU (the
 * level goes down past it, and up where the next level's estimated cost
 * keeps within 5/6 of it), and when it takes more at level 1 (or would,
 * scaled from a higher level's), the records are written as they come (the frame ended first; a reader takes them
 * between two COMPRESSED records, as perf's own writer leaves some),
 * until level 1 would take under half of it for the bytes of the last
 * second. 0: writer_adapt()'s own 3%, and never as they come (the default).
 */
void writer_shed(struct writer *w, unsigned millionths);
/* Bytes of records written as they came past writer_shed()'s budget, and how many times it was passed. */
uint64_t writer_stored(const struct writer *w, uint64_t *times);
/* The level now: the one given, or where writer_adapt() moved it. */
int writer_level(const struct writer *w);
/* 1 when the records written now are compressed: a level, not stored past the budget. */
int writer_compressing(const struct writer *w);

/*
 * End the frame (writer_end_frame()), then write one record of type with
 * a payload of len bytes (padded to 8) as it is, uncompressed even when
 * compressing: a record a reader finds at a known place, such as the end
 * of the file.
 */
int writer_user_record(struct writer *w, uint32_t type, const void *data, size_t len);

/*
 * Bytes of records given to the writer, and bytes it wrote to fd (after
 * writer_flush(), the offset in the file where the next record goes).
 */
uint64_t writer_bytes_in(const struct writer *w);
uint64_t writer_bytes_out(const struct writer *w);
/* SAMPLE records written to the file: not those a failed write lost. */
uint64_t writer_samples_out(const struct writer *w);

#endif
