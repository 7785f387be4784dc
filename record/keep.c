// SPDX-License-Identifier: GPL-2.0-or-later
/* Files a report could not find later, kept by build id: see keep.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"
#include "drain.h"
#include "keep.h"
#include "mapfile.h"
#include "vdso.h"
#include "xalloc.h"

#define BID_MAX 20
#define KEEP_MAX (1024ULL * 1024 * 1024)	/* bigger files are not copied */

/* A file to copy: open (it outlives its process so), and where to. */
struct copy {
	int fd;
	char *dest;
	int counted;	/* a file at risk, which the summary counts; not the vDSO */
};

/*
 * The copies are the worker's (a file may be 1 GiB): the recorder's drain
 * loop only opens what it must while the process lives, and queues it, so
 * that no ring waits on a copy. The worker starts with the first file.
 */
struct keep {
	char *dir;			/* the cache: its .build-id/ holds the files */
	unsigned char (*seen)[BID_MAX + 1];	/* build ids looked at: len, then the id */
	size_t nseen, cap;
	pthread_mutex_t mu;
	pthread_cond_t more;
	struct copy *q;			/* queued, q[head .. nq) */
	size_t head, nq, qcap;
	int started, ending;
	pthread_t worker;
	uint64_t kept;			/* under mu */
};

struct keep *keep_new(void)
{
	char dir[PATH_MAX];
	struct keep *k;

	if (buildid_cache_dir(dir, sizeof(dir)))
		return NULL;
	k = xcalloc(1, sizeof(*k));
	k->dir = xstrdup(dir);
	pthread_mutex_init(&k->mu, NULL);
	pthread_cond_init(&k->more, NULL);
	return k;
}

void keep_finish(struct keep *k)
{
	if (!k || !k->started)
		return;
	pthread_mutex_lock(&k->mu);
	k->ending = 1;
	pthread_cond_signal(&k->more);
	pthread_mutex_unlock(&k->mu);
	pthread_join(k->worker, NULL);
	k->started = 0;
}

void keep_free(struct keep *k)
{
	if (!k)
		return;
	keep_finish(k);
	for (size_t i = k->head; i < k->nq; i++) {
		close(k->q[i].fd);
		free(k->q[i].dest);
	}
	free(k->q);
	pthread_cond_destroy(&k->more);
	pthread_mutex_destroy(&k->mu);
	free(k->dir);
	free(k->seen);
	free(k);
}

uint64_t keep_count(struct keep *k)
{
	uint64_t n;

	if (!k)
		return 0;
	pthread_mutex_lock(&k->mu);
	n = k->kept;
	pthread_mutex_unlock(&k->mu);
	return n;
}

const char *keep_dir(const struct keep *k)
{
	return k ? k->dir : NULL;
}

/* mkdir -p of path's directories (not its last part). */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

/* Copy the open file in to dest, through a temporary renamed into place. */
static int copy_to(int in, const char *dest)
{
	char tmp[PATH_MAX + 16], buf[1 << 16];
	ssize_t n;
	int out;
	struct stat st;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.%d.tmp", dest, (int)getpid()) >= sizeof(tmp))
		return -1;
	/* readable by whom the original is, no more: a copy of a file others cannot read is not theirs */
	if (fstat(in, &st))
		return -1;
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 0644);
	if (out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (close(out) < 0 || n < 0 || rename(tmp, dest) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static void *worker_main(void *arg)
{
	struct keep *k = arg;

	pthread_mutex_lock(&k->mu);
	for (;;) {
		struct copy c;
		int ok;

		while (k->head == k->nq && !k->ending)
			pthread_cond_wait(&k->more, &k->mu);
		if (k->head == k->nq)
			break;	/* ending, and nothing left */
		c = k->q[k->head++];
		pthread_mutex_unlock(&k->mu);
		ok = make_dirs(c.dest) == 0 && copy_to(c.fd, c.dest) == 0;
		close(c.fd);
		free(c.dest);
		pthread_mutex_lock(&k->mu);
		k->kept += ok && c.counted;
	}
	pthread_mutex_unlock(&k->mu);
	return NULL;
}

/* Hand fd, to be copied to dest, to the worker (started now if need be). */
static void queue_copy(struct keep *k, int fd, const char *dest, int counted)
{
	pthread_mutex_lock(&k->mu);
	if (!k->started) {
		if (pthread_create(&k->worker, NULL, worker_main, k)) {
			pthread_mutex_unlock(&k->mu);
			close(fd);	/* no thread: best effort, as the rest */
			return;
		}
		k->started = 1;
	}
	if (k->head == k->nq)
		k->head = k->nq = 0;	/* all taken: start the queue over */
	k->q = xgrow(k->q, &k->qcap, k->nq + 1, sizeof(*k->q));
	k->q[k->nq].fd = fd;
	k->q[k->nq].counted = counted;
	k->q[k->nq++].dest = xstrdup(dest);
	pthread_cond_signal(&k->more);
	pthread_mutex_unlock(&k->mu);
}

/* Whether bid was looked at before; it is from now on. */
static int seen(struct keep *k, const unsigned char *bid, size_t bid_len)
{
	for (size_t i = 0; i < k->nseen; i++)
		if (k->seen[i][0] == bid_len && !memcmp(k->seen[i] + 1, bid, bid_len))
			return 1;
	if (k->nseen == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 32;
		k->seen = xreallocarray(k->seen, k->cap, sizeof(*k->seen));
	}
	k->seen[k->nseen][0] = (unsigned char)bid_len;
	memcpy(k->seen[k->nseen++] + 1, bid, bid_len);
	return 0;
}

/*
 * The vDSO of build id bid, kept as perf keeps it, .build-id/ab/cdef.../vdso:
 * this kernel's image (vdso.h), which is what a native [vdso] map has.
 */
static void keep_vdso(struct keep *k, const unsigned char *bid, size_t bid_len)
{
	const struct vdso_image *v = vdso_own();
	char dest[PATH_MAX];
	int fd;

	if (seen(k, bid, bid_len) || !v || v->id_len != bid_len || memcmp(v->id, bid, bid_len) ||
	    buildid_path(dest, sizeof(dest), k->dir, bid, bid_len, "/vdso") ||
	    access(dest, F_OK) == 0)	/* kept before, by prof or perf */
		return;
	fd = open(v->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		queue_copy(k, fd, dest, 0);
}

void keep_mapping(struct keep *k, int pid, uint64_t start, uint64_t len, const char *name,
		  size_t name_len, const unsigned char *bid, size_t bid_len)
{
	char path[PATH_MAX], dest[PATH_MAX];
	struct stat at_path, mapped;
	int fd;

	if (!k || !bid || !bid_len || bid_len > BID_MAX || !name_len || name_len >= sizeof(path))
		return;
	if (vdso_is_native(name, name_len, start)) {
		keep_vdso(k, bid, bid_len);
		return;
	}
	if (name[0] != '/' || !strncmp(name, "//", 2) || !strncmp(name, "/memfd:", 7))
		return;
	if (seen(k, bid, bid_len))
		return;	/* looked at already, kept or not */
	memcpy(path, name, name_len);
	path[name_len] = '\0';
	fd = mapfile_open(pid, start, start + len, path, 0, 0, 0, bid, bid_len);
	if (fd < 0)
		return;		/* gone already, or not ours to read */
	/* the file at its path is the one mapped: a report will find it there */
	if (fstat(fd, &mapped) < 0 || !S_ISREG(mapped.st_mode) ||
	    (uint64_t)mapped.st_size > KEEP_MAX ||
	    (stat(path, &at_path) == 0 && at_path.st_dev == mapped.st_dev &&
	     at_path.st_ino == mapped.st_ino) ||
	    buildid_path(dest, sizeof(dest), k->dir, bid, bid_len, "/elf") ||
	    access(dest, F_OK) == 0) {	/* kept before, by prof or perf */
		close(fd);
		return;
	}
	queue_copy(k, fd, dest, 1);	/* the worker's now */
}

int keep_filter(void *ctx, struct rec *r)
{
	const struct mmap_event *m = &r->k.mmap;

	if (r->ok && (m->prot & PROT_EXEC) && (r->h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
		keep_mapping(ctx, (int)m->pid, m->start, m->len, m->name, m->name_len,
			     m->build_id, m->build_id_len);
	return REC_KEEP;
}
