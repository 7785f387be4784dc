// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noperf COMMAND [ARG...]: runs COMMAND with perf_event_open(2) failing
 * with EACCES, for it and every process it starts, as a container's or a
 * locked-down CI runner's seccomp filter refuses it. CI runs the test
 * suite under it so that the reporter's tests prove they need no kernel
 * (they read tests/data/recorded) and the recorder's tests skip.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	/* load the syscall number; perf_event_open returns EACCES, all else runs */
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };

	if (argc < 2) {
		fputs("usage: noperf COMMAND [ARG...]\n", stderr);
		return 64;
	}
	/* no_new_privs lets an unprivileged caller install the filter */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("noperf: cannot install the seccomp filter");
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "noperf: cannot run '%s': ", argv[1]);
	perror(NULL);
	return errno == ENOENT ? 127 : 126;
}
