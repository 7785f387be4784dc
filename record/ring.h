/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A perf mmap ring: one control page and 2^n data pages that the kernel
 * fills and we drain (perf_event_open(2), "MMAP layout").
 */
#ifndef PROF_RECORD_RING_H
#define PROF_RECORD_RING_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ring {
	int fd;				/* the event the ring belongs to (not owned) */
	int cpu;
	void *base;			/* control page + data */
	size_t map_size;
	unsigned char *data;
	size_t data_size;		/* a power of two */
	struct perf_event_mmap_page *pc;
	int overwrite;			/* --overwrite: the kernel writes backward over the oldest */
	uint64_t prev;			/* overwrite: the head of the last snapshot, if have_prev */
	int have_prev;
};

/*
 * Map 1 + pages pages of fd: read-write, for a ring we drain; read-only
 * (overwrite), for a ring the kernel overwrites, of events opened with
 * write_backward (--overwrite, a flight recorder). 0 or -errno
 * (ENOMEM/EPERM past mlock limits).
 */
int ring_init(struct ring *r, int fd, int cpu, size_t pages, int overwrite);
void ring_release(struct ring *r);

/*
 * Copy everything the kernel has written and we have not read into dst
 * (at least r->data_size bytes), then hand the space back to the kernel.
 * Returns the bytes copied: whole records, by the kernel's contract.
 */
size_t ring_read(struct ring *r, void *dst);
/* Hand everything written back to the kernel unread (a ring that only wakes us). */
void ring_skip(struct ring *r);
/* The kernel's write position now (acquire: the bytes before it are there to read). */
uint64_t ring_head(const struct ring *r);
/* ring_read() of what the kernel had written by head (from ring_head()). */
size_t ring_read_to(struct ring *r, void *dst, uint64_t head);
/*
 * An overwrite ring's newest records into dst (at least r->data_size
 * bytes), the kernel's writes paused meanwhile: from the head to the
 * oldest whole record, or to the head of the last snapshot, whichever is
 * nearer; newest first (a reader puts them in time order). Returns the
 * bytes copied.
 */
size_t ring_snapshot(struct ring *r, void *dst);

/*
 * A ring wakes its reader when 1/RING_WAKE of it is full (the events'
 * wakeup_watermark, evopen.c), and the pump's tick copies the rings at the
 * same mark while the reader is busy writing the header (pump.c).
 */
#define RING_WAKE 4

/*
 * Whether h heads a whole record in the room bytes from its start: a size
 * of at least a header, a multiple of 8, within room (else the data ends,
 * or was never written, or was cut: the walk over records stops there).
 */
static inline int rec_whole(const struct perf_event_header *h, size_t room)
{
	return h->size >= sizeof(*h) && !(h->size % 8) && h->size <= room;
}

/*
 * The copy itself, for a ring of size bytes (a power of two) at data:
 * the bytes from tail to head, unwrapped. Returns head - tail, which must
 * not exceed size.
 */
size_t ring_copy(const unsigned char *data, size_t size, uint64_t tail, uint64_t head,
		 void *dst);

#endif
