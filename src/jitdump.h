/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JIT runtimes' symbol files, as the recorder carries them in a profile
 * and the report reads them:
 *
 * - jitdump (tools/perf/Documentation/jitdump-specification.txt in
 *   Linux): a header, then records of code loaded, moved, its source
 *   lines and its unwinding tables, each with a timestamp. Node
 *   (--perf-prof) and Python 3.13 (-X perf_jit) write it and mmap it
 *   executable, so that the kernel reports its path.
 * - perf maps (/tmp/perf-PID.map): text, "START SIZE NAME" per line, in
 *   hex, written by Node (--perf-basic-prof), Java agents and
 *   -XX:+DumpPerfMapAtExit, Python 3.12 (-X perf) and others.
 *
 * Nothing here trusts its input: every size is checked against the bytes
 * there are.
 */
#ifndef PROF_JITDUMP_H
#define PROF_JITDUMP_H

#include <stddef.h>
#include <stdint.h>

#define JITDUMP_MAGIC		0x4A695444u	/* "JiTD" */
#define JITDUMP_MAGIC_SWAPPED	0x4454694Au
#define JITDUMP_HEADER_MIN	40		/* the header of version 1 */

enum {
	JIT_CODE_LOAD = 0,
	JIT_CODE_MOVE = 1,
	JIT_CODE_DEBUG_INFO = 2,
	JIT_CODE_CLOSE = 3,
	JIT_CODE_UNWINDING_INFO = 4,
};

struct jitdump_header {
	uint32_t version, elf_mach, pid;
	uint64_t timestamp, flags;
	size_t size;			/* where the first record starts */
};

struct jitdump_rec {
	uint32_t id;
	uint64_t timestamp;
	const unsigned char *p;		/* the record, its 16-byte prefix included */
	size_t size;
};

/*
 * Read the header of a jitdump of len bytes. 0, or -1 with a reason in
 * *why: not a jitdump, another byte order (not read), cut short.
 */
int jitdump_header(const void *data, size_t len, struct jitdump_header *h, const char **why);

/*
 * The record at *off (start at h->size): 1 and *r, *off moved past it;
 * 0 at the end of the data; -1 when the record at *off is damaged (its
 * size is under 16 or runs past the end), *why says how. A writer still
 * appending may leave a last record cut short: that is -1 too.
 */
int jitdump_next(const void *data, size_t len, size_t *off, struct jitdump_rec *r,
		 const char **why);

/* Fields of the record types the report uses. Return -1 when r is too short. */
struct jit_code_load {
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	const char *name;		/* NUL-terminated within the record */
	size_t name_len;
	size_t code_off;		/* where the native code starts in r->p */
};
int jitdump_code_load(const struct jitdump_rec *r, struct jit_code_load *out);

struct jit_code_move {
	uint32_t pid, tid;
	uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
};
int jitdump_code_move(const struct jitdump_rec *r, struct jit_code_move *out);

/* JIT_CODE_DEBUG_INFO: entries are walked with jitdump_debug_entry(). */
struct jit_debug_info {
	uint64_t code_addr, nr_entry;
	size_t off;			/* of the first entry in r->p */
};
int jitdump_debug_info(const struct jitdump_rec *r, struct jit_debug_info *out);
struct jit_debug_entry {
	uint64_t addr;
	uint32_t line, discrim;
	const char *file;		/* NUL-terminated within the record */
};
/* The entry at *off: 1 and *e, *off moved on; -1 when it runs past the record. */
int jitdump_debug_entry(const struct jitdump_rec *r, size_t *off, struct jit_debug_entry *e);

struct jit_unwinding_info {
	uint64_t unwind_data_size, eh_frame_hdr_size, mapped_size;
	const unsigned char *data;	/* unwind_data_size bytes: .eh_frame_hdr, .eh_frame */
};
int jitdump_unwinding_info(const struct jitdump_rec *r, struct jit_unwinding_info *out);

/*
 * A copy of a jitdump without its native code: what the recorder carries
 * (the code bytes are most of a jitdump, and nothing the report does
 * needs them). CODE_LOAD records keep their code_size; their record is
 * cut to end after the name. Damaged or cut tails are left out. Returns
 * a malloc'ed buffer of *out_len bytes, or NULL when data is no jitdump.
 */
unsigned char *jitdump_strip(const void *data, size_t len, size_t *out_len);

/*
 * Records prof adds to a profile, of perf's type 65
 * (PERF_RECORD_HEADER_EVENT_TYPE), which perf has read and skipped since
 * it stopped writing it: perf report and perf script read such a file as
 * before. doc/FORMAT.md describes them.
 */
#define PROF_EXT_MAGIC		0x31544e45464f5250ULL	/* "PROFENT1" */
enum {
	PROF_EXT_PERF_MAP = 1,	/* a chunk of a process's perf map */
	PROF_EXT_JITDUMP = 2,	/* a chunk of its jitdump, stripped */
	PROF_EXT_TRAILER = 3,	/* the last record: where the first of these is */
};

/* After the perf_event_header; then len bytes of the file at offset. */
struct prof_ext {
	uint64_t magic;
	uint32_t kind, pid;
	uint64_t start;		/* when the process (or its exec) began, as the
				 * FORK or COMM record said; 0: before recording */
	uint64_t total;		/* the whole file's size (TRAILER: records carried) */
	uint64_t offset;	/* of this chunk in it (TRAILER: the file offset of
				 * the first record carried) */
	uint32_t len, pad;	/* bytes of the chunk that follow */
};

/* The largest chunk: a record's size is a u16, kept a multiple of 8. */
/*
 * Whether h is one of these (a type 65 record with prof's magic): 1 and
 * *x, its fields (the chunk follows them in the record); 0 for anything
 * else, perf's old EVENT_TYPE records included.
 */
struct perf_event_header;
int prof_ext_of(const struct perf_event_header *h, struct prof_ext *x);

/*
 * Whether a mapped file's path names a jitdump: ".../jit-PID.dump", which
 * perf takes for one too.
 */
int jitdump_path(const char *path);

#define PROF_EXT_CHUNK	(65528 - 8 - sizeof(struct prof_ext))

/*
 * The bytes of carried files a reader of a profile of file_size bytes
 * takes at most (the chunks put together, the tables made of them): 8
 * times its size, at least 4 MiB. The recorder compresses them with the
 * rest, and a runtime's perf map or stripped jitdump shrinks 3 to 10
 * times, so a real profile stays within it; a forged size or a zstd frame
 * of zeros cannot make a report or a conversion hold or write gigabytes.
 */
uint64_t prof_ext_budget(uint64_t file_size);

#endif
