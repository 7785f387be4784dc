// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening files a profile names: regular files only. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "file.h"
#include "xalloc.h"

int file_open_regular(const char *path, int *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		*err = errno;
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*err = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
		close(fd);
		return -1;
	}
	return fd;
}

void *file_read_fd(int fd, size_t max, size_t *len, int *err)
{
	size_t cap = 65536, n = 0;
	struct stat st;
	off_t at;
	char *buf;

	/*
	 * A regular file's size is known: room for what is left of it and a
	 * byte, to see its end, not a buffer that doubles from 64 KiB (a
	 * 4 MiB file was copied six times so, into fresh pages each time).
	 * Not for one that tells no size (procfs, tracefs: 0 bytes).
	 */
	if (max && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (at = lseek(fd, 0, SEEK_CUR)) >= 0 && st.st_size > at) {
		uint64_t left = (uint64_t)(st.st_size - at) + 1;

		cap = left < max ? (size_t)left : max;
	}
	buf = xmalloc(cap);

	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap >= max) {
				*err = EFBIG;
				free(buf);
				return NULL;
			}
			cap = cap * 2 < max ? cap * 2 : max;
			buf = xreallocarray(buf, cap, 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = errno;
			free(buf);
			return NULL;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	*len = n;
	return buf;
}

void *file_read_regular(const char *path, size_t max, size_t *len, int *err)
{
	int fd = file_open_regular(path, err);
	void *buf;

	if (fd < 0)
		return NULL;
	buf = file_read_fd(fd, max, len, err);
	close(fd);
	return buf;
}

/* A new file beside path, made with O_EXCL: its name in *tmp. */
static int create_beside(const char *path, int mode, char **tmp, int *err)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t n = strlen(path) + sizeof("/.prof-XXXXXX");
	char *name = xmalloc(n);
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	snprintf(name, n, "%.*s.%s.XXXXXX", (int)dirlen, path, slash ? slash + 1 : path);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0 || fchmod(fd, (mode_t)mode & ~mask) < 0) {
		*err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(name);
		}
		free(name);
		return -1;
	}
	*tmp = name;
	return fd;
}

int file_create(const char *path, int mode, char **tmp, int *err)
{
	struct stat st;
	int fd;

	if (tmp)
		*tmp = NULL;
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT) {
			*err = errno;
			return -1;
		}
		if (tmp)
			return create_beside(path, mode, tmp, err);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0)
			*err = errno;
		return fd;
	}
	if (S_ISDIR(st.st_mode)) {
		*err = EISDIR;
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		if (tmp)
			return create_beside(path, mode, tmp, err);
		*err = EEXIST;
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid() && st.st_uid != 0) {
			*err = ELOOP;
			return -1;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
		if (fd < 0)
			*err = errno;
		return fd;
	}
	/* FIFO, device, socket: nothing to create or truncate */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	if (fstat(fd, &st) < 0 || S_ISREG(st.st_mode)) {
		*err = S_ISREG(st.st_mode) ? EEXIST : errno;	/* a file swapped in since lstat */
		close(fd);
		return -1;
	}
	return fd;
}

int file_commit(const char *tmp, const char *path, int ok, int *err)
{
	if (!tmp)
		return 0;
	if (ok && rename(tmp, path) == 0)
		return 0;
	*err = ok ? errno : 0;
	unlink(tmp);
	return ok ? -1 : 0;
}

/*
 * The most file_put() writes at once. The page cache keeps what one
 * write() brought in as folios as large as the write (ext4, 6.x), and a
 * fault on a mapping of the file maps the whole folio: a 4.8 MB kallsyms
 * cache written at once was all resident after 20 look-ups in it, where
 * written 64 KiB at a time they made 1.3 MB resident, as fault-around does.
 */
#define FILE_PUT_CHUNK ((size_t)64 << 10)

int file_put(const char *path, int mode, const void *buf, size_t len, int *err)
{
	char *tmp = NULL;
	size_t off = 0;
	int fd = file_create(path, mode, &tmp, err), ok;

	if (fd < 0)
		return -1;
	while (off < len) {
		size_t n = len - off < FILE_PUT_CHUNK ? len - off : FILE_PUT_CHUNK;
		ssize_t w = write(fd, (const char *)buf + off, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*err = w < 0 ? errno : EIO;
			break;
		}
		off += (size_t)w;
	}
	ok = off == len;
	if (close(fd) < 0 && ok) {
		*err = errno;
		ok = 0;
	}
	ok = file_commit(tmp, path, ok, err) == 0 && ok;
	free(tmp);
	return ok ? 0 : -1;
}

/* An hour: see file_temp_abandoned(). */
#define TEMP_ABANDONED_SECONDS	3600

int file_temp_abandoned(const char *name, const struct stat *st)
{
	size_t n = strlen(name);

	/* ".NAME.XXXXXX", as create_beside() names them */
	return n >= sizeof(".N.XXXXXX") - 1 && name[0] == '.' && name[n - 7] == '.' &&
	       S_ISREG(st->st_mode) && st->st_mtime < time(NULL) - TEMP_ABANDONED_SECONDS;
}

const char *file_create_strerror(int err)
{
	if (err == ELOOP)
		return "it is a symbolic link that belongs to another user, and prof writes "
		       "through no such link (remove it, or give another name)";
	if (err == EEXIST)
		return "a file appeared there while prof was opening it; it was left alone";
	return strerror(err);
}

/* pagemap entries read at once: 32 MiB of a mapping */
#define PAGEMAP_READ 8192

/*
 * Entries [at, at + k) of the pagemap of the pages from lo into e: 0, or
 * -1 when they cannot be read.
 */
static int pagemap_at(int fd, uintptr_t lo, uintptr_t page, size_t at, size_t k, uint64_t *e)
{
	return pread(fd, e, k * sizeof(*e), (off_t)((lo / page + at) * sizeof(*e))) ==
		       (ssize_t)(k * sizeof(*e))
		       ? 0
		       : -1;
}

size_t file_pages_release(const void *p, size_t len, size_t keep)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo, hi, run;
	size_t n, k, resident = 0, done = 0;
	uint64_t *e;
	int fd;

	if (!p || !len || page - 1 >= (uintptr_t)1 << 20 || (page & (page - 1)))
		return 0;
	lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	hi = ((uintptr_t)p + len) & ~(page - 1);
	if (hi <= lo)
		return 0;
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = (hi - lo) / page;
	e = xreallocarray(NULL, n < PAGEMAP_READ ? n : PAGEMAP_READ, sizeof(*e));
	/* bit 63: present; bit 62: swapped; bit 61: a file page (or shared) */
	for (size_t at = 0; at < n; at += k) {
		k = n - at < PAGEMAP_READ ? n - at : PAGEMAP_READ;
		if (pagemap_at(fd, lo, page, at, k, e))
			goto out;
		for (size_t i = 0; i < k; i++)
			resident += e[i] >> 63 & 1;
	}
	if (resident * page <= keep)
		goto out;
	run = lo;		/* the run of pages to let go starts here */
	for (size_t at = 0; at < n; at += k) {
		k = n - at < PAGEMAP_READ ? n - at : PAGEMAP_READ;
		if (pagemap_at(fd, lo, page, at, k, e))
			goto out;
		for (size_t i = 0; i < k; i++) {
			uintptr_t a = lo + (at + i) * page;

			/*
			 * absent and never swapped (a copy would read as zeros
			 * again), or the file's own page: in the run; a page a
			 * write copied, present or swapped, stays
			 */
			if ((!(e[i] >> 63 & 1) && !(e[i] >> 62 & 1)) || (e[i] >> 63 & 1 && e[i] >> 61 & 1))
				continue;
			if (a > run && !madvise((void *)run, a - run, MADV_DONTNEED))
				done += a - run;
			run = a + page;
		}
	}
	if (hi > run && !madvise((void *)run, hi - run, MADV_DONTNEED))
		done += hi - run;
out:
	free(e);
	close(fd);
	return done;
}

/* Whether user uid (of primary group gid and groups g[0 .. ng)) has permission bit r|w|x (4, 2, 1) on st. */
static int may(const struct stat *st, uid_t uid, gid_t gid, const gid_t *g, int ng, unsigned bit)
{
	if (st->st_uid == uid)
		return !!(st->st_mode & (bit << 6));
	if (st->st_gid == gid)
		return !!(st->st_mode & (bit << 3));
	for (int i = 0; i < ng; i++)
		if (g[i] == st->st_gid)
			return !!(st->st_mode & (bit << 3));
	return !!(st->st_mode & bit);
}

/* Whether path has a POSIX ACL, which its mode bits do not tell all of. */
static int has_acl(const char *path)
{
	return lgetxattr(path, "system.posix_acl_access", NULL, 0) > 0;
}

/*
 * Whether uid could read real (a path with no link in it), into *st the
 * file checked. (uid_t)-1: any user at all (others' bits alone).
 */
static int readable_as(const char *real, uid_t uid, struct stat *checked)
{
	char buf[PATH_MAX], pwbuf[4096];
	struct passwd pw, *res = NULL;
	gid_t groups[256], gid = (gid_t)-1;
	int ng = 0;
	struct stat st;

	if (uid != (uid_t)-1 && !getpwuid_r(uid, &pw, pwbuf, sizeof(pwbuf), &res) && res) {
		ng = 256;
		gid = pw.pw_gid;
		if (getgrouplist(pw.pw_name, pw.pw_gid, groups, &ng) < 0)
			ng = 0;
	}
	/* an ACL may take away what the bits give: not read for another */
	if (stat(real, checked) || has_acl(real) || !may(checked, uid, gid, groups, ng, 4))
		return 0;
	/* and every directory on the way searchable by it */
	snprintf(buf, sizeof(buf), "%s", real);
	for (char *slash = strrchr(buf, '/'); slash; slash = strrchr(buf, '/')) {
		*slash = '\0';
		if (stat(buf[0] ? buf : "/", &st) || has_acl(buf[0] ? buf : "/") ||
		    !may(&st, uid, gid, groups, ng, 1))
			return 0;
		if (!buf[0])
			break;
	}
	return 1;
}

int file_readable_by(const char *path, uid_t uid)
{
	char real[PATH_MAX];
	struct stat st;

	/* only root reads what others cannot; root's own files are root's to show */
	if (geteuid() != 0 || uid == 0)
		return 1;
	return realpath(path, real) && readable_as(real, uid, &st);
}

void *file_read_as(const char *path, uid_t uid, size_t max, size_t *len, int *err)
{
	char real[PATH_MAX];
	struct stat checked, st;
	void *b;
	int fd;

	if (geteuid() != 0 || uid == 0)
		return file_read_regular(path, max, len, err);
	if (!realpath(path, real)) {
		*err = errno;
		return NULL;
	}
	if (!readable_as(real, uid, &checked)) {
		*err = EACCES;
		return NULL;
	}
	fd = file_open_regular(real, err);
	if (fd < 0)
		return NULL;
	/* the file read is the one checked: not one a link swapped in since */
	if (fstat(fd, &st) || st.st_dev != checked.st_dev || st.st_ino != checked.st_ino) {
		close(fd);
		*err = EACCES;
		return NULL;
	}
	b = file_read_fd(fd, max, len, err);
	close(fd);
	return b;
}
