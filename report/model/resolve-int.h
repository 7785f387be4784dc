/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The resolver's state, shared by resolve.c (addresses, the memo, the
 * unwinder) and resolve-jit.c (JIT code). Not for use outside them.
 */
#ifndef PROF_REPORT_RESOLVE_INT_H
#define PROF_REPORT_RESOLVE_INT_H

#include "htab.h"
#include "resolve.h"
#include "strpool.h"
#include "u64map.h"

/*
 * JIT tables the profile carries (type 65 records, src/jitdump.h), by
 * process and its start; and the files being put back together from
 * their chunks.
 */
struct carried {
	int pid;
	uint64_t start;
	struct jit_table *t;
};

struct pending {
	int pid;
	uint32_t kind;
	uint64_t start, total;
	unsigned char *buf;
	size_t len;
};

#define JIT_WARN_MAX 20

/* What a carried file costs before its bytes: its table and bookkeeping. */
#define CARRIED_FILE_COST 512

/*
 * What one address of one process resolved to, while its maps stay as
 * they were: hot loops sample the same few addresses over and over.
 */
struct fmemo {
	const struct proc *pr;	/* NULL for the kernel and for unknown pids */
	unsigned gen;
	unsigned flags;		/* kernel | caller << 1 */
	uint64_t addr;
	struct dso *dso;
	uint64_t a;		/* the address in dso */
	int k;			/* frames in fi */
	struct frame_info fi[2];
};

#define FMEMO 1024

struct resolver {
	struct symbols *sym;
	int guest;		/* the sample being resolved ran in a KVM guest (resolver_guest()) */
	uint64_t now;		/* the time of the record being resolved */
	struct fmemo fmemo[FMEMO];
	struct unwind *unwind;	/* made at the first sample with a stack copy */
	/* JIT tables carried in the profile (see struct carried) */
	struct carried *car;
	size_t ncar, carcap;
	struct pending *pend;
	size_t npend;
	int carried_read;	/* read ahead of the records (resolver_carried_done()) */
	uint64_t car_budget;	/* bytes of carried files to take in all (car_charge()) */
	uint64_t car_used;
	int car_over;		/* a file was left out for it: said once */
	struct htab cartab;	/* car by (pid, start) */
	struct htab cpidtab;	/* car by pid: the first of each */
	struct strpool *jpool;	/* JIT names */
	char *jwarn[JIT_WARN_MAX + 1];
	size_t njwarn, jmore;
	/*
	 * The pids that have a /tmp/perf-PID.map, from one read of the
	 * directory (listed 1; -1 when it cannot be read, and each pid's is
	 * opened): a frame of a process in no file's map (JIT code, or a
	 * broken frame-pointer chain's garbage) looks there, and each process
	 * seen again (exec, fork, made anew after its exit) looked again:
	 * 14K failed opens in a system-wide -g report.
	 */
	struct u64map pmaps;
	int listed;
	int no_names;		/* resolver_names(0) */
};

/* resolve-jit.c */
void rs_carried_reset(struct resolver *r);
void rs_jit_locate(struct resolver *r, const struct proc *pr, uint64_t addr, struct rawf *out);
struct pjit *rs_proc_jit(struct resolver *r, const struct proc *pr);

#endif
