// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The finders (finders.h): where a recorded path's file, a build id's
 * file and a live process's held file are.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#ifdef HAVE_DEBUGINFOD
#include <elfutils/debuginfod.h>
#endif
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"
#include "dynlib.h"
#include "finders.h"
#include "xalloc.h"

#define FINDERS_MAX 16

struct finder {
	enum find_place place;
	char *root;		/* "" for / */
};

struct finders {
	char *symfs;		/* absolute, no trailing '/'; NULL for / */
	int strict;
	struct finder f[FINDERS_MAX];
	int n;
	char *debuginfo_path;	/* libdwfl's search path; NULL: its default */
	char *hold_dir;		/* finders_hold_dir(); NULL: none */
};

struct finders *finders_empty(const char *symfs, int strict)
{
	struct finders *f = xcalloc(1, sizeof(*f));
	struct stat st;

	f->strict = strict;
	if (symfs && symfs[0]) {
		f->symfs = realpath(symfs, NULL);
		if (!f->symfs || stat(f->symfs, &st) < 0)
			goto fail;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
		if (!strcmp(f->symfs, "/")) {
			free(f->symfs);
			f->symfs = NULL;
		}
	}
	/*
	 * libdwfl's default path, with the symfs's debug directory first. An
	 * absolute element is searched by build id, and by debug link with
	 * the file's directory and each of its suffixes below it, so
	 * SYMFS/usr/lib/debug/usr/lib serves SYMFS/usr/lib. ':' separates
	 * elements, so a symfs holding one cannot be an element. With
	 * strict, the host's /usr/lib/debug is no element either.
	 */
	if (f->symfs && !strchr(f->symfs, ':')) {
		size_t n = strlen(f->symfs) + sizeof(":.debug:/usr/lib/debug:/usr/lib/debug");

		f->debuginfo_path = xmalloc(n);
		snprintf(f->debuginfo_path, n, ":.debug:%s/usr/lib/debug%s", f->symfs,
			 strict ? "" : ":/usr/lib/debug");
	} else if (f->symfs && strict) {
		f->debuginfo_path = xstrdup(":.debug");
	}
	return f;

fail:
	{
		int e = errno;

		free(f->symfs);
		free(f);
		errno = e;
	}
	return NULL;
}

void finders_add(struct finders *f, enum find_place place, const char *root)
{
	if (f->n == FINDERS_MAX)
		return;
	f->f[f->n].place = place;
	f->f[f->n++].root = xstrdup(root ? root : "");
}

struct finders *finders_new(const char *symfs, int strict)
{
	struct finders *f = finders_empty(symfs, strict);

	if (!f)
		return NULL;
	if (f->symfs)
		finders_add(f, FIND_SYMFS, f->symfs);
	if (!f->symfs || !strict)
		finders_add(f, FIND_HOST, NULL);
	if (f->symfs) {
		finders_add(f, FIND_BUILDID_CACHE, f->symfs);
		finders_add(f, FIND_DEBUG_DIR, f->symfs);
	}
	if (!strict) {
		finders_add(f, FIND_BUILDID_CACHE, NULL);
		finders_add(f, FIND_DEBUG_DIR, NULL);
	}
	if (!strict)
		finders_add(f, FIND_DEBUGINFOD, NULL);
	return f;
}

void finders_free(struct finders *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->n; i++)
		free(f->f[i].root);
	free(f->symfs);
	free(f->debuginfo_path);
	free(f->hold_dir);
	free(f);
}

const char *finders_symfs(const struct finders *f)
{
	return f->symfs;
}

int finders_strict(const struct finders *f)
{
	return f->strict;
}

const char *finders_debuginfo_path(const struct finders *f)
{
	return f->debuginfo_path;
}

int finders_debug_cache(const struct finders *f)
{
	return !f->strict;
}

/*
 * path under root, where it is (ENOENT and ENOTDIR: not there); strict:
 * whatever is there, or a name saying it is outside root when a link or
 * ".." leads out (realpath decides), which no open finds.
 */
static char *under_root(const char *root, const char *path, int strict)
{
	size_t n = strlen(root) + strlen(path) + 1, len;
	char *under = xmalloc(n), *real;
	struct stat st;

	snprintf(under, n, "%s%s", root, path);
	if (!strict) {
		if (stat(under, &st) < 0 && (errno == ENOENT || errno == ENOTDIR)) {
			free(under);
			return NULL;
		}
		return under;
	}
	real = realpath(under, NULL);
	len = strlen(root);
	if (real && !(strncmp(real, root, len) == 0 && real[len] == '/')) {
		/* out of the symfs: a name that cannot be opened, said as such */
		free(real);
		n = strlen(under) + sizeof(" (outside --symfs)");
		real = xmalloc(n);
		snprintf(real, n, "%s (outside --symfs)", under);
		free(under);
		return real;
	}
	free(real);
	return under;
}

char *finders_locate(const struct finders *f, const char *path)
{
	for (int i = 0; i < f->n; i++) {
		char *at;

		switch (f->f[i].place) {
		case FIND_SYMFS:
			if ((at = under_root(f->f[i].root, path, f->strict)))
				return at;
			break;
		case FIND_HOST:
			return xstrdup(path);
		default:
			break;
		}
	}
	/* nowhere in the chain: the path as recorded, which says what is missing */
	return xstrdup(path);
}

size_t finders_build_id_len(const unsigned char *id, size_t len)
{
	while (len > 20 && !id[len - 1])
		len--;
	return len;
}

/* Whether path is a regular file (through links). */
static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

#ifdef HAVE_DEBUGINFOD
/*
 * libdebuginfod, opened when DEBUGINFOD_URLS first asks for it (dynlib.h):
 * linked, it brings libcurl-gnutls and 25 more libraries to every start
 * of prof, for a server few set. libdw opens it too, and is refused it
 * the same way until DEBUGINFOD_URLS is set (dynlib.c).
 */
struct dfd {
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_find_executable) *find_executable;
	__typeof__(debuginfod_end) *end;
};

static struct dfd dfd;
static const char *const dfd_names[] = {
	"debuginfod_begin", "debuginfod_find_executable", "debuginfod_end",
};
_Static_assert(sizeof(dfd) == sizeof(dfd_names) / sizeof(dfd_names[0]) * sizeof(void *),
	       "a name for each of libdebuginfod's functions");
static int dfd_ok;
static pthread_once_t dfd_once = PTHREAD_ONCE_INIT;

/* Once: a missing library is said once, not for every file it would look for. */
static void dfd_open(void)
{
	char err[256];

	dfd_ok = dynlib_open("libdebuginfod.so.1", "libdebuginfod1", dfd_names, &dfd,
			     sizeof(dfd_names) / sizeof(dfd_names[0]), err, sizeof(err)) == 0;
	if (!dfd_ok)
		fprintf(stderr, "prof: DEBUGINFOD_URLS is set, but %s\n", err);
}

static const struct dfd *dfd_lib(void)
{
	pthread_once(&dfd_once, dfd_open);
	return dfd_ok ? &dfd : NULL;
}

/* The servers of $DEBUGINFOD_URLS, as perf and gdb ask them. */
static int by_debuginfod(const unsigned char *id, size_t len,
			 int (*try)(void *ctx, const char *path), void *ctx)
{
	const struct dfd *d;
	debuginfod_client *c;
	char *got = NULL;
	int fd, ok = 0;

	if (!dynlib_debuginfod_wanted() || !(d = dfd_lib()) || !(c = d->begin()))
		return 0;
	fd = d->find_executable(c, id, (int)len, &got);
	d->end(c);
	if (fd >= 0) {
		close(fd);
		ok = try(ctx, got);
	}
	free(got);
	return ok;
}
#endif

int finders_by_build_id(const struct finders *f, const unsigned char *id, size_t len,
			int (*try)(void *ctx, const char *path), void *ctx)
{
	char path[PATH_MAX], cache[PATH_MAX], dir[2 * PATH_MAX];

	len = finders_build_id_len(id, len);
	if (len < 2)
		return 0;
	if (buildid_cache_dir(cache, sizeof(cache)))
		cache[0] = '\0';
	for (int i = 0; i < f->n; i++) {
		const struct finder *fi = &f->f[i];

		switch (fi->place) {
		case FIND_BUILDID_CACHE: {
			/*
			 * perf's: .build-id/ab/cdef.../elf, .../vdso for a vDSO, or the older
			 * .build-id/ab/cdef... itself
			 */
			static const char *const tails[3] = { "/elf", "/vdso", "" };

			if (!cache[0])
				break;
			snprintf(dir, sizeof(dir), "%s%s", fi->root, cache);
			for (int k = 0; k < 3; k++)
				if (!buildid_path(path, sizeof(path), dir, id, len, tails[k]) &&
				    is_file(path) && try(ctx, path))
					return 1;
			break;
		}
		case FIND_DEBUG_DIR:
			/* names functions, though it holds no code */
			snprintf(dir, sizeof(dir), "%s/usr/lib/debug", fi->root);
			if (!buildid_path(path, sizeof(path), dir, id, len, ".debug") &&
			    is_file(path) && try(ctx, path))
				return 1;
			break;
		case FIND_DEBUGINFOD:
#ifdef HAVE_DEBUGINFOD
			if (by_debuginfod(id, len, try, ctx))
				return 1;
#endif
			break;
		default:
			break;
		}
	}
	return 0;
}

int finders_debug_by_id(const struct finders *f, const unsigned char *id, size_t len,
			char *path, size_t size)
{
	char dir[PATH_MAX];

	for (int i = 0; i < f->n; i++)
		if (f->f[i].place == FIND_DEBUG_DIR) {
			snprintf(dir, sizeof(dir), "%s/usr/lib/debug", f->f[i].root);
			return buildid_path(path, size, dir, id, len, ".debug");
		}
	/* none in the chain: the symfs's, as libdwfl's path has it */
	snprintf(dir, sizeof(dir), "%s/usr/lib/debug", f->symfs ? f->symfs : "");
	return buildid_path(path, size, dir, id, len, ".debug");
}

void finders_hold_dir(struct finders *f, const char *dir)
{
	free(f->hold_dir);
	f->hold_dir = dir ? xstrdup(dir) : NULL;
}

int finders_holding(const struct finders *f)
{
	return f->hold_dir != NULL;
}

int finders_held(const struct finders *f, unsigned maj, unsigned min, uint64_t ino, char *link,
		 size_t len, struct file_id *id)
{
	if (!f->hold_dir || !ino)
		return -1;
	snprintf(link, len, "%s/%u-%u-%" PRIu64, f->hold_dir, maj, min, ino);
	return file_id_of(link, id) == 0 && id->ino == ino ? 0 : -1;
}
