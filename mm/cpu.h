/*
 * mm/cpu.h - everything mm/ needs from the CPU, in one place.
 *
 * The allocators are written against this small interface: spinlocks,
 * interrupts off/on, which CPU is running, the direct map (__va/__pa), the
 * struct page array (vmemmap) and page sizes.  In the kernel it is the real
 * thing (arch/x86_64 and kernel/); built with -DMM_HOSTED for the host
 * tests it is tests/host/mm_host.h, which provides the same names over a
 * block of ordinary memory pretending to be RAM.  No other mm/ file may
 * include an arch/x86_64 header, so the same mm/ code runs in both places.
 */
#ifndef MM_CPU_H
#define MM_CPU_H

#ifdef MM_HOSTED
#include "mm_host.h"
#else

#include "kernel/spinlock.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/page.h"
#include "arch/x86_64/pgtable.h"

/* struct page of every frame, at a fixed virtual address (see pgtable.c) */
#define vmemmap		((struct page *)VMEMMAP_START)

/* Add to a per-CPU counter: one instruction, so an interrupt cannot split it. */
static inline void cpu_counter_add(unsigned long *counter, unsigned long delta)
{
	__asm__ __volatile__("addq %1, %0" : "+m"(*counter) : "er"(delta));
}

#endif /* MM_HOSTED */
#endif
