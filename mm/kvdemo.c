/*
 * mm/kvdemo.c - the seeds' story, run live on this machine's memory.
 *
 * The claim of the seeds (the 2010 RFC and the 2017 LWN article that
 * docs/kvmalloc.md, section 1, cites): when memory is fragmented,
 *
 *	p = kmalloc(size, GFP_KERNEL);
 *	if (!p)
 *		p = vmalloc(size);
 *
 * does not fall back at all for small orders.  kmalloc() of 32 KiB is an
 * order-3 page allocation, and the page allocator does not fail those
 * under GFP_KERNEL while it can reclaim or kill: it reclaims from caches,
 * round after round, then calls the OOM killer, which kills a victim,
 * whose freed memory makes the order-3 block.  vmalloc(), which needs no contiguous pages, never
 * runs.  kvmalloc() asks the slab gently instead and falls back at once.
 *
 * To show it, kvdemo builds a state where that happens, every time:
 *
 *   fragmented   every free block of order >= 3 is split and one page of
 *                each 8-page group is kept, the other 7 freed: plenty of
 *                free pages, no free order-3 block anywhere (checked);
 *   a victim     an OOM victim holding order-3 blocks, taken before the
 *                fragmenting, so killing it makes order-3 blocks again;
 *   a cache      single pages a shrinker can give back: reclaim frees
 *                them, but they cannot form an order-3 block (their
 *                8-page groups each hold a kept page).
 *
 * Then one kvmalloc(32 KiB, GFP_KERNEL) runs under each policy, from the
 * same state (restored between runs), and the counters say what it cost;
 * then kswapd and kcompactd, which every run wakes, are run at once
 * (they would run when the CPU is next idle), and counted too.
 *
 * The other half of the story is the same state with the kept pages
 * movable (kvdemo_setup_movable()): kvdemo owns them, and the cache's
 * pages (movable as Linux's page cache is), through movable_operations
 * (mm/migrate.h), so compaction may move them.  They sit in unmovable
 * pageblocks, where the fragmenting allocations put
 * them, which is where async compaction for an unmovable allocation such
 * as kmalloc() looks (Linux's suitable_migration_source()); two
 * pageblocks fragmented as movable ones give them somewhere to go.  So
 * the gentle slab attempt succeeds after one async compaction, while
 * with unmovable kept pages compaction finds nothing to move.
 * The monitor command prints the story; tests/kernel/kvdemo_test.c checks
 * the numbers.  docs/kvmalloc.md shows and explains a real run.
 */
#include "mm/kvdemo.h"
#include "mm/memmap_screen.h"
#include "mm/compaction.h"
#include "mm/internal.h"
#include "mm/migrate.h"
#include "mm/slab_internal.h"
#include "kernel/labs.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

/* PAGE_ALLOC_COSTLY_ORDER: the largest order that "never fails" under GFP_KERNEL */
#define DEMO_ORDER	3
#define GROUP		(1UL << DEMO_ORDER)

/* ---------------------------------------------------------------- the hard state */

/*
 * Write one word in each page of a block the hard state holds, as the
 * owner of a real cache would.  Under QEMU, guest RAM that was never
 * written has no host memory behind it yet: the first write to it costs a
 * host page fault (with zeroing, of up to 2 MiB under transparent huge
 * pages), milliseconds that would otherwise land in the timed run that
 * first writes into a page reclaim or a kill gave back.
 */
static void touch_pages(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++)
		WRITE_ONCE(*(unsigned long *)page_address(&page[i]), i);
}

/* ---------------------------------------------------------------- movable kept pages */

/*
 * In the movable state kvdemo owns two kinds of movable pages: the kept
 * pages, and the cache's, which are movable as Linux's page cache pages
 * are (without that, an 8-page group that holds a cache page stays
 * broken however the kept page moves).  Each kind has its
 * movable_operations; one movable state at a time (movable_owner); one
 * lock orders both lists against compaction, which may isolate a page
 * while kvdemo frees or reclaims.
 */
static DEFINE_SPINLOCK(kept_lock);
static struct kvdemo *movable_owner;

static const struct movable_operations kept_mops, cache_mops;

/* The list a page of @mops goes on. */
static struct list_head *owner_list(const struct movable_operations *mops)
{
	return mops == &kept_mops ? &movable_owner->kept : &movable_owner->cache;
}

/* Put @page on @list; movable (owned by @mops) if the state is.  Under kept_lock. */
static void own_page(struct kvdemo *d, struct page *page, struct list_head *list,
		     const struct movable_operations *mops)
{
	if (d->movable)
		__SetPageMovable(page, mops);
	list_add(&page->lru, list);
}

/* Is @page on one of our lists, not isolated?  Under kept_lock (mm/balloon.c's rule). */
static bool kvdemo_owns(const struct page *page)
{
	const struct movable_operations *mops = page_movable_ops(page);

	return movable_owner && !PageIsolated(page) && (mops == &kept_mops || mops == &cache_mops) &&
	       page->lru.next;
}

static bool kvdemo_isolate_page(struct page *page, enum migrate_mode mode)
{
	bool ok;

	(void)mode;
	spin_lock(&kept_lock);
	ok = kvdemo_owns(page);
	if (ok)
		list_del(&page->lru);
	spin_unlock(&kept_lock);
	return ok;
}

/* mm/migrate.c copied the page: hold the copy instead. */
static int kvdemo_migrate_page(struct page *dst, struct page *src, enum migrate_mode mode)
{
	const struct movable_operations *mops = page_movable_ops(src);

	(void)mode;
	spin_lock(&kept_lock);
	own_page(movable_owner, dst, owner_list(mops), mops);
	movable_owner->nr_migrated++;
	spin_unlock(&kept_lock);
	return MIGRATEPAGE_SUCCESS;
}

static void kvdemo_putback_page(struct page *page)
{
	spin_lock(&kept_lock);
	list_add(&page->lru, owner_list(page_movable_ops(page)));
	spin_unlock(&kept_lock);
}

static const struct movable_operations kept_mops = {
	.isolate_page = kvdemo_isolate_page,
	.migrate_page = kvdemo_migrate_page,
	.putback_page = kvdemo_putback_page,
};

static const struct movable_operations cache_mops = {
	.isolate_page = kvdemo_isolate_page,
	.migrate_page = kvdemo_migrate_page,
	.putback_page = kvdemo_putback_page,
};

/* The first page of @list, taken off it and no longer movable; NULL if empty. */
static struct page *take_first(struct list_head *list)
{
	struct page *page = NULL;

	spin_lock(&kept_lock);
	if (!list_empty(list)) {
		page = list_first_entry(list, struct page, lru);
		list_del(&page->lru);
		if (PageMovable(page))
			__ClearPageMovable(page);
	}
	spin_unlock(&kept_lock);
	return page;
}

/* Split an order >= 3 block; keep the first page of every 8, free the rest. */
static void keep_one_in_eight(struct kvdemo *d, struct page *page, unsigned int order)
{
	split_page(page, order);
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (i % GROUP == 0) {
			spin_lock(&kept_lock);
			own_page(d, &page[i], &d->kept, &kept_mops);
			d->nr_kept++;
			spin_unlock(&kept_lock);
		} else {
			__free_page(&page[i]);
		}
	}
}

/* Give back every kept page (none is isolated: no compaction runs meanwhile). */
static void free_kept(struct kvdemo *d)
{
	struct page *page;

	while ((page = take_first(&d->kept)))
		__free_page(page);
	d->nr_kept = 0;
}

/* Of the blocks on @blocks, the one with the lowest frame, or NULL. */
static struct page *lowest_block(struct list_head *blocks)
{
	struct page *page, *low = NULL;

	list_for_each_entry(page, blocks, lru) {
		if (!low || page_to_pfn(page) < page_to_pfn(low))
			low = page;
	}
	return low;
}

/*
 * Take KVDEMO_TARGET_PAGEBLOCKS free pageblocks as movable ones, before
 * the fragmenting (which would make every pageblock unmovable): the
 * highest ones free (of up to 64 taken, the others given back), since the
 * free scanner comes down from the top of the zone and meets the migration
 * scanner before it reaches a low one.  False if there are not that many.
 */
static bool take_target_pageblocks(struct list_head *blocks)
{
	const gfp_t gfp = GFP_NOWAIT | __GFP_MOVABLE | __GFP_MEMALLOC | __GFP_NOWARN;
	unsigned int n = 0;
	struct page *page;

	while (n < 64 && (page = alloc_pages(gfp, pageblock_order))) {
		list_add(&page->lru, blocks);
		n++;
	}
	for (; n > KVDEMO_TARGET_PAGEBLOCKS; n--) {
		page = lowest_block(blocks);
		list_del(&page->lru);
		__free_pages(page, pageblock_order);
	}
	return n == KVDEMO_TARGET_PAGEBLOCKS;
}

/* Fragment the target pageblocks like the rest (@d NULL: just free them). */
static void fragment_target_pageblocks(struct kvdemo *d, struct list_head *blocks)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, blocks, lru) {
		list_del(&page->lru);
		if (d)
			keep_one_in_eight(d, page, pageblock_order);
		else
			__free_pages(page, pageblock_order);
	}
}

/*
 * Forget compaction's past failures at order 3 in every zone (a failed
 * sync run defers the next ones): part of the state each run starts from.
 */
static void reset_compaction_deferral(void)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		compaction_defer_reset(zone, DEMO_ORDER, true);
}

/*
 * Take every free block of order >= 3, from the largest down (below the
 * watermarks too: __GFP_MEMALLOC), and keep one page in eight of each.
 * The per-CPU lists are drained first and after: their pages could
 * otherwise merge into order-3 blocks when they go back.
 */
static void fragment(struct kvdemo *d)
{
	const gfp_t gfp = GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN;

	drain_all_pages();
	for (int order = MAX_PAGE_ORDER; order >= DEMO_ORDER; order--) {
		struct page *page;

		while ((page = alloc_pages(gfp, order)))
			keep_one_in_eight(d, page, order);
	}
	drain_all_pages();
}

/**
 * kvdemo_fragmented - is no block of order >= 3 free anywhere?
 *
 * Context: may wait for other CPUs (it drains their per-CPU lists first).
 */
bool kvdemo_fragmented(void)
{
	struct zone *zone;

	drain_all_pages();
	for_each_populated_zone(zone) {
		for (int order = DEMO_ORDER; order <= MAX_PAGE_ORDER; order++) {
			if (READ_ONCE(zone->free_area[order].nr_free))
				return false;
		}
	}
	return true;
}

static unsigned long victim_badness(struct oom_victim *v)
{
	struct kvdemo *d = v->private_data;

	return d->nr_victim_blocks * GROUP;
}

static void free_victim_blocks(struct kvdemo *d)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &d->victim_blocks, lru) {
		list_del(&page->lru);
		__free_pages(page, DEMO_ORDER);
	}
	d->nr_victim_blocks = 0;
}

/* The OOM killer's call: free everything (it unregisters the victim itself). */
static void victim_kill(struct oom_victim *v)
{
	struct kvdemo *d = v->private_data;

	free_victim_blocks(d);
	d->victim_registered = false;
}

/* Take order-3 blocks for the victim until it has what it wants; false if memory ran out. */
static bool take_victim_blocks(struct kvdemo *d, gfp_t gfp)
{
	while (d->nr_victim_blocks < d->victim_blocks_wanted) {
		struct page *page = alloc_pages(gfp | __GFP_NOWARN, DEMO_ORDER);

		if (!page)
			return false;
		touch_pages(page, DEMO_ORDER);
		list_add(&page->lru, &d->victim_blocks);
		d->nr_victim_blocks++;
	}
	return true;
}

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	struct kvdemo *d = s->private_data;

	(void)sc;
	return d->nr_cache ? d->nr_cache : SHRINK_EMPTY;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct kvdemo *d = s->private_data;
	unsigned long freed = 0;

	while (freed < sc->nr_to_scan) {
		struct page *page = take_first(&d->cache);

		if (!page)
			break;
		__free_page(page);
		d->nr_cache--;
		freed++;
	}
	d->cache_reclaimed += freed;
	return freed;
}

static bool fill_cache(struct kvdemo *d)
{
	while (d->nr_cache < d->cache_wanted) {
		struct page *page = alloc_page(GFP_NOWAIT | __GFP_NOWARN);

		if (!page)
			return false;
		touch_pages(page, 0);
		spin_lock(&kept_lock);
		own_page(d, page, &d->cache, &cache_mops);
		spin_unlock(&kept_lock);
		d->nr_cache++;
	}
	return true;
}

/* The hard state, its kept pages movable or not (kvdemo_setup(), kvdemo_setup_movable()). */
static int setup(struct kvdemo *d, bool movable)
{
	LIST_HEAD(targets);
	unsigned long free;

	*d = (struct kvdemo){
		.movable = movable,
		.victim = { .name = "kvdemo-victim", .badness = victim_badness,
			    .kill = victim_kill, .private_data = d },
		.shrinker = { .count_objects = cache_count, .scan_objects = cache_scan,
			      .seeks = DEFAULT_SEEKS, .private_data = d },
	};
	INIT_LIST_HEAD(&d->kept);
	INIT_LIST_HEAD(&d->victim_blocks);
	INIT_LIST_HEAD(&d->cache);
	/* Empty slabs first: freed during a run, they could make an order-3 block. */
	drop_slab();
	drain_all_pages();
	free = nr_free_pages();
	d->victim_blocks_wanted = max(free / 128 / GROUP, (unsigned long)KVDEMO_MIN_VICTIM_BLOCKS);
	/* two reclaim batches at least: one reclaim round must not empty it (small machines) */
	d->cache_wanted = max(free / 16, (unsigned long)KVDEMO_MIN_CACHE);
	if (movable) {
		spin_lock(&kept_lock);
		WARN_ON(movable_owner);
		movable_owner = d;
		spin_unlock(&kept_lock);
	}
	if (!take_victim_blocks(d, GFP_KERNEL | __GFP_NORETRY))
		goto fail;
	if (movable && !take_target_pageblocks(&targets))
		goto fail;
	fragment(d);
	fragment_target_pageblocks(d, &targets);
	if (!fill_cache(d) || !kvdemo_fragmented())
		goto fail;
	reset_compaction_deferral();
	register_oom_victim(&d->victim);
	d->victim_registered = true;
	register_shrinker(&d->shrinker, "kvdemo-cache");
	d->shrinker_registered = true;
	return 0;
fail:
	fragment_target_pageblocks(NULL, &targets);
	kvdemo_teardown(d);
	return -ENOMEM;
}

/**
 * kvdemo_setup - build the hard state (see the file comment)
 * @d: the demo's state, filled in here
 *
 * The victim gets 1/128 of the free memory in order-3 blocks (at least 8),
 * the cache 1/16 in single pages (at least 256: two reclaim batches).
 * Context: may sleep; other CPUs should be idle (their allocations would
 * change the state).
 * Return: 0, or -ENOMEM (everything given back): on a machine with fewer
 * than about KVDEMO_LEAST_PAGES free pages.
 */
int kvdemo_setup(struct kvdemo *d)
{
	return setup(d, false);
}

/**
 * kvdemo_setup_movable - the hard state, with movable kept pages
 * @d: the demo's state, filled in here
 *
 * As kvdemo_setup(), but kvdemo owns the kept pages as movable pages
 * (movable_operations), so compaction may move them; and before the
 * fragmenting, KVDEMO_TARGET_PAGEBLOCKS free pageblocks are taken as
 * movable ones, then fragmented like the rest: their free pages are where
 * compaction moves kept pages to.  One movable state at a time.
 * Context: as kvdemo_setup().
 * Return: 0, or -ENOMEM (everything given back): with too few free pages,
 * or fewer free pageblocks than KVDEMO_TARGET_PAGEBLOCKS.
 */
int kvdemo_setup_movable(struct kvdemo *d)
{
	return setup(d, true);
}

/**
 * kvdemo_restore - the hard state again after a run: the victim alive with
 * its blocks, the cache full, no free order-3 block
 *
 * After a kill, the victim takes its freed blocks back.  A block that
 * became free besides (pages in use when the state was built, given back
 * by a run since) is split as at setup: without it, the default boot of a
 * machine of 6 MiB with four CPUs had an order-3 block free after the
 * first run, and the story stopped there.  Compaction's memory of past
 * failures is reset too (reset_compaction_deferral()).
 * Return: 0, or -ENOMEM if the state could not be rebuilt.
 */
int kvdemo_restore(struct kvdemo *d)
{
	drain_all_pages();
	if (!take_victim_blocks(d, GFP_NOWAIT) || !fill_cache(d))
		return -ENOMEM;
	fragment(d);
	if (!kvdemo_fragmented())
		return -ENOMEM;
	reset_compaction_deferral();
	if (!d->victim_registered) {
		register_oom_victim(&d->victim);
		d->victim_registered = true;
	}
	return 0;
}

/**
 * kvdemo_unregister - neither the OOM killer nor reclaim may touch the
 * victim or the cache any more; their memory stays held (and the free
 * memory fragmented) until kvdemo_teardown()
 *
 * Context: may wait for a kill in progress on another CPU.
 */
void kvdemo_unregister(struct kvdemo *d)
{
	if (d->victim_registered)
		unregister_oom_victim(&d->victim);
	d->victim_registered = false;
	if (d->shrinker_registered)
		unregister_shrinker(&d->shrinker);
	d->shrinker_registered = false;
}

/** kvdemo_teardown - give back everything kvdemo_setup() took */
void kvdemo_teardown(struct kvdemo *d)
{
	struct shrink_control all = { .nr_to_scan = ~0UL };

	kvdemo_unregister(d);
	free_victim_blocks(d);
	cache_scan(&d->shrinker, &all);
	free_kept(d);
	if (d->movable) {
		spin_lock(&kept_lock);
		movable_owner = NULL;
		spin_unlock(&kept_lock);
	}
	drain_all_pages();
}

/* ---------------------------------------------------------------- one run */

/**
 * kvdemo_run - one kvmalloc(@size, GFP_KERNEL) under @policy, from the hard state
 * @d: the state (kvdemo_setup() or kvdemo_restore() just before)
 * @policy: KVMALLOC_NORETRY, KVMALLOC_NODIRECT or KVMALLOC_NAIVE
 * @size: bytes (32 KiB in the story: an order-3 kmalloc)
 * @r: what it did
 *
 * The memory is freed again, and the vmalloc space purged, before it returns.
 * Context: may sleep.
 */
void kvdemo_run(struct kvdemo *d, enum kvmalloc_policy policy, size_t size,
		struct kvdemo_result *r)
{
	unsigned long before[NR_VM_EVENT_ITEMS], after[NR_VM_EVENT_ITEMS];
	unsigned long reclaimed = d->cache_reclaimed;
	u64 t0, t1;
	void *p;

	all_vm_events(before);
	t0 = rdtsc_ordered();
	p = kvmalloc_node_policy(size, GFP_KERNEL, NUMA_NO_NODE, policy);
	t1 = rdtsc_ordered();
	all_vm_events(after);
	*r = (struct kvdemo_result){
		.source = !p ? KVDEMO_FAILED : is_vmalloc_addr(p) ? KVDEMO_VMALLOC : KVDEMO_SLAB,
		.reclaim_passes = after[ALLOCSTALL] - before[ALLOCSTALL],
		.scanned = after[SLABS_SCANNED] - before[SLABS_SCANNED],
		.reclaimed = d->cache_reclaimed - reclaimed +
			     after[SLAB_SHRINK_PAGES] - before[SLAB_SHRINK_PAGES],
		.oom_kills = after[OOM_KILL] - before[OOM_KILL],
		.cycles = t1 - t0,
		.victim_alive = d->victim_registered,
		.compact_stall = after[COMPACTSTALL] - before[COMPACTSTALL],
		.compact_fail = after[COMPACTFAIL] - before[COMPACTFAIL],
		.compact_success = after[COMPACTSUCCESS] - before[COMPACTSUCCESS],
		.migrated = after[PGMIGRATE_SUCCESS] - before[PGMIGRATE_SUCCESS],
	};
	kvfree(p);
	vm_unmap_aliases();
}

/**
 * kvdemo_run_background - run now the kswapd and kcompactd that a run woke
 * @r: the run's result; the background fields are filled in here
 *
 * Every slab attempt that found no order-3 block woke kswapd (its flags
 * have __GFP_KSWAPD_RECLAIM); kswapd, once done, wakes kcompactd.  They
 * would run when this CPU is next idle: here they run at once, so that
 * the next run starts from a quiet machine and their work is counted
 * with the run that caused it.  Proactive compaction is off meanwhile:
 * kcompactd does what the allocation asked for, one order-3 block, and
 * not also compact whole zones because the fragmentation score is high
 * (it always is here), which would use up the movable pageblocks the
 * runs after it migrate into.
 * Context: process context, may wait for other CPUs.
 */
void kvdemo_run_background(struct kvdemo_result *r)
{
	unsigned long before[NR_VM_EVENT_ITEMS], after[NR_VM_EVENT_ITEMS];
	unsigned int proactiveness = READ_ONCE(sysctl_compaction_proactiveness);

	all_vm_events(before);
	WRITE_ONCE(sysctl_compaction_proactiveness, 0);
	kswapd_flush();
	kcompactd_flush();	/* kswapd, done, may have woken it */
	WRITE_ONCE(sysctl_compaction_proactiveness, proactiveness);
	all_vm_events(after);
	r->kswapd_runs = after[PAGEOUTRUN] - before[PAGEOUTRUN];
	r->kswapd_reclaimed = after[PGSTEAL_KSWAPD] - before[PGSTEAL_KSWAPD];
	r->kcompactd_runs = after[COMPACTDAEMON_WAKE] - before[COMPACTDAEMON_WAKE];
	r->kcompactd_migrated = after[PGMIGRATE_SUCCESS] - before[PGMIGRATE_SUCCESS];
	r->order3_free_after = !kvdemo_fragmented();
}

/**
 * kvdemo_first_vmalloc_size - the 2010 RFC's test: kvmalloc() of 1 B, 2 B,
 * 4 B ... 1 GiB (GFP_KERNEL | __GFP_NOWARN), each freed before the next
 * @largest: set to the largest size that succeeded (0 if none)
 *
 * Context: may sleep.
 * Return: the first size served by vmalloc, or 0 if none was.
 */
size_t kvdemo_first_vmalloc_size(size_t *largest)
{
	size_t first = 0;

	*largest = 0;
	for (size_t size = 1; size <= (1UL << 30); size <<= 1) {
		void *p = kvmalloc(size, GFP_KERNEL | __GFP_NOWARN);

		if (!p)
			break;
		if (!first && is_vmalloc_addr(p))
			first = size;
		*largest = size;
		kvfree(p);
		vm_unmap_aliases();
	}
	return first;
}

/**
 * kvdemo_order3_size - the first size of the RFC's scan (a power of two)
 * that kvmalloc()'s slab attempt can serve only from a block of order 3 or
 * more: where the hard state hands it to vmalloc
 *
 * 32 KiB, an order-3 kmalloc; or 8 KiB when slab debugging is on for
 * kmalloc-8k: its objects keep their natural alignment behind a left
 * redzone of 8 KiB, so one slot takes more than 16 KiB and its slab is
 * 32 KiB (as in Linux with slub_debug=Z).  kvmalloc() never falls back at
 * a page or less, so the scan starts above.
 */
size_t kvdemo_order3_size(void)
{
	size_t size;

	for (size = 2 * PAGE_SIZE; size <= KMALLOC_MAX_CACHE_SIZE; size <<= 1) {
		if (kmalloc_caches[kmalloc_index(size)]->min_order >= DEMO_ORDER)
			return size;
	}
	while (get_order(size) < DEMO_ORDER)
		size <<= 1;
	return size;
}

/* ---------------------------------------------------------------- the monitor command */

static const char *const source_names[] = {
	[KVDEMO_SLAB] = "slab", [KVDEMO_VMALLOC] = "vmalloc", [KVDEMO_FAILED] = "failed",
};

/* "32 KiB", "8 MiB": a power of two in the largest unit that divides it. */
static void print_size(const char *before, size_t size, const char *after)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
	int u = 0;

	while (u < 3 && size >= 1024 && size % 1024 == 0) {
		size /= 1024;
		u++;
	}
	printk(KERN_CONT "%s%zu %s%s", before, size, units[u], after);
}

static void print_rfc_scan(const char *when, size_t first, size_t largest)
{
	printk("  %-26s first size served by vmalloc:", when);
	if (first)
		print_size(" ", first, ";");
	else
		printk(KERN_CONT " none;");
	print_size(" largest that succeeds: ", largest, "\n");
}

/* Why a checked kmalloc-8k needs an order-3 block (kvdemo_order3_size()). */
static void explain_checked_8k(void)
{
	printk("   That is 8 KiB here, not 32 KiB: with slab debugging, a kmalloc-8k\n"
	       "   object sits behind an 8 KiB left redzone that keeps it 8 KiB-aligned,\n"
	       "   so its slab is 32 KiB (boot without slab_debug to see 32 KiB).\n");
}

/*
 * Part 3's reading, which must say what the figures say: on a machine of a
 * few MiB, free memory runs out before the size where vmalloc takes over.
 */
static void explain_rfc_scan(size_t fresh_first, size_t frag_first, size_t frag_largest)
{
	size_t order3 = kvdemo_order3_size();

	if (fresh_first > KMALLOC_MAX_SIZE)
		printk("   Fresh, the slab and the page allocator serve every size up to 4 MiB\n"
		       "   (KMALLOC_MAX_SIZE).\n");
	else if (fresh_first)	/* a small machine: no free block of that size at all */
		print_size("   Fresh, vmalloc takes over already at ", fresh_first,
			   ": this machine has no free\n"
			   "   block that large, even before the hard state is built.\n");
	else
		printk("   Fresh, free memory ran out before 8 MiB, the first size above 4 MiB\n"
		       "   (KMALLOC_MAX_SIZE): vmalloc was never needed.\n");
	printk("   In the hard state (victim and cache unregistered, their memory still\n"
	       "   held) ");
	if (frag_first == order3) {
		printk(KERN_CONT "vmalloc takes over at the first size that needs an order-3 block.\n"
		       "   The largest size is limited by free memory only.\n");
		if (order3 < GROUP * PAGE_SIZE)
			explain_checked_8k();
	} else if (!frag_first && frag_largest < order3) {
		print_size("free memory ran out after ", frag_largest,
			   ", before the first size that needs\n"
			   "   an order-3 block: this machine is too small to show vmalloc\n"
			   "   taking over there.\n");
	} else {	/* the state could not be rebuilt (said above): no story to read */
		printk(KERN_CONT "the figures are not the hard state's: it could not be rebuilt.\n");
	}
}

#define ROW(label, fmt, field)							\
	do {									\
		printk("  %-22s", label);					\
		for (int i = 0; i < NR_KVMALLOC_POLICIES; i++)			\
			printk(KERN_CONT " %12" fmt, field);			\
		printk(KERN_CONT "\n");						\
	} while (0)

static void print_table(const struct kvdemo_result *r)
{
	printk("  %-22s", "");
	for (int i = 0; i < NR_KVMALLOC_POLICIES; i++)
		printk(KERN_CONT " %12s", kvmalloc_policy_names[i]);
	printk(KERN_CONT "\n");
	ROW("memory came from", "s", source_names[r[i].source]);
	ROW("reclaim passes", "lu", r[i].reclaim_passes);
	ROW("objects scanned", "lu", r[i].scanned);
	ROW("pages reclaimed", "lu", r[i].reclaimed);
	ROW("compaction stalls", "lu", r[i].compact_stall);
	ROW("  ... that succeeded", "lu", r[i].compact_success);
	ROW("pages migrated", "lu", r[i].migrated);
	ROW("OOM kills", "lu", r[i].oom_kills);
	ROW("cycles (rdtsc)", "lu", r[i].cycles);
	ROW("the victim", "s", r[i].victim_alive ? "alive" : "killed");
	printk("  then, run at once:\n");
	ROW("kswapd runs", "lu", r[i].kswapd_runs);
	ROW("kswapd reclaimed", "lu", r[i].kswapd_reclaimed);
	ROW("kcompactd runs", "lu", r[i].kcompactd_runs);
	ROW("kcompactd migrated", "lu", r[i].kcompactd_migrated);
	ROW("order-3 block free", "s", r[i].order3_free_after ? "yes" : "no");
}

static bool stepping;	/* kvdemo ... step: stop at each state of the story */

/*
 * With `step`, stop at a state of the story: redraw the screen map
 * (mm/memmap_screen.c: `make run GUI=1` shows it; make picture saves it)
 * and wait for Enter.  The wait runs no deferred work (kswapd and
 * kcompactd are work items), so the story goes on exactly as it would
 * without stopping: make test checks that the table comes out the same.
 */
static void step(const char *state)
{
	if (!stepping)
		return;
	memmap_screen_redraw();
	printk("kvdemo: stopped at %s; press Enter to go on\n", state);
	monitor_wait_for_enter();
}

/* One run from the state, rebuilt first (not for the warm-up), then kswapd and kcompactd. */
static int run_one(struct kvdemo *d, enum kvmalloc_policy policy, bool rebuild,
		   struct kvdemo_result *r)
{
	if (rebuild && (kvdemo_restore(d) || !kvdemo_fragmented())) {
		printk("kvdemo: could not rebuild the state for '%s'; stopping\n",
		       kvmalloc_policy_names[policy]);
		return -ENOMEM;
	}
	kvdemo_run(d, policy, 32 << 10, r);
	kvdemo_run_background(r);
	return 0;
}

/*
 * Each policy from the state.  A first, untimed run of the two gentle
 * policies comes first: under QEMU the first execution of any code
 * includes translating it, which would count against whichever policy
 * happened to run first.
 */
static int run_policies(struct kvdemo *d, struct kvdemo_result *r)
{
	run_one(d, KVMALLOC_NORETRY, false, &r[0]);
	if (run_one(d, KVMALLOC_NODIRECT, true, &r[0]))
		return -ENOMEM;
	for (int i = 0; i < NR_KVMALLOC_POLICIES; i++) {
		if (run_one(d, i, true, &r[i]))
			return -ENOMEM;
		if (i == KVMALLOC_NORETRY)
			step("the state after kvmalloc() (noretry)");
		else if (i == KVMALLOC_NAIVE)
			step("the state after the naive run");
	}
	return 0;
}

/* Parts 1 to 3: the seeds' story, with unmovable kept pages; the runs' results in @r. */
static int unmovable_story(struct kvdemo_result *r)
{
	size_t fresh_first, fresh_largest, frag_first, frag_largest;
	static struct kvdemo d;

	fresh_first = kvdemo_first_vmalloc_size(&fresh_largest);

	printk("1. A hard state.  Free memory now, in blocks of each order:\n");
	show_buddyinfo();
	if (kvdemo_setup(&d)) {
		printk("kvdemo: not enough memory to build the state; nothing changed\n");
		return -ENOMEM;
	}
	printk("   Every free block of 32 KiB (order 3) or more was split, and one page of\n"
	       "   each 8 kept (%lu pages): plenty of free pages, no order-3 block left.\n"
	       "   An OOM victim holds %lu order-3 blocks; a cache a shrinker can empty\n"
	       "   holds %lu single pages.  Free memory now:\n", d.nr_kept, d.nr_victim_blocks,
	       d.nr_cache);
	show_buddyinfo();
	step("the hard state");

	printk("\n2. kvmalloc(32 KiB, GFP_KERNEL) from that state, under each policy (the\n"
	       "   state is rebuilt before each run; the naive run wakes the OOM killer,\n"
	       "   whose report comes first):\n");
	if (run_policies(&d, r)) {
		kvdemo_teardown(&d);
		return -ENOMEM;
	}
	print_table(r);
	printk("   noretry (Linux 4.12-6.15, the default here): one reclaim round (it\n"
	       "   aims at 32 pages, at rising priority) and one async compaction, which\n"
	       "   found nothing it could move, then vmalloc.  nodirect (Linux 6.16): no\n"
	       "   reclaim or compaction at all, then vmalloc.\n"
	       "   naive: kmalloc() never gave up: round after round reclaimed single\n"
	       "   pages that can never make an order-3 block, until its retries ran out;\n"
	       "   then the OOM killer killed the victim for one.  The vmalloc fallback\n"
	       "   never ran.\n");
	printk("   Each run woke kswapd, which reclaimed the cache for nothing, and\n"
	       "   kcompactd, which found nothing to move either.\n");
	printk("   (Cycles are wall-clock time, which under QEMU varies from run to run;\n"
	       "   make bench counts each policy's instructions exactly.)\n");

	/* The same state, but nothing to kill or reclaim: the RFC's test must not hurt anyone. */
	if (kvdemo_restore(&d))
		printk("kvdemo: could not rebuild the state for the RFC's test\n");
	kvdemo_unregister(&d);
	frag_first = kvdemo_first_vmalloc_size(&frag_largest);
	kvdemo_teardown(&d);
	printk("\n3. The 2010 RFC's test: kvmalloc() of 1 B, 2 B, 4 B ... 1 GiB, each freed:\n");
	print_rfc_scan("on the fresh machine:", fresh_first, fresh_largest);
	print_rfc_scan("in the hard state:", frag_first, frag_largest);
	explain_rfc_scan(fresh_first, frag_first, frag_largest);
	return 0;
}

/* What noretry's compaction cost, beside the vmalloc fallback of part 2 (@u NULL: not run). */
static void compare_costs(const struct kvdemo_result *m, const struct kvdemo_result *u)
{
	printk("   noretry with movable kept pages: %s, after %lu reclaim pass(es) and\n"
	       "   %lu compaction stall(s) that moved %lu pages, in %lu cycles",
	       source_names[m->source], m->reclaim_passes, m->compact_stall, m->migrated,
	       m->cycles);
	if (u)
		printk(KERN_CONT ";\n   with unmovable ones (part 2): %s, in %lu cycles.\n",
		       source_names[u->source], u->cycles);
	else
		printk(KERN_CONT ".\n");
}

/* Part 4: the same state with movable kept pages; @u: part 2's results, or NULL. */
static int movable_story(const struct kvdemo_result *u)
{
	struct kvdemo_result r[NR_KVMALLOC_POLICIES];
	static struct kvdemo d;

	printk("4. The other half: the same hard state, but the kept pages are movable,\n"
	       "   and so are the cache's, as Linux's page cache is (kvdemo owns both\n"
	       "   through movable_operations): compaction may move them out of the way.\n"
	       "   ");
	if (kvdemo_setup_movable(&d)) {
		printk(KERN_CONT "This machine cannot build it: it needs %d more\n"
		       "   free 2 MiB blocks, movable pageblocks for the pages to move to.\n"
		       "   Nothing changed.\n", KVDEMO_TARGET_PAGEBLOCKS);
		return -ENOMEM;
	}
	printk(KERN_CONT "Kept: %lu pages.  First %d free pageblocks were\n"
	       "   taken as movable ones, then fragmented like the rest: compaction\n"
	       "   moves pages into them.  Free memory now:\n", d.nr_kept,
	       KVDEMO_TARGET_PAGEBLOCKS);
	show_buddyinfo();
	step("the hard state, movable");
	printk("   kvmalloc(32 KiB, GFP_KERNEL) under each policy, as in part 2:\n");
	if (run_policies(&d, r)) {
		kvdemo_teardown(&d);
		return -ENOMEM;
	}
	print_table(r);
	kvdemo_teardown(&d);
	printk("   noretry: the one reclaim round freed no block, but async compaction\n"
	       "   moved kept pages out of their 8-page groups into the movable\n"
	       "   pageblocks, and the slab had its order-3 block.  naive: the same with\n"
	       "   sync compaction: nobody was killed.  nodirect may not compact: it\n"
	       "   went to vmalloc, and left kcompactd to make the block afterwards.\n");
	compare_costs(&r[KVMALLOC_NORETRY], u ? &u[KVMALLOC_NORETRY] : NULL);
	return 0;
}

static const char *const kvdemo_stories[] = { "unmovable", "movable", NULL };

static int cmd_kvdemo(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	static struct kvdemo_result unmovable[NR_KVMALLOC_POLICIES];
	int story = -1, err = 0;

	/* "kvdemo step" and "kvdemo movable step" both stop at each state */
	stepping = monitor_take_word(&args, "step");
	if (!stepping) {
		if (monitor_opt_keyword(&args, "STORY", kvdemo_stories, &story))
			return -EINVAL;
		stepping = monitor_take_word(&args, "step");
	}
	if (monitor_args_end(&args))
		return -EINVAL;
	printk("kvdemo: kmalloc() then vmalloc(), done naively and done right "
	       "(the seeds' story: the 2010 RFC and 2017 LWN article in docs/kvmalloc.md)\n\n");
	if (LABS_HANDED_OUT[0])
		printk("kvdemo: it needs every lab done, and this tree was handed out with these\n"
		       "   to do: %s.  Until they are, what follows shows their stubs, not the\n"
		       "   story.\n\n", LABS_HANDED_OUT);
	if (story != 1) {
		err = unmovable_story(unmovable);
		if (err || story == 0)
			return err;
		printk("\n");
	}
	return movable_story(story == 1 ? NULL : unmovable);
}
MONITOR_COMMAND(kvdemo, "[unmovable|movable] [step]",
		"kmalloc-then-vmalloc done naively and right (the 2010 RFC and 2017 LWN story); "
		"with movable pages, compaction's part"
		LABS_NEEDED, cmd_kvdemo);
