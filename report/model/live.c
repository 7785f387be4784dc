// SPDX-License-Identifier: GPL-2.0-or-later
/* A live source: the recorder as a child, its records fed to a profile. See live.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "live.h"
#include "reader.h"
#include "symbols.h"
#include "xalloc.h"

extern char **environ;

/* Remove what a recorder left in the hold directory open as fd. */
static void empty_hold_dir(int fd)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(fd, e->d_name, 0);
	closedir(d);
}

/*
 * The hold directories in parent that an agent or top killed before its
 * end left (kill -9, an OOM kill): ours (a directory of our user's, not a
 * link), and locked by no one, since each live source holds its own
 * locked (make_hold_dir()) until it removes it, and a lock ends with its
 * process. Each holds links to a dead recorder's descriptors, and a
 * host whose agent is killed now and then would gather them in its
 * tmpfs for good.
 */
static void sweep_hold_dirs(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		struct stat st;
		int fd;

		if (strncmp(e->d_name, "prof-hold-", 10))
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_uid == geteuid() && !flock(fd, LOCK_EX | LOCK_NB)) {
			empty_hold_dir(fd);
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		}
		close(fd);	/* the lock with it */
	}
	if (d)
		closedir(d);
}

/*
 * The directory where the recorder links the files it holds for us
 * (record/hold.h), made once, private: the links reach every executable
 * the host runs. In TMPDIR when set; else in /dev/shm, a tmpfs where a
 * link costs no inode of a disk's filesystem (on a host that builds and
 * deletes programs all day, ext4's search for a free inode past the
 * recently deleted ones cost the agent's recorder 7% of its CPU in
 * /tmp), then /tmp. Without one, nothing is held. Locked while it is
 * ours, so that the next live source can tell one we left if killed
 * (sweep_hold_dirs()); one a sweep removed between our mkdtemp() and our
 * lock has no links left, and we make another.
 */
static void make_hold_dir(struct live *l)
{
	const char *tmp = getenv("TMPDIR");
	const char *dirs[2] = { "/dev/shm", "/tmp" };
	size_t n = 2;

	if (l->hold_dir[0])
		return;
	if (tmp && tmp[0] == '/' && strlen(tmp) < 200)
		dirs[0] = tmp, n = 1;
	for (size_t i = 0; i < n; i++) {
		sweep_hold_dirs(dirs[i]);
		for (int tries = 0; tries < 8; tries++) {
			struct stat st;
			int fd;

			snprintf(l->hold_dir, sizeof(l->hold_dir), "%s/prof-hold-XXXXXX", dirs[i]);
			if (!mkdtemp(l->hold_dir))
				break;
			fd = open(l->hold_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0 && !flock(fd, LOCK_EX) && !fstat(fd, &st) && st.st_nlink > 0) {
				l->hold_lock = fd;
				symbols_hold_dir(l->po->sym, l->hold_dir);
				return;
			}
			if (fd >= 0)
				close(fd);
			rmdir(l->hold_dir);
		}
	}
	l->hold_dir[0] = '\0';
}

/* Remove the hold directory and what a recorder left in it. */
static void remove_hold_dir(struct live *l)
{
	if (!l->hold_dir[0])
		return;
	symbols_hold_dir(l->po->sym, NULL);
	empty_hold_dir(l->hold_lock);
	rmdir(l->hold_dir);
	close(l->hold_lock);
	l->hold_dir[0] = '\0';
}

/* prof CMD --record-child ARGS..., its standard output the pipe. 0 or -1 after a message. */
static int start_child(struct live *l)
{
	char **argv = xcalloc((size_t)l->argc + 3, sizeof(*argv));
	static char prog[] = "prof", child[] = "--record-child";
	char hold_env[320];
	char **envp;
	size_t n = 0, k = 0;
	int fds[2];
	pid_t pid;

	/* our environment, and where the recorder holds files (live_child_opts()) */
	while (environ[n])
		n++;
	envp = xcalloc(n + 2, sizeof(*envp));
	/* and no push credentials: the recorder sends nothing */
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], LIVE_HOLD_ENV "=", sizeof(LIVE_HOLD_ENV)) &&
		    strncmp(environ[i], "PROF_PUSH_TOKEN=", 16) &&
		    strncmp(environ[i], "PROF_PUSH_PASSWORD=", 19))
			envp[k++] = environ[i];
	make_hold_dir(l);
	if (l->hold_dir[0]) {
		snprintf(hold_env, sizeof(hold_env), "%s=%s", LIVE_HOLD_ENV, l->hold_dir);
		envp[k++] = hold_env;
	}

	if (pipe2(fds, O_CLOEXEC)) {
		fprintf(stderr, "prof: %s: pipe: %s\n", l->cmd, strerror(errno));
		free(argv);
		free(envp);
		return -1;
	}
	argv[0] = prog;
	argv[1] = (char *)l->cmd;
	argv[2] = child;
	for (int i = 1; i < l->argc; i++)
		argv[i + 2] = l->argv[i];
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "prof: %s: fork: %s\n", l->cmd, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(argv);
		free(envp);
		return -1;
	}
	if (pid == 0) {
		sigset_t none;

		dup2(fds[1], STDOUT_FILENO);
		/* the recorder holds the hold directory's lock too, until it ends */
		if (l->hold_dir[0])
			fcntl(l->hold_lock, F_SETFD, 0);
		if (l->err_fd >= 0)
			dup2(l->err_fd, STDERR_FILENO);
		/* the thread that started it is the main one: it dies with us */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execve("/proc/self/exe", argv, envp);
		fprintf(stderr, "prof: %s: cannot run the recorder: %s\n", l->cmd, strerror(errno));
		_exit(126);
	}
	close(fds[1]);
	free(argv);
	free(envp);
	l->child = pid;
	l->child_fd = fds[0];
	l->started = mono_s();
	return 0;
}

/* The end of a stream: the rest delivered, the profile closed. Under l->mu. */
static void end_stream(struct live *l)
{
	char err[512];

	if (!l->p || l->ended)
		return;
	if (profile_close(l->p, err, sizeof(err)) && !l->err[0])
		snprintf(l->err, sizeof(l->err), "%s", err);
	l->lost += l->p->info.lost;
	l->ended = 1;
}

/* The reading thread: each record of the pipe fed to the profile, under the lock. */
static void *read_records(void *arg)
{
	struct live *l = arg;
	struct reader *rd = reader_fdopen(l->child_fd);
	struct reader_record rec;
	int ret = 0;

	/* without a reader, the recorder said why, or died: live_reap() sees it */
	while (rd && (ret = reader_next(rd, &rec)) > 0) {
		char err[512];
		int bad;

		pthread_mutex_lock(&l->mu);
		bad = profile_feed(l->p, &rec, err, sizeof(err));
		if (bad)
			snprintf(l->err, sizeof(l->err), "%s", err);
		pthread_mutex_unlock(&l->mu);
		if (bad)
			break;
	}
	pthread_mutex_lock(&l->mu);
	if (ret < 0 && !l->err[0])
		snprintf(l->err, sizeof(l->err), "the recorder's stream is corrupt: %s",
			 reader_error(rd));
	end_stream(l);
	pthread_mutex_unlock(&l->mu);
	reader_free(rd);
	return NULL;
}

int live_start(struct live *l)
{
	char err[512];

	if (!l->mu_made) {
		pthread_mutex_init(&l->mu, NULL);
		l->mu_made = 1;
	}
	/* a profile for this run of the recorder: its stream starts anew */
	if (l->p && !l->ended) {
		pthread_mutex_lock(&l->mu);
		end_stream(l);
		pthread_mutex_unlock(&l->mu);
	}
	profile_free(l->p);
	l->ended = 0;
	l->p = profile_open(l->po, NULL, err, sizeof(err));
	if (!l->p) {
		fprintf(stderr, "prof: %s: %s\n", l->cmd, err);
		return -1;
	}
	if (start_child(l))
		return -1;
	if (pthread_create(&l->reader, NULL, read_records, l)) {
		fprintf(stderr, "prof: %s: cannot start a thread: %s\n", l->cmd, strerror(errno));
		kill(l->child, SIGKILL);
		waitpid(l->child, NULL, 0);
		close(l->child_fd);
		l->child = 0;
		return -1;
	}
	l->reading = 1;
	return 0;
}

static void join_reader(struct live *l)
{
	if (l->reading)
		pthread_join(l->reader, NULL);
	l->reading = 0;
}

int live_reap(struct live *l, int *status)
{
	if (!l->child || waitpid(l->child, status, WNOHANG) != l->child)
		return 0;
	l->child = 0;
	join_reader(l);
	return 1;
}

int live_end(struct live *l)
{
	int status = 0;

	if (l->child) {
		/* a second for it to drain its rings and end; then it is killed */
		double until = mono_s() + 1;
		pid_t got;

		kill(l->child, SIGTERM);
		while ((got = waitpid(l->child, &status, WNOHANG)) == 0 && mono_s() < until) {
			struct timespec ms10 = { 0, 10000000 };

			nanosleep(&ms10, NULL);
		}
		if (got == 0) {
			kill(l->child, SIGKILL);
			while (waitpid(l->child, &status, 0) < 0 && errno == EINTR)
				;
		}
		join_reader(l);
		l->child = 0;
	}
	remove_hold_dir(l);
	return status;
}

struct profile *live_snapshot(struct live *l, char *err, size_t errlen)
{
	if (!l->p)
		return NULL;
	pthread_mutex_lock(&l->mu);
	if (!profile_snapshot(l->p, err, errlen)) {
		pthread_mutex_unlock(&l->mu);
		return NULL;
	}
	return l->p;
}

void live_release(struct live *l, int reset)
{
	if (reset)
		profile_reset(l->p);
	pthread_mutex_unlock(&l->mu);
}

uint64_t live_lost(struct live *l)
{
	uint64_t n;

	if (!l->mu_made)
		return 0;
	pthread_mutex_lock(&l->mu);
	n = l->lost + (l->p && !l->ended ? l->p->info.lost : 0);
	pthread_mutex_unlock(&l->mu);
	return n;
}

void live_free(struct live *l)
{
	profile_free(l->p);
	l->p = NULL;
	if (l->mu_made)
		pthread_mutex_destroy(&l->mu);
	l->mu_made = 0;
}
