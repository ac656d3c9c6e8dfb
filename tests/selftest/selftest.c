/*
 * tests/selftest/selftest.c - suites that fail on purpose.
 *
 * They are linked only into build/selftest.elf, never into the kernel that
 * `make test` judges.  The runner boots that kernel once per suite below
 * and checks that it reports each kind of breakage as it should: a failed
 * expectation, a fault inside a case (and recovery after it), an endless
 * loop, a triple fault, a panic, an oops on another CPU (which no case can
 * catch: the kernel panics and stops the other CPUs), and a spinlock taken
 * twice on one CPU (reported, then a panic); that a skip shows its
 * reason, also when every parameter of a case skipped; and, run on the
 * KASAN kernel (make KASAN=1), that an out-of-bounds write is reported by
 * KASAN.  Then the two checks kunit makes itself: a suite that leaks
 * memory, and reports (a WARNING) that no case declared, on this CPU or
 * another, or outside any case, or declared and missing.  If the runner
 * ever stopped noticing one of these, its self-test would fail and so
 * would `make test`.
 */
#include "kunit/test.h"
#include "kunit/test-bug.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/workqueue.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "arch/x86_64/timer.h"
#include "arch/x86_64/cpu.h"

static void passing_case(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2 + 2, 4);
}

static void failing_expectation(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2 + 2, 5);
}

/* Linux's way to fail the case from code that has no struct kunit (kunit/test-bug.h) */
static void failed_from_a_helper(struct kunit *test)
{
	(void)test;
	kunit_fail_current_test("selftest: failed by %s", "a helper");
}

static struct kunit_case expect_cases[] = {
	KUNIT_CASE(failing_expectation),
	KUNIT_CASE(failed_from_a_helper),
	KUNIT_CASE(passing_case),
	{}
};
static struct kunit_suite expect_suite = { .name = "selftest_expect", .test_cases = expect_cases };

static void null_dereference(struct kunit *test)
{
	volatile int *p = NULL;

	KUNIT_EXPECT_EQ(test, *p, 0);	/* page 0 is not mapped: a page fault */
}

static struct kunit_case fault_cases[] = {
	KUNIT_CASE(null_dereference),
	KUNIT_CASE(passing_case),	/* proves the kernel went on after the oops */
	{}
};
static struct kunit_suite fault_suite = { .name = "selftest_fault", .test_cases = fault_cases };

static void endless_loop(struct kunit *test)
{
	(void)test;
	for (;;)
		barrier();
}

static struct kunit_case hang_cases[] = {
	KUNIT_CASE(endless_loop),
	{}
};
static struct kunit_suite hang_suite = { .name = "selftest_hang", .test_cases = hang_cases };

/* An empty IDT: the next exception cannot be delivered, nor can the double
 * fault that follows, and the CPU resets (QEMU exits under -no-reboot). */
static void triple_fault(struct kunit *test)
{
	struct { u16 limit; u64 base; } __packed empty = { 0, 0 };

	(void)test;
	__asm__ __volatile__("lidt %0; int3" : : "m"(empty));
}

static struct kunit_case triple_cases[] = {
	KUNIT_CASE(triple_fault),
	{}
};
static struct kunit_suite triple_suite = { .name = "selftest_triple", .test_cases = triple_cases };

static void calls_panic(struct kunit *test)
{
	(void)test;
	panic("selftest: deliberate panic");
}

static struct kunit_case panic_cases[] = {
	KUNIT_CASE(calls_panic),
	{}
};
static struct kunit_suite panic_suite = { .name = "selftest_panic", .test_cases = panic_cases };

static void fault_here(void *unused)
{
	(void)unused;
	*(volatile int *)0 = 1;
}

/* An oops on another CPU cannot be caught by the case: the kernel must panic. */
static void oops_on_another_cpu(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	smp_call_function_single(1, fault_here, NULL, 1);
}

static struct kunit_case ap_oops_cases[] = {
	KUNIT_CASE(oops_on_another_cpu),
	{}
};
static struct kunit_suite ap_oops_suite = { .name = "selftest_ap_oops", .test_cases = ap_oops_cases };

static volatile bool stop_printing;

static void print_forever(struct work_struct *work)
{
	(void)work;
	while (!stop_printing)
		printk("selftest: CPU1 keeps the console busy\n");
}

static struct work_struct printer;

/* CPU1 may hold the console lock when the panic stops it: the panic must still be told. */
static void panic_while_another_cpu_prints(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	INIT_WORK(&printer, print_forever);
	schedule_work_on(1, &printer);
	mdelay(20);
	panic("selftest: panic while CPU1 prints");
}

static struct kunit_case panic_printing_cases[] = {
	KUNIT_CASE(panic_while_another_cpu_prints),
	{}
};
static struct kunit_suite panic_printing_suite = {
	.name = "selftest_panic_printing",
	.test_cases = panic_printing_cases,
};

/* Taking a spinlock this CPU holds: reported, then the kernel stops. */
static void spinlock_taken_twice(struct kunit *test)
{
	DEFINE_SPINLOCK(lock);

	(void)test;
	spin_lock(&lock);
	spin_lock(&lock);	/* the bug: would wait for itself forever */
	spin_unlock(&lock);
	spin_unlock(&lock);
}

static struct kunit_case spin_recursion_cases[] = {
	KUNIT_CASE(spinlock_taken_twice),
	{}
};
static struct kunit_suite spin_recursion_suite = {
	.name = "selftest_spin_recursion",
	.test_cases = spin_recursion_cases,
};

/* The bug KASAN exists for: one byte past a kmalloc()ed buffer (the slack of kmalloc-16). */
static void kasan_oob_write(struct kunit *test)
{
	char *p = kmalloc(10, GFP_KERNEL);
	size_t i = 10;

	KUNIT_ASSERT_NOT_NULL(test, p);
	__asm__ ("" : "=r"(i) : "0"(i));	/* hidden from the compiler's own checks */
	p[i] = 'x';
	kfree(p);
}

static struct kunit_case kasan_cases[] = {
	KUNIT_CASE(kasan_oob_write),
	{}
};
static struct kunit_suite kasan_suite = { .name = "selftest_kasan", .test_cases = kasan_cases };

/* A skip is neither pass nor failure; the runner must still show its reason. */
static void skipping_case(struct kunit *test)
{
	kunit_skip(test, "selftest: skipped on purpose");
}

/* When every parameter of a case skips, the case skips with their reason, or says they differ. */
static const int three_params[] = { 1, 2, 3 };
KUNIT_ARRAY_PARAM(three, three_params, NULL);

static void every_parameter_skips(struct kunit *test)
{
	kunit_skip(test, "selftest: every parameter skipped on purpose");
}

static void parameters_skip_for_different_reasons(struct kunit *test)
{
	kunit_skip(test, "selftest: parameter %d skipped", *(const int *)test->param_value);
}

static struct kunit_case pass_cases[] = {
	KUNIT_CASE(passing_case),
	KUNIT_CASE(skipping_case),
	KUNIT_CASE_PARAM(every_parameter_skips, three_gen_params),
	KUNIT_CASE_PARAM(parameters_skip_for_different_reasons, three_gen_params),
	{}
};
static struct kunit_suite pass_suite = { .name = "selftest_pass", .test_cases = pass_cases };

/* Memory left behind: three slab objects, a page, a vmalloc area.  The case passes. */
static void leaks_on_purpose(struct kunit *test)
{
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_NOT_NULL(test, kmalloc(500, GFP_KERNEL));
	KUNIT_EXPECT_NOT_NULL(test, alloc_pages(GFP_KERNEL, 0));
	KUNIT_EXPECT_NOT_NULL(test, vmalloc(8192));
}

static struct kunit_case leak_cases[] = {
	KUNIT_CASE(leaks_on_purpose),
	{}
};
static struct kunit_suite leak_suite = {
	.name = "selftest_leak",
	.test_cases = leak_cases,
	.strict = true,
};

/* The same, said: the suite passes and the runner shows no leak. */
static struct kunit_suite leak_kept_suite = {
	.name = "selftest_leak_kept",
	.test_cases = leak_cases,
	.keeps_memory = "selftest: kept on purpose",
	.strict = true,
};

static void undeclared_warning(struct kunit *test)
{
	(void)test;
	WARN_ON(1);
}

static void warn_here(void *unused)
{
	(void)unused;
	WARN_ON(1);
}

/* A report from another CPU while the case runs is the case's too. */
static void warning_on_another_cpu(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	smp_call_function_single(1, warn_here, NULL, 1);
}

static void declared_report_missing(struct kunit *test)
{
	kunit_expect_report(test, "BUG: kfree of");
}

static void declared_warning(struct kunit *test)
{
	kunit_expect_report(test, "WARNING: at tests/selftest/selftest.c");
	WARN_ON(1);
}

/* After the last case: a report that no case can declare. */
static void report_after_the_cases(struct kunit_suite *suite)
{
	(void)suite;
	WARN_ON(1);
}

static struct kunit_case report_cases[] = {
	KUNIT_CASE(undeclared_warning),
	KUNIT_CASE(warning_on_another_cpu),
	KUNIT_CASE(declared_report_missing),
	KUNIT_CASE(declared_warning),
	{}
};
static struct kunit_suite report_suite = {
	.name = "selftest_report",
	.suite_exit = report_after_the_cases,
	.test_cases = report_cases,
	.strict = true,
};

/*
 * A suite written as for Linux (no .strict): a misuse the kernel reports
 * and survives, a WARNING, and memory left behind do not fail it; they
 * are printed.  (selftest_kasan, not .strict either, shows that a KASAN
 * report still fails its case, as on Linux.)
 */
static void double_free_survived(struct kunit *test)
{
	char *p = kmalloc(64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	kfree(p);
	p = kmalloc(64, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, p);
	kfree(p);
}

static void leaves_a_page(struct kunit *test)
{
	KUNIT_EXPECT_NOT_NULL(test, alloc_pages(GFP_KERNEL, 0));
}

static struct kunit_case linux_style_cases[] = {
	KUNIT_CASE(double_free_survived),
	KUNIT_CASE(undeclared_warning),
	KUNIT_CASE(leaves_a_page),
	{}
};
static struct kunit_suite linux_style_suite = {
	.name = "selftest_linux_style",
	.suite_exit = report_after_the_cases,
	.test_cases = linux_style_cases,
};

kunit_test_suites(&expect_suite, &fault_suite, &hang_suite, &triple_suite, &panic_suite,
		  &ap_oops_suite, &panic_printing_suite, &spin_recursion_suite, &kasan_suite,
		  &pass_suite, &leak_suite, &leak_kept_suite, &report_suite, &linux_style_suite);
