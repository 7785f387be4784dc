// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "carry.h"
#include "drain.h"
#include "file.h"
#include "htab.h"
#include "jitdump.h"
#include "pdata.h"
#include "writer.h"
#include "xalloc.h"

/* A runtime's file larger than this is not carried (a perf map of 1 GiB is not one). */
#define FILE_MAX ((size_t)1 << 30)

struct cproc {
	int pid;
	int done;		/* its files were read */
	uint64_t start;		/* its FORK's or exec's time; 0: before recording */
	int dump_fd;		/* its jitdump, opened when it mapped it; -1: none */
	int seen;		/* a FORK or exec of it was seen (start is known) */
	int again;		/* read while it ran, for one file of several: read again */
	uint64_t dump_time;	/* when it mapped its jitdump */
};

struct blob {
	uint32_t kind;
	int pid;
	uint64_t start;
	unsigned char *data;
	size_t len;
};

struct carry {
	int64_t mono_to_real;
	struct cproc *p;
	size_t np, cap;
	struct htab t;		/* p by pid */
	struct blob *b;
	size_t nb, bcap;
	uint64_t bytes;
	int keep_open;		/* capture() leaves a jitdump open, to read it again */
};

struct carry *carry_new(int64_t mono_to_real)
{
	struct carry *c = xcalloc(1, sizeof(*c));

	c->mono_to_real = mono_to_real;
	htab_init(&c->t);
	return c;
}

void carry_free(struct carry *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->np; i++)
		if (c->p[i].dump_fd >= 0)
			close(c->p[i].dump_fd);
	for (size_t i = 0; i < c->nb; i++)
		free(c->b[i].data);
	free(c->p);
	free(c->b);
	htab_release(&c->t);
	free(c);
}

static struct cproc *find(struct carry *c, int pid, int make)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&c->t, (uint64_t)(unsigned)pid, &p);
	while (htab_next(&c->t, &p, &i))
		if (c->p[i].pid == pid)
			return &c->p[i];
	if (!make)
		return NULL;
	if (c->np == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->p = xreallocarray(c->p, c->cap, sizeof(*c->p));
	}
	c->p[c->np].pid = pid;
	c->p[c->np].done = 0;
	c->p[c->np].start = 0;
	c->p[c->np].dump_fd = -1;
	c->p[c->np].seen = 0;
	c->p[c->np].again = 0;
	htab_put(&c->t, &p, (uint32_t)c->np);
	return &c->p[c->np++];
}

static void keep(struct carry *c, uint32_t kind, const struct cproc *p, unsigned char *data,
		 size_t len)
{
	if (c->nb == c->bcap) {
		c->bcap = c->bcap ? 2 * c->bcap : 16;
		c->b = xreallocarray(c->b, c->bcap, sizeof(*c->b));
	}
	c->b[c->nb].kind = kind;
	c->b[c->nb].pid = p->pid;
	c->b[c->nb].start = p->start;
	c->b[c->nb].data = data;
	c->b[c->nb].len = len;
	c->nb++;
	c->bytes += len;
}

/*
 * Read p's files now. alive: it still runs, so its own /tmp is reachable
 * through /proc/PID/root (a container's differs from ours).
 */
static void capture(struct carry *c, struct cproc *p, int alive)
{
	char path[96];
	struct stat st;
	size_t len;
	int err, fd = -1;
	unsigned char *data;

	if (p->done)
		return;
	p->done = 1;
	if (alive) {
		snprintf(path, sizeof(path), "/proc/%d/root/tmp/perf-%d.map", p->pid, p->pid);
		fd = file_open_regular(path, &err);
	}
	if (fd < 0) {
		snprintf(path, sizeof(path), "/tmp/perf-%d.map", p->pid);
		fd = file_open_regular(path, &err);
	}
	/*
	 * A map older than the process is another's, which had its pid
	 * before it: a runtime writes its map as it goes, so its own is newer.
	 */
	if (fd >= 0 && p->start && c->mono_to_real && !fstat(fd, &st) &&
	    (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec <
	    (int64_t)p->start + c->mono_to_real) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0) {
		data = file_read_fd(fd, FILE_MAX, &len, &err);
		close(fd);
		if (data && len)
			keep(c, PROF_EXT_PERF_MAP, p, data, len);
		else
			free(data);
	}
	if (p->dump_fd >= 0) {
		data = lseek(p->dump_fd, 0, SEEK_SET) == 0
		       ? file_read_fd(p->dump_fd, FILE_MAX, &len, &err) : NULL;
		if (!c->keep_open) {
			close(p->dump_fd);
			p->dump_fd = -1;
		}
		if (data) {
			size_t n;
			unsigned char *s = jitdump_strip(data, len, &n);

			free(data);
			if (s)
				keep(c, PROF_EXT_JITDUMP, p, s, n);
		}
	}
}

/*
 * The drain hands records on ring by ring, CPU by CPU: a process's exec
 * (and its mmaps) on one CPU may come before its FORK on another. Times
 * say which is newer: an event older than the start known is left alone.
 */
void carry_fork(struct carry *c, int pid, uint64_t time)
{
	struct cproc *p;

	if (!c)
		return;
	p = find(c, pid, 1);

	if (p->seen && time <= p->start)
		return;
	/* a new process at pid: what the older one of the pid left is read first */
	if (p->dump_fd >= 0 && p->dump_time > time)
		;	/* the new one's own, met before its FORK */
	else if (p->seen || p->dump_fd >= 0) {
		capture(c, p, 0);
		if (p->dump_fd >= 0)
			close(p->dump_fd);
		p->dump_fd = -1;
	}
	p->done = 0;
	p->seen = 1;
	p->start = time;
}

void carry_process(struct carry *c, int pid)
{
	if (c)
		find(c, pid, 1);
}

void carry_exec(struct carry *c, int pid, uint64_t time)
{
	struct cproc *p;

	if (!c)
		return;
	p = find(c, pid, 1);

	if (p->seen && time <= p->start)
		return;
	/* the image before exec keeps its jitdump; a perf map is the pid's, read at the end */
	if (p->dump_fd >= 0 && p->dump_time < time)
		capture(c, p, 1);
	p->done = 0;
	p->seen = 1;
	p->start = time;
}

void carry_mmap(struct carry *c, int pid, uint64_t start, uint64_t len, const char *name,
		size_t name_len, uint64_t time)
{
	struct cproc *p;
	char path[4200], file[4096];
	size_t n = name_len < sizeof(file) - 1 ? name_len : sizeof(file) - 1;
	int err, fd;

	if (!c)
		return;
	memcpy(file, name, n);
	file[n] = '\0';
	if (!jitdump_path(file))
		return;
	p = find(c, pid, 1);
	/* the very file it maps, wherever its mount namespace has it */
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid,
		 (unsigned long long)start, (unsigned long long)(start + len));
	fd = file_open_regular(path, &err);
	if (fd < 0) {
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, file);
		fd = file_open_regular(path, &err);
	}
	if (fd < 0)
		fd = file_open_regular(file, &err);
	if (fd < 0)
		return;
	if (p->dump_fd >= 0)
		close(p->dump_fd);
	p->dump_fd = fd;
	p->dump_time = time;
	p->done = 0;
}

void carry_exit(struct carry *c, int pid, uint64_t time)
{
	struct cproc *p = c ? find(c, pid, 0) : NULL;

	/* an exit older than the start known is the older process's: read at the FORK */
	if (p && !(p->seen && time < p->start))
		capture(c, p, 0);
}

static int write_blob(struct writer *w, const struct blob *b)
{
	unsigned char rec[65536];
	struct prof_ext x;
	size_t off = 0;

	do {
		size_t n = b->len - off < PROF_EXT_CHUNK ? b->len - off : PROF_EXT_CHUNK;
		size_t size = (sizeof(struct perf_event_header) + sizeof(x) + n + 7) & ~(size_t)7;
		struct perf_event_header h = { PDATA_HEADER_EVENT_TYPE, 0, (uint16_t)size };
		int ret;

		memset(&x, 0, sizeof(x));
		x.magic = PROF_EXT_MAGIC;
		x.kind = b->kind;
		x.pid = (uint32_t)b->pid;
		x.start = b->start;
		x.total = b->len;
		x.offset = off;
		x.len = (uint32_t)n;
		memset(rec, 0, size);
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + sizeof(h), &x, sizeof(x));
		memcpy(rec + sizeof(h) + sizeof(x), b->data + off, n);
		ret = writer_records(w, rec, size);
		if (ret)
			return ret;
		off += n;
	} while (off < b->len);
	return 0;
}

static int write_blobs(struct carry *c, struct writer *w);

static int write_all(struct carry *c, struct writer *w, int again)
{
	int ret;

	for (size_t i = 0; i < c->np; i++) {
		int live = !c->p[i].done;

		c->keep_open = again;
		capture(c, &c->p[i], 1);
		c->keep_open = 0;
		c->p[i].again = again && live;
	}
	ret = write_blobs(c, w);
	if (again) {
		/*
		 * The next file starts empty: the processes that exited ran in
		 * this one; those still running are read anew at its end.
		 */
		for (size_t i = 0; i < c->nb; i++) {
			c->bytes -= c->b[i].len;
			free(c->b[i].data);
		}
		c->nb = 0;
		for (size_t i = 0; i < c->np; i++)
			if (c->p[i].again)
				c->p[i].done = 0;
	}
	return ret;
}

int carry_write(struct carry *c, struct writer *w)
{
	return c ? write_all(c, w, 0) : 0;
}

int carry_write_again(struct carry *c, struct writer *w)
{
	return c ? write_all(c, w, 1) : 0;
}

static int write_blobs(struct carry *c, struct writer *w)
{
	struct prof_ext x;
	uint64_t first;
	int ret;

	if (!c->nb)
		return 0;
	ret = writer_end_frame(w);	/* the blobs are read from first on */
	if (ret)
		return ret;
	first = writer_bytes_out(w);
	for (size_t i = 0; i < c->nb && !ret; i++)
		ret = write_blob(w, &c->b[i]);
	if (ret)
		return ret;
	memset(&x, 0, sizeof(x));
	x.magic = PROF_EXT_MAGIC;
	x.kind = PROF_EXT_TRAILER;
	x.total = c->nb;
	x.offset = first;
	return writer_user_record(w, PDATA_HEADER_EVENT_TYPE, &x, sizeof(x));
}

uint64_t carry_files(const struct carry *c, uint64_t *bytes, uint64_t *procs)
{
	*bytes = c ? c->bytes : 0;
	*procs = 0;
	if (!c)
		return 0;
	for (size_t i = 0; i < c->nb; i++) {
		size_t j = 0;

		while (j < i && (c->b[j].pid != c->b[i].pid || c->b[j].start != c->b[i].start))
			j++;
		*procs += j == i;
	}
	return c->nb;
}

int carry_filter(void *ctx, struct rec *r)
{
	const struct kevent *k = &r->k;
	uint64_t time = (r->s.present & PERF_SAMPLE_TIME) ? r->s.time : 0;

	if (!r->ok)
		return REC_KEEP;
	switch (r->h.type) {
	case PERF_RECORD_MMAP2:
		if (k->mmap.prot & PROT_EXEC)
			carry_mmap(ctx, (int)k->mmap.pid, k->mmap.start, k->mmap.len, k->mmap.name,
				   k->mmap.name_len, time);
		break;
	case PERF_RECORD_FORK:
		if (k->pid != k->ppid)
			carry_fork(ctx, (int)k->pid, k->time);
		break;
	case PERF_RECORD_COMM:
		if (r->h.misc & PERF_RECORD_MISC_COMM_EXEC)
			carry_exec(ctx, (int)k->pid, time);
		break;
	case PERF_RECORD_EXIT:
		if (k->pid == k->tid)
			carry_exit(ctx, (int)k->pid, k->time);
		break;
	}
	return REC_KEEP;
}
