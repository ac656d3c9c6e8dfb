/*
 * tests/kernel/vmalloc_oops_test.c - a fault in the vmalloc space names the area.
 *
 * Touching an area's guard page, or an area after vfree(), is an oops; its
 * report must say which it was, the area's range and size, and who
 * allocated it (mm/vmalloc.c, vmalloc_describe_fault()).  Each case faults
 * on purpose under its own oops catcher, as tests/kernel/oops_test.c does,
 * and reads what the oops printed.
 */
#include "kunit/test.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "mm/kasan.h"
#include "arch/x86_64/cpu.h"
#include "mm/vmalloc.h"
#include "arch/x86_64/setjmp.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

static jmp_buf fault_env;
static char log[8192];

static void back_here(void)
{
	longjmp(fault_env, 1);
}

/* Write to @addr (which must fault) and return what the oops printed. */
static const char *fault_at(struct kunit *test, volatile char *addr)
{
	unsigned long pos = printk_log_pos();
	oops_catcher_t kunit_catcher = set_oops_catcher(back_here);
	bool irqs_were_on = !irqs_disabled();

	kasan_disable_current();	/* a KASAN kernel would report it before the oops */
	if (!setjmp(fault_env)) {
		*addr = 1;
		KUNIT_FAIL(test, "the write to %px did not fault", addr);
	}
	kasan_enable_current();
	set_oops_catcher(kunit_catcher);
	/* The oops ran with interrupts off; the longjmp left them so. */
	if (irqs_were_on)
		local_irq_enable();
	printk_log_read(pos, log, sizeof(log));
	return log;
}

static void guard_page_fault_names_the_area(struct kunit *test)
{
	char *p = vmalloc(3 * PAGE_SIZE);
	char expect[160];
	const char *text;

	kunit_expect_report(test, "BUG: unable to handle page fault");
	KUNIT_ASSERT_NOT_NULL(test, p);
	p[3 * PAGE_SIZE - 1] = 7;	/* the last byte is ours */
	text = fault_at(test, p + 3 * PAGE_SIZE);
	snprintf(expect, sizeof(expect), "vmalloc guard page: %#lx is just past the area "
		 "%#lx-%#lx (12288 bytes), allocated by guard_page_fault_names_the_area+0x",
		 (unsigned long)p + 3 * PAGE_SIZE, (unsigned long)p,
		 (unsigned long)p + 3 * PAGE_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, expect));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "BUG: unable to handle page fault"));
	vfree(p);
}

static void use_after_vfree_names_the_area(struct kunit *test)
{
	char *p = vmalloc(2 * PAGE_SIZE);
	char expect[160];
	const char *text;

	kunit_expect_report(test, "BUG: unable to handle page fault");
	KUNIT_ASSERT_NOT_NULL(test, p);
	vfree(p);
	vm_unmap_aliases();	/* no CPU may still reach it through its TLB */
	text = fault_at(test, p + 100);
	snprintf(expect, sizeof(expect), "use after vfree: %#lx is in the area %#lx-%#lx "
		 "(8192 bytes), allocated by use_after_vfree_names_the_area+0x",
		 (unsigned long)p + 100, (unsigned long)p, (unsigned long)p + 2 * PAGE_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, expect));
}

static struct kunit_case vmalloc_oops_cases[] = {
	KUNIT_CASE(guard_page_fault_names_the_area),
	KUNIT_CASE(use_after_vfree_names_the_area),
	{}
};

static struct kunit_suite vmalloc_oops_suite = {
	.name = "vmalloc_oops",
	.test_cases = vmalloc_oops_cases,
	.strict = true,
};
kunit_test_suite(vmalloc_oops_suite);
