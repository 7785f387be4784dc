// SPDX-License-Identifier: GPL-2.0-or-later
/* This kernel's vDSO as a file: see vdso.h. */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buildid.h"
#include "vdso.h"

#define VDSO_MAX	(1u << 20)	/* a vDSO is a few pages */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct vdso_image image;
static char path[32];
static unsigned char id[20];

/* The length of the map /proc/self/maps names [vdso] at base, or 0. */
static size_t map_len(uint64_t base)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	size_t len = 0;

	if (!f)
		return 0;
	while (!len && fgets(line, sizeof(line), f)) {
		uint64_t start, end;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && start == base &&
		    strstr(line, "[vdso]") && end > start && end - start <= VDSO_MAX)
			len = (size_t)(end - start);
	}
	fclose(f);
	return len;
}

static void load(void)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR);
	size_t len = base ? map_len(base) : 0, done = 0;
	int fd;

	if (!len || (fd = memfd_create("vdso", MFD_CLOEXEC)) < 0)
		return;
	while (done < len) {
		ssize_t n = write(fd, (const char *)(uintptr_t)base + done, len - done);

		if (n <= 0) {
			close(fd);
			return;
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	image.path = path;
	image.id = id;
	image.id_len = buildid_read(fd, id);
}

const struct vdso_image *vdso_own(void)
{
	pthread_once(&once, load);
	return image.path ? &image : NULL;
}

int vdso_named(const char *name, size_t name_len)
{
	return name_len == 6 && !memcmp(name, "[vdso]", 6);
}

int vdso_is_native(const char *name, size_t name_len, uint64_t start)
{
	return sizeof(void *) == 8 && vdso_named(name, name_len) && start >= (1ULL << 32);
}
