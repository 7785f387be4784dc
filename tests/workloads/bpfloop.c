// SPDX-License-Identifier: GPL-2.0-or-later
// bpfloop: a BPF program of its own, run in the kernel: kernel JIT code
// for a profiler to name (KSYMBOL records).
//   bpfloop [-n RUNS]
// loads a socket filter called prof_loop, a loop of 1,000 turns, runs it
// RUNS times (BPF_PROG_TEST_RUN; default 20,000), and says its tag. Needs
// root (or CAP_BPF and CAP_PERFMON) and a kernel with BPF.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

static long bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

int main(int argc, char **argv)
{
	/* r0 = 0; r1 = 0; loop: r1 += 1; if r1 < 1000 goto loop; exit */
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = 1 },
		{ .code = BPF_JMP | BPF_JLT | BPF_K, .dst_reg = 1, .off = -2, .imm = 1000 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned char pkt[64] = { 0 };
	union bpf_attr a;
	struct bpf_prog_info info;
	unsigned long runs = 20000;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "-n"))
		runs = strtoul(argv[2], NULL, 10);
	else if (argc != 1) {
		fprintf(stderr, "usage: bpfloop [-n RUNS]\n");
		return 2;
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (unsigned long)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (unsigned long)"GPL";
	strcpy(a.prog_name, "prof_loop");
	fd = (int)bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		fprintf(stderr, "bpfloop: cannot load a BPF program: %s\n", strerror(errno));
		return 77;
	}
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (unsigned)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (unsigned long)&info;
	if (bpf(BPF_OBJ_GET_INFO_BY_FD, &a) == 0) {
		printf("bpfloop: prog_tag ");
		for (int i = 0; i < 8; i++)
			printf("%02x", info.tag[i]);
		printf(" id %u\n", info.id);
		fflush(stdout);
	}
	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (unsigned)fd;
	a.test.data_in = (unsigned long)pkt;
	a.test.data_size_in = sizeof(pkt);
	a.test.repeat = (unsigned)runs;
	if (bpf(BPF_PROG_TEST_RUN, &a)) {
		fprintf(stderr, "bpfloop: cannot run it: %s\n", strerror(errno));
		return 77;
	}
	printf("bpfloop: ran %lu times, %u ns each\n", runs, a.test.duration);
	return 0;
}
