/*
 * arch/x86_64/kasan.h - where KASAN's shadow memory is, and how it is mapped.
 *
 * Every 8 bytes of the kernel half of the address space have one shadow
 * byte, at (addr >> 3) + KASAN_SHADOW_OFFSET: the kernel half
 * 0xffff800000000000.. maps onto KASAN_SHADOW_START..KASAN_SHADOW_END,
 * 16 TiB that nothing else uses (docs/design.md, the memory map).  The
 * offset and the region are Linux's on x86-64.
 *
 * Only a KASAN kernel (make KASAN=1, CONFIG_KASAN) has a shadow; in the
 * others these calls are empty inlines.  mm/kasan/ is the rest of KASAN.
 */
#ifndef ARCH_X86_64_KASAN_H
#define ARCH_X86_64_KASAN_H

#include "kernel/config.h"
#include "lib/compiler.h"
#include "mm/gfp.h"

#define KASAN_SHADOW_SCALE_SHIFT	3
#define KASAN_SHADOW_OFFSET		0xdffffc0000000000UL
#define KASAN_SHADOW_START		0xffffec0000000000UL
#define KASAN_SHADOW_END		0xfffffc0000000000UL
#define KASAN_MEM_START			0xffff800000000000UL	/* the first byte with a shadow */

/* The shadow byte of @addr (which must be in the kernel half). */
static inline u8 *kasan_mem_to_shadow(const void *addr)
{
	return (u8 *)(((unsigned long)addr >> KASAN_SHADOW_SCALE_SHIFT) + KASAN_SHADOW_OFFSET);
}

/* The first byte that shadow byte @shadow describes. */
static inline void *kasan_shadow_to_mem(const u8 *shadow)
{
	return (void *)(((unsigned long)shadow - KASAN_SHADOW_OFFSET) << KASAN_SHADOW_SCALE_SHIFT);
}

struct phys_range;

#if CONFIG_KASAN
void kasan_early_init(void);
void kasan_copy_early_shadow(u64 *top);
void kasan_init_shadow(const struct phys_range *ram, unsigned int nr_ranges);
int kasan_populate_shadow(unsigned long start, unsigned long end, gfp_t gfp);
void kasan_current_stack(unsigned long *bottom, unsigned long *top);
#else
static inline void kasan_early_init(void) {}
static inline void kasan_copy_early_shadow(u64 *top) { (void)top; }
#endif

#endif
