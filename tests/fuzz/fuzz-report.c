// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the whole reporter: an input file goes through the
 * reader, the session (threads, maps, ordering, parking), symbols and the
 * DWARF unwinder, every view (flat, children, caller and callee graphs,
 * trees, sort keys) and every format (text, folded, svg, json, pprof, otlp,
 * speedscope, firefox, html), prof annotate, and prof script, raw and symbolized:
 * prof's own commands, as a user runs them, on the input put in a memfd
 * (three commands an input, all of them over the corpus).
 *
 * Files are looked up only under a fixed symfs (--strict-symfs), the
 * directory PROF_FUZZ_SYMFS names: a few small ELF files at the paths the
 * seeds map (run-fuzz.sh and run-fuzz-replay.sh make it), so that inputs
 * exercise symbols and unwinding but read nothing else of the machine.
 * Outputs go to /dev/null. Memory is capped by libFuzzer (-rss_limit_mb):
 * an input that makes the report grow past it is a finding.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "annotate.h"
#include "report.h"
#include "script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Run cmd with argv (NULL-terminated), the input as -i, stdout and stderr to /dev/null. */
static void run(int (*cmd)(int, char **), const char *input, const char *symfs,
		const char *const *args)
{
	char *argv[32];
	int argc = 0, out, err, null;

	argv[argc++] = (char *)(cmd == cmd_report ? "report" : cmd == cmd_annotate ? "annotate"
									    : "script");
	argv[argc++] = (char *)"-i";
	argv[argc++] = (char *)input;
	argv[argc++] = (char *)"--symfs";
	argv[argc++] = (char *)symfs;
	argv[argc++] = (char *)"--strict-symfs";
	for (int i = 0; args[i] && argc < 31; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;

	fflush(stdout);
	fflush(stderr);
	out = dup(STDOUT_FILENO);
	err = dup(STDERR_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (out < 0 || err < 0 || null < 0)
		abort();
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(out);
	close(err);
	close(null);
}

static const char *const views[][12] = {
	{ NULL },
	{ "--children", "-g", "caller", NULL },
	{ "-g", "callee", "--sort", "dso,sym,srcline", NULL },
	{ "--tree", "--max-depth", "40", NULL },
	{ "--tree=bottom-up", "--sort", "pid,tid,cpu", "--percent-limit", "0.5", NULL },
	{ "--no-inline", "--comm", "x", "--time", "0.1,", NULL },
	{ "--format", "folded", "-o", "/dev/null", NULL },
	{ "--format", "svg", "-o", "/dev/null", NULL },
	{ "--format", "json", "-o", "/dev/null", NULL },
	{ "--format", "pprof", "-o", "/dev/null", NULL },
	{ "--format", "otlp", "-o", "/dev/null", NULL },
	{ "--format", "speedscope", "-o", "/dev/null", NULL },
	{ "--format", "firefox", "-o", "/dev/null", NULL },
	{ "--format", "html", "-o", "/dev/null", NULL },
};

/* annotate: every function with samples, disassembled, as text and JSON */
static const char *const annotates[][4] = {
	{ "--percent-limit", "0", NULL },
	{ "--percent-limit", "0", "--json", NULL },
};

static const char *const scripts[][4] = {
	{ NULL },
	{ "--symbols", NULL },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *symfs = getenv("PROF_FUZZ_SYMFS");
	char input[64];
	size_t done = 0;
	int fd = memfd_create("fuzz-report", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			close(fd);
			return 0;
		}
		done += (size_t)n;
	}
	snprintf(input, sizeof(input), "/proc/self/fd/%d", fd);
	if (!symfs || !symfs[0]) {
		static char empty[] = "/tmp/prof-fuzz-symfs.XXXXXX";	/* no files at all */
		static int made;

		if (!made && !mkdtemp(empty))
			abort();
		made = 1;
		symfs = empty;
	}
	/*
	 * Three commands an input, picked by its size (so that an input always
	 * runs the same ones, and every one runs on some): the call graphs,
	 * which resolve and unwind whole stacks; one other view or format;
	 * prof script, raw or symbolized; and for a third of them prof
	 * annotate, which disassembles what the samples hit.
	 */
	run(cmd_report, input, symfs, views[1]);
	run(cmd_report, input, symfs, views[size % (sizeof(views) / sizeof(views[0]))]);
	run(cmd_script, input, symfs, scripts[size / 7 % 2]);
	if (size % 3 == 0)
		run(cmd_annotate, input, symfs, annotates[size / 3 % 2]);
	close(fd);
	return 0;
}
