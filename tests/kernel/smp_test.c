/*
 * tests/kernel/smp_test.c - the CPUs, their per-CPU data, cross-CPU calls,
 * the tick, deferred work.
 *
 * Run on 1, 2, 4 and 8 CPUs by the matrix.  Cases that need a second CPU
 * skip on one.  Nothing here waits without a deadline: a CPU that does not
 * answer fails the case instead of hanging the run.
 */
#include "kunit/test.h"
#include "test_log.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"
#include "lib/errno.h"

#define DEADLINE_NS	(5ULL * 1000 * 1000 * 1000)

/* Spin until *@p reaches @want or 5 s pass; true if it did. */
static bool wait_for_ulong(unsigned long *p, unsigned long want)
{
	u64 end = ktime_get_ns() + DEADLINE_NS;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < want) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

static void all_madt_cpus_online(struct kunit *test)
{
	static struct madt_info madt;
	unsigned int enabled = 0, cpu;

	if (!acpi_find_table("APIC"))
		kunit_skip(test, "no ACPI MADT (QEMU -no-acpi?): one CPU");
	KUNIT_ASSERT_EQ(test, acpi_parse_madt(&madt), 0);
	for (unsigned int i = 0; i < madt.nr_cpus; i++)
		enabled += madt.cpus[i].enabled;
	kunit_info(test, "MADT: %u enabled CPUs; online: %u\n", enabled, num_online_cpus());
	KUNIT_EXPECT_EQ(test, madt.nr_bad, 0);
	KUNIT_EXPECT_EQ(test, num_possible_cpus(), min(enabled, (unsigned int)NR_CPUS));
	KUNIT_EXPECT_EQ(test, num_online_cpus(), num_possible_cpus());
	KUNIT_EXPECT_EQ(test, smp_boot_failed_cpus(), 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(0));
	for_each_possible_cpu(cpu) {
		bool listed = false;

		for (unsigned int i = 0; i < madt.nr_cpus; i++)
			listed |= madt.cpus[i].apic_id == cpu_apic_id(cpu);
		KUNIT_EXPECT_TRUE_MSG(test, listed, "CPU%u's APIC id %u is not in the MADT",
				      cpu, cpu_apic_id(cpu));
	}
}

static void boot_cpu_is_cpu0(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, smp_processor_id(), 0);
	KUNIT_EXPECT_EQ(test, read_apic_id(), cpu_apic_id(0));
	KUNIT_EXPECT_TRUE(test, (rdmsr(0x1b) >> 8) & 1);	/* IA32_APIC_BASE.BSP */
}

struct whoami {
	unsigned int cpu;
	u32 apic_id;
	bool irqs_off;
};

static void record_whoami(void *info)
{
	struct whoami *w = info;

	w->cpu = smp_processor_id();
	w->apic_id = read_apic_id();
	w->irqs_off = irqs_disabled();
}

static void call_single_runs_on_that_cpu(struct kunit *test)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct whoami w = { ~0u, BAD_APICID, false };

		KUNIT_EXPECT_EQ(test, smp_call_function_single(cpu, record_whoami, &w, 1), 0);
		KUNIT_EXPECT_EQ(test, w.cpu, cpu);
		KUNIT_EXPECT_EQ(test, w.apic_id, cpu_apic_id(cpu));
		KUNIT_EXPECT_TRUE(test, w.irqs_off);	/* interrupt context */
	}
	/* Not a CPU: refused, nothing sent. */
	KUNIT_EXPECT_EQ(test, smp_call_function_single(NR_CPUS, record_whoami, NULL, 1), -ENXIO);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(-1, record_whoami, NULL, 1), -ENXIO);
}

static unsigned long ran_mask, ran_count;

static void mark_ran(void *info)
{
	(void)info;
	__atomic_fetch_or(&ran_mask, 1UL << smp_processor_id(), __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&ran_count, 1, __ATOMIC_SEQ_CST);
}

static unsigned long online_bits(void)
{
	unsigned long bits = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		bits |= 1UL << cpu;
	return bits;
}

static void on_each_cpu_runs_everywhere(struct kunit *test)
{
	ran_mask = ran_count = 0;
	on_each_cpu(mark_ran, NULL, 1);
	KUNIT_EXPECT_EQ(test, ran_mask, online_bits());
	KUNIT_EXPECT_EQ(test, ran_count, num_online_cpus());

	ran_mask = ran_count = 0;
	smp_call_function(mark_ran, NULL, 1);
	KUNIT_EXPECT_EQ(test, ran_mask, online_bits() & ~1UL);	/* not this CPU */
}

static void call_without_wait_completes(struct kunit *test)
{
	unsigned int rounds = 50;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	ran_mask = ran_count = 0;
	for (unsigned int i = 0; i < rounds; i++)
		smp_call_function(mark_ran, NULL, 0);	/* reuses each csd: waits for the last */
	KUNIT_EXPECT_TRUE(test, wait_for_ulong(&ran_count, rounds * (num_online_cpus() - 1)));
	KUNIT_EXPECT_EQ(test, ran_count, rounds * (num_online_cpus() - 1));
}

static void call_many_subset(struct kunit *test)
{
	struct cpumask mask;
	unsigned int cpu, want = 0;

	if (num_online_cpus() < 3)
		kunit_skip(test, "needs 3 CPUs");
	cpumask_clear(&mask);
	for_each_online_cpu(cpu) {
		if (cpu % 2 == 0) {
			cpumask_set_cpu(cpu, &mask);
			want |= cpu ? 1UL << cpu : 0;	/* never the caller */
		}
	}
	ran_mask = ran_count = 0;
	smp_call_function_many(&mask, mark_ran, NULL, true);
	KUNIT_EXPECT_EQ(test, ran_mask, want);
}

/* Two CPUs calling each other at once, many times, both waiting. */
static unsigned long crossed, cross_go, cross_done;
static struct work_struct cross_work;

static void count_cross(void *info)
{
	(void)info;
	__atomic_fetch_add(&crossed, 1, __ATOMIC_SEQ_CST);
}

static void cpu1_calls_cpu0(struct work_struct *work)
{
	(void)work;
	while (!__atomic_load_n(&cross_go, __ATOMIC_ACQUIRE))
		cpu_relax();
	for (int i = 0; i < 100; i++)
		smp_call_function_single(0, count_cross, NULL, 1);
	__atomic_store_n(&cross_done, 1, __ATOMIC_RELEASE);
}

static void cross_calls_do_not_deadlock(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	crossed = cross_go = cross_done = 0;
	INIT_WORK(&cross_work, cpu1_calls_cpu0);
	schedule_work_on(1, &cross_work);
	__atomic_store_n(&cross_go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 100; i++)
		smp_call_function_single(1, count_cross, NULL, 1);
	KUNIT_EXPECT_TRUE(test, wait_for_ulong(&cross_done, 1));
	KUNIT_EXPECT_EQ(test, crossed, 200);
}

/*
 * A cross-CPU call with interrupts off, or from an interrupt handler, could
 * wait forever: it is refused, reported (once per caller), and runs nowhere.
 */
static unsigned long refused_runs;
static int nested_result;

static void count_refused(void *info)
{
	(void)info;
	__atomic_fetch_add(&refused_runs, 1, __ATOMIC_SEQ_CST);
}

static void call_from_handler(void *info)
{
	(void)info;
	nested_result = smp_call_function_single(0, count_refused, NULL, 1);
}

static __noinline void cross_call_with_interrupts_off(void)
{
	unsigned long flags;

	local_irq_save(flags);
	on_each_cpu(count_refused, NULL, 1);
	local_irq_restore(flags);
}

static void cross_calls_from_atomic_context_are_refused(struct kunit *test)
{
	unsigned long pos = printk_log_pos(), flags;
	const char *log;

	kunit_expect_report(test, "BUG: cross-CPU call");
	refused_runs = 0;
	cross_call_with_interrupts_off();
	cross_call_with_interrupts_off();	/* the same caller: reported once */
	local_irq_save(flags);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(0, count_refused, NULL, 1), -EDEADLK);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, refused_runs, 0);
	log = log_since(pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "off by cross_call_with_interrupts_off"), 1);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG: cross-CPU call"), 2);

	if (num_online_cpus() < 2)
		return;
	pos = printk_log_pos();
	nested_result = 0;
	KUNIT_EXPECT_EQ(test, smp_call_function_single(1, call_from_handler, NULL, 1), 0);
	KUNIT_EXPECT_EQ(test, nested_result, -EDEADLK);
	KUNIT_EXPECT_EQ(test, refused_runs, 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos),
					   "from an interrupt handler by call_from_handler"));
}

DEFINE_PER_CPU(unsigned long, smp_test_counter);
DEFINE_PER_CPU(unsigned long, smp_test_initialised) = 0x5eed;
static unsigned long *seen_ptr[NR_CPUS];

static void touch_percpu(void *info)
{
	unsigned int cpu = smp_processor_id();

	(void)info;
	seen_ptr[cpu] = this_cpu_ptr(&smp_test_counter);
	this_cpu_write(smp_test_counter, 1000 * cpu);
	this_cpu_inc(smp_test_counter);
	this_cpu_add(smp_test_counter, 10);
}

static void percpu_variables_are_distinct(struct kunit *test)
{
	unsigned int cpu, other;

	on_each_cpu(touch_percpu, NULL, 1);
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, per_cpu(smp_test_counter, cpu), 1000 * cpu + 11);
		KUNIT_EXPECT_PTR_EQ(test, seen_ptr[cpu], per_cpu_ptr(&smp_test_counter, cpu));
		KUNIT_EXPECT_EQ(test, per_cpu(smp_test_initialised, cpu), 0x5eed);
		KUNIT_EXPECT_EQ(test, per_cpu(cpu_number, cpu), cpu);
		for_each_online_cpu(other) {
			if (other != cpu)
				KUNIT_EXPECT_PTR_NE(test, seen_ptr[cpu], seen_ptr[other]);
		}
	}
	/* The template itself is nobody's copy and stays as linked. */
	KUNIT_EXPECT_EQ(test, smp_test_counter, 0);
	KUNIT_EXPECT_EQ(test, this_cpu_read(smp_test_counter), 11);
}

static unsigned long tick_snapshot[NR_CPUS];

static void ticks_on_every_cpu(struct kunit *test)
{
	unsigned long j0 = jiffies;
	u64 t0 = ktime_get_ns(), t1;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		tick_snapshot[cpu] = per_cpu(irq_stat, cpu).apic_timer_irqs;
	mdelay(50);
	t1 = ktime_get_ns();
	/* mdelay and ktime use one clock: only check it is sane and monotonic. */
	KUNIT_EXPECT_GE(test, t1 - t0, 50ULL * 1000 * 1000);
	KUNIT_EXPECT_LT(test, t1 - t0, 500ULL * 1000 * 1000);
	KUNIT_EXPECT_GT(test, jiffies, j0);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_GT_MSG(test, per_cpu(irq_stat, cpu).apic_timer_irqs, tick_snapshot[cpu],
				    "CPU%u has no timer tick", cpu);
	kunit_info(test, "50 ms: %lu jiffies (HZ=%u), TSC %lu kHz\n", jiffies - j0, HZ, tsc_khz);
}

static void ipis_are_counted(struct kunit *test)
{
	unsigned long before;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	before = per_cpu(irq_stat, 1).irq_call_count;
	for (int i = 0; i < 10; i++)
		smp_call_function_single(1, mark_ran, NULL, 1);
	/* Requests can share an IPI, never exceed them. */
	KUNIT_EXPECT_GE(test, per_cpu(irq_stat, 1).irq_call_count - before, 1);
	KUNIT_EXPECT_LE(test, per_cpu(irq_stat, 1).irq_call_count - before, 10);
}

struct cpu_work {
	struct work_struct work;
	unsigned int ran_on;
	bool irqs_on;
	unsigned long done;
};

static void work_fn(struct work_struct *work)
{
	struct cpu_work *w = container_of(work, struct cpu_work, work);

	w->ran_on = smp_processor_id();
	w->irqs_on = !irqs_disabled();
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

static void deferred_work_runs_on_its_cpu(struct kunit *test)
{
	static struct cpu_work works[NR_CPUS];
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		INIT_WORK(&works[cpu].work, work_fn);
		works[cpu].ran_on = ~0u;
		works[cpu].done = 0;
		KUNIT_EXPECT_TRUE(test, schedule_work_on(cpu, &works[cpu].work));
	}
	for_each_online_cpu(cpu) {
		flush_work(&works[cpu].work);
		KUNIT_EXPECT_EQ(test, works[cpu].done, 1);
		KUNIT_EXPECT_EQ(test, works[cpu].ran_on, cpu);
		KUNIT_EXPECT_TRUE(test, works[cpu].irqs_on);	/* not interrupt context */
	}
	/* Pending work is not queued twice. */
	INIT_WORK(&works[0].work, work_fn);
	KUNIT_EXPECT_TRUE(test, schedule_work_on(0, &works[0].work));
	KUNIT_EXPECT_FALSE(test, schedule_work_on(0, &works[0].work));
	KUNIT_EXPECT_TRUE(test, flush_work(&works[0].work));
	KUNIT_EXPECT_FALSE(test, work_pending(&works[0].work));
}

/* Work queued from interrupt context (an IPI handler), as vfree will. */
static struct cpu_work irq_work;

static void queue_from_irq(void *info)
{
	(void)info;
	schedule_work(&irq_work.work);
}

static void work_queued_from_interrupt(struct kunit *test)
{
	unsigned int target = num_online_cpus() > 1 ? 1 : 0;

	INIT_WORK(&irq_work.work, work_fn);
	irq_work.done = 0;
	smp_call_function_single(target, queue_from_irq, NULL, 1);
	if (target == 0)
		flush_work(&irq_work.work);
	KUNIT_EXPECT_TRUE(test, wait_for_ulong(&irq_work.done, 1));
	KUNIT_EXPECT_TRUE(test, irq_work.irqs_on);
	KUNIT_EXPECT_EQ(test, irq_work.ran_on, target);
}

/*
 * An item that runs for long runs its CPU's list itself (the torture test does):
 * the inner item runs inside the outer one, and flush_work() of the outer
 * item still waits for its end, not only for the inner one's.
 */
static struct cpu_work outer_work, inner_work;

static void inner_fn(struct work_struct *work)
{
	mdelay(20);		/* CPU 0 is in flush_work(&outer_work.work) meanwhile */
	work_fn(work);
}

static void outer_fn(struct work_struct *work)
{
	schedule_work_on((int)smp_processor_id(), &inner_work.work);
	run_deferred_work();
	work_fn(work);
}

static void deferred_work_may_run_inside_a_work_item(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	INIT_WORK(&outer_work.work, outer_fn);
	INIT_WORK(&inner_work.work, inner_fn);
	outer_work.done = inner_work.done = 0;
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &outer_work.work));
	flush_work(&outer_work.work);
	KUNIT_EXPECT_EQ(test, __atomic_load_n(&inner_work.done, __ATOMIC_ACQUIRE), 1);
	KUNIT_EXPECT_EQ_MSG(test, __atomic_load_n(&outer_work.done, __ATOMIC_ACQUIRE), 1,
			    "flush_work() returned while the outer item was still running");
	KUNIT_EXPECT_EQ(test, inner_work.ran_on, 1);
	flush_scheduled_work();
}

static struct kunit_case smp_cases[] = {
	KUNIT_CASE(all_madt_cpus_online),
	KUNIT_CASE(boot_cpu_is_cpu0),
	KUNIT_CASE(call_single_runs_on_that_cpu),
	KUNIT_CASE(on_each_cpu_runs_everywhere),
	KUNIT_CASE(call_without_wait_completes),
	KUNIT_CASE(call_many_subset),
	KUNIT_CASE(cross_calls_do_not_deadlock),
	KUNIT_CASE(cross_calls_from_atomic_context_are_refused),
	KUNIT_CASE(percpu_variables_are_distinct),
	KUNIT_CASE(ticks_on_every_cpu),
	KUNIT_CASE(ipis_are_counted),
	KUNIT_CASE(deferred_work_runs_on_its_cpu),
	KUNIT_CASE(work_queued_from_interrupt),
	KUNIT_CASE(deferred_work_may_run_inside_a_work_item),
	{}
};

static struct kunit_suite smp_suite = {
	.name = "smp",
	.test_cases = smp_cases,
	.strict = true,
};
kunit_test_suite(smp_suite);
