/*
 * tests/kernel/kasan_test.c - KASAN catches each kind of bad access, in
 * the spirit of Linux's mm/kasan/kasan_test.c.
 *
 * Each case makes one bad access on purpose and reads the log for the
 * report: its first line names the kind and this very function
 * ("BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right+0x.../0x..."), the
 * second the access ("Write of size 1 at addr <the address> by CPU n"),
 * then, for slab memory, the object, its cache and where the address is
 * in it, and who allocated (and freed) it.  Exactly one report each: a
 * second one would be KASAN (or the case) getting something wrong.  The
 * kinds: slab out-of-bounds right and left (kmalloc-8 to kmalloc-4k, the
 * non-power-of-two kmalloc-96 and kmalloc-192, a cache of 200-byte
 * objects), large kmalloc and page out-of-bounds, vmalloc out-of-bounds
 * within the last page, a global and a stack array one past the end, both
 * ends of a variable-length array (alloca), memset() past an object, the
 * string functions of lib/string.c reading past one, use after free of a
 * slab object (also after a hundred allocations: the quarantine), of a
 * page and of vmalloc memory, a double free, and a freed object given to
 * ksize(), krealloc() or kfree_sensitive().  Then the other half: correct
 * accesses to all of these - up to the last byte, ksize()'s whole object
 * once krealloc() gave it, krealloc() in place - are not reported, and
 * ksize() itself unpoisons nothing (Linux since 6.2).
 *
 * Only a KASAN kernel (make KASAN=1) checks anything: elsewhere every
 * case is skipped.  KASAN reports and goes on, so each bad access really
 * happens: the cases only touch memory that stays theirs (a redzone, a
 * freed object in the quarantine, a free page, a poisoned but mapped
 * vmalloc tail) and never a byte something else uses.  A cache checked by
 * slab debugging (booted with slab_debug, as the matrix's
 * kasan-pc-128M-debug is) has no quarantine and its own redzones and
 * poison: there the cases expect its reports too, and put its poison back.
 */
#include "kunit/test.h"
#include "test_log.h"
#include "slab_test.h"
#include "mm/kasan.h"
#include "mm/kvmalloc.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "lib/vsprintf.h"

/* Hide @var's value from the optimizer, so a bad access is compiled as written. */
#define OPTIMIZER_HIDE_VAR(var)	__asm__ ("" : "=r"(var) : "0"(var))

static unsigned long log_pos;

static int kasan_test_init(struct kunit *test)
{
	if (!CONFIG_KASAN)
		kunit_skip(test, "not a KASAN kernel (make KASAN=1)");
	/* Each case counts its reports itself: exactly one, or none for a correct access. */
	kunit_allow_report(test, "BUG: KASAN:");
	log_pos = printk_log_pos();
	return 0;
}

/*
 * The log since the last check holds exactly one KASAN report, whose first
 * line starts with "BUG: KASAN: @kind in @fn+0x" and whose second says
 * "@access of size @size at addr @addr".  Returns the report for more checks.
 */
static const char *expect_report(struct kunit *test, const char *kind, const char *fn,
				 const char *access, size_t size, const void *addr)
{
	const char *log = log_since(log_pos);
	char first[128], second[128];

	snprintf(first, sizeof(first), "BUG: KASAN: %s in %s+0x", kind, fn);
	snprintf(second, sizeof(second), "%s of size %zu at addr %px by CPU ", access, size, addr);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "BUG: KASAN:"), 1, "want one report: '%s'",
			    first);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, first), "want '%s'", first);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, second), "want '%s'", second);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "Memory state around the buggy address:"));
	log_pos = printk_log_pos();
	return log;
}

/* No KASAN report since the last check. */
static void expect_no_report(struct kunit *test, const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log_since(log_pos), "KASAN"), 0, "%s", what);
	log_pos = printk_log_pos();
}

/* The report says object @obj of cache @cache, @rel (e.g. "0 bytes to the right of"), @region. */
static void expect_object(struct kunit *test, const char *log, const void *obj,
			  const char *cache, unsigned int object_size, const char *rel,
			  const char *state, size_t size)
{
	char line[160];

	snprintf(line, sizeof(line), "The buggy address belongs to the object at %px\n"
		 " which belongs to the cache %s of size %u\n", obj, cache, object_size);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, line), "want '%s'", line);
	snprintf(line, sizeof(line), "The buggy address is located %s\n %s %zu-byte region [%px, %px)",
		 rel, state, size, obj, (const u8 *)obj + size);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, line), "want '%s'", line);
}

/* The report's "@what by CPU n:" stack names @fn. */
static void expect_stack_names(struct kunit *test, const char *log, const char *what,
			       const char *fn)
{
	const char *stack = strstr(log, what);
	const char *end = stack ? strstr(stack, "\n\n") : NULL;
	const char *hit = stack ? strstr(stack, fn) : NULL;

	KUNIT_EXPECT_NOT_NULL_MSG(test, stack, "no '%s' stack", what);
	KUNIT_EXPECT_TRUE_MSG(test, hit && end && hit < end, "'%s' stack does not name %s", what,
			      fn);
}

/* ---------------------------------------------------------------- slab out of bounds */

static const size_t oob_sizes[] = { 5, 8, 13, 64, 90, 100, 150, 1000, 4000 };

/* kmalloc(size), one byte written just past it: the size asked for, not the size class. */
static void kmalloc_oob_right(struct kunit *test)
{
	/* a cache with slab debugging's redzones finds the byte past a full object there */
	kunit_allow_report(test, "Right Redzone overwritten");
	for (unsigned int i = 0; i < ARRAY_SIZE(oob_sizes); i++) {
		size_t size = oob_sizes[i];
		struct kmem_cache *s = kmalloc_caches[kmalloc_index_runtime(size)];
		char rel[32];
		const char *log;
		u8 *p = kmalloc(size, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		OPTIMIZER_HIDE_VAR(p);
		p[size] = 'x';
		log = expect_report(test, "slab-out-of-bounds", "kmalloc_oob_right", "Write", 1,
				    p + size);
		snprintf(rel, sizeof(rel), "0 bytes to the right of");
		expect_object(test, log, p, s->name, s->object_size, rel, "allocated", size);
		expect_stack_names(test, log, "Allocated by CPU", "kmalloc_oob_right");
		KUNIT_EXPECT_NULL(test, strstr(log, "Freed by CPU"));
		kfree(p);
		if (!cache_has_sheaves(s) && (s->flags & SLAB_RED_ZONE) && size == s->object_size)
			KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log_since(log_pos),
							       "Right Redzone overwritten"),
						  "%s", s->name);
	}
}

/* One byte before an object: its slot's neighbour's redzone. */
static void kmalloc_oob_left(struct kunit *test)
{
	const char *log;
	u8 *objs[8], *p = NULL;
	struct page *slab;

	/* an object that is not the first of its slab, so the byte before it is a redzone */
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = kmalloc(15, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
		slab = virt_to_head_page(objs[i]);
		if (!p && objs[i] - (u8 *)slab_address(slab) >= slab->slab_cache->size)
			p = objs[i];
	}
	KUNIT_ASSERT_NOT_NULL(test, p);
	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[-1]);
	log = expect_report(test, "slab-out-of-bounds", "kmalloc_oob_left", "Read", 1, p - 1);
	expect_object(test, log, p, "kmalloc-16", 16, "1 bytes to the left of", "allocated", 15);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		kfree(objs[i]);
}

/* A cache of its own, 200-byte objects: a u64 read overlapping the end. */
static void kmem_cache_oob(struct kunit *test)
{
	struct kmem_cache *s = kmem_cache_create("kasan_test_200", 200, 0, 0, NULL);
	const char *log;
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, s);
	p = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(*(u64 *)(p + 196));
	log = expect_report(test, "slab-out-of-bounds", "kmem_cache_oob", "Read", 8, p + 196);
	expect_object(test, log, p, "kasan_test_200", 200, "196 bytes inside of", "allocated",
		      200);
	kmem_cache_free(s, p);
	kmem_cache_destroy(s);
	expect_no_report(test, "destroying the cache");
}

/* memset() one byte too many: the check is in memset() itself, the report names its caller. */
static void kmalloc_memset_oob(struct kunit *test)
{
	u8 *p = kmalloc(33, GFP_KERNEL);
	size_t size = 34;

	KUNIT_ASSERT_NOT_NULL(test, p);
	OPTIMIZER_HIDE_VAR(size);
	memset(p, 0, size);
	expect_report(test, "slab-out-of-bounds", "kmalloc_memset_oob", "Write", 34, p);
	kfree(p);
}

/* ------------------------------------------------------------ pages, vmalloc */

/* A large kmalloc (whole pages): the bytes past the size asked for are a redzone. */
static void kmalloc_large_oob_right(struct kunit *test)
{
	size_t size = KMALLOC_MAX_CACHE_SIZE + 10;
	u8 *p = kmalloc(size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	OPTIMIZER_HIDE_VAR(p);
	p[size] = 1;
	expect_report(test, "slab-out-of-bounds", "kmalloc_large_oob_right", "Write", 1, p + size);
	kfree(p);
}

/*
 * The byte past a block from alloc_pages(): pages have no redzones, so it
 * is caught when the next page is free.  The case makes sure it is: it
 * takes two pages and frees the second.
 */
static void page_oob_right(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);
	const char *log;
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, page);
	split_page(page, 1);
	__free_pages(page + 1, 0);
	p = page_address(page);
	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[PAGE_SIZE]);
	log = expect_report(test, "use-after-free", "page_oob_right", "Read", 1, p + PAGE_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "The buggy address belongs to the physical page:"));
	__free_pages(page, 0);
}

/* vmalloc() knows the size to the byte: past it, in the same (mapped) page, is caught. */
static void vmalloc_oob(struct kunit *test)
{
	size_t size = 3000;
	u8 *v = vmalloc(size);
	const char *log;

	KUNIT_ASSERT_NOT_NULL(test, v);
	OPTIMIZER_HIDE_VAR(v);
	v[size] = 1;
	log = expect_report(test, "vmalloc-out-of-bounds", "vmalloc_oob", "Write", 1, v + size);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "The buggy address belongs to a vmalloc area:"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "allocated by vmalloc_oob+0x"));
	vfree(v);
}

/* ------------------------------------------------------------ globals and the stack */

static char global_array[10];

static void global_oob(struct kunit *test)
{
	char *p = global_array;
	const char *log;
	size_t i = sizeof(global_array);

	OPTIMIZER_HIDE_VAR(i);
	(void)READ_ONCE(p[i]);
	log = expect_report(test, "global-out-of-bounds", "global_oob", "Read", 1, p + i);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "The buggy address belongs to the variable:\n"
					   " global_array+0xa/0xa"));
}

static void stack_oob(struct kunit *test)
{
	char stack_array[10];
	char *p = stack_array;
	const char *log;
	size_t i = sizeof(stack_array);

	memset(stack_array, 0, sizeof(stack_array));
	OPTIMIZER_HIDE_VAR(i);
	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[i]);
	log = expect_report(test, "stack-out-of-bounds", "stack_oob", "Read", 1, p + i);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "The buggy address belongs to the stack of CPU"));
}

/*
 * An array whose size is known only at run time (alloca(), here a
 * variable-length array): the compiler puts redzones on both sides of it
 * and calls KASAN to poison them (__asan_alloca_poison()).
 */
static void kasan_alloca_oob_left(struct kunit *test)
{
	volatile int n = 10;
	char array[n];
	char *p = array;
	const char *log;

	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[-1]);
	log = expect_report(test, "alloca-out-of-bounds", "kasan_alloca_oob_left", "Read", 1,
			    p - 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "The buggy address belongs to the stack of CPU"));
}

static void kasan_alloca_oob_right(struct kunit *test)
{
	volatile int n = 10;
	char array[n];
	char *p = array;

	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[n]);
	expect_report(test, "alloca-out-of-bounds", "kasan_alloca_oob_right", "Read", 1, p + n);
}

/* ------------------------------------------------------------ the string functions */

/* Where the string cases put their results, so that no call is optimized away. */
static volatile long kasan_int_result;
static void *volatile kasan_ptr_result;

/*
 * lib/string.c is checked like any other code: a read past the object
 * inside memchr() or strlen() is reported there (Linux's kasan_memchr,
 * kasan_memcmp, kasan_strings).
 */
static void kasan_memchr(struct kunit *test)
{
	size_t size = 24;
	u8 *p = kzalloc(size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	OPTIMIZER_HIDE_VAR(p);
	OPTIMIZER_HIDE_VAR(size);
	kasan_ptr_result = memchr(p, '1', size + 1);
	expect_report(test, "slab-out-of-bounds", "memchr", "Read", 1, p + size);
	kfree(p);
}

static void kasan_memcmp(struct kunit *test)
{
	size_t size = 24;
	u8 *p = kzalloc(size, GFP_KERNEL);
	u8 zeros[32] = { 0 };

	KUNIT_ASSERT_NOT_NULL(test, p);
	OPTIMIZER_HIDE_VAR(p);
	OPTIMIZER_HIDE_VAR(size);
	kasan_int_result = memcmp(p, zeros, size + 1);
	expect_report(test, "slab-out-of-bounds", "memcmp", "Read", 1, p + size);
	kfree(p);
}

/*
 * The functions that stop at a NUL, on a 15-byte string whose NUL is the
 * object's first byte past the size asked for (written with KASAN off):
 * each reads that one byte, is reported once, and stops there.
 */
static void kasan_strings(struct kunit *test)
{
	char *p = kmalloc(15, GFP_KERNEL), *dst = kmalloc(8, GFP_KERNEL);
	const char *same = "aaaaaaaaaaaaaaa";

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	memset(p, 'a', 15);
	kasan_disable_current();
	p[15] = '\0';			/* in kmalloc-16's object, past the 15 bytes */
	kasan_enable_current();
	OPTIMIZER_HIDE_VAR(p);
	KUNIT_EXPECT_EQ(test, strscpy(dst, p, 8), -E2BIG);	/* reads 8 bytes, no more */
	expect_no_report(test, "strscpy() that stops inside the object");
	kasan_int_result = strscpy(dst, p + 15, 8);
	expect_report(test, "slab-out-of-bounds", "strscpy", "Read", 1, p + 15);
	kasan_int_result = strlen(p);
	expect_report(test, "slab-out-of-bounds", "strlen", "Read", 1, p + 15);
	kasan_int_result = strnlen(p, 16);
	expect_report(test, "slab-out-of-bounds", "strnlen", "Read", 1, p + 15);
	kasan_ptr_result = strchr(p, '1');
	expect_report(test, "slab-out-of-bounds", "strchr", "Read", 1, p + 15);
	kasan_ptr_result = strrchr(p, '1');
	expect_report(test, "slab-out-of-bounds", "strrchr", "Read", 1, p + 15);
	kasan_int_result = strcmp(p, same);
	expect_report(test, "slab-out-of-bounds", "strcmp", "Read", 1, p + 15);
	kasan_int_result = strncmp(p, same, 16);
	expect_report(test, "slab-out-of-bounds", "strncmp", "Read", 1, p + 15);
	kfree(dst);
	kfree(p);
}

/* ---------------------------------------------------------------- use after free */

static void kmalloc_uaf(struct kunit *test)
{
	struct kmem_cache *s = kmalloc_caches[kmalloc_index(64)];
	/* no quarantine in a checked cache: the 'x' lands in its poison */
	bool in_poison = !cache_has_sheaves(s) && (s->flags & SLAB_POISON);
	const char *log;
	u8 *p = kmalloc(64, GFP_KERNEL);

	if (in_poison)
		kunit_expect_report(test, "Poison overwritten");
	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	p[8] = 'x';
	log = expect_report(test, "slab-use-after-free", "kmalloc_uaf", "Write", 1, p + 8);
	expect_object(test, log, p, "kmalloc-64", 64, "8 bytes inside of", "freed", 64);
	expect_stack_names(test, log, "Allocated by CPU", "kmalloc_uaf");
	expect_stack_names(test, log, "Freed by CPU", "kmalloc_uaf");
	if (in_poison)	/* validating finds it and puts the poison back */
		KUNIT_EXPECT_EQ(test, validate_slab_cache(s), 1);
}

/*
 * The quarantine: a hundred kmalloc()s of the same size after the free do
 * not get the freed object back, and it is still caught.  (With slab
 * debugging the cache has no quarantine: its own poison catches writes.)
 */
static void kmalloc_uaf_after_reuse(struct kunit *test)
{
	struct kmem_cache *s = kmalloc_caches[kmalloc_index(128)];
	void *others[100];
	u8 *p;

	if (!cache_has_sheaves(s))
		kunit_skip(test, "%s is checked by slab debugging (slab_debug): no quarantine",
			   s->name);
	p = kmalloc(128, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	for (unsigned int i = 0; i < ARRAY_SIZE(others); i++) {
		others[i] = kmalloc(128, GFP_KERNEL);
		KUNIT_EXPECT_PTR_NE(test, others[i], (void *)p);
	}
	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[0]);
	expect_report(test, "slab-use-after-free", "kmalloc_uaf_after_reuse", "Read", 1, p);
	for (unsigned int i = 0; i < ARRAY_SIZE(others); i++)
		kfree(others[i]);
}

static void page_uaf(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, page);
	p = page_address(page);
	__free_pages(page, 2);
	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[3 * PAGE_SIZE + 5]);
	expect_report(test, "use-after-free", "page_uaf", "Read", 1, p + 3 * PAGE_SIZE + 5);
}

/*
 * After vfree() the pages are unmapped: a load would fault after the
 * report (the vmalloc_oops suite shows that oops).  memcpy() checks before
 * it copies and, on a bad range, reports and copies nothing (as Linux's).
 */
static void vmalloc_uaf(struct kunit *test)
{
	u8 *v = vmalloc(2 * PAGE_SIZE);
	u64 copy = 0;

	KUNIT_ASSERT_NOT_NULL(test, v);
	vfree(v);
	OPTIMIZER_HIDE_VAR(v);
	KUNIT_EXPECT_NULL(test, memcpy(&copy, v + PAGE_SIZE, sizeof(copy)));
	expect_report(test, "vmalloc-out-of-bounds", "vmalloc_uaf", "Read", 8, v + PAGE_SIZE);
}

/*
 * A double kfree(): with slab debugging, the slab's own check reports it
 * (slab_debug suite); without, the first free put the object in KASAN's
 * quarantine and KASAN reports the second.  Either way it is not freed twice.
 */
static void kmalloc_double_free(struct kunit *test)
{
	struct kmem_cache *s = kmalloc_caches[kmalloc_index(32)];
	const char *log;
	u8 *p = kmalloc(32, GFP_KERNEL);
	char line[96];

	kunit_allow_report(test, "Object already free");	/* a checked kmalloc-32 */
	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	kfree(p);
	log = log_since(log_pos);
	if (!cache_has_sheaves(s)) {
		KUNIT_EXPECT_NOT_NULL(test, strstr(log, "BUG kmalloc-32 (Not tainted): Object "
						   "already free"));
		KUNIT_EXPECT_EQ(test, count_substr(log, "KASAN"), 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG"), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "BUG: KASAN: double-free in kmalloc_double_free+0x"));
	snprintf(line, sizeof(line), "Free of addr %px by CPU ", p);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, line), "want '%s'", line);
	expect_stack_names(test, log, "Freed by CPU", "kmalloc_double_free");
	log_pos = printk_log_pos();
	kmem_cache_shrink(s);		/* out of the quarantine: into its slab once */
	expect_no_report(test, "shrinking the cache");
}

/* ------------------------------------------- freed objects through the slab's API */

/*
 * ksize() of a freed object: reported as the use after free it is, and 0,
 * so that a caller has nothing to write to.  The object stays freed: a
 * read of it is still caught.
 */
static void ksize_uaf(struct kunit *test)
{
	size_t size = 120;
	const char *log;
	u8 *p = kmalloc(size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	KUNIT_EXPECT_EQ(test, ksize(p), 0);
	log = expect_report(test, "slab-use-after-free", "ksize_uaf", "Read", 1, p);
	expect_object(test, log, p, "kmalloc-128", 128, "0 bytes inside of", "freed", 128);
	(void)READ_ONCE(p[size - 1]);
	expect_report(test, "slab-use-after-free", "ksize_uaf", "Read", 1, p + size - 1);
}

/* krealloc() of a freed object: reported, NULL, and not handed back in place. */
static void krealloc_uaf(struct kunit *test)
{
	u8 *p = kmalloc(201, GFP_KERNEL), *q;

	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	q = krealloc(p, 235, GFP_KERNEL);	/* kmalloc-256 would hold it in place */
	KUNIT_EXPECT_NULL(test, q);
	expect_report(test, "slab-use-after-free", "krealloc_uaf", "Read", 1, p);
	(void)READ_ONCE(p[0]);
	expect_report(test, "slab-use-after-free", "krealloc_uaf", "Read", 1, p);
}

/*
 * kfree_sensitive() twice: one double-free report, and the object is neither
 * zeroed nor freed again (in the quarantine once: shrinking the cache gives
 * it back to its slab once, quietly).
 */
static void kmalloc_double_kzfree(struct kunit *test)
{
	struct kmem_cache *s = kmalloc_caches[kmalloc_index(16)];
	const char *log;
	u8 *p = kmalloc(16, GFP_KERNEL);
	char line[96];

	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree_sensitive(p);
	OPTIMIZER_HIDE_VAR(p);
	kfree_sensitive(p);
	log = log_since(log_pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG"), 1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "BUG: KASAN: double-free in "
					   "kmalloc_double_kzfree+0x"));
	snprintf(line, sizeof(line), "Free of addr %px by CPU ", p);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, line), "want '%s'", line);
	expect_stack_names(test, log, "Freed by CPU", "kmalloc_double_kzfree");
	log_pos = printk_log_pos();
	kmem_cache_shrink(s);
	if (!cache_has_sheaves(s))	/* its poison is intact: the second call wrote nothing */
		KUNIT_EXPECT_EQ(test, validate_slab_cache(s), 0);
	expect_no_report(test, "shrinking the cache");
}

/*
 * ksize() is a query (Linux since 6.2): the bytes past the size asked for
 * stay poisoned.  A caller that wants them asks for them: krealloc() to
 * ksize() (in place), or kmalloc(kmalloc_size_roundup(size)).
 */
static void ksize_keeps_the_tail_poisoned(struct kunit *test)
{
	u8 *p = kmalloc(13, GFP_KERNEL);
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, p);
	n = ksize(p);
	KUNIT_EXPECT_EQ(test, n, 16);
	p[12] = 1;
	expect_no_report(test, "the last byte asked for");
	OPTIMIZER_HIDE_VAR(p);
	(void)READ_ONCE(p[13]);
	expect_report(test, "slab-out-of-bounds", "ksize_keeps_the_tail_poisoned", "Read", 1,
		      p + 13);
	(void)READ_ONCE(p[n - 1]);
	expect_report(test, "slab-out-of-bounds", "ksize_keeps_the_tail_poisoned", "Read", 1,
		      p + n - 1);
	KUNIT_EXPECT_PTR_EQ(test, krealloc(p, n, GFP_KERNEL), (void *)p);
	p[n - 1] = 2;
	kfree(p);
	p = kmalloc(kmalloc_size_roundup(13), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p[15] = 3;
	kfree_sensitive(p);		/* zeroes all of ksize(), poisoned tail or not */
	expect_no_report(test, "krealloc() to ksize(), kmalloc_size_roundup(), kfree_sensitive()");
}

/* ---------------------------------------------------------------- what is fine */

/* Every byte that is the caller's, and nothing is reported. */
static void correct_accesses_not_reported(struct kunit *test)
{
	char stack_array[10];
	struct page *page;
	u8 *p, *v, *big;
	size_t n;

	for (unsigned int i = 0; i < ARRAY_SIZE(oob_sizes); i++) {
		p = kmalloc(oob_sizes[i], GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		memset(p, 1, oob_sizes[i]);
		p[oob_sizes[i] - 1] = 2;
		kfree(p);
	}
	p = kmalloc(13, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	n = ksize(p);			/* 16, of which 13 may be used... */
	p = krealloc(p, n, GFP_KERNEL);	/* ...until krealloc() gives the rest, in place */
	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, 3, n);
	p[n - 1] = 4;
	kfree_sensitive(p);
	big = kmalloc(KMALLOC_MAX_CACHE_SIZE + 10, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 5, KMALLOC_MAX_CACHE_SIZE + 10);
	kfree(big);
	v = vmalloc(3000);
	KUNIT_ASSERT_NOT_NULL(test, v);
	memset(v, 6, 3000);
	vfree(v);
	page = alloc_pages(GFP_KERNEL, 1);
	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page_address(page), 7, 2 * PAGE_SIZE);
	__free_pages(page, 1);
	memset(global_array, 8, sizeof(global_array));
	memset(stack_array, 9, sizeof(stack_array));
	KUNIT_EXPECT_EQ(test, READ_ONCE(stack_array[9]) + READ_ONCE(global_array[9]), 17);
	expect_no_report(test, "correct accesses");
}

/* krealloc() to fewer bytes in place: the bytes given up are a redzone again. */
static void krealloc_less_oob(struct kunit *test)
{
	u8 *p = kmalloc(60, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p = krealloc(p, 20, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p[19] = 1;
	expect_no_report(test, "the last byte krealloc() kept");
	OPTIMIZER_HIDE_VAR(p);
	p[20] = 1;
	expect_report(test, "slab-out-of-bounds", "krealloc_less_oob", "Write", 1, p + 20);
	kfree(p);
}

/*
 * kvrealloc() in place: vmalloc memory grown within its pages may be used
 * to its new end (and is zeroed with __GFP_ZERO); shrunk, what it gave up
 * is caught again.  Slab memory likewise.
 */
static void kvrealloc_in_place(struct kunit *test)
{
	u8 *v = vmalloc(5000), *p;

	KUNIT_ASSERT_NOT_NULL(test, v);
	p = kvrealloc(v, 8000, GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_PTR_EQ(test, p, v);		/* two pages hold 8000 bytes */
	KUNIT_EXPECT_EQ(test, p[7999], 0);
	p[7999] = 1;
	expect_no_report(test, "the last byte kvrealloc() gave");
	p = kvrealloc(p, 6000, GFP_KERNEL);
	KUNIT_ASSERT_PTR_EQ(test, p, v);
	OPTIMIZER_HIDE_VAR(p);
	p[6000] = 1;
	expect_report(test, "vmalloc-out-of-bounds", "kvrealloc_in_place", "Write", 1, p + 6000);
	kvfree(p);

	p = kvmalloc(100, GFP_KERNEL);		/* kmalloc-128 */
	KUNIT_ASSERT_NOT_NULL(test, p);
	p = kvrealloc(p, 120, GFP_KERNEL);
	p[119] = 1;
	expect_no_report(test, "the last byte kvrealloc() gave (slab)");
	p = kvrealloc(p, 50, GFP_KERNEL);
	OPTIMIZER_HIDE_VAR(p);
	p[50] = 1;
	expect_report(test, "slab-out-of-bounds", "kvrealloc_in_place", "Write", 1, p + 50);
	kvfree(p);
}

/* vfree_atomic() links the area through its first word: even one of a single byte. */
static void vfree_atomic_of_one_byte(struct kunit *test)
{
	u8 *v = vmalloc(1);

	KUNIT_ASSERT_NOT_NULL(test, v);
	vfree_atomic(v);
	expect_no_report(test, "vfree_atomic() of a one-byte area");
}

static struct kunit_case kasan_cases[] = {
	KUNIT_CASE(kmalloc_oob_right),
	KUNIT_CASE(kmalloc_oob_left),
	KUNIT_CASE(kmem_cache_oob),
	KUNIT_CASE(kmalloc_memset_oob),
	KUNIT_CASE(kmalloc_large_oob_right),
	KUNIT_CASE(page_oob_right),
	KUNIT_CASE(vmalloc_oob),
	KUNIT_CASE(global_oob),
	KUNIT_CASE(stack_oob),
	KUNIT_CASE(kasan_alloca_oob_left),
	KUNIT_CASE(kasan_alloca_oob_right),
	KUNIT_CASE(kasan_memchr),
	KUNIT_CASE(kasan_memcmp),
	KUNIT_CASE(kasan_strings),
	KUNIT_CASE(kmalloc_uaf),
	KUNIT_CASE(kmalloc_uaf_after_reuse),
	KUNIT_CASE(page_uaf),
	KUNIT_CASE(vmalloc_uaf),
	KUNIT_CASE(kmalloc_double_free),
	KUNIT_CASE(ksize_uaf),
	KUNIT_CASE(krealloc_uaf),
	KUNIT_CASE(kmalloc_double_kzfree),
	KUNIT_CASE(ksize_keeps_the_tail_poisoned),
	KUNIT_CASE(correct_accesses_not_reported),
	KUNIT_CASE(krealloc_less_oob),
	KUNIT_CASE(kvrealloc_in_place),
	KUNIT_CASE(vfree_atomic_of_one_byte),
	{}
};

static struct kunit_suite kasan_suite = {
	.name = "kasan",
	.init = kasan_test_init,
	.test_cases = kasan_cases,
	.strict = true,
};

kunit_test_suite(kasan_suite);
