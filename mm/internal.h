/*
 * mm/internal.h - what the files of mm/ share with each other and nobody else.
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include "mm/page_alloc.h"
#include "mm/mmzone.h"

/* alloc_flags: which watermark, and who may go below it */
#define ALLOC_WMARK_MIN		WMARK_MIN
#define ALLOC_WMARK_LOW		WMARK_LOW
#define ALLOC_WMARK_HIGH	WMARK_HIGH
#define ALLOC_WMARK_MASK	0x03u
#define ALLOC_NO_WATERMARKS	0x04u	/* __GFP_MEMALLOC, or __GFP_NOFAIL's last resort */
#define ALLOC_HIGH		0x08u	/* __GFP_HIGH: half the min reserve */
#define ALLOC_HARDER		0x10u	/* GFP_ATOMIC: another quarter */

/* How hard reclaim tries (mm/vmscan.c) */
#define RECLAIM_LIGHT		1	/* one batch from each shrinker */
#define RECLAIM_FULL		0	/* everything the shrinkers can give */

/* mm/page_alloc.c */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone, unsigned int order);

/* mm/page_debug.c: checks, reports and poisoning */
gfp_t might_alloc_report(gfp_t gfp, void *caller);

/*
 * might_alloc - may this context make an allocation with @gfp?
 *
 * An allocation that may reclaim (__GFP_DIRECT_RECLAIM, as in GFP_KERNEL)
 * may wait for the other CPUs (to drain their lists, to shoot down TLBs).
 * With interrupts off, or in an interrupt handler, that can wait forever
 * for a CPU that waits for us.  Linux's might_alloc() reports such a
 * caller; so does this, once per caller, and the allocation then goes on
 * as if the caller had not allowed reclaim.  As in Linux, not during boot,
 * when the boot CPU runs alone with interrupts off.  Returns the gfp to use.
 */
static inline gfp_t might_alloc(gfp_t gfp, void *caller)
{
	if (unlikely((gfp & __GFP_DIRECT_RECLAIM) && (irqs_disabled() || in_interrupt()) &&
		     system_state == SYSTEM_RUNNING))
		return might_alloc_report(gfp, caller);
	return gfp;
}

bool free_pages_check(struct page *page, unsigned int order, void *caller);
bool free_pages_addr_check(unsigned long addr, unsigned int order, void *caller);
void poison_block(struct page *page, unsigned int order);
void check_poison_block(struct page *page, unsigned int order);
void warn_alloc(gfp_t gfp, unsigned int order);
int format_gfp(char *buf, size_t size, gfp_t gfp);
void show_free_areas(void);

/* mm/mm_init.c */
void sparse_mark_present(unsigned long start_pfn, unsigned long end_pfn);
void sparse_reset(void);
void numa_reset_distance(void);
void mm_core_init(void);

#endif
