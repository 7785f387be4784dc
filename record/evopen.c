// SPDX-License-Identifier: GPL-2.0-or-later
/* perf_event_attr construction and perf_event_open(2) with the kernel-version fallbacks. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "evname.h"
#include "evopen.h"
#include "opts.h"
#include "regs.h"
#include "ring.h"

void evopen_attr(struct perf_event_attr *a, const struct evname *ev,
		 const struct record_opts *o, int tracking, int enable_on_exec)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = ev->type;
	a->config = ev->config;
	if (o->freq) {
		a->freq = 1;
		a->sample_freq = o->freq;
	} else {
		a->sample_period = o->period;
	}
	/*
	 * IDENTIFIER puts the id first in samples and last in the trailer of
	 * other records, so a reader finds the event without knowing it.
	 */
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (o->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_type |= o->sample_extra;
	if (o->sample_extra & PERF_SAMPLE_REGS_INTR)
		a->sample_regs_intr = regs_user_mask();	/* -I: the general registers, as perf's */
	/* -b, -j: each sample's branch stack, of the branches asked */
	if (o->branch_sample_type) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch_sample_type;
	}
	/* --overwrite: the newest records over the oldest, read once at the end (ring.h) */
	a->write_backward = o->overwrite;
	/* --namespaces: each new thread's namespaces (NAMESPACES records) */
	a->namespaces = tracking && o->namespaces;
	/* --all-cgroups: each sample's cgroup, and the new cgroups' paths (CGROUP records) */
	if (o->all_cgroups) {
		a->sample_type |= PERF_SAMPLE_CGROUP;
		a->cgroup = tracking;
	}
	/* --user-callchains, --kernel-callchains: half of each chain (dwarf's user part is unwound) */
	if (o->callchain && o->user_callchains)
		a->exclude_callchain_kernel = 1;
	if (o->callchain && o->kernel_callchains)
		a->exclude_callchain_user = 1;
	/* -d: the data mappings too, for a report to place the addresses in (as perf -d) */
	if ((o->sample_extra & PERF_SAMPLE_ADDR) && tracking)
		a->mmap_data = 1;
	if (o->callchain == CALLCHAIN_FP && o->kernel_callchains) {
		;	/* no user part: nothing of user space to repair */
	} else if (o->callchain == CALLCHAIN_FP && regs_leaf_mask()) {
		/*
		 * aarch64: a function that makes no calls sets up no frame
		 * record (gcc's -momit-leaf-frame-pointer, on by default), and
		 * its return address stays in the link register, where the
		 * kernel's walk of frame records never looks: the caller drops
		 * out of every such chain. The link register alone puts it back
		 * (unwind_leaf_returns()), as perf records it since 5.19: perf
		 * reads these samples as its own.
		 */
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user = regs_leaf_mask();
	} else if (o->callchain == CALLCHAIN_FP) {
		/*
		 * A function that sets up no frame (gcc -O2's leaves, libc's
		 * syscall wrappers) keeps its return address on the stack,
		 * where the frame-pointer chain never looks, and its caller
		 * drops out of the chain. A few bytes at the stack pointer let
		 * prof report put it back (unwind_leaf_return()). No registers:
		 * perf unwinds a stack only with both, so it reads these samples
		 * as it reads any -g sample.
		 */
		a->sample_type |= PERF_SAMPLE_STACK_USER;
		a->sample_stack_user = RECORD_LEAF_STACK;
	}
	if (o->callchain == CALLCHAIN_DWARF) {
		/*
		 * The kernel's part of the chain comes as with -g; the user part
		 * is unwound by prof report from the registers and a copy of the
		 * stack, as perf record --call-graph dwarf does.
		 */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = regs_user_mask();
		a->sample_stack_user = o->stack_size;
		a->exclude_callchain_user = 1;
		/*
		 * perf report unwinds through memory at the mapped addresses
		 * (.eh_frame_hdr sits in a read-only segment): it needs the
		 * mappings that are not executable too.
		 */
		if (tracking)
			a->mmap_data = 1;
	}
	a->sample_id_all = 1;
	/*
	 * Times on CLOCK_MONOTONIC, the clock JIT runtimes stamp their
	 * jitdump records with (as perf record -k mono): the report places
	 * JIT code that moved by them. perf reads such files as any other.
	 */
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->disabled = enable_on_exec;
	a->enable_on_exec = enable_on_exec;
	/* -t follows single threads; everything else follows children too (--no-inherit: not). */
	a->inherit = o->nr_tids == 0 && !o->no_inherit;
	/*
	 * -s: the kernel writes each inherited counter's count, and the
	 * times it was on, in a READ record when its thread exits
	 */
	if (a->inherit && o->inherit_stat) {
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
				  PERF_FORMAT_ID;
	}
	a->exclude_guest = 1;
	if (tracking) {
		a->mmap = 1;	/* the kernel sends MMAP2 only with mmap set */
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/*
		 * The kernel marks an MMAP2 record with build ids
		 * (PERF_RECORD_MISC_MMAP_BUILD_ID) in a header all the
		 * session's events share, and does not clear the bit: the
		 * events it writes the record to after ours, which did not ask
		 * for build ids, get the bit over maj/min/ino (the code since
		 * 5.12; seen on 6.18). perf then cannot read their files ("assertion failed
		 * at util/build-id.c"). So a system-wide recording, whose
		 * CPU-wide events come first, reads build ids itself
		 * (record/fillbid.c), and --no-buildid-mmap (prof
		 * agent's recorder) asks for none.
		 */
		a->build_id = o->kernel_build_ids;
		/*
		 * Kernel JIT code as it comes and goes (BPF programs,
		 * trampolines): KSYMBOL records name it for the report, which
		 * /proc/kallsyms may no longer list; BPF_EVENT says which
		 * program, as perf asks by default (--no-bpf-event: not)
		 */
		a->ksymbol = !o->no_bpf_event;
		a->bpf_event = !o->no_bpf_event;
	}
	/* Wake us when a quarter of the ring is full, not per record. */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / RING_WAKE);
}

int evopen_fd(struct perf_event_attr *a, int pid, int cpu, int group_fd, unsigned long flags)
{
	for (;;) {
		long fd = syscall(SYS_perf_event_open, a, pid, cpu, group_fd,
				  PERF_FLAG_FD_CLOEXEC | flags);

		if (fd >= 0)
			return (int)fd;
		if (errno == EINVAL && a->build_id) {
			a->build_id = 0;	/* before Linux 5.12 */
			continue;
		}
		if (errno == EINVAL && (a->ksymbol || a->bpf_event)) {
			a->ksymbol = 0;		/* before Linux 5.1 */
			a->bpf_event = 0;
			continue;
		}
		if (errno == EINVAL && a->use_clockid) {
			a->use_clockid = 0;	/* before Linux 4.1: the kernel's perf clock */
			a->clockid = 0;
			continue;
		}
		return -errno;
	}
}

int evopen_no_hardware(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == ENXIO;
}

static long read_long(const char *path, long fallback)
{
	FILE *f = fopen(path, "re");
	long v;

	if (!f)
		return fallback;
	if (fscanf(f, "%ld", &v) != 1)
		v = fallback;
	fclose(f);
	return v;
}

int evopen_paranoid(void)
{
	return (int)read_long("/proc/sys/kernel/perf_event_paranoid", INT_MIN);
}

unsigned long evopen_max_rate(void)
{
	long v = read_long("/proc/sys/kernel/perf_event_max_sample_rate", 0);

	return v > 0 ? (unsigned long)v : 0;
}

/* The hexadecimal or decimal field key of /proc/self/status; fallback if none. */
static unsigned long long status_field(const char *key, int base, unsigned long long fallback)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	size_t n = strlen(key);
	unsigned long long v = fallback;

	if (!f)
		return fallback;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtoull(line + n + 1, NULL, base);
			break;
		}
	fclose(f);
	return v;
}

int evopen_privileged(void)
{
	/* CAP_PERFMON (38, Linux 5.8) or CAP_SYS_ADMIN (21) in the effective set */
	unsigned long long eff = status_field("CapEff", 16, 0);

	return (eff >> 38 & 1) || (eff >> 21 & 1);
}

int evopen_seccomp(void)
{
	return status_field("Seccomp", 10, 0) == 2;	/* SECCOMP_MODE_FILTER */
}

void evopen_refused(int system_wide, int err)
{
	int p = evopen_paranoid();

	/*
	 * Allowed by privilege or by the sysctl, and refused all the same:
	 * something else said no, which the caller can change there.
	 */
	if (p != INT_MIN && (evopen_privileged() || p <= (system_wide ? 0 : 2))) {
		if (evopen_seccomp())
			fprintf(stderr, "prof: perf_event_open refused (%s) by a seccomp filter, not "
				"by perf_event_paranoid (%d): allow the perf_event_open system call in "
				"the filter (a container's seccomp profile: docker run --security-opt "
				"seccomp=PROFILE with it allowed; systemd's SystemCallFilter=)\n",
				strerror(err), p);
		else
			fprintf(stderr, "prof: perf_event_open refused (%s), not by perf_event_paranoid "
				"(%d): a security module (SELinux: the perf_event class; AppArmor; "
				"lockdown in /sys/kernel/security/lockdown) refused it; see the "
				"kernel's log (dmesg)\n", strerror(err), p);
		return;
	}
	if (p == INT_MIN)
		fprintf(stderr, "prof: perf_event_open refused (%s) and "
			"/proc/sys/kernel/perf_event_paranoid is unreadable; run prof as root "
			"or with CAP_PERFMON\n", strerror(err));
	else if (system_wide && p > 0)
		fprintf(stderr, "prof: perf_event_open refused (%s): "
			"/proc/sys/kernel/perf_event_paranoid is %d and system-wide profiling "
			"(-a, -C) needs 0 or less; run 'sysctl kernel.perf_event_paranoid=0' as "
			"root, or run prof as root or with CAP_PERFMON\n", strerror(err), p);
	else if (p > 2)
		fprintf(stderr, "prof: perf_event_open refused (%s): "
			"/proc/sys/kernel/perf_event_paranoid is %d, which forbids profiling; "
			"allow your own programs with 'sysctl kernel.perf_event_paranoid=2' as "
			"root, or run prof as root or with CAP_PERFMON\n", strerror(err), p);
	else
		fprintf(stderr, "prof: perf_event_open refused (%s): "
			"/proc/sys/kernel/perf_event_paranoid is %d, which allows profiling only "
			"your own processes; run prof as the target's owner or as root\n",
			strerror(err), p);
}
