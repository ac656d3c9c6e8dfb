/*
 * tests/kernel/smp_stack_test.c - every other CPU runs on its own guarded stack.
 *
 * The APs' stacks come from the page allocator and are mapped in the CPU
 * stack area with an unmapped page below each (arch/x86_64/smp_boot.c).
 * On every AP the stack pointer must lie in that CPU's stack, and the page
 * below the stack must fault (read with get_kernel_nofault()).
 *
 * Bring-up of a CPU that never answers (an APIC id nobody has, as a
 * firmware table listing a dead CPU would give) must time out, say so and
 * leave the CPU out, with the kernel going on.
 */
#include "kunit/test.h"
#include "kernel/smp.h"
#include "kernel/printk.h"
#include "arch/x86_64/apic.h"
#include "mm/maccess.h"
#include "mm/page_alloc.h"
#include "arch/x86_64/page.h"
#include "lib/errno.h"

static void read_stack_pointer(void *out)
{
	unsigned long rsp;

	__asm__ __volatile__("mov %%rsp, %0" : "=r"(rsp));
	*(unsigned long *)out = rsp;
}

static void ap_stacks_are_their_own_and_guarded(struct kunit *test)
{
	unsigned int cpu, checked = 0;

	for_each_online_cpu(cpu) {
		unsigned long rsp = 0, bottom, word;

		if (cpu == 0)
			continue;	/* the boot CPU's stack is in the kernel image */
		bottom = ap_stack_bottom(cpu);
		KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, read_stack_pointer, &rsp, 1), 0);
		KUNIT_EXPECT_GE_MSG(test, rsp, bottom, "CPU %u", cpu);
		KUNIT_EXPECT_LT_MSG(test, rsp, bottom + 4 * PAGE_SIZE, "CPU %u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, get_kernel_nofault(word, (unsigned long *)bottom), 0,
				    "CPU %u stack bottom", cpu);
		KUNIT_EXPECT_EQ_MSG(test, get_kernel_nofault(word, (unsigned long *)(bottom - 8)),
				    -EFAULT, "CPU %u guard page", cpu);
		checked++;
	}
	if (!checked)
		kunit_skip(test, "one CPU: no AP stacks");
}

#define ABSENT_APIC_ID	0xfe	/* not 0xff: that is the broadcast address */
#define TEST_BOOT_TIMEOUT_MS	50	/* the 2 s of a real bring-up, shortened */

/* The last CPU number, made possible with a per-CPU area and an APIC id nobody has. */
static unsigned int absent_cpu_add(struct kunit *test, void **area)
{
	unsigned int cpu = NR_CPUS - 1;

	if (cpu_possible(cpu))
		kunit_skip(test, "CPU %u exists on this machine", cpu);
	*area = alloc_pages_exact(percpu_area_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *area);
	x86_cpu_to_apicid[cpu] = ABSENT_APIC_ID;
	percpu_install_area(cpu, *area);
	cpumask_set_cpu(cpu, &__cpu_possible_mask);
	return cpu;
}

static void absent_cpu_remove(unsigned int cpu, void *area)
{
	cpumask_clear_cpu(cpu, &__cpu_possible_mask);
	__per_cpu_offset[cpu] = 0;
	free_pages_exact(area, percpu_area_size());
}

/* add_cpu() with the timeout shortened, and @hook called when it passes */
static int add_cpu_quickly(unsigned int cpu, void (*hook)(unsigned int cpu))
{
	unsigned long saved_timeout = smp_boot_timeout_ms;
	int err;

	smp_boot_timeout_ms = TEST_BOOT_TIMEOUT_MS;
	smp_boot_after_timeout = hook;
	err = add_cpu(cpu);
	smp_boot_after_timeout = NULL;
	smp_boot_timeout_ms = saved_timeout;
	return err;
}

static void a_cpu_that_never_answers_is_left_out(struct kunit *test)
{
	static char log[1024];
	unsigned int cpu, online = num_online_cpus();
	unsigned long pos;
	void *area;

	cpu = absent_cpu_add(test, &area);
	pos = printk_log_pos();
	KUNIT_EXPECT_EQ(test, add_cpu_quickly(cpu, NULL), -EIO);
	absent_cpu_remove(cpu, area);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	KUNIT_EXPECT_EQ(test, num_online_cpus(), online);
	printk_log_read(pos, log, sizeof(log));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "did not come online within"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "left out"));
	KUNIT_EXPECT_EQ(test, add_cpu(NR_CPUS), -EINVAL);
}

static unsigned int late_cpu;

/* Plays the AP that reaches its online mark just after the boot CPU's timeout. */
static void arrive_late(unsigned int cpu)
{
	late_cpu = cpu;
	smp_ap_mark_online(cpu);
}

/*
 * The AP that marks itself online just after the timeout: the boot CPU
 * used to send it INIT and take it offline again, while a cross-call
 * queued to it in between would never complete.  Now one of them decides,
 * under one state word both change with cmpxchg: here the AP came first,
 * so it stays online.  (An AP that comes after the boot CPU gave up parks
 * itself until INIT comes: smp_ap_mark_online().)
 */
static void a_cpu_online_just_after_the_timeout_stays(struct kunit *test)
{
	unsigned int cpu;
	void *area;
	int err;

	cpu = absent_cpu_add(test, &area);
	late_cpu = 0;
	err = add_cpu_quickly(cpu, arrive_late);
	KUNIT_EXPECT_EQ(test, late_cpu, cpu);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	/* nothing runs there (no such APIC): take it out before anyone calls it */
	smp_boot_forget_cpu(cpu);
	absent_cpu_remove(cpu, area);
}

static struct kunit_case smp_stack_cases[] = {
	KUNIT_CASE(ap_stacks_are_their_own_and_guarded),
	KUNIT_CASE(a_cpu_that_never_answers_is_left_out),
	KUNIT_CASE(a_cpu_online_just_after_the_timeout_stays),
	{}
};
static struct kunit_suite smp_stack_suite = {
	.name = "smp_stack",
	.test_cases = smp_stack_cases,
	.strict = true,
};
kunit_test_suite(smp_stack_suite);
