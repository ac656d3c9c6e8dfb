/*
 * tests/kernel/vmap_area_test.c - the vmap-area allocator (mm/vmap_area.c)
 * inside the kernel, over the real vmalloc range.
 *
 * The allocator never allocates memory, so it runs here with its nodes
 * from a static array: every node starts on the spare list, the test takes
 * the busy areas' nodes from it, and the allocator takes and gives back
 * the free ranges' nodes there.  When every area is freed, the free tree
 * must be one range, VMALLOC_START..VMALLOC_END, and every other node back
 * on the spare list.  (Nothing is mapped: these are only addresses.)
 */
#include "kunit/test.h"
#include "mm/vmap_area.h"
#include "arch/x86_64/page.h"
#include "kernel/printk.h"

#define NR_NODES	512
#define PMD_SIZE_	(2UL << 20)

static struct vmap_area pool[NR_NODES];
static struct list_head spare;
static struct rb_list free_tree, busy;

static unsigned long list_count(const struct list_head *head)
{
	const struct list_head *pos;
	unsigned long n = 0;

	list_for_each(pos, head)
		n++;
	return n;
}

static int vmap_area_test_init(struct kunit *test)
{
	struct vmap_area *va;

	(void)test;
	rb_list_init(&free_tree);
	rb_list_init(&busy);
	INIT_LIST_HEAD(&spare);
	for (int i = 1; i < NR_NODES; i++)
		list_add_tail(&pool[i].list, &spare);
	va = &pool[0];
	va->va_start = VMALLOC_START;
	va->va_end = VMALLOC_END;
	merge_or_add_vmap_area_augment(va, &free_tree, &spare);
	return 0;
}

/* An area of @pages pages and a guard page, as vmalloc will ask; NULL if no room. */
static struct vmap_area *alloc_area(unsigned long pages, unsigned long align, unsigned long vend)
{
	unsigned long size = (pages + 1) * PAGE_SIZE;
	unsigned long addr = __alloc_vmap_area(&free_tree, size, align, VMALLOC_START, vend,
					       &spare);
	struct vmap_area *va;

	if (addr == vend)
		return NULL;
	va = list_first_entry(&spare, struct vmap_area, list);
	list_del(&va->list);
	va->va_start = addr;
	va->va_end = addr + size;
	insert_vmap_area(va, &busy);
	return va;
}

/* vfree's half: find the area starting at @addr, take it out, give the range back. */
static bool free_area(unsigned long addr)
{
	struct vmap_area *va = __find_vmap_area(addr, &busy);

	if (!va || va->va_start != addr)
		return false;
	unlink_va(va, &busy);
	return merge_or_add_vmap_area_augment(va, &free_tree, &spare) != NULL;
}

static void free_all(struct kunit *test)
{
	while (!list_empty(&busy.head)) {
		struct vmap_area *va = list_first_entry(&busy.head, struct vmap_area, list);

		KUNIT_ASSERT_TRUE(test, free_area(va->va_start));
	}
}

/* Everything back: one free range, the whole space; every other node spare. */
static void check_all_back(struct kunit *test)
{
	struct vmap_area *va;

	KUNIT_ASSERT_EQ(test, list_count(&free_tree.head), 1);
	va = list_first_entry(&free_tree.head, struct vmap_area, list);
	KUNIT_EXPECT_EQ(test, va->va_start, VMALLOC_START);
	KUNIT_EXPECT_EQ(test, va->va_end, VMALLOC_END);
	KUNIT_EXPECT_EQ(test, va->subtree_max_size, VMALLOC_END - VMALLOC_START);
	KUNIT_EXPECT_EQ(test, list_count(&spare), NR_NODES - 1);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&busy.root));
}

static void areas_fill_the_lowest_holes_and_merge_back(struct kunit *test)
{
	static struct vmap_area *areas[200];
	unsigned long next = VMALLOC_START;

	for (int i = 0; i < 200; i++) {
		areas[i] = alloc_area(i % 8 + 1, PAGE_SIZE, VMALLOC_END);
		KUNIT_ASSERT_NOT_NULL(test, areas[i]);
		KUNIT_EXPECT_EQ(test, areas[i]->va_start, next);	/* the lowest fit */
		next = areas[i]->va_end;
	}
	/* lookups: the start, inside, the guard page, just past it */
	for (int i = 0; i < 200; i++) {
		struct vmap_area *va = areas[i];

		KUNIT_EXPECT_PTR_EQ(test, __find_vmap_area(va->va_start, &busy), va);
		KUNIT_EXPECT_PTR_EQ(test, __find_vmap_area(va->va_end - PAGE_SIZE, &busy), va);
		KUNIT_EXPECT_PTR_EQ(test, __find_vmap_area(va->va_end - 1, &busy), va);
	}
	KUNIT_EXPECT_NULL(test, __find_vmap_area(next, &busy));
	/* every other one freed: 100 holes below the rest of the space */
	for (int i = 0; i < 200; i += 2)
		KUNIT_ASSERT_TRUE(test, free_area(areas[i]->va_start));
	KUNIT_EXPECT_EQ(test, list_count(&free_tree.head), 101);
	/* one page and its guard fits every hole: they are filled from the bottom */
	for (int i = 0; i < 150; i++) {
		unsigned long lowest = list_first_entry(&free_tree.head, struct vmap_area,
							list)->va_start;
		struct vmap_area *va = alloc_area(1, PAGE_SIZE, VMALLOC_END);

		KUNIT_ASSERT_NOT_NULL(test, va);
		KUNIT_EXPECT_EQ(test, va->va_start, lowest);
	}
	free_all(test);
	check_all_back(test);
}

static void huge_alignment_splits_a_free_range(struct kunit *test)
{
	struct vmap_area *small, *huge;

	small = alloc_area(1, PAGE_SIZE, VMALLOC_END);
	huge = alloc_area(1023, PMD_SIZE_, VMALLOC_END);	/* 4 MiB with its guard */
	KUNIT_ASSERT_NOT_NULL(test, small);
	KUNIT_ASSERT_NOT_NULL(test, huge);
	KUNIT_EXPECT_EQ(test, huge->va_start, VMALLOC_START + PMD_SIZE_);
	KUNIT_EXPECT_EQ(test, va_size(huge), 4UL << 20);
	/* the hole below it, and the rest above */
	KUNIT_EXPECT_EQ(test, list_count(&free_tree.head), 2);
	KUNIT_EXPECT_EQ(test, list_first_entry(&free_tree.head, struct vmap_area, list)->va_end,
			huge->va_start);
	/* the hole is used by a page-aligned area, not by the next huge one */
	KUNIT_EXPECT_EQ(test, alloc_area(1, PAGE_SIZE, VMALLOC_END)->va_start, small->va_end);
	KUNIT_EXPECT_EQ(test, alloc_area(1, PMD_SIZE_, VMALLOC_END)->va_start,
			VMALLOC_START + 3 * PMD_SIZE_);
	free_all(test);
	check_all_back(test);
}

static void exhaustion_within_vend(struct kunit *test)
{
	unsigned long vend = VMALLOC_START + 64 * PAGE_SIZE;
	int n = 0;

	while (alloc_area(1, PAGE_SIZE, vend))
		n++;
	KUNIT_EXPECT_EQ(test, n, 32);
	KUNIT_EXPECT_EQ(test, __alloc_vmap_area(&free_tree, PAGE_SIZE, PAGE_SIZE, VMALLOC_START,
						vend, &spare), vend);
	KUNIT_ASSERT_TRUE(test, free_area(VMALLOC_START + 40 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, alloc_area(1, PAGE_SIZE, vend)->va_start,
			VMALLOC_START + 40 * PAGE_SIZE);
	free_all(test);
	check_all_back(test);
}

static void misuse_is_reported_and_harmless(struct kunit *test)
{
	struct vmap_area *va = alloc_area(3, PAGE_SIZE, VMALLOC_END), *twin;
	unsigned long addr = va->va_start, pos;
	char log[256];

	/* an interior pointer finds the area, but not at its start */
	KUNIT_EXPECT_FALSE(test, free_area(addr + PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, free_area(addr));
	/* a second free: not in the busy tree any more */
	KUNIT_EXPECT_FALSE(test, free_area(addr));
	/* the same range handed to the free tree twice: reported, refused */
	twin = list_first_entry(&spare, struct vmap_area, list);
	list_del(&twin->list);
	twin->va_start = addr;
	twin->va_end = addr + PAGE_SIZE;
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, merge_or_add_vmap_area_augment(twin, &free_tree, &spare));
	printk_log_read(pos, log, sizeof(log));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "vmalloc bug: "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "overlaps with"));
	check_all_back(test);
}

static struct kunit_case vmap_area_cases[] = {
	KUNIT_CASE(areas_fill_the_lowest_holes_and_merge_back),
	KUNIT_CASE(huge_alignment_splits_a_free_range),
	KUNIT_CASE(exhaustion_within_vend),
	KUNIT_CASE(misuse_is_reported_and_harmless),
	{}
};

static struct kunit_suite vmap_area_suite = {
	.name = "vmap_area",
	.init = vmap_area_test_init,
	.test_cases = vmap_area_cases,
	.strict = true,
};
kunit_test_suite(vmap_area_suite);
