/*
 * tests/kernel/vmalloc_test.c - vmalloc() and its family do what Linux's do,
 * on the real page tables of one CPU (smp_vmalloc_test.c has the rest).
 *
 * Sizes from one byte to 256 MiB (those this machine's RAM holds) keep what
 * is written over every page; the guard page after every area faults; each
 * gfp modifier is honoured, and a gfp that cannot sleep warns and fails;
 * vmalloc works when the buddy allocator has no block of order 3 or more
 * left; vmalloc_to_page() agrees with the page tables and vmap() maps the
 * caller's own pages; vmalloc_huge() uses 2 MiB pages when it can, and an
 * area of the size asked when it cannot; page tables honour __GFP_NOFAIL
 * and the memalloc_nofs/noio scopes; the lazy purge batches the TLB
 * flushes of a thousand vfree()s into a few, and waits for deferred work
 * where it cannot shoot down; every misuse of vfree()/vunmap() (and a bad
 * align) is reported in one line and changes nothing; a vfree() that must
 * not wait is deferred.  Every case ends with
 * everything back where it started (vmalloc_test.h says what that means).
 */
#include "vmalloc_test.h"
#include "page_alloc_test.h"
#include "mm/fault_inject.h"
#include "mm/kvmalloc.h"
#include "mm/tlbflush.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "lib/vsprintf.h"
#include "arch/x86_64/setjmp.h"

#define TAG		0x766d616c6c6f6321ULL	/* "vmalloc!" */
#define ROOM_PAGES	2048UL		/* left free beyond an allocation: watermarks, tables */
#define LAZY_PAIRS	1000
#define HUGE_ORDER_TEST	(PMD_SHIFT - PAGE_SHIFT)	/* a 2 MiB block */

static struct {
	struct vmalloc_snapshot before;
	struct held_pages held;		/* memory a case took from the page allocator */
	unsigned long log_pos, fails, bad_frees;
} vctx;

static int vmalloc_test_init(struct kunit *test)
{
	(void)test;
	held_init(&vctx.held);
	vmalloc_snapshot_take(&vctx.before);
	vctx.log_pos = printk_log_pos();
	vctx.fails = global_vm_event(VMALLOC_FAIL);
	vctx.bad_frees = global_vm_event(VMALLOC_BAD_FREE);
	return 0;
}

static void vmalloc_test_exit(struct kunit *test)
{
	(void)test;
	held_free_all(&vctx.held);
}

#define delta(item, since)	(global_vm_event(item) - (since))

/* Does every word of [@p, @p + @size) read @word? */
static bool all_words(const void *p, unsigned long size, u64 word)
{
	const u64 *w = p;

	for (unsigned long i = 0; i < size / sizeof(u64); i++) {
		if (w[i] != word)
			return false;
	}
	return true;
}

/* Does every byte of [@p, @p + @size) read zero? */
static bool all_zero(const void *p, unsigned long size)
{
	return all_words(p, size, 0);
}

/* Does "%pS" of @caller name the function @fn? */
static bool caller_is(const void *caller, const char *fn)
{
	char sym[96];
	size_t len = strlen(fn);

	snprintf(sym, sizeof(sym), "%pS", caller);
	return !strncmp(sym, fn, len) && sym[len] == '+';
}

/* ---------------------------------------------------------------- sizes and contents */

static const unsigned long sizes[] = {
	1, PAGE_SIZE, PAGE_SIZE + 1, 5 * PAGE_SIZE,
	511 * PAGE_SIZE,	/* its array of page pointers fits in a page: kmalloc */
	513 * PAGE_SIZE,	/* its array is more than a page: vmalloc'd itself */
	4 * SZ_1M + 1, 16 * SZ_1M, 64 * SZ_1M, 128 * SZ_1M, 256 * SZ_1M,
};

static void size_desc(const unsigned long *size, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%lu bytes", *size);
}
KUNIT_ARRAY_PARAM(sizes, sizes, size_desc);

static void sizes_hold_their_contents(struct kunit *test)
{
	unsigned long size = *(const unsigned long *)test->param_value;
	unsigned long pages = DIV_ROUND_UP(size, PAGE_SIZE), free = nr_free_pages();
	struct vm_struct *vm;
	u8 *p;

	need_free_pages(test, pages);
	p = vmalloc(size);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)p, PAGE_SIZE));
	KUNIT_EXPECT_GE(test, free - nr_free_pages(), pages);
	vm = find_vm_area(p);
	KUNIT_ASSERT_NOT_NULL(test, vm);
	KUNIT_EXPECT_PTR_EQ(test, vm->addr, p);
	KUNIT_EXPECT_EQ(test, vm->nr_pages, pages);
	KUNIT_EXPECT_EQ(test, vm->size, (pages + 1) * PAGE_SIZE);	/* and the guard page */

	vm_fill(p, size, TAG);
	KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
	KUNIT_EXPECT_EQ(test, vm_check_pages(p, size, TAG), 0);
	KUNIT_EXPECT_EQ(test, vm_probe(p + size - 1), 0);
	KUNIT_EXPECT_EQ(test, vm_probe(p + pages * PAGE_SIZE), -EFAULT);
	vfree(p);
	KUNIT_EXPECT_NULL(test, find_vm_area(p));
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/* Pages written with junk and freed, so that the next allocations get dirty pages. */
static void dirty_some_pages(unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = held_alloc(&vctx.held, GFP_KERNEL, 0);

		if (page)
			memset(page_address(page), 0xa5, PAGE_SIZE);
	}
	held_free_all(&vctx.held);
}

static void zeroing_variants_give_zeroed_memory(struct kunit *test)
{
	const unsigned long size = 64 * PAGE_SIZE;
	void *p[5];

	need_free_pages(test, ARRAY_SIZE(p) * size / PAGE_SIZE);
	/* 512 pages, or as many as there are: dirty, so that the zeroing is seen */
	dirty_some_pages(min(512UL, pages_available()));
	p[0] = vzalloc(size);
	p[1] = vzalloc_node(size, 0);
	p[2] = vzalloc_node(size, NUMA_NO_NODE);
	p[3] = __vmalloc(size, GFP_KERNEL | __GFP_ZERO);
	p[4] = vcalloc(64, PAGE_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++) {
		KUNIT_EXPECT_NOT_NULL_MSG(test, p[i], "variant %u", i);
		if (p[i])
			KUNIT_EXPECT_TRUE_MSG(test, all_zero(p[i], size), "variant %u", i);
		vfree(p[i]);
	}
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * vmalloc_node(size, 0) takes node 0's pages, or if node 0 has no memory
 * the nearest node's; NUMA_NO_NODE takes this CPU's memory node's.
 */
static void node_variants_take_pages_of_that_node(struct kunit *test)
{
	const unsigned long size = 32 * PAGE_SIZE;
	u8 *p = vmalloc_node(size, 0), *q = vmalloc_node(size, NUMA_NO_NODE);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_EQ(test, find_vm_area(p)->node, 0);
	KUNIT_EXPECT_EQ(test, find_vm_area(q)->node, NUMA_NO_NODE);
	for (unsigned long i = 0; i < size / PAGE_SIZE; i++) {
		KUNIT_EXPECT_EQ(test, page_to_nid(vmalloc_to_page(p + i * PAGE_SIZE)),
				local_memory_node(0));
		KUNIT_EXPECT_EQ(test, page_to_nid(vmalloc_to_page(q + i * PAGE_SIZE)),
				numa_mem_id());
	}
	vm_fill(p, size, TAG);
	vm_fill(q, size, ~TAG);
	KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
	KUNIT_EXPECT_EQ(test, vm_check(q, size, ~TAG), 0);
	vfree(p);
	vfree(q);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- gfp */

static void gfp_modifiers_work_when_memory_is_plentiful(struct kunit *test)
{
	static const gfp_t gfps[] = {
		GFP_KERNEL | __GFP_NOWARN, GFP_KERNEL | __GFP_NORETRY, GFP_KERNEL | __GFP_NOFAIL,
		GFP_KERNEL | __GFP_RETRY_MAYFAIL,
	};
	const unsigned long size = 16 * PAGE_SIZE;

	for (unsigned int i = 0; i < ARRAY_SIZE(gfps); i++) {
		void *p = __vmalloc(size, gfps[i]);

		KUNIT_EXPECT_NOT_NULL_MSG(test, p, "gfp %#x", gfps[i]);
		if (!p)
			continue;
		vm_fill(p, size, TAG);
		KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
		vfree(p);
	}
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * With memory taken down to the watermark: __GFP_NORETRY and
 * __GFP_RETRY_MAYFAIL fail, silently with __GFP_NOWARN and without calling
 * the OOM killer; __GFP_NOFAIL does not fail.
 */
static void gfp_modifiers_decide_when_memory_is_short(struct kunit *test)
{
	const unsigned long size = 64 * PAGE_SIZE;
	unsigned long kills = global_vm_event(OOM_KILL), pos;
	void *p;

	kunit_expect_report(test, "invoked oom-killer");
	held_exhaust(&vctx.held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, __vmalloc(size, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN));
	KUNIT_EXPECT_NULL(test, __vmalloc(size, GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN));
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, kills), 0);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 2);

	p = __vmalloc(4 * PAGE_SIZE, GFP_KERNEL | __GFP_NOFAIL);
	KUNIT_EXPECT_NOT_NULL(test, p);
	if (p) {
		vm_fill(p, 4 * PAGE_SIZE, TAG);
		KUNIT_EXPECT_EQ(test, vm_check(p, 4 * PAGE_SIZE, TAG), 0);
	}
	vfree(p);
	held_free_all(&vctx.held);
	expect_vmalloc_back(test, &vctx.before);
}

/* Expect exactly one "vmalloc error: size @size, @why" report since @pos (and its backtrace). */
static void expect_vmalloc_error(struct kunit *test, unsigned long pos, unsigned long size,
				 const char *why)
{
	const char *log = log_since(pos);
	char line[256];

	snprintf(line, sizeof(line), "vmalloc error: size %lu, %s, mode:", size, why);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "vmalloc error:"), 1, "%s", log);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, line), "no '%s' in: %s", line, log);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "Call Trace:"));
}

static void nonblocking_gfp_warns_and_fails(struct kunit *test)
{
	static const struct {
		gfp_t gfp;
		const char *name;
	} cases[] = { { GFP_ATOMIC, "(GFP_ATOMIC)" },
		      { GFP_NOWAIT & ~__GFP_NOWARN, "(__GFP_KSWAPD_RECLAIM)" } };
	const char *why = "called with a gfp that cannot sleep (vmalloc needs GFP_KERNEL)";
	unsigned long pos;

	kunit_expect_report(test, "called with a gfp that cannot sleep");
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		pos = printk_log_pos();
		KUNIT_EXPECT_NULL(test, __vmalloc(PAGE_SIZE, cases[i].gfp));
		expect_vmalloc_error(test, pos, PAGE_SIZE, why);
		KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), cases[i].name));
		pos = printk_log_pos();
		KUNIT_EXPECT_NULL(test, vmalloc_huge(4 * SZ_1M, cases[i].gfp));
		expect_vmalloc_error(test, pos, 4 * SZ_1M, why);

		/* __GFP_NOWARN: the same failure, not a word */
		pos = printk_log_pos();
		KUNIT_EXPECT_NULL(test, __vmalloc(PAGE_SIZE, cases[i].gfp | __GFP_NOWARN));
		KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	}
	/* GFP_NOWAIT itself has __GFP_NOWARN, as in Linux since 6.18 */
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, __vmalloc(PAGE_SIZE, GFP_NOWAIT));
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 3 * ARRAY_SIZE(cases) + 1);
	expect_vmalloc_back(test, &vctx.before);
}

/* How many pages of [@addr, @addr + @pages pages) are mapped. */
static unsigned long mapped_pages(unsigned long addr, unsigned long pages)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < pages; i++)
		n += kernel_page_mapped(addr + i * PAGE_SIZE);
	return n;
}

static void failed_vmalloc_leaves_nothing_behind(struct kunit *test)
{
	unsigned long too_many = totalram_pages + 1, pos = printk_log_pos(), pages;

	kunit_expect_report(test, "vmalloc error: size");
	/* Nothing, or more than the machine has: refused before anything is taken */
	KUNIT_EXPECT_NULL(test, vmalloc(0));
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "vmalloc error: size 0, "), 1);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, vmalloc(too_many * PAGE_SIZE));
	expect_vmalloc_error(test, pos, too_many * PAGE_SIZE, "exceeds total pages");

	/* More than is free: the pages taken go back, nothing was mapped */
	pages = min(totalram_pages, nr_free_pages() + 256);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, __vmalloc(pages * PAGE_SIZE, GFP_KERNEL | __GFP_NORETRY));
	expect_vmalloc_error(test, pos, pages * PAGE_SIZE, "failed to allocate pages");
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "page allocation failure"));
	KUNIT_EXPECT_EQ(test, mapped_pages((unsigned long)vctx.before.lowest, pages), 0);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 3);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- fragmentation */

/*
 * Leave no free block above @order anywhere, and about @pages pages free in
 * the zone where this CPU's GFP_KERNEL allocations look first, all in
 * blocks of @order whose buddies are held: take every page there is (down
 * to the last reserve), give back large blocks of that zone worth 2 *
 * @pages, take those back as blocks of @order, then free every other one.
 */
static void fragment_memory(struct held_pages *h, unsigned long pages, unsigned int order)
{
	const gfp_t everything = GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN;
	struct zone *zone = top_zone();
	unsigned long given = 0;
	struct page *page, *next;

	held_exhaust(h, everything);
	for (int o = MAX_PAGE_ORDER; o >= 3 && given < 2 * pages; o--) {
		list_for_each_entry_safe(page, next, &h->blocks[o], lru) {
			if (given >= 2 * pages)
				break;
			if (page_zone(page) != zone)
				continue;
			list_del(&page->lru);
			h->nr_pages -= 1UL << o;
			__free_pages(page, o);
			given += 1UL << o;
		}
	}
	while (held_alloc(h, everything, order))
		;
	list_for_each_entry_safe(page, next, &h->blocks[order], lru) {
		if (page_to_pfn(page) & (1UL << order)) {	/* its buddy stays held */
			list_del(&page->lru);
			h->nr_pages -= 1UL << order;
			__free_pages(page, order);
		}
	}
}

/*
 * Two sizes: 16 pages, whose array of page pointers comes from kmalloc, and
 * 4 MiB, whose array is vmalloc'd itself; vmalloc_huge() falls back to
 * small pages, and maps only as many as asked.
 */
static void vmalloc_works_when_memory_is_fragmented(struct kunit *test)
{
	static const unsigned long sizes[] = { 16 * PAGE_SIZE, 4 * SZ_1M };
	static struct buddy_snapshot snap;
	const unsigned long huge_size = 3 * SZ_1M;
	unsigned long high = top_zone()->watermark[WMARK_HIGH], order3 = 0, free;
	u8 *p[ARRAY_SIZE(sizes)], *h;
	struct vm_struct *vm;
	struct page *page;
	int nid;

	fragment_memory(&vctx.held, high + 3 * ROOM_PAGES / 2, 2);

	/* Prove it before trusting it: no block of order >= 3 is free, order 2 is */
	buddy_snapshot_take(&snap);
	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			for (int o = 3; o < NR_PAGE_ORDERS; o++)
				order3 += snap.nr_free[nid][z][o];
		}
	}
	KUNIT_ASSERT_EQ(test, order3, 0);
	KUNIT_ASSERT_NULL(test, alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 3));
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 2);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 2);
	free = nr_free_pages();
	kunit_info(test, "%lu pages free, all in order-2 blocks", free);
	if (free <= high + (4 * SZ_1M + huge_size) / PAGE_SIZE + 32)
		kunit_skip(test, "needs %lu free pages once fragmented, this machine has %lu",
			   high + (4 * SZ_1M + huge_size) / PAGE_SIZE + 33, free);

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = vmalloc(sizes[i]);
		KUNIT_ASSERT_NOT_NULL_MSG(test, p[i], "size %lu", sizes[i]);
		vm_fill(p[i], sizes[i], TAG + i);
		KUNIT_EXPECT_EQ(test, vm_check(p[i], sizes[i], TAG + i), 0);
		KUNIT_EXPECT_EQ(test, vm_check_pages(p[i], sizes[i], TAG + i), 0);
	}

	h = vmalloc_huge(huge_size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	vm = find_vm_area(h);
	KUNIT_EXPECT_FALSE(test, vm->flags & VM_HUGE_PAGES);
	KUNIT_EXPECT_EQ(test, vm->page_order, 0);
	KUNIT_EXPECT_EQ(test, vm->nr_pages, huge_size / PAGE_SIZE);
	vm_fill(h, huge_size, ~TAG);
	KUNIT_EXPECT_EQ(test, vm_check(h, huge_size, ~TAG), 0);
	KUNIT_EXPECT_EQ(test, vm_check_pages(h, huge_size, ~TAG), 0);
	vfree(h);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		KUNIT_EXPECT_EQ(test, vm_check(p[i], sizes[i], TAG + i), 0);
		vfree(p[i]);
	}
	held_free_all(&vctx.held);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * vmalloc_huge() that finds no free 2 MiB block falls back to small pages
 * in an area of the size asked, not the 2 MiB multiple the huge attempt
 * took (Linux frees that area and starts again): vm->size covers only what
 * is mapped, so kvrealloc() cannot "grow in place" over unmapped pages.
 */
static void vmalloc_huge_fallback_area_is_exact(struct kunit *test)
{
	const unsigned long size = 3 * SZ_1M, bigger = 4 * SZ_1M - PAGE_SIZE;
	unsigned long high = top_zone()->watermark[WMARK_HIGH], free;
	struct vm_struct *vm;
	u8 *p;

	fragment_memory(&vctx.held, high + 2 * ROOM_PAGES + (size + bigger) / PAGE_SIZE, 2);
	KUNIT_ASSERT_NULL(test, alloc_pages(GFP_NOWAIT | __GFP_NOWARN, HUGE_ORDER_TEST));
	free = nr_free_pages();
	if (free <= high + ROOM_PAGES + (size + bigger) / PAGE_SIZE)
		kunit_skip(test, "needs %lu free pages once fragmented, this machine has %lu",
			   high + ROOM_PAGES + (size + bigger) / PAGE_SIZE + 1, free);

	p = vmalloc_huge(size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	vm = find_vm_area(p);
	KUNIT_ASSERT_NOT_NULL(test, vm);
	KUNIT_EXPECT_FALSE(test, vm->flags & VM_HUGE_PAGES);
	KUNIT_EXPECT_EQ(test, vm->nr_pages, size / PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vm->size, size + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vm_probe(p + size), -EFAULT);	/* the guard page, at once */
	vm_fill(p, size, TAG);
	KUNIT_EXPECT_EQ(test, vm_check_pages(p, size, TAG), 0);
	vfree(p);	/* what kvrealloc() makes of such an area: the kvmalloc suite */
	held_free_all(&vctx.held);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * Only single pages free.  The arrays of page pointers of 1 and 2 MiB areas
 * (2 and 4 KiB) come from kmalloc-2k and -4k, whose slabs are of order 1 or
 * more with slab debugging's redzones or KASAN's: asked gently, the slab
 * says no at once, and the array is vmalloc'd as well.  Found by a suite
 * written outside the repository: the kmalloc() of the array used to call
 * the OOM killer, and vmalloc() failed.  The free objects those two caches
 * had are taken first, so that the arrays need new slabs.
 */
static void vmalloc_works_with_only_single_pages_free(struct kunit *test)
{
	static const unsigned long sizes[] = { SZ_1M, 2 * SZ_1M };
	const gfp_t no_new_slab = GFP_NOWAIT | __GFP_NOWARN;	/* with debugging: order 1 or more */
	unsigned long high = top_zone()->watermark[WMARK_HIGH], kills = global_vm_event(OOM_KILL);
	void *taken = NULL, *obj;
	u8 *p[ARRAY_SIZE(sizes)];
	unsigned long free;

	fragment_memory(&vctx.held, high + ROOM_PAGES, 0);
	KUNIT_ASSERT_NULL(test, alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 1));
	free = nr_free_pages();
	kunit_info(test, "%lu pages free, all single", free);
	if (free <= high + 3 * SZ_1M / PAGE_SIZE + 64)
		kunit_skip(test, "needs %lu free pages once fragmented, this machine has %lu",
			   high + 3 * SZ_1M / PAGE_SIZE + 65, free);
	/* a cache whose slabs can be single pages (no debugging) stops at its first new slab */
	for (unsigned int size = 2048; size <= 4096; size *= 2) {
		while (nr_free_pages() >= free && (obj = kmalloc(size, no_new_slab))) {
			*(void **)obj = taken;
			taken = obj;
		}
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = vmalloc(sizes[i]);
		KUNIT_EXPECT_NOT_NULL_MSG(test, p[i], "size %lu", sizes[i]);
		if (p[i])
			vm_fill(p[i], sizes[i], TAG + i);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (p[i])
			KUNIT_EXPECT_EQ(test, vm_check(p[i], sizes[i], TAG + i), 0);
		vfree(p[i]);
	}
	while ((obj = taken)) {
		taken = *(void **)obj;
		kfree(obj);
	}
	held_free_all(&vctx.held);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, kills), 0);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- guard pages, faults */

static jmp_buf oops_env;

static void back_here(void)
{
	longjmp(oops_env, 1);
}

/*
 * Read @addr under our own oops catcher; what the oops printed, or NULL if
 * none.  The fault handler runs with interrupts off, and the catcher jumps
 * out of it: the interrupt flag is put back as it was.
 */
static const char *oops_of_read(const volatile u8 *addr)
{
	unsigned long pos = printk_log_pos(), flags = read_flags();
	oops_catcher_t kunit_catcher = set_oops_catcher(back_here);
	bool oopsed = false;

	if (!setjmp(oops_env))
		(void)*addr;
	else
		oopsed = true;
	set_oops_catcher(kunit_catcher);
	local_irq_restore(flags);
	return oopsed ? log_since(pos) : NULL;
}

static void guard_page_faults_and_the_oops_names_the_area(struct kunit *test)
{
	const unsigned long size = 3 * PAGE_SIZE;
	u8 *p = vmalloc(size), *q = vmalloc(size);
	const char *oops;
	char line[256];

	kunit_expect_report(test, "BUG: unable to handle page fault");
	if (CONFIG_KASAN)	/* the guard page is poisoned in the shadow: KASAN first */
		kunit_expect_report(test, "BUG: KASAN: vmalloc-out-of-bounds");
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, q);
	/* The last byte reads; the next one is the guard page, even with a neighbour after it */
	KUNIT_EXPECT_EQ(test, vm_probe(p + size - 1), 0);
	KUNIT_EXPECT_EQ(test, vm_probe(p + size), -EFAULT);
	KUNIT_EXPECT_EQ(test, vm_probe(p + size + PAGE_SIZE - 1), -EFAULT);
	KUNIT_EXPECT_PTR_EQ(test, q, p + size + PAGE_SIZE);	/* lowest fit: right after it */
	KUNIT_EXPECT_EQ(test, vm_probe(q), 0);
	KUNIT_EXPECT_EQ(test, vm_probe(q + size), -EFAULT);

	oops = oops_of_read(p + size + 8);
	KUNIT_ASSERT_NOT_NULL_MSG(test, oops, "reading the guard page did not fault");
	snprintf(line, sizeof(line), "vmalloc guard page: %#lx is just past the area %#lx-%#lx "
		 "(%lu bytes), allocated by guard_page_faults_and_the_oops_names_the_area+",
		 (unsigned long)(p + size + 8), (unsigned long)p, (unsigned long)(p + size), size);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(oops, line), "no '%s' in: %s", line, oops);

	/* Freed and purged: a read is a use after vfree, and says whose area it was */
	vfree(q);
	vm_unmap_aliases();
	oops = oops_of_read(q + PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL_MSG(test, oops, "reading a freed area did not fault");
	snprintf(line, sizeof(line), "use after vfree: %#lx is in the area %#lx-%#lx (%lu bytes), "
		 "allocated by guard_page_faults_and_the_oops_names_the_area+",
		 (unsigned long)(q + PAGE_SIZE), (unsigned long)q, (unsigned long)(q + size), size);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(oops, line), "no '%s' in: %s", line, oops);
	vfree(p);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- lookups */

static void vmalloc_to_page_agrees_with_the_page_tables(struct kunit *test)
{
	const unsigned long pages = 4;
	u8 *p = vmalloc(pages * PAGE_SIZE), *k = kmalloc(64, GFP_KERNEL);
	struct vm_struct *vm;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, k);
	vm = find_vm_area(p);
	vm_fill(p, pages * PAGE_SIZE, TAG);
	for (unsigned long i = 0; i < pages; i++) {
		u8 *va = p + i * PAGE_SIZE;
		struct page *page = vmalloc_to_page(va);
		unsigned int level = 0;
		u64 *pte = lookup_kernel_pte((unsigned long)va, &level);

		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_ASSERT_NOT_NULL(test, pte);
		KUNIT_EXPECT_PTR_EQ(test, page, vm->pages[i]);
		KUNIT_EXPECT_PTR_EQ(test, vmalloc_to_page(va + 123), page);
		KUNIT_EXPECT_EQ(test, vmalloc_to_pfn(va + PAGE_SIZE - 1), page_to_pfn(page));
		KUNIT_EXPECT_EQ(test, level, 1);
		KUNIT_EXPECT_EQ(test, (*pte & PTE_PFN_MASK) >> PAGE_SHIFT, page_to_pfn(page));
		KUNIT_EXPECT_EQ(test, *pte & (_PAGE_PRESENT | _PAGE_RW | _PAGE_NX),
				_PAGE_PRESENT | _PAGE_RW | (_PAGE_NX & __supported_pte_mask));
		/* one page, two addresses: a write through either is read through the other */
		KUNIT_EXPECT_EQ(test, *(u64 *)page_address(page), vm_stamp(p, i, TAG));
		((u8 *)page_address(page))[100] = (u8)(i + 1);
		KUNIT_EXPECT_EQ(test, va[100], i + 1);
	}
	KUNIT_EXPECT_NULL(test, vmalloc_to_page(p + pages * PAGE_SIZE));	/* the guard page */
	KUNIT_EXPECT_EQ(test, vmalloc_to_pfn(p + pages * PAGE_SIZE), 0);
	KUNIT_EXPECT_NULL(test, vmalloc_to_page(k));
	KUNIT_EXPECT_EQ(test, vmalloc_to_pfn(k), 0);
	kfree(k);
	vfree(p);
	expect_vmalloc_back(test, &vctx.before);
}

static void is_vmalloc_addr_knows_the_space(struct kunit *test)
{
	static int in_the_image;
	u8 *p = vmalloc(2 * PAGE_SIZE), *k = kmalloc(64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p + 2 * PAGE_SIZE - 1));
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr((void *)VMALLOC_START));
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr((void *)(VMALLOC_END - 1)));
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr((void *)(VMALLOC_START - 1)));
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr((void *)VMALLOC_END));
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(k));
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(page_address(vmalloc_to_page(p))));
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(&in_the_image));
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(NULL));
	kfree(k);
	vfree(p);
	expect_vmalloc_back(test, &vctx.before);
}

static void find_vm_area_describes_the_area(struct kunit *test)
{
	const unsigned long size = 3 * PAGE_SIZE + 100;
	u8 *p = vmalloc(size), *k = kmalloc(64, GFP_KERNEL);
	struct vm_struct *vm;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, k);
	vm = find_vm_area(p);
	KUNIT_ASSERT_NOT_NULL(test, vm);
	KUNIT_EXPECT_PTR_EQ(test, vm->addr, p);
	KUNIT_EXPECT_EQ(test, vm->size, 5 * PAGE_SIZE);		/* 4 pages and the guard */
	KUNIT_EXPECT_EQ(test, vm->nr_pages, 4);
	KUNIT_EXPECT_EQ(test, vm->page_order, 0);
	KUNIT_EXPECT_EQ(test, vm->flags & (VM_ALLOC | VM_MAP | VM_HUGE_PAGES), VM_ALLOC);
	KUNIT_EXPECT_EQ(test, vm->node, NUMA_NO_NODE);
	KUNIT_EXPECT_TRUE_MSG(test, caller_is(vm->caller, "find_vm_area_describes_the_area"),
			      "caller %pS", vm->caller);
	for (unsigned int i = 0; i < vm->nr_pages; i++)
		KUNIT_EXPECT_PTR_EQ(test, vm->pages[i], vmalloc_to_page(p + i * PAGE_SIZE));
	KUNIT_EXPECT_PTR_EQ(test, find_vm_area(p + size - 1), vm);	/* any address inside */
	KUNIT_EXPECT_NULL(test, find_vm_area(k));
	KUNIT_EXPECT_NULL(test, find_vm_area((void *)(VMALLOC_START - PAGE_SIZE)));
	kfree(k);
	vfree(p);
	KUNIT_EXPECT_NULL(test, find_vm_area(p));		/* freed, not yet purged */
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- vmap */

#define VMAP_PAGES	5

static void vmap_maps_the_callers_pages(struct kunit *test)
{
	struct page *pages[VMAP_PAGES];
	unsigned long free;
	struct vm_struct *vm;
	u8 *v;

	/* Backwards, so that the mapping is not also physically contiguous */
	for (int i = VMAP_PAGES - 1; i >= 0; i--) {
		pages[i] = held_alloc(&vctx.held, GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	v = vmap(pages, VMAP_PAGES, VM_MAP, PAGE_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	vm = find_vm_area(v);
	KUNIT_ASSERT_NOT_NULL(test, vm);
	KUNIT_EXPECT_EQ(test, vm->flags & (VM_ALLOC | VM_MAP), VM_MAP);
	KUNIT_EXPECT_EQ(test, vm->nr_pages, VMAP_PAGES);
	KUNIT_EXPECT_EQ(test, vm->size, (VMAP_PAGES + 1) * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, caller_is(vm->caller, "vmap_maps_the_callers_pages"));
	vm_fill(v, VMAP_PAGES * PAGE_SIZE, TAG);
	for (int i = 0; i < VMAP_PAGES; i++) {
		KUNIT_EXPECT_PTR_EQ(test, vmalloc_to_page(v + i * PAGE_SIZE), pages[i]);
		KUNIT_EXPECT_EQ(test, *(u64 *)page_address(pages[i]), vm_stamp(v, i, TAG));
	}
	KUNIT_EXPECT_EQ(test, vm_probe(v + VMAP_PAGES * PAGE_SIZE), -EFAULT);

	/* vunmap() takes the mapping away and leaves the pages to their owner */
	drain_all_pages();
	free = nr_free_pages();
	vunmap(v);
	drain_all_pages();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);
	KUNIT_EXPECT_NULL(test, find_vm_area(v));
	KUNIT_EXPECT_EQ(test, mapped_pages((unsigned long)v, VMAP_PAGES), 0);
	for (int i = 0; i < VMAP_PAGES; i++) {
		KUNIT_EXPECT_TRUE(test, page_test(pages[i], PG_allocated));
		KUNIT_EXPECT_EQ(test, *(u64 *)page_address(pages[i]), vm_stamp(v, i, TAG));
	}

	/* Nothing to map, or more pages than the machine has: NULL */
	KUNIT_EXPECT_NULL(test, vmap(pages, 0, VM_MAP, PAGE_KERNEL));
	KUNIT_EXPECT_NULL(test, vmap(pages, totalram_pages + 1, VM_MAP, PAGE_KERNEL));
	held_free_all(&vctx.held);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- vmalloc_huge */

static void expect_mapped_at_level(struct kunit *test, const u8 *p, unsigned long size,
				   unsigned int want)
{
	for (unsigned long off = 0; off < size; off += PAGE_SIZE << (9 * (want - 1))) {
		unsigned int level = 0;

		KUNIT_EXPECT_NOT_NULL(test, lookup_kernel_pte((unsigned long)p + off, &level));
		KUNIT_EXPECT_EQ_MSG(test, level, want, "at offset %#lx", off);
	}
}

static void vmalloc_huge_uses_2m_pages_when_it_can(struct kunit *test)
{
	static const unsigned long huge_sizes[] = { 4 * SZ_1M, 3 * SZ_1M, 2 * SZ_1M };
	static const unsigned long two_2m_blocks[NR_PAGE_ORDERS] = { [9] = 2 };
	struct vm_struct *vm;
	u8 *p;

	need_free_blocks(test, NULL, two_2m_blocks);
	for (unsigned int i = 0; i < ARRAY_SIZE(huge_sizes); i++) {
		unsigned long size = huge_sizes[i], blocks = DIV_ROUND_UP(size, PMD_SIZE);

		p = vmalloc_huge(size, GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, p);
		vm = find_vm_area(p);
		KUNIT_EXPECT_TRUE_MSG(test, IS_ALIGNED((unsigned long)p, PMD_SIZE), "%px", p);
		KUNIT_EXPECT_TRUE_MSG(test, vm->flags & VM_HUGE_PAGES, "size %lu", size);
		KUNIT_EXPECT_EQ(test, vm->page_order, 9);
		KUNIT_EXPECT_EQ(test, vm->nr_pages, blocks);	/* rounded up to 2 MiB, as Linux */
		KUNIT_EXPECT_EQ(test, vm->size, blocks * PMD_SIZE + PAGE_SIZE);
		expect_mapped_at_level(test, p, size, 2);
		KUNIT_EXPECT_TRUE(test, all_zero(p, size));
		vm_fill(p, size, TAG);
		KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
		KUNIT_EXPECT_EQ(test, vm_check_pages(p, size, TAG), 0);
		KUNIT_EXPECT_PTR_EQ(test, vmalloc_to_page(p + 5 * PAGE_SIZE + 7), vm->pages[0] + 5);
		KUNIT_EXPECT_EQ(test, vm_probe(p + blocks * PMD_SIZE - 1), 0);
		KUNIT_EXPECT_EQ(test, vm_probe(p + blocks * PMD_SIZE), -EFAULT);
		vfree(p);
	}

	/* Less than 2 MiB: small pages */
	p = vmalloc_huge(SZ_1M, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	vm = find_vm_area(p);
	KUNIT_EXPECT_FALSE(test, vm->flags & VM_HUGE_PAGES);
	KUNIT_EXPECT_EQ(test, vm->nr_pages, SZ_1M / PAGE_SIZE);
	expect_mapped_at_level(test, p, SZ_1M, 1);
	vm_fill(p, SZ_1M, TAG);
	KUNIT_EXPECT_EQ(test, vm_check_pages(p, SZ_1M, TAG), 0);
	vfree(p);
	KUNIT_EXPECT_NULL(test, strstr(log_since(vctx.log_pos), "pgtable:"));
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- page tables: gfp and scopes */

/*
 * __GFP_NOFAIL holds for the page tables too: a page-table page that
 * cannot be had is retried (as Linux's __vmalloc_area_node() retries
 * vmap_pages_range()).  kvmalloc()'s fallback: the kvmalloc suite.
 */
static void nofail_survives_page_table_failures(struct kunit *test)
{
	const unsigned long size = 16 * SZ_1M;
	u8 *p;

	need_free_pages(test, 2 * size / PAGE_SIZE);
	p = nofail_with_page_tables_failing(test, size, __vmalloc);
	vm_fill(p, size, TAG);
	KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
	KUNIT_EXPECT_EQ(test, vm_check_pages(p, size, TAG), 0);
	vfree(p);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * A shrinker with one page to give per call, that notes the gfp reclaim
 * was called with: while memory is exhausted, every allocation that runs
 * reclaim shows it here.
 */
static struct {
	struct shrinker shrinker;
	struct held_pages pool;
	gfp_t seen;			/* every sc->gfp_mask, or'ed */
	unsigned int calls;
	bool armed;			/* memory is exhausted: count and give */
} gfp_spy;

/* One object per pass, so that each allocation that needs memory runs reclaim. */
static unsigned long gfp_spy_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	if (!gfp_spy.armed)
		return SHRINK_EMPTY;
	gfp_spy.seen |= sc->gfp_mask;
	gfp_spy.calls++;
	return gfp_spy.pool.nr_pages ? 1 : SHRINK_EMPTY;
}

static unsigned long gfp_spy_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct page *page = held_take(&gfp_spy.pool, 0);

	(void)s, (void)sc;
	if (!page)
		return SHRINK_STOP;
	__free_pages(page, 0);
	return 1;
}

/* @pool pages for the spy, then memory exhausted; false if the pool could not be had. */
static bool gfp_spy_start(unsigned long pool)
{
	held_init(&gfp_spy.pool);
	for (unsigned long i = 0; i < pool; i++) {
		if (!held_alloc(&gfp_spy.pool, GFP_KERNEL | __GFP_NOWARN, 0))
			return false;
	}
	gfp_spy.shrinker = (struct shrinker){ .count_objects = gfp_spy_count,
					      .scan_objects = gfp_spy_scan, .seeks = DEFAULT_SEEKS };
	if (register_shrinker(&gfp_spy.shrinker, "vmalloc_test_gfp_spy"))
		return false;
	held_exhaust(&vctx.held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
	gfp_spy.seen = 0;
	gfp_spy.calls = 0;
	gfp_spy.armed = true;
	return true;
}

static void gfp_spy_stop(void)
{
	gfp_spy.armed = false;
	held_free_all(&vctx.held);
	if (gfp_spy.shrinker.registered)
		unregister_shrinker(&gfp_spy.shrinker);
	held_free_all(&gfp_spy.pool);
}

/*
 * Linux's scopes: memalloc_nofs_save() takes __GFP_FS from every
 * allocation until the restore, memalloc_noio_save() __GFP_IO as well;
 * they nest; and reclaim (the shrinkers) sees the reduced gfp.
 */
static void scopes_reduce_the_gfp_reclaim_sees(struct kunit *test)
{
	static const struct { unsigned int (*save)(void); gfp_t want; } scopes[] = {
		{ memalloc_nofs_save, GFP_NOFS }, { memalloc_noio_save, GFP_NOIO },
	};
	unsigned int nofs, noio, inner;

	KUNIT_EXPECT_EQ(test, current_gfp_context(GFP_KERNEL), GFP_KERNEL);
	nofs = memalloc_nofs_save();
	KUNIT_EXPECT_EQ(test, current_gfp_context(GFP_KERNEL), GFP_NOFS);
	inner = memalloc_nofs_save();
	KUNIT_EXPECT_EQ(test, inner, 0);
	memalloc_nofs_restore(inner);		/* the outer scope still holds */
	KUNIT_EXPECT_EQ(test, current_gfp_context(GFP_KERNEL), GFP_NOFS);
	noio = memalloc_noio_save();
	KUNIT_EXPECT_EQ(test, current_gfp_context(GFP_KERNEL | __GFP_ZERO), GFP_NOIO | __GFP_ZERO);
	memalloc_noio_restore(noio);
	KUNIT_EXPECT_EQ(test, current_gfp_context(GFP_KERNEL), GFP_NOFS);
	memalloc_nofs_restore(nofs);
	KUNIT_EXPECT_EQ(test, current_gfp_context(GFP_KERNEL), GFP_KERNEL);

	KUNIT_ASSERT_TRUE(test, gfp_spy_start(64));
	for (unsigned int i = 0; i < ARRAY_SIZE(scopes); i++) {
		unsigned int flags = scopes[i].save();
		struct page *page;

		gfp_spy.seen = 0;
		gfp_spy.calls = 0;
		page = alloc_pages(GFP_KERNEL, 0);
		memalloc_flags_restore(flags);
		KUNIT_EXPECT_NOT_NULL(test, page);
		if (page)
			held_add(&vctx.held, page, 0);
		KUNIT_EXPECT_GE(test, gfp_spy.calls, 1);
		KUNIT_EXPECT_EQ_MSG(test, gfp_spy.seen & (__GFP_IO | __GFP_FS),
				    scopes[i].want & (__GFP_IO | __GFP_FS), "scope %u", i);
	}
	gfp_spy_stop();
}

/*
 * __vmalloc(GFP_NOFS) and __vmalloc(GFP_NOIO): the page tables too are
 * allocated without __GFP_FS (and __GFP_IO), as Linux's
 * __vmalloc_area_node() makes sure with memalloc_nofs_save() around the
 * mapping.  Memory is exhausted, so each allocation runs reclaim, and the
 * spy sees every gfp: none may allow the filesystem.
 */
static void page_tables_honour_nofs_and_noio(struct kunit *test)
{
	static const gfp_t gfps[] = { GFP_NOFS, GFP_NOIO };
	const unsigned long size = 2 * PMD_SIZE;

	need_free_pages(test, 3 * size / PAGE_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(gfps); i++) {
		unsigned long tables = vmalloc_table_pages();
		unsigned int dropped;
		u8 *where = fresh_tables_for(size, &dropped), *p;

		KUNIT_ASSERT_NOT_NULL(test, where);
		KUNIT_ASSERT_GE(test, dropped, 1);
		tables -= dropped;
		KUNIT_ASSERT_TRUE(test, gfp_spy_start(size / PAGE_SIZE + 256));
		p = __vmalloc(size, gfps[i]);
		gfp_spy_stop();
		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "gfp %#x", gfps[i]);
		KUNIT_EXPECT_PTR_EQ(test, p, where);
		KUNIT_EXPECT_GT(test, vmalloc_table_pages(), tables);	/* it made a table */
		KUNIT_EXPECT_GE(test, gfp_spy.calls, 1);
		KUNIT_EXPECT_EQ_MSG(test, gfp_spy.seen & (__GFP_IO | __GFP_FS),
				    gfps[i] & (__GFP_IO | __GFP_FS), "gfp %#x", gfps[i]);
		vm_fill(p, size, TAG);
		KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
		vfree(p);
	}
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * An alignment that is not a power of two is a bad request: refused at
 * once, in one report, without purging the lazily freed areas first (a
 * purge cannot make it fit).
 */
static void bad_align_is_refused_without_a_purge(struct kunit *test)
{
	unsigned long purges, pos;
	void *p;

	kunit_expect_report(test, "vmalloc error: size");
	vfree(vmalloc(PAGE_SIZE));		/* something for a purge to do */
	purges = global_vm_event(VMALLOC_LAZY_PURGE);
	pos = printk_log_pos();
	p = __vmalloc_node(PAGE_SIZE, 3 * PAGE_SIZE, GFP_KERNEL, NUMA_NO_NODE,
			   __builtin_return_address(0));
	KUNIT_EXPECT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_LAZY_PURGE, purges), 0);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "vmalloc error: size 4096"), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "not a power of two"));
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "vmalloc bug"));
	vfree(p);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- vmalloc_array, vcalloc */

static void vmalloc_array_and_vcalloc_check_the_product(struct kunit *test)
{
	u8 *a = vmalloc_array(1000, 12), *c = vcalloc(1000, 12);
	unsigned long pos;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, find_vm_area(a)->nr_pages, 3);	/* 12,000 bytes */
	KUNIT_EXPECT_EQ(test, find_vm_area(c)->nr_pages, 3);
	KUNIT_EXPECT_TRUE(test, all_zero(c, 12000));
	vm_fill(a, 12000, TAG);
	KUNIT_EXPECT_EQ(test, vm_check(a, 12000, TAG), 0);
	vfree(a);
	vfree(c);

	/*
	 * A product that overflows is NULL, as kmalloc_array()'s: one line
	 * each naming the caller, and no vmalloc failure counted.
	 */
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, vmalloc_array(~(size_t)0 / 2 + 1, 2));
	KUNIT_EXPECT_NULL(test, vmalloc_array(1UL << 32, 1UL << 32));
	KUNIT_EXPECT_NULL(test, vcalloc(~(size_t)0 / 8 + 1, 8));
	KUNIT_EXPECT_NULL(test, vcalloc(3, ~(size_t)0 / 2));
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "vmalloc_array: "), 4);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "bytes overflows size_t, caller "
					   "vmalloc_array_and_vcalloc_check_the_product+"), 4);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_FAIL, vctx.fails), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- the lazy purge */

static void add_lazy_bytes(const struct vmap_area *va, bool lazy, void *arg)
{
	if (lazy)
		*(unsigned long *)arg += va_size(va);
}

static unsigned long lazy_bytes(void)
{
	unsigned long bytes = 0;

	vmalloc_for_each_area(add_lazy_bytes, &bytes);
	return bytes;
}

/*
 * A thousand vfree()s of a page: their ranges wait on the lazy list and
 * one purge (at most a few) flushes them all, where an eager vfree would
 * flush a thousand times.  vm_unmap_aliases() then purges everything left.
 */
static void lazy_purge_batches_the_flushes(struct kunit *test)
{
	unsigned long purges = global_vm_event(VMALLOC_LAZY_PURGE);
	unsigned long shootdowns = global_vm_event(NR_TLB_REMOTE_FLUSH);
	unsigned long pages = global_vm_event(VMALLOC_PURGED_PAGES);
	unsigned long areas = global_vm_event(VMALLOC_PURGED_AREAS);
	unsigned long dp, ds;

	for (unsigned int i = 0; i < LAZY_PAIRS; i++) {
		u64 *p = vmalloc(PAGE_SIZE);

		KUNIT_ASSERT_NOT_NULL(test, p);
		*p = i;
		vfree(p);
	}
	dp = delta(VMALLOC_LAZY_PURGE, purges);
	ds = delta(NR_TLB_REMOTE_FLUSH, shootdowns);
	kunit_info(test, "%d vmalloc(PAGE_SIZE)/vfree pairs on %u CPUs: %lu purges, %lu "
		   "shootdowns; %lu bytes of ranges wait for the next", LAZY_PAIRS,
		   num_online_cpus(), dp, ds, lazy_bytes());
	KUNIT_EXPECT_LE(test, dp, LAZY_PAIRS / 100);	/* at least 100 times fewer than eager */
	KUNIT_EXPECT_LE(test, ds, dp);			/* a shootdown only with a purge */
	if (!dp)
		KUNIT_EXPECT_EQ(test, lazy_bytes(), LAZY_PAIRS * 2 * PAGE_SIZE);

	vm_unmap_aliases();
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_LAZY_PURGE, purges), dp + 1);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_PURGED_PAGES, pages), LAZY_PAIRS);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_PURGED_AREAS, areas), LAZY_PAIRS);
	KUNIT_EXPECT_EQ(test, lazy_bytes(), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * The lazy list does not grow without bound: 200 MiB freed a MiB at a time
 * passes the threshold (32 MiB per log2 of the CPUs, as Linux's) a few
 * times, and purges that often.  An eager flush on every vfree(), for
 * comparison, is one purge (and one shootdown, with other CPUs) each.
 */
static void lazy_purge_runs_at_the_threshold(struct kunit *test)
{
	const unsigned int rounds = 200, eager = 50;
	unsigned long purges = global_vm_event(VMALLOC_LAZY_PURGE);
	unsigned long pages = global_vm_event(VMALLOC_PURGED_PAGES);
	unsigned long shootdowns, dp;

	need_free_pages(test, SZ_1M / PAGE_SIZE);
	for (unsigned int i = 0; i < rounds; i++) {
		void *p = vmalloc(SZ_1M);

		KUNIT_ASSERT_NOT_NULL(test, p);
		vfree(p);
	}
	dp = delta(VMALLOC_LAZY_PURGE, purges);
	kunit_info(test, "%u vfree()s of 1 MiB on %u CPUs: %lu purges", rounds, num_online_cpus(),
		   dp);
	KUNIT_EXPECT_GE(test, dp, 1);
	KUNIT_EXPECT_LE(test, dp, rounds / 20);
	vm_unmap_aliases();
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_PURGED_PAGES, pages), rounds * SZ_1M / PAGE_SIZE);

	purges = global_vm_event(VMALLOC_LAZY_PURGE);
	shootdowns = global_vm_event(NR_TLB_REMOTE_FLUSH);
	for (unsigned int i = 0; i < eager; i++) {
		vfree(vmalloc(PAGE_SIZE));
		vm_unmap_aliases();
	}
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_LAZY_PURGE, purges), eager);
	KUNIT_EXPECT_EQ(test, delta(NR_TLB_REMOTE_FLUSH, shootdowns),
			num_online_cpus() > 1 ? eager : 0);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- misuse */

/*
 * Expect exactly one line since *@pos: "BUG: @fn(@addr) by <this case>+...:
 * ... @why"; move *@pos on.
 */
static void expect_bad_free(struct kunit *test, unsigned long *pos, const char *fn,
			    const void *addr, const char *why)
{
	const char *log = log_since(*pos);
	char head[96];

	snprintf(head, sizeof(head), "BUG: %s(%px) by %s+", fn, addr, test->name);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "\n"), 1, "not one line: %s", log);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, head), "no '%s' in: %s", head, log);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, why), "no '%s' in: %s", why, log);
	*pos = printk_log_pos();
}

static void vfree_of_a_foreign_address_is_reported(struct kunit *test)
{
	static u64 in_the_image;
	unsigned long pos = printk_log_pos(), slab_bad = global_vm_event(SLAB_BAD_FREE);
	unsigned long page_bad = global_vm_event(PGALLOC_BAD_FREE);
	const char *why = "not a vmalloc address";
	u64 *k = kmalloc(64, GFP_KERNEL);
	struct page *page = held_alloc(&vctx.held, GFP_KERNEL, 0);
	u64 *direct;

	kunit_expect_report(test, "BUG: vfree(");
	kunit_expect_report(test, "BUG: vunmap(");
	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_ASSERT_NOT_NULL(test, page);
	direct = page_address(page);
	*k = *direct = in_the_image = TAG;
	vfree(k);
	expect_bad_free(test, &pos, "vfree", k, why);
	vfree(direct);
	expect_bad_free(test, &pos, "vfree", direct, why);
	vfree(&in_the_image);
	expect_bad_free(test, &pos, "vfree", &in_the_image, why);
	vfree((void *)(VMALLOC_START - PAGE_SIZE));
	expect_bad_free(test, &pos, "vfree", (void *)(VMALLOC_START - PAGE_SIZE), why);
	vunmap(k);
	expect_bad_free(test, &pos, "vunmap", k, why);
	vfree_atomic(direct);
	expect_bad_free(test, &pos, "vfree", direct, why);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, vctx.bad_frees), 6);

	/* Harmless: each owner still has its memory, and frees it without a complaint */
	KUNIT_EXPECT_EQ(test, *k, TAG);
	KUNIT_EXPECT_EQ(test, *direct, TAG);
	KUNIT_EXPECT_EQ(test, in_the_image, TAG);
	kfree(k);
	held_free_all(&vctx.held);
	KUNIT_EXPECT_EQ(test, delta(SLAB_BAD_FREE, slab_bad), 0);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_BAD_FREE, page_bad), 0);
	expect_vmalloc_back(test, &vctx.before);
}

static void vfree_inside_or_outside_an_area_is_reported(struct kunit *test)
{
	const unsigned long size = 3 * PAGE_SIZE;
	u8 *p = vmalloc(size), *nowhere;
	unsigned long pos = printk_log_pos();
	char inside[64];

	kunit_expect_report(test, "BUG: vfree(");
	kunit_expect_report(test, "BUG: vunmap(");
	KUNIT_ASSERT_NOT_NULL(test, p);
	nowhere = p + 512 * SZ_1M;		/* in the vmalloc space, in no area */
	vm_fill(p, size, TAG);
	snprintf(inside, sizeof(inside), "inside the area %#lx-%#lx, not at its start",
		 (unsigned long)p, (unsigned long)(p + size + PAGE_SIZE));
	vfree(p + PAGE_SIZE);
	expect_bad_free(test, &pos, "vfree", p + PAGE_SIZE, inside);
	vfree(p + 1);
	expect_bad_free(test, &pos, "vfree", p + 1, inside);
	vfree(p + size);			/* its guard page */
	expect_bad_free(test, &pos, "vfree", p + size, inside);
	vfree_atomic(p + 8);
	expect_bad_free(test, &pos, "vfree", p + 8, inside);
	vunmap(p + PAGE_SIZE);
	expect_bad_free(test, &pos, "vunmap", p + PAGE_SIZE, inside);
	vfree(nowhere);
	expect_bad_free(test, &pos, "vfree", nowhere, "not a live vmalloc area");
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, vctx.bad_frees), 6);

	KUNIT_EXPECT_PTR_EQ(test, find_vm_area(p)->addr, p);
	KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
	vfree(p);
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	expect_vmalloc_back(test, &vctx.before);
}

static void double_vfree_is_reported(struct kunit *test)
{
	const char *why = "double free (the area was freed already)";
	u8 *p = vmalloc(2 * PAGE_SIZE), *q = vmalloc(PAGE_SIZE);
	unsigned long pos;
	struct page *page;
	void *v;

	kunit_expect_report(test, "BUG: vfree(");
	kunit_expect_report(test, "BUG: vunmap(");
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, q);
	page = held_alloc(&vctx.held, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	v = vmap(&page, 1, VM_MAP, PAGE_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	vm_fill(q, PAGE_SIZE, TAG);
	vfree(p);
	vunmap(v);
	pos = printk_log_pos();

	/* Freed, its range still waiting for the purge */
	vfree(p);
	expect_bad_free(test, &pos, "vfree", p, why);
	vunmap(v);
	expect_bad_free(test, &pos, "vunmap", v, why);
	/* ... and after the purge: the range is free again, but not given out yet */
	vm_unmap_aliases();
	pos = printk_log_pos();
	vfree(p);
	expect_bad_free(test, &pos, "vfree", p, why);
	vfree_atomic(p);
	expect_bad_free(test, &pos, "vfree", p, why);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, vctx.bad_frees), 4);

	/* Nothing else was touched */
	KUNIT_EXPECT_EQ(test, vm_check(q, PAGE_SIZE, TAG), 0);
	KUNIT_EXPECT_TRUE(test, page_test(page, PG_allocated));
	vfree(q);
	held_free_all(&vctx.held);
	expect_vmalloc_back(test, &vctx.before);
}

static void vunmap_and_vfree_mixed_up_are_reported(struct kunit *test)
{
	const unsigned long size = 2 * PAGE_SIZE;
	u8 *p = vmalloc(size), *v;
	unsigned long pos = printk_log_pos();
	struct page *pages[2];

	kunit_expect_report(test, "BUG: vfree(");
	kunit_expect_report(test, "BUG: vunmap(");
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (int i = 0; i < 2; i++) {
		pages[i] = held_alloc(&vctx.held, GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	v = vmap(pages, 2, VM_MAP, PAGE_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	vm_fill(p, size, TAG);
	vm_fill(v, size, ~TAG);

	vunmap(p);
	expect_bad_free(test, &pos, "vunmap", p, "the area was made by vmalloc(): use vfree()");
	vfree(v);
	expect_bad_free(test, &pos, "vfree", v, "the area was made by vmap(): use vunmap()");
	vfree_atomic(v);
	expect_bad_free(test, &pos, "vfree", v, "the area was made by vmap(): use vunmap()");
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, vctx.bad_frees), 3);

	/* Both still mapped, to the same pages */
	KUNIT_EXPECT_EQ(test, vm_check(p, size, TAG), 0);
	KUNIT_EXPECT_EQ(test, vm_check(v, size, ~TAG), 0);
	KUNIT_EXPECT_PTR_EQ(test, vmalloc_to_page(v + PAGE_SIZE), pages[1]);
	vfree(p);
	vunmap(v);
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	held_free_all(&vctx.held);
	expect_vmalloc_back(test, &vctx.before);
}

static void null_is_ignored_quietly(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	vfree(NULL);
	vfree_atomic(NULL);
	vunmap(NULL);
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, vctx.bad_frees), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/* ---------------------------------------------------------------- deferred vfree */

/*
 * Deferred work that CPU 0 queues runs on another CPU when there is one
 * (kernel/workqueue.h), at once.  To see that a vfree() was deferred, not
 * done, every other CPU is kept busy in a work item of ours meanwhile.
 */
static struct work_struct blockers[NR_CPUS];
static unsigned long blocked, released;

static void block_cpu(struct work_struct *work)
{
	(void)work;
	__atomic_fetch_add(&blocked, 1, __ATOMIC_RELEASE);
	wait_until(__atomic_load_n(&released, __ATOMIC_ACQUIRE));
}

static bool block_other_cpus(void)
{
	unsigned int cpu;

	blocked = released = 0;
	for_each_online_cpu(cpu) {
		INIT_WORK(&blockers[cpu], block_cpu);
		if (cpu)
			schedule_work_on(cpu, &blockers[cpu]);
	}
	return wait_until(__atomic_load_n(&blocked, __ATOMIC_ACQUIRE) == num_online_cpus() - 1);
}

static void release_other_cpus(void)
{
	unsigned int cpu;

	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	for_each_online_cpu(cpu) {
		if (cpu)
			flush_work(&blockers[cpu]);
	}
}

/*
 * With interrupts off vfree() must not free (a purge would wait for the
 * other CPUs), and vfree_atomic() never does: both put the area on this
 * CPU's deferred list, and the deferred work frees it soon after.
 * (smp_vmalloc_test.c frees from interrupt handlers.)
 */
static void vfree_that_must_not_wait_is_deferred(struct kunit *test)
{
	const unsigned long size = 4 * PAGE_SIZE;
	u8 *p = vmalloc(size), *q = vmalloc(size);
	unsigned long pos = printk_log_pos(), flags;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, q);
	if (!block_other_cpus()) {
		release_other_cpus();
		KUNIT_FAIL(test, "the other CPUs did not run our work items");
		return;
	}
	local_irq_save(flags);
	vfree(p);
	local_irq_restore(flags);
	vfree_atomic(q);
	KUNIT_EXPECT_NOT_NULL(test, find_vm_area(p));	/* on the deferred list */
	KUNIT_EXPECT_NOT_NULL(test, find_vm_area(q));
	release_other_cpus();
	flush_scheduled_work();
	KUNIT_EXPECT_NULL(test, find_vm_area(p));
	KUNIT_EXPECT_NULL(test, find_vm_area(q));
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, vctx.bad_frees), 0);
	expect_vmalloc_back(test, &vctx.before);
}

/*
 * A second free of an area that is still on the deferred list (by
 * vfree_atomic() or by vfree()) is a double free: one report, the list
 * left as it was, and the deferred work frees each area once.  It used to
 * link the area to itself, or keep an area vfree() had freed, and the work
 * faulted ("use after vfree ... RIP: delayed_vfree_work").
 */
static void second_free_of_a_deferred_area_is_reported(struct kunit *test)
{
	const char *why = "double free (the area is on the deferred list already)";
	const unsigned long size = 4 * PAGE_SIZE;
	u8 *p = vmalloc(size), *q = vmalloc(size), *r = vmalloc(size);
	unsigned long pos, flags;

	kunit_expect_report(test, "BUG: vfree(");
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_ASSERT_NOT_NULL(test, r);
	if (!block_other_cpus()) {
		release_other_cpus();
		KUNIT_FAIL(test, "the other CPUs did not run our work items");
		return;
	}
	pos = printk_log_pos();
	vfree_atomic(p);
	vfree_atomic(p);
	expect_bad_free(test, &pos, "vfree", p, why);
	vfree_atomic(q);
	vfree(q);
	expect_bad_free(test, &pos, "vfree", q, why);
	local_irq_save(flags);
	vfree(r);
	vfree(r);		/* deferred too: interrupts are off */
	local_irq_restore(flags);
	expect_bad_free(test, &pos, "vfree", r, why);
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_BAD_FREE, vctx.bad_frees), 3);
	KUNIT_EXPECT_NOT_NULL(test, find_vm_area(p));	/* all three still waiting */
	KUNIT_EXPECT_NOT_NULL(test, find_vm_area(q));
	KUNIT_EXPECT_NOT_NULL(test, find_vm_area(r));
	release_other_cpus();
	flush_scheduled_work();
	KUNIT_EXPECT_NULL(test, find_vm_area(p));
	KUNIT_EXPECT_NULL(test, find_vm_area(q));
	KUNIT_EXPECT_NULL(test, find_vm_area(r));
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	expect_vmalloc_back(test, &vctx.before);
}

struct lazy_cover {
	unsigned long start, end;
	bool lazy;
};

static void find_lazy_cover(const struct vmap_area *va, bool lazy, void *arg)
{
	struct lazy_cover *c = arg;

	if (lazy && va->va_start <= c->start && va->va_end >= c->end)
		c->lazy = true;
}

/* Is all of [@start, @end) in one lazily freed area (not flushed, not free)? */
static bool range_is_lazy(unsigned long start, unsigned long end)
{
	struct lazy_cover c = { start, end, false };

	vmalloc_for_each_area(find_lazy_cover, &c);
	return c.lazy;
}

/*
 * vunmap() with interrupts off is a misuse (it may purge, and a purge
 * waits for every CPU): reported in one line, and the purge it would start
 * is deferred to work that runs with interrupts on.  The lazily freed
 * ranges are never freed without their shootdown: it used to be refused
 * ("BUG: cross-CPU call with interrupts off ... refused") while the ranges
 * went back to the free tree all the same.
 */
static void vunmap_with_interrupts_off_defers_the_purge(struct kunit *test)
{
	unsigned long max, nr, purges, pos, flags, start, end;
	struct page **pages, *page;
	char head[96];
	void *v;

	kunit_expect_report(test, "BUG: vunmap(");
	kunit_expect_report(test, "BUG: vm_unmap_aliases(");
	vmalloc_lazy_pages(&max);
	nr = max + 1;				/* more than a purge waits for */
	if (nr > totalram_pages)
		kunit_skip(test, "vmap() maps at most the %lu pages of RAM, the purge needs %lu",
			   totalram_pages, nr);
	need_free_pages(test, nr / PTRS_PER_TABLE + nr * sizeof(*pages) / PAGE_SIZE + 16);
	page = held_alloc(&vctx.held, GFP_KERNEL, 0);
	pages = vmalloc(nr * sizeof(*pages));
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (unsigned long i = 0; i < nr; i++)
		pages[i] = page;		/* one page, mapped nr times */
	v = vmap(pages, nr, VM_MAP, PAGE_KERNEL);
	vfree(pages);
	KUNIT_ASSERT_NOT_NULL(test, v);
	start = (unsigned long)v;
	end = start + nr * PAGE_SIZE;
	if (!block_other_cpus()) {
		release_other_cpus();
		vunmap(v);
		KUNIT_FAIL(test, "the other CPUs did not run our work items");
		return;
	}
	purges = global_vm_event(VMALLOC_LAZY_PURGE);
	pos = printk_log_pos();
	local_irq_save(flags);
	vunmap(v);
	local_irq_restore(flags);
	snprintf(head, sizeof(head), "BUG: vunmap(%px) by %s+", v, test->name);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log_since(pos), head), "no '%s' in: %s", head,
				  log_since(pos));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "with interrupts off"));
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "cross-CPU call"));
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_LAZY_PURGE, purges), 0);
	KUNIT_EXPECT_TRUE(test, range_is_lazy(start, end));	/* not free: nobody flushed */
	pos = printk_log_pos();
	local_irq_save(flags);
	vm_unmap_aliases();			/* the same misuse, the same answer */
	local_irq_restore(flags);
	snprintf(head, sizeof(head), "BUG: vm_unmap_aliases() by %s+", test->name);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log_since(pos), head), "no '%s' in: %s", head,
				  log_since(pos));
	KUNIT_EXPECT_TRUE(test, range_is_lazy(start, end));
	release_other_cpus();
	flush_scheduled_work();			/* the deferred purge, interrupts on */
	KUNIT_EXPECT_EQ(test, delta(VMALLOC_LAZY_PURGE, purges), 1);
	KUNIT_EXPECT_FALSE(test, range_is_lazy(start, end));
	held_free_all(&vctx.held);
	expect_vmalloc_back(test, &vctx.before);
}

static struct kunit_case vmalloc_cases[] = {
	KUNIT_CASE_PARAM(sizes_hold_their_contents, sizes_gen_params),
	KUNIT_CASE(zeroing_variants_give_zeroed_memory),
	KUNIT_CASE(node_variants_take_pages_of_that_node),
	KUNIT_CASE(gfp_modifiers_work_when_memory_is_plentiful),
	KUNIT_CASE(gfp_modifiers_decide_when_memory_is_short),
	KUNIT_CASE(nonblocking_gfp_warns_and_fails),
	KUNIT_CASE(failed_vmalloc_leaves_nothing_behind),
	KUNIT_CASE(vmalloc_works_when_memory_is_fragmented),
	KUNIT_CASE(vmalloc_huge_fallback_area_is_exact),
	KUNIT_CASE(vmalloc_works_with_only_single_pages_free),
	KUNIT_CASE(guard_page_faults_and_the_oops_names_the_area),
	KUNIT_CASE(vmalloc_to_page_agrees_with_the_page_tables),
	KUNIT_CASE(is_vmalloc_addr_knows_the_space),
	KUNIT_CASE(find_vm_area_describes_the_area),
	KUNIT_CASE(vmap_maps_the_callers_pages),
	KUNIT_CASE(vmalloc_huge_uses_2m_pages_when_it_can),
	KUNIT_CASE(nofail_survives_page_table_failures),
	KUNIT_CASE(scopes_reduce_the_gfp_reclaim_sees),
	KUNIT_CASE(page_tables_honour_nofs_and_noio),
	KUNIT_CASE(bad_align_is_refused_without_a_purge),
	KUNIT_CASE(vmalloc_array_and_vcalloc_check_the_product),
	KUNIT_CASE(lazy_purge_batches_the_flushes),
	KUNIT_CASE(lazy_purge_runs_at_the_threshold),
	KUNIT_CASE(vfree_of_a_foreign_address_is_reported),
	KUNIT_CASE(vfree_inside_or_outside_an_area_is_reported),
	KUNIT_CASE(double_vfree_is_reported),
	KUNIT_CASE(vunmap_and_vfree_mixed_up_are_reported),
	KUNIT_CASE(null_is_ignored_quietly),
	KUNIT_CASE(vfree_that_must_not_wait_is_deferred),
	KUNIT_CASE(second_free_of_a_deferred_area_is_reported),
	KUNIT_CASE(vunmap_with_interrupts_off_defers_the_purge),
	{}
};

static struct kunit_suite vmalloc_suite = {
	.name = "vmalloc",
	.init = vmalloc_test_init,
	.exit = vmalloc_test_exit,
	.test_cases = vmalloc_cases,
	.strict = true,
};
kunit_test_suite(vmalloc_suite);
