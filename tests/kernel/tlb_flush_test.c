/*
 * tests/kernel/tlb_flush_test.c - the edges of flush_tlb_kernel_range().
 *
 * The shootdown itself is proven on a real stale entry in smp_tlb_test.c;
 * here, what the range arguments mean: an end of TLB_FLUSH_ALL (or in the
 * last page of the address space, which would wrap to 0 when rounded up)
 * flushes everything on every CPU, and a range with start above end is
 * refused with a WARNING and flushes nothing; an end inside a page
 * flushes that page.  The vmstat TLB counters tell what each CPU did.
 */
#include "kunit/test.h"
#include "test_log.h"
#include "kernel/smp.h"
#include "mm/tlbflush.h"
#include "mm/vmstat.h"

static unsigned long flush_all_before, flush_one_before;

static void mark_counters(void)
{
	flush_all_before = global_vm_event(NR_TLB_LOCAL_FLUSH_ALL);
	flush_one_before = global_vm_event(NR_TLB_LOCAL_FLUSH_ONE);
}

static void end_of_address_space_flushes_everything(struct kunit *test)
{
	unsigned long n = num_online_cpus(), start = PAGE_OFFSET;

	mark_counters();
	flush_tlb_kernel_range(start, TLB_FLUSH_ALL);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - flush_all_before, n);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ONE) - flush_one_before, 0);

	/* an end inside the last page rounds up past the top: the same */
	mark_counters();
	flush_tlb_kernel_range(start, ~0UL - 100);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - flush_all_before, n);
}

static void start_above_end_is_refused(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_expect_report(test, "WARNING: at arch/x86_64/tlb.c");
	mark_counters();
	flush_tlb_kernel_range(PAGE_OFFSET + 2 * PAGE_SIZE, PAGE_OFFSET);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - flush_all_before, 0);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ONE) - flush_one_before, 0);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "WARNING: at arch/x86_64/tlb.c"), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "is above end"));

	/* an empty range is not an error: it flushes nothing, silently */
	pos = printk_log_pos();
	flush_tlb_kernel_range(PAGE_OFFSET, PAGE_OFFSET);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ONE) - flush_one_before, 0);
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "WARNING"));
}

/*
 * An end inside a page flushes that page: the range covers every page it
 * touches, [start rounded down, end rounded up).  One page on each CPU for
 * a single byte; two for a range that crosses into the next page.
 */
static void a_range_ending_inside_a_page_flushes_that_page(struct kunit *test)
{
	unsigned long n = num_online_cpus(), start = PAGE_OFFSET + 4 * PAGE_SIZE;

	mark_counters();
	flush_tlb_kernel_range(start, start + 1);
	KUNIT_EXPECT_EQ_MSG(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ONE) - flush_one_before, n,
			    "one byte: one page flushed on each of %lu CPUs", n);
	mark_counters();
	flush_tlb_kernel_range(start + 100, start + PAGE_SIZE + 1);
	KUNIT_EXPECT_EQ_MSG(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ONE) - flush_one_before,
			    2 * n, "a range across a page boundary: two pages on each CPU");
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - flush_all_before, 0);
}

static struct kunit_case tlb_flush_cases[] = {
	KUNIT_CASE(end_of_address_space_flushes_everything),
	KUNIT_CASE(start_above_end_is_refused),
	KUNIT_CASE(a_range_ending_inside_a_page_flushes_that_page),
	{}
};

static struct kunit_suite tlb_flush_suite = {
	.name = "tlb_flush",
	.test_cases = tlb_flush_cases,
	.strict = true,
};
kunit_test_suite(tlb_flush_suite);
