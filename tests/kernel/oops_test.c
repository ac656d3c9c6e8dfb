/*
 * tests/kernel/oops_test.c - faults that are expected, and faults that are not.
 *
 * get_kernel_nofault() must turn a fault into -EFAULT silently, and refuse
 * what cannot be a kernel address (the lower half, non-canonical) with
 * -ERANGE before touching it, as Linux's x86 does.  A real
 * oops must print everything a reader needs (what, where as symbol+offset,
 * CR2 and the decoded error code, a backtrace) and the kernel must survive
 * it when someone catches it.  WARN_ON must report and carry on.
 */
#include "kunit/test.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "mm/maccess.h"
#include "arch/x86_64/page.h"
#include "arch/x86_64/setjmp.h"
#include "lib/errno.h"

#define UNMAPPED_ADDR	0xffff900000000000UL	/* no PML4 entry covers it */
#define NONCANONICAL	0xdead000000000000UL	/* it would be a #GP, not a #PF */

static void nofault_reads_mapped_memory(struct kunit *test)
{
	static const unsigned long value = 0x1122334455667788UL;
	unsigned long got = 0;

	KUNIT_EXPECT_EQ(test, get_kernel_nofault(got, &value), 0);
	KUNIT_EXPECT_EQ(test, got, value);
}

static void nofault_unmapped_is_efault(struct kunit *test)
{
	unsigned long got = 42;
	unsigned long pos = printk_log_pos();

	KUNIT_EXPECT_EQ(test, get_kernel_nofault(got, (unsigned long *)UNMAPPED_ADDR), -EFAULT);
	KUNIT_EXPECT_EQ(test, got, 42);		/* untouched */
	KUNIT_EXPECT_EQ(test, printk_log_pos(), pos);	/* and nothing printed */
}

/* The lower half is never kernel memory: refused before any load, as Linux's x86 does. */
static void nofault_null_is_erange(struct kunit *test)
{
	char c;

	KUNIT_EXPECT_EQ(test, get_kernel_nofault(c, (char *)NULL), -ERANGE);
	KUNIT_EXPECT_EQ(test, get_kernel_nofault(c, (char *)0x1000), -ERANGE);
	KUNIT_EXPECT_EQ(test, get_kernel_nofault(c, (char *)0x00007ffffffff000UL), -ERANGE);
}

static void nofault_noncanonical_is_erange(struct kunit *test)
{
	char c;

	KUNIT_EXPECT_EQ(test, get_kernel_nofault(c, (char *)NONCANONICAL), -ERANGE);
	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(&c, (char *)0xffff7ffffffffff0UL, 1),
			-ERANGE);
}

static void copy_nofault_stops_at_the_hole(struct kunit *test)
{
	char buf[16];

	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(buf, (void *)UNMAPPED_ADDR, 16), -EFAULT);
	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(buf, "0123456789abcdef", 16), 0);
	KUNIT_EXPECT_MEMEQ(test, buf, "0123456789abcdef", 16);
}

static jmp_buf oops_env;

static void back_here(void)
{
	longjmp(oops_env, 1);
}

/* Fault on purpose, under our own catcher, and read what the oops said. */
static void oops_reports_page_fault(struct kunit *test)
{
	static char log[4096];
	unsigned long pos = printk_log_pos();
	oops_catcher_t kunit_catcher = set_oops_catcher(back_here);

	kunit_expect_report(test, "BUG: unable to handle page fault");
	if (!setjmp(oops_env)) {
		*(volatile int *)UNMAPPED_ADDR = 1;
		KUNIT_FAIL(test, "the write to an unmapped address did not fault");
	}
	set_oops_catcher(kunit_catcher);
	printk_log_read(pos, log, sizeof(log));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log,
		"BUG: unable to handle page fault for address: ffff900000000000"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "#PF: supervisor write access in kernel mode"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "#PF: error_code(0x0002) - not-present page"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "RIP: 0008:oops_reports_page_fault+0x"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "CR2: ffff900000000000"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "Call Trace:"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "kunit_run_all_tests+0x"));
}

static void oops_reports_invalid_opcode(struct kunit *test)
{
	static char log[4096];
	unsigned long pos = printk_log_pos();
	oops_catcher_t kunit_catcher = set_oops_catcher(back_here);

	kunit_expect_report(test, "invalid opcode");
	if (!setjmp(oops_env))
		__asm__ __volatile__("ud2");
	set_oops_catcher(kunit_catcher);
	printk_log_read(pos, log, sizeof(log));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "invalid opcode: 0000 [#"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "RIP: 0008:oops_reports_invalid_opcode+0x"));
}

static void warn_on_reports_and_continues(struct kunit *test)
{
	static char log[4096];
	unsigned long pos = printk_log_pos();
	int hit;

	kunit_expect_report(test, "WARNING: at tests/kernel/oops_test.c");
	hit = WARN_ON(1 + 1 == 2);
	KUNIT_EXPECT_TRUE(test, hit);
	KUNIT_EXPECT_FALSE(test, WARN_ON(0));
	printk_log_read(pos, log, sizeof(log));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "WARNING: at tests/kernel/oops_test.c:"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "Call Trace:"));
}

static int count_of(const char *haystack, const char *needle)
{
	int n = 0;

	for (const char *p = haystack; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static __noinline void dump_stack_caller(void)
{
	dump_stack();
	barrier();	/* keep the call from becoming a tail jump */
}

/* Each frame once: dump_stack()'s own return address used to be printed twice. */
static void dump_stack_shows_each_caller_once(struct kunit *test)
{
	static char log[4096];
	unsigned long pos = printk_log_pos();
	const char *trace;

	dump_stack_caller();
	printk_log_read(pos, log, sizeof(log));
	trace = strstr(log, "Call Trace:\n");
	KUNIT_ASSERT_NOT_NULL(test, trace);
	KUNIT_EXPECT_EQ(test, strncmp(trace, "Call Trace:\n dump_stack_caller+0x", 33), 0);
	KUNIT_EXPECT_EQ_MSG(test, count_of(log, "dump_stack_caller+"), 1, "%s", log);
	KUNIT_EXPECT_EQ(test, count_of(log, "dump_stack_shows_each_caller_once+"), 1);
	KUNIT_EXPECT_EQ(test, count_of(log, " dump_stack+"), 0);
}

static struct kunit_case oops_cases[] = {
	KUNIT_CASE(nofault_reads_mapped_memory),
	KUNIT_CASE(nofault_unmapped_is_efault),
	KUNIT_CASE(nofault_null_is_erange),
	KUNIT_CASE(nofault_noncanonical_is_erange),
	KUNIT_CASE(copy_nofault_stops_at_the_hole),
	KUNIT_CASE(oops_reports_page_fault),
	KUNIT_CASE(oops_reports_invalid_opcode),
	KUNIT_CASE(warn_on_reports_and_continues),
	KUNIT_CASE(dump_stack_shows_each_caller_once),
	{}
};
static struct kunit_suite oops_suite = {
	.name = "oops",
	.test_cases = oops_cases,
	.strict = true,
};
kunit_test_suite(oops_suite);
