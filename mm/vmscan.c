/*
 * mm/vmscan.c - reclaim: asking the registered shrinkers for memory back.
 *
 * Linux's vmscan.c also evicts page cache and swaps; this kernel has only
 * caches that registered a shrinker.  Each is asked how much it holds
 * (count_objects) and to free some (scan_objects), in Linux 6.12's
 * proportions (do_shrink_slab()):
 *
 *	to scan = (freeable >> priority) * 4 / seeks	(seeks 0: freeable / 2)
 *
 * plus what earlier passes left undone (nr_deferred), at most twice what
 * it holds.  A direct reclaim round, try_to_free_pages(), aims at
 * SWAP_CLUSTER_MAX (32) objects: it starts at DEF_PRIORITY (12), a
 * 4096th of every cache, and halves the priority only while the target is
 * missed, down to 0, where every cache is scanned whole (with seeks of
 * 2, DEFAULT_SEEKS, it is asked for twice what it holds).  So one page
 * costs a batch or so of a big cache, not the cache; and a round that
 * frees nothing has looked at everything.  The number freed tells the
 * allocator whether reclaim "made progress", which decides between
 * retrying and the OOM killer.  Every cache here frees a page per object
 * (the slab's counts its pages): Linux counts pages toward the target.
 */
#include "mm/internal.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

static LIST_HEAD(shrinker_list);
static DEFINE_SPINLOCK(shrinker_lock);

/* Name @shrinker by @fmt and @args, cut to its field; an empty name reads "unnamed". */
void name_shrinker(struct shrinker *shrinker, const char *fmt, va_list args)
{
	vsnprintf(shrinker->name, sizeof(shrinker->name), fmt, args);
	if (!shrinker->name[0])
		strscpy(shrinker->name, "unnamed", sizeof(shrinker->name));
}

/*
 * Put @shrinker on the list, unless it is there already: a second
 * list_add() would corrupt the list, so that misuse gets one line and is
 * ignored.  Return: whether it was added.
 */
static bool add_shrinker(struct shrinker *shrinker, const void *caller)
{
	bool twice;

	spin_lock(&shrinker_lock);
	twice = shrinker->registered;
	if (!twice) {
		list_add_tail(&shrinker->list, &shrinker_list);
		shrinker->registered = true;
	}
	spin_unlock(&shrinker_lock);
	if (twice)
		pr_err("BUG: shrinker_register of shrinker '%s' by %pS: already registered; "
		       "ignored\n", shrinker->name, caller);
	return !twice;
}

/**
 * shrinker_register - add @shrinker to those reclaim calls
 * @shrinker: with count_objects and scan_objects set, and named
 *
 * Registering a shrinker that is registered already is reported in one
 * line and changes nothing.
 *
 * Context: may sleep.
 */
void shrinker_register(struct shrinker *shrinker)
{
	add_shrinker(shrinker, __builtin_return_address(0));
}

/**
 * register_shrinker_fmt - register_shrinker(@shrinker, @fmt, ...), Linux 6.0-6.6's form
 * @shrinker: with count_objects and scan_objects set
 * @fmt: printf format of its name, for reports ("" for none: "unnamed"),
 *	 cut to 31 characters
 *
 * Context: may sleep.
 * Return: 0, or -EBUSY (and one line) if @shrinker is registered already.
 */
int register_shrinker_fmt(struct shrinker *shrinker, const char *fmt, ...)
{
	va_list args;

	if (!shrinker->registered) {	/* a second registration keeps the first name */
		va_start(args, fmt);
		name_shrinker(shrinker, fmt, args);
		va_end(args);
	}
	return add_shrinker(shrinker, __builtin_return_address(0)) ? 0 : -EBUSY;
}

/**
 * register_shrinker_unnamed - register_shrinker(@shrinker), the form before
 * Linux 6.0: named after its scan_objects function
 *
 * Context: may sleep.
 * Return: 0, or -EBUSY as register_shrinker_fmt().
 */
int register_shrinker_unnamed(struct shrinker *shrinker)
{
	return register_shrinker_fmt(shrinker, "%ps", shrinker->scan_objects);
}

/**
 * unregister_shrinker - reclaim will no longer call @shrinker
 *
 * A shrinker that is not registered (never was, or no longer) is left
 * alone, as Linux 6.6 returns early for it; here the misuse is also
 * reported in one line.  Its list links are not touched: they may point
 * at what the shrinker's neighbours were long ago.
 *
 * Context: may sleep.
 */
void unregister_shrinker(struct shrinker *shrinker)
{
	bool registered;

	spin_lock(&shrinker_lock);
	registered = shrinker->registered;
	if (registered) {
		list_del(&shrinker->list);
		shrinker->registered = false;
	}
	spin_unlock(&shrinker_lock);
	if (!registered)
		pr_err("BUG: unregister_shrinker of shrinker %px by %pS: not registered; ignored\n",
		       shrinker, __builtin_return_address(0));
}

/*
 * Ask one shrinker for its share at @priority (Linux 6.12's
 * do_shrink_slab()); return how many objects it freed.  The share is
 * capped at twice what count_objects() reported, so a pass ends even if a
 * shrinker's count never drops (an estimate, which Linux allows).  Less
 * than a batch is left for a later pass (nr_deferred), unless the share
 * is the whole cache: a small cache must still be emptied when memory is
 * tight.  Each call uses up what the shrinker says it scanned (its
 * nr_scanned), never less than the batch it was given.  Called under
 * shrinker_lock.
 */
static unsigned long do_shrink(struct shrinker *s, gfp_t gfp, int nid, int priority)
{
	struct shrink_control sc = { .gfp_mask = gfp, .nid = nid };
	unsigned long batch = s->batch > 0 ? (unsigned long)s->batch : SHRINK_BATCH;
	unsigned long freeable = s->count_objects(s, &sc), deferred, delta, total_scan;
	unsigned long freed = 0, scanned = 0;

	if (!freeable || freeable == SHRINK_EMPTY)
		return 0;
	deferred = s->nr_deferred;
	s->nr_deferred = 0;
	if (s->seeks)
		delta = (freeable >> priority) * 4 / (unsigned int)s->seeks;
	else
		delta = freeable / 2;	/* free to recreate: trimmed hard */
	total_scan = min((deferred >> priority) + delta, 2 * freeable);

	while (total_scan >= batch || total_scan >= freeable) {
		unsigned long nr_to_scan = min(batch, total_scan), got;

		sc.nr_to_scan = nr_to_scan;
		sc.nr_scanned = nr_to_scan;
		got = s->scan_objects(s, &sc);
		if (got == SHRINK_STOP)
			break;
		freed += got;
		count_vm_events(SLABS_SCANNED, sc.nr_scanned);
		/* never less than the batch asked: a pass must end */
		nr_to_scan = max(sc.nr_scanned, nr_to_scan);
		total_scan -= min(total_scan, nr_to_scan);
		scanned += nr_to_scan;
	}
	/* New work not done is left for later; old work done is not. */
	s->nr_deferred = min(deferred + delta > scanned ? deferred + delta - scanned : 0,
			     2 * freeable);
	return freed;
}

/**
 * shrink_slab - one pass over every registered shrinker at @priority
 * @gfp: the allocation that needs memory (passed on in shrink_control)
 * @nid: its node
 * @priority: DEF_PRIORITY (a 4096th of each cache) down to 0 (all of it)
 *
 * The shrinkers run under PF_MEMALLOC (memalloc_noreclaim_save()), as
 * Linux's reclaim does: one may allocate, from the reserves if need be,
 * and that allocation never reclaims (it would wait for the lock its own
 * CPU holds) nor calls the OOM killer.
 *
 * Context: may sleep in the sense of GFP_KERNEL (shrinkers may free a lot);
 * not from a shrinker; shrinkers must not register or unregister shrinkers.
 * Return: the number of objects freed, in total.
 */
unsigned long shrink_slab(gfp_t gfp, int nid, int priority)
{
	unsigned int noreclaim = memalloc_noreclaim_save();
	struct shrinker *s;
	unsigned long freed = 0;

	/*
	 * Interrupts stay on: a shrinker may free pages and so wait for other
	 * CPUs (drain_all_pages(), TLB shootdowns), and a CPU waiting here for
	 * the lock must still answer their IPIs.  No interrupt handler takes
	 * this lock.
	 */
	spin_lock(&shrinker_lock);
	list_for_each_entry(s, &shrinker_list, list)
		freed += do_shrink(s, gfp, nid, priority);
	spin_unlock(&shrinker_lock);
	memalloc_noreclaim_restore(noreclaim);
	return freed;
}

/**
 * shrinker_for_each_count - each registered shrinker's name and what it holds
 * @fn: called with the shrinker and its count_objects() (SHRINK_EMPTY: none)
 * @arg: passed to @fn
 *
 * As the "count" file of Linux's debugfs shrinker/<name>/ (since 6.0):
 * count_objects() asked for node 0 with GFP_KERNEL, as reclaim would ask
 * it.  The allocator torture (tests/torture/) reads it while other CPUs
 * reclaim.
 * Context: may sleep in the sense of shrink_slab() (the same lock); @fn
 * must not register or unregister shrinkers.
 */
void shrinker_for_each_count(void (*fn)(struct shrinker *s, unsigned long count, void *arg),
			     void *arg)
{
	struct shrinker *s;

	spin_lock(&shrinker_lock);
	list_for_each_entry(s, &shrinker_list, list) {
		struct shrink_control sc = { .gfp_mask = GFP_KERNEL, .nid = 0 };

		fn(s, s->count_objects(s, &sc), arg);
	}
	spin_unlock(&shrinker_lock);
}

/**
 * try_to_free_pages - one direct reclaim round for an allocation that found no memory
 * @gfp: the allocation's flags
 * @nid: its node
 *
 * As Linux 6.12's do_try_to_free_pages(): shrink_slab() at DEF_PRIORITY,
 * then at each lower priority while fewer than SWAP_CLUSTER_MAX objects
 * were freed, down to 0.  The shrinkers run under PF_MEMALLOC, as in
 * Linux's __perform_reclaim(): shrink_slab() sets it, for drop_slab() too.
 *
 * Context: as shrink_slab().
 * Return: the number of objects freed (0: every cache was scanned whole
 * and gave nothing).
 */
unsigned long try_to_free_pages(gfp_t gfp, int nid)
{
	unsigned long freed = 0;

	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		freed += shrink_slab(gfp, nid, priority);
		if (freed >= SWAP_CLUSTER_MAX)
			break;
	}
	return freed;
}

/**
 * drop_slab - give back everything the shrinkers can, as Linux's
 * "echo 2 > /proc/sys/vm/drop_caches"
 *
 * Passes at priority 0 on every node, again while a pass frees more than
 * 2, then 4, 8, ... objects (Linux's rule: a cache that always finds
 * something to free cannot keep it going for ever).
 * Context: may sleep.
 */
void drop_slab(void)
{
	unsigned long freed;
	int shift = 0;

	do {
		int nid;

		freed = 0;
		for_each_online_node(nid)
			freed += shrink_slab(GFP_KERNEL, nid, 0);
	} while ((freed >> shift++) > 1);
}
