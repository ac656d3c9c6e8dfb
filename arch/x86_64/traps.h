/* arch/x86_64/traps.h - CPU exceptions: vector numbers and the oops path. */
#ifndef ARCH_X86_64_TRAPS_H
#define ARCH_X86_64_TRAPS_H

#include "arch/x86_64/ptrace.h"

enum {
	X86_TRAP_DE = 0,	/* divide error */
	X86_TRAP_DB = 1,	/* debug */
	X86_TRAP_NMI = 2,	/* non-maskable interrupt */
	X86_TRAP_BP = 3,	/* int3 */
	X86_TRAP_OF = 4,	/* overflow */
	X86_TRAP_BR = 5,	/* bound range */
	X86_TRAP_UD = 6,	/* invalid opcode */
	X86_TRAP_NM = 7,	/* device not available */
	X86_TRAP_DF = 8,	/* double fault */
	X86_TRAP_TS = 10,	/* invalid TSS */
	X86_TRAP_NP = 11,	/* segment not present */
	X86_TRAP_SS = 12,	/* stack segment */
	X86_TRAP_GP = 13,	/* general protection */
	X86_TRAP_PF = 14,	/* page fault */
	X86_TRAP_MF = 16,	/* x87 floating point */
	X86_TRAP_AC = 17,	/* alignment check */
	X86_TRAP_MC = 18,	/* machine check */
	X86_TRAP_XF = 19,	/* SIMD floating point */
};

/* Page-fault error code bits */
#define X86_PF_PROT	(1UL << 0)	/* 0: page not present; 1: protection */
#define X86_PF_WRITE	(1UL << 1)
#define X86_PF_USER	(1UL << 2)
#define X86_PF_RSVD	(1UL << 3)
#define X86_PF_INSTR	(1UL << 4)

void do_exception(struct pt_regs *regs);
unsigned long search_exception_tables(unsigned long ip);
void show_regs(const struct pt_regs *regs);
void stop_other_cpus(void);

/*
 * Something that can say what a faulting address is ("vmalloc guard page
 * of area ... allocated by ...").  mm/ registers one; the oops prints it.
 */
typedef void (*fault_describer_t)(unsigned long addr);
void set_fault_address_describer(fault_describer_t fn);
void describe_fault_address(unsigned long addr);

#endif
