/*
 * tests/kernel/slab_test.h - helpers shared by the slab suites
 * (slab_test.c, slab_debug_test.c, slab_misuse_test.c, slab_shrink_test.c,
 * smp_slab_test.c, numa_slab_test.c): giving every free slab page back,
 * counting a cache's objects and slabs (and the pages a number of objects
 * takes), and whether a cache is checked.
 *
 * Not a .c file, so it is not a suite of its own.
 */
#ifndef TESTS_KERNEL_SLAB_TEST_H
#define TESTS_KERNEL_SLAB_TEST_H

#include "kunit/test.h"
#include "test_log.h"
#include "mm/slab_internal.h"
#include "mm/kasan.h"
#include "mm/slab.h"
#include "mm/vmstat.h"
#include "lib/vsprintf.h"

/*
 * Every cache gives back every page it can (twice: the sheaves of the
 * other caches go back to the sheaf cache, which then has empty slabs),
 * and the per-CPU page lists are drained: nr_free_pages() is then a
 * figure a test can compare.
 */
static inline void shrink_everything(void)
{
	kmem_cache_shrink_all();
	drain_all_pages();
}

/* A cache's slabs on one node, counted from its lists, and the objects in use in them. */
struct slab_counts {
	unsigned long slabs, objects, inuse;
};

static inline struct slab_counts node_slab_counts(struct kmem_cache *s, int nid)
{
	struct kmem_cache_node *n = get_node(s, nid);
	struct slab_counts c = { 0, 0, 0 };
	unsigned long flags;

	spin_lock_irqsave(&n->list_lock, flags);
	for (u32 *head = &n->partial; head; head = head == &n->partial ? &n->full : NULL) {
		for (struct page *slab = pfn_to_slab(*head); slab;
		     slab = pfn_to_slab(slab->slab_next)) {
			c.slabs++;
			c.objects += slab->objects;
			c.inuse += slab->inuse;
		}
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	return c;
}

/*
 * The objects of @s that callers hold: the sheaves are emptied into the
 * slabs first, so that what is in use in the slabs is what is allocated.
 * Context: interrupts on (IPIs).
 */
static inline unsigned long cache_objects_in_use(struct kmem_cache *s)
{
	unsigned long inuse = 0;
	int nid;

	kmem_cache_flush_cpus(s);
	for_each_node(nid)
		inuse += node_slab_counts(s, nid).inuse;
	return inuse;
}

/* Does @s check every alloc and free, with all four debugging flags (F, Z, P, U)? */
static inline bool cache_fully_checked(const struct kmem_cache *s)
{
	return (s->flags & SLAB_DEBUG_DEFAULT_FLAGS) == SLAB_DEBUG_DEFAULT_FLAGS;
}

/* Does @s use the per-CPU sheaves (no debugging: the kernel was booted without slab_debug)? */
static inline bool cache_has_sheaves(const struct kmem_cache *s)
{
	return !(s->flags & (SLAB_DEBUG_FLAGS | SLAB_NO_SHEAVES));
}

/* The pages that @nr objects of @s take, in slabs of the cache's own order. */
static inline unsigned long cache_pages_for(const struct kmem_cache *s, unsigned long nr)
{
	return DIV_ROUND_UP(nr, s->objects) << s->order;
}

/* Is @p the start of an object of @s (what an allocation may return)? */
static inline bool is_object_of(struct kmem_cache *s, const void *p)
{
	struct page *slab = virt_to_slab_checked(p);

	return slab && PageSlab(slab) && slab->slab_cache == s &&
	       object_in_own_page(s, slab, p);
}

#endif
