/*
 * tests/kernel/kvmalloc_test.h - what the kvmalloc suites (kvmalloc_test.c,
 * kvdemo_test.c, smp_kvmalloc_test.c) share: waiting for the vfree()s an
 * interrupt handler deferred, and what "every page is back" means once
 * both the slab and vmalloc have had memory.
 *
 * Every page is back when, once everything cached rather than used is
 * given back (kv_settle()), each page that is not free is accounted for:
 * a page table vmalloc() made under the vmalloc space (it keeps them for
 * the next area, as Linux does), or a page of a slab whose objects in
 * use are, all caches together, as many as before (freed objects may
 * leave a slab half full where it was empty: that keeps a page, and is
 * not a leak); and the vmalloc space holds the same live areas, and no
 * lazily freed one.
 *
 * Not a .c file, so it is not a suite of its own.
 */
#ifndef TESTS_KERNEL_KVMALLOC_TEST_H
#define TESTS_KERNEL_KVMALLOC_TEST_H

#include "kunit/test.h"
#include "test_log.h"
#include "mm/slab_internal.h"
#include "mm/kvmalloc.h"
#include "mm/vmap_area.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"

/* @x as a value the compiler cannot see through: kvmalloc()'s out-of-line path. */
#define runtime(x)	({ __typeof__((x) + 0) __v = (x); __asm__("" : "+r"(__v)); __v; })

/* ---------------------------------------------------------------- every page back */

struct kv_snapshot {
	unsigned long free_pages;	/* nr_free_pages(), once everything is given back */
	unsigned long table_pages;	/* page tables (and KASAN shadow) the kernel keeps */
	unsigned long slab_pages;	/* pages of every cache's slabs */
	unsigned long objects;		/* ... and the objects in use in them */
	unsigned long busy, busy_bytes;	/* live vmalloc areas */
	unsigned long lazy;		/* lazily freed areas (none after a purge) */
};

/* Page tables (and KASAN shadow) the kernel took and keeps: see vmalloc_test.h. */
static inline unsigned long kv_vmalloc_table_pages(void)
{
	return READ_ONCE(nr_kernel_pagetable_pages);
}

static inline void kv_count_area(const struct vmap_area *va, bool lazy, void *arg)
{
	struct kv_snapshot *s = arg;

	if (lazy) {
		s->lazy++;
	} else {
		s->busy++;
		s->busy_bytes += va_size(va);
	}
}

/* Every slab's pages and objects in use, of every cache, on every node. */
static inline void kv_count_slabs(struct kv_snapshot *snap)
{
	struct kmem_cache *s;
	unsigned long flags;
	int nid;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		for_each_node(nid) {
			struct kmem_cache_node *n = get_node(s, nid);
			u32 lists[2];

			spin_lock_irqsave(&n->list_lock, flags);
			lists[0] = n->partial;
			lists[1] = n->full;
			for (int l = 0; l < 2; l++) {
				struct page *slab;

				for (slab = pfn_to_slab(lists[l]); slab;
				     slab = pfn_to_slab(slab->slab_next)) {
					snap->slab_pages += 1UL << slab_order(s, slab);
					snap->objects += slab->inuse;
				}
			}
			spin_unlock_irqrestore(&n->list_lock, flags);
		}
	}
	spin_unlock(&slab_caches_lock);
}

/*
 * Give back everything that is cached rather than used: deferred vfree()s
 * run, lazily freed ranges purged, each slab cache's sheaves and empty
 * slabs (twice: the first pass fills the cache of sheaves with empty
 * slabs of its own), the per-CPU lists.  Before that, two vmalloc()s of a
 * page, each freed and purged, leave vmalloc's spare area nodes (objects
 * of its own cache) at their most, two: they were used up or not by
 * whatever ran last.
 */
static inline void kv_settle(void)
{
	flush_scheduled_work();
	for (int i = 0; i < 2; i++) {
		vfree(vmalloc(PAGE_SIZE));
		vm_unmap_aliases();
	}
	kmem_cache_shrink_all();
	drain_all_pages();
}

static inline void kv_snapshot_take(struct kv_snapshot *s)
{
	*s = (struct kv_snapshot){ 0 };
	kv_settle();
	s->free_pages = nr_free_pages();
	s->table_pages = kv_vmalloc_table_pages();
	kv_count_slabs(s);
	vmalloc_for_each_area(kv_count_area, s);
}

/* Expect every page and every vmalloc area to be back as in @then (see the top of this file). */
static inline void kv_expect_back(struct kunit *test, const struct kv_snapshot *then)
{
	long tables, slabs;
	struct kv_snapshot now;

	kv_snapshot_take(&now);
	tables = now.table_pages - then->table_pages;
	slabs = now.slab_pages - then->slab_pages;
	KUNIT_EXPECT_EQ_MSG(test, now.free_pages + tables + slabs, then->free_pages,
			    "free pages: %lu before, %lu now; since then %ld more in vmalloc's "
			    "page tables, %ld more in slabs", then->free_pages, now.free_pages,
			    tables, slabs);
	KUNIT_EXPECT_EQ_MSG(test, now.objects, then->objects, "slab objects in use");
	KUNIT_EXPECT_EQ_MSG(test, now.busy, then->busy, "live vmalloc areas");
	KUNIT_EXPECT_EQ_MSG(test, now.busy_bytes, then->busy_bytes, "bytes of live vmalloc areas");
	KUNIT_EXPECT_EQ_MSG(test, now.lazy, 0, "lazily freed areas after a purge");
}

#endif
