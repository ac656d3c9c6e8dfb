/*
 * mm/vmalloc.c - virtually contiguous memory from scattered pages.
 *
 * vmalloc(size) does three things: it finds a free range of addresses in
 * the vmalloc space (an "area", one guard page longer than asked), takes
 * single pages from the page allocator wherever they are, and maps them
 * side by side over the range in the kernel's page tables.  vfree() undoes
 * the three, with one twist that is the point of this file:
 *
 *   vmalloc   [ range from the free tree ] -> [ pages ] -> [ page tables ]
 *   vfree     unmap, free the pages at once, and put the range on the lazy
 *             list: other CPUs may still hold its old translations in their
 *             TLBs, so it must not be handed out again before a shootdown.
 *   purge     when the lazily freed pages pass lazy_max_pages(), one
 *             flush_tlb_kernel_range() over all of them, and the ranges
 *             return to the free tree (merged with their neighbours).
 *
 * One shootdown for thousands of vfree()s instead of one each: an IPI to
 * every CPU costs hundreds of times a local flush (docs/smp.md), and the
 * vmalloc space is 32 TiB, so parking freed ranges costs nothing.  (The
 * pages themselves are freed at once, as Linux does: only a use after
 * vfree() could reach them through a stale TLB entry.)
 *
 * Where things are:
 *   the area tree     mm/vmap_area.c: free, busy and lazy trees of struct
 *                     vmap_area, lowest fit in O(log n); one lock here;
 *   page tables       arch/x86_64/pgtable.c through mm/cpu.h; the top-level
 *                     entries of the whole vmalloc space are made at boot,
 *                     so every CPU sees new mappings at once; lower tables
 *                     are made as needed (GFP_KERNEL less the scopes of
 *                     mm/gfp.h, which GFP_NOFS/GFP_NOIO callers get, and
 *                     retried for __GFP_NOFAIL) and stay, unless a
 *                     2 MiB page takes a table's place (vmap_pages_range());
 *   vfree from an     the freed memory itself links it on a per-CPU list
 *   interrupt         (nothing is allocated to free), and deferred work
 *                     frees it soon after (vfree_atomic());
 *   faults            a fault in a guard page or a freed range is an oops
 *                     that names the area and who allocated it.
 *
 * docs/vmalloc.md tells the story with pictures and figures.
 */
#include "mm/internal.h"
#include "mm/fault_inject.h"
#include "mm/kasan.h"
#include "mm/vmalloc.h"
#include "mm/vmap_area.h"
#include "mm/slab.h"
#include "mm/tlbflush.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"

#define HUGE_ORDER		(PMD_SHIFT - PAGE_SHIFT)	/* 9: a 2 MiB page */
#define NR_RECENTLY_FREED	32

/* The three trees of areas and the spare nodes of the area allocator: one lock. */
static DEFINE_SPINLOCK(vmap_area_lock);
static struct rb_list free_vmap_area_tree, busy_vmap_area_tree, purge_vmap_area_tree;
static LIST_HEAD(spare_nodes);
static unsigned long vmap_lazy_nr;		/* pages freed lazily, not purged yet */
static unsigned long vmap_lazy_areas;		/* the areas they were in */
static struct kmem_cache *vmap_area_cachep;
static DEFINE_SPINLOCK(purge_lock);		/* one purge at a time */

/* Areas freed lately, so a fault or a second vfree() can be named. */
static struct {
	unsigned long start, end;
	const void *caller;
} recently_freed[NR_RECENTLY_FREED];
static unsigned int next_freed;

/* ---------------------------------------------------------------- areas */

/*
 * Spare nodes for the area allocator, which never allocates (mm/vmap_area.h):
 * at least one before a range is cut, at most MAX_SPARES kept afterwards.
 */
#define MAX_SPARES	2

/* With the lock held: move the spares beyond MAX_SPARES to @extra, to free unlocked. */
static void take_extra_spares(struct list_head *extra)
{
	struct vmap_area *va, *next;
	unsigned int n = 0;

	list_for_each_entry_safe(va, next, &spare_nodes, list) {
		if (++n > MAX_SPARES)
			list_move(&va->list, extra);
	}
}

static void free_spares(struct list_head *extra)
{
	struct vmap_area *va, *next;

	list_for_each_entry_safe(va, next, extra, list)
		kmem_cache_free(vmap_area_cachep, va);
}

static void purge_vmap_area_lazy(void);
static void free_vmap_area(struct vmap_area *va);

/*
 * A busy area of @size bytes (the guard page included), aligned to @align.
 * If the space is full, the lazily freed ranges are purged and it tries
 * once more.  Return: the area; ERR_PTR(-ENOMEM) if a struct vmap_area
 * (or KASAN's shadow) could not be allocated, ERR_PTR(-EBUSY) if there is
 * no room (as Linux), ERR_PTR(-EINVAL) at once, without a purge, if @align
 * is not a power of two (as Linux).
 */
static struct vmap_area *alloc_vmap_area(unsigned long size, unsigned long align, gfp_t gfp)
{
	unsigned long addr, flags;
	struct vmap_area *va;
	bool purged = false;
	int err = -ENOMEM;
	LIST_HEAD(extra);

	if (align & (align - 1))
		return ERR_PTR(-EINVAL);
	va = kmem_cache_alloc(vmap_area_cachep, gfp & ~__GFP_ZERO);
	if (!va)
		return ERR_PTR(-ENOMEM);
retry:
	spin_lock_irqsave(&vmap_area_lock, flags);
	if (list_empty(&spare_nodes)) {
		struct vmap_area *spare;

		spin_unlock_irqrestore(&vmap_area_lock, flags);
		spare = kmem_cache_alloc(vmap_area_cachep, gfp & ~__GFP_ZERO);
		if (!spare)
			goto fail;
		spin_lock_irqsave(&vmap_area_lock, flags);
		list_add(&spare->list, &spare_nodes);
	}
	addr = __alloc_vmap_area(&free_vmap_area_tree, size, align, VMALLOC_START, VMALLOC_END,
				 &spare_nodes);
	if (addr == VMALLOC_END) {
		spin_unlock_irqrestore(&vmap_area_lock, flags);
		if (purged) {
			err = -EBUSY;
			goto fail;
		}
		purge_vmap_area_lazy();
		purged = true;
		goto retry;
	}
	va->va_start = addr;
	va->va_end = addr + size;
	va->vm = NULL;
	insert_vmap_area(va, &busy_vmap_area_tree);
	take_extra_spares(&extra);
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	free_spares(&extra);
	if (kasan_populate_vmalloc(addr, size, gfp)) {
		free_vmap_area(va);
		return ERR_PTR(-ENOMEM);
	}
	return va;
fail:
	kmem_cache_free(vmap_area_cachep, va);
	return ERR_PTR(err);
}

/* Put a never-used (or purged) area straight back into the free tree. */
static void free_vmap_area(struct vmap_area *va)
{
	unsigned long flags;

	LIST_HEAD(extra);

	spin_lock_irqsave(&vmap_area_lock, flags);
	unlink_va(va, &busy_vmap_area_tree);
	merge_or_add_vmap_area_augment(va, &free_vmap_area_tree, &spare_nodes);
	take_extra_spares(&extra);
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	free_spares(&extra);
}

/* How many lazily freed pages to collect before one shootdown (Linux's rule). */
static unsigned long lazy_max_pages(void)
{
	unsigned int cpus = num_online_cpus(), log = 0;

	while (cpus >> log)
		log++;			/* fls(): 1 CPU -> 1, 2-3 -> 2, 4-7 -> 3 */
	return log * (32UL << 20) / PAGE_SIZE;
}

static void drain_vmap_area_work(struct work_struct *work);
static DECLARE_WORK(drain_vmap_work, drain_vmap_area_work);

/* May this context wait for a shootdown?  (kernel/smp.c refuses it otherwise.) */
static bool purge_may_wait(void)
{
	return (!irqs_disabled() && !in_interrupt()) || system_state != SYSTEM_RUNNING;
}

/*
 * purge_vmap_area_lazy - one TLB shootdown for every lazily freed area,
 * then their ranges go back to the free tree.
 *
 * Where the shootdown cannot wait (interrupts off, an interrupt handler),
 * nothing is freed: a range goes back only after every CPU flushed it, so
 * the purge is left to deferred work (Linux's drain_vmap_work).
 * Context: any; the purge itself runs with interrupts on.
 */
static void purge_vmap_area_lazy(void)
{
	/* LAB vmalloc */
	struct vmap_area *va, *next;
	unsigned long start, end, nr_pages, nr_areas, flags;
	LIST_HEAD(purging);

	if (!purge_may_wait()) {
		schedule_work(&drain_vmap_work);
		return;
	}
	spin_lock(&purge_lock);
	spin_lock_irqsave(&vmap_area_lock, flags);
	if (list_empty(&purge_vmap_area_tree.head)) {
		spin_unlock_irqrestore(&vmap_area_lock, flags);
		spin_unlock(&purge_lock);
		return;
	}
	/* The list is in address order: its ends bound every lazy area. */
	start = list_first_entry(&purge_vmap_area_tree.head, struct vmap_area, list)->va_start;
	end = list_last_entry(&purge_vmap_area_tree.head, struct vmap_area, list)->va_end;
	/* The whole tree at once: its nodes are about to join the free tree. */
	list_splice_init(&purge_vmap_area_tree.head, &purging);
	purge_vmap_area_tree.root = RB_ROOT;
	nr_pages = vmap_lazy_nr;
	nr_areas = vmap_lazy_areas;
	vmap_lazy_nr = vmap_lazy_areas = 0;
	spin_unlock_irqrestore(&vmap_area_lock, flags);

	flush_tlb_kernel_range(start, end);

	spin_lock_irqsave(&vmap_area_lock, flags);
	list_for_each_entry_safe(va, next, &purging, list) {
		list_del(&va->list);
		merge_or_add_vmap_area_augment(va, &free_vmap_area_tree, &spare_nodes);
	}
	take_extra_spares(&purging);
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	spin_unlock(&purge_lock);
	free_spares(&purging);
	count_vm_event(VMALLOC_LAZY_PURGE);
	count_vm_events(VMALLOC_PURGED_PAGES, nr_pages);
	count_vm_events(VMALLOC_PURGED_AREAS, nr_areas);
	/* END LAB */
}

/* The purge that a context which could not wait for it left (interrupts on here). */
static void drain_vmap_area_work(struct work_struct *work)
{
	(void)work;
	purge_vmap_area_lazy();
}

/*
 * Park an unmapped area's range in the lazy tree, merged with the lazily
 * freed ranges next to it (so a purge has few nodes to move, however many
 * vfree()s it covers); purge if enough pages piled up.
 */
static void free_vmap_area_lazy(struct vmap_area *va, unsigned long mapped_pages)
{
	unsigned long flags;
	LIST_HEAD(extra);
	bool purge;

	spin_lock_irqsave(&vmap_area_lock, flags);
	recently_freed[next_freed++ % NR_RECENTLY_FREED] =
		(typeof(recently_freed[0])){ va->va_start, va->va_end,
					     va->vm ? va->vm->caller : NULL };
	merge_or_add_vmap_area_augment(va, &purge_vmap_area_tree, &spare_nodes);
	vmap_lazy_nr += mapped_pages;
	vmap_lazy_areas++;
	purge = vmap_lazy_nr > lazy_max_pages();
	take_extra_spares(&extra);
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	free_spares(&extra);
	if (purge)
		purge_vmap_area_lazy();
}

/* ---------------------------------------------------------------- page tables */

static phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

/*
 * Clear the mappings of [@addr, @end), a page table (2 MiB) at a time: one
 * walk per table, then plain stores (the range is ours alone); a 2 MiB
 * mapping is one entry.  No TLB flush here: that is the purge's job.
 */
static void vunmap_range_noflush(unsigned long addr, unsigned long end)
{
	/* LAB vmalloc */
	while (addr < end) {
		unsigned long next = min(ALIGN(addr + 1, PMD_SIZE), end);
		u64 *pte = kernel_pte_lookup(addr);

		if (pte) {
			for (; addr < next; addr += PAGE_SIZE, pte++)
				WRITE_ONCE(*pte, 0);
		} else {
			unmap_kernel_range(addr, next - addr);	/* a 2 MiB page, or nothing */
		}
		addr = next;
	}
	/* END LAB */
}

/* Map @nr single pages side by side at @addr, a page table at a time. */
static int vmap_small_pages_range(unsigned long addr, struct page **pages, unsigned int nr,
				  pgprot_t prot)
{
	/* LAB vmalloc */
	unsigned long start = addr, end = addr + ((unsigned long)nr << PAGE_SHIFT);
	int err = -ENOMEM;

	while (addr < end) {
		unsigned long next = min(ALIGN(addr + 1, PMD_SIZE), end);
		u64 *pte = kernel_pte_alloc(addr, current_gfp_context(GFP_KERNEL | __GFP_NOWARN));

		if (IS_ERR(pte))
			goto fail;
		for (; addr < next; addr += PAGE_SIZE, pte++, pages++) {
			if (unlikely(*pte)) {
				pr_err("vmalloc: cannot map %#lx: it is mapped already\n", addr);
				err = -EEXIST;
				goto fail;
			}
			WRITE_ONCE(*pte, page_to_phys(*pages) | massage_pgprot(prot));
		}
	}
	return 0;
fail:
	vunmap_range_noflush(start, addr);
	return err;
	/* END LAB */
}

/*
 * Map @nr blocks of 2^@order pages at @addr, side by side.  All or
 * nothing: on failure what was mapped is unmapped.  Page tables come from
 * GFP_KERNEL, less what this CPU's scopes take (memalloc_nofs_save()).
 * Return: 0 or a negative errno.
 */
static int vmap_pages_range(unsigned long addr, struct page **pages, unsigned int nr,
			    unsigned int order, pgprot_t prot)
{
	unsigned long step = PAGE_SIZE << order;

	if (!order)
		return vmap_small_pages_range(addr, pages, nr, prot);
	for (unsigned int i = 0; i < nr; i++) {
		unsigned long va = addr + i * step;
		phys_addr_t table = kernel_pte_table_detach(va);
		int err;

		/*
		 * A page table left by 4 KiB mappings is in the way: unhooked,
		 * then one page flushed on every CPU (invlpg empties the
		 * paging-structure caches too, as Linux's pmd_free_pte_page()
		 * relies on), then freed.
		 */
		if (table) {
			flush_tlb_kernel_range(va, va + PAGE_SIZE);
			kernel_pte_table_free(table);
		}
		err = map_kernel_range(va, page_to_phys(pages[i]), step, prot,
				       current_gfp_context(GFP_KERNEL | __GFP_NOWARN));
		if (err) {
			vunmap_range_noflush(addr, addr + i * step);
			return err;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- vmalloc */

static void vmalloc_failed(unsigned long size, gfp_t gfp, const char *why)
{
	char flags[128];

	count_vm_event(VMALLOC_FAIL);
	if (gfp & __GFP_NOWARN)
		return;
	format_gfp(flags, sizeof(flags), gfp);
	pr_warn("vmalloc error: size %lu, %s, mode:%#x(%s), nodemask=(null)\n", size, why, gfp,
		flags);
	dump_stack();
}

static void free_vm_pages(struct vm_struct *vm)
{
	if (!vm->page_order)
		free_pages_bulk(vm->pages, vm->nr_pages);
	for (unsigned int i = 0; vm->page_order && i < vm->nr_pages; i++) {
		if (vm->pages[i])
			__free_pages(vm->pages[i], vm->page_order);
	}
	/* the array: as alloc_page_array() got it */
	if (is_vmalloc_addr(vm->pages))
		vfree(vm->pages);
	else if (PageSlab(virt_to_page(vm->pages)))
		kfree(vm->pages);
	else
		free_page((unsigned long)vm->pages);
}

static void *vmalloc_node_caller(unsigned long size, unsigned long align, gfp_t gfp, int node,
				 bool huge, const void *caller);

/*
 * The array of page pointers: vmalloc itself when it is over a page (as
 * Linux; the nested area is named after the same caller), else kmalloc,
 * asked gently as kvmalloc() asks, else a page of its own.  Linux asks
 * kmalloc only, with the caller's flags; but where only single pages are
 * left, a kmalloc-2k or -4k array may need a slab of order 1 or more (with
 * slab debugging's redzones, or KASAN's), which such a kmalloc would
 * reclaim and call the OOM killer for, and vmalloc is there to need
 * nothing but single pages.
 */
static struct page **alloc_page_array(unsigned int nr, gfp_t gfp, int node, const void *caller)
{
	size_t bytes = (size_t)nr * sizeof(struct page *);
	gfp_t array_gfp = gfp | __GFP_ZERO | __GFP_NOWARN;
	struct page **pages, *page;

	if (bytes > PAGE_SIZE)
		return vmalloc_node_caller(bytes, PAGE_SIZE, array_gfp, node, false, caller);
	pages = kmalloc_node(bytes, (array_gfp & ~__GFP_NOFAIL) | __GFP_NORETRY, node);
	if (pages)
		return pages;
	page = alloc_pages_node(node, array_gfp, 0);
	return page ? page_address(page) : NULL;
}

/*
 * Map @vm's pages with page tables that honour @gfp, as Linux's
 * __vmalloc_area_node() does: without __GFP_IO (or __GFP_FS) the mapping
 * runs in a memalloc_noio (or nofs) scope, and with __GFP_NOFAIL a page
 * table that could not be had is tried again until it can.
 */
static int vmalloc_map_pages(struct vm_struct *vm, unsigned int order, gfp_t gfp,
			     pgprot_t prot)
{
	unsigned int scope = 0;
	int err;

	if (!(gfp & __GFP_IO))
		scope = memalloc_noio_save();
	else if (!(gfp & __GFP_FS))
		scope = memalloc_nofs_save();
	do {
		err = vmap_pages_range((unsigned long)vm->addr, vm->pages, vm->nr_pages, order,
				       prot);
	} while (err == -ENOMEM && (gfp & __GFP_NOFAIL));
	memalloc_flags_restore(scope);
	return err;
}

/*
 * Fill @vm with pages of @order and map them.  For 2 MiB pages a failure
 * is not an error: the caller tries again with small ones.  Returns NULL,
 * or what failed, for the report.
 */
static const char *vmalloc_area_pages(struct vm_struct *vm, unsigned long size, gfp_t gfp,
				      unsigned int order, pgprot_t prot)
{
	/* A 2 MiB attempt may fail fast: small pages are the fallback. */
	gfp_t page_gfp = order ? (gfp & ~__GFP_NOFAIL) | __GFP_NORETRY | __GFP_NOWARN :
				 gfp | __GFP_NOWARN;
	const char *why = "failed to allocate pages";

	vm->page_order = order;
	vm->nr_pages = size >> (PAGE_SHIFT + order);
	vm->pages = alloc_page_array(vm->nr_pages, gfp, vm->node, vm->caller);
	if (!vm->pages)
		return "failed to allocate the array of its pages";
	if (!order) {
		if (alloc_pages_bulk_node(page_gfp, vm->node, vm->nr_pages, vm->pages) <
		    vm->nr_pages)
			goto fail;
	}
	for (unsigned int i = 0; order && i < vm->nr_pages; i++) {
		vm->pages[i] = alloc_pages_node(vm->node, page_gfp, order);
		if (!vm->pages[i])
			goto fail;
	}
	why = "failed to map pages (page tables)";
	if (vmalloc_map_pages(vm, order, page_gfp, prot))
		goto fail;
	return NULL;
fail:
	free_vm_pages(vm);
	vm->pages = NULL;
	vm->nr_pages = 0;
	return why;
}

/* An area of @size bytes and its guard page for @vm; Return: it, or an ERR_PTR(). */
static struct vmap_area *reserve_area(struct vm_struct *vm, unsigned long size,
				      unsigned long align, gfp_t gfp)
{
	struct vmap_area *va = alloc_vmap_area(size + PAGE_SIZE, align, gfp);

	if (!IS_ERR(va)) {
		vm->addr = (void *)va->va_start;
		vm->size = va_size(va);
	}
	return va;
}

/*
 * vmalloc_huge()'s attempt: @size rounded up to 2 MiB, in 2 MiB pages.
 * Return: the area, mapped; or NULL, with nothing left of the attempt:
 * like Linux, the caller starts again with small pages in an area of the
 * size asked, so that vm->size never covers pages that are not mapped.
 */
static struct vmap_area *vmalloc_try_huge(struct vm_struct *vm, unsigned long size,
					  unsigned long align, gfp_t gfp)
{
	struct vmap_area *va = reserve_area(vm, ALIGN(size, PMD_SIZE), max(align, PMD_SIZE), gfp);

	if (IS_ERR(va))
		return NULL;
	if (vmalloc_area_pages(vm, va_size(va) - PAGE_SIZE, gfp, HUGE_ORDER, PAGE_KERNEL)) {
		free_vmap_area(va);	/* nothing was left mapped */
		return NULL;
	}
	vm->flags |= VM_HUGE_PAGES;
	return va;
}

/*
 * vmalloc_node_caller - the one path every vmalloc*() takes
 * @size: bytes, rounded up to pages
 * @align: of the address; at least a page
 * @gfp: must allow direct reclaim (GFP_KERNEL and its modifiers)
 * @node: for the pages, or NUMA_NO_NODE
 * @huge: try 2 MiB mappings (vmalloc_huge())
 * @caller: for vmallocinfo and reports
 */
static void *vmalloc_node_caller(unsigned long size, unsigned long align, gfp_t gfp, int node,
				 bool huge, const void *caller)
{
	unsigned long real_size = ALIGN(size, PAGE_SIZE);
	struct vmap_area *va;
	struct vm_struct *vm;
	const char *why;

	gfp = might_alloc(gfp, (void *)caller);
	if (!gfpflags_allow_blocking(gfp)) {
		/* Its page tables are allocated with GFP_KERNEL: it must be allowed to sleep. */
		vmalloc_failed(size, gfp, "called with a gfp that cannot sleep (vmalloc needs "
			       "GFP_KERNEL)");
		return NULL;
	}
	if (!size) {
		vmalloc_failed(size, gfp, "of nothing");
		return NULL;
	}
	/* real_size < size: rounding up to a page wrapped around (a size near ULONG_MAX). */
	if (real_size < size || real_size >> PAGE_SHIFT > totalram_pages) {
		vmalloc_failed(size, gfp, "exceeds total pages");
		return NULL;
	}
	if (unlikely(READ_ONCE(fail_vmalloc_armed)) && should_fail_vmalloc(size, gfp))
		return NULL;
	align = max(align, PAGE_SIZE);
	if (unlikely(node_id_invalid(node))) {
		if (bad_node_refused("vmalloc_node", node, gfp, caller))
			return NULL;
		node = NUMA_NO_NODE;
	}
	vm = kzalloc(sizeof(*vm), gfp & ~__GFP_ZERO);
	if (!vm) {
		vmalloc_failed(size, gfp, "vm_struct allocation failed");
		return NULL;
	}
	*vm = (struct vm_struct){ .flags = VM_ALLOC, .node = node, .caller = caller,
				  .requested_size = size };
	if (huge && real_size >= PMD_SIZE) {
		va = vmalloc_try_huge(vm, real_size, align, gfp);
		if (va)
			goto mapped;
	}
	va = reserve_area(vm, real_size, align, gfp);
	if (IS_ERR(va)) {
		kfree(vm);
		vmalloc_failed(size, gfp, PTR_ERR(va) == -EBUSY ? "no room in the vmalloc space" :
				 PTR_ERR(va) == -EINVAL ? "its align is not a power of two" :
				 "vm_struct allocation failed");
		return NULL;
	}
	why = vmalloc_area_pages(vm, real_size, gfp, 0, PAGE_KERNEL);
	if (why)
		goto fail;
mapped:
	kasan_unpoison_vmalloc(vm->addr, size);
	/*
	 * From now on find_vm_area() and the readers of every area (vmallocinfo,
	 * vmalloc_check()) see it, under vmap_area_lock that this CPU does not
	 * hold: one marked store, after the setup (x86 keeps stores in order; the
	 * barrier keeps the compiler from sinking the setup below it).
	 */
	barrier();
	WRITE_ONCE(va->vm, vm);
	return vm->addr;
fail:
	free_vmap_area(va);	/* nothing was left mapped */
	kfree(vm);
	vmalloc_failed(size, gfp, why);
	return NULL;
}

/**
 * __vmalloc - @size bytes of virtually contiguous memory, with @gfp_mask
 * @size: bytes (rounded up to whole pages)
 * @gfp_mask: GFP_KERNEL and its modifiers for the pages (__GFP_ZERO,
 *	      __GFP_NOWARN, __GFP_NOFAIL, __GFP_NORETRY, __GFP_RETRY_MAYFAIL);
 *	      a gfp that cannot sleep (GFP_ATOMIC, GFP_NOWAIT) fails with a warning
 *
 * Context: may sleep.
 * Return: the memory, or NULL (with a "vmalloc error" report unless
 * __GFP_NOWARN); nothing is left mapped or allocated on failure.
 */
void *__vmalloc(unsigned long size, gfp_t gfp_mask)
{
	return vmalloc_node_caller(size, PAGE_SIZE, gfp_mask, NUMA_NO_NODE, false,
				   __builtin_return_address(0));
}

/**
 * __vmalloc_node - vmalloc() with every choice made by the caller (Linux's signature)
 * @size: bytes (rounded up to whole pages)
 * @align: alignment of the address (a page at least)
 * @gfp_mask: as __vmalloc()
 * @node: for the pages, or NUMA_NO_NODE
 * @caller: who to name in vmallocinfo and reports (kvmalloc() passes its own caller)
 *
 * Context: may sleep.  Return: the memory, or NULL.
 */
void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp_mask, int node,
		     const void *caller)
{
	return vmalloc_node_caller(size, align, gfp_mask, node, false, caller);
}

/** vmalloc - __vmalloc(@size, GFP_KERNEL); Context: may sleep; Return: memory or NULL */
void *vmalloc(unsigned long size)
{
	return vmalloc_node_caller(size, PAGE_SIZE, GFP_KERNEL, NUMA_NO_NODE, false,
				   __builtin_return_address(0));
}

/** vzalloc - vmalloc(), zeroed */
void *vzalloc(unsigned long size)
{
	return vmalloc_node_caller(size, PAGE_SIZE, GFP_KERNEL | __GFP_ZERO, NUMA_NO_NODE, false,
			      __builtin_return_address(0));
}

/** vmalloc_node - vmalloc() with the pages from node @node (NUMA_NO_NODE: any) */
void *vmalloc_node(unsigned long size, int node)
{
	return vmalloc_node_caller(size, PAGE_SIZE, GFP_KERNEL, node, false,
				   __builtin_return_address(0));
}

/** vzalloc_node - vmalloc_node(), zeroed */
void *vzalloc_node(unsigned long size, int node)
{
	return vmalloc_node_caller(size, PAGE_SIZE, GFP_KERNEL | __GFP_ZERO, node, false,
			      __builtin_return_address(0));
}

/**
 * vmalloc_huge - __vmalloc() with 2 MiB mappings where the size and the
 * free memory allow (whole 2 MiB blocks), 4 KiB pages otherwise
 */
void *vmalloc_huge(unsigned long size, gfp_t gfp_mask)
{
	return vmalloc_node_caller(size, PAGE_SIZE, gfp_mask, NUMA_NO_NODE, true,
				   __builtin_return_address(0));
}

static void *vmalloc_array_caller(size_t n, size_t size, gfp_t gfp, const void *caller)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return array_size_overflow("vmalloc_array", n, size, gfp, (unsigned long)caller);
	return vmalloc_node_caller(bytes, PAGE_SIZE, gfp, NUMA_NO_NODE, false, caller);
}

/** vmalloc_array - vmalloc() of @n * @size bytes; NULL (reported, as kmalloc_array's) if that overflows */
void *vmalloc_array(size_t n, size_t size)
{
	return vmalloc_array_caller(n, size, GFP_KERNEL, __builtin_return_address(0));
}

/** vcalloc - vmalloc_array(), zeroed */
void *vcalloc(size_t n, size_t size)
{
	return vmalloc_array_caller(n, size, GFP_KERNEL | __GFP_ZERO, __builtin_return_address(0));
}

/* ---------------------------------------------------------------- freeing */

/* Say why @addr is not the start of a live area of kind @flag (the caller holds the lock). */
static void report_bad_free(const char *fn, const void *addr, const void *caller,
			    unsigned long flag)
{
	unsigned long a = (unsigned long)addr;
	struct vmap_area *va = __find_vmap_area(a, &busy_vmap_area_tree);

	count_vm_event(VMALLOC_BAD_FREE);
	if (!is_vmalloc_addr(addr)) {
		pr_err("BUG: %s(%px) by %pS: not a vmalloc address\n", fn, addr, caller);
	} else if (va && va->va_start != a) {
		pr_err("BUG: %s(%px) by %pS: inside the area %#lx-%#lx, not at its start\n", fn,
		       addr, caller, va->va_start, va->va_end);
	} else if (va && va->vm && !(va->vm->flags & flag)) {
		pr_err("BUG: %s(%px) by %pS: the area was made by %s: use %s\n", fn, addr, caller,
		       flag == VM_ALLOC ? "vmap()" : "vmalloc()",
		       flag == VM_ALLOC ? "vunmap()" : "vfree()");
	} else if (va && va->vm && (va->vm->flags & VM_DEFERRED_FREE)) {
		pr_err("BUG: %s(%px) by %pS: double free (the area is on the deferred list "
		       "already)\n", fn, addr, caller);
	} else if (va) {
		pr_err("BUG: %s(%px) by %pS: the area is being set up\n", fn, addr, caller);
	} else if (__find_vmap_area(a, &purge_vmap_area_tree)) {
		pr_err("BUG: %s(%px) by %pS: double free (the area was freed already)\n", fn,
		       addr, caller);
	} else {
		for (unsigned int i = 0; i < NR_RECENTLY_FREED; i++) {
			if (recently_freed[i].start == a) {
				pr_err("BUG: %s(%px) by %pS: double free (the area was freed "
				       "already)\n", fn, addr, caller);
				return;
			}
		}
		pr_err("BUG: %s(%px) by %pS: not a live vmalloc area\n", fn, addr, caller);
	}
}

/* Is @va a live area that starts at @addr, of kind @flag, @deferred (VM_DEFERRED_FREE) or not? */
static bool area_to_free(const struct vmap_area *va, const void *addr, unsigned long flag,
			 unsigned long deferred)
{
	return va && va->va_start == (unsigned long)addr && va->vm && (va->vm->flags & flag) &&
	       (va->vm->flags & VM_DEFERRED_FREE) == deferred;
}

/*
 * Take the area that starts at @addr out of the busy tree, if it is a live
 * one of kind @flag (VM_ALLOC or VM_MAP) and, unless the deferred work
 * frees it (@deferred: VM_DEFERRED_FREE), not on a deferred list; report
 * it and return NULL if not.
 */
static struct vmap_area *take_busy_area(const char *fn, const void *addr, unsigned long flag,
					unsigned long deferred, const void *caller)
{
	struct vmap_area *va;
	unsigned long flags;

	spin_lock_irqsave(&vmap_area_lock, flags);
	va = __find_vmap_area((unsigned long)addr, &busy_vmap_area_tree);
	if (!area_to_free(va, addr, flag, deferred)) {
		report_bad_free(fn, addr, caller, flag);
		va = NULL;
	} else {
		unlink_va(va, &busy_vmap_area_tree);
	}
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return va;
}

static void __vfree(const void *addr, unsigned long deferred, const void *caller)
{
	struct vmap_area *va = take_busy_area("vfree", addr, VM_ALLOC, deferred, caller);
	struct vm_struct *vm;
	unsigned long pages;

	if (!va)
		return;
	vm = va->vm;
	pages = vm->nr_pages << vm->page_order;
	kasan_poison_vmalloc(vm->addr, va_size(va));
	/* Unmapped first: the pages go back now, their translations at the purge. */
	vunmap_range_noflush(va->va_start, va->va_end - PAGE_SIZE);
	free_vm_pages(vm);
	free_vmap_area_lazy(va, pages);
	kfree(vm);
}

/* A per-CPU list of areas to vfree() later, linked through their own first word. */
struct vfree_deferred {
	void *head;
	struct work_struct work;
};

static void delayed_vfree_work(struct work_struct *work);
static DEFINE_PER_CPU(struct vfree_deferred, vfree_deferred) = {
	.work = __WORK_INITIALIZER(delayed_vfree_work),
};

static void delayed_vfree_work(struct work_struct *work)
{
	struct vfree_deferred *p = container_of(work, struct vfree_deferred, work);
	void *head = __atomic_exchange_n(&p->head, NULL, __ATOMIC_ACQUIRE);

	while (head) {
		void *next = *(void **)head;

		__vfree(head, VM_DEFERRED_FREE, delayed_vfree_work);
		head = next;
	}
}

/*
 * Put @addr on this CPU's deferred list for @caller (vfree_atomic(), or
 * vfree() where it must not wait).  The caller is passed down, not taken
 * here: a compiler that splits the public function in two would make a
 * report name the function itself.
 */
static void vfree_deferred_add(const void *addr, const void *caller)
{
	struct vfree_deferred *p;
	struct vmap_area *va;
	unsigned long flags;
	void *head;

	spin_lock_irqsave(&vmap_area_lock, flags);
	va = __find_vmap_area((unsigned long)addr, &busy_vmap_area_tree);
	if (!area_to_free(va, addr, VM_ALLOC, 0)) {
		/* Linked a second time, it would point to itself (or to a freed area). */
		report_bad_free("vfree", addr, caller, VM_ALLOC);
		spin_unlock_irqrestore(&vmap_area_lock, flags);
		return;
	}
	va->vm->flags |= VM_DEFERRED_FREE;	/* only the deferred work frees it now */
	p = this_cpu_ptr(&vfree_deferred);
	/* The link is the area's first word, which a tiny vmalloc() did not hand out (KASAN). */
	kasan_unpoison_vmalloc(addr, sizeof(void *));
	head = __atomic_load_n(&p->head, __ATOMIC_RELAXED);
	do {
		*(void **)addr = head;
	} while (!__atomic_compare_exchange_n(&p->head, &head, (void *)addr, false,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	schedule_work(&p->work);
}

/**
 * vfree_atomic - vfree() that never waits: the memory goes on this CPU's
 * deferred list (linked through its own first word, so nothing is
 * allocated) and is freed soon after by deferred work
 * @addr: what vmalloc() returned, or NULL
 *
 * A pointer that is not the start of a live vmalloc area is reported and
 * ignored, at once; so is a second vfree_atomic() or vfree() of an area
 * that waits on a deferred list ("double free"): the area is freed once.
 * Context: any, interrupt handlers included.
 */
void vfree_atomic(const void *addr)
{
	if (addr)
		vfree_deferred_add(addr, __builtin_return_address(0));
}

/**
 * vfree - free what vmalloc() returned
 * @addr: the pointer, or NULL (ignored)
 *
 * The pages go back to the page allocator at once; the range of addresses
 * only after the next lazy purge (see the file comment).  From an
 * interrupt handler or with interrupts off it is vfree_atomic().  A pointer
 * that is not the start of a live vmalloc area (outside the vmalloc space,
 * inside an area, freed already, or made by vmap()) is reported and ignored.
 * Context: any.
 */
void vfree(const void *addr)
{
	if (!addr)
		return;
	if (in_interrupt() || irqs_disabled()) {
		vfree_deferred_add(addr, __builtin_return_address(0));
		return;
	}
	__vfree(addr, 0, __builtin_return_address(0));
}

/* ---------------------------------------------------------------- vmap */

/**
 * vmap - map @count pages side by side in the vmalloc space
 * @pages: the pages (they stay the caller's)
 * @count: how many
 * @flags: VM_MAP (the usual)
 * @prot: PAGE_KERNEL (the usual)
 *
 * Context: may sleep.  Return: the address, or NULL.
 */
void *vmap(struct page **pages, unsigned int count, unsigned long flags, pgprot_t prot)
{
	const void *caller = __builtin_return_address(0);
	unsigned long size = (unsigned long)count << PAGE_SHIFT;
	struct vmap_area *va;
	struct vm_struct *vm;

	if (!count || count > totalram_pages)
		return NULL;
	if (unlikely(READ_ONCE(fail_vmalloc_armed)) && should_fail_vmalloc(size, GFP_KERNEL))
		return NULL;
	vm = kzalloc(sizeof(*vm), GFP_KERNEL);
	va = vm ? alloc_vmap_area(size + PAGE_SIZE, PAGE_SIZE, GFP_KERNEL) : ERR_PTR(-ENOMEM);
	if (IS_ERR(va)) {
		kfree(vm);
		return NULL;
	}
	*vm = (struct vm_struct){ .addr = (void *)va->va_start, .size = va_size(va),
				  .flags = flags | VM_MAP, .node = NUMA_NO_NODE,
				  .caller = caller };
	if (vmap_pages_range(va->va_start, pages, count, 0, prot)) {
		free_vmap_area(va);
		kfree(vm);
		return NULL;
	}
	vm->nr_pages = count;
	kasan_unpoison_vmalloc(vm->addr, size);
	barrier();		/* published as vmalloc_node_caller() does */
	WRITE_ONCE(va->vm, vm);
	return vm->addr;
}

/**
 * vunmap - undo vmap(); the pages stay the caller's
 * @addr: what vmap() returned
 *
 * Context: may sleep (it may purge).  Called with interrupts off or from an
 * interrupt handler it is reported in one line (Linux's might_sleep()
 * would), and the purge it starts is left to deferred work: a range goes
 * back to the free tree only after every CPU flushed it.
 */
void vunmap(const void *addr)
{
	const void *caller = __builtin_return_address(0);
	struct vmap_area *va;
	struct vm_struct *vm;

	if (!addr)
		return;
	if (unlikely(!purge_may_wait()))
		pr_err("BUG: vunmap(%px) by %pS: %s (it may purge, which waits for every CPU): "
		       "the purge is deferred\n", addr, caller,
		       in_interrupt() ? "from an interrupt handler" : "with interrupts off");
	va = take_busy_area("vunmap", addr, VM_MAP, 0, caller);
	if (!va)
		return;
	vm = va->vm;
	kasan_poison_vmalloc(vm->addr, va_size(va));
	vunmap_range_noflush(va->va_start, va->va_end - PAGE_SIZE);
	free_vmap_area_lazy(va, vm->nr_pages);
	kfree(vm);
}

/* ---------------------------------------------------------------- lookups */

/**
 * vmalloc_to_page - the page mapped at @addr in the vmalloc space
 *
 * Return: the page, or NULL if nothing is mapped there.
 */
struct page *vmalloc_to_page(const void *addr)
{
	unsigned int level;
	u64 *pte;

	if (!is_vmalloc_addr(addr))
		return NULL;
	pte = lookup_kernel_pte((unsigned long)addr, &level);
	if (!pte)
		return NULL;
	return pfn_to_page(((*pte & PTE_PFN_MASK) >> PAGE_SHIFT) +
			   (((unsigned long)addr >> PAGE_SHIFT) &
			    ((1UL << (9 * (level - 1))) - 1)));
}

/** vmalloc_to_pfn - the page frame mapped at @addr; Return: it, or 0 */
unsigned long vmalloc_to_pfn(const void *addr)
{
	struct page *page = vmalloc_to_page(addr);

	return page ? page_to_pfn(page) : 0;
}

/**
 * find_vm_area - the live area that @addr is in
 *
 * Return: its vm_struct, or NULL.
 */
struct vm_struct *find_vm_area(const void *addr)
{
	struct vm_struct *vm = NULL;
	struct vmap_area *va;
	unsigned long flags;

	spin_lock_irqsave(&vmap_area_lock, flags);
	va = __find_vmap_area((unsigned long)addr, &busy_vmap_area_tree);
	if (va)
		vm = va->vm;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return vm;
}

/**
 * vm_unmap_aliases - purge now: no CPU keeps a translation of a freed area
 *
 * The spare nodes go back to the slab too, so that afterwards vmalloc holds
 * exactly what its live areas need (the tests and the torture test count on it).
 * Context: interrupts on, not in an interrupt handler; elsewhere it is
 * reported and the purge is left to deferred work.
 */
void vm_unmap_aliases(void)
{
	unsigned long flags;
	LIST_HEAD(spares);

	if (unlikely(!purge_may_wait()))
		pr_err("BUG: vm_unmap_aliases() by %pS: %s (a purge waits for every CPU): "
		       "the purge is deferred\n", __builtin_return_address(0),
		       in_interrupt() ? "from an interrupt handler" : "with interrupts off");
	purge_vmap_area_lazy();
	spin_lock_irqsave(&vmap_area_lock, flags);
	list_splice_init(&spare_nodes, &spares);
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	free_spares(&spares);
}

/**
 * vmalloc_for_each_area - call @fn for every busy and lazily freed area, in
 * address order (for the monitor)
 *
 * @fn runs with the areas locked and interrupts off: it must only look.
 */
void vmalloc_for_each_area(void (*fn)(const struct vmap_area *va, bool lazy, void *arg),
			   void *arg)
{
	struct list_head *b, *l;
	unsigned long flags;

	spin_lock_irqsave(&vmap_area_lock, flags);
	b = busy_vmap_area_tree.head.next;
	l = purge_vmap_area_tree.head.next;
	while (b != &busy_vmap_area_tree.head || l != &purge_vmap_area_tree.head) {
		struct vmap_area *vb = b != &busy_vmap_area_tree.head ?
				       list_entry(b, struct vmap_area, list) : NULL;
		struct vmap_area *vl = l != &purge_vmap_area_tree.head ?
				       list_entry(l, struct vmap_area, list) : NULL;

		if (vb && (!vl || vb->va_start < vl->va_start)) {
			fn(vb, false, arg);
			b = b->next;
		} else {
			fn(vl, true, arg);
			l = l->next;
		}
	}
	spin_unlock_irqrestore(&vmap_area_lock, flags);
}

/* ---------------------------------------------------------------- checking */

struct pt_audit {
	unsigned long mapped;		/* pages mapped in VM_ALLOC and VM_MAP areas */
	unsigned int problems;
};

static void audit_problem(struct pt_audit *a, unsigned long addr, u64 entry, const char *what)
{
	if (a->problems++ < 5)
		pr_err("BUG: vmalloc: page table entry %#llx for %#lx: %s\n",
		       (unsigned long long)entry, addr, what);
}

/* One present entry of the vmalloc space: inside a busy area, and what it maps. */
static void audit_entry(unsigned long addr, u64 entry, unsigned int level, void *arg)
{
	struct vmap_area *va = __find_vmap_area(addr, &busy_vmap_area_tree);
	unsigned long pages = 1UL << (9 * (level - 1)), idx, pfn;
	struct pt_audit *a = arg;
	struct vm_struct *vm = va ? READ_ONCE(va->vm) : NULL;

	if (!vm) {
		audit_problem(a, addr, entry, va ? "in an area being set up" :
				    "outside every busy area (a lazily freed or free range)");
		return;
	}
	if (addr + (pages << PAGE_SHIFT) > va->va_start + vm->size - PAGE_SIZE) {
		audit_problem(a, addr, entry, "maps the area's guard page");
		return;
	}
	if (!(vm->flags & (VM_ALLOC | VM_MAP)))
		return;
	a->mapped += pages;
	if (!(vm->flags & VM_ALLOC) || !vm->pages)
		return;
	idx = (addr - va->va_start) >> (PAGE_SHIFT + vm->page_order);
	pfn = ((addr - va->va_start) >> PAGE_SHIFT) & ((1UL << vm->page_order) - 1);
	if (idx >= vm->nr_pages ||
	    (entry & PTE_PFN_MASK) >> PAGE_SHIFT != page_to_pfn(vm->pages[idx]) + pfn)
		audit_problem(a, addr, entry, "does not map the area's page");
}

/* The pages the busy areas say they have mapped; the three trees tile the space. */
static unsigned int check_areas(unsigned long *pages)
{
	struct rb_list *trees[] = { &free_vmap_area_tree, &busy_vmap_area_tree,
				    &purge_vmap_area_tree };
	static const char *const names[] = { "free", "busy", "lazy" };
	unsigned long total = 0, count;
	unsigned int problems = 0;
	struct vmap_area *va;

	for (int i = 0; i < 3; i++) {
		const char *why = vmap_area_tree_check(trees[i], i == 0, &count);

		if (why) {
			pr_err("BUG: vmalloc: the %s tree: %s\n", names[i], why);
			return problems + 1;
		}
		list_for_each_entry(va, &trees[i]->head, list)
			total += va_size(va);
	}
	if (total != VMALLOC_END - VMALLOC_START) {
		pr_err("BUG: vmalloc: free, busy and lazy areas cover %#lx bytes of %#lx\n", total,
		       VMALLOC_END - VMALLOC_START);
		problems++;
	}
	*pages = 0;
	list_for_each_entry(va, &busy_vmap_area_tree.head, list) {
		const struct vm_struct *vm = READ_ONCE(va->vm);	/* may be published now */

		if (vm && vm->flags & (VM_ALLOC | VM_MAP))
			*pages += (unsigned long)vm->nr_pages << vm->page_order;
	}
	return problems;
}

/**
 * vmalloc_check - check the vmalloc space: its three trees, and its page tables
 *
 * The free, busy and lazily freed trees pass vmap_area_tree_check() and
 * together cover the space exactly (no overlap between the trees either,
 * as their sizes add up to it); then every present entry of the page
 * tables of the space is audited: it lies in a busy area, not on its guard
 * page (a lazily freed area is unmapped at vfree(), before the purge), and
 * in a vmalloc() area maps the page the area's array names, and the busy
 * areas have exactly the pages mapped that they say they have.  A problem
 * is printed as one "BUG: vmalloc:" line (five at most for the entries).
 *
 * Context: a quiescent point: no other CPU maps or unmaps in the space
 * (the page tables are walked under the area lock, which map and unmap do
 * not take); takes the area lock with interrupts off.  The allocator
 * torture (tests/torture/) calls it.
 * Return: the number of problems found (0: consistent).
 */
unsigned int vmalloc_check(void)
{
	struct pt_audit audit = { 0 };
	unsigned long flags, pages;
	unsigned int problems;

	spin_lock_irqsave(&vmap_area_lock, flags);
	problems = check_areas(&pages);
	if (!problems) {
		walk_kernel_range(VMALLOC_START, VMALLOC_END, audit_entry, &audit);
		if (audit.mapped != pages) {
			pr_err("BUG: vmalloc: %lu pages mapped in the areas, which say %lu\n",
			       audit.mapped, pages);
			problems++;
		}
	}
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return problems + audit.problems;
}

/** vmalloc_lazy_pages - pages freed lazily since the last purge, and the threshold */
unsigned long vmalloc_lazy_pages(unsigned long *max)
{
	*max = lazy_max_pages();
	return READ_ONCE(vmap_lazy_nr);
}

/**
 * vmalloc_spare_nodes - struct vmap_areas kept for the next cut (0 to MAX_SPARES)
 *
 * Objects of the "vmap_area" cache that no area uses: a warm cache, not a
 * leak (for the tests' accounting).
 */
unsigned int vmalloc_spare_nodes(void)
{
	struct vmap_area *va;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&vmap_area_lock, flags);
	list_for_each_entry(va, &spare_nodes, list)
		n++;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return n;
}

/* ---------------------------------------------------------------- faults, boot */

/* For the oops of a fault in the vmalloc space: say whose range it was. */
static void vmalloc_describe_fault(unsigned long addr)
{
	struct vmap_area *va;

	if (!is_vmalloc_addr((void *)addr))
		return;
	if (!spin_trylock(&vmap_area_lock)) {
		pr_emerg("vmalloc: %#lx (the vmalloc areas are locked: cannot say whose)\n", addr);
		return;
	}
	va = __find_vmap_area(addr, &busy_vmap_area_tree);
	if (va && addr >= va->va_end - PAGE_SIZE) {
		pr_emerg("vmalloc guard page: %#lx is just past the area %#lx-%#lx (%lu bytes), "
			 "allocated by %pS\n", addr, va->va_start, va->va_end - PAGE_SIZE,
			 va_size(va) - PAGE_SIZE, va->vm ? va->vm->caller : NULL);
	} else if (va) {
		pr_emerg("vmalloc: %#lx is in the area %#lx-%#lx, allocated by %pS\n", addr,
			 va->va_start, va->va_end, va->vm ? va->vm->caller : NULL);
	} else {
		/* Newest first: an older area may have had the same range. */
		for (unsigned int i = 1; i <= NR_RECENTLY_FREED; i++) {
			const typeof(recently_freed[0]) *f =
				&recently_freed[(next_freed - i) % NR_RECENTLY_FREED];

			if (addr >= f->start && addr < f->end) {
				pr_emerg("use after vfree: %#lx is in the area %#lx-%#lx (%lu bytes), "
					 "allocated by %pS and freed\n", addr, f->start,
					 f->end - PAGE_SIZE, f->end - PAGE_SIZE - f->start, f->caller);
				spin_unlock(&vmap_area_lock);
				return;
			}
		}
		pr_emerg("vmalloc: %#lx is in no vmalloc area\n", addr);
	}
	spin_unlock(&vmap_area_lock);
}

/**
 * vmalloc_init - the vmalloc space: all free, its top-level page tables made
 *
 * Context: boot, after the slab allocator.
 */
void vmalloc_init(void)
{
	struct vmap_area *va;

	vmap_area_cachep = kmem_cache_create("vmap_area", sizeof(struct vmap_area), 0,
					     SLAB_PANIC, NULL);
	rb_list_init(&free_vmap_area_tree);
	rb_list_init(&busy_vmap_area_tree);
	rb_list_init(&purge_vmap_area_tree);
	va = kmem_cache_alloc(vmap_area_cachep, GFP_KERNEL);
	if (!va || populate_kernel_pgd(VMALLOC_START, VMALLOC_END, GFP_KERNEL))
		panic("vmalloc: no memory for the vmalloc space's page tables");
	va->va_start = VMALLOC_START;
	va->va_end = VMALLOC_END;
	merge_or_add_vmap_area_augment(va, &free_vmap_area_tree, &spare_nodes);
	set_fault_address_describer(vmalloc_describe_fault);
}
