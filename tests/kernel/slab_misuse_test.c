/*
 * tests/kernel/slab_misuse_test.c - handing kfree(), ksize() and krealloc()
 * what kmalloc() never gave is reported, and harmless.
 *
 * A stack address, a kernel-image address (and its alias in the direct
 * map), a page from alloc_pages(), a vmalloc-range address, an address
 * past the end of RAM, a pointer inside a large kmalloc block or inside a
 * slab object, and a large kmalloc freed twice: each call prints exactly
 * one line ("BUG: kfree of <address> by <caller>: <why>", naming ksize,
 * krealloc, kfree_sensitive or kmem_cache_free when they were given it), counts one
 * slab_bad_free event, and changes nothing: afterwards, with the caches
 * shrunk, nr_free_pages() and every kmalloc cache's count of objects in
 * use are what they were, and kmalloc() still works.  kmalloc() of more
 * than KMALLOC_MAX_SIZE fails with one warning (none with __GFP_NOWARN).
 *
 * Under slab_debug=- (no checks, the per-CPU sheaves), a double kfree() of
 * a kmalloc-64 object is caught by its free mark (mm/slab.c), wherever the
 * first free left it: on top of this CPU's sheaf, under other objects
 * (kfree(a); kfree(b); kfree(a)), back on its slab after a flush, or freed
 * first on another CPU.  Booted with slab debugging (slab_debug on the
 * command line), every double free is caught by the checks (the slab_debug
 * suite).  The last two cases take each route of kfree() (the one mask
 * test, or out of line) with a pointer into an object and a double free.
 */
#include "slab_test.h"
#include "arch/x86_64/page.h"
#include "kernel/smp.h"

static struct {
	unsigned long free_before, pos, bad_frees;
	unsigned long inuse[KMALLOC_SHIFT_HIGH + 1];	/* of each kmalloc cache */
} mctx;

static int misuse_init(struct kunit *test)
{
	(void)test;
	for (unsigned int i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		if (kmalloc_caches[i])
			mctx.inuse[i] = cache_objects_in_use(kmalloc_caches[i]);
	}
	shrink_everything();
	mctx.free_before = nr_free_pages();
	mctx.bad_frees = global_vm_event(SLAB_BAD_FREE);
	mctx.pos = printk_log_pos();
	return 0;
}

/*
 * Exactly one report since the last one, naming the function that was given
 * @p: "BUG: <@fn> of <@p> by <this case>...: <@why>".
 */
static void expect_one_report(struct kunit *test, const char *fn, const void *p, const char *why)
{
	const char *log = log_since(mctx.pos);
	char line[160];

	snprintf(line, sizeof(line), "BUG: %s of %px by %s", fn, p, test->name);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "BUG"), 1, "for %px (%s)", p, why);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, line), 1, "want '%s...: %s'", line, why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, why), "want '%s'", why);
	mctx.pos = printk_log_pos();
}

/*
 * Harmless: @nr misuses counted and nothing else reported; once the caches
 * give their free pages back, free pages and the kmalloc caches' objects in
 * use are as they were; and every size class still allocates.
 */
static void expect_harmless(struct kunit *test, unsigned long nr)
{
	KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_BAD_FREE) - mctx.bad_frees, nr);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(mctx.pos), "BUG"), 0);
	for (unsigned int i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		struct kmem_cache *s = kmalloc_caches[i];
		void *p;

		if (!s)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, cache_objects_in_use(s), mctx.inuse[i], "%s", s->name);
		p = kmalloc(s->object_size, GFP_KERNEL);
		KUNIT_EXPECT_TRUE_MSG(test, is_object_of(s, p), "%s", s->name);
		kfree(p);
	}
	shrink_everything();
	KUNIT_EXPECT_EQ(test, nr_free_pages(), mctx.free_before);
}

/* A page from alloc_pages(), and where the memory kmalloc() never gave is. */
struct bad_pointers {
	struct page *page;
	void *ptrs[6];
	const char *why[6];
};

static char image_object[64];

static void bad_pointers_get(struct kunit *test, struct bad_pointers *b, void *stack)
{
	static const char not_mapped[] = "not an address in the direct map (not from kmalloc)";
	static const char not_given[] = "not memory kmalloc() handed out";

	b->page = alloc_pages(GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, b->page);
	*b = (struct bad_pointers){
		.page = b->page,
		.ptrs = { stack, image_object, __va(__pa(image_object)), page_address(b->page),
			  (void *)(VMALLOC_START + 5 * PAGE_SIZE),
			  (void *)(PAGE_OFFSET + (64UL << 40)) },
		.why = { not_mapped, not_mapped, not_given, not_given, not_mapped, not_mapped },
	};
}

/* ---------------------------------------------------------------- the cases */

static void kfree_of_memory_kmalloc_never_gave(struct kunit *test)
{
	struct bad_pointers b;
	char stack[32];

	kunit_expect_report(test, "BUG: kfree of");
	bad_pointers_get(test, &b, stack);
	for (unsigned int i = 0; i < ARRAY_SIZE(b.ptrs); i++) {
		kfree(b.ptrs[i]);
		expect_one_report(test, "kfree", b.ptrs[i], b.why[i]);
	}
	/* the page is still allocated: nobody freed it */
	KUNIT_EXPECT_TRUE(test, page_test(b.page, PG_allocated));
	__free_pages(b.page, 0);
	expect_harmless(test, ARRAY_SIZE(b.ptrs));
}

/* The first frame of a 16 MiB section without RAM below max_pfn, or 0 if there is none. */
static unsigned long first_hole_pfn(void)
{
	for (unsigned long pfn = 0; pfn < max_pfn; pfn += 1UL << PFN_SECTION_SHIFT) {
		if (!pfn_valid(pfn))
			return pfn;
	}
	return 0;
}

/*
 * A hole below max_pfn (the PC's below 4 GiB, with more than 3 GiB of RAM)
 * has struct pages that read as zeroes (mm/init.c): kfree(), ksize() and
 * kmem_cache_free() look at one there, and must still say "not in the
 * direct map" and change nothing.
 */
static void kfree_of_an_address_in_a_hole(struct kunit *test)
{
	unsigned long pfn = first_hole_pfn();
	void *p;

	if (!pfn)
		kunit_skip(test, "no hole without RAM below the last frame");
	kunit_expect_report(test, "BUG: kfree of");
	kunit_expect_report(test, "BUG: ksize of");
	kunit_expect_report(test, "BUG: kmem_cache_free of");
	p = (char *)PAGE_OFFSET + (pfn << PAGE_SHIFT) + PAGE_SIZE + 64;
	KUNIT_EXPECT_EQ(test, virt_to_page(p)->flags, 0UL);	/* a zeroed struct page */
	kfree(p);
	expect_one_report(test, "kfree", p, "not an address in the direct map (not from kmalloc)");
	KUNIT_EXPECT_EQ(test, ksize(p), 0UL);
	expect_one_report(test, "ksize", p, "not an address in the direct map (not from kmalloc)");
	kmem_cache_free(kmalloc_caches[6], p);
	expect_one_report(test, "kmem_cache_free", p,
			  "not an address in the direct map (not from kmalloc)");
	expect_harmless(test, 3);
}

static void kfree_inside_a_large_kmalloc(struct kunit *test)
{
	const size_t size = 3 * PAGE_SIZE + 100;	/* an order-2 block */
	const size_t offsets[] = { 1, 8, PAGE_SIZE, 2 * PAGE_SIZE + 8, size - 1 };
	u8 *p = kmalloc(size, GFP_KERNEL);

	kunit_expect_report(test, "BUG: kfree of");
	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, 0x77, size);
	for (unsigned int i = 0; i < ARRAY_SIZE(offsets); i++) {
		kfree(p + offsets[i]);
		expect_one_report(test, "kfree", p + offsets[i],
				  "inside a large kmalloc block, not at its start");
	}
	for (size_t i = 0; i < size; i++)
		KUNIT_ASSERT_EQ_MSG(test, p[i], 0x77, "byte %zu", i);
	KUNIT_EXPECT_TRUE(test, page_test(virt_to_page(p), PG_large_kmalloc));
	kfree(p);
	expect_harmless(test, ARRAY_SIZE(offsets));
}

static void double_kfree_of_a_large_kmalloc(struct kunit *test)
{
	void *p = kmalloc(4 * PAGE_SIZE, GFP_KERNEL);

	kunit_expect_report(test, "BUG: kfree of");
	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	kfree(p);		/* its pages are free, on a per-CPU list or in the buddy lists */
	expect_one_report(test, "kfree", p, "");
	drain_all_pages();
	kfree(p);		/* and now certainly in the buddy lists, maybe merged */
	expect_one_report(test, "kfree", p, "");
	expect_harmless(test, 2);
}

/* ksize(), krealloc() and kfree_sensitive() of each: one report, 0 or NULL, nothing done. */
static void ksize_and_krealloc_of_bad_pointers(struct kunit *test)
{
	u8 *large = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	u8 *small = kmalloc(64, GFP_KERNEL);
	unsigned long nr = 0;
	struct bad_pointers b;
	char stack[32];

	kunit_expect_report(test, "BUG: ksize of");
	kunit_expect_report(test, "BUG: krealloc of");
	kunit_expect_report(test, "BUG: kfree_sensitive of");
	KUNIT_ASSERT_NOT_NULL(test, large);
	KUNIT_ASSERT_NOT_NULL(test, small);
	memset(large, 0x55, 3 * PAGE_SIZE);
	memset(small, 0x66, 64);
	bad_pointers_get(test, &b, stack);
	for (unsigned int i = 0; i < ARRAY_SIZE(b.ptrs); i++) {
		KUNIT_EXPECT_EQ(test, ksize(b.ptrs[i]), 0);
		expect_one_report(test, "ksize", b.ptrs[i], b.why[i]);
		KUNIT_EXPECT_NULL(test, krealloc(b.ptrs[i], 100, GFP_KERNEL));
		expect_one_report(test, "krealloc", b.ptrs[i], b.why[i]);
		KUNIT_EXPECT_NULL(test, krealloc(b.ptrs[i], 100000, GFP_KERNEL));
		expect_one_report(test, "krealloc", b.ptrs[i], b.why[i]);
		kfree_sensitive(b.ptrs[i]);
		expect_one_report(test, "kfree_sensitive", b.ptrs[i], b.why[i]);
		nr += 4;
	}
	/* inside a large block or a slab object: a size from there, or a copy, would be wrong */
	{
		u8 *inside[] = { large + 1, large + PAGE_SIZE, small + 8, small + 63 };

		for (unsigned int i = 0; i < ARRAY_SIZE(inside); i++) {
			KUNIT_EXPECT_EQ_MSG(test, ksize(inside[i]), 0, "%px", inside[i]);
			expect_one_report(test, "ksize", inside[i], "");
			KUNIT_EXPECT_NULL(test, krealloc(inside[i], 10, GFP_KERNEL));
			expect_one_report(test, "krealloc", inside[i], "");
			KUNIT_EXPECT_NULL(test, krealloc(inside[i], 5 * PAGE_SIZE, GFP_KERNEL));
			expect_one_report(test, "krealloc", inside[i], "");
			kfree_sensitive(inside[i]);
			expect_one_report(test, "kfree_sensitive", inside[i], "");
			nr += 4;
		}
	}
	/* nothing was freed or moved */
	for (size_t i = 0; i < 3 * PAGE_SIZE; i++)
		KUNIT_ASSERT_EQ_MSG(test, large[i], 0x55, "byte %zu", i);
	for (size_t i = 0; i < 64; i++)
		KUNIT_ASSERT_EQ_MSG(test, small[i], 0x66, "byte %zu", i);
	KUNIT_EXPECT_EQ(test, ksize(large), 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ksize(small), 64);
	kfree(large);
	kfree(small);
	__free_pages(b.page, 0);
	expect_harmless(test, nr);
}

static void kmalloc_too_large_warns_once(struct kunit *test)
{
	const size_t sizes[] = { KMALLOC_MAX_SIZE + 1, 1UL << 30, SIZE_MAX / 2 };
	char *p = kmalloc(100, GFP_KERNEL);
	const char *log;

	KUNIT_ASSERT_NOT_NULL(test, p);
	strscpy(p, "kept", 100);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		volatile size_t size = sizes[i];	/* as a caller's computed size */
		char line[128];

		snprintf(line, sizeof(line), "kmalloc: %zu bytes is more than KMALLOC_MAX_SIZE "
			 "(%lu), caller %s", sizes[i], KMALLOC_MAX_SIZE, test->name);
		KUNIT_EXPECT_NULL(test, kmalloc(size, GFP_KERNEL));
		KUNIT_EXPECT_NULL(test, kzalloc(size, GFP_KERNEL));
		KUNIT_EXPECT_NULL(test, kmalloc_node(size, GFP_KERNEL, 0));
		KUNIT_EXPECT_NULL(test, krealloc(p, size, GFP_KERNEL));
		log = log_since(mctx.pos);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, line), 4, "want 4 of '%s'", line);
		KUNIT_EXPECT_EQ(test, count_substr(log, "more than KMALLOC_MAX_SIZE"), 4);
		KUNIT_EXPECT_NULL(test, strstr(log, "page allocation failure"));
		mctx.pos = printk_log_pos();
		/* silent with __GFP_NOWARN */
		KUNIT_EXPECT_NULL(test, kmalloc(size, GFP_KERNEL | __GFP_NOWARN));
		KUNIT_EXPECT_NULL(test, krealloc(p, size, GFP_KERNEL | __GFP_NOWARN));
		KUNIT_EXPECT_EQ(test, strlen(log_since(mctx.pos)), 0);
	}
	/* n * size fits a size_t but not kmalloc: one warning too */
	KUNIT_EXPECT_NULL(test, kmalloc_array(2, KMALLOC_MAX_SIZE, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, count_substr(log_since(mctx.pos), "more than KMALLOC_MAX_SIZE"), 1);
	mctx.pos = printk_log_pos();
	KUNIT_EXPECT_STREQ(test, p, "kept");		/* krealloc() failed: p untouched */
	kfree(p);
	expect_harmless(test, 0);
}

/* A cache, and whether the case made it (then kmem_cache_*(), else kmalloc()/kfree()) */
struct route {
	struct kmem_cache *s;
	bool own;		/* made by the case: destroyed at its end */
};

/*
 * Free @p as its cache's user would: kfree() for a kmalloc cache, else
 * kmem_cache_free().  Inline, so that a report names the case as the caller.
 */
static __always_inline void route_free(struct route *r, void *p)
{
	if (r->own)
		kmem_cache_free(r->s, p);
	else
		kfree(p);
}

static __always_inline void *route_alloc(struct route *r)
{
	return r->own ? kmem_cache_alloc(r->s, GFP_KERNEL) : kmalloc(r->s->object_size, GFP_KERNEL);
}

/*
 * An unchecked cache (slab_debug=-) catches a double free of @a, on @r's
 * cache, by the free mark (mm/slab.c): reported once as freed by @by, and
 * the object handed out at most once afterwards.  With KASAN the first
 * free poisoned the object, and KASAN reports the second.
 */
static void check_freed_twice(struct kunit *test, struct route *r, void *a, const char *by)
{
	void *objs[65];		/* more than two sheaves' worth */
	unsigned int seen = 0;
	char line[160];

	if (CONFIG_KASAN)
		snprintf(line, sizeof(line), "BUG: KASAN: double-free in %s+0x", by);
	else
		snprintf(line, sizeof(line), "BUG %s (Not tainted): Object %px freed twice "
			 "(by %s+0x", r->s->name, a, by);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log_since(mctx.pos), "BUG"), 1, "%s", r->s->name);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log_since(mctx.pos), line), 1, "want '%s'", line);
	mctx.pos = printk_log_pos();
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = route_alloc(r);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
		seen += objs[i] == a;
	}
	KUNIT_EXPECT_LE_MSG(test, seen, 1, "%s: %px handed out %u times", r->s->name, a, seen);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		route_free(r, objs[i]);
}

/* check_freed_twice() of a kmalloc-64 object, then nothing else changed */
static void expect_double_free_caught(struct kunit *test, void *a, const char *by)
{
	struct route r = { kmalloc_caches[kmalloc_index(64)], false };

	check_freed_twice(test, &r, a, by);
	expect_harmless(test, 1);
}

/* kmalloc-64 with the sheaves (else skip), and the report its double free gives */
static void double_free_setup(struct kunit *test)
{
	struct kmem_cache *s = kmalloc_caches[kmalloc_index(64)];

	kunit_expect_report(test, CONFIG_KASAN ? "BUG: KASAN: double-free" : "freed twice");
	if (!cache_has_sheaves(s))
		kunit_skip(test, "%s is checked (slab debugging): the slab_debug suite covers "
			   "its double free", s->name);
}

/* Freed twice in a row: the object is the top of this CPU's sheaf. */
static void double_kfree_on_the_sheaf_path(struct kunit *test)
{
	void *a;

	double_free_setup(test);
	a = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	kfree(a);
	kfree(a);
	expect_double_free_caught(test, a, test->name);
}

/*
 * kfree_sensitive() twice: its wipe must not erase the free mark by which
 * the second call is caught (it did: the object was freed twice, silently,
 * and handed out twice).
 */
static void double_kfree_sensitive(struct kunit *test)
{
	void *a;

	double_free_setup(test);
	a = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	kfree_sensitive(a);
	kfree_sensitive(a);
	expect_double_free_caught(test, a, test->name);
}

/* kfree(a); kfree(b); kfree(a): found by a suite written outside the repository. */
static void double_kfree_with_a_free_between(struct kunit *test)
{
	void *a, *b;

	double_free_setup(test);
	a = kmalloc(64, GFP_KERNEL);
	b = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kfree(a);
	kfree(b);
	kfree(a);
	expect_double_free_caught(test, a, test->name);
}

/*
 * The first free's object went from the sheaf back to its slab's freelist
 * (a neighbour kept in use keeps the slab; an empty one would go back to
 * the page allocator, and kfree() would say "the memory is free").
 */
static void double_kfree_after_the_sheaf_was_flushed(struct kunit *test)
{
	void *objs[16], *a, *neighbour = NULL;

	double_free_setup(test);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = kmalloc(64, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
	}
	a = objs[0];
	for (unsigned int i = 1; i < ARRAY_SIZE(objs); i++) {
		if (!neighbour && virt_to_head_page(objs[i]) == virt_to_head_page(a))
			neighbour = objs[i];
		else
			kfree(objs[i]);
	}
	KUNIT_ASSERT_NOT_NULL_MSG(test, neighbour, "no two of 16 kmalloc-64 objects in one slab");
	kfree(a);
	kmem_cache_shrink(kmalloc_caches[kmalloc_index(64)]);	/* every CPU's sheaves flushed */
	kfree(a);
	kfree(neighbour);
	expect_double_free_caught(test, a, test->name);
}

static unsigned int ipi_frees;

static void kfree_on_this_cpu(void *obj)
{
	kfree(obj);
	WRITE_ONCE(ipi_frees, ipi_frees + 1);	/* not a tail call: the report names this function */
}

/* Freed on one CPU, then again on another: the mark is in the object, not in a sheaf. */
static void double_kfree_on_two_cpus(struct kunit *test)
{
	void *a;

	double_free_setup(test);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	a = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	kfree(a);
	KUNIT_ASSERT_EQ(test, smp_call_function_single(1, kfree_on_this_cpu, a, 1), 0);
	expect_double_free_caught(test, a, "kfree_on_this_cpu");
}

/* ------------------------------------------------------- every route of kfree() */

/*
 * kfree() sends a free one of two ways (mm/slab.c, slab_free()): an object
 * of a cache of power-of-two slots without debugging or constructor passes
 * one test of its address against a mask and goes straight to a sheaf;
 * every other cache's frees go out of line, where the object's start is
 * checked with a multiply.  A cache of each kind: kmalloc-64 and
 * kmalloc-4k (multi-page slabs: objects in a slab's later pages) take the
 * one test; kmalloc-96 (slots of no power of two), a cache with a
 * constructor (48-byte objects in 64-byte slots: its free mark after the
 * object, the free pointer before it) and one of 12-byte objects (its
 * free mark in the second word) go out of line.
 */
#define NR_ROUTES 5

static void route_ctor(void *obj)
{
	memset(obj, 0x3c, 48);
}

static void routes_get(struct kunit *test, struct route r[NR_ROUTES])
{
	r[0] = (struct route){ kmalloc_caches[kmalloc_index(64)], false };
	r[1] = (struct route){ kmalloc_caches[kmalloc_index(4096)], false };
	r[2] = (struct route){ kmalloc_caches[kmalloc_index(96)], false };
	r[3] = (struct route){ kmem_cache_create("misuse_ctor", 48, 0, 0, route_ctor), true };
	r[4] = (struct route){ kmem_cache_create("misuse_12", 12, 0, 0, NULL), true };
	for (unsigned int i = 0; i < NR_ROUTES; i++)
		KUNIT_ASSERT_NOT_NULL(test, r[i].s);
	/* the test of the address takes the first two only, wherever it can */
	for (unsigned int i = 0; i < NR_ROUTES; i++) {
		bool one_test = i < 2 && cache_has_sheaves(r[i].s) && !CONFIG_KASAN;

		KUNIT_EXPECT_EQ_MSG(test, r[i].s->fast_free_mask,
				    one_test ? r[i].s->size - 1 : ~0UL, "%s", r[i].s->name);
	}
}

static void routes_put(struct route r[NR_ROUTES])
{
	for (unsigned int i = 0; i < NR_ROUTES; i++) {
		if (r[i].own)
			kmem_cache_destroy(r[i].s);
	}
}

/*
 * Free @p as its cache's user would: kfree() for a kmalloc cache, else
 * kmem_cache_free().  Iller, the object untouched, and its own free clean.
 * kmalloc-4k's objects are taken until one is in a later page of its slab.
 */
static void kfree_of_an_interior_pointer_on_every_route(struct kunit *test)
{
	struct route r[NR_ROUTES];
	unsigned long nr = 0;

	kunit_expect_report(test, "Invalid object pointer");
	routes_get(test, r);
	for (unsigned int i = 0; i < NR_ROUTES; i++) {
		unsigned int size = r[i].s->object_size;
		unsigned int offsets[] = { 1, 8, size / 2, size - 1 };
		void *held[24];		/* a sheaf of kmalloc-4k (16) and a slab (8) */
		unsigned int nr_held = 0;
		u8 *x;

		do {
			x = route_alloc(&r[i]);
			KUNIT_ASSERT_NOT_NULL(test, x);
			held[nr_held++] = x;
		} while (i == 1 && !compound_index(virt_to_page(x)) && nr_held < ARRAY_SIZE(held));
		if (i == 1)
			KUNIT_EXPECT_NE_MSG(test, compound_index(virt_to_page(x)), 0,
					    "no kmalloc-4k object in a later page of its slab");
		memset(x, 0x11, size);
		for (unsigned int j = 0; j < ARRAY_SIZE(offsets); j++) {
			char line[160];

			mctx.pos = printk_log_pos();
			route_free(&r[i], x + offsets[j]);
			snprintf(line, sizeof(line), "Invalid object pointer %px: not the start of an "
				 "object (freed by %s", x + offsets[j], test->name);
			KUNIT_EXPECT_EQ_MSG(test, count_substr(log_since(mctx.pos), "BUG"), 1, "%s",
					    r[i].s->name);
			KUNIT_EXPECT_EQ_MSG(test, count_substr(log_since(mctx.pos), line), 1,
					    "%s: want '%s'", r[i].s->name, line);
			nr++;
		}
		mctx.pos = printk_log_pos();
		for (unsigned int j = 0; j < size; j++)
			KUNIT_ASSERT_EQ_MSG(test, x[j], 0x11, "%s: byte %u", r[i].s->name, j);
		while (nr_held)
			route_free(&r[i], held[--nr_held]);
	}
	routes_put(r);
	expect_harmless(test, nr);
}

/*
 * A double free on each route that has sheaves (slab_debug=-): reported
 * once as freed twice, and the object handed out at most once afterwards.
 * Checked caches report theirs in the slab_debug suite.
 */
static void double_free_on_every_route(struct kunit *test)
{
	struct route r[NR_ROUTES];
	unsigned long nr = 0;

	kunit_expect_report(test, CONFIG_KASAN ? "BUG: KASAN: double-free" : "freed twice");
	routes_get(test, r);
	for (unsigned int i = 0; i < NR_ROUTES; i++) {
		void *a;

		if (!cache_has_sheaves(r[i].s))
			continue;
		a = route_alloc(&r[i]);
		KUNIT_ASSERT_NOT_NULL(test, a);
		mctx.pos = printk_log_pos();
		route_free(&r[i], a);
		route_free(&r[i], a);
		check_freed_twice(test, &r[i], a, test->name);
		nr++;
	}
	mctx.pos = printk_log_pos();
	routes_put(r);
	if (!nr)
		kunit_skip(test, "every cache is checked (slab debugging): the slab_debug suite "
			   "covers their double frees");
	expect_harmless(test, nr);
}

/*
 * kmem_cache_destroy() of a cache destroyed already, or of what never was
 * a cache: one report each, naming the caller, and the pointer is never
 * followed (the struct went back to the kmem_cache cache: KASAN would call
 * that a use after free, and its cpu_sheaves were freed too).  The other
 * caches go on as before.
 */
static void kmem_cache_destroy_of_a_dead_cache(struct kunit *test)
{
	struct kmem_cache *s = kmem_cache_create("misuse_destroyed", 40, 0, 0, NULL);
	static const char why[] = "not a live cache (destroyed already?)";
	void *obj, *not_cache;

	kunit_expect_report(test, "BUG: kmem_cache_destroy of");
	KUNIT_ASSERT_NOT_NULL(test, s);
	obj = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	kmem_cache_free(s, obj);
	kmem_cache_destroy(s);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(mctx.pos), "BUG"), 0);
	kmem_cache_destroy(s);
	expect_one_report(test, "kmem_cache_destroy", s, why);
	kmem_cache_destroy(s);	/* and again: the same, nothing else */
	expect_one_report(test, "kmem_cache_destroy", s, why);

	not_cache = kzalloc(512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, not_cache);
	kmem_cache_destroy(not_cache);
	expect_one_report(test, "kmem_cache_destroy", not_cache, why);
	kfree(not_cache);
	expect_harmless(test, 3);
}

/*
 * kmem_cache_destroy() of a cache the slab allocator itself stands on (a
 * kmalloc cache with no object in use, the cache of caches, that of
 * sheaves): refused in one line, and the cache keeps working.  It freed a
 * static struct into kmem_cache, and kmalloc() of that size then used a
 * freed cache.
 */
static void kmem_cache_destroy_of_the_allocators_own_caches(struct kunit *test)
{
	static const char why[] = "the slab allocator's own cache; refused";
	struct kmem_cache *own[] = { kmalloc_caches[kmalloc_index(8192)], kmem_cache,
				     kmalloc_caches[kmalloc_index(64)] };

	kunit_expect_report(test, "BUG: kmem_cache_destroy of");
	kmem_cache_shrink(own[0]);
	for (unsigned int i = 0; i < ARRAY_SIZE(own); i++) {
		kmem_cache_destroy(own[i]);
		expect_one_report(test, "kmem_cache_destroy", own[i], why);
	}
	expect_harmless(test, ARRAY_SIZE(own));
}

static struct kunit_case slab_misuse_cases[] = {
	KUNIT_CASE(kfree_of_memory_kmalloc_never_gave),
	KUNIT_CASE(kfree_of_an_address_in_a_hole),
	KUNIT_CASE(kfree_inside_a_large_kmalloc),
	KUNIT_CASE(double_kfree_of_a_large_kmalloc),
	KUNIT_CASE(ksize_and_krealloc_of_bad_pointers),
	KUNIT_CASE(kmalloc_too_large_warns_once),
	KUNIT_CASE(double_kfree_on_the_sheaf_path),
	KUNIT_CASE(double_kfree_with_a_free_between),
	KUNIT_CASE(double_kfree_sensitive),
	KUNIT_CASE(double_kfree_after_the_sheaf_was_flushed),
	KUNIT_CASE(double_kfree_on_two_cpus),
	KUNIT_CASE(kfree_of_an_interior_pointer_on_every_route),
	KUNIT_CASE(double_free_on_every_route),
	KUNIT_CASE(kmem_cache_destroy_of_a_dead_cache),
	KUNIT_CASE(kmem_cache_destroy_of_the_allocators_own_caches),
	{}
};

static struct kunit_suite slab_misuse_suite = {
	.name = "slab_misuse",
	.init = misuse_init,
	.test_cases = slab_misuse_cases,
	.strict = true,
};
kunit_test_suite(slab_misuse_suite);
