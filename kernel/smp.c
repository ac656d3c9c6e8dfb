/*
 * kernel/smp.c - running functions on other CPUs, and the idle loop.
 *
 * A cross-CPU call is a small request block, struct call_single_data
 * (csd): function, argument, and a LOCK flag that says "in use".  Each CPU
 * owns one csd per possible target (its per-CPU cfd_data), so requests from
 * different senders never share a block.  To call @func on CPU t:
 *
 *   sender                                   CPU t
 *   wait until csd[t] is free (LOCK clear)
 *   fill func/info, set LOCK
 *   push csd[t] on t's call_single_queue  -> (if the queue was empty)
 *   send CALL_FUNCTION_VECTOR IPI to t       IPI: EOI, take the whole queue,
 *                                            run each func(info), clear LOCK
 *   (wait) spin until LOCK is clear   <-
 *
 * The queue is a lock-free stack (cmpxchg to push, xchg to take all): a
 * handler that took the queue reverses it so requests run in the order they
 * were made.  An IPI is only sent when the push found the queue empty; a
 * non-empty queue already has an IPI on its way.
 *
 * The caller must have interrupts on and must not be an interrupt handler
 * (Linux's rule too): a CPU that waits for another with interrupts off can
 * wait forever for a CPU that is itself spinning, interrupts off, on
 * something the first one holds.  Such a call is refused with a report.
 * The one wait that does happen with interrupts off (for this CPU's own
 * request block to a target to be free again, while queueing) runs this
 * CPU's own queue meanwhile, so two CPUs queueing to each other both move on.
 *
 * A function run by IPI is in interrupt context: it must not take a lock
 * that anyone holds across a cross-CPU call, or the caller waits for the
 * function and the function for the caller.
 *
 * The idle loop of the application processors runs deferred work
 * (kernel/workqueue.c) and otherwise halts until an interrupt.
 */
#include "kernel/smp.h"
#include "kernel/monitor.h"
#include "kernel/hardirq.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"
#include "lib/errno.h"
#include "lib/string.h"

#define CSD_FLAG_LOCK	1u

struct call_single_data {
	struct call_single_data *next;
	smp_call_func_t func;
	void *info;
	unsigned int flags;
};

struct call_function_data {
	struct call_single_data csd[NR_CPUS];	/* one per target */
};

struct cpumask __cpu_possible_mask, __cpu_online_mask;
enum system_states system_state = SYSTEM_BOOTING;
static DEFINE_PER_CPU(struct call_function_data, cfd_data);
static DEFINE_PER_CPU(struct call_single_data *, call_single_queue);

/* Push @csd on @head; true if the stack was empty (the target needs an IPI). */
static bool csd_queue_add(struct call_single_data *csd, struct call_single_data **head)
{
	struct call_single_data *first = __atomic_load_n(head, __ATOMIC_RELAXED);

	do {
		csd->next = first;
	} while (!__atomic_compare_exchange_n(head, &first, csd, true,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return first == NULL;
}

/**
 * generic_smp_call_function_interrupt - run every request queued for this CPU
 *
 * Context: the CALL_FUNCTION_VECTOR interrupt, or a CPU waiting for its own
 * requests with interrupts off.  Interrupts are off.
 */
void generic_smp_call_function_interrupt(void)
{
	struct call_single_data *list, *prev = NULL, *next;

	list = __atomic_exchange_n(this_cpu_ptr(&call_single_queue), NULL, __ATOMIC_ACQUIRE);
	while (list) {			/* reverse: oldest first */
		next = list->next;
		list->next = prev;
		prev = list;
		list = next;
	}
	for (list = prev; list; list = next) {
		smp_call_func_t func = list->func;
		void *info = list->info;

		next = list->next;	/* read before the sender may reuse it */
		func(info);
		__atomic_store_n(&list->flags, 0, __ATOMIC_RELEASE);
	}
}

static void csd_lock_wait(struct call_single_data *csd)
{
	while (__atomic_load_n(&csd->flags, __ATOMIC_ACQUIRE) & CSD_FLAG_LOCK) {
		if (irqs_disabled()) {
			irq_enter();	/* the functions run as if from the IPI */
			generic_smp_call_function_interrupt();
			irq_exit();
		}
		cpu_relax();
	}
}

/*
 * Refuse a cross-CPU call from an interrupt handler or with interrupts off
 * (see the file comment), reporting it once per caller.
 */
static bool cross_call_refused(void *caller)
{
	static struct report_once reported;

	if (likely(!irqs_disabled() && !in_interrupt()))
		return false;
	if (system_state != SYSTEM_RUNNING)
		return false;		/* boot: interrupts are off until smp_init() ends */
	if (report_once_per_caller(&reported, caller)) {
		pr_err("BUG: cross-CPU call %s by %pS: refused (it could wait forever)\n",
		       in_interrupt() ? "from an interrupt handler" : "with interrupts off",
		       caller);
		dump_stack();
	}
	return true;
}

/* Queue func(info) for @cpu using this CPU's csd for it; interrupts off. */
static void queue_call(unsigned int cpu, smp_call_func_t func, void *info)
{
	struct call_single_data *csd = &this_cpu_ptr(&cfd_data)->csd[cpu];

	csd_lock_wait(csd);
	csd->func = func;
	csd->info = info;
	__atomic_store_n(&csd->flags, CSD_FLAG_LOCK, __ATOMIC_RELAXED);
	if (csd_queue_add(csd, per_cpu_ptr(&call_single_queue, cpu)))
		apic_send_ipi(cpu_apic_id(cpu), CALL_FUNCTION_VECTOR);
}

static void call_many(const struct cpumask *mask, smp_call_func_t func, void *info,
		      bool wait, bool run_local)
{
	unsigned int this = smp_processor_id(), cpu;
	struct cpumask targets;
	unsigned long flags;

	cpumask_and(&targets, mask, cpu_online_mask);
	cpumask_clear_cpu(this, &targets);

	local_irq_save(flags);
	for_each_cpu(cpu, &targets)
		queue_call(cpu, func, info);
	if (run_local)
		func(info);
	local_irq_restore(flags);

	if (wait) {
		for_each_cpu(cpu, &targets)
			csd_lock_wait(&this_cpu_ptr(&cfd_data)->csd[cpu]);
	}
}

/**
 * smp_call_function_many - run @func(@info) on the online CPUs of @mask, except this one
 * @mask: the CPUs
 * @func: runs in interrupt context on each target; must be fast, must not wait
 * @info: its argument
 * @wait: return only after @func has returned everywhere
 *
 * Context: interrupts on, not an interrupt handler: otherwise the call is
 * refused with a report and @func runs nowhere (see the file comment).
 */
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait)
{
	if (!cross_call_refused(__builtin_return_address(0)))
		call_many(mask, func, info, wait, false);
}

/**
 * smp_call_function - run @func(@info) on every other online CPU
 *
 * Context: as smp_call_function_many().
 */
void smp_call_function(smp_call_func_t func, void *info, int wait)
{
	if (!cross_call_refused(__builtin_return_address(0)))
		call_many(cpu_online_mask, func, info, wait, false);
}

/**
 * on_each_cpu - run @func(@info) on every online CPU, this one included
 *
 * This CPU's call runs with interrupts off, like the others.
 * Context: as smp_call_function_many().
 */
void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	if (!cross_call_refused(__builtin_return_address(0)))
		call_many(cpu_online_mask, func, info, wait, true);
}

/**
 * smp_call_function_single - run @func(@info) on CPU @cpu
 * @cpu: the target; may be this CPU (then @func runs here, interrupts off)
 * @func: runs in interrupt context on @cpu
 * @info: its argument
 * @wait: return only after @func has returned
 *
 * Context: as smp_call_function_many().
 * Return: 0, -ENXIO if @cpu is not online, -EDEADLK if refused (called
 * with interrupts off or from an interrupt handler; reported).
 */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	struct cpumask one;
	unsigned long flags;

	if (cpu < 0 || cpu >= NR_CPUS || !cpu_online(cpu))
		return -ENXIO;
	if (cross_call_refused(__builtin_return_address(0)))
		return -EDEADLK;
	if ((unsigned int)cpu == smp_processor_id()) {
		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
		return 0;
	}
	cpumask_clear(&one);
	cpumask_set_cpu(cpu, &one);
	call_many(&one, func, info, wait, false);
	return 0;
}

/**
 * smp_send_reschedule - wake CPU @cpu from hlt (it will look for deferred work)
 *
 * Context: any.
 */
void smp_send_reschedule(int cpu)
{
	if (cpu_online(cpu) && (unsigned int)cpu != smp_processor_id())
		apic_send_ipi(cpu_apic_id(cpu), RESCHEDULE_VECTOR);
}

/**
 * cpu_idle - what an application processor does when it has nothing to do
 *
 * Runs deferred work, then halts until the next interrupt.  "sti; hlt"
 * cannot lose a wake-up: sti takes effect only after the next instruction,
 * so an interrupt that arrives after the check still ends the hlt.
 * Context: an AP after start-up, forever.
 */
void cpu_idle(void)
{
	local_irq_enable();
	for (;;) {
		local_irq_disable();
		if (deferred_work_pending()) {
			local_irq_enable();
			run_deferred_work();
			continue;
		}
		__asm__ __volatile__("sti; hlt" : : : "memory");
	}
}

/**
 * smp_cpus_done - report what came up
 *
 * Context: boot CPU, end of smp_init().
 */
void smp_cpus_done(void)
{
	unsigned int n = num_online_cpus();

	pr_info("smp: Brought up %u CPU%s (%u possible, %u left out)\n", n, n == 1 ? "" : "s",
		num_possible_cpus(), smp_boot_failed_cpus());
}

/* The `ipi` monitor command: round trips to one CPU. */
static void ipi_nop(void *info)
{
	(void)info;
}

#define IPI_ROUNDS_MAX	1000000UL

static int cmd_ipi(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long cpu, rounds = 1000, done;
	u64 t0, ns;

	if (monitor_arg_ulong(&args, "CPU", 0, num_possible_cpus() - 1, &cpu) ||
	    monitor_opt_ulong(&args, "ROUNDS", 1, IPI_ROUNDS_MAX, &rounds) ||
	    monitor_args_end(&args))
		return -EINVAL;
	if (!cpu_online(cpu)) {
		printk("ipi: CPU%lu is not online (see 'cpuinfo')\n", cpu);
		return -ENXIO;
	}
	t0 = ktime_get_ns();
	for (done = 0; done < rounds; done++) {
		/* A round trip takes microseconds: look for Ctrl-C every 256. */
		if (!(done % 256) && monitor_interrupted())
			break;
		smp_call_function_single(cpu, ipi_nop, NULL, 1);
	}
	ns = ktime_get_ns() - t0;
	if (done < rounds)
		printk("ipi: interrupted after %lu of %lu round trips\n", done, rounds);
	if (done)
		printk("ipi: CPU%u -> CPU%lu: %lu round trip%s, %llu ns each (%s)\n",
		       smp_processor_id(), cpu, done, done == 1 ? "" : "s",
		       (unsigned long long)(ns / done),
		       cpu == smp_processor_id() ? "local call, no IPI" :
						   "IPI and acknowledgement");
	return 0;
}
MONITOR_COMMAND(ipi, "CPU [ROUNDS]",
		"time ROUNDS (1..1000000, default 1000) IPI round trips to CPU",
		cmd_ipi);
