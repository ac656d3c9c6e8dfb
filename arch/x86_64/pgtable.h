/*
 * arch/x86_64/pgtable.h - the kernel's page tables: entries and mappings.
 *
 * x86-64 4-level paging: a virtual address is split into four 9-bit
 * indexes (PML4, PDPT, PD, PT) and a 12-bit offset.  An entry in the PDPT
 * or PD may map a whole 1 GiB or 2 MiB page (_PAGE_PSE) instead of pointing
 * to the next table.  All kernel mappings live in one set of tables shared
 * by every CPU (init_top_pgt).
 */
#ifndef ARCH_X86_64_PGTABLE_H
#define ARCH_X86_64_PGTABLE_H

#include "lib/compiler.h"
#include "arch/x86_64/page.h"
#include "mm/gfp.h"

#define PGDIR_SHIFT	39	/* a PML4 entry covers 512 GiB */
#define PUD_SHIFT	30	/* a PDPT entry covers 1 GiB */
#define PMD_SHIFT	21	/* a PD entry covers 2 MiB */
#define PTRS_PER_TABLE	512
#define PGDIR_SIZE	(1UL << PGDIR_SHIFT)
#define PUD_SIZE	(1UL << PUD_SHIFT)
#define PMD_SIZE	(1UL << PMD_SHIFT)

#define _PAGE_PRESENT	(1UL << 0)
#define _PAGE_RW	(1UL << 1)
#define _PAGE_USER	(1UL << 2)
#define _PAGE_PWT	(1UL << 3)
#define _PAGE_PCD	(1UL << 4)
#define _PAGE_ACCESSED	(1UL << 5)
#define _PAGE_DIRTY	(1UL << 6)
#define _PAGE_PSE	(1UL << 7)
#define _PAGE_GLOBAL	(1UL << 8)
#define _PAGE_NX	(1UL << 63)
#define PTE_PFN_MASK	0x000ffffffffff000UL

typedef struct {
	u64 pgprot;
} pgprot_t;

#define __pgprot(x)	((pgprot_t){ (x) })
#define pgprot_val(p)	((p).pgprot)

/*
 * The bits this CPU takes in an entry (Linux's __supported_pte_mask): all
 * but NX, and NX too once x86_configure_nx() has found it.  A CPU without
 * NX (QEMU's -cpu qemu64,-nx, old CPUs) reserves bit 63, and an entry with
 * it set faults on every access; so every entry made from a pgprot_t goes
 * through massage_pgprot().
 */
extern u64 __supported_pte_mask;

static inline u64 massage_pgprot(pgprot_t prot)
{
	return pgprot_val(prot) & __supported_pte_mask;
}

/*
 * Kernel mappings are global, as Linux's: with CR4.PGE they would survive a
 * CR3 reload.  This kernel leaves PGE off (it never switches page tables),
 * so the bit changes nothing today; flush_tlb_all() handles both cases.
 */
#define __PAGE_KERNEL_BASE	(_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_GLOBAL)
#define PAGE_KERNEL		__pgprot(__PAGE_KERNEL_BASE | _PAGE_RW | _PAGE_NX)
#define PAGE_KERNEL_RO		__pgprot(__PAGE_KERNEL_BASE | _PAGE_NX)
#define PAGE_KERNEL_RX		__pgprot(__PAGE_KERNEL_BASE)
#define PAGE_KERNEL_EXEC	__pgprot(__PAGE_KERNEL_BASE | _PAGE_RW)
#define PAGE_KERNEL_NOCACHE	__pgprot(__PAGE_KERNEL_BASE | _PAGE_RW | _PAGE_NX | \
					 _PAGE_PCD | _PAGE_PWT)

/* A RAM range for paging_init() to put in the direct map. */
struct phys_range {
	phys_addr_t start, end;
};

void x86_configure_nx(void);
void zap_boot_identity_map(void);
void pgtable_set_allocator(phys_addr_t (*alloc)(gfp_t gfp), void (*free)(phys_addr_t page));
void paging_init(const struct phys_range *ram, unsigned int nr_ranges);
phys_addr_t pgtable_alloc_page(gfp_t gfp);	/* for KASAN's shadow (kasan_init.c) */
void pgtable_free_page(phys_addr_t page);
bool paging_ready(void);

int map_kernel_range(unsigned long va, phys_addr_t pa, unsigned long size, pgprot_t prot,
		     gfp_t gfp);
int map_kernel_page(unsigned long va, phys_addr_t pa, pgprot_t prot, gfp_t gfp);
u64 unmap_kernel_page(unsigned long va);
void unmap_kernel_range(unsigned long va, unsigned long size);
int populate_kernel_pgd(unsigned long start, unsigned long last, gfp_t gfp);
u64 *lookup_kernel_pte(unsigned long va, unsigned int *level);
u64 *kernel_pte_alloc(unsigned long va, gfp_t gfp);
u64 *kernel_pte_lookup(unsigned long va);
phys_addr_t kernel_pte_table_detach(unsigned long va);
void kernel_pte_table_free(phys_addr_t table);
bool kernel_page_mapped(unsigned long va);
typedef void (*walk_fn)(unsigned long va, u64 entry, unsigned int level, void *arg);
void walk_kernel_range(unsigned long start, unsigned long end, walk_fn fn, void *arg);
void for_each_kernel_table(void (*fn)(phys_addr_t table, void *arg), void *arg);

void *memremap(phys_addr_t phys, size_t size);
void *ioremap(phys_addr_t phys, size_t size);

#endif
