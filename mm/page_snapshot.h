/*
 * mm/page_snapshot.h - what every page frame is, at one moment.
 *
 * One source of truth for the three pictures of memory: the framebuffer
 * map (mm/memmap_screen.c), the monitor's `memmap picture` (mm/memmap_picture.c)
 * and the PNGs of `make picture`.  page_snapshot_take() reads struct pages,
 * the vmalloc areas and the kernel page tables and writes one small cell per
 * frame; the views only draw cells.  docs/page_alloc.md, section 13.
 */
#ifndef MM_PAGE_SNAPSHOT_H
#define MM_PAGE_SNAPSHOT_H

#include "lib/compiler.h"
#include "mm/mmzone.h"

/*
 * What a frame is.  The order is the legend's: a view lists the states in
 * this order.
 */
enum page_state {
	PAGE_STATE_HOLE,		/* no RAM: a gap in the firmware's memory map */
	PAGE_STATE_RESERVED,		/* RAM the firmware or the kernel keeps out of the allocator */
	PAGE_STATE_KERNEL,		/* the kernel image (_text .. _end) */
	PAGE_STATE_BOOT_DATA,		/* memblock's allocations: struct pages, per-CPU areas... */
	PAGE_STATE_FREE,		/* in a free block on a zone's free list (cell.order: its order) */
	PAGE_STATE_PCP,			/* free, on a CPU's per-CPU list */
	PAGE_STATE_SLAB,		/* in a slab (cell.cache: which cache) */
	PAGE_STATE_PAGE_TABLE,		/* a page of the kernel page tables */
	PAGE_STATE_VMALLOC,		/* mapped by a vmalloc area */
	PAGE_STATE_LARGE_KMALLOC,	/* a kmalloc() too large for the caches: whole pages */
	PAGE_STATE_MOVABLE,		/* a movable page: the balloon's, or another owner's */
	PAGE_STATE_ALLOCATED,		/* any other alloc_pages() block */
	NR_PAGE_STATES
};

/* One frame: 4 bytes, so 256 MiB of RAM is a 256 KiB snapshot. */
struct page_cell {
	u8 state;		/* enum page_state */
	u8 order;		/* the order of the block the frame is in (free or allocated); else 0 */
	u8 cache;		/* PAGE_STATE_SLAB: index into page_snapshot.caches[]; else 0 */
	u8 migratetype;		/* its pageblock's (enum migratetype); MIGRATE_TYPES in a hole */
};

#define PAGE_SNAPSHOT_MAX_CACHES 255	/* more caches than that share the last index */

/**
 * struct page_snapshot - frames [start_pfn, start_pfn + nr_pages) at one moment
 * @start_pfn: the first frame
 * @nr_pages: how many frames @cells describes
 * @cells: one per frame, the caller's array of @nr_pages
 * @count: frames in each state
 * @nr_caches: entries used in @caches
 * @caches: the slab caches the slab cells name, in the order first seen
 */
struct page_snapshot {
	unsigned long start_pfn, nr_pages;
	struct page_cell *cells;
	unsigned long count[NR_PAGE_STATES];
	unsigned int nr_caches;
	struct kmem_cache *caches[PAGE_SNAPSHOT_MAX_CACHES];
};

/*
 * Takes the zone locks and the vmalloc area lock: task context only, never
 * from an interrupt handler (the tick may interrupt a holder).  A view that
 * redraws while a long command runs does it from monitor_interrupted().
 */
int page_snapshot_take(struct page_snapshot *snap, unsigned long start_pfn,
		       unsigned long nr_pages, struct page_cell *cells);

/* The last frame + 1 a snapshot of the whole machine covers: max_pfn. */
unsigned long page_snapshot_end_pfn(void);

/**
 * struct page_state_style - how every view shows a state
 * @name: the legend's word ("free", "slab"...)
 * @rgb: 0xRRGGBB, the colour on the screen, in the PNGs and in 24-bit ANSI
 * @letter: the plain-text view's character
 */
struct page_state_style {
	const char *name;
	u32 rgb;
	char letter;
};

extern const struct page_state_style page_state_style[NR_PAGE_STATES];

/* How the views mark a pageblock's migratetype (page_cell.migratetype). */
extern const struct page_state_style migratetype_style[MIGRATE_TYPES];

/* A free cell's colour: @rgb made brighter the larger its block's order. */
u32 page_cell_rgb(const struct page_cell *cell);

/* Several frames shown as one (a summarised view): fold each into @summary. */
void page_cell_fold(struct page_cell *summary, const struct page_cell *cell);

#endif
