/*
 * tests/host/test_buddy.c - the buddy allocator (mm/page_alloc.c and its
 * helpers) on the host, over a fake machine (tests/host/mm_host.c), under
 * AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * Every test boots a fresh machine, and after it the consistency checker
 * (buddy_check.c) walks every free list, per-CPU list and struct page.
 * The last test is the randomized model-based test: BUDDY_OPS operations
 * (default 2 million) from seed BUDDY_SEED (printed; set it to replay).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "host_test.h"
#include "mm_host.h"
#include "buddy_check.h"
#include "mm/internal.h"
#include "mm/balloon.h"
#include "mm/compaction.h"
#include "mm/memblock.h"
#include "mm/oom.h"
#include "mm/page_snapshot.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"

#define MiB	(1UL << 20)
#define GiB	(1UL << 30)

/* A test on the default machine, checked for consistency afterwards. */
#define BUDDY_TEST(name)						\
	static void name##_body(void);					\
	HOST_TEST(name)							\
	{								\
		buddy_check_failures = 0;				\
		host_machine_default();					\
		name##_body();						\
		CHECK(buddy_check_consistency() == 0);			\
		CHECK(buddy_check_failures == 0);			\
	}								\
	static void name##_body(void)

static struct zone *zone_of(int nid, enum zone_type z)
{
	return &NODE_DATA(nid)->node_zones[z];
}

static bool log_has(unsigned long pos, const char *what)
{
	return strstr(host_log_since(pos), what) != NULL;
}

static unsigned long ev(enum vm_event_item item)
{
	return global_vm_event(item);
}

/* The buddy lists after draining every per-CPU list. */
static void snapshot(struct buddy_snapshot *s)
{
	drain_all_pages();
	buddy_snapshot_take(s);
}

static bool snapshot_unchanged(struct buddy_snapshot *before)
{
	struct buddy_snapshot now;
	bool same;

	snapshot(&now);
	same = buddy_snapshot_equal(before, &now);
	buddy_snapshot_free(&now);
	return same;
}

/*
 * A list of blocks the test holds: a growing array, freed in one call.
 */
struct held {
	struct page **pages;
	unsigned int *orders;
	unsigned long n, cap, nr_pages;
};

static void hold(struct held *h, struct page *page, unsigned int order)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 256;
		h->pages = realloc(h->pages, h->cap * sizeof(*h->pages));
		h->orders = realloc(h->orders, h->cap * sizeof(*h->orders));
	}
	h->pages[h->n] = page;
	h->orders[h->n++] = order;
	h->nr_pages += 1UL << order;
}

static void release_all(struct held *h)
{
	while (h->n) {
		h->n--;
		__free_pages(h->pages[h->n], h->orders[h->n]);
	}
	free(h->pages);
	free(h->orders);
	memset(h, 0, sizeof(*h));
}

/* Allocate with @gfp from the largest order down until nothing is left. */
static void take_everything(struct held *h, gfp_t gfp)
{
	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		struct page *page;

		while ((page = alloc_pages(gfp | __GFP_NOWARN, o)))
			hold(h, page, o);
	}
}

/* ---------------------------------------------------------------- the machine */

BUDDY_TEST(boot_hands_every_free_ram_page_to_the_right_zone)
{
	unsigned long expect[MAX_NR_ZONES] = { 0 }, total = 0;

	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		if (!host_pfn_is_ram(pfn) || host_pfn_is_reserved(pfn)) {
			if (pfn_valid(pfn))
				CHECK(PageReserved(pfn_to_page(pfn)));
			continue;
		}
		CHECK(pfn_valid(pfn));
		CHECK(!PageReserved(pfn_to_page(pfn)));
		expect[pfn < ZONE_DMA_END_PFN ? ZONE_DMA :
		       pfn < ZONE_DMA32_END_PFN ? ZONE_DMA32 : ZONE_NORMAL]++;
		total++;
	}
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = zone_of(0, z);

		CHECK(zone->managed_pages == expect[z]);
		CHECK(zone->nr_free == expect[z]);
		CHECK(zone->watermark[WMARK_MIN] < zone->watermark[WMARK_LOW]);
		CHECK(zone->watermark[WMARK_LOW] < zone->watermark[WMARK_HIGH]);
		CHECK(zone->watermark[WMARK_HIGH] < zone->managed_pages);
	}
	CHECK(zone_of(0, ZONE_DMA)->zone_start_pfn == 0);	/* the low 640K, reserved */
	CHECK(zone_of(0, ZONE_DMA)->present_pages == (0x9f000 + 30 * MiB - 15 * MiB) >> PAGE_SHIFT);
	CHECK(zone_end_pfn(zone_of(0, ZONE_DMA)) <= ZONE_DMA_END_PFN);
	CHECK(zone_of(0, ZONE_NORMAL)->zone_start_pfn == ZONE_DMA32_END_PFN);
	CHECK(zone_end_pfn(zone_of(0, ZONE_DMA32)) == ZONE_DMA32_END_PFN);
	CHECK(totalram_pages == total);
	CHECK(nr_free_pages() == total);
	CHECK(reserved_pages == (memblock_phys_mem_size() >> PAGE_SHIFT) - total);
	/* A hole inside a section with RAM has struct pages; a section without RAM has none. */
	CHECK(pfn_valid((640 * 1024) >> PAGE_SHIFT));
	CHECK(!pfn_valid((1 * GiB) >> PAGE_SHIFT));
	CHECK(!pfn_valid(max_pfn));
	CHECK(zone_of(0, ZONE_DMA)->lowmem_reserve[ZONE_NORMAL] > 0);
}

BUDDY_TEST(struct_page_is_32_bytes)
{
	CHECK(sizeof(struct page) <= 32);
}

/* ---------------------------------------------------------------- orders */

BUDDY_TEST(every_order_allocates_an_aligned_block_and_frees_it)
{
	struct buddy_snapshot start;

	snapshot(&start);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long before = nr_free_pages();
		struct page *page = alloc_pages(GFP_KERNEL, o);
		unsigned long pfn;
		u8 *p;

		CHECK(page != NULL);
		if (!page)
			continue;
		pfn = page_to_pfn(page);
		CHECK((pfn & ((1UL << o) - 1)) == 0);
		CHECK(page_zonenum(page) == ZONE_NORMAL);	/* the highest zone first */
		CHECK(nr_free_pages() == before - (1UL << o));
		p = page_address(page);
		CHECK(p == __va((phys_addr_t)pfn << PAGE_SHIFT));
		CHECK(virt_to_page(p + (PAGE_SIZE << o) - 1) == page + (1UL << o) - 1);
		for (unsigned long i = 0; i < (1UL << o); i++) {
			CHECK(host_pfn_is_ram(pfn + i) && !host_pfn_is_reserved(pfn + i));
			CHECK(page_zonenum(page + i) == ZONE_NORMAL);
		}
		memset(p, 0x5a, PAGE_SIZE << o);	/* ASan: the whole block is ours */
		__free_pages(page, o);
		CHECK(nr_free_pages() == before);
		CHECK(ev(PGALLOC_ORDER0 + o) == 1 && ev(PGFREE_ORDER0 + o) == 1);
	}
	CHECK(snapshot_unchanged(&start));
	buddy_snapshot_free(&start);
}

BUDDY_TEST(order_above_max_is_refused)
{
	unsigned long pos = printk_log_pos();

	CHECK(alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER + 1) == NULL);
	CHECK(log_has(pos, "larger than MAX_PAGE_ORDER"));
	pos = printk_log_pos();
	CHECK(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 40) == NULL);
	CHECK(printk_log_pos() == pos);
	CHECK(__get_free_pages(GFP_KERNEL | __GFP_NOWARN, 64) == 0);
}

/* One zone of exactly one order-10 block: splitting and merging are visible. */
static void one_block_machine(void)
{
	static const struct host_range ram[] = { { 16 * MiB, 4 * MiB, 0 } };

	host_machine_init(ram, 1, NULL, 0, 1);
}

static void expect_buddyinfo(struct zone *zone, const char *expect)
{
	char got[64];
	int len = 0;

	for (int o = 0; o <= MAX_PAGE_ORDER; o++)
		len += snprintf(got + len, sizeof(got) - len, "%lu", zone->free_area[o].nr_free);
	CHECK_STREQ(got, expect);
}

HOST_TEST(split_and_merge_follow_the_buddies)
{
	struct zone *zone;
	struct page *a, *b, *c;
	const unsigned long base = (16 * MiB) >> PAGE_SHIFT;

	buddy_check_failures = 0;
	one_block_machine();
	zone = zone_of(0, ZONE_DMA32);
	expect_buddyinfo(zone, "00000000001");

	/* order 2 from an order-10 block: the lower quarter, upper halves on the lists */
	a = alloc_pages(GFP_KERNEL, 2);
	CHECK(a && page_to_pfn(a) == base);
	expect_buddyinfo(zone, "00111111110");
	b = alloc_pages(GFP_KERNEL, 2);		/* a's buddy */
	CHECK(b && page_to_pfn(b) == base + 4);
	expect_buddyinfo(zone, "00011111110");
	c = alloc_pages(GFP_KERNEL, 3);
	CHECK(c && page_to_pfn(c) == base + 8);
	expect_buddyinfo(zone, "00001111110");

	__free_pages(a, 2);		/* its buddy b is allocated: no merge */
	expect_buddyinfo(zone, "00101111110");
	__free_pages(c, 3);		/* c's buddy (a+b) is not one free block yet */
	expect_buddyinfo(zone, "00111111110");
	__free_pages(b, 2);		/* b+a -> order 3, + c -> 4, ... -> 10 */
	expect_buddyinfo(zone, "00000000001");

	/* order 0 goes through the per-CPU list: a batch is taken from the buddy lists */
	a = alloc_pages(GFP_KERNEL, 0);
	CHECK(a && page_to_pfn(a) == base);
	CHECK(pcp_of(zone, 0)->batch == 1 && pcp_of(zone, 0)->count == 0);
	expect_buddyinfo(zone, "11111111110");
	__free_pages(a, 0);		/* stays on the per-CPU list... */
	CHECK(pcp_of(zone, 0)->count == 1);
	expect_buddyinfo(zone, "11111111110");
	drain_all_pages();		/* ... until drained, then merges all the way */
	CHECK(pcp_of(zone, 0)->count == 0);
	expect_buddyinfo(zone, "00000000001");
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

HOST_TEST(no_block_crosses_a_zone_boundary)
{
	/* RAM from 8 MiB to 24 MiB: ZONE_DMA and ZONE_DMA32 meet at 16 MiB, mid-way of nothing */
	static const struct host_range ram[] = { { 14 * MiB, 4 * MiB, 0 } };
	struct held h = { 0 };

	buddy_check_failures = 0;
	host_machine_init(ram, 1, NULL, 0, 1);
	CHECK(zone_of(0, ZONE_DMA)->managed_pages == (2 * MiB) >> PAGE_SHIFT);
	CHECK(zone_of(0, ZONE_DMA32)->managed_pages == (2 * MiB) >> PAGE_SHIFT);
	/* 14..16 MiB and 16..18 MiB are each one order-9 block; 12..16 would be order 10 */
	CHECK(zone_of(0, ZONE_DMA)->free_area[9].nr_free == 1);
	CHECK(zone_of(0, ZONE_DMA32)->free_area[9].nr_free == 1);
	take_everything(&h, GFP_NOWAIT | __GFP_MEMALLOC);
	CHECK(nr_free_pages() == 0);
	release_all(&h);
	drain_all_pages();
	CHECK(zone_of(0, ZONE_DMA)->free_area[9].nr_free == 1);
	CHECK(zone_of(0, ZONE_DMA32)->free_area[9].nr_free == 1);
	CHECK(zone_of(0, ZONE_DMA)->free_area[10].nr_free == 0);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

/* ---------------------------------------------------------------- restoring */

BUDDY_TEST(freeing_everything_restores_buddyinfo_exactly)
{
	struct buddy_snapshot start;
	struct held h = { 0 };

	host_rng_state = 42;
	snapshot(&start);
	for (int i = 0; i < 3000; i++) {
		unsigned int o = host_rng() % 4 ? host_rng() % 3 : host_rng() % 11;
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, o);

		if (page)
			hold(&h, page, o);
		if (h.n && host_rng() % 3 == 0) {	/* free a random one */
			unsigned long k = host_rng() % h.n;

			__free_pages(h.pages[k], h.orders[k]);
			h.nr_pages -= 1UL << h.orders[k];
			h.pages[k] = h.pages[--h.n];
			h.orders[k] = h.orders[h.n];
		}
	}
	CHECK(h.n > 100);
	CHECK(nr_free_pages() == start.free_pages - h.nr_pages);
	/* free in a shuffled order */
	for (unsigned long i = h.n; i > 1; i--) {
		unsigned long k = host_rng() % i;
		struct page *p = h.pages[i - 1];
		unsigned int o = h.orders[i - 1];

		h.pages[i - 1] = h.pages[k];
		h.orders[i - 1] = h.orders[k];
		h.pages[k] = p;
		h.orders[k] = o;
	}
	release_all(&h);
	CHECK(snapshot_unchanged(&start));
	buddy_snapshot_free(&start);
}

/* ---------------------------------------------------------------- grouping by mobility */

static unsigned long pageblock_of(const struct page *page)
{
	return page_to_pfn(page) >> pageblock_order;
}

BUDDY_TEST(mobility_every_pageblock_starts_movable)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = zone_of(0, z);

		for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone);
		     pfn += pageblock_nr_pages) {
			if (pfn_valid(pfn))
				CHECK(get_pageblock_migratetype(pfn_to_page(pfn)) ==
				      MIGRATE_MOVABLE);
		}
	}
	CHECK(gfp_migratetype(GFP_KERNEL) == MIGRATE_UNMOVABLE);
	CHECK(gfp_migratetype(GFP_KERNEL | __GFP_MOVABLE) == MIGRATE_MOVABLE);
	CHECK(gfp_migratetype(GFP_KERNEL | __GFP_RECLAIMABLE) == MIGRATE_RECLAIMABLE);
}

/*
 * On a fresh machine every pageblock is movable: the first unmovable page
 * takes another type's largest block, an order-10 one, and claims both its
 * pageblocks (one fallback, counted); the next unmovable pages come from
 * them without another; a movable page stays out of them, and a
 * reclaimable one claims blocks of its own.
 */
BUDDY_TEST(mobility_unmovable_claims_whole_pageblocks_and_stays_in_them)
{
	unsigned long extfrag = ev(PGALLOC_EXTFRAG);
	struct page *pages[400], *movable, *reclaimable;

	for (unsigned int i = 0; i < ARRAY_SIZE(pages); i++) {
		pages[i] = alloc_pages(GFP_KERNEL, 0);
		CHECK(pages[i] && get_pageblock_migratetype(pages[i]) == MIGRATE_UNMOVABLE);
		CHECK(pageblock_of(pages[i]) >> 1 == pageblock_of(pages[0]) >> 1);
	}
	CHECK(ev(PGALLOC_EXTFRAG) == extfrag + 1);
	movable = alloc_pages(GFP_KERNEL | __GFP_MOVABLE, 0);
	CHECK(movable && get_pageblock_migratetype(movable) == MIGRATE_MOVABLE);
	CHECK(pageblock_of(movable) >> 1 != pageblock_of(pages[0]) >> 1);
	CHECK(ev(PGALLOC_EXTFRAG) == extfrag + 1);
	reclaimable = alloc_pages(GFP_KERNEL | __GFP_RECLAIMABLE, 0);
	CHECK(reclaimable && get_pageblock_migratetype(reclaimable) == MIGRATE_RECLAIMABLE);
	CHECK(pageblock_of(reclaimable) >> 1 != pageblock_of(pages[0]) >> 1);
	CHECK(ev(PGALLOC_EXTFRAG) == extfrag + 2);
	for (unsigned int i = 0; i < ARRAY_SIZE(pages); i++)
		__free_pages(pages[i], 0);
	__free_pages(movable, 0);
	__free_pages(reclaimable, 0);
}

BUDDY_TEST(exhaustion_then_full_recovery)
{
	struct buddy_snapshot start;
	struct held h = { 0 };
	unsigned long pos;

	snapshot(&start);
	take_everything(&h, GFP_NOWAIT | __GFP_MEMALLOC);
	CHECK(nr_free_pages() == 0);
	CHECK(h.nr_pages == start.free_pages);
	pos = printk_log_pos();
	CHECK(alloc_pages(GFP_KERNEL, 0) == NULL);	/* nothing to reclaim, nobody to kill */
	CHECK(log_has(pos, "Out of memory and no killable victims"));
	CHECK(log_has(pos, "page allocation failure: order:0, mode:0xcc0(GFP_KERNEL)"));
	CHECK(alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0) == NULL);
	release_all(&h);
	CHECK(nr_free_pages() == start.free_pages);
	CHECK(snapshot_unchanged(&start));
	buddy_snapshot_free(&start);
}

/* ---------------------------------------------------------------- zones */

BUDDY_TEST(gfp_dma_and_dma32_are_honoured)
{
	struct held dma = { 0 }, dma32 = { 0 }, normal = { 0 };
	struct page *page;

	/* __GFP_DMA: only ZONE_DMA, even when it is empty and the rest is not */
	take_everything(&dma, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_DMA);
	CHECK(dma.nr_pages == zone_of(0, ZONE_DMA)->managed_pages);
	for (unsigned long i = 0; i < dma.n; i++)
		CHECK(page_to_pfn(dma.pages[i]) + (1UL << dma.orders[i]) <= ZONE_DMA_END_PFN);
	CHECK(alloc_pages(GFP_KERNEL | __GFP_DMA | __GFP_NOWARN, 0) == NULL);
	CHECK(zone_free_pages(zone_of(0, ZONE_NORMAL)) > 1000);

	/* __GFP_DMA32: below 4 GiB, DMA32 first (DMA is empty anyway) */
	take_everything(&dma32, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_DMA32);
	CHECK(dma32.nr_pages == zone_of(0, ZONE_DMA32)->managed_pages);
	for (unsigned long i = 0; i < dma32.n; i++) {
		CHECK(page_to_pfn(dma32.pages[i]) + (1UL << dma32.orders[i]) <= ZONE_DMA32_END_PFN);
		CHECK(page_zonenum(dma32.pages[i]) == ZONE_DMA32);
	}
	release_all(&dma);

	/* no zone flag: ZONE_NORMAL first, then fall back to DMA32, then DMA */
	page = alloc_pages(GFP_KERNEL, 0);
	CHECK(page && page_zonenum(page) == ZONE_NORMAL);
	__free_pages(page, 0);
	take_everything(&normal, GFP_NOWAIT | __GFP_MEMALLOC);
	CHECK(normal.nr_pages == zone_of(0, ZONE_NORMAL)->managed_pages +
				 zone_of(0, ZONE_DMA)->managed_pages);
	CHECK(page_zonenum(normal.pages[0]) == ZONE_NORMAL);
	CHECK(page_zonenum(normal.pages[normal.n - 1]) == ZONE_DMA);
	release_all(&normal);
	release_all(&dma32);
	/* __GFP_DMA32 falls back to ZONE_DMA when DMA32 is full */
	take_everything(&dma32, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_DMA32);
	CHECK(dma32.nr_pages == zone_of(0, ZONE_DMA32)->managed_pages +
				zone_of(0, ZONE_DMA)->managed_pages);
	release_all(&dma32);
}

/* ---------------------------------------------------------------- watermarks */

static void single_zone_machine(void)
{
	/* 32 MiB of ZONE_DMA32 only */
	static const struct host_range ram[] = { { 16 * MiB, 32 * MiB, 0 } };

	host_machine_init(ram, 1, NULL, 0, 1);
}

HOST_TEST(watermarks_gfp_atomic_may_go_below_min_gfp_nowait_may_not)
{
	struct zone *zone;
	struct held h = { 0 };
	unsigned long min, low, stalls, n;

	buddy_check_failures = 0;
	single_zone_machine();
	zone = zone_of(0, ZONE_DMA32);
	min = zone->watermark[WMARK_MIN];
	low = zone->watermark[WMARK_LOW];
	CHECK(min >= 32);

	/* GFP_KERNEL's fast path stops at low; GFP_NOWAIT's slow path at min */
	stalls = ev(ALLOCSTALL);
	take_everything(&h, GFP_NOWAIT);
	CHECK(ev(ALLOCSTALL) == stalls);		/* never reclaims */
	CHECK(zone->nr_free >= min + 1 - (unsigned long)pcp_of(zone, 0)->batch);
	CHECK(zone->nr_free <= min + 1);
	CHECK(zone->nr_free < low);
	/* order 1 has no per-CPU list: it stops right above min */
	while (alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 1) == NULL && pcp_of(zone, 0)->count)
		break;
	CHECK(alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 1) == NULL);

	/* GFP_ATOMIC digs into the reserve: down to 3/8 of min (half, then a quarter more) */
	n = h.n;
	take_everything(&h, GFP_ATOMIC);
	CHECK(h.n > n);
	CHECK(zone->nr_free < min);
	CHECK(zone->nr_free + 1 >= min - min / 2 - (min - min / 2) / 4);
	CHECK(zone->nr_free <= min - min / 2 - (min - min / 2) / 4 + 1);
	CHECK(ev(ALLOCSTALL) == stalls);

	/* __GFP_MEMALLOC takes the rest */
	take_everything(&h, GFP_NOWAIT | __GFP_MEMALLOC);
	CHECK(zone_free_pages(zone) == 0);
	release_all(&h);
	CHECK(nr_free_pages() == zone->managed_pages);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

HOST_TEST(watermarks_order_1_gfp_nowait_stops_above_min)
{
	struct zone *zone;
	struct held h = { 0 };
	struct page *page;
	unsigned long min;

	buddy_check_failures = 0;
	single_zone_machine();
	zone = zone_of(0, ZONE_DMA32);
	min = zone->watermark[WMARK_MIN];
	while ((page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 1)))
		hold(&h, page, 1);
	/* it got pages while free - 1 > min: at the end min <= free <= min + 2 */
	CHECK(zone->nr_free >= min && zone->nr_free <= min + 2);
	page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 1);
	CHECK(page != NULL);
	if (page)
		hold(&h, page, 1);
	CHECK(zone->nr_free < min);
	release_all(&h);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

/* ---------------------------------------------------------------- exact, zero */

BUDDY_TEST(alloc_pages_exact_frees_the_tail)
{
	struct buddy_snapshot start;
	unsigned long before;
	void *p, *q;

	snapshot(&start);
	before = nr_free_pages();
	p = alloc_pages_exact(5 * PAGE_SIZE, GFP_KERNEL);	/* order 3, 3 pages back */
	CHECK(p != NULL);
	CHECK(nr_free_pages() == before - 5);
	memset(p, 0x77, 5 * PAGE_SIZE);
	for (int i = 5; i < 8; i++) {
		struct page *tail = virt_to_page(p) + i;

		CHECK(!page_test(tail, PG_allocated));
		CHECK(page_test(tail, PG_pcp) || PageBuddy(tail));
	}
	q = alloc_pages_exact(5 * PAGE_SIZE + 1, GFP_KERNEL | __GFP_ZERO);	/* 6 pages */
	CHECK(q != NULL);
	CHECK(nr_free_pages() == before - 11);
	for (unsigned long i = 0; q && i < 6 * PAGE_SIZE; i++) {
		if (((u8 *)q)[i]) {
			CHECK(!"alloc_pages_exact(__GFP_ZERO) not zeroed");
			break;
		}
	}
	free_pages_exact(p, 5 * PAGE_SIZE);
	free_pages_exact(q, 5 * PAGE_SIZE + 1);
	CHECK(nr_free_pages() == before);
	/* each page of an exact allocation may also be freed on its own */
	p = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL);
	CHECK(p != NULL);
	free_pages((unsigned long)p + PAGE_SIZE, 0);
	free_pages_exact(p, PAGE_SIZE);
	free_page((unsigned long)p + 2 * PAGE_SIZE);
	CHECK(nr_free_pages() == before);
	CHECK(snapshot_unchanged(&start));
	buddy_snapshot_free(&start);
	CHECK(ev(PGALLOC_BAD_FREE) == 0);
}

BUDDY_TEST(gfp_zero_returns_zeroed_memory)
{
	for (int poison = 0; poison < 2; poison++) {
		set_page_poisoning(poison);
		for (unsigned int o = 0; o <= 4; o++) {
			struct page *page = alloc_pages(GFP_KERNEL, o);
			u8 *p;

			CHECK(page != NULL);
			memset(page_address(page), 0xcc, PAGE_SIZE << o);
			__free_pages(page, o);
			page = alloc_pages(GFP_KERNEL | __GFP_ZERO, o);	/* the same block: LIFO */
			CHECK(page != NULL);
			p = page_address(page);
			for (unsigned long i = 0; i < (PAGE_SIZE << o); i++) {
				if (p[i]) {
					CHECK(!"__GFP_ZERO block not zeroed");
					break;
				}
			}
			__free_pages(page, o);
		}
	}
	{
		unsigned long addr = get_zeroed_page(GFP_KERNEL);

		CHECK(addr && *(u64 *)addr == 0);
		free_page(addr);
	}
}

/* ---------------------------------------------------------------- misuse */

struct misuse_check {
	unsigned long pos, bad, free;
	struct buddy_snapshot snap;
};

static void misuse_begin(struct misuse_check *m)
{
	drain_all_pages();
	buddy_snapshot_take(&m->snap);
	m->pos = printk_log_pos();
	m->bad = ev(PGALLOC_BAD_FREE);
	m->free = nr_free_pages();
}

/* Reported once with @why, nothing freed, the lists untouched. */
static void misuse_end(struct misuse_check *m, const char *why)
{
	const char *log = host_log_since(m->pos);

	CHECK(strstr(log, "BUG: Bad page free") != NULL);
	CHECK(strstr(log, why) != NULL);
	if (!strstr(log, why))
		printf("    expected \"%s\" in: %s\n", why, log);
	CHECK(ev(PGALLOC_BAD_FREE) == m->bad + 1);
	CHECK(nr_free_pages() == m->free);
	CHECK(snapshot_unchanged(&m->snap));
	buddy_snapshot_free(&m->snap);
}

BUDDY_TEST(misuse_double_free_is_reported_and_harmless)
{
	struct misuse_check m;
	struct page *page;

	/* order 0, the first copy still on the per-CPU list */
	page = alloc_pages(GFP_KERNEL, 0);
	__free_pages(page, 0);
	m.pos = printk_log_pos();
	m.bad = ev(PGALLOC_BAD_FREE);
	m.free = nr_free_pages();
	__free_pages(page, 0);
	CHECK(log_has(m.pos, "double free"));
	CHECK(nr_free_pages() == m.free && ev(PGALLOC_BAD_FREE) == m.bad + 1);

	/* order 0 already back on the buddy lists */
	misuse_begin(&m);
	__free_pages(page, 0);
	misuse_end(&m, "double free");

	/* order 3, and an interior page of a free block */
	page = alloc_pages(GFP_KERNEL, 3);
	__free_pages(page, 3);
	misuse_begin(&m);
	__free_pages(page, 3);
	misuse_end(&m, "double free");
	misuse_begin(&m);
	__free_pages(page + 5, 0);
	misuse_end(&m, "double free");
	misuse_begin(&m);
	free_pages((unsigned long)page_address(page), 3);
	misuse_end(&m, "double free");
}

BUDDY_TEST(misuse_wrong_order_is_reported_and_harmless)
{
	struct misuse_check m;
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	misuse_begin(&m);
	__free_pages(page, 1);
	misuse_end(&m, "freed with order 1, allocated with order 2");
	misuse_begin(&m);
	__free_pages(page, 3);
	misuse_end(&m, "freed with order 3, allocated with order 2");
	misuse_begin(&m);
	free_pages((unsigned long)page_address(page), 0);
	misuse_end(&m, "freed with order 0, allocated with order 2");
	__free_pages(page, 2);		/* the right free still works */
	CHECK(ev(PGALLOC_BAD_FREE) == 3);
}

BUDDY_TEST(misuse_interior_page_is_reported_and_harmless)
{
	struct misuse_check m;
	struct page *page = alloc_pages(GFP_KERNEL, 3);
	char why[80];

	snprintf(why, sizeof(why), "interior page of the order-3 block at pfn %#lx",
		 page_to_pfn(page));
	misuse_begin(&m);
	__free_pages(page + 4, 2);	/* an aligned quarter: still not a block of its own */
	misuse_end(&m, why);
	misuse_begin(&m);
	__free_pages(page + 1, 0);
	misuse_end(&m, why);
	misuse_begin(&m);
	free_pages((unsigned long)page_address(page + 7), 0);
	misuse_end(&m, why);
	__free_pages(page, 3);
}

BUDDY_TEST(misuse_reserved_page_is_reserved)
{
	struct misuse_check m;

	misuse_begin(&m);
	__free_pages(pfn_to_page((2 * MiB) >> PAGE_SHIFT), 0);	/* "the kernel image" */
	misuse_end(&m, "reserved page");
	misuse_begin(&m);
	__free_pages(pfn_to_page(0), 0);			/* the first MiB */
	misuse_end(&m, "reserved page");
	misuse_begin(&m);
	free_pages((unsigned long)__va(((4UL * GiB) + 8 * MiB)), 0);	/* a reserved page of NORMAL */
	misuse_end(&m, "reserved page");
	misuse_begin(&m);
	__free_pages(pfn_to_page((700 * 1024) >> PAGE_SHIFT), 0);	/* a hole in a section */
	misuse_end(&m, "reserved page");
}

BUDDY_TEST(misuse_pfn_outside_ram_is_reported_and_harmless)
{
	struct misuse_check m;

	misuse_begin(&m);
	__free_pages(pfn_to_page(max_pfn), 0);
	misuse_end(&m, "not a page of RAM");
	misuse_begin(&m);
	__free_pages(pfn_to_page((1 * GiB) >> PAGE_SHIFT), 0);	/* a section without RAM */
	misuse_end(&m, "not a page of RAM");
	misuse_begin(&m);
	__free_pages((struct page *)((char *)pfn_to_page(5000) + 8), 0);	/* not a struct page */
	misuse_end(&m, "not a page of RAM");
	misuse_begin(&m);
	free_pages((unsigned long)__va(1 * GiB), 0);
	misuse_end(&m, "not in the direct map of RAM");
	misuse_begin(&m);
	free_pages((unsigned long)__va((phys_addr_t)max_pfn << PAGE_SHIFT), 0);
	misuse_end(&m, "not in the direct map of RAM");
	misuse_begin(&m);
	free_pages(PAGE_OFFSET - PAGE_SIZE, 0);
	misuse_end(&m, "not in the direct map of RAM");
}

BUDDY_TEST(misuse_unaligned_address_is_reported_and_harmless)
{
	struct misuse_check m;
	unsigned long addr = __get_free_pages(GFP_KERNEL, 1);

	misuse_begin(&m);
	free_pages(addr + 8, 1);
	misuse_end(&m, "not page-aligned");
	misuse_begin(&m);
	free_pages(addr + PAGE_SIZE - 1, 0);
	misuse_end(&m, "not page-aligned");
	free_pages(addr, 1);
	free_pages(0, 3);	/* NULL is ignored, silently */
	CHECK(ev(PGALLOC_BAD_FREE) == 2);
}

BUDDY_TEST(misuse_order_above_max_is_reported_and_harmless)
{
	struct misuse_check m;
	struct page *page = alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER);

	misuse_begin(&m);
	__free_pages(page, MAX_PAGE_ORDER + 1);
	misuse_end(&m, "order larger than MAX_PAGE_ORDER");
	misuse_begin(&m);
	free_pages((unsigned long)page_address(page), 31);
	misuse_end(&m, "order larger than MAX_PAGE_ORDER");
	misuse_begin(&m);
	free_pages((unsigned long)page_address(page), ~0u);
	misuse_end(&m, "order larger than MAX_PAGE_ORDER");
	__free_pages(page, MAX_PAGE_ORDER);
}

/* ---------------------------------------------------------------- poisoning */

BUDDY_TEST(poisoning_catches_a_write_after_free)
{
	struct page *page;
	u8 *p;
	unsigned long pos;
	char expect[64];

	set_page_poisoning(true);
	page = alloc_pages(GFP_KERNEL, 1);
	p = page_address(page);
	__free_pages(page, 1);
	CHECK(p[0] == PAGE_POISON && p[2 * PAGE_SIZE - 1] == PAGE_POISON);

	/* untouched: no report */
	pos = printk_log_pos();
	page = alloc_pages(GFP_KERNEL, 1);
	CHECK(page_address(page) == p);
	CHECK(!log_has(pos, "poison"));
	__free_pages(page, 1);

	/* written after free: reported with the pfn and offset */
	p[PAGE_SIZE + 100] = 1;
	pos = printk_log_pos();
	page = alloc_pages(GFP_KERNEL, 1);
	CHECK(page_address(page) == p);
	snprintf(expect, sizeof(expect), "pfn:%#lx offset:0x64", page_to_pfn(page) + 1);
	CHECK(log_has(pos, "BUG: page poison overwritten"));
	CHECK(log_has(pos, expect));
	__free_pages(page, 1);

	/* order 0, through the per-CPU list */
	page = alloc_pages(GFP_KERNEL, 0);
	p = page_address(page);
	__free_pages(page, 0);
	p[4095] = 0;
	pos = printk_log_pos();
	page = alloc_pages(GFP_KERNEL, 0);
	CHECK(page_address(page) == p);
	CHECK(log_has(pos, "offset:0xfff"));
	__free_pages(page, 0);
}

/* ---------------------------------------------------------------- retry semantics */

/* A cache of pages a shrinker gives back, and a victim the OOM killer may kill. */
struct test_cache {
	struct shrinker shrinker;
	struct held h;
	unsigned long scans, counts, fake_progress;
};

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	struct test_cache *c = container_of(s, struct test_cache, shrinker);

	(void)sc;
	c->counts++;
	return c->h.n + c->fake_progress;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct test_cache *c = container_of(s, struct test_cache, shrinker);
	unsigned long freed = 0;

	c->scans++;
	if (c->fake_progress) {		/* "freed" objects that held no pages */
		c->fake_progress--;
		return 1;
	}
	while (freed < sc->nr_to_scan && c->h.n) {
		c->h.n--;
		__free_pages(c->h.pages[c->h.n], c->h.orders[c->h.n]);
		c->h.nr_pages -= 1UL << c->h.orders[c->h.n];
		freed++;
	}
	return freed;
}

struct test_victim {
	struct oom_victim v;
	struct held h;
	bool killed;
};

static unsigned long victim_badness(struct oom_victim *v)
{
	return container_of(v, struct test_victim, v)->h.nr_pages;
}

static void victim_kill(struct oom_victim *v)
{
	struct test_victim *t = container_of(v, struct test_victim, v);

	t->killed = true;
	release_all(&t->h);
}

/* Fill the machine: @victim gets @victim_pages order-0 pages, @cache @cache_pages, the test the rest. */
static void fill_machine(struct held *rest, struct test_victim *victim, unsigned long victim_pages,
			 struct test_cache *cache, unsigned long cache_pages)
{
	const gfp_t gfp = GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN;

	if (victim) {
		memset(victim, 0, sizeof(*victim));
		victim->v.name = "test-victim";
		victim->v.badness = victim_badness;
		victim->v.kill = victim_kill;
		for (unsigned long i = 0; i < victim_pages; i++)
			hold(&victim->h, alloc_pages(gfp, 0), 0);
		register_oom_victim(&victim->v);
	}
	if (cache) {
		memset(cache, 0, sizeof(*cache));
		cache->shrinker.count_objects = cache_count;
		cache->shrinker.scan_objects = cache_scan;
		cache->shrinker.batch = 16;
		cache->shrinker.seeks = DEFAULT_SEEKS;
		for (unsigned long i = 0; i < cache_pages; i++)
			hold(&cache->h, alloc_pages(gfp, 0), 0);
		register_shrinker(&cache->shrinker, "test-cache");
	}
	take_everything(rest, gfp);
	CHECK(nr_free_pages() == 0);
}

static void unfill_machine(struct held *rest, struct test_victim *victim, struct test_cache *cache)
{
	if (victim) {
		unregister_oom_victim(&victim->v);
		release_all(&victim->h);
	}
	if (cache) {
		unregister_shrinker(&cache->shrinker);
		release_all(&cache->h);
	}
	release_all(rest);
	CHECK(nr_free_pages() == totalram_pages);
}

BUDDY_TEST(retry_order0_gfp_kernel_kills_the_victim)
{
	struct held rest = { 0 };
	struct test_victim victim;
	struct page *page;
	unsigned long pos;

	fill_machine(&rest, &victim, 1024, NULL, 0);
	pos = printk_log_pos();
	page = alloc_pages(GFP_KERNEL, 0);
	CHECK(page != NULL);
	CHECK(victim.killed);
	CHECK(ev(OOM_KILL) == 1);
	CHECK(log_has(pos, "invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0"));
	CHECK(log_has(pos, "Out of memory: Killed victim 'test-victim' holding 1024 pages"));
	CHECK(!log_has(pos, "page allocation failure"));
	if (page)
		hold(&rest, page, 0);
	/* killed victims are unregistered: the next one fails once memory is gone again */
	take_everything(&rest, GFP_NOWAIT | __GFP_MEMALLOC);
	CHECK(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0) == NULL);
	CHECK(ev(OOM_KILL) == 1);
	unfill_machine(&rest, &victim, NULL);
}

BUDDY_TEST(retry_order3_gfp_kernel_kills_the_victim_too)
{
	struct held rest = { 0 };
	struct test_victim victim;
	struct page *page;

	fill_machine(&rest, &victim, 1024, NULL, 0);
	page = alloc_pages(GFP_KERNEL, PAGE_ALLOC_COSTLY_ORDER);
	CHECK(page != NULL && victim.killed);
	if (page)
		hold(&rest, page, PAGE_ALLOC_COSTLY_ORDER);
	unfill_machine(&rest, &victim, NULL);
}

BUDDY_TEST(retry_noretry_does_not_kill)
{
	struct held rest = { 0 };
	struct test_victim victim;
	unsigned long pos, stalls = ev(ALLOCSTALL);

	fill_machine(&rest, &victim, 1024, NULL, 0);
	pos = printk_log_pos();
	CHECK(alloc_pages(GFP_KERNEL | __GFP_NORETRY, 0) == NULL);
	CHECK(!victim.killed);
	CHECK(ev(OOM_KILL) == 0);
	CHECK(ev(ALLOCSTALL) == stalls + 1);		/* one reclaim round */
	CHECK(ev(PGALLOC_NORETRY_FAIL) == 1);
	CHECK(log_has(pos, "page allocation failure: order:0, mode:0x10cc0(GFP_KERNEL|__GFP_NORETRY)"));
	CHECK(!log_has(pos, "oom-killer"));
	unfill_machine(&rest, &victim, NULL);
}

BUDDY_TEST(retry_costly_orders_do_not_kill)
{
	struct held rest = { 0 };
	struct test_victim victim;
	unsigned long pos;

	fill_machine(&rest, &victim, 1024, NULL, 0);
	pos = printk_log_pos();
	CHECK(alloc_pages(GFP_KERNEL, PAGE_ALLOC_COSTLY_ORDER + 1) == NULL);
	CHECK(alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_PAGE_ORDER) == NULL);
	CHECK(!victim.killed && ev(OOM_KILL) == 0);
	CHECK(log_has(pos, "page allocation failure: order:4"));
	unfill_machine(&rest, &victim, NULL);
}

BUDDY_TEST(retry_mayfail_does_not_kill)
{
	struct held rest = { 0 };
	struct test_victim victim;

	fill_machine(&rest, &victim, 1024, NULL, 0);
	CHECK(alloc_pages(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN, 0) == NULL);
	CHECK(!victim.killed && ev(OOM_KILL) == 0);
	unfill_machine(&rest, &victim, NULL);
}

BUDDY_TEST(retry_atomic_and_nowait_never_reclaim)
{
	struct held rest = { 0 };
	struct test_victim victim;
	struct test_cache cache;

	fill_machine(&rest, &victim, 1024, &cache, 1024);
	CHECK(alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0) == NULL);
	CHECK(alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0) == NULL);
	CHECK(cache.scans == 0 && cache.counts == 0);
	CHECK(!victim.killed && ev(ALLOCSTALL) == 0);
	unfill_machine(&rest, &victim, &cache);
}

BUDDY_TEST(retry_shrinker_is_asked_before_the_oom_killer)
{
	struct held rest = { 0 };
	struct test_victim victim;
	struct test_cache cache;
	unsigned long stalls = ev(ALLOCSTALL);
	struct page *page;

	fill_machine(&rest, &victim, 1024, &cache, 1024);
	page = alloc_pages(GFP_KERNEL, 0);
	CHECK(page != NULL);
	CHECK(!victim.killed);
	/*
	 * Each round aims at SWAP_CLUSTER_MAX (32), Linux's priorities: the
	 * first, nothing to scan down to priority 8 (1024 >> 8 = 4, times 4 /
	 * seeks: 8, under a batch of 16), one batch at 7, one at 6.  A few
	 * rounds, until the min watermark is met: never the whole cache.
	 */
	CHECK(1024 - cache.h.n >= SWAP_CLUSTER_MAX * (ev(ALLOCSTALL) - stalls));
	CHECK(ev(SLABS_SCANNED) == 1024 - cache.h.n);
	CHECK(cache.h.n > 1024 / 2);
	if (page)
		hold(&rest, page, 0);
	unfill_machine(&rest, &victim, &cache);
}

BUDDY_TEST(retry_noretry_gets_one_reclaim_round)
{
	struct held rest = { 0 };
	struct test_cache cache;
	unsigned long stalls = ev(ALLOCSTALL);

	/* fake objects: "freed", no page; the round stops at 32 of them (priority 6) */
	fill_machine(&rest, NULL, 0, &cache, 0);
	cache.fake_progress = 1000;
	CHECK(alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0) == NULL);
	CHECK(ev(ALLOCSTALL) == stalls + 1);
	CHECK(cache.scans == 1000 - cache.fake_progress && cache.scans >= SWAP_CLUSTER_MAX);
	CHECK(cache.fake_progress > 1000 / 2);		/* not all of them */
	cache.fake_progress = 0;
	unfill_machine(&rest, NULL, &cache);
}

BUDDY_TEST(retry_mayfail_retries_while_reclaim_makes_progress)
{
	struct held rest = { 0 };
	struct test_victim victim;
	struct test_cache cache;
	struct page *page;
	unsigned long stalls;

	/* reclaim "makes progress" 5 times without freeing pages, then frees them */
	fill_machine(&rest, &victim, 1024, &cache, 1024);
	cache.fake_progress = 5;
	page = alloc_pages(GFP_KERNEL | __GFP_RETRY_MAYFAIL, 0);
	CHECK(page != NULL);
	CHECK(!victim.killed);
	if (page)
		hold(&rest, page, 0);
	take_everything(&rest, GFP_NOWAIT | __GFP_MEMALLOC);

	/* progress forever, no page: gives up after a bounded number of rounds, no OOM */
	cache.fake_progress = 1000000;
	stalls = ev(ALLOCSTALL);
	CHECK(alloc_pages(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN, 0) == NULL);
	CHECK(ev(ALLOCSTALL) - stalls > 1 && ev(ALLOCSTALL) - stalls <= 32);
	CHECK(!victim.killed);
	cache.fake_progress = 0;
	unfill_machine(&rest, &victim, &cache);
}

/* A shrinker that always has 100 objects and always "frees" what it is asked to. */
static unsigned long lying_scans;

static unsigned long lying_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	return 100;
}

static unsigned long lying_scan(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	if (++lying_scans > 100000)
		return SHRINK_STOP;	/* the pass would never end: get out, the test fails */
	return sc->nr_to_scan;
}

BUDDY_TEST(retry_a_reclaim_pass_ends_even_if_the_shrinker_never_empties)
{
	struct held rest = { 0 };
	struct shrinker lying = { .count_objects = lying_count, .scan_objects = lying_scan,
				  .batch = 10 };
	unsigned long stalls = ev(ALLOCSTALL);

	fill_machine(&rest, NULL, 0, NULL, 0);
	register_shrinker(&lying, "lying");
	lying_scans = 0;
	/* "progress" every round: RETRY_MAYFAIL retries a bounded number of times, then fails */
	CHECK(alloc_pages(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN, 0) == NULL);
	CHECK(lying_scans <= 100000);
	CHECK(ev(ALLOCSTALL) - stalls > 1 && ev(ALLOCSTALL) - stalls <= 32);
	/*
	 * seeks 0: each pass asks for half of what is counted (Linux's
	 * freeable / 2), 50 objects, 10 at a time, which is a round's 32
	 */
	CHECK(lying_scans == (ev(ALLOCSTALL) - stalls) * 5);
	unregister_shrinker(&lying);
	unfill_machine(&rest, NULL, NULL);
}

/* A shrinker that counts sc->nr_to_scan down as it frees, as some do. */
static unsigned long countdown_scans;

static unsigned long countdown_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	return 1000;
}

static unsigned long countdown_scan(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	if (++countdown_scans > 100000)
		return SHRINK_STOP;	/* the pass would never end: get out, the test fails */
	sc->nr_to_scan = 0;		/* "all done": it freed one object of what it was asked */
	return 1;
}

BUDDY_TEST(retry_a_shrinker_counting_nr_to_scan_down_does_not_stretch_the_pass)
{
	struct shrinker countdown = { .count_objects = countdown_count,
				      .scan_objects = countdown_scan, .batch = 128,
				      .seeks = DEFAULT_SEEKS };

	register_shrinker(&countdown, "countdown");
	countdown_scans = 0;
	/* priority 0 asks twice the 1000 objects counted (Linux's cap), 128 at a time: 15 calls */
	CHECK(shrink_slab(GFP_KERNEL, 0, 0) == 15);
	CHECK(countdown_scans == 15);
	unregister_shrinker(&countdown);
}

BUDDY_TEST(retry_nofail_never_returns_null)
{
	struct held rest = { 0 };
	struct test_victim victim;
	struct test_cache cache;
	struct page *page;

	/* only the OOM killer can help a small GFP_KERNEL|NOFAIL allocation: it kills */
	fill_machine(&rest, &victim, 1024, NULL, 0);
	page = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 0);
	CHECK(page != NULL && victim.killed);
	if (page)
		hold(&rest, page, 0);
	unfill_machine(&rest, &victim, NULL);

	/*
	 * NOFAIL does not change who may be killed (RETRY_MAYFAIL, costly
	 * orders): it takes the last reserve instead, here a block kept free
	 * below the min watermark.
	 */
	for (int i = 0; i < 2; i++) {
		unsigned int order = i ? PAGE_ALLOC_COSTLY_ORDER + 1 : 0;
		gfp_t gfp = GFP_KERNEL | __GFP_NOFAIL | (i ? 0 : __GFP_RETRY_MAYFAIL);
		struct page *spare = alloc_pages(GFP_KERNEL, PAGE_ALLOC_COSTLY_ORDER + 1);

		fill_machine(&rest, &victim, 1024, NULL, 0);
		__free_pages(spare, PAGE_ALLOC_COSTLY_ORDER + 1);
		page = alloc_pages(gfp, order);
		CHECK(page != NULL && !victim.killed);
		if (page)
			hold(&rest, page, order);
		unfill_machine(&rest, &victim, NULL);
	}

	/* NORETRY|NOFAIL: reclaim rounds, never the OOM killer, but a page in the end */
	fill_machine(&rest, &victim, 1024, &cache, 1024);
	CHECK(ev(OOM_KILL) == 1);
	page = alloc_pages(GFP_KERNEL | __GFP_NOFAIL | __GFP_NORETRY, 0);
	CHECK(page != NULL && !victim.killed && ev(OOM_KILL) == 1);
	CHECK(cache.h.n < 1024);
	if (page)
		hold(&rest, page, 0);
	unfill_machine(&rest, &victim, &cache);
}

BUDDY_TEST(retry_oom_kills_the_largest_victim)
{
	struct held rest = { 0 };
	struct test_victim small, large;
	struct page *page;

	fill_machine(&rest, &small, 600, NULL, 0);
	release_all(&rest);
	unregister_oom_victim(&small.v);
	fill_machine(&rest, &large, 0, NULL, 0);	/* registers large, empty */
	release_all(&rest);
	for (int i = 0; i < 900; i++)
		hold(&large.h, alloc_pages(GFP_NOWAIT | __GFP_MEMALLOC, 0), 0);
	register_oom_victim(&small.v);
	take_everything(&rest, GFP_NOWAIT | __GFP_MEMALLOC);
	page = alloc_pages(GFP_KERNEL, 0);
	CHECK(page != NULL);
	CHECK(large.killed && !small.killed);
	if (page)
		hold(&rest, page, 0);
	unregister_oom_victim(&large.v);
	unfill_machine(&rest, &small, NULL);
}

/* ---------------------------------------------------------------- per-CPU lists */

HOST_TEST(pcp_lists_fill_drain_and_count_correctly)
{
	struct held h = { 0 };
	struct buddy_snapshot start;
	struct zone *zone;
	int batch, high;

	/* 256 MiB of ZONE_NORMAL: a batch of 16 pages, about what the kernel has in QEMU */
	static const struct host_range ram[] = { { 1 * MiB, 15 * MiB, 0 }, { 4 * GiB, 256 * MiB, 0 } };

	buddy_check_failures = 0;
	host_machine_init(ram, ARRAY_SIZE(ram), NULL, 0, 4);
	zone = zone_of(0, ZONE_NORMAL);
	batch = pcp_of(zone, 0)->batch;
	high = pcp_of(zone, 0)->high;
	CHECK(batch == 16 && high == 6 * batch);
	snapshot(&start);

	/* a refill takes one batch */
	host_set_cpu(1);
	hold(&h, alloc_pages(GFP_KERNEL, 0), 0);
	CHECK(pcp_of(zone, 1)->count == batch - 1);
	CHECK(ev(PCP_REFILL) == 1);
	for (int i = 1; i < 3 * high + 1; i++)
		hold(&h, alloc_pages(GFP_KERNEL, 0), 0);
	CHECK(pcp_of(zone, 1)->count == batch - 1);

	/* freed on CPU 2: its list grows up to high, then a batch goes back */
	host_set_cpu(2);
	for (int i = 0; i < high - 1; i++) {
		h.n--;
		__free_pages(h.pages[h.n], 0);
	}
	CHECK(pcp_of(zone, 2)->count == high - 1);
	CHECK(nr_free_pages() == start.free_pages - h.n);
	h.n--;
	__free_pages(h.pages[h.n], 0);
	CHECK(pcp_of(zone, 2)->count == high - batch);
	CHECK(nr_free_pages() == start.free_pages - h.n);

	/* CPU 3 does not take CPU 2's pages */
	host_set_cpu(3);
	hold(&h, alloc_pages(GFP_KERNEL, 0), 0);
	CHECK(pcp_of(zone, 2)->count == high - batch);
	CHECK(pcp_of(zone, 3)->count == batch - 1);

	/* drain_local_pages drains only the CPU it runs on */
	host_set_cpu(2);
	drain_local_pages(NULL);
	CHECK(pcp_of(zone, 2)->count == 0 && pcp_of(zone, 1)->count > 0 && pcp_of(zone, 3)->count > 0);
	CHECK(nr_free_pages() == start.free_pages - h.n);

	/* drain_all_pages: every CPU's list is empty, and nothing was lost */
	host_set_cpu(0);
	release_all(&h);
	drain_all_pages();
	for (int cpu = 0; cpu < 4; cpu++)
		CHECK(pcp_of(zone, cpu)->count == 0);
	CHECK(host_cpu == 0);
	CHECK(snapshot_unchanged(&start));
	buddy_snapshot_free(&start);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

HOST_TEST(pcp_pages_of_other_cpus_are_drained_for_a_high_order_allocation)
{
	static const struct host_range ram[] = { { 16 * MiB, 4 * MiB, 0 } };
	struct held h = { 0 };
	struct page *page;

	/* one order-10 block, every page of it freed onto CPU 1's list */
	buddy_check_failures = 0;
	host_machine_init(ram, 1, NULL, 0, 2);
	while ((page = alloc_pages(GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN, 0)))
		hold(&h, page, 0);
	CHECK(h.n == 1024);
	host_set_cpu(1);
	for (unsigned long i = 0; i < h.n; i++)
		__free_pages(h.pages[i], h.orders[i]);
	h.n = 0;
	host_set_cpu(0);
	CHECK(zone_of(0, ZONE_DMA32)->free_area[MAX_PAGE_ORDER].nr_free == 0);
	CHECK(pcp_of(zone_of(0, ZONE_DMA32), 1)->count > 0);
	/* GFP_KERNEL reclaims, and reclaim drains every CPU: the block merges again */
	page = alloc_pages(GFP_KERNEL | __GFP_MEMALLOC, MAX_PAGE_ORDER);
	CHECK(page != NULL);
	CHECK(pcp_of(zone_of(0, ZONE_DMA32), 1)->count == 0);
	if (page)
		__free_pages(page, MAX_PAGE_ORDER);
	release_all(&h);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

/* ---------------------------------------------------------------- NUMA */

HOST_TEST(numa_nodes_prefer_their_memory_and_thisnode_stays)
{
	/* node 1 starts 2 MiB-aligned only: its first order-9 block's buddy is on node 0 */
	static const struct host_range ram[] = {
		{ 1 * MiB, 31 * MiB, 0 }, { 4 * GiB, 18 * MiB, 0 }, { 4 * GiB + 18 * MiB, 16 * MiB, 1 },
	};
	struct held h = { 0 };
	struct page *page;

	buddy_check_failures = 0;
	host_machine_init(ram, ARRAY_SIZE(ram), NULL, 0, 2);
	CHECK(nr_node_ids == 2);
	CHECK(zone_of(1, ZONE_NORMAL)->managed_pages == (16 * MiB) >> PAGE_SHIFT);
	CHECK(zone_of(1, ZONE_NORMAL)->free_area[9].nr_free == 2);	/* 4G+18M.., ..4G+34M */
	page = alloc_pages_node(1, GFP_KERNEL, 3);
	CHECK(page && page_to_nid(page) == 1);
	if (page)
		__free_pages(page, 3);
	/* take all of node 1: THISNODE then fails, without it node 0 serves */
	while ((page = alloc_pages_node(1, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_THISNODE |
					   __GFP_NOWARN, 0)))
		hold(&h, page, 0);
	CHECK(h.nr_pages == (16 * MiB) >> PAGE_SHIFT);
	for (unsigned long i = 0; i < h.n; i++)
		CHECK(page_to_nid(h.pages[i]) == 1);
	CHECK(alloc_pages_node(1, GFP_KERNEL | __GFP_THISNODE | __GFP_NORETRY | __GFP_NOWARN,
			       0) == NULL);
	page = alloc_pages_node(1, GFP_KERNEL, 0);
	CHECK(page && page_to_nid(page) == 0);
	if (page)
		__free_pages(page, 0);
	/* no buddy merges across the node boundary at 4 GiB + 18 MiB (the checker looks) */
	release_all(&h);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

static const u8 three_node_slit[] = { 10, 30, 15, 30, 10, 20, 15, 20, 10 };

/* The nodes of @nid's zonelist, in order, each once: "021" for 0, then 2, then 1. */
static const char *zonelist_nodes(int nid, int which)
{
	static char buf[MAX_NUMNODES + 1];
	const struct zoneref *z = NODE_DATA(nid)->node_zonelists[which]._zonerefs;
	int n = 0;

	for (; z->zone; z++) {
		if (!n || buf[n - 1] != '0' + z->zone->node)
			buf[n++] = (char)('0' + z->zone->node);
	}
	buf[n] = 0;
	return buf;
}

/*
 * Allocate one page preferring @nid on the current CPU: it must come from
 * @expect, and exactly the counters @hit_or_miss and @local_or_other of
 * @expect (and foreign of @nid after a miss) must have moved, by one.
 */
static bool numa_alloc_counted(struct held *h, int nid, int expect,
			       enum numa_stat_item hit_or_miss, enum numa_stat_item local_or_other)
{
	struct numa_counts then, now;
	struct page *page;

	numa_counts_take(&then);
	page = alloc_pages_node(nid, GFP_KERNEL, 0);
	numa_counts_take(&now);
	if (!page || page_to_nid(page) != expect)
		return false;
	hold(h, page, 0);
	then.c[hit_or_miss][expect]++;
	then.c[local_or_other][expect]++;
	if (hit_or_miss == NUMA_MISS)
		then.c[NUMA_FOREIGN][nid]++;
	return !memcmp(&then, &now, sizeof(now));
}

/* Take node @nid's every page. */
static void fill_node(struct held *h, int nid)
{
	struct page *page;

	while ((page = alloc_pages_node(nid, GFP_NOWAIT | __GFP_MEMALLOC | __GFP_THISNODE |
					   __GFP_NOWARN, 0)))
		hold(h, page, 0);
}

HOST_TEST(numa_fallback_follows_the_slit_and_is_counted)
{
	/* three nodes: node 0 has the low memory (DMA and DMA32), 1 and 2 8 MiB of Normal each */
	static const struct host_range ram[] = {
		{ 1 * MiB, 23 * MiB, 0 }, { 4 * GiB, 8 * MiB, 1 }, { 4 * GiB + 8 * MiB, 8 * MiB, 2 },
	};
	unsigned long miss[3], foreign[3], misses, foreigns;
	struct held h = { 0 };

	buddy_check_failures = 0;
	host_set_distances(3, three_node_slit);
	host_machine_init(ram, ARRAY_SIZE(ram), NULL, 0, 2);
	set_cpu_numa_node(1, 1);
	for (int nid = 0; nid < 3; nid++) {
		miss[nid] = sum_zone_numa_event_state(nid, NUMA_MISS);
		foreign[nid] = sum_zone_numa_event_state(nid, NUMA_FOREIGN);
	}
	misses = global_numa_event_state(NUMA_MISS);
	foreigns = global_numa_event_state(NUMA_FOREIGN);
	CHECK(nr_node_ids == 3);
	CHECK(node_distance(0, 0) == 10 && node_distance(0, 1) == 30 && node_distance(0, 2) == 15);
	CHECK(node_distance(1, 2) == 20 && node_distance(2, 1) == 20);
	/* nearest first, not the next id */
	CHECK_STREQ(zonelist_nodes(0, ZONELIST_FALLBACK), "021");
	CHECK_STREQ(zonelist_nodes(1, ZONELIST_FALLBACK), "120");
	CHECK_STREQ(zonelist_nodes(2, ZONELIST_FALLBACK), "201");
	CHECK_STREQ(zonelist_nodes(2, ZONELIST_NOFALLBACK), "2");
	/* a node's own zones from the highest down: node 0 has DMA32 and DMA */
	CHECK(NODE_DATA(0)->node_zonelists[ZONELIST_FALLBACK]._zonerefs[0].zone_idx == ZONE_DMA32);
	CHECK(NODE_DATA(0)->node_zonelists[ZONELIST_FALLBACK]._zonerefs[1].zone_idx == ZONE_DMA);

	/* CPU 0 is on node 0, CPU 1 on node 1 */
	CHECK(numa_alloc_counted(&h, 0, 0, NUMA_HIT, NUMA_LOCAL));
	CHECK(numa_alloc_counted(&h, NUMA_NO_NODE, 0, NUMA_HIT, NUMA_LOCAL));
	CHECK(numa_alloc_counted(&h, 2, 2, NUMA_HIT, NUMA_OTHER));
	host_set_cpu(1);
	CHECK(numa_alloc_counted(&h, NUMA_NO_NODE, 1, NUMA_HIT, NUMA_LOCAL));
	CHECK(numa_alloc_counted(&h, 0, 0, NUMA_HIT, NUMA_OTHER));
	host_set_cpu(0);
	/* node 0 full: its allocations go to node 2 (the nearest), then node 1 */
	fill_node(&h, 0);
	CHECK(numa_alloc_counted(&h, 0, 2, NUMA_MISS, NUMA_OTHER));
	host_set_cpu(1);
	CHECK(numa_alloc_counted(&h, 0, 2, NUMA_MISS, NUMA_OTHER));
	host_set_cpu(0);
	fill_node(&h, 2);
	CHECK(numa_alloc_counted(&h, 0, 1, NUMA_MISS, NUMA_OTHER));
	host_set_cpu(1);
	CHECK(numa_alloc_counted(&h, 2, 1, NUMA_MISS, NUMA_LOCAL));
	host_set_cpu(0);
	CHECK(alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE | __GFP_NORETRY | __GFP_NOWARN,
			       0) == NULL);
	/* the sums over both CPUs: per node, and over the nodes (what vmstat shows) */
	CHECK(sum_zone_numa_event_state(0, NUMA_MISS) == miss[0]);
	CHECK(sum_zone_numa_event_state(1, NUMA_MISS) == miss[1] + 2);
	CHECK(sum_zone_numa_event_state(2, NUMA_MISS) == miss[2] + 2);
	CHECK(sum_zone_numa_event_state(0, NUMA_FOREIGN) == foreign[0] + 3);
	CHECK(sum_zone_numa_event_state(2, NUMA_FOREIGN) == foreign[2] + 1);
	CHECK(global_numa_event_state(NUMA_MISS) == misses + 4);
	CHECK(global_numa_event_state(NUMA_FOREIGN) == foreigns + 4);
	release_all(&h);
	CHECK(buddy_check_consistency() == 0);

	/* the next machine has no SLIT: 10 and 20, so the fallback is in id order */
	host_machine_init(ram, ARRAY_SIZE(ram), NULL, 0, 1);
	CHECK(node_distance(0, 2) == 20 && node_distance(1, 1) == 10);
	CHECK_STREQ(zonelist_nodes(0, ZONELIST_FALLBACK), "012");
	CHECK_STREQ(zonelist_nodes(2, ZONELIST_FALLBACK), "201");
	CHECK(buddy_check_failures == 0);
}

/*
 * Nodes with CPUs and no memory: node 0 (CPU 0's, numbered by its memory
 * ranges' neighbours) and node 3 (CPU 1's, numbered only by the CPU, above
 * every node with memory).  Their zonelists are the other nodes', nearest
 * first; numa_mem_id() is their first node; their allocations are hits
 * there and "other" (their CPUs' node has no memory); __GFP_THISNODE on
 * them fails at once, without reclaim.  Each node's fallback order is on
 * a boot line once, node 3's when its CPU makes it known.
 */
HOST_TEST(memoryless_nodes_fall_back_to_the_nearest_with_memory)
{
	static const struct host_range ram[] = {
		{ 1 * MiB, 23 * MiB, 1 }, { 4 * GiB, 8 * MiB, 1 }, { 4 * GiB + 8 * MiB, 8 * MiB, 2 },
	};
	/* node 0: 2 (15) before 1 (30); node 3: 1 (12) before 2 (25) */
	static const u8 slit[] = {
		10, 30, 15, 40,
		30, 10, 20, 12,
		15, 20, 10, 25,
		40, 12, 25, 10,
	};
	unsigned long stalls, fails, log = printk_log_pos();
	const char *line;
	struct held h = { 0 };
	struct zone *zone;
	int zones = 0;

	buddy_check_failures = 0;
	host_set_distances(4, slit);
	host_machine_init(ram, ARRAY_SIZE(ram), NULL, 0, 2);
	CHECK(nr_node_ids == 3);
	CHECK(strstr(host_log_since(log), "Fallback order for Node 0: 0 2 1\n"));
	CHECK(strstr(host_log_since(log), "Fallback order for Node 1: 1 2\n"));
	CHECK(strstr(host_log_since(log), "Fallback order for Node 2: 2 1\n"));
	CHECK(!strstr(host_log_since(log), "Node 3"));
	CHECK(!node_state(0, N_MEMORY) && node_state(1, N_MEMORY) && node_state(2, N_MEMORY));
	CHECK(node_state(0, N_CPU) && node_state(0, N_ONLINE) && !node_state(1, N_CPU));
	CHECK_STREQ(zonelist_nodes(0, ZONELIST_FALLBACK), "21");
	CHECK_STREQ(zonelist_nodes(0, ZONELIST_NOFALLBACK), "");
	CHECK(local_memory_node(0) == 2 && local_memory_node(1) == 1);
	CHECK(numa_node_id() == 0 && numa_mem_id() == 2 && cpu_to_mem(1) == 2);

	log = printk_log_pos();
	set_cpu_numa_node(1, 3);
	CHECK(nr_node_ids == 4);
	line = strstr(host_log_since(log), "Fallback order");
	CHECK(line && !strncmp(line, "Fallback order for Node 3: 3 1 2\n", 33));
	CHECK(line && !strstr(line + 1, "Fallback order"));	/* node 3's line alone */
	CHECK(node_state(3, N_CPU) && node_state(3, N_ONLINE) && !node_state(3, N_MEMORY));
	CHECK(node_state(3, N_POSSIBLE) && !node_state(4, N_POSSIBLE));
	CHECK(num_node_state(N_MEMORY) == 2 && num_node_state(N_CPU) == 2);
	CHECK_STREQ(zonelist_nodes(3, ZONELIST_FALLBACK), "12");
	CHECK(cpu_to_node(1) == 3 && cpu_to_mem(1) == 1);
	for_each_zone(zone)	/* the empty zones of node 3 are whole ones: the walk ends */
		zones++;
	CHECK(zones == 4 * MAX_NR_ZONES);

	/* CPU 0 (node 0): a hit on node 2, never local */
	CHECK(numa_alloc_counted(&h, 0, 2, NUMA_HIT, NUMA_OTHER));
	CHECK(numa_alloc_counted(&h, NUMA_NO_NODE, 2, NUMA_HIT, NUMA_OTHER));
	CHECK(numa_alloc_counted(&h, 3, 1, NUMA_HIT, NUMA_OTHER));
	host_set_cpu(1);
	CHECK(numa_mem_id() == 1);
	CHECK(numa_alloc_counted(&h, NUMA_NO_NODE, 1, NUMA_HIT, NUMA_OTHER));
	CHECK(numa_alloc_counted(&h, 2, 2, NUMA_HIT, NUMA_OTHER));
	host_set_cpu(0);

	/* __GFP_THISNODE: nothing to take, nothing to reclaim for */
	stalls = global_vm_event(ALLOCSTALL);
	fails = global_vm_event(PGALLOC_FAIL);
	CHECK(alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 0) == NULL);
	CHECK(alloc_pages_node(3, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 2) == NULL);
	CHECK(alloc_pages_node(3, GFP_ATOMIC | __GFP_THISNODE | __GFP_NOWARN, 0) == NULL);
	CHECK(global_vm_event(ALLOCSTALL) == stalls);
	CHECK(global_vm_event(PGALLOC_FAIL) == fails + 3);
	release_all(&h);
	CHECK(buddy_check_consistency() == 0);
	CHECK(buddy_check_failures == 0);
}

/* ---------------------------------------------------------------- compaction */

/* Free blocks of a pageblock or more in @zone, in pageblocks */
static unsigned long free_pageblocks(struct zone *zone)
{
	unsigned long n = 0;

	for (unsigned int o = pageblock_order; o < NR_PAGE_ORDERS; o++)
		n += zone->free_area[o].nr_free << (o - pageblock_order);
	return n;
}

/*
 * The balloon takes movable pages and gives back every other one, so free
 * memory is single pages between held ones; compacting each zone whole
 * moves the balloon's pages from the bottom into the holes at the top:
 * more free pageblocks than before, the two scanners never scanning a page
 * twice, every moved page's pattern intact, and the free lists (and every
 * struct page: the checker) consistent after each zone.  Deflated, the
 * balloon leaves the buddy lists as they started.
 */
BUDDY_TEST(compaction_makes_pageblocks_from_a_fragmented_balloon)
{
	unsigned long before = 0, after = 0, migrated = 0;
	struct buddy_snapshot start;
	struct balloon_stats st;
	struct zone *zone;

	snapshot(&start);
	CHECK(balloon_inflate(4096) == 4096);
	CHECK(balloon_deflate_alternate() == 2048);
	drain_all_pages();
	CHECK(buddy_check_consistency() == 0);
	for_each_populated_zone(zone) {
		struct compact_stats cs;
		enum compact_result ret;

		before += free_pageblocks(zone);
		ret = compact_zone_fully(zone, &cs);
		drain_all_pages();
		after += free_pageblocks(zone);
		migrated += cs.migrated;
		CHECK(ret == COMPACT_COMPLETE);
		CHECK(cs.migrate_failed == 0);
		CHECK(cs.migrate_scanned + cs.free_scanned <=
		      zone->spanned_pages + 2 * pageblock_nr_pages);
		CHECK(check_free_lists() == 0);
		CHECK(buddy_check_consistency() == 0);
	}
	CHECK(after > before);
	CHECK(migrated > 0);
	CHECK(ev(PGMIGRATE_SUCCESS) >= migrated);
	balloon_get_stats(&st);
	CHECK(st.bad_pattern == 0 && st.isolated == 0 && st.pages == 2048);
	CHECK(balloon_check() == 0);
	CHECK(balloon_deflate(~0UL) == 2048);
	CHECK(snapshot_unchanged(&start));	/* every block merged back as it was */
	CHECK(nr_free_pages() == start.free_pages);
	buddy_snapshot_free(&start);
}

/*
 * Unmovable single pages, every other one freed: nothing can move, so a
 * whole-zone run migrates nothing and changes no free block.
 */
BUDDY_TEST(compaction_leaves_unmovable_fragmentation_alone)
{
	struct page *pages[2048];
	struct zone *zone;

	for (unsigned int i = 0; i < ARRAY_SIZE(pages); i++) {
		pages[i] = alloc_pages(GFP_KERNEL, 0);
		CHECK(pages[i] != NULL);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(pages); i += 2)
		__free_pages(pages[i], 0);
	drain_all_pages();
	for_each_populated_zone(zone) {
		unsigned long before = free_pageblocks(zone);
		struct compact_stats cs;

		CHECK(compact_zone_fully(zone, &cs) == COMPACT_COMPLETE);
		CHECK(cs.isolated_migrate == 0 && cs.migrated == 0);
		drain_all_pages();
		CHECK(free_pageblocks(zone) == before);
	}
	for (unsigned int i = 1; i < ARRAY_SIZE(pages); i += 2)
		__free_pages(pages[i], 0);
}

/* ---------------------------------------------------------------- the model */

static u64 mrng(void)
{
	return host_rng();
}

/* Mostly small orders, as real life: 0 half the time, 1 a quarter... and sometimes any. */
static unsigned int random_order(void)
{
	u64 r = mrng();

	if (r % 16 == 0)
		return (r >> 8) % (MAX_PAGE_ORDER + 1);
	return min((unsigned int)__builtin_ctzll((r >> 8) | (1ULL << 40)), (unsigned int)MAX_PAGE_ORDER);
}

static gfp_t random_gfp(void)
{
	static const gfp_t base[] = {
		GFP_KERNEL, GFP_KERNEL, GFP_KERNEL, GFP_ATOMIC, GFP_NOWAIT,
		GFP_KERNEL | __GFP_NORETRY, GFP_KERNEL | __GFP_RETRY_MAYFAIL,
		GFP_NOWAIT | __GFP_MEMALLOC,
	};
	u64 r = mrng();
	gfp_t gfp = base[r % ARRAY_SIZE(base)] | __GFP_NOWARN;

	r >>= 8;
	if (r % 16 == 0)
		gfp |= __GFP_DMA;
	else if (r % 16 == 1)
		gfp |= __GFP_DMA32;
	if ((r >> 4) % 16 == 0)
		gfp |= __GFP_ZERO;
	if ((r >> 8) % 4 == 0)
		gfp |= __GFP_COMP;
	if ((r >> 12) % 16 == 0)
		gfp |= __GFP_THISNODE;
	return gfp;
}

/* The current CPU's node half the time, else any node. */
static int random_nid(void)
{
	u64 r = mrng();

	return r % 2 ? NUMA_NO_NODE : (int)((r >> 8) % nr_node_ids);
}

/*
 * The default machine, with the RAM above 4 GiB + 6 MiB on two more nodes,
 * and a SLIT that puts node 2 nearer to node 0 than node 1 is.
 */
static const struct host_range model_ram[] = {
	{ 0x0, 0x9f000, 0 },
	{ 1 * MiB, 30 * MiB + 0x3000, 0 },
	{ 40 * MiB + 0x800, 0xf900, 0 },
	{ 4 * GiB - 12 * MiB + 0x5000, 18 * MiB - 0x5000, 0 },
	{ 4 * GiB + 6 * MiB, 6 * MiB, 1 },
	{ 4 * GiB + 12 * MiB, 8 * MiB - 0x2000, 2 },
};

/*
 * The page snapshot (mm/page_snapshot.c) on the model's machine, with holes
 * inside zones, three nodes and four CPUs: after random allocations of
 * every order and frees on every CPU, each held block reads as allocated
 * with its order, the free cells of each zone and order are as many blocks
 * as its free list holds, the per-CPU cells as many as the lists' counts,
 * and the frames outside the RAM ranges are holes.  Under ASan, the scan
 * that starts below a range, at an aligned frame, must read only frames
 * that have a struct page.
 */
HOST_TEST(page_snapshot_agrees_with_the_free_lists)
{
	unsigned long nr = 0, pcp = 0, end;
	struct page_snapshot *snap = malloc(sizeof(*snap));
	struct page_cell *cells;
	struct held h = { 0 };
	struct zone *zone;

	buddy_check_failures = 0;
	host_rng_state = 0x5a95;
	host_set_distances(3, three_node_slit);
	host_machine_init(model_ram, ARRAY_SIZE(model_ram), host_default_reserved,
			  host_default_nr_reserved, 4);
	buddy_set_pcp_batch(8);
	for (int i = 0; i < 3000; i++) {
		unsigned int order = host_rng() % 4 ? 0 : host_rng() % (MAX_PAGE_ORDER + 1);
		struct page *page;

		host_set_cpu((unsigned int)(host_rng() % host_nr_cpus));
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN | (host_rng() % 2 ? __GFP_COMP : 0),
				   order);
		if (page)
			hold(&h, page, order);
		if (h.n && host_rng() % 3 == 0) {	/* free a random one, on this CPU */
			unsigned long k = host_rng() % h.n;

			__free_pages(h.pages[k], h.orders[k]);
			h.pages[k] = h.pages[--h.n];
			h.orders[k] = h.orders[h.n];
		}
	}
	end = page_snapshot_end_pfn();
	cells = malloc(end * sizeof(*cells));
	CHECK(page_snapshot_take(snap, 0, end, cells) == 0);

	for (unsigned long k = 0; k < h.n; k++) {
		unsigned long pfn = page_to_pfn(h.pages[k]);

		for (unsigned long i = 0; i < 1UL << h.orders[k]; i++) {
			CHECK(cells[pfn + i].state == PAGE_STATE_ALLOCATED);
			CHECK(cells[pfn + i].order == h.orders[k]);
		}
	}
	for_each_populated_zone(zone) {
		unsigned long blocks[NR_PAGE_ORDERS] = { 0 }, free_cells = 0;

		for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone); pfn++) {
			const struct page_cell *c = &cells[pfn];

			free_cells += c->state == PAGE_STATE_FREE;
			if (c->state == PAGE_STATE_FREE && !(pfn & ((1UL << c->order) - 1)))
				blocks[c->order]++;
		}
		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			CHECK(blocks[o] == zone->free_area[o].nr_free);
		CHECK(free_cells == zone->nr_free);
		for (unsigned int cpu = 0; cpu < host_nr_cpus; cpu++)
			pcp += (unsigned long)per_cpu_ptr(zone->per_cpu_pageset, cpu)->count;
	}
	CHECK(pcp > 0 && snap->count[PAGE_STATE_PCP] == pcp);
	for (unsigned int r = 0; r + 1 < ARRAY_SIZE(model_ram); r++) {
		unsigned long gap = PFN_UP(model_ram[r].base + model_ram[r].size);

		if (gap < PFN_DOWN(model_ram[r + 1].base) && gap < end) {
			CHECK(cells[gap].state == PAGE_STATE_HOLE);
			CHECK(cells[gap].migratetype == MIGRATE_TYPES);
		}
	}
	for (int st = 0; st < NR_PAGE_STATES; st++)
		nr += snap->count[st];
	CHECK(nr == end);
	/* a range that starts inside a block reads as the whole machine's cells */
	for (unsigned long k = 0, done = 0; k < h.n && done < 20; k++) {
		unsigned long start = page_to_pfn(h.pages[k]) + 1, n = min(3000UL, end - start);
		struct page_cell *part;

		if (h.orders[k] < 2)
			continue;
		done++;
		part = malloc(n * sizeof(*part));
		CHECK(page_snapshot_take(snap, start, n, part) == 0);
		CHECK(!memcmp(part, cells + start, n * sizeof(*part)));
		free(part);
	}
	CHECK(buddy_check_failures == 0);
	host_set_cpu(0);
	release_all(&h);
	free(cells);
	free(snap);
}

HOST_TEST(random_model_based_test)
{
	const char *env_seed = getenv("BUDDY_SEED"), *env_ops = getenv("BUDDY_OPS");
	u64 seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x5eed0b0dd1ULL;
	unsigned long ops = env_ops ? strtoul(env_ops, NULL, 0) : 2000000;
	struct bmodel m;
	clock_t t0 = clock();
	unsigned long i;

	printf("    random model test: seed %#llx (BUDDY_SEED), %lu operations (BUDDY_OPS)\n",
	       (unsigned long long)seed, ops);
	buddy_check_failures = 0;
	host_rng_state = seed;
	host_set_distances(3, three_node_slit);
	host_machine_init(model_ram, ARRAY_SIZE(model_ram), host_default_reserved,
			  host_default_nr_reserved, 4);
	for (unsigned int cpu = 0; cpu < host_nr_cpus; cpu++)
		set_cpu_numa_node(cpu, (int)(cpu % nr_node_ids));
	buddy_set_pcp_batch(8);		/* the default machine's zones would have 1 */
	host_printk_quiet = true;
	model_init(&m);
	for (i = 0; i < ops && !buddy_check_failures; i++) {
		/* phases of growth and shrinkage, so memory runs out now and then */
		bool growing = (i / 40000) % 2 == 0;
		u64 r = mrng();
		unsigned int what = r % 1000;

		if (what < (growing ? 600u : 380u)) {
			model_alloc_node(&m, random_nid(), random_gfp(), random_order());
		} else if (what < 985) {
			model_free(&m, r >> 10, (unsigned int)(r >> 40));
		} else if (what < 990) {
			model_alloc_exact(&m, 1 + (r >> 10) % (40 * PAGE_SIZE), random_gfp());
		} else if (what < 994) {
			model_donate(&m, r >> 10, (r >> 50) % 2 ? OWNER_CACHE : OWNER_VICTIM);
		} else if (what < 996) {
			model_bad_free(&m, (unsigned int)(r >> 10), r >> 20);
		} else if (what < 999) {
			host_set_cpu((r >> 10) % host_nr_cpus);
		} else {
			drain_all_pages();
		}
		if (i % 100000 == 0)
			set_page_poisoning(i % 1000000 == 0);	/* poisoning for 100k ops in 1M */
		if (i % 50000 == 0 && buddy_check_consistency())
			break;
	}
	set_page_poisoning(false);
	host_set_cpu(0);
	printf("    %lu ops: %lu allocs (%lu failed), %lu frees, %lu misuses; "
	       "%lu blocks live at the end, %lu OOM kills, %lu reclaim passes\n",
	       i, m.allocs, m.fails, m.frees, m.bad_frees, m.nr_live, ev(OOM_KILL), ev(ALLOCSTALL));
	model_finish(&m);
	host_printk_quiet = false;
	printf("    %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	CHECK(i == ops);
	CHECK(buddy_check_failures == 0);
	if (buddy_check_failures)
		printf("    replay with BUDDY_SEED=%#llx\n", (unsigned long long)seed);
}
