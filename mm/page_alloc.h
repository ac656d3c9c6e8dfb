/*
 * mm/page_alloc.h - the page allocator's public face: struct page and the
 * functions that hand out and take back blocks of 2^order physical pages.
 *
 * Every physical page frame has a struct page, found at vmemmap[pfn].
 * alloc_pages() returns the struct page of the first frame of the block;
 * page_address() turns it into a pointer through the direct map.
 */
#ifndef MM_PAGE_ALLOC_H
#define MM_PAGE_ALLOC_H

#include "mm/cpu.h"
#include "mm/gfp.h"
#include "mm/shrinker.h"
#include "lib/list.h"

#define MAX_PAGE_ORDER		10	/* largest block: 2^10 pages = 4 MiB */
#define NR_PAGE_ORDERS		(MAX_PAGE_ORDER + 1)
#define PAGE_ALLOC_COSTLY_ORDER	3	/* above this, no OOM killer */

struct kmem_cache;

/*
 * struct page - what the kernel knows about one physical page frame.
 *
 * 32 bytes for every 4 KiB page (0.8% of RAM): flags, then 24 bytes whose
 * meaning depends on who owns the page (a union, as in Linux):
 *
 *   free, first page of a buddy block:   PG_buddy, lru on the zone's free
 *                                         list, private = order
 *   free, on a per-CPU list:              PG_pcp, lru on that CPU's list
 *   allocated, first page of the block:   PG_allocated, the order in the
 *                                         flags; lru and private (0 when
 *                                         handed out) are the owner's
 *   ... of a __GFP_COMP block:            also PG_head
 *   other pages of a __GFP_COMP block:    their index in the block in the
 *                                         flags; the rest is the owner's
 *   other pages of any other block:       nothing (flags 0 but zone/node)
 *   every page of a slab (mm/slab.c):     also PG_slab, slab_cache, objects;
 *                                         the first page alone: freelist,
 *                                         inuse, list links
 *   never usable (hole, firmware, the kernel image): PG_reserved
 *
 *            offset 0      8                  16               24      32
 *   buddy    [ flags  |  lru.next         |  lru.prev       |  private  ]
 *   slab     [ flags  |  slab_cache       |  slab_next/prev |  freelist, inuse, objects ]
 *
 * An allocated block's first page keeps its order in flags bits 22..25,
 * not in private: Linux lets the owner use private (set_page_private()),
 * and __free_pages() must still check the order it is given.
 *
 * A page of a compound block knows its index in the block (flags bits
 * 12..21; 0 in the head and in every page of no compound block), so
 * compound_head() is one load, a shift, a mask and a subtraction, with no
 * branch, for any page.  That is how kfree() gets from any address in a
 * multi-page slab or a large kmalloc to the page that describes it.  (Linux
 * keeps the head's address, bit 0 set, in a tail's lru.next instead; here
 * that word stays free, so that every page of a slab can hold its cache:
 * kfree() reads it from the page its pointer is in, head or tail alike.)
 */
struct page {
	unsigned long flags;		/* PG_* bits; zone and node in the top bits */
	union {
		struct {			/* the buddy allocator's */
			struct list_head lru;	/* free-list link */
			unsigned long private;	/* free: the block's order; else the owner's */
		};
		struct {			/* a slab (mm/slab.c: Linux's struct slab) */
			struct kmem_cache *slab_cache;	/* the cache it belongs to (every page) */
			u32 slab_next, slab_prev;	/* pfns of its neighbours on a slab list */
			u32 freelist;			/* first free object: offset + 1, or 0 */
			u16 inuse;			/* objects not free in the slab */
			u16 objects;			/* objects in the slab (every page) */
		};
	};
};

/* Bits in page->flags */
enum pageflags {
	PG_reserved,	/* not managed by the allocator */
	PG_buddy,	/* first page of a free block on a zone free list */
	PG_pcp,		/* free, on a per-CPU list */
	PG_allocated,	/* first page of a block alloc_pages() handed out */
	PG_poisoned,	/* free and filled with PAGE_POISON (see mm/page_debug.c) */
	PG_slab,	/* owned by the slab allocator */
	PG_head,	/* first page of a __GFP_COMP block: the others know it */
	PG_large_kmalloc, /* first page of a kmalloc() too large for the caches */
	PG_movable,	/* order 0, its owner can move it: private is its movable_operations */
	PG_isolated,	/* a movable page taken off its owner's list for migration */
	PG_table,	/* a page of the kernel page tables (Linux's PageTable()) */
	__NR_PAGEFLAGS	/* at most PAGE_INDEX_SHIFT: the index comes next */
};

/*
 * page->flags bits 12..21: the page's index in a compound block.  At
 * PAGE_SHIFT, so that index << PAGE_SHIFT (kfree()'s offset in a slab) is
 * the flags and one mask.
 */
#define PAGE_INDEX_SHIFT 12
#define PAGE_INDEX_MASK	((1UL << MAX_PAGE_ORDER) - 1)	/* indexes 0 .. 2^MAX_PAGE_ORDER - 1 */
/*
 * page->flags bits 22..25: the order of an allocated block, in its first
 * page while PG_allocated (0 otherwise).  __free_pages() compares it and
 * PG_allocated with one mask.
 */
#define PAGE_ORDER_SHIFT 22
#define PAGE_ORDER_MASK	0xfUL
#define ZONES_SHIFT	56	/* page->flags bits 56..57: zone index */
#define NODES_SHIFT	58	/* page->flags bits 58..63: node id */

static inline bool page_test(const struct page *page, enum pageflags bit)
{
	return page->flags & (1UL << bit);
}

static inline void page_set(struct page *page, enum pageflags bit)
{
	page->flags |= 1UL << bit;
}

static inline void page_clear(struct page *page, enum pageflags bit)
{
	page->flags &= ~(1UL << bit);
}

#define PageReserved(p)		page_test(p, PG_reserved)
#define PageBuddy(p)		page_test(p, PG_buddy)
#define PageSlab(p)		page_test(p, PG_slab)
#define PageHead(p)		page_test(p, PG_head)
#define PageMovable(p)		page_test(p, PG_movable)
#define PageIsolated(p)		page_test(p, PG_isolated)
#define PageTable(p)		page_test(p, PG_table)

/* @page's index in its compound block: 0 for the head and for a page in none. */
static inline unsigned long compound_index(const struct page *page)
{
	return (page->flags >> PAGE_INDEX_SHIFT) & PAGE_INDEX_MASK;
}

/* Is @page a tail page of a compound block? */
static inline bool PageTail(const struct page *page)
{
	return compound_index(page) != 0;
}

/* Is @page any page (head or tail) of a compound block? */
static inline bool PageCompound(const struct page *page)
{
	return PageHead(page) || PageTail(page);
}

/* The first page of @page's compound block, or @page itself if it is not a tail. */
static inline struct page *compound_head(const struct page *page)
{
	return (struct page *)page - compound_index(page);
}

/* The order @page was handed out with, if it is the first page of an allocated block. */
static inline unsigned int allocated_order(const struct page *page)
{
	return (unsigned int)(page->flags >> PAGE_ORDER_SHIFT) & PAGE_ORDER_MASK;
}

/* The order of a compound block, from its head (0 for a page that is not one). */
static inline unsigned int compound_order(const struct page *page)
{
	return PageHead(page) ? allocated_order(page) : 0;
}

/* The owner's word in an allocated page (Linux's page_private()/set_page_private()). */
static inline unsigned long page_private(const struct page *page)
{
	return page->private;
}

static inline void set_page_private(struct page *page, unsigned long private)
{
	page->private = private;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - vmemmap);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return vmemmap + pfn;
}

/*
 * A struct page's distance from vmemmap, in bytes, times PAGE_SIZE /
 * sizeof(struct page) is its frame's address: one shift (page_to_pfn()
 * then << PAGE_SHIFT would be two, the compiler cannot know the low bits
 * are zero).  kfree() computes it on every call.
 */
static inline void *page_address(const struct page *page)
{
	BUILD_BUG_ON(PAGE_SIZE % sizeof(struct page));
	return __va(((unsigned long)page - (unsigned long)vmemmap) *
		    (PAGE_SIZE / sizeof(struct page)));
}

/* @addr: a pointer or an unsigned long (as __get_free_pages() returns), as in Linux */
#define virt_to_page(addr)	pfn_to_page(__pa(addr) >> PAGE_SHIFT)
#define virt_to_pfn(addr)	(__pa(addr) >> PAGE_SHIFT)
#define page_to_virt(page)	page_address(page)

/* The head page of the block @addr is in (Linux's virt_to_head_page()). */
static inline struct page *virt_to_head_page(const void *addr)
{
	return compound_head(virt_to_page(addr));
}

static inline int page_to_nid(const struct page *page)
{
	return (int)(page->flags >> NODES_SHIFT);
}

static inline unsigned int page_zonenum(const struct page *page)
{
	return (unsigned int)(page->flags >> ZONES_SHIFT) & 3;
}

/* Smallest order whose block holds @size bytes. */
static inline unsigned int get_order(unsigned long size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

/*
 * Which frames have a struct page is recorded per 16 MiB "section"
 * (mm/mm_init.c): a section with any RAM has struct pages for all its
 * frames, the others have none (above max_pfn their part of vmemmap is not
 * mapped; below it, it maps one zeroed page read-only: mm/init.c).
 */
#define PFN_SECTION_SHIFT	12	/* 2^12 pages = 16 MiB per section */
#define MAX_PHYSMEM_BITS	40	/* 1 TiB of physical address space */
#define NR_MEM_SECTIONS		(1UL << (MAX_PHYSMEM_BITS - PAGE_SHIFT - PFN_SECTION_SHIFT))

extern unsigned long section_present[NR_MEM_SECTIONS / 64];
extern unsigned long max_pfn;	/* one past the last frame with a struct page */

/* pfn_valid - does page frame @pfn have a struct page?  One bit test. */
static inline bool pfn_valid(unsigned long pfn)
{
	unsigned long s = pfn >> PFN_SECTION_SHIFT;

	return pfn < max_pfn && s < NR_MEM_SECTIONS && (section_present[s / 64] >> (s % 64)) & 1;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order);
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
unsigned long alloc_pages_bulk_node(gfp_t gfp, int nid, unsigned long nr_pages,
				    struct page **page_array);
void free_pages_bulk(struct page **pages, unsigned long nr);
void split_page(struct page *page, unsigned int order);
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);
void *alloc_pages_exact(size_t size, gfp_t gfp);
void free_pages_exact(void *virt, size_t size);
unsigned long nr_free_pages(void);
unsigned long nr_free_buddy_pages(unsigned int min_order);
unsigned int check_free_lists(void);
void drain_all_pages(void);

#define alloc_page(gfp)		alloc_pages(gfp, 0)
#define __free_page(page)	__free_pages(page, 0)
#define __get_free_page(gfp)	__get_free_pages(gfp, 0)
#define free_page(addr)		free_pages(addr, 0)

/* Debugging: fill free pages with a pattern and check it on allocation. */
#define PAGE_POISON	0xaa
void set_page_poisoning(bool on);
bool page_poisoning_enabled(void);

#endif
