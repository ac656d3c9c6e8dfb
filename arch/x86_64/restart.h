/*
 * arch/x86_64/restart.h - restartable sequences: per-CPU data changed
 * without turning interrupts off.
 *
 * A few instructions that read per-CPU data and end with one store that
 * publishes the change (the "commit") can be made safe against an interrupt
 * on the same CPU without cli/sti: if an interrupt arrives after the first
 * instruction and before the commit, the sequence is started again from
 * its first instruction when the interrupt returns.  Whatever the handler
 * did to the data, the sequence then reads it afresh; a sequence
 * interrupted after its commit is finished.  This is Bershad, Redell and
 * Ellis's idea ("Fast mutual exclusion for uniprocessors", ASPLOS 1992),
 * what Linux offers user space as rseq(2), and what tcmalloc's per-CPU
 * caches are built on.  Here the slab's sheaves use it (mm/slab.c).
 *
 * A sequence records itself, in asm, with RESTART_SEQUENCE(start, end):
 * the address of its first instruction and the address just after its
 * commit.  do_interrupt() (arch/x86_64/idt.c) moves an interrupted rip
 * that lies after start and before end back to start.  Only device and
 * inter-processor interrupts do this, not exceptions or NMIs: a sequence
 * that faults is a bug, and restarting it would fault again for ever; an
 * NMI handler here never touches what a sequence does.  The rules for a
 * sequence:
 *
 *  - nothing before the commit may be seen by anyone else: a store before
 *    it goes where nobody reads (the slot above a stack's top);
 *  - it must not change its input registers: a restart runs it again with
 *    the registers as the interrupt left them;
 *  - it runs on one CPU from start to end (this kernel never moves a
 *    running context to another CPU).
 *
 * percpu_stack_pop() and percpu_stack_push() below are the two sequences
 * the kernel has; tests/host/mm_host.h has them in C (a host program has
 * no interrupts).
 */
#ifndef ARCH_X86_64_RESTART_H
#define ARCH_X86_64_RESTART_H

#include "lib/compiler.h"

/* An entry of the table do_interrupt() searches (the section is gathered by linker.ld). */
#define RESTART_SEQUENCE(start, end)					\
	"	.pushsection __restart_table, \"a\"\n"			\
	"	.balign 8\n"						\
	"	.quad " start ", " end "\n"				\
	"	.popsection\n"

struct restart_sequence {
	unsigned long start;	/* the first instruction */
	unsigned long end;	/* just after the commit */
};

struct pt_regs;
bool restart_interrupted_sequence(struct pt_regs *regs);

/**
 * percpu_stack_pop - take the top pointer off a stack of this CPU's
 * @top: this CPU's pointer to the stack's next free slot
 * @bottom: this CPU's pointer to the stack's first slot (empty when
 *	    *@top == *@bottom)
 * @objp: where the pointer taken goes
 *
 * A restartable sequence: an interrupt handler on this CPU may push, pop,
 * or give the stack other slots (change *@top and *@bottom) meanwhile.
 * The commit is the store of the new *@top.
 * Context: any, interrupts on or off.
 * Return: false if the stack was empty.
 */
static __always_inline bool percpu_stack_pop(void ***top, void **const *bottom, void **objp)
{
	void **slot;
	void *obj;

	asm volatile goto("1:	mov %[top], %[slot]\n"
			  "	cmp %[bottom], %[slot]\n"
			  "	je %l[empty]\n"
			  "	mov -8(%[slot]), %[obj]\n"
			  "	sub $8, %[slot]\n"
			  "	mov %[slot], %[top]\n"		/* the commit */
			  "2:\n"
			  RESTART_SEQUENCE("1b", "2b")
			  : [obj] "=&r"(obj), [slot] "=&r"(slot), [top] "+m"(*top)
			  : [bottom] "m"(*bottom)
			  : "memory", "cc"
			  : empty);
	*objp = obj;
	return true;
empty:
	return false;
}

/**
 * percpu_stack_push - put @obj on top of a stack of this CPU's
 * @top: this CPU's pointer to the stack's next free slot
 * @limit: this CPU's pointer to the end of its slots (full when
 *	   *@top == *@limit)
 * @obj: the pointer to push
 *
 * Restartable as percpu_stack_pop(): @obj is written to the slot at *@top
 * before the commit, which nobody reads until *@top moves past it; a
 * restart writes it again where *@top then is.
 * Context: any, interrupts on or off.
 * Return: false if the stack was full.
 */
static __always_inline bool percpu_stack_push(void ***top, void **const *limit, void *obj)
{
	void **slot;

	asm volatile goto("1:	mov %[top], %[slot]\n"
			  "	cmp %[limit], %[slot]\n"
			  "	je %l[full]\n"
			  "	mov %[obj], (%[slot])\n"
			  "	add $8, %[slot]\n"
			  "	mov %[slot], %[top]\n"		/* the commit */
			  "2:\n"
			  RESTART_SEQUENCE("1b", "2b")
			  : [slot] "=&r"(slot), [top] "+m"(*top)
			  : [limit] "m"(*limit), [obj] "r"(obj)
			  : "memory", "cc"
			  : full);
	return true;
full:
	return false;
}

#endif
