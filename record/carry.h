/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JIT code of the processes a recording sees, carried in the profile:
 * each process's perf map (/tmp/perf-PID.map) and jitdump (the file named
 * jit-PID.dump it maps), read when it exits or when recording ends, and
 * written at the end of the profile as prof's own records (type 65, which
 * perf skips; src/jitdump.h), followed by a trailer that says where they
 * start, so that a report reads them before the samples. A report then
 * names JIT code after /tmp is cleaned, on another machine, and never from
 * the files of a later process that reused a pid: each file is tied to
 * its process by its pid and the time its FORK or exec was recorded.
 */
#ifndef PROF_RECORD_CARRY_H
#define PROF_RECORD_CARRY_H

#include <stddef.h>
#include <stdint.h>

struct carry;
struct writer;

/* mono_to_real: add to a CLOCK_MONOTONIC time (ns) for CLOCK_REALTIME; 0 if record times are not monotonic. */
struct carry *carry_new(int64_t mono_to_real);
void carry_free(struct carry *c);
/* Every function below takes a NULL c, the recorder that carries nothing, and does nothing. */

/* A process there before recording began (its records were synthesized). */
void carry_process(struct carry *c, int pid);
/*
 * A new process, from its FORK record at time. Records come CPU by CPU,
 * not in time order: these use the times to tell which is newer.
 */
void carry_fork(struct carry *c, int pid, uint64_t time);
/* Process pid exec'd (a COMM record with COMM_EXEC) at time. */
void carry_exec(struct carry *c, int pid, uint64_t time);
/* Process pid mapped the file name (name_len bytes) at start, at time: a jitdump is kept open. */
void carry_mmap(struct carry *c, int pid, uint64_t start, uint64_t len, const char *name,
		size_t name_len, uint64_t time);
/* Process pid exited at time: its files are read now, before its pid can be reused. */
void carry_exit(struct carry *c, int pid, uint64_t time);

/*
 * The end of recording: read the files of the processes still running,
 * then write everything read, and the trailer. 0 or a negative errno of
 * the writer. Nothing is written when no process had such files.
 */
int carry_write(struct carry *c, struct writer *w);
/*
 * The end of one file of several (prof record --switch-output): as
 * carry_write(), and then the processes still running are read again for
 * the next file, their files as they will be then.
 */
int carry_write_again(struct carry *c, struct writer *w);
/* Files carried (after carry_write()), their bytes, and of how many processes. */
uint64_t carry_files(const struct carry *c, uint64_t *bytes, uint64_t *procs);

struct rec;
/*
 * What carrying learns from the records as they go, as a record filter
 * (record/drain.h): MMAP2 of code, FORK, COMM (an exec) and EXIT tie JIT
 * runtimes' files to their processes. ctx: the carry.
 */
int carry_filter(void *ctx, struct rec *r);

#endif
