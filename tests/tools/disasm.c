// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disasm [-M intel] FILE < ADDRESSES: the functions of ELF file FILE that
 * start at each ELF address on stdin (hex, one a line), disassembled as
 * prof annotate and the page do (report/model/annot.c), one line an
 * instruction: "ADDRESS: TEXT" (lowercase hex, no 0x), each function after
 * a line "# NAME". For run-annotate-objdump.sh, which holds every function
 * of libc.so.6 against objdump -d.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annot.h"
#include "symbols.h"

int main(int argc, char **argv)
{
	enum annot_syntax syntax = ANNOT_ATT;
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct dso *d;
	char line[64];
	int arg = 1, status = 0;

	if (argc > 2 && !strcmp(argv[1], "-M")) {
		syntax = !strcmp(argv[2], "intel") ? ANNOT_INTEL : ANNOT_ATT;
		arg = 3;
	}
	if (arg + 1 != argc) {
		fprintf(stderr, "usage: disasm [-M intel|att] FILE < ADDRESSES\n");
		return 64;
	}
	s = symbols_new(&o);
	d = s ? symbols_dso(s, argv[arg], NULL, 0) : NULL;
	if (!d) {
		fprintf(stderr, "disasm: cannot open %s\n", argv[arg]);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		struct annot_func f = { 0 };
		struct frame_info fi[8];
		uint64_t vaddr = strtoull(line, NULL, 16), off;
		int n;

		if (!dso_offset_of(d, vaddr, &off) || (n = dso_resolve(d, off, fi, 8)) <= 0 ||
		    !fi[n - 1].name) {
			printf("# none at %llx\n", (unsigned long long)vaddr);
			continue;
		}
		f.dso = d;
		f.name = fi[n - 1].name;
		f.where.off = off - fi[n - 1].sym_offset;
		if (annot_disassemble(&f, NULL, 0, syntax) || f.no_code) {
			printf("# %s: %s\n", f.name, f.no_code ? f.no_code : "?");
			status = 1;
			free(f.insn);
			free(f.lines);
			continue;
		}
		printf("# %s\n", f.name);
		for (size_t i = 0; i < f.ninsn; i++)
			printf("%llx: %s\n", (unsigned long long)f.insn[i].vaddr, f.insn[i].text);
		free(f.insn);
		free(f.lines);
	}
	symbols_free(s);
	return status;
}
