/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `prof record` samples: a command it starts, or processes and threads it finds. */
#ifndef PROF_RECORD_TARGET_H
#define PROF_RECORD_TARGET_H

#include <signal.h>
#include <sys/types.h>

/* A command started corked: forked, waiting on a pipe until released. */
struct launch {
	pid_t pid;
	int go_fd;		/* write end: closing it or writing lets the child exec */
	int err_fd;		/* read end: the child's exec errno, or EOF on success */
	sigset_t ignored;	/* what prof was started ignoring: the command ignores it too */
};

/*
 * Find argv[0] as execvp would. 0 and a new string in *path; -ENOENT when
 * it is nowhere; -EACCES (or the errno of stat) when it exists but cannot
 * be executed.
 */
int launch_resolve(const char *cmd, char **path);

/*
 * Fork a child that restores the default signal mask and SIGPIPE, then
 * waits for launch_release() and execs path with argv. With stdout_to_err
 * its standard output goes to standard error, because ours carries the
 * profile (-o -), as perf does. 0 or -errno.
 */
int launch_start(struct launch *l, const char *path, char *const argv[], int stdout_to_err);
/* Let the child exec. 0 when exec succeeded, else the positive errno of exec. */
int launch_release(struct launch *l);
/* Kill and reap a child that will not be released. */
void launch_abort(struct launch *l);

/*
 * The threads of pid, from /proc/PID/task. 0 and a new array, or -errno
 * (-ESRCH when there is no such process).
 */
int target_threads(int pid, int **tids, int *nr);
/* 1 while pid (or tid, with a thread group tgid > 0) runs and is not a zombie. */
int target_alive(int tgid, int tid);

#endif
