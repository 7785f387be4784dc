/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * User stacks of --call-graph dwarf samples, unwound in process from the
 * sample's registers and its copy of the stack, with the CFI libdw reads
 * (.eh_frame, else .debug_frame) and the frame pointer where there is none.
 */
#ifndef PROF_REPORT_UNWIND_H
#define PROF_REPORT_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"

struct unwind;

/* Why unwinding stopped (0: it did not run). */
enum {
	UNWIND_END_ROOT = 1,	/* the CFI marks the frame outermost: done */
	UNWIND_END_MAX,		/* as many frames as asked */
	UNWIND_END_STACK,	/* a read fell past the end of the stack copy */
	UNWIND_END_NOCFI,	/* the file has no CFI for the pc, nor a usable frame pointer */
	UNWIND_END_NOFILE,	/* the pc's file is missing, not ELF, or another build */
	UNWIND_END_NOMAP,	/* the pc is in no mapped file: JIT code, a stack switch */
	UNWIND_END_BAD,		/* the CFI or the stack led nowhere */
};

struct unwind_stop {
	int end;		/* UNWIND_END_* */
	int at;			/* the frame to blame: an index into pcs */
};

/* A process's mapping, as the session knows it. */
struct objfile;

struct unwind_map {
	uint64_t start, end, pgoff;
	const struct objfile *file;	/* the file (objfile.h); NULL to leave the mapping out */
	/* the build id recorded for it: a file with another is not used */
	const unsigned char *build_id;
	size_t build_id_len;	/* 0: none recorded, any file will do */
	/*
	 * 1: [start, end) is one of CPython's perf trampolines (-X perf,
	 * x86-64), which keep no frame pointer and have no CFI, but whose
	 * frame is known: the unwinder steps through it.
	 */
	int trampoline;
};

/*
 * debuginfo_path: where libdwfl looks for separate debug files (their
 * .debug_frame), as symbols_debuginfo_path() gives it; NULL for
 * libdwfl's default. cache: read them through the cache of inflated
 * debug files (debugcache.h), as symbols_debug_cache() says. NULL never.
 */
struct unwind *unwind_new(const char *debuginfo_path, int cache);
void unwind_free(struct unwind *u);
/* Forget what was read of files[0..n) (their CFI and rules), before they are closed. */
void unwind_forget_files(struct unwind *u, const struct objfile *const *files, size_t n);

/*
 * The mapping of the sampled process that holds pc, at the sample's time:
 * 1 and *out filled (file NULL to leave it out), 0 when none does.
 */
typedef int (*unwind_find_fn)(void *ctx, uint64_t pc, struct unwind_map *out);

/*
 * The user frames of sample s, its registers those of regs_mask
 * (attr.sample_regs_user), its process's mappings looked up through
 * find(ctx, ...) as they are needed: pcs[0] the interrupted pc, then
 * return addresses, at most max; flags[i] says how pcs[i] was found
 * (UNWIND_*), *stop why no more were. Returns how many, 0 when the
 * sample carries no usable registers or stack. Files are opened once and
 * shared by every process; nothing is kept per process.
 */
int unwind_user(struct unwind *u, unwind_find_fn find, void *ctx, const struct sample *s,
		uint64_t regs_mask, uint64_t *pcs, unsigned char *flags, int max,
		struct unwind_stop *stop);

/*
 * A frame-pointer chain (-g) skips the callers of functions that set up
 * no frame of their own (gcc -O2's leaves, libc's syscall wrappers):
 * their return addresses are on the stack, where no frame pointer leads.
 * With stack, the first len bytes at the sample's user stack pointer:
 * from pc on, while each function's CFI finds its frame from the stack
 * pointer, the return address it holds there, into ras[]; at most max.
 * Returns how many (0: none known). space names the maps find() answers
 * from (a process's maps as they stand: the session's unique generation
 * of them), so that what find() and the CFI say of a pc is looked up once
 * for the run, not per sample; 0 when they have no such name (no memo).
 * With lr, the sample's link register (aarch64): where pc's CFI says the
 * return address is still there (a function that makes no calls, or one
 * before it saves x30), it is the first; stack may then be empty.
 */
int unwind_leaf_returns(struct unwind *u, unwind_find_fn find, void *ctx, uint64_t space,
			uint64_t pc, const unsigned char *stack, size_t len, const uint64_t *lr,
			uint64_t *ras, int max);

/* found by following the frame pointer: no CFI covered the frame below */
#define UNWIND_FP	1
/*
 * an exact pc, not a return address, to look up as it is: the interrupted
 * pc of a signal frame's caller, or the start of a signal trampoline
 * (__restore_rt) that a handler returns to
 */
#define UNWIND_EXACT	2

#endif
