/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -g's leaf repair, done while recording: a frame-pointer chain skips the
 * caller of a function that sets up no frame of its own (gcc -O2's
 * leaves, libc's system call wrappers), whose return address is on the
 * stack. The report used to find it in 64 bytes of stack stored with
 * every sample (unwind_leaf_returns()); the recorder, which has the
 * files at hand, finds it now from the same bytes and the leaf's .eh_frame,
 * puts it in the chain, where perf reads it too, and drops the stack:
 * the 64 bytes were a fifth of a -g file.
 *
 * Only where it is sure that the report would find the same: the
 * processes' maps as their MMAP2, FORK, COMM and EXIT records make them
 * (the report's own), the very file each map is of (its build id, or its
 * device and inode), a row of the file's .eh_frame for each pc, and a
 * sample no later than its process's last change of maps. Anything else
 * (a pc outside every map known, a file that cannot be read or has no
 * row, a process whose maps are not known) keeps the stack, for the
 * report's repair, which may know more (a .debug_frame, a debuginfod).
 */
#ifndef PROF_RECORD_MEND_H
#define PROF_RECORD_MEND_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct mend;

struct codemap;
struct sample;

/*
 * For samples of attr's layout (-g: CALLCHAIN and STACK_USER, no
 * REGS_USER). root: a directory the maps' paths are under (a copy of
 * another machine's files: the files are opened there, by path, and
 * taken when their build id is the map's); NULL for this machine's
 * processes. code: where code may be, for a stack word the recorder will
 * store as 0 if the stack is kept (codemap_may_return()), which the
 * repair must read as 0; NULL when the words are so already (a file).
 */
struct mend *mend_new(const struct perf_event_attr *attr, const char *root,
		      struct codemap *code);
void mend_free(struct mend *m);

/*
 * A record that changes processes and maps (MMAP, MMAP2, FORK, COMM,
 * EXIT; others are ignored), its first len bytes, in the order of its
 * ring. Maps must come before the samples that use them: the recorder
 * reads every ring's maps before it drains samples (record.c).
 */
void mend_record(struct mend *m, const unsigned char *rec, size_t len);

/*
 * Between two drains: processes that exited in the one before go now
 * (their last samples, drained after their EXIT was read, are done).
 */
void mend_pass(struct mend *m);

/*
 * How often mend_pass() sweeps, in the records' time, and how long a
 * file may go unused before a sweep closes it (read again when a sample
 * needs it): by default every 10 s, a minute; 0: every file at every
 * sweep (a test of the files read again). The sweep also forgets
 * gone processes when they are most of those kept.
 */
void mend_sweep_every(struct mend *m, uint64_t every_ns, uint64_t idle_ns);

/*
 * A -g sample of size bytes at rec, decoded in s: when sure, the callers
 * the chain skips go in after its user pc, the stack goes (its size 0),
 * and misc says PDATA_MISC_SAMPLE_MENDED if any went in. Returns the
 * record's new size, never more than size; size when kept (s then still
 * describes it).
 */
size_t mend_sample(struct mend *m, unsigned char *rec, size_t size, const struct sample *s);

/*
 * While on, mend_filter() leaves every sample as it is, its stack kept
 * for the report's repair, which finds the same callers later: the
 * recorder's worker, far behind the rings, spares the work (a third of
 * its CPU at a high rate) rather than let the rings fill.
 */
void mend_hurry(struct mend *m, int on);

struct rec;
/* mend_sample() as a record filter (drain.h), for SAMPLE; ctx: the mend. */
int mend_filter(void *ctx, struct rec *r);

struct mend_stats {
	uint64_t mended;	/* samples with callers put back */
	uint64_t dropped;	/* samples whose stack went with nothing to put back */
	uint64_t kept;		/* samples left with their stack, for the report */
	uint64_t files;		/* files read for their .eh_frame */
	uint64_t procs;		/* processes kept now (gone ones forgotten past a sweep) */
	uint64_t open;		/* files open now (idle ones closed past a sweep) */
	uint64_t closed;	/* files the sweeps closed, all told */
};
void mend_stats(const struct mend *m, struct mend_stats *st);

#endif
