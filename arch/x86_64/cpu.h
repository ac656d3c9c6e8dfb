/*
 * arch/x86_64/cpu.h - single instructions the rest of the kernel needs:
 * control registers, MSRs, CPUID, the time-stamp counter, interrupts on/off.
 */
#ifndef ARCH_X86_64_CPU_H
#define ARCH_X86_64_CPU_H

#include "lib/compiler.h"
#include "kernel/config.h"

#if CONFIG_LOCKDEP
/* kernel/lockdep.c: told when interrupts go on, to mark the locks held */
extern bool lockdep_tracking;
void lockdep_hardirqs_on(unsigned long ip);
#endif

#define X86_CR0_WP		(1UL << 16)
#define X86_CR0_PG		(1UL << 31)
#define X86_CR4_PAE		(1UL << 5)
#define X86_CR4_PGE		(1UL << 7)
#define X86_EFLAGS_IF		(1UL << 9)

#define MSR_EFER		0xc0000080
#define MSR_GS_BASE		0xc0000101
#define EFER_SCE		(1UL << 0)
#define EFER_LME		(1UL << 8)
#define EFER_NXE		(1UL << 11)

#define DEFINE_READ_CR(n)						\
static inline unsigned long read_cr##n(void)				\
{									\
	unsigned long v;						\
	__asm__ __volatile__("mov %%cr" #n ", %0" : "=r"(v));		\
	return v;							\
}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

static inline void write_cr3(unsigned long v)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void write_cr4(unsigned long v)
{
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void cpuid(u32 leaf, u32 subleaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(subleaf));
}

/* rdtsc that neither earlier nor later instructions can drift across. */
static inline u64 rdtsc_ordered(void)
{
	u32 lo, hi;

	__asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

static inline unsigned long read_flags(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(flags) : : "memory");
	return flags;
}

static inline void local_irq_disable(void)
{
	__asm__ __volatile__("cli" : : : "memory");
}

static inline void raw_local_irq_enable(void)
{
	__asm__ __volatile__("sti" : : : "memory");
}

/*
 * Interrupts on.  With lockdep on, it first hears of it: each lock held
 * now is held with interrupts on (its HARDIRQ-ON usage, kernel/lockdep.c).
 */
static inline void local_irq_enable(void)
{
#if CONFIG_LOCKDEP
	if (unlikely(lockdep_tracking))
		lockdep_hardirqs_on(_THIS_IP_);
#endif
	raw_local_irq_enable();
}

#define local_irq_save(flags)						\
	do {								\
		(flags) = read_flags();					\
		local_irq_disable();					\
	} while (0)

#define local_irq_restore(flags)					\
	do {								\
		if ((flags) & X86_EFLAGS_IF)				\
			local_irq_enable();				\
	} while (0)

static inline bool irqs_disabled(void)
{
	return !(read_flags() & X86_EFLAGS_IF);
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

static inline void halt(void)
{
	__asm__ __volatile__("hlt" : : : "memory");
}

static inline void invlpg(unsigned long addr)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(addr) : "memory");
}

#endif
