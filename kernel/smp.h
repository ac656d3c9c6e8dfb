/*
 * kernel/smp.h - which CPU am I, how many are there, and running a function
 * on other CPUs.
 *
 * smp_processor_id() is one %gs-relative load of the per-CPU cpu_number.
 * CPUs are numbered 0 (the boot CPU) to num_possible_cpus() - 1 in MADT
 * order; the local APIC id of each is cpu_apic_id(cpu) (arch/x86_64/apic.h).
 *
 * Cross-CPU calls (kernel/smp.c), as in Linux:
 *   smp_call_function_single(cpu, func, info, wait)  run func(info) on @cpu
 *   smp_call_function_many(mask, func, info, wait)   on the online CPUs of
 *                                                    @mask except this one
 *   smp_call_function(func, info, wait)              on every other online CPU
 *   on_each_cpu(func, info, wait)                    everywhere, this CPU too
 * @func runs in interrupt context on the target (interrupts off): it must be
 * short and must not wait for other CPUs.  With @wait the caller returns
 * only after every @func has returned; without it, only after every target
 * has been sent its request (the request block is reused once it is done).
 *
 * There is no preemption in this kernel: code never moves to another CPU,
 * so get_cpu()/put_cpu() and preempt_disable() are only markers.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "kernel/config.h"
#include "kernel/cpumask.h"
#include "kernel/percpu.h"
#include "lib/atomic.h"

DECLARE_PER_CPU(unsigned int, cpu_number);

static inline unsigned int smp_processor_id(void)
{
	return this_cpu_read(cpu_number);
}

#define raw_smp_processor_id()	smp_processor_id()
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()

/*
 * system_state (Linux's): SYSTEM_BOOTING while the boot CPU runs alone with
 * interrupts off, SYSTEM_RUNNING from the end of smp_init() on.  Some
 * context checks (cross-CPU calls, might_alloc()) apply only when running.
 */
enum system_states {
	SYSTEM_BOOTING,
	SYSTEM_RUNNING,
};
extern enum system_states system_state;

typedef void (*smp_call_func_t)(void *info);

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait);
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait);
void smp_call_function(smp_call_func_t func, void *info, int wait);
void on_each_cpu(smp_call_func_t func, void *info, int wait);
void generic_smp_call_function_interrupt(void);
void smp_send_reschedule(int cpu);

void prefill_possible_map(void);
void smp_init(void);
void smp_set_page_allocator(void *(*alloc)(unsigned int order),
			    void (*free)(void *addr, unsigned int order));
unsigned long ap_stack_bottom(unsigned int cpu);
int add_cpu(unsigned int cpu);
void smp_cpus_done(void);
__noreturn void cpu_idle(void);
unsigned int smp_boot_failed_cpus(void);
void smp_ap_mark_online(unsigned int cpu);
extern unsigned long smp_boot_timeout_ms;
extern void (*smp_boot_after_timeout)(unsigned int cpu);	/* tests only */
void smp_boot_forget_cpu(unsigned int cpu);			/* tests only */

#endif
