/*
 * mm/kcompactd.c - compaction in the background: a kcompactd per node, as
 * deferred work, and proactive compaction.
 *
 * Direct compaction (mm/compaction.c) makes the allocation that needs a
 * large block pay for it.  Linux also compacts in the background, in two
 * cases, and so does this kernel:
 *
 *   on demand   when kswapd has reclaimed for a high order, or when an
 *               allocation that may not compact itself (no
 *               __GFP_DIRECT_RECLAIM: kvmalloc()'s nodirect attempt, an
 *               interrupt handler) found no block of its order, the node's
 *               kcompactd is woken for that order (wakeup_kcompactd()); it
 *               compacts each zone that could make the block, in sync-light
 *               mode, as Linux's kcompactd_do_work(), with the same
 *               deferral after failures as direct compaction;
 *   proactive   with compaction_proactiveness above 0 (Linux's default, 20),
 *               each run also looks at the node's fragmentation score (the
 *               share of free memory outside 2 MiB blocks, weighted by zone
 *               size) and compacts whole zones while it is above the high
 *               mark, 100 - proactiveness + 10: Linux's proactive
 *               compaction, which keeps huge blocks ready before anyone asks.
 *
 * Like kswapd (mm/kswapd.c), a kcompactd is a work item on the CPU that woke
 * it, run when that CPU is next idle; Linux's kcompactd thread also wakes
 * every half second for the proactive check, which this kernel, with no
 * timers for work, does when kswapd has run.  Each run counts
 * compact_daemon_wake.  Linux: https://github.com/torvalds/linux/blob/v6.12/mm/compaction.c
 * (kcompactd(), kcompactd_do_work(), wakeup_kcompactd(),
 * fragmentation_score_node(), proactive_compact_node()).
 */
#include "mm/compaction.h"
#include "mm/internal.h"
#include "mm/vmstat.h"
#include "kernel/workqueue.h"

/* Linux's vm.compaction_proactiveness: 0 (off) to 100; the monitor's `proactiveness` sets it */
unsigned int sysctl_compaction_proactiveness = 20;

struct kcompactd {
	struct work_struct work;
	int max_order;			/* the largest order asked for since it last ran */
	int highest_zoneidx;
};

static void kcompactd_work(struct work_struct *work);

static struct kcompactd kcompactd_nodes[MAX_NUMNODES] = {
	[0 ... MAX_NUMNODES - 1] = { .work = __WORK_INITIALIZER(kcompactd_work) },
};

/* ---------------------------------------------------------------- the fragmentation score */

/* The share of @zone's free memory, in percent, not in free blocks of pageblock_order or more. */
static unsigned int extfrag_for_pageblocks(struct zone *zone)
{
	unsigned long free = 0, suitable = 0;

	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long blocks = READ_ONCE(zone->free_area[o].nr_free);

		free += blocks << o;
		if (o >= pageblock_order)
			suitable += blocks << o;
	}
	return free ? (unsigned int)((free - suitable) * 100 / free) : 0;
}

/**
 * fragmentation_score_node - how fragmented @pgdat's free memory is, 0 to 100
 * @pgdat: the node
 *
 * Each zone's share of free memory outside 2 MiB blocks, weighted by the
 * zone's size within the node (Linux's fragmentation_score_node()).
 * Context: any; reads the free counts without the locks.
 */
unsigned int fragmentation_score_node(pg_data_t *pgdat)
{
	unsigned long score = 0, node_pages = 0;

	for (int i = 0; i < MAX_NR_ZONES; i++)
		node_pages += pgdat->node_zones[i].present_pages;
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (zone_populated(zone))
			score += extfrag_for_pageblocks(zone) * zone->present_pages;
	}
	return (unsigned int)(score / (node_pages + 1));
}

/* Linux's fragmentation_score_wmark(): proactive compaction runs above high, down to low. */
static unsigned int fragmentation_score_wmark(bool low)
{
	unsigned int wmark_low = max(100U - sysctl_compaction_proactiveness, 5U);

	return low ? wmark_low : min(wmark_low + 10, 100U);
}

static bool should_proactive_compact_node(pg_data_t *pgdat)
{
	return sysctl_compaction_proactiveness &&
	       fragmentation_score_node(pgdat) > fragmentation_score_wmark(false);
}

/* ---------------------------------------------------------------- the work */

/* Could compacting some zone of @pgdat up to @highest make a block of @order? */
static bool kcompactd_node_suitable(pg_data_t *pgdat, int order, int highest)
{
	for (int i = 0; i <= highest; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (zone_populated(zone) && !compaction_deferred(zone, order) &&
		    compaction_suitable(zone, order, highest))
			return true;
	}
	return false;
}

/* Compact each zone that could make a block of @order, in sync-light mode (kcompactd_do_work()). */
static void kcompactd_do_work(pg_data_t *pgdat, int order, int highest)
{
	for (int i = 0; i <= highest; i++) {
		struct zone *zone = &pgdat->node_zones[i];
		enum compact_result status;

		if (!zone_populated(zone) || compaction_deferred(zone, order))
			continue;
		status = compact_zone_order(zone, order, GFP_KERNEL, COMPACT_PRIO_SYNC_LIGHT,
					    ALLOC_WMARK_MIN, highest, NULL);
		if (status == COMPACT_SUCCESS)
			compaction_defer_reset(zone, order, false);
		else if (status == COMPACT_COMPLETE)
			defer_compaction(zone, order);
	}
}

/* Whole zones, most fragmented first in node order, until the score is at or below low. */
static void proactive_compact_node(pg_data_t *pgdat)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (fragmentation_score_node(pgdat) <= fragmentation_score_wmark(true))
			return;
		if (zone_populated(zone) && extfrag_for_pageblocks(zone) > 0)
			compact_zone_fully(zone, NULL);
	}
}

static void kcompactd_work(struct work_struct *work)
{
	struct kcompactd *k = container_of(work, struct kcompactd, work);
	pg_data_t *pgdat = NODE_DATA((int)(k - kcompactd_nodes));
	int order = __atomic_exchange_n(&k->max_order, 0, __ATOMIC_RELAXED);
	int highest = __atomic_exchange_n(&k->highest_zoneidx, 0, __ATOMIC_RELAXED);
	unsigned int noreclaim = memalloc_noreclaim_save();	/* as Linux's: no reclaim inside */

	count_vm_event(COMPACTDAEMON_WAKE);
	if (order > 0)
		kcompactd_do_work(pgdat, order, highest);
	if (should_proactive_compact_node(pgdat))
		proactive_compact_node(pgdat);
	memalloc_noreclaim_restore(noreclaim);
}

/**
 * wakeup_kcompactd - ask @pgdat's node to compact in the background
 * @pgdat: the node
 * @order: the order an allocation could not get, or 0 for only the
 *	   proactive check
 * @highest_zoneidx: the highest zone that allocation could use
 *
 * Queued on this CPU if compacting could make a block of @order in some
 * zone (not deferred, compaction_suitable()), or if proactive compaction is
 * on and the node's fragmentation score is above its high mark; else
 * nothing (Linux's wakeup_kcompactd()).
 * Context: any, interrupts on or off (it only queues work).
 */
void wakeup_kcompactd(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	struct kcompactd *k = &kcompactd_nodes[pgdat->node_id];

	if (order > 0 && kcompactd_node_suitable(pgdat, order, highest_zoneidx)) {
		if (READ_ONCE(k->max_order) < order)
			WRITE_ONCE(k->max_order, order);
		if (READ_ONCE(k->highest_zoneidx) < highest_zoneidx)
			WRITE_ONCE(k->highest_zoneidx, highest_zoneidx);
	} else if (!should_proactive_compact_node(pgdat)) {
		return;
	}
	schedule_work_on(smp_processor_id(), &k->work);
}

/**
 * kcompactd_flush - wait until no node's kcompactd is queued or running
 *
 * For tests and the monitor.
 * Context: process context, may wait for other CPUs.
 */
void kcompactd_flush(void)
{
	for (int nid = 0; nid < (int)nr_node_ids; nid++)
		flush_work(&kcompactd_nodes[nid].work);
}
