// SPDX-License-Identifier: GPL-2.0-or-later
/* The file behind a mapping, and its build id: see mapfile.h. */
#include "config.h"

#include <elf.h>
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
#include "xalloc.h"

size_t mapfile_build_id(int fd, unsigned char *id)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph) || eh.e_phnum > 256)
		return 0;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		unsigned char notes[1024];
		size_t len, at = 0;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			return 0;
		if (ph.p_type != PT_NOTE)
			continue;
		len = ph.p_filesz < sizeof(notes) ? (size_t)ph.p_filesz : sizeof(notes);
		if (pread(fd, notes, len, (off_t)ph.p_offset) != (ssize_t)len)
			continue;
		while (at + sizeof(Elf64_Nhdr) <= len) {
			Elf64_Nhdr nh;
			size_t name, desc;

			memcpy(&nh, notes + at, sizeof(nh));
			name = at + sizeof(nh);
			desc = name + ((nh.n_namesz + 3) & ~3u);
			if (desc > len || nh.n_descsz > len - desc)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(notes + name, "GNU", 4) && nh.n_descsz && nh.n_descsz <= 20) {
				memcpy(id, notes + desc, nh.n_descsz);
				return nh.n_descsz;
			}
			at = desc + ((nh.n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

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
	return bid && bid_len && mapfile_build_id(fd, id) == bid_len && !memcmp(id, bid, bid_len);
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
		b->len = (unsigned char)mapfile_build_id(fd, b->id);
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
