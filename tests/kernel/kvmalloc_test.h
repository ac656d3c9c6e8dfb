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
#include "mm/internal.h"
#include "mm/kvmalloc.h"
#include "mm/vmap_area.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"

/* @x as a value the compiler cannot see through: kvmalloc()'s out-of-line path. */
#define runtime(x)	({ __typeof__((x) + 0) __v = (x); __asm__("" : "+r"(__v)); __v; })

/* ---------------------------------------------------------------- deferred frees */

static void kv_marker_fn(struct work_struct *work)
{
	(void)work;
}

/*
 * Wait until every vfree() an interrupt handler (or a caller with
 * interrupts off) deferred has run.  Such a free queues its CPU's vfree
 * work on some CPU's list (kernel/workqueue.c: CPU 0 hands it to an AP);
 * each list runs in order, so a marker queued behind it on every CPU has
 * run only after it.  Only frees deferred before the call are waited for.
 */
static inline void kv_wait_deferred_frees(void)
{
	static struct work_struct markers[NR_CPUS];
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		INIT_WORK(&markers[cpu], kv_marker_fn);
		schedule_work_on(cpu, &markers[cpu]);
	}
	for_each_online_cpu(cpu)
		flush_work(&markers[cpu]);
}

/* ---------------------------------------------------------------- every page back */

struct kv_snapshot {
	unsigned long free_pages;	/* nr_free_pages(), once everything is given back */
	unsigned long table_pages;	/* page tables under the vmalloc space */
	unsigned long slab_pages;	/* pages of every cache's slabs */
	unsigned long objects;		/* ... and the objects in use in them */
	unsigned long busy, busy_bytes;	/* live vmalloc areas */
	unsigned long lazy;		/* lazily freed areas (none after a purge) */
};

/*
 * The page-table pages under the vmalloc space: a PD for each present PDPT
 * entry, a PT for each present PD entry that is not a 2 MiB mapping.  (The
 * PDPTs themselves are made at boot and never freed.)
 */
static inline unsigned long kv_vmalloc_table_pages(void)
{
	const u64 *pml4 = __va(read_cr3() & PTE_PFN_MASK);
	unsigned long n = 0;

	for (unsigned long a = VMALLOC_START; a < VMALLOC_END; a += PGDIR_SIZE) {
		u64 top = pml4[(a >> PGDIR_SHIFT) % PTRS_PER_TABLE];
		const u64 *pdpt = __va(top & PTE_PFN_MASK);

		if (!(top & _PAGE_PRESENT))
			continue;
		for (unsigned int i = 0; i < PTRS_PER_TABLE; i++) {
			const u64 *pd = __va(pdpt[i] & PTE_PFN_MASK);

			if ((pdpt[i] & (_PAGE_PRESENT | _PAGE_PSE)) != _PAGE_PRESENT)
				continue;
			n++;
			for (unsigned int j = 0; j < PTRS_PER_TABLE; j++)
				n += (pd[j] & (_PAGE_PRESENT | _PAGE_PSE)) == _PAGE_PRESENT;
		}
	}
	return n;
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
	kv_wait_deferred_frees();
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
