/*
 * mm/kasan/quarantine.c - freed slab objects wait here before their slab
 * may hand them out again.
 *
 * Without it, kfree(p) then kmalloc() of the same size would often return
 * p itself, and a late write through the old pointer would land in the new
 * owner's object, accessible and unreported.  So a freed object (poisoned
 * KASAN_SLAB_FREE) joins the tail of one FIFO, linked through its
 * kasan_meta; when the FIFO holds more than a 32nd of RAM (Linux's share),
 * the oldest objects really go back to their slabs, where the poison stays
 * until they are handed out again.
 *
 * Shrinking a cache (kmem_cache_shrink(), kmem_cache_destroy(), the
 * slab's shrinker, and the flushes tests use to count objects) first gives
 * back its objects here: memory pressure never waits on the quarantine.
 * Only caches without slab debugging use it (debugging checks each free
 * at once, mm/slab_debug.c).
 */
#include "mm/kasan/kasan.h"

static DEFINE_SPINLOCK(quarantine_lock);
static void *head, *tail;		/* oldest, newest */
static unsigned long quarantine_bytes, quarantine_max;

static struct kmem_cache *obj_cache(const void *obj)
{
	return virt_to_head_page(obj)->slab_cache;
}

static void **next_of(void *obj)
{
	return &kasan_get_meta(obj_cache(obj), obj)->quarantine_next;
}

/* Give back each object of the list @objs (linked as in the quarantine). */
static void free_list(void *objs)
{
	while (objs) {
		void *next = *next_of(objs);

		slab_free_quarantined(objs);
		objs = next;
	}
}

/** kasan_quarantine_init - the quarantine may hold a 32nd of @ram_bytes */
void kasan_quarantine_init(unsigned long ram_bytes)
{
	quarantine_max = ram_bytes / 32;
}

/**
 * kasan_quarantine_put - @obj of @s, just poisoned, waits here; the oldest
 * objects go back to their slabs if the quarantine is over its size
 *
 * Context: any (kfree() from an interrupt handler too).
 */
void kasan_quarantine_put(struct kmem_cache *s, void *obj)
{
	void *evicted = NULL, **evicted_tail = &evicted;
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	*next_of(obj) = NULL;
	if (tail)
		*next_of(tail) = obj;
	else
		head = obj;
	tail = obj;
	quarantine_bytes += s->size;
	while (quarantine_bytes > quarantine_max) {
		void *old = head;

		head = *next_of(old);
		if (!head)
			tail = NULL;
		quarantine_bytes -= obj_cache(old)->size;
		*evicted_tail = old;
		evicted_tail = next_of(old);
		*evicted_tail = NULL;
	}
	spin_unlock_irqrestore(&quarantine_lock, flags);
	free_list(evicted);
}

/**
 * kasan_cache_shrink - give back the quarantined objects of @s
 *
 * kmem_cache_shrink() and kmem_cache_flush_cpus() call it first, and so
 * the slab's shrinker, cache by cache.
 * Context: any.
 */
void kasan_cache_shrink(struct kmem_cache *s)
{
	void *taken = NULL, **taken_tail = &taken, **link = &head, *obj;
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	tail = NULL;
	while ((obj = *link)) {
		struct kmem_cache *c = obj_cache(obj);

		if (c != s) {
			tail = obj;
			link = next_of(obj);
			continue;
		}
		*link = *next_of(obj);
		quarantine_bytes -= c->size;
		*taken_tail = obj;
		taken_tail = next_of(obj);
		*taken_tail = NULL;
	}
	spin_unlock_irqrestore(&quarantine_lock, flags);
	free_list(taken);
}

/** kasan_quarantine_pages - what the quarantine holds, in pages (for the shrinker's count) */
unsigned long kasan_quarantine_pages(void)
{
	return READ_ONCE(quarantine_bytes) / PAGE_SIZE;
}
