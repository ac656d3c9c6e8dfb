/*
 * tests/kernel/slab_test.c - kmalloc() and kmem_cache_*() do what Linux's do.
 *
 * Every size class and its alignment; kmalloc(0); large kmalloc and GFP_DMA
 * through whole pages; krealloc() growing and shrinking with the contents
 * kept; kcalloc()/kmalloc_array() overflow; ksize(); kmemdup()/kstrdup();
 * a constructor that runs once per object, never on reuse; kmem_cache_alloc_node();
 * and, after everything is freed and the caches shrunk, nr_free_pages() back
 * where it started.
 */
#include "slab_test.h"
#include "page_alloc_test.h"
#include "kernel/smp.h"

static unsigned long free_before;

static int slab_test_init(struct kunit *test)
{
	(void)test;
	shrink_everything();
	free_before = nr_free_pages();
	return 0;
}

/* Everything a case allocated is freed: once the caches give their pages back, nothing is lost. */
static void expect_pages_back(struct kunit *test)
{
	shrink_everything();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free_before);
}

static const size_t class_sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048,
				      4096, 8192 };

static void every_size_class_is_aligned_and_usable(struct kunit *test)
{
	for (size_t size = 1; size <= 8192; size = size < 256 ? size + 1 : size * 2 - 1) {
		u8 *p = kmalloc(size, GFP_KERNEL);
		size_t ks;

		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "size %zu", size);
		ks = ksize(p);
		KUNIT_EXPECT_GE_MSG(test, ks, size, "size %zu", size);
		KUNIT_EXPECT_EQ_MSG(test, (unsigned long)p % 8, 0, "size %zu", size);
		if (!(size & (size - 1)))
			KUNIT_EXPECT_EQ_MSG(test, (unsigned long)p % size, 0,
					    "power of two %zu not naturally aligned", size);
		memset(krealloc(p, ks, GFP_KERNEL), 0x5c, ks);	/* ksize() asks; this gives */
		kfree(p);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(class_sizes); i++) {
		void *p = kmalloc(class_sizes[i], GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, ksize(p), class_sizes[i]);
		KUNIT_EXPECT_TRUE(test, PageSlab(virt_to_head_page(p)));
		if (!(class_sizes[i] & (class_sizes[i] - 1)))	/* Linux's promise, 8 KiB included */
			KUNIT_EXPECT_EQ_MSG(test, (unsigned long)p % class_sizes[i], 0,
					    "kmalloc(%zu) = %px not naturally aligned",
					    class_sizes[i], p);
		kfree(p);
	}
	/* above the caches, whole pages from the buddy allocator: a block is aligned to its size */
	for (size_t size = 16 << 10; size <= 256 << 10; size *= 2) {
		void *p = kmalloc(size, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "size %zu", size);
		KUNIT_EXPECT_EQ_MSG(test, (unsigned long)p % size, 0,
				    "kmalloc(%zu) = %px not naturally aligned", size, p);
		kfree(p);
	}
}

/* The compiler's size class (kmalloc_index(), folded for constants) and the run-time one agree. */
static void size_classes_agree(struct kunit *test)
{
	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++)
		KUNIT_ASSERT_EQ_MSG(test, kmalloc_index(size), kmalloc_index_runtime(size),
				    "size %zu", size);
	for (int i = 0; i < 64; i++) {
		volatile size_t n = 64;		/* not a constant: the run-time path */
		void *a = kmalloc(64, GFP_KERNEL), *b = kmalloc(n, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, a);
		KUNIT_ASSERT_NOT_NULL(test, b);
		KUNIT_EXPECT_PTR_EQ(test, virt_to_head_page(a)->slab_cache,
				    virt_to_head_page(b)->slab_cache);
		kfree(a);
		kfree(b);
	}
}

static void zero_size_and_null(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, kmalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	KUNIT_EXPECT_TRUE(test, ZERO_OR_NULL_PTR(ZERO_SIZE_PTR));
	KUNIT_EXPECT_TRUE(test, ZERO_OR_NULL_PTR(NULL));
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	kmem_cache_free(kmalloc_caches[kmalloc_index(64)], NULL);
	KUNIT_EXPECT_EQ(test, ksize(NULL), 0);
	KUNIT_EXPECT_EQ(test, ksize(ZERO_SIZE_PTR), 0);
}

static void kzalloc_zeroes(struct kunit *test)
{
	for (unsigned int round = 0; round < 2; round++) {
		u8 *p = kmalloc(200, GFP_KERNEL), *z;

		KUNIT_ASSERT_NOT_NULL(test, p);
		memset(p, 0xee, 200);
		kfree(p);
		z = kzalloc(200, GFP_KERNEL);	/* likely the same object, dirty */
		KUNIT_ASSERT_NOT_NULL(test, z);
		for (int i = 0; i < 200; i++)
			KUNIT_ASSERT_EQ(test, z[i], 0);
		kfree(z);
	}
}

static void large_kmalloc_is_whole_pages(struct kunit *test)
{
	size_t sizes[] = { 8193, 65536, 1 << 20, KMALLOC_MAX_SIZE };
	static const unsigned long one_max_block[NR_PAGE_ORDERS] = { [MAX_PAGE_ORDER] = 1 };

	need_free_blocks(test, NULL, one_max_block);	/* KMALLOC_MAX_SIZE */

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		u8 *p = kmalloc(sizes[i], GFP_KERNEL);
		struct page *page;

		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "%zu", sizes[i]);
		page = virt_to_head_page(p + sizes[i] - 1);	/* from the last byte */
		KUNIT_EXPECT_PTR_EQ(test, page_address(page), (void *)p);
		KUNIT_EXPECT_FALSE(test, PageSlab(page));
		KUNIT_EXPECT_EQ(test, ksize(p), PAGE_SIZE << get_order(sizes[i]));
		p[0] = 1;
		p[sizes[i] - 1] = 2;
		kfree(p);
	}
	KUNIT_EXPECT_NULL(test, kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN));
	expect_pages_back(test);
}

/*
 * kfree() reads the cache and the object count from the struct page of
 * the page its pointer is in (mm/slab_internal.h, virt_to_slab_checked()), so
 * every page of a multi-page slab must carry them, and know its index in
 * the slab: kmalloc-4k's slabs have several pages, and most objects are
 * not in the first.
 */
static void every_page_of_a_slab_knows_its_cache(struct kunit *test)
{
	struct kmem_cache *s = kmalloc_caches[kmalloc_index(4096)];
	unsigned long in_use = cache_objects_in_use(s);
	void *objs[16];
	unsigned int tails = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
		struct page *page, *head;

		objs[i] = kmalloc(4096, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
		page = virt_to_page(objs[i]);
		head = compound_head(page);
		tails += page != head;
		KUNIT_EXPECT_PTR_EQ(test, virt_to_slab_checked(objs[i]), page);	/* kfree()'s */
		KUNIT_EXPECT_TRUE(test, PageSlab(page));
		KUNIT_EXPECT_PTR_EQ(test, page->slab_cache, s);
		KUNIT_EXPECT_EQ(test, page->objects, head->objects);
		KUNIT_EXPECT_EQ(test, compound_index(page), page_to_pfn(page) - page_to_pfn(head));
		KUNIT_EXPECT_TRUE(test, object_in_slab(s, head, objs[i]));
		KUNIT_EXPECT_TRUE(test, object_in_own_page(s, page, objs[i]));
		KUNIT_EXPECT_EQ(test, ksize(objs[i]), 4096);
	}
	KUNIT_EXPECT_GT_MSG(test, tails, 0, "no kmalloc-4k object outside its slab's first page");
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		kfree(objs[i]);
	KUNIT_EXPECT_EQ(test, cache_objects_in_use(s), in_use);	/* every free found its slab */
	expect_pages_back(test);
}

static void gfp_dma_gives_dma_memory(struct kunit *test)
{
	void *p = kmalloc(100, GFP_KERNEL | GFP_DMA);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_LT(test, __pa(p), 16UL << 20);
	KUNIT_EXPECT_EQ(test, page_zonenum(virt_to_page(p)), ZONE_DMA);
	kfree(p);
}

static void krealloc_keeps_contents(struct kunit *test)
{
	u8 *p = kmalloc(40, GFP_KERNEL), *q;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (int i = 0; i < 40; i++)
		p[i] = (u8)i;
	q = krealloc(p, 60, GFP_KERNEL);		/* fits kmalloc-64: in place */
	KUNIT_EXPECT_PTR_EQ(test, q, p);
	q = krealloc(p, 3000, GFP_KERNEL);		/* moves */
	KUNIT_ASSERT_NOT_NULL(test, q);
	for (int i = 0; i < 40; i++)
		KUNIT_EXPECT_EQ(test, q[i], (u8)i);
	p = krealloc(q, 20000, GFP_KERNEL);		/* to whole pages */
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (int i = 0; i < 40; i++)
		KUNIT_EXPECT_EQ(test, p[i], (u8)i);
	q = krealloc(p, 10, GFP_KERNEL);		/* smaller: stays */
	KUNIT_EXPECT_PTR_EQ(test, q, p);
	KUNIT_EXPECT_PTR_EQ(test, krealloc(q, 0, GFP_KERNEL), ZERO_SIZE_PTR);	/* frees */
	p = krealloc(NULL, 30, GFP_KERNEL);		/* allocates */
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_GE(test, ksize(p), 30);
	kfree(p);
	expect_pages_back(test);
}

/*
 * krealloc() with __GFP_ZERO, shrinking in place, zeroes what it gives up,
 * so growing back in place with __GFP_ZERO reads zeros (Linux since 6.11,
 * "mm: krealloc: consider spare memory for __GFP_ZERO").  Found by a suite
 * written outside the repository.
 */
static void krealloc_gfp_zero_zeroes_what_a_shrink_gives_up(struct kunit *test)
{
	u8 *p = kzalloc(100, GFP_KERNEL), *q;

	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, 0xaa, 100);
	q = krealloc(p, 50, GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_PTR_EQ(test, q, p);
	q = krealloc(p, 100, GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_PTR_EQ(test, q, p);
	for (int i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ_MSG(test, p[i], i < 50 ? 0xaa : 0, "byte %d", i);
	kfree(p);
}

static void array_overflow_is_null(struct kunit *test)
{
	unsigned long pos = printk_log_pos();
	u32 *a;

	KUNIT_EXPECT_NULL(test, kmalloc_array(SIZE_MAX / 2, 4, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kcalloc(1UL << 62, 8, GFP_KERNEL));
	/* one line each, naming the caller; no WARNING and its backtrace: no warning storm */
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "kmalloc_array: 9223372036854775807 * 4 "
					   "bytes overflows size_t, caller array_overflow_is_null+"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "kmalloc_array: 4611686018427387904 * 8 "
					   "bytes overflows size_t, caller array_overflow_is_null+"));
	KUNIT_EXPECT_NULL(test, strstr(log_since(pos), "WARNING"));
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, kmalloc_array(SIZE_MAX / 2, 4, GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	a = kcalloc(100, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	for (int i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, a[i], 0);
	kfree(a);
}

static void dup_helpers(struct kunit *test)
{
	static const char src[] = "a kernel about memory allocation";
	char *s = kstrdup(src, GFP_KERNEL);
	void *m = kmemdup(src, 5, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s, src);
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_MEMEQ(test, m, src, 5);
	KUNIT_EXPECT_NULL(test, kstrdup(NULL, GFP_KERNEL));
	kfree(s);
	kfree(m);
	s = kstrndup(src, 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s, "a kernel");
	kfree(s);
	s = kstrndup("short", 100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s, "short");
	KUNIT_EXPECT_EQ(test, ksize(s), 8);	/* 6 bytes asked for: no more read */
	kfree(s);
	s = kmemdup_nul(src + 2, 6, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s, "kernel");
	kfree(s);
	KUNIT_EXPECT_NULL(test, kstrndup(NULL, 4, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kmemdup_nul(NULL, 4, GFP_KERNEL));
}

/* kmalloc_size_roundup() says what ksize() of kmalloc(size) will say, without allocating. */
static void size_roundup_agrees_with_ksize(struct kunit *test)
{
	static const size_t sizes[] = { 1, 8, 9, 65, 96, 97, 193, 4096, 8192, 8193, 20000, 300000 };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		void *p = kmalloc(sizes[i], GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ_MSG(test, kmalloc_size_roundup(sizes[i]), ksize(p), "size %zu",
				    sizes[i]);
		kfree(p);
	}
	KUNIT_EXPECT_EQ(test, kmalloc_size_roundup(0), 0);
	KUNIT_EXPECT_EQ(test, kmalloc_size_roundup(KMALLOC_MAX_SIZE + 1), KMALLOC_MAX_SIZE + 1);
}

/* krealloc_array(): krealloc() of n * size bytes; an overflow is NULL and keeps the old memory */
static void krealloc_array_grows_and_refuses_overflow(struct kunit *test)
{
	u32 *a = kmalloc_array(4, sizeof(*a), GFP_KERNEL), *b;

	KUNIT_ASSERT_NOT_NULL(test, a);
	for (int i = 0; i < 4; i++)
		a[i] = i * 7;
	b = krealloc_array(a, 100, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (int i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, b[i], i * 7);
	KUNIT_EXPECT_GE(test, ksize(b), 400);
	KUNIT_EXPECT_NULL(test, krealloc_array(b, SIZE_MAX / 2, 4, GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_EQ(test, b[3], 21);	/* still there, still ours */
	kfree(b);
}

/* ---------------------------------------------------------------- kmem_cache */

struct thing {
	unsigned long magic;
	unsigned long constructed;
	char payload[40];
};

static unsigned long ctor_calls;

/* A constructor sets an object up from whatever its memory held. */
static void thing_ctor(void *p)
{
	struct thing *t = p;

	t->magic = 0x7415;
	t->constructed = 1;
	ctor_calls++;
}

static void ctor_runs_once_per_object(struct kunit *test)
{
	struct kmem_cache *s = kmem_cache_create("slab_test_thing", sizeof(struct thing), 0, 0,
						 thing_ctor);
	struct thing *objs[100];
	unsigned long made;

	KUNIT_ASSERT_NOT_NULL(test, s);
	ctor_calls = 0;
	for (int i = 0; i < 100; i++) {
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
		KUNIT_EXPECT_EQ(test, objs[i]->magic, 0x7415);
		KUNIT_EXPECT_EQ(test, objs[i]->constructed, 1);
	}
	made = ctor_calls;
	KUNIT_EXPECT_GE(test, made, 100);	/* whole slabs are constructed at once */
	/* every other one freed and taken again: no slab empties, nothing is constructed */
	for (int i = 0; i < 100; i += 2)
		kmem_cache_free(s, objs[i]);
	kasan_cache_shrink(s);		/* a KASAN kernel's quarantine gives them back */
	for (int i = 0; i < 100; i += 2) {
		objs[i] = kmem_cache_alloc(s, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
		KUNIT_EXPECT_EQ(test, objs[i]->magic, 0x7415);	/* the state a ctor set survives */
		KUNIT_EXPECT_EQ(test, objs[i]->constructed, 1);
	}
	KUNIT_EXPECT_EQ(test, ctor_calls, made);
	for (int i = 0; i < 100; i++)
		kmem_cache_free(s, objs[i]);
	kmem_cache_destroy(s);
	expect_pages_back(test);
}

static void cache_alignment_and_size(struct kunit *test)
{
	struct kmem_cache *s = kmem_cache_create("slab_test_align", 100, 128, SLAB_HWCACHE_ALIGN,
						 NULL);
	void *p[20];

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_EQ(test, kmem_cache_size(s), 100);
	for (int i = 0; i < 20; i++) {
		p[i] = kmem_cache_zalloc(s, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
		KUNIT_EXPECT_EQ(test, (unsigned long)p[i] % 128, 0);
		KUNIT_EXPECT_EQ(test, ((u8 *)p[i])[99], 0);
	}
	for (int i = 0; i < 20; i++)
		kmem_cache_free(s, p[i]);
	kmem_cache_destroy(s);
	KUNIT_EXPECT_NULL(test, kmem_cache_create("slab_test_bad", 0, 0, 0, NULL));
	KUNIT_EXPECT_NULL(test, kmem_cache_create("slab_test_bad", 64, 3, 0, NULL));
}

/* An object of @s is aligned to @align and constructed if @ctor; then the cache goes. */
static void expect_cache_made(struct kunit *test, struct kmem_cache *s, const char *name,
			      unsigned int size, unsigned int align, bool ctor)
{
	struct thing *t;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_STREQ(test, s->name, name);
	KUNIT_EXPECT_EQ(test, kmem_cache_size(s), size);
	t = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, (unsigned long)t % align, 0);
	if (ctor)
		KUNIT_EXPECT_EQ(test, t->magic, 0x7415);
	kmem_cache_free(s, t);
	kmem_cache_destroy(s);
}

/* kmem_cache_create() in Linux 6.12's form (args) as well as the older one, and KMEM_CACHE(). */
static void create_in_each_linux_form(struct kunit *test)
{
	struct kmem_cache_args args = { .align = 256, .ctor = thing_ctor };
	const struct kmem_cache_args const_args = { .align = 64 };

	expect_cache_made(test, kmem_cache_create("slab_test_args", sizeof(struct thing), &args,
						  0), "slab_test_args", sizeof(struct thing), 256,
			  true);
	expect_cache_made(test, kmem_cache_create("slab_test_const_args", 70, &const_args, 0),
			  "slab_test_const_args", 70, 64, false);
	expect_cache_made(test, kmem_cache_create("slab_test_no_args", sizeof(struct thing), NULL,
						  SLAB_HWCACHE_ALIGN), "slab_test_no_args",
			  sizeof(struct thing), 64, false);
	expect_cache_made(test, KMEM_CACHE(thing, 0), "thing", sizeof(struct thing),
			  __alignof__(struct thing), false);
	expect_pages_back(test);
}

/*
 * Slab pages never move: a SLAB_RECLAIM_ACCOUNT cache's come from
 * reclaimable pageblocks, every other cache's from unmovable ones, even
 * when the caller passes __GFP_MOVABLE.  (A first reclaimable slab on a
 * fresh machine falls back to another type's block, and claims its whole
 * pageblock: unmovable and reclaimable allocations always do.)
 */
static void slab_pages_are_reclaimable_or_unmovable(struct kunit *test)
{
	struct kmem_cache *reclaimable = kmem_cache_create("slab_test_reclaimable", 200, NULL,
							   SLAB_RECLAIM_ACCOUNT);
	struct kmem_cache *plain = kmem_cache_create("slab_test_unmovable", 200, NULL, 0);
	int r_type, p_type;
	bool few_pageblocks;
	void *r, *p;

	KUNIT_ASSERT_NOT_NULL(test, reclaimable);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	/* a per-CPU list may hold pages of a pageblock another type has claimed since */
	drain_all_pages();
	r = kmem_cache_alloc(reclaimable, GFP_KERNEL);
	p = kmem_cache_alloc(plain, GFP_KERNEL | __GFP_MOVABLE);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, p);
	r_type = get_pageblock_migratetype(virt_to_page(r));
	p_type = get_pageblock_migratetype(virt_to_page(p));
	few_pageblocks = page_zone(virt_to_page(r))->spanned_pages < 16 * pageblock_nr_pages;
	kmem_cache_free(reclaimable, r);
	kmem_cache_free(plain, p);
	kmem_cache_destroy(reclaimable);
	kmem_cache_destroy(plain);
	expect_pages_back(test);
	/* where a zone has only a few pageblocks, the types take them back and forth */
	if (few_pageblocks)
		kunit_skip(test, "the slab's zone has fewer than 16 pageblocks");
	KUNIT_EXPECT_EQ(test, r_type, MIGRATE_RECLAIMABLE);
	KUNIT_EXPECT_EQ(test, p_type, MIGRATE_UNMOVABLE);
}

/* Each node with memory gives its own (numa_slab covers nodes without). */
static void alloc_node_gives_that_node(struct kunit *test)
{
	int nid;

	for_each_node_state(nid, N_MEMORY) {
		void *p = kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE, nid);

		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "node %d", nid);
		KUNIT_EXPECT_EQ(test, page_to_nid(virt_to_page(p)), nid);
		kfree(p);
		p = kzalloc_node(10000, GFP_KERNEL | __GFP_THISNODE, nid);	/* whole pages */
		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, page_to_nid(virt_to_page(p)), nid);
		kfree(p);
	}
	/* NUMA_NO_NODE and a node that does not exist: any node */
	kfree(kmalloc_node(64, GFP_KERNEL, NUMA_NO_NODE));
}

#define MANY 3000

static void many_objects_then_everything_back(struct kunit *test)
{
	static void *objs[MANY];

	need_free_pages(test, cache_pages_for(kmalloc_caches[kmalloc_index(64)], MANY / 2) +
			cache_pages_for(kmalloc_caches[kmalloc_index(512)], MANY / 2));
	for (int round = 0; round < 2; round++) {
		int n;

		for (n = 0; n < MANY; n++) {
			objs[n] = kmalloc(n % 2 ? 64 : 512, GFP_KERNEL);
			if (!objs[n])
				break;
			*(int *)objs[n] = n;
		}
		/* A failure frees what it got: the suites after this one need it. */
		KUNIT_EXPECT_EQ_MSG(test, n, MANY, "kmalloc() failed in round %d", round);
		for (int i = 0; i < n; i++) {
			KUNIT_EXPECT_EQ(test, *(int *)objs[i], i);
			kfree(objs[i]);
		}
		if (n < MANY)
			return;
	}
	expect_pages_back(test);
}

static struct kunit_case slab_cases[] = {
	KUNIT_CASE(every_size_class_is_aligned_and_usable),
	KUNIT_CASE(size_classes_agree),
	KUNIT_CASE(zero_size_and_null),
	KUNIT_CASE(kzalloc_zeroes),
	KUNIT_CASE(large_kmalloc_is_whole_pages),
	KUNIT_CASE(every_page_of_a_slab_knows_its_cache),
	KUNIT_CASE(gfp_dma_gives_dma_memory),
	KUNIT_CASE(krealloc_keeps_contents),
	KUNIT_CASE(krealloc_gfp_zero_zeroes_what_a_shrink_gives_up),
	KUNIT_CASE(array_overflow_is_null),
	KUNIT_CASE(dup_helpers),
	KUNIT_CASE(ctor_runs_once_per_object),
	KUNIT_CASE(cache_alignment_and_size),
	KUNIT_CASE(size_roundup_agrees_with_ksize),
	KUNIT_CASE(krealloc_array_grows_and_refuses_overflow),
	KUNIT_CASE(create_in_each_linux_form),
	KUNIT_CASE(slab_pages_are_reclaimable_or_unmovable),
	KUNIT_CASE(alloc_node_gives_that_node),
	KUNIT_CASE(many_objects_then_everything_back),
	{}
};

static struct kunit_suite slab_suite = {
	.name = "slab",
	.init = slab_test_init,
	.test_cases = slab_cases,
	.strict = true,
};
kunit_test_suite(slab_suite);
