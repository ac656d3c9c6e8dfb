/*
 * tests/kernel/page_alloc_misuse_test.c - misusing the page allocator is
 * reported, and harmless.
 *
 * Proves that each misuse docs/design.md and docs/page_alloc.md list (double free, wrong
 * order, interior page, reserved page, pfn outside RAM, an address that is
 * not page-aligned or not in the direct map, order > MAX_PAGE_ORDER) prints
 * exactly one "BUG: Bad page free:" line naming the page and the reason,
 * changes nothing (free pages and buddyinfo as before) and leaves the
 * allocator working; that an order too large for alloc_pages() fails with
 * a warning; and that page poisoning catches a write after free at the next
 * allocation of the page.
 */
#include "page_alloc_test.h"
#include "arch/x86_64/page.h"
#include "mm/kasan.h"
#include "lib/vsprintf.h"

extern const char _text[];

struct misuse_ctx {
	unsigned long free_before, bad_before, log_pos;
	int largest_order;		/* of the free blocks, before the case */
	bool poisoning_before;
};

static struct misuse_ctx mctx;
static struct buddy_snapshot msnap_before, msnap_after;

static int misuse_init(struct kunit *test)
{
	(void)test;
	mctx.largest_order = largest_free_order();
	mctx.free_before = nr_free_pages();
	mctx.bad_before = global_vm_event(PGALLOC_BAD_FREE);
	mctx.poisoning_before = page_poisoning_enabled();
	buddy_snapshot_take(&msnap_before);
	mctx.log_pos = printk_log_pos();
	return 0;
}

static void misuse_exit(struct kunit *test)
{
	(void)test;
	set_page_poisoning(mctx.poisoning_before);
}

/*
 * Expect exactly @nr "BUG: Bad page free:" lines since @pos, each naming
 * @what (the pfn or address) and one of them @why; then move @pos on.
 */
static void expect_reported(struct kunit *test, unsigned long *pos, unsigned int nr,
			    const char *what, const char *why)
{
	const char *log = log_since(*pos);

	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "BUG: Bad page free:"), nr, "%s", why);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, what), nr, "%s", what);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, why), "%s", why);
	*pos = printk_log_pos();
}

static void expect_pfn_reported(struct kunit *test, unsigned long *pos, unsigned long pfn,
				const char *why)
{
	char what[48];

	snprintf(what, sizeof(what), "pfn:%#lx ", pfn);
	expect_reported(test, pos, 1, what, why);
}

/*
 * Harmless: the misuses counted, nothing freed or lost, the free lists as
 * they were, and allocating and freeing still works.
 */
static void expect_harmless(struct kunit *test, unsigned int nr_misuses)
{
	struct page *page;

	KUNIT_EXPECT_EQ(test, global_vm_event(PGALLOC_BAD_FREE) - mctx.bad_before, nr_misuses);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), mctx.free_before);
	drain_all_pages();
	buddy_snapshot_take(&msnap_after);
	expect_buddy_snapshot_eq(test, &msnap_before, &msnap_after);
	for (int o = 0; o <= MAX_PAGE_ORDER; o += 5) {
		/* a small machine may have no free block of order 10: as large as it had */
		int order = min(o, max(mctx.largest_order, 0));

		page = alloc_pages(GFP_KERNEL, order);
		KUNIT_EXPECT_NOT_NULL(test, page);
		if (page)
			__free_pages(page, order);
	}
	KUNIT_EXPECT_EQ(test, nr_free_pages(), mctx.free_before);
}

/* ---------------------------------------------------------------- bad frees */

static void double_free_is_reported(struct kunit *test)
{
	unsigned long pos = mctx.log_pos;
	struct page *page;

	kunit_expect_report(test, "BUG: Bad page free");
	/* order 0: the first free put it on the per-CPU list */
	page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 0);
	__free_pages(page, 0);
	expect_pfn_reported(test, &pos, page_to_pfn(page), "double free");

	/* ... and again once it is back in the buddy lists, merged */
	drain_all_pages();
	__free_pages(page, 0);
	expect_pfn_reported(test, &pos, page_to_pfn(page), "double free");

	/* order 3, straight to the buddy lists */
	page = alloc_pages(GFP_KERNEL, 3);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 3);
	__free_pages(page, 3);
	expect_pfn_reported(test, &pos, page_to_pfn(page), "double free");
	free_pages((unsigned long)page_address(page), 3);
	expect_pfn_reported(test, &pos, page_to_pfn(page), "double free");
	expect_harmless(test, 4);
}

static void wrong_order_is_reported(struct kunit *test)
{
	unsigned long pos = mctx.log_pos;
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	kunit_expect_report(test, "BUG: Bad page free");
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 1);
	expect_pfn_reported(test, &pos, page_to_pfn(page),
			    "freed with order 1, allocated with order 2");
	__free_pages(page, 3);
	expect_pfn_reported(test, &pos, page_to_pfn(page),
			    "freed with order 3, allocated with order 2");
	free_pages((unsigned long)page_address(page), 0);
	expect_pfn_reported(test, &pos, page_to_pfn(page),
			    "freed with order 0, allocated with order 2");
	/* the block is still allocated, whole: the right free works */
	__free_pages(page, 2);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG:"), 0);
	expect_harmless(test, 3);
}

/*
 * page->private of an allocated page is its owner's (Linux's
 * set_page_private()): what the owner stores there neither blocks the free
 * nor fools the order check.  The allocator hands pages out with it 0.
 */
static void owner_data_in_private_is_not_the_order(struct kunit *test)
{
	static const unsigned int orders[] = { 0, 3 };
	unsigned long pos = mctx.log_pos;
	struct page *page;

	kunit_expect_report(test, "BUG: Bad page free");
	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		page = alloc_pages(GFP_KERNEL, orders[i]);
		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_EQ_MSG(test, page_private(page), 0, "order %u", orders[i]);
		set_page_private(page, 0xdeadbeefUL);
		__free_pages(page, orders[i]);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log_since(pos), "BUG:"), 0, "order %u",
				    orders[i]);
	}
	/* a compound block keeps its order for compound_order() */
	page = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	KUNIT_ASSERT_NOT_NULL(test, page);
	set_page_private(page, 7);
	KUNIT_EXPECT_EQ(test, compound_order(page), 2);
	__free_pages(page, 2);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG:"), 0);
	/* an order in private that matches a wrong free does not let it through */
	page = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, page);
	set_page_private(page, 1);
	__free_pages(page, 1);
	expect_pfn_reported(test, &pos, page_to_pfn(page),
			    "freed with order 1, allocated with order 2");
	__free_pages(page, 2);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG:"), 0);
	expect_harmless(test, 1);
}

static void interior_page_is_reported(struct kunit *test)
{
	unsigned long pos = mctx.log_pos;
	struct page *page = alloc_pages(GFP_KERNEL, 3);
	char why[64];

	kunit_expect_report(test, "BUG: Bad page free");
	KUNIT_ASSERT_NOT_NULL(test, page);
	snprintf(why, sizeof(why), "interior page of the order-3 block at pfn %#lx",
		 page_to_pfn(page));
	__free_pages(page + 1, 0);
	expect_pfn_reported(test, &pos, page_to_pfn(page + 1), why);
	free_pages((unsigned long)page_address(page + 7), 0);
	expect_pfn_reported(test, &pos, page_to_pfn(page + 7), why);
	__free_pages(page + 4, 2);
	expect_pfn_reported(test, &pos, page_to_pfn(page + 4), why);
	__free_pages(page, 3);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG:"), 0);
	expect_harmless(test, 3);
}

static void reserved_page_is_reported(struct kunit *test)
{
	unsigned long pos = mctx.log_pos;
	unsigned long kernel_pfn = __pa(_text) >> PAGE_SHIFT;

	kunit_expect_report(test, "BUG: Bad page free");
	/* in the first MiB, which is never given to the allocator */
	KUNIT_ASSERT_TRUE(test, pfn_valid(0x10));
	__free_pages(pfn_to_page(0x10), 0);
	expect_pfn_reported(test, &pos, 0x10, "reserved page");
	/* the kernel's own text, through its direct-map alias */
	free_pages((unsigned long)__va((phys_addr_t)kernel_pfn << PAGE_SHIFT), 0);
	expect_pfn_reported(test, &pos, kernel_pfn, "reserved page");
	__free_pages(pfn_to_page(kernel_pfn), 1);
	expect_pfn_reported(test, &pos, kernel_pfn, "reserved page");
	expect_harmless(test, 3);
}

static void pfn_outside_ram_is_reported(struct kunit *test)
{
	unsigned long pos = mctx.log_pos;
	unsigned int nr = 0;
	struct page *page;

	kunit_expect_report(test, "BUG: Bad page free");
	__free_pages(pfn_to_page(max_pfn), 0);
	expect_pfn_reported(test, &pos, max_pfn, "not a page of RAM");
	__free_pages(pfn_to_page(max_pfn + (1UL << 20)), 0);
	expect_pfn_reported(test, &pos, max_pfn + (1UL << 20), "not a page of RAM");
	nr = 2;
	/* a hole between RAM ranges without struct pages, if this machine has one */
	for (unsigned long pfn = 0; pfn < max_pfn; pfn += 1UL << 12) {
		if (pfn_valid(pfn))
			continue;
		kunit_info(test, "hole at pfn %#lx", pfn);
		__free_pages(pfn_to_page(pfn), 0);
		expect_pfn_reported(test, &pos, pfn, "not a page of RAM");
		nr++;
		break;
	}
	/* a pointer that is not a struct page at all */
	page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages((struct page *)((char *)page + 8), 0);
	expect_reported(test, &pos, 1, "BUG: Bad page free: pfn:", "bad struct page pointer");
	__free_pages(NULL, 0);
	expect_reported(test, &pos, 1, "BUG: Bad page free: pfn:", "not a page of RAM");
	__free_pages(page, 0);
	expect_harmless(test, nr + 2);
}

static void bad_address_is_reported(struct kunit *test)
{
	static char image_page[PAGE_SIZE] __aligned(PAGE_SIZE);
	const unsigned long not_direct[] = {
		(unsigned long)image_page,			/* kernel image (.bss) */
		VMALLOC_START,					/* vmalloc space */
		PAGE_OFFSET + (max_pfn << PAGE_SHIFT),		/* past RAM's direct map */
		0x200000,					/* a low, user-like address */
	};
	unsigned long pos = mctx.log_pos;
	unsigned long addr = __get_free_pages(GFP_KERNEL, 1);
	char what[64];

	kunit_expect_report(test, "BUG: Bad page free");
	KUNIT_ASSERT_NE(test, addr, 0);
	free_pages(addr + 8, 1);
	snprintf(what, sizeof(what), "address %#lx ", addr + 8);
	expect_reported(test, &pos, 1, what, "not page-aligned");
	free_pages(addr + PAGE_SIZE - 1, 0);
	snprintf(what, sizeof(what), "address %#lx ", addr + PAGE_SIZE - 1);
	expect_reported(test, &pos, 1, what, "not page-aligned");
	for (unsigned int i = 0; i < ARRAY_SIZE(not_direct); i++) {
		free_pages(not_direct[i], 0);
		snprintf(what, sizeof(what), "address %#lx ", not_direct[i]);
		expect_reported(test, &pos, 1, what, "not in the direct map of RAM");
	}
	/* 0 is ignored, as in Linux */
	free_pages(0, 0);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG:"), 0);
	free_pages(addr, 1);
	expect_harmless(test, 2 + ARRAY_SIZE(not_direct));
}

static void order_too_large_is_refused(struct kunit *test)
{
	unsigned long pos = mctx.log_pos, fails = global_vm_event(PGALLOC_FAIL);
	struct page *page;
	const char *log;

	kunit_expect_report(test, "BUG: Bad page free");
	/* allocation: NULL, with a warning unless __GFP_NOWARN */
	KUNIT_EXPECT_NULL(test, alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER + 1));
	KUNIT_EXPECT_EQ(test, __get_free_pages(GFP_KERNEL, 12), 0);
	KUNIT_EXPECT_NULL(test, alloc_pages_exact(8UL << 20, GFP_KERNEL));
	log = log_since(pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "is larger than MAX_PAGE_ORDER"), 3);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "order 11 is larger than MAX_PAGE_ORDER"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "order 12 is larger than MAX_PAGE_ORDER"));
	/* each names the caller, not the allocator's own wrappers */
	KUNIT_EXPECT_EQ(test, count_substr(log, "caller order_too_large_is_refused+"), 3);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, alloc_pages(GFP_KERNEL | __GFP_NOWARN, 40));
	KUNIT_EXPECT_EQ(test, __get_free_pages(GFP_KERNEL | __GFP_NOWARN, ~0U), 0);
	KUNIT_EXPECT_NULL(test, alloc_pages_node(0, GFP_KERNEL | __GFP_NOWARN, 11));
	KUNIT_EXPECT_EQ(test, printk_log_pos(), pos);
	KUNIT_EXPECT_EQ(test, global_vm_event(PGALLOC_FAIL) - fails, 6);

	/* free: reported, and the block stays allocated */
	page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, MAX_PAGE_ORDER + 1);
	expect_pfn_reported(test, &pos, page_to_pfn(page), "order larger than MAX_PAGE_ORDER");
	free_pages((unsigned long)page_address(page), 64);
	expect_pfn_reported(test, &pos, page_to_pfn(page), "order larger than MAX_PAGE_ORDER");
	__free_pages(page, 0);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG:"), 0);
	expect_harmless(test, 2);
}

/* ---------------------------------------------------------------- poisoning */

/* Reads free pages on purpose: not checked by KASAN. */
static __no_sanitize_address bool all_bytes_are(const void *p, u8 byte)
{
	const u8 *b = p;

	for (unsigned long i = 0; i < PAGE_SIZE; i++) {
		if (b[i] != byte)
			return false;
	}
	return true;
}

static void poison_catches_write_after_free(struct kunit *test)
{
	unsigned long pos = mctx.log_pos;
	struct page *page, *again;
	char what[96];
	u8 *p;

	kunit_expect_report(test, "BUG: page poison overwritten");
	set_page_poisoning(true);
	page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	p = page_address(page);
	memset(p, 0x11, PAGE_SIZE);
	__free_pages(page, 0);
	KUNIT_EXPECT_TRUE(test, all_bytes_are(p, PAGE_POISON));

	/* a clean reuse says nothing */
	again = alloc_pages(GFP_KERNEL, 0);
	/* the per-CPU list: last freed, first reused */
	KUNIT_ASSERT_PTR_EQ(test, again, page);
	__free_pages(again, 0);
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "poison"));

	/* the bug: write after free (which a KASAN kernel would report first) */
	kasan_disable_current();
	p[0x123] = 0x42;
	kasan_enable_current();
	again = alloc_pages(GFP_KERNEL, 0);
	KUNIT_ASSERT_PTR_EQ(test, again, page);
	snprintf(what, sizeof(what), "BUG: page poison overwritten: pfn:%#lx offset:0x123 byte:0x42",
		 page_to_pfn(page));
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG: page poison overwritten"), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), what));
	__free_pages(again, 0);

	/* a larger block is poisoned whole */
	page = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 2);
	for (unsigned int i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, all_bytes_are(page_address(page + i), PAGE_POISON));

	/* poisoning does not get in the way of __GFP_ZERO */
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_TRUE(test, all_bytes_are(page_address(page), 0));
	__free_pages(page, 0);

	set_page_poisoning(false);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "BUG:"), 1);
	expect_harmless(test, 0);
}

/*
 * free_pages_bulk() past this CPU's list gives runs of consecutive frames
 * to the buddy lists as blocks: a page freed twice in the middle of a run,
 * and a page already back in the buddy lists, are each reported once and
 * skipped, and the run is given back around them, nothing lost.
 */
static void bulk_free_reports_double_frees_amid_a_run(struct kunit *test)
{
	struct zone *top = top_zone();
	struct per_cpu_pages *pcp = per_cpu_ptr(top->per_cpu_pageset, smp_processor_id());
	unsigned long pos, n = (unsigned long)pcp->high + 64;
	enum { MOST = 1024 };
	static struct page *pages[MOST + 1];
	struct page *freed_early, *twice;
	const char *log;
	char what[48];

	kunit_expect_report(test, "BUG: Bad page free");
	KUNIT_ASSERT_LE(test, n, (unsigned long)MOST);
	drain_all_pages();
	memset(pages, 0, sizeof(pages));
	KUNIT_ASSERT_EQ(test, alloc_pages_bulk_node(GFP_KERNEL, NUMA_NO_NODE, n, pages), n);
	/* one page freed on its own, then drained into the buddy lists */
	freed_early = pages[n - 30];
	__free_pages(freed_early, 0);
	drain_all_pages();
	/* and one page twice, both times past the list's mark */
	twice = pages[n - 10];
	pages[n] = twice;
	pos = printk_log_pos();
	free_pages_bulk(pages, n + 1);
	log = log_since(pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG: Bad page free:"), 2);
	KUNIT_EXPECT_EQ(test, count_substr(log, "double free"), 2);
	snprintf(what, sizeof(what), "pfn:%#lx ", page_to_pfn(freed_early));
	KUNIT_EXPECT_EQ(test, count_substr(log, what), 1);
	snprintf(what, sizeof(what), "pfn:%#lx ", page_to_pfn(twice));
	KUNIT_EXPECT_EQ(test, count_substr(log, what), 1);
	drain_all_pages();
	expect_harmless(test, 2);
}

static struct kunit_case page_alloc_misuse_cases[] = {
	KUNIT_CASE(double_free_is_reported),
	KUNIT_CASE(wrong_order_is_reported),
	KUNIT_CASE(owner_data_in_private_is_not_the_order),
	KUNIT_CASE(interior_page_is_reported),
	KUNIT_CASE(reserved_page_is_reported),
	KUNIT_CASE(pfn_outside_ram_is_reported),
	KUNIT_CASE(bad_address_is_reported),
	KUNIT_CASE(order_too_large_is_refused),
	KUNIT_CASE(poison_catches_write_after_free),
	KUNIT_CASE(bulk_free_reports_double_frees_amid_a_run),
	{}
};

static struct kunit_suite page_alloc_misuse_suite = {
	.name = "page_alloc_misuse",
	.init = misuse_init,
	.exit = misuse_exit,
	.test_cases = page_alloc_misuse_cases,
	.strict = true,
};
kunit_test_suite(page_alloc_misuse_suite);
