/*
 * mm/cpu.h - everything mm/ needs from the CPU, in one place.
 *
 * The allocators are written against this small interface: spinlocks,
 * interrupts off/on and whether we are in an interrupt handler, which CPU
 * is running, per-CPU variables (DEFINE_PER_CPU, this_cpu_ptr, per_cpu_ptr
 * and the dynamic part of the per-CPU areas that mm/percpu.c hands out),
 * cross-CPU calls and deferred work, the direct map (__va/__pa), the
 * struct page array (vmemmap), page sizes, the callers on the stack
 * (stack_trace_save(), for fault injection's caller= filter) and the
 * push and pop of a per-CPU stack that an interrupt restarts instead of
 * corrupting (percpu_stack_push()/_pop(), for the slab's sheaves).  In the
 * kernel it is the real thing (arch/x86_64 and kernel/); built with
 * -DMM_HOSTED for the host tests it is tests/host/mm_host.h, which
 * provides the same names over a block of ordinary memory pretending to
 * be RAM (and no fault injection: mm/fault_inject.c is kernel-only).  No
 * other mm/ file may include an arch/x86_64 header, so the same mm/ code
 * runs in both places.
 */
#ifndef MM_CPU_H
#define MM_CPU_H

#ifdef MM_HOSTED
#include "mm_host.h"
#else

#include "kernel/hardirq.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kasan.h"
#include "arch/x86_64/page.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/restart.h"
#include "arch/x86_64/stacktrace.h"
#include "arch/x86_64/timer.h"
#include "arch/x86_64/traps.h"

/* struct page of every frame, at a fixed virtual address (see pgtable.c) */
#define vmemmap		((struct page *)VMEMMAP_START)

/*
 * A random number for hardening secrets (the slab's freelist key): the
 * CPU's RDRAND where it has one, else the time stamp counter, mixed.
 * Good enough to make a stray write's effect unpredictable; not crypto.
 */
static inline unsigned long get_random_long(void)
{
	unsigned long v;
	u32 a, b, c, d;
	unsigned char ok = 0;

	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1U << 30))
		__asm__ __volatile__("rdrand %0; setc %1" : "=r"(v), "=qm"(ok));
	if (!ok)
		v = rdtsc_ordered() * 0x9e3779b97f4a7c15UL;
	return v ^ (v >> 29);
}

#endif /* MM_HOSTED */
#endif
