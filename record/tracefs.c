// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "tracefs.h"
#include "xalloc.h"

/*
 * tracefs where it is mounted: its own mount, else under debugfs. Where it
 * is not, mounted at /sys/kernel/tracing when this user may (root), as
 * perf mounts it (tools/lib/api/fs/fs.c's fs__mount()): a host fresh from
 * boot often has no tracefs until something mounts it.
 */
static const char *tracefs(void)
{
	static const char *const where[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (int tried = 0;; tried = 1) {
		for (size_t i = 0; i < sizeof(where) / sizeof(*where); i++) {
			char p[64];

			snprintf(p, sizeof(p), "%s/events", where[i]);
			if (access(p, F_OK) == 0)
				return where[i];
		}
		if (tried || mount("nodev", where[0], "tracefs", 0, NULL))
			return NULL;
	}
}

/* What tracefs() failing means, and what to do. */
#define NO_TRACEFS "tracefs is not mounted, and cannot be by this user " \
	"(as root: mount -t tracefs nodev /sys/kernel/tracing)"

/* "SYS:NAME" split, checked to be a path of two plain names. */
static int split(const char *name, char *sys, size_t ns, char *ev, size_t ne)
{
	const char *c = strchr(name, ':');

	if (!c || c == name || !c[1] || strchr(c + 1, ':') || (size_t)(c - name) >= ns ||
	    strlen(c + 1) >= ne || strchr(name, '/') || name[0] == '.' || c[1] == '.')
		return -1;
	memcpy(sys, name, (size_t)(c - name));
	sys[c - name] = '\0';
	strcpy(ev, c + 1);
	return 0;
}

static void *read_all(const char *path, size_t *len, int *err)
{
	return file_read_regular(path, (size_t)64 << 20, len, err);
}

char *tracefs_available(size_t *len, char *err, size_t errlen)
{
	const char *t = tracefs();
	char path[128];
	char *data;
	int e = 0;

	if (!t) {
		snprintf(err, errlen, NO_TRACEFS);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/available_events", t);
	data = read_all(path, len, &e);
	if (!data)
		snprintf(err, errlen, "cannot read %s: %s%s", path, strerror(e),
			 e == EACCES ? " (tracefs is root's)" : "");
	return data;
}

int tracefs_event_id(const char *name, uint64_t *id, char *err, size_t errlen)
{
	const char *t = tracefs();
	char sys[128], ev[128], path[512], *data, *end;
	size_t len;
	int e;

	if (split(name, sys, sizeof(sys), ev, sizeof(ev))) {
		snprintf(err, errlen, "-e: '%s' is no event: an event name, or a tracepoint "
			 "SYSTEM:NAME such as sched:sched_switch", name);
		return -1;
	}
	if (!t) {
		snprintf(err, errlen, "-e %s: " NO_TRACEFS, name);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", t, sys, ev);
	data = read_all(path, &len, &e);
	if (!data) {
		if (e == ENOENT)
			snprintf(err, errlen, "-e: no tracepoint '%s' in %s/events; "
				 "'perf list tracepoint' lists them", name, t);
		else
			snprintf(err, errlen, "-e %s: cannot read %s: %s%s", name, path, strerror(e),
				 e == EACCES ? " (tracepoints need root, or a tracefs readable "
				 "by this user)" : "");
		return -1;
	}
	data = xreallocarray(data, len + 1, 1);
	data[len] = '\0';
	errno = 0;
	*id = strtoull(data, &end, 10);
	if (errno || end == data) {
		snprintf(err, errlen, "-e %s: %s holds no id", name, path);
		free(data);
		return -1;
	}
	free(data);
	return 0;
}

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *data, size_t len)
{
	if (b->cap - b->len < len) {
		while (b->cap - b->len < len)
			b->cap = b->cap ? 2 * b->cap : 65536;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void put_u32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

/* A file of tracefs, its size first (a u64, or a u32 with small). */
static int put_file(struct buf *b, const char *path, int small, char *err, size_t errlen)
{
	size_t len;
	int e;
	void *data = read_all(path, &len, &e);

	if (!data) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		return -1;
	}
	if (small)
		put_u32(b, (uint32_t)len);
	else
		put_u64(b, len);
	put(b, data, len);
	free(data);
	return 0;
}

unsigned char *tracefs_tracing_data(const char *const *names, size_t n, size_t *len,
				    char *err, size_t errlen)
{
	const char *t = tracefs();
	struct buf b = { NULL, 0, 0 };
	char path[512];
	uint32_t nsys = 0;
	long page = sysconf(_SC_PAGESIZE);
	unsigned char head[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *sys_of[64];
	size_t nsys_of = 0;

	if (!t) {
		snprintf(err, errlen, NO_TRACEFS);
		return NULL;
	}
	put(&b, head, sizeof(head));
	put(&b, "0.6", 4);
	{
		unsigned char e = 0, l = (unsigned char)sizeof(long);	/* little-endian */
		uint16_t one = 1;

		memcpy(&e, &one, 1);
		e = !e;		/* 1 on a big-endian machine */
		put(&b, &e, 1);
		put(&b, &l, 1);
	}
	put_u32(&b, (uint32_t)page);
	put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", t);
	if (put_file(&b, path, 0, err, errlen))
		goto fail;
	put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", t);
	if (put_file(&b, path, 0, err, errlen))
		goto fail;
	put_u32(&b, 0);		/* ftrace's own formats: none */
	/* the systems, each once, in the order first named */
	for (size_t i = 0; i < n && nsys_of < 64; i++) {
		size_t k = 0;

		while (k < nsys_of && strncmp(sys_of[k], names[i], strcspn(names[i], ":") + 1))
			k++;
		if (k == nsys_of)
			sys_of[nsys_of++] = names[i];
	}
	nsys = (uint32_t)nsys_of;
	put_u32(&b, nsys);
	for (size_t k = 0; k < nsys_of; k++) {
		size_t sl = strcspn(sys_of[k], ":");
		uint32_t nev = 0;
		char sys[128], ev[128];

		for (size_t i = 0; i < n; i++)
			nev += !strncmp(names[i], sys_of[k], sl + 1);
		memcpy(sys, sys_of[k], sl);
		sys[sl] = '\0';
		put(&b, sys, sl + 1);
		put_u32(&b, nev);
		for (size_t i = 0; i < n; i++) {
			if (strncmp(names[i], sys_of[k], sl + 1))
				continue;
			if (split(names[i], sys, sizeof(sys), ev, sizeof(ev))) {
				snprintf(err, errlen, "'%s' is no tracepoint", names[i]);
				goto fail;
			}
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", t, sys, ev);
			if (put_file(&b, path, 0, err, errlen))
				goto fail;
		}
	}
	put_u32(&b, 0);		/* kallsyms: none */
	snprintf(path, sizeof(path), "%s/printk_formats", t);
	if (put_file(&b, path, 1, err, errlen)) {
		put_u32(&b, 0);	/* not readable: none, as perf does without them */
	}
	put_u64(&b, 0);		/* saved cmdlines: none */
	*len = b.len;
	return b.p;
fail:
	free(b.p);
	return NULL;
}

static const char *filter_hint(int err)
{
	if (err == EINVAL)
		return "a field it does not have, or syntax the kernel does not take; its "
		       "fields are in tracefs's events/SYSTEM/NAME/format, the syntax is "
		       "'field == value', with &&, ||, !, <, >, ~ (a glob) and parentheses";
	if (err == ENOMEM || err == ENOSPC)
		return "too long or too complex: make it simpler";
	return "the kernel takes filters on tracepoints alone";
}

int tracefs_set_filter(int fd, const char *filter, const char *event)
{
	int err;

	if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) == 0)
		return 0;
	err = errno;
	fprintf(stderr, "prof: --filter '%s': the kernel refused it for %s (%s): %s\n", filter, event,
		strerror(err), filter_hint(err));
	return -1;
}
