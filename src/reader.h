/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile reader: iterates the records of a perf.data file or stream,
 * pipe mode or file mode, opening PERF_RECORD_COMPRESSED(2) records and
 * handing out the records inside them in order. Input is never trusted:
 * every size is checked, nothing is asserted.
 */
#ifndef PROF_READER_H
#define PROF_READER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct reader;

struct reader_record {
	/* The record, 8-byte aligned, valid until the next reader_next(). */
	const struct perf_event_header *hdr;
	/* File offset of the record, or of the compressed record holding it. */
	uint64_t offset;
	/* Non-zero when it came out of a compressed record. */
	int compressed;
	/*
	 * What followed the record outside its size, for whoever takes the
	 * record alone (profile_feed()): a pipe's TRACING_DATA's tracing
	 * data (reader_tracing_data()); NULL and 0 for every other record.
	 */
	const unsigned char *data;
	size_t data_len;
};

/*
 * Open path ("-" is standard input). NULL and errno on failure: the errno
 * of open(2), or EBADMSG when it is not a perf.data file, ENOTSUP when it
 * is one of a kind we do not read (another endianness).
 */
struct reader *reader_open(const char *path);
/* The one line (without "prof: ") saying why reader_open(path) failed with err. */
void reader_open_why(const char *path, int err, char *buf, size_t len);
/* Read from fd, which the reader then owns. Same errors. */
struct reader *reader_fdopen(int fd);
/* Read len bytes at data (not copied: keep them alive). Same errors. */
struct reader *reader_mem(const void *data, size_t len);
void reader_free(struct reader *r);

/*
 * The next record: 1 and *rec filled, 0 at the end (see reader_truncated),
 * or a negative errno: -EBADMSG for a corrupt file (reader_error() says
 * what and reader_error_offset() where), or the errno of a failed read.
 * In file mode the attrs section comes first, as HEADER_ATTR records.
 */
int reader_next(struct reader *r, struct reader_record *rec);

/* After reader_next() returned 0: non-zero when the file ended inside a record. */
int reader_truncated(const struct reader *r);
/* The offset where the last complete record ended (what a truncated file keeps). */
uint64_t reader_offset(const struct reader *r);
const char *reader_error(const struct reader *r);
uint64_t reader_error_offset(const struct reader *r);
/*
 * Compressed records that could not be decompressed (a flipped bit, a
 * frame over the COMPRESSED feature's mmap_len) are skipped, and the
 * records after them read on. How many were skipped, the compressed
 * bytes they held, the offset of the first and why it failed; 0 when
 * none.
 */
uint64_t reader_damaged(const struct reader *r, uint64_t *bytes, uint64_t *first,
			const char **why);

/*
 * misc of a HEADER_ATTR record the reader made from a file-mode attr
 * whose ids did not fit in one record: these ids belong to the event of
 * the record before it (perf never sets misc on HEADER_ATTR).
 */
#define READER_ATTR_MORE_IDS	1

/*
 * Go on reading at offset, which must be where a record starts (the
 * compressed records the header records announced are still read): for
 * records a trailer points to. Pipe mode, from a regular file or memory
 * only: -EINVAL otherwise, or the errno of lseek.
 */
int reader_seek(struct reader *r, uint64_t offset);

/*
 * The records prof carries at the end of a profile (src/jitdump.h), read
 * ahead of the rest: when the regular file at path ends with prof's
 * trailer, fn(arg, record) for each record of type from where it points
 * (fn's non-zero stops). 1 when all were read, 0 when there is no
 * trailer (a pipe, perf's file, prof's cut short), -1 when the trailer
 * led to no records that could be read.
 */
int reader_read_ahead(const char *path, uint32_t type,
		      int (*fn)(void *arg, const struct perf_event_header *h), void *arg);

/*
 * The tracing data (the formats of tracepoints) that followed the last
 * TRACING_DATA record read, as perf's trace-event-info lays it out; NULL
 * when none was (or it was over 64 MiB).
 */
const unsigned char *reader_tracing_data(const struct reader *r, size_t *len);

/* 1 for a pipe-mode stream, 0 for file mode. */
int reader_is_pipe(const struct reader *r);

#endif
