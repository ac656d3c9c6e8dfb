/*
 * mm/kasan/kasan.h - what the files of KASAN share.
 *
 * One shadow byte describes a granule of 8 bytes (generic KASAN, Linux's
 * values):
 *
 *   0          all 8 bytes may be accessed
 *   1..7       only the first N may (an object whose size is not a multiple of 8)
 *   0x80..0xff none may, and the value says why: the kind of memory, which
 *              names the bug in a report (below)
 *
 * The files: generic.c (the compiler's checks, globals, the stack, start),
 * shadow.c (poisoning, memcpy and friends, the vmalloc shadow), common.c
 * (the allocators' hooks), quarantine.c, stack_depot.c, report.c.  None of
 * them is instrumented.
 */
#ifndef MM_KASAN_KASAN_H
#define MM_KASAN_KASAN_H

#include "mm/kasan.h"
#include "mm/slab_internal.h"
#include "mm/vmalloc.h"
#include "lib/string.h"

#define KASAN_GRANULE_SIZE	(1UL << KASAN_SHADOW_SCALE_SHIFT)
#define KASAN_GRANULE_MASK	(KASAN_GRANULE_SIZE - 1)

#define KASAN_PAGE_FREE		0xff	/* a free page */
#define KASAN_PAGE_REDZONE	0xfe	/* the tail of a large kmalloc's pages */
#define KASAN_SLAB_REDZONE	0xfc	/* around slab objects, and never-used slots */
#define KASAN_SLAB_FREE		0xfb	/* a freed slab object */
#define KASAN_GLOBAL_REDZONE	0xf9	/* after a global variable */
#define KASAN_VMALLOC_INVALID	0xf8	/* vmalloc space not (or no longer) in use */
#define KASAN_STACK_LEFT	0xf1	/* the compiler's stack redzones */
#define KASAN_STACK_MID		0xf2
#define KASAN_STACK_RIGHT	0xf3
#define KASAN_STACK_PARTIAL	0xf4
#define KASAN_ALLOCA_LEFT	0xca
#define KASAN_ALLOCA_RIGHT	0xcb

/* generic.c */
extern bool kasan_ready;
bool kasan_check_range(unsigned long addr, size_t size, bool write, unsigned long ret_ip);
const char *kasan_find_global(unsigned long addr, unsigned long *start, unsigned long *size);

/* shadow.c */
void kasan_poison(const void *addr, size_t size, u8 value);
void kasan_unpoison(const void *addr, size_t size);
u8 kasan_shadow_byte(const void *addr);

/* common.c */
struct kasan_meta *kasan_get_meta(struct kmem_cache *s, const void *obj);
void kasan_save_track(struct kasan_track *track);

/* quarantine.c */
void kasan_quarantine_put(struct kmem_cache *s, void *obj);
void kasan_quarantine_init(unsigned long ram_bytes);

/* stack_depot.c */
#define KASAN_STACK_DEPTH	16
void stack_depot_init(void);
u32 stack_depot_save(const unsigned long *entries, unsigned int nr);
unsigned int stack_depot_fetch(u32 handle, const unsigned long **entries);

/* report.c */
bool kasan_report(unsigned long addr, size_t size, bool write, unsigned long ip);
void kasan_report_invalid_free(void *obj, unsigned long ip, const char *what);

#endif
