// SPDX-License-Identifier: GPL-2.0-or-later
/* The files a profile names, each opened once: see objfile.h. */
#include "config.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "file.h"
#include "htab.h"
#include "objfile.h"
#include "xalloc.h"

struct objfiles {
	pthread_mutex_t mu;
	struct objfile **files;		/* the htab's items */
	size_t n, cap;
	struct htab tab;		/* by path */
};

struct objfiles *objfiles_new(void)
{
	struct objfiles *t = xcalloc(1, sizeof(*t));

	pthread_mutex_init(&t->mu, NULL);
	htab_init(&t->tab);
	elf_version(EV_CURRENT);
	return t;
}

static void objfile_free(struct objfile *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free((void *)f->load);
	free((void *)f->path);
	free(f);
}

void objfiles_free(struct objfiles *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		objfile_free(t->files[i]);
	free(t->files);
	htab_release(&t->tab);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

static void id_of_stat(const struct stat *st, struct file_id *id)
{
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

int file_id_of(const char *path, struct file_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(path, &st) < 0)
		return -1;
	id_of_stat(&st, id);
	return 0;
}

int file_id_equal(const struct file_id *a, const struct file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->ctime_ns == b->ctime_ns;
}

int objfile_vaddr(const struct objfile *f, uint64_t off, uint64_t *vaddr, const GElf_Phdr **seg)
{
	for (size_t i = 0; i < f->nload; i++) {
		const GElf_Phdr *ph = &f->load[i];

		if (off >= ph->p_offset && off - ph->p_offset < ph->p_filesz) {
			*vaddr = off - ph->p_offset + ph->p_vaddr;
			if (seg)
				*seg = ph;
			return 1;
		}
	}
	return 0;
}

static int id_known(const struct file_id *id)
{
	return id && (id->dev || id->ino || id->ctime_ns);
}

static struct objfile *objfile_open(const char *path)
{
	struct objfile *f = xcalloc(1, sizeof(*f));
	GElf_Phdr *load;
	struct stat st;
	size_t n;

	f->path = xstrdup(path);
	f->fd = file_open_regular(path, &f->err);	/* a FIFO there must not hang us */
	if (f->fd < 0)
		return f;
	if (fstat(f->fd, &st) == 0)
		id_of_stat(&st, &f->id);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || elf_getphdrnum(f->elf, &n)) {
		if (f->elf)
			elf_end(f->elf);
		f->elf = NULL;
		return f;
	}
	f->image = (const unsigned char *)elf_rawfile(f->elf, &f->size);
	f->load = load = xcalloc(n ? n : 1, sizeof(*load));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(f->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			load[f->nload++] = ph;
	}
	{
		const void *id;
		ssize_t len = dwelf_elf_gnu_build_id(f->elf, &id);

		if (len > 0) {
			f->build_id = id;
			f->build_id_len = (size_t)len;
		}
	}
	return f;
}

const struct objfile *objfiles_get(struct objfiles *t, const char *path)
{
	return objfiles_get_id(t, path, NULL);
}

const struct objfile *objfiles_get_id(struct objfiles *t, const char *path,
				      const struct file_id *id)
{
	struct htab_probe p;
	struct objfile *f = NULL;
	uint32_t i;

	pthread_mutex_lock(&t->mu);
	htab_probe(&t->tab, htab_hash_bytes(path, strlen(path)), &p);
	while (!f && htab_next(&t->tab, &p, &i))
		if (!strcmp(t->files[i]->path, path) &&
		    (!id_known(id) || file_id_equal(&t->files[i]->id, id)))
			f = t->files[i];
	if (!f) {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 16;
			t->files = xreallocarray(t->files, t->cap, sizeof(*t->files));
		}
		f = t->files[t->n] = objfile_open(path);
		f->slot = t->n;
		htab_put(&t->tab, &p, (uint32_t)t->n++);
	}
	f->refs++;
	pthread_mutex_unlock(&t->mu);
	return f;
}

static uint64_t path_hash(const void *ctx, size_t i)
{
	const struct objfiles *t = ctx;

	return htab_hash_bytes(t->files[i]->path, strlen(t->files[i]->path));
}

void objfiles_forget(struct objfiles *t, const struct objfile *const *files, size_t n,
		     void (*drop)(void *ctx, const struct objfile *const *files, size_t n),
		     void *ctx)
{
	struct objfile **closing = NULL;
	size_t m = 0, kept = 0;

	if (!n)
		return;
	pthread_mutex_lock(&t->mu);
	for (size_t i = 0; i < n; i++) {
		size_t at = files[i]->slot;
		struct objfile *f = at < t->n ? t->files[at] : NULL;

		if (f != files[i] || !f->refs)
			continue;	/* not ours, or each get already forgotten */
		/*
		 * another holder's still: an object of the path with no id was
		 * given the file of the path's object with one, and letting
		 * one of them go freed it under the other (an agent beside a
		 * churn of programs deleted at exit crashed in minutes)
		 */
		if (--f->refs)
			continue;
		if (!m)
			closing = xreallocarray(NULL, n, sizeof(*closing));
		closing[m++] = f;
	}
	if (m) {
		/*
		 * out of the table at once, and indexed again once: one by one
		 * (a reindex of every open file per file closed) cost the
		 * agent of a churning host 2-4% of its CPU
		 */
		for (size_t i = 0; i < t->n; i++)
			if (t->files[i]->refs) {
				t->files[kept] = t->files[i];
				t->files[kept]->slot = kept;
				kept++;
			}
		t->n = kept;
		htab_reindex(&t->tab, t->n, path_hash, t);
	}
	pthread_mutex_unlock(&t->mu);
	if (m && drop)
		drop(ctx, (const struct objfile *const *)closing, m);
	for (size_t i = 0; i < m; i++)
		objfile_free(closing[i]);
	free(closing);
}
