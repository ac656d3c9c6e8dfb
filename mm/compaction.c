/*
 * mm/compaction.c - making large free blocks out of scattered free pages
 * by moving movable pages (Linux's mm/compaction.c, docs/page_alloc.md
 * "Compaction").
 *
 * Two scanners walk a zone towards each other.  The migration scanner goes
 * up from the zone's start and isolates movable pages (mm/migrate.h); the
 * free scanner goes down from the zone's end, pageblock by pageblock, and
 * isolates free pages (split to order 0) of movable pageblocks as targets.
 * migrate_pages() moves each isolated page from low to high, so the freed
 * frames gather low and merge in the buddy lists.  The run ends when a
 * block of the order wanted is free (COMPACT_SUCCESS) or the scanners meet
 * (COMPACT_COMPLETE): each only moves forward, so a run is bounded by one
 * pass over the zone.
 *
 * Around it, as in Linux: compaction_suitable() says whether a run can help
 * (enough free pages to migrate into; for costly orders, a failure due to
 * fragmentation: fragmentation_index()); a zone where sync compaction
 * failed is skipped for the next 1, 2, 4 ... 64 attempts at that order or
 * above (defer_compaction()); try_to_compact_pages() is what the page
 * allocator's slow path calls (direct compaction).  Not here: kcompactd,
 * proactive compaction, the cached scanner positions and skip bits, and
 * capturing the page as it is freed (Linux's capture_control).
 */
#include "mm/compaction.h"
#include "mm/migrate.h"
#include "mm/internal.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/errno.h"

int sysctl_extfrag_threshold = 500;

/* One run over one zone (Linux's struct compact_control) */
struct compact_control {
	struct list_head freepages;	/* order-0 targets the free scanner isolated */
	struct list_head migratepages;	/* movable pages the migration scanner isolated */
	unsigned long nr_freepages, nr_migratepages;
	unsigned long free_pfn;		/* the free scanner's next pageblock (going down) */
	unsigned long migrate_pfn;	/* the migration scanner's next pfn (going up) */
	struct zone *zone;
	int order;			/* the order wanted; -1: all of the zone (compact_memory) */
	int migratetype;		/* the allocation's (gfp_migratetype()) */
	unsigned int alloc_flags;
	int highest_zoneidx;
	enum migrate_mode mode;
	bool direct_compaction;		/* for an allocation, not compact_memory */
	bool whole_zone;		/* started at the zone's edges */
	struct compact_stats stats;
};

static unsigned long pageblock_start_pfn(unsigned long pfn)
{
	return ALIGN_DOWN(pfn, pageblock_nr_pages);
}

static unsigned long pageblock_end_pfn(unsigned long pfn)
{
	return ALIGN(pfn + 1, pageblock_nr_pages);
}

/* ---------------------------------------------------------------- suitability */

/* The pages a run at @order must have free to migrate into (Linux's compact_gap()) */
static unsigned long compact_gap(unsigned int order)
{
	return 2UL << order;
}

/**
 * compaction_suitable - can compacting @zone make a block of @order?
 * @zone: the zone
 * @order: the order wanted
 * @highest_zoneidx: the highest zone the allocation may use (for lowmem_reserve)
 *
 * As Linux 6.12: the zone must keep its watermark (low for costly orders,
 * min for the others) plus twice the block free, to migrate into; and for
 * a costly order the failure must be one of fragmentation: a
 * fragmentation_index() from 0 to sysctl_extfrag_threshold (500) means
 * "lack of memory", which reclaim, not compaction, must answer.
 * Context: any.
 * Return: true if a run may help.
 */
bool compaction_suitable(struct zone *zone, int order, int highest_zoneidx)
{
	unsigned long mark = zone->watermark[order > PAGE_ALLOC_COSTLY_ORDER ? WMARK_LOW :
							     WMARK_MIN];
	int fragindex;

	if (!zone_watermark_ok(zone, 0, mark + compact_gap(order), highest_zoneidx, 0))
		return false;
	if (order <= PAGE_ALLOC_COSTLY_ORDER)
		return true;
	fragindex = fragmentation_index(zone, order);
	return !(fragindex >= 0 && fragindex <= sysctl_extfrag_threshold);
}

/* Is a run needed (not: COMPACT_SUCCESS), and can it help (not: COMPACT_SKIPPED)? */
static enum compact_result compaction_suit_allocation_order(struct zone *zone, int order,
							     int highest_zoneidx,
							     unsigned int alloc_flags)
{
	unsigned long mark = zone->watermark[alloc_flags & ALLOC_WMARK_MASK];

	if (zone_watermark_ok(zone, order, mark, highest_zoneidx, alloc_flags))
		return COMPACT_SUCCESS;
	if (!compaction_suitable(zone, order, highest_zoneidx))
		return COMPACT_SKIPPED;
	return COMPACT_CONTINUE;
}

/* ---------------------------------------------------------------- deferral */

/**
 * defer_compaction - a sync run over @zone failed at @order: skip the next ones
 * @zone: the zone
 * @order: the order it failed at
 *
 * Doubles the number of attempts skipped, up to 2^COMPACT_MAX_DEFER_SHIFT - 1,
 * for @order and above (Linux's rule).
 * Context: any; the counts are racy hints, as in Linux.
 */
void defer_compaction(struct zone *zone, int order)
{
	zone->compact_considered = 0;
	zone->compact_defer_shift++;
	if (order < zone->compact_order_failed)
		zone->compact_order_failed = order;
	if (zone->compact_defer_shift > COMPACT_MAX_DEFER_SHIFT)
		zone->compact_defer_shift = COMPACT_MAX_DEFER_SHIFT;
}

/**
 * compaction_deferred - should this attempt at @order on @zone be skipped?
 * @zone: the zone
 * @order: the order wanted
 *
 * Counts the attempt (compact_considered) when it is at an order that
 * failed; the 2^compact_defer_shift-th one goes ahead.
 * Context: any.
 * Return: true to skip the zone.
 */
bool compaction_deferred(struct zone *zone, int order)
{
	unsigned long limit = 1UL << zone->compact_defer_shift;

	if (order < zone->compact_order_failed)
		return false;
	if (++zone->compact_considered >= limit) {
		zone->compact_considered = (unsigned int)limit;
		return false;
	}
	return true;
}

/**
 * compaction_defer_reset - compaction at @order on @zone worked
 * @zone: the zone
 * @order: the order
 * @alloc_success: the allocation got its block (then the deferral starts over)
 *
 * Context: any.
 */
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success)
{
	if (alloc_success) {
		zone->compact_considered = 0;
		zone->compact_defer_shift = 0;
	}
	if (order >= zone->compact_order_failed)
		zone->compact_order_failed = order + 1;
}

/**
 * compaction_restarting - has @zone been deferred as long as it can be at @order?
 * @zone: the zone
 * @order: the order
 *
 * Context: any.
 * Return: true once the longest deferral has run out (Linux then rescans whole).
 */
bool compaction_restarting(struct zone *zone, int order)
{
	if (order < zone->compact_order_failed)
		return false;
	return zone->compact_defer_shift == COMPACT_MAX_DEFER_SHIFT &&
	       zone->compact_considered >= 1UL << zone->compact_defer_shift;
}

/* ---------------------------------------------------------------- the migration scanner */

/*
 * May the pageblock of @page give pages to migrate?  Every one, except for
 * async direct compaction, which takes only from pageblocks of the
 * allocation's type (movable ones for a movable allocation), as Linux's
 * suitable_migration_source(): moving pages out of other types' blocks
 * costs more and helps less.
 */
static bool suitable_migration_source(struct compact_control *cc, struct page *page)
{
	if (cc->mode != MIGRATE_ASYNC || !cc->direct_compaction)
		return true;
	return get_pageblock_migratetype(page) == cc->migratetype;
}

/* Pages from @pfn a scanner may step over at once: a free or allocated block's (0: just this). */
static unsigned long block_pages_at(const struct page *page, unsigned long flags)
{
	unsigned long order;

	if (flags & (1UL << PG_buddy))
		order = READ_ONCE(page->private);
	else if (flags & (1UL << PG_allocated))
		order = (flags >> PAGE_ORDER_SHIFT) & PAGE_ORDER_MASK;
	else
		return 0;
	return order <= MAX_PAGE_ORDER ? (1UL << order) - 1 : 0;
}

/*
 * Isolate movable pages of [@low_pfn, @end_pfn) onto cc->migratepages, up
 * to COMPACT_CLUSTER_MAX in all (Linux's isolate_migratepages_block()).
 * Free and allocated blocks are stepped over whole.  Returns the pfn where
 * the scan stopped.
 */
static unsigned long isolate_migratepages_block(struct compact_control *cc,
						unsigned long low_pfn, unsigned long end_pfn)
{
	/* LAB compaction */
	for (; low_pfn < end_pfn; low_pfn++) {
		struct page *page;
		unsigned long flags, skip;

		if (cc->nr_migratepages >= COMPACT_CLUSTER_MAX)
			break;
		cc->stats.migrate_scanned++;
		if (!pfn_valid(low_pfn))
			continue;
		page = pfn_to_page(low_pfn);
		flags = data_race(READ_ONCE(page->flags));	/* the owner may be changing them */
		skip = block_pages_at(page, flags);
		if (skip) {
			low_pfn += skip;
			cc->stats.migrate_scanned += skip;
			continue;
		}
		if (!(flags & (1UL << PG_movable)) || !isolate_movable_page(page, cc->mode))
			continue;
		list_add_tail(&page->lru, &cc->migratepages);
		cc->nr_migratepages++;
		cc->stats.isolated_migrate++;
	}
	return low_pfn;
	/* END LAB */
}

enum isolate_migrate_t { ISOLATE_NONE, ISOLATE_SUCCESS };

/*
 * Scan up from cc->migrate_pfn, pageblock by pageblock, below the free
 * scanner's pageblock, until some pages are isolated (Linux's
 * isolate_migratepages()).
 */
static enum isolate_migrate_t isolate_migratepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long low_pfn = cc->migrate_pfn;

	while (!cc->nr_migratepages) {
		unsigned long block_start = max(pageblock_start_pfn(low_pfn), zone->zone_start_pfn);
		unsigned long block_end = min(pageblock_end_pfn(low_pfn), zone_end_pfn(zone));

		if (block_end > cc->free_pfn || low_pfn >= zone_end_pfn(zone))
			break;
		if (!pfn_valid(block_start) ||
		    !suitable_migration_source(cc, pfn_to_page(block_start))) {
			cc->stats.migrate_scanned += block_end - low_pfn;
			low_pfn = block_end;
			continue;
		}
		low_pfn = isolate_migratepages_block(cc, low_pfn, block_end);
	}
	cc->migrate_pfn = low_pfn;
	return cc->nr_migratepages ? ISOLATE_SUCCESS : ISOLATE_NONE;
}

/* ---------------------------------------------------------------- the free scanner */

/*
 * May the pageblock of @page give free pages to migrate into?  Only a
 * movable one, and not one that is free whole (breaking it up would undo
 * what compaction is for): Linux's suitable_migration_target().
 */
static bool suitable_migration_target(struct page *page)
{
	/* data_race(): unlocked, a hint; isolate_freepages_block() looks again under the lock */
	if (data_race(PageBuddy(page) && READ_ONCE(page->private) >= pageblock_order))
		return false;
	return get_pageblock_migratetype(page) == MIGRATE_MOVABLE;
}

/* Turn the blocks of @blocks (order in private) into order-0 targets on cc->freepages. */
static void split_free_blocks(struct compact_control *cc, struct list_head *blocks)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, blocks, lru) {
		unsigned int order = (unsigned int)page->private;

		list_del(&page->lru);
		page->private = 0;
		post_alloc_hook(page, order, __GFP_MOVABLE);
		split_page(page, order);
		for (unsigned long i = 0; i < (1UL << order); i++)
			list_add_tail(&page[i].lru, &cc->freepages);
		cc->nr_freepages += 1UL << order;
		cc->stats.isolated_free += 1UL << order;
	}
}

/*
 * Take every free block of [@start, @end) off the free lists, under the
 * zone's lock, while the zone keeps its min watermark (Linux's
 * isolate_freepages_block(), not strict); then split them to order 0.
 */
static void isolate_freepages_block(struct compact_control *cc, unsigned long start,
				    unsigned long end)
{
	/* LAB compaction */
	struct zone *zone = cc->zone;
	unsigned long flags;
	LIST_HEAD(blocks);

	spin_lock_irqsave(&zone->lock, flags);
	for (unsigned long pfn = start; pfn < end; pfn++) {
		struct page *page = pfn_to_page(pfn);
		unsigned int order;

		cc->stats.free_scanned++;
		if (!PageBuddy(page))
			continue;
		order = (unsigned int)page->private;
		if (order >= pageblock_order)
			continue;	/* freed whole since the check: leave it whole */
		if (!__isolate_free_page(page, order))
			break;		/* the zone is at its watermark */
		page->private = order;	/* for split_free_blocks() */
		list_add_tail(&page->lru, &blocks);
		pfn += (1UL << order) - 1;
		cc->stats.free_scanned += (1UL << order) - 1;
	}
	spin_unlock_irqrestore(&zone->lock, flags);
	split_free_blocks(cc, &blocks);
	/* END LAB */
}

/*
 * Scan down from cc->free_pfn, pageblock by pageblock, above the migration
 * scanner's pageblock, until there are as many targets as pages to move
 * (Linux's isolate_freepages()).
 */
static void isolate_freepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long low_pfn = pageblock_end_pfn(cc->migrate_pfn);
	unsigned long block_start = cc->free_pfn;

	for (; block_start >= low_pfn && block_start >= zone->zone_start_pfn;
	     block_start -= pageblock_nr_pages) {
		unsigned long block_end = min(block_start + pageblock_nr_pages, zone_end_pfn(zone));

		if (!pfn_valid(block_start) || !suitable_migration_target(pfn_to_page(block_start))) {
			cc->stats.free_scanned += block_end - block_start;
			continue;
		}
		isolate_freepages_block(cc, block_start, block_end);
		if (cc->nr_freepages >= cc->nr_migratepages) {
			block_start -= pageblock_nr_pages;
			break;
		}
	}
	cc->free_pfn = block_start;
}

/* migrate_pages()'s target: a page the free scanner isolated (Linux's compaction_alloc()). */
static struct page *compaction_alloc(struct page *src, unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;
	struct page *page;

	(void)src;
	if (list_empty(&cc->freepages)) {
		isolate_freepages(cc);
		if (list_empty(&cc->freepages))
			return NULL;
	}
	page = list_first_entry(&cc->freepages, struct page, lru);
	list_del(&page->lru);
	cc->nr_freepages--;
	return page;
}

/* A target migrate_pages() did not use goes back on the list. */
static void compaction_free(struct page *page, unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;

	list_add(&page->lru, &cc->freepages);
	cc->nr_freepages++;
}

/* The targets left at the end of a run go back to the buddy lists. */
static void release_freepages(struct compact_control *cc)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &cc->freepages, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	cc->nr_freepages = 0;
}

/* ---------------------------------------------------------------- a run */

static bool compact_scanners_met(const struct compact_control *cc)
{
	return (cc->free_pfn >> pageblock_order) <= (cc->migrate_pfn >> pageblock_order);
}

/*
 * Is a block of @order free for @mt, on its own lists or on another type's
 * that it may claim (the fallback's can_steal_fallback() rule)?
 */
static bool free_block_suitable(struct zone *zone, unsigned int order, int mt)
{
	bool found = false;
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	for (unsigned int o = order; o < NR_PAGE_ORDERS && !found; o++) {
		for (int t = 0; t < MIGRATE_PCPTYPES && !found; t++) {
			bool may_steal = o >= pageblock_order / 2 || mt != MIGRATE_MOVABLE;

			if ((t == mt || may_steal) && !list_empty(&zone->free_area[o].free_list[t]))
				found = true;
		}
	}
	spin_unlock_irqrestore(&zone->lock, flags);
	return found;
}

/* Is the run over?  (Linux's __compact_finished().) */
static enum compact_result compact_finished(struct compact_control *cc)
{
	if (compact_scanners_met(cc))
		return cc->whole_zone ? COMPACT_COMPLETE : COMPACT_PARTIAL_SKIPPED;
	if (cc->order < 0)
		return COMPACT_CONTINUE;	/* compact_memory: the whole zone */
	if (free_block_suitable(cc->zone, (unsigned int)cc->order, cc->migratetype))
		return COMPACT_SUCCESS;
	return COMPACT_CONTINUE;
}

/* Move the isolated pages; give back those that did not move.  Returns the run's result so far. */
static enum compact_result compact_migrate_batch(struct compact_control *cc)
{
	unsigned int nr_succeeded;
	int err;

	err = migrate_pages(&cc->migratepages, compaction_alloc, compaction_free,
			    (unsigned long)cc, cc->mode, &nr_succeeded);
	cc->stats.migrated += nr_succeeded;
	cc->stats.migrate_failed += cc->nr_migratepages - nr_succeeded;
	cc->nr_migratepages = 0;
	if (err) {
		putback_movable_pages(&cc->migratepages);
		/* out of targets before the scanners met: the zone is at its watermark */
		if (err == -ENOMEM && !compact_scanners_met(cc))
			return COMPACT_CONTENDED;
	}
	/* the old frames wait on this CPU's list: let them merge, so that a block shows */
	drain_local_pages(NULL);
	return COMPACT_CONTINUE;
}

static void count_compact_events(const struct compact_control *cc)
{
	count_vm_events(COMPACTMIGRATE_SCANNED, cc->stats.migrate_scanned);
	count_vm_events(COMPACTFREE_SCANNED, cc->stats.free_scanned);
	count_vm_events(COMPACTISOLATED, cc->stats.isolated_migrate + cc->stats.isolated_free);
}

/* One run over cc->zone (Linux's compact_zone()). */
static enum compact_result compact_zone(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	enum compact_result ret;

	if (cc->order >= 0) {
		ret = compaction_suit_allocation_order(zone, cc->order, cc->highest_zoneidx,
						       cc->alloc_flags);
		if (ret != COMPACT_CONTINUE)
			return ret;
	}
	INIT_LIST_HEAD(&cc->freepages);
	INIT_LIST_HEAD(&cc->migratepages);
	cc->migrate_pfn = zone->zone_start_pfn;
	cc->free_pfn = pageblock_start_pfn(zone_end_pfn(zone) - 1);
	cc->whole_zone = true;
	drain_all_pages();	/* pages on per-CPU lists are free but not in blocks */
	while ((ret = compact_finished(cc)) == COMPACT_CONTINUE) {
		if (isolate_migratepages(cc) == ISOLATE_NONE)
			continue;	/* the scanners met */
		ret = compact_migrate_batch(cc);
		if (ret != COMPACT_CONTINUE)
			break;
	}
	release_freepages(cc);
	drain_local_pages(NULL);
	count_compact_events(cc);
	return ret;
}

/**
 * compact_zone_order - compact @zone for one allocation of @order
 * @zone: the zone
 * @order: the order wanted (1..MAX_PAGE_ORDER)
 * @gfp: the allocation's flags (its migratetype chooses the source pageblocks in async mode)
 * @prio: COMPACT_PRIO_ASYNC migrates in MIGRATE_ASYNC mode, the others MIGRATE_SYNC_LIGHT
 * @alloc_flags: the allocation's (its watermark decides COMPACT_SUCCESS)
 * @highest_zoneidx: the highest zone the allocation may use
 * @stats: what the run did, if not NULL
 *
 * Context: interrupts on, not in an interrupt handler (drains every CPU's
 * lists); may take long.
 * Return: COMPACT_SUCCESS, COMPACT_SKIPPED, COMPACT_COMPLETE or COMPACT_CONTENDED.
 */
enum compact_result compact_zone_order(struct zone *zone, int order, gfp_t gfp,
				       enum compact_priority prio, unsigned int alloc_flags,
				       int highest_zoneidx, struct compact_stats *stats)
{
	struct compact_control cc = {
		.zone = zone,
		.order = order,
		.migratetype = gfp_migratetype(gfp),
		.alloc_flags = alloc_flags,
		.highest_zoneidx = highest_zoneidx,
		.mode = prio == COMPACT_PRIO_ASYNC ? MIGRATE_ASYNC : MIGRATE_SYNC_LIGHT,
		.direct_compaction = true,
	};
	enum compact_result ret = compact_zone(&cc);

	if (stats)
		*stats = cc.stats;
	return ret;
}

/**
 * compact_zone_fully - compact all of @zone, as writing /proc/sys/vm/compact_memory does
 * @zone: a populated zone
 * @stats: what the run did, if not NULL
 *
 * MIGRATE_SYNC, every pageblock a source, until the scanners meet.
 * Context: as compact_zone_order().
 * Return: COMPACT_COMPLETE, or COMPACT_CONTENDED if the zone ran out of
 * free pages above its min watermark first.
 */
enum compact_result compact_zone_fully(struct zone *zone, struct compact_stats *stats)
{
	struct compact_control cc = {
		.zone = zone,
		.order = -1,
		.migratetype = MIGRATE_MOVABLE,
		.mode = MIGRATE_SYNC,
	};
	enum compact_result ret = compact_zone(&cc);

	if (stats)
		*stats = cc.stats;
	return ret;
}

/**
 * try_to_compact_pages - direct compaction for an allocation that failed
 * @gfp: its flags; without __GFP_IO compaction is not allowed (Linux's rule)
 * @order: its order
 * @alloc_flags: its watermark flags
 * @zonerefs: the zones it may use, in order (its zonelist), ending in a NULL zone
 * @highest_zoneidx: zones above this index in @zonerefs are passed over
 * @prio: how hard: above MIN_COMPACT_PRIORITY a deferred zone is skipped
 *
 * Each zone in turn until one has the block: a sync run that fails defers
 * the zone (defer_compaction()); a run that succeeds resets the failed
 * order.  The caller counts compact_stall and tries the free lists.
 * Context: as compact_zone_order().
 * Return: the best result of any zone (COMPACT_SKIPPED if none ran).
 */
enum compact_result try_to_compact_pages(gfp_t gfp, unsigned int order, unsigned int alloc_flags,
					 const struct zoneref *zonerefs, int highest_zoneidx,
					 enum compact_priority prio)
{
	enum compact_result rc = COMPACT_SKIPPED;

	if (!(gfp & __GFP_IO) || !order)
		return COMPACT_SKIPPED;
	for (const struct zoneref *z = zonerefs; z->zone; z++) {
		enum compact_result status;

		if (z->zone_idx > highest_zoneidx)
			continue;
		if (prio > MIN_COMPACT_PRIORITY && compaction_deferred(z->zone, (int)order)) {
			rc = max(rc, COMPACT_DEFERRED);
			continue;
		}
		status = compact_zone_order(z->zone, (int)order, gfp, prio, alloc_flags,
					    highest_zoneidx, NULL);
		rc = max(rc, status);
		if (status == COMPACT_SUCCESS) {
			compaction_defer_reset(z->zone, (int)order, false);
			break;
		}
		if (prio != COMPACT_PRIO_ASYNC &&
		    (status == COMPACT_COMPLETE || status == COMPACT_PARTIAL_SKIPPED))
			defer_compaction(z->zone, (int)order);
	}
	return rc;
}

/** compact_result_name - @result as Linux's tracepoints spell it ("complete", "success", ...) */
const char *compact_result_name(enum compact_result result)
{
	static const char *const names[] = {
		[COMPACT_NOT_SUITABLE_ZONE] = "not_suitable_zone",
		[COMPACT_SKIPPED] = "skipped",
		[COMPACT_DEFERRED] = "deferred",
		[COMPACT_NO_SUITABLE_PAGE] = "no_suitable_page",
		[COMPACT_CONTINUE] = "continue",
		[COMPACT_COMPLETE] = "complete",
		[COMPACT_PARTIAL_SKIPPED] = "partial_skipped",
		[COMPACT_CONTENDED] = "contended",
		[COMPACT_SUCCESS] = "success",
	};

	return (unsigned int)result < ARRAY_SIZE(names) ? names[result] : "?";
}
