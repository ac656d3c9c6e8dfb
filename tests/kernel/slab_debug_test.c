/*
 * tests/kernel/slab_debug_test.c - slab debugging catches each misuse,
 * reports it once in Linux's form, and leaves the cache working.
 *
 * Every case runs twice: on a cache of its own, created with SLAB_POISON,
 * SLAB_RED_ZONE, SLAB_STORE_USER and SLAB_CONSISTENCY_CHECKS (so it is
 * checked in every boot), and on kmalloc-64, which is checked only when
 * the kernel debugs every cache (booted with slab_debug, or built with
 * CONFIG_SLUB_DEBUG_ON; in the default boot those runs skip).  Each misuse:
 *
 *   double free                    BUG ...: Object already free
 *   free of an interior pointer    BUG ...: Invalid object pointer
 *   free into the wrong cache      BUG ...: kmem_cache_free: Wrong slab cache
 *   a redzone overwritten          BUG ...: Left/Right Redzone overwritten (at free; validate)
 *   write after free               BUG ...: Poison overwritten (at the next allocation; validate)
 *   freelist pointer overwritten   BUG ...: Freelist pointer corrupted (at the next allocation)
 *   kmem_cache_destroy() too soon  BUG ...: Objects remaining on __kmem_cache_shutdown()
 *
 * must print exactly one BUG report (and count one slab_errors or
 * slab_bad_free event) with what a reader needs: the object, its bytes and
 * who allocated and freed it, and the FIX line saying what was done about
 * it (a bad pointer handed to a free is named with its caller, and nothing
 * is done; a broken freelist pointer is named with where it pointed).
 * Then the cache must still work: validate_slab_cache() finds nothing,
 * new objects are real and distinct, and nothing the test holds changed.
 *
 * The two caches of the suite live as long as the kernel: a write after
 * free or a broken freelist makes the allocator set objects aside for good
 * (as Linux does), so such a cache could never be destroyed cleanly.
 */
#include "slab_test.h"

#define DEBUG_ALL	(SLAB_POISON | SLAB_RED_ZONE | SLAB_STORE_USER | SLAB_CONSISTENCY_CHECKS)
#define OWN_SIZE	52	/* not a multiple of 8: a right redzone of 4 bytes */
#define MAX_HELD	256

static struct kmem_cache *own_cache;	/* DEBUG_ALL, OWN_SIZE bytes */
static struct kmem_cache *plain_cache;	/* no flags: checked only if slab_debug= says so */

static const struct debug_target {
	bool kmalloc;
	const char *desc;
} targets[] = {
	{ false, "own cache" },
	{ true, "kmalloc-64" },
};

KUNIT_ARRAY_PARAM_DESC(targets, targets, desc);

static struct debug_ctx {
	struct kmem_cache *s;		/* the cache under test */
	bool kmalloc;			/* kmalloc()/kfree() rather than kmem_cache_*() */
	void *held[MAX_HELD];		/* objects the case holds: freed by exit */
	struct kmem_cache *held_cache[MAX_HELD];
	unsigned int nr_held;
	unsigned long inuse_before;
	unsigned long pos, errors, bad_frees;	/* the log and counters at mark() */
} ctx;

/* ---------------------------------------------------------------- helpers */

/* Allocate from the cache under test; the report names this function as the allocator. */
static __noinline void *obj_alloc(void)
{
	return ctx.kmalloc ? kmalloc(OWN_SIZE + 8, GFP_KERNEL) : kmem_cache_alloc(ctx.s, GFP_KERNEL);
}

/* Free into the cache under test; the report names this function as the freer. */
static __noinline void obj_free(void *p)
{
	if (ctx.kmalloc)
		kfree(p);
	else
		kmem_cache_free(ctx.s, p);
}

/* Keep @p of @s until the case ends. */
static void *hold(struct kunit *test, struct kmem_cache *s, void *p)
{
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_LT(test, ctx.nr_held, MAX_HELD);
	ctx.held_cache[ctx.nr_held] = s;
	ctx.held[ctx.nr_held++] = p;
	return p;
}

/* Stop holding @p (the case freed it). */
static void unhold(void *p)
{
	for (unsigned int i = 0; i < ctx.nr_held; i++) {
		if (ctx.held[i] == p) {
			ctx.held[i] = ctx.held[--ctx.nr_held];
			ctx.held_cache[i] = ctx.held_cache[ctx.nr_held];
			return;
		}
	}
}

/*
 * Two objects of one slab: @x, and @y to keep the slab alive when @x is
 * freed.  The slab is then at the head of its node's partial list once @x
 * is free, with @x first on its freelist: the next allocation (of a
 * checked cache, which has no sheaves) takes @x.
 */
static void alloc_pair(struct kunit *test, void **x, void **y)
{
	void *a = hold(test, ctx.s, obj_alloc());

	for (int tries = 0; tries < 64; tries++) {
		void *b = hold(test, ctx.s, obj_alloc());

		if (virt_to_head_page(a) == virt_to_head_page(b)) {
			*y = a;
			*x = b;
			return;
		}
		a = b;
	}
	KUNIT_ASSERT_TRUE_MSG(test, false, "no two consecutive objects of %s in one slab",
			      ctx.s->name);
}

/* Objects of @s the case holds. */
static unsigned long nr_held_of(struct kmem_cache *s)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i < ctx.nr_held; i++)
		n += ctx.held_cache[i] == s;
	return n;
}

/* Allocated objects of the cache under test: what it had, and what the case holds. */
static void expect_in_use_as_held(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cache_objects_in_use(ctx.s), ctx.inuse_before + nr_held_of(ctx.s));
}

static void mark(void)
{
	ctx.pos = printk_log_pos();
	ctx.errors = global_vm_event(SLAB_ERRORS);
	ctx.bad_frees = global_vm_event(SLAB_BAD_FREE);
}

static bool logged(const char *log, const char *fmt, ...) __printf(2, 3);

/* Is the line formatted from @fmt in @log? */
static bool logged(const char *log, const char *fmt, ...)
{
	char want[192];
	va_list args;

	va_start(args, fmt);
	vsnprintf(want, sizeof(want), fmt, args);
	va_end(args);
	return strstr(log, want);
}

/*
 * Exactly one report since mark(): one "BUG <cache> (Not tainted): <what>"
 * and one event counted.  Returns the log, for the rest of the report.
 */
static const char *expect_one_bug(struct kunit *test, const char *what)
{
	const char *log = log_since(ctx.pos);
	char line[128];

	snprintf(line, sizeof(line), "BUG %s (Not tainted): %s", ctx.s->name, what);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "BUG"), 1, "want one '%s'", line);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, line), 1, "want '%s'", line);
	KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_ERRORS) - ctx.errors, 1);
	return log;
}

/* The object's bytes, starting with @first, and who allocated (and freed) it. */
static void expect_object_shown(struct kunit *test, const char *log, void *obj, u8 first,
				bool freed)
{
	KUNIT_EXPECT_TRUE_MSG(test, logged(log, "Object   %px: %02x", obj, first),
			      "no dump of object %px starting %02x", obj, first);
	KUNIT_EXPECT_TRUE(test, logged(log, "Allocated in obj_alloc"));
	if (freed)
		KUNIT_EXPECT_TRUE(test, logged(log, "Freed in obj_free"));
}

/* Nothing was reported since mark(). */
static void expect_quiet(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, count_substr(log_since(ctx.pos), "BUG"), 0);
	KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_ERRORS), ctx.errors);
}

/*
 * The cache still works: its slabs are sound, and a few slabs' worth of
 * new objects are real, distinct and usable, without a report.
 */
static void expect_cache_works(struct kunit *test, struct kmem_cache *s, const void *never)
{
	unsigned int n = min(2U * s->objects + 3, (unsigned int)MAX_HELD - ctx.nr_held);
	void **objs = &ctx.held[ctx.nr_held];

	mark();
	KUNIT_EXPECT_EQ(test, validate_slab_cache(s), 0);
	for (unsigned int i = 0; i < n; i++) {
		u8 *p = hold(test, s, s == ctx.s ? obj_alloc() : kmem_cache_alloc(s, GFP_KERNEL));

		KUNIT_EXPECT_TRUE_MSG(test, is_object_of(s, p), "%px is no object of %s", p,
				      s->name);
		KUNIT_EXPECT_PTR_NE(test, (const void *)p, never);
		for (unsigned int j = 0; j < i; j++)
			KUNIT_ASSERT_PTR_NE_MSG(test, objs[j], (void *)p, "handed out twice");
		memset(p, 0x3c, s->object_size);
	}
	for (unsigned int i = 0; i < n; i++) {
		void *p = ctx.held[--ctx.nr_held];

		if (s == ctx.s)
			obj_free(p);
		else
			kmem_cache_free(s, p);
	}
	KUNIT_EXPECT_EQ(test, validate_slab_cache(s), 0);
	expect_quiet(test);
}

/*
 * The cases break objects on purpose to see slab debugging's reports: in a
 * KASAN kernel, KASAN would report each bad access first, so it is off on
 * this CPU from init to exit.
 */
static int debug_init(struct kunit *test)
{
	const struct debug_target *t = test->param_value;

	kasan_disable_current();
	memset(&ctx, 0, sizeof(ctx));
	ctx.kmalloc = t && t->kmalloc;
	ctx.s = ctx.kmalloc ? kmalloc_caches[kmalloc_index(OWN_SIZE + 8)] : own_cache;
	if (!ctx.s)
		return -1;
	ctx.inuse_before = cache_objects_in_use(ctx.s);
	mark();
	return 0;
}

static void debug_exit(struct kunit *test)
{
	(void)test;
	kasan_enable_current();
	while (ctx.nr_held) {
		void *p = ctx.held[--ctx.nr_held];

		if (ctx.held_cache[ctx.nr_held] == ctx.s)
			obj_free(p);
		else if (ctx.held_cache[ctx.nr_held])
			kmem_cache_free(ctx.held_cache[ctx.nr_held], p);
		else
			kfree(p);
	}
}

/* The kmalloc runs need kmalloc-64 to be checked; say why they skip when it is not. */
static void need_debugging(struct kunit *test)
{
	if (!cache_fully_checked(ctx.s))
		kunit_skip(test, "%s is not checked (no slab_debug); the own cache's run is",
			   ctx.s->name);
}

/* ---------------------------------------------------------------- the cases */

/* The bytes of each state, as Linux's: poison 6b..a5, redzones bb free / cc in use, 5a unused. */
static void poison_and_redzone_values(struct kunit *test)
{
	u8 *x, *y, *tail, *end;
	struct page *slab;

	need_debugging(test);
	alloc_pair(test, (void **)&x, (void **)&y);
	slab = virt_to_head_page(x);
	for (unsigned int i = 0; i < ctx.s->red_left_pad; i++)
		KUNIT_EXPECT_EQ_MSG(test, x[-1 - (int)i], 0xcc, "left redzone byte %u", i);
	for (unsigned int i = ctx.s->object_size; i < ctx.s->inuse; i++)
		KUNIT_EXPECT_EQ_MSG(test, x[i], 0xcc, "right redzone byte %u", i);
	unhold(x);
	obj_free(x);
	for (unsigned int i = 0; i + 1 < ctx.s->object_size; i++)
		KUNIT_EXPECT_EQ_MSG(test, x[i], 0x6b, "poison byte %u", i);
	KUNIT_EXPECT_EQ(test, x[ctx.s->object_size - 1], 0xa5);
	for (unsigned int i = 0; i < ctx.s->red_left_pad; i++)
		KUNIT_EXPECT_EQ_MSG(test, x[-1 - (int)i], 0xbb, "left redzone byte %u", i);
	for (unsigned int i = ctx.s->object_size; i < ctx.s->inuse; i++)
		KUNIT_EXPECT_EQ_MSG(test, x[i], 0xbb, "right redzone byte %u", i);
	/* what no object uses, after the last one */
	tail = (u8 *)slab_address(slab) + slab->objects * ctx.s->size;
	end = (u8 *)slab_address(slab) + (PAGE_SIZE << ctx.s->order);
	for (u8 *p = tail; p < end; p++)
		KUNIT_EXPECT_EQ_MSG(test, *p, 0x5a, "slab tail byte %ld", (long)(p - tail));
	expect_quiet(test);
}

static void double_free(struct kunit *test)
{
	void *x, *y, *z;
	const char *log;

	kunit_expect_report(test, "Object already free");
	need_debugging(test);
	alloc_pair(test, &x, &y);
	z = hold(test, ctx.s, obj_alloc());
	unhold(x);
	obj_free(x);
	unhold(z);
	obj_free(z);		/* so that x is not first on the freelist */
	mark();
	obj_free(x);
	log = expect_one_bug(test, "Object already free");
	KUNIT_EXPECT_TRUE(test, logged(log, "Object %px freed again by obj_free", x));
	expect_object_shown(test, log, x, 0x6b, true);
	KUNIT_EXPECT_TRUE(test, logged(log, "FIX %s: Object not freed (object %px)", ctx.s->name,
				       x));
	expect_in_use_as_held(test);	/* y is still held */
	expect_cache_works(test, ctx.s, NULL);
}

static void free_of_interior_pointer(struct kunit *test)
{
	const unsigned int offsets[] = { 1, 8, OWN_SIZE / 2, OWN_SIZE - 1 };
	u8 *x;

	kunit_expect_report(test, "Invalid object pointer");
	need_debugging(test);
	x = hold(test, ctx.s, obj_alloc());
	memset(x, 0x11, OWN_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(offsets); i++) {
		const char *log;

		mark();
		obj_free(x + offsets[i]);
		log = expect_one_bug(test, "Invalid object pointer");
		KUNIT_EXPECT_TRUE(test, logged(log, "Invalid object pointer %px: not the start of "
					       "an object (freed by obj_free", x + offsets[i]));
		KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_BAD_FREE) - ctx.bad_frees, 1);
	}
	/* into the left redzone: still not an object */
	mark();
	obj_free(x - 1);
	expect_one_bug(test, "Invalid object pointer");
	/* x itself was never freed: untouched, and its free is clean */
	for (unsigned int i = 0; i < OWN_SIZE; i++)
		KUNIT_ASSERT_EQ_MSG(test, x[i], 0x11, "byte %u", i);
	mark();
	unhold(x);
	obj_free(x);
	expect_quiet(test);
	expect_in_use_as_held(test);
	expect_cache_works(test, ctx.s, NULL);
}

static void free_into_the_wrong_cache(struct kunit *test)
{
	struct kmem_cache *other = kmalloc_caches[kmalloc_index(128)];
	void *x, *k, *large;
	const char *log;

	kunit_expect_report(test, "kmem_cache_free: Wrong slab cache");
	need_debugging(test);
	x = hold(test, ctx.s, obj_alloc());
	k = hold(test, NULL, kmalloc(128, GFP_KERNEL));
	large = hold(test, NULL, kmalloc(20000, GFP_KERNEL));

	/* an object of ours freed into another cache */
	mark();
	kmem_cache_free(other, x);
	log = log_since(ctx.pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG"), 1);
	KUNIT_EXPECT_TRUE(test, logged(log, "BUG %s: kmem_cache_free: Wrong slab cache. %s but "
				       "object %px is from %s (freed by free_into_the_wrong_cache",
				       other->name, other->name, x, ctx.s->name));
	KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_BAD_FREE) - ctx.bad_frees, 1);

	/* kmalloc memory freed into our cache: a slab object, then whole pages */
	mark();
	kmem_cache_free(ctx.s, k);
	log = log_since(ctx.pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG"), 1);
	KUNIT_EXPECT_TRUE(test, logged(log, "Wrong slab cache. %s but object %px is from %s",
				       ctx.s->name, k, other->name));
	mark();
	kmem_cache_free(ctx.s, large);
	log = log_since(ctx.pos);
	KUNIT_EXPECT_EQ(test, count_substr(log, "BUG"), 1);
	KUNIT_EXPECT_TRUE(test, logged(log, "Wrong slab cache. %s but object %px is from kmalloc "
				       "large pages", ctx.s->name, large));
	KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_BAD_FREE) - ctx.bad_frees, 1);

	/* nothing was freed: x is in use, and k and large free cleanly (freed twice: reported) */
	expect_in_use_as_held(test);
	KUNIT_EXPECT_EQ(test, ksize(large), PAGE_SIZE << get_order(20000));
	mark();
	unhold(x);
	obj_free(x);
	unhold(k);
	kfree(k);
	unhold(large);
	kfree(large);
	expect_quiet(test);
	KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_BAD_FREE), ctx.bad_frees);
	expect_cache_works(test, ctx.s, NULL);
}

/* Overwrite one byte of @x's redzone (@left, else right) with 0x41; returns its offset. */
static int hit_redzone(u8 *x, bool left)
{
	int off = left ? -1 : (int)ctx.s->object_size;

	x[off] = 0x41;
	return off;
}

static void expect_redzone_report(struct kunit *test, u8 *x, bool left, int off, u8 was,
				  bool freed)
{
	const char *log = expect_one_bug(test, left ? "Left Redzone overwritten" :
					 "Right Redzone overwritten");

	KUNIT_EXPECT_TRUE(test, logged(log, "%px-", x + off));
	KUNIT_EXPECT_TRUE(test, logged(log, "@offset=%d. First byte 0x41 instead of %#x", off,
				       was));
	expect_object_shown(test, log, x, freed ? 0x6b : 0x22, freed);
	KUNIT_EXPECT_TRUE(test, logged(log, "Redzone  %px:", left ? x - ctx.s->red_left_pad :
				       x + ctx.s->object_size));
	KUNIT_EXPECT_TRUE(test, logged(log, "FIX %s: Restoring redzone (object %px)", ctx.s->name,
				       x));
}

static void redzone_overwritten_found_at_free(struct kunit *test)
{
	kunit_expect_report(test, "Left Redzone overwritten");
	kunit_expect_report(test, "Right Redzone overwritten");
	need_debugging(test);
	for (int left = 1; left >= 0; left--) {
		u8 *x = hold(test, ctx.s, obj_alloc());
		int off;

		memset(x, 0x22, OWN_SIZE);
		off = hit_redzone(x, left);
		mark();
		unhold(x);
		obj_free(x);
		expect_redzone_report(test, x, left, off, 0xcc, false);
		/* restored, and the free went ahead: x is free with an intact redzone */
		KUNIT_EXPECT_EQ(test, x[off], 0xbb);
	}
	expect_in_use_as_held(test);
	expect_cache_works(test, ctx.s, NULL);
}

static void redzone_overwritten_found_by_validate(struct kunit *test)
{
	kunit_expect_report(test, "Left Redzone overwritten");
	kunit_expect_report(test, "Right Redzone overwritten");
	need_debugging(test);
	for (int left = 1; left >= 0; left--) {
		u8 *x = hold(test, ctx.s, obj_alloc());
		int off;

		memset(x, 0x22, OWN_SIZE);
		off = hit_redzone(x, left);
		mark();
		KUNIT_EXPECT_EQ(test, validate_slab_cache(ctx.s), 1);
		expect_redzone_report(test, x, left, off, 0xcc, false);
		KUNIT_EXPECT_EQ(test, x[off], 0xcc);	/* restored: the free is clean */
		mark();
		unhold(x);
		obj_free(x);
		expect_quiet(test);
	}
	/* and a free object's redzone (0xbb) */
	{
		void *x, *y;
		int off;

		alloc_pair(test, &x, &y);
		unhold(x);
		obj_free(x);
		off = hit_redzone(x, false);
		mark();
		KUNIT_EXPECT_EQ(test, validate_slab_cache(ctx.s), 1);
		expect_redzone_report(test, x, false, off, 0xbb, true);
	}
	expect_in_use_as_held(test);	/* y is still held */
	expect_cache_works(test, ctx.s, NULL);
}

static void expect_poison_report(struct kunit *test, const char *log, u8 *x, int off)
{
	KUNIT_EXPECT_TRUE(test, logged(log, "%px-", x + off));
	KUNIT_EXPECT_TRUE(test, logged(log, "@offset=%d. First byte 0x41 instead of 0x6b", off));
	expect_object_shown(test, log, x, off ? 0x6b : 0x41, true);
	KUNIT_EXPECT_TRUE(test, logged(log, "FIX %s: Restoring poison (object %px)", ctx.s->name,
				       x));
}

static void write_after_free_found_at_next_alloc(struct kunit *test)
{
	void *x, *y, *p;
	const char *log;

	kunit_expect_report(test, "Poison overwritten");
	need_debugging(test);
	alloc_pair(test, &x, &y);
	unhold(x);
	obj_free(x);
	((u8 *)x)[10] = 0x41;
	mark();
	p = hold(test, ctx.s, obj_alloc());	/* would have been x */
	log = expect_one_bug(test, "Poison overwritten");
	expect_poison_report(test, log, x, 10);
	KUNIT_EXPECT_PTR_NE(test, p, x);
	KUNIT_EXPECT_TRUE(test, is_object_of(ctx.s, p));
	/* x is set aside: never handed out again */
	expect_cache_works(test, ctx.s, x);
}

static void write_after_free_found_by_validate(struct kunit *test)
{
	void *x, *y, *p;
	const char *log;

	kunit_expect_report(test, "Poison overwritten");
	need_debugging(test);
	alloc_pair(test, &x, &y);
	unhold(x);
	obj_free(x);
	((u8 *)x)[ctx.s->object_size - 1] = 0x41;	/* the 0xa5 at the end */
	mark();
	KUNIT_EXPECT_EQ(test, validate_slab_cache(ctx.s), 1);
	log = expect_one_bug(test, "Poison overwritten");
	KUNIT_EXPECT_TRUE(test, logged(log, "@offset=%u. First byte 0x41 instead of 0xa5",
				       ctx.s->object_size - 1));
	KUNIT_EXPECT_TRUE(test, logged(log, "FIX %s: Restoring poison (object %px)", ctx.s->name,
				       x));
	/* put right: x is handed out again, with no report */
	mark();
	p = hold(test, ctx.s, obj_alloc());
	KUNIT_EXPECT_PTR_EQ(test, p, x);
	expect_quiet(test);
	expect_in_use_as_held(test);
	expect_cache_works(test, ctx.s, NULL);
}

static u8 wild_target[64];	/* where a stray write aims the freelist */

/*
 * Allocate from @s's slabs on this CPU's memory node, bypassing the
 * sheaves: the freelist is read now.
 */
static __noinline void *alloc_from_slab(struct kmem_cache *s)
{
	if (ctx.kmalloc)
		return kmalloc_node(OWN_SIZE + 8, GFP_KERNEL, numa_mem_id());
	return kmem_cache_alloc_node(s, GFP_KERNEL, numa_mem_id());
}

/*
 * A stray write into a free object's free pointer (on the own runs a cache
 * without poisoning when slab_debug=-, where the pointer sits inside the
 * object): once aimed at other memory, as an attacker would, once with
 * junk.  The next allocation from that slab reports it and hands out
 * nothing but real objects.
 */
static void freelist_pointer_overwritten(struct kunit *test)
{
	struct kmem_cache *s;

	kunit_expect_report(test, "Freelist pointer corrupted");
	need_debugging(test);
	s = ctx.kmalloc ? ctx.s : plain_cache;
	for (int junk = 0; junk < 2; junk++) {
		unsigned long *where, aim = (unsigned long)wild_target;
		void *y, *z, *p;
		struct page *slab;
		const char *log;
		char line[96];

		/* y keeps a slab at the head of the partial list; z is next on its freelist */
		do {
			y = hold(test, s, alloc_from_slab(s));
			slab = virt_to_head_page(y);
			z = slab_freelist(s, slab);
		} while (!z);
		where = (unsigned long *)((char *)z + s->offset);
		*where = junk ? 0x4141414141414141UL :
			 aim ^ s->random ^ __builtin_bswap64((unsigned long)where);
		mark();
		p = hold(test, s, alloc_from_slab(s));
		log = log_since(ctx.pos);
		snprintf(line, sizeof(line), "BUG %s (Not tainted): Freelist pointer corrupted "
			 "in free object %px", s->name, z);
		KUNIT_EXPECT_EQ(test, count_substr(log, "BUG"), 1);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, line), 1, "want '%s'", line);
		if (!junk)
			KUNIT_EXPECT_TRUE(test, logged(log, "(it decodes to %px)", wild_target));
		KUNIT_EXPECT_TRUE(test, logged(log, "FIX %s: ", s->name));
		KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_ERRORS) - ctx.errors, 1);
		/* z itself is a real object; what it pointed to is never handed out */
		KUNIT_EXPECT_PTR_EQ(test, p, z);
		KUNIT_EXPECT_TRUE(test, is_object_of(s, p));
		expect_cache_works(test, s, wild_target);
	}
}

static __noinline void *leak_alloc(struct kmem_cache *s)
{
	return kmem_cache_alloc(s, GFP_KERNEL);
}

static bool cache_listed(const struct kmem_cache *s)
{
	struct kmem_cache *c;
	bool found = false;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list)
		found |= c == s;
	spin_unlock(&slab_caches_lock);
	return found;
}

/*
 * kmem_cache_destroy() of a cache with objects still allocated reports a
 * leak: the cache, how many, and (SLAB_STORE_USER) who allocated each; the
 * cache is kept and still works.  Once they are freed it is destroyed
 * quietly.  With all flags, and with none (the sheaves are flushed before
 * counting, under slab_debug=-).
 */
static void destroy_with_live_objects(struct kunit *test)
{
	static const slab_flags_t flag_sets[] = { DEBUG_ALL, 0 };

	kunit_expect_report(test, "Objects remaining on __kmem_cache_shutdown()");
	for (unsigned int f = 0; f < ARRAY_SIZE(flag_sets); f++) {
		struct kmem_cache *s = kmem_cache_create("slab_debug_leak", 100, 0, flag_sets[f],
							 NULL);
		void *objs[3], *p;
		const char *log;

		KUNIT_ASSERT_NOT_NULL(test, s);
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
			objs[i] = hold(test, s, leak_alloc(s));
		mark();
		kmem_cache_destroy(s);
		log = log_since(ctx.pos);
		KUNIT_EXPECT_EQ(test, count_substr(log, "BUG"), 1);
		KUNIT_EXPECT_EQ(test, count_substr(log, "BUG slab_debug_leak (Not tainted): Objects "
						   "remaining on __kmem_cache_shutdown()"), 1);
		KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_ERRORS) - ctx.errors, 1);
		KUNIT_EXPECT_TRUE(test, logged(log, "slab_debug_leak: 3 objects still allocated"));
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
			if (s->flags & SLAB_STORE_USER)
				KUNIT_EXPECT_TRUE(test, logged(log, "Object %px allocated in leak_alloc",
							       objs[i]));
			else
				KUNIT_EXPECT_TRUE(test, logged(log, "Object %px\n", objs[i]));
		}
		KUNIT_EXPECT_TRUE(test, logged(log, "kmem_cache_destroy slab_debug_leak: Slab cache "
					       "still has objects: not destroyed"));
		/* kept, and still a working cache */
		KUNIT_EXPECT_TRUE(test, cache_listed(s));
		p = leak_alloc(s);
		KUNIT_EXPECT_TRUE(test, is_object_of(s, p));
		kmem_cache_free(s, p);
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
			unhold(objs[i]);
			kmem_cache_free(s, objs[i]);
		}
		mark();
		kmem_cache_destroy(s);
		expect_quiet(test);
		KUNIT_EXPECT_FALSE(test, cache_listed(s));
	}
}

/*
 * SLAB_STORE_USER alone (slab_debug=U): no poison, no redzone, so the free
 * pointer lives inside the object and the tracks after it.  They used to
 * be placed after the free pointer, inside the object: its bytes changed
 * when it was freed (kvfree_sensitive() left part of a secret behind) and
 * what its owner wrote overwrote who had allocated it.
 */
static void store_user_alone_keeps_the_objects_bytes(struct kunit *test)
{
	struct kmem_cache *s = kmem_cache_create("slab_debug_user", 128, 0, SLAB_STORE_USER, NULL);
	u8 *p, *q;
	const char *log;

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (!(s->flags & SLAB_STORE_USER)) {
		kmem_cache_destroy(s);
		kunit_skip(test, "slab_debug= turned SLAB_STORE_USER off");
	}
	kunit_expect_report(test, "Objects remaining on __kmem_cache_shutdown()");
	p = hold(test, s, leak_alloc(s));
	memset(p, 0x5c, 128);
	q = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q);
	memset(q, 0x5c, 128);
	kmem_cache_free(s, q);
	for (unsigned int i = 0; i < 128; i++) {
		KUNIT_EXPECT_EQ_MSG(test, p[i], 0x5c, "live object, byte %u", i);
		if (!(s->flags & SLAB_POISON) &&	/* slab_debug=-: U alone */
		    (i < s->offset || i >= s->offset + sizeof(void *)))
			KUNIT_EXPECT_EQ_MSG(test, q[i], 0x5c, "freed object, byte %u", i);
	}
	mark();
	kmem_cache_destroy(s);		/* p is live: reported, with who allocated it */
	log = log_since(ctx.pos);
	KUNIT_EXPECT_TRUE(test, logged(log, "Object %px allocated in leak_alloc", p));
	unhold(p);
	kmem_cache_free(s, p);
	kmem_cache_destroy(s);
}

/*
 * SLAB_TRACE (slab_debug=T): one "TRACE" line for each alloc and free of
 * the cache, naming the object and the caller.
 */
static void trace_prints_each_alloc_and_free(struct kunit *test)
{
	struct kmem_cache *s = kmem_cache_create("slab_debug_trace", 40, 0, SLAB_TRACE, NULL);
	void *p;
	const char *log;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_TRUE(test, s->flags & SLAB_TRACE);
	mark();
	p = kmem_cache_alloc(s, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	kmem_cache_free(s, p);
	log = log_since_with_traces(ctx.pos);
	KUNIT_EXPECT_TRUE(test, logged(log, "TRACE slab_debug_trace alloc 0x%px inuse=0 ", p));
	KUNIT_EXPECT_TRUE(test, logged(log, "TRACE slab_debug_trace free 0x%px inuse=1 ", p));
	KUNIT_EXPECT_EQ(test, count_substr(log, "TRACE slab_debug_trace"), 2);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "by trace_prints_each_alloc_and_free+"));
	expect_quiet(test);
	kmem_cache_destroy(s);
}

static struct kunit_case slab_debug_cases[] = {
	KUNIT_CASE_PARAM(poison_and_redzone_values, targets_gen_params),
	KUNIT_CASE_PARAM(double_free, targets_gen_params),
	KUNIT_CASE_PARAM(free_of_interior_pointer, targets_gen_params),
	KUNIT_CASE_PARAM(free_into_the_wrong_cache, targets_gen_params),
	KUNIT_CASE_PARAM(redzone_overwritten_found_at_free, targets_gen_params),
	KUNIT_CASE_PARAM(redzone_overwritten_found_by_validate, targets_gen_params),
	KUNIT_CASE_PARAM(write_after_free_found_at_next_alloc, targets_gen_params),
	KUNIT_CASE_PARAM(write_after_free_found_by_validate, targets_gen_params),
	KUNIT_CASE_PARAM(freelist_pointer_overwritten, targets_gen_params),
	KUNIT_CASE(destroy_with_live_objects),
	KUNIT_CASE(trace_prints_each_alloc_and_free),
	KUNIT_CASE(store_user_alone_keeps_the_objects_bytes),
	{}
};

static int slab_debug_suite_init(struct kunit_suite *suite)
{
	(void)suite;
	if (!own_cache)
		own_cache = kmem_cache_create("slab_debug_test", OWN_SIZE, 0, DEBUG_ALL, NULL);
	if (!plain_cache)
		plain_cache = kmem_cache_create("slab_debug_plain", 64, 0, 0, NULL);
	return own_cache && plain_cache ? 0 : -1;
}

static struct kunit_suite slab_debug_suite = {
	.name = "slab_debug",
	.suite_init = slab_debug_suite_init,
	.init = debug_init,
	.exit = debug_exit,
	.test_cases = slab_debug_cases,
	.keeps_memory = "the slabs it corrupts on purpose are taken out of service, every object "
			"marked used, as SLUB does; so its own caches cannot be destroyed",
	.strict = true,
};
kunit_test_suite(slab_debug_suite);
