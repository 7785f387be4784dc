/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's walk stage: a sample's addresses, innermost first, and
 * the frames they resolve to. The call chain (kernel and user parts,
 * context markers followed, garbage return addresses cut), the frameless
 * callers -g's leaf repair puts back from the stack copy, and the user
 * frames unwound from a --call-graph dwarf stack copy, each with its
 * process as it stands, through the resolver. On the delivery thread.
 */
#ifndef PROF_REPORT_WALK_H
#define PROF_REPORT_WALK_H

#include <stdint.h>

#include "decode.h"
#include "evtab.h"
#include "session.h"

struct proc;
struct resolver;
struct walk;

/* What a walk found of its sample's chain, for the rsample. */
struct walk_marks {
	int repaired;	/* a frameless function's caller is back: here, or by the recorder */
	int put_back;	/* ... put back here, from the stack copy */
	int cut;	/* the chain ended at a return address in no mapping */
	int unwind_end;	/* why unwinding the user stack stopped: UNWIND_END_*, 0 not run */
	int unwind_at;	/* the address (its index in the walk) to blame, or -1 */
};

/*
 * Called for each address: a kernel one, a caller's (a return address:
 * the call is just before it), found by the frame pointer alone.
 * Returns the frames so far, or -1 to stop the walk.
 */
typedef int (*walk_fn)(void *arg, uint64_t a, int kernel, int caller, int by_fp);

struct walk *walk_new(struct resolver *res);
void walk_free(struct walk *w);
/* Only the sampled address, not the chain: what a flat view needs. */
void walk_leaf_only(struct walk *w, int on);
int walk_is_leaf_only(const struct walk *w);

/*
 * Begin on sample smp of event e in process pr (NULL: none known),
 * taken in the kernel or not; mended: prof record put frameless callers
 * back into its chain (PDATA_MISC_SAMPLE_MENDED). Unwinds its user stack
 * copy, once, for the walks that follow. smp is borrowed until the next.
 */
void walk_start(struct walk *w, const struct proc *pr, const struct evdesc *e,
		const struct sample *smp, int kernel, int mended);
/* Call fn for each address of the sample; fn's last return, or -1 when it stopped. */
int walk_each(struct walk *w, walk_fn fn, void *arg);
/* What the last walk_each() or walk_frames() found. */
const struct walk_marks *walk_marks(const struct walk *w);
/*
 * The sample's frames, resolved (the walk's own, valid until the next
 * walk): their number, or -1 when nowait and an address's file is still
 * being opened.
 */
int walk_frames(struct walk *w, int nowait, const struct rframe **frames);

#endif
