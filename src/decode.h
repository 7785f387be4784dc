/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding kernel records by their event's sample_type: the fields of
 * PERF_RECORD_SAMPLE, and the sample_id trailer other records carry when
 * sample_id_all is set. Pointers point into the record.
 */
#ifndef PROF_DECODE_H
#define PROF_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct sample {
	uint64_t present;	/* PERF_SAMPLE_* bits that were decoded */
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t nr_chain;
	const uint64_t *chain;
	uint64_t user_abi, nr_user_regs;
	const uint64_t *user_regs;
	uint64_t stack_size, stack_dyn_size;
	const unsigned char *stack;
	uint32_t raw_size;
	const unsigned char *raw;
	/*
	 * -W, --data-src, --phys-data, -G, --data-page-size,
	 * --code-page-size: as the kernel wrote them (weight: WEIGHT's u64,
	 * or WEIGHT_STRUCT's var1_dw in the low 32 bits)
	 */
	uint64_t weight, data_src, phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t transaction;	/* --transaction: PERF_TXN_* flags, the abort code above */
	/*
	 * PERF_SAMPLE_READ: read_nr counts (1 without PERF_FORMAT_GROUP),
	 * the first value at read_at, each read_step bytes on, its id
	 * read_id_off bytes after it (-1: no ids): sample_read_value()
	 */
	/*
	 * -b, -j: the branch stack, newest first: br_nr entries of three
	 * u64s at br (from, to, flags: struct perf_branch_entry), unaligned
	 */
	uint64_t br_nr;
	const unsigned char *br;
	/* -I: the registers at the interrupt, one per bit of sample_regs_intr */
	uint64_t intr_abi, nr_intr_regs;
	const uint64_t *intr_regs;
	uint64_t read_nr;
	const unsigned char *read_at;
	unsigned read_step;
	int read_id_off;
};

/* The i-th count of s's PERF_SAMPLE_READ (i < s->read_nr) and its id (0 without ids). */
static inline void sample_read_value(const struct sample *s, uint64_t i, uint64_t *value,
				     uint64_t *id)
{
	const unsigned char *p = s->read_at + i * s->read_step;

	__builtin_memcpy(value, p, 8);
	*id = 0;
	if (s->read_id_off >= 0)
		__builtin_memcpy(id, p + s->read_id_off, 8);
}

/*
 * Decode a PERF_RECORD_SAMPLE. 0, or -EBADMSG when a field runs past the
 * end of the record or a count is impossible.
 */
int decode_sample(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct sample *s);

/*
 * Decode the sample_id trailer (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER)
 * of a non-sample record. s->present is 0 when attr has no sample_id_all.
 * 0, or -EBADMSG when the record is shorter than its trailer.
 */
int decode_id(const struct perf_event_attr *attr, const struct perf_event_header *h,
	      struct sample *s);

/* A PERF_RECORD_MMAP or MMAP2, in any layout a kernel wrote. */
struct mmap_event {
	uint32_t pid, tid;		/* pid (u32)-1: the kernel's and its modules' maps */
	uint64_t start, len, pgoff;
	uint32_t prot, flags;		/* MMAP2 of Linux 3.16 and later only; else 0 */
	const unsigned char *build_id;	/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID, else NULL */
	size_t build_id_len;
	uint32_t maj, min;		/* MMAP2 without a build id: the file's device ... */
	uint64_t ino;			/* ... and inode; else 0 */
	uint64_t ino_gen;		/* ... and the inode's generation (0: none, or the fs has none) */
	const char *name;		/* in the record: name_len bytes, no NUL among them */
	size_t name_len;
};

/*
 * Decode an MMAP or MMAP2 record whose body (after the header, before the
 * sample_id trailer) is body bytes. MMAP2 records of Linux 3.12 to 3.15
 * (RHEL 7's 3.10 has them) have no prot and flags: the name follows the
 * inode generation. 0, or -EBADMSG when the record is too short.
 */
int decode_mmap(const struct perf_event_header *h, size_t body, struct mmap_event *m);

/*
 * A kernel record other than SAMPLE, its body decoded by type (the fields
 * of include/uapi/linux/perf_event.h); what a type does not have is 0.
 */
struct kevent {
	uint32_t type;
	uint16_t misc;
	uint32_t pid, tid;		/* COMM, FORK, EXIT; MMAP and MMAP2 in mmap */
	uint32_t ppid, ptid;		/* FORK, EXIT */
	uint64_t time;			/* FORK, EXIT, THROTTLE, UNTHROTTLE: their own field */
	uint64_t id, stream_id;		/* LOST (id), THROTTLE, UNTHROTTLE */
	uint64_t lost;			/* LOST, LOST_SAMPLES */
	int switch_out, preempt;	/* SWITCH, SWITCH_CPU_WIDE: out (else in), preempted */
	uint32_t next_prev_pid, next_prev_tid;	/* SWITCH_CPU_WIDE: the task in or out */
	const char *comm;		/* COMM: comm_len bytes in the record, no NUL among them */
	size_t comm_len;
	struct mmap_event mmap;		/* MMAP, MMAP2 */
	const char *path;		/* CGROUP: its path (id in id), path_len bytes, no NUL; */
	size_t path_len;		/* KSYMBOL: the symbol's name */
	uint64_t addr;			/* KSYMBOL: where the code is, len bytes */
	uint32_t len;
	uint16_t ksym_type, ksym_flags;	/* KSYMBOL: PERF_RECORD_KSYMBOL_TYPE_*, _FLAGS_*; */
					/* BPF_EVENT: its type and flags, the program's id in id */
	unsigned char tag[8];		/* BPF_EVENT: the program's tag */
	/* NAMESPACES (pid, tid): nr_ns pairs of u64 dev, ino at ns, unaligned, in the
	 * kernel's order (NET_NS_INDEX ...), as many as the record holds */
	uint64_t nr_ns;
	const unsigned char *ns;
	/*
	 * READ (pid, tid): its counts as PERF_SAMPLE_READ lays them out
	 * (struct sample's read_* fields: sample_read_value()), and the
	 * times the counter was enabled and running (0 where read_format
	 * has none)
	 */
	struct sample read;
	uint64_t enabled, running;
	int known;			/* the type is one of those above: its body was decoded */
};

/*
 * Decode a kernel record other than SAMPLE of an event with attr: its body
 * into *k, its sample_id trailer into *id (as decode_id()). A type not
 * listed in struct kevent has known 0 and only its trailer decoded. 0, or
 * -EBADMSG when the record is shorter than its body and trailer.
 */
int decode_kernel(const struct perf_event_attr *attr, const struct perf_event_header *h,
		  struct kevent *k, struct sample *id);

/* Bytes of the sample_id trailer that attr gives non-sample records. */
size_t decode_id_size(const struct perf_event_attr *attr);

/* --- user records: what perf and prof write about the recording ---------- */

/*
 * A HEADER_ATTR record: an attr of attr.size bytes (64 where a file from
 * before attr.size wrote 0), then its sample ids. perf 6.1 writes
 * attr.size bytes of attr but looks for the ids at its own struct's size;
 * prof writes PDATA_ATTR_SIZE. attr.size is trusted when it fits, as
 * newer perf does.
 */
struct attr_record {
	struct perf_event_attr attr;	/* what the record holds of it, zero-extended */
	uint32_t size;			/* bytes of attr in the record */
	const unsigned char *ids;	/* nids u64s, unaligned (memcpy them) */
	size_t nids;
};

/* 0, or -EBADMSG when attr.size is beyond the record or the ids not whole u64s. */
int decode_attr(const struct perf_event_header *h, struct attr_record *a);

/*
 * A HEADER_FEATURE record (pipe mode; the reader turns file mode's
 * feature sections into such records): the feature's id, its payload,
 * and the fields of those a report or script shows. A field the payload
 * is too short for stays 0 (NULL).
 */
struct feature {
	uint64_t id;			/* PDATA_FEAT_* */
	const unsigned char *data;	/* the payload, after the id */
	size_t len;
	/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: perf's string */
	const char *text;		/* text_len bytes, no NUL among them */
	size_t text_len;
	uint32_t nr_strings;		/* CMDLINE: read with feature_string() */
	uint32_t nrcpus[2];		/* NRCPUS: available, online */
	/* COMPRESSED: version, type (1: zstd), level, ratio, mmap_len */
	uint32_t compressed[5];
	/*
	 * CLOCK_DATA: version, the clock of the records' times, and at one
	 * moment the wall clock (CLOCK_REALTIME) and that clock, in ns
	 */
	uint32_t clock_version, clockid;
	uint64_t tod_ns, clock_ns;
	int whole;			/* the payload holds the fields its id has */
};

/* What a feature's payload holds, by its id. */
enum feature_kind {
	FEATURE_OTHER,		/* bytes prof does not read */
	FEATURE_TEXT,		/* one string: text */
	FEATURE_STRINGS,	/* CMDLINE: nr_strings strings */
	FEATURE_NRCPUS,
	FEATURE_COMPRESSED,
	FEATURE_CLOCK,		/* CLOCK_DATA */
};
enum feature_kind feature_kind(uint64_t id);

/* 0, or -EBADMSG when the record is too short for an id. */
int decode_feature(const struct perf_event_header *h, struct feature *f);
/* The same from a payload found elsewhere (a file mode's section). */
void decode_feature_payload(uint64_t id, const void *data, size_t len, struct feature *f);

/*
 * CMDLINE's strings in turn: 1 and the next (*s, *n bytes, no NUL among
 * them; *off starts at 0), or 0 at the end or where the payload stops.
 */
int feature_string(const struct feature *f, size_t *off, uint32_t *i, const char **s,
		   size_t *n);

/* A record of the kernel's mode (its cpumode in misc), the host's or a KVM guest's. */
static inline int decode_misc_kernel(uint16_t misc)
{
	int cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

/* A sample taken while a KVM guest ran (cycles:G): its addresses are the guest's. */
static inline int decode_misc_guest(uint16_t misc)
{
	int cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER;
}

#endif
