// SPDX-License-Identifier: GPL-2.0-or-later
/* The file behind a mapping, and its build id: see mapfile.h. */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mapfile.h"
#include "vdso.h"
#include "xalloc.h"

/* Whether the open file fd is the mapped one. */
static int is_mapped(int fd, unsigned maj, unsigned min, uint64_t ino, const unsigned char *bid,
		     size_t bid_len)
{
	struct stat st;
	unsigned char id[20];

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	if (ino)
		return (uint64_t)st.st_ino == ino && major(st.st_dev) == maj &&
		       minor(st.st_dev) == min;
	return bid && bid_len && buildid_read(fd, id) == bid_len && !memcmp(id, bid, bid_len);
}

int mapfile_open(int pid, uint64_t start, uint64_t end, const char *path, unsigned maj,
		 unsigned min, uint64_t ino, const unsigned char *bid, size_t bid_len)
{
	char p[PATH_MAX + 64];
	size_t len;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, pid, start, end);
	fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0)
		return fd;
	if (!ino && !(bid && bid_len))
		return -1;	/* nothing to tell the mapped file by */
	/* the path as the process sees it, without the " (deleted)" the kernel adds */
	len = path ? strlen(path) : 0;
	if (len > 10 && !strcmp(path + len - 10, " (deleted)"))
		len -= 10;
	if (len && path[0] == '/' && (size_t)snprintf(p, sizeof(p), "/proc/%d/root%.*s", pid,
						      (int)len, path) < sizeof(p)) {
		fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && is_mapped(fd, maj, min, ino, bid, bid_len))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	snprintf(p, sizeof(p), "/proc/%d/exe", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && is_mapped(fd, maj, min, ino, bid, bid_len))
		return fd;
	if (fd >= 0)
		close(fd);
	/* the process gone: the path as this process sees it */
	if (len && path[0] == '/' && len < sizeof(p)) {
		memcpy(p, path, len);
		p[len] = '\0';
		fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && is_mapped(fd, maj, min, ino, bid, bid_len))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

const struct mapfile_bid *mapfile_bid_of(struct mapfile_bids *c, int pid, uint64_t start,
					 uint64_t end, const char *path, unsigned maj,
					 unsigned min, uint64_t ino, uint64_t gen)
{
	uint64_t key[3] = { (uint64_t)maj << 32 | min, ino, gen };
	struct htab_probe p;
	struct mapfile_bid *b;
	uint32_t i;
	int fd;

	htab_probe(&c->tab, htab_hash_words(key, 3), &p);
	while (htab_next(&c->tab, &p, &i))
		if (c->e[i].dev == key[0] && c->e[i].ino == ino && c->e[i].gen == gen)
			return &c->e[i];
	c->e = xgrow(c->e, &c->cap, c->n + 1, sizeof(*c->e));
	b = &c->e[c->n];
	memset(b, 0, sizeof(*b));
	b->dev = key[0];
	b->ino = ino;
	b->gen = gen;
	htab_put(&c->tab, &p, (uint32_t)c->n++);
	fd = mapfile_open(pid, start, end, path, maj, min, ino, NULL, 0);
	if (fd >= 0) {
		b->len = (unsigned char)buildid_read(fd, b->id);
		close(fd);
	}
	return b;
}

void mapfile_bids_release(struct mapfile_bids *c)
{
	free(c->e);
	htab_release(&c->tab);
	memset(c, 0, sizeof(*c));
}

void mapfile_bid_put(const struct mapfile_bid *b, unsigned char out[24])
{
	/* u8 size, 3 reserved bytes, 20 bytes of id */
	memset(out, 0, 24);
	out[0] = b->len;
	memcpy(out + 4, b->id, b->len);
}

int mapfile_bid_vdso(const char *name, size_t name_len, uint64_t start, struct mapfile_bid *b)
{
	const struct vdso_image *v = vdso_is_native(name, name_len, start) ? vdso_own() : NULL;

	memset(b, 0, sizeof(*b));
	if (!v || !v->id_len || v->id_len > sizeof(b->id))
		return 0;
	b->len = (unsigned char)v->id_len;
	memcpy(b->id, v->id, v->id_len);
	return 1;
}
