/*
 * tests/kernel/page_alloc_test.h - helpers shared by the page allocator
 * suites (page_alloc_test.c, page_alloc_misuse_test.c,
 * page_alloc_reclaim_test.c): holding many blocks at once, exhausting
 * memory quickly, snapshots of every zone's free lists (and, through
 * test_log.h, reading what the allocator printed).
 *
 * Not a .c file, so it is not a suite of its own.
 */
#ifndef TESTS_KERNEL_PAGE_ALLOC_TEST_H
#define TESTS_KERNEL_PAGE_ALLOC_TEST_H

#include "kunit/test.h"
#include "test_log.h"
#include "mm/slab_internal.h"
#include "mm/page_alloc.h"
#include "mm/mmzone.h"
#include "mm/shrinker.h"
#include "mm/vmstat.h"
#include "mm/internal.h"
#include "kernel/printk.h"
#include "lib/list.h"

/*
 * Blocks a test holds, one list per order, linked through the lru field
 * of the block's first page: the allocator leaves it to the owner while
 * the block is allocated, as Linux does.
 */
struct held_pages {
	struct list_head blocks[NR_PAGE_ORDERS];
	unsigned long nr_pages;
};

static inline void held_init(struct held_pages *h)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		INIT_LIST_HEAD(&h->blocks[o]);
	h->nr_pages = 0;
}

static inline void held_add(struct held_pages *h, struct page *page, unsigned int order)
{
	list_add_tail(&page->lru, &h->blocks[order]);
	h->nr_pages += 1UL << order;
}

/* Allocate a block and hold it; NULL if the allocation failed. */
static inline struct page *held_alloc(struct held_pages *h, gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	if (page)
		held_add(h, page, order);
	return page;
}

/* Stop holding the oldest block of @order (the caller now owns it); NULL if none. */
static inline struct page *held_take(struct held_pages *h, unsigned int order)
{
	struct page *page;

	if (list_empty(&h->blocks[order]))
		return NULL;
	page = list_first_entry(&h->blocks[order], struct page, lru);
	list_del(&page->lru);
	h->nr_pages -= 1UL << order;
	return page;
}

/* Move the oldest block of @order from @from to @to; false if there is none. */
static inline bool held_move(struct held_pages *to, struct held_pages *from, unsigned int order)
{
	struct page *page = held_take(from, order);

	if (page)
		held_add(to, page, order);
	return page;
}

/* Free every held block; returns how many pages that was. */
static inline unsigned long held_free_all(struct held_pages *h)
{
	unsigned long pages = h->nr_pages;

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct page *page;

		while ((page = held_take(h, o)))
			__free_pages(page, o);
	}
	return pages;
}

/*
 * Give every highatomic pageblock with a free block back (the zonelist of
 * GFP_KERNEL reaches every node's zones): a case that counts free pages
 * against a watermark starts from no reserve, whatever earlier high-order
 * atomic allocations kept.
 */
static inline void unreserve_all_highatomic(void)
{
	while (unreserve_highatomic_pageblock(GFP_KERNEL, numa_mem_id(), true))
		;
}

/*
 * Everything the registered shrinkers can give (the slab's empty slabs and
 * cached sheaves) back to the page allocator, and the per-CPU lists
 * drained, as "echo 3 > /proc/sys/vm/drop_caches" does on Linux.  A case
 * that counts free pages across reclaim starts here, so that the reclaim
 * it causes gives back nothing but what the case itself put in a shrinker;
 * and with no highatomic reserve an earlier atomic allocation left, which
 * the watermarks would leave out and the slow path would give back.
 */
static inline void drop_caches(void)
{
	kmem_cache_shrink_all();
	drop_slab();
	drain_all_pages();
	unreserve_all_highatomic();
}

/*
 * Allocate with @gfp until it fails, largest blocks first so that even
 * 5 GiB takes only a few thousand calls.  The last order-0 failure is
 * retried after draining the per-CPU lists, until a failure comes right
 * after a drain: then the per-CPU lists are empty and every zone is
 * below what @gfp may take.  Returns the number of pages taken.
 */
static inline unsigned long held_exhaust(struct held_pages *h, gfp_t gfp)
{
	unsigned long before = h->nr_pages;

	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		while (held_alloc(h, gfp, o))
			;
	}
	for (;;) {
		drain_all_pages();
		if (!held_alloc(h, gfp, 0))
			break;
		while (held_alloc(h, gfp, 0))
			;
	}
	return h->nr_pages - before;
}

/*
 * How many pages GFP_KERNEL can take without reclaim: each zone's free
 * pages above its min watermark and the part it keeps for callers that can
 * only use it (lowmem_reserve), once the per-CPU lists are drained.  On a
 * machine of 16 to 24 MiB this is only a few MiB.
 */
static inline unsigned long pages_available(void)
{
	unsigned long avail = 0;
	struct zone *zone;

	drain_all_pages();
	for_each_populated_zone(zone) {
		unsigned long keep = zone->watermark[WMARK_MIN] + zone->lowmem_reserve[ZONE_NORMAL];
		unsigned long free = READ_ONCE(zone->nr_free);

		if (free > keep)
			avail += free - keep;
	}
	return avail;
}

/*
 * Skip the case unless @pages pages, and their page tables, are available
 * (pages_available()): for a case whose sizes are fixed and that a small
 * machine cannot hold, with the figures in the reason.
 */
static inline void need_free_pages(struct kunit *test, unsigned long pages)
{
	unsigned long need = pages + pages / 256 + 16, avail = pages_available();

	if (need > avail)
		kunit_skip(test, "needs %lu free pages above the watermarks, this machine has %lu",
			   need, avail);
}

/* The largest order of any free block, in any zone, after draining; -1 if none. */
static inline int largest_free_order(void)
{
	struct zone *zone;
	int largest = -1;

	drain_all_pages();
	for_each_populated_zone(zone) {
		for (int o = MAX_PAGE_ORDER; o > largest; o--) {
			if (READ_ONCE(zone->free_area[o].nr_free))
				largest = o;
		}
	}
	return largest;
}

/*
 * Skip the case unless the free lists of @zone (of every zone if NULL) can
 * give @nr[o] blocks of each order o at once, without reclaim and above
 * the low watermark: the largest orders first, a free block not taken
 * counting as two of the order below (the buddy allocator splits it so).
 * On a small machine the few blocks of the largest orders are soon split
 * by pages that other suites keep (page tables, slabs): not a leak.
 */
static inline void need_free_blocks(struct kunit *test, struct zone *zone,
				    const unsigned long nr[NR_PAGE_ORDERS])
{
	unsigned long blocks = 0, pages = 0, above_low = 0;
	int largest = -1;
	struct zone *z;

	drain_all_pages();
	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		unsigned long free = 0;

		for_each_populated_zone(z) {
			if (!zone || z == zone)
				free += READ_ONCE(z->free_area[o].nr_free);
		}
		if (free && largest < 0)
			largest = o;
		blocks = 2 * blocks + free;
		if (blocks < nr[o] && largest < 0)
			kunit_skip(test, "needs %lu free block%s of order %d%s%s, there is none of "
				   "that order or larger", nr[o], nr[o] == 1 ? "" : "s", o,
				   zone ? " in " : "", zone ? zone->name : "");
		if (blocks < nr[o])
			kunit_skip(test, "needs %lu free block%s of order %d%s%s, the free lists "
				   "give %lu once the larger orders are served (largest free block: "
				   "order %d)", nr[o], nr[o] == 1 ? "" : "s", o, zone ? " in " : "",
				   zone ? zone->name : "", blocks, largest);
		blocks -= nr[o];
		pages += nr[o] << o;
	}
	for_each_populated_zone(z) {
		unsigned long keep = z->watermark[WMARK_LOW] + z->lowmem_reserve[ZONE_NORMAL];

		if ((!zone || z == zone) && z->nr_free > keep)
			above_low += z->nr_free - keep;
	}
	if (pages > above_low)
		kunit_skip(test, "needs %lu free pages above the low watermark%s%s, there are %lu",
			   pages, zone ? " in " : "", zone ? zone->name : "", above_low);
}

/* Every zone's free_area[].nr_free, as /proc/buddyinfo shows them. */
struct buddy_snapshot {
	unsigned long nr_free[MAX_NUMNODES][MAX_NR_ZONES][NR_PAGE_ORDERS];
};

static inline void buddy_snapshot_take(struct buddy_snapshot *s)
{
	int nid;

	memset(s, 0, sizeof(*s));
	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			for (int o = 0; o < NR_PAGE_ORDERS; o++)
				s->nr_free[nid][z][o] = READ_ONCE(zone->free_area[o].nr_free);
		}
	}
}

/* Expect @now to equal @then, naming the first zone and order that differ. */
static inline void expect_buddy_snapshot_eq(struct kunit *test, const struct buddy_snapshot *then,
					    const struct buddy_snapshot *now)
{
	int nid;

	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			for (int o = 0; o < NR_PAGE_ORDERS; o++) {
				if (then->nr_free[nid][z][o] == now->nr_free[nid][z][o])
					continue;
				KUNIT_FAIL(test,
					   "buddyinfo differs: node %d zone %s order %d: %lu then, %lu now",
					   nid, NODE_DATA(nid)->node_zones[z].name, o,
					   then->nr_free[nid][z][o], now->nr_free[nid][z][o]);
				return;
			}
		}
	}
}

/*
 * The highest populated zone of this CPU's memory node (numa_mem_id(): its
 * own node, or the nearest with memory if it has none): where this CPU's
 * GFP_KERNEL allocations look first.
 */
static inline struct zone *top_zone(void)
{
	pg_data_t *pgdat = NODE_DATA(numa_mem_id());

	for (int z = MAX_NR_ZONES - 1; z >= 0; z--) {
		if (zone_populated(&pgdat->node_zones[z]))
			return &pgdat->node_zones[z];
	}
	return NULL;
}

#endif
