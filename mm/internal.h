/*
 * mm/internal.h - what the files of mm/ share with each other and nobody else:
 * the page allocator's internals (watermarks, the checks and the poisoning
 * of a block), and a few functions of vmalloc and of memory's init.  The
 * slab's own are in mm/slab_internal.h, which builds on this one.
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

/* mm/page_alloc.c */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone, unsigned int order);
bool bad_node_refused(const char *fn, int nid, gfp_t gfp, const void *caller);
bool unreserve_highatomic_pageblock(gfp_t gfp, int nid, bool force);

/* mm/kswapd.c */
void wakeup_kswapd(struct zone *zone, gfp_t gfp, int order, int highest_zoneidx);
void kswapd_flush(void);
bool current_is_kswapd(void);
extern unsigned int alloc_checked_order;	/* set by mm/fault_inject.c */
/* ... for compaction (mm/compaction.c), as Linux's mm/internal.h */
unsigned long __isolate_free_page(struct page *page, unsigned int order);
void post_alloc_hook(struct page *page, unsigned int order, gfp_t gfp);

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

/*
 * A node number an allocator was given that is neither NUMA_NO_NODE nor a
 * node: bad input (bad_node_refused() reports it).  One compare when @nid
 * is not a constant (NUMA_NO_NODE, -1, plus one is 0: never above; a
 * negative number plus one wraps to far above); none for a constant
 * NUMA_NO_NODE.  The callers send a bad node to a function of its own, out
 * of line, so that this check adds no frame to their common path.
 */
static inline bool node_id_invalid(int nid)
{
	return (unsigned int)nid + 1 > nr_node_ids;
}

bool free_pages_check_bad(struct page *page, unsigned int order, void *caller, bool lost_race);
bool free_pages_addr_check(unsigned long addr, unsigned int order, void *caller);
void __poison_block(struct page *page, unsigned int order);
void __check_poison_block(struct page *page, unsigned int order);

extern bool poisoning;
extern unsigned long nr_poisoned;

/* Fill a block being freed with PAGE_POISON, if poisoning is on. */
static __always_inline void poison_block(struct page *page, unsigned int order)
{
	if (unlikely(poisoning))
		__poison_block(page, order);
}

/* Check the poison of a block being handed out, if any page carries some. */
static __always_inline void check_poison_block(struct page *page, unsigned int order)
{
	if (unlikely(READ_ONCE(nr_poisoned)))
		__check_poison_block(page, order);
}

/*
 * free_pages_check - may this block be freed?  If so, it is no longer allocated.
 *
 * The common case, cheaply and inline: the head of an allocated block,
 * freed with its order (kept in the flags, not in private, which is the
 * owner's).  Clearing PG_allocated is the gate every free passes,
 * atomically (one locked bit-test-and-reset): of two CPUs freeing the same
 * block at once exactly one clears it, and the other is reported as a
 * double free; the winner clears the order (free_block_prepare()).
 * Anything else goes to free_pages_check_bad() (mm/page_debug.c) for the
 * report.
 * Return: true if the free may go ahead (the caller owns it now).
 */
static __always_inline bool free_pages_check(struct page *page, unsigned int order, void *caller)
{
	const unsigned long busy = 1UL << PG_allocated | 1UL << PG_reserved | 1UL << PG_slab |
				   1UL << PG_large_kmalloc | PAGE_ORDER_MASK << PAGE_ORDER_SHIFT;

	/* data_race(): only a double free races this read; the atomic below decides. */
	if (likely(order <= MAX_PAGE_ORDER && pfn_valid(page_to_pfn(page)) &&
		   (data_race(page->flags) & busy) ==
		   (1UL << PG_allocated | (unsigned long)order << PAGE_ORDER_SHIFT))) {
		if (likely(__atomic_fetch_and(&page->flags, ~(1UL << PG_allocated),
					      __ATOMIC_ACQ_REL) & (1UL << PG_allocated)))
			return true;
		return free_pages_check_bad(page, order, caller, true);
	}
	return free_pages_check_bad(page, order, caller, false);
}
void warn_alloc(gfp_t gfp, unsigned int order);
int format_gfp(char *buf, size_t size, gfp_t gfp);
void show_free_areas(void);

/* mm/vmstat.c */
void show_buddyinfo(void);

/* mm/init.c */
extern unsigned long nr_kernel_pagetable_pages;
/* The bytes of a zone's pageblock types, at boot: memblock's here, the host's in its tests. */
void *pageblock_flags_alloc(unsigned long bytes);


/* mm/vmalloc.c, for its monitor commands and the tests */
struct vmap_area;
void vmalloc_for_each_area(void (*fn)(const struct vmap_area *va, bool lazy, void *arg),
			   void *arg);
unsigned long vmalloc_lazy_pages(unsigned long *max);
unsigned int vmalloc_check(void);
int vmallocinfo_show_area(const struct vmap_area *va, bool lazy, char *buf, size_t size);
unsigned int vmalloc_spare_nodes(void);

/* mm/mm_init.c */
void sparse_mark_present(unsigned long start_pfn, unsigned long end_pfn);
void sparse_reset(void);
void numa_reset_distance(void);
void mm_core_init(void);

#endif
