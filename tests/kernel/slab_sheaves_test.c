/*
 * tests/kernel/slab_sheaves_test.c - the slab's per-CPU tier really caches
 * objects, and each step goes where docs/slab.md (section 4) says.
 *
 * The other slab suites check what kmalloc() and kfree() give back; they
 * would pass just as well if every object went to and from its slab under
 * the node's lock.  These cases look at where the objects are: handed out,
 * in this CPU's main and spare sheaves, in the node's barn, or in their
 * slabs.  Each case has a new cache of its own, so its tiers start empty
 * (main is the bootstrap sheaf, no spare, an empty barn), and no other code
 * touches them.  After every step, the objects that have left the slabs are
 * exactly those the case holds plus those the sheaves and the barn cache:
 * none lost, none counted twice.
 *
 * Without sheaves there is nothing to see: booted with slab_debug, the
 * kernel checks every cache (slab debugging takes the slab path), and then
 * every case skips.
 */
#include "kunit/test.h"
#include "kernel/percpu.h"
#include "mm/slab_internal.h"
#include "lib/errno.h"

#define OBJ_SIZE	64
#define MAX_HELD	(4 * 32 + 1)	/* sheaf_capacity is 32 at most */

static struct {
	struct kmem_cache *s;
	void *objs[MAX_HELD];
	unsigned int nr;		/* objs[0..nr) are held */
} sh;

static int sheaves_init(struct kunit *test)
{
	(void)test;
	sh.nr = 0;
	sh.s = kmem_cache_create("sheaves_test", OBJ_SIZE, 0, 0, NULL);
	return sh.s ? 0 : -ENOMEM;
}

static void sheaves_exit(struct kunit *test)
{
	(void)test;
	while (sh.nr)
		kmem_cache_free(sh.s, sh.objs[--sh.nr]);
	kmem_cache_destroy(sh.s);
}

/* The cache's sheaf capacity; the case is skipped if the cache has no sheaves. */
static unsigned int sheaves_or_skip(struct kunit *test)
{
	if (sh.s->flags & (SLAB_DEBUG_FLAGS | SLAB_NO_SHEAVES))
		kunit_skip(test, "slab debugging is on for every cache: no sheaves "
			   "(boot without slab_debug)");
	if (CONFIG_KASAN)
		kunit_skip(test, "KASAN's quarantine holds freed objects before the sheaves see "
			   "them (the kasan suite covers it)");
	KUNIT_ASSERT_LE(test, 4 * sh.s->sheaf_capacity + 1, MAX_HELD);
	return sh.s->sheaf_capacity;
}

static struct slub_percpu_sheaves *this_cpu_sheaves(void)
{
	return this_cpu_ptr(sh.s->cpu_sheaves);
}

static struct node_barn *this_barn(void)
{
	return &get_node(sh.s, numa_mem_id())->barn;	/* its memory node's */
}

static unsigned long slab_list_inuse(u32 head)
{
	unsigned long inuse = 0;

	for (struct page *slab = pfn_to_slab(head); slab; slab = pfn_to_slab(slab->slab_next))
		inuse += slab->inuse;
	return inuse;
}

/* How many objects have left the cache's slabs (handed out, or cached above them). */
static unsigned long objects_out(void)
{
	unsigned long out = 0, flags;
	int nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(sh.s, nid);

		spin_lock_irqsave(&n->list_lock, flags);
		out += slab_list_inuse(n->partial) + slab_list_inuse(n->full);
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
	return out;
}

static void expect_conserved(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, objects_out(), sh.nr + cache_sheaf_objects(sh.s),
			    "objects out of the slabs: %u held, %lu in sheaves and the barn",
			    sh.nr, cache_sheaf_objects(sh.s));
}

static void take(struct kunit *test, unsigned int n)
{
	while (n--) {
		KUNIT_ASSERT_LT(test, sh.nr, MAX_HELD);
		sh.objs[sh.nr] = kmem_cache_alloc(sh.s, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, sh.objs[sh.nr]);
		sh.nr++;
	}
}

/* Free the @n objects taken last, the newest first. */
static void give_back(unsigned int n)
{
	while (n-- && sh.nr)
		kmem_cache_free(sh.s, sh.objs[--sh.nr]);
}

/* An empty main sheaf with no spare and an empty barn: filled from the slabs, whole. */
static void a_refill_takes_a_whole_sheaf(struct kunit *test)
{
	unsigned int cap = sheaves_or_skip(test);
	struct slub_percpu_sheaves *pcs = this_cpu_sheaves();

	take(test, 1);
	KUNIT_EXPECT_EQ(test, objects_out(), cap);
	KUNIT_EXPECT_EQ(test, pcs->main->capacity, cap);
	KUNIT_EXPECT_PTR_EQ(test, pcs->end, sheaf_objects(pcs->main) + cap);
	KUNIT_EXPECT_EQ(test, main_size(pcs), cap - 1);
	expect_conserved(test);
}

/* kfree() pushes onto this CPU's main sheaf, kmalloc() pops: no slab is touched. */
static void a_freed_object_comes_back_first(struct kunit *test)
{
	struct slub_percpu_sheaves *pcs = this_cpu_sheaves();
	unsigned long out;
	void *p;

	sheaves_or_skip(test);
	take(test, 2);
	out = objects_out();
	p = sh.objs[1];
	give_back(1);
	KUNIT_EXPECT_EQ_MSG(test, objects_out(), out, "the freed object went back to its slab");
	KUNIT_ASSERT_GT_MSG(test, main_size(pcs), 0, "this CPU's main sheaf is empty after the free");
	KUNIT_EXPECT_PTR_EQ(test, pcs->top[-1], p);
	take(test, 1);
	KUNIT_EXPECT_PTR_EQ(test, sh.objs[1], p);
	KUNIT_EXPECT_EQ(test, objects_out(), out);
	expect_conserved(test);
}

/* A full main swaps with an empty spare on free; an empty main with a full spare on alloc. */
static void main_and_spare_hold_two_sheaves(struct kunit *test)
{
	unsigned int cap = sheaves_or_skip(test);
	struct slub_percpu_sheaves *pcs = this_cpu_sheaves();

	take(test, cap + 1);
	KUNIT_EXPECT_EQ_MSG(test, objects_out(), 2 * cap, "two refills of a whole sheaf");
	expect_conserved(test);
	give_back(cap + 1);
	KUNIT_EXPECT_EQ_MSG(test, objects_out(), 2 * cap,
			    "objects went back to the slabs while main and spare had room");
	KUNIT_EXPECT_EQ(test, main_size(pcs), cap);
	KUNIT_ASSERT_NOT_NULL(test, pcs->spare);
	KUNIT_EXPECT_EQ(test, pcs->spare->size, cap);
	expect_conserved(test);
	take(test, 2 * cap);
	KUNIT_EXPECT_EQ_MSG(test, objects_out(), 2 * cap,
			    "objects came from the slabs while main and spare had some");
	expect_conserved(test);
}

/*
 * With main and spare full, a full main is traded at the barn for an empty
 * sheaf (the empty one an earlier refill left there); with both empty, a
 * full sheaf is taken from the barn.
 */
static void full_sheaves_go_through_the_barn(struct kunit *test)
{
	unsigned int cap = sheaves_or_skip(test), nr_full;
	unsigned long out;

	take(test, 3 * cap + 1);
	expect_conserved(test);
	give_back(3 * cap + 1);
	KUNIT_EXPECT_GE_MSG(test, this_barn()->nr_full, 1,
			    "no full sheaf was left at the barn (%u empty there)",
			    this_barn()->nr_empty);
	expect_conserved(test);
	nr_full = this_barn()->nr_full;
	out = objects_out();
	take(test, 3 * cap);
	KUNIT_EXPECT_EQ_MSG(test, objects_out(), out,
			    "objects came from the slabs while the barn had a full sheaf");
	KUNIT_EXPECT_EQ(test, this_barn()->nr_full, nr_full - 1);
	expect_conserved(test);
}

/* kmem_cache_flush_cpus() empties every sheaf and the barn into the slabs. */
static void flush_gives_every_object_back(struct kunit *test)
{
	unsigned int cap = sheaves_or_skip(test);

	take(test, 3 * cap + 1);
	give_back(3 * cap + 1);
	kmem_cache_flush_cpus(sh.s);
	KUNIT_EXPECT_EQ(test, cache_sheaf_objects(sh.s), 0);
	KUNIT_EXPECT_EQ(test, objects_out(), 0);
	KUNIT_EXPECT_EQ(test, this_barn()->nr_full, 0);
}

/* ---------------------------------------------------------------- the barn's limits */

/* The sheaves on the barn's list of @full ones, or of empty ones. */
static unsigned int barn_list_length(bool full)
{
	struct node_barn *barn = this_barn();
	struct list_head *list = full ? &barn->sheaves_full : &barn->sheaves_empty;
	struct slab_sheaf *sheaf;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&barn->lock, flags);
	list_for_each_entry(sheaf, list, barn_list)
		n++;
	spin_unlock_irqrestore(&barn->lock, flags);
	return n;
}

/* The barn's counts say what its lists hold again (a case raised them). */
static void barn_recount(void)
{
	struct node_barn *barn = this_barn();
	unsigned int full = barn_list_length(true), empty = barn_list_length(false);
	unsigned long flags;

	spin_lock_irqsave(&barn->lock, flags);
	barn->nr_full = full;
	barn->nr_empty = empty;
	spin_unlock_irqrestore(&barn->lock, flags);
}

/*
 * A barn that holds MAX_FULL_SHEAVES full sheaves takes no more: a full
 * main is then emptied into the slabs, not traded.  The count stands for
 * the full sheaves of other CPUs (no machine of the matrix has the CPUs
 * to fill a barn for real); one empty sheaf is at the barn, so only the
 * limit can refuse the trade.  An off-by-one there (<= for <) lets the
 * barn grow by one sheaf of objects nobody can reclaim but a flush.
 */
static void a_full_barn_takes_no_more_full_sheaves(struct kunit *test)
{
	unsigned int cap = sheaves_or_skip(test);
	struct node_barn *barn = this_barn();
	unsigned long flags, out;

	take(test, 3 * cap);		/* three refills: the first empty main is at the barn */
	give_back(2 * cap);		/* main and spare full */
	KUNIT_ASSERT_EQ(test, barn_list_length(false), 1);
	KUNIT_ASSERT_EQ(test, barn_list_length(true), 0);
	spin_lock_irqsave(&barn->lock, flags);
	barn->nr_full = MAX_FULL_SHEAVES;
	spin_unlock_irqrestore(&barn->lock, flags);
	out = objects_out();
	give_back(1);			/* main is full, and so is the spare */
	KUNIT_EXPECT_EQ_MSG(test, barn_list_length(true), 0,
			    "a barn at its limit of %u full sheaves took one more",
			    MAX_FULL_SHEAVES);
	KUNIT_EXPECT_EQ_MSG(test, objects_out(), out - cap,
			    "the full main was not emptied into the slabs");
	barn_recount();
	expect_conserved(test);
}

/*
 * The same for empty sheaves: at MAX_EMPTY_SHEAVES, an empty main that
 * leaves (a refill replaced it, and the spare is taken) is freed.
 */
static void a_full_barn_takes_no_more_empty_sheaves(struct kunit *test)
{
	unsigned int cap = sheaves_or_skip(test);
	struct node_barn *barn = this_barn();
	unsigned long flags;

	take(test, 2 * cap);		/* main and spare empty */
	KUNIT_ASSERT_EQ(test, barn_list_length(false), 0);
	spin_lock_irqsave(&barn->lock, flags);
	barn->nr_empty = MAX_EMPTY_SHEAVES;
	spin_unlock_irqrestore(&barn->lock, flags);
	take(test, 1);			/* a third refill: the old main must go */
	KUNIT_EXPECT_EQ_MSG(test, barn_list_length(false), 0,
			    "a barn at its limit of %u empty sheaves took one more",
			    MAX_EMPTY_SHEAVES);
	barn_recount();
	expect_conserved(test);
}

static struct kunit_case slab_sheaves_cases[] = {
	KUNIT_CASE(a_refill_takes_a_whole_sheaf),
	KUNIT_CASE(a_freed_object_comes_back_first),
	KUNIT_CASE(main_and_spare_hold_two_sheaves),
	KUNIT_CASE(full_sheaves_go_through_the_barn),
	KUNIT_CASE(flush_gives_every_object_back),
	KUNIT_CASE(a_full_barn_takes_no_more_full_sheaves),
	KUNIT_CASE(a_full_barn_takes_no_more_empty_sheaves),
	{}
};

static struct kunit_suite slab_sheaves_suite = {
	.name = "slab_sheaves",
	.init = sheaves_init,
	.exit = sheaves_exit,
	.test_cases = slab_sheaves_cases,
	.strict = true,
};
kunit_test_suite(slab_sheaves_suite);
