// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The finders (report/model/finders.h) alone, on files made here: a
 * recorded path is found under the symfs, else at itself, and with
 * --strict-symfs never outside the symfs, not through a link; a build id
 * is looked for in the chain's order (the symfs's debug directory before
 * the host's build-id cache), and the strict chain never leaves the
 * symfs; libdwfl's path has the symfs's debug directory first; a chain
 * of the caller's own is asked as given; a held file is found by its
 * device and inode.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"
#include "finders.h"
#include "tap.h"

static char top[256];

static void mkfile(const char *path)
{
	char dir[PATH_MAX], *slash;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs("x", f);
		fclose(f);
	}
}

struct tried {
	int n, accept_at;
	char path[8][PATH_MAX];
};

static int try(void *ctx, const char *path)
{
	struct tried *t = ctx;

	if (t->n < 8)
		snprintf(t->path[t->n], sizeof(t->path[0]), "%s", path);
	return ++t->n == t->accept_at;
}

static int ends(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

int main(void)
{
	static const unsigned char id[20] = { 0xab, 0xcd, 0xef, 1, 2, 3, 4, 5, 6, 7,
					      8, 9, 10, 11, 12, 13, 14, 15, 16, 17 };
	char symfs[512], cache[512], p[PATH_MAX], link[PATH_MAX];
	struct finders *f;
	struct tried t;
	char *at;
	struct stat st;
	struct file_id fid;

	snprintf(top, sizeof(top), "%s/test-finders.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(top)) {
		printf("1..0 # SKIP no temporary directory\n");
		return 0;
	}
	snprintf(symfs, sizeof(symfs), "%s/root", top);
	snprintf(cache, sizeof(cache), "%s/cache", top);
	setenv("PERF_BUILDID_DIR", cache, 1);
	snprintf(p, sizeof(p), "%s/usr/lib/x.so", symfs);
	mkfile(p);
	snprintf(p, sizeof(p), "%s/usr/lib/debug/.build-id/ab/cdef0102030405060708090a0b0c0d0e0f1011.debug", symfs);
	mkfile(p);
	snprintf(p, sizeof(p), "%s/.build-id/ab/cdef0102030405060708090a0b0c0d0e0f1011/elf", cache);
	mkfile(p);
	snprintf(p, sizeof(p), "%s/usr/lib/out.so", symfs);
	symlink("/etc/hostname", p);

	f = finders_new(NULL, 0);
	at = finders_locate(f, "/usr/lib/x.so");
	ok(!strcmp(at, "/usr/lib/x.so"), "no symfs: the path itself (%s)", at);
	free(at);
	ok(finders_debuginfo_path(f) == NULL, "and libdwfl's own search path");
	finders_free(f);

	f = finders_new(symfs, 0);
	ok(f && !strcmp(finders_symfs(f), symfs), "a symfs, absolute");
	at = finders_locate(f, "/usr/lib/x.so");
	snprintf(p, sizeof(p), "%s/usr/lib/x.so", symfs);
	ok(!strcmp(at, p), "a path under the symfs is found there");
	free(at);
	at = finders_locate(f, "/usr/lib/y.so");
	ok(!strcmp(at, "/usr/lib/y.so"), "one not there: the host's path (%s)", at);
	free(at);
	snprintf(p, sizeof(p), ":.debug:%s/usr/lib/debug:/usr/lib/debug", symfs);
	ok(!strcmp(finders_debuginfo_path(f), p), "libdwfl looks in the symfs's debug directory first");
	memset(&t, 0, sizeof(t));
	t.accept_at = 2;
	ok(finders_by_build_id(f, id, 20, try, &t) == 1 && t.n == 2, "a build id: two files, the second taken (%d)", t.n);
	ok(t.n >= 2 && ends(t.path[0], ".debug") && !strncmp(t.path[0], symfs, strlen(symfs)) &&
	   ends(t.path[1], "/elf") && !strncmp(t.path[1], cache, strlen(cache)),
	   "the symfs's debug directory, then the host's build-id cache");
	ok(finders_debug_by_id(f, id, 20, p, sizeof(p)) == 0 && !strncmp(p, symfs, strlen(symfs)),
	   "the first debug directory is the symfs's");
	finders_free(f);

	f = finders_new(symfs, 1);
	at = finders_locate(f, "/usr/lib/y.so");
	snprintf(p, sizeof(p), "%s/usr/lib/y.so", symfs);
	ok(!strcmp(at, p), "strict: a path not there is still under the symfs");
	free(at);
	at = finders_locate(f, "/usr/lib/out.so");
	ok(ends(at, "(outside --symfs)"), "strict: a link out of the symfs is said so (%s)", at);
	ok(stat(at, &st) < 0, "and cannot be opened");
	free(at);
	at = finders_locate(f, "/usr/lib/../../../../../../../../../../etc/hostname");
	ok(ends(at, "(outside --symfs)"), "nor can a path whose .. leads out");
	free(at);
	memset(&t, 0, sizeof(t));
	ok(finders_by_build_id(f, id, 20, try, &t) == 0 && t.n == 1 &&
	   !strncmp(t.path[0], symfs, strlen(symfs)), "strict: only the symfs's files are tried (%d)", t.n);
	snprintf(p, sizeof(p), ":.debug:%s/usr/lib/debug", symfs);
	ok(!strcmp(finders_debuginfo_path(f), p), "and libdwfl's path has no host directory");
	ok(!finders_debug_cache(f), "nor the cache of inflated debug files");
	finders_free(f);

	/* a chain of the caller's own: the host only, whatever the symfs */
	f = finders_empty(symfs, 0);
	finders_add(f, FIND_HOST, NULL);
	at = finders_locate(f, "/usr/lib/x.so");
	ok(!strcmp(at, "/usr/lib/x.so"), "a chain of its own: asked as given (%s)", at);
	free(at);
	memset(&t, 0, sizeof(t));
	ok(finders_by_build_id(f, id, 20, try, &t) == 0 && t.n == 0, "no build-id place in it: none tried");
	/* held files */
	ok(!finders_holding(f), "no hold directory");
	snprintf(p, sizeof(p), "%s/usr/lib/x.so", symfs);
	stat(p, &st);
	finders_hold_dir(f, top);
	snprintf(link, sizeof(link), "%s/%u-%u-%llu", top, 8u, 1u, (unsigned long long)st.st_ino);
	symlink(p, link);
	ok(finders_holding(f) &&
	   finders_held(f, 8, 1, st.st_ino, p, sizeof(p), &fid) == 0 && !strcmp(p, link),
	   "a held file by device and inode");
	ok(finders_held(f, 8, 1, st.st_ino + 1, p, sizeof(p), &fid) < 0, "none for another inode");
	finders_free(f);

	snprintf(p, sizeof(p), "%s/usr/lib/x.so", symfs);
	errno = 0;
	ok(finders_new(p, 0) == NULL && errno == ENOTDIR, "a symfs that is a file: ENOTDIR");

	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		if (system(cmd))
			printf("# could not remove %s\n", top);
	}
	return tap_done();
}
