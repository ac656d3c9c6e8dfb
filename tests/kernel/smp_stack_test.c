/*
 * tests/kernel/smp_stack_test.c - every other CPU runs on its own guarded stack.
 *
 * The APs' stacks come from the page allocator and are mapped in the CPU
 * stack area with an unmapped page below each (arch/x86_64/smp_boot.c).
 * On every AP the stack pointer must lie in that CPU's stack, and the page
 * below the stack must fault (read with get_kernel_nofault()).
 */
#include "kunit/test.h"
#include "kernel/smp.h"
#include "mm/maccess.h"
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

static struct kunit_case smp_stack_cases[] = {
	KUNIT_CASE(ap_stacks_are_their_own_and_guarded),
	{}
};
static struct kunit_suite smp_stack_suite = { .name = "smp_stack", .test_cases = smp_stack_cases };
kunit_test_suite(smp_stack_suite);
