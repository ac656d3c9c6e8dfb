/*
 * mm/page_snapshot.c - what every page frame is, at one moment.
 *
 * The pictures of memory (the framebuffer map, `memmap picture`, the PNGs
 * of `make picture`) all draw the same thing: one cell per page frame, in
 * the colour of what the frame is.  This file is the one place that decides
 * what it is, so the three can never disagree.
 *
 * Two ideas.  First, the struct pages say almost everything, if they are
 * read block by block rather than page by page: only the first page of a
 * free block (PG_buddy, its order in ->private) or of an allocated one
 * (PG_allocated, its order in ->flags) is marked, so the scan starts at a
 * MAX_PAGE_ORDER-aligned frame, where a block must begin, and strides over
 * whole blocks.  What the struct pages cannot say comes from the owners:
 * the vmalloc areas name the pages they map, memblock's tables name holes,
 * boot data and the kernel image, and PG_table (set where page-table pages
 * are made, as Linux's PageTable()) names the page tables.
 *
 * Second, a zone is read under its lock, so within a zone the free blocks
 * agree exactly with the free lists' counts (buddyinfo).  Everything else
 * may move while the snapshot is taken (per-CPU lists, slabs, vmalloc): a
 * picture on a busy machine is a blur, as a photograph is, but every cell
 * is a state the frame really had.  A 256 MiB machine's 65,536 frames cost
 * the scan well under a tick (docs/page_alloc.md section 13).
 *
 *   frames:  | hole | kernel | free (order 3) ........ | slab | vmalloc |
 *   cells:      H       K      F F F F F F F F            S       V
 */
#include "mm/page_snapshot.h"
#include "mm/internal.h"
#include "mm/memblock.h"
#include "mm/slab_internal.h"
#include "mm/vmalloc.h"
#include "mm/vmap_area.h"
#include "lib/errno.h"
#include "lib/sizes.h"
#include "lib/string.h"

extern const char _end[];	/* linker.ld: the image's last byte + 1 */

/* The legend, in enum order: a name, a colour (0xRRGGBB) and a letter each. */
const struct page_state_style page_state_style[NR_PAGE_STATES] = {
	[PAGE_STATE_HOLE]		= { "hole",		0x1c1c1c, ' ' },
	[PAGE_STATE_RESERVED]		= { "reserved",		0x5a5a5a, 'r' },
	[PAGE_STATE_KERNEL]		= { "kernel image",	0x9050d0, 'K' },
	[PAGE_STATE_BOOT_DATA]		= { "boot data",	0xc8a0e8, 'b' },
	[PAGE_STATE_FREE]		= { "free",		0x30c030, '.' },
	[PAGE_STATE_PCP]		= { "per-CPU list",	0xb8e070, ',' },
	[PAGE_STATE_SLAB]		= { "slab",		0x3878f0, 'S' },
	[PAGE_STATE_PAGE_TABLE]		= { "page table",	0xf09020, 'T' },
	[PAGE_STATE_VMALLOC]		= { "vmalloc",		0x20d0d0, 'V' },
	[PAGE_STATE_LARGE_KMALLOC]	= { "large kmalloc",	0x1c3c98, 'L' },
	[PAGE_STATE_MOVABLE]		= { "movable",		0xf0e040, 'M' },
	[PAGE_STATE_ALLOCATED]		= { "allocated",	0xe03c3c, 'A' },
};

/*
 * Pageblock types: movable, the default of a fresh machine, in a quiet
 * grey, so that what grouping by mobility keeps apart stands out.
 */
const struct page_state_style migratetype_style[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE]	= { "unmovable",	0xff5030, 'U' },
	[MIGRATE_MOVABLE]	= { "movable",		0x505868, 'M' },
	[MIGRATE_RECLAIMABLE]	= { "reclaimable",	0x40a0ff, 'R' },
	[MIGRATE_HIGHATOMIC]	= { "highatomic",	0xff40ff, 'H' },
	[MIGRATE_ISOLATE]	= { "isolate",		0xffffff, 'I' },
};

/*
 * Which state a cell that stands for several frames shows: the highest
 * ranked of theirs.  Anything in use over the kernel and the reserved,
 * those over free, free over a hole.
 */
static const u8 page_state_rank[NR_PAGE_STATES] = {
	[PAGE_STATE_HOLE] = 0,		[PAGE_STATE_FREE] = 1,
	[PAGE_STATE_PCP] = 2,		[PAGE_STATE_RESERVED] = 3,
	[PAGE_STATE_BOOT_DATA] = 4,	[PAGE_STATE_KERNEL] = 5,
	[PAGE_STATE_ALLOCATED] = 6,	[PAGE_STATE_MOVABLE] = 7,
	[PAGE_STATE_LARGE_KMALLOC] = 8,	[PAGE_STATE_VMALLOC] = 9,
	[PAGE_STATE_PAGE_TABLE] = 10,	[PAGE_STATE_SLAB] = 11,
};

/**
 * page_cell_fold - fold one more frame into a view's summary of several
 * @summary: what the view shows so far (start from a zeroed cell: a hole)
 * @cell: the next frame
 *
 * The higher ranked state wins (page_state_rank[]), and a free summary
 * keeps the smallest order among its frames: a summary is free only when
 * all of its frames are, and fragmentation does not hide in it.
 * Context: any.
 */
void page_cell_fold(struct page_cell *summary, const struct page_cell *cell)
{
	if (page_state_rank[cell->state] > page_state_rank[summary->state])
		*summary = *cell;
	else if (cell->state == PAGE_STATE_FREE && summary->state == PAGE_STATE_FREE &&
		 cell->order < summary->order)
		summary->order = cell->order;
}

/**
 * page_cell_rgb - the colour a view paints @cell
 * @cell: one frame of a snapshot
 *
 * Free frames go from dark green (a block of order 0) to the legend's
 * bright green (MAX_PAGE_ORDER), so fragmentation shows as dark speckle.
 * Context: any.  Return: 0xRRGGBB.
 */
u32 page_cell_rgb(const struct page_cell *cell)
{
	unsigned int green;

	if (cell->state != PAGE_STATE_FREE)
		return page_state_style[cell->state].rgb;
	green = 0x50 + (0xc0 - 0x50) * min_t(unsigned int, cell->order, MAX_PAGE_ORDER) /
		MAX_PAGE_ORDER;
	return (green / 4) << 16 | green << 8 | green / 8;
}

/** page_snapshot_end_pfn - one past the last frame a whole-machine snapshot covers */
unsigned long page_snapshot_end_pfn(void)
{
	return max_pfn;
}

/*
 * Where the scan writes: the cells of [start, end), and of those only the
 * piece of RAM being scanned, [lo, hi), so that a block read at an aligned
 * frame below the range, or a hole's zeroed struct page, writes nothing
 * outside it.
 */
struct scan {
	struct page_snapshot *snap;
	unsigned long start, end;
	unsigned long lo, hi;
	struct kmem_cache *last_cache;	/* the slab cells seen last: slabs are runs */
	u8 last_index;
};

static struct page_cell *cell_of(struct scan *sc, unsigned long pfn)
{
	return pfn >= sc->lo && pfn < sc->hi ? &sc->snap->cells[pfn - sc->start] : NULL;
}

/* Mark frames [pfn, pfn + nr) with @state and @order, those of the piece. */
static void mark(struct scan *sc, unsigned long pfn, unsigned long nr, u8 state, u8 order)
{
	unsigned long first = max(pfn, sc->lo), last = min(pfn + nr, sc->hi);
	struct page_cell *cells = sc->snap->cells - sc->start;
	const struct page_cell value = { .state = state, .order = order };

	for (unsigned long p = first; p < last; p++)
		cells[p] = value;	/* one 4-byte store: the type comes later */
	if (first < last)
		sc->snap->count[state] += last - first;
}

/* Change one cell's state (the owners' refinements), keeping the counts. */
static void restate(struct page_snapshot *snap, struct page_cell *cell, u8 state)
{
	snap->count[cell->state]--;
	snap->count[state]++;
	cell->state = state;
}

/* The index of slab cache @s in snap->caches, added on first sight. */
static u8 cache_index(struct scan *sc, struct kmem_cache *s)
{
	struct page_snapshot *snap = sc->snap;
	unsigned int i;

	if (s == sc->last_cache)
		return sc->last_index;
	for (i = 0; i < snap->nr_caches && snap->caches[i] != s; i++)
		;
	if (i == snap->nr_caches) {
		if (i == PAGE_SNAPSHOT_MAX_CACHES)
			i--;	/* full: the last index stands for the rest */
		else
			snap->caches[snap->nr_caches++] = s;
	}
	sc->last_cache = s;
	sc->last_index = (u8)i;
	return (u8)i;
}

/*
 * One frame, or the block it begins: what its struct page says.  Returns
 * how many frames it covered.  The flags are read once, racing with the
 * owners' changes on purpose (the block's own state, not the zone's, which
 * the caller's lock holds still).
 */
static unsigned long classify(struct scan *sc, unsigned long pfn, unsigned long zone_end)
{
	struct page *page = pfn_to_page(pfn);
	unsigned long flags = data_race(READ_ONCE(page->flags));
	unsigned int order;
	struct page_cell *cell;

	if (flags & 1UL << PG_buddy) {
		order = min_t(unsigned int, data_race(READ_ONCE(page->private)), MAX_PAGE_ORDER);
		mark(sc, pfn, 1UL << order, PAGE_STATE_FREE, (u8)order);
		return 1UL << order;
	}
	if (flags & 1UL << PG_reserved) {
		/* memblock's and the firmware's; refine_reserved() says which */
		mark(sc, pfn, 1, flags & 1UL << PG_table ? PAGE_STATE_PAGE_TABLE :
				 PAGE_STATE_RESERVED, 0);
		return 1;
	}
	order = flags & 1UL << PG_allocated ?
		(unsigned int)(flags >> PAGE_ORDER_SHIFT) & PAGE_ORDER_MASK : 0;
	if (pfn + (1UL << order) > zone_end)	/* a torn read: the block cannot cross */
		order = 0;
	if (flags & 1UL << PG_slab) {
		struct kmem_cache *s = data_race(READ_ONCE(page->slab_cache));

		/* every page of a slab carries PG_slab and its cache */
		cell = cell_of(sc, pfn);
		mark(sc, pfn, 1, PAGE_STATE_SLAB, (u8)order);
		if (cell)
			cell->cache = cache_index(sc, s);
		return 1;
	}
	if (flags & 1UL << PG_pcp)
		mark(sc, pfn, 1, PAGE_STATE_PCP, 0);
	else if (flags & 1UL << PG_table)
		mark(sc, pfn, 1, PAGE_STATE_PAGE_TABLE, 0);
	else if (flags & 1UL << PG_movable)
		mark(sc, pfn, 1, PAGE_STATE_MOVABLE, 0);
	else if (flags & 1UL << PG_large_kmalloc)
		mark(sc, pfn, 1UL << order, PAGE_STATE_LARGE_KMALLOC, (u8)order);
	else
		mark(sc, pfn, 1UL << order, PAGE_STATE_ALLOCATED, (u8)order);
	return 1UL << order;
}

/*
 * The frames of @zone inside [lo, hi), a piece of RAM, under the zone's
 * lock.  Blocks begin at aligned frames and never span a hole (free_range()
 * in mm/mm_init.c): from the aligned frame below @lo, or the RAM's start,
 * the scan meets every block's first page.
 */
static void scan_zone_range(struct scan *sc, struct zone *zone, unsigned long ram_start,
			    unsigned long lo, unsigned long hi)
{
	unsigned long pfn = max(max(ALIGN_DOWN(lo, 1UL << MAX_PAGE_ORDER), zone->zone_start_pfn),
				ram_start);

	sc->lo = lo;
	sc->hi = hi;
	while (pfn < hi)
		pfn += classify(sc, pfn, zone_end_pfn(zone));
}

static void scan_zones(struct scan *sc)
{
	const struct memblock_region *r;
	unsigned long flags;
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long lo = max(zone->zone_start_pfn, sc->start);
		unsigned long hi = min(zone_end_pfn(zone), sc->end);

		if (lo >= hi)
			continue;
		spin_lock_irqsave(&zone->lock, flags);
		for_each_memblock(memory, r) {
			unsigned long rs = PFN_UP(r->base), re = PFN_DOWN(r->base + r->size);

			if (max(rs, lo) < min(re, hi))
				scan_zone_range(sc, zone, rs, max(rs, lo), min(re, hi));
		}
		spin_unlock_irqrestore(&zone->lock, flags);
	}
}

/*
 * Reserved frames, told apart: the kernel image; what memblock handed out
 * or kept for the boot (struct pages, per-CPU areas, GRUB's modules); and
 * the rest, the firmware's, with the first MiB, which kernel/main.c keeps
 * for the BIOS and the APs' trampoline as Linux does.
 */
static void refine_reserved(struct scan *sc)
{
	const struct memblock_region *r;
	unsigned long image_start = PFN_DOWN(LOAD_PHYS), image_end = PFN_UP(__pa(_end));

	for_each_memblock(reserved, r) {
		unsigned long first = max(max(PFN_DOWN(r->base), sc->start), PFN_DOWN(SZ_1M));
		unsigned long last = min(PFN_UP(r->base + r->size), sc->end);

		for (unsigned long pfn = first; pfn < last; pfn++) {
			struct page_cell *cell = &sc->snap->cells[pfn - sc->start];

			if (cell->state != PAGE_STATE_RESERVED)
				continue;
			restate(sc->snap, cell, pfn >= image_start && pfn < image_end ?
					  PAGE_STATE_KERNEL : PAGE_STATE_BOOT_DATA);
		}
	}
}

/* vmalloc_for_each_area()'s step: the pages a busy vmalloc() area maps. */
static void mark_vmalloc_area(const struct vmap_area *va, bool lazy, void *arg)
{
	struct scan *sc = arg;
	const struct vm_struct *vm = va->vm;

	/* a lazy area's pages are freed already; vmap()'s belong to their owners */
	if (lazy || !vm || !(vm->flags & VM_ALLOC) || !vm->pages)
		return;
	for (unsigned int i = 0; i < vm->nr_pages; i++) {
		unsigned long pfn = page_to_pfn(vm->pages[i]);

		for (unsigned long j = 0; j < 1UL << vm->page_order; j++) {
			struct page_cell *cell = cell_of(sc, pfn + j);

			if (cell && cell->state == PAGE_STATE_ALLOCATED) {
				restate(sc->snap, cell, PAGE_STATE_VMALLOC);
				cell->order = (u8)vm->page_order;
			}
		}
	}
}

/* Every frame's pageblock type; MIGRATE_TYPES in a hole. */
static void mark_migratetypes(struct page_snapshot *snap)
{
	unsigned long block = ~0UL;
	u8 mt = MIGRATE_TYPES;

	for (unsigned long i = 0; i < snap->nr_pages; i++) {
		struct page_cell *cell = &snap->cells[i];
		unsigned long pfn = snap->start_pfn + i;

		if (cell->state == PAGE_STATE_HOLE) {
			cell->migratetype = MIGRATE_TYPES;
			continue;
		}
		if (pfn >> pageblock_order != block) {	/* once per pageblock */
			block = pfn >> pageblock_order;
			mt = (u8)get_pageblock_migratetype(pfn_to_page(pfn));
		}
		cell->migratetype = mt;
	}
}

/**
 * page_snapshot_take - what frames [@start_pfn, @start_pfn + @nr_pages) are now
 * @snap: filled in: the range, @cells, each state's count, the slab caches named
 * @start_pfn: the first frame
 * @nr_pages: how many; frames at or above page_snapshot_end_pfn() are holes
 * @cells: the caller's array of @nr_pages cells
 *
 * Each zone is read under its lock with interrupts off, the vmalloc areas
 * under theirs; nothing is allocated.  Context: task context, not an
 * interrupt handler (the interrupted code may hold a zone lock); a view
 * that redraws while a long command runs does it from the command's
 * monitor_interrupted() polls.  Return: 0, or -EINVAL for an empty range.
 */
int page_snapshot_take(struct page_snapshot *snap, unsigned long start_pfn,
		       unsigned long nr_pages, struct page_cell *cells)
{
	struct scan sc = { .snap = snap, .start = start_pfn, .end = start_pfn + nr_pages };

	if (!nr_pages || !cells || sc.end < start_pfn)
		return -EINVAL;
	memset(snap, 0, sizeof(*snap));
	snap->start_pfn = start_pfn;
	snap->nr_pages = nr_pages;
	snap->cells = cells;
	memset(cells, 0, nr_pages * sizeof(*cells));	/* PAGE_STATE_HOLE */
	scan_zones(&sc);
	sc.lo = sc.start;	/* the owners' marks may fall anywhere in the range */
	sc.hi = sc.end;
	refine_reserved(&sc);
	vmalloc_for_each_area(mark_vmalloc_area, &sc);
	mark_migratetypes(snap);
	snap->count[PAGE_STATE_HOLE] = nr_pages;
	for (int state = PAGE_STATE_HOLE + 1; state < NR_PAGE_STATES; state++)
		snap->count[PAGE_STATE_HOLE] -= snap->count[state];
	return 0;
}
