/*
 * tests/kernel/lockdep_test.c - lockdep proves itself: each bug it exists
 * to find is put in on purpose, and its report must come, in Linux's form.
 *
 *   - an AB-BA order, taken on two CPUs (one after the other: nothing
 *     deadlocks, and still the order is reported), or twice on one;
 *   - an IRQ-unsafe lock: taken in an interrupt handler (an IPI's
 *     function, or irq_enter() on a one-CPU machine, as csd_lock_wait()
 *     does) and elsewhere with interrupts on, in both orders;
 *   - an irq-safe lock held while an irq-unsafe one is taken, the order
 *     seen after the usages and before them;
 *   - two locks of one class taken one inside the other (the same class,
 *     not the same lock: spin_bug_recursion() is for that), and the same
 *     with spin_lock_nested() or lockdep_set_class(), which say it is fine;
 *   - a lock still held when the case ends;
 *   - lockdep_assert_held() of a lock another CPU holds.
 *
 * Lockdep stops after a report, so that the suites after this one are
 * checked too, suite_init() marks the tables (lockdep_selftest_mark())
 * and every case starts, and the suite ends, with lockdep_selftest_rearm():
 * what the case added is forgotten and lockdep validates again.  Every
 * case is skipped unless the command line says "lockdep".
 */
#include "kunit/test.h"
#include "test_log.h"
#include "kernel/lockdep.h"
#include "kernel/hardirq.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"

#if CONFIG_LOCKDEP

static DEFINE_SPINLOCK(lock_a);
static DEFINE_SPINLOCK(lock_b);
static DEFINE_SPINLOCK(irq_lock);
static DEFINE_SPINLOCK(leaked_lock);
static DEFINE_SPINLOCK(other_cpus_lock);

/* Take @first, then @second inside it. */
static void lock_in_order(spinlock_t *first, spinlock_t *second)
{
	spin_lock(first);
	spin_lock(second);
	spin_unlock(second);
	spin_unlock(first);
}

static void b_then_a(struct work_struct *work)
{
	(void)work;
	lock_in_order(&lock_b, &lock_a);
}

static bool on_two_cpus(void)
{
	return num_online_cpus() >= 2;
}

/*
 * A then B here, B then A on CPU 1 (after: they never overlap).  Nothing
 * hangs, but the two orders can deadlock, and that is the report.
 */
static void ab_ba_order_is_reported(struct kunit *test)
{
	static DECLARE_WORK(other, b_then_a);
	unsigned long pos = printk_log_pos();
	const char *log;

	kunit_expect_report(test, "WARNING: possible circular locking dependency detected");
	lock_in_order(&lock_a, &lock_b);
	if (on_two_cpus()) {
		KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &other));
		flush_work(&other);
	} else {
		b_then_a(NULL);
	}
	log = log_since(pos);
	KUNIT_EXPECT_TRUE(test, strstr(log, "is trying to acquire lock:") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(log, "(lock_a){") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(log, "the existing dependency chain (in reverse order) is:"));
	/* the first stack: where A -> B was seen, here */
	KUNIT_EXPECT_TRUE(test, strstr(log, "ab_ba_order_is_reported") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(log, "lock(lock_b);") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(log, "turning off the locking correctness validator."));
	KUNIT_EXPECT_EQ(test, debug_locks, 0);
}

/* One order only, however often: no report. */
static void one_order_is_not_reported(struct kunit *test)
{
	for (int i = 0; i < 3; i++)
		lock_in_order(&lock_a, &lock_b);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

static void take_irq_lock(void *info)
{
	(void)info;
	spin_lock(&irq_lock);
	spin_unlock(&irq_lock);
}

/* @irq_lock in an interrupt handler: an IPI's function on CPU 1, or as one. */
static void take_irq_lock_in_hardirq(void)
{
	unsigned long flags;

	if (on_two_cpus()) {
		smp_call_function_single(1, take_irq_lock, NULL, 1);
		return;
	}
	local_irq_save(flags);
	irq_enter();		/* what csd_lock_wait() does around the functions */
	take_irq_lock(NULL);
	irq_exit();
	local_irq_restore(flags);
}

static void irq_safe_then_irq_on_is_reported(struct kunit *test)
{
	const char *log;
	unsigned long pos;

	kunit_expect_report(test, "WARNING: inconsistent lock state");
	take_irq_lock_in_hardirq();
	pos = printk_log_pos();
	local_irq_enable();
	take_irq_lock(NULL);	/* interrupts on: the handler could come now */
	log = log_since(pos);
	KUNIT_EXPECT_TRUE(test, strstr(log, "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage."));
	KUNIT_EXPECT_TRUE(test, strstr(log, "{IN-HARDIRQ-W} state was registered at:"));
	KUNIT_EXPECT_TRUE(test, strstr(log, "<Interrupt>") != NULL);
}

static void irq_on_then_irq_safe_is_reported(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "WARNING: inconsistent lock state");
	local_irq_enable();
	take_irq_lock(NULL);
	take_irq_lock_in_hardirq();
	KUNIT_EXPECT_TRUE(test, strstr(log_since(pos),
				       "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage."));
}

/* Interrupts off wherever it is taken outside the handler: correct, no report. */
static void irq_safe_lock_taken_with_irqs_off_is_fine(struct kunit *test)
{
	unsigned long flags;

	take_irq_lock_in_hardirq();
	spin_lock_irqsave(&irq_lock, flags);
	spin_unlock_irqrestore(&irq_lock, flags);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

/* Held when interrupts go on: HARDIRQ-ON too, through local_irq_enable(). */
static void irq_safe_lock_held_as_irqs_go_on_is_reported(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "WARNING: inconsistent lock state");
	take_irq_lock_in_hardirq();
	local_irq_disable();
	spin_lock(&irq_lock);
	local_irq_enable();	/* the report: a handler now would spin forever */
	spin_unlock(&irq_lock);
	KUNIT_EXPECT_TRUE(test, strstr(log_since(pos), "{IN-HARDIRQ-W} -> {HARDIRQ-ON-W}"));
}

static DEFINE_SPINLOCK(safe_lock);
static DEFINE_SPINLOCK(unsafe_lock);

static void take_safe_lock(void *info)
{
	(void)info;
	spin_lock(&safe_lock);
	spin_unlock(&safe_lock);
}

/* @safe_lock in an interrupt handler (as take_irq_lock_in_hardirq()). */
static void take_safe_lock_in_hardirq(void)
{
	unsigned long flags;

	if (on_two_cpus()) {
		smp_call_function_single(1, take_safe_lock, NULL, 1);
		return;
	}
	local_irq_save(flags);
	irq_enter();
	take_safe_lock(NULL);
	irq_exit();
	local_irq_restore(flags);
}

static __noinline void take_unsafe_lock_with_irqs_on(void)
{
	local_irq_enable();
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
}

/* Interrupts off, the irq-safe lock held, the irq-unsafe one taken. */
static void safe_then_unsafe(void)
{
	unsigned long flags;

	spin_lock_irqsave(&safe_lock, flags);
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
	spin_unlock_irqrestore(&safe_lock, flags);
}

/* Both usages known, then the order: reported as the edge goes in. */
static void irq_safe_to_irq_unsafe_order_is_reported(struct kunit *test)
{
	unsigned long pos;

	kunit_expect_report(test, "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	take_safe_lock_in_hardirq();
	take_unsafe_lock_with_irqs_on();
	pos = printk_log_pos();
	safe_then_unsafe();
	KUNIT_EXPECT_TRUE(test, strstr(log_since(pos), "... which became HARDIRQ-irq-unsafe at:"));
	KUNIT_EXPECT_TRUE(test, strstr(log_since(pos), "take_unsafe_lock_with_irqs_on") != NULL);
}

/* The order first, then the usages: reported when the second one comes. */
static void irq_lock_inversion_is_reported(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "WARNING: possible irq lock inversion dependency detected");
	safe_then_unsafe();
	take_safe_lock_in_hardirq();
	KUNIT_EXPECT_EQ(test, debug_locks, 1);	/* no usage is wrong yet */
	take_unsafe_lock_with_irqs_on();
	KUNIT_EXPECT_TRUE(test, strstr(log_since(pos),
				       "but this lock was taken by another, HARDIRQ-safe lock"));
}

/* Two objects whose locks are of one class: one spin_lock_init() site. */
struct node {
	spinlock_t lock;
};

static void node_init(struct node *n)
{
	spin_lock_init(&n->lock);
}

static void two_locks_of_one_class_are_reported(struct kunit *test)
{
	struct node x, y;
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "WARNING: possible recursive locking detected");
	node_init(&x);
	node_init(&y);
	spin_lock(&x.lock);
	spin_lock(&y.lock);	/* not the same lock: no spin_bug_recursion() */
	spin_unlock(&y.lock);
	spin_unlock(&x.lock);
	KUNIT_EXPECT_TRUE(test, strstr(log_since(pos), "(&n->lock){") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(log_since(pos), "May be due to missing lock nesting notation"));
}

static void spin_lock_nested_is_not_reported(struct kunit *test)
{
	struct node x, y;

	node_init(&x);
	node_init(&y);
	spin_lock(&x.lock);
	spin_lock_nested(&y.lock, SINGLE_DEPTH_NESTING);
	spin_unlock(&y.lock);
	spin_unlock(&x.lock);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

static struct lock_class_key inner_node_key;

static void lockdep_set_class_is_not_reported(struct kunit *test)
{
	struct node x, y;

	node_init(&x);
	node_init(&y);
	lockdep_set_class(&y.lock, &inner_node_key);
	spin_lock(&x.lock);
	spin_lock(&y.lock);
	spin_unlock(&y.lock);
	spin_unlock(&x.lock);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

static void unlock_leaked_lock(void *unused)
{
	(void)unused;
	spin_unlock(&leaked_lock);
}

/*
 * The case returns holding a lock: reported when it ends (after its exit(),
 * before its resources are let go: the action that unlocks runs after).
 */
static void lock_held_at_case_end_is_reported(struct kunit *test)
{
	kunit_expect_report(test, "WARNING: lock held when a test case ended!");
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, unlock_leaked_lock, NULL), 0);
	spin_lock(&leaked_lock);
}

static unsigned long holder_has_it, holder_release;

static void hold_other_cpus_lock(struct work_struct *work)
{
	(void)work;
	spin_lock(&other_cpus_lock);
	__atomic_store_n(&holder_has_it, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&holder_release, __ATOMIC_SEQ_CST))
		cpu_relax();
	spin_unlock(&other_cpus_lock);
}

/* Held, but by CPU 1: not by this CPU, which is what the assertion asks. */
static void assert_held_of_another_cpus_lock_warns(struct kunit *test)
{
	static DECLARE_WORK(holder, hold_other_cpus_lock);
	unsigned long pos;

	if (!on_two_cpus())
		kunit_skip(test, "needs 2 CPUs");
	kunit_expect_report(test, "WARNING: at tests/kernel/lockdep_test.c");
	holder_has_it = holder_release = 0;
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &holder));
	while (!__atomic_load_n(&holder_has_it, __ATOMIC_SEQ_CST))
		cpu_relax();
	KUNIT_EXPECT_TRUE(test, spin_is_locked(&other_cpus_lock));
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&other_cpus_lock));
	pos = printk_log_pos();
	for (int i = 0; i < 2; i++)
		lockdep_assert_held(&other_cpus_lock);	/* every time, as Linux's */
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "WARNING: at tests/kernel/lockdep_test.c"), 2);
	__atomic_store_n(&holder_release, 1, __ATOMIC_SEQ_CST);
	flush_work(&holder);

	spin_lock(&other_cpus_lock);
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&other_cpus_lock));
	lockdep_assert_held(&other_cpus_lock);	/* held here: silent */
	spin_unlock(&other_cpus_lock);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);	/* a WARN is not lockdep's report */
}

static DEFINE_SPINLOCK(cost_lock);

/*
 * What lockdep adds to a lock and unlock whose chain is known: a
 * diagnostic line (wall-clock time under QEMU, so only a rough figure).
 */
static void cost_of_a_known_chain(struct kunit *test)
{
	unsigned long flags;
	u64 t0, t1;

	local_irq_save(flags);
	for (int i = 0; i < 100; i++) {		/* the chain is now known */
		spin_lock(&cost_lock);
		spin_unlock(&cost_lock);
	}
	t0 = ktime_get_ns();
	for (int i = 0; i < 100000; i++) {
		spin_lock(&cost_lock);
		spin_unlock(&cost_lock);
	}
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	kunit_info(test, "%llu ns per spin_lock() + spin_unlock() under lockdep\n",
		   (unsigned long long)(t1 - t0) / 100000);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

/* Every case starts with lockdep validating, on a graph without the last case's. */
static int lockdep_test_init(struct kunit *test)
{
	if (!lockdep_tracking)
		kunit_skip(test, "lockdep is off (boot with \"lockdep\" on the command line)");
	lockdep_selftest_rearm();
	return 0;
}

static int lockdep_suite_init(struct kunit_suite *suite)
{
	(void)suite;
	lockdep_selftest_mark();
	return 0;
}

static void lockdep_suite_exit(struct kunit_suite *suite)
{
	(void)suite;
	lockdep_selftest_rearm();	/* the suites after this one run under lockdep */
}

static struct kunit_case lockdep_cases[] = {
	KUNIT_CASE(ab_ba_order_is_reported),
	KUNIT_CASE(one_order_is_not_reported),
	KUNIT_CASE(irq_safe_then_irq_on_is_reported),
	KUNIT_CASE(irq_on_then_irq_safe_is_reported),
	KUNIT_CASE(irq_safe_lock_taken_with_irqs_off_is_fine),
	KUNIT_CASE(irq_safe_lock_held_as_irqs_go_on_is_reported),
	KUNIT_CASE(irq_safe_to_irq_unsafe_order_is_reported),
	KUNIT_CASE(irq_lock_inversion_is_reported),
	KUNIT_CASE(two_locks_of_one_class_are_reported),
	KUNIT_CASE(spin_lock_nested_is_not_reported),
	KUNIT_CASE(lockdep_set_class_is_not_reported),
	KUNIT_CASE(lock_held_at_case_end_is_reported),
	KUNIT_CASE(assert_held_of_another_cpus_lock_warns),
	KUNIT_CASE(cost_of_a_known_chain),
	{}
};

static struct kunit_suite lockdep_suite = {
	.name = "lockdep",
	.init = lockdep_test_init,
	.suite_init = lockdep_suite_init,
	.suite_exit = lockdep_suite_exit,
	.test_cases = lockdep_cases,
	.strict = true,
};
kunit_test_suite(lockdep_suite);

#endif /* CONFIG_LOCKDEP */
