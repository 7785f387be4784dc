/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Programs of a known instruction count, for the arm64 guest
 * (tests/cross/check-guest.sh). Static, without libc: every instruction
 * they run at EL0 is below, so under QEMU's -icount the counts are exact.
 * Built once per variant:
 *   -DTURNS=n            the loop's turns
 *   -DSYSCALL            each turn also makes a getppid() system call
 * userloop: 2 + 5 * TURNS + 3 instructions at EL0 (mov+movk, the loop,
 * then exit's three); sysloop: 2 + 5 * TURNS + 3 too, one of each turn's
 * five an svc.
 */
	.text
	.global _start
	.type _start, %function
_start:
	movz	x0, #:abs_g1:TURNS
	movk	x0, #:abs_g0_nc:TURNS
1:
#ifdef SYSCALL
	mov	x9, x0
	mov	x8, #173		/* getppid */
	svc	#0
	subs	x0, x9, #1
#else
	add	x1, x1, #1
	eor	x2, x2, x1
	add	x3, x3, x2
	subs	x0, x0, #1
#endif
	b.ne	1b
	mov	x0, #0
	mov	x8, #93			/* exit */
	svc	#0
	.size _start, . - _start
	.section .note.GNU-stack, "", %progbits
