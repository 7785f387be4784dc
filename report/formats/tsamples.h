/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each thread's samples in time order, for the timeline formats
 * (speedscope, firefox): a collector (FORMAT_ORDERED) that keeps, per
 * event, a table of frames, the stacks as a prefix tree over it (a stack
 * is its innermost frame on the stack of its caller) and per thread the
 * stack, time and weight of each sample.
 */
#ifndef PROF_REPORT_TSAMPLES_H
#define PROF_REPORT_TSAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "addrs.h"
#include "htab.h"
#include "profile.h"
#include "strpool.h"
#include "u64map.h"

struct ts_frame {
	const char *name;	/* interned (the symbolizer's, or the collection's pool) */
	unsigned flags;		/* FRAME_* */
	const struct dso *dso;
	/*
	 * tsamples_addr: a frame is an address too: as rframe.addr (an
	 * offset in dso), its offset in its function, its source line, and
	 * its depth in the functions inlined there (0: the function itself)
	 */
	uint64_t addr, sym_offset;
	const char *file;
	int line;
	unsigned depth;
};

/* A stack: frame, called from the stack parent (0: the root, no frame). */
struct ts_node {
	uint32_t parent, frame;
};

struct ts_thread {
	int pid, tid;
	const char *comm;	/* the last one seen: after its exec (full: its own, see ctab) */
	uint32_t *stack;	/* per sample, in time order: its stack (a node) */
	uint64_t *weight;	/* its period */
	uint64_t *time;		/* its time (the first's, when merged) */
	/*
	 * with full: per sample its CPU, its leaf's source line (a line, 0:
	 * none), its parallelism, and the instruction it hit (insn: an index + 1
	 * into the collection's leaves, 0: none)
	 */
	uint32_t *cpu, *line, *par, *insn;
	size_t n, cap;
	uint64_t total;
	unsigned skip;		/* samples to fold into the last kept before keeping one (thinned) */
};

/* A source line: file (interned; NULL: none) and line. */
struct ts_line {
	const char *file;
	int line;
	uid_t owner;		/* of the file whose line table named it ((uid_t)-1: unknown) */
};

struct tsamples {
	const struct evdesc *ev;
	int merge;		/* consecutive samples of one stack are one, weights summed */
	int full;		/* each sample's CPU, leaf line and parallelism kept too */
	int by_addr;		/* frames by address (tsamples_addr), not by name */
	struct strpool *pool;
	struct ts_frame *frame;
	size_t nframe, cap_frame;
	struct htab ftab;
	struct ts_node *node;	/* node[0] is the root */
	size_t nnode, cap_node;
	struct u64map ntab;	/* node by parent << 32 | frame */
	struct ts_thread *thread;
	size_t nthread, cap_thread;
	struct u64map ttab;	/* thread by pid << 32 | tid */
	struct htab ctab;	/* with full: thread by pid, tid and comm */
	struct ts_line *line;	/* with full; line[0] is none */
	size_t nline, cap_line;
	struct htab ltab;
	struct addrs *leaves;	/* with full: the samples by the address they hit */
	const struct dso *owner_dso;	/* the last line's dso, and its owner (line_of()) */
	uid_t owner;
	/*
	 * Bounded: past TS_MAX_KEPT samples kept, each thread keeps 1 in
	 * stride, each kept one weighing the samples it stands for (folded
	 * into it): totals stay exact, the sequence coarser, memory bounded
	 * whatever a small file describes (36M samples in 890 KB compressed).
	 */
	size_t kept, next_thin;	/* thinned again past next_thin */
	unsigned stride;	/* 1: every sample kept */
	uint64_t seen;		/* samples added */
};

#define TS_MAX_KEPT ((size_t)1 << 20)

/*
 * The objects the frames of a file are in, each numbered once as first
 * met: the libraries of the Firefox Profiler's file and of the page.
 */
struct ts_libs {
	const struct dso **dso;
	size_t n, cap;
	struct u64map index;	/* by the dso's address */
};

void ts_libs_init(struct ts_libs *l);
/* d's number in l, added when new. */
uint32_t ts_libs_id(struct ts_libs *l, const struct dso *d);
void ts_libs_release(struct ts_libs *l);

/*
 * The collectors: each sample kept, or runs of one stack merged
 * (speedscope), or each with its CPU, leaf line and parallelism (the page),
 * or each with its frames by address and line (the Firefox Profiler's).
 */
extern const struct profile_collector tsamples_each, tsamples_merged, tsamples_full,
	tsamples_addr;

/* The collections of p's events with samples, NULL-terminated; *n their count. Malloc'd. */
struct tsamples **tsamples_of(const struct profile *p, size_t *n);
/* c's threads, the most weight first (then by pid, tid); malloc'd. */
const struct ts_thread **tsamples_threads(const struct tsamples *c);
/* 1 when c's weights are nanoseconds (clocks, off-CPU and wall time), else counts. */
int tsamples_in_ns(const struct tsamples *c);
/*
 * When any of c[0 .. n) was thinned (TS_MAX_KEPT), one line on stderr
 * saying so, for what (an export's name): 1, else 0.
 */
int tsamples_say_thinned(struct tsamples *const *c, size_t n, const char *what);

#endif
