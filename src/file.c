// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening files a profile names: regular files only. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include "file.h"

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
