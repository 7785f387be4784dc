// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Draining perf's mmap ring. The barriers follow the contract in
 * include/uapi/linux/perf_event.h and tools/include/linux/ring_buffer.h:
 * read data_head with acquire, so that the record bytes the kernel wrote
 * before publishing head are visible; store data_tail with release, so
 * that our reads of those bytes are done before the kernel may reuse them.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ring.h"

int ring_init(struct ring *r, int fd, int cpu, size_t pages, int overwrite)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->cpu = cpu;
	r->overwrite = overwrite;
	r->map_size = (pages + 1) * page;
	/* a ring we cannot write the tail of is one the kernel overwrites */
	r->base = mmap(NULL, r->map_size, PROT_READ | (overwrite ? 0 : PROT_WRITE), MAP_SHARED,
		       fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -errno;
	}
	r->pc = r->base;
	r->data = (unsigned char *)r->base + page;
	r->data_size = pages * page;
	return 0;
}

void ring_release(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->map_size);
	r->base = NULL;
}

size_t ring_copy(const unsigned char *data, size_t size, uint64_t tail, uint64_t head,
		 void *dst)
{
	size_t len = (size_t)(head - tail);
	size_t start = (size_t)(tail & (size - 1));
	size_t first = size - start;

	if (first > len)
		first = len;
	memcpy(dst, data + start, first);
	memcpy((unsigned char *)dst + first, data, len - first);
	return len;
}

/* The header of the record at pos: 8 bytes at an 8-aligned place never wrap. */
static inline void header_at(const struct ring *r, uint64_t pos, struct perf_event_header *h)
{
	memcpy(h, r->data + (pos & (r->data_size - 1)), sizeof(*h));
}

uint64_t ring_head(const struct ring *r)
{
	return __atomic_load_n(&r->pc->data_head, __ATOMIC_ACQUIRE);
}

void ring_skip(struct ring *r)
{
	__atomic_store_n(&r->pc->data_tail, ring_head(r), __ATOMIC_RELEASE);
}

size_t ring_snapshot(struct ring *r, void *dst)
{
	uint64_t head, end, pos;
	size_t n;

	/* the kernel stops writing (and loses what comes meanwhile) while we copy */
	ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	head = ring_head(r);
	/* backward: the newest record at head, older ones above it, up to a ring's size */
	end = r->have_prev && r->prev - head <= r->data_size ? r->prev : head + r->data_size;
	pos = head;
	while (end - pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		header_at(r, pos, &h);
		/* never written (0), or the oldest, cut by the newest over it */
		if (!rec_whole(&h, end - pos))
			break;
		pos += h.size;
	}
	n = ring_copy(r->data, r->data_size, head, pos, dst);
	r->prev = head;
	r->have_prev = 1;
	ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	return n;
}

size_t ring_read(struct ring *r, void *dst)
{
	return ring_read_to(r, dst, ring_head(r));
}

size_t ring_read_to(struct ring *r, void *dst, uint64_t head)
{
	uint64_t tail = r->pc->data_tail;	/* only we write it */
	size_t len;

	if (head == tail)
		return 0;
	if (head - tail > r->data_size) {
		/* Not a state the kernel leaves a non-overwrite ring in: resync. */
		__atomic_store_n(&r->pc->data_tail, head, __ATOMIC_RELEASE);
		return 0;
	}
	len = ring_copy(r->data, r->data_size, tail, head, dst);
	__atomic_store_n(&r->pc->data_tail, head, __ATOMIC_RELEASE);
	return len;
}
