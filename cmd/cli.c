// SPDX-License-Identifier: GPL-2.0-or-later
/* What the commands that read a profile say alike about their command line. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "file.h"
#include "reader.h"

struct reader *cli_open_input(const char *path)
{
	struct reader *r = reader_open(path);
	char why[4352];

	if (!r) {
		reader_open_why(path, errno, why, sizeof(why));
		fprintf(stderr, "prof: %s\n", why);
	}
	return r;
}

FILE *cli_create_output(const char *path, char **tmp)
{
	int err, fd = file_create(path, 0600, tmp, &err);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		fprintf(stderr, "prof: cannot write '%s': %s\n", path,
			fd < 0 ? file_create_strerror(err) : strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

int cli_commit_output(char *tmp, const char *path, int status)
{
	int err;

	if (tmp && file_commit(tmp, path, !status, &err)) {
		fprintf(stderr, "prof: cannot write '%s': %s\n", path, strerror(err));
		return 1;
	}
	return status;
}
