// SPDX-License-Identifier: GPL-2.0-or-later
/* -G: events of one cgroup. See cgroup.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "evopen.h"
#include "opt.h"
#include "xalloc.h"

int cgroup2_root(char *buf, size_t size)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *m;
	int ret = -1;

	while (f && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup2") && strlen(m->mnt_dir) < size) {
			strcpy(buf, m->mnt_dir);
			ret = 0;
			break;
		}
	if (f)
		endmntent(f);
	return ret;
}

int cgroup_samples(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_DUMMY, .disabled = 1,
				     .sample_type = PERF_SAMPLE_CGROUP, .cgroup = 1 };
	char root[PATH_MAX];
	int fd;

	if (cgroup2_root(root, sizeof(root)))
		return 0;
	fd = evopen_fd(&a, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int cgroup_open(const char *name, char *err, size_t len)
{
	char root[PATH_MAX], path[PATH_MAX];
	int fd;

	if (strstr(name, "..") || strchr(name, '\n'))
		return opt_fail(err, len, "-G %s: not a cgroup's name", name);
	if (cgroup2_root(root, sizeof(root)))
		return opt_fail(err, len, "-G %s: no cgroup2 hierarchy is mounted (/proc/self/mounts); "
				"-G counts in the unified hierarchy's cgroups", name);
	while (*name == '/')
		name++;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, name) >= sizeof(path))
		return opt_fail(err, len, "-G %s: the name is too long", name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return opt_fail(err, len, "-G %s: no cgroup %s (%s); the cgroups are the "
				"directories under %s", name, path, strerror(errno), root);
	return fd;
}

int cgroup_assign(const char *list, size_t n, char **out, char *err, size_t len)
{
	char *copy = xstrdup(list), *save = copy, *item;
	size_t at = 0, given = 0;
	int single = !strchr(list, ',');

	if (!*list) {
		free(copy);
		return opt_fail(err, len, "-G: give a cgroup's name (as under /sys/fs/cgroup)");
	}
	if (!n) {
		free(copy);
		return opt_fail(err, len, "-G %s: a cgroup is an event's: give -e before -G", list);
	}
	while ((item = strsep(&save, ",")) != NULL) {
		while (at < n && out[at])
			at++;
		if (at == n && !single) {
			free(copy);
			return opt_fail(err, len, "-G %s: more cgroups than events without one", list);
		}
		if (single) {
			/* one cgroup: every event before it that has none */
			for (size_t i = 0; i < n; i++)
				if (!out[i])
					out[i] = xstrdup(item), given++;
			break;
		}
		/* an empty name: this event counts everywhere (a marker, freed by the caller) */
		out[at++] = xstrdup(*item ? item : "");
		given++;
	}
	free(copy);
	if (!given)
		return opt_fail(err, len, "-G %s: every event has a cgroup already", list);
	return 0;
}

int cgroup_id(const char *path, uint64_t *id)
{
	struct {
		struct file_handle fh;
		unsigned char bytes[16];
	} h;
	int mount_id;

	/* kernfs's file handle of a cgroup2 directory is its 64-bit id (as perf reads it) */
	memset(&h, 0, sizeof(h));
	h.fh.handle_bytes = sizeof(h.bytes);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) || h.fh.handle_bytes < 8)
		return -1;
	memcpy(id, h.fh.f_handle, 8);
	return 0;
}
