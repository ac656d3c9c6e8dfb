/*
 * tests/kernel/page_alloc_reclaim_test.c - what an allocation does when
 * memory is short: docs/design.md's "Allocation semantics", on the real machine.
 *
 * Each case starts with memory taken down to the min watermark (in large
 * blocks, so it is quick even with 5 GiB), a test shrinker and a test OOM
 * victim holding some of those blocks.  Proves that an order-0 GFP_KERNEL
 * allocation runs the shrinkers and, if they free nothing, kills the
 * largest victim and succeeds; that order 3 is still "small"; that
 * __GFP_NORETRY makes one reclaim round and fails without the OOM
 * killer; that costly orders and __GFP_RETRY_MAYFAIL never kill, and that a
 * costly order gets one reclaim round unless __GFP_RETRY_MAYFAIL; that
 * GFP_NOWAIT never reclaims; that __GFP_NOFAIL never returns NULL; and that
 * with nothing to reclaim or kill the failure is loud.  Counters (OOM_KILL,
 * ALLOCSTALL, PGALLOC_FAIL, PGALLOC_NORETRY_FAIL) and the report lines are
 * checked too.  Everything is given back at the end of each case.
 */
#include "page_alloc_test.h"
#include "mm/oom.h"
#include "mm/internal.h"
#include "mm/shrinker.h"
#include "arch/x86_64/timer.h"

/*
 * A cache that a shrinker can shrink: each held block is one object, and
 * freeing it gives pages back.  "Fake" objects are freed without giving
 * back any page (like slab objects that do not empty a slab): reclaim
 * makes progress on paper only.
 */
struct test_cache {
	struct shrinker shrinker;
	struct held_pages mem;
	unsigned long nr_blocks;
	unsigned long fake_objects;
	bool endless;			/* fake objects never run out: count stays the same */
	bool for_kswapd;		/* kswapd may shrink it too (else only direct reclaim) */
	gfp_t nested_gfp;		/* scan_objects allocates a page itself with these */
	unsigned long late;		/* holds nothing until this many reclaim rounds */
	unsigned int nested_allocs, nested_got;
	unsigned int count_calls, scan_calls;
	unsigned long freed;
	bool registered;
};

struct test_victim {
	struct oom_victim victim;
	struct held_pages mem;
	unsigned int kills;
	bool registered;
};

struct reclaim_ctx {
	struct held_pages held;		/* what keeps memory short */
	struct test_cache cache;
	struct test_victim big, small;
	unsigned long free_before, log_pos;
	unsigned long oom_kills, stalls, fails, noretry_fails;
};

static struct reclaim_ctx rctx;

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	struct test_cache *c = container_of(s, struct test_cache, shrinker);
	unsigned long n = c->nr_blocks + c->fake_objects;

	(void)sc;
	/*
	 * Each case counts what direct reclaim did: kswapd, woken by the same
	 * allocations and running on another CPU, would race with it.  It has
	 * its own case.
	 */
	if (current_is_kswapd() && !c->for_kswapd)
		return SHRINK_EMPTY;
	c->count_calls++;
	if (global_vm_event(ALLOCSTALL) - rctx.stalls < c->late)
		return SHRINK_EMPTY;	/* its objects are not reclaimable yet */
	return n ? n : SHRINK_EMPTY;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct test_cache *c = container_of(s, struct test_cache, shrinker);
	unsigned long freed = 0;

	c->scan_calls++;
	if (c->nested_gfp) {
		/* as a real cache might, to write something back before freeing */
		struct page *page = alloc_pages(c->nested_gfp, 0);

		c->nested_allocs++;
		if (page) {
			c->nested_got++;
			__free_pages(page, 0);
		}
	}
	for (int o = MAX_PAGE_ORDER; o >= 0 && freed < sc->nr_to_scan; o--) {
		struct page *page;

		while (freed < sc->nr_to_scan && (page = held_take(&c->mem, o))) {
			__free_pages(page, o);
			c->nr_blocks--;
			freed++;
		}
	}
	while (freed < sc->nr_to_scan && c->fake_objects) {
		if (!c->endless)
			c->fake_objects--;
		freed++;
	}
	c->freed += freed;
	return freed;
}

static unsigned long victim_badness(struct oom_victim *v)
{
	return container_of(v, struct test_victim, victim)->mem.nr_pages;
}

static void victim_kill(struct oom_victim *v)
{
	struct test_victim *tv = container_of(v, struct test_victim, victim);

	tv->kills++;
	tv->registered = false;		/* the OOM killer unregistered it */
	held_free_all(&tv->mem);
}

/* Give the oldest (largest, first taken: in the zone GFP_KERNEL uses first) blocks away. */
static unsigned long give_blocks(struct held_pages *to, unsigned int nr)
{
	unsigned long given = 0;

	for (int o = MAX_PAGE_ORDER; o >= 0 && given < nr; o--) {
		while (given < nr && held_move(to, &rctx.held, o))
			given++;
	}
	return given;
}

static void cache_setup(unsigned int nr_blocks, unsigned long fake_objects)
{
	struct test_cache *c = &rctx.cache;

	c->nr_blocks = give_blocks(&c->mem, nr_blocks);
	c->fake_objects = fake_objects;
	c->shrinker.count_objects = cache_count;
	c->shrinker.scan_objects = cache_scan;
	c->shrinker.seeks = DEFAULT_SEEKS;
	register_shrinker(&c->shrinker, "page_alloc_test");
	c->registered = true;
}

static void victim_setup(struct test_victim *v, const char *name, unsigned int nr_blocks)
{
	give_blocks(&v->mem, nr_blocks);
	v->victim.name = name;
	v->victim.badness = victim_badness;
	v->victim.kill = victim_kill;
	register_oom_victim(&v->victim);
	v->registered = true;
}

/* The counters and the log position, from here on. */
static void mark(void)
{
	rctx.oom_kills = global_vm_event(OOM_KILL);
	rctx.stalls = global_vm_event(ALLOCSTALL);
	rctx.fails = global_vm_event(PGALLOC_FAIL);
	rctx.noretry_fails = global_vm_event(PGALLOC_NORETRY_FAIL);
	rctx.log_pos = printk_log_pos();
}

#define delta(item, since)	(global_vm_event(item) - (since))

static int reclaim_init(struct kunit *test)
{
	memset(&rctx, 0, sizeof(rctx));
	held_init(&rctx.held);
	held_init(&rctx.cache.mem);
	held_init(&rctx.big.mem);
	held_init(&rctx.small.mem);
	drop_caches();
	rctx.free_before = nr_free_pages();
	/* down to the min watermark: GFP_KERNEL's slow path finds nothing */
	held_exhaust(&rctx.held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
	test->priv = &rctx;
	return 0;
}

static void reclaim_exit(struct kunit *test)
{
	if (rctx.cache.registered)
		unregister_shrinker(&rctx.cache.shrinker);
	if (rctx.big.registered)
		unregister_oom_victim(&rctx.big.victim);
	if (rctx.small.registered)
		unregister_oom_victim(&rctx.small.victim);
	held_free_all(&rctx.cache.mem);
	held_free_all(&rctx.big.mem);
	held_free_all(&rctx.small.mem);
	held_free_all(&rctx.held);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), rctx.free_before);
}

/* An allocation the test got: hold it so that exit frees it. */
static struct page *keep(struct page *page, unsigned int order)
{
	if (page)
		held_add(&rctx.held, page, order);
	return page;
}

/* ---------------------------------------------------------------- the cases */

static void order0_kernel_reclaims_before_oom(struct kunit *test)
{
	cache_setup(1, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_GE(test, rctx.cache.scan_calls, 1);
	KUNIT_EXPECT_EQ(test, rctx.cache.nr_blocks, 0);
	KUNIT_EXPECT_GE(test, delta(ALLOCSTALL, rctx.stalls), 1);
	/* the shrinker was enough: nobody killed */
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "oom-killer"));
}

static void order0_kernel_kills_the_largest_victim(struct kunit *test)
{
	const char *log;

	kunit_expect_report(test, "invoked oom-killer");
	cache_setup(0, 0);			/* a shrinker with nothing to give */
	/*
	 * The big one gets the two largest blocks first, so that the small
	 * one's is no larger than either on any machine (on 6 MiB the largest
	 * is half of what is free); the small one registers first all the same.
	 */
	give_blocks(&rctx.big.mem, 2);
	victim_setup(&rctx.small, "pa_test_small", 1);
	victim_setup(&rctx.big, "pa_test_big", 0);
	KUNIT_ASSERT_GT(test, rctx.big.mem.nr_pages, rctx.small.mem.nr_pages);
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_GE(test, rctx.cache.count_calls, 1);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 1);
	KUNIT_EXPECT_EQ(test, rctx.small.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 1);
	KUNIT_EXPECT_GE(test, delta(ALLOCSTALL, rctx.stalls), 1);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 0);
	log = log_since(rctx.log_pos);
	KUNIT_EXPECT_EQ(test, count_substr(log,
		"invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0"), 1);
	KUNIT_EXPECT_EQ(test, count_substr(log, "Out of memory: Killed victim 'pa_test_big'"), 1);
	KUNIT_EXPECT_NULL(test, strstr(log, "pa_test_small"));
	KUNIT_EXPECT_NULL(test, strstr(log, "page allocation failure"));
}

static void order3_is_not_costly(struct kunit *test)
{
	kunit_expect_report(test, "invoked oom-killer");
	cache_setup(0, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, PAGE_ALLOC_COSTLY_ORDER),
					 PAGE_ALLOC_COSTLY_ORDER));
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 1);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(rctx.log_pos), "order=3"));
}

static void costly_order_never_kills(struct kunit *test)
{
	const char *log;

	kunit_expect_report(test, "page allocation failure");
	cache_setup(0, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL, PAGE_ALLOC_COSTLY_ORDER + 1),
				     PAGE_ALLOC_COSTLY_ORDER + 1));
	KUNIT_EXPECT_GE(test, rctx.cache.count_calls, 1);	/* reclaim was tried */
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 1);
	log = log_since(rctx.log_pos);
	KUNIT_EXPECT_NULL(test, strstr(log, "oom-killer"));
	KUNIT_EXPECT_EQ(test, count_substr(log,
		"page allocation failure: order:4, mode:0xcc0(GFP_KERNEL)"), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "costly_order_never_kills"));	/* backtrace */
}

/*
 * A costly order gets one reclaim round, then fails, as in Linux 6.12
 * (__alloc_pages_slowpath()): freeing pages here and there rarely builds a
 * large block, so progress reported by reclaim proves nothing for it.  Only
 * __GFP_RETRY_MAYFAIL asks for more: a quarter of the 16 retries a small
 * order gets (Linux's should_compact_retry()).  The shrinker always
 * reports progress and never gives a page.
 */
static void costly_order_reclaims_once(struct kunit *test)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;
	const unsigned int order = PAGE_ALLOC_COSTLY_ORDER + 1;

	cache_setup(0, 1000);
	rctx.cache.endless = true;
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(gfp, order), order));
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 1);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 1);

	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(gfp | __GFP_RETRY_MAYFAIL, order), order));
	kunit_info(test, "RETRY_MAYFAIL, order %u: %lu reclaim rounds", order,
		   delta(ALLOCSTALL, rctx.stalls));
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 1 + 16 / 4);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 1);
}

static void noretry_makes_one_reclaim_round(struct kunit *test)
{
	const char *log;

	kunit_expect_report(test, "page allocation failure");
	/*
	 * 1000 objects whose freeing gives no page: the round finds less than
	 * a batch to scan down to priority 5; at 4, (1000 >> 4) * 4 / 2 = 124
	 * and 7 deferred from the passes before make one batch of 128, which
	 * meets the round's target of 32.
	 */
	cache_setup(0, 1000);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL | __GFP_NORETRY, 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.cache.scan_calls, 1);
	KUNIT_EXPECT_EQ(test, rctx.cache.freed, SHRINK_BATCH);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 1);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 1);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_NORETRY_FAIL, rctx.noretry_fails), 1);
	log = log_since(rctx.log_pos);
	KUNIT_EXPECT_NULL(test, strstr(log, "oom-killer"));
	KUNIT_EXPECT_EQ(test, count_substr(log,
		"page allocation failure: order:0, mode:0x10cc0(GFP_KERNEL|__GFP_NORETRY)"), 1);

	/* with __GFP_NOWARN: the same, silently */
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0), 0));
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_NORETRY_FAIL, rctx.noretry_fails), 1);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "page allocation failure"));
}

static void noretry_succeeds_if_the_light_pass_helps(struct kunit *test)
{
	cache_setup(1, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL | __GFP_NORETRY, 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.cache.scan_calls, 1);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_NORETRY_FAIL, rctx.noretry_fails), 0);
}

static void retry_mayfail_retries_but_never_kills(struct kunit *test)
{
	/* a full pass frees all 300 (on paper), the next pass nothing: then fail */
	cache_setup(0, 300);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN,
						 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.cache.freed, 300);
	KUNIT_EXPECT_GE(test, delta(ALLOCSTALL, rctx.stalls), 2);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 1);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_NORETRY_FAIL, rctx.noretry_fails), 0);
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "oom-killer"));
}

/*
 * count_objects() may be an estimate (Linux says so): a cache that always
 * claims 1000 objects and "frees" whatever it is asked to must not keep
 * reclaim busy forever.  One pass scans what was counted at its start;
 * the allocator gives up on such "progress" after a bounded number of
 * rounds, then fails (__GFP_RETRY_MAYFAIL) or calls the OOM killer.
 */
static void endless_shrinker_does_not_hang_reclaim(struct kunit *test)
{
	kunit_expect_report(test, "invoked oom-killer");
	cache_setup(0, 1000);
	rctx.cache.endless = true;
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN,
						 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	kunit_info(test, "RETRY_MAYFAIL: %lu reclaim rounds, %u scans",
		   delta(ALLOCSTALL, rctx.stalls), rctx.cache.scan_calls);
	KUNIT_EXPECT_LE(test, delta(ALLOCSTALL, rctx.stalls), 32);
	KUNIT_EXPECT_LE(test, rctx.cache.scan_calls, 32 * (1000 / 128 + 1));

	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 1);
	KUNIT_EXPECT_LE(test, delta(ALLOCSTALL, rctx.stalls), 33);
}

/*
 * A shrinker that allocates while memory is short: its allocation must not
 * run reclaim again (that would take the shrinker lock its own CPU holds).
 */
static void shrinker_may_allocate(struct kunit *test)
{
	cache_setup(1, 0);
	rctx.cache.nested_gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN;
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_GE(test, rctx.cache.nested_allocs, 1);
	KUNIT_EXPECT_EQ(test, rctx.cache.nr_blocks, 0);
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "recursion"));
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "lockup"));
}

/*
 * GFP_NOFS and GFP_NOIO of order <= 3 are "too small to fail", as in Linux
 * 6.12: the OOM killer kills nobody for them (out_of_memory() returns
 * "progress" at once for !__GFP_FS), and the slow path keeps reclaiming
 * and retrying until memory turns up.  Here it turns up in the cache on
 * the third reclaim round; the victim must live through all of it.
 */
static void nofs_and_noio_are_too_small_to_fail(struct kunit *test)
{
	static const gfp_t small[] = { GFP_NOFS, GFP_NOIO };
	const char *log;

	victim_setup(&rctx.big, "pa_test_victim", 2);
	cache_setup(0, 0);
	for (unsigned int i = 0; i < 2 * ARRAY_SIZE(small); i++) {
		gfp_t gfp = small[i % ARRAY_SIZE(small)];
		unsigned int order = i < ARRAY_SIZE(small) ? 0 : PAGE_ALLOC_COSTLY_ORDER;

		/* memory short again; one block for the cache, large enough for the order */
		held_exhaust(&rctx.held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
		rctx.cache.nr_blocks = 0;
		for (int o = MAX_PAGE_ORDER; o >= (int)order && !rctx.cache.nr_blocks; o--)
			rctx.cache.nr_blocks = held_move(&rctx.cache.mem, &rctx.held, o);
		/* a machine of a few MiB may have no free block that large at all */
		if (!rctx.cache.nr_blocks && order)
			kunit_skip(test, "order 0 passed; no free block of order >= %u to set order %u up",
				   order, order);
		KUNIT_ASSERT_EQ(test, rctx.cache.nr_blocks, 1);
		rctx.cache.late = 3;
		mark();
		KUNIT_EXPECT_NOT_NULL_MSG(test, keep(alloc_pages(gfp, order), order),
					  "gfp %#x order %u", gfp, order);
		KUNIT_EXPECT_GE_MSG(test, delta(ALLOCSTALL, rctx.stalls), 3, "gfp %#x", gfp);
		KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
		KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
		KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 0);
		log = log_since(rctx.log_pos);
		KUNIT_EXPECT_NULL(test, strstr(log, "oom-killer"));
		KUNIT_EXPECT_NULL(test, strstr(log, "page allocation failure"));
	}
}

/*
 * One direct reclaim round aims at SWAP_CLUSTER_MAX (32) pages, as Linux
 * 6.12's try_to_free_pages(): shrinkers are asked for (freeable >>
 * priority) * 4 / seeks objects, from DEF_PRIORITY (12) down while the
 * target is missed.  A cache of up to 2000 single pages then gives one or
 * two batches (at priority 4) for one order-0 page, not everything it holds.
 */
static void one_page_reclaims_a_cluster_not_the_cache(struct kunit *test)
{
	struct test_cache *c = &rctx.cache;
	unsigned long scanned;
	struct page *page;

	cache_setup(0, 0);
	while (c->nr_blocks < 2000 && (page = held_take(&rctx.held, 0))) {
		held_add(&c->mem, page, 0);
		c->nr_blocks++;
	}
	for (int o = 1; o <= MAX_PAGE_ORDER && c->nr_blocks < 2000; o++) {
		while (c->nr_blocks + (1UL << o) <= 2000 && (page = held_take(&rctx.held, o))) {
			split_page(page, o);
			for (unsigned long i = 0; i < (1UL << o); i++)
				held_add(&c->mem, page + i, 0);
			c->nr_blocks += 1UL << o;
		}
	}
	KUNIT_ASSERT_GT(test, c->nr_blocks, 2 * SHRINK_BATCH);	/* 6 MiB holds about 500 */
	scanned = global_vm_event(SLABS_SCANNED);
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	kunit_info(test, "one page: %lu of %lu cached pages reclaimed, %lu scanned", c->freed,
		   c->freed + c->nr_blocks, global_vm_event(SLABS_SCANNED) - scanned);
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 1);
	KUNIT_EXPECT_GE(test, c->freed, SWAP_CLUSTER_MAX);
	KUNIT_EXPECT_LE(test, c->freed, 2 * SHRINK_BATCH);
	KUNIT_EXPECT_GT(test, c->nr_blocks, 0);			/* not the whole cache */
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
}

/*
 * Reclaim runs under PF_MEMALLOC (memalloc_noreclaim_save()), as Linux's
 * does: a shrinker's own GFP_KERNEL allocation may take the reserve below
 * the min watermark, and never reclaims nor calls the OOM killer, even
 * though the outer caller, __GFP_NORETRY, asked never to kill.  Before,
 * the nested allocation went on to the OOM killer and killed the victim.
 */
static void shrinker_allocation_never_calls_the_oom_killer(struct kunit *test)
{
	cache_setup(0, 1000);		/* scanned, and never a page */
	rctx.cache.nested_gfp = GFP_KERNEL;
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0), 0));
	KUNIT_EXPECT_GE(test, rctx.cache.nested_allocs, 1);
	KUNIT_EXPECT_EQ(test, rctx.cache.nested_got, rctx.cache.nested_allocs);	/* the reserve */
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 1);	/* the outer round only */
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "oom-killer"));
}

/*
 * memalloc_noreclaim_save() itself: GFP_KERNEL in the scope takes the
 * reserve (nothing else is free) without reclaim or a kill; when the
 * reserve is gone too it fails, still without either.  After the restore,
 * the same call reclaims as usual.
 */
static void noreclaim_scope_takes_the_reserve_and_never_reclaims(struct kunit *test)
{
	struct held_pages reserve;
	unsigned int flags;

	kunit_expect_report(test, "page allocation failure");
	held_init(&reserve);
	cache_setup(1, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	flags = memalloc_noreclaim_save();
	KUNIT_EXPECT_TRUE(test, current_memalloc_flags() & PF_MEMALLOC);
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	held_exhaust(&reserve, GFP_KERNEL | __GFP_NOWARN);	/* all of the reserve */
	KUNIT_EXPECT_NULL(test, alloc_pages(GFP_KERNEL, 0));
	memalloc_noreclaim_restore(flags);
	KUNIT_EXPECT_FALSE(test, current_memalloc_flags() & PF_MEMALLOC);
	held_free_all(&reserve);
	KUNIT_EXPECT_EQ(test, rctx.cache.scan_calls, 0);
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 0);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "oom-killer"));
	/* nested scopes: the inner restore leaves the outer scope's mark */
	flags = memalloc_noreclaim_save();
	KUNIT_EXPECT_EQ(test, memalloc_noreclaim_save(), 0);
	memalloc_noreclaim_restore(0);
	KUNIT_EXPECT_TRUE(test, current_memalloc_flags() & PF_MEMALLOC);
	memalloc_noreclaim_restore(flags);
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_GE(test, rctx.cache.scan_calls, 1);
}

static void nowait_never_reclaims(struct kunit *test)
{
	cache_setup(1, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.cache.count_calls + rctx.cache.scan_calls, 0);
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 0);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	/* GFP_ATOMIC does not reclaim either: it takes from the reserve */
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_ATOMIC, 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.cache.count_calls + rctx.cache.scan_calls, 0);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
}

/*
 * With nothing to reclaim and no victim registered anywhere, the failure
 * is loud (where Linux would panic).  GFP_NOFS too, too small to fail as
 * it is: with no victim at all, nothing but reclaim could ever help it, so
 * it fails as GFP_KERNEL does (Linux would wait for ever) instead of
 * spinning for good.
 */
static void nothing_to_kill_fails_loudly(struct kunit *test)
{
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_NOFS };
	const char *log;

	kunit_expect_report(test, "invoked oom-killer");
	kunit_expect_report(test, "page allocation failure");
	cache_setup(0, 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(gfps); i++) {
		mark();
		KUNIT_EXPECT_NULL(test, keep(alloc_pages(gfps[i], 0), 0));
		KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
		KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 1);
		log = log_since(rctx.log_pos);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "invoked oom-killer"), 1,
				    "gfp %#x", gfps[i]);
		KUNIT_EXPECT_EQ(test,
				count_substr(log, "Out of memory and no killable victims"), 1);
		KUNIT_EXPECT_EQ(test, count_substr(log, "page allocation failure: order:0"), 1);
	}
}

static void nofail_never_returns_null(struct kunit *test)
{
	struct page *page;

	kunit_expect_report(test, "invoked oom-killer");
	cache_setup(0, 0);
	mark();
	/* nothing to reclaim or kill: it takes the last reserve */
	page = keep(alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 0), 0);
	KUNIT_EXPECT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 0);
	/* with a victim, the victim goes first */
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	page = keep(alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 0), 0);
	KUNIT_EXPECT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 1);
}

/*
 * __GFP_NOFAIL wins over __GFP_NORETRY and __GFP_RETRY_MAYFAIL, as in Linux:
 * the allocation may not fail, but it still never calls the OOM killer.
 */
static void nofail_wins_over_noretry_and_retry_mayfail(struct kunit *test)
{
	static const gfp_t modifiers[] = { __GFP_NORETRY, __GFP_RETRY_MAYFAIL };

	cache_setup(0, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	for (unsigned int i = 0; i < ARRAY_SIZE(modifiers); i++) {
		gfp_t gfp = GFP_KERNEL | __GFP_NOFAIL | modifiers[i];

		mark();
		KUNIT_EXPECT_NOT_NULL_MSG(test, keep(alloc_pages(gfp, 0), 0), "gfp %#x", gfp);
		KUNIT_EXPECT_EQ(test, delta(PGALLOC_FAIL, rctx.fails), 0);
		KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
		KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "oom-killer"));
	}
}

/*
 * Linux's rules for who may be killed (__alloc_pages_may_oom() and
 * out_of_memory()): not for a caller that cannot use ZONE_NORMAL (killing
 * rarely frees DMA or DMA32 memory), not for __GFP_THISNODE (the victim's
 * memory may be on another node).  Each fails instead; a plain GFP_KERNEL
 * then still kills.  (Nor without __GFP_FS, but GFP_NOFS does not fail:
 * nofs_and_noio_are_too_small_to_fail.)
 */
static void oom_killer_rules_follow_linux(struct kunit *test)
{
	static const gfp_t no_kill[] = {
		GFP_KERNEL | __GFP_DMA32, GFP_KERNEL | __GFP_DMA, GFP_KERNEL | __GFP_THISNODE,
	};

	kunit_expect_report(test, "invoked oom-killer");
	cache_setup(0, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	/* the low zones too, down to the watermark their own allocations see */
	held_exhaust(&rctx.held, GFP_KERNEL | __GFP_DMA32 | __GFP_NORETRY | __GFP_NOWARN);
	held_exhaust(&rctx.held, GFP_KERNEL | __GFP_DMA | __GFP_NORETRY | __GFP_NOWARN);
	for (unsigned int i = 0; i < ARRAY_SIZE(no_kill); i++) {
		mark();
		KUNIT_EXPECT_NULL_MSG(test, keep(alloc_pages(no_kill[i] | __GFP_NOWARN, 0), 0),
				      "gfp %#x", no_kill[i]);
		KUNIT_EXPECT_EQ_MSG(test, rctx.big.kills, 0, "gfp %#x", no_kill[i]);
		KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
		KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "oom-killer"));
	}
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 1);
}

/*
 * GFP_KERNEL with interrupts off could wait forever for another CPU
 * (reclaim drains every CPU's lists by IPI): reported once per caller, and
 * the allocation goes on without reclaim.
 */
static __noinline struct page *alloc_with_interrupts_off(gfp_t gfp)
{
	unsigned long flags;
	struct page *page;

	local_irq_save(flags);
	page = alloc_pages(gfp, 0);
	local_irq_restore(flags);
	return page;
}

static void sleeping_allocation_with_interrupts_off_is_reported(struct kunit *test)
{
	const char *log;

	kunit_expect_report(test, "BUG: sleeping allocation from invalid context");
	cache_setup(1, 0);
	victim_setup(&rctx.big, "pa_test_victim", 2);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_with_interrupts_off(GFP_KERNEL | __GFP_NOWARN), 0));
	KUNIT_EXPECT_NULL(test, keep(alloc_with_interrupts_off(GFP_KERNEL | __GFP_NOWARN), 0));
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 0);
	KUNIT_EXPECT_EQ(test, rctx.cache.scan_calls, 0);
	KUNIT_EXPECT_EQ(test, rctx.big.kills, 0);
	log = log_since(rctx.log_pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG: sleeping allocation from invalid context "
					   "by alloc_with_interrupts_off"), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "irqs_disabled(): 1"));
	/* interrupts on again: the same call reclaims as usual */
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_GE(test, rctx.cache.scan_calls, 1);
	KUNIT_EXPECT_NULL(test, strstr(log_since(rctx.log_pos), "invalid context"));
}

/*
 * A victim that holds nothing would free nothing: it is never chosen, and
 * with nobody else the failure is loud, as with no victim at all.  (Killing
 * it would report a kill, free no page and only then fail.)
 */
static void a_victim_that_would_free_nothing_is_not_killed(struct kunit *test)
{
	const char *log;

	kunit_expect_report(test, "invoked oom-killer");
	kunit_expect_report(test, "page allocation failure");
	cache_setup(0, 0);
	victim_setup(&rctx.small, "pa_test_empty", 0);
	KUNIT_ASSERT_EQ(test, rctx.small.mem.nr_pages, 0);
	mark();
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_EQ_MSG(test, rctx.small.kills, 0, "a victim of badness 0 was killed");
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 0);
	log = log_since(rctx.log_pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "Out of memory and no killable victims"), 1);
	KUNIT_EXPECT_NULL(test, strstr(log, "Killed victim 'pa_test_empty'"));
}

/* One block of the same order to each of @a and @b (the largest order held twice). */
static void give_equal_blocks(struct held_pages *a, struct held_pages *b)
{
	struct page *page;

	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		if (!held_move(a, &rctx.held, o))
			continue;
		if (held_move(b, &rctx.held, o))
			return;
		held_move(&rctx.held, a, o);	/* only one of that order */
	}
	/* one block of each order at most (a small machine): halve the largest */
	for (int o = MAX_PAGE_ORDER; o > 0; o--) {
		page = held_take(&rctx.held, o);
		if (!page)
			continue;
		split_page(page, o);
		for (unsigned long i = 0; i < 1UL << o; i++)
			held_add(i < 1UL << (o - 1) ? a : b, page + i, 0);
		return;
	}
}

/*
 * Of two victims that would free as much, the one registered first is
 * killed (the strict > of select_bad_victim()): one kill, a choice that
 * does not depend on the order a scan happens to meet them in later.
 */
static void of_two_equal_victims_the_first_registered_is_killed(struct kunit *test)
{
	kunit_expect_report(test, "invoked oom-killer");
	cache_setup(0, 0);
	give_equal_blocks(&rctx.big.mem, &rctx.small.mem);
	KUNIT_ASSERT_GT(test, rctx.big.mem.nr_pages, 0);
	KUNIT_ASSERT_EQ(test, rctx.big.mem.nr_pages, rctx.small.mem.nr_pages);
	victim_setup(&rctx.big, "pa_test_first", 0);
	victim_setup(&rctx.small, "pa_test_second", 0);
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_EQ_MSG(test, rctx.big.kills, 1, "the first of two equal victims was spared");
	KUNIT_EXPECT_EQ(test, rctx.small.kills, 0);
	KUNIT_EXPECT_EQ(test, delta(OOM_KILL, rctx.oom_kills), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(rctx.log_pos),
					   "Out of memory: Killed victim 'pa_test_first'"));
}

/* A victim that frees its largest block only and registers again from its kill(). */
static void kill_and_come_back(struct oom_victim *v)
{
	struct test_victim *tv = container_of(v, struct test_victim, victim);
	struct page *page;

	tv->kills++;
	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		page = held_take(&tv->mem, o);
		if (page) {
			__free_pages(page, o);
			break;
		}
	}
	register_oom_victim(v);
}

/*
 * A victim may register again while it is being killed: it is registered
 * afterwards, and unregister_oom_victim() takes it off the list, so the
 * next OOM kills nobody.  (The killer's closing "gone" once overwrote the
 * new registration: unregistering did nothing, and the victim, though
 * unregistered, was killed again.)
 */
static void a_victim_registered_again_in_its_kill_can_be_unregistered(struct kunit *test)
{
	kunit_expect_report(test, "invoked oom-killer");
	kunit_expect_report(test, "page allocation failure");
	cache_setup(0, 0);
	give_blocks(&rctx.big.mem, 2);
	victim_setup(&rctx.big, "pa_test_back", 0);
	rctx.big.victim.kill = kill_and_come_back;
	mark();
	KUNIT_EXPECT_NOT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_ASSERT_EQ(test, rctx.big.kills, 1);
	KUNIT_ASSERT_GT(test, rctx.big.mem.nr_pages, 0);
	unregister_oom_victim(&rctx.big.victim);
	rctx.big.registered = false;
	held_exhaust(&rctx.held, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
	KUNIT_EXPECT_NULL(test, keep(alloc_pages(GFP_KERNEL, 0), 0));
	KUNIT_EXPECT_EQ_MSG(test, rctx.big.kills, 1, "an unregistered victim was killed");
}

/*
 * kswapd (mm/kswapd.c): an allocation that finds the zones below their low
 * watermark wakes it, and it reclaims in the background, from a cache that
 * lets it, until a zone is back above its high watermark, with no direct
 * reclaim and with Linux's counters.  Woken again soon after, it counts
 * kswapd_low_wmark_hit_quickly.
 */
static void kswapd_reclaims_to_the_high_watermark(struct kunit *test)
{
	struct zone *top = top_zone();
	unsigned long runs, scanned, stolen, quickly, start;

	kswapd_flush();		/* what reclaim_init's exhaustion woke */
	rctx.cache.for_kswapd = true;
	cache_setup(2, 0);
	mark();
	runs = global_vm_event(PAGEOUTRUN);
	scanned = global_vm_event(PGSCAN_KSWAPD);
	stolen = global_vm_event(PGSTEAL_KSWAPD);
	quickly = global_vm_event(KSWAPD_LOW_WMARK_HIT_QUICKLY);
	KUNIT_EXPECT_FALSE(test, zone_watermark_ok(top, 0, top->watermark[WMARK_LOW], 0, 0));
	keep(alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0), 0);
	kswapd_flush();
	kunit_info(test, "zone %s: %lu free (high %lu); kswapd: %lu runs, %lu scanned, %lu stolen",
		   top->name, top->nr_free, top->watermark[WMARK_HIGH],
		   delta(PAGEOUTRUN, runs), delta(PGSCAN_KSWAPD, scanned),
		   delta(PGSTEAL_KSWAPD, stolen));
	KUNIT_EXPECT_GE(test, delta(PAGEOUTRUN, runs), 1);
	KUNIT_EXPECT_GE(test, delta(PGSTEAL_KSWAPD, stolen), 1);
	KUNIT_EXPECT_GE(test, delta(PGSCAN_KSWAPD, scanned), delta(PGSTEAL_KSWAPD, stolen));
	KUNIT_EXPECT_LT(test, rctx.cache.nr_blocks, 2);
	KUNIT_EXPECT_TRUE(test, zone_watermark_ok(top, 0, top->watermark[WMARK_HIGH], 0, 0));
	KUNIT_EXPECT_EQ(test, delta(ALLOCSTALL, rctx.stalls), 0);
	KUNIT_EXPECT_EQ(test, rctx.big.kills + rctx.small.kills, 0);
	/* down below low again at once: kswapd's watermarks were too close */
	start = jiffies;
	while (keep(alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0), 0))
		;
	kswapd_flush();
	if (jiffies - start < HZ / 10)
		KUNIT_EXPECT_GE(test, delta(KSWAPD_LOW_WMARK_HIT_QUICKLY, quickly), 1);
	else
		kunit_info(test, "the second exhaustion took %lu jiffies: not quick", jiffies - start);
}

static struct kunit_case page_alloc_reclaim_cases[] = {
	KUNIT_CASE(order0_kernel_reclaims_before_oom),
	KUNIT_CASE(order0_kernel_kills_the_largest_victim),
	KUNIT_CASE(a_victim_that_would_free_nothing_is_not_killed),
	KUNIT_CASE(of_two_equal_victims_the_first_registered_is_killed),
	KUNIT_CASE(a_victim_registered_again_in_its_kill_can_be_unregistered),
	KUNIT_CASE(order3_is_not_costly),
	KUNIT_CASE(costly_order_never_kills),
	KUNIT_CASE(costly_order_reclaims_once),
	KUNIT_CASE(noretry_makes_one_reclaim_round),
	KUNIT_CASE(noretry_succeeds_if_the_light_pass_helps),
	KUNIT_CASE(retry_mayfail_retries_but_never_kills),
	KUNIT_CASE(endless_shrinker_does_not_hang_reclaim),
	KUNIT_CASE(shrinker_may_allocate),
	KUNIT_CASE(shrinker_allocation_never_calls_the_oom_killer),
	KUNIT_CASE(noreclaim_scope_takes_the_reserve_and_never_reclaims),
	KUNIT_CASE(nofs_and_noio_are_too_small_to_fail),
	KUNIT_CASE(one_page_reclaims_a_cluster_not_the_cache),
	KUNIT_CASE(nowait_never_reclaims),
	KUNIT_CASE(kswapd_reclaims_to_the_high_watermark),
	KUNIT_CASE(nothing_to_kill_fails_loudly),
	KUNIT_CASE(nofail_never_returns_null),
	KUNIT_CASE(nofail_wins_over_noretry_and_retry_mayfail),
	KUNIT_CASE(oom_killer_rules_follow_linux),
	KUNIT_CASE(sleeping_allocation_with_interrupts_off_is_reported),
	{}
};

static struct kunit_suite page_alloc_reclaim_suite = {
	.name = "page_alloc_reclaim",
	.init = reclaim_init,
	.exit = reclaim_exit,
	.test_cases = page_alloc_reclaim_cases,
	.strict = true,
};
kunit_test_suite(page_alloc_reclaim_suite);
