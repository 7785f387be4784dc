// SPDX-License-Identifier: GPL-2.0-or-later
/* prof: the subcommand table, in the manner of git and perf. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "opt.h"
#include "utf8.h"
#include "xalloc.h"


struct cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
	int one_arena;		/* reads a profile: malloc's one arena (see main()) */
};

static int cmd_help(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "record", cmd_record, "run a command, or attach to processes, and sample it", 0 },
	{ "report", cmd_report, "show where the time went: flat and call-graph views", 1 },
	{ "annotate", cmd_annotate, "which source line and instruction of a hot function its samples hit", 1 },
	{ "view", cmd_view, "open a profile as an interactive page in the browser, or serve it", 1 },
	{ "agent", cmd_agent, "profile the host continuously: pprof over HTTP, push to Pyroscope, Parca", 0 },
	{ "top", cmd_top, "the hottest functions now, live: the host, processes or a command", 0 },
	{ "stat", cmd_stat, "count events of a command, processes or CPUs, as perf stat does", 0 },
	{ "list", cmd_list, "the events -e takes: named, cache, PMUs' and tracepoints", 0 },
	{ "diff", cmd_diff, "what changed between two profiles, beyond sampling noise; a CI gate", 1 },
	{ "script", cmd_script, "print every record of a profile, one per line", 1 },
	{ "convert", cmd_convert, "rewrite a profile as perf.data in file mode, for hotspot", 1 },
	{ "archive", cmd_archive, "pack the files a profile needs, by build id, to read it elsewhere", 1 },
	{ "help", cmd_help, "show this list, or the manual of a command", 0 },
};

#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: prof [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NR_CMDS; i++)
		fprintf(out, "   %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(out, "\nSee 'prof help COMMAND' or 'prof COMMAND --help' for more.\n");
}

/* Whether man finds page (man -w), quietly. */
static int man_has(const char *page)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 1;	/* let man itself say */
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execlp("man", "man", "-w", page, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/*
 * The page doc/PAGE.1 beside the running binary, as the build tree has it;
 * found from /proc/self/exe, so that where prof was built is in no binary.
 */
static int build_tree_page(const char *page, char *path, size_t size)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	if ((size_t)snprintf(path, size, "%s/doc/%s.1", exe, page) >= size)
		return 0;
	return access(path, R_OK) == 0;
}

static int cmd_help(int argc, char **argv)
{
	char page[64], path[4200];

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < NR_CMDS; i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		snprintf(page, sizeof(page), "prof-%s", cmds[i].name);
		/* not installed (prof run from its build tree): the page in doc/ beside it */
		if (!man_has(page) && build_tree_page(page, path, sizeof(path)))
			execlp("man", "man", "-l", path, (char *)NULL);
		else
			execlp("man", "man", page, (char *)NULL);
		fprintf(stderr, "prof: cannot run man: %s; try 'prof %s --help'\n",
			strerror(errno), cmds[i].name);
		return 1;
	}
	fprintf(stderr, "prof: '%s' is not a prof command; see 'prof help'\n", argv[1]);
	return EXIT_USAGE;
}

static FILE *real_stderr;

/* The filter's last bytes out, and its state freed, at every exit(). */
static void stderr_close(void)
{
	if (real_stderr && stderr != real_stderr) {
		fclose(stderr);
		stderr = real_stderr;
	}
}

int main(int argc, char **argv)
{
	/*
	 * Messages name what a file named (comms, paths, tracepoints): made
	 * valid UTF-8 with no control byte on their way to the terminal.
	 */
	FILE *err = utf8_filter(stderr);

	if (err) {
		setvbuf(err, NULL, _IOLBF, 0);
		real_stderr = stderr;
		stderr = err;
		atexit(stderr_close);
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v")) {
		printf("prof %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < NR_CMDS; i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		/*
		 * glibc gives each thread that allocates an arena of its own,
		 * and a thread's arena grows by an mprotect() for each few
		 * pages: a small system-wide report made 1,054 of them (3.5% of
		 * its CPU), its resolving thread growing its tables. A report's
		 * threads (reading, resolving, loading files) allocate in turns;
		 * in one arena, which grows by brk() and M_TOP_PAD, it made 12.
		 * The recorder, top and the agent keep an arena a thread, so that
		 * a drain never waits on another thread's malloc(). The one
		 * arena's heap grows in big steps and is kept
		 * (xalloc_report_heap()).
		 */
		if (cmds[i].one_arena) {
			mallopt(M_ARENA_MAX, 1);
			xalloc_report_heap();
		}
		return cmds[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "prof: '%s' is not a prof command; see 'prof help'\n", argv[1]);
	return EXIT_USAGE;
}
