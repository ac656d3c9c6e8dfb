/*
 * tests/kernel/compaction_test.c - movable pages, migration, the balloon
 * and compaction (mm/migrate.c, mm/balloon.c, mm/compaction.c), on the
 * real machine.
 *
 * Proves that a migrated page keeps its contents and its owner is told;
 * that a migration the owner refuses puts the page back where it was, and
 * -EAGAIN is retried only in the sync modes; that compacting a zone whose
 * free memory a balloon scattered (every other page given back) makes a
 * free 2 MiB block that was not there, moves the counters, breaks no
 * balloon page and leaves the free lists consistent; that direct
 * compaction (the allocator's slow path) makes an order-9 block for a
 * movable allocation; that a run ends where the scanners meet, on every
 * zone; that unmovable fragmentation is not compacted and a zone out of
 * memory is skipped; and that deferral counts, skips and resets as
 * Linux's.  Every page back after each case (nothing leaked).
 */
#include "page_alloc_test.h"
#include "mm/balloon.h"
#include "mm/compaction.h"
#include "mm/migrate.h"
#include "mm/internal.h"
#include "lib/errno.h"

struct compaction_ctx {
	struct held_pages held;		/* what keeps memory short */
	struct held_pages frag;		/* unmovable single pages, every other one freed */
	unsigned long free_before;
	struct zone saved_zone;		/* the compact_* fields of the zone a case defers */
	struct zone *deferred_zone;
};

static struct compaction_ctx cctx;

static int compaction_init(struct kunit *test)
{
	struct balloon_stats st;

	memset(&cctx, 0, sizeof(cctx));
	held_init(&cctx.held);
	held_init(&cctx.frag);
	balloon_get_stats(&st);
	KUNIT_ASSERT_EQ(test, st.pages, 0);
	drop_caches();
	cctx.free_before = nr_free_pages();
	test->priv = &cctx;
	return 0;
}

static void compaction_exit(struct kunit *test)
{
	struct balloon_stats st;

	balloon_set_migrate_error(0);
	balloon_deflate(~0UL);
	held_free_all(&cctx.frag);
	held_free_all(&cctx.held);
	drain_all_pages();
	if (cctx.deferred_zone) {
		cctx.deferred_zone->compact_considered = cctx.saved_zone.compact_considered;
		cctx.deferred_zone->compact_defer_shift = cctx.saved_zone.compact_defer_shift;
		cctx.deferred_zone->compact_order_failed = cctx.saved_zone.compact_order_failed;
	}
	balloon_get_stats(&st);
	KUNIT_EXPECT_EQ(test, st.pages, 0);
	KUNIT_EXPECT_EQ(test, st.isolated, 0);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), cctx.free_before);
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0);
}

/* ---------------------------------------------------------------- a test owner */

/* Movable pages of the test's own: each counts what the owner was told. */
static DEFINE_SPINLOCK(towner_lock);
static LIST_HEAD(towner_pages);
static unsigned int towner_isolated, towner_migrate_calls, towner_migrated, towner_putback;
static int towner_error;
static const struct movable_operations towner_mops;

static bool towner_isolate(struct page *page, enum migrate_mode mode)
{
	bool ok;

	(void)mode;
	spin_lock(&towner_lock);
	ok = PageMovable(page) && !PageIsolated(page) && page->lru.next;
	if (ok) {
		list_del(&page->lru);
		towner_isolated++;
	}
	spin_unlock(&towner_lock);
	return ok;
}

static int towner_migrate(struct page *dst, struct page *src, enum migrate_mode mode)
{
	(void)src;
	(void)mode;
	towner_migrate_calls++;
	if (towner_error)
		return towner_error;
	spin_lock(&towner_lock);
	__SetPageMovable(dst, &towner_mops);
	list_add_tail(&dst->lru, &towner_pages);
	towner_migrated++;
	spin_unlock(&towner_lock);
	return MIGRATEPAGE_SUCCESS;
}

static void towner_putback_page(struct page *page)
{
	spin_lock(&towner_lock);
	list_add_tail(&page->lru, &towner_pages);
	towner_putback++;
	spin_unlock(&towner_lock);
}

static const struct movable_operations towner_mops = {
	.isolate_page = towner_isolate,
	.migrate_page = towner_migrate,
	.putback_page = towner_putback_page,
};

#define TOWNER_PAGES	8

static unsigned long towner_word(unsigned int page, unsigned int word)
{
	return 0x5eed0000UL * (page + 1) + word;
}

/* @n movable pages of the test owner, each filled with its pattern; their pfns in @pfns. */
static void towner_fill(struct kunit *test, struct page **pages, unsigned long *pfns)
{
	INIT_LIST_HEAD(&towner_pages);
	towner_isolated = towner_migrate_calls = towner_migrated = towner_putback = 0;
	towner_error = 0;
	for (unsigned int i = 0; i < TOWNER_PAGES; i++) {
		unsigned long *w;

		pages[i] = alloc_page(GFP_KERNEL | __GFP_MOVABLE);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		w = page_address(pages[i]);
		for (unsigned int j = 0; j < PAGE_SIZE / sizeof(*w); j++)
			w[j] = towner_word(i, j);
		__SetPageMovable(pages[i], &towner_mops);
		list_add_tail(&pages[i]->lru, &towner_pages);
		pfns[i] = page_to_pfn(pages[i]);
	}
}

/* Which of the test owner's patterns @page holds whole, or -1. */
static int towner_pattern(struct page *page)
{
	const unsigned long *w = page_address(page);
	unsigned int i = (unsigned int)(w[0] / 0x5eed0000UL) - 1;

	if (i >= TOWNER_PAGES)
		return -1;
	for (unsigned int j = 0; j < PAGE_SIZE / sizeof(*w); j++) {
		if (w[j] != towner_word(i, j))
			return -1;
	}
	return (int)i;
}

static void towner_free_all(void)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &towner_pages, lru) {
		list_del(&page->lru);
		__ClearPageMovable(page);
		__free_page(page);
	}
}

static void isolate_all(struct kunit *test, struct page **pages, struct list_head *list)
{
	for (unsigned int i = 0; i < TOWNER_PAGES; i++) {
		KUNIT_ASSERT_TRUE(test, isolate_movable_page(pages[i], MIGRATE_SYNC));
		KUNIT_EXPECT_TRUE(test, PageIsolated(pages[i]));
		/* isolated once: a second scanner cannot take it */
		KUNIT_EXPECT_FALSE(test, isolate_movable_page(pages[i], MIGRATE_SYNC));
		list_add_tail(&pages[i]->lru, list);
	}
	KUNIT_EXPECT_EQ(test, towner_isolated, TOWNER_PAGES);
}

static struct page *new_target(struct page *src, unsigned long calls)
{
	(void)src;
	(*(unsigned int *)calls)++;
	return alloc_page(GFP_KERNEL | __GFP_MOVABLE);
}

/* ---------------------------------------------------------------- migration */

static void migrated_page_keeps_contents_and_owner_is_told(struct kunit *test)
{
	struct page *pages[TOWNER_PAGES], *page, *plain;
	unsigned long pfns[TOWNER_PAGES], success = global_vm_event(PGMIGRATE_SUCCESS);
	unsigned int nr = 0, targets = 0, seen = 0;
	LIST_HEAD(list);

	towner_fill(test, pages, pfns);
	plain = alloc_page(GFP_KERNEL | __GFP_MOVABLE);	/* movable kind, but not marked */
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_EXPECT_FALSE(test, isolate_movable_page(plain, MIGRATE_SYNC));
	__free_page(plain);
	isolate_all(test, pages, &list);
	KUNIT_EXPECT_EQ(test, migrate_pages(&list, new_target, NULL, (unsigned long)&targets,
					    MIGRATE_SYNC, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, TOWNER_PAGES);
	KUNIT_EXPECT_EQ(test, targets, TOWNER_PAGES);
	KUNIT_EXPECT_TRUE(test, list_empty(&list));
	KUNIT_EXPECT_EQ(test, towner_migrated, TOWNER_PAGES);
	KUNIT_EXPECT_EQ(test, global_vm_event(PGMIGRATE_SUCCESS) - success, TOWNER_PAGES);
	list_for_each_entry(page, &towner_pages, lru) {
		int i = towner_pattern(page);

		KUNIT_EXPECT_GE_MSG(test, i, 0, "page at pfn %#lx lost its contents",
				    page_to_pfn(page));
		if (i >= 0)
			KUNIT_EXPECT_NE(test, page_to_pfn(page), pfns[i]);	/* a new frame */
		KUNIT_EXPECT_TRUE(test, PageMovable(page) && !PageIsolated(page));
		seen++;
	}
	KUNIT_EXPECT_EQ(test, seen, TOWNER_PAGES);
	towner_free_all();
}

static void migration_failure_puts_the_page_back(struct kunit *test)
{
	struct page *pages[TOWNER_PAGES], *page;
	unsigned long pfns[TOWNER_PAGES], fail = global_vm_event(PGMIGRATE_FAIL), free;
	unsigned int nr = 1, targets = 0, back = 0;
	LIST_HEAD(list);

	towner_fill(test, pages, pfns);
	isolate_all(test, pages, &list);
	towner_error = -EBUSY;
	drain_all_pages();
	free = nr_free_pages();
	KUNIT_EXPECT_EQ(test, migrate_pages(&list, new_target, NULL, (unsigned long)&targets,
					    MIGRATE_SYNC, &nr), TOWNER_PAGES);
	KUNIT_EXPECT_EQ(test, nr, 0);
	KUNIT_EXPECT_EQ(test, towner_migrate_calls, TOWNER_PAGES);	/* -EBUSY: not retried */
	KUNIT_EXPECT_EQ(test, global_vm_event(PGMIGRATE_FAIL) - fail, TOWNER_PAGES);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);	/* every unused target freed */
	putback_movable_pages(&list);
	KUNIT_EXPECT_TRUE(test, list_empty(&list));
	KUNIT_EXPECT_EQ(test, towner_putback, TOWNER_PAGES);
	list_for_each_entry(page, &towner_pages, lru) {
		int i = towner_pattern(page);

		KUNIT_EXPECT_TRUE(test, i >= 0 && page_to_pfn(page) == pfns[i]);
		KUNIT_EXPECT_TRUE(test, PageMovable(page) && !PageIsolated(page));
		back++;
	}
	KUNIT_EXPECT_EQ(test, back, TOWNER_PAGES);

	/* -EAGAIN: the sync modes retry (10 passes, as Linux), async tries once */
	towner_isolated = 0;
	isolate_all(test, pages, &list);
	towner_error = -EAGAIN;
	towner_migrate_calls = 0;
	KUNIT_EXPECT_EQ(test, migrate_pages(&list, new_target, NULL, (unsigned long)&targets,
					    MIGRATE_SYNC_LIGHT, &nr), TOWNER_PAGES);
	KUNIT_EXPECT_EQ(test, towner_migrate_calls, 10 * TOWNER_PAGES);
	towner_migrate_calls = 0;
	KUNIT_EXPECT_EQ(test, migrate_pages(&list, new_target, NULL, (unsigned long)&targets,
					    MIGRATE_ASYNC, &nr), TOWNER_PAGES);
	KUNIT_EXPECT_EQ(test, towner_migrate_calls, TOWNER_PAGES);
	putback_movable_pages(&list);
	towner_free_all();
}

/* ---------------------------------------------------------------- a fragmented zone */

/* Free 2 MiB blocks in @zone, in pageblocks */
static unsigned long free_pageblocks(struct zone *zone)
{
	unsigned long n = 0;

	drain_all_pages();
	for (unsigned int o = pageblock_order; o < NR_PAGE_ORDERS; o++)
		n += READ_ONCE(zone->free_area[o].nr_free) << (o - pageblock_order);
	return n;
}

/*
 * Hold all of memory but a pool of order-10 blocks of @zone, enough that
 * half of them free keeps the zone above its low watermark plus what a
 * costly compaction needs (compaction_suitable()).  Returns the pool's
 * pages, all free now; skips the case if the zone has too few such blocks.
 */
static unsigned long leave_a_pool(struct kunit *test, struct zone *zone)
{
	unsigned long gap = zone->watermark[WMARK_LOW] - zone->watermark[WMARK_MIN] +
			    (2UL << pageblock_order) + pageblock_nr_pages;
	unsigned long blocks = max(4UL, DIV_ROUND_UP(2 * gap, 1UL << MAX_PAGE_ORDER) + 1);
	struct held_pages in_zone;
	unsigned long freed = 0;
	struct page *page;

	need_free_pages(test, (blocks + 2) << MAX_PAGE_ORDER);
	held_exhaust(&cctx.held, __GFP_MOVABLE | __GFP_NOWARN);
	held_init(&in_zone);
	while ((page = held_take(&cctx.held, MAX_PAGE_ORDER))) {
		if (page_zone(page) == zone && freed < blocks) {
			__free_pages(page, MAX_PAGE_ORDER);
			freed++;
		} else {
			held_add(&in_zone, page, MAX_PAGE_ORDER);
		}
	}
	while (held_move(&cctx.held, &in_zone, MAX_PAGE_ORDER))
		;
	if (freed < blocks)
		kunit_skip(test, "needs %lu free 4 MiB blocks in zone %s, it had %lu", blocks,
			   zone->name, freed);
	drain_all_pages();
	return freed << MAX_PAGE_ORDER;
}

/* The pool into the balloon, then every other balloon page back: free memory scattered. */
static void balloon_fragment(struct kunit *test, unsigned long pool)
{
	unsigned long got = balloon_inflate(pool);

	KUNIT_ASSERT_GE(test, got, pool / 2);
	KUNIT_EXPECT_GE(test, balloon_deflate_alternate(), got / 2);
	drain_all_pages();
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0);
}

static void balloon_fragmentation_is_compacted_into_a_pageblock(struct kunit *test)
{
	struct zone *zone = top_zone();
	unsigned long before, after, ev[NR_VM_EVENT_ITEMS], now[NR_VM_EVENT_ITEMS];
	struct balloon_stats b0, b1;
	struct compact_stats st;
	enum compact_result ret;

	balloon_fragment(test, leave_a_pool(test, zone));
	before = free_pageblocks(zone);
	balloon_get_stats(&b0);
	all_vm_events(ev);
	ret = compact_zone_fully(zone, &st);
	all_vm_events(now);
	after = free_pageblocks(zone);
	balloon_get_stats(&b1);
	kunit_info(test, "zone %s: %s, %lu + %lu pages scanned, %lu + %lu isolated, %lu migrated; "
		   "free 2 MiB blocks %lu -> %lu", zone->name, compact_result_name(ret),
		   st.migrate_scanned, st.free_scanned, st.isolated_migrate, st.isolated_free,
		   st.migrated, before, after);
	KUNIT_EXPECT_EQ(test, ret, COMPACT_COMPLETE);
	KUNIT_EXPECT_GT(test, after, before);
	KUNIT_EXPECT_GT(test, st.migrated, 0);
	KUNIT_EXPECT_EQ(test, st.migrate_failed, 0);
	KUNIT_EXPECT_EQ(test, b1.migrated - b0.migrated, st.migrated);
	KUNIT_EXPECT_EQ(test, b1.bad_pattern, b0.bad_pattern);	/* every copy intact */
	KUNIT_EXPECT_EQ(test, b1.isolated, 0);
	KUNIT_EXPECT_EQ(test, balloon_check(), 0);
	KUNIT_EXPECT_EQ(test, now[COMPACTMIGRATE_SCANNED] - ev[COMPACTMIGRATE_SCANNED],
			st.migrate_scanned);
	KUNIT_EXPECT_EQ(test, now[COMPACTFREE_SCANNED] - ev[COMPACTFREE_SCANNED], st.free_scanned);
	KUNIT_EXPECT_EQ(test, now[COMPACTISOLATED] - ev[COMPACTISOLATED],
			st.isolated_migrate + st.isolated_free);
	KUNIT_EXPECT_EQ(test, now[PGMIGRATE_SUCCESS] - ev[PGMIGRATE_SUCCESS], st.migrated);
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0);
}

/*
 * The allocator's slow path compacts for a costly order before it
 * reclaims: with no free 2 MiB block but scattered free memory around
 * movable pages, an order-9 movable allocation gets its block from
 * compaction (compact_stall and compact_success move).
 */
static void direct_compaction_serves_a_costly_order(struct kunit *test)
{
	struct zone *zone = top_zone();
	unsigned long stall = global_vm_event(COMPACTSTALL);
	unsigned long success = global_vm_event(COMPACTSUCCESS);
	struct page *page;

	balloon_fragment(test, leave_a_pool(test, zone));
	/* the 2 MiB blocks left free under the watermark, held: only compaction can help */
	while (held_alloc(&cctx.held, __GFP_MOVABLE | __GFP_NOWARN | __GFP_HIGH, pageblock_order))
		;
	if (free_pageblocks(zone))
		kunit_skip(test, "zone %s keeps %lu free 2 MiB blocks below its watermark",
			   zone->name, free_pageblocks(zone));
	stall = global_vm_event(COMPACTSTALL);
	success = global_vm_event(COMPACTSUCCESS);
	page = held_alloc(&cctx.held, GFP_KERNEL | __GFP_MOVABLE | __GFP_NOWARN, pageblock_order);
	KUNIT_EXPECT_NOT_NULL(test, page);
	KUNIT_EXPECT_GE(test, global_vm_event(COMPACTSTALL) - stall, 1);
	KUNIT_EXPECT_GE(test, global_vm_event(COMPACTSUCCESS) - success, 1);
	KUNIT_EXPECT_EQ(test, balloon_check(), 0);
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0);
}

/* ---------------------------------------------------------------- bounds and refusals */

/*
 * Every populated zone compacted whole, twice: each run ends where the
 * scanners meet, having scanned no page twice (the two scanners' counts
 * add up to the zone's span at most, plus the pageblock where they met).
 */
static void compaction_ends_where_the_scanners_meet(struct kunit *test)
{
	struct zone *zone;

	for (int round = 0; round < 2; round++) {
		for_each_populated_zone(zone) {
			struct compact_stats st;
			enum compact_result ret = compact_zone_fully(zone, &st);

			KUNIT_EXPECT_TRUE_MSG(test, ret == COMPACT_COMPLETE ||
					      ret == COMPACT_CONTENDED, "zone %s: %s", zone->name,
					      compact_result_name(ret));
			/* one pass: together they cover the zone, each page once */
			KUNIT_EXPECT_LE_MSG(test, st.migrate_scanned + st.free_scanned,
					    zone->spanned_pages + 2 * pageblock_nr_pages,
					    "zone %s", zone->name);
			KUNIT_EXPECT_GE_MSG(test, st.migrate_scanned + st.free_scanned +
					    2 * pageblock_nr_pages, zone->spanned_pages,
					    "zone %s", zone->name);
			KUNIT_EXPECT_EQ(test, check_free_lists(), 0);
		}
	}
}

/*
 * Single unmovable pages, every other one freed: nothing there can move,
 * so compaction migrates nothing and makes no block.  Sync direct
 * compaction then fails (COMPACT_COMPLETE) and defers the zone; the next
 * attempt is COMPACT_DEFERRED.  With memory exhausted it is COMPACT_SKIPPED.
 */
static void unmovable_fragmentation_is_not_compacted(struct kunit *test)
{
	struct zone *zone = top_zone();
	int idx = (int)(zone - NODE_DATA(zone->node)->node_zones);
	const struct zoneref zrefs[2] = { { zone, idx }, { NULL, 0 } };	/* this zone only */
	unsigned long pool = leave_a_pool(test, zone), before, stall;
	struct compact_stats st;
	struct page *page;
	bool odd = false;

	cctx.saved_zone = *zone;
	cctx.deferred_zone = zone;
	zone->compact_considered = zone->compact_defer_shift = 0;
	zone->compact_order_failed = MAX_PAGE_ORDER + 1;	/* no order failed yet */
	for (unsigned long i = 0; i < pool; i++) {
		page = alloc_page(__GFP_NOWARN);
		if (!page)
			break;
		if ((odd = !odd))
			held_add(&cctx.frag, page, 0);
		else
			__free_page(page);
	}
	before = free_pageblocks(zone);
	KUNIT_EXPECT_EQ(test, compact_zone_fully(zone, &st), COMPACT_COMPLETE);
	KUNIT_EXPECT_EQ(test, st.isolated_migrate, 0);
	KUNIT_EXPECT_EQ(test, st.migrated, 0);
	KUNIT_EXPECT_EQ(test, free_pageblocks(zone), before);
	KUNIT_EXPECT_EQ(test, check_free_lists(), 0);
	if (!before && compaction_suitable(zone, pageblock_order, idx)) {
		KUNIT_EXPECT_EQ(test, try_to_compact_pages(GFP_KERNEL, pageblock_order,
							   ALLOC_WMARK_LOW, zrefs, idx,
							   COMPACT_PRIO_SYNC_LIGHT), COMPACT_COMPLETE);
		KUNIT_EXPECT_EQ(test, zone->compact_defer_shift, 1);
		KUNIT_EXPECT_EQ(test, zone->compact_order_failed, pageblock_order);
		KUNIT_EXPECT_EQ(test, try_to_compact_pages(GFP_KERNEL, pageblock_order,
							   ALLOC_WMARK_LOW, zrefs, idx,
							   COMPACT_PRIO_SYNC_LIGHT), COMPACT_DEFERRED);
	}
	/* out of memory: nothing to migrate into, compaction is skipped and not counted */
	held_exhaust(&cctx.held, __GFP_MOVABLE | __GFP_NOWARN);
	KUNIT_EXPECT_FALSE(test, compaction_suitable(zone, pageblock_order, idx));
	stall = global_vm_event(COMPACTSTALL);
	KUNIT_EXPECT_EQ(test, try_to_compact_pages(GFP_KERNEL, pageblock_order, ALLOC_WMARK_LOW,
						   zrefs, idx, COMPACT_PRIO_SYNC_FULL),
			COMPACT_SKIPPED);
	KUNIT_EXPECT_NULL(test, held_alloc(&cctx.held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN,
					   pageblock_order));
	KUNIT_EXPECT_EQ(test, global_vm_event(COMPACTSTALL), stall);
	/* without __GFP_IO (GFP_NOIO) compaction is not allowed at all */
	held_free_all(&cctx.held);
	KUNIT_EXPECT_EQ(test, try_to_compact_pages(GFP_NOIO, pageblock_order, ALLOC_WMARK_LOW,
						   zrefs, idx, COMPACT_PRIO_SYNC_FULL),
			COMPACT_SKIPPED);
}

/* ---------------------------------------------------------------- deferral and the index */

static void deferral_counts_skips_and_resets(struct kunit *test)
{
	struct zone z = { .name = "test" };
	unsigned int skipped;

	/* a zone starts with compact_order_failed 0, every order "failed", as Linux's */
	defer_compaction(&z, 9);
	KUNIT_EXPECT_EQ(test, z.compact_order_failed, 0);
	KUNIT_EXPECT_TRUE(test, compaction_deferred(&z, 3));
	compaction_defer_reset(&z, 9, true);	/* a success: orders up to 9 are fine */
	KUNIT_EXPECT_EQ(test, z.compact_order_failed, 10);
	KUNIT_EXPECT_FALSE(test, compaction_deferred(&z, 9));	/* nothing deferred */
	for (unsigned int shift = 1; shift <= COMPACT_MAX_DEFER_SHIFT + 2; shift++) {
		defer_compaction(&z, 9);
		KUNIT_EXPECT_EQ(test, z.compact_order_failed, 9);
		for (skipped = 0; compaction_deferred(&z, 9) && skipped < 200; skipped++)
			;
		/* 2^shift - 1 attempts skipped, then one goes ahead; the shift stops at 6 */
		KUNIT_EXPECT_EQ_MSG(test, skipped, (1U << min(shift, COMPACT_MAX_DEFER_SHIFT)) - 1,
				    "after %u failures", shift);
	}
	KUNIT_EXPECT_EQ(test, z.compact_defer_shift, COMPACT_MAX_DEFER_SHIFT);
	KUNIT_EXPECT_TRUE(test, compaction_restarting(&z, 9));
	/* smaller orders than the one that failed are never deferred */
	KUNIT_EXPECT_FALSE(test, compaction_deferred(&z, 8));
	/* a success that did not give the allocation its page: the failed order moves up only */
	compaction_defer_reset(&z, 9, false);
	KUNIT_EXPECT_EQ(test, z.compact_order_failed, 10);
	KUNIT_EXPECT_EQ(test, z.compact_defer_shift, COMPACT_MAX_DEFER_SHIFT);
	KUNIT_EXPECT_FALSE(test, compaction_deferred(&z, 9));
	defer_compaction(&z, 9);
	compaction_defer_reset(&z, 9, true);
	KUNIT_EXPECT_EQ(test, z.compact_defer_shift, 0);
	KUNIT_EXPECT_EQ(test, z.compact_considered, 0);
	KUNIT_EXPECT_FALSE(test, compaction_deferred(&z, 9));
	KUNIT_EXPECT_FALSE(test, compaction_restarting(&z, 9));
}

/* Linux's formula on free lists made up by hand. */
static void fragmentation_index_is_linux_formula(struct kunit *test)
{
	struct zone z = { .name = "test" };

	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, 9), 0);	/* nothing free */
	z.free_area[0].nr_free = 1000;				/* 1000 single pages */
	/* 1000 - (1000 + 1000 * 1000 / 512) / 1000 = 1000 - 2 */
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, 9), 998);
	z.free_area[0].nr_free = 0;
	z.free_area[8].nr_free = 1;				/* one block of 256 pages */
	/* 1000 - (1000 + 256 * 1000 / 512) / 1: below 0, too little memory in a big block */
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, 9), 1000 - (1000 + 500));
	z.free_area[9].nr_free = 1;				/* a block that fits */
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, 9), -1000);
	KUNIT_EXPECT_EQ(test, sysctl_extfrag_threshold, 500);
}

/* @zone's index in its node, as a highest_zoneidx */
static int zone_index(struct zone *zone)
{
	return (int)(zone - NODE_DATA(zone->node)->node_zones);
}

/*
 * kcompactd (mm/kcompactd.c) on demand: woken for an order compaction could
 * make, it compacts in the background (when flushed here), counts
 * compact_daemon_wake, and makes the 2 MiB blocks a balloon's scattered
 * free memory hid; with proactive compaction off, a wakeup for order 0
 * queues nothing.
 */
static void kcompactd_compacts_when_woken(struct kunit *test)
{
	struct zone *zone = top_zone();
	pg_data_t *pgdat = NODE_DATA(zone->node);
	unsigned int saved = sysctl_compaction_proactiveness;
	unsigned long wakes, migrated, before, after;

	balloon_fragment(test, leave_a_pool(test, zone));
	/* the 2 MiB blocks left free under the watermark, held: only compaction can help */
	while (held_alloc(&cctx.held, __GFP_MOVABLE | __GFP_NOWARN | __GFP_HIGH, pageblock_order))
		;
	kcompactd_flush();		/* whatever the set-up's allocations woke */
	if (free_pageblocks(zone))
		kunit_skip(test, "zone %s keeps %lu free 2 MiB blocks below its watermark",
			   zone->name, free_pageblocks(zone));
	sysctl_compaction_proactiveness = 0;
	wakes = global_vm_event(COMPACTDAEMON_WAKE);
	migrated = global_vm_event(PGMIGRATE_SUCCESS);
	before = free_pageblocks(zone);
	wakeup_kcompactd(pgdat, pageblock_order, zone_index(zone));
	kcompactd_flush();
	after = free_pageblocks(zone);
	kunit_info(test, "zone %s: free 2 MiB blocks %lu -> %lu, %lu pages migrated", zone->name,
		   before, after, global_vm_event(PGMIGRATE_SUCCESS) - migrated);
	KUNIT_EXPECT_EQ(test, global_vm_event(COMPACTDAEMON_WAKE) - wakes, 1);
	KUNIT_EXPECT_GT(test, global_vm_event(PGMIGRATE_SUCCESS), migrated);
	KUNIT_EXPECT_GT(test, after, before);
	KUNIT_EXPECT_EQ(test, balloon_check(), 0);
	wakes = global_vm_event(COMPACTDAEMON_WAKE);
	wakeup_kcompactd(pgdat, 0, zone_index(zone));
	kcompactd_flush();
	KUNIT_EXPECT_EQ(test, global_vm_event(COMPACTDAEMON_WAKE), wakes);
	sysctl_compaction_proactiveness = saved;
}

/*
 * Proactive compaction (compaction_proactiveness, Linux's default 20): a
 * node whose fragmentation score (free memory outside 2 MiB blocks, in
 * percent, weighted by zone size) is above 100 - 20 + 10 is compacted when
 * kcompactd runs, even with no order asked for, and its score falls; at 0
 * it is left alone.
 */
static void proactive_compaction_follows_the_score(struct kunit *test)
{
	struct zone *zone = top_zone();
	pg_data_t *pgdat = NODE_DATA(zone->node);
	unsigned int saved = sysctl_compaction_proactiveness, score, after;
	unsigned long wakes, migrated;

	balloon_fragment(test, leave_a_pool(test, zone));
	kcompactd_flush();
	score = fragmentation_score_node(pgdat);
	if (score <= 90)
		kunit_skip(test, "node %d's score is %u, not above 90", pgdat->node_id, score);
	sysctl_compaction_proactiveness = 0;
	wakes = global_vm_event(COMPACTDAEMON_WAKE);
	wakeup_kcompactd(pgdat, 0, zone_index(zone));
	kcompactd_flush();
	KUNIT_EXPECT_EQ(test, global_vm_event(COMPACTDAEMON_WAKE), wakes);
	sysctl_compaction_proactiveness = 20;
	migrated = global_vm_event(PGMIGRATE_SUCCESS);
	wakeup_kcompactd(pgdat, 0, zone_index(zone));
	kcompactd_flush();
	after = fragmentation_score_node(pgdat);
	sysctl_compaction_proactiveness = saved;
	kunit_info(test, "node %d: score %u -> %u, %lu pages migrated", pgdat->node_id, score,
		   after, global_vm_event(PGMIGRATE_SUCCESS) - migrated);
	/* this node's, and another node's if kswapd ran there meanwhile */
	KUNIT_EXPECT_GE(test, global_vm_event(COMPACTDAEMON_WAKE) - wakes, 1);
	KUNIT_EXPECT_GT(test, global_vm_event(PGMIGRATE_SUCCESS), migrated);
	KUNIT_EXPECT_LT(test, after, score);
	KUNIT_EXPECT_EQ(test, balloon_check(), 0);
}

static struct kunit_case compaction_cases[] = {
	KUNIT_CASE(migrated_page_keeps_contents_and_owner_is_told),
	KUNIT_CASE(migration_failure_puts_the_page_back),
	KUNIT_CASE(balloon_fragmentation_is_compacted_into_a_pageblock),
	KUNIT_CASE(direct_compaction_serves_a_costly_order),
	KUNIT_CASE(compaction_ends_where_the_scanners_meet),
	KUNIT_CASE(unmovable_fragmentation_is_not_compacted),
	KUNIT_CASE(deferral_counts_skips_and_resets),
	KUNIT_CASE(fragmentation_index_is_linux_formula),
	KUNIT_CASE(kcompactd_compacts_when_woken),
	KUNIT_CASE(proactive_compaction_follows_the_score),
	{}
};

static struct kunit_suite compaction_suite = {
	.name = "compaction",
	.init = compaction_init,
	.exit = compaction_exit,
	.test_cases = compaction_cases,
	.strict = true,
};
kunit_test_suite(compaction_suite);
