/*
 * tests/kernel/smp_oom_test.c - the page allocator's last resorts with
 * several CPUs at once.
 *
 *   - Two CPUs that run out of memory at the same moment kill one victim,
 *     not two: the OOM killer runs under oom_lock, and the CPU that finds
 *     it taken waits and retries (the first victim's memory serves both).
 *   - unregister_oom_victim() of a victim that another CPU is killing
 *     returns only when that kill is over.
 *   - A victim's kill() that allocates on CPU 0 (holding the OOM lock)
 *     while a shrinker allocates on CPU 1 (holding the shrinker lock):
 *     both run under PF_MEMALLOC, so neither waits for the other's lock.
 *   - __GFP_NOFAIL without direct reclaim finds the pages that sit on
 *     other CPUs' per-CPU lists (it has them drained) instead of spinning
 *     forever, with interrupts on and with interrupts off.
 *     The other way round too: an AP with interrupts off needs the pages on
 *     CPU 0's list, while CPU 0 idles at the monitor's prompt or waits in
 *     flush_work() for that very AP.
 *   - A GFP_KERNEL allocation from an interrupt handler is reported.
 *   - Two CPUs freeing the same page at the same moment: exactly one free
 *     wins, the other is reported, and the page is on one free list once.
 *
 * Each case skips on one CPU.  Memory is taken down with the helpers of
 * page_alloc_test.h and given back at the end of each case.
 */
#include "page_alloc_test.h"
#include "mm/oom.h"
#include "mm/shrinker.h"
#include "kernel/monitor.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"

#define DEADLINE_NS	(20ULL * 1000 * 1000 * 1000)

/* Spin until *@p == @want or the deadline passes; true if it did. */
static bool wait_for(unsigned long *p, unsigned long want)
{
	u64 end = ktime_get_ns() + DEADLINE_NS;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

struct oom_test_victim {
	struct oom_victim victim;
	struct held_pages mem;
	unsigned long kills;
	unsigned long slow_kill_ms;	/* kill() takes this long */
	unsigned long in_kill, kill_done;
};

static struct held_pages held;
static struct oom_test_victim victims[2];
static unsigned long free_before;

static unsigned long victim_badness(struct oom_victim *v)
{
	return container_of(v, struct oom_test_victim, victim)->mem.nr_pages;
}

static void victim_kill(struct oom_victim *v)
{
	struct oom_test_victim *tv = container_of(v, struct oom_test_victim, victim);

	__atomic_store_n(&tv->in_kill, 1, __ATOMIC_RELEASE);
	if (tv->slow_kill_ms)
		mdelay(tv->slow_kill_ms);
	held_free_all(&tv->mem);
	tv->kills++;
	__atomic_store_n(&tv->kill_done, 1, __ATOMIC_RELEASE);
}

/* A victim holding @nr_blocks of the largest blocks the test holds. */
static void victim_setup(struct oom_test_victim *v, const char *name, unsigned int nr_blocks)
{
	memset(v, 0, sizeof(*v));
	held_init(&v->mem);
	for (int o = MAX_PAGE_ORDER; o >= 0 && nr_blocks; o--) {
		while (nr_blocks && held_move(&v->mem, &held, o))
			nr_blocks--;
	}
	v->victim.name = name;
	v->victim.badness = victim_badness;
	v->victim.kill = victim_kill;
	register_oom_victim(&v->victim);
}

static int smp_oom_init(struct kunit *test)
{
	held_init(&held);
	for (unsigned int i = 0; i < ARRAY_SIZE(victims); i++) {
		memset(&victims[i], 0, sizeof(victims[i]));	/* not registered */
		held_init(&victims[i].mem);
	}
	drop_caches();
	free_before = nr_free_pages();
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	return 0;
}

static void smp_oom_exit(struct kunit *test)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(victims); i++) {
		unregister_oom_victim(&victims[i].victim);
		held_free_all(&victims[i].mem);
	}
	held_free_all(&held);
	drain_all_pages();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free_before);
}

/* ---------------------------------------------------------------- one kill at a time */

static struct work_struct cpu1_work;
static unsigned long go, cpu1_done;
static struct page *cpu1_page;

static void cpu1_allocates(struct work_struct *work)
{
	(void)work;
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		cpu_relax();
	cpu1_page = alloc_pages(GFP_KERNEL, 0);
	__atomic_store_n(&cpu1_done, 1, __ATOMIC_RELEASE);
}

static void two_cpus_out_of_memory_kill_one_victim(struct kunit *test)
{
	kunit_expect_report(test, "invoked oom-killer");
	for (int round = 0; round < 3; round++) {
		unsigned long kills = global_vm_event(OOM_KILL);
		struct page *page;

		/* down to the min watermark; each victim holds enough for both CPUs */
		held_exhaust(&held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
		victim_setup(&victims[0], "smp_oom_victim_a", 4);
		victim_setup(&victims[1], "smp_oom_victim_b", 4);
		go = cpu1_done = 0;
		cpu1_page = NULL;
		INIT_WORK(&cpu1_work, cpu1_allocates);
		schedule_work_on(1, &cpu1_work);
		__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
		page = alloc_pages(GFP_KERNEL, 0);
		KUNIT_ASSERT_TRUE(test, wait_for(&cpu1_done, 1));
		KUNIT_EXPECT_NOT_NULL(test, page);
		KUNIT_EXPECT_NOT_NULL(test, cpu1_page);
		KUNIT_EXPECT_EQ_MSG(test, global_vm_event(OOM_KILL) - kills, 1, "round %d", round);
		KUNIT_EXPECT_EQ(test, victims[0].kills + victims[1].kills, 1);
		if (page)
			held_add(&held, page, 0);
		if (cpu1_page)
			held_add(&held, cpu1_page, 0);
		for (unsigned int i = 0; i < ARRAY_SIZE(victims); i++) {
			unregister_oom_victim(&victims[i].victim);
			held_free_all(&victims[i].mem);
		}
		held_free_all(&held);
	}
}

/* ---------------------------------------------------------------- unregister during a kill */

static void cpu1_allocates_no_go(struct work_struct *work)
{
	(void)work;
	cpu1_page = alloc_pages(GFP_KERNEL, 0);
	__atomic_store_n(&cpu1_done, 1, __ATOMIC_RELEASE);
}

static void unregister_waits_for_a_kill_in_flight(struct kunit *test)
{
	struct oom_test_victim *v = &victims[0];

	kunit_expect_report(test, "invoked oom-killer");
	held_exhaust(&held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
	victim_setup(v, "smp_oom_slow_victim", 4);
	v->slow_kill_ms = 50;
	cpu1_done = 0;
	cpu1_page = NULL;
	INIT_WORK(&cpu1_work, cpu1_allocates_no_go);
	schedule_work_on(1, &cpu1_work);
	KUNIT_ASSERT_TRUE(test, wait_for(&v->in_kill, 1));
	/* CPU 1 is inside kill(): this must wait until the kill is over */
	unregister_oom_victim(&v->victim);
	KUNIT_EXPECT_EQ(test, __atomic_load_n(&v->kill_done, __ATOMIC_ACQUIRE), 1);
	KUNIT_ASSERT_TRUE(test, wait_for(&cpu1_done, 1));
	KUNIT_EXPECT_NOT_NULL(test, cpu1_page);
	if (cpu1_page)
		held_add(&held, cpu1_page, 0);
}

/* -------------------------------------------------------------- kill() and a shrinker allocate */

static unsigned long cpu0_in_kill, cpu1_in_scan;
static struct page *kill_page, *scan_page;

/* Nothing to give on CPU 0 (its reclaim ends at once); on CPU 1 one object. */
static unsigned long cross_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	return smp_processor_id() == 1 ? 1 : SHRINK_EMPTY;
}

/* CPU 1, holding the shrinker lock, allocates while CPU 0 is inside kill(). */
static unsigned long cross_scan(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	if (smp_processor_id() != 1 || scan_page)
		return 0;
	__atomic_store_n(&cpu1_in_scan, 1, __ATOMIC_RELEASE);
	mdelay(5);		/* CPU 0 is allocating in kill() by now */
	scan_page = alloc_pages(GFP_KERNEL, 0);
	return 0;
}

static struct shrinker cross_shrinker = {
	.count_objects = cross_count,
	.scan_objects = cross_scan,
	.seeks = DEFAULT_SEEKS,
};

/* The victim's kill() on CPU 0, holding the OOM lock, allocates (the code's comment expects it). */
static void allocating_kill(struct oom_victim *v)
{
	struct oom_test_victim *tv = container_of(v, struct oom_test_victim, victim);

	__atomic_store_n(&cpu0_in_kill, 1, __ATOMIC_RELEASE);
	wait_for(&cpu1_in_scan, 1);
	kill_page = alloc_pages(GFP_KERNEL, 0);
	held_free_all(&tv->mem);
	tv->kills++;
}

static void cpu1_reclaims_into_the_shrinker(struct work_struct *work)
{
	(void)work;
	wait_for(&cpu0_in_kill, 1);
	cpu1_page = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0);
	__atomic_store_n(&cpu1_done, 1, __ATOMIC_RELEASE);
}

/*
 * Before PF_MEMALLOC: CPU 0's allocation in kill() reclaimed and waited for
 * the shrinker lock; CPU 1's allocation in the shrinker went on to the OOM
 * killer and waited for the OOM lock: "BUG: spinlock lockup suspected on
 * CPU#0", then a hang.
 */
static void kill_and_shrinker_allocating_on_two_cpus_do_not_deadlock(struct kunit *test)
{
	struct oom_test_victim *v = &victims[0];
	struct page *page;

	kunit_expect_report(test, "invoked oom-killer");
	held_exhaust(&held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
	victim_setup(v, "smp_oom_allocating_victim", 4);
	v->victim.kill = allocating_kill;
	cpu0_in_kill = cpu1_in_scan = cpu1_done = 0;
	kill_page = scan_page = cpu1_page = NULL;
	register_shrinker(&cross_shrinker, "smp_oom_cross");
	INIT_WORK(&cpu1_work, cpu1_reclaims_into_the_shrinker);
	schedule_work_on(1, &cpu1_work);
	page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_EXPECT_TRUE(test, wait_for(&cpu1_done, 1));
	unregister_shrinker(&cross_shrinker);
	KUNIT_EXPECT_EQ(test, v->kills, 1);
	KUNIT_EXPECT_NOT_NULL(test, page);
	KUNIT_EXPECT_NOT_NULL(test, kill_page);		/* from the reserve */
	KUNIT_EXPECT_NOT_NULL(test, scan_page);
	if (page)
		held_add(&held, page, 0);
	if (kill_page)
		held_add(&held, kill_page, 0);
	if (scan_page)
		held_add(&held, scan_page, 0);
	if (cpu1_page)
		held_add(&held, cpu1_page, 0);
}

/* ---------------------------------------------------------------- NOFAIL, no reclaim */

static struct held_pages cpu1_pages;

/* CPU 1 frees single pages: they wait on its per-CPU list (fewer than its high mark). */
static void cpu1_frees_a_few(void *info)
{
	unsigned long n = (unsigned long)info;

	for (unsigned long i = 0; i < n; i++) {
		struct page *page = held_take(&cpu1_pages, 0);

		if (page)
			__free_pages(page, 0);
	}
}

static __noinline struct page *nofail_with_interrupts_off(void)
{
	unsigned long flags;
	struct page *page;

	local_irq_save(flags);
	page = alloc_pages(GFP_ATOMIC | __GFP_NOFAIL, 0);
	local_irq_restore(flags);
	return page;
}

/*
 * Everything taken, even the reserves, except a few pages on CPU 1's
 * per-CPU list: only draining that list can satisfy CPU 0.
 */
static void take_all_but_cpu1_list(struct kunit *test)
{
	struct page *page;

	held_init(&cpu1_pages);
	for (int i = 0; i < 4; i++) {
		page = alloc_pages(GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, page);
		held_add(&cpu1_pages, page, 0);
	}
	held_exhaust(&held, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(1, cpu1_frees_a_few, (void *)2UL, 1), 0);
	KUNIT_ASSERT_NULL(test, alloc_pages(GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN, 0));
}

static void nofail_without_reclaim_drains_other_cpus(struct kunit *test)
{
	struct page *page;

	kunit_expect_report(test, "WARNING: at mm/page_alloc.c");
	take_all_but_cpu1_list(test);
	page = alloc_pages(GFP_NOWAIT | __GFP_NOFAIL, 0);	/* interrupts on: by IPI */
	KUNIT_EXPECT_NOT_NULL(test, page);
	if (page)
		held_add(&held, page, 0);
	held_free_all(&cpu1_pages);
	held_free_all(&held);

	take_all_but_cpu1_list(test);
	page = nofail_with_interrupts_off();		/* off: by CPU 1's deferred work */
	KUNIT_EXPECT_NOT_NULL(test, page);
	if (page)
		held_add(&held, page, 0);
	held_free_all(&cpu1_pages);
}

/*
 * The other way round: CPU 1, interrupts off, needs the two pages on CPU
 * 0's per-CPU list; it can only ask CPU 0, through CPU 0's deferred work.
 */
static struct page *ap_nofail_page;
static unsigned long ap_nofail_done;

static void ap_nofail_with_interrupts_off(struct work_struct *work)
{
	(void)work;
	ap_nofail_page = nofail_with_interrupts_off();
	__atomic_store_n(&ap_nofail_done, 1, __ATOMIC_RELEASE);
}

/* Everything taken but two pages on CPU 0's own list; CPU 1 then asks for one. */
static void ap_needs_cpu0_list(struct kunit *test)
{
	struct held_pages mine;

	held_init(&mine);
	for (int i = 0; i < 2; i++)
		KUNIT_ASSERT_NOT_NULL(test, held_alloc(&mine, GFP_KERNEL, 0));
	held_exhaust(&held, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN);
	held_free_all(&mine);			/* onto CPU 0's list */
	ap_nofail_page = NULL;
	ap_nofail_done = 0;
	INIT_WORK(&cpu1_work, ap_nofail_with_interrupts_off);
	schedule_work_on(1, &cpu1_work);
}

/* CPU 1 got its page, or (a failed case) is let go and waited for. */
static void ap_nofail_finish(struct kunit *test, bool got_it)
{
	if (!got_it) {
		run_deferred_work();		/* let CPU 1 go */
		wait_for(&ap_nofail_done, 1);
	}
	KUNIT_EXPECT_NOT_NULL(test, ap_nofail_page);
	if (ap_nofail_page)
		held_add(&held, ap_nofail_page, 0);
}

/*
 * The prompt's wait for a key is CPU 0's idle loop: what other CPUs asked
 * of it must run there.  Before the fix CPU 0 spun at the prompt and CPU 1
 * for ever (3 s here, then the test lets CPU 1 go itself).
 */
static void ap_nofail_progresses_while_cpu0_idles_at_the_prompt(struct kunit *test)
{
	u64 end;

	kunit_allow_report(test, "WARNING: at mm/page_alloc.c");	/* once a boot */
	ap_needs_cpu0_list(test);
	end = ktime_get_ns() + 3ULL * 1000 * 1000 * 1000;
	while (!__atomic_load_n(&ap_nofail_done, __ATOMIC_ACQUIRE) && ktime_get_ns() < end)
		monitor_idle();
	KUNIT_EXPECT_EQ_MSG(test, __atomic_load_n(&ap_nofail_done, __ATOMIC_ACQUIRE), 1,
			    "CPU 1 still waits for CPU 0's deferred work after 3 s at the prompt");
	ap_nofail_finish(test, ap_nofail_done);
}

/* CPU 0 waiting for CPU 1's work item runs its own deferred work meanwhile. */
static void ap_nofail_progresses_while_cpu0_flushes_it(struct kunit *test)
{
	kunit_allow_report(test, "WARNING: at mm/page_alloc.c");	/* once a boot */
	ap_needs_cpu0_list(test);
	flush_work(&cpu1_work);
	ap_nofail_finish(test, true);
}

/* ---------------------------------------------------------------- from an interrupt handler */

static struct page *irq_page;

static void allocate_in_handler(void *info)
{
	(void)info;
	irq_page = alloc_pages(GFP_KERNEL, 0);
}

static void gfp_kernel_from_an_interrupt_handler_is_reported(struct kunit *test)
{
	unsigned long pos = printk_log_pos(), bad = global_vm_event(ALLOC_BAD_CONTEXT);

	kunit_expect_report(test, "BUG: sleeping allocation from invalid context");
	irq_page = NULL;
	KUNIT_ASSERT_EQ(test, smp_call_function_single(1, allocate_in_handler, NULL, 1), 0);
	KUNIT_EXPECT_NOT_NULL(test, irq_page);	/* memory is plentiful: no reclaim needed */
	if (irq_page)
		__free_pages(irq_page, 0);
	KUNIT_EXPECT_EQ(test, global_vm_event(ALLOC_BAD_CONTEXT) - bad, 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "BUG: sleeping allocation from "
					   "invalid context by allocate_in_handler"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "in_interrupt(): 1"));
}

/* ---------------------------------------------------------------- a double free race */

#define RACE_ROUNDS	400

static struct page *race_page;
static unsigned long race_round, race_done;

static void cpu1_frees_the_page(struct work_struct *work)
{
	(void)work;
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		if (!wait_for(&race_round, r))
			return;
		__free_pages(race_page, 0);
		__atomic_store_n(&race_done, r, __ATOMIC_RELEASE);
	}
}

static void a_page_freed_twice_at_once_is_freed_once(struct kunit *test)
{
	unsigned long bad = global_vm_event(PGALLOC_BAD_FREE);
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "BUG: Bad page free");
	race_round = race_done = 0;
	INIT_WORK(&cpu1_work, cpu1_frees_the_page);
	schedule_work_on(1, &cpu1_work);
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		race_page = alloc_pages(GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, race_page);
		__atomic_store_n(&race_round, r, __ATOMIC_RELEASE);
		__free_pages(race_page, 0);
		KUNIT_ASSERT_TRUE(test, wait_for(&race_done, r));
	}
	flush_work(&cpu1_work);
	drain_all_pages();
	/* one free per round won; the other was reported */
	KUNIT_EXPECT_EQ(test, global_vm_event(PGALLOC_BAD_FREE) - bad, RACE_ROUNDS);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "double free"));
	/* and no page went on a free list twice (exit checks the total too) */
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free_before);
}

static struct kunit_case smp_oom_cases[] = {
	KUNIT_CASE(two_cpus_out_of_memory_kill_one_victim),
	KUNIT_CASE(unregister_waits_for_a_kill_in_flight),
	KUNIT_CASE(kill_and_shrinker_allocating_on_two_cpus_do_not_deadlock),
	KUNIT_CASE(nofail_without_reclaim_drains_other_cpus),
	KUNIT_CASE(ap_nofail_progresses_while_cpu0_idles_at_the_prompt),
	KUNIT_CASE(ap_nofail_progresses_while_cpu0_flushes_it),
	KUNIT_CASE(gfp_kernel_from_an_interrupt_handler_is_reported),
	KUNIT_CASE(a_page_freed_twice_at_once_is_freed_once),
	{}
};

static struct kunit_suite smp_oom_suite = {
	.name = "smp_oom",
	.init = smp_oom_init,
	.exit = smp_oom_exit,
	.test_cases = smp_oom_cases,
	.strict = true,
};
kunit_test_suite(smp_oom_suite);
