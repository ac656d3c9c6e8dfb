/*
 * tests/kernel/smp_reclaim_test.c - reclaim on two CPUs at once must not deadlock.
 *
 * CPU0 runs a shrinker that waits for all CPUs (as a nested allocation's
 * drain_all_pages() does, or a TLB shootdown) while CPU1 enters reclaim
 * and waits for the shrinker lock CPU0 holds.  CPU1 must still answer
 * CPU0's IPI: it may wait for the lock only with interrupts on.  Before
 * the fix both CPUs waited for each other forever.
 */
#include "kunit/test.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/page_alloc.h"
#include "mm/shrinker.h"
#include "arch/x86_64/timer.h"

static volatile bool cpu0_in_scan, cpu1_reclaiming;
static unsigned int drains;

static unsigned long one_object(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	return 1;
}

static unsigned long scan_and_wait_for_all_cpus(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	if (smp_processor_id() != 0)
		return 0;
	cpu0_in_scan = true;
	while (!cpu1_reclaiming)
		cpu_relax();
	mdelay(5);		/* CPU1 is waiting for the shrinker lock by now */
	drain_all_pages();	/* an IPI to every CPU, and a wait for them */
	drains++;
	return 0;
}

static struct shrinker waiting_shrinker = {
	.count_objects = one_object,
	.scan_objects = scan_and_wait_for_all_cpus,
	.seeks = DEFAULT_SEEKS,
};

static void reclaim_on_cpu1(struct work_struct *work)
{
	(void)work;
	while (!cpu0_in_scan)
		cpu_relax();
	cpu1_reclaiming = true;
	shrink_slab(GFP_KERNEL, 0, 0);
}

static struct work_struct cpu1_work;

static void shrinker_waiting_for_cpus_while_another_reclaims(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	cpu0_in_scan = cpu1_reclaiming = false;
	drains = 0;
	register_shrinker(&waiting_shrinker, "smp_reclaim_test");
	INIT_WORK(&cpu1_work, reclaim_on_cpu1);
	schedule_work_on(1, &cpu1_work);
	shrink_slab(GFP_KERNEL, 0, 0);
	flush_work(&cpu1_work);
	unregister_shrinker(&waiting_shrinker);
	KUNIT_EXPECT_EQ(test, drains, 1);	/* and we got here: no deadlock */
}

static struct kunit_case smp_reclaim_cases[] = {
	KUNIT_CASE(shrinker_waiting_for_cpus_while_another_reclaims),
	{}
};
static struct kunit_suite smp_reclaim_suite = {
	.name = "smp_reclaim",
	.test_cases = smp_reclaim_cases,
	.strict = true,
};
kunit_test_suite(smp_reclaim_suite);
