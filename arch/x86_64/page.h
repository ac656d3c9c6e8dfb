/*
 * arch/x86_64/page.h - page sizes and the kernel's fixed virtual addresses.
 *
 * Physical RAM is visible twice: through the direct map at PAGE_OFFSET
 * (every physical address p is at virtual PAGE_OFFSET + p) and, for the
 * kernel image only, at KERNEL_VMA + (p - 0).  __va() and __pa() convert
 * through the direct map; __pa() also accepts kernel-image addresses.
 */
#ifndef ARCH_X86_64_PAGE_H
#define ARCH_X86_64_PAGE_H

#include "lib/compiler.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr)	ALIGN(addr, PAGE_SIZE)
#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define PFN_UP(x)	(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x)	((x) >> PAGE_SHIFT)
#define PFN_PHYS(x)	((phys_addr_t)(x) << PAGE_SHIFT)

#define PAGE_OFFSET	0xffff888000000000UL
#define KERNEL_VMA	0xffffffff80000000UL
#define LOAD_PHYS	0x100000UL	/* where linker.ld places the image (.boot first) */
#define VMALLOC_START	0xffffc90000000000UL
#define VMALLOC_END	0xffffe8ffffffffffUL
#define VMEMMAP_START	0xffffea0000000000UL	/* struct page array, as Linux */
#define CPU_STACKS_START 0xfffffe0000000000UL	/* APs' stacks, each above an unmapped guard page */

/*
 * Scratch kernel virtual range of the monitor's `shootdown` demonstration
 * (mm/tlb_monitor.c): the last 2 MiB below 0xffffffffc0000000, that is, one
 * page table at the top of the kernel image's gigabyte, about 1 GiB above
 * the image itself (a few MiB at KERNEL_VMA).  Linux would load modules
 * around here; this kernel has none.  Nothing else maps it: it is outside
 * the direct map, vmalloc space, vmemmap and the CPU stack area.
 */
#define TLB_SCRATCH_START	0xffffffffbfe00000UL
#define TLB_SCRATCH_PAGES	512UL

typedef u64 phys_addr_t;

static inline void *__va(phys_addr_t phys)
{
	return (void *)(phys + PAGE_OFFSET);
}

static inline phys_addr_t __phys_addr(unsigned long v)
{
	if (v >= KERNEL_VMA)
		return v - KERNEL_VMA;
	return v - PAGE_OFFSET;
}

/* A pointer or an unsigned long (as __get_free_pages() returns), as in Linux */
#define __pa(virt)	__phys_addr((unsigned long)(virt))

#endif
