/*
 * arch/x86_64/ptrace.h - the registers saved on entry to an interrupt.
 *
 * The order is the reverse of the pushes in arch/x86_64/isr.asm, followed by
 * the vector and error code the stub pushed, followed by what the CPU itself
 * pushed (rip, cs, rflags, rsp, ss).  Changing one means changing the other.
 */
#ifndef ARCH_X86_64_PTRACE_H
#define ARCH_X86_64_PTRACE_H

#include "lib/compiler.h"

struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector;
	u64 error_code;
	u64 rip, cs, rflags, rsp, ss;
};

#endif
