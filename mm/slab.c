/*
 * mm/slab.c - the slab allocator: caches of objects of one size.
 *
 * The page allocator hands out whole pages; most kernel objects are a few
 * dozen bytes.  A cache (struct kmem_cache) cuts slabs - blocks of 2^order
 * pages - into equal slots and hands out one object at a time.  Three
 * tiers, cheapest first (Linux 7.0's "sheaves"; Bonwick's 2001 magazines
 * and depot, re-derived):
 *
 *   CPU    main  [o o o o o . . .]   a sheaf: an array of free objects.
 *          spare [o o o o o o o o]   kmalloc pops from main, kfree pushes
 *            |                       to it: no lock, no interrupts off (an
 *            |  full/empty sheaves   interrupt restarts a push or pop).
 *            v
 *   node   barn  full: [s][s]  empty: [s][s]     whole sheaves traded under
 *            |                                   the barn's lock
 *            v  objects one by one
 *   node   slabs  partial: [slab]<->[slab]      the objects themselves, on
 *                 full:    [slab]<->[slab]      the slabs' freelists, under
 *                                               the node's list_lock
 *
 * A sheaf that runs dry is swapped with the spare, or traded at the barn
 * for a full one, or refilled from the slabs (which may take a new slab
 * from the page allocator).  A sheaf that fills up is swapped, traded for
 * an empty one, or flushed: each object goes back to its own slab.  A
 * sheaf holds only objects of its CPU's memory node (numa_mem_id()), as in
 * Linux 6.18: an object of another node, freed here, goes straight back
 * to its slab, so that what the sheaves hand out is local memory.
 *
 * The paths through the tiers, a function for each step (Linux 6.18's
 * name where Linux has the same step):
 *
 *          allocation                        free
 *          slab_alloc_node()                 kfree_caller() (kfree, kvfree) and
 *                                            kmem_cache_free(): the slab's page;
 *                                            slab_free(): one mask test, else
 *                                            slab_free_checked(): a multiply
 *   CPU    pop main                          free_to_pcs(): push on main
 *          main empty: alloc_from_pcs()      main full: free_to_pcs_irqoff()
 *          __pcs_replace_empty_main():       __pcs_replace_full_main():
 *          the spare, or                     the spare, or
 *   barn   barn_take() a full sheaf          barn_replace_full_sheaf(), or
 *   slabs  else get_objects() into an        flush_sheaf(): put_objects()
 *          empty sheaf (may make a slab)
 *
 * Past the sheaves: a checked cache's objects (alloc_from_slabs(),
 * __slab_free()) and an object of another node (free_remote()).
 *
 * One slab, order 0, kmalloc-64:
 *
 *   struct page: PG_slab, slab_cache = kmalloc-64, freelist, inuse, objects
 *   page:  [obj 0][obj 1][obj 2] ... [obj 63]
 *             |      ^     |           ^
 *             +------+     +--> ... ---+      free objects link to the next
 *                                             free one through a pointer
 *                                             stored inside them (hardened:
 *                                             xor'ed with a per-cache secret
 *                                             and its own address)
 *
 * The slab's description lives in its struct page (mm/page_alloc.h), and
 * every page of a multi-page slab holds the cache and the object count too
 * (and its index in the slab, __GFP_COMP): kfree() needs nothing but the
 * pointer to find the slab and its cache, in O(1), from one struct page.
 *
 * Caches with debugging (SLAB_POISON, SLAB_RED_ZONE, SLAB_STORE_USER,
 * SLAB_CONSISTENCY_CHECKS: kmem_cache_create() flags or slab_debug= at
 * boot) skip the sheaves: every alloc and free goes to the slab under its
 * lock and is checked there (mm/slab_debug.c).  Without them the fast path
 * tests one per-cache flag word to allocate, and one mask to free (which
 * also checks the object's start: fast_free_mask()), and keeps one check
 * of its own: a free object carries a free mark, so a double free is
 * caught wherever the first free left the object.
 *
 * kmalloc() and friends are in mm/slab_common.c; the monitor's commands in
 * mm/slab_monitor.c.  docs/slab.md tells the whole story with figures.
 */
#include "mm/slab_internal.h"
#include "mm/fault_inject.h"
#include "mm/kasan.h"
#include "mm/mmdebug.h"
#include "mm/percpu.h"
#include "mm/shrinker.h"
#include "mm/kvmalloc.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MIN_PARTIAL		2	/* empty slabs a node keeps before giving pages back */

LIST_HEAD(slab_caches);
DEFINE_SPINLOCK(slab_caches_lock);

static struct kmem_cache kmem_cache_boot, sheaf_cache_boot;
struct kmem_cache *kmem_cache;		/* where struct kmem_cache comes from */
static struct kmem_cache *sheaf_cache;	/* where struct slab_sheaf comes from */

/* Every CPU's main sheaf until its first refill: empty, and full for a free. */
static struct slab_sheaf bootstrap_sheaf = { .size = 0, .capacity = 0 };

/* Does @s skip the sheaves (slab debugging, or SLAB_NO_SHEAVES)?  Then every object goes to its slab. */
static inline bool cache_skips_sheaves(const struct kmem_cache *s)
{
	return s->flags & (SLAB_DEBUG_FLAGS | SLAB_NO_SHEAVES);
}

/* Make @sheaf this CPU's main sheaf (interrupts off): top, base and end follow it. */
static void set_main(struct slub_percpu_sheaves *pcs, struct slab_sheaf *sheaf)
{
	void **base = sheaf_objects(sheaf);

	pcs->main = sheaf;
	/* WRITE_ONCE(): other CPUs read top and base for their counts (main_size()). */
	WRITE_ONCE(pcs->base, base);
	WRITE_ONCE(pcs->top, base + sheaf->size);
	pcs->end = base + sheaf->capacity;
}

/*
 * The out-of-line pop and push of main (interrupts off; main not empty, not
 * full): WRITE_ONCE() of top, which other CPUs read (main_size()), as the
 * fast path's restartable sequence stores it in one instruction.
 */
static void *pcs_pop_irqoff(struct slub_percpu_sheaves *pcs)
{
	void **top = pcs->top - 1;

	WRITE_ONCE(pcs->top, top);
	return *top;
}

static void pcs_push_irqoff(struct slub_percpu_sheaves *pcs, void *obj)
{
	void **top = pcs->top;

	*top = obj;
	WRITE_ONCE(pcs->top, top + 1);
}

/*
 * Make @sheaf (or NULL) this CPU's spare (interrupts off), and publish its
 * size for the other CPUs' counts (cache_sheaf_objects()).
 */
static void set_spare(struct slub_percpu_sheaves *pcs, struct slab_sheaf *sheaf)
{
	pcs->spare = sheaf;
	WRITE_ONCE(pcs->spare_size, sheaf ? sheaf->size : 0);
}

/* This CPU's main sheaf, its size brought up to date (interrupts off). */
static struct slab_sheaf *main_sheaf(struct slub_percpu_sheaves *pcs)
{
	if (pcs->main != &bootstrap_sheaf)	/* shared by every CPU: never written */
		pcs->main->size = main_size(pcs);
	return pcs->main;
}

/* ---------------------------------------------------------------- free pointers */

/*
 * A free object holds the address of the next free one at s->offset.
 * Stored as is, one stray write could make the next allocation return any
 * address; so it is stored xor'ed with the cache's secret and with where it
 * is stored (CONFIG_SLAB_FREELIST_HARDENED), and checked when read back.
 */
static __no_sanitize_address unsigned long freeptr_encode(const struct kmem_cache *s, void *ptr,
							  void *where)
{
	return (unsigned long)ptr ^ s->random ^ __builtin_bswap64((unsigned long)where);
}

/* The free pointer is inside a free object: KASAN must not check these two. */
static __no_sanitize_address void set_freepointer(struct kmem_cache *s, void *obj, void *next)
{
	void **where = (void **)((char *)obj + s->offset);

	*(unsigned long *)where = freeptr_encode(s, next, where);
}

/**
 * get_freepointer - the free object after @obj on @slab's freelist
 *
 * A value that does not decode to NULL or to an object of @slab means the
 * free object was written to: reported, and NULL returned, so the rest of
 * the freelist is dropped (leaked, never handed out) rather than followed.
 */
__no_sanitize_address void *get_freepointer(struct kmem_cache *s, struct page *slab, void *obj)
{
	void **where = (void **)((char *)obj + s->offset);
	void *next = (void *)(*(unsigned long *)where ^ s->random ^
			      __builtin_bswap64((unsigned long)where));

	if (likely(!next || object_in_slab(s, slab, next)))
		return next;
	slab_bug(s, "Freelist pointer corrupted in free object %px (it decodes to %px)",
		 obj, next);
	return NULL;
}

/*
 * The free mark of an unchecked cache: while one of its objects is free,
 * in a sheaf of any CPU or on its slab's freelist, the word at
 * s->free_mark holds the object's address mixed with the cache's secret.
 * A free that finds it there is a double free; an allocation clears it.
 * Where the object is one word long, that word is also the free pointer,
 * which replaces the mark when a sheaf is flushed: there only a double
 * free while the object is in a sheaf is caught.  A KASAN kernel has no
 * mark: the object is poisoned while free, and KASAN reports the second
 * free itself.
 */
static __always_inline unsigned long *free_mark_word(void *obj, unsigned int where)
{
	return (unsigned long *)((char *)obj + where);
}

static __always_inline void clear_free_mark(const struct kmem_cache *s, void *obj)
{
	if (!CONFIG_KASAN)
		*free_mark_word(obj, s->free_mark) = 0;
}

/*
 * Mark @obj free; false if it was marked already (a double free).  @where
 * is s->free_mark, or 0 where the caller knows it is 0 without a load.
 */
static __always_inline bool set_free_mark(const struct kmem_cache *s, void *obj,
					  unsigned int where)
{
	unsigned long mark = (unsigned long)obj ^ s->random;

	if (CONFIG_KASAN)
		return true;
	if (unlikely(*free_mark_word(obj, where) == mark))
		return false;
	*free_mark_word(obj, where) = mark;
	return true;
}

/** slab_freelist - the first free object of @slab, or NULL */
void *slab_freelist(const struct kmem_cache *s, const struct page *slab)
{
	(void)s;
	return slab->freelist ? (char *)slab_address(slab) + slab->freelist - 1 : NULL;
}

static void set_slab_freelist(struct page *slab, void *obj)
{
	slab->freelist = obj ? (u32)((char *)obj - (char *)slab_address(slab)) + 1 : 0;
}

/* ---------------------------------------------------------------- slab lists */

/* Put @slab at the head of the list starting at *@head (a pfn). */
static void slab_list_add(u32 *head, struct page *slab)
{
	u32 pfn = (u32)page_to_pfn(slab);
	struct page *first = pfn_to_slab(*head);

	slab->slab_prev = 0;
	slab->slab_next = *head;
	if (first)
		first->slab_prev = pfn;
	*head = pfn;
}

static void slab_list_del(u32 *head, struct page *slab)
{
	struct page *prev = pfn_to_slab(slab->slab_prev), *next = pfn_to_slab(slab->slab_next);

	if (prev)
		prev->slab_next = slab->slab_next;
	else
		*head = slab->slab_next;
	if (next)
		next->slab_prev = slab->slab_prev;
	slab->slab_next = slab->slab_prev = 0;
}

/* ---------------------------------------------------------------- slabs */

/*
 * The pages of a new slab.  The cache's order is only worth a light try
 * (no reclaim, no OOM killer: as Linux's SLUB): when memory is fragmented,
 * a slab of the smallest order that holds one object does as well, and
 * that one is asked for with the caller's own flags.  Slab pages never
 * move: they come from unmovable pageblocks, or reclaimable ones for a
 * SLAB_RECLAIM_ACCOUNT cache, whose shrinker can empty them (Linux's
 * s->allocflags), whatever mobility the caller asked for.
 */
static struct page *alloc_slab_pages(struct kmem_cache *s, gfp_t gfp, int node,
				     unsigned int *order)
{
	gfp_t page_gfp = (gfp & ~(__GFP_ZERO | __GFP_COMP | GFP_MOVABLE_MASK)) | __GFP_NOWARN |
			 (s->flags & SLAB_RECLAIM_ACCOUNT ? __GFP_RECLAIMABLE : 0);
	struct page *slab = NULL;

	*order = s->order;
	if (s->order > s->min_order)
		slab = alloc_pages_node(node, (page_gfp | __GFP_COMP | __GFP_NOMEMALLOC) &
					~(__GFP_RECLAIM | __GFP_NOFAIL), s->order);
	if (!slab) {
		*order = s->min_order;
		slab = alloc_pages_node(node, page_gfp | (s->min_order ? __GFP_COMP : 0),
					s->min_order);
	}
	if (!slab && !(gfp & __GFP_NOWARN))
		pr_warn("SLUB: Unable to allocate memory on node %d, gfp=%#x: cache %s, "
			"object size %u, buffer size %u, slab order %u (or %u)\n", node, gfp,
			s->name, s->object_size, s->size, s->order, s->min_order);
	return slab;
}

/*
 * Every page of a slab carries PG_slab, its cache and its object count, so
 * that kfree() finds all it needs in the struct page of the page its
 * pointer is in, first page or not.  @s NULL undoes it.
 */
static void set_slab_pages(struct page *slab, unsigned int order, struct kmem_cache *s,
			   u16 objects)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (s)
			page_set(&slab[i], PG_slab);
		else
			page_clear(&slab[i], PG_slab);
		slab[i].slab_cache = s;
		slab[i].objects = objects;
	}
}

static struct page *allocate_slab(struct kmem_cache *s, gfp_t gfp, int node)
{
	unsigned int order;
	struct page *slab = alloc_slab_pages(s, gfp, node, &order);
	char *p;

	if (!slab)
		return NULL;
	set_slab_pages(slab, order, s, (u16)min((PAGE_SIZE << order) / s->size, 0xffffUL));
	slab->slab_next = slab->slab_prev = 0;
	slab->inuse = 0;
	p = (char *)slab_address(slab) + s->red_left_pad;
	set_slab_freelist(slab, p);
	kasan_poison_slab(slab);
	for (unsigned int i = 0; i < slab->objects; i++, p += s->size) {
		if (CONFIG_SLUB_DEBUG && (s->flags & SLAB_DEBUG_FLAGS))
			init_object_debug(s, slab, p);
		if (s->ctor) {
			kasan_unpoison_new_object(s, p);
			s->ctor(p);	/* once per object, when its slab is made */
			kasan_poison_new_object(s, p);
		}
		set_freepointer(s, p, i + 1 < slab->objects ? p + s->size : NULL);
	}
	return slab;
}

/* Give an empty slab's pages back.  Its node's list_lock is held. */
static void discard_slab(struct kmem_cache *s, struct kmem_cache_node *n, struct page *slab)
{
	unsigned int order = slab_order(s, slab);

	slab_list_del(&n->partial, slab);
	n->nr_partial--;
	n->nr_empty--;
	n->nr_slabs--;
	n->total_objects -= slab->objects;
	set_slab_pages(slab, order, NULL, 0);
	slab->slab_next = slab->slab_prev = 0;
	slab->freelist = 0;
	slab->inuse = 0;
	slab->private = order;		/* the page allocator's view of the block again */
	__free_pages(slab, order);
}

/* A new slab joins its node's partial list.  The list_lock is held. */
static void add_new_slab(struct kmem_cache_node *n, struct page *slab)
{
	slab_list_add(&n->partial, slab);
	n->nr_partial++;
	n->nr_empty++;
	n->nr_slabs++;
	n->total_objects += slab->objects;
}

/*
 * Take up to @want objects from the slabs of node @n into @objs; the
 * list_lock is held.  A slab that runs out moves to the full list.
 */
static unsigned int take_objects(struct kmem_cache *s, struct kmem_cache_node *n, void **objs,
				 unsigned int want, void *caller)
{
	unsigned int got = 0;
	struct page *slab;

	while (got < want && (slab = pfn_to_slab(n->partial))) {
		void *obj = slab_freelist(s, slab);

		if (!slab->inuse)
			n->nr_empty--;
		while (got < want && obj) {
			void *next = get_freepointer(s, slab, obj);

			if (CONFIG_SLUB_DEBUG && (s->flags & SLAB_DEBUG_FLAGS) &&
			    !alloc_debug_check(s, slab, obj, caller)) {
				obj = NULL;	/* reported: not handed out */
				break;
			}
			objs[got++] = obj;
			slab->inuse++;
			obj = next;
		}
		set_slab_freelist(slab, obj);
		if (!obj && slab->inuse != slab->objects) {
			/*
			 * The freelist ended before the free objects did: it was
			 * corrupted, or an object failed its checks.  Never hand out
			 * the rest, and never free the slab: as Linux does, count
			 * every object as used.
			 */
			pr_err("FIX %s: Marking all objects used\n", s->name);
			slab->inuse = slab->objects;
			if (CONFIG_SLUB_DEBUG && (s->flags & SLAB_DEBUG_FLAGS))
				mark_objects_used(s, slab);
		}
		if (!obj) {		/* no free object left: onto the full list */
			slab_list_del(&n->partial, slab);
			n->nr_partial--;
			slab_list_add(&n->full, slab);
		}
	}
	return got;
}

/*
 * Give @obj back to its slab; the slab's node's list_lock is held.  An empty
 * slab beyond the few a node keeps goes back to the page allocator.
 */
static void put_object(struct kmem_cache *s, struct kmem_cache_node *n, struct page *slab,
		       void *obj)
{
	VM_BUG_ON_PAGE(!PageSlab(slab) || slab->slab_cache != s || !slab->inuse, slab);
	VM_BUG_ON(!object_in_slab(s, slab, obj));
	set_freepointer(s, obj, slab_freelist(s, slab));
	set_slab_freelist(slab, obj);
	if (slab->inuse == slab->objects) {	/* it was full: partial now */
		slab_list_del(&n->full, slab);
		slab_list_add(&n->partial, slab);
		n->nr_partial++;
	}
	if (--slab->inuse == 0 && ++n->nr_empty > MIN_PARTIAL)
		discard_slab(s, n, slab);
}

/* The slab @obj is in (its first page), from the pointer alone. */
static struct page *virt_to_slab(const void *obj)
{
	return virt_to_head_page(obj);
}

/* Give back @nr objects (of any nodes), taking each node's lock once per run. */
static void put_objects(struct kmem_cache *s, void **objs, unsigned int nr)
{
	struct kmem_cache_node *locked = NULL;
	unsigned long flags = 0;

	for (unsigned int i = 0; i < nr; i++) {
		struct page *slab = virt_to_slab(objs[i]);
		struct kmem_cache_node *n = get_node(s, page_to_nid(slab));

		if (n != locked) {
			if (locked)
				spin_unlock_irqrestore(&locked->list_lock, flags);
			spin_lock_irqsave(&n->list_lock, flags);
			locked = n;
		}
		put_object(s, n, slab, objs[i]);
	}
	if (locked)
		spin_unlock_irqrestore(&locked->list_lock, flags);
}

/*
 * Fill @objs with up to @want objects from node @nid's slabs, making new
 * slabs as needed (with @gfp: this may reclaim, so interrupts must be on
 * unless @gfp cannot sleep).  Returns how many it got.
 *
 * NUMA_NO_NODE means this CPU's memory node, numa_mem_id().  A node
 * without memory means the nearest node that has, the one the page
 * allocator would give its pages from, unless __GFP_THISNODE insists on
 * it (then nothing can be had).  Linux's SLUB takes numa_mem_id() there
 * too, the same node for the node's own CPUs.  So a memoryless node's
 * kmem_cache_node and barn exist but stay empty: no slab is ever on that
 * node, and no CPU uses that barn.
 */
static unsigned int get_objects(struct kmem_cache *s, gfp_t gfp, int nid, void **objs,
				unsigned int want, void *caller)
{
	unsigned int got = 0;
	unsigned long flags;

	if (nid == NUMA_NO_NODE)
		nid = numa_mem_id();
	else if (!node_state(nid, N_MEMORY) && !(gfp & __GFP_THISNODE))
		nid = local_memory_node(nid);
	while (got < want) {
		struct kmem_cache_node *n = get_node(s, nid);
		struct page *slab;

		spin_lock_irqsave(&n->list_lock, flags);
		got += take_objects(s, n, objs + got, want - got, caller);
		spin_unlock_irqrestore(&n->list_lock, flags);
		if (got == want)
			break;
		slab = allocate_slab(s, gfp, nid);
		if (!slab)
			break;
		/* The page allocator may have had to use another node. */
		n = get_node(s, page_to_nid(slab));
		spin_lock_irqsave(&n->list_lock, flags);
		add_new_slab(n, slab);
		got += take_objects(s, n, objs + got, want - got, caller);
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
	return got;
}

/* ---------------------------------------------------------------- barns */

/* This CPU's barn: its memory node's (a memoryless node's barn is never used). */
static struct node_barn *local_barn(struct kmem_cache *s)
{
	return &get_node(s, numa_mem_id())->barn;
}

static struct slab_sheaf *barn_take(struct node_barn *barn, bool full)
{
	struct list_head *list = full ? &barn->sheaves_full : &barn->sheaves_empty;
	struct slab_sheaf *sheaf = NULL;
	unsigned long flags;

	spin_lock_irqsave(&barn->lock, flags);
	if (!list_empty(list)) {
		sheaf = list_first_entry(list, struct slab_sheaf, barn_list);
		list_del(&sheaf->barn_list);
		if (full)
			barn->nr_full--;
		else
			barn->nr_empty--;
	}
	spin_unlock_irqrestore(&barn->lock, flags);
	return sheaf;
}

/* Leave @sheaf at the barn; false if the barn has enough of its kind. */
static bool barn_put(struct node_barn *barn, struct slab_sheaf *sheaf)
{
	bool full = sheaf->size != 0;
	unsigned int *nr = full ? &barn->nr_full : &barn->nr_empty;
	unsigned long flags;
	bool taken = false;

	spin_lock_irqsave(&barn->lock, flags);
	if (*nr < (full ? MAX_FULL_SHEAVES : MAX_EMPTY_SHEAVES)) {
		list_add(&sheaf->barn_list, full ? &barn->sheaves_full : &barn->sheaves_empty);
		(*nr)++;
		taken = true;
	}
	spin_unlock_irqrestore(&barn->lock, flags);
	return taken;
}

/*
 * Trade the full @sheaf for an empty one at @barn, in one step under its
 * lock (Linux's barn_replace_full_sheaf()): the empty sheaf, or NULL if
 * the barn has no room for a full one or no empty one, and then it took
 * nothing.  Two steps, a take and a put, would leave a window in which
 * other CPUs fill the barn and the taken sheaf has nowhere to go back.
 */
static struct slab_sheaf *barn_replace_full_sheaf(struct node_barn *barn,
						  struct slab_sheaf *sheaf)
{
	struct slab_sheaf *empty = NULL;
	unsigned long flags;

	spin_lock_irqsave(&barn->lock, flags);
	if (barn->nr_full < MAX_FULL_SHEAVES && !list_empty(&barn->sheaves_empty)) {
		empty = list_first_entry(&barn->sheaves_empty, struct slab_sheaf, barn_list);
		list_del(&empty->barn_list);
		barn->nr_empty--;
		list_add(&sheaf->barn_list, &barn->sheaves_full);
		barn->nr_full++;
	}
	spin_unlock_irqrestore(&barn->lock, flags);
	return empty;
}

/* ---------------------------------------------------------------- sheaves */

static struct slab_sheaf *alloc_empty_sheaf(struct kmem_cache *s, gfp_t gfp)
{
	struct slab_sheaf *sheaf = kmem_cache_alloc(sheaf_cache, gfp & ~__GFP_ZERO);

	if (sheaf) {
		sheaf->size = 0;
		sheaf->capacity = s->sheaf_capacity;
	}
	return sheaf;
}

/* Empty @sheaf into the slabs; it stays allocated. */
static void flush_sheaf(struct kmem_cache *s, struct slab_sheaf *sheaf)
{
	put_objects(s, sheaf_objects(sheaf), sheaf->size);
	sheaf->size = 0;
}

/* Dispose of a sheaf nobody uses any more: to the barn if it wants it, else freed. */
static void retire_sheaf(struct kmem_cache *s, struct slab_sheaf *sheaf)
{
	if (sheaf == &bootstrap_sheaf)
		return;
	if (barn_put(local_barn(s), sheaf))
		return;
	flush_sheaf(s, sheaf);
	kmem_cache_free(sheaf_cache, sheaf);
}

/* An empty sheaf: the barn's, or a new one allocated with @gfp. */
static struct slab_sheaf *get_empty_sheaf(struct kmem_cache *s, gfp_t gfp)
{
	struct slab_sheaf *sheaf = barn_take(local_barn(s), false);

	return sheaf ? sheaf : alloc_empty_sheaf(s, gfp);
}

/*
 * @sheaf leaves main, or was never installed: it waits as this CPU's spare
 * if there is none, else it is retired (interrupts off).  The bootstrap
 * sheaf is neither.
 */
static void stash_sheaf(struct kmem_cache *s, struct slub_percpu_sheaves *pcs,
			struct slab_sheaf *sheaf)
{
	if (sheaf == &bootstrap_sheaf)
		return;
	if (!pcs->spare)
		set_spare(pcs, sheaf);
	else
		retire_sheaf(s, sheaf);
}

/*
 * __pcs_replace_empty_main - this CPU's main sheaf is empty: give it objects
 * without waiting (Linux's name; interrupts off).  The spare swaps with
 * main if it has objects; else a full sheaf from the barn replaces main.
 * Return: true if main has objects now (an interrupt handler may also have
 * refilled it since the pop failed), false if neither had any.
 */
static bool __pcs_replace_empty_main(struct kmem_cache *s, struct slub_percpu_sheaves *pcs)
{
	/* LAB slab */
	struct slab_sheaf *old, *full;

	if (pcs->top != pcs->base)
		return true;
	old = main_sheaf(pcs);
	if (pcs->spare && pcs->spare->size) {
		set_main(pcs, pcs->spare);
		set_spare(pcs, old == &bootstrap_sheaf ? NULL : old);
		return true;
	}
	full = barn_take(local_barn(s), true);
	if (!full)
		return false;
	set_main(pcs, full);
	stash_sheaf(s, pcs, old);
	return true;
	/* END LAB */
}

/*
 * alloc_from_pcs - an object from this CPU's sheaves when the pop found
 * main empty.  First, with interrupts off, the ways that do not wait
 * (__pcs_replace_empty_main()).  Else, with interrupts on (new slabs may
 * mean reclaim), an empty sheaf is filled from the slabs and installed as
 * main; if no sheaf can be had, one object comes straight from the slabs.
 */
static void *alloc_from_pcs(struct kmem_cache *s, gfp_t gfp, void *caller)
{
	/* LAB slab */
	struct slub_percpu_sheaves *pcs;
	struct slab_sheaf *sheaf;
	unsigned long flags;
	void *obj = NULL;

	local_irq_save(flags);
	pcs = this_cpu_ptr(s->cpu_sheaves);
	if (__pcs_replace_empty_main(s, pcs))
		obj = pcs_pop_irqoff(pcs);
	local_irq_restore(flags);
	if (obj)
		return obj;

	gfp = might_alloc(gfp, caller);
	/*
	 * Quietly: without a sheaf the object comes straight from a slab, and
	 * that allocation reports its own failure.  (Under memory exhausted on
	 * purpose the torture test saw "Unable to allocate ... cache
	 * slab_sheaf": a report about a cache the caller never asked for.)
	 */
	sheaf = get_empty_sheaf(s, gfp | __GFP_NOWARN);
	if (!sheaf)
		return get_objects(s, gfp, NUMA_NO_NODE, &obj, 1, caller) ? obj : NULL;
	sheaf->size = get_objects(s, gfp, NUMA_NO_NODE, sheaf_objects(sheaf), sheaf->capacity,
				  caller);
	if (!sheaf->size) {
		retire_sheaf(s, sheaf);
		return NULL;
	}

	local_irq_save(flags);
	pcs = this_cpu_ptr(s->cpu_sheaves);
	/* Unless an interrupt handler refilled main meanwhile: then ours waits. */
	if (pcs->top == pcs->base) {
		struct slab_sheaf *old = main_sheaf(pcs);

		set_main(pcs, sheaf);
		sheaf = old;
	}
	stash_sheaf(s, pcs, sheaf);
	obj = pcs_pop_irqoff(pcs);
	local_irq_restore(flags);
	return obj;
	/* END LAB */
}

/*
 * __pcs_replace_full_main - this CPU's main sheaf is full (or is the
 * bootstrap sheaf): give it room (Linux's name).  Interrupts are off and
 * stay off: nothing here may sleep.  The spare if it is empty; else trade
 * main at the barn for an empty sheaf (barn_replace_full_sheaf()); else
 * empty main into the slabs.  The bootstrap sheaf, never traded nor
 * flushed, gives way to an empty sheaf from the barn or a new one.
 * Return: false if main is still full (no empty sheaf without waiting).
 */
static bool __pcs_replace_full_main(struct kmem_cache *s, struct slub_percpu_sheaves *pcs)
{
	/* LAB slab */
	struct slab_sheaf *full = main_sheaf(pcs), *empty;

	if (pcs->spare && !pcs->spare->size) {
		set_main(pcs, pcs->spare);
		set_spare(pcs, full == &bootstrap_sheaf ? NULL : full);
		return true;
	}
	if (full == &bootstrap_sheaf) {
		empty = get_empty_sheaf(s, GFP_NOWAIT | __GFP_NOWARN);
		if (!empty)
			return false;
	} else {
		empty = barn_replace_full_sheaf(local_barn(s), full);
		if (!empty) {	/* no room for a full sheaf, or no empty one */
			flush_sheaf(s, full);
			empty = full;
		}
	}
	set_main(pcs, empty);
	return true;
	/* END LAB */
}

/* ---------------------------------------------------------------- the paths */

/* Without the sheaves: one object from the slabs of @node (checked, for debug caches). */
static __noinline void *alloc_from_slabs(struct kmem_cache *s, gfp_t gfp, int node,
					 void *caller)
{
	void *obj;

	gfp = might_alloc(gfp, caller);
	if (!get_objects(s, gfp, node, &obj, 1, caller))
		return NULL;
	if ((gfp & __GFP_THISNODE) && node != NUMA_NO_NODE &&
	    page_to_nid(virt_to_slab(obj)) != node) {
		put_objects(s, &obj, 1);
		return NULL;
	}
	return obj;
}

/*
 * Every allocation that is not a pop from this CPU's main sheaf; and every
 * allocation from a cache marked SLAB_FAILSLAB, which fault injection may
 * fail (mm/fault_inject.c): the flag costs the fast path nothing, being
 * tested with the others.
 */
static __noinline void *slab_alloc_slow(struct kmem_cache *s, gfp_t gfp, int node,
					void *caller)
{
	void *obj;

	if (unlikely(s->flags & SLAB_FAILSLAB) && should_failslab(s, gfp))
		return NULL;
	if (cache_skips_sheaves(s) || node != NUMA_NO_NODE)
		obj = alloc_from_slabs(s, gfp, node, caller);
	else
		obj = alloc_from_pcs(s, gfp, caller);
	if (obj && !cache_skips_sheaves(s))
		clear_free_mark(s, obj);
	obj = kasan_slab_alloc(s, obj);
	if (obj && (gfp & __GFP_ZERO))
		memset(obj, 0, s->object_size);
	return obj;
}

static __noinline void *zero_object(struct kmem_cache *s, void *obj)
{
	return memset(obj, 0, s->object_size);
}

/*
 * slab_alloc_node - the allocation path every kmem_cache_alloc*() and
 * kmalloc*() takes.  The fast path is a pop from this CPU's main sheaf, a
 * restartable sequence that needs no interrupts off (percpu_stack_pop(),
 * arch/x86_64/restart.h: an interrupt that comes in the middle, and may
 * use the sheaf itself, makes it start again); anything else is out of
 * line.
 */
static __always_inline void *slab_alloc_node(struct kmem_cache *s, gfp_t gfp, int node,
					     void *caller)
{
	/* LAB slab */
	struct slub_percpu_sheaves *pcs;
	void *obj;

	if (CONFIG_DEBUG_VM)
		gfp = might_alloc(gfp, caller);
	if (unlikely((s->flags & (SLAB_DEBUG_FLAGS | SLAB_NO_SHEAVES | SLAB_FAILSLAB)) ||
		     node != NUMA_NO_NODE))
		return slab_alloc_slow(s, gfp, node, caller);
	pcs = this_cpu_ptr(s->cpu_sheaves);
	if (unlikely(!percpu_stack_pop(&pcs->top, &pcs->base, &obj)))
		return slab_alloc_slow(s, gfp, node, caller);
	clear_free_mark(s, obj);
	obj = kasan_slab_alloc(s, obj);
	if (unlikely(gfp & __GFP_ZERO))
		return zero_object(s, obj);
	return obj;
	/* END LAB */
}

/*
 * __slab_free - @obj goes back to its slab under the node's lock (Linux's
 * name for the step): a checked cache's object, checked first, or one of a
 * cache without sheaves.
 */
static __noinline void __slab_free(struct kmem_cache *s, struct page *slab, void *obj,
				   void *caller)
{
	struct kmem_cache_node *n = get_node(s, page_to_nid(slab));
	unsigned long flags;

	spin_lock_irqsave(&n->list_lock, flags);
	if (!CONFIG_SLUB_DEBUG || !(s->flags & SLAB_DEBUG_FLAGS) ||
	    free_debug_check(s, slab, obj, caller))
		put_object(s, n, slab, obj);
	spin_unlock_irqrestore(&n->list_lock, flags);
}

static __noinline void bad_object_pointer(struct kmem_cache *s, const void *obj, void *caller)
{
	count_vm_event(SLAB_BAD_FREE);
	slab_bug(s, "Invalid object pointer %px: not the start of an object (freed by %pS)",
		 obj, caller);
}

static __noinline void freed_twice(struct kmem_cache *s, const void *obj, void *caller)
{
	count_vm_event(SLAB_BAD_FREE);
	slab_bug(s, "Object %px freed twice (by %pS)", obj, caller);
}

/**
 * slab_object_was_freed - is @obj, an object's start in @slab, free already?
 * @caller: named in the report
 *
 * For kfree_sensitive(), which must not wipe a freed object: the wipe would
 * erase what the kfree() after it finds a double free by (the free mark of
 * an unchecked cache, the poison of a checked one).  A free object is
 * reported as a double free, as kfree() would report it.  As good as the
 * free mark: a one-word object flushed to its slab has lost it.
 *
 * Context: any.
 * Return: true if @obj is free (reported), false if it is allocated or the
 * kernel cannot tell (a KASAN kernel asks KASAN instead).
 */
bool slab_object_was_freed(struct page *slab, void *obj, void *caller)
{
	struct kmem_cache *s = slab->slab_cache;
	bool freed;

	if (CONFIG_KASAN)
		return false;
	if (CONFIG_SLUB_DEBUG && (s->flags & SLAB_DEBUG_FLAGS)) {
		struct kmem_cache_node *n = get_node(s, page_to_nid(slab));
		unsigned long flags;

		spin_lock_irqsave(&n->list_lock, flags);
		freed = slab_on_freelist(s, slab, obj);
		spin_unlock_irqrestore(&n->list_lock, flags);
	} else {
		freed = !cache_skips_sheaves(s) &&
			*free_mark_word(obj, s->free_mark) == ((unsigned long)obj ^ s->random);
	}
	if (freed)
		freed_twice(s, obj, caller);
	return freed;
}

/*
 * free_to_pcs_irqoff - the push of free_to_pcs() found main full (or the
 * bootstrap sheaf): with interrupts off, look again (an interrupt handler
 * may have popped since), give main room if it is still full, and push.
 * If main cannot be given room, @obj goes to its slab.
 */
static __noinline void free_to_pcs_irqoff(struct kmem_cache *s, void *obj)
{
	struct slub_percpu_sheaves *pcs;
	unsigned long flags;

	local_irq_save(flags);
	pcs = this_cpu_ptr(s->cpu_sheaves);
	if (pcs->top != pcs->end || __pcs_replace_full_main(s, pcs))
		pcs_push_irqoff(pcs, obj);
	else
		put_objects(s, &obj, 1);
	local_irq_restore(flags);
}

/*
 * An object of another node than this CPU's memory node goes back to its
 * slab at once, as in Linux 6.18: a sheaf holds only local objects, so
 * that what it hands out is local memory.  Its free mark (at @mark, as for
 * free_to_pcs()) is set there too: a double free is caught wherever the
 * first free left the object.
 */
static __noinline void free_remote(struct kmem_cache *s, void *obj, unsigned int mark,
				   void *caller)
{
	if (unlikely(!set_free_mark(s, obj, mark)))
		freed_twice(s, obj, caller);
	else
		put_objects(s, &obj, 1);
}

/*
 * free_to_pcs - @obj (an object's start, of a cache with sheaves, in the
 * slab page @page) onto this CPU's main sheaf (Linux's name), unless its
 * free mark, the word @mark bytes into it, says it is free already: a
 * double free, caught without debugging.  The push is a restartable
 * sequence, as the pop in slab_alloc_node().  An object of another node
 * goes to its slab.
 */
static __always_inline void free_to_pcs(struct kmem_cache *s, struct page *page, void *obj,
					unsigned int mark, void *caller)
{
	/* LAB slab */
	struct slub_percpu_sheaves *pcs;

	/* first, while the flags are at hand: any page of a slab carries its node */
	if (unlikely(page_to_nid(page) != numa_mem_id())) {
		free_remote(s, obj, mark, caller);
		return;
	}
	if (unlikely(!set_free_mark(s, obj, mark))) {
		freed_twice(s, obj, caller);
		return;
	}
	pcs = this_cpu_ptr(s->cpu_sheaves);
	if (unlikely(!percpu_stack_push(&pcs->top, &pcs->end, obj)))
		free_to_pcs_irqoff(s, obj);
	/* END LAB */
}

/*
 * @obj, an object's start that may be freed now, goes back: to its slab
 * (a checked cache's, or one without sheaves), else onto a sheaf.
 */
static __always_inline void free_to_pcs_or_slab(struct kmem_cache *s, struct page *slab,
						void *obj, void *caller)
{
	if (unlikely(cache_skips_sheaves(s)))
		__slab_free(s, slab, obj, caller);
	else
		free_to_pcs(s, slab, obj, s->free_mark, caller);
}

/*
 * slab_free_checked - every free that slab_free()'s one test does not
 * send straight to free_to_pcs(): a checked cache's, one whose slots are
 * not a power of two or whose free mark is not the first word, any in a
 * KASAN kernel (where the object may wait in KASAN's quarantine first,
 * mm/kasan.h), and a pointer that is not where an object starts.  Here the
 * start is checked with a multiply (no divide).  @page is the page @obj is
 * in.
 */
static __noinline void slab_free_checked(struct kmem_cache *s, struct page *page, void *obj,
					 void *caller)
{
	if (unlikely(!object_in_own_page(s, page, obj))) {
		bad_object_pointer(s, obj, caller);
		return;
	}
	if (kasan_slab_free(s, obj, caller))
		return;
	free_to_pcs_or_slab(s, compound_head(page), obj, caller);	/* the sheaves never need it */
}

/*
 * slab_free - the free path of kmem_cache_free() and kfree() (Linux's
 * name): @obj is in a slab of cache @s, and @page is the page it is in
 * (the callers checked that much; any page of a slab knows its cache and
 * object count).  One test of the address against s->fast_free_mask
 * (fast_free_mask()) both checks that @obj is where an object starts and
 * that the cache frees onto sheaves with its free mark in the first word;
 * anything else is out of line.
 */
static __always_inline void slab_free(struct kmem_cache *s, struct page *page, void *obj,
				      void *caller)
{
	if (likely(!((unsigned long)obj & s->fast_free_mask)))
		free_to_pcs(s, page, obj, 0, caller);
	else
		slab_free_checked(s, page, obj, caller);
}

#if CONFIG_KASAN
/** slab_free_quarantined - @obj leaves KASAN's quarantine, back to its slab or a sheaf */
void slab_free_quarantined(void *obj)
{
	struct page *slab = virt_to_slab(obj);

	free_to_pcs_or_slab(slab->slab_cache, slab, obj, __builtin_return_address(0));
}
#endif

/**
 * kmem_cache_alloc - an object from cache @s
 * @s: the cache
 * @flags: gfp flags, for the pages of a new slab; __GFP_ZERO zeroes the object
 *
 * Context: as @flags allows (GFP_KERNEL: may reclaim; GFP_ATOMIC: anywhere).
 * Return: the object, or NULL.
 */
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	return slab_alloc_node(s, flags, NUMA_NO_NODE, __builtin_return_address(0));
}

/* An allocation from @s on a node that does not exist: reported, naming @fn, then as NUMA_NO_NODE */
static __noinline void *cache_alloc_bad_node(struct kmem_cache *s, gfp_t flags, int node,
					     void *caller, const char *fn)
{
	if (bad_node_refused(fn, node, flags, caller))
		return NULL;
	return slab_alloc_node(s, flags, NUMA_NO_NODE, caller);
}

/* kmem_cache_alloc_node() and the kmalloc_node() of a constant size: the node checked first */
static __always_inline void *cache_alloc_node_checked(struct kmem_cache *s, gfp_t flags,
						      int node, void *caller, const char *fn)
{
	if (unlikely(node_id_invalid(node)))
		return cache_alloc_bad_node(s, flags, node, caller, fn);
	return slab_alloc_node(s, flags, node, caller);
}

/**
 * kmem_cache_alloc_node - an object from cache @s, on node @node
 * @node: NUMA_NO_NODE for any (this CPU's sheaves first); else that node's
 *	  slabs, or another node's if it has none and @flags lacks __GFP_THISNODE
 *	  (a node without memory: the nearest that has, local_memory_node())
 *
 * Return: the object, or NULL.
 */
void *kmem_cache_alloc_node(struct kmem_cache *s, gfp_t flags, int node)
{
	return cache_alloc_node_checked(s, flags, node, __builtin_return_address(0),
					"kmem_cache_alloc_node");
}

/**
 * __kmalloc_cache_node - kmalloc_node() of a size known when compiled: an
 * object of @s, its size class, on @node (Linux's __kmalloc_cache_node_noprof())
 *
 * kmem_cache_alloc_node() but for the name a report of a bad @node gives:
 * the caller called kmalloc_node().
 * Return: the object, or NULL.
 */
void *__kmalloc_cache_node(struct kmem_cache *s, gfp_t flags, int node)
{
	return cache_alloc_node_checked(s, flags, node, __builtin_return_address(0),
					"kmalloc_node");
}

/* kmem_cache_free() of what is not an object of @s: reported (NULL is ignored here). */
static __noinline void wrong_cache(struct kmem_cache *s, const void *obj, void *caller)
{
	struct page *slab;

	if (!obj)
		return;
	slab = kmalloc_obj_slab(obj, caller, "kmem_cache_free");	/* reports non-slab memory */
	if (!slab)
		return;
	pr_err("BUG %s: kmem_cache_free: Wrong slab cache. %s but object %px is from %s "
	       "(freed by %pS)\n", s->name, s->name, obj,
	       PageSlab(slab) ? slab->slab_cache->name : "kmalloc large pages", caller);
	count_vm_event(SLAB_BAD_FREE);
}

/**
 * kmem_cache_free - give @objp back to cache @s
 * @s: the cache it came from
 * @objp: what kmem_cache_alloc() returned (NULL is ignored)
 *
 * A pointer not at an object's start, from another cache or not from any
 * is reported and ignored.
 * Context: any.
 */
void kmem_cache_free(struct kmem_cache *s, void *objp)
{
	void *caller = __builtin_return_address(0);
	struct page *slab = virt_to_slab_checked(objp);	/* NULL: below the direct map */

	if (likely(slab && PageSlab(slab) && slab->slab_cache == s))
		slab_free(s, slab, objp, caller);
	else
		wrong_cache(s, objp, caller);
}

/** kmem_cache_size - the size of @s's objects, as the user asked */
unsigned int kmem_cache_size(struct kmem_cache *s)
{
	return s->object_size;
}

/*
 * kfree_caller - kfree() for @caller (kvfree() if @vmalloc_too): the slab is
 * found from the address alone, then slab_free(); anything else (a large
 * kmalloc, vmalloc memory for kvfree(), a bad pointer) is the rare path.
 */
static __always_inline void kfree_caller(const void *objp, void *caller, bool vmalloc_too)
{
	/* NULL and ZERO_SIZE_PTR are below the direct map: no page, no test of their own here */
	struct page *page = virt_to_slab_checked(objp);

	/* LAB slab */
	if (likely(page && PageSlab(page)))
		slab_free(page->slab_cache, page, (void *)objp, caller);
	else if (ZERO_OR_NULL_PTR(objp))
		return;
	else if (vmalloc_too && !page && is_vmalloc_addr(objp))
		vfree(objp);
	else
		kfree_not_slab(objp, page, caller, vmalloc_too ? "kvfree" : "kfree");
	/* END LAB */
}

/**
 * kfree - free what kmalloc() returned
 * @objp: the pointer; NULL and ZERO_SIZE_PTR are ignored
 *
 * The cache is found from the pointer alone.  A pointer kmalloc() did not
 * hand out, or not at an object's start, is reported and ignored.
 * Context: any.
 */
void kfree(const void *objp)
{
	kfree_caller(objp, __builtin_return_address(0), false);
}

/**
 * kvfree - free what kvmalloc() (or kmalloc(), or vmalloc()) returned
 * @addr: the memory, or NULL
 *
 * kfree() with one more case on its rare path: a vmalloc address goes to
 * vfree() (which, from an interrupt handler, queues it for deferred work:
 * nothing is allocated).  So freeing slab memory costs what kfree() costs;
 * that is why kvfree() lives here and not in mm/kvmalloc.c.
 * Context: any.
 */
void kvfree(const void *addr)
{
	kfree_caller(addr, __builtin_return_address(0), true);
}

/*
 * kmalloc() of a size known at run time, from the cache of its size class:
 * from any node (Linux's __kmalloc_cache_noprof()), so that the fast path
 * has no node to test; or from @node, which only the slow path serves.
 */
void *kmalloc_from_cache(struct kmem_cache *s, gfp_t flags, void *caller)
{
	return slab_alloc_node(s, flags, NUMA_NO_NODE, caller);
}

void *kmalloc_node_from_cache(struct kmem_cache *s, gfp_t flags, int node, void *caller)
{
	return slab_alloc_node(s, flags, node, caller);
}

/* ---------------------------------------------------------------- flushing and shrinking */

/* Empty this CPU's sheaves of @info (a cache) into the slabs; an IPI handler. */
static void flush_cpu_sheaves(void *info)
{
	struct kmem_cache *s = info;
	struct slub_percpu_sheaves *pcs = this_cpu_ptr(s->cpu_sheaves);

	if (pcs->main != &bootstrap_sheaf) {
		struct slab_sheaf *sheaf = main_sheaf(pcs);

		set_main(pcs, &bootstrap_sheaf);
		flush_sheaf(s, sheaf);
		kmem_cache_free(sheaf_cache, sheaf);
	}
	if (pcs->spare) {
		struct slab_sheaf *spare = pcs->spare;

		set_spare(pcs, NULL);
		flush_sheaf(s, spare);
		kmem_cache_free(sheaf_cache, spare);
	}
}

/* Empty every barn of @s: full sheaves into the slabs, and free the sheaves. */
static void flush_barns(struct kmem_cache *s)
{
	int nid;

	for_each_node(nid) {
		struct node_barn *barn = &get_node(s, nid)->barn;
		struct slab_sheaf *sheaf;

		while ((sheaf = barn_take(barn, true)) || (sheaf = barn_take(barn, false))) {
			flush_sheaf(s, sheaf);
			kmem_cache_free(sheaf_cache, sheaf);
		}
	}
}

/**
 * kmem_cache_flush_cpus - every cached free object of @s back into its slab
 *
 * Every CPU empties its sheaves (by IPI), then the barns are emptied.
 * Context: interrupts on, not in an interrupt handler.
 */
void kmem_cache_flush_cpus(struct kmem_cache *s)
{
	kasan_cache_shrink(s);
	if (s->flags & SLAB_NO_SHEAVES || s->flags & SLAB_DEBUG_FLAGS)
		return;
	on_each_cpu(flush_cpu_sheaves, s, 1);
	flush_barns(s);
}

/* Free every empty slab of @s. */
static void discard_empty_slabs(struct kmem_cache *s)
{
	unsigned long flags;
	int nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);
		struct page *slab, *next;

		spin_lock_irqsave(&n->list_lock, flags);
		for (slab = pfn_to_slab(n->partial); slab; slab = next) {
			next = pfn_to_slab(slab->slab_next);
			if (!slab->inuse)
				discard_slab(s, n, slab);
		}
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
}

/**
 * kmem_cache_shrink - give every free page of @s back to the page allocator
 *
 * The objects cached in sheaves and barns go back to their slabs first.
 * Context: interrupts on, not in an interrupt handler.
 * Return: 0, as Linux's.
 */
int kmem_cache_shrink(struct kmem_cache *s)
{
	kmem_cache_flush_cpus(s);
	discard_empty_slabs(s);
	return 0;
}

/**
 * kmem_cache_shrink_all - kmem_cache_shrink() of every cache: all the slab's
 * free pages back to the page allocator
 *
 * Twice over the list: flushing the sheaves frees the sheaves themselves
 * (objects of the "slab_sheaf" cache), whose slabs may empty only then.
 * Tests and the torture test call it before they count free pages.
 * Context: interrupts on, not in an interrupt handler.
 */
void kmem_cache_shrink_all(void)
{
	struct kmem_cache *s;

	for (int pass = 0; pass < 2; pass++) {
		spin_lock(&slab_caches_lock);
		list_for_each_entry(s, &slab_caches, list)
			kmem_cache_shrink(s);
		spin_unlock(&slab_caches_lock);
	}
}

/**
 * cache_sheaf_objects - free objects @s holds in its sheaves and barns (a snapshot)
 *
 * For slabinfo and the slab shrinker's count.  Of each CPU it reads only
 * the per-CPU fields, never a sheaf: that CPU may free its sheaves at any
 * moment (flush_cpu_sheaves(), by IPI).  The barns are read under their locks.
 * Context: any but an NMI.
 */
unsigned long cache_sheaf_objects(struct kmem_cache *s)
{
	unsigned long objects = 0, flags;
	struct slab_sheaf *sheaf;
	unsigned int cpu;
	int nid;

	if (!s->cpu_sheaves)
		return 0;
	for_each_online_cpu(cpu) {
		struct slub_percpu_sheaves *pcs = per_cpu_ptr(s->cpu_sheaves, cpu);

		objects += main_size(pcs) + READ_ONCE(pcs->spare_size);
	}
	for_each_node(nid) {
		struct node_barn *barn = &get_node(s, nid)->barn;

		spin_lock_irqsave(&barn->lock, flags);
		list_for_each_entry(sheaf, &barn->sheaves_full, barn_list)
			objects += sheaf->size;
		spin_unlock_irqrestore(&barn->lock, flags);
	}
	return objects;
}

/*
 * The shrinker: under memory pressure, empty sheaves and slabs go back to
 * the page allocator.  It counts and frees pages, one "object" each.
 */
static unsigned long slab_shrink_count(struct shrinker *shrinker, struct shrink_control *sc)
{
	unsigned long pages = 0;
	struct kmem_cache *s;

	(void)shrinker;
	(void)sc;
	pages += kasan_quarantine_pages();
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		int nid;

		pages += cache_sheaf_objects(s) * s->size / PAGE_SIZE;
		for_each_node(nid)
			pages += READ_ONCE(get_node(s, nid)->nr_empty) << s->order;
	}
	spin_unlock(&slab_caches_lock);
	return pages ? pages : SHRINK_EMPTY;
}

/* Pages in @s's slabs, on every node. */
static unsigned long cache_slab_pages(struct kmem_cache *s)
{
	unsigned long pages = 0;
	int nid;

	for_each_node(nid)
		pages += READ_ONCE(get_node(s, nid)->nr_slabs) << s->order;
	return pages;
}

/*
 * kmem_cache_shrink(@s), returning the pages it gave back (flushing the
 * sheaves empties slabs too, and put_object() frees them at once).
 */
static unsigned long shrink_cache_pages(struct kmem_cache *s)
{
	unsigned long before = cache_slab_pages(s), after;

	kmem_cache_shrink(s);
	after = cache_slab_pages(s);
	return before > after ? before - after : 0;
}

static unsigned long slab_shrink_scan(struct shrinker *shrinker, struct shrink_control *sc)
{
	unsigned long freed = 0;
	struct kmem_cache *s;

	(void)shrinker;
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		if (freed >= sc->nr_to_scan)
			break;
		freed += shrink_cache_pages(s);
	}
	/* The flushes freed sheaves into slab_sheaf, early on the list: its empty slabs too. */
	freed += shrink_cache_pages(sheaf_cache);
	spin_unlock(&slab_caches_lock);
	count_vm_events(SLAB_SHRINK_PAGES, freed);
	return freed;
}

static struct shrinker slab_shrinker = {
	.count_objects = slab_shrink_count,
	.scan_objects = slab_shrink_scan,
	.batch = 0,
	.seeks = DEFAULT_SEEKS,
};

/* ---------------------------------------------------------------- creating caches */

/* Order and objects per slab: at least 4 objects (or one, for huge ones) and little waste. */
static void calculate_order(struct kmem_cache *s)
{
	unsigned int order;

	for (order = 0; order < PAGE_ALLOC_COSTLY_ORDER; order++) {
		unsigned long bytes = PAGE_SIZE << order, n = bytes / s->size;

		if (n >= 4 && bytes - n * s->size <= bytes / 8)
			break;
	}
	while ((PAGE_SIZE << order) < s->size)
		order++;
	s->order = order;
	s->objects = min((PAGE_SIZE << order) / s->size, 0xffffUL);
	for (s->min_order = 0; (PAGE_SIZE << s->min_order) < s->size; s->min_order++)
		;
}

/* object_in_slab()'s constants: size = odd << start_shift, start_mult * odd = 1 mod 2^64. */
static void set_start_mult(struct kmem_cache *s)
{
	unsigned int k = __builtin_ctz(s->size);
	unsigned long odd = s->size >> k;
	unsigned long inv = odd;	/* right in its low 3 bits: odd * odd = 1 mod 8 */

	for (int i = 0; i < 5; i++)
		inv *= 2 - odd * inv;	/* Newton's step doubles the right bits: 6, 12, ... 96 */
	s->start_shift = k;
	s->start_mult = inv;
}

/*
 * The layout of one slot, s->size bytes: the left redzone, then the
 * object (offsets below count from its start), the right redzone, the
 * free pointer if it cannot live inside the object, the tracks.  Slots
 * and left redzones are multiples of the alignment, so every object is
 * aligned.
 */
static void calculate_sizes(struct kmem_cache *s)
{
	unsigned int size = ALIGN(s->object_size, sizeof(void *));

	s->red_left_pad = 0;
	if (s->flags & SLAB_RED_ZONE) {
		s->red_left_pad = ALIGN(sizeof(void *), s->align);
		if (size == s->object_size)
			size += sizeof(void *);	/* a right redzone of at least a word */
	}
	s->inuse = size;
	if (s->flags & (SLAB_POISON | SLAB_RED_ZONE) || s->ctor) {
		/* The object's bytes must survive while it is free: the pointer goes after it. */
		s->offset = size;
		size += sizeof(void *);
	} else {
		/* In the middle of the object, where an overflow from the previous one reaches last. */
		s->offset = ALIGN_DOWN(s->object_size / 2, sizeof(void *));
	}
	/* The free mark: in the object, not on the free pointer, unless it is one word long. */
	if (s->ctor) {
		s->free_mark = size;
		size += (s->flags & SLAB_DEBUG_FLAGS) ? 0 : sizeof(void *);
	} else {
		s->free_mark = s->offset ? 0 : size > sizeof(void *) ? sizeof(void *) : 0;
	}
	if (s->flags & SLAB_STORE_USER)
		size += 2 * sizeof(struct track);
	size = kasan_cache_create(s, size);
	s->size = ALIGN(s->red_left_pad + size, s->align);
	calculate_order(s);
	set_start_mult(s);
	/*
	 * Objects per sheaf: 32, as long as a sheaf holds at most 64 KiB of
	 * them (16 of 4 KiB, 8 of 8 KiB), and never fewer than 4.  A sheaf
	 * too small for its cache sends frees and allocations that come in
	 * no order to the slow path often: see docs/slab.md, section 4.
	 */
	s->sheaf_capacity = clamp(SHEAF_MAX_BYTES / s->size, 4U, (unsigned int)MAX_SHEAF_CAPACITY);
}

/*
 * slab_free()'s one test before a push: an address with none of these bits
 * set is where an object starts, in a cache that frees onto the sheaves
 * with its free mark in the object's first word.  With slots of a
 * power-of-two size that fill their slabs, that is size - 1: a slab is a
 * buddy block, which starts on a multiple of its own size (and so of the
 * slot's) in the direct map as in physical memory.  Every other cache gets
 * every bit, so that each of its frees takes slab_free_checked(), which
 * multiplies (object_in_own_page()).
 */
static unsigned long fast_free_mask(const struct kmem_cache *s)
{
	bool pow2_slots = !(s->size & (s->size - 1)) &&
			  s->size * s->objects == PAGE_SIZE << s->order;

	if (CONFIG_KASAN || cache_skips_sheaves(s) || s->free_mark || !pow2_slots)
		return ~0UL;
	return s->size - 1;
}

static unsigned int calculate_alignment(slab_flags_t flags, unsigned int align,
					unsigned int size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = 64;

		while (size <= ralign / 2)	/* small objects: do not waste a line each */
			ralign /= 2;
		align = max(align, ralign);
	}
	return ALIGN(max(align, (unsigned int)ARCH_KMALLOC_MINALIGN), sizeof(void *));
}

static int kmem_cache_open(struct kmem_cache *s, const char *name, unsigned int size,
			   unsigned int align, slab_flags_t flags, void (*ctor)(void *))
{
	int nid;

	s->name = name;
	s->object_size = size;
	s->ctor = ctor;
	s->flags = CONFIG_SLUB_DEBUG ? slab_debug_flags(name, flags) : flags & ~SLAB_DEBUG_FLAGS;
	s->align = calculate_alignment(s->flags, align, size);
	s->random = get_random_long();
	calculate_sizes(s);
	if (CONFIG_SLUB_DEBUG && slab_debug_min_order_off() && (s->flags & SLAB_DEBUG_FLAGS) &&
	    get_order(s->size) > get_order(s->object_size)) {
		/* slab_debug=O: not at the price of a higher order, as Linux */
		s->flags &= ~SLAB_DEBUG_FLAGS;
		calculate_sizes(s);
	}
	s->fast_free_mask = fast_free_mask(s);
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		struct kmem_cache_node *n = get_node(s, nid);

		spin_lock_init(&n->list_lock);
		n->partial = n->full = 0;
		spin_lock_init(&n->barn.lock);
		INIT_LIST_HEAD(&n->barn.sheaves_full);
		INIT_LIST_HEAD(&n->barn.sheaves_empty);
	}
	if (!(s->flags & SLAB_NO_SHEAVES)) {
		unsigned int cpu;

		s->cpu_sheaves = alloc_percpu(struct slub_percpu_sheaves);
		if (!s->cpu_sheaves)
			return -ENOMEM;
		for_each_possible_cpu(cpu)
			set_main(per_cpu_ptr(s->cpu_sheaves, cpu), &bootstrap_sheaf);
	}
	spin_lock(&slab_caches_lock);
	if (failslab_marks(name))	/* under the lock that fault_inject_update() takes */
		s->flags |= SLAB_FAILSLAB;
	list_add_tail(&s->list, &slab_caches);
	spin_unlock(&slab_caches_lock);
	return 0;
}

/**
 * __kmem_cache_create - make a cache of @size-byte objects: what
 * kmem_cache_create(name, size, align, flags, ctor) calls (mm/slab.h)
 * @name: for reports, slabinfo and slab_debug=; the caller keeps it alive
 * @size: bytes per object (1 .. KMALLOC_MAX_SIZE)
 * @align: minimum alignment, 0 for the default (8 bytes)
 * @flags: SLAB_HWCACHE_ALIGN, SLAB_POISON, SLAB_RED_ZONE, SLAB_STORE_USER,
 *	   SLAB_CONSISTENCY_CHECKS, SLAB_TRACE, SLAB_PANIC
 * @ctor: called once for every object when its slab is made (not on reuse)
 *
 * Context: may sleep (GFP_KERNEL).
 * Return: the cache, or NULL (a panic with SLAB_PANIC) with a report.
 */
struct kmem_cache *__kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				       slab_flags_t flags, void (*ctor)(void *))
{
	struct kmem_cache *s = NULL;

	if (!name || !size || size > KMALLOC_MAX_SIZE || (align & (align - 1)) ||
	    align > PAGE_SIZE) {
		pr_err("kmem_cache_create(%s): bad size %u or align %u\n", name ? name : "(null)",
		       size, align);
	} else {
		s = kmem_cache_zalloc(kmem_cache, GFP_KERNEL);
		if (s && kmem_cache_open(s, name, size, align, flags & ~SLAB_NO_SHEAVES, ctor)) {
			kmem_cache_free(kmem_cache, s);
			s = NULL;
		}
		if (!s)
			pr_err("kmem_cache_create(%s): out of memory\n", name);
	}
	if (!s && (flags & SLAB_PANIC))
		panic("kmem_cache_create: failed to create slab '%s'", name ? name : "(null)");
	return s;
}

/**
 * __kmem_cache_create_args - kmem_cache_create(name, size, &args, flags),
 * Linux 6.12's form: @args gives the alignment and the constructor
 *
 * Context: may sleep (GFP_KERNEL).
 * Return: as __kmem_cache_create().
 */
struct kmem_cache *__kmem_cache_create_args(const char *name, unsigned int size,
					    const struct kmem_cache_args *args,
					    slab_flags_t flags)
{
	return __kmem_cache_create(name, size, args->align, flags, args->ctor);
}

/* Are there objects of @s still allocated (after its sheaves were flushed)? */
static unsigned long objects_in_use(struct kmem_cache *s)
{
	unsigned long used = 0;
	int nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);

		used += n->total_objects;
	}
	return used;
}

/*
 * Is @s a cache the slab allocator stands on: the cache of caches, that of
 * sheaves, a kmalloc cache?  Compared as pointers: @s may be anything.
 */
static bool allocators_own_cache(const struct kmem_cache *s)
{
	if (s == kmem_cache || s == sheaf_cache)
		return true;
	for (unsigned int i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		if (s == kmalloc_caches[i])
			return true;
	}
	return false;
}

/*
 * Take @s off slab_caches, if it is there: the one test of a live cache
 * that reads nothing of @s (a destroyed cache's struct is a freed object of
 * kmem_cache).  Under the lock, so of two destroys of one cache one wins.
 */
static bool unlist_cache(struct kmem_cache *s)
{
	struct kmem_cache *c;
	bool found = false;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list) {
		if (c == s) {
			list_del(&s->list);
			found = true;
			break;
		}
	}
	spin_unlock(&slab_caches_lock);
	return found;
}

/**
 * kmem_cache_destroy - free cache @s, which must have no objects left
 * @s: the cache, or NULL (ignored)
 *
 * Objects still allocated are a leak: reported with the cache, their
 * number and (SLAB_STORE_USER) who allocated them, and the cache is then
 * kept, not freed, as Linux does.  A pointer that is not a live cache (one
 * destroyed already) is reported in one line and not touched; Linux does
 * not check, and follows it.  So is one of the allocator's own caches (a
 * kmalloc cache, the cache of caches or of sheaves), which kmalloc() and
 * every cache go on using.
 * Context: may sleep.
 */
void kmem_cache_destroy(struct kmem_cache *s)
{
	if (!s)
		return;
	if (allocators_own_cache(s)) {
		count_vm_event(SLAB_BAD_FREE);
		pr_err("BUG: kmem_cache_destroy of %px by %pS: the slab allocator's own cache; "
		       "refused\n", s, __builtin_return_address(0));
		return;
	}
	if (!unlist_cache(s)) {
		count_vm_event(SLAB_BAD_FREE);
		pr_err("BUG: kmem_cache_destroy of %px by %pS: not a live cache "
		       "(destroyed already?)\n", s, __builtin_return_address(0));
		return;
	}
	kmem_cache_shrink(s);
	if (objects_in_use(s)) {
		report_leaks(s);
		spin_lock(&slab_caches_lock);
		list_add_tail(&s->list, &slab_caches);	/* kept, as a live cache */
		spin_unlock(&slab_caches_lock);
		return;
	}
	free_percpu(s->cpu_sheaves);
	kmem_cache_free(kmem_cache, s);
}

/* ---------------------------------------------------------------- boot */

/**
 * create_boot_cache - set up a cache whose struct is static (or from kmem_cache)
 *
 * Context: boot, from kmem_cache_init() and kmalloc_init().
 */
struct kmem_cache *create_boot_cache(struct kmem_cache *s, const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags)
{
	if (kmem_cache_open(s, name, size, align, flags, NULL))
		panic("slab: cannot create the %s cache", name);
	return s;
}

/**
 * kmem_cache_init - start the slab allocator
 *
 * The cache of caches and the cache of sheaves have static structs and no
 * sheaves of their own (their objects are few); then the kmalloc caches;
 * then the shrinker that gives free slabs back under memory pressure.
 * Context: boot, once, after the page allocator and per-CPU areas.
 */
void kmem_cache_init(void)
{
	static bool shrinker_registered;

	/*
	 * The kernel comes here once.  The host tests boot a fresh fake machine
	 * many times in one program and start the slab again on each: the
	 * previous machine's caches went with its memory, so forget them and
	 * start the two static caches from zero.  The shrinker only walks
	 * slab_caches, so it stays registered from the first time.
	 */
	INIT_LIST_HEAD(&slab_caches);
	memset(&kmem_cache_boot, 0, sizeof(kmem_cache_boot));
	memset(&sheaf_cache_boot, 0, sizeof(sheaf_cache_boot));
	kmem_cache = create_boot_cache(&kmem_cache_boot, "kmem_cache", sizeof(struct kmem_cache),
				       0, SLAB_HWCACHE_ALIGN | SLAB_NO_SHEAVES);
	sheaf_cache = create_boot_cache(&sheaf_cache_boot, "slab_sheaf",
					sizeof(struct slab_sheaf) +
					MAX_SHEAF_CAPACITY * sizeof(void *),
					0, SLAB_HWCACHE_ALIGN | SLAB_NO_SHEAVES);
	kmalloc_init();
	if (!shrinker_registered)
		register_shrinker(&slab_shrinker, "slab");
	shrinker_registered = true;
}
