/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbols: function names, inline chains and source lines for addresses in
 * ELF files (libdwfl, in process) and in the kernel (/proc/kallsyms). Each
 * file is opened and indexed once and shared by every process mapping it.
 * Not thread-safe: one struct symbols is used by one thread at a time (it
 * runs threads of its own: one reads /proc/kallsyms, one opens files).
 */
#ifndef PROF_REPORT_SYMBOLS_H
#define PROF_REPORT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "module.h"

struct symbols;
struct dso;
struct objfile;

struct symbols_opts {
	const char *symfs;	/* look for every file (and its debug info) under
				 * this root first; NULL for / */
	int strict_symfs;	/* read nothing outside symfs: no fallback to the
				 * host's path, no ".." or link leading out */
	int demangle;		/* C++ and Rust names demangled (libiberty) */
	int params;		/* ... with their parameter lists (perf's -v spelling) */
	int inline_frames;	/* expand inlined functions into frames of their own */
	int srcline;		/* fill in source files and lines (costs time) */
	const char *kallsyms;	/* the kernel's symbols: NULL for /proc/kallsyms (and
				 * its cache); another file is read as it is */
	struct finders *finders;	/* where files are found (finders.h), borrowed: it
				 * outlives the symbolizer, and symfs and
				 * strict_symfs are its; NULL: finders_new(symfs,
				 * strict_symfs), the symbolizer's own */
};

/*
 * NULL and errno when o->symfs is not a directory (ENOENT, ENOTDIR, ...).
 * Files and /proc/kallsyms are read on their first dso_resolve(). o may
 * be NULL for all options off.
 */
struct symbols *symbols_new(const struct symbols_opts *o);
void symbols_free(struct symbols *s);
/*
 * Stop s's threads (the kernel symbols' and the loader's), leaving its
 * memory as it is: for a process about to exit, which need not give back
 * each block (symbols_free() after it is still right).
 */
void symbols_stop(struct symbols *s);

/*
 * For a symbolizer that runs for days (prof agent): close the files
 * (libdwfl's state, their DWARF, symbol tables and indexes) that no new
 * address has needed for idle_ns; then, while the heap holds more than
 * budget bytes (0: no bound), the least recently needed of the rest that
 * have been open for 10 s. Memory then follows what is sampled now, not
 * everything ever sampled. Answers already given stay (they are cached by
 * address); a closed file opens again when a new address needs it. Call
 * it on the thread that resolves, as often as wanted: it looks at most
 * once a second. Returns how many files it closed.
 */
size_t symbols_trim(struct symbols *s, uint64_t idle_ns, size_t budget);
/* How many files symbols_trim() closed, and how many of those opened again. */
void symbols_trim_counts(const struct symbols *s, uint64_t *closed, uint64_t *reopened);

/*
 * For a live host (prof agent): let go of files no process maps any
 * more, so that an agent holds no file of exited programs (descriptors,
 * mappings, and the disk space of deleted ones) and no answers about
 * them. Mark what is mapped: symbols_mark_begin(), then dso_mark_live()
 * for each dso a live process maps or a pending sample names; then
 * symbols_release() lets go of every file not marked that no new address
 * has needed and no process has mapped for idle_ns: its libdwfl state,
 * indexes and cached answers, and, after drop(ctx, files, n) (the
 * unwinder's view of the n files that close), the files. Its object stays (its name and build id, for
 * what an encoder still has), and opens again if a process maps that same
 * file again. How many.
 */
void symbols_mark_begin(struct symbols *s);
void dso_mark_live(struct dso *d);
size_t symbols_release(struct symbols *s, uint64_t idle_ns,
		       void (*drop)(void *ctx, const struct objfile *const *files, size_t n),
		       void *ctx);
uint64_t symbols_released(const struct symbols *s);

/*
 * The dso for a file a process maps, found by path and, when the record
 * carried one, build id (NULL or all zeros for none). Never NULL: a file
 * that cannot be opened, or whose build id differs from build_id, is
 * remembered as such (one warning, through symbols_warnings(), at its
 * first dso_resolve()) and resolves nothing. So do, without a warning,
 * names that are no file: "[vdso]", "[heap]", "[stack]", "//anon",
 * anything not starting with '/', "/memfd:...", "/SYSV..."; a file
 * "... (deleted)" is not opened either (one warning). The same
 * (path, build id) gives the same dso; dsos of one path share one open
 * file. Owned by s.
 */
struct dso *symbols_dso(struct symbols *s, const char *path,
			const unsigned char *build_id, size_t build_id_len);
/*
 * The same, for a map of a process live on this host: pid maps
 * [start, end) from path. The dso is of the file mapped
 * (/proc/PID/map_files), not of what the path names now: a program
 * rebuilt or upgraded at its path while an old copy runs, or deleted,
 * gets a dso of its own, opened through the link while pid lives.
 */
struct live_map {
	int pid;
	uint64_t start, end;
	unsigned maj, min;	/* the file's device and inode, as MMAP2 says them; */
	uint64_t ino;		/* ino 0 when the record has none (it has a build id) */
	uint64_t gen;		/* the inode's generation (0: none said) */
};
struct dso *symbols_dso_live(struct symbols *s, const char *path, const unsigned char *build_id,
			     size_t build_id_len, const struct live_map *m);
/*
 * Where a live recorder links the files it holds open (record/hold.h):
 * a map whose process is gone, its file deleted or replaced at its path
 * since, is opened through the link named by its device and inode. With
 * a directory set, a live map's file is also opened at once, while it is
 * there, not when an address first needs it. NULL: none.
 */
void symbols_hold_dir(struct symbols *s, const char *dir);

/*
 * The dso of the kernel ("[kernel.kallsyms]") and of kernel modules, from
 * this machine's /proc/kallsyms; resolves nothing (one warning) when
 * kallsyms hides the addresses (kernel.kptr_restrict). Owned by s.
 */
struct dso *symbols_kernel(struct symbols *s);
/*
 * The dso of a KVM guest's code, sampled from the host (cycles:G): the
 * host knows none of the guest's files or symbols, so it names nothing;
 * "[guest]", where perf says [guest.kernel.kallsyms] and [guest.user].
 */
struct dso *symbols_guest(struct symbols *s);
/*
 * The profile's kernel map ("[kernel.kallsyms]_text"), [start, start +
 * len): symbol ref ("_text" or "_stext") was at addr when it was
 * recorded. When this machine's kallsyms has it elsewhere (another boot:
 * KASLR, another machine), kernel frames resolve to no name, with one
 * warning, rather than to wrong names; they are still placed by the
 * profile's maps, as perf does: in the kernel, in a module the profile
 * mapped (symbols_kernel_module_map()), or in none ("[unknown]").
 */
void symbols_kernel_map(struct symbols *s, const char *ref, uint64_t addr, uint64_t start,
			uint64_t len);
/*
 * The release of the kernel the profile was recorded on (its osrelease
 * feature): another than this machine's is another kernel, whose frames
 * kallsyms would name wrong, however its addresses fall.
 */
void symbols_kernel_release(struct symbols *s, const char *release);
/*
 * A KSYMBOL record: kernel code at [addr, addr + len) called name (a BPF
 * program, "bpf_prog_TAG_NAME"; a trampoline), which kernel frames there
 * are named by, whatever /proc/kallsyms says now.
 */
void symbols_kernel_ksymbol(struct symbols *s, uint64_t addr, uint32_t len, const char *name,
			    size_t name_len);
/* A kernel module the profile mapped (an MMAP of pid -1): its path, where it was. */
void symbols_kernel_module_map(struct symbols *s, const char *path, uint64_t start,
			       uint64_t len);

/*
 * Where to open a file a profile names: under --symfs when it is there
 * (or, with --strict-symfs, always, and a name that cannot be opened when
 * a link leads out); malloc'ed.
 */
char *symbols_locate(const struct symbols *s, const char *path);
/* Whether source lines are wanted (symbols_opts.srcline). */
int symbols_srcline(const struct symbols *s);
/*
 * libdwfl's debuginfo_path for separate debug files: under --symfs first
 * (only there with --strict-symfs); NULL for libdwfl's default.
 */
const char *symbols_debuginfo_path(const struct symbols *s);
/* Whether debug files are read through the cache of inflated ones: not with --strict-symfs. */
int symbols_debug_cache(const struct symbols *s);
/* The --symfs directory, absolute; NULL when none (or /). */
const char *symbols_symfs(const struct symbols *s);

/*
 * Whether a file's build id is the one recorded: equal, or the recorded
 * one is the file's padded with zeros (as perf pads short ids to 20 bytes).
 */
int build_id_equal(const unsigned char *recorded, size_t recorded_len,
		   const unsigned char *file, size_t file_len);

struct frame_info {
	const char *name;	/* function; NULL when unknown. Owned by s. */
	uint64_t sym_offset;	/* address - function start, when name is set;
				 * 0 in inlined frames */
	const char *file;	/* source file, NULL unless srcline (owned by s) */
	int line;		/* source line, 0 when unknown */
	int inlined;		/* a function inlined into the next frame */
	struct dso *dso;	/* the dso it is in when not the one asked: a
				 * kernel module's, for the kernel's; else NULL */
};

/*
 * Resolve an address of dso d. For files, addr is a file offset (the
 * sample's ip - map start + map pgoff); for the kernel, the address
 * itself. Fills out[0..n) innermost first: inlined functions (inlined
 * set, when inline_frames is on), then the function that holds them;
 * at most max frames, the innermost ones when there are more. Returns
 * n >= 1, or 0 when nothing is known of addr (no symbol covers it, or d
 * resolves nothing) or max < 1. Answers are cached per (file, addr), so
 * calling this for every frame of every sample is cheap. Results stay
 * valid until symbols_free(); equal strings are the same pointer.
 */
int dso_resolve(struct dso *d, uint64_t addr, struct frame_info *out, int max);

/*
 * 1 when dso_resolve() on d would answer without waiting for a file to
 * be opened and its DWARF loaded. When it would, 0, and the file is
 * opened in a thread of the symbolizer's own meanwhile: a caller that
 * can come back to this address later goes on with other work.
 */
int dso_ready(struct dso *d);

/*
 * Warnings gathered while resolving (a build id mismatch, a missing file),
 * one line each, no "prof: " prefix, sorted; NULL-terminated, owned by s.
 * At most 20: *more says how many more there were.
 */
const char *const *symbols_warnings(const struct symbols *s, size_t *more);

#endif
