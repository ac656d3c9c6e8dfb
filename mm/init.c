/*
 * mm/init.c - the kernel-only half of memory set-up (mm_init()).
 *
 * Before the buddy allocator can run, the kernel needs its own page tables
 * (a direct map of exactly the RAM memblock knows) and somewhere to keep
 * the struct page of every frame: the virtual array vmemmap, of which only
 * the parts describing RAM are backed by memory.  Both are built with pages
 * from memblock.  Then mm_core_init() (mm/mm_init.c, shared with the host
 * tests) starts the buddy allocator, which from then on also supplies
 * page-table pages.
 */
#include "mm/internal.h"
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

static void *memblock_percpu_area(unsigned long size)
{
	return memblock_alloc(ALIGN(size, PAGE_SIZE), PAGE_SIZE);
}

/*
 * ... and from the buddy allocator afterwards, with the caller's gfp,
 * counted (Linux's NR_PAGETABLE, "PageTables" in /proc/meminfo): they
 * stay when their mappings go, so a test that counts free pages across
 * vmalloc() and vfree() must know how many page tables were made meanwhile.
 */
unsigned long nr_pagetable_pages;

static phys_addr_t buddy_table_page(gfp_t gfp)
{
	unsigned long addr = get_zeroed_page(gfp);

	if (!addr)
		return 0;
	__atomic_fetch_add(&nr_pagetable_pages, 1, __ATOMIC_RELAXED);
	return __pa((void *)addr);
}

static void buddy_free_table_page(phys_addr_t page)
{
	__atomic_fetch_sub(&nr_pagetable_pages, 1, __ATOMIC_RELAXED);
	free_page((unsigned long)__va(page));
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

/* Struct pages for whole 16 MiB sections that hold RAM. */
static void sparse_init(void)
{
	const struct memblock_region *r;
	const unsigned long section = 1UL << 12;

	for_each_memblock(memory, r) {
		unsigned long start = ALIGN_DOWN(r->base >> PAGE_SHIFT, section);
		unsigned long end = ALIGN((r->base + r->size) >> PAGE_SHIFT, section);

		sparse_mark_present(start, end);
		vmemmap_populate(start, end);
	}
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
	sparse_init();
	/* Before mm_core_init(): the zones' per-CPU lists come from alloc_percpu(). */
	setup_per_cpu_areas(memblock_percpu_area);
	mm_core_init();
	pgtable_set_allocator(buddy_table_page, buddy_free_table_page);
}
