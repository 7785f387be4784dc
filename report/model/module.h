/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One mapped file, as the symbolizer (symbols.h) knows it: a struct dso is
 * a path and, when recorded, a build id; the kernel and each kernel module
 * are one too. What formats and commands ask of it beside the names of its
 * addresses (dso_resolve()): what it is called and whose it is, its build
 * id, the file to read, and its functions and code. A dso is owned by the
 * symbolizer that made it (symbols_dso()); symbols-module.c answers.
 */
#ifndef PROF_REPORT_MODULE_H
#define PROF_REPORT_MODULE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct dso;
struct objfile;

/*
 * "libc.so.6", "shape", "[kernel.kallsyms]", "[ext4]" (a kernel module),
 * "[vdso]": what reports show.
 */
const char *dso_short_name(const struct dso *d);
const char *dso_path(const struct dso *d);
/*
 * The file to read d's code from (for unwinding): the very file the
 * symbolizer reads for it (under --symfs when there; objfile.h), opened
 * on the first ask; NULL when d resolves nothing (no file, another
 * build, [vdso] and the like).
 */
const struct objfile *dso_file(const struct dso *d);
/*
 * Whose program d is: the owner of the file the process mapped, as opened
 * here (or at its path, when what was opened is a copy: the build-id
 * cache's); (uid_t)-1 when not known (the kernel, JIT code, a file gone).
 */
uid_t dso_owner(const struct dso *d);
/*
 * Open d's file now and settle which file resolves it (its path's, or one
 * found by its build id), as its first dso_resolve() would; for callers
 * that want the file, not names (prof archive).
 */
void dso_settle(struct dso *d);

/*
 * The build id of d: the one recorded with its map, else its file's once
 * opened. Its length, 0 when none is known; *id points into d's memory.
 */
size_t dso_build_id(const struct dso *d, const unsigned char **id);

/*
 * 1 when d is memory no file backs, where JIT runtimes put their code:
 * "//anon", "[anon:...]", "/memfd:...", "[heap]", "/anon_hugepage",
 * "/dev/zero".
 */
int dso_is_anon(const struct dso *d);
/* 1 when d is JIT code: anonymous memory (dso_is_anon()), or "[JIT] tid PID". */
int dso_is_jit(const struct dso *d);

/*
 * 1 when d resolved nothing because its file is missing, unreadable or of
 * another build than the one recorded (after a dso_resolve() on it): its
 * frames must show as [unknown], not as offsets into some other file.
 */
int dso_unknown(const struct dso *d);

/* A function of a file, where its code is (dso_function_at()). */
struct dso_func {
	const char *name;	/* as dso_resolve() names it; owned by s */
	uint64_t off;		/* its first byte's offset in the file */
	uint64_t size;		/* its bytes */
	uint64_t vaddr;		/* its first byte's address in the ELF file (objdump's) */
	const struct objfile *file;	/* the file to read its bytes from */
	int nobits;		/* the file has no bytes for it (a debug file's .text) */
};
/*
 * The function of file dso d holding file offset off, by its symbol: 1, or
 * 0 when there is none (no symbol there, the kernel, a file not here).
 */
int dso_function_at(struct dso *d, uint64_t off, struct dso_func *out);
/*
 * The loadable segment of file dso d holding file offset off, as a
 * dso_func with no name (its code, whatever symbols say): 1, or 0 when
 * none holds it or the file is not here. For code no symbol names.
 */
int dso_code_at(struct dso *d, uint64_t off, struct dso_func *out);
/*
 * The directory file offset off of d was compiled in (its CU's
 * DW_AT_comp_dir), which a relative source path of its line is under;
 * NULL when not known. Owned by s.
 */
const char *dso_comp_dir(struct dso *d, uint64_t off);
/*
 * The data object (a sized STT_OBJECT symbol) of file dso d holding file
 * offset off of its mapping (a segment's bytes or the bss in its last
 * page), else its function (an instruction fetched): 1 with its name
 * (owned by d's symbolizer) and off's offset into it; 0 when none holds
 * it or the file is not here.
 */
int dso_data_at(struct dso *d, uint64_t off, const char **name, uint64_t *into);
/*
 * The same for the anonymous memory right after a mapping of d (the bss
 * past the file's last page, which the kernel maps apart): off runs on
 * from the mapping's file offsets as the addresses do.
 */
int dso_bss_at(struct dso *d, uint64_t off, const char **name, uint64_t *into);
/* The file offset of ELF address vaddr of d's file (a branch's target): 1, or 0 outside. */
int dso_offset_of(struct dso *d, uint64_t vaddr, uint64_t *off);

#endif
