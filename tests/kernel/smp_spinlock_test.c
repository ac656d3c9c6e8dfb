/*
 * tests/kernel/smp_spinlock_test.c - spinlocks under real contention, and
 * the debug checks: recursion and lockup reports.
 */
#include "kunit/test.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

/*
 * Total increments, shared among the CPUs.  Kept small: under QEMU's TCG
 * with more vCPUs than host cores, a FIFO ticket lock hands over only when
 * the host happens to run the next waiter's thread (the "lock waiter
 * preemption" problem of ticket locks in virtual machines), so each
 * handover can cost a host time slice.
 */
#define INCREMENTS	(num_online_cpus() > 4 ? 2000u : 8000u)

static DEFINE_SPINLOCK(counter_lock);
static unsigned long counter;		/* updated with plain loads and stores */
static unsigned long started;

/* Read-modify-write with a window in the middle: races would lose updates. */
static void add_many(void *info)
{
	(void)info;
	__atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < num_online_cpus())
		cpu_relax();		/* start together */
	for (unsigned int i = 0; i < INCREMENTS / num_online_cpus(); i++) {
		unsigned long v;

		spin_lock(&counter_lock);
		v = READ_ONCE(counter);
		cpu_relax();
		WRITE_ONCE(counter, v + 1);
		spin_unlock(&counter_lock);
	}
}

static void lock_protects_counter_on_all_cpus(struct kunit *test)
{
	counter = 0;
	started = 0;
	on_each_cpu(add_many, NULL, 1);
	KUNIT_EXPECT_EQ(test, counter, INCREMENTS / num_online_cpus() * num_online_cpus());
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&counter_lock));
	kunit_info(test, "%u CPUs x %u locked increments = %lu\n", num_online_cpus(),
		   INCREMENTS / num_online_cpus(), counter);
}

static void irqsave_restores_flags(struct kunit *test)
{
	DEFINE_SPINLOCK(lock);
	unsigned long flags;

	local_irq_enable();
	spin_lock_irqsave(&lock, flags);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	KUNIT_EXPECT_TRUE(test, spin_is_locked(&lock));
	KUNIT_EXPECT_FALSE(test, spin_trylock(&lock));
	spin_unlock_irqrestore(&lock, flags);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_TRUE(test, spin_trylock(&lock));
	spin_unlock(&lock);
}

static bool log_has(unsigned long since, const char *what)
{
	static char buf[4096];

	printk_log_read(since, buf, sizeof(buf));
	return strstr(buf, what) != NULL;
}

static DEFINE_SPINLOCK(held_lock);
static unsigned long holder_has_it, holder_release;

static void hold_lock_work(struct work_struct *work)
{
	(void)work;
	spin_lock(&held_lock);
	__atomic_store_n(&holder_has_it, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&holder_release, __ATOMIC_SEQ_CST))
		cpu_relax();
	mdelay(150);			/* well past the lockup threshold */
	spin_unlock(&held_lock);
}

static void lockup_names_the_holder(struct kunit *test)
{
	static DECLARE_WORK(holder, hold_lock_work);
	unsigned long pos, saved = spinlock_lockup_ms;
	u64 t0;

	kunit_expect_report(test, "BUG: spinlock lockup suspected");
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	holder_has_it = holder_release = 0;
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &holder));
	t0 = ktime_get_ns();
	while (!__atomic_load_n(&holder_has_it, __ATOMIC_SEQ_CST)) {
		if (ktime_get_ns() - t0 > 5000000000ULL)
			KUNIT_FAIL(test, "CPU1 never took the lock");
		cpu_relax();
	}
	spinlock_lockup_ms = 50;
	pos = printk_log_pos();
	__atomic_store_n(&holder_release, 1, __ATOMIC_SEQ_CST);
	spin_lock(&held_lock);		/* waits ~150 ms: reported at 50 ms, then gets it */
	spin_unlock(&held_lock);
	spinlock_lockup_ms = saved;
	flush_work(&holder);

	KUNIT_EXPECT_TRUE(test, log_has(pos, "BUG: spinlock lockup suspected on CPU#0"));
	KUNIT_EXPECT_TRUE(test, log_has(pos, ".owner_cpu: 1, taken at hold_lock_work"));
}

/*
 * Long, fair contention is not a lockup: the waiter's clock restarts each
 * time the queue moves.  CPU 1 takes the lock and then takes QUEUE_AHEAD
 * tickets more, standing for as many CPUs queued before CPU 0 (no machine
 * of the matrix has the CPUs to queue for real); it hands the lock on
 * every HOLD_MS, one ticket at a time, as they would.  CPU 0 waits for
 * all of them, well past a lowered spinlock_lockup_ms, but never longer
 * than the limit for one hand-over: no report.  A waiter that timed the
 * whole wait would cry "lockup suspected" here.
 *
 * Under QEMU a busy host may stop CPU 1's thread for longer than the
 * limit: then the queue really stood still, and a report is right.  CPU 1
 * notes the time around each hand-over, so such a trial is recognised,
 * and run again (FAIR_TRIALS at most, then the case skips).
 */
#define QUEUE_AHEAD	24
#define HOLD_MS		25
#define FAIR_LIMIT_MS	500	/* 20 hand-overs; the wait is 25 */
#define FAIR_TRIALS	3

static DEFINE_SPINLOCK(fair_lock);
static struct {
	unsigned long queued, go;
	u64 before[QUEUE_AHEAD + 1], after[QUEUE_AHEAD + 1];	/* each hand-over, in ns */
} fair;

static void hand_on_slowly(struct work_struct *work)
{
	(void)work;
	spin_lock(&fair_lock);
	__atomic_fetch_add(&fair_lock.next, QUEUE_AHEAD, __ATOMIC_RELAXED);
	__atomic_store_n(&fair.queued, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&fair.go, __ATOMIC_SEQ_CST))
		cpu_relax();
	mdelay(HOLD_MS);
	fair.before[0] = ktime_get_ns();
	spin_unlock(&fair_lock);
	fair.after[0] = ktime_get_ns();
	for (unsigned int i = 1; i <= QUEUE_AHEAD; i++) {	/* each queued "CPU" in turn */
		mdelay(HOLD_MS);
		fair.before[i] = ktime_get_ns();
		__atomic_fetch_add(&fair_lock.owner, 1, __ATOMIC_RELEASE);
		fair.after[i] = ktime_get_ns();
	}
}

/* The longest the queue may have stood still since CPU 0 began to wait at @t0, in ms. */
static u64 longest_standstill_ms(u64 t0)
{
	u64 longest = fair.after[0] - t0;

	for (unsigned int i = 1; i <= QUEUE_AHEAD; i++)
		longest = max(longest, fair.after[i] - fair.before[i - 1]);
	return longest / 1000000;
}

/* One wait behind the queue.  Return: false if the host stalled CPU 1 past the limit. */
static bool fair_trial(struct kunit *test)
{
	static DECLARE_WORK(handler, hand_on_slowly);
	unsigned long pos, saved = spinlock_lockup_ms;
	u64 t0, waited_ms, standstill_ms;
	bool reported;

	fair.queued = fair.go = 0;
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &handler));
	t0 = ktime_get_ns();
	while (!__atomic_load_n(&fair.queued, __ATOMIC_SEQ_CST)) {
		if (ktime_get_ns() - t0 > 5000000000ULL)
			KUNIT_FAIL(test, "CPU1 never took the lock");
		cpu_relax();
	}
	spinlock_lockup_ms = FAIR_LIMIT_MS;
	pos = printk_log_pos();
	t0 = ktime_get_ns();
	__atomic_store_n(&fair.go, 1, __ATOMIC_SEQ_CST);
	spin_lock(&fair_lock);		/* behind CPU 1 and the QUEUE_AHEAD tickets */
	waited_ms = (ktime_get_ns() - t0) / 1000000;
	spin_unlock(&fair_lock);
	spinlock_lockup_ms = saved;
	flush_work(&handler);

	reported = log_has(pos, "lockup suspected");
	standstill_ms = longest_standstill_ms(t0);
	kunit_info(test, "waited %llu ms for %u hand-overs %u ms apart, the longest %llu ms "
		   "(limit %u ms)%s", (unsigned long long)waited_ms, QUEUE_AHEAD + 1, HOLD_MS,
		   (unsigned long long)standstill_ms, FAIR_LIMIT_MS,
		   standstill_ms >= FAIR_LIMIT_MS ? ": the host stalled CPU 1, again" : "");
	if (standstill_ms >= FAIR_LIMIT_MS)
		return false;
	KUNIT_EXPECT_GE_MSG(test, waited_ms, FAIR_LIMIT_MS + HOLD_MS,
			    "the wait was too short to test anything");
	KUNIT_EXPECT_FALSE_MSG(test, reported, "a queue that moved at least every %llu ms was "
			       "reported as a lockup", (unsigned long long)standstill_ms);
	return true;
}

static void fair_contention_is_not_a_lockup(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	if (!CONFIG_DEBUG_SPINLOCK)
		kunit_skip(test, "no lockup detection without CONFIG_DEBUG_SPINLOCK");
	/* right only in a trial where the queue stood still past the limit: see above */
	kunit_allow_report(test, "BUG: spinlock lockup suspected");
	for (unsigned int trial = 0; trial < FAIR_TRIALS; trial++) {
		if (fair_trial(test))
			return;
	}
	kunit_skip(test, "the host stalled CPU 1 past %u ms in each of %u trials", FAIR_LIMIT_MS,
		   FAIR_TRIALS);
}

static struct kunit_case smp_spinlock_cases[] = {
	KUNIT_CASE(lock_protects_counter_on_all_cpus),
	KUNIT_CASE(irqsave_restores_flags),
	KUNIT_CASE(lockup_names_the_holder),
	KUNIT_CASE(fair_contention_is_not_a_lockup),
	{}
};

static struct kunit_suite smp_spinlock_suite = {
	.name = "smp_spinlock",
	.test_cases = smp_spinlock_cases,
	.strict = true,
};
kunit_test_suite(smp_spinlock_suite);
