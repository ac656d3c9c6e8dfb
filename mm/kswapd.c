/*
 * mm/kswapd.c - background reclaim: a kswapd per node, as deferred work.
 *
 * Direct reclaim makes the allocation that needs memory pay for it.
 * Linux avoids that where it can: when an allocation finds a zone below
 * its low watermark it wakes the node's kswapd thread, which reclaims
 * until the zone is back above its high watermark, so that most
 * allocations never see the slow path at all.  The gap between low and
 * high is kswapd's work: the wider it is, the less often it runs.
 *
 *	free pages
 *	   high ---------------------  kswapd stops here (balanced)
 *	   low  ---------------------  an allocation below it wakes kswapd
 *	   min  ---------------------  below it: direct reclaim, then the OOM killer
 *
 * This kernel has no threads, so each node's kswapd is a work item
 * (kernel/workqueue.c): wakeup_kswapd() queues it on the waking CPU's own
 * list, so it runs when that CPU is next idle (at the monitor's prompt,
 * or when a test flushes it), after the allocation that woke it, never
 * racing with it; and it reclaims from the shrinkers (mm/vmscan.c) at
 * falling priority until one eligible zone of the node is balanced, as
 * Linux's balance_pgdat().  (Linux's kswapd thread may run at once on
 * another CPU; here a demo or a test that counts reclaim sees the same
 * numbers every run.)
 * A kswapd woken again within a tenth of a second of finishing counts
 * kswapd_low_wmark_hit_quickly: Linux's sign that its watermarks are too
 * close together.  When it is done it wakes the node's kcompactd
 * (mm/kcompactd.c): reclaim frees pages, compaction makes them blocks.  Linux's kswapd is in mm/vmscan.c
 * (https://github.com/torvalds/linux/blob/v6.12/mm/vmscan.c, kswapd(),
 * balance_pgdat(), wakeup_kswapd()).
 */
#include "mm/compaction.h"
#include "mm/internal.h"
#include "mm/shrinker.h"
#include "mm/vmstat.h"
#include "kernel/hardirq.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/timer.h"

static void kswapd_work(struct work_struct *work);

struct kswapd {
	struct work_struct work;
	int order;			/* the largest order asked since it last ran */
	int highest_zoneidx;		/* the highest zone those allocations could use */
	unsigned long done_at;		/* jiffies when it last finished ... */
	bool ran;			/* ... if it ever did */
};

static struct kswapd kswapd_nodes[MAX_NUMNODES] = {
	[0 ... MAX_NUMNODES - 1] = { .work = __WORK_INITIALIZER(kswapd_work) },
};

/* Has some zone of @pgdat up to @highest a free block of @order above its high watermark? */
static bool pgdat_balanced(pg_data_t *pgdat, int order, int highest)
{
	bool any_managed = false;

	for (int i = 0; i <= highest; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (!zone_populated(zone))
			continue;
		any_managed = true;
		if (zone_watermark_ok(zone, (unsigned int)order, zone->watermark[WMARK_HIGH], highest,
				      0))
			return true;
	}
	return !any_managed;
}

/*
 * Reclaim on @pgdat's node until it is balanced for @order, at falling
 * priority (a 4096th of every cache first, as direct reclaim), counting
 * what the shrinkers scanned and freed as Linux counts kswapd's pages.
 */
static void balance_pgdat(pg_data_t *pgdat, int order, int highest)
{
	count_vm_event(PAGEOUTRUN);
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		unsigned long scanned = cpu_vm_event(smp_processor_id(), SLABS_SCANNED);
		unsigned long freed;

		if (pgdat_balanced(pgdat, order, highest))
			return;
		freed = shrink_slab(GFP_KERNEL, pgdat->node_id, priority);
		/* this CPU's count: only this work item shrinks here meanwhile */
		count_vm_events(PGSCAN_KSWAPD,
				cpu_vm_event(smp_processor_id(), SLABS_SCANNED) - scanned);
		count_vm_events(PGSTEAL_KSWAPD, freed);
		drain_local_pages(NULL);
	}
}

static void kswapd_work(struct work_struct *work)
{
	struct kswapd *k = container_of(work, struct kswapd, work);
	pg_data_t *pgdat = NODE_DATA((int)(k - kswapd_nodes));
	int order = __atomic_exchange_n(&k->order, 0, __ATOMIC_RELAXED);
	int highest = __atomic_exchange_n(&k->highest_zoneidx, 0, __ATOMIC_RELAXED);
	unsigned int flags = memalloc_flags_save(PF_KSWAPD);

	balance_pgdat(pgdat, order, highest);
	memalloc_flags_restore(flags);
	/* reclaim does not make large blocks: compaction may (and the proactive check) */
	wakeup_kcompactd(pgdat, order, highest);
	WRITE_ONCE(k->done_at, jiffies);
	WRITE_ONCE(k->ran, true);
}

/**
 * wakeup_kswapd - ask @zone's node to reclaim in the background
 * @zone: a zone an allocation found below its low watermark
 * @gfp: the allocation's flags: nothing happens without __GFP_KSWAPD_RECLAIM
 * @order: its order: kswapd reclaims until a block that large is free
 * @highest_zoneidx: the highest zone the allocation could use
 *
 * As Linux's: nothing to do if the node is balanced already; else the
 * node's kswapd is queued on this CPU (once, however often it is woken
 * before it runs).
 * Context: any, interrupts on or off (it only queues work).
 */
void wakeup_kswapd(struct zone *zone, gfp_t gfp, int order, int highest_zoneidx)
{
	struct kswapd *k = &kswapd_nodes[zone->node];
	if (!(gfp & __GFP_KSWAPD_RECLAIM) || !zone_populated(zone))
		return;
	if (READ_ONCE(k->order) < order)
		WRITE_ONCE(k->order, order);
	if (READ_ONCE(k->highest_zoneidx) < highest_zoneidx)
		WRITE_ONCE(k->highest_zoneidx, highest_zoneidx);
	if (pgdat_balanced(NODE_DATA(zone->node), order, highest_zoneidx)) {
		/* memory enough, maybe in pieces: compaction may help who cannot compact */
		if (!(gfp & __GFP_DIRECT_RECLAIM))
			wakeup_kcompactd(NODE_DATA(zone->node), order, highest_zoneidx);
		return;
	}
	if (work_pending(&k->work))
		return;
	if (READ_ONCE(k->ran) && jiffies - READ_ONCE(k->done_at) < HZ / 10)
		count_vm_event(KSWAPD_LOW_WMARK_HIT_QUICKLY);
	schedule_work_on(smp_processor_id(), &k->work);
}

/**
 * current_is_kswapd - is this code running for a kswapd (Linux's name)?
 *
 * Shrinkers may ask, to tell background reclaim from direct reclaim.  Not
 * in an interrupt handler that interrupted a kswapd.
 */
bool current_is_kswapd(void)
{
	return (current_memalloc_flags() & PF_KSWAPD) && !in_interrupt();
}

/**
 * kswapd_flush - wait until no node's kswapd is queued or running
 *
 * For tests, and for make test's checks that want a quiet machine.
 * Context: process context, may wait for other CPUs.
 */
void kswapd_flush(void)
{
	for (int nid = 0; nid < (int)nr_node_ids; nid++)
		flush_work(&kswapd_nodes[nid].work);
}
