/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -g's leaf repair, one rule for the recorder (record/mend.c, which puts
 * the callers back into the chain as it records) and the report
 * (report/model/unwind.c, which puts them back as it reads a file the
 * recorder did not mend). A frame-pointer chain skips the caller of a
 * function that keeps no frame pointer (a leaf, or a -O2 function); its
 * return address is still on the stack, where the function's CFI row
 * says, when the row finds the frame from the stack pointer alone.
 * From the sampled pc: while the row of the function holding it is such
 * a row, the return address is read from the stack copy there and, when
 * the caller takes it, is the next frame; its address less 1 is the next
 * pc. Each side reads CFI its own way (compiled rows, libdw's frames)
 * and says what a row is with struct leaf_row; the rule and the walk are
 * here.
 */
#ifndef PROF_LEAF_H
#define PROF_LEAF_H

#include <stddef.h>
#include <stdint.h>

enum {
	LEAF_UNSURE = -1,	/* the side cannot tell (no row here): give up */
	LEAF_STOP = 0,		/* no step from this row */
	LEAF_STEP = 1,		/* CFA = sp + cfa_off, return address at sp + ra_at */
	LEAF_LINK = 2,		/* the return address is still in the link register (aarch64) */
};

/* A CFI row, as the repair reads it. */
struct leaf_row {
	int signal;		/* a signal frame's */
	int cfa_sp;		/* the CFA is the stack pointer plus cfa_off */
	int64_t cfa_off;
	enum { LEAF_RA_AT_CFA, LEAF_RA_SAME, LEAF_RA_OTHER } ra;	/* saved at CFA + ra_off,
								 * in its register still, or else */
	int64_t ra_off;
	int ra_is_sp;		/* the return address's register is the stack pointer */
};

/* What the repair does at a row: LEAF_STEP (with *cfa_off, *ra_at), LEAF_LINK (*cfa_off), or LEAF_STOP. */
int leaf_classify(const struct leaf_row *r, int64_t *cfa_off, int64_t *ra_at);

struct leaf_ops {
	/* The rule at pc look: leaf_classify()'s answer for its row, or LEAF_UNSURE. */
	int (*rule)(void *ctx, uint64_t look, int64_t *cfa_off, int64_t *ra_at);
	/* A return address found: 1 take it, 0 stop before it, -1 unsure (give up). */
	int (*take)(void *ctx, uint64_t ra);
};

/*
 * The return addresses the repair finds from pc with a stack copy of len
 * bytes from the sampled sp, up to max into ras: how many, or -1 when a
 * rule or a take was unsure. lr: the sampled link register (NULL: none),
 * taken at a LEAF_LINK row of pc itself.
 */
int leaf_walk(const struct leaf_ops *ops, void *ctx, uint64_t pc, const unsigned char *stack,
	      size_t len, const uint64_t *lr, uint64_t *ras, int max);

#endif
