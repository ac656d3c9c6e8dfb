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
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "mm/maccess.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"
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

/* ---------------------------------------------------------------- NMIs */

#define NMI_WAIT_NS	(2ULL * 1000 * 1000 * 1000)

/* Wait until @cpu's log shows the unknown-NMI report; false after NMI_WAIT_NS. */
static bool wait_for_unknown_nmi(unsigned long pos, unsigned int cpu)
{
	static char log[4096];
	char what[64];
	u64 end = ktime_get_ns() + NMI_WAIT_NS;

	snprintf(what, sizeof(what), "NMI received for unknown reason 00 on CPU %u.", cpu);
	do {
		printk_log_read(pos, log, sizeof(log));
		if (strstr(log, what))
			return true;
		cpu_relax();
	} while (ktime_get_ns() < end);
	return false;
}

static void nmi_still_works(void *info)
{
	*(int *)info = (int)smp_processor_id();
}

/*
 * An NMI the kernel did not send (a watchdog's, QEMU's "nmi" command) is
 * reported as Linux 6.x reports it, in two lines, and the CPU goes on: it
 * used to die("NMI").
 */
static void unknown_nmi_is_reported_and_survived(struct kunit *test)
{
	static char log[4096];
	unsigned long pos = printk_log_pos();
	unsigned int me = smp_processor_id();
	int ran_on = -1;

	apic_send_nmi(cpu_apic_id(me));
	KUNIT_ASSERT_TRUE_MSG(test, wait_for_unknown_nmi(pos, me), "no report of the NMI");
	printk_log_read(pos, log, sizeof(log));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "Uhhuh. NMI received for unknown reason 00 on CPU"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "Dazed and confused, but trying to continue"));
	KUNIT_EXPECT_EQ(test, count_of(log, "[#"), 0);	/* no oops */
	if (num_online_cpus() < 2)
		return;
	/* another CPU, idle: it reports, and still answers a cross-CPU call after */
	pos = printk_log_pos();
	apic_send_nmi(cpu_apic_id(me ? 0 : 1));
	KUNIT_EXPECT_TRUE_MSG(test, wait_for_unknown_nmi(pos, me ? 0 : 1), "no report from CPU %u",
			      me ? 0 : 1);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(me ? 0 : 1, nmi_still_works, &ran_on, 1),
			0);
	KUNIT_EXPECT_EQ(test, ran_on, me ? 0 : 1);
}

static unsigned long probe_nmis;
static bool nmi_came_inside;

/* A console probe runs inside printk's lock: an NMI now finds printk busy on this CPU. */
static void nmi_inside_printk(void *data, const char *text, size_t len)
{
	unsigned long before = this_cpu_read(irq_stat.__nmi_count);

	(void)data;
	if (len < 12 || memcmp(text, "nmi-trigger:", 12) || probe_nmis++)
		return;
	apic_send_nmi(cpu_apic_id(smp_processor_id()));
	/* the NMI comes in here, while the lock is held */
	for (unsigned long spins = 0; spins < 10000000 && !nmi_came_inside; spins++) {
		cpu_relax();
		nmi_came_inside = this_cpu_read(irq_stat.__nmi_count) != before;
	}
}

/* The NMI's report waits for the printk it interrupted, and comes out after it. */
static void unknown_nmi_inside_printk_is_deferred(struct kunit *test)
{
	static char log[4096];
	unsigned long pos = printk_log_pos();
	const char *trigger, *report;

	probe_nmis = 0;
	nmi_came_inside = false;
	KUNIT_ASSERT_EQ(test, register_trace_console(nmi_inside_printk, NULL), 0);
	printk("nmi-trigger: an NMI comes in while this line is printed\n");
	unregister_trace_console(nmi_inside_printk, NULL);
	KUNIT_EXPECT_TRUE(test, nmi_came_inside);
	KUNIT_ASSERT_TRUE(test, wait_for_unknown_nmi(pos, smp_processor_id()));
	printk_log_read(pos, log, sizeof(log));
	trigger = strstr(log, "nmi-trigger:");
	report = strstr(log, "Uhhuh. NMI received");
	KUNIT_ASSERT_NOT_NULL(test, trigger);
	KUNIT_ASSERT_NOT_NULL(test, report);
	KUNIT_EXPECT_LT(test, (unsigned long)trigger, (unsigned long)report);
	KUNIT_EXPECT_NOT_NULL(test, strstr(report, "Dazed and confused, but trying to continue"));
}

/* ---------------------------------------------------------------- after an oops */

static DEFINE_SPINLOCK(oops_test_lock);

static void ran_here(void *info)
{
	*(int *)info = (int)smp_processor_id();
}

/*
 * A caught oops leaves the CPU usable: interrupts on, cross-CPU calls
 * allowed (a suite's exit() was refused one).  A lock the oopsing code held
 * cannot be let go for it: it stays held, and the oops says so, naming it.
 */
static __noinline void expect_usable_after_oops(struct kunit *test, unsigned long pos)
{
	static char log[4096];
	int target = num_online_cpus() > 1 ? !smp_processor_id() : 0, ran_on = -1;
	char what[96];

	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_EQ(test, smp_call_function_single(target, ran_here, &ran_on, 1), 0);
	KUNIT_EXPECT_EQ(test, ran_on, target);
	KUNIT_EXPECT_TRUE(test, spin_is_locked(&oops_test_lock));	/* as the note says */
	if (!CONFIG_DEBUG_SPINLOCK)
		return;
	printk_log_read(pos, log, sizeof(log));
	snprintf(what, sizeof(what), "note: CPU%u oopsed holding 1 spinlock: it stays held",
		 smp_processor_id());
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, what), "%s", log);
	snprintf(what, sizeof(what), " lock: %px, taken at caught_oops_leaves_the_cpu_usable+",
		 &oops_test_lock);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, what));
}

static void caught_oops_leaves_the_cpu_usable(struct kunit *test)
{
	unsigned long pos = printk_log_pos(), flags;
	oops_catcher_t kunit_catcher = set_oops_catcher(back_here);

	kunit_expect_report(test, "invalid opcode");
	if (!setjmp(oops_env)) {
		spin_lock_irqsave(&oops_test_lock, flags);
		__asm__ __volatile__("ud2");
		spin_unlock_irqrestore(&oops_test_lock, flags);
	}
	set_oops_catcher(kunit_catcher);
	expect_usable_after_oops(test, pos);
	spin_unlock(&oops_test_lock);	/* this case knows what it held */
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
	KUNIT_CASE(unknown_nmi_is_reported_and_survived),
	KUNIT_CASE(unknown_nmi_inside_printk_is_deferred),
	KUNIT_CASE(caught_oops_leaves_the_cpu_usable),
	{}
};
static struct kunit_suite oops_suite = {
	.name = "oops",
	.test_cases = oops_cases,
	.strict = true,
};
kunit_test_suite(oops_suite);
