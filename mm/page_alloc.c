/*
 * mm/page_alloc.c - the buddy allocator: blocks of 2^order pages.
 *
 * Each zone keeps, for every order 0..MAX_PAGE_ORDER, a list of free blocks
 * of that size.  A block of order n starts at a page frame number that is a
 * multiple of 2^n, and its "buddy" is the block it was split from's other
 * half: pfn ^ (1 << n).  So
 *
 *   allocating order n:  take a block from the smallest non-empty list of
 *                        order >= n; split it in halves, putting the unused
 *                        halves on the lists below, until it is order n;
 *   freeing order n:     while the buddy is free and of the same order,
 *                        take it off its list and merge; put the result on
 *                        the list of its final order.
 *
 *          order 2: [A A A A]              free A, then its buddy B:
 *   split  order 1: [A A][B B]             [A A][B B] -> [A A B B]
 *   split  order 0: [A][a][B B]             both order 1 and free: merge
 *
 * Single pages are so common that each CPU keeps a small stack of them
 * (struct per_cpu_pages): most order-0 allocations and frees touch only
 * that stack, with interrupts off and no lock; it is refilled from and
 * drained to the buddy lists a batch at a time.  The bulk calls (vmalloc's
 * hundreds of pages) use the stack only as far as it goes: past it they cut
 * whole blocks into pages, and give runs of pages back as whole blocks.
 *
 * When memory is short, what happens next depends on the gfp flags, exactly
 * as docs/design.md ("Allocation semantics") says: see __alloc_pages_slowpath().
 */
#include "mm/page_alloc.h"
#include "mm/mmzone.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/mmdebug.h"
#include "mm/fault_inject.h"
#include "mm/compaction.h"
#include "mm/oom.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "lib/string.h"

#define MAX_RECLAIM_RETRIES	16	/* rounds of "reclaim helped but still no page" */

/* ---------------------------------------------------------------- free lists */

/*
 * What must hold of every block that goes on or comes off a free list
 * (mm/mmdebug.h): the zone's lock is held, the block is aligned to its
 * order, and it lies in that zone (of that node).
 */
static void check_free_block(struct page *page, struct zone *zone, unsigned int order)
{
	VM_BUG_ON(!lockdep_is_held(&zone->lock));
	VM_BUG_ON_PAGE(page_to_pfn(page) & ((1UL << order) - 1), page);
	VM_BUG_ON_PAGE(page_zone(page) != zone, page);
}

/* ---------------------------------------------------------------- pageblocks */

static __always_inline unsigned char *pageblock_slot(const struct zone *zone, unsigned long pfn)
{
	return &zone->pageblock_flags[(pfn >> pageblock_order) -
				      (zone->zone_start_pfn >> pageblock_order)];
}

/**
 * get_pageblock_migratetype - the migratetype of @page's pageblock
 * @page: any page of a zone's span
 *
 * Context: any; the answer may change unless the zone's lock is held.
 */
int get_pageblock_migratetype(const struct page *page)
{
	return READ_ONCE(*pageblock_slot(page_zone(page), page_to_pfn(page)));
}

/* The same, for a frame whose zone the caller knows (the free paths: no page_zone()). */
static __always_inline int get_pfnblock_migratetype(const struct zone *zone, unsigned long pfn)
{
	return READ_ONCE(*pageblock_slot(zone, pfn));
}

/**
 * set_pageblock_migratetype - give @page's pageblock the migratetype @mt
 *
 * Its free blocks are not moved: the caller does (move_freepages_block()).
 * Context: the zone's lock held.
 */
void set_pageblock_migratetype(struct page *page, int mt)
{
	WRITE_ONCE(*pageblock_slot(page_zone(page), page_to_pfn(page)), (unsigned char)mt);
}

/* Give every pageblock of the block @page of @order (at least a pageblock) the type @mt. */
static void change_pageblock_range(struct page *page, unsigned int order, int mt)
{
	for (unsigned long i = 0; i < 1UL << (order - pageblock_order); i++)
		set_pageblock_migratetype(page + i * pageblock_nr_pages, mt);
}

/* May free blocks of these two types merge?  (Not isolated or reserved ones.) */
static bool migratetypes_mergeable(int a, int b)
{
	return a == b || (a < MIGRATE_PCPTYPES && b < MIGRATE_PCPTYPES);
}

/* ---------------------------------------------------------------- free lists */

static void add_to_free_list(struct page *page, struct zone *zone, unsigned int order, int mt)
{
	check_free_block(page, zone, order);
	VM_BUG_ON_PAGE(PageBuddy(page) || page_test(page, PG_pcp), page);
	page_set(page, PG_buddy);
	page->private = order;
	list_add(&page->lru, &zone->free_area[order].free_list[mt]);
	/* data_race(): under zone->lock; the lockless readers READ_ONCE() it (one add, whole) */
	data_race(zone->free_area[order].nr_free++);
}

static void del_from_free_list(struct page *page, struct zone *zone, unsigned int order)
{
	check_free_block(page, zone, order);
	VM_BUG_ON_PAGE(!PageBuddy(page) || page->private != order, page);
	list_del(&page->lru);
	page_clear(page, PG_buddy);
	page->private = 0;
	data_race(zone->free_area[order].nr_free--);	/* as in add_to_free_list() */
}

/*
 * Is @buddy the first page of a free block of exactly @order in the same
 * zone?  Holes and other zones have no PG_buddy pages of the right zone.
 */
static bool page_is_buddy(const struct page *page, const struct page *buddy, unsigned int order)
{
	/* LAB buddy */
	if (!pfn_valid(page_to_pfn(buddy)))
		return false;
	if (!PageBuddy(buddy) || buddy->private != order)
		return false;
	/* same node and zone: the top bits of flags agree */
	return (buddy->flags >> ZONES_SHIFT) == (page->flags >> ZONES_SHIFT);
	/* END LAB */
}

/**
 * __free_one_page - put a free block back, merging it with free buddies
 * @page: first page of the block
 * @pfn: its page frame number
 * @zone: its zone, locked by the caller
 * @order: its order
 */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone, unsigned int order)
{
	int mt = get_pfnblock_migratetype(zone, pfn);

	VM_BUG_ON_PAGE(page_to_pfn(page) != pfn, page);
	check_free_block(page, zone, order);
	/* data_race(): under zone->lock; the lockless readers READ_ONCE() it (one add, whole) */
	data_race(zone->nr_free += 1UL << order);
	/*
	 * page_is_buddy() is a data_race(): an allocated buddy's owner changes its
	 * flags without the zone lock; PG_buddy and the order, all that decides,
	 * change only under it.
	 */
	/* LAB buddy */
	while (order < MAX_PAGE_ORDER) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy = page + ((long)buddy_pfn - (long)pfn);

		if (!data_race(page_is_buddy(page, buddy, order)))
			break;
		/*
		 * From pageblock_order up the buddy is other pageblocks: merged
		 * only if both types may mix, and then they take this block's type
		 * (as Linux 6.10), so that the block's halves go back to one list.
		 */
		if (order >= pageblock_order) {
			int buddy_mt = get_pfnblock_migratetype(zone, buddy_pfn);

			if (!migratetypes_mergeable(mt, buddy_mt))
				break;
			if (buddy_mt != mt)
				change_pageblock_range(buddy, order, mt);
		}
		del_from_free_list(buddy, zone, order);
		pfn &= buddy_pfn;	/* the merged block starts at the lower of the two */
		page = pfn_to_page(pfn);
		order++;
	}
	/* END LAB */
	add_to_free_list(page, zone, order, mt);
}

/*
 * Split the free block @page of order @high, just taken off its list, down
 * to order @low: the upper halves go back on @mt's lists, largest first
 * (Linux's expand()).
 */
static void expand(struct zone *zone, struct page *page, unsigned int low, unsigned int high,
		   int mt)
{
	/* LAB buddy */
	while (high > low) {
		high--;
		add_to_free_list(page + (1UL << high), zone, high, mt);
	}
	/* END LAB */
}

/*
 * Take a block of @order and migratetype @mt from @zone (locked), splitting
 * a larger one of that type if needed.  Returns NULL if no list of order
 * >= @order of that type has a block.
 */
static struct page *__rmqueue_smallest(struct zone *zone, unsigned int order, int mt)
{
	for (unsigned int current_order = order; current_order <= MAX_PAGE_ORDER; current_order++) {
		struct list_head *list = &zone->free_area[current_order].free_list[mt];
		struct page *page;

		if (list_empty(list))
			continue;
		page = list_first_entry(list, struct page, lru);
		del_from_free_list(page, zone, current_order);
		expand(zone, page, order, current_order, mt);
		data_race(zone->nr_free -= 1UL << order);	/* as in __free_one_page() */
		return page;
	}
	return NULL;
}

/* Where each type looks when its own lists are empty, in order (Linux's fallbacks[]). */
static const int fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE]	= { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE]	= { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE]	= { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

/*
 * May an allocation of @start_mt that found a block of @order on another
 * type's list take the whole pageblock?  Always for a block of a pageblock
 * or more, and for half a pageblock; unmovable and reclaimable allocations
 * always try, since scattering them is what fragments memory for good
 * (Linux's can_steal_fallback()).
 */
static bool can_steal_fallback(unsigned int order, int start_mt)
{
	return order >= pageblock_order / 2 || start_mt == MIGRATE_RECLAIMABLE ||
	       start_mt == MIGRATE_UNMOVABLE;
}

/* The first fallback type of @start_mt with a free block of @order, or -1. */
static int find_suitable_fallback(struct zone *zone, unsigned int order, int start_mt)
{
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int mt = fallbacks[start_mt][i];

		if (!list_empty(&zone->free_area[order].free_list[mt]))
			return mt;
	}
	return -1;
}

/*
 * The free pages of @page's pageblock, each free block moved to @mt's lists
 * on the way unless @mt is negative.  The zone's lock is held.
 */
static unsigned long move_freepages_block(struct zone *zone, struct page *page, int mt)
{
	unsigned long start = ALIGN_DOWN(page_to_pfn(page), pageblock_nr_pages);
	unsigned long end = min(start + pageblock_nr_pages, zone_end_pfn(zone)), free = 0;

	for (unsigned long pfn = max(start, zone->zone_start_pfn); pfn < end;) {
		struct page *p = pfn_to_page(pfn);

		if (!pfn_valid(pfn) || !PageBuddy(p)) {
			pfn++;
			continue;
		}
		if (mt >= 0)
			list_move(&p->lru, &zone->free_area[p->private].free_list[mt]);
		free += 1UL << p->private;
		pfn += 1UL << p->private;
	}
	return free;
}

/*
 * Claim the pageblock of @page, a free block of @order on another type's
 * list, for @start_mt: a block of a pageblock or more becomes @start_mt's
 * whole; a smaller one takes its pageblock along if at least half of it is
 * free or holds allocations of @start_mt's kind (nothing here is movable
 * yet, so every allocated page counts as "alike" for an unmovable or
 * reclaimable claim: Linux's rule, with no LRU pages).  Returns whether the
 * free pages now sit on @start_mt's lists.  The zone's lock is held.
 */
static bool try_to_claim_block(struct zone *zone, struct page *page, unsigned int order,
			       int start_mt)
{
	unsigned long free;

	if (order >= pageblock_order) {
		change_pageblock_range(page, order, start_mt);
		list_move(&page->lru, &zone->free_area[order].free_list[start_mt]);
		return true;
	}
	free = move_freepages_block(zone, page, -1);
	if (start_mt == MIGRATE_MOVABLE && free < pageblock_nr_pages / 2)
		return false;
	move_freepages_block(zone, page, start_mt);
	set_pageblock_migratetype(page, start_mt);
	return true;
}

/*
 * @start_mt's lists are empty: take from another type's (Linux's
 * __rmqueue_fallback()).  The largest free block of a fallback type first,
 * whose pageblock may change hands (try_to_claim_block()); a movable
 * allocation that may not claim takes the smallest block instead, so as
 * not to break up a large one for nothing.  Counted as
 * PGALLOC_EXTFRAG, Linux's mm_page_alloc_extfrag event.  The zone's lock
 * is held.
 */
static struct page *__rmqueue_fallback(struct zone *zone, unsigned int order, int start_mt)
{
	int current_order, fallback_mt = -1;
	struct page *page;

	for (current_order = MAX_PAGE_ORDER; current_order >= (int)order; current_order--) {
		fallback_mt = find_suitable_fallback(zone, current_order, start_mt);
		if (fallback_mt < 0)
			continue;
		if (!can_steal_fallback(current_order, start_mt) && current_order > (int)order)
			goto find_smallest;
		goto found;
	}
	return NULL;
find_smallest:
	for (current_order = order; current_order <= MAX_PAGE_ORDER; current_order++) {
		fallback_mt = find_suitable_fallback(zone, current_order, start_mt);
		if (fallback_mt >= 0)
			break;
	}
found:
	page = list_first_entry(&zone->free_area[current_order].free_list[fallback_mt],
				struct page, lru);
	count_vm_event(PGALLOC_EXTFRAG);
	if (can_steal_fallback(current_order, start_mt) &&
	    try_to_claim_block(zone, page, current_order, start_mt))
		return __rmqueue_smallest(zone, order, start_mt);
	del_from_free_list(page, zone, current_order);
	expand(zone, page, order, current_order, fallback_mt);
	data_race(zone->nr_free -= 1UL << order);	/* as in __free_one_page() */
	return page;
}

/* A block of @order for @mt: its own lists, else another type's.  The zone's lock is held. */
static struct page *__rmqueue(struct zone *zone, unsigned int order, int mt)
{
	struct page *page = __rmqueue_smallest(zone, order, mt);

	return page ? page : __rmqueue_fallback(zone, order, mt);
}

/* ---------------------------------------------------------------- per-CPU lists */

/*
 * Move up to @count pages from the tails (the coldest) of @pcp's lists back
 * to the buddy lists: each list emptied in turn, unmovable first, as Linux
 * 6.1 empties one list before it moves to the next.  Each page goes to the
 * list of its pageblock's type now (__free_one_page()).
 */
static void free_pcppages_bulk(struct zone *zone, struct per_cpu_pages *pcp, int count)
{
	/* LAB buddy */
	VM_BUG_ON(!irqs_disabled());	/* the list is this CPU's, and an interrupt may use it */
	spin_lock(&zone->lock);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		struct list_head *list = &pcp->lists[mt];

		for (; count > 0 && !list_empty(list); count--) {
			struct page *page = list_last_entry(list, struct page, lru);

			VM_BUG_ON_PAGE(!page_test(page, PG_pcp), page);
			list_del(&page->lru);
			page_clear(page, PG_pcp);
			pcp->count--;
			__free_one_page(page, page_to_pfn(page), zone, 0);
		}
	}
	spin_unlock(&zone->lock);
	count_vm_event(PCP_DRAIN);
	/* END LAB */
}

/*
 * Refill this CPU's list of @mt with a batch from the buddy lists.  Out of
 * line: it is the slow side of every order-0 allocation, and inlined it
 * costs the fast side registers (7 instructions a pair in make bench).
 */
static __noinline int rmqueue_bulk(struct zone *zone, struct per_cpu_pages *pcp, int mt)
{
	/* LAB buddy */
	int got = 0;

	spin_lock(&zone->lock);
	for (; got < pcp->batch; got++) {
		struct page *page = __rmqueue(zone, 0, mt);

		if (!page)
			break;
		page_set(page, PG_pcp);
		list_add_tail(&page->lru, &pcp->lists[mt]);
	}
	spin_unlock(&zone->lock);
	pcp->count += got;
	count_vm_event(PCP_REFILL);
	return got;
	/* END LAB */
}

/* The first page of this CPU's list of @mt (refilled if empty), or NULL; interrupts are off. */
static __always_inline struct page *__rmqueue_pcplist(struct zone *zone,
						      struct per_cpu_pages *pcp, int mt)
{
	struct list_head *list = &pcp->lists[mt];
	struct page *page;

	/* LAB buddy */
	if (list_empty(list) && !rmqueue_bulk(zone, pcp, mt))
		return NULL;
	page = list_first_entry(list, struct page, lru);
	list_del(&page->lru);
	page_clear(page, PG_pcp);
	pcp->count--;
	return page;
	/* END LAB */
}

static struct page *rmqueue_pcplist(struct zone *zone, int mt)
{
	struct page *page;
	unsigned long flags;

	local_irq_save(flags);
	page = __rmqueue_pcplist(zone, this_cpu_ptr(zone->per_cpu_pageset), mt);
	if (page)
		count_vm_event(PCP_ALLOC);
	local_irq_restore(flags);
	return page;
}

/*
 * Put @page at the head of this CPU's list of its pageblock's type (the next
 * to be reused, still cache-hot).  A page of a reserved or isolated
 * pageblock goes straight back to the buddy lists.
 */
static __always_inline void __free_unref_page(struct page *page, struct zone *zone)
{
	/* LAB buddy */
	struct per_cpu_pages *pcp = this_cpu_ptr(zone->per_cpu_pageset);
	int mt = get_pfnblock_migratetype(zone, page_to_pfn(page));

	if (unlikely(mt >= MIGRATE_PCPTYPES)) {
		spin_lock(&zone->lock);
		__free_one_page(page, page_to_pfn(page), zone, 0);
		spin_unlock(&zone->lock);
		return;
	}
	page_set(page, PG_pcp);
	list_add(&page->lru, &pcp->lists[mt]);
	if (++pcp->count >= pcp->high)
		free_pcppages_bulk(zone, pcp, pcp->batch);
	/* END LAB */
}

static __always_inline void free_unref_page(struct page *page, struct zone *zone)
{
	unsigned long flags;

	local_irq_save(flags);
	__free_unref_page(page, zone);
	local_irq_restore(flags);
}

static void drain_zone_pages(struct zone *zone, unsigned int cpu)
{
	struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
	unsigned long flags;

	local_irq_save(flags);
	if (pcp->count)
		free_pcppages_bulk(zone, pcp, pcp->count);
	local_irq_restore(flags);
}

/**
 * drain_local_pages - give the calling CPU's per-CPU pages back to the buddy lists
 * @unused: for on_each_cpu()
 */
void drain_local_pages(void *unused)
{
	struct zone *zone;

	(void)unused;
	for_each_populated_zone(zone)
		drain_zone_pages(zone, smp_processor_id());
}

/**
 * drain_all_pages - give every CPU's per-CPU pages back to the buddy lists
 *
 * Reclaim does this so that single pages cached per CPU can merge into the
 * larger blocks a high-order allocation needs.  A CPU's list is touched
 * only by that CPU (with interrupts off), so each CPU is asked to drain its
 * own, by IPI.
 * Context: interrupts on, not in an interrupt handler (it waits for the
 * other CPUs).
 */
void drain_all_pages(void)
{
	on_each_cpu(drain_local_pages, NULL, 1);
}

static void drain_local_pages_work(struct work_struct *work)
{
	(void)work;
	drain_local_pages(NULL);
}

static DEFINE_PER_CPU(struct work_struct, pcp_drain_work) =
	__WORK_INITIALIZER(drain_local_pages_work);

/*
 * drain_all_pages() where waiting for other CPUs is not allowed (interrupts
 * off): drain this CPU's lists now, and ask every other CPU, through its
 * deferred work, to drain its own soon.
 */
static void drain_all_pages_from_any_context(void)
{
	unsigned int cpu;

	if (!irqs_disabled() && !in_interrupt()) {
		drain_all_pages();
		return;
	}
	drain_local_pages(NULL);
	for_each_online_cpu(cpu) {
		if (cpu != smp_processor_id())
			schedule_work_on((int)cpu, per_cpu_ptr(&pcp_drain_work, cpu));
	}
}

/* ---------------------------------------------------------------- watermarks */

/*
 * Has @area a free block this allocation may take: one of the per-CPU
 * types', or a high-order atomic one's from the highatomic reserve?  An
 * unlocked look, as Linux's __zone_watermark_ok().
 */
static bool free_area_usable(struct free_area *area, unsigned int alloc_flags)
{
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		if (!data_race(list_empty(&area->free_list[mt])))
			return true;
	}
	return (alloc_flags & ALLOC_HARDER) &&
	       !data_race(list_empty(&area->free_list[MIGRATE_HIGHATOMIC]));
}

/**
 * zone_watermark_ok - may an allocation of @order take pages from @zone?
 * @zone: the zone
 * @order: the allocation's order
 * @mark: the watermark to stay above, in pages
 * @highest_zoneidx: the highest zone the allocation could have used
 * @alloc_flags: ALLOC_HIGH / ALLOC_HARDER lower the mark (GFP_ATOMIC's reserve)
 *
 * The zone must keep more than @mark pages free after the allocation, plus
 * the part kept for allocations that could not use a higher zone
 * (lowmem_reserve).  For order > 0 a free block that large must exist too.
 */
bool zone_watermark_ok(struct zone *zone, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags)
{
	long free = (long)READ_ONCE(zone->nr_free) - ((1L << order) - 1);
	long min = (long)mark;

	if (alloc_flags & ALLOC_NO_WATERMARKS)
		return true;
	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & ALLOC_HARDER)
		min -= min / 4;
	else if (!(alloc_flags & ALLOC_HIGH))
		free -= (long)READ_ONCE(zone->nr_reserved_highatomic);	/* not theirs */
	if (free <= min + (long)zone->lowmem_reserve[highest_zoneidx])
		return false;
	if (!order)
		return true;
	for (unsigned int o = order; o <= MAX_PAGE_ORDER; o++) {
		if (READ_ONCE(zone->free_area[o].nr_free) &&
		    free_area_usable(&zone->free_area[o], alloc_flags))
			return true;
	}
	return false;
}

/* ---------------------------------------------------------------- allocation */

static enum zone_type gfp_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	if (gfp & __GFP_DMA32)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

/*
 * Is this CPU in reclaim or the OOM killer (PF_MEMALLOC, mm/gfp.h)?  Not
 * for an interrupt handler that interrupted it: the handler's allocation
 * does not help reclaim along, and gets no reserve for it (as in Linux).
 */
static bool in_memalloc_scope(void)
{
	return (current_memalloc_flags() & PF_MEMALLOC) && !in_interrupt();
}

static unsigned int gfp_to_alloc_flags(gfp_t gfp)
{
	unsigned int flags = ALLOC_WMARK_MIN;

	if (gfp & __GFP_HIGH)
		flags |= ALLOC_HIGH;
	/*
	 * GFP_ATOMIC: cannot wait, so may dig a little deeper; not with
	 * __GFP_NOMEMALLOC, whose caller can fail gracefully (Linux 6.12).
	 */
	if ((gfp & __GFP_HIGH) && !(gfp & (__GFP_DIRECT_RECLAIM | __GFP_NOMEMALLOC)))
		flags |= ALLOC_HARDER;
	/* __GFP_MEMALLOC, or reclaim itself: it needs memory to free memory */
	if (((gfp & __GFP_MEMALLOC) || in_memalloc_scope()) && !(gfp & __GFP_NOMEMALLOC))
		flags |= ALLOC_NO_WATERMARKS;
	return flags;
}

/*
 * A block of @order from @zone.  A high-order atomic allocation looks in the
 * highatomic reserve first; any atomic one (ALLOC_HARDER), and one that may
 * ignore the watermarks (__GFP_MEMALLOC, reclaim itself: as Linux's
 * ALLOC_OOM), there last, when the other lists are empty: failing now is
 * worse than failing a high-order atomic allocation later (Linux's
 * rmqueue_buddy()).
 */
static struct page *rmqueue(struct zone *zone, unsigned int order, unsigned int alloc_flags,
			    int mt)
{
	struct page *page = NULL;
	unsigned long flags;

	if (order == 0) {
		page = rmqueue_pcplist(zone, mt);
		if (likely(page) || !(alloc_flags & (ALLOC_HARDER | ALLOC_NO_WATERMARKS)))
			return page;
	}
	spin_lock_irqsave(&zone->lock, flags);
	if (order && (alloc_flags & ALLOC_HARDER))
		page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (!page)
		page = __rmqueue(zone, order, mt);
	if (!page && (alloc_flags & (ALLOC_HARDER | ALLOC_NO_WATERMARKS)))
		page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	spin_unlock_irqrestore(&zone->lock, flags);
	return page;
}

/*
 * Keep the pageblock of @page, just given to a high-order atomic
 * allocation, for such allocations (MIGRATE_HIGHATOMIC): the next one
 * under pressure finds a block there, where an interrupt handler could
 * neither reclaim nor compact.  At most about 1% of the zone, and none in
 * a zone whose 1% is less than a pageblock (Linux 6.19's
 * reserve_highatomic_pageblock()).
 */
static void reserve_highatomic_pageblock(struct page *page, unsigned int order,
					 struct zone *zone)
{
	unsigned long max_managed = ALIGN(zone->managed_pages / 100, pageblock_nr_pages);
	unsigned long flags;
	int mt;

	if (zone->managed_pages / 100 < pageblock_nr_pages ||
	    READ_ONCE(zone->nr_reserved_highatomic) >= max_managed)
		return;
	spin_lock_irqsave(&zone->lock, flags);
	mt = get_pageblock_migratetype(page);
	if (zone->nr_reserved_highatomic < max_managed && mt < MIGRATE_PCPTYPES) {
		if (order < pageblock_order) {
			move_freepages_block(zone, page, MIGRATE_HIGHATOMIC);
			set_pageblock_migratetype(page, MIGRATE_HIGHATOMIC);
			zone->nr_reserved_highatomic += pageblock_nr_pages;
		} else {
			change_pageblock_range(page, order, MIGRATE_HIGHATOMIC);
			zone->nr_reserved_highatomic += 1UL << order;
		}
	}
	spin_unlock_irqrestore(&zone->lock, flags);
}

static struct page *try_zone(struct zone *zone, unsigned int order, int highest,
			     unsigned int alloc_flags, int mt)
{
	unsigned long mark = zone->watermark[alloc_flags & ALLOC_WMARK_MASK];
	struct page *page;

	if (!zone_watermark_ok(zone, order, mark, highest, alloc_flags))
		return NULL;
	page = rmqueue(zone, order, alloc_flags, mt);
	if (unlikely(page && order && (alloc_flags & ALLOC_HARDER)))
		reserve_highatomic_pageblock(page, order, zone);
	return page;
}

/* The zones an allocation on @nid may try: only @nid's own for __GFP_THISNODE (Linux's name). */
static struct zonelist *node_zonelist(int nid, gfp_t gfp)
{
	return &NODE_DATA(nid)->node_zonelists[gfp & __GFP_THISNODE ? ZONELIST_NOFALLBACK :
								      ZONELIST_FALLBACK];
}

/* The first zone at or after @z that the allocation may use (index <= @highest), or the end. */
static struct zoneref *next_zones_zonelist(struct zoneref *z, int highest)
{
	while (z->zone_idx > highest)
		z++;
	return z;
}

/*
 * Count an allocation that @preferred's zonelist served from @zone, as
 * Linux's zone_statistics(): a hit if it stayed on the preferred node, else
 * a miss here and a foreign there; local or other by the allocating CPU.
 */
static void zone_statistics(const struct zone *preferred, const struct zone *zone)
{
	int nid = zone->node;

	if (likely(nid == preferred->node)) {
		count_numa_event(nid, NUMA_HIT);
	} else {
		count_numa_event(nid, NUMA_MISS);
		count_numa_event(preferred->node, NUMA_FOREIGN);
	}
	if (likely(nid == numa_node_id()))
		count_numa_event(nid, NUMA_LOCAL);
	else
		count_numa_event(nid, NUMA_OTHER);
}

/*
 * Walk the preferred node's zonelist (mm/mm_init.c built it at boot): its
 * zones from the highest the gfp allows down (so DMA memory is used last),
 * then the other nodes', nearest first, unless __GFP_THISNODE.  The first
 * usable zone is the "preferred zone" the NUMA counters compare with.
 */
static struct page *get_page_from_freelist(gfp_t gfp, unsigned int order,
					   unsigned int alloc_flags, int preferred_nid)
{
	int highest = (int)gfp_zone(gfp);
	struct zoneref *z = next_zones_zonelist(node_zonelist(preferred_nid, gfp)->_zonerefs,
						highest);
	const struct zone *preferred = z->zone;

	for (; z->zone; z = next_zones_zonelist(z + 1, highest)) {
		struct page *page = try_zone(z->zone, order, highest, alloc_flags,
					     gfp_migratetype(gfp));

		if (page) {
			zone_statistics(preferred, z->zone);
			return page;
		}
	}
	return NULL;
}

/* Give the first free block on @zone's highatomic lists, and its pageblocks, to @mt. */
static bool unreserve_zone_highatomic(struct zone *zone, int mt)
{
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		struct list_head *list = &zone->free_area[order].free_list[MIGRATE_HIGHATOMIC];
		struct page *page;
		unsigned long size = max(pageblock_nr_pages, 1UL << order);

		if (list_empty(list))
			continue;
		page = list_first_entry(list, struct page, lru);
		zone->nr_reserved_highatomic -= min(size, zone->nr_reserved_highatomic);
		if (order < pageblock_order) {
			move_freepages_block(zone, page, mt);
			set_pageblock_migratetype(page, mt);
		} else {
			/* whole pageblocks: put back as freed, to merge with their buddies again */
			del_from_free_list(page, zone, order);
			data_race(zone->nr_free -= 1UL << order);	/* __free_one_page() adds it */
			change_pageblock_range(page, order, mt);
			__free_one_page(page, page_to_pfn(page), zone, order);
		}
		return true;
	}
	return false;
}

/**
 * unreserve_highatomic_pageblock - give a highatomic pageblock back to ordinary allocations
 * @gfp: the allocation that needs it: its zones and, for the block, its migratetype
 * @nid: its preferred node
 * @force: also the last pageblock of a zone's reserve (else one is kept)
 *
 * Direct reclaim calls it once without @force after a failed round; the slow
 * path with @force before it gives up or calls the OOM killer (Linux 6.19's
 * two callers).  Only a pageblock with a free block is found.
 * Context: may be called with interrupts off; takes each zone's lock.
 * Return: whether a pageblock changed hands.
 */
bool unreserve_highatomic_pageblock(gfp_t gfp, int nid, bool force)
{
	int highest = (int)gfp_zone(gfp);

	for (struct zoneref *z = next_zones_zonelist(node_zonelist(nid, gfp)->_zonerefs, highest);
	     z->zone; z = next_zones_zonelist(z + 1, highest)) {
		struct zone *zone = z->zone;
		unsigned long flags;
		bool moved;

		if (!READ_ONCE(zone->nr_reserved_highatomic) ||
		    (!force && READ_ONCE(zone->nr_reserved_highatomic) <= pageblock_nr_pages))
			continue;
		spin_lock_irqsave(&zone->lock, flags);
		moved = unreserve_zone_highatomic(zone, gfp_migratetype(gfp));
		spin_unlock_irqrestore(&zone->lock, flags);
		if (moved)
			return true;
	}
	return false;
}

/*
 * __GFP_NOFAIL without __GFP_DIRECT_RECLAIM, or in reclaim itself
 * (PF_MEMALLOC): nothing can be reclaimed, yet NULL is not allowed (Linux
 * warns that either is unsupported, and so do we, once).  Take the last reserve;
 * pages sitting on other CPUs' per-CPU lists are free too, so have them
 * drained before spinning until another CPU frees something.
 */
static struct page *nofail_without_reclaim(gfp_t gfp, unsigned int order, int nid)
{
	struct page *page;

	WARN_ONCE(1, "page_alloc: __GFP_NOFAIL where it may not reclaim (mode:%#x%s)\n", gfp,
		  in_memalloc_scope() ? ", PF_MEMALLOC" : "");
	for (bool drained = false;; drained = true) {
		page = get_page_from_freelist(gfp, order, ALLOC_NO_WATERMARKS, nid);
		if (page)
			return page;
		if (!drained)
			drain_all_pages_from_any_context();
		cpu_relax();	/* another CPU may free something */
	}
}

/*
 * May the OOM killer be asked for this allocation?  Linux's rules
 * (__alloc_pages_may_oom()), one by one.  Each "no" means the allocation
 * fails once reclaim stops helping.  Without __GFP_FS (GFP_NOFS, GFP_NOIO)
 * it is asked, and kills nobody: out_of_memory() says so.
 */
static bool oom_allowed(gfp_t gfp, unsigned int order)
{
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return false;	/* killing rarely makes a large contiguous block */
	if (gfp & (__GFP_NORETRY | __GFP_RETRY_MAYFAIL))
		return false;	/* the caller said it copes with failure */
	if (gfp & __GFP_THISNODE)
		return false;	/* a kill may free memory on the wrong node */
	if (gfp_zone(gfp) < ZONE_NORMAL)
		return false;	/* no kills for DMA or DMA32 memory ("lowmem") */
	return true;
}

/*
 * The OOM killer, one CPU at a time (Linux's __alloc_pages_may_oom()).
 * Returns a page if one turned up, else NULL with *@progress telling the
 * caller whether retrying makes sense: a victim was killed, or another CPU
 * was killing one (we waited for it to finish; its victim's memory is free),
 * or the allocation is too small to fail (out_of_memory() for !__GFP_FS).
 */
static struct page *__alloc_pages_may_oom(gfp_t gfp, unsigned int order, int nid,
					  bool *progress)
{
	struct page *page;

	*progress = false;
	/* Never the holder's own CPU: kill() runs under PF_MEMALLOC, which stops before here. */
	if (!spin_trylock(&oom_lock)) {
		while (spin_is_locked(&oom_lock))
			cpu_relax();
		*progress = true;
		return NULL;
	}
	/*
	 * A kill that finished on another CPU just before we took the lock
	 * may have freed enough: look again, at the high watermark, so that
	 * we only kill if memory is still really short.
	 */
	page = get_page_from_freelist(gfp, order, ALLOC_WMARK_HIGH, nid);
	if (!page)
		*progress = out_of_memory(gfp, order);
	spin_unlock(&oom_lock);
	return page;
}

/*
 * Has @nid's zonelist for @gfp any zone at all?  Not for __GFP_THISNODE on
 * a node without memory (nor for __GFP_DMA there).  Then nothing can
 * help: Linux goes straight to its failure report, without reclaim or the
 * OOM killer, and so do we.
 */
static bool zonelist_has_zone(gfp_t gfp, int nid)
{
	return next_zones_zonelist(node_zonelist(nid, gfp)->_zonerefs, (int)gfp_zone(gfp))->zone;
}

/*
 * Is another reclaim round worth it after one that freed @freed objects
 * but gave no page?  While reclaim frees something, at most
 * MAX_RECLAIM_RETRIES rounds with progress (*@rounds).  Not for a costly
 * order: pages freed here and there rarely make a large block, so, as in
 * Linux 6.12's __alloc_pages_slowpath(), only compaction's results decide
 * whether it retries (should_compact_retry()).
 */
static bool should_reclaim_retry(gfp_t gfp, unsigned int order, unsigned long freed,
				 int *rounds)
{
	(void)gfp;
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return false;
	return freed && ++*rounds <= MAX_RECLAIM_RETRIES;
}

/* ---------------------------------------------------------------- direct compaction */

#define MAX_COMPACT_RETRIES	16	/* Linux's: retries after compaction "succeeded" */

/*
 * Compact the zones the allocation may use, then look again (Linux's
 * __alloc_pages_direct_compact()).  Under PF_MEMALLOC, as in Linux, so that
 * nothing compaction does reclaims.  A run that did something counts
 * compact_stall, and then compact_success or compact_fail by whether the
 * block was had; *@result says what compaction found.
 */
static struct page *__alloc_pages_direct_compact(gfp_t gfp, unsigned int order,
						 unsigned int alloc_flags, int nid,
						 enum compact_priority prio,
						 enum compact_result *result)
{
	unsigned int noreclaim;
	struct page *page;

	*result = COMPACT_SKIPPED;
	if (!order)
		return NULL;
	noreclaim = memalloc_noreclaim_save();
	*result = try_to_compact_pages(gfp, order, alloc_flags,
				       node_zonelist(nid, gfp)->_zonerefs, (int)gfp_zone(gfp), prio);
	memalloc_noreclaim_restore(noreclaim);
	if (*result == COMPACT_SKIPPED)
		return NULL;
	count_vm_event(COMPACTSTALL);
	page = get_page_from_freelist(gfp, order, alloc_flags, nid);
	if (page) {
		compaction_defer_reset(page_zone(page), (int)order, true);
		count_vm_event(COMPACTSUCCESS);
		return page;
	}
	count_vm_event(COMPACTFAIL);
	return NULL;
}

/*
 * A costly order with __GFP_RETRY_MAYFAIL: another reclaim and compaction
 * round?  Linux 6.12's should_compact_retry(), called only after a reclaim
 * round that freed something (@freed):
 *   skipped    too few free pages for compaction: retry, reclaim may free
 *              more (Linux asks compaction_zonelist_suitable(); reclaim's
 *              progress stands in for it here);
 *   success    compaction made the block but another CPU took it: retry,
 *              MAX_COMPACT_RETRIES / 4 times for a costly order;
 *   otherwise  compaction failed: retry at a higher priority, until
 *              MIN_COMPACT_COSTLY_PRIORITY (sync light).
 * Skipped rounds count against the same retries, so the loop is bounded.
 */
static bool should_compact_retry(unsigned int order, unsigned long freed,
				 enum compact_result result, enum compact_priority *prio,
				 int *retries)
{
	int max_retries = MAX_COMPACT_RETRIES / 4;
	enum compact_priority min_prio = order > PAGE_ALLOC_COSTLY_ORDER ?
					 MIN_COMPACT_COSTLY_PRIORITY : MIN_COMPACT_PRIORITY;

	if (!order || !freed)
		return false;
	if (result == COMPACT_SKIPPED || compaction_made_progress(result))
		return ++*retries <= max_retries;
	if (*prio > min_prio) {
		(*prio)--;
		*retries = 0;
		return true;
	}
	return false;
}

/*
 * The fast path found every zone below its low watermark: wake the kswapd
 * of each node the allocation could use, once per node (Linux's
 * wake_all_kswapds()), so that reclaim runs in the background.
 */
static void wake_all_kswapds(gfp_t gfp, unsigned int order, int nid)
{
	int highest = (int)gfp_zone(gfp), last_nid = NUMA_NO_NODE;

	for (struct zoneref *z = next_zones_zonelist(node_zonelist(nid, gfp)->_zonerefs, highest);
	     z->zone; z = next_zones_zonelist(z + 1, highest)) {
		if (z->zone->node == last_nid)
			continue;
		last_nid = z->zone->node;
		wakeup_kswapd(z->zone, gfp, (int)order, highest);
	}
}

static struct page *__alloc_pages_slowpath(gfp_t gfp, unsigned int order, int nid)
{
	bool nofail = gfp & __GFP_NOFAIL;
	/* __GFP_NOFAIL does not change who may be killed (as in Linux): see below. */
	bool may_oom = oom_allowed(gfp, order);
	unsigned int alloc_flags = gfp_to_alloc_flags(gfp);
	int rounds_with_progress = 0, compaction_retries = 0;
	enum compact_priority compact_priority = DEF_COMPACT_PRIORITY;
	enum compact_result compact_result;
	bool costly = order > PAGE_ALLOC_COSTLY_ORDER, unreserved = false;
	struct page *page;

	if (unlikely(!zonelist_has_zone(gfp, nid))) {
		if (!nofail)
			goto fail;
		/* Linux would retry for ever; we take the nearest node's memory instead. */
		WARN_ONCE(1, "page_alloc: __GFP_NOFAIL on node %d, which has no such memory "
			  "(mode:%#x)\n", nid, gfp);
		gfp &= ~__GFP_THISNODE;
	}
	if (gfp & __GFP_KSWAPD_RECLAIM)
		wake_all_kswapds(gfp, order, nid);
	page = get_page_from_freelist(gfp, order, alloc_flags, nid);
	if (page)
		return page;
	if (!(gfp & __GFP_DIRECT_RECLAIM))
		goto nofail_or_fail;	/* GFP_ATOMIC, GFP_NOWAIT: never reclaim or wait */
	if (in_memalloc_scope())
		goto nofail_or_fail;	/* in reclaim or the OOM killer: no recursion */
	/* A costly order tries async compaction before reclaim (Linux's "costly orders first"). */
	if (costly) {
		page = __alloc_pages_direct_compact(gfp, order, alloc_flags, nid,
						    INIT_COMPACT_PRIORITY, &compact_result);
		if (page)
			return page;
	}
	/* __GFP_NORETRY: async compaction only (Linux keeps it so for costly orders) */
	if (gfp & __GFP_NORETRY)
		compact_priority = INIT_COMPACT_PRIORITY;

	for (;;) {
		bool progress;
		unsigned long freed;

		/* Direct reclaim: SWAP_CLUSTER_MAX pages, at rising cost (mm/vmscan.c). */
		count_vm_event(ALLOCSTALL);
		freed = try_to_free_pages(gfp, nid);
		drain_all_pages();
		page = get_page_from_freelist(gfp, order, alloc_flags, nid);
		if (page)
			return page;
		/* once, a highatomic pageblock beyond a zone's first (Linux's direct reclaim) */
		if (!unreserved && unreserve_highatomic_pageblock(gfp, nid, false)) {
			unreserved = true;
			page = get_page_from_freelist(gfp, order, alloc_flags, nid);
			if (page)
				return page;
		}
		/* Then compaction, at the priority the retries reached (order > 0). */
		page = __alloc_pages_direct_compact(gfp, order, alloc_flags, nid,
						    compact_priority, &compact_result);
		if (page)
			return page;
		if ((gfp & __GFP_NORETRY) && !nofail)
			goto fail;		/* one round, never the OOM killer */
		if (costly && !(gfp & __GFP_RETRY_MAYFAIL) && !nofail)
			goto fail;		/* one reclaim and compaction round */
		if (should_reclaim_retry(gfp, order, freed, &rounds_with_progress))
			continue;		/* reclaim is helping: try again */
		/* before giving up, the whole highatomic reserve (Linux's should_reclaim_retry()) */
		if (unreserve_highatomic_pageblock(gfp, nid, true))
			continue;
		if (costly && should_compact_retry(order, freed, compact_result,
						   &compact_priority, &compaction_retries))
			continue;		/* compaction may still help */
		/* Reclaim stopped helping. */
		rounds_with_progress = 0;
		if (may_oom) {
			page = __alloc_pages_may_oom(gfp, order, nid, &progress);
			if (page)
				return page;
			if (!progress)
				goto no_progress;
			/* A victim freed memory (or too small to fail): look, then reclaim */
			page = get_page_from_freelist(gfp, order, alloc_flags, nid);
			if (page)
				return page;
			continue;
		}
no_progress:
		if (!nofail)
			goto fail;		/* nothing left to reclaim or kill */
		/* __GFP_NOFAIL: dig into the last reserve, then keep trying. */
		page = get_page_from_freelist(gfp, order, ALLOC_NO_WATERMARKS, nid);
		if (page)
			return page;
		WARN_ON_ONCE(1);
	}

nofail_or_fail:
	if (gfp & __GFP_NOFAIL)
		return nofail_without_reclaim(gfp, order, nid);
fail:
	count_vm_event(PGALLOC_FAIL);
	if (gfp & __GFP_NORETRY)
		count_vm_event(PGALLOC_NORETRY_FAIL);
	if (!(gfp & __GFP_NOWARN))
		warn_alloc(gfp, order);
	return NULL;
}

/*
 * A __GFP_COMP block: its head is marked, and every other page knows its
 * index in the block (compound_head()), so that an address anywhere in the
 * block leads to the page that describes the whole block.
 */
static void prep_compound_page(struct page *page, unsigned int order)
{
	/* the index sits between the PG_ bits and the zone (mm/page_alloc.h) */
	BUILD_BUG_ON(__NR_PAGEFLAGS > PAGE_INDEX_SHIFT ||
		     PAGE_INDEX_SHIFT + MAX_PAGE_ORDER > PAGE_ORDER_SHIFT ||
		     MAX_PAGE_ORDER > PAGE_ORDER_MASK ||
		     PAGE_ORDER_MASK << PAGE_ORDER_SHIFT >= 1UL << ZONES_SHIFT);
	page_set(page, PG_head);
	for (unsigned long i = 1; i < (1UL << order); i++)
		page[i].flags |= i << PAGE_INDEX_SHIFT;
}

/* Undo prep_compound_page() on a block being freed. */
static void free_compound_page(struct page *page, unsigned int order)
{
	page_clear(page, PG_head);
	for (unsigned long i = 1; i < (1UL << order); i++) {
		VM_BUG_ON_PAGE(compound_head(&page[i]) != page, &page[i]);
		page[i].flags &= ~(PAGE_INDEX_MASK << PAGE_INDEX_SHIFT);
	}
}

/*
 * Make a block ready to hand out: record its order (in the flags: private
 * is the owner's, and 0 already), check poison, zero it.
 */
static void prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	page->flags |= 1UL << PG_allocated | (unsigned long)order << PAGE_ORDER_SHIFT;
	if ((gfp & __GFP_COMP) && order)
		prep_compound_page(page, order);
	kasan_alloc_pages(page, order);
	check_poison_block(page, order);
	if (gfp & __GFP_ZERO) {
		for (unsigned long i = 0; i < (1UL << order); i++)
			memset(page_address(page + i), 0, PAGE_SIZE);
	}
	count_vm_event(PGALLOC_ORDER0 + order);	/* pgalloc, in pages, is read from these */
}

/*
 * Allocations of this order or more go through alloc_pages_refused() first.
 * Normally that is only orders above MAX_PAGE_ORDER, to be refused; fault
 * injection lowers it while it is armed (mm/fault_inject.c), so that the
 * fast path pays for its hook nothing but the compare it made anyway: with
 * a variable instead of a constant.
 */
unsigned int alloc_checked_order = NR_PAGE_ORDERS;

/* The checked way in: too large an order, or a failure injected on purpose. */
static __noinline bool alloc_pages_refused(gfp_t gfp, unsigned int order, void *caller)
{
	if (order <= MAX_PAGE_ORDER)
		return should_fail_alloc_page(gfp, order);
	if (!(gfp & __GFP_NOWARN))
		pr_warn("page_alloc: order %u is larger than MAX_PAGE_ORDER (%d), caller %pS\n",
			order, MAX_PAGE_ORDER, caller);
	count_vm_event(PGALLOC_FAIL);
	return true;
}

/**
 * bad_node_refused - report an allocation on a node that does not exist
 * @fn: the function that was given @nid, for the report
 * @nid: the number, neither NUMA_NO_NODE nor below nr_node_ids
 * @gfp: the caller's flags
 * @caller: named in the report
 *
 * Linux leaves this undefined (a VM_BUG_ON with CONFIG_DEBUG_VM, else an
 * out-of-bounds NODE_DATA()); here it is reported in one line, unless
 * __GFP_NOWARN, and decided as a caller would expect: with __GFP_THISNODE
 * only that node would do, so the allocation fails; without, the memory
 * comes from the local node, as for NUMA_NO_NODE.
 *
 * Context: any.
 * Return: true if the allocation must fail (__GFP_THISNODE).
 */
bool bad_node_refused(const char *fn, int nid, gfp_t gfp, const void *caller)
{
	bool refused = gfp & __GFP_THISNODE;
	const char *outcome = refused ? "failed (__GFP_THISNODE)" : "using the local node";

	if (!(gfp & __GFP_NOWARN))
		pr_warn("%s: node %d does not exist (nr_node_ids %u), caller %pS: %s\n", fn, nid,
			nr_node_ids, caller, outcome);
	return refused;
}

/* alloc_pages_node(), naming @caller (not one of our wrappers) in the order warning. */
static __always_inline struct page *alloc_pages_caller(int nid, gfp_t gfp, unsigned int order,
						       void *caller)
{
	struct page *page;

	if (unlikely(order >= alloc_checked_order) && alloc_pages_refused(gfp, order, caller))
		return NULL;
	gfp = might_alloc(gfp, caller);
	if (nid == NUMA_NO_NODE) {
		nid = numa_mem_id();	/* the local node, as Linux */
	} else if (unlikely((unsigned int)nid >= nr_node_ids)) {
		if (bad_node_refused("alloc_pages_node", nid, gfp, caller))
			return NULL;
		nid = numa_mem_id();
	}
	page = get_page_from_freelist(gfp, order, ALLOC_WMARK_LOW, nid);
	if (!page)
		page = __alloc_pages_slowpath(current_gfp_context(gfp), order, nid);	/* scopes */
	if (page)
		prep_new_page(page, order, gfp);
	return page;
}

/**
 * alloc_pages_node - allocate 2^@order contiguous pages, preferably on node @nid
 * @nid: preferred NUMA node, or NUMA_NO_NODE for the current CPU's memory
 *	  node (numa_mem_id(): its own, unless that has no memory)
 * @gfp: how hard to try and where from (mm/gfp.h); __GFP_THISNODE fails at
 *	 once, without reclaim, on a node that has no memory
 * @order: log2 of the number of pages, 0..MAX_PAGE_ORDER
 *
 * Context: with __GFP_DIRECT_RECLAIM (GFP_KERNEL) the call may run
 * shrinkers and the OOM killer before it returns; without it (GFP_ATOMIC,
 * GFP_NOWAIT) it never does and may be called with interrupts off.
 * Return: the first page of the block, or NULL (with a "page allocation
 * failure" report unless __GFP_NOWARN).  Never NULL with __GFP_NOFAIL.
 */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	return alloc_pages_caller(nid, gfp, order, __builtin_return_address(0));
}

/**
 * alloc_pages - allocate 2^@order contiguous pages on the current node
 *
 * See alloc_pages_node().  Return: the first page, or NULL.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	return alloc_pages_caller(NUMA_NO_NODE, gfp, order, __builtin_return_address(0));
}

/* Put @page, just taken off a list, into slot @slot: what alloc_pages() does to a page. */
static __always_inline void bulk_hand_out(struct page **slot, struct page *page, gfp_t gfp)
{
	prep_new_page(page, 0, gfp);
	*slot = page;
}

/*
 * The slots this CPU's list could not fill, from the buddy lists: whole
 * blocks, the largest that the remaining slots can use, cut into single
 * pages (as split_page() cuts one) rather than split down to order 0 on the
 * lists and taken off again one at a time.  The zone's lock is taken once.
 * Interrupts are off.  Return: how many slots it filled.
 */
static unsigned long rmqueue_bulk_blocks(struct zone *zone, gfp_t gfp, unsigned long missing,
					 struct page **slot)
{
	unsigned long taken = 0;
	int mt = gfp_migratetype(gfp);

	spin_lock(&zone->lock);
	while (taken < missing) {
		unsigned int order = min_t(unsigned int, ilog2(missing - taken), MAX_PAGE_ORDER);
		struct page *block;

		while (!(block = __rmqueue(zone, order, mt)) && order)
			order--;
		if (!block)
			break;
		for (unsigned long i = 0; i < (1UL << order); i++, taken++) {
			while (*slot)
				slot++;
			bulk_hand_out(slot, block + i, gfp);
		}
	}
	spin_unlock(&zone->lock);
	return taken;
}

/*
 * The fast part of alloc_pages_bulk_node(), in one interrupts-off section,
 * while the preferred zone stays above its low watermark with all of them
 * taken: first the pages on this CPU's list of that zone (the cache-hot
 * ones), then whole blocks of its buddy lists (rmqueue_bulk_blocks()); the
 * list is not refilled a batch at a time on the way, which would put every
 * page on it only to take it off again.  Return: how many slots it filled.
 */
static unsigned long rmqueue_bulk_pcplist(gfp_t gfp, int nid, unsigned long nr_pages,
					  struct page **page_array)
{
	int highest = (int)gfp_zone(gfp);
	struct zone *zone = next_zones_zonelist(node_zonelist(nid, gfp)->_zonerefs,
						highest)->zone;
	struct per_cpu_pages *pcp;
	unsigned long flags, taken = 0, missing = 0;
	int mt = gfp_migratetype(gfp);

	if (!zone || !zone_watermark_ok(zone, 0, zone->watermark[WMARK_LOW] + nr_pages, highest,
					ALLOC_WMARK_LOW))
		return 0;
	local_irq_save(flags);
	pcp = this_cpu_ptr(zone->per_cpu_pageset);
	for (unsigned long i = 0; i < nr_pages; i++) {
		if (page_array[i])
			continue;
		if (list_empty(&pcp->lists[mt])) {
			missing++;
			continue;
		}
		bulk_hand_out(&page_array[i], __rmqueue_pcplist(zone, pcp, mt), gfp);
		taken++;
	}
	count_vm_events(PCP_ALLOC, taken);
	if (missing)
		taken += rmqueue_bulk_blocks(zone, gfp, missing, page_array);
	/* zone_statistics() for all of them: the zone is the preferred one */
	count_numa_events(zone->node, NUMA_HIT, taken);
	count_numa_events(zone->node, zone->node == numa_node_id() ? NUMA_LOCAL : NUMA_OTHER,
			  taken);
	local_irq_restore(flags);
	return taken;
}

/**
 * alloc_pages_bulk_node - fill the empty slots of @page_array with single pages
 * @gfp: as alloc_pages_node()
 * @nid: preferred NUMA node, or NUMA_NO_NODE for the current CPU's memory node
 * @nr_pages: the number of slots in @page_array
 * @page_array: its NULL slots are filled; the others are left alone
 *
 * Many order-0 allocations for the price of few (vmalloc() takes its pages
 * this way): one interrupts-off section takes them from this CPU's list of
 * the preferred zone, refilled from the buddy lists a batch at a time, as
 * long as the zone stays above its low watermark with all of them taken.
 * The rest come one by one from alloc_pages_node(), which may reclaim;
 * all of them do while fault injection may fail order-0 pages, so that
 * each page is a failure point of its own (Linux fails the whole bulk call
 * at once instead): a fault can then land in the middle of the array, the
 * case a caller has to clean up after.
 * Context: as alloc_pages_node().
 * Return: the number of filled slots, @nr_pages unless an allocation failed
 * (the slots after the failure stay NULL; the pages taken stay the caller's).
 */
unsigned long alloc_pages_bulk_node(gfp_t gfp, int nid, unsigned long nr_pages,
				    struct page **page_array)
{
	void *caller = __builtin_return_address(0);
	unsigned long filled = 0;

	gfp = might_alloc(gfp, caller);
	if (nid == NUMA_NO_NODE) {
		nid = numa_mem_id();	/* the local node, as Linux */
	} else if (unlikely((unsigned int)nid >= nr_node_ids)) {
		if (bad_node_refused("alloc_pages_bulk_node", nid, gfp, caller))
			return 0;
		nid = numa_mem_id();
	}
	/* Fault injection wants every page to go by alloc_pages_refused(): one by one. */
	if (likely(alloc_checked_order))
		rmqueue_bulk_pcplist(gfp, nid, nr_pages, page_array);
	for (unsigned long i = 0; i < nr_pages; i++, filled++) {
		if (!page_array[i])
			page_array[i] = alloc_pages_caller(nid, gfp, 0, caller);
		if (!page_array[i])
			break;
	}
	return filled;
}

static unsigned long get_free_pages_caller(gfp_t gfp, unsigned int order, void *caller)
{
	struct page *page = alloc_pages_caller(NUMA_NO_NODE, gfp, order, caller);

	return page ? (unsigned long)page_address(page) : 0;
}

/**
 * __get_free_pages - alloc_pages(), returning the direct-map address
 *
 * Return: the address of the block, or 0.
 */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	return get_free_pages_caller(gfp, order, __builtin_return_address(0));
}

/** get_zeroed_page - one zeroed page; Return: its address, or 0 */
unsigned long get_zeroed_page(gfp_t gfp)
{
	return get_free_pages_caller(gfp | __GFP_ZERO, 0, __builtin_return_address(0));
}

/* ---------------------------------------------------------------- freeing */

/* What every free does to a block whose checks have passed, before it goes on a list. */
static __always_inline void free_block_prepare(struct page *page, unsigned int order)
{
	if (unlikely(PageHead(page)))
		free_compound_page(page, order);
	/*
	 * The order, out of the gate's atomic: a lone bit there is one locked btr;
	 * and a movable page's marks (mm/migrate.h), in the same and.
	 */
	page->flags &= ~(PAGE_ORDER_MASK << PAGE_ORDER_SHIFT | 1UL << PG_movable |
			 1UL << PG_isolated);
	page->private = 0;	/* whatever the owner kept there: handed out as 0, as Linux */
	poison_block(page, order);
	kasan_free_pages(page, order);
	count_vm_event(PGFREE_ORDER0 + order);	/* and so is pgfree */
}

/* Free a block whose checks have passed (and cleared PG_allocated). */
static __always_inline void free_block(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags;

	free_block_prepare(page, order);
	if (order == 0) {
		free_unref_page(page, zone);
		return;
	}
	spin_lock_irqsave(&zone->lock, flags);
	__free_one_page(page, page_to_pfn(page), zone, order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

/* __free_pages() and free_pages() with the caller to name in a report. */
static __always_inline void free_pages_caller(struct page *page, unsigned int order,
					      void *caller)
{
	if (!free_pages_check(page, order, caller))
		return;		/* reported; nothing was touched */
	free_block(page, order);
}

/**
 * split_page - make a block of 2^@order pages into as many single pages
 * @page: the first page of a block from alloc_pages() without __GFP_COMP
 * @order: its order
 *
 * Each page can then be freed on its own with __free_page(), in any order
 * (Linux's split_page()).  kvdemo uses it to keep one page of every eight
 * and free the rest.
 * Context: any.
 */
void split_page(struct page *page, unsigned int order)
{
	VM_BUG_ON_PAGE(PageHead(page) || !page_test(page, PG_allocated) ||
		       allocated_order(page) != order, page);
	page->flags &= ~(PAGE_ORDER_MASK << PAGE_ORDER_SHIFT);	/* order 0 now */
	for (unsigned long i = 1; i < (1UL << order); i++)
		page_set(&page[i], PG_allocated);
}

/*
 * Free @nr consecutive frames from @page, all of @zone and each checked and
 * prepared as a single page, to the buddy lists as the largest aligned
 * blocks they make up: one merge per block, not one per page.  Interrupts
 * are off.
 */
static void free_run_to_buddy(struct page *page, unsigned long nr, struct zone *zone)
{
	unsigned long pfn = page_to_pfn(page);

	spin_lock(&zone->lock);
	while (nr) {
		unsigned int order = min_t(unsigned int, ilog2(nr), MAX_PAGE_ORDER);

		if (pfn)
			order = min_t(unsigned int, order, __builtin_ctzl(pfn));
		__free_one_page(pfn_to_page(pfn), pfn, zone, order);
		pfn += 1UL << order;
		nr -= 1UL << order;
	}
	spin_unlock(&zone->lock);
}

/**
 * free_pages_bulk - __free_pages(@pages[i], 0) for each of @nr single pages
 * @pages: pages from alloc_pages_bulk_node() or alloc_pages() of order 0;
 *	   NULL slots are skipped
 * @nr: slots in @pages
 *
 * The same checks and reports as __free_pages(), page by page, with one
 * interrupts-off section for all of them.  Pages go to this CPU's list of
 * their zone while it has room below its high mark; the rest, which would
 * only be drained from the list a batch later, go straight to the buddy
 * lists, each run of consecutive frames (as rmqueue_bulk_blocks() handed
 * them out) as whole blocks.
 * Context: any; may be called with interrupts off.
 */
void free_pages_bulk(struct page **pages, unsigned long nr)
{
	void *caller = __builtin_return_address(0);
	struct zone *run_zone = NULL;
	struct page *run = NULL;
	unsigned long flags, run_len = 0;

	local_irq_save(flags);
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = pages[i];
		struct per_cpu_pages *pcp;
		struct zone *zone;

		if (!page || !free_pages_check(page, 0, caller))
			continue;
		free_block_prepare(page, 0);
		zone = page_zone(page);
		pcp = this_cpu_ptr(zone->per_cpu_pageset);
		if (pcp->count + 1 < pcp->high) {
			__free_unref_page(page, zone);	/* below the mark: never drains */
			continue;
		}
		if (run && zone == run_zone && page == run + run_len) {
			run_len++;
			continue;
		}
		if (run)
			free_run_to_buddy(run, run_len, run_zone);
		run = page;
		run_len = 1;
		run_zone = zone;
	}
	if (run)
		free_run_to_buddy(run, run_len, run_zone);
	local_irq_restore(flags);
}

/**
 * __free_pages - give back a block from alloc_pages()
 * @page: the page alloc_pages() returned
 * @order: the order it was allocated with
 *
 * A wrong @order, a page that is not the start of an allocated block, a
 * reserved page or a page already free is reported in one line and
 * ignored: nothing is freed and nothing is corrupted.
 * Context: any; may be called with interrupts off.
 */
void __free_pages(struct page *page, unsigned int order)
{
	free_pages_caller(page, order, __builtin_return_address(0));
}

/**
 * free_pages - give back a block by its direct-map address
 * @addr: what __get_free_pages() returned (0 is ignored)
 * @order: the order it was allocated with
 *
 * Besides __free_pages()'s checks, an address that is not page-aligned or
 * not in the direct map is reported and ignored.
 */
void free_pages(unsigned long addr, unsigned int order)
{
	void *caller = __builtin_return_address(0);

	if (!addr)
		return;
	if (!free_pages_addr_check(addr, order, caller))
		return;
	free_pages_caller(virt_to_page((void *)addr), order, caller);
}

/**
 * alloc_pages_exact - allocate @size bytes of contiguous pages, no more
 * @size: bytes; rounded up to whole pages
 * @gfp: as for alloc_pages()
 *
 * The block is allocated at the next power of two and its unused tail pages
 * are freed at once, each on its own.
 * Return: the address, or NULL.  Free with free_pages_exact(addr, size).
 */
void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	unsigned int order = get_order(size);
	unsigned long used = DIV_ROUND_UP(size, PAGE_SIZE), total = 1UL << order;
	struct page *page;

	if (!size)
		return NULL;
	/* The block is cut into single pages below: it cannot be compound (Linux agrees). */
	gfp &= ~__GFP_COMP;
	page = alloc_pages_caller(NUMA_NO_NODE, gfp, order, __builtin_return_address(0));
	if (!page)
		return NULL;
	/* Split into independent order-0 pages, then free the tail (never handed out). */
	page->flags &= ~(PAGE_ORDER_MASK << PAGE_ORDER_SHIFT);	/* order 0 now */
	for (unsigned long i = 1; i < used; i++)
		page_set(&page[i], PG_allocated);
	for (unsigned long i = used; i < total; i++)
		free_block(&page[i], 0);
	return page_address(page);
}

/**
 * free_pages_exact - free what alloc_pages_exact(@size) returned
 * @virt: the address alloc_pages_exact() returned
 * @size: the size passed to it
 */
void free_pages_exact(void *virt, size_t size)
{
	unsigned long addr = (unsigned long)virt;
	void *caller = __builtin_return_address(0);

	for (unsigned long i = 0; i < DIV_ROUND_UP(size, PAGE_SIZE); i++) {
		if (free_pages_addr_check(addr + i * PAGE_SIZE, 0, caller))
			free_pages_caller(virt_to_page((void *)(addr + i * PAGE_SIZE)), 0, caller);
	}
}

/* ---------------------------------------------------------------- for compaction */

/**
 * __isolate_free_page - take a free block off its free list for compaction
 * @page: the first page of a free block (PageBuddy) of @order
 * @order: its order
 *
 * The free scanner's way to take migration targets (Linux's
 * __isolate_free_page()): only while the zone keeps its min watermark plus
 * the block, so that compaction never eats the reserve it would then need.
 * The block is off the lists and out of nr_free, still not "allocated":
 * post_alloc_hook() makes it so.
 * Context: the zone's lock held, interrupts off.
 * Return: the pages taken (2^@order), or 0 if the watermark says no.
 */
unsigned long __isolate_free_page(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long mark = zone->watermark[WMARK_MIN] + (1UL << order);

	if (!zone_watermark_ok(zone, 0, mark, 0, 0))
		return 0;
	del_from_free_list(page, zone, order);
	data_race(zone->nr_free -= 1UL << order);	/* as in __free_one_page() */
	return 1UL << order;
}

/**
 * post_alloc_hook - make an isolated free block an allocated one
 * @page: a block __isolate_free_page() took
 * @order: its order
 * @gfp: as an allocation's (__GFP_ZERO zeroes it; __GFP_COMP is not wanted here)
 *
 * What alloc_pages() does to a block before handing it out: its order in
 * the flags, the poison checked, KASAN told, counted in pgalloc.
 * Context: any; not under the zone's lock (a poison report prints).
 */
void post_alloc_hook(struct page *page, unsigned int order, gfp_t gfp)
{
	prep_new_page(page, order, gfp);
}

/* ---------------------------------------------------------------- counting */

/** zone_free_pages - free pages in @zone: its buddy lists plus every CPU's list */
unsigned long zone_free_pages(const struct zone *zone)
{
	unsigned long free = READ_ONCE(zone->nr_free);
	unsigned int cpu;

	for_each_online_cpu(cpu)
		free += READ_ONCE(per_cpu_ptr(zone->per_cpu_pageset, cpu)->count);
	return free;
}

/* ---------------------------------------------------------------- checking */

/*
 * One free list of @zone: @order's for type @mt.  Each block where its
 * order says, on the list of its pageblock's type; returns the problems
 * and adds the blocks to *@n.
 */
static unsigned int check_free_list(struct zone *zone, unsigned int order, int mt,
				    unsigned long *n)
{
	unsigned long pfn, buddy;
	unsigned int problems = 0;
	struct page *page;

	list_for_each_entry(page, &zone->free_area[order].free_list[mt], lru) {
		pfn = page_to_pfn(page);
		if (++*n > zone->spanned_pages || pfn < zone->zone_start_pfn ||
		    pfn >= zone_end_pfn(zone) || (pfn & ((1UL << order) - 1)) ||
		    !PageBuddy(page) || page->private != order) {
			pr_err("BUG: buddy: %s order %u: block at pfn %#lx misplaced (flags %#lx, "
			       "order %lu)\n", zone->name, order, pfn, page->flags, page->private);
			return problems + 1;	/* the list itself may be broken: stop */
		}
		if (get_pageblock_migratetype(page) != mt) {
			pr_err("BUG: buddy: %s order %u: block at pfn %#lx on the list of type %d, "
			       "its pageblock is of type %d\n", zone->name, order, pfn, mt,
			       get_pageblock_migratetype(page));
			problems++;
		}
		/* Two free buddies of one order, of types that mix, are one block not merged. */
		buddy = pfn ^ (1UL << order);
		if (order < MAX_PAGE_ORDER && buddy >= zone->zone_start_pfn &&
		    buddy < zone_end_pfn(zone) && pfn_valid(buddy) &&
		    PageBuddy(pfn_to_page(buddy)) && pfn_to_page(buddy)->private == order &&
		    migratetypes_mergeable(mt, get_pageblock_migratetype(pfn_to_page(buddy)))) {
			pr_err("BUG: buddy: %s order %u: blocks at pfn %#lx and %#lx are both free, "
			       "not merged\n", zone->name, order, pfn, buddy);
			problems++;
		}
	}
	return problems;
}

/* One zone's free lists of @order, every type; returns the problems. */
static unsigned int check_free_area(struct zone *zone, unsigned int order, unsigned long *pages)
{
	struct free_area *area = &zone->free_area[order];
	unsigned int problems = 0;
	unsigned long n = 0;

	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		problems += check_free_list(zone, order, mt, &n);
	if (n != area->nr_free) {
		pr_err("BUG: buddy: %s order %u: %lu blocks listed, nr_free says %lu\n",
		       zone->name, order, n, area->nr_free);
		problems++;
	}
	*pages += n << order;
	return problems;
}

/* The highatomic reserve's count: a pageblock's pages for each MIGRATE_HIGHATOMIC pageblock. */
static unsigned int check_highatomic_reserve(struct zone *zone)
{
	unsigned long pages = 0;

	for (unsigned long pfn = ALIGN_DOWN(zone->zone_start_pfn, pageblock_nr_pages);
	     pfn < zone_end_pfn(zone); pfn += pageblock_nr_pages) {
		if (get_pfnblock_migratetype(zone, max(pfn, zone->zone_start_pfn)) ==
		    MIGRATE_HIGHATOMIC)
			pages += pageblock_nr_pages;
	}
	if (pages == zone->nr_reserved_highatomic)
		return 0;
	pr_err("BUG: buddy: %s: %lu pages in highatomic pageblocks, nr_reserved_highatomic "
	       "says %lu\n", zone->name, pages, zone->nr_reserved_highatomic);
	return 1;
}

/* Every CPU's list of @zone: PG_pcp pages of the zone, as many as counted. */
static unsigned int check_pcp_lists(struct zone *zone)
{
	unsigned int cpu, problems = 0;

	for_each_online_cpu(cpu) {
		struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
		struct page *page;
		long n = 0;

		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
			list_for_each_entry(page, &pcp->lists[mt], lru) {
				if (++n > pcp->count || !page_test(page, PG_pcp) ||
				    page_zone(page) != zone)
					break;
			}
		}
		if (n != pcp->count) {
			pr_err("BUG: buddy: %s CPU %u's list: %ld pages good, count says %d\n",
			       zone->name, cpu, n, pcp->count);
			problems++;
		}
	}
	return problems;
}

/**
 * check_free_lists - check every zone's free lists and per-CPU lists
 *
 * Each block on a free list of order n is a PG_buddy block of order n,
 * aligned to it, inside its zone, and not beside a free buddy of the same
 * order (they would have been merged); each list is as long as its
 * nr_free, the zone's nr_free is their sum in pages, and each CPU's list
 * holds as many PG_pcp pages of the zone as its count, and the highatomic
 * reserve counts its pageblocks' pages.  A problem is
 * printed as one "BUG: buddy:" line.  (tests/host/buddy_check.c checks
 * more, with a bitmap of every page, on the host.)
 *
 * Context: a quiescent point: no other CPU allocates or frees pages (the
 * per-CPU lists are read without their CPUs' interrupts off); takes each
 * zone's lock.  The allocator torture (tests/torture/) calls it.
 * Return: the number of problems found (0: consistent).
 */
unsigned int check_free_lists(void)
{
	unsigned int problems = 0;
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long flags, pages = 0;

		spin_lock_irqsave(&zone->lock, flags);
		for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++)
			problems += check_free_area(zone, order, &pages);
		if (pages != zone->nr_free) {
			pr_err("BUG: buddy: %s: %lu pages on the free lists, nr_free says %lu\n",
			       zone->name, pages, zone->nr_free);
			problems++;
		}
		problems += check_pcp_lists(zone);
		problems += check_highatomic_reserve(zone);
		spin_unlock_irqrestore(&zone->lock, flags);
	}
	return problems;
}

/**
 * nr_free_pages - free pages in the whole machine
 *
 * Unlike Linux's, this counts pages on the per-CPU lists too, so that an
 * allocation followed by its free leaves the number unchanged.
 */
unsigned long nr_free_pages(void)
{
	unsigned long free = 0;
	struct zone *zone;

	for_each_populated_zone(zone)
		free += zone_free_pages(zone);
	return free;
}

/**
 * nr_free_buddy_pages - free pages in the buddy lists' blocks of order >= @min_order
 * @min_order: the smallest block to count (0: every free page on a buddy list)
 *
 * Every zone of every node, each read under its lock, so the count is exact
 * at the moment each zone is read; the per-CPU lists are not counted (their
 * pages are not in blocks).  The replayer's fragmentation figure divides the
 * count of order >= 3 by the count of order >= 0 (docs/bench.md, section 8).
 * Context: any but an interrupt handler that interrupted a holder of a zone lock.
 * Return: the number of pages.
 */
unsigned long nr_free_buddy_pages(unsigned int min_order)
{
	unsigned long pages = 0, flags;
	struct zone *zone;

	for_each_populated_zone(zone) {
		spin_lock_irqsave(&zone->lock, flags);
		for (unsigned int order = min_order; order < NR_PAGE_ORDERS; order++)
			pages += zone->free_area[order].nr_free << order;
		spin_unlock_irqrestore(&zone->lock, flags);
	}
	return pages;
}
