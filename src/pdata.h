/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The perf.data layout prof reads and writes: magic numbers, the record
 * types perf adds to the kernel's, and feature ids. doc/FORMAT.md explains
 * them; tools/perf/util/{header,event}.h in Linux are the source of truth.
 */
#ifndef PROF_PDATA_H
#define PROF_PDATA_H

#include <stdint.h>
#include <linux/perf_event.h>

#define PDATA_MAGIC		0x32454c4946524550ULL	/* "PERFILE2" */
#define PDATA_PIPE_HEADER_SIZE	16
#define PDATA_FILE_HEADER_SIZE	104

/*
 * perf before 6.1.55 finds the ids after a HEADER_ATTR record's attr at the
 * offset of its own compiled struct perf_event_attr (128 bytes in 6.1), not
 * at attr.size; later ones use attr.size. Writing attrs at exactly 128
 * bytes reads right in both.
 */
#define PDATA_ATTR_SIZE		128

/* Record types perf defines for its own use (tools/perf/util/event.h). */
enum {
	PDATA_HEADER_ATTR = 64,
	PDATA_HEADER_EVENT_TYPE = 65,
	PDATA_HEADER_TRACING_DATA = 66,
	PDATA_HEADER_BUILD_ID = 67,
	PDATA_FINISHED_ROUND = 68,
	PDATA_ID_INDEX = 69,
	PDATA_AUXTRACE_INFO = 70,
	PDATA_AUXTRACE = 71,
	PDATA_AUXTRACE_ERROR = 72,
	PDATA_THREAD_MAP = 73,
	PDATA_CPU_MAP = 74,
	PDATA_STAT_CONFIG = 75,
	PDATA_STAT = 76,
	PDATA_STAT_ROUND = 77,
	PDATA_EVENT_UPDATE = 78,
	PDATA_TIME_CONV = 79,
	PDATA_HEADER_FEATURE = 80,
	PDATA_COMPRESSED = 81,
	PDATA_FINISHED_INIT = 82,
	PDATA_COMPRESSED2 = 83,
};

/* Feature ids (HEADER_* in tools/perf/util/header.h). */
enum {
	PDATA_FEAT_TRACING_DATA = 1,
	PDATA_FEAT_BUILD_ID = 2,
	PDATA_FEAT_HOSTNAME = 3,
	PDATA_FEAT_OSRELEASE = 4,
	PDATA_FEAT_VERSION = 5,
	PDATA_FEAT_ARCH = 6,
	PDATA_FEAT_NRCPUS = 7,
	PDATA_FEAT_CPUDESC = 8,
	PDATA_FEAT_CPUID = 9,
	PDATA_FEAT_TOTAL_MEM = 10,
	PDATA_FEAT_CMDLINE = 11,
	PDATA_FEAT_EVENT_DESC = 12,
	PDATA_FEAT_BRANCH_STACK = 15,	/* no data: the samples have branch stacks */
	PDATA_FEAT_GROUP_DESC = 17,
	PDATA_FEAT_CLOCKID = 23,
	PDATA_FEAT_COMPRESSED = 27,
	PDATA_FEAT_CLOCK_DATA = 29,
	PDATA_FEAT_LAST = 256,
};

/* String payloads in features are padded to this (NAME_ALIGN in perf). */
#define PDATA_STRING_ALIGN	64

/*
 * Bits prof record sets in the misc of a context-switches sample (the
 * kernel leaves them 0 in samples) when it folds the thread's SWITCH out
 * record, which follows the sample, into it: the sample is also the
 * switch-out, at its time (doc/FORMAT.md, "Off-CPU").
 */
#define PDATA_MISC_SAMPLE_SWITCH_OUT	(1 << 13)	/* as PERF_RECORD_MISC_SWITCH_OUT */
#define PDATA_MISC_SAMPLE_PREEMPT	(1 << 12)	/* the thread was runnable: preempted */
/*
 * A -g sample whose chain has the callers its frame-pointer walk skipped
 * (a frameless leaf's), put back by prof record from the stack it then
 * dropped (doc/FORMAT.md, "Leaf repair").
 */
#define PDATA_MISC_SAMPLE_MENDED	(1 << 11)

/* Largest record: header.size is a u16. */
#define PDATA_RECORD_MAX	65535

/*
 * A NAMESPACES record's namespaces, in the kernel's order (NET_NS_INDEX
 * ... CGROUP_NS_INDEX of linux/perf_event.h), by their /proc/PID/ns names.
 */
#define PDATA_NS_NR	7
#define PDATA_NS_CGROUP	6
extern const char *const pdata_ns_names[PDATA_NS_NR];

/* Name of a record type ("SAMPLE", "MMAP2", "FINISHED_ROUND"), NULL if unknown. */
const char *pdata_record_name(uint32_t type);
/* Name of a feature id ("hostname"), NULL if we do not know it. */
const char *pdata_feature_name(uint64_t id);
/*
 * Whether an MMAP name (len bytes) is of memory no file backs, where JIT
 * runtimes put code: "//anon", "[anon:...]", "[heap]", a memfd, ...
 */
int pdata_anon_name(const char *name, size_t len);

#endif
