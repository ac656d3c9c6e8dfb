/*
 * tests/kernel/mm_debug_test.c - the allocator's own invariants are checked
 * (mm/mmdebug.h): breaking one stops with an oops at the line that found it.
 *
 * Each case calls __free_one_page() - the heart of the buddy allocator -
 * the way only a bug inside mm/ would: without the zone lock, with a block
 * not aligned to its order, or into a zone the page is not in.  The
 * VM_BUG_ON must fire before anything is changed: the case catches the
 * oops (as oops_test.c does), checks what it said, and the allocator is
 * unharmed (free pages as before).
 */
#include "kunit/test.h"
#include "test_log.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"

static jmp_buf oops_env;

static void back_here(void)
{
	longjmp(oops_env, 1);
}

/* Run __free_one_page(@page, @pfn, @zone, @order), with @zone locked or not; true if it oopsed. */
static bool free_one_page_oopses(struct page *page, unsigned long pfn, struct zone *zone,
				 unsigned int order, bool lock)
{
	oops_catcher_t kunit_catcher = set_oops_catcher(back_here);
	volatile bool oopsed = false;
	unsigned long flags;

	local_irq_save(flags);
	if (lock)
		spin_lock(&zone->lock);
	if (!setjmp(oops_env))
		__free_one_page(page, pfn, zone, order);
	else
		oopsed = true;
	if (lock)
		spin_unlock(&zone->lock);
	local_irq_restore(flags);
	set_oops_catcher(kunit_catcher);
	return oopsed;
}

static void expect_vm_bug(struct kunit *test, unsigned long pos, const char *check)
{
	const char *log = log_since(pos);

	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "kernel BUG at mm/page_alloc.c:"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "invalid opcode"));
	if (check)
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, check), "%s", check);
}

static void free_list_change_without_the_zone_lock(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	unsigned long free = nr_free_pages(), pos = printk_log_pos();

	kunit_expect_report(test, "kernel BUG at mm/page_alloc.c");
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_TRUE(test, free_one_page_oopses(page, page_to_pfn(page), page_zone(page), 0,
						     false));
	expect_vm_bug(test, pos, NULL);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);
	__free_pages(page, 0);
}

static void block_not_aligned_to_its_order(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);
	unsigned long free = nr_free_pages(), pos = printk_log_pos();

	kunit_expect_report(test, "kernel BUG at mm/page_alloc.c");
	KUNIT_ASSERT_NOT_NULL(test, page);
	/* the block's second page as if it were an order-1 block: its pfn is odd */
	KUNIT_EXPECT_TRUE(test, free_one_page_oopses(page + 1, page_to_pfn(page + 1),
						     page_zone(page), 1, true));
	expect_vm_bug(test, pos, "page dumped because: VM_BUG_ON_PAGE(page_to_pfn(page) & "
			  "((1UL << order) - 1))");
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);
	__free_pages(page, 1);
}

static void page_freed_into_another_zone(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	unsigned long free = nr_free_pages(), pos = printk_log_pos();
	struct zone *zone, *other = NULL;

	kunit_expect_report(test, "kernel BUG at mm/page_alloc.c");
	KUNIT_ASSERT_NOT_NULL(test, page);
	for_each_populated_zone(zone) {
		if (zone != page_zone(page))
			other = zone;
	}
	if (!other) {
		__free_pages(page, 0);
		kunit_skip(test, "one zone only");
	}
	KUNIT_EXPECT_TRUE(test, free_one_page_oopses(page, page_to_pfn(page), other, 0, true));
	expect_vm_bug(test, pos, "VM_BUG_ON_PAGE(page_zone(page) != zone)");
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);
	__free_pages(page, 0);
}

static struct kunit_case mm_debug_cases[] = {
	KUNIT_CASE(free_list_change_without_the_zone_lock),
	KUNIT_CASE(block_not_aligned_to_its_order),
	KUNIT_CASE(page_freed_into_another_zone),
	{}
};

static struct kunit_suite mm_debug_suite = {
	.name = "mm_debug",
	.test_cases = mm_debug_cases,
	.strict = true,
};
kunit_test_suite(mm_debug_suite);
