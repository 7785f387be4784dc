// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The unwinder against this very process. The registers of a known point
 * in a chain of functions built without frame pointers (the innermost
 * without a frame at all), and a copy of the stack above it, unwind to the
 * return addresses each level saw and on to _start, as a --call-graph
 * dwarf sample would. Then the same sample is
 * damaged many thousand ways (bytes and words of the stack copy, the
 * registers, the copy's length, the frames asked for) and the maps are
 * pointed at hostile files (cut short, empty, not ELF, missing, ELF with
 * its .eh_frame scrambled): the unwinder must never read outside what it
 * was given, never return more frames than asked, and always come back.
 * Under CI's sanitizer build an out-of-bounds read fails the test.
 */
#include "config.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <link.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "objfile.h"
#include "regs.h"
#include "tap.h"
#include "unwind.h"

#if defined(__x86_64__) || defined(__aarch64__)

#include <asm/perf_regs.h>

#if defined(__x86_64__)
#define NPERF	PERF_REG_X86_64_MAX
#define REG_PC	PERF_REG_X86_IP
#define REG_SP	PERF_REG_X86_SP
#define REG_FP	PERF_REG_X86_BP
#else
#define NPERF	PERF_REG_ARM64_MAX
#define REG_PC	PERF_REG_ARM64_PC
#define REG_SP	PERF_REG_ARM64_SP
#define REG_FP	29
#endif

#define MAX_FRAMES	128
#define STACK_MAX	65528
#define NMAPS		64

extern void _start(void);

/* What the sample of leaf() holds, and what the levels above it saw. */
static uint64_t perf_regs[NPERF];	/* by the kernel's numbering */
static unsigned char stack_copy[STACK_MAX];
static size_t stack_len;
static uint64_t ra_tip, ra_leaf, ra_mid, ra_outer;
static uint64_t stack_end;

static struct unwind_map maps[NMAPS];
static size_t nmaps;
/* the files the maps name, each opened once, as the symbolizer's layer does */
static struct objfiles *files;

/* this test's binary: its path, and its bytes (NULL when unreadable) */
static char self[4096];
static unsigned char *self_image;
static size_t self_size;

/*
 * Copied byte by byte, in the caller (a call would overwrite the return
 * address below it) and not instrumented: the stack holds ASan's redzones.
 */
__attribute__((always_inline, no_sanitize_address)) static inline void copy_stack(uint64_t sp)
{
	volatile const unsigned char *p = (volatile const unsigned char *)(uintptr_t)sp;
	size_t n = stack_end - sp < STACK_MAX ? (size_t)(stack_end - sp) : STACK_MAX;

	n &= ~(size_t)7;
	for (size_t i = 0; i < n; i++)
		stack_copy[i] = p[i];
	stack_len = n;
}

/*
 * The interrupted state, in a function with no frame of its own, its
 * return address still in its register on aarch64 and at the stack
 * pointer on x86_64: the pc of the lea (adr), and the registers as they
 * are there: the pc, the stack pointer and those a callee saves (with the
 * frame pointer and, on aarch64, the link register). Nothing between the
 * lea and the stores moves the stack pointer, nor does the copy.
 */
__attribute__((noinline, no_sanitize_address)) static void tip(void)
{
	uint64_t *r = perf_regs;

#if defined(__x86_64__)
	ra_tip = (uint64_t)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("lea 0(%%rip), %%rax\n\t"
			 "mov %%rax, %c[ip](%[r])\n\t"
			 "mov %%rsp, %c[sp](%[r])\n\t"
			 "mov %%rbp, %c[bp](%[r])\n\t"
			 "mov %%rbx, %c[bx](%[r])\n\t"
			 "mov %%r12, %c[r12](%[r])\n\t"
			 "mov %%r13, %c[r13](%[r])\n\t"
			 "mov %%r14, %c[r14](%[r])\n\t"
			 "mov %%r15, %c[r15](%[r])\n\t"
			 :
			 : [r] "r"(r), [ip] "i"(8 * PERF_REG_X86_IP), [sp] "i"(8 * PERF_REG_X86_SP),
			   [bp] "i"(8 * PERF_REG_X86_BP), [bx] "i"(8 * PERF_REG_X86_BX),
			   [r12] "i"(8 * PERF_REG_X86_R12), [r13] "i"(8 * PERF_REG_X86_R13),
			   [r14] "i"(8 * PERF_REG_X86_R14), [r15] "i"(8 * PERF_REG_X86_R15)
			 : "rax", "memory");
#else
	/* perf numbers x0..x30 as 0..30, then sp 31 and pc 32 */
	__asm__ volatile("adr x9, .\n\t"
			 "str x9, [%[r], #256]\n\t"
			 "mov x9, sp\n\t"
			 "str x9, [%[r], #248]\n\t"
			 "stp x19, x20, [%[r], #152]\n\t"
			 "stp x21, x22, [%[r], #168]\n\t"
			 "stp x23, x24, [%[r], #184]\n\t"
			 "stp x25, x26, [%[r], #200]\n\t"
			 "stp x27, x28, [%[r], #216]\n\t"
			 "stp x29, x30, [%[r], #232]\n\t"
			 :
			 : [r] "r"(r)
			 : "x9", "memory");
	/* not __builtin_return_address, which saves x30 on the stack to strip it */
	ra_tip = perf_regs[30];
#endif
	copy_stack(perf_regs[REG_SP]);
}

/* Frames of their own sizes, callee-saved registers pushed: CFA = sp + n, n not 8. */
__attribute__((noinline)) static int leaf(int x)
{
	volatile char pad[40];

	pad[x & 31] = (char)x;
	tip();
	ra_leaf = (uint64_t)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" : : : "memory");
	return x + pad[x & 31];
}

__attribute__((noinline)) static int mid(int x)
{
	volatile char pad[200];
	int y;

	pad[x & 127] = (char)x;
	y = leaf(x * 3);

	ra_mid = (uint64_t)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" : : : "memory");
	return y + 2 + x + pad[x & 127];
}

__attribute__((noinline)) static int outer(int x)
{
	volatile char pad[1000];
	int y;

	pad[x & 511] = (char)x;
	y = mid(x + 5);

	ra_outer = (uint64_t)(uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" : : : "memory");
	return y * 2 + x + pad[x & 511];
}

/* The executable mappings of this process, and where its stack ends. */
static int read_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4352];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perm[8], path[4096] = "";

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &lo, &hi, perm, &off,
			   path) < 4)
			continue;
		if (!strcmp(path, "[stack]"))
			stack_end = hi;
		if (perm[2] != 'x' || path[0] != '/' || nmaps == NMAPS)
			continue;
		maps[nmaps].start = lo;
		maps[nmaps].end = hi;
		maps[nmaps].pgoff = off;
		maps[nmaps].file = objfiles_get(files, path);
		nmaps++;
	}
	fclose(f);
	return stack_end ? 0 : -1;
}

/* Where perf's register r stands among a sample's registers. */
static size_t at_reg(int r)
{
	return (size_t)__builtin_popcountll(regs_user_mask() & ((1ULL << r) - 1));
}

/* The sample's registers in mask order, as decode_sample hands them out. */
static size_t sample_regs(const uint64_t *by_perf, uint64_t *out)
{
	uint64_t mask = regs_user_mask();
	size_t n = 0;

	for (int r = 0; r < 64; r++)
		if (mask >> r & 1)
			out[n++] = r < NPERF ? by_perf[r] : 0;
	return n;
}

/* Why the last unwind() stopped. */
static struct unwind_stop stop;

/* The maps of the test's process, as the session would hand them out: the first that holds pc. */
struct maps_of {
	const struct unwind_map *m;
	size_t n;
};

static int find_map(void *ctx, uint64_t pc, struct unwind_map *out)
{
	const struct maps_of *p = ctx;

	for (size_t i = 0; i < p->n; i++)
		if (pc >= p->m[i].start && pc < p->m[i].end) {
			*out = p->m[i];
			return 1;
		}
	return 0;
}

static int unwind(struct unwind *u, const struct unwind_map *m, size_t n, const uint64_t *regs,
		  size_t nregs, const unsigned char *stack, size_t len, uint64_t *pcs,
		  unsigned char *flags, int max)
{
	struct sample s;
	struct maps_of p = { m, n };

	memset(&s, 0, sizeof(s));
	s.user_regs = regs;
	s.nr_user_regs = nregs;
	s.stack = stack;
	s.stack_size = len;
	s.stack_dyn_size = len;
	return unwind_user(u, find_map, &p, &s, regs_user_mask(), pcs, flags, max, &stop);
}

/*
 * -g's leaf repair at tip, which sets up no frame: its caller (ra_tip) from
 * the stack copy on x86_64; on aarch64 from the link register alone, with
 * no stack at all (what -g records there), and nothing without it.
 */
static void leaf_repair(struct unwind *u)
{
	struct maps_of p = { maps, nmaps };
	uint64_t ras[8], pc = perf_regs[REG_PC];
	int n;
#if defined(__aarch64__)
	uint64_t lr = perf_regs[PERF_REG_ARM64_LR], mask = regs_leaf_mask(), got = 0;

	n = unwind_leaf_returns(u, find_map, &p, 0, pc, NULL, 0, &lr, ras, 8);
	ok(n == 1 && ras[0] == ra_tip, "-g's repair at tip, the link register alone: its caller "
	   "(%d, %#" PRIx64 ", ra_tip %#" PRIx64 ")", n, n > 0 ? ras[0] : 0, ra_tip);
	n = unwind_leaf_returns(u, find_map, &p, 0, pc, NULL, 0, NULL, ras, 8);
	ok(n == 0, "without the link register nor a stack: nothing (%d)", n);
	ok(mask == 1ULL << PERF_REG_ARM64_LR && !regs_link(&lr, 1, mask, &got) && got == lr,
	   "-g's register mask is LR alone, read back from a sample");
#else
	n = unwind_leaf_returns(u, find_map, &p, 0, pc, stack_copy, stack_len, NULL, ras, 8);
	ok(n >= 1 && ras[0] == ra_tip, "-g's repair at tip, from the stack copy: its caller "
	   "(%d, %#" PRIx64 ", ra_tip %#" PRIx64 ")", n, n > 0 ? ras[0] : 0, ra_tip);
	ok(regs_leaf_mask() == 0, "-g records no registers on x86_64");
#endif
}

/* The undamaged sample: tip, leaf, mid, outer, main ... _start, all by CFI. */
static void whole_chain(struct unwind *u, const uint64_t *regs, size_t nregs)
{
	uint64_t pcs[MAX_FRAMES];
	unsigned char flags[MAX_FRAMES];
	int n = unwind(u, maps, nmaps, regs, nregs, stack_copy, stack_len, pcs, flags,
		       MAX_FRAMES), by_fp = 0;
	uint64_t start = (uint64_t)(uintptr_t)_start;

	ok(n >= 7, "the chain from tip has %d frames (at least 7: tip leaf mid outer main libc _start)",
	   n);
	ok(n >= 1 && pcs[0] == perf_regs[REG_PC] && flags[0] & UNWIND_EXACT,
	   "frame 0 is the interrupted pc, exact");
	ok(n >= 5 && pcs[1] == ra_tip && pcs[2] == ra_leaf && pcs[3] == ra_mid && pcs[4] == ra_outer,
	   "frames 1-4 are the return addresses tip, leaf, mid and outer saw (%#" PRIx64
	   " %#" PRIx64 " %#" PRIx64 " %#" PRIx64 ")",
	   n >= 2 ? pcs[1] : 0, n >= 3 ? pcs[2] : 0, n >= 4 ? pcs[3] : 0, n >= 5 ? pcs[4] : 0);
	ok(n >= 1 && pcs[n - 1] > start && pcs[n - 1] - start < 64,
	   "the last frame returns into _start (%#" PRIx64 ", _start at %#" PRIx64 ")",
	   n >= 1 ? pcs[n - 1] : 0, start);
	for (int i = 0; i < n; i++)
		by_fp += !!(flags[i] & UNWIND_FP);
	ok(by_fp == 0, "no frame needed the frame pointer (%d did)", by_fp);
	ok(stop.end == UNWIND_END_ROOT && stop.at == n - 1,
	   "it stopped at _start's frame, the CFI saying it is the outermost (end %d at %d)",
	   stop.end, stop.at);

	n = unwind(u, maps, nmaps, regs, nregs, stack_copy, stack_len, pcs, flags, 3);
	ok(n == 3 && pcs[2] == ra_leaf && stop.end == UNWIND_END_MAX,
	   "asked for 3 frames, 3 come, the same, stopped for that (%d, end %d)", n, stop.end);
	/* tip's return address is at sp (or in x30), mid's and outer's far above */
	n = unwind(u, maps, nmaps, regs, nregs, stack_copy, 16, pcs, flags, MAX_FRAMES);
	ok(n >= 2 && n < 5 && pcs[1] == ra_tip && stop.end == UNWIND_END_STACK && stop.at == n - 1,
	   "a 16-byte copy: tip's caller, then the copy is too small, at the last frame (%d, end "
	   "%d at %d)",
	   n, stop.end, stop.at);
	{
		uint64_t r[64];

		memcpy(r, regs, nregs * sizeof(*r));
		r[at_reg(REG_PC)] = 0x1000;	/* mapped by no one */
		r[at_reg(REG_FP)] = 0;		/* nor a frame pointer to go on by (aarch64 keeps them) */
		n = unwind(u, maps, nmaps, r, nregs, stack_copy, stack_len, pcs, flags,
			   MAX_FRAMES);
		ok(stop.end == UNWIND_END_NOMAP && stop.at == 0,
		   "a pc in no mapping: blamed on frame 0, not in a file (%d frames, end %d at %d)",
		   n, stop.end, stop.at);
	}
	n = unwind(u, maps, nmaps, regs, nregs, stack_copy, 0, pcs, flags, MAX_FRAMES);
	ok(n == 0, "no stack copy, no frames (%d)", n);
	n = unwind(u, maps, nmaps, regs, 3, stack_copy, stack_len, pcs, flags, MAX_FRAMES);
	ok(n == 0, "too few registers, no frames (%d)", n);
}

/*
 * The maps, every mapping of the binary itself pointed at path instead
 * (unless NULL) and given the build id id (len bytes; 0 for none). How
 * many mappings were the binary's.
 */
static int maps_onto(const char *path, const unsigned char *id, size_t len,
		     struct unwind_map *out)
{
	int hits = 0;

	for (size_t i = 0; i < nmaps; i++) {
		out[i] = maps[i];
		if (!strcmp(maps[i].file->path, self)) {
			if (path)
				out[i].file = objfiles_get(files, path);
			out[i].build_id = id;
			out[i].build_id_len = len;
			hits++;
		}
	}
	return hits;
}

/*
 * The binary's maps carrying a build id: its own (whole chain), its own
 * padded with zeros as perf writes short ids (whole), another (its CFI is
 * not used: tip's caller is not found by CFI). The frame pointer is
 * cleared: the CFI needs none.
 */
static void build_ids(const uint64_t *regs, size_t nregs)
{
	Elf *e = self_image ? elf_memory((char *)self_image, self_size) : NULL;
	const void *bits = NULL;
	ssize_t len = e ? dwelf_elf_gnu_build_id(e, &bits) : -1;
	unsigned char id[64];
	struct unwind_map m[NMAPS];
	uint64_t pcs[MAX_FRAMES], r[64];
	unsigned char flags[MAX_FRAMES];

	/* no frame pointer to go on by where the CFI is refused (aarch64 keeps them) */
	memcpy(r, regs, nregs * sizeof(*r));
	r[at_reg(REG_FP)] = 0;
	if (len <= 0 || len > 40) {
		printf("ok %d - build ids # SKIP this test binary has no build id\n", ++tap_n);
	} else {
		for (int k = 0; k < 3; k++) {
			struct unwind *u = unwind_new(NULL, 0);
			size_t n = (size_t)len + (k == 1 ? 4 : 0);
			int got;

			memset(id, 0, sizeof(id));
			memcpy(id, bits, (size_t)len);
			if (k == 2)
				id[0] ^= 1;
			maps_onto(NULL, id, n, m);
			got = unwind(u, m, nmaps, r, nregs, stack_copy, stack_len, pcs, flags,
				     MAX_FRAMES);
			if (k < 2)
				ok(got >= 5 && pcs[1] == ra_tip && pcs[4] == ra_outer,
				   "the binary's %s build id: the chain is whole (%d frames)",
				   k ? "zero-padded" : "own", got);
			else
				ok((got < 2 || pcs[1] != ra_tip || flags[1] & UNWIND_FP) &&
				   stop.end == UNWIND_END_NOFILE && stop.at == 0,
				   "another build id: the file's CFI is not used, and frame 0 is "
				   "blamed on that (%d frames, end %d at %d)",
				   got, stop.end, stop.at);
			unwind_free(u);
		}
	}
	if (e)
		elf_end(e);
}

/* A value a damaged word or register might hold, often a plausible one. */
static uint64_t nasty(uint64_t sp)
{
	switch (rnd() % 8) {
	case 0:
		return 0;
	case 1:
		return ~0ULL - rnd() % 64;
	case 2:
		return sp + rnd() % (stack_len + 256) - 128;	/* in or near the copy */
	case 3:
		return ra_tip + rnd() % 512 - 256;		/* in the text */
	case 4:
		return maps[rnd() % nmaps].start + rnd() % 4096;
	case 5:
		return sp - rnd() % 65536;			/* below the copy */
	default:
		return rnd();
	}
}

/*
 * The sample damaged: returns whether every unwind stayed within what was
 * asked. ASan, in CI's sanitizer build, checks the reads.
 */
static void damaged_samples(struct unwind *u, const uint64_t *regs, size_t nregs, int rounds)
{
	static unsigned char st[STACK_MAX];
	uint64_t r[64], pcs[MAX_FRAMES], sp = perf_regs[REG_SP];
	unsigned char flags[MAX_FRAMES];
	int bad = 0, deep = 0, full = 0;
	size_t at_sp = at_reg(REG_SP), at_pc = at_reg(REG_PC);
	long frames = 0;

	for (int i = 0; i < rounds; i++) {
		size_t len = stack_len;
		int max = rnd() % 16 ? MAX_FRAMES : (int)(rnd() % 5), n, kinds = 1 + (int)(rnd() % 3);
		unsigned char *copy;

		memcpy(st, stack_copy, stack_len);
		memcpy(r, regs, nregs * sizeof(*r));
		for (int k = 0; k < kinds; k++) {
			switch (rnd() % 5) {
			case 0:		/* bytes, most often near the top */
				for (int j = 1 + (int)(rnd() % 8); j > 0; j--)
					st[rnd() % (rnd() % 2 ? 512 : stack_len)] = (unsigned char)rnd();
				break;
			case 1: {	/* a word: a saved register, a return address */
				uint64_t v = nasty(sp);

				memcpy(st + (rnd() % (stack_len / 8)) * 8, &v, 8);
				break;
			}
			case 2:		/* a register, sp and the pc among them */
				r[rnd() % nregs] = nasty(sp);
				break;
			case 3:
				r[rnd() % 2 ? at_sp : at_pc] = nasty(sp);
				break;
			default:	/* a copy cut short, to any length */
				len = rnd() % (stack_len + 1);
				break;
			}
		}
		/* The copy exactly as long as the sample says, so that ASan sees past its end. */
		copy = malloc(len ? len : 1);
		memcpy(copy, st, len);
		n = unwind(u, maps, nmaps, r, nregs, copy, len, pcs, flags, max);
		free(copy);
		if (n < 0 || n > max)
			bad++;
		deep += n == MAX_FRAMES;
		full += n >= 6;
		frames += n > 0 ? n : 0;
	}
	ok(bad == 0, "%d damaged samples: no unwind returned more frames than asked (%d did)",
	   rounds, bad);
	printf("# damaged samples: %ld frames in all, %d still 6 frames or more, %d hit the limit\n",
	       frames, full, deep);
}

/* The bytes of the file at path, malloc'd, and their number in *n; NULL when unreadable. */
static unsigned char *read_file(const char *path, size_t *n)
{
	unsigned char *b;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	*n = (size_t)st.st_size;
	b = malloc(*n ? *n : 1);
	if (read(fd, b, *n) != (ssize_t)*n) {
		close(fd);
		free(b);
		return NULL;
	}
	close(fd);
	return b;
}

/*
 * A copy of this test's binary in dir, with fn(bytes, size, arg) applied
 * to it, or without fn cut to arg bytes; NULL when it cannot be written.
 */
static char *hostile_copy(const char *dir, const char *name,
			  void (*fn)(unsigned char *, size_t, int), int arg)
{
	static char path[4200];
	size_t n = self_size;
	unsigned char *b = self_image ? malloc(n ? n : 1) : NULL;
	int fd;

	if (!b)
		return NULL;
	memcpy(b, self_image, n);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (fn)
		fn(b, n, arg);
	else
		n = (size_t)arg <= n ? (size_t)arg : n;	/* cut short */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, b, n) != (ssize_t)n) {
		if (fd >= 0)
			close(fd);
		free(b);
		return NULL;
	}
	close(fd);
	free(b);
	return path;
}

/* Where the section NAME lies in the ELF image b (and its address, unless addr is NULL): 0, or -1. */
static int section_of(unsigned char *b, size_t n, const char *name, size_t *off, size_t *size,
		      uint64_t *addr)
{
	Elf *e = elf_memory((char *)b, n);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int rc = -1;

	if (!e || elf_getshdrstrndx(e, &shstrndx) < 0) {
		if (e)
			elf_end(e);
		return -1;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *s;

		if (!gelf_getshdr(scn, &sh) || !(s = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(s, name) && sh.sh_offset + sh.sh_size <= n) {
			*off = (size_t)sh.sh_offset;
			*size = (size_t)sh.sh_size;
			if (addr)
				*addr = sh.sh_addr;
			rc = 0;
		}
	}
	elf_end(e);
	return rc;
}

/* arg bytes of .eh_frame and .eh_frame_hdr scrambled. */
static void scramble_cfi(unsigned char *b, size_t n, int arg)
{
	static const char *const names[] = { ".eh_frame", ".eh_frame_hdr" };

	for (int k = 0; k < 2; k++) {
		size_t off = 0, size = 0;

		if (section_of(b, n, names[k], &off, &size, NULL) || !size)
			continue;
		for (int i = 0; i < arg; i++)
			b[off + rnd() % size] = (unsigned char)rnd();
	}
}

#if defined(__x86_64__)
static int main_bias(struct dl_phdr_info *info, size_t size, void *out)
{
	(void)size;
	*(uint64_t *)out = info->dlpi_addr;	/* the first is the program */
	return 1;
}

/*
 * A sample in a PLT entry, as if tip had just called through it: the CFI
 * ld writes for .plt gives the CFA as a DWARF expression, rsp + 8, or
 * rsp + 16 once the entry has pushed its index (rip & 15 >= 11), which
 * the unwinder's evaluator must run. At the entry's first instruction and
 * at its last, the chain goes on through tip to its callers.
 */
static void plt_frames(struct unwind *u, const uint64_t *regs, size_t nregs)
{
	size_t off = 0, size = 0;
	unsigned char *b = self_image;
	uint64_t addr = 0, bias = 0, r[64], pcs[MAX_FRAMES];
	uint64_t sp = perf_regs[REG_SP], back = perf_regs[REG_PC];
	unsigned char flags[MAX_FRAMES], *st = malloc(stack_len + 16);
	const unsigned char *e;

	/* entry 1 of a lazy PLT: jmp *GOT(%rip); push $n; jmp PLT0 */
	if (!b || section_of(b, self_size, ".plt", &off, &size, &addr) || size < 32 ||
	    (e = b + off + 16, e[0] != 0xff || e[1] != 0x25 || e[6] != 0x68 || e[11] != 0xe9)) {
		printf("ok %d - PLT frames # SKIP this binary has no lazy PLT of the usual shape\n",
		       ++tap_n);
		free(st);
		return;
	}
	dl_iterate_phdr(main_bias, &bias);
	for (int k = 0; k < 2; k++) {
		/* the call's return address (back into tip) at the new sp; at +11, the index below it */
		size_t pushed = k ? 16 : 8;
		int got, by_fp = 0;

		memset(st, 0xa5, 8);
		memcpy(st + pushed - 8, &back, 8);
		memcpy(st + pushed, stack_copy, stack_len);
		memcpy(r, regs, nregs * sizeof(*r));
		r[at_reg(REG_SP)] = sp - pushed;
		r[at_reg(REG_PC)] = bias + addr + 16 + (k ? 11 : 0);
		got = unwind(u, maps, nmaps, r, nregs, st, stack_len + pushed, pcs, flags,
			     MAX_FRAMES);
		for (int i = 0; i < got; i++)
			by_fp += !!(flags[i] & UNWIND_FP);
		ok(got >= 5 && pcs[1] == back && pcs[2] == ra_tip && pcs[3] == ra_leaf && !by_fp,
		   "a sample at PLT entry + %d unwinds through tip to leaf by CFI (%d frames, %d by "
		   "frame pointer)",
		   k ? 11 : 0, got, by_fp);
	}
	free(st);
}
#endif

static void hostile_files(const uint64_t *regs, size_t nregs)
{
	char dir[] = "/tmp/test-unwind.XXXXXX";
	struct unwind_map m[NMAPS];
	uint64_t pcs[MAX_FRAMES];
	unsigned char flags[MAX_FRAMES];
	int bad = 0, tried = 0, changed = 0, whole;
	struct unwind *u0 = unwind_new(NULL, 0);

	whole = unwind(u0, maps, nmaps, regs, nregs, stack_copy, stack_len, pcs, flags,
		       MAX_FRAMES);
	unwind_free(u0);

	if (!self_image || !mkdtemp(dir)) {
		ok(0, "a directory and this binary's bytes for the hostile files");
		return;
	}
	/* cut at the ELF header, in the program headers, in the middle, before the end */
	for (int k = 0; k < 4; k++) {
		static const long cuts[] = { 40, 300, -2, -1 };
		char name[32];
		long size = (long)self_size;
		long at = cuts[k] > 0 ? cuts[k] : cuts[k] == -2 ? size / 2 : size - 100;
		const char *p;
		struct unwind *u = unwind_new(NULL, 0);

		snprintf(name, sizeof(name), "cut-%ld", at);
		p = hostile_copy(dir, name, NULL, (int)at);
		if (!p || !maps_onto(p, NULL, 0, m)) {
			bad++;
		} else {
			int n = unwind(u, m, nmaps, regs, nregs, stack_copy, stack_len, pcs,
				       flags, MAX_FRAMES);

			bad += n < 0 || n > MAX_FRAMES;
			tried++;
			unlink(p);
		}
		unwind_free(u);
	}
	/* empty, not ELF, missing, a directory */
	{
		static const char *const other[] = { "/dev/null", "/proc/self/status",
						     "/nonexistent/prof-test", "/tmp" };
		struct unwind *u = unwind_new(NULL, 0);

		for (int k = 0; k < 4; k++) {
			int n;

			maps_onto(other[k], NULL, 0, m);
			n = unwind(u, m, nmaps, regs, nregs, stack_copy, stack_len, pcs,
				   flags, MAX_FRAMES);
			bad += n < 0 || n > MAX_FRAMES || (n >= 1 && pcs[0] != perf_regs[REG_PC]);
			tried++;
		}
		unwind_free(u);
	}
	/* the CFI scrambled, a few bytes to many, each in a file of its own */
	for (int k = 0; k < 60; k++) {
		char name[32];
		const char *p;
		struct unwind *u = unwind_new(NULL, 0);

		snprintf(name, sizeof(name), "cfi-%d", k);
		p = hostile_copy(dir, name, scramble_cfi, 1 + k * k);
		if (!p || !maps_onto(p, NULL, 0, m)) {
			bad++;
		} else {
			/* again, as later samples find the rules memoized */
			for (int j = 0; j < 4; j++) {
				int n = unwind(u, m, nmaps, regs, nregs, stack_copy, stack_len,
					       pcs, flags, MAX_FRAMES);

				bad += n < 0 || n > MAX_FRAMES;
				changed += j == 0 && n != whole;
			}
			tried++;
			unlink(p);
		}
		unwind_free(u);
	}
	ok(bad == 0 && tried == 68,
	   "%d hostile files (cut short, empty, not ELF, missing, CFI scrambled): all came back "
	   "within bounds (%d failed)",
	   tried, bad);
	ok(changed > 0, "scrambling the CFI changed the chain in %d of 60 files", changed);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	uint64_t regs[64];
	size_t nregs;
	struct unwind *u;
	int rounds = argc > 1 ? atoi(argv[1]) : 20000;
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);

	elf_version(EV_CURRENT);
	files = objfiles_new();
	if (sl > 0) {
		self[sl] = 0;
		self_image = read_file(self, &self_size);
	}
	if (read_maps() || !nmaps) {
		printf("1..0 # SKIP cannot read /proc/self/maps\n");
		return 0;
	}
	if (outer(argc) < 0)	/* samples tip() as perf would */
		return 1;
	nregs = sample_regs(perf_regs, regs);
	u = unwind_new(NULL, 0);
	whole_chain(u, regs, nregs);
	leaf_repair(u);
	damaged_samples(u, regs, nregs, rounds);
	/* and the undamaged one still unwinds whole after all that */
	whole_chain(u, regs, nregs);
	unwind_free(u);
	build_ids(regs, nregs);
#if defined(__x86_64__)
	u = unwind_new(NULL, 0);
	plt_frames(u, regs, nregs);
	unwind_free(u);
#endif
	hostile_files(regs, nregs);
	free(self_image);
	objfiles_free(files);
	return tap_done();
}

#else

int main(void)
{
	printf("1..0 # SKIP the unwinder's test captures x86_64 or aarch64 registers\n");
	return 0;
}

#endif
