/*
 * tests/kernel/smp_page_alloc_test.c - the page allocator with every CPU
 * allocating and freeing at once.
 *
 * Each CPU (the APs from deferred work, CPU 0 from the test itself, all
 * with interrupts on) keeps up to SLOTS blocks of random orders 0..4 (fewer
 * where the free lists do not have that many order-4 blocks), and in
 * each step frees a random slot (checking the pattern it wrote into every
 * page of the block: a page handed to two owners at once, or changed by
 * someone else, shows here) and allocates a new block in its place.
 * Order 0 mostly travels through the per-CPU lists, larger orders through
 * the zone's buddy lists under its lock, so both paths are hammered from
 * all CPUs.  At the end every block is freed and nr_free_pages() (which
 * counts the per-CPU lists too) must be back where it started.
 */
#include "page_alloc_test.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/page_alloc.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"

#define SLOTS		16
/*
 * Operations, shared among the CPUs.  Fewer above 4 CPUs: the test matrix
 * runs 8 vCPUs on 2 host cores, where every hand-over of the zone's ticket
 * lock may wait for the host to schedule the next waiter's thread (see
 * smp_spinlock_test.c); 2400 operations already take several seconds there.
 */
#define TOTAL_OPS	12000
#define TOTAL_OPS_MANY	2400
#define MAX_ORDER_USED	4

struct stress_cpu {
	struct work_struct work;
	unsigned long addr[SLOTS];
	unsigned int order[SLOTS];
	unsigned long ops, allocs, failures, corrupt, done;
	u64 seed;
};

static struct stress_cpu stress[NR_CPUS];
static unsigned long go, ops_per_cpu;
static unsigned int slots;		/* used of SLOTS: fewer on a small machine */

static u64 next_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static u64 stamp(unsigned int cpu, unsigned int slot, unsigned long page)
{
	return 0x5a00000000000000ULL | ((u64)cpu << 40) | ((u64)slot << 32) | page;
}

/* One u64 every 512 bytes of every page: cheap under TCG, still catches sharing. */
static void fill(unsigned long addr, unsigned int order, unsigned int cpu, unsigned int slot)
{
	for (unsigned long p = 0; p < (1UL << order); p++) {
		u64 *w = (u64 *)(addr + p * PAGE_SIZE);

		for (unsigned int i = 0; i < PAGE_SIZE / 8; i += 64)
			w[i] = stamp(cpu, slot, p) ^ i;
	}
}

static bool check(unsigned long addr, unsigned int order, unsigned int cpu, unsigned int slot)
{
	for (unsigned long p = 0; p < (1UL << order); p++) {
		const u64 *w = (const u64 *)(addr + p * PAGE_SIZE);

		for (unsigned int i = 0; i < PAGE_SIZE / 8; i += 64) {
			if (w[i] != (stamp(cpu, slot, p) ^ i))
				return false;
		}
	}
	return true;
}

static void stress_run(struct stress_cpu *s, unsigned int cpu)
{
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		cpu_relax();
	for (unsigned long op = 0; op < ops_per_cpu; op++) {
		unsigned int slot = next_rand(&s->seed) % slots;
		unsigned int order = next_rand(&s->seed) % (MAX_ORDER_USED + 1);

		if (s->addr[slot]) {
			if (!check(s->addr[slot], s->order[slot], cpu, slot))
				s->corrupt++;
			free_pages(s->addr[slot], s->order[slot]);
			s->addr[slot] = 0;
		}
		s->addr[slot] = __get_free_pages(GFP_KERNEL, order);
		if (!s->addr[slot]) {
			s->failures++;
			continue;
		}
		s->order[slot] = order;
		s->allocs++;
		fill(s->addr[slot], order, cpu, slot);
		s->ops++;
	}
	for (unsigned int slot = 0; slot < slots; slot++) {
		if (!s->addr[slot])
			continue;
		if (!check(s->addr[slot], s->order[slot], cpu, slot))
			s->corrupt++;
		free_pages(s->addr[slot], s->order[slot]);
		s->addr[slot] = 0;
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

static void stress_work(struct work_struct *work)
{
	struct stress_cpu *s = container_of(work, struct stress_cpu, work);

	stress_run(s, smp_processor_id());
}

/*
 * Slots per CPU such that every CPU may hold a block of the largest order
 * in each at once: SLOTS, or fewer where the free lists have fewer such
 * blocks (6 MiB with four CPUs: 24, for 64 slots).  The property tested
 * does not depend on the number, so the case scales rather than skips,
 * down to 2 slots per CPU.
 */
static unsigned int slots_that_fit(struct kunit *test)
{
	unsigned long blocks = 0, fit;
	struct zone *zone;

	drain_all_pages();
	for_each_populated_zone(zone) {
		for (unsigned int o = MAX_ORDER_USED; o <= MAX_PAGE_ORDER; o++)
			blocks += READ_ONCE(zone->free_area[o].nr_free) << (o - MAX_ORDER_USED);
	}
	/* the per-CPU lists' refills split some: a block per CPU to spare */
	blocks = min(blocks, pages_available() >> MAX_ORDER_USED);
	fit = blocks / num_online_cpus();
	fit = fit > 1 ? fit - 1 : 0;
	if (fit < 2)
		kunit_skip(test, "needs 2 free blocks of order %d per CPU and one to spare, "
			   "the free lists give %lu for %u CPUs", MAX_ORDER_USED, blocks,
			   num_online_cpus());
	return min(fit, (unsigned long)SLOTS);
}

static void all_cpus_allocate_and_free_at_once(struct kunit *test)
{
	unsigned long before, after, total_ops = 0, total_allocs = 0;
	unsigned int cpu;
	u64 t0;

	slots = slots_that_fit(test);
	before = nr_free_pages();
	ops_per_cpu = (num_online_cpus() > 4 ? TOTAL_OPS_MANY : TOTAL_OPS) / num_online_cpus();
	go = 0;
	for_each_online_cpu(cpu) {
		stress[cpu] = (struct stress_cpu){ .seed = 0x9e3779b97f4a7c15ULL * (cpu + 1) };
		INIT_WORK(&stress[cpu].work, stress_work);
		if (cpu)
			KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &stress[cpu].work));
	}
	t0 = ktime_get_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	stress_run(&stress[0], 0);
	for_each_online_cpu(cpu) {
		if (cpu)
			flush_work(&stress[cpu].work);
		KUNIT_EXPECT_EQ(test, stress[cpu].done, 1);
		KUNIT_EXPECT_EQ_MSG(test, stress[cpu].corrupt, 0, "CPU%u found blocks changed "
				    "under it (given out twice?)", cpu);
		KUNIT_EXPECT_EQ(test, stress[cpu].failures, 0);
		total_ops += stress[cpu].ops;
		total_allocs += stress[cpu].allocs;
	}
	after = nr_free_pages();
	kunit_info(test, "%u CPUs, %u slots each, %lu alloc/free pairs of orders 0..%d in %llu "
		   "ms; free pages %lu before, %lu after\n", num_online_cpus(), slots, total_allocs,
		   MAX_ORDER_USED, (unsigned long long)(ktime_get_ns() - t0) / 1000000, before,
		   after);
	KUNIT_EXPECT_EQ(test, total_ops, ops_per_cpu * num_online_cpus());
	KUNIT_EXPECT_EQ(test, after, before);
}

static struct kunit_case smp_page_alloc_cases[] = {
	KUNIT_CASE(all_cpus_allocate_and_free_at_once),
	{}
};

static struct kunit_suite smp_page_alloc_suite = {
	.name = "smp_page_alloc",
	.test_cases = smp_page_alloc_cases,
	.strict = true,
};
kunit_test_suite(smp_page_alloc_suite);
