/*
 * tests/kernel/pgtable_test.c - the kernel page-table API that vmalloc stands on.
 *
 * arch/x86_64/pgtable.c promises: mapping over a present entry is refused
 * and reported; a range that cannot be mapped whole (no memory for a page
 * table half-way) is unmapped again; two CPUs populating the same empty
 * range at once lose no mapping and leak no page-table page.  Each is
 * checked here on the real page tables, in a scratch range of kernel
 * address space nothing else uses (PGTABLE_TEST_BASE, in the hole Linux
 * also leaves unused above the vmalloc space).  Page-table pages the tests
 * create stay, as all kernel page-table pages do.
 */
#include "page_alloc_test.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/tlbflush.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/timer.h"
#include "lib/errno.h"

#define PGTABLE_TEST_BASE	0xffffe98000000000UL
#define PMD_BYTES		(2UL << 20)

static struct page *frame_a, *frame_b;

static int pgtable_test_init(struct kunit *test)
{
	frame_a = alloc_page(GFP_KERNEL);
	frame_b = alloc_page(GFP_KERNEL);
	if (!frame_a || !frame_b)
		kunit_skip(test, "no memory");
	return 0;
}

static void pgtable_test_exit(struct kunit *test)
{
	(void)test;
	if (frame_a)
		__free_page(frame_a);
	if (frame_b)
		__free_page(frame_b);
}

static phys_addr_t pa_of(struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

/* Where @va is mapped, or 0. */
static phys_addr_t mapped_to(unsigned long va)
{
	unsigned int level;
	u64 *pte = lookup_kernel_pte(va, &level);

	return pte ? (*pte & PTE_PFN_MASK) : 0;
}

static void unmap_and_flush(unsigned long va, unsigned long size)
{
	unmap_kernel_range(va, size);
	flush_tlb_kernel_range(va, va + size);
}

static void mapping_over_a_present_entry_is_refused(struct kunit *test)
{
	unsigned long va = PGTABLE_TEST_BASE, pos;

	KUNIT_ASSERT_EQ(test, map_kernel_page(va, pa_of(frame_a), PAGE_KERNEL, GFP_KERNEL), 0);
	pos = printk_log_pos();
	KUNIT_EXPECT_EQ(test, map_kernel_page(va, pa_of(frame_b), PAGE_KERNEL, GFP_KERNEL),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, mapped_to(va), pa_of(frame_a));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "already mapped to"));
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "pgtable: cannot map"), 1);
	/* a range over it: refused too, and what it had mapped before is undone */
	KUNIT_EXPECT_EQ(test, map_kernel_range(va - PAGE_SIZE, pa_of(frame_b), 2 * PAGE_SIZE,
					       PAGE_KERNEL, GFP_KERNEL), -EEXIST);
	KUNIT_EXPECT_EQ(test, mapped_to(va - PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, mapped_to(va), pa_of(frame_a));
	unmap_and_flush(va, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, mapped_to(va), 0);
}

/*
 * Eight pages across a 2 MiB boundary: the first four go into an existing
 * page table, the last four need a new one, which cannot be had (memory
 * taken, no reclaim allowed): nothing of the range may stay mapped.
 */
static void a_range_that_fails_half_way_is_unwound(struct kunit *test)
{
	unsigned long boundary = PGTABLE_TEST_BASE + 4 * PMD_BYTES;
	unsigned long start = boundary - 4 * PAGE_SIZE, size = 8 * PAGE_SIZE;
	struct held_pages held;
	int err;

	held_init(&held);
	/* the first table exists, the second does not */
	KUNIT_ASSERT_EQ(test, map_kernel_page(start, pa_of(frame_a), PAGE_KERNEL, GFP_KERNEL), 0);
	unmap_and_flush(start, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, mapped_to(boundary), 0);

	held_exhaust(&held, GFP_NOWAIT | __GFP_NOWARN);
	err = map_kernel_range(start, 0x100000, size, PAGE_KERNEL_RO, GFP_NOWAIT | __GFP_NOWARN);
	held_free_all(&held);
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	for (unsigned long va = start; va < start + size; va += PAGE_SIZE)
		KUNIT_EXPECT_EQ_MSG(test, mapped_to(va), 0, "va %#lx still mapped", va);

	/* with memory, the same call maps all of it */
	KUNIT_ASSERT_EQ(test, map_kernel_range(start, pa_of(frame_a), PAGE_SIZE, PAGE_KERNEL,
					       GFP_KERNEL), 0);
	unmap_and_flush(start, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, map_kernel_range(start, 0x100000, size, PAGE_KERNEL_RO, GFP_KERNEL),
			0);
	for (unsigned long i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, mapped_to(start + i * PAGE_SIZE), 0x100000 + i * PAGE_SIZE);
	unmap_and_flush(start, size);
}

/*
 * A range whose end wraps past the top of the address space is a misuse: it
 * used to "succeed" with nothing mapped (the loop ran while va < va + size).
 */
static void a_range_that_wraps_is_refused(struct kunit *test)
{
	unsigned long va = PGTABLE_TEST_BASE, size = 0UL - PGTABLE_TEST_BASE + PAGE_SIZE;
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "BUG: map_kernel_range");
	KUNIT_EXPECT_EQ(test, map_kernel_range(va, pa_of(frame_a), size, PAGE_KERNEL, GFP_KERNEL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG: map_kernel_range"), 1);
	KUNIT_EXPECT_EQ(test, mapped_to(va), 0);
	/* nor may an unaligned start or size map past what was asked */
	KUNIT_EXPECT_EQ(test, map_kernel_range(va + 1, pa_of(frame_a), PAGE_SIZE, PAGE_KERNEL,
					       GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, map_kernel_range(va, pa_of(frame_a), PAGE_SIZE + 1, PAGE_KERNEL,
					       GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mapped_to(va), 0);
	KUNIT_EXPECT_EQ(test, mapped_to(va + PAGE_SIZE), 0);
	unmap_and_flush(va, 2 * PAGE_SIZE);	/* had the checks failed */

	/* unmapping such a range: reported too, and what is mapped stays (it did nothing, silently) */
	kunit_expect_report(test, "BUG: unmap_kernel_range");
	KUNIT_ASSERT_EQ(test, map_kernel_page(va, pa_of(frame_a), PAGE_KERNEL, GFP_KERNEL), 0);
	pos = printk_log_pos();
	unmap_kernel_range(va, size);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG: unmap_kernel_range"), 1);
	KUNIT_EXPECT_EQ(test, mapped_to(va), pa_of(frame_a));
	unmap_and_flush(va, PAGE_SIZE);
}

/* ---------------------------------------------------------------- two CPUs */

#define RACE_ROUNDS	16
#define DEADLINE_NS	(10ULL * 1000 * 1000 * 1000)

static unsigned long race_go, race_done;
static int cpu1_err;
static struct work_struct race_work;

static unsigned long race_va(unsigned long round)
{
	/* a fresh 2 MiB region each round: a page table must be created */
	return PGTABLE_TEST_BASE + (1UL << 30) + round * PMD_BYTES;
}

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

static void cpu1_maps(struct work_struct *work)
{
	(void)work;
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		if (!wait_for(&race_go, r))
			return;
		cpu1_err = map_kernel_page(race_va(r) + PAGE_SIZE, pa_of(frame_b), PAGE_KERNEL,
					   GFP_KERNEL);
		__atomic_store_n(&race_done, r, __ATOMIC_RELEASE);
	}
}

static void two_cpus_populating_one_range(struct kunit *test)
{
	unsigned long free_before, tables;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	/* the upper levels exist beforehand: each round needs exactly one new table */
	KUNIT_ASSERT_EQ(test, map_kernel_page(race_va(0), pa_of(frame_a), PAGE_KERNEL, GFP_KERNEL),
			0);
	unmap_and_flush(race_va(0), PAGE_SIZE);
	drain_all_pages();
	free_before = nr_free_pages();
	race_go = race_done = 0;
	INIT_WORK(&race_work, cpu1_maps);
	schedule_work_on(1, &race_work);
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		int err;

		__atomic_store_n(&race_go, r, __ATOMIC_RELEASE);
		err = map_kernel_page(race_va(r), pa_of(frame_a), PAGE_KERNEL, GFP_KERNEL);
		KUNIT_ASSERT_TRUE(test, wait_for(&race_done, r));
		KUNIT_EXPECT_EQ(test, err, 0);
		KUNIT_EXPECT_EQ(test, cpu1_err, 0);
		/* both mappings are there: neither CPU's table replaced the other's */
		KUNIT_EXPECT_EQ_MSG(test, mapped_to(race_va(r)), pa_of(frame_a), "round %lu", r);
		KUNIT_EXPECT_EQ_MSG(test, mapped_to(race_va(r) + PAGE_SIZE), pa_of(frame_b),
				    "round %lu", r);
		unmap_and_flush(race_va(r), 2 * PAGE_SIZE);
	}
	flush_work(&race_work);
	drain_all_pages();
	tables = free_before - nr_free_pages();
	kunit_info(test, "%d rounds: %lu page-table pages kept\n", RACE_ROUNDS, tables);
	KUNIT_EXPECT_EQ(test, tables, RACE_ROUNDS);	/* one per round, none leaked */
}

static struct kunit_case pgtable_cases[] = {
	KUNIT_CASE(mapping_over_a_present_entry_is_refused),
	KUNIT_CASE(a_range_that_fails_half_way_is_unwound),
	KUNIT_CASE(a_range_that_wraps_is_refused),
	KUNIT_CASE(two_cpus_populating_one_range),
	{}
};

static struct kunit_suite pgtable_suite = {
	.name = "pgtable",
	.init = pgtable_test_init,
	.exit = pgtable_test_exit,
	.test_cases = pgtable_cases,
	.strict = true,
};
kunit_test_suite(pgtable_suite);
