/*
 * tests/kernel/fault_sweep_test.c - every failure point of every allocator
 * entry point, failed in turn.
 *
 * One entry point per parameter: alloc_pages(), the bulk allocator,
 * kmalloc() small and large, kmem_cache_alloc() that needs a new slab,
 * krealloc(), vmalloc() and its family, vmap(), a vmalloc() that needs new
 * page tables, kvmalloc() and kvrealloc().  Each is called once to count
 * its allocations, then again and again with fail-nth (kunit_fail_nth())
 * failing its 1st, 2nd, ... allocation (page, slab and vmalloc alike, all
 * made on the way: vm_structs, vmap_areas, spare nodes, page arrays,
 * pages, page tables, slabs' pages, sheaves) until a call succeeds with
 * nothing failed.  After each failed call:
 *
 *   - it returned NULL (the bulk allocator: the pages it got before the
 *     failure), or it succeeded through a documented fallback, with
 *     memory that keeps every byte written to it: kvmalloc() and
 *     kvrealloc() give vmalloc memory when their slab attempt failed,
 *     vmalloc_huge() 4 KiB pages when its 2 MiB page did, the slab an
 *     object without a sheaf, or a slab of its smallest order; a failed
 *     krealloc()/kvrealloc() left the old memory as it was;
 *   - nothing is mapped where the vmalloc area would have been, and no
 *     live area is there;
 *   - no lock of the page or slab allocator is held, and a second call
 *     succeeds (at the same address, for vmalloc: the space merged back);
 *   - no counter is off: exactly one failure injected, no allocation
 *     failure counted but kvmalloc's own;
 *   - every page is back (kvmalloc_test.h: free pages, vmalloc's page
 *     tables, slab pages, slab objects in use, vmalloc areas).
 *
 * The number of failure points swept is printed for each entry point.
 * docs/testing.md ("Fault injection") has the figures.
 */
#include "kunit/fault_inject.h"
#include "kvmalloc_test.h"
#include "page_alloc_test.h"
#include "mm/kasan.h"
#include "mm/kvmalloc.h"
#include "mm/oom.h"
#include "mm/vmalloc.h"
#include "lib/vsprintf.h"

#define MAX_POINTS	2000	/* a call with more has something wrong: it never ends */
#define COUNT_ALL	(~0U)	/* a fail-nth that never comes: it counts the points */
#define NR_BULK		16
#define NR_VMAP		4
#define OLD_SIZE	64	/* what the reallocs resize, from kmalloc */
#define FILL		0x5a

enum sweep_kind {
	PAGES, BULK, SLAB, CACHE, CREATE, KREALLOC, VMALLOC, VMAP, KVMALLOC, KVREALLOC
};

/* Which failures an entry point absorbs, succeeding anyway (its documented fallback). */
enum sweep_fallback {
	NO_FALLBACK,
	FIRST_FALLS_BACK,	/* kvmalloc: its 1st allocation is the slab attempt; vmalloc then */
	HUGE_FALLS_BACK,	/* vmalloc_huge: the 2 MiB page's failure; 4 KiB pages then */
};

struct sweep_entry {
	const char *name;
	enum sweep_kind kind;
	unsigned long size;		/* order for PAGES; else bytes (the new size of a realloc) */
	unsigned long old_size;		/* what a realloc resizes (KVREALLOC: from vmalloc if big) */
	void *(*call)(struct sweep_entry const *e, void *old);
	enum sweep_fallback fallback;
	const char *arm;		/* fail_page_alloc re-armed before each call, or NULL */
	unsigned long new_range;	/* aimed at a range this aligned that no vmalloc used yet */
	const char *only_caller;	/* sweep only the page allocations of this function */
	bool new_shadow;		/* KASAN's shadow of the new range is swept, not made first */
};

/* What the case holds while it runs; freed by the suite's exit() if it ends early. */
static struct sweep {
	struct kmem_cache *cache;	/* CACHE: a fresh one, so each call needs a new slab */
	struct page *bulk[NR_BULK];	/* BULK: the array the call fills */
	unsigned long filled;		/* ... and how many it filled */
	struct page *vmap_pages[NR_VMAP];	/* VMAP: what it maps */
	void *hold;			/* new_range: an area that keeps VMALLOC_START taken */
	void *old;			/* the reallocs' old memory */
} sw;

/* ---------------------------------------------------------------- the calls */

static void *call_alloc_pages(const struct sweep_entry *e, void *old)
{
	struct page *page = alloc_pages(GFP_KERNEL, e->size);

	(void)old;
	return page ? page_address(page) : NULL;
}

static void *call_bulk(const struct sweep_entry *e, void *old)
{
	(void)old;
	sw.filled = alloc_pages_bulk_node(GFP_KERNEL, NUMA_NO_NODE, e->size, sw.bulk);
	return sw.filled == e->size ? sw.bulk : NULL;
}

static void *call_kmalloc(const struct sweep_entry *e, void *old)
{
	(void)old;
	return kmalloc(e->size, GFP_KERNEL);
}

static void *call_cache(const struct sweep_entry *e, void *old)
{
	(void)e;
	(void)old;
	return kmem_cache_alloc(sw.cache, GFP_KERNEL);
}

static void *call_cache_create(const struct sweep_entry *e, void *old)
{
	(void)e;
	(void)old;
	return kmem_cache_create("fault_sweep_new", 64, 0, 0, NULL);
}

static void *call_krealloc(const struct sweep_entry *e, void *old)
{
	return krealloc(old, e->size, GFP_KERNEL);
}

static void *call_vmalloc(const struct sweep_entry *e, void *old)
{
	(void)old;
	return vmalloc(e->size);
}

/* The big ones are quiet: a "vmalloc error" for each of hundreds of failures says nothing. */
static void *call_vmalloc_nowarn(const struct sweep_entry *e, void *old)
{
	(void)old;
	return __vmalloc(e->size, GFP_KERNEL | __GFP_NOWARN);
}

static void *call_vzalloc(const struct sweep_entry *e, void *old)
{
	(void)old;
	return vzalloc(e->size);
}

static void *call_vmalloc_huge(const struct sweep_entry *e, void *old)
{
	(void)old;
	return vmalloc_huge(e->size, GFP_KERNEL | __GFP_NOWARN);
}

static void *call_vmap(const struct sweep_entry *e, void *old)
{
	(void)old;
	return vmap(sw.vmap_pages, e->size / PAGE_SIZE, VM_MAP, PAGE_KERNEL);
}

/* At the lowest address aligned to e->new_range (512 GiB or more): PML4 entries of its own. */
static void *call_vmalloc_new_range(const struct sweep_entry *e, void *old)
{
	(void)old;
	return __vmalloc_node(e->size, e->new_range, GFP_KERNEL, NUMA_NO_NODE,
			      __builtin_return_address(0));
}

static void *call_kvmalloc(const struct sweep_entry *e, void *old)
{
	(void)old;
	return kvmalloc(e->size, GFP_KERNEL);
}

static void *call_kvrealloc(const struct sweep_entry *e, void *old)
{
	return kvrealloc(old, e->size, GFP_KERNEL);
}

#define KIB(n)	((n) * 1024UL)

#define ENTRY(entry_name, entry_kind, entry_size, entry_call, ...)			\
	{ .name = entry_name, .kind = entry_kind, .size = entry_size, .call = entry_call,	\
	  __VA_ARGS__ }

static const struct sweep_entry entries[] = {
	ENTRY("alloc_pages order 0", PAGES, 0, call_alloc_pages),
	ENTRY("alloc_pages order 3", PAGES, 3, call_alloc_pages),
	ENTRY("alloc_pages_bulk_node 16 pages", BULK, NR_BULK, call_bulk),
	ENTRY("kmalloc 64 B", SLAB, 64, call_kmalloc),
	ENTRY("kmalloc 8 KiB", SLAB, KIB(8), call_kmalloc),
	ENTRY("kmalloc 64 KiB (pages)", SLAB, KIB(64), call_kmalloc),
	ENTRY("kmem_cache_alloc, new slab", CACHE, 0, call_cache),
	ENTRY("kmem_cache_create", CREATE, 0, call_cache_create),
	ENTRY("krealloc 64 B to 200 B", KREALLOC, 200, call_krealloc, .old_size = OLD_SIZE),
	ENTRY("vmalloc 1 page", VMALLOC, PAGE_SIZE, call_vmalloc),
	ENTRY("__vmalloc 600 pages", VMALLOC, 600 * PAGE_SIZE, call_vmalloc_nowarn),
	ENTRY("vzalloc 1 page", VMALLOC, PAGE_SIZE, call_vzalloc),
	ENTRY("vmalloc_huge 2 MiB", VMALLOC, KIB(2048), call_vmalloc_huge,
	      .fallback = HUGE_FALLS_BACK),
	ENTRY("vmalloc_huge 2 MiB, 2 MiB page failed", VMALLOC, KIB(2048), call_vmalloc_huge,
	      .fallback = HUGE_FALLS_BACK, .arm = "1,100,0,1,min-order=9"),
	ENTRY("vmap 4 pages", VMAP, NR_VMAP * PAGE_SIZE, call_vmap),
	ENTRY("vmalloc 600 pages, its new page tables", VMALLOC, 600 * PAGE_SIZE,
	      call_vmalloc_new_range, .new_range = PGDIR_SIZE, .only_caller = "kernel_pte_alloc"),
#if CONFIG_KASAN
	ENTRY("vmalloc 600 pages, its new KASAN shadow", VMALLOC, 600 * PAGE_SIZE,
	      call_vmalloc_new_range, .new_range = 2 * PGDIR_SIZE,
	      .only_caller = "kasan_populate_shadow", .new_shadow = true),
#endif
	ENTRY("kvmalloc 64 B", KVMALLOC, 64, call_kvmalloc),
	ENTRY("kvmalloc 6 KiB", KVMALLOC, KIB(6), call_kvmalloc, .fallback = FIRST_FALLS_BACK),
	ENTRY("kvmalloc 12 KiB", KVMALLOC, KIB(12), call_kvmalloc, .fallback = FIRST_FALLS_BACK),
	ENTRY("kvmalloc 12 KiB, slab attempt failed", KVMALLOC, KIB(12), call_kvmalloc,
	      .fallback = FIRST_FALLS_BACK, .arm = "1,100,0,1,min-order=2"),
	ENTRY("kvrealloc 64 B to 12 KiB", KVREALLOC, KIB(12), call_kvrealloc,
	      .old_size = OLD_SIZE, .fallback = FIRST_FALLS_BACK),
	ENTRY("kvrealloc 12 KiB to 24 KiB, slab attempt failed", KVREALLOC, KIB(24),
	      call_kvrealloc, .old_size = KIB(12), .fallback = FIRST_FALLS_BACK,
	      .arm = "1,100,0,1,min-order=3"),
};

static void entry_desc(const struct sweep_entry *e, char *desc)
{
	strscpy(desc, e->name, KUNIT_PARAM_DESC_SIZE);
}
KUNIT_ARRAY_PARAM(entries, entries, entry_desc);

/* ---------------------------------------------------------------- around a call */

/* What a realloc resizes: a stamped kmalloc(), or a vmalloc() when it is above a page. */
static void *make_old(const struct sweep_entry *e)
{
	void *old;

	if (e->kind != KREALLOC && e->kind != KVREALLOC)
		return NULL;
	old = e->old_size > PAGE_SIZE ? vmalloc(e->old_size) : kmalloc(e->old_size, GFP_KERNEL);
	if (old)
		memset(old, FILL, e->old_size);
	return old;
}

static void free_result(const struct sweep_entry *e, void *p)
{
	if (!p)
		return;
	switch (e->kind) {
	case PAGES:
		free_pages((unsigned long)p, e->size);
		break;
	case BULK:
		break;		/* the pages are in sw.bulk: free_bulk() */
	case CACHE:
		kmem_cache_free(sw.cache, p);
		break;
	case CREATE:
		kmem_cache_destroy(p);
		break;
	case VMAP:
		vunmap(p);
		break;
	default:
		kvfree(p);	/* kmalloc, vmalloc and kvmalloc memory alike */
	}
}

/* The pages the bulk allocator gave, all or some. */
static void free_bulk(void)
{
	free_pages_bulk(sw.bulk, NR_BULK);
	memset(sw.bulk, 0, sizeof(sw.bulk));
}

/* What a realloc resizes, made before anything is armed. */
static void prepare(struct kunit *test, const struct sweep_entry *e)
{
	sw.old = make_old(e);
	if (e->old_size)
		KUNIT_ASSERT_NOT_NULL(test, sw.old);
}

/* One call, with fail_page_alloc armed first if the entry says so; Return: its result. */
static void *call(struct kunit *test, const struct sweep_entry *e)
{
	if (e->arm)
		KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc, e->arm), 0);
	return e->call(e, sw.old);
}

/*
 * Fail the @n-th allocation of the next call: fail-nth; or, to sweep only
 * one function's page allocations, fail_page_alloc filtered by caller=
 * failing the @n-th of them once (interval @n, times 1).
 */
static void arm_nth(struct kunit *test, const struct sweep_entry *e, unsigned int n)
{
	char str[96];

	if (!e->only_caller) {
		kunit_fail_nth(test, FAIL_ALL, n);
		return;
	}
	snprintf(str, sizeof(str), "%u,100,0,1,caller=%s", n, e->only_caller);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc, str), 0);
}

/* After the call: disarm the entry's attr; Return: whether its arm= failed an allocation. */
static bool attr_fired(struct kunit *test, const struct sweep_entry *e)
{
	bool fired = e->arm && fail_page_alloc.times == 0;

	if (e->arm || e->only_caller)
		KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc, "1,0,0,0"), 0);
	return fired;
}

/* A realloc's old memory after a failed call: as it was, and still its owner's. */
static void expect_old_untouched(struct kunit *test, const struct sweep_entry *e)
{
	const u8 *old = sw.old;
	unsigned long bad = 0;

	for (unsigned long i = 0; i < e->old_size; i++)
		bad += old[i] != FILL;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "bytes of the old memory changed");
	if (is_vmalloc_addr(old))
		KUNIT_EXPECT_NOT_NULL(test, find_vm_area(old));
	else
		KUNIT_EXPECT_GE(test, ksize(old), e->old_size);
}

/* Nothing mapped in [@addr, @addr + @size), and no live area there. */
static void expect_unmapped(struct kunit *test, const void *addr, unsigned long size)
{
	unsigned long mapped = 0;

	for (unsigned long off = 0; off < size; off += PAGE_SIZE)
		mapped += vmalloc_to_page((const char *)addr + off) != NULL;
	KUNIT_EXPECT_EQ_MSG(test, mapped, 0, "pages still mapped at %px", addr);
	KUNIT_EXPECT_NULL(test, find_vm_area(addr));
}

/* No lock of the page or slab allocator is left held. */
static void expect_no_lock_held(struct kunit *test)
{
	struct kmem_cache *s;
	struct zone *zone;
	int nid;

	for_each_populated_zone(zone)
		KUNIT_EXPECT_FALSE_MSG(test, spin_is_locked(&zone->lock), "zone %s", zone->name);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&oom_lock));
	KUNIT_ASSERT_FALSE(test, spin_is_locked(&slab_caches_lock));
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		for_each_node(nid) {
			KUNIT_EXPECT_FALSE_MSG(test, spin_is_locked(&get_node(s, nid)->list_lock),
					       "%s node %d", s->name, nid);
			KUNIT_EXPECT_FALSE_MSG(test, spin_is_locked(&get_node(s, nid)->barn.lock),
					       "%s node %d barn", s->name, nid);
		}
	}
	spin_unlock(&slab_caches_lock);
}

/* The counters of failures, read before and after a call. */
struct failures {
	unsigned long page, slab, vmalloc;	/* injected */
	unsigned long pgalloc, slab_errors, kv_fail, kv_vmalloc;
};

static struct failures failures_now(void)
{
	return (struct failures){
		.page = global_vm_event(FAULT_INJECT_PAGE),
		.slab = global_vm_event(FAULT_INJECT_SLAB),
		.vmalloc = global_vm_event(FAULT_INJECT_VMALLOC),
		.pgalloc = global_vm_event(PGALLOC_FAIL),
		.slab_errors = global_vm_event(SLAB_ERRORS),
		.kv_fail = global_vm_event(KVMALLOC_FAIL),
		.kv_vmalloc = global_vm_event(KVMALLOC_VMALLOC),
	};
}

/* The bytes a successful call gives. */
static unsigned long result_size(const struct sweep_entry *e)
{
	switch (e->kind) {
	case PAGES:
		return PAGE_SIZE << e->size;
	case BULK:
	case CREATE:
		return 0;
	case CACHE:
		return kmem_cache_size(sw.cache);
	default:
		return e->size;
	}
}

/*
 * A call that succeeded although one of its allocations failed (a fallback
 * absorbed it): its memory is as good as ever, every byte of it, and a
 * realloc's holds the old contents.
 */
static void expect_usable(struct kunit *test, const struct sweep_entry *e, u8 *p)
{
	unsigned long size = result_size(e), bad = 0;

	for (unsigned long i = 0; i < e->old_size; i++)
		bad += p[i] != FILL;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "bytes of the old memory not copied");
	memset(p, 0xa5, size);
	bad = 0;
	for (unsigned long i = 0; i < size; i++)
		bad += p[i] != 0xa5;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "bytes that do not keep what was written");
}

/*
 * What must hold after the call that fail-nth failed at its @n-th
 * allocation (@p its result): see the top of the file.  Only the page
 * allocator and the bulk allocator have no fallback of their own; the
 * others may absorb a failure (the slab takes an object without a sheaf,
 * or a slab of its smallest order; vmalloc_huge() 4 KiB pages; kvmalloc()
 * vmalloc memory), and must then give memory as good as ever.
 */
static void expect_failed_cleanly(struct kunit *test, const struct sweep_entry *e, unsigned int n,
				  void *p, const struct failures *before, bool attr_too,
				  void *where)
{
	struct failures after = failures_now();

	KUNIT_EXPECT_EQ(test, after.page + after.slab + after.vmalloc - before->page -
			before->slab - before->vmalloc, 1 + attr_too);
	KUNIT_EXPECT_EQ(test, after.pgalloc, before->pgalloc);
	KUNIT_EXPECT_EQ(test, after.slab_errors, before->slab_errors);
	if (e->kind == KVMALLOC || e->kind == KVREALLOC) {
		KUNIT_EXPECT_EQ(test, after.kv_fail - before->kv_fail, !p);
		KUNIT_EXPECT_EQ(test, after.kv_vmalloc - before->kv_vmalloc,
				p && is_vmalloc_addr(p));
	}
	if (e->kind == BULK) {
		KUNIT_EXPECT_EQ(test, sw.filled, n - 1);
		for (unsigned int i = 0; i < NR_BULK; i++)
			KUNIT_EXPECT_EQ_MSG(test, sw.bulk[i] != NULL, i < n - 1, "slot %u", i);
	} else if (e->kind == PAGES || (e->fallback == FIRST_FALLS_BACK && n == 1)) {
		KUNIT_EXPECT_TRUE_MSG(test, e->kind == PAGES ? !p : p && is_vmalloc_addr(p),
				      "%px after a failure at allocation %u", p, n);
	}
	if (p)
		expect_usable(test, e, p);
	if (p && e->fallback == HUGE_FALLS_BACK && e->arm)
		KUNIT_EXPECT_FALSE_MSG(test, find_vm_area(p)->flags & VM_HUGE_PAGES,
				       "2 MiB pages, though the 2 MiB page failed");
	if (e->old_size && !p)
		expect_old_untouched(test, e);
	if (where && !p)
		expect_unmapped(test, where, e->size);
	expect_no_lock_held(test);
}

/* ---------------------------------------------------------------- the sweep */

/*
 * The address the entry's vmalloc memory gets: what a first call got; for
 * new_range, the first boundary of that alignment above VMALLOC_START,
 * which sw.hold keeps taken, where nothing is mapped yet (a first call
 * would make the tables and the shadow to be swept).
 */
static void *sweep_setup(struct kunit *test, const struct sweep_entry *e, unsigned int *points)
{
	void *p, *where = NULL;

	/* 600 pages or 2 MiB: more than a machine of 6 MiB has free (the others fit anywhere). */
	if (e->kind == VMALLOC)
		need_free_pages(test, e->size / PAGE_SIZE);
	if (e->kind == CACHE) {
		sw.cache = kmem_cache_create("fault_sweep", 64, 0, 0, NULL);
		KUNIT_ASSERT_NOT_NULL(test, sw.cache);
	}
	if (e->kind == VMAP) {
		for (unsigned int i = 0; i < NR_VMAP; i++) {
			sw.vmap_pages[i] = alloc_page(GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, sw.vmap_pages[i]);
		}
	}
	/* Arm, once, the undoing at the end of the case: it allocates. */
	kunit_fail_nth(test, 0, 0);
	if (e->arm || e->only_caller)
		KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc, "1,0,0,0"), 0);
	kv_settle();	/* the vmalloc space as the sweep will find it: purged */
	if (e->new_range) {
		sw.hold = vmalloc(PAGE_SIZE);
		KUNIT_ASSERT_NOT_NULL(test, sw.hold);
		where = (void *)(VMALLOC_START + e->new_range);
		KUNIT_ASSERT_NULL(test, kernel_pte_lookup((unsigned long)where));
		/* Under KASAN, the shadow first, unless it is what is swept (a no-op without). */
		if (!e->new_shadow)
			KUNIT_ASSERT_EQ(test, kasan_populate_vmalloc((unsigned long)where,
								     e->size + PAGE_SIZE, GFP_KERNEL), 0);
		return where;
	}
	prepare(test, e);
	kunit_fail_nth(test, FAIL_ALL, COUNT_ALL);
	p = call(test, e);
	*points = COUNT_ALL - fail_nth_get();
	kunit_fail_nth(test, 0, 0);
	attr_fired(test, e);
	KUNIT_ASSERT_NOT_NULL_MSG(test, p, "%s failed with nothing injected", e->name);
	if (is_vmalloc_addr(p))
		where = p;
	/*
	 * The entry that sweeps the 2 MiB page's path needs that page: without
	 * a free 2 MiB block, every call's own attempt fails for real (a page
	 * allocation failure each sweep would count against the injected one),
	 * and the entry after it sweeps the 4 KiB fallback anyway.
	 */
	if (e->fallback == HUGE_FALLS_BACK && !e->arm &&
	    !(find_vm_area(p)->flags & VM_HUGE_PAGES)) {
		free_result(e, p);
		kunit_skip(test, "%s: no free 2 MiB block for its 2 MiB page (the next entry "
			   "sweeps the fallback)", e->name);
	}
	free_result(e, p);
	if (e->kind == BULK)
		free_bulk();
	return where;
}

static void sweep_teardown(void)
{
	free_bulk();
	free_pages_bulk(sw.vmap_pages, NR_VMAP);
	vfree(sw.hold);
	kmem_cache_destroy(sw.cache);
	sw = (struct sweep){ 0 };
}

/* How many failure points of each kind a sweep went through, and how many fell back. */
struct swept {
	unsigned int page, slab, vmalloc, fell_back;
};

static void count_swept(struct swept *swept, const struct failures *before, bool attr_too,
			bool fell_back)
{
	struct failures after = failures_now();

	swept->page += after.page - before->page - attr_too;
	swept->slab += after.slab - before->slab;
	swept->vmalloc += after.vmalloc - before->vmalloc;
	swept->fell_back += fell_back;
}

/* A call after a failed one succeeds, where the first would have been. */
static void expect_second_call(struct kunit *test, const struct sweep_entry *e, void *where)
{
	void *p;

	vm_unmap_aliases();	/* the failed call's own vfree()s were lazy */
	prepare(test, e);
	p = call(test, e);
	attr_fired(test, e);
	KUNIT_EXPECT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE_MSG(test, !where || p == where, "at %px, not %px", p, where);
	free_result(e, p);
	free_bulk();
}

/*
 * The @n-th call of the sweep, with its @nth allocation failed, and every
 * check after it.  Return: false if nothing failed: the call had fewer
 * allocations, and succeeded (the sweep is over).
 */
static bool sweep_step(struct kunit *test, const struct sweep_entry *e, unsigned int n,
		       unsigned int nth, void *where, struct swept *swept)
{
	struct failures before = failures_now();
	bool fired, attr_too;
	void *p;

	prepare(test, e);
	arm_nth(test, e, nth);
	p = call(test, e);
	fired = e->only_caller ? fail_page_alloc.times == 0 : fail_nth_get() == 0;
	kunit_fail_nth(test, 0, 0);
	attr_too = attr_fired(test, e);
	if (!fired) {
		KUNIT_EXPECT_NOT_NULL(test, p);
		KUNIT_EXPECT_TRUE_MSG(test, !where || p == where, "at %px, not %px", p, where);
		free_result(e, p);
		free_bulk();
		return false;
	}
	expect_failed_cleanly(test, e, n, p, &before, attr_too, where);
	count_swept(swept, &before, attr_too, p && e->kind != BULK);
	free_result(e, p);
	if (!p)
		kvfree(sw.old);
	free_bulk();
	/* Not in a new range: a second call would make the very tables to be failed. */
	if (!e->new_range)
		expect_second_call(test, e, where);
	return true;
}

/* Fail the 1st, 2nd, ... allocation of the call until it succeeds with none failed. */
static void sweep(struct kunit *test)
{
	const struct sweep_entry *e = test->param_value;
	struct swept swept = { 0, 0, 0, 0 };
	unsigned int n, points = 0;
	unsigned long free_pages, tables, kept;
	struct kv_snapshot then;
	char first[32] = "";
	void *where;

	kunit_allow_report(test, "FAULT_INJECTION: forcing a failure");
	kunit_allow_report(test, "SLUB: Unable to allocate memory");
	kunit_allow_report(test, "vmalloc error:");
	where = sweep_setup(test, e, &points);
	kv_snapshot_take(&then);
	free_pages = then.free_pages;
	tables = kv_vmalloc_table_pages();
	kept = READ_ONCE(nr_kernel_pagetable_pages);	/* vmalloc's tables, KASAN's shadow */
	for (n = 1; n <= MAX_POINTS; n++) {
		/*
		 * A new page table (or shadow page) stays even when its call
		 * fails, so the next call makes one fewer before the one to
		 * fail: in a new range, the nth is counted among those left.
		 */
		unsigned long made = READ_ONCE(nr_kernel_pagetable_pages) - kept;

		if (!sweep_step(test, e, n, e->new_range ? n - made : n, where, &swept))
			break;
		/* KASAN's shadow is kept as the tables are, but is not under the vmalloc space. */
		made = READ_ONCE(nr_kernel_pagetable_pages) - kept;
		then.free_pages = free_pages - (made - (kv_vmalloc_table_pages() - tables));
		kv_expect_back(test, &then);
		if (e->new_range)
			KUNIT_EXPECT_EQ_MSG(test, made, n - 1, "kept after the %u-th failed", n);
		if (test->status == KUNIT_FAILURE) {
			kunit_err(test, "%s: after its allocation %u failed", e->name, n);
			break;
		}
	}
	KUNIT_EXPECT_LE_MSG(test, n, MAX_POINTS, "%s: still failing after %u points", e->name,
			    MAX_POINTS);
	/* The first call, counting, may have made a slab or a spare node the others find. */
	if (points && points != n - 1)
		snprintf(first, sizeof(first), "; %u in the first call", points);
	kunit_info(test, "%s: %u failure point%s swept (%u page, %u slab, %u vmalloc; %u fell "
		   "back%s)", e->name, n - 1, n == 2 ? "" : "s", swept.page, swept.slab,
		   swept.vmalloc, swept.fell_back, first);
	sweep_teardown();
}

/*
 * What the sweep found in the reports: a vmalloc() whose vm_struct could
 * not be allocated said "no room in the vmalloc space"; a slab without
 * pages gave its buffer size as the object size.
 */
static void reports_name_what_failed(struct kunit *test)
{
	struct kmem_cache *s = kmem_cache_create("fault_sweep_report", 100, 0, 0, NULL);
	char line[160];
	unsigned long pos;
	const char *log;

	kunit_expect_report(test, "FAULT_INJECTION: forcing a failure");
	kunit_expect_report(test, "vmalloc error: size 4096, vm_struct allocation failed");
	kunit_expect_report(test, "SLUB: Unable to allocate memory");
	KUNIT_ASSERT_NOT_NULL(test, s);
	kunit_fail_nth(test, FAIL_SLAB, 1);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, vmalloc(PAGE_SIZE));
	log = log_since(pos);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "vmalloc error: size 4096, vm_struct allocation "
					   "failed, mode:0xcc0(GFP_KERNEL)"));
	KUNIT_EXPECT_NULL(test, strstr(log, "no room"));

	/* Straight from the slabs of node 0 (no sheaf): the first page is the new slab's. */
	kunit_fail_nth(test, FAIL_PAGE, 1);
	pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, kmem_cache_alloc_node(s, GFP_KERNEL, 0));
	snprintf(line, sizeof(line), "cache fault_sweep_report, object size 100, buffer size %u,",
		 s->size);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), line));
	kmem_cache_destroy(s);
}

static void fault_sweep_exit(struct kunit *test)
{
	(void)test;
	sweep_teardown();
}

static struct kunit_case fault_sweep_cases[] = {
	KUNIT_CASE_PARAM(sweep, entries_gen_params),
	KUNIT_CASE(reports_name_what_failed),
	{}
};

static struct kunit_suite fault_sweep_suite = {
	.name = "fault_sweep",
	.exit = fault_sweep_exit,
	.test_cases = fault_sweep_cases,
	.strict = true,
};
kunit_test_suite(fault_sweep_suite);
