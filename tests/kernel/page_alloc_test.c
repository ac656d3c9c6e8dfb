/*
 * tests/kernel/page_alloc_test.c - the buddy allocator does what it says,
 * on the real machine.
 *
 * Proves that every order 0..MAX_PAGE_ORDER gives an aligned block of RAM
 * that can be written through page_address(), that freeing everything puts
 * every zone's free lists back exactly as they were (buddyinfo), that all
 * of memory can be taken and given back, that __GFP_DMA and __GFP_DMA32 are
 * honoured and GFP_KERNEL prefers the highest zone, that watermarks are
 * sane and only GFP_ATOMIC may go below min, that alloc_pages_exact() gives
 * back the tail, that __GFP_ZERO zeroes dirty pages, that order-0 frees
 * go to the CPU's own list and drain back, and that the bulk calls take
 * whole blocks beyond that list and give them back as whole blocks.
 *
 * Misuse and poisoning are in page_alloc_misuse_test.c; shrinkers and the
 * OOM killer in page_alloc_reclaim_test.c.
 */
#include "page_alloc_test.h"
#include "arch/x86_64/multiboot2.h"
#include "lib/vsprintf.h"
#include "mm/internal.h"
#include "mm/compaction.h"

extern const char _text[], _end[];

struct pa_ctx {
	struct held_pages held;
	unsigned long free_before;
};

static struct pa_ctx pa_ctx;
static struct buddy_snapshot snap_before, snap_after;

static int pa_init(struct kunit *test)
{
	drop_caches();
	held_init(&pa_ctx.held);
	pa_ctx.free_before = nr_free_pages();
	buddy_snapshot_take(&snap_before);
	test->priv = &pa_ctx;
	return 0;
}

/* Whatever a case did or failed to do, give everything back. */
static void pa_exit(struct kunit *test)
{
	(void)test;
	held_free_all(&pa_ctx.held);
}

/*
 * Free all, drain, give back any highatomic pageblock the case's atomic
 * allocations reserved (its blocks would not merge with their buddies),
 * and expect free pages and buddyinfo as they were at init.
 */
static void expect_all_restored(struct kunit *test)
{
	held_free_all(&pa_ctx.held);
	drain_all_pages();
	unreserve_all_highatomic();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), pa_ctx.free_before);
	buddy_snapshot_take(&snap_after);
	expect_buddy_snapshot_eq(test, &snap_before, &snap_after);
}

/* ---------------------------------------------------------------- every order */

static void check_block(struct kunit *test, struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), nr = 1UL << order;
	struct zone *zone = page_zone(page);

	KUNIT_EXPECT_EQ_MSG(test, pfn & (nr - 1), 0, "order %u at pfn %#lx", order, pfn);
	KUNIT_EXPECT_TRUE(test, pfn_valid(pfn) && pfn_valid(pfn + nr - 1));
	KUNIT_EXPECT_LE(test, pfn + nr, max_pfn);
	/* the whole block in one zone, and none of it reserved */
	KUNIT_EXPECT_GE(test, pfn, zone->zone_start_pfn);
	KUNIT_EXPECT_LE(test, pfn + nr, zone_end_pfn(zone));
	for (unsigned long i = 0; i < nr; i++) {
		u64 *p = page_address(page + i);

		if (PageReserved(page + i) || page_zone(page + i) != zone) {
			KUNIT_FAIL(test, "order %u block at pfn %#lx: page %lu reserved or elsewhere",
				   order, pfn, i);
			break;
		}
		/* writable through the direct map, first and last word */
		WRITE_ONCE(p[0], pfn + i);
		WRITE_ONCE(p[PAGE_SIZE / 8 - 1], ~(pfn + i));
	}
	for (unsigned long i = 0; i < nr; i++) {
		u64 *p = page_address(page + i);

		if (READ_ONCE(p[0]) != pfn + i || READ_ONCE(p[PAGE_SIZE / 8 - 1]) != ~(pfn + i)) {
			KUNIT_FAIL(test, "order %u block at pfn %#lx: page %lu lost what was written",
				   order, pfn, i);
			break;
		}
	}
}

static void every_order_is_aligned_writable_ram(struct kunit *test)
{
	static const unsigned long one_of_each[NR_PAGE_ORDERS] = { [0 ... MAX_PAGE_ORDER] = 1 };
	struct page *blocks[NR_PAGE_ORDERS];

	need_free_blocks(test, NULL, one_of_each);
	/* All orders held at the same time: they must not overlap either. */
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		blocks[o] = held_alloc(&pa_ctx.held, GFP_KERNEL, o);
		KUNIT_ASSERT_NOT_NULL_MSG(test, blocks[o], "order %u", o);
		check_block(test, blocks[o], o);
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)page_address(blocks[o]),
						   PAGE_SIZE << o));
		KUNIT_EXPECT_PTR_EQ(test, virt_to_page(page_address(blocks[o])), blocks[o]);
	}
	for (unsigned int a = 0; a <= MAX_PAGE_ORDER; a++) {
		for (unsigned int b = a + 1; b <= MAX_PAGE_ORDER; b++) {
			unsigned long sa = page_to_pfn(blocks[a]), sb = page_to_pfn(blocks[b]);

			KUNIT_EXPECT_TRUE_MSG(test, sa + (1UL << a) <= sb || sb + (1UL << b) <= sa,
					      "orders %u and %u overlap", a, b);
		}
	}
	KUNIT_EXPECT_EQ(test, nr_free_pages(), pa_ctx.free_before - ((1UL << NR_PAGE_ORDERS) - 1));
	expect_all_restored(test);
}

/* Interleaved small blocks freed in a scrambled order still merge back completely. */
static void scattered_frees_merge_back(struct kunit *test)
{
	static struct page *pages[256];
	static const unsigned int orders[] = { 0, 1, 0, 2, 0, 3, 1, 0 };
	unsigned long blocks[NR_PAGE_ORDERS] = { 0 };
	unsigned int n = ARRAY_SIZE(pages);

	for (unsigned int i = 0; i < n; i++)
		blocks[orders[i % ARRAY_SIZE(orders)]]++;
	need_free_blocks(test, NULL, blocks);	/* 640 pages: more than 6 MiB has free */
	for (unsigned int i = 0; i < n; i++) {
		pages[i] = alloc_pages(GFP_KERNEL, orders[i % ARRAY_SIZE(orders)]);
		if (!pages[i]) {
			KUNIT_FAIL(test, "allocation %u failed", i);
			n = i & ~1U;	/* free what we got; keep n even */
			if (i & 1)
				__free_pages(pages[n], orders[n % ARRAY_SIZE(orders)]);
			break;
		}
	}
	/* evens forwards, then odds backwards */
	for (unsigned int i = 0; i < n; i += 2)
		__free_pages(pages[i], orders[i % ARRAY_SIZE(orders)]);
	for (unsigned int i = n - 1; i < n; i -= 2)
		__free_pages(pages[i], orders[i % ARRAY_SIZE(orders)]);
	expect_all_restored(test);
}

/* ---------------------------------------------------------------- structure */

/* Is the free block at @page where its order says, and are all its pages free? */
static bool free_block_ok(struct zone *zone, struct page *page, unsigned int order)
{
	const unsigned long busy = 1UL << PG_reserved | 1UL << PG_allocated |
				   1UL << PG_pcp | 1UL << PG_slab | 1UL << PG_head;
	unsigned long pfn = page_to_pfn(page), nr = 1UL << order;

	if (!PageBuddy(page) || page->private != order || (pfn & (nr - 1)) ||
	    pfn < zone->zone_start_pfn || pfn + nr > zone_end_pfn(zone) || page_zone(page) != zone)
		return false;
	for (unsigned long i = 0; i < nr; i++) {
		if ((page[i].flags & busy) || (i && PageBuddy(&page[i])) || PageTail(&page[i]))
			return false;
	}
	return true;
}

/* Check @zone's free lists and per-CPU lists; return its free pages. */
static unsigned long check_zone_lists(struct kunit *test, struct zone *zone)
{
	unsigned long pages = 0;
	struct page *page;
	unsigned int cpu;

	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long blocks = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			list_for_each_entry(page, &zone->free_area[o].free_list[mt], lru) {
				if (!free_block_ok(zone, page, o)) {
					KUNIT_FAIL(test, "zone %s order %u: bad free block at pfn %#lx",
						   zone->name, o, page_to_pfn(page));
					kunit_info(test, "flags %#lx private %lu", page->flags,
						   page->private);
					return 0;
				}
				/* on the list of its pageblock's type */
				KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), mt);
				blocks++;
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, blocks, zone->free_area[o].nr_free,
				    "zone %s order %u", zone->name, o);
		pages += blocks << o;
	}
	KUNIT_EXPECT_EQ_MSG(test, pages, zone->nr_free, "zone %s", zone->name);
	for_each_online_cpu(cpu) {
		int n = 0;

		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
			struct list_head *list = &per_cpu_ptr(zone->per_cpu_pageset, cpu)->lists[mt];

			list_for_each_entry(page, list, lru) {
				KUNIT_EXPECT_TRUE(test, page_test(page, PG_pcp) && !PageBuddy(page) &&
							page_zone(page) == zone);
				n++;
			}
		}
		KUNIT_EXPECT_EQ(test, n, per_cpu_ptr(zone->per_cpu_pageset, cpu)->count);
	}
	KUNIT_EXPECT_LE(test, zone_free_pages(zone), zone->managed_pages);
	return zone_free_pages(zone);
}

/*
 * Walk every free list and per-CPU list: each free block is where its order
 * says (aligned, inside its zone, marked PG_buddy with that order), none of
 * its pages is reserved, allocated or on a per-CPU list, and the counts add up.
 */
static void free_lists_are_consistent(struct kunit *test)
{
	unsigned long total = 0;
	int nid;

	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			if (zone_populated(zone))
				total += check_zone_lists(test, zone);
		}
	}
	KUNIT_EXPECT_EQ(test, total, nr_free_pages());
	KUNIT_EXPECT_LE(test, total, totalram_pages);
}

/*
 * What the firmware did not call usable RAM, the kernel image and the first
 * MiB are never handed out: their struct pages are reserved.
 */
static void firmware_and_kernel_memory_is_reserved(struct kunit *test)
{
	unsigned long checked = 0;

	for (unsigned int i = 0; i < boot_info.nr_mmap; i++) {
		const struct boot_mmap_entry *e = &boot_info.mmap[i];
		unsigned long first = e->base >> PAGE_SHIFT;
		unsigned long last = min((e->base + e->length - 1) >> PAGE_SHIFT, max_pfn - 1);

		if (e->type == MEMORY_AVAILABLE || !e->length)
			continue;
		/* every page that overlaps the entry, even partly */
		for (unsigned long pfn = first; pfn <= last; pfn++) {
			if (!pfn_valid(pfn))
				continue;
			checked++;
			if (!PageReserved(pfn_to_page(pfn))) {
				KUNIT_FAIL(test, "pfn %#lx in type %u area [%#llx, +%#llx) not reserved",
					   pfn, e->type, (unsigned long long)e->base,
					   (unsigned long long)e->length);
				return;
			}
		}
	}
	for (unsigned long pfn = 0; pfn < 0x100; pfn++)
		KUNIT_EXPECT_TRUE_MSG(test, PageReserved(pfn_to_page(pfn)), "pfn %#lx", pfn);
	for (unsigned long pfn = __pa(_text) >> PAGE_SHIFT;
	     pfn < DIV_ROUND_UP(__pa(_end), PAGE_SIZE); pfn++)
		KUNIT_EXPECT_TRUE_MSG(test, PageReserved(pfn_to_page(pfn)), "kernel pfn %#lx", pfn);
	kunit_info(test, "%lu firmware pages with a struct page, all reserved", checked);
}

/* ---------------------------------------------------------------- exhaustion */

/* Pass 0 writes each sampled page's pfn into it, pass 1 checks it is still there. */
static bool touch_block(struct kunit *test, struct page *page, unsigned int order, int pass,
			unsigned long *touched)
{
	unsigned long nr = 1UL << order;

	for (unsigned long i = 0; i < nr; i++) {
		unsigned long pfn = page_to_pfn(page + i);
		unsigned long *p = page_address(page + i);

		bool edge = order < MAX_PAGE_ORDER && (i == 0 || i == nr - 1);

		if (!edge && (pfn & ((256UL << 20 >> PAGE_SHIFT) - 1)) && pfn != max_pfn - 1)
			continue;
		if (!pass) {
			WRITE_ONCE(*p, pfn);
			(*touched)++;
		} else if (READ_ONCE(*p) != pfn) {
			KUNIT_FAIL(test, "pfn %#lx: written by someone else", pfn);
			return false;
		}
	}
	return true;
}

static void exhaustion_then_full_recovery(struct kunit *test)
{
	/* each zone from the top: lower zones keep a reserve from higher-zone callers */
	static const gfp_t zones[] = { 0, __GFP_DMA32, __GFP_DMA };
	unsigned long taken = 0, touched = 0;
	int nid, largest = largest_free_order();

	for (unsigned int i = 0; i < ARRAY_SIZE(zones); i++) {
		/* NORETRY: no OOM killer, no report; then ATOMIC digs into the reserve */
		taken += held_exhaust(&pa_ctx.held,
				      GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN | zones[i]);
		taken += held_exhaust(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN | zones[i]);
	}
	kunit_info(test, "took %lu of %lu free pages", taken, pa_ctx.free_before);
	/*
	 * The RAM the allocator had is mapped, writable, and ours alone.
	 * Sampled, so that QEMU need not back all of a 5 GiB guest with host
	 * memory: the first and last page of every block smaller than the
	 * largest (they lie where ranges of RAM begin and end), one page in
	 * every 256 MiB, and the last page of RAM.
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
			struct page *page;

			list_for_each_entry(page, &pa_ctx.held.blocks[o], lru) {
				if (!touch_block(test, page, o, pass, &touched))
					goto touched;
			}
		}
	}
touched:
	kunit_info(test, "wrote and read back %lu sampled pages", touched);
	KUNIT_EXPECT_EQ(test, nr_free_pages() + taken, pa_ctx.free_before);
	KUNIT_EXPECT_NULL(test, held_alloc(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN, 0));
	KUNIT_EXPECT_NULL(test, held_alloc(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN | __GFP_DMA, 0));
	/* only part of each zone's min reserve is left (all of a reserve of one page) */
	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];
			unsigned long min = zone->watermark[WMARK_MIN];

			if (zone_populated(zone))
				KUNIT_EXPECT_LT_MSG(test, zone_free_pages(zone), max(min, 2UL),
						    "zone %s", zone->name);
		}
	}
	expect_all_restored(test);
	/* and it all works again, up to the largest block free before (order 10 but when tiny) */
	KUNIT_EXPECT_NOT_NULL_MSG(test, held_alloc(&pa_ctx.held, GFP_KERNEL, max(largest, 0)),
				  "order %d", largest);
}

/* ---------------------------------------------------------------- zones */

/* Zone @z of this CPU's memory node, where its allocations start (see top_zone()) */
static struct zone *local_zone(enum zone_type z)
{
	return &NODE_DATA(numa_mem_id())->node_zones[z];
}

/* Take all of one zone with @zone_gfp: every block must lie below @end_pfn. */
static void check_zone_limit(struct kunit *test, gfp_t zone_gfp, unsigned long end_pfn,
			     enum zone_type most)
{
	unsigned long taken;
	struct page *page;

	taken = held_exhaust(&pa_ctx.held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN | zone_gfp);
	KUNIT_EXPECT_GT(test, taken, 0);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		list_for_each_entry(page, &pa_ctx.held.blocks[o], lru) {
			if (page_to_pfn(page) + (1UL << o) > end_pfn || page_zonenum(page) > most) {
				KUNIT_FAIL(test, "order %u block at pfn %#lx in zone %s", o,
					   page_to_pfn(page), page_zone(page)->name);
				return;
			}
		}
	}
	kunit_info(test, "%lu pages, all below pfn %#lx", taken, end_pfn);
}

static void gfp_dma_is_below_16m(struct kunit *test)
{
	if (!zone_populated(local_zone(ZONE_DMA)))
		kunit_skip(test, "no ZONE_DMA");
	check_zone_limit(test, __GFP_DMA, ZONE_DMA_END_PFN, ZONE_DMA);
}

static void gfp_dma32_is_below_4g(struct kunit *test)
{
	check_zone_limit(test, __GFP_DMA32, ZONE_DMA32_END_PFN, ZONE_DMA32);
}

static void gfp_kernel_prefers_the_highest_zone(struct kunit *test)
{
	unsigned long even_orders[NR_PAGE_ORDERS] = { 0 };
	struct zone *top = top_zone();

	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o += 2)
		even_orders[o] = 1;
	KUNIT_ASSERT_NOT_NULL(test, top);
	kunit_info(test, "highest zone: %s", top->name);
	need_free_blocks(test, top, even_orders);
	if (zone_populated(local_zone(ZONE_NORMAL)))
		KUNIT_EXPECT_PTR_EQ(test, top, local_zone(ZONE_NORMAL));
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o += 2) {
		struct page *page = held_alloc(&pa_ctx.held, GFP_KERNEL, o);

		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_PTR_EQ_MSG(test, page_zone(page), top, "order %u from %s", o,
					page_zone(page)->name);
	}
}

/*
 * When the highest zone runs out, GFP_KERNEL falls back to the zones below
 * (Normal -> DMA32 -> DMA), but only when every zone above cannot give the
 * block even at the low watermark (the fast path tries all zones at low,
 * the slow path all again at min, as Linux's do), and it leaves each lower
 * zone the part reserved for callers that can only use that zone
 * (lowmem_reserve): after GFP_KERNEL has taken all it can, __GFP_DMA still
 * gets a page.
 */
static void zone_fallback_goes_down_and_keeps_lowmem_reserve(struct kunit *test)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;
	unsigned long zone_free_before[MAX_NR_ZONES];
	unsigned int zones_used = 0;
	struct page *page;
	/* a small machine's highest zone may have none left (need_free_blocks()) */
	bool top_had_max = READ_ONCE(top_zone()->free_area[MAX_PAGE_ORDER].nr_free) != 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		zone_free_before[z] = local_zone(z)->nr_free;
	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		while ((page = held_alloc(&pa_ctx.held, gfp, o))) {
			struct zone *zone = page_zone(page);

			zones_used |= 1U << page_zonenum(page);
			for (int z = page_zonenum(page) + 1; z < MAX_NR_ZONES; z++) {
				struct zone *above = local_zone(z);

				unsigned long low = above->watermark[WMARK_LOW];

				if (zone_populated(above) &&
				    zone_watermark_ok(above, o, low, ZONE_NORMAL, 0)) {
					KUNIT_FAIL(test, "order %d from %s while %s had %lu free (low %lu)",
						   o, zone->name, above->name, above->nr_free, low);
					return;
				}
			}
		}
	}
	/* it started with the highest zone */
	page = list_first_entry(&pa_ctx.held.blocks[MAX_PAGE_ORDER], struct page, lru);
	if (top_had_max && !list_empty(&pa_ctx.held.blocks[MAX_PAGE_ORDER]))
		KUNIT_EXPECT_PTR_EQ(test, page_zone(page), top_zone());
	else if (!top_had_max)
		kunit_info(test, "%s had no free order-%d block to start with", top_zone()->name,
			   MAX_PAGE_ORDER);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = local_zone(z);

		if (!zone_populated(zone) || zone == top_zone())
			continue;
		/* a lower zone kept its protection from GFP_KERNEL (all of it, if that is more) */
		KUNIT_EXPECT_GE_MSG(test, zone->nr_free,
				    min(zone->lowmem_reserve[ZONE_NORMAL], zone_free_before[z]),
				    "zone %s", zone->name);
		if (zone->lowmem_reserve[ZONE_NORMAL] < zone->managed_pages / 2)
			KUNIT_EXPECT_TRUE_MSG(test, zones_used & (1U << z),
					      "GFP_KERNEL never fell back to zone %s", zone->name);
	}
	/* (below 16 MiB of RAM, DMA is the highest zone: nothing above it to keep it from) */
	if (zone_populated(local_zone(ZONE_DMA)) && local_zone(ZONE_DMA) != top_zone()) {
		page = held_alloc(&pa_ctx.held, gfp | __GFP_DMA, 0);
		KUNIT_EXPECT_NOT_NULL(test, page);
		if (page)
			KUNIT_EXPECT_EQ(test, page_zonenum(page), ZONE_DMA);
	}
	kunit_info(test, "GFP_KERNEL used zones %#x", zones_used);
	expect_all_restored(test);
}

/*
 * Every node with memory gives its own pages, even with __GFP_THISNODE; a
 * node without gives its nearest's (numa.memoryless_node_allocates_from_nearest
 * checks it in detail); no node, or one that does not exist, means this
 * CPU's memory node.
 */
static void alloc_pages_node_gives_that_node(struct kunit *test)
{
	static const int nids[] = { NUMA_NO_NODE, 12345 };	/* both: this CPU's memory node */
	struct page *page;
	int nid;

	for_each_node(nid) {
		gfp_t thisnode = node_state(nid, N_MEMORY) ? __GFP_THISNODE : 0;

		for (unsigned int o = 0; o <= 2; o += 2) {
			page = alloc_pages_node(nid, GFP_KERNEL | thisnode, o);
			KUNIT_ASSERT_NOT_NULL(test, page);
			held_add(&pa_ctx.held, page, o);
			KUNIT_EXPECT_EQ(test, page_to_nid(page), local_memory_node(nid));
		}
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(nids); i++) {
		page = alloc_pages_node(nids[i], GFP_KERNEL, 1);
		KUNIT_ASSERT_NOT_NULL(test, page);
		held_add(&pa_ctx.held, page, 1);
		KUNIT_EXPECT_EQ(test, page_to_nid(page), numa_mem_id());
	}
}

/* ---------------------------------------------------------------- watermarks */

static void watermarks_are_ordered(struct kunit *test)
{
	int nid;

	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];
			const unsigned long *wmark = zone->watermark;

			if (!zone_populated(zone))
				continue;
			KUNIT_EXPECT_GT_MSG(test, wmark[WMARK_MIN], 0, "zone %s", zone->name);
			/*
			 * The gaps are max(min / 4, managed / 1000), as Linux's: none in a
			 * zone of under 1,000 pages whose min is under 4 (a NUMA node of
			 * a few MiB), where the three marks fall together.
			 */
			if (wmark[WMARK_MIN] < 4 && zone->managed_pages < 1000) {
				KUNIT_EXPECT_EQ_MSG(test, wmark[WMARK_LOW], wmark[WMARK_MIN],
						    "zone %s", zone->name);
				KUNIT_EXPECT_EQ_MSG(test, wmark[WMARK_HIGH], wmark[WMARK_MIN],
						    "zone %s", zone->name);
			} else {
				KUNIT_EXPECT_LT_MSG(test, wmark[WMARK_MIN], wmark[WMARK_LOW],
						    "zone %s", zone->name);
				KUNIT_EXPECT_LT_MSG(test, wmark[WMARK_LOW], wmark[WMARK_HIGH],
						    "zone %s", zone->name);
			}
			KUNIT_EXPECT_LT_MSG(test, wmark[WMARK_HIGH], zone->managed_pages, "zone %s",
					    zone->name);
			KUNIT_EXPECT_LE(test, zone->managed_pages, zone->present_pages);
			KUNIT_EXPECT_LE(test, zone->present_pages, zone->spanned_pages);
		}
	}
}

static void atomic_may_dip_below_min_nowait_may_not(struct kunit *test)
{
	struct zone *top = top_zone();
	unsigned long min = top->watermark[WMARK_MIN], atomic_mark = min - min / 2;
	struct page *page;

	atomic_mark -= atomic_mark / 4;		/* __GFP_HIGH and ALLOC_HARDER, as in mm/ */
	if (atomic_mark == min)
		kunit_skip(test, "zone %s's min watermark is %lu page: no reserve below it for "
			   "GFP_ATOMIC (a NUMA node of a few MiB)", top->name, min);
	/* GFP_NOWAIT takes everything down to the min watermark of every zone */
	held_exhaust(&pa_ctx.held, GFP_NOWAIT | __GFP_NOWARN);
	KUNIT_EXPECT_LE(test, top->nr_free, min);
	KUNIT_EXPECT_NULL(test, held_alloc(&pa_ctx.held, GFP_NOWAIT | __GFP_NOWARN, 0));

	/* GFP_ATOMIC still gets a page, from the same zone, below min */
	page = held_alloc(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_PTR_EQ(test, page_zone(page), top);
	KUNIT_EXPECT_LT(test, top->nr_free, min);

	/* ... but not all of it: part of the reserve stays even for GFP_ATOMIC */
	held_exhaust(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN);
	kunit_info(test, "zone %s: min %lu, GFP_ATOMIC stopped at %lu free", top->name, min,
		   top->nr_free);
	KUNIT_EXPECT_LE(test, top->nr_free, atomic_mark);
	KUNIT_EXPECT_GT(test, top->nr_free, 0);
	expect_all_restored(test);
}

/*
 * __GFP_NOMEMALLOC keeps GFP_ATOMIC out of the part of the reserve only a
 * caller that must not fail gets (ALLOC_HARDER): as Linux 6.12's
 * gfp_to_alloc_flags(), it keeps __GFP_HIGH's half of the min watermark.
 */
static void atomic_nomemalloc_keeps_out_of_the_harder_reserve(struct kunit *test)
{
	struct zone *top = top_zone();
	unsigned long min = top->watermark[WMARK_MIN], high_mark = min - min / 2;
	unsigned long atomic_mark = high_mark - high_mark / 4;
	unsigned long batch = (unsigned long)this_cpu_ptr(top->per_cpu_pageset)->batch;

	/* a per-CPU refill may overshoot a mark by one batch */
	if (high_mark - atomic_mark <= batch)
		kunit_skip(test, "zone %s: the harder reserve (%lu pages) is not above one "
			   "per-CPU batch (%lu)", top->name, high_mark - atomic_mark, batch);
	held_exhaust(&pa_ctx.held, GFP_NOWAIT | __GFP_NOWARN);
	held_exhaust(&pa_ctx.held, GFP_ATOMIC | __GFP_NOMEMALLOC | __GFP_NOWARN);
	kunit_info(test, "zone %s: min %lu, GFP_ATOMIC | __GFP_NOMEMALLOC stopped at %lu free",
		   top->name, min, top->nr_free);
	KUNIT_EXPECT_LE(test, top->nr_free, high_mark);
	KUNIT_EXPECT_GT(test, top->nr_free, atomic_mark);
	/* what it left, plain GFP_ATOMIC may still take */
	KUNIT_EXPECT_NOT_NULL(test, held_alloc(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN, 0));
	expect_all_restored(test);
}

/* ---------------------------------------------------------------- alloc_pages_exact */

static void alloc_pages_exact_returns_the_tail(struct kunit *test)
{
	static const size_t sizes[] = {
		5 * PAGE_SIZE, 3 * PAGE_SIZE + 1, PAGE_SIZE / 2, 4 * PAGE_SIZE, 600 * 1024,
		(1UL << (MAX_PAGE_ORDER + PAGE_SHIFT)) - PAGE_SIZE,
	};
	static const unsigned long one_max_block[NR_PAGE_ORDERS] = { [MAX_PAGE_ORDER] = 1 };
	unsigned long pos = printk_log_pos();

	need_free_blocks(test, NULL, one_max_block);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned long used = DIV_ROUND_UP(sizes[i], PAGE_SIZE);
		unsigned long before = nr_free_pages();
		char *p = alloc_pages_exact(sizes[i], GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "size %zu", sizes[i]);
		KUNIT_EXPECT_EQ(test, (unsigned long)p & (PAGE_SIZE - 1), 0);
		KUNIT_EXPECT_EQ_MSG(test, before - nr_free_pages(), used, "size %zu", sizes[i]);
		memset(p, 0x5a, sizes[i]);
		/* the page after the last one used is not ours any more */
		if (used < (1UL << get_order(sizes[i])))
			KUNIT_EXPECT_FALSE(test, page_test(virt_to_page(p + used * PAGE_SIZE),
							   PG_allocated));
		free_pages_exact(p, sizes[i]);
		KUNIT_EXPECT_EQ_MSG(test, nr_free_pages(), before, "size %zu", sizes[i]);
	}
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "Bad page"));
	expect_all_restored(test);
}

/* ---------------------------------------------------------------- __GFP_ZERO */

static bool page_is_zero(struct page *page)
{
	const u64 *p = page_address(page);

	for (unsigned int i = 0; i < PAGE_SIZE / 8; i++) {
		if (p[i])
			return false;
	}
	return true;
}

static void gfp_zero_zeroes_dirty_pages(struct kunit *test)
{
	enum { N = 32 };
	static struct page *dirty[N];
	unsigned int reused = 0;
	struct page *page;

	for (unsigned int o = 0; o <= 3; o += 3) {
		/* dirty them, free them: the next allocations get them back (LIFO) */
		for (unsigned int i = 0; i < N; i++) {
			page = held_alloc(&pa_ctx.held, GFP_KERNEL, o);
			KUNIT_ASSERT_NOT_NULL(test, page);
			for (unsigned int j = 0; j < (1U << o); j++)
				memset(page_address(page + j), 0xa5, PAGE_SIZE);
		}
		for (unsigned int i = 0; i < N; i++)
			dirty[i] = held_take(&pa_ctx.held, o);
		for (unsigned int i = 0; i < N; i++)
			__free_pages(dirty[i], o);
		for (unsigned int i = 0; i < N; i++) {
			page = held_alloc(&pa_ctx.held, GFP_KERNEL | __GFP_ZERO, o);
			KUNIT_ASSERT_NOT_NULL(test, page);
			for (unsigned int j = 0; j < (1U << o); j++)
				KUNIT_EXPECT_TRUE_MSG(test, page_is_zero(page + j),
						      "order %u pfn %#lx", o,
						      page_to_pfn(page + j));
			for (unsigned int k = 0; k < N; k++)
				reused += page == dirty[k];
		}
		held_free_all(&pa_ctx.held);
	}
	/* the test means something only if dirty pages came back */
	KUNIT_EXPECT_GT(test, reused, 0);
	{
		unsigned long addr = get_zeroed_page(GFP_KERNEL);

		KUNIT_ASSERT_NE(test, addr, 0);
		/* virt_to_page() takes the unsigned long as it is, as in Linux */
		KUNIT_EXPECT_TRUE(test, page_is_zero(virt_to_page(addr)));
		KUNIT_EXPECT_EQ(test, __pa(addr), __pa((void *)addr));
		free_page(addr);
	}
	expect_all_restored(test);
}

/* ---------------------------------------------------------------- vmstat */

static void vmstat_counts_each_order(struct kunit *test)
{
	unsigned long before[NR_VM_EVENT_ITEMS], after[NR_VM_EVENT_ITEMS];
	unsigned long blocks[NR_PAGE_ORDERS];
	unsigned long pages = 0;

	/* 11 blocks of order 0, 10 of order 1, ..., 1 of order 10 */
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
		blocks[o] = NR_PAGE_ORDERS - o;
	need_free_blocks(test, NULL, blocks);
	all_vm_events(before);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		for (unsigned int n = 0; n < NR_PAGE_ORDERS - o; n++)
			KUNIT_ASSERT_NOT_NULL(test, held_alloc(&pa_ctx.held, GFP_KERNEL, o));
		pages += (NR_PAGE_ORDERS - o) << o;
	}
	held_free_all(&pa_ctx.held);
	all_vm_events(after);
	/* pgalloc and pgfree count pages, as Linux's; the per-order counters blocks */
	KUNIT_EXPECT_EQ(test, after[PGALLOC] - before[PGALLOC], pages);
	KUNIT_EXPECT_EQ(test, after[PGFREE] - before[PGFREE], pages);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned int a = PGALLOC_ORDER0 + o, f = PGFREE_ORDER0 + o;

		KUNIT_EXPECT_EQ_MSG(test, after[a] - before[a], NR_PAGE_ORDERS - o, "order %u", o);
		KUNIT_EXPECT_EQ_MSG(test, after[f] - before[f], NR_PAGE_ORDERS - o, "order %u", o);
	}
	KUNIT_EXPECT_EQ(test, after[PGALLOC_FAIL], before[PGALLOC_FAIL]);
	KUNIT_EXPECT_EQ(test, after[PGALLOC_BAD_FREE], before[PGALLOC_BAD_FREE]);
}

/* ---------------------------------------------------------------- per-CPU lists */

static void pcp_lists_fill_and_drain(struct kunit *test)
{
	struct zone *top = top_zone();
	struct per_cpu_pages *pcp = per_cpu_ptr(top->per_cpu_pageset, smp_processor_id());
	unsigned long zone_free = top->nr_free, drains = global_vm_event(PCP_DRAIN);
	enum { N = 400 };
	static struct page *pages[N];
	struct page *page, *again;
	int max_seen = 0;
	unsigned int n;

	KUNIT_ASSERT_EQ(test, pcp->count, 0);	/* drained by init */
	KUNIT_EXPECT_GT(test, pcp->batch, 0);
	KUNIT_EXPECT_GT(test, pcp->high, pcp->batch);

	/* the first order-0 allocation refills a batch from the buddy lists */
	page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_PTR_EQ(test, page_zone(page), top);
	KUNIT_EXPECT_EQ(test, pcp->count, pcp->batch - 1);
	KUNIT_EXPECT_EQ(test, top->nr_free, zone_free - pcp->batch);
	KUNIT_EXPECT_EQ(test, zone_free_pages(top), zone_free - 1);

	/* the free goes to this CPU's list, at the head: it is the next to be reused */
	__free_pages(page, 0);
	KUNIT_EXPECT_EQ(test, pcp->count, pcp->batch);
	KUNIT_EXPECT_TRUE(test, page_test(page, PG_pcp));
	KUNIT_EXPECT_EQ(test, nr_free_pages(), pa_ctx.free_before);
	again = alloc_pages(GFP_KERNEL, 0);
	KUNIT_EXPECT_PTR_EQ(test, again, page);
	if (again)
		__free_pages(again, 0);

	/* many frees: the list never grows to high, it drains a batch at a time */
	for (n = 0; n < N; n++) {
		pages[n] = alloc_pages(GFP_KERNEL, 0);
		if (!pages[n]) {
			KUNIT_FAIL(test, "allocation %u failed", n);
			break;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		__free_pages(pages[i], 0);
		max_seen = max(max_seen, pcp->count);
		KUNIT_EXPECT_EQ(test, zone_free_pages(top) - top->nr_free,
				(unsigned long)pcp->count);
	}
	KUNIT_EXPECT_LT(test, max_seen, pcp->high);
	KUNIT_EXPECT_GT(test, global_vm_event(PCP_DRAIN), drains);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), pa_ctx.free_before);

	/* a drain empties it, and every page is back in the buddy lists */
	drain_all_pages();
	KUNIT_EXPECT_EQ(test, pcp->count, 0);
	KUNIT_EXPECT_EQ(test, top->nr_free, zone_free);
	expect_all_restored(test);
}

/*
 * alloc_pages_bulk_node() asked for more than this CPU's list holds: the
 * list gives what it has, then whole buddy blocks are cut into pages (the
 * list is never refilled on the way), so the pages come out as runs of
 * consecutive frames, each page handed out once.  free_pages_bulk() fills
 * the list to just below its mark (never draining it) and gives the rest
 * back as blocks: after a drain the free lists are exactly as before.
 */
static void bulk_pages_come_from_whole_blocks_and_go_back_as_runs(struct kunit *test)
{
	struct zone *top = top_zone();
	struct per_cpu_pages *pcp = per_cpu_ptr(top->per_cpu_pageset, smp_processor_id());
	unsigned long refills = global_vm_event(PCP_REFILL), drains = global_vm_event(PCP_DRAIN);
	unsigned long blocks[NR_PAGE_ORDERS] = { [0] = 1024 }, runs = 1;
	bool whole_block = READ_ONCE(top->free_area[MAX_PAGE_ORDER].nr_free) != 0;
	enum { N = 1024 };
	static struct page *pages[N];

	need_free_blocks(test, top, blocks);
	KUNIT_ASSERT_EQ(test, pcp->count, 0);	/* drained by init */
	memset(pages, 0, sizeof(pages));
	KUNIT_ASSERT_EQ(test, alloc_pages_bulk_node(GFP_KERNEL, NUMA_NO_NODE, N, pages), N);
	KUNIT_EXPECT_EQ(test, global_vm_event(PCP_REFILL), refills);
	for (unsigned int i = 0; i < N; i++) {
		KUNIT_EXPECT_PTR_EQ(test, page_zone(pages[i]), top);
		KUNIT_EXPECT_TRUE(test, page_test(pages[i], PG_allocated));
		KUNIT_EXPECT_EQ(test, allocated_order(pages[i]), 0U);
		/* the owner's word is 0 when handed out: a page handed out twice shows 1 */
		KUNIT_EXPECT_EQ(test, page_private(pages[i]), 0UL);
		set_page_private(pages[i], 1);
		if (i && page_to_pfn(pages[i]) != page_to_pfn(pages[i - 1]) + 1)
			runs++;
	}
	/* with a free order-10 block, the first one taken is the whole array */
	if (whole_block)
		KUNIT_EXPECT_EQ(test, runs, 1UL);
	for (unsigned int i = 0; i < N; i++)
		set_page_private(pages[i], 0);

	free_pages_bulk(pages, N);
	KUNIT_EXPECT_EQ(test, pcp->count, pcp->high - 1);
	KUNIT_EXPECT_EQ(test, global_vm_event(PCP_DRAIN), drains);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), pa_ctx.free_before);
	expect_all_restored(test);
}

/*
 * Grouping by mobility: a movable, an unmovable and a reclaimable page each
 * come from a pageblock of their own type, unless an allocation had to take
 * another type's block (then a pgalloc_extfrag was counted, and its
 * pageblock may have been claimed: the block's type is then its own).
 */
static void pages_come_from_pageblocks_of_their_type(struct kunit *test)
{
	static const gfp_t mobility[] = { 0, __GFP_MOVABLE, __GFP_RECLAIMABLE };
	static const int types[] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE, MIGRATE_RECLAIMABLE };
	enum { N = 64 };
	static struct page *pages[ARRAY_SIZE(mobility)][N];

	KUNIT_EXPECT_EQ(test, gfp_migratetype(GFP_KERNEL), MIGRATE_UNMOVABLE);
	KUNIT_EXPECT_EQ(test, gfp_migratetype(GFP_KERNEL | __GFP_MOVABLE), MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, gfp_migratetype(GFP_KERNEL | __GFP_RECLAIMABLE),
			MIGRATE_RECLAIMABLE);
	for (unsigned int t = 0; t < ARRAY_SIZE(mobility); t++) {
		unsigned long extfrag = global_vm_event(PGALLOC_EXTFRAG);

		for (unsigned int i = 0; i < N; i++) {
			pages[t][i] = alloc_pages(GFP_KERNEL | mobility[t], i % 2 ? 0 : 2);
			KUNIT_ASSERT_NOT_NULL(test, pages[t][i]);
		}
		if (global_vm_event(PGALLOC_EXTFRAG) != extfrag)
			continue;	/* a fallback: the pages may be in another type's blocks */
		for (unsigned int i = 0; i < N; i++)
			KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pages[t][i]), types[t]);
	}
	for (unsigned int t = 0; t < ARRAY_SIZE(mobility); t++) {
		for (unsigned int i = 0; i < N; i++)
			__free_pages(pages[t][i], i % 2 ? 0 : 2);
	}
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0U);
	expect_all_restored(test);
}

/* The pageblocks of @zone reserved for high-order atomic allocations, in pages. */
static unsigned long highatomic_pageblocks(struct zone *zone)
{
	unsigned long pages = 0;

	for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone);
	     pfn = ALIGN_DOWN(pfn, pageblock_nr_pages) + pageblock_nr_pages) {
		if (pfn_valid(pfn) && get_pageblock_migratetype(pfn_to_page(pfn)) ==
		    MIGRATE_HIGHATOMIC)
			pages += pageblock_nr_pages;
	}
	return pages;
}

/*
 * The highatomic reserve (Linux 6.19's reserve_highatomic_pageblock()): a
 * GFP_ATOMIC order-2 allocation under pressure keeps its pageblock for
 * high-order atomic allocations, unless 1% of the zone is less than a
 * pageblock; ordinary allocations never get pages from it, the next
 * high-order atomic one does, and unreserving gives it back whole.
 */
static void high_order_atomic_allocations_reserve_a_pageblock(struct kunit *test)
{
	struct page *atomic, *page;
	struct zone *zone;
	bool may_reserve;

	/* below the low watermark, where only the slow path's ALLOC_HARDER gets through */
	while (held_alloc(&pa_ctx.held, GFP_NOWAIT | __GFP_NOWARN, 0))
		;
	atomic = held_alloc(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN, 2);
	if (!atomic)
		kunit_skip(test, "no order-2 block left below the min watermark");
	zone = page_zone(atomic);
	may_reserve = zone->managed_pages / 100 >= pageblock_nr_pages;
	kunit_info(test, "zone %s: %lu managed pages, reserve %lu pages", zone->name,
		   zone->managed_pages, zone->nr_reserved_highatomic);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(atomic) == MIGRATE_HIGHATOMIC,
			may_reserve);
	KUNIT_EXPECT_EQ(test, zone->nr_reserved_highatomic, highatomic_pageblocks(zone));
	KUNIT_EXPECT_LE(test, zone->nr_reserved_highatomic,
			ALIGN(zone->managed_pages / 100, pageblock_nr_pages));
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0U);
	/*
	 * Ordinary allocations keep out of it; so does __GFP_HIGH without
	 * ALLOC_HARDER (GFP_ATOMIC | __GFP_NOMEMALLOC), which the watermark
	 * lets through, when the other lists run dry.
	 */
	while ((page = held_alloc(&pa_ctx.held, GFP_NOWAIT | __GFP_NOWARN, 0)))
		KUNIT_EXPECT_NE(test, get_pageblock_migratetype(page), MIGRATE_HIGHATOMIC);
	while ((page = held_alloc(&pa_ctx.held, GFP_ATOMIC | __GFP_NOMEMALLOC | __GFP_NOWARN, 2)))
		KUNIT_EXPECT_NE(test, get_pageblock_migratetype(page), MIGRATE_HIGHATOMIC);
	/* the next high-order atomic allocation finds a block there */
	if (may_reserve) {
		page = held_alloc(&pa_ctx.held, GFP_ATOMIC | __GFP_NOWARN, 2);
		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), MIGRATE_HIGHATOMIC);
	}
	/* memory plentiful again, the reserve kept: an ordinary order-2 block is not from it */
	held_free_all(&pa_ctx.held);
	drain_all_pages();
	KUNIT_EXPECT_EQ(test, highatomic_pageblocks(zone) > 0, may_reserve);
	page = held_alloc(&pa_ctx.held, GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_NE(test, get_pageblock_migratetype(page), MIGRATE_HIGHATOMIC);
	expect_all_restored(test);
	KUNIT_EXPECT_EQ(test, zone->nr_reserved_highatomic, 0UL);
	KUNIT_EXPECT_EQ(test, highatomic_pageblocks(zone), 0UL);
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0U);
}

/*
 * fragmentation_index() (Linux's, which compaction asks): -1000 when a block
 * of the order is free; else 1000 - (1000 + 1000 * free / 2^order) / blocks,
 * near 1000 when the free memory is there but in pieces.  Checked against
 * buddyinfo after memory is taken down to its smallest blocks.
 */
static void fragmentation_index_follows_linux(struct kunit *test)
{
	struct zone *top = top_zone();
	unsigned int order = MAX_PAGE_ORDER;
	unsigned long free = 0, blocks = 0;
	int index;

	KUNIT_EXPECT_EQ(test, fragmentation_index(top, 0), -1000);
	held_exhaust(&pa_ctx.held, GFP_NOWAIT | __GFP_NOWARN);
	while (order > 0 && !READ_ONCE(top->free_area[order].nr_free))
		order--;
	if (++order > MAX_PAGE_ORDER)
		kunit_skip(test, "an order-%d block is still free", MAX_PAGE_ORDER);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		blocks += top->free_area[o].nr_free;
		free += top->free_area[o].nr_free << o;
	}
	index = fragmentation_index(top, order);
	kunit_info(test, "zone %s: %lu free pages in %lu blocks, order %u: index %d", top->name,
		   free, blocks, order, index);
	KUNIT_EXPECT_EQ(test, index, blocks ? 1000 - (int)((1000 + free * 1000 / (1UL << order)) /
							    blocks) : 0);
	KUNIT_EXPECT_GE(test, index, 0);
	KUNIT_EXPECT_LE(test, index, 1000);
	KUNIT_EXPECT_EQ(test, fragmentation_index(top, order - 1), -1000);
	expect_all_restored(test);
}

/*
 * __GFP_COMP: every page of the block leads to its head in O(1), which is
 * how kfree() will find a large kmalloc or a multi-page slab from any
 * address inside it.  A tail page freed on its own is named as such.
 * Freeing the block forgets it all; without __GFP_COMP nothing is recorded.
 */
static void compound_blocks_know_their_head(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 3), *plain;
	unsigned long pos, bad = global_vm_event(PGALLOC_BAD_FREE);
	char why[80];

	kunit_expect_report(test, "BUG: Bad page free");
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_TRUE(test, PageHead(page));
	KUNIT_EXPECT_EQ(test, compound_order(page), 3);
	for (int i = 0; i < 8; i++) {
		KUNIT_EXPECT_PTR_EQ(test, compound_head(page + i), page);
		KUNIT_EXPECT_EQ(test, PageTail(page + i), i != 0);
		KUNIT_EXPECT_TRUE(test, PageCompound(page + i));
	}
	KUNIT_EXPECT_PTR_EQ(test, virt_to_head_page((char *)page_address(page) + 5 * PAGE_SIZE + 123),
			    page);

	pos = printk_log_pos();
	__free_pages(page + 2, 0);
	snprintf(why, sizeof(why), "interior page of the order-3 block at pfn %#lx",
		 page_to_pfn(page));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), why));
	KUNIT_EXPECT_EQ(test, global_vm_event(PGALLOC_BAD_FREE) - bad, 1);
	KUNIT_EXPECT_PTR_EQ(test, compound_head(page + 2), page);	/* nothing changed */

	__free_pages(page, 3);
	KUNIT_EXPECT_FALSE(test, PageHead(page));
	for (int i = 1; i < 8; i++)
		KUNIT_EXPECT_FALSE(test, PageTail(page + i));

	plain = alloc_pages(GFP_KERNEL, 3);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_EXPECT_FALSE(test, PageCompound(plain));
	for (int i = 1; i < 8; i++)
		KUNIT_EXPECT_PTR_EQ(test, compound_head(plain + i), plain + i);
	__free_pages(plain, 3);
}

static struct kunit_case page_alloc_cases[] = {
	KUNIT_CASE(free_lists_are_consistent),
	KUNIT_CASE(firmware_and_kernel_memory_is_reserved),
	KUNIT_CASE(every_order_is_aligned_writable_ram),
	KUNIT_CASE(scattered_frees_merge_back),
	KUNIT_CASE(exhaustion_then_full_recovery),
	KUNIT_CASE(gfp_dma_is_below_16m),
	KUNIT_CASE(gfp_dma32_is_below_4g),
	KUNIT_CASE(gfp_kernel_prefers_the_highest_zone),
	KUNIT_CASE(zone_fallback_goes_down_and_keeps_lowmem_reserve),
	KUNIT_CASE(alloc_pages_node_gives_that_node),
	KUNIT_CASE(watermarks_are_ordered),
	KUNIT_CASE(atomic_may_dip_below_min_nowait_may_not),
	KUNIT_CASE(atomic_nomemalloc_keeps_out_of_the_harder_reserve),
	KUNIT_CASE(alloc_pages_exact_returns_the_tail),
	KUNIT_CASE(gfp_zero_zeroes_dirty_pages),
	KUNIT_CASE(vmstat_counts_each_order),
	KUNIT_CASE(pcp_lists_fill_and_drain),
	KUNIT_CASE(bulk_pages_come_from_whole_blocks_and_go_back_as_runs),
	KUNIT_CASE(pages_come_from_pageblocks_of_their_type),
	KUNIT_CASE(high_order_atomic_allocations_reserve_a_pageblock),
	KUNIT_CASE(fragmentation_index_follows_linux),
	KUNIT_CASE(compound_blocks_know_their_head),
	{}
};

static struct kunit_suite page_alloc_suite = {
	.name = "page_alloc",
	.init = pa_init,
	.exit = pa_exit,
	.test_cases = page_alloc_cases,
	.strict = true,
};
kunit_test_suite(page_alloc_suite);
