/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A function's samples by instruction and by source line: its code read
 * from its file and disassembled (GNU libopcodes, as objdump: x86-64,
 * i386, aarch64), each instruction with the samples that hit it and the
 * source line it comes from (the innermost inlined one, as prof report's srcline names it),
 * and branch and call targets named by symbol. What prof annotate prints
 * and writes as JSON; nothing here prints.
 */
#ifndef PROF_REPORT_ANNOT_H
#define PROF_REPORT_ANNOT_H

#include <stddef.h>
#include <stdint.h>

#include "addrs.h"
#include "module.h"

struct annot_insn {
	uint64_t vaddr;			/* in the ELF file, as objdump shows it */
	uint64_t off;			/* in the file: what samples give */
	char text[200];			/* mnemonic and operands, as objdump -d shows them */
	unsigned char bytes[16];
	unsigned nbytes;
	uint64_t samples, period;
	const char *file;		/* its source line: NULL unknown */
	int line;
	const char *comp_dir;		/* where a relative file is: NULL unknown */
	int branch;			/* a jump or call with a known target */
	uint64_t target;		/* ... its address */
	char target_name[160];		/* ... "name+0x10", "" when unnamed */
	uint32_t inl_at, inl_n;		/* the functions inlined where it is, innermost
					 * first: annot_func.inl_names[inl_at..+inl_n) */
};

struct annot_line {
	const char *file;
	int line;
	const char *comp_dir;		/* where a relative file is: NULL unknown */
	uint64_t samples, period;
};

struct annot_func {
	struct dso *dso;
	const char *name;
	int kernel;
	uint64_t samples, period;	/* every sample in the function */
	uint64_t outside;		/* ... of them at no instruction of the listing */
	struct dso_func where;		/* with code: where it is */
	struct annot_insn *insn;	/* by address */
	size_t ninsn;
	struct annot_line *lines;	/* by period, the hottest first */
	size_t nlines;
	const char *no_code;		/* why there is no listing, or NULL */
	uint64_t cut;			/* bytes past the longest listing (64K instructions) */
	const char **inl_names;		/* see annot_insn.inl_at */
	size_t ninl_names;
	/* the samples whose innermost function is one inlined here (prof report
	 * lists them under its name, not f's) */
	uint64_t inl_samples, inl_period;
	/* annot_focus(): the function f->name is inlined in; else NULL */
	const char *inlined_in;
	uint64_t own_samples, own_period;	/* ... the samples where it is the innermost */
	/* code of dso no symbol names: name is "?? (dso)", as prof report's
	 * row; its listing the instructions its samples hit, one each */
	int unnamed;
	char *own_name;			/* name, when unnamed; freed with the list */
};

enum annot_syntax { ANNOT_ATT, ANNOT_INTEL };

/*
 * The functions the counts hit (addrs_sorted()), the hottest first, each
 * with its samples; not yet disassembled. *n is how many; free with
 * annot_free_list(). A file's code no symbol names is one function, "??
 * (file)" (unnamed). Addresses in no file are left out; their samples and
 * period are added to *unnamed_samples and *unnamed_period.
 */
struct annot_func *annot_functions(const struct addr_count *counts, size_t ncounts, size_t *n,
				   uint64_t *unnamed_samples, uint64_t *unnamed_period);
/*
 * Disassemble f and put its samples (counts, as above) on its
 * instructions and lines; or say in f->no_code why not. 0, or -1 when
 * libopcodes is missing or cannot decode its machine (f->no_code says so).
 */
int annot_disassemble(struct annot_func *f, const struct addr_count *counts, size_t ncounts,
		      enum annot_syntax syntax);
/*
 * Whether a function named name is inlined where f's samples (counts, as
 * above) hit: f is then one of the functions annot_focus() can show it
 * in. Before or after annot_disassemble().
 */
int annot_inlined_hit(const struct annot_func *f, const struct addr_count *counts,
		      size_t ncounts, const char *name);
/*
 * A disassembled f narrowed to the code of name inlined in it: its
 * instructions whose inline chain holds name, their samples and lines;
 * f->name becomes name, f->inlined_in f's. own_samples and own_period:
 * those where name is the innermost function, as prof report counts it.
 */
void annot_focus(struct annot_func *f, const char *name);
void annot_free_list(struct annot_func *f, size_t n);

#endif
