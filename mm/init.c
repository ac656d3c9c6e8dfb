/*
 * mm/init.c - the kernel-only half of memory set-up (mm_init()).  It is
 * apart from mm/mm_init.c because the host tests build that half and
 * cannot build this one: it writes the CPU's page tables.
 *
 * Before the buddy allocator can run, the kernel needs its own page tables
 * (a direct map of exactly the RAM memblock knows) and somewhere to keep
 * the struct page of every frame: the virtual array vmemmap, of which only
 * the parts describing RAM are backed by memory (the holes between them
 * share one zeroed page, read-only).  Both are built with pages
 * from memblock.  Then mm_core_init() (mm/mm_init.c, shared with the host
 * tests) starts the buddy allocator, which from then on also supplies
 * page-table pages.
 */
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/memblock.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define BOOT_MAPPED_LIMIT	(4ULL << 30)	/* what the boot page tables map at PAGE_OFFSET */

/* Page-table pages: from memblock at boot (one CPU: gfp does not matter)... */
static phys_addr_t memblock_table_page(gfp_t gfp)
{
	void *p = memblock_alloc(PAGE_SIZE, PAGE_SIZE);

	(void)gfp;
	return p ? __pa(p) : 0;
}

static void memblock_free_table_page(phys_addr_t page)
{
	memblock_phys_free(page, PAGE_SIZE);
}

/** pageblock_flags_alloc - @bytes of boot memory for a zone's pageblock types, or NULL */
void *pageblock_flags_alloc(unsigned long bytes)
{
	return memblock_alloc(bytes, 1);
}

static void *memblock_percpu_area(unsigned long size)
{
	return memblock_alloc(ALIGN(size, PAGE_SIZE), PAGE_SIZE);
}

/*
 * Page-table pages the kernel took from the buddy allocator and keeps (they
 * stay when they empty, docs/vmalloc.md), KASAN's shadow pages included:
 * free-page accounting (the tests, the torture test) adds them back.
 */
unsigned long nr_kernel_pagetable_pages;

/* ... and from the buddy allocator afterwards, with the caller's gfp. */
static phys_addr_t buddy_table_page(gfp_t gfp)
{
	unsigned long addr = get_zeroed_page(gfp);

	if (!addr)
		return 0;
	__atomic_add_fetch(&nr_kernel_pagetable_pages, 1, __ATOMIC_RELAXED);
	page_set(virt_to_page((void *)addr), PG_table);	/* ours until freed */
	return __pa((void *)addr);
}

static void buddy_free_table_page(phys_addr_t page)
{
	__atomic_sub_fetch(&nr_kernel_pagetable_pages, 1, __ATOMIC_RELAXED);
	page_clear(pfn_to_page(page >> PAGE_SHIFT), PG_table);
	free_page((unsigned long)__va(page));
}

/*
 * The tables built from memblock are reserved pages; PG_table tells the
 * page snapshot (mm/page_snapshot.c) what they are, as on the buddy's.
 */
static void mark_boot_table(phys_addr_t table, void *arg)
{
	(void)arg;
	page_set(pfn_to_page(table >> PAGE_SHIFT), PG_table);
}

/* Back the part of vmemmap that describes frames [start_pfn, end_pfn). */
static void vmemmap_populate(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long start = ALIGN_DOWN((unsigned long)pfn_to_page(start_pfn), PAGE_SIZE);
	unsigned long end = ALIGN((unsigned long)pfn_to_page(end_pfn), PAGE_SIZE);

	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		phys_addr_t page;

		if (kernel_page_mapped(va))
			continue;	/* shared with the previous range */
		page = memblock_table_page(GFP_KERNEL);
		if (!page || map_kernel_page(va, page, PAGE_KERNEL, GFP_KERNEL))
			panic("mm: no memory for the struct page array");
	}
}

/*
 * The sections below max_pfn without RAM (the PC's hole below 4 GiB, gaps
 * between nodes) read as zeroed struct pages: each page of their part of
 * vmemmap maps the same zeroed page, read-only.  A zeroed struct page is
 * no slab and no block, so kfree() of an address in a hole needs no
 * pfn_valid() on its fast path to be told apart (mm/slab_internal.h,
 * virt_to_slab_checked()); a write to one would fault.  A few page tables
 * are the whole cost: 16 KiB for a 1 GiB hole.
 */
static void vmemmap_back_holes(void)
{
	const unsigned long section = 1UL << PFN_SECTION_SHIFT;
	phys_addr_t zeroed = 0;

	for (unsigned long pfn = 0; pfn < max_pfn; pfn += section) {
		unsigned long start = (unsigned long)pfn_to_page(pfn);
		unsigned long end = (unsigned long)pfn_to_page(pfn + section);

		if (pfn_valid(pfn))
			continue;
		if (!zeroed)
			zeroed = memblock_table_page(GFP_KERNEL);	/* zeroed by memblock */
		for (unsigned long va = start; va < end; va += PAGE_SIZE) {
			if (!zeroed || map_kernel_page(va, zeroed, PAGE_KERNEL_RO, GFP_KERNEL))
				panic("mm: no memory for the struct page array");
		}
	}
}

/* Struct pages for whole 16 MiB sections that hold RAM; zeroed ones for holes. */
static void sparse_init(void)
{
	const struct memblock_region *r;
	const unsigned long section = 1UL << PFN_SECTION_SHIFT;

	for_each_memblock(memory, r) {
		unsigned long start = ALIGN_DOWN(r->base >> PAGE_SHIFT, section);
		unsigned long end = ALIGN((r->base + r->size) >> PAGE_SHIFT, section);

		sparse_mark_present(start, end);
		vmemmap_populate(start, end);
	}
	vmemmap_back_holes();
}

/**
 * mm_init - page tables, struct pages, then the buddy allocator
 *
 * Context: boot CPU, once, after memblock has been told about RAM and what
 * is reserved.  Afterwards memblock must not be used.
 */
void mm_init(void)
{
	struct phys_range ram[MEMBLOCK_MAX_REGIONS];
	const struct memblock_region *r;
	unsigned int n = 0;

	BUILD_BUG_ON(sizeof(struct page) > 32);
	memblock.limit = BOOT_MAPPED_LIMIT;
	memblock_dump();
	pgtable_set_allocator(memblock_table_page, memblock_free_table_page);
	for_each_memblock(memory, r)
		ram[n++] = (struct phys_range){ r->base, r->base + r->size };
	paging_init(ram, n);
	memblock.limit = ~(phys_addr_t)0;	/* all RAM is mapped now */
	kasan_init(ram, n);			/* a KASAN kernel's shadow of RAM, from memblock */
	sparse_init();
	/* Before mm_core_init(): the zones' per-CPU lists come from alloc_percpu(). */
	setup_per_cpu_areas(memblock_percpu_area);
	mm_core_init();
	for_each_kernel_table(mark_boot_table, NULL);
	pgtable_set_allocator(buddy_table_page, buddy_free_table_page);
}
