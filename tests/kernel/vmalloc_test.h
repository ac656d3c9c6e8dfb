/*
 * tests/kernel/vmalloc_test.h - helpers shared by the vmalloc suites
 * (vmalloc_test.c, smp_vmalloc_test.c): a stamp to write over every page
 * of an area and read back, and what "everything is back where it started"
 * means for vmalloc.
 *
 * Back where it started, after the deferred vfree()s ran and a purge: the same free pages (the per-CPU
 * lists drained and the slab caches shrunk, so that the vm_structs and
 * vmap_areas a case freed are counted), but for two kinds of page that
 * vmalloc keeps for itself, counted apart: the page-table pages the case
 * made (or, for vmalloc_huge(), freed), as nr_kernel_pagetable_pages
 * counts them (with KASAN, the shadow pages too), and the slabs of the vmap_area cache, where the nodes
 * of the free tree and the spare nodes live on (when CPUs free at once,
 * the survivors may end up spread over one slab more than before); the
 * same busy areas and no lazy one (vmalloc_for_each_area()); and the next
 * vmalloc(PAGE_SIZE) at the same lowest address, so the free space merged
 * back into what it was.
 *
 * Not a .c file, so it is not a suite of its own.
 */
#ifndef TESTS_KERNEL_VMALLOC_TEST_H
#define TESTS_KERNEL_VMALLOC_TEST_H

#include "kunit/test.h"
#include "test_log.h"
#include "mm/slab_internal.h"
#include "mm/shrinker.h"
#include "kernel/workqueue.h"
#include "mm/vmalloc.h"
#include "mm/vmap_area.h"
#include "mm/vmstat.h"
#include "mm/fault_inject.h"
#include "mm/tlbflush.h"
#include "mm/maccess.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/timer.h"
#include "lib/errno.h"

#define WAIT_NS		(5ULL * 1000 * 1000 * 1000)

/*
 * wait_until - spin until @cond holds, for at most 5 s; true if it did.
 * Interrupts stay as they are (on, in these suites), so the CPU still
 * answers IPIs while it waits.  Nothing here waits without a deadline: a
 * CPU that does not answer fails the case instead of hanging the run.
 */
#define wait_until(cond) ({						\
	u64 __end = ktime_get_ns() + WAIT_NS;				\
	bool __met;							\
									\
	while (!(__met = (cond)) && ktime_get_ns() < __end)		\
		cpu_relax();						\
	__met;								\
})

/* ---------------------------------------------------------------- stamps */

/* What page @i of an area at @p holds: its address and the owner's @tag. */
static inline u64 vm_stamp(const void *p, unsigned long i, u64 tag)
{
	return ((unsigned long)p + i * PAGE_SIZE) ^ tag;
}

/*
 * Stamp the first and the last word of every page of [@p, @p + @size): a
 * page mapped twice, mapped to someone else's page, or not mapped at all
 * shows when the stamps are read back.  (A last page of less than two words
 * gets only the first, of less than one word one byte.)
 */
static inline void vm_fill(void *p, unsigned long size, u64 tag)
{
	for (unsigned long i = 0; i * PAGE_SIZE < size; i++) {
		u8 *page = (u8 *)p + i * PAGE_SIZE;
		unsigned long len = min(size - i * PAGE_SIZE, PAGE_SIZE);

		if (len < sizeof(u64)) {
			*page = (u8)vm_stamp(p, i, tag);
			continue;
		}
		*(u64 *)page = vm_stamp(p, i, tag);
		if (len >= 2 * sizeof(u64))
			*(u64 *)(page + len - sizeof(u64)) = ~vm_stamp(p, i, tag);
	}
}

/* How many stamps of vm_fill(@p, @size, @tag) are not there any more. */
static inline unsigned long vm_check(const void *p, unsigned long size, u64 tag)
{
	unsigned long bad = 0;

	for (unsigned long i = 0; i * PAGE_SIZE < size; i++) {
		const u8 *page = (const u8 *)p + i * PAGE_SIZE;
		unsigned long len = min(size - i * PAGE_SIZE, PAGE_SIZE);

		if (len < sizeof(u64)) {
			bad += *page != (u8)vm_stamp(p, i, tag);
			continue;
		}
		bad += *(const u64 *)page != vm_stamp(p, i, tag);
		if (len >= 2 * sizeof(u64))
			bad += *(const u64 *)(page + len - sizeof(u64)) != ~vm_stamp(p, i, tag);
	}
	return bad;
}

/*
 * The same stamps read through the direct map of the page that
 * vmalloc_to_page() names for each page of the area: they agree only if
 * the page tables and vmalloc_to_page() do.
 */
static inline unsigned long vm_check_pages(const void *p, unsigned long size, u64 tag)
{
	unsigned long bad = 0;

	for (unsigned long i = 0; i * PAGE_SIZE < size; i++) {
		struct page *page = vmalloc_to_page((const u8 *)p + i * PAGE_SIZE);

		if (!page || size - i * PAGE_SIZE < sizeof(u64))
			bad += !page;
		else
			bad += *(const u64 *)page_address(page) != vm_stamp(p, i, tag);
	}
	return bad;
}

/* ---------------------------------------------------------------- back where it started */

struct vmalloc_snapshot {
	unsigned long free_pages;	/* nr_free_pages(), lists drained, caches shrunk */
	unsigned long table_pages;	/* page tables (and KASAN shadow) the kernel keeps */
	unsigned long area_pages;	/* slabs of the vmap_area cache */
	unsigned long busy, busy_bytes;	/* live areas */
	unsigned long lazy;		/* lazily freed areas (0 after a purge) */
	void *lowest;			/* where vmalloc(PAGE_SIZE) lands */
};

/*
 * The pages the kernel took for page tables (and, with KASAN, for shadow)
 * and keeps: the vmalloc space's tables stay when they empty.
 */
static inline unsigned long vmalloc_table_pages(void)
{
	return READ_ONCE(nr_kernel_pagetable_pages);
}

/* The pages of the vmap_area cache's slabs. */
static inline unsigned long vmap_area_slab_pages(void)
{
	unsigned long pages = 0;
	struct kmem_cache *s;
	int nid;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		if (strcmp(s->name, "vmap_area"))
			continue;
		for_each_node(nid)
			pages += READ_ONCE(get_node(s, nid)->nr_slabs) << s->order;
	}
	spin_unlock(&slab_caches_lock);
	return pages;
}

static inline void count_area(const struct vmap_area *va, bool lazy, void *arg)
{
	struct vmalloc_snapshot *s = arg;

	if (lazy) {
		s->lazy++;
		return;
	}
	s->busy++;
	s->busy_bytes += va_size(va);
}

/* Purge, then give every cached page back: the slab caches' empty slabs, the per-CPU lists. */
static inline void vmalloc_settle(void)
{
	vm_unmap_aliases();
	kmem_cache_shrink_all();
	drain_all_pages();
}

static inline void vmalloc_snapshot_take(struct vmalloc_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	flush_scheduled_work();		/* deferred vfree()s, done or not yet begun */
	vm_unmap_aliases();
	s->lowest = vmalloc(PAGE_SIZE);
	vfree(s->lowest);
	vmalloc_settle();
	s->free_pages = nr_free_pages();
	s->table_pages = vmalloc_table_pages();
	s->area_pages = vmap_area_slab_pages();
	vmalloc_for_each_area(count_area, s);
}

/* Expect everything to be as in @then: see the top of this file. */
static inline void expect_vmalloc_back(struct kunit *test, const struct vmalloc_snapshot *then)
{
	struct vmalloc_snapshot now;

	vmalloc_snapshot_take(&now);
	KUNIT_EXPECT_EQ_MSG(test, now.free_pages + (now.table_pages - then->table_pages) +
			    (now.area_pages - then->area_pages), then->free_pages,
			    "free pages %lu then, %lu now; page tables %lu then, %lu now; vmap_area "
			    "slab pages %lu then, %lu now", then->free_pages, now.free_pages,
			    then->table_pages, now.table_pages, then->area_pages, now.area_pages);
	KUNIT_EXPECT_EQ(test, now.busy, then->busy);
	KUNIT_EXPECT_EQ(test, now.busy_bytes, then->busy_bytes);
	KUNIT_EXPECT_EQ(test, now.lazy, 0);
	KUNIT_EXPECT_PTR_EQ(test, now.lowest, then->lowest);
}

/* Is @addr mapped and readable?  0, or -EFAULT (and no oops) if not. */
static inline int vm_probe(const void *addr)
{
	u8 c;

	return get_kernel_nofault(c, (const u8 *)addr);
}

/*
 * Where the next vmalloc(@size) will land, with the page tables of every
 * 2 MiB block inside it taken away (as vmalloc_huge() does, flushed first),
 * so that mapping it there needs new ones.  *@dropped: how many went.
 */
static inline u8 *fresh_tables_for(unsigned long size, unsigned int *dropped)
{
	unsigned long va, end;
	u8 *p;

	*dropped = 0;
	vm_unmap_aliases();		/* so that the next vmalloc() lands where this one does */
	p = vmalloc(size);
	if (!p)
		return NULL;
	vfree(p);
	vm_unmap_aliases();
	end = ALIGN_DOWN((unsigned long)p + size, PMD_SIZE);
	for (va = ALIGN((unsigned long)p, PMD_SIZE); va < end; va += PMD_SIZE) {
		phys_addr_t table = kernel_pte_table_detach(va);

		if (!table)
			continue;
		flush_tlb_kernel_range(va, va + PAGE_SIZE);
		kernel_pte_table_free(table);
		(*dropped)++;
	}
	return p;
}

/*
 * @alloc(@size, GFP_KERNEL | __GFP_NOFAIL) (__vmalloc() or kvmalloc()) where
 * its page tables must be made anew, with the first three of them failed
 * (fail_page_alloc, caller=kernel_pte_alloc): the memory, where the next
 * vmalloc() lands.  NOFAIL retries the mapping.
 */
static inline u8 *nofail_with_page_tables_failing(struct kunit *test, unsigned long size,
						  void *(*alloc)(size_t size, gfp_t gfp))
{
	unsigned long injected = global_vm_event(FAULT_INJECT_PAGE);
	struct fault_attr before = fail_page_alloc;
	unsigned int dropped;
	u8 *where = fresh_tables_for(size, &dropped), *p;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, where);
	KUNIT_ASSERT_GE(test, dropped, 1);
	/* armed and disarmed here: kunit_fault_attr_setup() keeps a record, a "leak" */
	err = setup_fault_attr(&fail_page_alloc, "1,100,0,3,verbose=0,caller=kernel_pte_alloc");
	p = alloc(size, GFP_KERNEL | __GFP_NOFAIL);
	fail_page_alloc = before;
	fault_inject_update();
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, global_vm_event(FAULT_INJECT_PAGE) - injected, 3);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_PTR_EQ(test, p, where);
	return p;
}

#endif
