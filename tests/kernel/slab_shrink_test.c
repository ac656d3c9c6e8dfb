/*
 * tests/kernel/slab_shrink_test.c - the slab gives its free pages back:
 * to kmem_cache_shrink(), and to reclaim when memory runs short.
 *
 * A cache keeps free objects in three places: the per-CPU sheaves (under
 * slab_debug=-), the node's barn of full sheaves, and its slabs, of which
 * up to two empty ones per node stay for the next allocation.
 * kmem_cache_shrink() empties the sheaves and barns (on every CPU, by IPI)
 * into the slabs and frees every empty slab: nr_free_pages() is then back
 * where it was before the cache was used.  Under memory pressure the
 * slab's shrinker does the same for every cache: with memory taken down to
 * the min watermark (as page_alloc_reclaim_test.c does, but with
 * GFP_NOWAIT so that taking it runs no reclaim itself), a GFP_KERNEL
 * allocation that needs reclaim gets its page from the slab's free pages
 * (vmstat slab_shrink_pages moves) and the OOM killer is not called.
 */
#include "page_alloc_test.h"
#include "slab_test.h"

#define NR_OBJS		1500

static struct {
	unsigned long free_before;	/* with the caches shrunk, at the start of the case */
	struct kmem_cache *s;
	void *objs[NR_OBJS];
	struct held_pages held;
} sctx;

static int shrink_init(struct kunit *test)
{
	(void)test;
	memset(&sctx, 0, sizeof(sctx));
	held_init(&sctx.held);
	shrink_everything();
	sctx.free_before = nr_free_pages();
	return 0;
}

static void shrink_exit(struct kunit *test)
{
	held_free_all(&sctx.held);
	if (sctx.s) {
		for (unsigned int i = 0; i < NR_OBJS; i++)
			kmem_cache_free(sctx.s, sctx.objs[i]);
		kmem_cache_destroy(sctx.s);
	}
	shrink_everything();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), sctx.free_before);
}

/*
 * A new cache of @size-byte objects; *@free_unused is what nr_free_pages()
 * says once it exists, before it is used.  Then NR_OBJS objects of it are
 * allocated and stamped.
 */
static struct kmem_cache *fill_cache(struct kunit *test, const char *name, unsigned int size,
				     unsigned long *free_unused)
{
	sctx.s = kmem_cache_create(name, size, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, sctx.s);
	shrink_everything();
	*free_unused = nr_free_pages();
	for (unsigned int i = 0; i < NR_OBJS; i++) {
		sctx.objs[i] = kmem_cache_alloc(sctx.s, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, sctx.objs[i]);
		*(unsigned int *)sctx.objs[i] = i;
	}
	return sctx.s;
}

/* Free objects [@from, NR_OBJS) of the cache in steps of @step, checking their stamps. */
static void free_objects(struct kunit *test, unsigned int from, unsigned int step)
{
	for (unsigned int i = from; i < NR_OBJS; i += step) {
		KUNIT_EXPECT_EQ(test, *(unsigned int *)sctx.objs[i], i);
		kmem_cache_free(sctx.s, sctx.objs[i]);
		sctx.objs[i] = NULL;
	}
}

static struct slab_counts all_nodes(struct kmem_cache *s)
{
	struct slab_counts sum = { 0, 0, 0 };
	int nid;

	for_each_node(nid) {
		struct slab_counts c = node_slab_counts(s, nid);

		sum.slabs += c.slabs;
		sum.objects += c.objects;
		sum.inuse += c.inuse;
	}
	return sum;
}

/* Empty slabs and objects cached in sheaves, over every cache: what the shrinker can give. */
static unsigned long reclaimable_slab(void)
{
	unsigned long sum = 0;
	struct kmem_cache *s;
	int nid;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		sum += cache_sheaf_objects(s);
		for_each_node(nid)
			sum += READ_ONCE(get_node(s, nid)->nr_empty);
	}
	spin_unlock(&slab_caches_lock);
	return sum;
}

/*
 * Half the objects freed: shrinking keeps the slabs that hold the other
 * half and frees no object anyone holds.  All freed: no slab is left, and
 * every page is back.
 */
static void shrink_gives_every_free_page_back(struct kunit *test)
{
	unsigned long free_unused;
	struct kmem_cache *s = fill_cache(test, "slab_shrink_test", 200, &free_unused);
	struct slab_counts c;

	free_objects(test, 0, 2);
	kmem_cache_shrink(s);
	c = all_nodes(s);
	KUNIT_EXPECT_EQ(test, cache_sheaf_objects(s), 0);
	KUNIT_EXPECT_EQ(test, c.inuse, NR_OBJS / 2);
	KUNIT_EXPECT_GE(test, c.slabs, (NR_OBJS / 2 + s->objects - 1) / s->objects);
	for (unsigned int i = 1; i < NR_OBJS; i += 2)
		KUNIT_EXPECT_EQ(test, *(unsigned int *)sctx.objs[i], i);

	free_objects(test, 1, 2);
	kmem_cache_shrink(s);
	c = all_nodes(s);
	KUNIT_EXPECT_EQ(test, c.slabs, 0);
	KUNIT_EXPECT_EQ(test, c.objects, 0);
	KUNIT_EXPECT_EQ(test, cache_sheaf_objects(s), 0);
	/* the sheaves went back to the sheaf cache: shrink that too, then count */
	shrink_everything();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free_unused);
}

static void shrinker_gives_slab_pages_back_under_pressure(struct kunit *test)
{
	unsigned long shrunk, oom_kills, stalls, pos, cached, pages, free_unused;
	struct kmem_cache *s = fill_cache(test, "slab_shrink_pressure", 500, &free_unused);
	struct slab_counts c;
	struct page *page;

	/* every object freed: into sheaves and the barn, and empty slabs */
	free_objects(test, 0, 1);
	kasan_cache_shrink(s);		/* a KASAN kernel's quarantine gives them back */
	c = all_nodes(s);
	cached = cache_sheaf_objects(s);
	pages = c.slabs << s->order;
	kunit_info(test, "%s: %lu slabs (%lu objects, %lu in sheaves and barns) before reclaim",
		   s->name, c.slabs, c.inuse, cached);
	KUNIT_ASSERT_GT(test, c.slabs, 0);
	KUNIT_EXPECT_EQ(test, c.inuse, cached);		/* nothing else holds an object */
	if (cache_has_sheaves(s))
		KUNIT_EXPECT_GT(test, cached, 0);

	/* down to the min watermark, without reclaim: the cache keeps its pages */
	held_exhaust(&sctx.held, GFP_NOWAIT | __GFP_NOWARN);
	KUNIT_ASSERT_EQ(test, all_nodes(s).slabs, c.slabs);

	shrunk = global_vm_event(SLAB_SHRINK_PAGES);
	oom_kills = global_vm_event(OOM_KILL);
	stalls = global_vm_event(ALLOCSTALL);
	pos = printk_log_pos();
	page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_EXPECT_NOT_NULL(test, page);
	if (page)
		held_add(&sctx.held, page, 0);
	KUNIT_EXPECT_GE(test, global_vm_event(ALLOCSTALL) - stalls, 1);	/* it needed reclaim */
	KUNIT_EXPECT_GE(test, global_vm_event(SLAB_SHRINK_PAGES) - shrunk, pages);
	KUNIT_EXPECT_EQ(test, global_vm_event(OOM_KILL), oom_kills);
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "oom-killer"));
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "page allocation failure"));
	/* the cache gave everything: no slab, nothing cached; and so did every other */
	KUNIT_EXPECT_EQ(test, all_nodes(s).slabs, 0);
	KUNIT_EXPECT_EQ(test, cache_sheaf_objects(s), 0);
	KUNIT_EXPECT_EQ(test, reclaimable_slab(), 0);
	kunit_info(test, "reclaim: %lu slab pages given back, %lu of them %s's",
		   global_vm_event(SLAB_SHRINK_PAGES) - shrunk, pages, s->name);
}

static struct kunit_case slab_shrink_cases[] = {
	KUNIT_CASE(shrink_gives_every_free_page_back),
	KUNIT_CASE(shrinker_gives_slab_pages_back_under_pressure),
	{}
};

static struct kunit_suite slab_shrink_suite = {
	.name = "slab_shrink",
	.init = shrink_init,
	.exit = shrink_exit,
	.test_cases = slab_shrink_cases,
	.strict = true,
};
kunit_test_suite(slab_shrink_suite);
