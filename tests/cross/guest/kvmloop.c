// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kvmloop: the smallest KVM virtual machine, for the arm64 guest's tests
 * of exclude_host and exclude_guest (tests/cross/check-guest.sh). One vCPU
 * runs, at EL1, the code below from guest memory: TURNS turns of a
 * three-instruction loop, then a store to an address no memory backs,
 * which KVM hands back as an MMIO exit, and kvmloop ends. Its guest runs
 *   2 (movz, movk) + 3 * TURNS + 1 (mov) = 3 * TURNS + 3
 * instructions, the store trapping before it retires.
 *   kvmloop [TURNS]	(default 1,000,000)
 * Exits 0 after the MMIO exit, 77 without /dev/kvm, 1 on anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define MEM_GPA		0x10000ULL	/* the guest's memory, its code first */
#define MEM_SIZE	0x10000ULL
#define MMIO_GPA	0x1000ULL	/* backed by nothing: the exit */

static int die(const char *what)
{
	fprintf(stderr, "kvmloop: %s: %s\n", what, strerror(errno));
	return 1;
}

/* the register id of core register field off (a u64 of struct kvm_regs) */
static uint64_t core_reg(size_t off)
{
	return KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | (off / sizeof(uint32_t));
}

int main(int argc, char **argv)
{
	unsigned long turns = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000UL;
	struct kvm_userspace_memory_region region;
	struct kvm_vcpu_init init;
	struct kvm_one_reg reg;
	struct kvm_run *run;
	uint32_t *code;
	uint64_t pc = MEM_GPA;
	int kvm, vm, vcpu, size, n = 0;

	if (turns == 0 || turns > 0xffffffffUL) {
		fprintf(stderr, "kvmloop: TURNS is 1 to 4294967295\n");
		return 64;
	}
	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0) {
		fprintf(stderr, "kvmloop: no /dev/kvm: %s\n", strerror(errno));
		return 77;
	}
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return die("KVM_CREATE_VM");
	code = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return die("mmap");
	/* movz x0, #turns[31:16], lsl 16; movk x0, #turns[15:0] */
	code[n++] = 0xd2a00000u | (uint32_t)((turns >> 16) & 0xffff) << 5;
	code[n++] = 0xf2800000u | (uint32_t)(turns & 0xffff) << 5;
	code[n++] = 0x91000421u;	/* 1: add x1, x1, #1 */
	code[n++] = 0xf1000400u;	/* subs x0, x0, #1 */
	code[n++] = 0x54ffffc1u;	/* b.ne 1b */
	code[n++] = 0xd2820002u;	/* mov x2, #0x1000 */
	code[n++] = 0xf9000040u;	/* str x0, [x2]: the MMIO exit */
	code[n++] = 0x14000000u;	/* b . (never reached) */
	memset(&region, 0, sizeof(region));
	region.slot = 0;
	region.guest_phys_addr = MEM_GPA;
	region.memory_size = MEM_SIZE;
	region.userspace_addr = (uint64_t)(uintptr_t)code;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0)
		return die("KVM_SET_USER_MEMORY_REGION");
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return die("KVM_CREATE_VCPU");
	memset(&init, 0, sizeof(init));
	if (ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init) < 0)
		return die("KVM_ARM_PREFERRED_TARGET");
	if (ioctl(vcpu, KVM_ARM_VCPU_INIT, &init) < 0)
		return die("KVM_ARM_VCPU_INIT");
	reg.id = core_reg(offsetof(struct kvm_regs, regs.pc));
	reg.addr = (uint64_t)(uintptr_t)&pc;
	if (ioctl(vcpu, KVM_SET_ONE_REG, &reg) < 0)
		return die("KVM_SET_ONE_REG pc");
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (size <= 0)
		return die("KVM_GET_VCPU_MMAP_SIZE");
	run = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return die("mmap of the vCPU");
	for (;;) {
		if (ioctl(vcpu, KVM_RUN, 0) < 0) {
			if (errno == EINTR)
				continue;
			return die("KVM_RUN");
		}
		if (run->exit_reason == KVM_EXIT_MMIO && run->mmio.phys_addr == MMIO_GPA &&
		    run->mmio.is_write)
			return 0;
		fprintf(stderr, "kvmloop: unexpected exit %u\n", run->exit_reason);
		return 1;
	}
}
