// SPDX-License-Identifier: GPL-2.0-or-later
/* Files held open for a live reader, and the links it opens them by: see hold.h. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "decode.h"
#include "drain.h"
#include "hold.h"
#include "mapfile.h"
#include "ring.h"
#include "xalloc.h"

struct held {
	unsigned maj, min;
	uint64_t ino;
	int fd;
	uint64_t until;
};

struct hold {
	pthread_mutex_t mu;	/* the pump's worker (hold_filter) and the recorder (hold_wake) */
	char *dir;
	struct held *v;
	size_t n, cap;
	uint64_t next_expiry;	/* no entry ends before it */
};

struct hold *hold_new(const char *dir)
{
	struct hold *h;

	if (!dir || !dir[0])
		return NULL;
	h = xcalloc(1, sizeof(*h));
	pthread_mutex_init(&h->mu, NULL);
	h->dir = xstrdup(dir);
	h->next_expiry = UINT64_MAX;
	return h;
}

static void link_path(const struct hold *h, const struct held *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%u-%u-%llu", h->dir, e->maj, e->min, (unsigned long long)e->ino);
}

static void let_go(struct hold *h, size_t i)
{
	char path[4200];

	link_path(h, &h->v[i], path, sizeof(path));
	unlink(path);
	close(h->v[i].fd);
	h->v[i] = h->v[--h->n];
}

void hold_free(struct hold *h)
{
	if (!h)
		return;
	while (h->n)
		let_go(h, h->n - 1);
	free(h->v);
	free(h->dir);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

static void hold_locked(struct hold *h, int pid, uint64_t start, uint64_t len, const char *name,
			size_t name_len, unsigned maj, unsigned min, uint64_t ino, uint64_t now)
{
	char path[4096], link[4200], target[64];
	struct held e = { maj, min, ino, -1, now + HOLD_NS };

	if (!h || !ino || !name_len || name_len >= sizeof(path) || name[0] != '/' ||
	    !strncmp(name, "//", 2) || !strncmp(name, "/memfd:", 7))
		return;
	for (size_t i = 0; i < h->n; i++)
		if (h->v[i].ino == ino && h->v[i].maj == maj && h->v[i].min == min) {
			h->v[i].until = e.until;	/* mapped again: held on */
			return;
		}
	memcpy(path, name, name_len);
	path[name_len] = '\0';
	/* the very file: through the process while it lives, else at its path, same inode */
	e.fd = mapfile_open(pid, start, start + len, path, maj, min, ino, NULL, 0);
	if (e.fd < 0)
		return;
	/*
	 * Full: the file held longest without a new map goes (once this one
	 * is open: a file that cannot be opened takes no one's place), which its
	 * reader has most likely opened itself by now. Refusing the new one
	 * instead left the programs run while HOLD_MAX files were held
	 * unnamed once deleted: a soak's churn held 4 more a second and
	 * reached HOLD_MAX at 110 s, before the first hold ended (DESIGN.md).
	 */
	if (h->n == HOLD_MAX) {
		size_t old = 0;

		for (size_t i = 1; i < h->n; i++)
			if (h->v[i].until < h->v[old].until)
				old = i;
		let_go(h, old);
	}
	link_path(h, &e, link, sizeof(link));
	snprintf(target, sizeof(target), "/proc/%d/fd/%d", (int)getpid(), e.fd);
	unlink(link);	/* one an earlier recorder left */
	if (symlink(target, link)) {
		close(e.fd);
		return;
	}
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 32;
		h->v = xreallocarray(h->v, h->cap, sizeof(*h->v));
	}
	h->v[h->n++] = e;
	if (e.until < h->next_expiry)
		h->next_expiry = e.until;
}

void hold_mapping(struct hold *h, int pid, uint64_t start, uint64_t len, const char *name,
		  size_t name_len, unsigned maj, unsigned min, uint64_t ino, uint64_t now)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->mu);
	hold_locked(h, pid, start, len, name, name_len, maj, min, ino, now);
	pthread_mutex_unlock(&h->mu);
}

void hold_expire(struct hold *h, uint64_t now)
{
	if (!h)
		return;
	pthread_mutex_lock(&h->mu);
	if (now >= h->next_expiry) {
		h->next_expiry = UINT64_MAX;
		for (size_t i = h->n; i-- > 0;) {
			if (h->v[i].until <= now)
				let_go(h, i);
			else if (h->v[i].until < h->next_expiry)
				h->next_expiry = h->v[i].until;
		}
	}
	pthread_mutex_unlock(&h->mu);
}

int hold_wake(struct hold *h, struct ring *r, void *buf)
{
	size_t n = ring_read(r, buf), pos = 0;
	uint64_t now = mono_ns();
	int whole = 1, code = 0;

	while (pos < n) {
		const struct perf_event_header *e = (const void *)((unsigned char *)buf + pos);
		struct mmap_event m;

		if (n - pos < sizeof(*e) || !rec_whole(e, n - pos))
			return -1;
		if (e->type == PERF_RECORD_LOST) {
			whole = 0;
		} else if (e->type == PERF_RECORD_MMAP2 && !decode_mmap(e, e->size - sizeof(*e), &m) &&
			   !m.build_id && (m.prot & PROT_EXEC)) {
			hold_mapping(h, (int)m.pid, m.start, m.len, m.name, m.name_len, m.maj, m.min,
				     m.ino, now);
			code++;
		}
		pos += e->size;
	}
	return whole ? code : -1;
}

int hold_filter(void *ctx, struct rec *r)
{
	const struct mmap_event *m = &r->k.mmap;

	if (r->ok && (m->prot & PROT_EXEC))
		hold_mapping(ctx, (int)m->pid, m->start, m->len, m->name, m->name_len, m->maj,
			     m->min, m->ino, mono_ns());
	return REC_KEEP;
}
