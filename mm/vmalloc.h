/*
 * mm/vmalloc.h - virtually contiguous memory, with Linux's names and meanings.
 *
 * vmalloc(size) takes single pages from anywhere in RAM and maps them side
 * by side in the vmalloc space (VMALLOC_START..VMALLOC_END), so it works
 * when no physically contiguous block of the size is left.  vmap() does the
 * mapping for pages the caller already has.  How: mm/vmalloc.c and
 * docs/vmalloc.md.
 */
#ifndef MM_VMALLOC_H
#define MM_VMALLOC_H

#include "mm/cpu.h"
#include "mm/gfp.h"

struct page;

/* vm_struct flags (Linux's values) */
#define VM_IOREMAP		0x00000001	/* (unused here) */
#define VM_ALLOC		0x00000002	/* vmalloc(): the pages are vmalloc's to free */
#define VM_MAP			0x00000004	/* vmap(): the caller's pages */
#define VM_NO_GUARD		0x00000040	/* (unused here: every area has its guard page) */
#define VM_ALLOW_HUGE_VMAP	0x00000400	/* vmalloc_huge(): 2 MiB mappings where possible */
#define VM_HUGE_PAGES		0x00001000	/* it got them (this kernel's, for vmallocinfo) */
#define VM_DEFERRED_FREE	0x00100000	/* on a deferred vfree list (this kernel's) */

/* An area of the vmalloc space as its user sees it (Linux's struct vm_struct). */
struct vm_struct {
	void *addr;
	unsigned long size;		/* with the guard page */
	unsigned long flags;		/* VM_* */
	struct page **pages;		/* the pages mapped (VM_ALLOC: first pages of blocks) */
	unsigned int nr_pages;		/* entries in @pages */
	unsigned int page_order;	/* of each block in @pages: 0, or 9 for 2 MiB */
	int node;			/* asked for, or NUMA_NO_NODE */
	unsigned long requested_size;	/* the size asked for (vmalloc(), not vmap()) */
	const void *caller;		/* who allocated it */
};

void *vmalloc(unsigned long size);
void *vzalloc(unsigned long size);
void *vmalloc_node(unsigned long size, int node);
void *vzalloc_node(unsigned long size, int node);
void *__vmalloc(unsigned long size, gfp_t gfp_mask);
void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp_mask, int node,
		     const void *caller);
void *vmalloc_huge(unsigned long size, gfp_t gfp_mask);
void *vmalloc_array(size_t n, size_t size);
void *vcalloc(size_t n, size_t size);
void vfree(const void *addr);
void vfree_atomic(const void *addr);
void *vmap(struct page **pages, unsigned int count, unsigned long flags, pgprot_t prot);
void vunmap(const void *addr);
struct page *vmalloc_to_page(const void *addr);
unsigned long vmalloc_to_pfn(const void *addr);
struct vm_struct *find_vm_area(const void *addr);
void vm_unmap_aliases(void);

/* Is @x in the vmalloc space? */
static inline bool is_vmalloc_addr(const void *x)
{
	unsigned long addr = (unsigned long)x;

	return addr >= VMALLOC_START && addr < VMALLOC_END;
}

void vmalloc_init(void);

#endif
