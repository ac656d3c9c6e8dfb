/*
 * arch/x86_64/setjmp.h - save a point in the code, and jump back to it.
 *
 * The kernel's own setjmp/longjmp (there is no C library).  KUnit uses them
 * to end a test case early when an assertion fails or the case oopses, and
 * the monitor to return to its prompt after a command oopses.  Only the
 * callee-saved registers, the stack pointer and the return address are
 * kept, as the SysV ABI allows.
 */
#ifndef ARCH_X86_64_SETJMP_H
#define ARCH_X86_64_SETJMP_H

typedef unsigned long jmp_buf[8];

int setjmp(jmp_buf env) __attribute__((returns_twice));
__attribute__((noreturn)) void longjmp(jmp_buf env, int val);

#endif
