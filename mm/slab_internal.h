/*
 * mm/slab_internal.h - the slab allocator's own: what mm/slab.c,
 * mm/slab_common.c, mm/slab_debug.c and mm/slab_monitor.c share (the part
 * of Linux's private mm/slab.h; the public API is mm/slab.h, as Linux's
 * include/linux/slab.h).
 *
 * struct kmem_cache, its sheaves and barns, and the test of an object's
 * start.  Above the page allocator (mm/internal.h), below vmalloc: only
 * the slab's files, KASAN, fault injection and the tests include it.
 */
#ifndef MM_SLAB_INTERNAL_H
#define MM_SLAB_INTERNAL_H

#include "mm/internal.h"
#include "mm/slab.h"

/* What slab_debug= without letters turns on: F, Z, P, U */
#define SLAB_DEBUG_DEFAULT_FLAGS (SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | SLAB_POISON | \
				  SLAB_STORE_USER)
/* Caches with any of these take the checked path for every alloc and free. */
#define SLAB_DEBUG_FLAGS	(SLAB_DEBUG_DEFAULT_FLAGS | SLAB_TRACE)
#define SLAB_NO_SHEAVES		((slab_flags_t)0x80000000U)	/* internal: no per-CPU tier */
#define SLAB_FAILSLAB		((slab_flags_t)0x02000000U)	/* may fail now: mm/fault_inject.c */

#define MAX_SHEAF_CAPACITY	32	/* objects per sheaf, at most */
/* ... and bytes of them, unless that is below 4 (docs/slab.md: Linux's traces held less) */
#define SHEAF_MAX_BYTES		(8U << 10)
#define MAX_FULL_SHEAVES	10	/* per barn, as Linux */
#define MAX_EMPTY_SHEAVES	10

/*
 * A sheaf: an array of free objects, the per-CPU tier of a cache (Linux
 * 7.0's name; Bonwick's magazine).  Allocation pops, free pushes.
 */
struct slab_sheaf {
	struct list_head barn_list;	/* on a barn's list of full or empty sheaves */
	unsigned int size;		/* objects in it (while it is main: main_size()) */
	unsigned int capacity;		/* objects it can hold (0: the bootstrap sheaf) */
	void *slots[];			/* the objects */
};

/* Where @sheaf's objects start. */
static inline void **sheaf_objects(struct slab_sheaf *sheaf)
{
	return sheaf->slots;
}

/*
 * Each CPU's two sheaves of a cache: alloc and free use main; spare saves
 * trips.  The fast paths reach main only through top, base and end, kept
 * here beside the pointer to it: a pop or a push is one load of top and
 * one store, with no load of main (and of its size) on the way.  That load
 * was on the chain that every kfree() must finish before the next kmalloc()
 * can start; without it the pair takes a third of the time.  So while a
 * sheaf is main, its size field is stale: top - base is the truth.
 *
 * Another CPU may read these fields (to count the cached objects) but
 * never follow main or spare: a flush by IPI frees both at any moment.
 * So the spare's size is kept here too, where such a reader finds it.
 */
struct slub_percpu_sheaves {
	void **top;			/* main's next free slot */
	void **base;			/* main's first object slot: empty when top == base */
	void **end;			/* base + main->capacity: full at top == end */
	struct slab_sheaf *main;
	struct slab_sheaf *spare;	/* NULL, or empty, or full */
	unsigned int spare_size;	/* spare's objects (0 without one), for other CPUs */
};

/*
 * main_size - the objects in @pcs's main sheaf
 *
 * On another CPU, a snapshot: a swap of main between the two loads may tear
 * it, and then it is 0 (counted in bytes, as the two may point into two
 * different sheaves).
 */
static inline unsigned int main_size(const struct slub_percpu_sheaves *pcs)
{
	unsigned long bytes = (unsigned long)READ_ONCE(pcs->top) - (unsigned long)READ_ONCE(pcs->base);

	return bytes <= MAX_SHEAF_CAPACITY * sizeof(void *) ? bytes / sizeof(void *) : 0;
}

/* A node's depot of whole sheaves, traded with the CPUs (Bonwick's depot). */
struct node_barn {
	spinlock_t lock;
	struct list_head sheaves_full, sheaves_empty;
	unsigned int nr_full, nr_empty;
};

/*
 * A cache's slabs on one node.  The lists are doubly linked through the
 * slabs' struct pages by page frame number (slab_next/slab_prev; pfn 0,
 * never a slab, ends them), so the whole slab header fits in struct page.
 */
struct kmem_cache_node {
	spinlock_t list_lock;
	u32 partial;			/* slabs with free objects (maybe all free) */
	u32 full;			/* slabs with none */
	unsigned long nr_partial, nr_empty, nr_slabs;
	unsigned long total_objects;	/* in all this node's slabs */
	struct node_barn barn;
};

/* Who allocated or freed an object, for SLAB_STORE_USER. */
struct track {
	void *addr;			/* the caller */
	unsigned int cpu;
	u64 when;			/* ktime, ns */
};

enum track_item { TRACK_ALLOC, TRACK_FREE };

struct kmem_cache {
	struct slub_percpu_sheaves *cpu_sheaves;	/* alloc_percpu() */
	unsigned long fast_free_mask;	/* kfree()'s one test: mm/slab.c, fast_free_mask() */
	unsigned long random;		/* freelist hardening secret */
	slab_flags_t flags;
	unsigned int size;		/* bytes per object slot, everything included */
	unsigned int object_size;	/* bytes the user may use */
	unsigned int offset;		/* of the free pointer within a free slot */
	unsigned int free_mark;		/* of the word that says "free" (unchecked caches) */
	unsigned int inuse;		/* where the metadata after the object starts */
	unsigned int red_left_pad;	/* left redzone: the object starts this far into its slot */
	unsigned int align;
	unsigned int order;		/* of its slabs, when memory allows */
	unsigned int objects;		/* per slab of that order */
	unsigned int min_order;		/* of a slab made under pressure: one object fits */
	unsigned long start_mult;	/* size = odd << start_shift; this is odd's inverse */
	unsigned int start_shift;	/* ... mod 2^64: object_in_slab() */
	unsigned int sheaf_capacity;
#if CONFIG_KASAN
	unsigned int kasan_meta_offset;	/* of struct kasan_meta, from the object's start */
#endif
	void (*ctor)(void *obj);
	const char *name;
	struct list_head list;		/* on slab_caches */
	struct kmem_cache_node node[MAX_NUMNODES];
};

/*
 * A slab's order: the cache's, or its smallest for a slab made under
 * pressure (mm/slab.c, alloc_slab_pages()); the number of objects tells.
 * (page->private, a free block's order, holds slab fields here.)
 */
static inline unsigned int slab_order(const struct kmem_cache *s, const struct page *slab)
{
	return slab->objects == s->objects ? s->order : s->min_order;
}

extern struct list_head slab_caches;
extern struct kmem_cache *kmem_cache;	/* the cache of struct kmem_cache */
extern spinlock_t slab_caches_lock;

static inline struct kmem_cache_node *get_node(struct kmem_cache *s, int nid)
{
	return &s->node[nid];
}

/* Where the slab whose first page is @slab starts. */
static inline void *slab_address(const struct page *slab)
{
	return page_address(slab);
}

static inline struct page *pfn_to_slab(u32 pfn)
{
	return pfn ? pfn_to_page(pfn) : NULL;
}

/*
 * Is offset @off into a slab of @s where an object's slot starts, and the
 * slot one of the slab's @objects?  kfree() asks it every time, so not by
 * dividing but by one multiply and one rotate (the test of divisibility in
 * Granlund and Montgomery, "Division by invariant integers using
 * multiplication", 1994, section 9): with size = odd * 2^k and M the
 * inverse of odd modulo 2^64, an offset i * size times M is i * 2^k, which
 * rotated right by k is i; any other offset comes out at least 2^64 / size,
 * far beyond the slab's object count.  So one compare checks both.
 */
static __always_inline bool slab_offset_is_object(const struct kmem_cache *s, unsigned long off,
						  unsigned int objects)
{
	unsigned long x = off * s->start_mult;
	unsigned int k = s->start_shift;

	return ((x >> k) | (x << ((64 - k) & 63))) < objects;
}

/*
 * Is @p the start of an object of the slab whose first page is @slab?
 * Objects start red_left_pad bytes into their slots.
 */
static __always_inline bool object_in_slab(const struct kmem_cache *s, const struct page *slab,
					   const void *p)
{
	unsigned long off = (unsigned long)p - (unsigned long)slab_address(slab);

	return slab_offset_is_object(s, off - s->red_left_pad, slab->objects);
}

/*
 * object_in_slab() as kfree()'s slow path and ksize() ask it: @page is
 * the page @p is in, and its index in the slab gives @p's offset without
 * the slab's address (two instructions fewer).
 */
static __always_inline bool object_in_own_page(const struct kmem_cache *s,
					       const struct page *page, const void *p)
{
	unsigned long off = ((unsigned long)p & (PAGE_SIZE - 1)) +
			    (compound_index(page) << PAGE_SHIFT);

	return slab_offset_is_object(s, off - s->red_left_pad, page->objects);
}

/*
 * The page of the slab @obj is in (not always its first: every page of a
 * slab has PG_slab, the cache and the object count, enough for kfree() and
 * object_in_own_page(); the rest is in compound_head() of it), or else the
 * first page of the block @obj is in, or NULL if @obj is not an address of
 * the direct map below max_pfn (so not from kmalloc()).  In a hole without
 * RAM below max_pfn, the struct page is a zeroed one, no slab and no block
 * (mm/init.c, vmemmap_back_holes()): callers that find no PageSlab() there
 * ask pfn_valid() on their slow path.  Inline: kfree() asks it on every
 * call.
 */
static __always_inline struct page *virt_to_slab_checked(const void *obj)
{
	/* LAB slab */
	unsigned long pfn = ((unsigned long)obj - PAGE_OFFSET) >> PAGE_SHIFT;
	struct page *page;

	if (unlikely(pfn >= max_pfn))	/* also below PAGE_OFFSET: pfn wraps huge */
		return NULL;
	page = pfn_to_page(pfn);
	if (likely(PageSlab(page)))	/* any page of a slab */
		return page;
	return compound_head(page);
	/* END LAB */
}

/* mm/slab.c, for mm/slab_common.c, mm/slab_debug.c and the monitor */
void *kmalloc_from_cache(struct kmem_cache *s, gfp_t flags, void *caller);
void *kmalloc_node_from_cache(struct kmem_cache *s, gfp_t flags, int node, void *caller);
void *get_freepointer(struct kmem_cache *s, struct page *slab, void *obj);
void *slab_freelist(const struct kmem_cache *s, const struct page *slab);
void kmem_cache_flush_cpus(struct kmem_cache *s);
void kmem_cache_shrink_all(void);
void slab_free_quarantined(void *obj);
unsigned long cache_sheaf_objects(struct kmem_cache *s);
unsigned long nr_slab_pages(void);	/* mm/slab_monitor.c */
unsigned long kmem_cache_slab_pages(struct kmem_cache *s);
bool slab_object_was_freed(struct page *slab, void *obj, void *caller);
void kmem_cache_init(void);
struct kmem_cache *create_boot_cache(struct kmem_cache *s, const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags);

/* mm/slab_common.c */
void kmalloc_init(void);
unsigned int kmalloc_index_runtime(size_t size);
struct page *kmalloc_obj_slab(const void *obj, void *caller, const char *fn);
void kfree_not_slab(const void *obj, struct page *page, void *caller, const char *fn);
size_t ksize_caller(const void *objp, void *caller, const char *fn);

/* mm/slab_debug.c */
void slab_debug_parse(const char *str);
slab_flags_t slab_debug_flags(const char *name, slab_flags_t flags);
bool slab_debug_min_order_off(void);
void init_object_debug(struct kmem_cache *s, struct page *slab, void *obj);
bool alloc_debug_check(struct kmem_cache *s, struct page *slab, void *obj, void *caller);
bool free_debug_check(struct kmem_cache *s, struct page *slab, void *obj, void *caller);
bool slab_on_freelist(struct kmem_cache *s, struct page *slab, const void *obj);
void mark_objects_used(struct kmem_cache *s, struct page *slab);
void slab_bug(struct kmem_cache *s, const char *fmt, ...) __printf(2, 3);
void print_tracks(struct kmem_cache *s, void *obj);
int validate_slab_cache(struct kmem_cache *s);
int slab_check_cache(struct kmem_cache *s);

/* mm/slab_monitor.c */
int slabinfo_show_cache(struct kmem_cache *s, char *buf, size_t size);
void report_leaks(struct kmem_cache *s);

#endif
