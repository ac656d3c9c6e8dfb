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
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

static LIST_HEAD(shrinker_list);
static DEFINE_SPINLOCK(shrinker_lock);
static DEFINE_PER_CPU(bool, in_reclaim);	/* this CPU is running shrinkers */

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
 * Ask one shrinker; return how many objects it freed.  A full pass scans
 * at most what count_objects() reported at its start: the count may be an
 * estimate that does not drop as objects are freed (Linux allows that),
 * and re-reading it could keep the pass going forever.
 */
static unsigned long do_shrink(struct shrinker *s, gfp_t gfp, int nid, int priority)
{
	struct shrink_control sc = { .gfp_mask = gfp, .nid = nid };
	unsigned long batch = s->batch > 0 ? (unsigned long)s->batch : SHRINK_BATCH;
	unsigned long to_scan = s->count_objects(s, &sc), freed = 0;

	if (!to_scan || to_scan == SHRINK_EMPTY)
		return 0;
	/*
	 * Scan at most what the cache held when the pass started (Linux's
	 * total_scan): a pass ends even if a shrinker's count never drops.
	 * The budget is kept here, not in @sc: a shrinker may count
	 * sc.nr_to_scan down as it works.  Each call uses up what the
	 * shrinker says it scanned (Linux's nr_scanned), and never less than
	 * the batch it was given.
	 */
	while (to_scan) {
		unsigned long this_batch = min(to_scan, batch), got;

		sc.nr_to_scan = this_batch;
		sc.nr_scanned = this_batch;
		got = s->scan_objects(s, &sc);
		count_vm_events(SLABS_SCANNED, sc.nr_scanned);
		if (got == SHRINK_STOP)
			break;
		freed += got;
		to_scan -= min(to_scan, max(sc.nr_scanned, this_batch));
		if (priority == RECLAIM_LIGHT || !got)
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
 * shrinkers must not register or unregister shrinkers.  A shrinker may
 * allocate memory: that allocation does not reclaim (reclaim inside reclaim
 * would wait for the lock its own CPU holds; Linux uses PF_MEMALLOC).
 * Return: the number of objects freed, in total.
 */
unsigned long shrink_all_caches(gfp_t gfp, int nid, int priority)
{
	struct shrinker *s;
	unsigned long freed = 0;

	if (this_cpu_read(in_reclaim))
		return 0;
	/*
	 * Interrupts stay on: a shrinker may free pages and so wait for other
	 * CPUs (drain_all_pages(), TLB shootdowns), and a CPU waiting here for
	 * the lock must still answer their IPIs.  No interrupt handler takes
	 * this lock.
	 */
	spin_lock(&shrinker_lock);
	this_cpu_write(in_reclaim, true);
	list_for_each_entry(s, &shrinker_list, list)
		freed += do_shrink(s, gfp, nid, priority);
	this_cpu_write(in_reclaim, false);
	spin_unlock(&shrinker_lock);
	return freed;
}
