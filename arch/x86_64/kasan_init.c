/*
 * arch/x86_64/kasan_init.c - KASAN's shadow memory in the page tables.
 *
 * The shadow (arch/x86_64/kasan.h) is 16 TiB of addresses; only the parts
 * that describe memory really used get memory of their own.  The rest is
 * one page of zeros mapped everywhere, through three page tables that
 * point to themselves level by level (Linux's kasan_early_shadow_*):
 *
 *   PML4 entries of the shadow --> early PUD: 512 x --> early PMD: 512 x
 *       --> early PTE: 512 x --> the zero page
 *
 * A zero shadow byte means "all 8 bytes accessible", so memory that only
 * has this shadow is never reported: the struct page array, firmware
 * tables, device registers.
 *
 *   kasan_early_init()   first thing in kmain(): the boot page tables get
 *                        the early shadow, writable, because instrumented
 *                        functions write their stack redzones' shadow from
 *                        the start (the writes land in the zero page, and
 *                        are wiped out below);
 *   paging_init()        copies those PML4 entries into the kernel's own tables;
 *   kasan_init_shadow()  gives real, zeroed pages to the shadow of RAM (the
 *                        direct map), of the kernel image and of the CPU
 *                        stacks, then wipes the zero page and maps it read-only;
 *   kasan_populate_shadow()  later, the shadow of each vmalloc area, with
 *                        pages from the page allocator (mm/kasan/shadow.c).
 *
 * Populating replaces an early table by a copy of it before changing an
 * entry, so the rest still reads zeros; like arch/x86_64/pgtable.c, it
 * installs each new table or page with a compare-and-exchange, so CPUs
 * populating at once lose nothing.  Shadow pages are never freed.
 *
 * This file is not instrumented (the Makefile), and only built with KASAN=1.
 */
#include "arch/x86_64/kasan.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SHADOW_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY)
#define SHADOW_PAGE_RW	(SHADOW_TABLE | (_PAGE_NX & __supported_pte_mask))
#define SHADOW_PAGE_RO	(_PAGE_PRESENT | _PAGE_ACCESSED | (_PAGE_NX & __supported_pte_mask))

static u8 early_shadow_page[PAGE_SIZE] __aligned(PAGE_SIZE);
static u64 early_shadow_pte[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static u64 early_shadow_pmd[PTRS_PER_TABLE] __aligned(PAGE_SIZE);
static u64 early_shadow_pud[PTRS_PER_TABLE] __aligned(PAGE_SIZE);

extern const char _text[], _end[], boot_stack_guard[], boot_stack_top[];

static unsigned int pt_index(unsigned long va, unsigned int level)
{
	return (va >> (PAGE_SHIFT + 9 * (level - 1))) & (PTRS_PER_TABLE - 1);
}

/* The early table that an entry at @level points to (level 1: the zero page). */
static phys_addr_t early_table(unsigned int level)
{
	const void *t = level == 4 ? (const void *)early_shadow_pud :
			level == 3 ? (const void *)early_shadow_pmd :
			level == 2 ? (const void *)early_shadow_pte : (const void *)early_shadow_page;

	return __pa(t);
}

/**
 * kasan_early_init - map the early shadow in the boot page tables
 *
 * Context: boot CPU, first thing in kmain(), before any instrumented code
 * with a stack redzone runs.
 */
void kasan_early_init(void)
{
	u64 *top = __va(read_cr3() & PAGE_MASK);

	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++) {
		early_shadow_pte[i] = early_table(1) | SHADOW_PAGE_RW;
		early_shadow_pmd[i] = early_table(2) | SHADOW_TABLE;
		early_shadow_pud[i] = early_table(3) | SHADOW_TABLE;
	}
	kasan_copy_early_shadow(top);
	write_cr3(read_cr3());
}

/**
 * kasan_copy_early_shadow - give the top-level table @top the shadow's entries
 *
 * paging_init() calls it for the kernel's own tables before switching to them.
 */
void kasan_copy_early_shadow(u64 *top)
{
	for (unsigned long va = KASAN_SHADOW_START; va < KASAN_SHADOW_END; va += PGDIR_SIZE)
		top[pt_index(va, 4)] = early_table(4) | SHADOW_TABLE;
}

/* A new page for the shadow or its tables, at @level: a copy of the early table, or zeros. */
static phys_addr_t new_shadow_page(unsigned int level, gfp_t gfp)
{
	phys_addr_t page = pgtable_alloc_page(gfp);

	if (page && level > 1)
		memcpy(__va(page), __va(early_table(level)), PAGE_SIZE);
	return page;
}

/*
 * Put a page of its own under the shadow address @va (page-aligned), with
 * tables of its own on the way down.  Already done: nothing to do.
 */
static int populate_page(unsigned long va, gfp_t gfp)
{
	u64 *table = __va(read_cr3() & PAGE_MASK);

	for (unsigned int level = 4; level >= 1; level--) {
		u64 *entry = &table[pt_index(va, level)];
		u64 e = __atomic_load_n(entry, __ATOMIC_ACQUIRE);

		if (!(e & _PAGE_PRESENT) || (e & PTE_PFN_MASK) == early_table(level)) {
			phys_addr_t page = new_shadow_page(level, gfp);
			u64 new = page | (level > 1 ? SHADOW_TABLE : SHADOW_PAGE_RW);

			if (!page)
				return -ENOMEM;
			if (__atomic_compare_exchange_n(entry, &e, new, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				e = new;
			else
				pgtable_free_page(page);	/* another CPU was first */
		}
		table = __va(e & PTE_PFN_MASK);
	}
	return 0;
}

/**
 * kasan_populate_shadow - real shadow pages for the memory [@start, @end)
 * @start: first byte of memory (not of shadow)
 * @end: end of the memory
 * @gfp: for the pages and tables (memblock's at boot, the page allocator's later)
 *
 * The new pages are zeroed: the memory reads as accessible until poisoned.
 * Context: as @gfp allows.  Return: 0, or -ENOMEM (what was populated stays).
 */
int kasan_populate_shadow(unsigned long start, unsigned long end, gfp_t gfp)
{
	unsigned long s = ALIGN_DOWN((unsigned long)kasan_mem_to_shadow((void *)start), PAGE_SIZE);
	unsigned long e = ALIGN((unsigned long)kasan_mem_to_shadow((void *)(end - 1)) + 1,
				PAGE_SIZE);

	for (unsigned long va = s; va < e; va += PAGE_SIZE) {
		if (populate_page(va, gfp))
			return -ENOMEM;
	}
	return 0;
}

static void populate_or_panic(unsigned long start, unsigned long end)
{
	if (kasan_populate_shadow(start, end, GFP_KERNEL))
		panic("kasan: no memory for the shadow of %#lx-%#lx", start, end);
}

/**
 * kasan_init_shadow - real shadow for RAM, the kernel image and the CPU stacks
 * @ram: the RAM ranges (as for paging_init())
 * @nr_ranges: how many
 *
 * Afterwards the zero page is wiped (early stack redzones wrote to it) and
 * mapped read-only: a write to a shadow nobody populated faults at once.
 * Context: boot CPU, once, after paging_init(), while page-table pages
 * still come from memblock.
 */
void kasan_init_shadow(const struct phys_range *ram, unsigned int nr_ranges)
{
	unsigned long shadow_pages = 0;

	for (unsigned int i = 0; i < nr_ranges; i++) {
		populate_or_panic((unsigned long)__va(ram[i].start), (unsigned long)__va(ram[i].end));
		shadow_pages += (ram[i].end - ram[i].start) >> (PAGE_SHIFT + KASAN_SHADOW_SCALE_SHIFT);
	}
	populate_or_panic((unsigned long)_text, (unsigned long)_end);
	populate_or_panic(CPU_STACKS_START, ap_stack_bottom(NR_CPUS));
	memset(early_shadow_page, 0, PAGE_SIZE);
	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
		early_shadow_pte[i] = early_table(1) | SHADOW_PAGE_RO;
	write_cr3(read_cr3());
	pr_info("kasan: shadow at %#lx-%#lx: %lu KiB for RAM, the rest one read-only zero page\n",
		KASAN_SHADOW_START, KASAN_SHADOW_END - 1, shadow_pages * (PAGE_SIZE / 1024));
}

/**
 * kasan_current_stack - the bounds of the stack this CPU runs on
 * @bottom: its lowest address, or 0 if it is an interrupt stack
 * @top: the address above its highest byte
 *
 * For __asan_handle_no_return() (mm/kasan/), before a longjmp() leaves
 * frames behind whose redzones are still poisoned.
 */
void kasan_current_stack(unsigned long *bottom, unsigned long *top)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	unsigned int cpu = smp_processor_id();

	*bottom = *top = 0;
	if (sp >= (unsigned long)boot_stack_guard + PAGE_SIZE && sp < (unsigned long)boot_stack_top) {
		*bottom = (unsigned long)boot_stack_guard + PAGE_SIZE;
		*top = (unsigned long)boot_stack_top;
	} else if (sp >= ap_stack_bottom(cpu) && sp < ap_stack_bottom(cpu + 1) - PAGE_SIZE) {
		*bottom = ap_stack_bottom(cpu);
		*top = ap_stack_bottom(cpu + 1) - PAGE_SIZE;
	}
}
