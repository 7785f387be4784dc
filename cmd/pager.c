// SPDX-License-Identifier: GPL-2.0-or-later
/* Standard output through a pager: see pager.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"

static pid_t pager_pid;

/* Whether prog is an executable file in $PATH. */
static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		size_t n = strcspn(path, ":");
		struct stat st;

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (n && stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

int pager_start(void)
{
	const char *pager = getenv("PROF_PAGER");
	int fds[2];
	pid_t pid;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager) {
		if (!in_path("less"))
			return 0;
		pager = "less";
	}
	if (!*pager || !strcmp(pager, "cat"))
		return 0;
	fflush(stdout);
	if (pipe(fds))
		return 0;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", "FRX", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		fprintf(stderr, "prof: cannot run the pager '%s': %s\n", pager, strerror(errno));
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	close(fds[0]);
	close(fds[1]);
	pager_pid = pid;
	return 1;
}

void pager_end(void)
{
	if (!pager_pid)
		return;
	fflush(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}
