// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Targets: starting a command corked so that events can be opened on it
 * before it execs, and reading /proc for the threads of running processes.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse.h"
#include "target.h"
#include "xalloc.h"

static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EACCES;
	if (access(path, X_OK))
		return -errno;
	return 0;
}

int launch_resolve(const char *cmd, char **path)
{
	const char *env = getenv("PATH");
	int first_err = -ENOENT;

	if (!*cmd)
		return -ENOENT;
	if (strchr(cmd, '/')) {
		int ret = check_exec(cmd);

		if (!ret)
			*path = xstrdup(cmd);
		return ret;
	}
	if (!env)
		env = "/usr/local/bin:/usr/bin:/bin";
	while (*env) {
		size_t n = strcspn(env, ":");
		char *p = xmalloc(n + strlen(cmd) + 2);
		int ret;

		if (n)
			sprintf(p, "%.*s/%s", (int)n, env, cmd);
		else
			sprintf(p, "./%s", cmd);
		ret = check_exec(p);
		if (!ret) {
			*path = p;
			return 0;
		}
		/* Like execvp: a file we may not run is reported over "not found". */
		if (ret != -ENOENT && ret != -ENOTDIR && first_err == -ENOENT)
			first_err = ret;
		free(p);
		env += n;
		if (*env == ':')
			env++;
	}
	return first_err;
}

int launch_start(struct launch *l, const char *path, char *const argv[], int stdout_to_err)
{
	int go[2], err[2];
	sigset_t empty;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	l->pid = fork();
	if (l->pid < 0) {
		int e = errno;

		close(go[0]); close(go[1]); close(err[0]); close(err[1]);
		return -e;
	}
	if (l->pid == 0) {
		char c;
		int e;

		/* The command gets the signal state prof was started with. */
		sigemptyset(&empty);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		for (int sig = 1; sig <= SIGRTMAX; sig++)
			if (sigismember(&l->ignored, sig) == 1)
				signal(sig, SIG_IGN);
		sigprocmask(SIG_SETMASK, &empty, NULL);
		close(go[1]);
		close(err[0]);
		/* EOF without a byte means prof gave up: do not run the command. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (stdout_to_err && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(126);
		execv(path, argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(err[1]);
	l->go_fd = go[1];
	l->err_fd = err[0];
	return 0;
}

int launch_release(struct launch *l)
{
	int e = 0;
	ssize_t n;
	char c = 1;

	if (write(l->go_fd, &c, 1) != 1)
		e = errno;
	close(l->go_fd);
	l->go_fd = -1;
	do
		n = read(l->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(l->err_fd);
	l->err_fd = -1;
	return n == sizeof(e) ? e : 0;
}

void launch_abort(struct launch *l)
{
	if (l->go_fd >= 0)
		close(l->go_fd);
	if (l->err_fd >= 0)
		close(l->err_fd);
	l->go_fd = l->err_fd = -1;
	if (l->pid > 0) {
		kill(l->pid, SIGKILL);
		waitpid(l->pid, NULL, 0);
	}
}

int target_threads(int pid, int **tids, int *nr)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int *v = NULL, n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		uint64_t tid;

		if (parse_u64(de->d_name, 1, INT_MAX, &tid))
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n++] = (int)tid;
	}
	closedir(d);
	if (!n) {
		free(v);
		return -ESRCH;
	}
	*tids = v;
	*nr = n;
	return 0;
}

int target_alive(int tgid, int tid)
{
	char path[64], buf[512];
	ssize_t n;
	int fd;
	char *p;

	if (tgid > 0)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", tgid, tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "pid (comm) S ...": the comm may hold anything, so look after its last ')'. */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return 0;
	return p[2] != 'Z' && p[2] != 'X' && p[2] != 'x';
}
