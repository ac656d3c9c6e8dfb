/*
 * mm/vmscan.c - reclaim: asking the registered shrinkers for memory back.
 *
 * Linux's vmscan.c also evicts page cache and swaps; this kernel has only
 * caches that registered a shrinker.  A reclaim pass asks each of them how
 * much it holds (count_objects) and to free some (scan_objects):
 *   RECLAIM_LIGHT  one batch from each (what __GFP_NORETRY gets);
 *   RECLAIM_FULL   batch after batch until the shrinker is empty or stops.
 * The number of objects freed tells the allocator whether reclaim "made
 * progress", which decides between retrying and the OOM killer.
 */
#include "mm/internal.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"

#define SHRINK_BATCH	128

static LIST_HEAD(shrinker_list);
static DEFINE_SPINLOCK(shrinker_lock);

/**
 * __register_shrinker - add @shrinker to those reclaim calls (see register_shrinker())
 * @shrinker: with count_objects and scan_objects set
 * @name: for reports, may be ""
 *
 * Return: 0.
 */
int __register_shrinker(struct shrinker *shrinker, const char *name)
{
	unsigned long flags;

	shrinker->name = name && name[0] ? name : "unnamed";
	spin_lock_irqsave(&shrinker_lock, flags);
	list_add_tail(&shrinker->list, &shrinker_list);
	spin_unlock_irqrestore(&shrinker_lock, flags);
	return 0;
}

/** unregister_shrinker - reclaim will no longer call @shrinker */
void unregister_shrinker(struct shrinker *shrinker)
{
	unsigned long flags;

	spin_lock_irqsave(&shrinker_lock, flags);
	list_del(&shrinker->list);
	spin_unlock_irqrestore(&shrinker_lock, flags);
}

/* Ask one shrinker; return how many objects it freed. */
static unsigned long do_shrink(struct shrinker *s, gfp_t gfp, int nid, int priority)
{
	struct shrink_control sc = { .gfp_mask = gfp, .nid = nid };
	unsigned long batch = s->batch > 0 ? (unsigned long)s->batch : SHRINK_BATCH;
	unsigned long freeable = s->count_objects(s, &sc), freed = 0, total_scan;

	if (!freeable || freeable == SHRINK_EMPTY)
		return 0;
	/* Scan at most what it held when we started (Linux's total_scan): a pass must end. */
	total_scan = freeable;
	while (freeable && total_scan) {
		unsigned long got, n = min(min(freeable, batch), total_scan);

		sc.nr_to_scan = n;
		sc.nr_scanned = n;
		got = s->scan_objects(s, &sc);
		count_vm_events(SLABS_SCANNED, sc.nr_scanned);
		if (got == SHRINK_STOP)
			break;
		freed += got;
		total_scan -= n;
		if (priority == RECLAIM_LIGHT || !got)
			break;
		freeable = s->count_objects(s, &sc);
		if (freeable == SHRINK_EMPTY)
			break;
	}
	return freed;
}

/**
 * shrink_all_caches - one reclaim pass over every registered shrinker
 * @gfp: the allocation that needs memory (passed on in shrink_control)
 * @nid: its node
 * @priority: RECLAIM_LIGHT or RECLAIM_FULL
 *
 * Context: may sleep in the sense of GFP_KERNEL (shrinkers may free a lot);
 * shrinkers must not register or unregister shrinkers.
 * Return: the number of objects freed, in total.
 */
unsigned long shrink_all_caches(gfp_t gfp, int nid, int priority)
{
	struct shrinker *s;
	unsigned long freed = 0, flags;

	spin_lock_irqsave(&shrinker_lock, flags);
	list_for_each_entry(s, &shrinker_list, list)
		freed += do_shrink(s, gfp, nid, priority);
	spin_unlock_irqrestore(&shrinker_lock, flags);
	return freed;
}
