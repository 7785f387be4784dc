/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session's machine: its processes and threads, by id, each
 * process's maps (a persistent treap, maps.h) and program, and perf's
 * build-id table, as MMAP, COMM, FORK and EXIT records change them. The
 * files a map names come from the symbolizer; a process's JIT state is
 * the resolver's, which reads struct proc. On the delivery thread, but
 * for machine_add_build_id() (the reading thread's, after a drain).
 */
#ifndef PROF_REPORT_MACHINE_H
#define PROF_REPORT_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "maps.h"

struct symbols;
struct resolver;
struct pjit;

/* A process: its maps and JIT code, which the resolver reads. */
struct proc {
	int pid;
	unsigned gen;		/* changes whenever maps do; unique in the machine */
	struct maps maps;	/* its code's: the maps of executable memory */
	/*
	 * every map, code and data (the MMAP records of mmap_data, -d), for
	 * data addresses: empty unless machine_data_maps()
	 */
	struct maps dmaps;
	uint64_t start;		/* the time of the FORK or exec that began it; 0: before */
	struct pjit *jit;	/* the resolver's (not const when the proc is) */
	struct dso *exe;	/* its program: the first file it mapped since its exec */
};

struct thread {
	int pid, tid;
	const char *comm;	/* interned: the same name is the same pointer */
	/* --namespaces: its cgroup namespace as perf's cgroup_id key shows it,
	 * "DEV/0xINODE" (interned); NULL when no NAMESPACES record said */
	const char *cgroup_ns;
};

struct machine;

/* A machine whose maps name the files of sym; res holds each process's JIT state. */
struct machine *machine_new(struct symbols *sym, struct resolver *res);
void machine_free(struct machine *m);

/*
 * Free a thread a second (of the records' time) after its EXIT, and a
 * process with its first thread's (session_forget_exited()); fn hears of
 * each thread freed. Off by default: a report keeps every process.
 */
typedef void (*machine_forget_fn)(void *ctx, int pid, int tid);
void machine_forget_exited(struct machine *m, int on, machine_forget_fn fn, void *ctx);

/*
 * Keep every process's maps of data as well as code (struct proc dmaps),
 * for a report of data addresses; before the first MMAP record.
 */
void machine_data_maps(struct machine *m, int on);

/* A CGROUP record: cgroup id's path (len bytes). */
void machine_cgroup(struct machine *m, uint64_t id, const char *path, size_t len);
/* The path of cgroup id (interned), or NULL when no CGROUP record named it. */
const char *machine_cgroup_name(const struct machine *m, uint64_t id);

/* A NAMESPACES record: the thread's namespaces (its cgroup one kept). */
void machine_namespaces(struct machine *m, const struct kevent *k);

/* The records, at time now (0: the record has none). */
void machine_mmap(struct machine *m, const struct kevent *k);
void machine_comm(struct machine *m, const struct kevent *k, uint64_t now);
void machine_fork(struct machine *m, const struct kevent *k);
void machine_exit(struct machine *m, int pid, int tid, uint64_t now);
/* Forget mode: let go of the threads whose second after their EXIT is over by now. */
void machine_due(struct machine *m, uint64_t now);

/* Process pid as it stands, or NULL when nothing made it. */
struct proc *machine_proc(struct machine *m, int pid);
/* Thread tid, made (named ":TID", or swapper) when nothing made it yet. */
struct thread *machine_thread(struct machine *m, int pid, int tid);
/* A string interned where the threads' names are. */
const char *machine_intern(struct machine *m, const char *str);

/*
 * An entry of perf's build-id table (HEADER_BUILD_ID): the build id of
 * the file at path (plen bytes), for its maps whose MMAP2 carries none.
 * The first of a path is kept.
 */
void machine_add_build_id(struct machine *m, const char *path, size_t plen,
			  const unsigned char *id, size_t len);

/* Mark live (dso_mark_live()) every file a process maps, its program and its JIT code. */
void machine_mark_live(struct machine *m);

#endif
