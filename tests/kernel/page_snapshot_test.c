/*
 * tests/kernel/page_snapshot_test.c - the page snapshot against the
 * allocators' own counts.
 *
 * The pictures of memory draw mm/page_snapshot.c's cells, so the cells
 * must say what the allocators say.  A scripted run (hold blocks of several
 * orders, fill slabs, vmalloc, kmalloc a large block, inflate the balloon,
 * then give it all back) checks, at every step, that the snapshot agrees
 * with buddyinfo (free blocks per zone and order), with the per-CPU lists'
 * counts, with slabinfo (slab pages per cache) and with vmallocinfo
 * (vmalloc's pages); and that frames whose owner we know (the kernel image,
 * a page table, a held block, a slab page, a vmalloc page, a hole) have
 * their state.  The machine is quiet during a case, but the background
 * work (kswapd, the vmalloc purge) may run on another CPU: a count that
 * moved while the snapshot was taken is read again.
 */
#include "page_alloc_test.h"
#include "mm/balloon.h"
#include "mm/memblock.h"
#include "mm/page_snapshot.h"
#include "mm/vmalloc.h"
#include "mm/vmap_area.h"
#include "arch/x86_64/pgtable.h"
#include "kernel/percpu.h"

extern const char _text[];

static struct page_snapshot snap;	/* 2 KiB: static, off the stack */
static struct page_cell *cells;
static unsigned long nr_cells;

static int snapshot_init(struct kunit *test)
{
	nr_cells = page_snapshot_end_pfn();
	cells = vmalloc(nr_cells * sizeof(*cells));
	KUNIT_ASSERT_NOT_NULL(test, cells);
	drop_caches();
	return 0;
}

static void snapshot_exit(struct kunit *test)
{
	(void)test;
	vfree(cells);
	cells = NULL;
}

static void take(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, page_snapshot_take(&snap, 0, nr_cells, cells), 0);
}

static const struct page_cell *cell(unsigned long pfn)
{
	return &cells[pfn];
}

/* Free blocks of @order in @zone, counted from the cells (a block's first frame). */
static unsigned long cells_free_blocks(const struct zone *zone, unsigned int order)
{
	unsigned long n = 0;

	for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone); pfn++) {
		if (cell(pfn)->state == PAGE_STATE_FREE && cell(pfn)->order == order &&
		    !(pfn & ((1UL << order) - 1)))
			n++;
	}
	return n;
}

/* The sum of every zone's free-list counts: what moves if anything allocates. */
static unsigned long nr_free_now(void)
{
	unsigned long n = 0;
	struct zone *zone;

	for_each_populated_zone(zone)
		n += READ_ONCE(zone->nr_free);
	return n;
}

/* Every CPU's per-CPU list pages, all zones. */
static unsigned long nr_pcp_now(void)
{
	unsigned long n = 0;
	struct zone *zone;
	int cpu;

	for_each_populated_zone(zone) {
		for_each_possible_cpu(cpu)
			n += READ_ONCE(per_cpu_ptr(zone->per_cpu_pageset, cpu)->count);
	}
	return n;
}

/*
 * A snapshot of the whole machine, and of @nr frames from @start into
 * @part if @part is not NULL, taken while neither the free lists nor the
 * per-CPU lists moved: background work on another CPU may allocate in
 * between.
 */
static void take_still(struct kunit *test, unsigned long start, unsigned long nr,
		       struct page_cell *part)
{
	static struct page_snapshot part_snap;

	for (int tries = 0; tries < 20; tries++) {
		unsigned long free = nr_free_now(), pcp = nr_pcp_now();

		take(test);
		if (part)
			KUNIT_ASSERT_EQ(test, page_snapshot_take(&part_snap, start, nr, part), 0);
		if (free == nr_free_now() && pcp == nr_pcp_now())
			return;
	}
	KUNIT_FAIL(test, "the free lists never held still for a snapshot");
}

static void expect_buddyinfo(struct kunit *test)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long free_cells = 0;

		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			KUNIT_EXPECT_EQ_MSG(test, cells_free_blocks(zone, o),
					    zone->free_area[o].nr_free,
					    "node %d %s order %u", zone->node, zone->name, o);
		/* and every frame of those blocks reads as free */
		for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone); pfn++)
			free_cells += cell(pfn)->state == PAGE_STATE_FREE;
		KUNIT_EXPECT_EQ_MSG(test, free_cells, zone->nr_free, "node %d %s", zone->node,
				    zone->name);
	}
	KUNIT_EXPECT_EQ(test, snap.count[PAGE_STATE_PCP], nr_pcp_now());
}

static unsigned long cells_of_cache(struct kmem_cache *s)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < snap.nr_caches && snap.caches[i] != s; i++)
		;
	if (i == snap.nr_caches)
		return 0;
	for (unsigned long pfn = 0; pfn < nr_cells; pfn++)
		n += cell(pfn)->state == PAGE_STATE_SLAB && cell(pfn)->cache == i;
	return n;
}

static void expect_slabinfo(struct kunit *test)
{
	struct kmem_cache *s;

	KUNIT_ASSERT_LT(test, snap.nr_caches, PAGE_SNAPSHOT_MAX_CACHES);
	KUNIT_EXPECT_EQ(test, snap.count[PAGE_STATE_SLAB], nr_slab_pages());
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list)
		KUNIT_EXPECT_EQ_MSG(test, cells_of_cache(s), kmem_cache_slab_pages(s), "%s",
				    s->name);
	spin_unlock(&slab_caches_lock);
}

static void count_vmalloc_pages(const struct vmap_area *va, bool lazy, void *arg)
{
	const struct vm_struct *vm = va->vm;

	if (!lazy && vm && vm->flags & VM_ALLOC)
		*(unsigned long *)arg += (unsigned long)vm->nr_pages << vm->page_order;
}

static void expect_vmallocinfo(struct kunit *test)
{
	unsigned long pages = 0;

	vmalloc_for_each_area(count_vmalloc_pages, &pages);
	KUNIT_EXPECT_EQ(test, snap.count[PAGE_STATE_VMALLOC], pages);
}

static void expect_all_agree(struct kunit *test)
{
	take_still(test, 0, 0, NULL);
	expect_buddyinfo(test);
	expect_slabinfo(test);
	expect_vmallocinfo(test);
}

static void snapshot_agrees_with_buddyinfo_slabinfo_vmallocinfo(struct kunit *test)
{
	struct held_pages held;
	void *objs[64], *area, *large;
	unsigned long ballooned;

	held_init(&held);
	expect_all_agree(test);
	for (unsigned int o = 0; o <= 4; o++)
		KUNIT_ASSERT_NOT_NULL(test, held_alloc(&held, GFP_KERNEL, o));
	expect_all_agree(test);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = kmalloc(512, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
	}
	expect_all_agree(test);
	area = vmalloc(40 * PAGE_SIZE);
	large = kmalloc(64 * 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, area);
	KUNIT_ASSERT_NOT_NULL(test, large);
	ballooned = balloon_inflate(16);
	KUNIT_EXPECT_EQ(test, ballooned, 16);
	expect_all_agree(test);
	KUNIT_EXPECT_GE(test, snap.count[PAGE_STATE_MOVABLE], ballooned);
	KUNIT_EXPECT_GE(test, snap.count[PAGE_STATE_LARGE_KMALLOC], 16);

	balloon_deflate(ballooned);
	kfree(large);
	vfree(area);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		kfree(objs[i]);
	held_free_all(&held);
	drop_caches();
	expect_all_agree(test);
}

static void check_table(phys_addr_t table, void *arg)
{
	struct kunit *test = arg;
	unsigned long pfn = table >> PAGE_SHIFT;

	KUNIT_EXPECT_EQ_MSG(test, cell(pfn)->state, PAGE_STATE_PAGE_TABLE, "table at pfn %#lx", pfn);
}

static void count_table(phys_addr_t table, void *arg)
{
	(void)table;
	++*(unsigned long *)arg;
}

static void known_frames_have_their_state(struct kunit *test)
{
	struct page *block = alloc_pages(GFP_KERNEL, 2);
	void *obj = kmalloc(96, GFP_KERNEL);
	void *area = vmalloc(3 * PAGE_SIZE);
	void *large = kmalloc(32 * 1024, GFP_KERNEL);
	unsigned long tables = 0, block_pfn, obj_pfn, vm_pfn, large_pfn;
	const struct page_cell *c;

	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_ASSERT_NOT_NULL(test, area);
	KUNIT_ASSERT_NOT_NULL(test, large);
	block_pfn = page_to_pfn(block);
	obj_pfn = __pa(obj) >> PAGE_SHIFT;
	vm_pfn = page_to_pfn(vmalloc_to_page((char *)area + PAGE_SIZE));
	large_pfn = __pa(large) >> PAGE_SHIFT;
	take(test);

	KUNIT_EXPECT_EQ(test, cell(__pa(_text) >> PAGE_SHIFT)->state, PAGE_STATE_KERNEL);
	for (unsigned long i = 0; i < 4; i++) {
		c = cell(block_pfn + i);
		KUNIT_EXPECT_EQ(test, c->state, PAGE_STATE_ALLOCATED);
		KUNIT_EXPECT_EQ(test, c->order, 2);
	}
	c = cell(obj_pfn);
	KUNIT_EXPECT_EQ(test, c->state, PAGE_STATE_SLAB);
	KUNIT_EXPECT_PTR_EQ(test, snap.caches[c->cache], kmalloc_caches[kmalloc_index(96)]);
	KUNIT_EXPECT_EQ(test, cell(vm_pfn)->state, PAGE_STATE_VMALLOC);
	KUNIT_EXPECT_EQ(test, cell(large_pfn)->state, PAGE_STATE_LARGE_KMALLOC);
	KUNIT_EXPECT_EQ(test, cell(large_pfn)->order, 3);
	/* the legacy VGA window, on the PC machines: no RAM */
	if (!memblock_is_memory(0xa0000))
		KUNIT_EXPECT_EQ(test, cell(0xa0)->state, PAGE_STATE_HOLE);
	for (unsigned long pfn = nr_cells; pfn-- > 0;) {
		if (cell(pfn)->state != PAGE_STATE_HOLE)
			KUNIT_EXPECT_EQ(test, cell(pfn)->migratetype,
					get_pageblock_migratetype(pfn_to_page(pfn)));
	}
	for_each_kernel_table(check_table, test);
	for_each_kernel_table(count_table, &tables);
	/* a KASAN kernel's shadow pages come from the same allocator as its tables */
	if (!CONFIG_KASAN)
		KUNIT_EXPECT_EQ(test, snap.count[PAGE_STATE_PAGE_TABLE], tables);

	/* freed, the order-0 page goes to this CPU's list */
	kfree(large);
	vfree(area);
	kfree(obj);
	__free_pages(block, 2);
	block = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, block);
	__free_page(block);
	take(test);
	KUNIT_EXPECT_EQ(test, cell(page_to_pfn(block))->state, PAGE_STATE_PCP);
}

/* A range that starts inside blocks reads the same cells as the whole machine's. */
static void part_of_the_machine_reads_the_same(struct kunit *test)
{
	const unsigned long nr = 3000;
	unsigned long start = min(nr_cells - nr, 0x1235UL);
	struct page_cell *part;
	static struct page_snapshot empty;	/* 2 KiB: off the stack */

	if (nr_cells < 2 * nr)
		kunit_skip(test, "needs %lu frames, the machine has %lu", 2 * nr, nr_cells);
	part = vmalloc(nr * sizeof(*part));
	KUNIT_ASSERT_NOT_NULL(test, part);
	take_still(test, start, nr, part);
	for (unsigned long i = 0; i < nr; i++) {
		KUNIT_EXPECT_EQ_MSG(test, part[i].state, cell(start + i)->state, "pfn %#lx", start + i);
		KUNIT_EXPECT_EQ_MSG(test, part[i].order, cell(start + i)->order, "pfn %#lx", start + i);
	}
	KUNIT_EXPECT_EQ(test, page_snapshot_take(&empty, 0, 0, part), -EINVAL);
	vfree(part);
}

static struct kunit_case page_snapshot_cases[] = {
	KUNIT_CASE(snapshot_agrees_with_buddyinfo_slabinfo_vmallocinfo),
	KUNIT_CASE(known_frames_have_their_state),
	KUNIT_CASE(part_of_the_machine_reads_the_same),
	{}
};

static struct kunit_suite page_snapshot_suite = {
	.name = "page_snapshot",
	.init = snapshot_init,
	.exit = snapshot_exit,
	.test_cases = page_snapshot_cases,
	.strict = true,
};
kunit_test_suite(page_snapshot_suite);
