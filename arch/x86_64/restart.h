/*
 * arch/x86_64/restart.h - restartable sequences: per-CPU data changed
 * without turning interrupts off.
 *
 * A few instructions that read per-CPU data and end with one store that
 * publishes the change (the "commit") can be made safe against an interrupt
 * on the same CPU without cli/sti: if an interrupt arrives before the
 * commit, the sequence is started again from its first instruction when
 * the interrupt returns.  Whatever the handler did to the data, the
 * sequence then reads it afresh; a sequence interrupted after its commit
 * is finished.  This is what Linux offers user space as rseq(2), and what
 * tcmalloc's per-CPU caches are built on; the slab's sheaves use it here
 * (mm/slab.c).
 *
 * A sequence records itself, in asm, with RESTART_SEQUENCE(start, end):
 * the address of its first instruction and the address just after its
 * commit.  do_interrupt() (arch/x86_64/idt.c) moves the interrupted rip
 * back to the start when it lies in [start, end).  Only interrupts do
 * this, not exceptions: a sequence that faults is a bug, and restarting it
 * would fault again for ever.  Nothing between start and end may have an
 * effect other code sees before the commit, and the code runs on one CPU
 * from start to end (this kernel never moves a running context to another
 * CPU).
 */
#ifndef ARCH_X86_64_RESTART_H
#define ARCH_X86_64_RESTART_H

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

#endif
