/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The code a JIT runtime generated in one process, by address and time:
 * built from its perf map (/tmp/perf-PID.map) and its jitdump
 * (src/jitdump.h), whether read from /tmp at report time or carried in
 * the profile. A jitdump says when each function was loaded or moved, so
 * that an address the runtime reused names what was there at the
 * sample's time; a perf map says nothing of time, so its later lines win.
 */
#ifndef PROF_REPORT_JIT_H
#define PROF_REPORT_JIT_H

#include <stddef.h>
#include <stdint.h>

struct strpool;

struct jit_sym {
	uint64_t start, end;
	uint64_t time;		/* of its load or move; 0 for a perf map's */
	uint32_t seq;		/* order of arrival: the later of two equal times wins */
	uint32_t lines, nlines;	/* its source lines: the table's lines[lines ..] */
	const char *name;	/* interned in the table's pool */
	const struct jit_line *lp;	/* lines[lines], once the table is sealed */
};

struct jit_line {
	uint64_t off;		/* from the function's start */
	uint32_t line;
	const char *file;
};

struct jit_table;

/* Names are interned in pool (not owned), which must outlive the table. */
struct jit_table *jit_new(struct strpool *pool);
void jit_free(struct jit_table *t);

/*
 * Add what a perf map or a jitdump says, before the first jit_find():
 * that seals the table, so that what it hands out stays where it is, and
 * later additions are refused. Lines or records that make no sense are
 * skipped: returns how many, *why the first one's reason (valid until
 * the next call). A jitdump's times are left out (all 0) when it used an
 * architecture's own clock, which samples do not.
 */
uint64_t jit_add_perf_map(struct jit_table *t, const char *text, size_t len, const char **why);
uint64_t jit_add_jitdump(struct jit_table *t, const void *data, size_t len, const char **why);

/* Functions known. */
size_t jit_count(const struct jit_table *t);

/*
 * The function at addr at time: of those covering addr, the one loaded
 * last at or before time, else (a clock that disagrees) the first
 * loaded. NULL when none covers addr.
 */
const struct jit_sym *jit_find(struct jit_table *t, uint64_t addr, uint64_t time);
/* The source line of addr in j, from the jitdump's debug info; NULL when none. */
const struct jit_line *jit_line(const struct jit_sym *j, uint64_t addr);

#endif
