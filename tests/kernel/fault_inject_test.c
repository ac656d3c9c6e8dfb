/*
 * tests/kernel/fault_inject_test.c - fault injection itself: the options
 * refused in one line and the ones taken, Linux's knobs (interval,
 * probability, space, times) doing what they say, the filters (min-order,
 * caller=, ignore-gfp-wait, cache=), __GFP_NOFAIL never failed, the report
 * and its silence under __GFP_NOWARN, fail-nth counting one CPU only and
 * no interrupt handler, the gates shut when nothing is armed, and all of
 * it undone when the case ends.
 *
 * Slab cases fail a cache of their own, fault_inject_test, through the
 * cache= filter; page cases fail the allocations of one function through
 * caller=; so nothing else running at the time is failed.
 */
#include "kunit/fault_inject.h"
#include "test_log.h"
#include "mm/slab_internal.h"
#include "mm/vmalloc.h"
#include "kernel/cmdline.h"
#include "kernel/kallsyms.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "lib/errno.h"
#include "lib/vsprintf.h"

#define TEST_CACHE	"fault_inject_test"
#define OBJ_SIZE	256

static struct kmem_cache *cache;

static int fault_inject_init(struct kunit *test)
{
	cache = kmem_cache_create(TEST_CACHE, OBJ_SIZE, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	return 0;
}

static void fault_inject_exit(struct kunit *test)
{
	(void)test;
	kmem_cache_destroy(cache);
	cache = NULL;
}

static unsigned long injected(enum vm_event_item item)
{
	return global_vm_event(item);
}

/*
 * The page allocations that caller= filters pick: this function's.  Called
 * through a pointer, so that the call is not inlined or specialized away.
 */
static __noinline struct page *fault_test_alloc_here(gfp_t gfp, unsigned int order)
{
	return alloc_pages(gfp, order);
}

static __noinline struct page *fault_test_alloc_elsewhere(gfp_t gfp, unsigned int order)
{
	return alloc_pages(gfp, order);
}

static struct page *(*volatile alloc_here)(gfp_t, unsigned int) = fault_test_alloc_here;
static struct page *(*volatile alloc_elsewhere)(gfp_t, unsigned int) = fault_test_alloc_elsewhere;

/* Allocate from @here and free at once; did it succeed? */
static bool page_ok(struct page *(*here)(gfp_t, unsigned int), gfp_t gfp, unsigned int order)
{
	struct page *page = here(gfp, order);

	if (page)
		__free_pages(page, order);
	return page;
}

/* An object of the test cache allocated and freed at once; did it succeed? */
static bool obj_ok(gfp_t gfp)
{
	void *obj = kmem_cache_alloc(cache, gfp);

	kmem_cache_free(cache, obj);
	return obj;
}

/* ---------------------------------------------------------------- options */

struct bad_option {
	struct fault_attr *attr;
	const char *str, *why;
};

static const struct bad_option bad_options[] = {
	{ &fail_page_alloc, "", "interval must be 1 or more (got '')" },
	{ &fail_page_alloc, "1,100", "expected interval,probability,space,times" },
	{ &fail_page_alloc, "1,100,0", "expected interval,probability,space,times" },
	{ &fail_page_alloc, "x,100,0,1", "interval must be 1 or more (got 'x')" },
	{ &fail_page_alloc, "0,100,0,1", "interval must be 1 or more (got '0')" },
	{ &failslab, "1,101,0,1", "probability must be 0..100 (got '101')" },
	{ &failslab, "1,-5,0,1", "probability must be 0..100 (got '-5')" },
	{ &failslab, "1,100,-1,1", "space must be 0 or more (got '-1')" },
	{ &failslab, "1,100,0,-2", "times must be -1 (no limit) or more (got '-2')" },
	{ &fail_vmalloc, "1,100,0,1 ", "times must be -1 (no limit) or more (got '1 ')" },
	{ &fail_vmalloc, "1,100,0,1,", "unknown option '' (fail_vmalloc takes verbose=, caller=)" },
	{ &fail_page_alloc, "1,100,0,1,frobnicate",
	  "unknown option 'frobnicate' (fail_page_alloc takes verbose=, caller=, "
	  "ignore-gfp-wait, min-order=)" },
	{ &fail_page_alloc, "1,100,0,1,min-order=11", "min-order must be 0..10 (got '11')" },
	{ &fail_page_alloc, "1,100,0,1,min-order", "unknown option 'min-order'" },
	{ &failslab, "1,100,0,1,min-order=1",
	  "unknown option 'min-order=1' (failslab takes verbose=, caller=, ignore-gfp-wait, "
	  "cache=)" },
	{ &fail_page_alloc, "1,100,0,1,cache=kmalloc-64", "unknown option 'cache=kmalloc-64'" },
	{ &fail_vmalloc, "1,100,0,1,ignore-gfp-wait", "unknown option 'ignore-gfp-wait'" },
	{ &failslab, "1,100,0,1,ignore-gfp-wait=1", "unknown option 'ignore-gfp-wait=1'" },
	{ &failslab, "1,100,0,1,verbose=3", "verbose must be 0, 1 or 2 (got '3')" },
	{ &failslab, "1,100,0,1,cache=", "cache= needs a cache's name (at most 31 characters)" },
	{ &failslab, "1,100,0,1,cache=a_cache_name_of_more_than_31_chars",
	  "cache= needs a cache's name (at most 31 characters)" },
	{ &fail_vmalloc, "1,100,0,1,caller=no_such_function_anywhere",
	  "caller=no_such_function_anywhere: no function of that name" },
	{ &fail_vmalloc, "1,100,0,1,caller=5", "caller=5: a range is START-END" },
	{ &fail_vmalloc, "1,100,0,1,caller=0x2000-0x1000",
	  "caller=0x2000-0x1000: not a range START-END" },
	{ &fail_vmalloc, "1,100,0,1,caller=0x1000-", "caller=0x1000-: not a range START-END" },
	{ &fail_page_alloc, "1,100,0,1,verbose=1,verbose=1,verbose=1,verbose=1,verbose=1,"
	  "verbose=1,verbose=1,verbose=1,verbose=1,verbose=1,verbose=1,verbose=1,verbose=1",
	  "longer than 127 characters" },
};

static void bad_option_desc(const struct bad_option *b, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s=%s", b->attr->name, b->str);
}
KUNIT_ARRAY_PARAM(bad_options, bad_options, bad_option_desc);

/* Each bad string: refused in one line that says why, and the knobs stay as they were. */
static void bad_options_are_refused(struct kunit *test)
{
	const struct bad_option *b = test->param_value;
	struct fault_attr before = *b->attr;
	unsigned long pos = printk_log_pos();
	char line[256];
	const char *log;

	KUNIT_EXPECT_EQ(test, kunit_fault_attr_setup(test, b->attr, b->str), -EINVAL);
	log = log_since(pos);
	snprintf(line, sizeof(line), "%s=%s: %s", b->attr->name, b->str, b->why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, line), "no '%s' in '%s'", line, log);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "; not armed\n"));
	KUNIT_EXPECT_EQ(test, count_substr(log, "\n"), 1);
	KUNIT_EXPECT_MEMEQ(test, b->attr, &before, sizeof(before));
}

/* Everything a string can say, read into the knobs; the gates open and shut with them. */
static void good_options_are_taken(struct kunit *test)
{
	char str[128];

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
			"10,50,4096,-1,verbose=1,min-order=2,ignore-gfp-wait,"
			"caller=0x1000-0x2000"), 0);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.interval, 10);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.probability, 50);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.space, 4096);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.times, -1);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.verbose, 1);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.min_order, 2);
	KUNIT_EXPECT_TRUE(test, fail_page_alloc.ignore_gfp_wait);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.require_start, 0x1000);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.require_end, 0x2000);
	KUNIT_EXPECT_EQ(test, alloc_checked_order, 2);

	/* The string says everything: what it leaves out is off again. */
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc, "1,0,0,1"), 0);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.verbose, 2);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.min_order, 0);
	KUNIT_EXPECT_FALSE(test, fail_page_alloc.ignore_gfp_wait);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.require_end, 0);
	KUNIT_EXPECT_EQ(test, alloc_checked_order, NR_PAGE_ORDERS);	/* probability 0: off */

	/* caller= by name is the function's whole range, as kallsyms has it. */
	snprintf(str, sizeof(str), "1,100,0,0,caller=fault_test_alloc_here");
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_vmalloc, str), 0);
	KUNIT_EXPECT_EQ(test, fail_vmalloc.require_start, (unsigned long)fault_test_alloc_here);
	KUNIT_EXPECT_GT(test, fail_vmalloc.require_end, fail_vmalloc.require_start);
	KUNIT_EXPECT_FALSE(test, fail_vmalloc_armed);	/* times 0: off */
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_vmalloc, "1,100,0,1"), 0);
	KUNIT_EXPECT_TRUE(test, fail_vmalloc_armed);

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,1,cache=" TEST_CACHE), 0);
	KUNIT_EXPECT_STREQ(test, failslab.cache, TEST_CACHE);
	KUNIT_EXPECT_TRUE(test, cache->flags & SLAB_FAILSLAB);
	KUNIT_EXPECT_FALSE(test, kmalloc_caches[6]->flags & SLAB_FAILSLAB);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab, "1,100,0,1"), 0);
	KUNIT_EXPECT_TRUE(test, kmalloc_caches[6]->flags & SLAB_FAILSLAB);
}

/* ---------------------------------------------------------------- Linux's knobs */

/* interval 3: the 3rd, 6th and 9th allocations fail, no other. */
static void interval_fails_every_nth_call(struct kunit *test)
{
	unsigned long before = injected(FAULT_INJECT_SLAB);

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"3,100,0,-1,cache=" TEST_CACHE), 0);
	for (int i = 1; i <= 9; i++)
		KUNIT_EXPECT_EQ_MSG(test, obj_ok(GFP_KERNEL | __GFP_NOWARN), i % 3 != 0,
				    "allocation %d", i);
	KUNIT_EXPECT_EQ(test, injected(FAULT_INJECT_SLAB) - before, 3);
}

/* probability 50: about half of 1000 fail; 0 arms nothing; 100 fails all. */
static void probability_is_a_percentage(struct kunit *test)
{
	unsigned int failed = 0;

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,50,0,-1,cache=" TEST_CACHE), 0);
	for (int i = 0; i < 1000; i++)
		failed += !obj_ok(GFP_KERNEL | __GFP_NOWARN);
	KUNIT_EXPECT_GT(test, failed, 350);	/* more than 9 standard deviations away */
	KUNIT_EXPECT_LT(test, failed, 650);

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,0,0,-1,cache=" TEST_CACHE), 0);
	KUNIT_EXPECT_FALSE(test, cache->flags & SLAB_FAILSLAB);
	for (int i = 0; i < 100; i++)
		KUNIT_EXPECT_TRUE(test, obj_ok(GFP_KERNEL));
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,-1,cache=" TEST_CACHE), 0);
	for (int i = 0; i < 100; i++)
		KUNIT_EXPECT_FALSE(test, obj_ok(GFP_KERNEL | __GFP_NOWARN));
}

/*
 * space 1024 with 256-byte objects: Linux's rule lets a call through while
 * the budget left is larger than its size, taking its size from it: three
 * pass (1024, 768, 512 left), then 256 is not larger than 256, and every
 * call fails from there on.
 */
static void space_lets_the_first_bytes_through(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,1024,-1,cache=" TEST_CACHE), 0);
	for (int i = 1; i <= 6; i++)
		KUNIT_EXPECT_EQ_MSG(test, obj_ok(GFP_KERNEL | __GFP_NOWARN), i <= 3,
				    "allocation %d", i);
	KUNIT_EXPECT_EQ(test, failslab.space, OBJ_SIZE);
}

/* times 2: two failures, then none; -1: no limit. */
static void times_limits_the_failures(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,2,cache=" TEST_CACHE), 0);
	for (int i = 1; i <= 5; i++)
		KUNIT_EXPECT_EQ_MSG(test, obj_ok(GFP_KERNEL | __GFP_NOWARN), i > 2,
				    "allocation %d", i);
	KUNIT_EXPECT_EQ(test, failslab.times, 0);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,-1,cache=" TEST_CACHE), 0);
	for (int i = 1; i <= 50; i++)
		KUNIT_EXPECT_FALSE(test, obj_ok(GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_EQ(test, failslab.times, -1);
}

/* ---------------------------------------------------------------- filters */

/* min-order=3: orders 3 and up fail, 2 does not (and only here: caller=). */
static void min_order_filter(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
			"1,100,0,-1,min-order=3,caller=fault_test_alloc_here"), 0);
	KUNIT_EXPECT_EQ(test, alloc_checked_order, 3);
	KUNIT_EXPECT_TRUE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOWARN, 0));
	KUNIT_EXPECT_TRUE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOWARN, 2));
	KUNIT_EXPECT_FALSE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOWARN, 3));
	KUNIT_EXPECT_FALSE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOWARN, 4));
}

/* caller=: by name or by address range, only allocations with that code on the stack. */
static void caller_filter(struct kunit *test)
{
	unsigned long start = (unsigned long)fault_test_alloc_here, size;
	char str[96];

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
			"1,100,0,-1,caller=fault_test_alloc_here"), 0);
	KUNIT_EXPECT_FALSE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOWARN, 0));
	KUNIT_EXPECT_TRUE(test, page_ok(alloc_elsewhere, GFP_KERNEL | __GFP_NOWARN, 0));
	KUNIT_EXPECT_TRUE(test, obj_ok(GFP_KERNEL));

	KUNIT_ASSERT_NOT_NULL(test, kallsyms_lookup(start, &size, NULL));
	snprintf(str, sizeof(str), "1,100,0,-1,caller=%#lx-%#lx", start, start + size);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc, str), 0);
	KUNIT_EXPECT_FALSE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOWARN, 0));
	KUNIT_EXPECT_TRUE(test, page_ok(alloc_elsewhere, GFP_KERNEL | __GFP_NOWARN, 0));
}

/* ignore-gfp-wait: allocations that may sleep are spared, atomic ones fail. */
static void ignore_gfp_wait_filter(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,-1,ignore-gfp-wait,cache=" TEST_CACHE), 0);
	KUNIT_EXPECT_TRUE(test, obj_ok(GFP_KERNEL));
	KUNIT_EXPECT_FALSE(test, obj_ok(GFP_ATOMIC | __GFP_NOWARN));
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
			"1,100,0,-1,ignore-gfp-wait,caller=fault_test_alloc_here"), 0);
	KUNIT_EXPECT_TRUE(test, page_ok(alloc_here, GFP_KERNEL, 0));
	KUNIT_EXPECT_FALSE(test, page_ok(alloc_here, GFP_NOWAIT | __GFP_NOWARN, 0));
}

/* cache=: that cache's allocations fail, and no other cache is even marked. */
static void cache_filter(struct kunit *test)
{
	struct kmem_cache *s;
	void *obj;

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,-1,cache=" TEST_CACHE), 0);
	KUNIT_EXPECT_FALSE(test, obj_ok(GFP_KERNEL | __GFP_NOWARN));
	obj = kmalloc(OBJ_SIZE, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, obj);
	kfree(obj);
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list)
		KUNIT_EXPECT_EQ_MSG(test, !!(s->flags & SLAB_FAILSLAB), s == cache, "%s", s->name);
	spin_unlock(&slab_caches_lock);
	/* A cache made while failslab is armed for every cache is marked at once. */
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,1,caller=fault_test_alloc_here"), 0);
	s = kmem_cache_create("fault_inject_new", 64, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_TRUE(test, s->flags & SLAB_FAILSLAB);
	kmem_cache_destroy(s);
}

/* ---------------------------------------------------------------- flags and reports */

/* __GFP_NOFAIL is never failed, and does not count for fail-nth either. */
static void nofail_is_never_failed(struct kunit *test)
{
	void *obj, *v;

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
			"1,100,0,-1,caller=fault_test_alloc_here"), 0);
	KUNIT_EXPECT_TRUE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOFAIL, 0));
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,-1,cache=" TEST_CACHE), 0);
	KUNIT_EXPECT_TRUE(test, obj_ok(GFP_KERNEL | __GFP_NOFAIL));
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_vmalloc, "1,100,0,-1"), 0);
	v = __vmalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NOFAIL);
	KUNIT_EXPECT_NOT_NULL(test, v);
	vfree(v);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_vmalloc, "1,0,0,-1"), 0);

	kunit_fail_nth(test, FAIL_ALL, 1);
	obj = kmalloc(64, GFP_KERNEL | __GFP_NOFAIL);
	KUNIT_EXPECT_NOT_NULL(test, obj);
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 1);
	kfree(obj);
	KUNIT_EXPECT_NULL(test, kmalloc(64, GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 0);
}

/* Linux's report: two lines, then the backtrace, which names who allocated. */
static void report_format(struct kunit *test)
{
	unsigned long before = injected(FAULT_INJECT_SLAB), pos;
	const char *log;

	kunit_expect_report(test, "FAULT_INJECTION: forcing a failure");
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,3,cache=" TEST_CACHE), 0);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, kmem_cache_alloc(cache, GFP_KERNEL));
	log = log_since(pos);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "FAULT_INJECTION: forcing a failure.\n"
					   "name failslab, interval 1, probability 100, "
					   "space 0, times 3\nCall Trace:\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, " should_failslab+0x"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, " report_format+0x"));
	KUNIT_EXPECT_EQ(test, injected(FAULT_INJECT_SLAB) - before, 1);

	/* verbose=1: the two lines without the backtrace; verbose=0: nothing, still counted. */
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,3,verbose=1,cache=" TEST_CACHE), 0);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, kmem_cache_alloc(cache, GFP_KERNEL));
	log = log_since(pos);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "name failslab, interval 1, probability 100"));
	KUNIT_EXPECT_NULL(test, strstr(log, "Call Trace:"));
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,3,verbose=0,cache=" TEST_CACHE), 0);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, kmem_cache_alloc(cache, GFP_KERNEL));
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	KUNIT_EXPECT_EQ(test, injected(FAULT_INJECT_SLAB) - before, 3);
}

/* __GFP_NOWARN: the failure is silent (page, slab, vmalloc), and still counted. */
static void nowarn_is_silent(struct kunit *test)
{
	unsigned long page = injected(FAULT_INJECT_PAGE), slab = injected(FAULT_INJECT_SLAB);
	unsigned long vm = injected(FAULT_INJECT_VMALLOC), pos;

	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,-1,cache=" TEST_CACHE), 0);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
			"1,100,0,-1,caller=fault_test_alloc_here"), 0);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_vmalloc,
			"1,100,0,-1,caller=nowarn_is_silent"), 0);
	pos = printk_log_pos();
	KUNIT_EXPECT_FALSE(test, obj_ok(GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_FALSE(test, page_ok(alloc_here, GFP_KERNEL | __GFP_NOWARN, 1));
	KUNIT_EXPECT_NULL(test, __vmalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_STREQ(test, log_since(pos), "");
	KUNIT_EXPECT_EQ(test, injected(FAULT_INJECT_SLAB) - slab, 1);
	KUNIT_EXPECT_EQ(test, injected(FAULT_INJECT_PAGE) - page, 1);
	KUNIT_EXPECT_EQ(test, injected(FAULT_INJECT_VMALLOC) - vm, 1);
}

/* ---------------------------------------------------------------- fail-nth */

/* The nth allocation of the kinds asked for fails, and only that one. */
static void fail_nth_fails_exactly_the_nth(struct kunit *test)
{
	void *objs[5], *keep = kmem_cache_alloc(cache, GFP_KERNEL);	/* a slab to take from */
	struct page *page;

	KUNIT_ASSERT_NOT_NULL(test, keep);
	kunit_fail_nth(test, FAIL_SLAB, 3);
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 3);
	for (int i = 0; i < 5; i++) {
		objs[i] = kmem_cache_alloc(cache, GFP_KERNEL | __GFP_NOWARN);
		KUNIT_EXPECT_EQ_MSG(test, objs[i] != NULL, i != 2, "allocation %d", i + 1);
		KUNIT_EXPECT_EQ(test, fail_nth_get(), i < 2 ? 2 - i : 0);
	}
	for (int i = 0; i < 5; i++)
		kmem_cache_free(cache, objs[i]);

	/* Only the kinds asked for count: a slab allocation is no page allocation. */
	kunit_fail_nth(test, FAIL_PAGE, 1);
	objs[0] = kmem_cache_alloc(cache, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, objs[0]);
	kmem_cache_free(cache, objs[0]);
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 1);
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	KUNIT_EXPECT_NULL(test, page);
	if (page)
		__free_page(page);

	/* FAIL_VMALLOC: vmalloc() fails at its entry, before it allocates anything. */
	kunit_fail_nth(test, FAIL_VMALLOC, 1);
	KUNIT_EXPECT_NULL(test, __vmalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 0);
	kunit_fail_nth(test, 0, 0);
	KUNIT_EXPECT_EQ(test, alloc_checked_order, NR_PAGE_ORDERS);
	kmem_cache_free(cache, keep);
}

struct other_cpu {
	struct work_struct work;
	void *obj;
	unsigned int nth;
};

static void alloc_on_this_cpu(void *info)
{
	struct other_cpu *o = info;

	o->obj = kmem_cache_alloc(cache, GFP_ATOMIC | __GFP_NOWARN);
}

static void alloc_in_work(struct work_struct *work)
{
	struct other_cpu *o = container_of(work, struct other_cpu, work);

	alloc_on_this_cpu(o);
	o->nth = fail_nth_get();
}

/* Arming fail-nth on CPU 0 fails nothing on CPU 1. */
static void fail_nth_is_this_cpus(struct kunit *test)
{
	struct other_cpu o = { .nth = 99 };

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	kunit_fail_nth(test, FAIL_SLAB, 1);
	INIT_WORK(&o.work, alloc_in_work);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &o.work));
	flush_work(&o.work);
	KUNIT_EXPECT_NOT_NULL(test, o.obj);
	KUNIT_EXPECT_EQ(test, o.nth, 0);	/* CPU 1 has none of its own */
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 1);
	KUNIT_EXPECT_FALSE(test, obj_ok(GFP_KERNEL | __GFP_NOWARN));
	kmem_cache_free(cache, o.obj);	/* (may allocate a sheaf: after the check) */
}

static void ipi_cpu0(struct work_struct *work)
{
	struct other_cpu *o = container_of(work, struct other_cpu, work);

	smp_call_function_single(0, alloc_on_this_cpu, o, 1);
}

/* An interrupt handler on CPU 0 allocates while fail-nth is armed there: it does not count. */
static void fail_nth_skips_interrupt_handlers(struct kunit *test)
{
	struct other_cpu o = { .obj = NULL };

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	kunit_fail_nth(test, FAIL_SLAB, 1);
	INIT_WORK(&o.work, ipi_cpu0);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &o.work));
	flush_work(&o.work);	/* with interrupts on: CPU 0 takes CPU 1's IPI */
	KUNIT_EXPECT_NOT_NULL(test, o.obj);
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 1);
	KUNIT_EXPECT_FALSE(test, obj_ok(GFP_KERNEL | __GFP_NOWARN));
	kmem_cache_free(cache, o.obj);
}

/* ---------------------------------------------------------------- the end of a case */

/* Arms everything and ends without disarming: the next case finds it all undone. */
static void armed_when_the_case_ends(struct kunit *test)
{
	kunit_fail_nth(test, FAIL_ALL, 1000000);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
			"1,100,0,-1,caller=fault_test_alloc_here"), 0);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &failslab,
			"1,100,0,-1,cache=" TEST_CACHE), 0);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_vmalloc,
			"1,100,0,-1,caller=fault_test_alloc_here"), 0);
	KUNIT_EXPECT_EQ(test, alloc_checked_order, 0);
	KUNIT_EXPECT_TRUE(test, fail_vmalloc_armed);
}

static void disarmed_after_the_case(struct kunit *test)
{
	struct kmem_cache *s;

	if (cmdline_has("fail_page_alloc") || cmdline_has("failslab") ||
	    cmdline_has("fail_vmalloc"))
		kunit_skip(test, "fault injection was armed on the command line");
	KUNIT_EXPECT_EQ(test, fail_nth_get(), 0);
	KUNIT_EXPECT_EQ(test, fail_page_alloc.probability, 0);
	KUNIT_EXPECT_EQ(test, failslab.probability, 0);
	KUNIT_EXPECT_EQ(test, fail_vmalloc.probability, 0);
	KUNIT_EXPECT_EQ(test, alloc_checked_order, NR_PAGE_ORDERS);
	KUNIT_EXPECT_FALSE(test, fail_vmalloc_armed);
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list)
		KUNIT_EXPECT_FALSE_MSG(test, s->flags & SLAB_FAILSLAB, "%s", s->name);
	spin_unlock(&slab_caches_lock);
	KUNIT_EXPECT_TRUE(test, page_ok(alloc_here, GFP_KERNEL, 0));
}

static struct kunit_case fault_inject_cases[] = {
	KUNIT_CASE_PARAM(bad_options_are_refused, bad_options_gen_params),
	KUNIT_CASE(good_options_are_taken),
	KUNIT_CASE(interval_fails_every_nth_call),
	KUNIT_CASE(probability_is_a_percentage),
	KUNIT_CASE(space_lets_the_first_bytes_through),
	KUNIT_CASE(times_limits_the_failures),
	KUNIT_CASE(min_order_filter),
	KUNIT_CASE(caller_filter),
	KUNIT_CASE(ignore_gfp_wait_filter),
	KUNIT_CASE(cache_filter),
	KUNIT_CASE(nofail_is_never_failed),
	KUNIT_CASE(report_format),
	KUNIT_CASE(nowarn_is_silent),
	KUNIT_CASE(fail_nth_fails_exactly_the_nth),
	KUNIT_CASE(fail_nth_is_this_cpus),
	KUNIT_CASE(fail_nth_skips_interrupt_handlers),
	KUNIT_CASE(armed_when_the_case_ends),
	KUNIT_CASE(disarmed_after_the_case),
	{}
};

static struct kunit_suite fault_inject_suite = {
	.name = "fault_inject",
	.init = fault_inject_init,
	.exit = fault_inject_exit,
	.test_cases = fault_inject_cases,
	.strict = true,
};
kunit_test_suite(fault_inject_suite);
