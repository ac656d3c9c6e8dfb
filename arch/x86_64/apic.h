/*
 * arch/x86_64/apic.h - the local APIC: each CPU's interrupt controller.
 *
 * Every CPU has a local APIC.  It delivers interrupts to its CPU (its own
 * timer, inter-processor interrupts from other CPUs), and sends IPIs: the
 * kernel names a destination APIC id and a vector (or INIT / STARTUP, to
 * start a CPU) in the interrupt command register (ICR).  In xAPIC mode its
 * registers are a 4 KiB page of memory-mapped I/O (normally at 0xfee00000);
 * in x2APIC mode they are MSRs 0x800.., APIC ids are 32 bits and the ICR is
 * one 64-bit write.  apic.c picks x2APIC when CPUID offers it.
 */
#ifndef ARCH_X86_64_APIC_H
#define ARCH_X86_64_APIC_H

#include "lib/compiler.h"
#include "kernel/config.h"
#include "kernel/percpu.h"

/* Vectors, high so that they outrank device interrupts, as in Linux */
#define LOCAL_TIMER_VECTOR	0xec
#define CALL_FUNCTION_VECTOR	0xfb
#define RESCHEDULE_VECTOR	0xfd
#define ERROR_APIC_VECTOR	0xfe
#define SPURIOUS_APIC_VECTOR	0xff

#define BAD_APICID		0xffffffffu

/* Interrupts each CPU took, for cpuinfo and the tests (Linux: irq_stat) */
struct irq_cpustat {
	unsigned long __nmi_count;		/* NMIs, whatever sent them (Linux's) */
	unsigned long apic_timer_irqs;
	unsigned long irq_call_count;		/* function-call IPIs */
	unsigned long irq_resched_count;	/* wake-up IPIs */
	unsigned long irq_tlb_count;		/* TLB shootdowns done for others */
	unsigned long irq_spurious_count;
	unsigned long irq_error_count;
};
DECLARE_PER_CPU(struct irq_cpustat, irq_stat);

/* Logical CPU number -> APIC id (BAD_APICID for none) */
extern u32 x86_cpu_to_apicid[NR_CPUS];
static inline u32 cpu_apic_id(unsigned int cpu)
{
	return x86_cpu_to_apicid[cpu];
}

extern bool x2apic_enabled;
extern u32 lapic_timer_ticks_per_ms;

void lapic_init(u64 madt_lapic_addr);
void lapic_setup_cpu(bool bsp);
u32 read_apic_id(void);
void apic_eoi(void);
void apic_send_ipi(u32 apicid, unsigned int vector);
void apic_send_ipi_allbutself(unsigned int vector);
void apic_send_nmi_allbutself(void);
void apic_send_nmi(u32 apicid);
int apic_send_init(u32 apicid);
int apic_send_startup(u32 apicid, unsigned int page);
void lapic_timer_start_oneshot_masked(void);
u32 lapic_timer_current(void);
void lapic_timer_start_periodic(unsigned int hz);

#endif
