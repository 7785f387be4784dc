/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files held open for a live reader (prof agent, prof top): the recorder
 * sees a program's MMAP2 within a drain pass of its exec, while the file
 * is most likely still there; the reader resolves its samples later, when
 * a short-lived program may be gone and its binary deleted (a test binary,
 * a build's tool, `go run`). So the recorder opens each executable file it
 * sees mapped and holds it for a while, and puts in the reader's directory
 * a symlink named by the file's device and inode (MAJ-MIN-INO, as MMAP2
 * says them) to /proc/PID/fd/FD of that descriptor: the reader opens the
 * very file through it, deleted or not, and then holds it itself.
 */
#ifndef PROF_RECORD_HOLD_H
#define PROF_RECORD_HOLD_H

#include <stddef.h>
#include <stdint.h>

/* How long a file is held after its last MMAP2 was seen: the reader opens it well before. */
#define HOLD_NS (120 * 1000000000ULL)
/*
 * Files held at once, at most (the recorder's descriptors are its rings'
 * first); past it, the one held longest without a new map goes.
 */
#define HOLD_MAX 512

struct hold;

/* NULL when dir is NULL or empty. */
struct hold *hold_new(const char *dir);
/* Let go of every file and remove the links. */
void hold_free(struct hold *h);

/*
 * Pid maps [start, start + len) of the file named name (name_len bytes),
 * device maj:min, inode ino, as an MMAP2 record says it, at now (ns, any
 * clock hold_expire() is given): hold the file. Best effort and quiet.
 */
void hold_mapping(struct hold *h, int pid, uint64_t start, uint64_t len, const char *name,
		  size_t name_len, unsigned maj, unsigned min, uint64_t ino, uint64_t now);
/* Let go of the files held longer than HOLD_NS. */
void hold_expire(struct hold *h, uint64_t now);

struct ring;
/*
 * Hold the files of the MMAP2 records of code in r, a ring that only
 * wakes the recorder (rec_open_wake()), read into buf (its data_size):
 * the hold without the drain pass, which is the wake's whole cost else.
 * The number of such records, or -1 when the ring lost some (or held a
 * cut one): a drain pass must hold what it missed.
 */
int hold_wake(struct hold *h, struct ring *r, void *buf);

struct rec;
/* hold_mapping() as a record filter (record/drain.h), for MMAP2 of code. ctx: the hold. */
int hold_filter(void *ctx, struct rec *r);

#endif
