/*
 * kernel/hardirq.h - am I in an interrupt handler?  (Linux's in_interrupt())
 *
 * Some things must never be done from an interrupt handler: wait for other
 * CPUs (smp_call_function*() with wait, a TLB shootdown), reclaim memory
 * for a GFP_KERNEL allocation.  Linux counts interrupt nesting in the
 * preempt_count; this kernel has no preemption, so it keeps just the
 * interrupt part: a per-CPU count that do_interrupt() raises around every
 * handler (irq_enter()/irq_exit()), and that the code running cross-CPU
 * calls raises too, since those functions are interrupt handlers in all
 * but name.
 */
#ifndef KERNEL_HARDIRQ_H
#define KERNEL_HARDIRQ_H

#include "kernel/percpu.h"

DECLARE_PER_CPU(unsigned int, hardirq_count);

/** in_interrupt - true inside an interrupt handler (any depth) on this CPU */
static inline bool in_interrupt(void)
{
	return this_cpu_read(hardirq_count) != 0;
}

#define in_hardirq()	in_interrupt()

static inline void irq_enter(void)
{
	this_cpu_inc(hardirq_count);
}

static inline void irq_exit(void)
{
	this_cpu_dec(hardirq_count);
}

DECLARE_PER_CPU(unsigned int, nmi_nesting);

/* in_nmi - true inside the NMI handler on this CPU (Linux's name) */
static inline bool in_nmi(void)
{
	return this_cpu_read(nmi_nesting) != 0;
}

static inline void nmi_enter(void)
{
	this_cpu_inc(nmi_nesting);
}

static inline void nmi_exit(void)
{
	this_cpu_dec(nmi_nesting);
}

/* An oops abandons the handlers it interrupted (kernel/panic.c). */
static inline void irq_count_reset(void)
{
	this_cpu_write(hardirq_count, 0);
}

#endif
