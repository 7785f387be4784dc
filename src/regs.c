// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf_regs: the kernel numbers the registers of a sample by its own
 * enum (asm/perf_regs.h) and gives them in bit order of the mask; DWARF
 * numbers them by the psABI. The tables here go from one to the other.
 */
#include "config.h"

#include <asm/perf_regs.h>

#include <string.h>

#include "regs.h"

#if defined(__x86_64__)
/* DWARF 0..16: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip (x86-64 psABI 3.6.2) */
static const int dwarf_of[] = {
	PERF_REG_X86_AX, PERF_REG_X86_DX, PERF_REG_X86_CX, PERF_REG_X86_BX,
	PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP,
	PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
	PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
	PERF_REG_X86_IP,
};
#define REG_PC	PERF_REG_X86_IP
#define REG_SP	PERF_REG_X86_SP
#define REG_LR	(-1)		/* none: call pushes the return address */

uint64_t regs_user_mask(void)
{
	/* The general registers; the segment registers the kernel refuses. */
	return ((1ULL << PERF_REG_X86_64_MAX) - 1) &
	       ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) |
		 (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS));
}
#elif defined(__aarch64__)
/* DWARF 0..30: x0..x30, 31: sp (AArch64 DWARF ABI); the pc is given apart. */
static const int dwarf_of[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	21, 22, 23, 24, 25, 26, 27, 28, 29, 30, PERF_REG_ARM64_SP,
};
#define REG_PC	PERF_REG_ARM64_PC
#define REG_SP	PERF_REG_ARM64_SP
#define REG_LR	PERF_REG_ARM64_LR

uint64_t regs_user_mask(void)
{
	return (1ULL << PERF_REG_ARM64_MAX) - 1;
}
#else
static const int dwarf_of[] = { 0 };
#define REG_PC	0
#define REG_SP	0
#define REG_LR	(-1)

uint64_t regs_user_mask(void)
{
	return 0;
}
#endif

/* Register r of the sample: its place among the mask's bits below it. */
static int reg(const uint64_t *regs, size_t nr, uint64_t mask, int r, uint64_t *out)
{
	size_t at;

	if (r < 0 || r > 63 || !(mask >> r & 1))
		return -1;
	at = (size_t)__builtin_popcountll(mask & ((1ULL << r) - 1));
	if (at >= nr)
		return -1;
	*out = regs[at];
	return 0;
}

uint64_t regs_leaf_mask(void)
{
	const int r = REG_LR;

	return r >= 0 && r < 64 ? 1ULL << (r & 63) : 0;
}

int regs_is_leaf_mask(uint64_t mask)
{
	return mask && mask == regs_leaf_mask();
}

int regs_link(const uint64_t *regs, size_t nr, uint64_t mask, uint64_t *lr)
{
	return REG_LR >= 0 && regs ? reg(regs, nr, mask, REG_LR, lr) : -1;
}

int regs_dwarf_count(void)
{
	int n = (int)(sizeof(dwarf_of) / sizeof(dwarf_of[0]));

	return regs_user_mask() && n <= REGS_DWARF_MAX ? n : 0;
}

int regs_to_dwarf(const uint64_t *regs, size_t nr, uint64_t mask, uint64_t *dwarf,
		  uint64_t *pc, uint64_t *sp)
{
	int n = (int)(sizeof(dwarf_of) / sizeof(dwarf_of[0]));

	if (!regs_user_mask() || n > REGS_DWARF_MAX)
		return 0;
	for (int i = 0; i < n; i++)
		if (reg(regs, nr, mask, dwarf_of[i], &dwarf[i]))
			return 0;
	if (reg(regs, nr, mask, REG_PC, pc) || reg(regs, nr, mask, REG_SP, sp))
		return 0;
	return n;
}

const char *regs_name(const char *arch, int r)
{
	static const char *const x86[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const arm64[] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
		"x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24",
		"x25", "x26", "x27", "x28", "x29", "lr", "sp", "pc",
	};

	if (!arch) {
#if defined(__aarch64__)
		arch = "aarch64";
#else
		arch = "x86_64";
#endif
	}
	if (r < 0)
		return NULL;
	if (!strcmp(arch, "x86_64"))
		return r < (int)(sizeof(x86) / sizeof(x86[0])) ? x86[r] : NULL;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return r < (int)(sizeof(arm64) / sizeof(arm64[0])) ? arm64[r] : NULL;
	return NULL;
}
