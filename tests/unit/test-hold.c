// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files a live recorder holds for its reader (record/hold.h): each
 * file mapped gets a link by device and inode; past HOLD_MAX files the
 * one held longest without a new map goes, and the newest is held (it
 * was refused: a host running more than HOLD_MAX programs within
 * HOLD_NS left the newest unnamed once deleted). A file mapped again is
 * held on, and hold_expire() lets go of those past HOLD_NS.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "hold.h"
#include "tap.h"

#define NFILES (HOLD_MAX + 40)

static char dir[] = "/tmp/test-hold.XXXXXX";

/* Whether the hold has a link for st's file. */
static int linked(const struct stat *st)
{
	char link[PATH_MAX];
	struct stat ls;

	snprintf(link, sizeof(link), "%s/held/%u-%u-%llu", dir, major(st->st_dev), minor(st->st_dev),
		 (unsigned long long)st->st_ino);
	return stat(link, &ls) == 0 && ls.st_ino == st->st_ino;
}

static size_t nlinks(void)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *e;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/held", dir);
	d = opendir(path);
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void hold(struct hold *h, const char *path, const struct stat *st, uint64_t now)
{
	hold_mapping(h, (int)getpid(), 0x400000, 0x1000, path, strlen(path), major(st->st_dev),
		     minor(st->st_dev), st->st_ino, now);
}

int main(void)
{
	static struct stat st[NFILES];
	char path[PATH_MAX], held[PATH_MAX];
	struct hold *h;
	int made = 1, first = 1, newest, again, oldest_gone;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	snprintf(held, sizeof(held), "%s/held", dir);
	if (mkdir(held, 0700) || !(h = hold_new(held))) {
		ok(0, "a hold in %s", held);
		return tap_done();
	}
	for (int i = 0; i < NFILES && made; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/prog%d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0700);
		made = fd >= 0 && write(fd, "\177ELF", 4) == 4 && fstat(fd, &st[i]) == 0;
		if (fd >= 0)
			close(fd);
		if (made)
			hold(h, path, &st[i], 1000 + (uint64_t)i);
		if (i == 0)
			first = made && linked(&st[0]);
	}
	ok(made && first, "%d files made, the first held", NFILES);
	/* the first mapped again after all: held on, so the second is the one held longest */
	snprintf(path, sizeof(path), "%s/prog0", dir);
	hold(h, path, &st[0], 5000);
	newest = linked(&st[NFILES - 1]);
	oldest_gone = !linked(&st[1]) && !linked(&st[NFILES - HOLD_MAX]);
	again = linked(&st[0]);
	ok(newest && nlinks() == HOLD_MAX && oldest_gone,
	   "past %d files, the newest held (%d) and the longest held let go (%d): %zu links",
	   HOLD_MAX, newest, oldest_gone, nlinks());
	ok(again, "a file mapped again is held on");
	hold_expire(h, 5000 + HOLD_NS - 1);
	ok(nlinks() == 1 && linked(&st[0]),
	   "past HOLD_NS all go but the one mapped later: %zu links", nlinks());
	hold_expire(h, 5000 + HOLD_NS);
	ok(nlinks() == 0, "then it goes too: %zu links", nlinks());
	hold_free(h);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		printf("# could not remove %s\n", dir);
	return tap_done();
}
