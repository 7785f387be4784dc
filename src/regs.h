/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user registers a --call-graph dwarf sample carries, and their
 * mapping to DWARF register numbers, for the machine prof runs on:
 * x86_64, and aarch64 from its asm/perf_regs.h.
 */
#ifndef PROF_REGS_H
#define PROF_REGS_H

#include <stddef.h>
#include <stdint.h>

/* attr.sample_regs_user for DWARF unwinding; 0 on a machine we cannot unwind. */
uint64_t regs_user_mask(void);

/*
 * attr.sample_regs_user for -g: the link register on aarch64, where a
 * function that makes no calls keeps its return address, so that the
 * frame-pointer chain's missing caller can be put back (as perf records
 * since 5.19); 0 elsewhere.
 */
uint64_t regs_leaf_mask(void);

/* Whether an event's sample_regs_user is -g's (regs_leaf_mask()), not --call-graph dwarf's. */
int regs_is_leaf_mask(uint64_t mask);

/*
 * The link register of a sample's registers (nr values, one per bit of
 * mask): 0, or -1 where the machine has none or the sample lacks it.
 */
int regs_link(const uint64_t *regs, size_t nr, uint64_t mask, uint64_t *lr);

/* DWARF registers of the machine: what regs_to_dwarf fills. */
#define REGS_DWARF_MAX	33

/* How many DWARF registers regs_to_dwarf() fills here; 0 where it cannot. */
int regs_dwarf_count(void);

/*
 * The sample's registers (nr values, one per bit of mask, lowest bit
 * first) as DWARF registers 0..n-1, in dwarf[REGS_DWARF_MAX]; *pc and
 * *sp too. Returns n, or 0 when a register the unwinder needs is missing.
 */
int regs_to_dwarf(const uint64_t *regs, size_t nr, uint64_t mask, uint64_t *dwarf,
		  uint64_t *pc, uint64_t *sp);

/*
 * The name perf gives register bit r of a sample's registers on machine
 * arch (uname's: "x86_64", "aarch64"; NULL: this one's), "AX", "R15",
 * "x0", "lr", "pc"; NULL where it has none.
 */
const char *regs_name(const char *arch, int r);

#endif
