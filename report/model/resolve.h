/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The resolver: one owner of everything that turns an address of a
 * process into frames. It holds the symbolizer's handle, the unwinder
 * (made at the first stack copy), the memo of recent addresses, and JIT
 * code: the tables a profile carries, and each process's perf map and
 * jitdump, looked for at their first need. The session calls it with the
 * process as it stands (struct proc: its maps and JIT state) and the
 * time; it never calls the session back. When the unwinder needs a
 * process's mapping, it asks the resolver, which reads the same struct
 * proc it was given.
 */
#ifndef PROF_REPORT_RESOLVE_H
#define PROF_REPORT_RESOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "evtab.h"
#include "jit.h"
#include "machine.h"
#include "maps.h"
#include "session.h"
#include "symbols.h"
#include "unwind.h"

#define MAX_FRAMES	1024
#define INLINE_MAX	16

/* A process's JIT code: its perf map and jitdump, looked for at first need. */
struct pjit {
	int tried;		/* looked for its table */
	struct jit_table *t;	/* NULL: none */
	int own;		/* t was read from its files, not carried: free it */
	struct dso *dso;	/* "[JIT] tid PID", as perf calls it */
	char *dump;		/* its jitdump's path, from the MMAP of it */
};

/* An address placed in its dso, not resolved yet: a parked sample's frame. */
struct rawf {
	struct dso *dso;	/* NULL when no map covers it */
	uint64_t a;		/* the address in dso, or the address */
	const struct jit_sym *jit;	/* JIT code: what it is (a is the address) */
	unsigned jitc : 1;	/* in a process with JIT code, outside files */
	unsigned kernel : 1;
	unsigned caller : 1;
	unsigned by_fp : 1;	/* unwound by the frame pointer */
};

struct resolver;

/* A resolver naming with sym (not owned). */
struct resolver *resolver_new(struct symbols *sym);
void resolver_free(struct resolver *r);
/* symbols_release()'s drop (ctx: the resolver): forget what was read of files[0..n). */
void resolver_forget_files(void *ctx, const struct objfile *const *files, size_t n);
/* After files were released: forget every remembered answer. */
void resolver_forget_memo(struct resolver *r);

/* The time of the record being resolved: JIT code is looked up as it stood then. */
void resolver_at(struct resolver *r, uint64_t now);
/*
 * Whether files' frames are named (1, the default): with 0, a frame in a
 * file is its dso and address alone, for a view that prints no function
 * (--sort pid, comm, dso). The kernel's are still named: a module is
 * known by its symbols.
 */
void resolver_names(struct resolver *r, int on);

/*
 * on: the sample about to be resolved ran in a KVM guest (its cpumode
 * GUEST_KERNEL or GUEST_USER): its addresses are the guest's, placed in
 * symbols_guest(), never in the host's kernel or the VMM's maps.
 */
void resolver_guest(struct resolver *r, int on);

/*
 * Append the frames of addr (of pr, or the kernel's) to frames[0..n):
 * one, or more where functions were inlined. caller: a return address,
 * looked up at the call. Returns the new count, or -1 when nowait and
 * its file is still being opened.
 */
int resolver_frames(struct resolver *r, struct rframe *frames, int n, const struct proc *pr,
		    uint64_t addr, int kernel, int caller, int nowait);
/* Place addr in its dso now, to be named later by resolver_raw_frames(). */
void resolver_locate(struct resolver *r, const struct proc *pr, uint64_t addr, int kernel,
		     int caller, struct rawf *out);
/* Append the frames of a placed address, as resolver_frames() would have. */
int resolver_raw_frames(struct resolver *r, struct rframe *frames, int n, const struct rawf *raw);

/*
 * The user frames of a --call-graph dwarf sample of event e, unwound in
 * pr's maps: unwind_user()'s. 0 when it carries no registers or stack.
 */
int resolver_unwind(struct resolver *r, const struct proc *pr, const struct evdesc *e,
		    const struct sample *smp, uint64_t *pcs, unsigned char *flags, int max,
		    struct unwind_stop *stop);
/*
 * -g samples with a few bytes of the user stack (and no registers), or
 * with the link register alone (aarch64, e's sample_regs_user): the
 * return addresses of the frameless functions from user pc a on, which
 * the chain skips (unwind_leaf_returns()).
 */
int resolver_leaf_returns(struct resolver *r, const struct proc *pr, const struct evdesc *e,
			  const struct sample *smp, uint64_t a, uint64_t *ras, int max);

/* --- JIT code (resolve-jit.c) ---------------------------------------------------- */

/* Forget a process's JIT code: it exec'd, or its pid is another process's now. */
void resolver_pjit_reset(struct pjit *j);
/* pr mapped its jitdump at path: read at the next need. */
void resolver_jitdump_mapped(struct pjit *j, const char *path);

/*
 * The JIT tables a profile carries: a record of one (type 65), taken as it
 * comes or read ahead; then, once they are all read ahead, carried_done
 * (see session.h's session_read_ahead()).
 */
int resolver_carried(struct resolver *r, const struct perf_event_header *h);
void resolver_carried_done(struct resolver *r);
/* Whether they were read ahead of the records (then a record of one is skipped). */
int resolver_carried_read(const struct resolver *r);
void resolver_carried_budget(struct resolver *r, uint64_t file_size);
void resolver_read_ahead(struct resolver *r, const char *path);
const char *const *resolver_jit_warnings(const struct resolver *r, size_t *more);

#endif
