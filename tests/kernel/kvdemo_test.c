/*
 * tests/kernel/kvdemo_test.c - the numbers of the seeds' story, as the
 * monitor's `kvdemo` tells it (mm/kvdemo.h), checked.
 *
 * The cases run in order on one shared hard state: memory with no free
 * block of order >= 3, an OOM victim holding order-3 blocks, a cache a
 * shrinker can empty.  The fragmentation is checked independently before
 * any result is trusted (an order-3 allocation that may not reclaim must
 * fail, while more pages are free than kvdemo keeps).  From that state, kvmalloc(32 KiB,
 * GFP_KERNEL) under noretry falls back to vmalloc after at most one
 * reclaim pass and kills nobody; under nodirect it does not reclaim at
 * all; the naive pattern reclaims round after round, kills the victim and is
 * served by the slab.  kvdemo_restore() rebuilds the same state after
 * each.  The 2010 RFC's scan finds vmalloc taking over above
 * KMALLOC_MAX_SIZE on a fresh machine and at 32 KiB in the hard state,
 * and the largest size is more than a quarter of RAM (or the scan's end,
 * 1 GiB) on the fresh machine, the largest power of two the free pages
 * hold in the hard state; teardown gives back every page.  Compaction finds
 * nothing to move there (no page migrated), and nodirect's wakeups run:
 * kswapd and kcompactd, flushed, each ran once.
 *
 * Then the other half, on a second state whose kept and cache pages are
 * movable (kvdemo_setup_movable()): noretry's slab attempt succeeds after
 * its async compaction migrated pages (compact_success moves, nobody is
 * killed); nodirect still falls back, and the kcompactd it woke makes an
 * order-3 block.  Its teardown gives back every page too.
 */
#include "kvmalloc_test.h"
#include "page_alloc_test.h"
#include "mm/kvdemo.h"

/* An order-3 block: the largest order that "never fails". */
#define STORY_SIZE	(32UL << 10)

static struct {
	struct kvdemo d, m;		/* the unmovable state, the movable one */
	bool m_up;
	struct kv_snapshot m_before;
	bool up;			/* kvdemo_setup() succeeded and no teardown yet */
	struct kv_snapshot before;	/* before kvdemo_setup() */
	enum kvmalloc_policy boot_policy;
} demo;

/*
 * The story is told under the default rule, whatever kvmalloc_policy= chose,
 * and with no highatomic pageblock an earlier suite's atomic allocations
 * reserved (the watermarks would leave its pages out of the state).
 */
static int kvdemo_suite_init(struct kunit_suite *suite)
{
	(void)suite;
	unreserve_all_highatomic();
	demo.boot_policy = kvmalloc_policy;
	kvmalloc_set_policy(KVMALLOC_NORETRY);
	return 0;
}

static void kvdemo_suite_exit(struct kunit_suite *suite)
{
	(void)suite;
	if (demo.up)
		kvdemo_teardown(&demo.d);
	demo.up = false;
	if (demo.m_up)
		kvdemo_teardown(&demo.m);
	demo.m_up = false;
	kvmalloc_set_policy(demo.boot_policy);
}

/* Skip unless the state was built (its own case says why if not). */
static void need_state(struct kunit *test)
{
	if (!demo.up)
		kunit_skip(test, "no hard state: see hard_state_is_built");
}

/*
 * Is memory really fragmented, whatever kvdemo_fragmented() says?  An
 * order-3 allocation that may not reclaim (it takes a free block if there
 * is one) must fail, while free pages are plentiful: more than the pages
 * kvdemo keeps to split the blocks (it freed seven for each).
 */
static void expect_fragmented(struct kunit *test)
{
	struct page *page;

	KUNIT_ASSERT_TRUE(test, kvdemo_fragmented());
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 3);
	if (page)
		__free_pages(page, 3);
	KUNIT_ASSERT_NULL_MSG(test, page, "an order-3 block was free: the state is not hard");
	KUNIT_ASSERT_GT(test, nr_free_pages(), demo.d.nr_kept);
}

#define SCAN_END	(1UL << 30)	/* the RFC's scan stops at 1 GiB */

/*
 * The largest size the scan found is limited by free memory only: more
 * than a quarter of RAM (free memory holds a power of two more than half
 * its size), or the end of the scan on a machine of more than 4 GiB.
 */
static void expect_largest_is_large(struct kunit *test, size_t largest)
{
	unsigned long ram = totalram_pages * PAGE_SIZE;

	if (ram / 4 >= SCAN_END)
		KUNIT_EXPECT_EQ_MSG(test, largest, SCAN_END, "RAM %lu bytes", ram);
	else
		KUNIT_EXPECT_GT_MSG(test, largest, ram / 4, "RAM %lu bytes", ram);
}

/* Is a block of the largest order free somewhere (a 4 MiB kmalloc could succeed)? */
static bool max_order_block_free(void)
{
	struct zone *zone;

	drain_all_pages();
	for_each_populated_zone(zone) {
		if (READ_ONCE(zone->free_area[MAX_PAGE_ORDER].nr_free))
			return true;
	}
	return false;
}

/*
 * The RFC's scan on memory as it is: every size up to KMALLOC_MAX_SIZE
 * comes from the slab (or the page allocator through it), so vmalloc
 * serves first the size after: 8 MiB.  It needs a free 4 MiB block, which
 * a freshly booted machine has (checked, rather than assumed), and 8 MiB
 * free.
 */
static void rfc_scan_on_fresh_memory(struct kunit *test)
{
	size_t first, largest;
	struct kv_snapshot before;

	/* vmalloc serves 8 MiB: a machine of 12 MiB has 7.7 MiB free */
	need_free_pages(test, 2 * KMALLOC_MAX_SIZE / PAGE_SIZE);
	kv_snapshot_take(&before);
	/* a machine of 10 MiB has no 4 MiB of free RAM in one aligned block, even fresh */
	if (!max_order_block_free() && totalram_pages < 2UL << MAX_PAGE_ORDER)
		kunit_skip(test, "needs a free 4 MiB block, this machine manages only %lu KiB",
			   totalram_pages * (PAGE_SIZE / 1024));
	KUNIT_ASSERT_TRUE_MSG(test, max_order_block_free(), "no free 4 MiB block: not fresh");
	first = kvdemo_first_vmalloc_size(&largest);
	KUNIT_EXPECT_EQ(test, first, 2 * KMALLOC_MAX_SIZE);
	expect_largest_is_large(test, largest);
	kunit_info(test, "first size served by vmalloc %zu, largest %zu\n", first, largest);
	kv_expect_back(test, &before);
}

static void hard_state_is_built(struct kunit *test)
{
	unsigned long avail, need = STORY_SIZE / PAGE_SIZE + 16;

	need_free_pages(test, KVDEMO_LEAST_PAGES);
	kv_snapshot_take(&demo.before);
	KUNIT_ASSERT_EQ(test, kvdemo_setup(&demo.d), 0);
	demo.up = true;
	/*
	 * The story's vmalloc fallback must find its pages free, without
	 * reclaim: a machine only just big enough for the state (by a few
	 * pages) leaves it too few.
	 */
	avail = pages_available();
	if (avail < need) {
		kvdemo_teardown(&demo.d);
		demo.up = false;
		kunit_skip(test, "the hard state leaves %lu free pages above the watermarks, "
			   "the vmalloc fallback needs %lu", avail, need);
	}
	expect_fragmented(test);
	KUNIT_EXPECT_GE(test, demo.d.nr_victim_blocks, KVDEMO_MIN_VICTIM_BLOCKS);
	KUNIT_EXPECT_EQ(test, demo.d.nr_victim_blocks, demo.d.victim_blocks_wanted);
	KUNIT_EXPECT_GE(test, demo.d.nr_cache, 128);
	KUNIT_EXPECT_EQ(test, demo.d.nr_cache, demo.d.cache_wanted);
	KUNIT_EXPECT_TRUE(test, demo.d.victim_registered);
	KUNIT_EXPECT_TRUE(test, demo.d.shrinker_registered);
}

/* The state again (after a run that may have killed and reclaimed), checked. */
static void restore(struct kunit *test)
{
	need_state(test);
	KUNIT_ASSERT_EQ(test, kvdemo_restore(&demo.d), 0);
	expect_fragmented(test);
	KUNIT_ASSERT_TRUE(test, demo.d.victim_registered);
	KUNIT_ASSERT_EQ(test, demo.d.nr_victim_blocks, demo.d.victim_blocks_wanted);
	KUNIT_ASSERT_EQ(test, demo.d.nr_cache, demo.d.cache_wanted);
}

/* One kvdemo_run(); the flags its slab attempt got, and how many cache pages were reclaimed. */
static gfp_t run(struct kunit *test, enum kvmalloc_policy policy, struct kvdemo_result *r,
		 unsigned long *cache_reclaimed)
{
	unsigned long reclaimed = demo.d.cache_reclaimed;
	gfp_t gfp;

	restore(test);
	kvdemo_run(&demo.d, policy, STORY_SIZE, r);
	gfp = this_cpu_read(kvmalloc_slab_gfp);
	*cache_reclaimed = demo.d.cache_reclaimed - reclaimed;
	kvdemo_run_background(r);	/* what the run woke, now, before the next restore */
	kunit_info(test, "%s: %s, %lu reclaim passes, %lu pages reclaimed, %lu OOM kills\n",
		   kvmalloc_policy_names[policy], r->source == KVDEMO_SLAB ? "slab" :
		   r->source == KVDEMO_VMALLOC ? "vmalloc" : "failed", r->reclaim_passes,
		   r->reclaimed, r->oom_kills);
	return gfp;
}

/* noretry: one reclaim round (a cluster, not the cache), then vmalloc; nobody is killed. */
static void noretry_falls_back_to_vmalloc_and_kills_nobody(struct kunit *test)
{
	struct kvdemo_result r;
	unsigned long reclaimed;

	KUNIT_EXPECT_EQ(test, run(test, KVMALLOC_NORETRY, &r, &reclaimed),
			GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY);
	KUNIT_EXPECT_EQ(test, r.source, KVDEMO_VMALLOC);
	KUNIT_EXPECT_EQ(test, r.oom_kills, 0);
	KUNIT_EXPECT_LE(test, r.reclaim_passes, 1);
	KUNIT_EXPECT_TRUE(test, r.victim_alive);
	KUNIT_EXPECT_TRUE(test, demo.d.victim_registered);
	KUNIT_EXPECT_EQ(test, demo.d.nr_victim_blocks, demo.d.victim_blocks_wanted);
	KUNIT_EXPECT_LT(test, reclaimed, demo.d.cache_wanted);	/* not the whole cache */
	/* async compaction ran and found nothing it could move */
	KUNIT_EXPECT_EQ(test, r.compact_stall, 1);
	KUNIT_EXPECT_EQ(test, r.compact_success, 0);
	KUNIT_EXPECT_EQ(test, r.migrated, 0);
	KUNIT_EXPECT_EQ(test, r.kcompactd_migrated, 0);
	KUNIT_EXPECT_EQ(test, demo.d.nr_migrated, 0);
}

/* nodirect: no reclaim at all, then vmalloc. */
static void nodirect_falls_back_without_reclaim(struct kunit *test)
{
	struct kvdemo_result r;
	unsigned long reclaimed;

	KUNIT_EXPECT_EQ(test, run(test, KVMALLOC_NODIRECT, &r, &reclaimed),
			(GFP_KERNEL | __GFP_NOWARN) & ~__GFP_DIRECT_RECLAIM);
	KUNIT_EXPECT_EQ(test, r.source, KVDEMO_VMALLOC);
	KUNIT_EXPECT_EQ(test, r.reclaim_passes, 0);
	KUNIT_EXPECT_EQ(test, r.scanned, 0);
	KUNIT_EXPECT_EQ(test, reclaimed, 0);
	KUNIT_EXPECT_EQ(test, r.oom_kills, 0);
	KUNIT_EXPECT_TRUE(test, r.victim_alive);
	KUNIT_EXPECT_EQ(test, r.compact_stall, 0);
	/*
	 * Linux 6.16's rule wakes the background instead: kswapd ran (each
	 * node's the allocation could use), and kcompactd if kswapd left the
	 * zone compaction_suitable() (not on a machine of 6 MiB); neither
	 * helped.
	 */
	KUNIT_EXPECT_GE(test, r.kswapd_runs, 1);
	KUNIT_EXPECT_LE(test, r.kswapd_runs, num_node_state(N_MEMORY));
	KUNIT_EXPECT_GT(test, r.kswapd_reclaimed, 0);
	KUNIT_EXPECT_LE(test, r.kcompactd_runs, num_node_state(N_MEMORY));
	KUNIT_EXPECT_EQ(test, r.kcompactd_migrated, 0);
	KUNIT_EXPECT_FALSE(test, r.order3_free_after);
}

/*
 * naive: kmalloc(32 KiB, GFP_KERNEL) does not give up: reclaim round after
 * reclaim round, each aiming at SWAP_CLUSTER_MAX pages of the cache (single
 * pages: no order-3 block comes of them), until 16 retries with progress
 * are used up or the cache is empty; then the OOM killer kills the victim,
 * whose blocks serve the slab.  The vmalloc fallback never runs.
 */
static void naive_kills_the_victim_and_never_falls_back(struct kunit *test)
{
	unsigned long wanted = demo.d.cache_wanted;
	struct kvdemo_result r;
	unsigned long reclaimed;

	kunit_expect_report(test, "invoked oom-killer");
	KUNIT_EXPECT_EQ(test, run(test, KVMALLOC_NAIVE, &r, &reclaimed), GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, r.source, KVDEMO_SLAB);
	KUNIT_EXPECT_EQ(test, r.oom_kills, 1);
	KUNIT_EXPECT_FALSE(test, r.victim_alive);
	KUNIT_EXPECT_FALSE(test, demo.d.victim_registered);
	KUNIT_EXPECT_EQ(test, demo.d.nr_victim_blocks, 0);
	KUNIT_EXPECT_GE(test, r.reclaim_passes, 2);
	KUNIT_EXPECT_LE(test, r.reclaim_passes, 1 + 16);	/* MAX_RECLAIM_RETRIES */
	/* a cluster each round, all but the last, which may have found the cache empty */
	KUNIT_EXPECT_GE(test, reclaimed, min(wanted, (r.reclaim_passes - 1) * SWAP_CLUSTER_MAX));
	KUNIT_EXPECT_TRUE_MSG(test, demo.d.nr_cache == 0 || r.reclaim_passes == 1 + 16,
			      "%lu pages left in the cache after %lu rounds", demo.d.nr_cache,
			      r.reclaim_passes);
	KUNIT_EXPECT_GE(test, r.reclaimed, reclaimed);
}

/* After the kill, kvdemo_restore() makes the same state, and noretry behaves as before. */
static void the_state_comes_back_after_a_kill(struct kunit *test)
{
	struct kvdemo_result r;
	unsigned long reclaimed;

	run(test, KVMALLOC_NORETRY, &r, &reclaimed);	/* restore() checks the state */
	KUNIT_EXPECT_EQ(test, r.source, KVDEMO_VMALLOC);
	KUNIT_EXPECT_EQ(test, r.oom_kills, 0);
	KUNIT_EXPECT_TRUE(test, r.victim_alive);
}

/*
 * The RFC's scan in the hard state, with the victim and the cache out of
 * reach: 16 KiB (order 2) is still served by the slab, 32 KiB (order 3,
 * the first order that cannot be found) by vmalloc; and the largest power
 * of two that the free pages hold still succeeds, from scattered pages.
 * Nobody was hurt.
 */
static void rfc_scan_in_the_hard_state(struct kunit *test)
{
	size_t first, largest;
	unsigned long kills = global_vm_event(OOM_KILL), top = 1, fit = 1, avail;

	restore(test);
	kvdemo_unregister(&demo.d);
	/*
	 * vmalloc() tries every size of the scan up to all of RAM.  On a
	 * small machine (below 32 MiB) the largest power of two it tries
	 * does not fit in what the hard state leaves: the OOM killer is
	 * invoked, finds nobody to kill, and says so; that size fails and
	 * the scan ends.
	 */
	while (2 * top <= totalram_pages && 2 * top <= SCAN_END / PAGE_SIZE)
		top *= 2;
	avail = pages_available();
	/* The largest power of two that fits, with need_free_pages()'s margin. */
	while (fit < top && 2 * fit + 2 * fit / 256 + 16 <= avail)
		fit *= 2;
	kunit_info(test, "RAM %lu pages, largest size tried %lu pages, %lu available\n",
		   totalram_pages, top, avail);
	if (top + top / 256 + 16 > avail)
		kunit_expect_report(test, "invoked oom-killer");
	first = kvdemo_first_vmalloc_size(&largest);
	KUNIT_EXPECT_EQ(test, first, kvdemo_order3_size());	/* 32 KiB, or 8 KiB checked */
	/*
	 * The victim and the cache hold memory the scan may not take: the
	 * largest size is limited by what is free (on a machine of 8 MiB the
	 * hard state leaves less than a quarter of RAM free; from half, the
	 * fresh machine's rule holds too).
	 */
	KUNIT_EXPECT_GE_MSG(test, largest, fit * PAGE_SIZE, "%lu pages available", avail);
	if (avail >= totalram_pages / 2)
		expect_largest_is_large(test, largest);
	KUNIT_EXPECT_EQ(test, global_vm_event(OOM_KILL) - kills, 0);
	KUNIT_EXPECT_EQ(test, demo.d.nr_victim_blocks, demo.d.victim_blocks_wanted);
	KUNIT_EXPECT_EQ(test, demo.d.nr_cache, demo.d.cache_wanted);
	kunit_info(test, "first size served by vmalloc %zu, largest %zu\n", first, largest);
	expect_fragmented(test);
}

static void teardown_gives_every_page_back(struct kunit *test)
{
	need_state(test);
	kvdemo_teardown(&demo.d);
	demo.up = false;
	kv_expect_back(test, &demo.before);
}

/* ---------------------------------------------------------------- the movable state */

static void need_movable_state(struct kunit *test)
{
	if (!demo.m_up)
		kunit_skip(test, "no movable state: see movable_state_is_built");
}

/* The same hard state, movable: fragmented, with movable kept and cache pages. */
static void movable_state_is_built(struct kunit *test)
{
	struct page *page;
	unsigned long movable = 0;

	need_free_pages(test, KVDEMO_LEAST_PAGES + KVDEMO_TARGET_PAGEBLOCKS * pageblock_nr_pages);
	kv_snapshot_take(&demo.m_before);
	if (kvdemo_setup_movable(&demo.m))
		kunit_skip(test, "no %d free pageblocks besides the state on this machine",
			   KVDEMO_TARGET_PAGEBLOCKS);
	demo.m_up = true;
	KUNIT_ASSERT_TRUE(test, kvdemo_fragmented());
	KUNIT_EXPECT_TRUE(test, demo.m.movable);
	list_for_each_entry(page, &demo.m.kept, lru)
		movable += PageMovable(page);
	KUNIT_EXPECT_EQ(test, movable, demo.m.nr_kept);
	KUNIT_EXPECT_EQ(test, demo.m.nr_cache, demo.m.cache_wanted);
}

/* One run from the movable state, rebuilt first, then the background. */
static void run_movable(struct kunit *test, enum kvmalloc_policy policy, struct kvdemo_result *r)
{
	unsigned long kills = global_vm_event(OOM_KILL), migrated;

	need_movable_state(test);
	KUNIT_ASSERT_EQ(test, kvdemo_restore(&demo.m), 0);
	KUNIT_ASSERT_TRUE(test, kvdemo_fragmented());
	migrated = demo.m.nr_migrated;
	kvdemo_run(&demo.m, policy, STORY_SIZE, r);
	kunit_info(test, "%s: %s, %lu reclaim passes, %lu compaction stalls, %lu migrated\n",
		   kvmalloc_policy_names[policy], r->source == KVDEMO_SLAB ? "slab" : "vmalloc",
		   r->reclaim_passes, r->compact_stall, r->migrated);
	KUNIT_EXPECT_EQ(test, demo.m.nr_migrated - migrated, r->migrated);	/* ours, all */
	kvdemo_run_background(r);
	KUNIT_EXPECT_EQ(test, r->oom_kills, 0);
	KUNIT_EXPECT_EQ(test, global_vm_event(OOM_KILL) - kills, 0);
	KUNIT_EXPECT_TRUE(test, demo.m.victim_registered);
}

/* noretry: one reclaim round, one async compaction that moves pages: the slab serves it. */
static void movable_noretry_is_served_by_the_slab_after_compaction(struct kunit *test)
{
	struct kvdemo_result r;

	run_movable(test, KVMALLOC_NORETRY, &r);
	KUNIT_EXPECT_EQ(test, r.source, KVDEMO_SLAB);
	KUNIT_EXPECT_LE(test, r.reclaim_passes, 1);
	KUNIT_EXPECT_EQ(test, r.compact_stall, 1);
	KUNIT_EXPECT_EQ(test, r.compact_success, 1);
	KUNIT_EXPECT_GT(test, r.migrated, 0);
}

/* nodirect: vmalloc at once, but the kcompactd it woke (after kswapd) makes the block. */
static void movable_nodirect_leaves_the_block_to_kcompactd(struct kunit *test)
{
	struct kvdemo_result r;

	run_movable(test, KVMALLOC_NODIRECT, &r);
	KUNIT_EXPECT_EQ(test, r.source, KVDEMO_VMALLOC);
	KUNIT_EXPECT_EQ(test, r.compact_stall, 0);
	KUNIT_EXPECT_EQ(test, r.migrated, 0);
	/* one kswapd and one kcompactd run per node the allocation could use */
	KUNIT_EXPECT_GE(test, r.kswapd_runs, 1);
	KUNIT_EXPECT_LE(test, r.kswapd_runs, num_node_state(N_MEMORY));
	KUNIT_EXPECT_GE(test, r.kcompactd_runs, 1);
	KUNIT_EXPECT_LE(test, r.kcompactd_runs, num_node_state(N_MEMORY));
	KUNIT_EXPECT_GT(test, r.kcompactd_migrated, 0);
	KUNIT_EXPECT_TRUE(test, r.order3_free_after);
}

static void movable_teardown_gives_every_page_back(struct kunit *test)
{
	need_movable_state(test);
	kvdemo_teardown(&demo.m);
	demo.m_up = false;
	kv_expect_back(test, &demo.m_before);
}

static struct kunit_case kvdemo_cases[] = {
	KUNIT_CASE(rfc_scan_on_fresh_memory),
	KUNIT_CASE(hard_state_is_built),
	KUNIT_CASE(noretry_falls_back_to_vmalloc_and_kills_nobody),
	KUNIT_CASE(nodirect_falls_back_without_reclaim),
	KUNIT_CASE(naive_kills_the_victim_and_never_falls_back),
	KUNIT_CASE(the_state_comes_back_after_a_kill),
	KUNIT_CASE(rfc_scan_in_the_hard_state),
	KUNIT_CASE(teardown_gives_every_page_back),
	KUNIT_CASE(movable_state_is_built),
	KUNIT_CASE(movable_noretry_is_served_by_the_slab_after_compaction),
	KUNIT_CASE(movable_nodirect_leaves_the_block_to_kcompactd),
	KUNIT_CASE(movable_teardown_gives_every_page_back),
	{}
};

static struct kunit_suite kvdemo_suite = {
	.name = "kvdemo",
	.suite_init = kvdemo_suite_init,
	.suite_exit = kvdemo_suite_exit,
	.test_cases = kvdemo_cases,
	.strict = true,
};
kunit_test_suite(kvdemo_suite);
