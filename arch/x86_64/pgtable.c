/*
 * arch/x86_64/pgtable.c - building and changing the kernel's page tables.
 *
 * boot/entry.asm starts the kernel on temporary tables that map the low
 * 4 GiB three ways.  paging_init() replaces them with the kernel's own:
 *
 *   PAGE_OFFSET + phys   every RAM range (and nothing else), RW + NX, with
 *                        1 GiB pages where the CPU has them and the range is
 *                        aligned, else 2 MiB pages, else 4 KiB at the edges;
 *                        the image's text and rodata read-only here too;
 *   KERNEL_VMA + phys    the kernel image with 4 KiB pages: text RX, rodata
 *                        R + NX, data and bss RW + NX (W^X), and the page
 *                        under the boot stack left unmapped as a guard.
 *
 * (NX wherever the CPU has it: on one without, no entry may carry it, and
 * only the read-only half of W^X holds; see x86_configure_nx().)
 *
 * There is no identity map any more, so a NULL dereference faults.  Other
 * mappings (the struct page array, firmware tables through memremap(),
 * device registers through ioremap(), and later vmalloc) are added with
 * map_kernel_range() and map_kernel_page().  New page-table pages come from
 * an allocator mm/ registers (memblock at boot, the buddy allocator after),
 * with the gfp flags the caller passes.
 *
 * Several CPUs may map at once, so the rules are strict:
 *   - a missing table is allocated first, then installed with cmpxchg; if
 *     another CPU installed one meanwhile, ours is freed and theirs used:
 *     no table is lost or leaked, no mapping overwritten;
 *   - mapping over a present entry is refused and reported (as xv6 panics
 *     on "remap"): two owners of one address is always a bug;
 *   - map_kernel_range() either maps the whole range or, if a table cannot
 *     be allocated half-way, unmaps what it mapped and fails.
 * Page-table pages that become empty stay (as Linux's kernel tables do),
 * unless a 2 MiB page takes the place of one (kernel_pte_table_detach()).
 * Nothing here flushes other CPUs' TLBs: callers that unmap use
 * flush_tlb_kernel_range().
 */
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/kasan.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"


u64 __supported_pte_mask = ~_PAGE_NX;

/**
 * x86_configure_nx - let entries carry NX if the CPU has it
 *
 * boot/entry.asm set EFER.NXE if CPUID said the CPU has NX; without it,
 * bit 63 of an entry is reserved, and every mapping is executable (data,
 * stacks, the direct map, vmalloc): only read-only text and rodata remain
 * of W^X, as in Linux on such a CPU.
 * Context: first thing in kmain(), before any entry is made (KASAN's early
 * shadow too): no KASAN instrumentation.
 */
__no_sanitize_address void x86_configure_nx(void)
{
	if (rdmsr(MSR_EFER) & EFER_NXE)
		__supported_pte_mask |= _PAGE_NX;
}

/* Entries that point to a lower table: the lower table decides the rest. */
#define _PAGE_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY)

extern const char _text[], _etext[], _rodata[], _erodata[], _data[], _end[];
extern const char boot_stack_guard[];

static u64 *init_top_pgt;	/* the PML4 every CPU uses after paging_init() */
static phys_addr_t (*alloc_table_page)(gfp_t gfp);
static void (*free_table_page)(phys_addr_t page);
static bool has_gbpages;

static unsigned int pt_index(unsigned long va, unsigned int level)
{
	return (va >> (PAGE_SHIFT + 9 * (level - 1))) & (PTRS_PER_TABLE - 1);
}

/**
 * pgtable_set_allocator - where new page-table pages come from, and go back to
 * @alloc: returns a zeroed, page-aligned page (its physical address), or 0
 * @free: takes back a page @alloc gave that lost the race to be installed
 */
void pgtable_set_allocator(phys_addr_t (*alloc)(gfp_t gfp), void (*free)(phys_addr_t page))
{
	alloc_table_page = alloc;
	free_table_page = free;
}

#if CONFIG_KASAN
/** pgtable_alloc_page - a zeroed page from the allocator mm/ registered; Return: it, or 0 */
phys_addr_t pgtable_alloc_page(gfp_t gfp)
{
	return alloc_table_page ? alloc_table_page(gfp) : 0;
}

/** pgtable_free_page - give back a page pgtable_alloc_page() returned */
void pgtable_free_page(phys_addr_t page)
{
	free_table_page(page);
}
#endif

static u64 *current_top(void)
{
	return init_top_pgt ? init_top_pgt : __va(read_cr3() & PAGE_MASK);
}

/*
 * Install the new table @page in @entry unless another CPU was first; return
 * the entry as it is now.  The loser frees its page: nothing is lost.
 */
static u64 install_table(u64 *entry, u64 old, phys_addr_t page)
{
	u64 new = page | _PAGE_TABLE;

	if (__atomic_compare_exchange_n(entry, &old, new, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return new;
	free_table_page(page);
	return old;
}

/*
 * The entry for @va at @level (4 = PML4 ... 1 = PT), creating the tables on
 * the way with @gfp when @create.  Returns ERR_PTR(-ENOMEM) if a table is
 * missing and cannot be allocated (or @create is false), ERR_PTR(-EEXIST)
 * if a large page maps the address above @level.
 */
static u64 *walk(unsigned long va, unsigned int level, bool create, gfp_t gfp)
{
	u64 *table = current_top();

	for (unsigned int l = 4; l > level; l--) {
		u64 *entry = &table[pt_index(va, l)];
		u64 e = __atomic_load_n(entry, __ATOMIC_ACQUIRE);

		if (!(e & _PAGE_PRESENT)) {
			phys_addr_t page;

			if (!create || !alloc_table_page || !(page = alloc_table_page(gfp)))
				return ERR_PTR(-ENOMEM);
			e = install_table(entry, e, page);
		}
		if (e & _PAGE_PSE)
			return ERR_PTR(-EEXIST);
		table = __va(e & PTE_PFN_MASK);
	}
	return &table[pt_index(va, level)];
}

static int set_entry(unsigned long va, phys_addr_t pa, pgprot_t prot, unsigned int level,
		     gfp_t gfp)
{
	u64 *entry = walk(va, level, true, gfp);
	u64 new = pa | massage_pgprot(prot) | (level > 1 ? _PAGE_PSE : 0), old = 0;

	if (IS_ERR(entry)) {
		if (PTR_ERR(entry) == -EEXIST)
			pr_err("pgtable: cannot map %#lx: a large page maps it already\n", va);
		else if (!(gfp & __GFP_NOWARN))
			pr_err("pgtable: cannot map %#lx: no memory for a page table\n", va);
		return (int)PTR_ERR(entry);
	}
	if (!__atomic_compare_exchange_n(entry, &old, new, false, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED)) {
		pr_err("pgtable: cannot map %#lx to %#llx: already mapped to %#llx\n", va,
		       (unsigned long long)pa, (unsigned long long)(old & PTE_PFN_MASK));
		return -EEXIST;
	}
	return 0;
}

/**
 * map_kernel_page - map one 4 KiB page
 * @va: kernel virtual address, page-aligned, not mapped
 * @pa: physical address, page-aligned
 * @prot: PAGE_KERNEL and friends
 * @gfp: for the page-table pages it may need (GFP_KERNEL, or a gfp that
 *	 does not sleep); with __GFP_NOWARN an allocation failure is silent
 *
 * Safe against other CPUs mapping nearby addresses at the same time.
 * Context: as @gfp allows.
 * Return: 0; -ENOMEM if a page table could not be allocated; -EEXIST
 * (reported) if @va is mapped already.
 */
int map_kernel_page(unsigned long va, phys_addr_t pa, pgprot_t prot, gfp_t gfp)
{
	return set_entry(va, pa, prot, 1, gfp);
}

/* A range map_kernel_range() cannot map as asked: unaligned, or past the top. */
static bool bad_range(unsigned long va, phys_addr_t pa, unsigned long size, void *caller)
{
	if (!IS_ALIGNED(va | pa | size, PAGE_SIZE)) {
		pr_err("BUG: map_kernel_range(%#lx, %#llx, %#lx) by %pS: not page-aligned\n", va,
		       (unsigned long long)pa, size, caller);
		return true;
	}
	/* va + size == 0 ends at the top: fine; past it, the range wraps. */
	if (size && va + size - 1 < va) {
		pr_err("BUG: map_kernel_range(%#lx, %#llx, %#lx) by %pS: the range wraps\n", va,
		       (unsigned long long)pa, size, caller);
		return true;
	}
	return false;
}

/**
 * map_kernel_range - map [@va, @va+@size) to [@pa, ...) with the largest pages that fit
 * @va: page-aligned start, none of it mapped
 * @pa: page-aligned physical start
 * @size: bytes, a multiple of PAGE_SIZE; @va + @size must not wrap
 * @prot: PAGE_KERNEL and friends
 * @gfp: for page-table pages, as map_kernel_page()
 *
 * All or nothing: if it fails half-way, what it mapped is unmapped again
 * (the page tables it allocated stay).
 * Context: as @gfp allows.
 * Return: 0, or as map_kernel_page(); -EINVAL (reported in one line) for
 * an unaligned or wrapping range, with nothing mapped.
 */
int map_kernel_range(unsigned long va, phys_addr_t pa, unsigned long size, pgprot_t prot,
		     gfp_t gfp)
{
	unsigned long start = va, left = size;

	if (bad_range(va, pa, size, __builtin_return_address(0)))
		return -EINVAL;
	/* Counted in bytes left, not up to va + size: a range may end at the very top. */
	while (left) {
		unsigned int level = 1;
		unsigned long step = PAGE_SIZE;
		int err;

		if (has_gbpages && IS_ALIGNED(va | pa, PUD_SIZE) && left >= PUD_SIZE) {
			level = 3;
			step = PUD_SIZE;
		} else if (IS_ALIGNED(va | pa, PMD_SIZE) && left >= PMD_SIZE) {
			level = 2;
			step = PMD_SIZE;
		}
		err = set_entry(va, pa, prot, level, gfp);
		if (err) {
			unmap_kernel_range(start, size - left);
			return err;
		}
		va += step;
		pa += step;
		left -= step;
	}
	return 0;
}

/**
 * kernel_pte_alloc - the 4 KiB-level entry for @va, making the tables above it
 * @va: kernel virtual address
 * @gfp: for the page-table pages, as map_kernel_page()
 *
 * The entries for the rest of @va's 2 MiB block follow the one returned, in
 * the same page table: a caller that owns the whole range (vmalloc owns its
 * areas) writes them one after the other, with no walk per page.
 * Context: as @gfp allows.
 * Return: the entry, or ERR_PTR(-ENOMEM) (no memory for a table) or
 * ERR_PTR(-EEXIST) (a large page maps @va).
 */
u64 *kernel_pte_alloc(unsigned long va, gfp_t gfp)
{
	return walk(va, 1, true, gfp);
}

/**
 * kernel_pte_lookup - the 4 KiB-level entry for @va, present or not
 *
 * As kernel_pte_alloc(), but nothing is made.
 * Return: the entry, or NULL if there is no page table for @va (or a large
 * page maps it).
 */
u64 *kernel_pte_lookup(unsigned long va)
{
	u64 *entry = walk(va, 1, false, 0);

	return IS_ERR(entry) ? NULL : entry;
}

/**
 * kernel_pte_table_detach - unhook the empty page table of a 2 MiB block
 * @va: the block's first address (2 MiB-aligned)
 *
 * Page tables stay when their mappings go (see the top of this file), so a
 * block once mapped with 4 KiB pages keeps its table, and a 2 MiB page
 * cannot take its place.  For a caller that owns the whole block and maps
 * it with one 2 MiB page next (vmalloc_huge(), as Linux's
 * vmap_try_huge_pmd() with pmd_free_pte_page()): if the block's PD entry
 * points to a table with no present entry, the entry is cleared.  Other
 * CPUs may still hold it in their paging-structure caches: the caller
 * flushes (flush_tlb_kernel_range()) before kernel_pte_table_free().
 * Return: the table's physical address, or 0 if there is none, or it
 * still maps something.
 */
phys_addr_t kernel_pte_table_detach(unsigned long va)
{
	u64 *entry = walk(va, 2, false, 0);
	const u64 *table;

	if (IS_ERR(entry) || (*entry & (_PAGE_PRESENT | _PAGE_PSE)) != _PAGE_PRESENT)
		return 0;
	table = __va(*entry & PTE_PFN_MASK);
	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++) {
		if (table[i])
			return 0;
	}
	return __atomic_exchange_n(entry, 0, __ATOMIC_ACQ_REL) & PTE_PFN_MASK;
}

/** kernel_pte_table_free - give back a table kernel_pte_table_detach() unhooked */
void kernel_pte_table_free(phys_addr_t table)
{
	free_table_page(table);
}

/**
 * lookup_kernel_pte - the entry that maps @va, at whatever level
 * @va: kernel virtual address
 * @level: set to 1 (4 KiB), 2 (2 MiB) or 3 (1 GiB)
 *
 * Return: a pointer to the present entry, or NULL if @va is not mapped.
 */
u64 *lookup_kernel_pte(unsigned long va, unsigned int *level)
{
	u64 *table = current_top();

	for (unsigned int l = 4; l >= 1; l--) {
		u64 *entry = &table[pt_index(va, l)];

		if (!(*entry & _PAGE_PRESENT))
			return NULL;
		if (l == 1 || *entry & _PAGE_PSE) {
			*level = l;
			return entry;
		}
		table = __va(*entry & PTE_PFN_MASK);
	}
	return NULL;
}

/* walk_kernel_range()'s steps: @table at @level covers @base upwards. */
static void walk_table(u64 *table, unsigned int level, unsigned long base, unsigned long start,
		       unsigned long end, walk_fn fn, void *arg)
{
	unsigned long span = 1UL << (PAGE_SHIFT + 9 * (level - 1));

	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++) {
		unsigned long va = base + i * span;
		u64 e = READ_ONCE(table[i]);

		if (va + span - 1 < start || va > end - 1)	/* (end may be 0: the top) */
			continue;
		if (!(e & _PAGE_PRESENT))
			continue;
		if (level == 1 || e & _PAGE_PSE)
			fn(va, e, level, arg);
		else
			walk_table(__va(e & PTE_PFN_MASK), level - 1, va, start, end, fn, arg);
	}
}

/**
 * walk_kernel_range - call @fn for every present leaf entry that maps part of [@start, @end)
 * @fn: called with the address the entry maps from, the entry, and its level
 *      (1: 4 KiB, 2: 2 MiB, 3: 1 GiB)
 * @arg: passed to @fn
 *
 * For the checkers (the page-table audit of the vmalloc space,
 * vmalloc_check()): absent tables are skipped whole, so a sparse range is
 * quick.  No lock: the caller makes sure nobody changes the range meanwhile.
 * Context: any.
 */
void walk_kernel_range(unsigned long start, unsigned long end, walk_fn fn, void *arg)
{
	walk_table(current_top(), 4, 0xffff000000000000UL, start, end, fn, arg);
}

/* for_each_kernel_table()'s steps: @table at @level, then the tables below it. */
static void visit_tables(u64 *table, unsigned int level, void (*fn)(phys_addr_t, void *), void *arg)
{
	fn(__pa(table), arg);
	if (level == 1)
		return;
	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++) {
		u64 e = READ_ONCE(table[i]);

		if ((e & (_PAGE_PRESENT | _PAGE_PSE)) == _PAGE_PRESENT)
			visit_tables(__va(e & PTE_PFN_MASK), level - 1, fn, arg);
	}
}

/**
 * for_each_kernel_table - call @fn with the physical address of every page of
 * the kernel page tables, the top one first
 * @fn: called once per table page
 * @arg: passed to @fn
 *
 * mm/init.c marks the tables built before the buddy allocator (PG_table);
 * the page snapshot's test counts them.  No lock: a 4 KiB-page table that
 * vmalloc unhooks meanwhile (kernel_pte_table_detach()) could be followed
 * after it is freed, so the caller makes sure no huge vmalloc mapping is
 * being made.  Context: boot, or a test on a quiet machine.
 */
void for_each_kernel_table(void (*fn)(phys_addr_t table, void *arg), void *arg)
{
	visit_tables(current_top(), 4, fn, arg);
}

/** kernel_page_mapped - is there a present mapping for @va? */
bool kernel_page_mapped(unsigned long va)
{
	unsigned int level;

	return lookup_kernel_pte(va, &level) != NULL;
}

/**
 * populate_kernel_pgd - give [@start, @last] its top-level (PML4) entries now
 * @start: first address
 * @last: last address (inclusive, as VMALLOC_END)
 * @gfp: for the page-table pages
 *
 * vmalloc calls this once at boot for its whole space, as Linux's
 * preallocate_vmalloc_pages() does: the top-level entries never change
 * afterwards, so a mapping made later is seen by every CPU with no step to
 * copy top-level entries between page tables.
 * Context: boot.  Return: 0, or -ENOMEM.
 */
int populate_kernel_pgd(unsigned long start, unsigned long last, gfp_t gfp)
{
	unsigned int n = pt_index(last, 4) - pt_index(start, 4) + 1;

	for (unsigned int i = 0; i < n; i++) {
		if (IS_ERR(walk(start + i * PGDIR_SIZE, 3, true, gfp)))
			return -ENOMEM;
	}
	return 0;
}

/**
 * unmap_kernel_page - clear the 4 KiB mapping of @va
 *
 * The TLB is not flushed: the caller must (flush_tlb_kernel_range()).
 * Return: the old entry (0 if there was none).
 */
u64 unmap_kernel_page(unsigned long va)
{
	u64 *entry = walk(va, 1, false, 0);

	if (IS_ERR(entry))
		return 0;
	return __atomic_exchange_n(entry, 0, __ATOMIC_ACQ_REL);
}

/**
 * unmap_kernel_range - clear every mapping of [@va, @va+@size), whatever its page size
 *
 * A large page must lie wholly inside the range (they are not split); one
 * that does not is reported and left mapped.  A range that wraps past the
 * top of the address space is reported and nothing is unmapped; one that
 * ends at the very top (@va + @size == 0) is fine.  The TLB is not
 * flushed: the caller must (flush_tlb_kernel_range()).
 */
void unmap_kernel_range(unsigned long va, unsigned long size)
{
	unsigned long start = va, end = va + size;

	if (!size)
		return;
	if (end - 1 < va) {
		pr_err("BUG: unmap_kernel_range(%#lx, %#lx) by %pS: the range wraps; nothing "
		       "unmapped\n", va, size, __builtin_return_address(0));
		return;
	}
	/* end == 0: the range ends at the top, where va itself wraps to 0 when done */
	while (end ? va < end : va >= start) {
		unsigned int level;
		u64 *entry = lookup_kernel_pte(va, &level);
		unsigned long step;

		if (!entry) {	/* then level is not set */
			va = ALIGN_DOWN(va, PAGE_SIZE) + PAGE_SIZE;
			continue;
		}
		step = 1UL << (PAGE_SHIFT + 9 * (level - 1));
		if (!IS_ALIGNED(va, step) || end - va < step) {
			pr_err("pgtable: not unmapping %#lx: part of a larger page\n", va);
			va = ALIGN_DOWN(va, step) + step;
			continue;
		}
		__atomic_store_n(entry, 0, __ATOMIC_RELEASE);
		va += step;
	}
}

static void map_image_part(const char *start, const char *end, pgprot_t prot)
{
	for (unsigned long va = (unsigned long)start; va < (unsigned long)end; va += PAGE_SIZE) {
		if (va == (unsigned long)boot_stack_guard)
			continue;	/* the guard stays unmapped */
		if (map_kernel_page(va, __pa((void *)va), prot, GFP_KERNEL))
			panic("paging_init: cannot map the kernel image");
	}
}

/*
 * The direct map of RAM [start, end).  The 2 MiB around the kernel image
 * are mapped with 4 KiB pages so that the image's text and rodata are
 * read-only there too: W^X would mean little if the code could be
 * written through its direct-map alias.
 */
static int map_direct(phys_addr_t start, phys_addr_t end)
{
	phys_addr_t win_start = ALIGN_DOWN(__pa(_text), PMD_SIZE);
	phys_addr_t win_end = ALIGN(__pa(_end), PMD_SIZE);
	phys_addr_t lo = max(start, win_start), hi = min(end, win_end);

	if (start < min(end, win_start) &&
	    map_kernel_range((unsigned long)__va(start), start, min(end, win_start) - start,
			     PAGE_KERNEL, GFP_KERNEL))
		return -1;
	for (phys_addr_t p = lo; p < hi; p += PAGE_SIZE) {
		bool read_only = p >= __pa(_text) && p < __pa(_erodata);

		if (map_kernel_page((unsigned long)__va(p), p,
				    read_only ? PAGE_KERNEL_RO : PAGE_KERNEL, GFP_KERNEL))
			return -1;
	}
	if (max(start, win_end) < end &&
	    map_kernel_range((unsigned long)__va(max(start, win_end)), max(start, win_end),
			     end - max(start, win_end), PAGE_KERNEL, GFP_KERNEL))
		return -1;
	return 0;
}

/**
 * paging_init - build the kernel's page tables and switch to them
 * @ram: the RAM ranges to put in the direct map
 * @nr_ranges: how many
 *
 * Context: boot CPU, once, after pgtable_set_allocator().  Everything that
 * was reachable only through the boot identity map or the boot map of the
 * low 4 GiB is gone afterwards: use memremap() or ioremap() for it.
 */
void paging_init(const struct phys_range *ram, unsigned int nr_ranges)
{
	u32 a, b, c, d;
	phys_addr_t top;

	cpuid(0x80000001, 0, &a, &b, &c, &d);
	has_gbpages = d & (1U << 26);
	top = alloc_table_page(GFP_KERNEL);
	if (!top)
		panic("paging_init: no memory for the top-level page table");
	/* Build the new tables while the boot tables are live; switch at the end. */
	init_top_pgt = __va(top);
	for (unsigned int i = 0; i < nr_ranges; i++) {
		if (map_direct(ram[i].start, ram[i].end))
			panic("paging_init: no memory for the direct map's tables");
	}
	map_image_part(_text, _etext, PAGE_KERNEL_RX);
	map_image_part(_rodata, _erodata, PAGE_KERNEL_RO);
	map_image_part(_data, _end, PAGE_KERNEL);
	kasan_copy_early_shadow(init_top_pgt);
	write_cr3(top);
	pr_info("paging: direct map of %u RAM ranges with %s pages, kernel image %s\n",
		nr_ranges, has_gbpages ? "1 GiB/2 MiB" : "2 MiB",
		__supported_pte_mask & _PAGE_NX ? "W^X" : "text and rodata read-only");
	if (!(__supported_pte_mask & _PAGE_NX))
		pr_info("Notice: NX (Execute Disable) protection missing in CPU!\n");
}

/** paging_ready - true once the kernel runs on its own page tables */
bool paging_ready(void)
{
	return init_top_pgt != NULL;
}

static void *remap(phys_addr_t phys, size_t size, pgprot_t prot)
{
	phys_addr_t start = ALIGN_DOWN(phys, PAGE_SIZE), end = ALIGN(phys + size, PAGE_SIZE);

	for (phys_addr_t p = start; p < end; p += PAGE_SIZE) {
		unsigned long va = (unsigned long)__va(p);

		if (!kernel_page_mapped(va) && map_kernel_page(va, p, prot, GFP_KERNEL))
			return NULL;
	}
	return __va(phys);
}

/**
 * memremap - make firmware memory (ACPI tables...) readable, write-back cached
 * @phys: physical address
 * @size: bytes
 *
 * Maps the range at the address the direct map would give it
 * (PAGE_OFFSET + phys) if it is not mapped already, so the same physical
 * address always has the same virtual one.  Mappings are never removed.
 * Context: may allocate page-table pages.
 * Return: the virtual address, or NULL if a page table could not be allocated.
 */
void *memremap(phys_addr_t phys, size_t size)
{
	return remap(phys, size, PAGE_KERNEL);
}

/**
 * ioremap - make device registers (local APIC, I/O APIC...) addressable, uncached
 *
 * Like memremap(), with caching disabled (PCD | PWT).
 * Return: the virtual address, or NULL if a page table could not be allocated.
 */
void *ioremap(phys_addr_t phys, size_t size)
{
	return remap(phys, size, PAGE_KERNEL_NOCACHE);
}

/**
 * zap_boot_identity_map - unmap virtual 0..512 GiB (PML4 entry 0) of the boot tables
 *
 * Called as soon as kmain runs in the high half, so that NULL faults even
 * before paging_init().  Context: early boot, one CPU.
 */
void zap_boot_identity_map(void)
{
	unsigned long *pml4 = __va(read_cr3() & PAGE_MASK);

	pml4[0] = 0;
	write_cr3(read_cr3());	/* flush the TLB of the old translations */
}
