/*
 * tests/kunit/accounting.c - nothing leaks: what every suite allocated, it
 * gave back.
 *
 * Before the first suite and after each one, the runner takes a snapshot of
 * who holds memory, and compares it with the one before the suite:
 *
 *   slab objects  in use, per cache by name: a new cache left behind is
 *                 a leak too;
 *   vmalloc       every busy area by address and caller, and the lazily
 *                 freed ranges (none may be left after a purge);
 *   pages         taken from the buddy allocator and held by someone other
 *                 than a slab, a page table or a vmalloc area: alloc_pages(),
 *                 a large kmalloc(), what a test keeps;
 *   per-CPU       bytes of the dynamic per-CPU areas (alloc_percpu()).
 *
 * More of any of them after the suite than before fails the suite, and the
 * leak is named: "leak: kmalloc-64: 3 objects", "leak: vmalloc area
 * 0x...-0x... (8192 bytes) allocated by foo+0x12/0x40", "leak: 5 pages".
 * A suite that keeps memory on purpose says why in .keeps_memory; its
 * differences are printed as kept, and do not fail it.  Only a .strict
 * suite fails for a leak (every suite of this repository is one): a suite
 * written as for Linux, whose KUnit counts no memory, is told what it left.
 *
 * Leak or warm cache?  Allocators keep memory that nobody holds: free
 * objects in per-CPU sheaves and barns, empty slabs, pages on per-CPU
 * lists, lazily freed vmalloc ranges, deferred frees.  A test that warms a
 * cache leaves more of those behind, and that is no leak.  So each snapshot
 * first brings every cache back to the same state - deferred work run,
 * vmalloc purged, every slab cache shrunk twice (the sheaves are objects
 * of the slab_sheaf cache, which the first pass fills with empty slabs),
 * the per-CPU page lists drained - and then counts only what someone
 * holds: objects in use, not slab pages; areas, not their pages; pages
 * outside slabs, page tables and vmalloc areas.  Two warm caches cannot be
 * emptied, so they are counted and left out: page tables (they stay when
 * their mappings go; mm/init.c counts them) and the few struct vmap_area
 * that vmalloc keeps spare to cut ranges with (vmalloc_spare_nodes()).
 */
#include <stdarg.h>
#include "kunit/internal.h"
#include "mm/slab_internal.h"
#include "mm/internal.h"
#include "mm/page_alloc.h"
#include "mm/percpu.h"
#include "mm/vmalloc.h"
#include "mm/vmap_area.h"
#include "kernel/printk.h"
#include "kernel/workqueue.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define MAX_CACHES	128
#define MAX_AREAS	256
#define NAME_LEN	32

struct cache_use {
	const struct kmem_cache *s;
	char name[NAME_LEN];
	unsigned long inuse;
};

struct area_use {
	unsigned long start, end;
	const void *caller;
};

struct mem_snapshot {
	unsigned long pages;		/* held outside slabs, page tables and vmalloc areas */
	size_t percpu_free;
	unsigned long lazy_pages;	/* lazily freed and not purged: 0 */
	unsigned long vmalloc_pages;	/* mapped by vmalloc() areas (counted in their area) */
	unsigned int nr_caches, nr_areas, nr_lazy;
	bool too_many;			/* more caches or areas than the arrays hold */
	struct cache_use caches[MAX_CACHES];
	struct area_use areas[MAX_AREAS];
};

static struct mem_snapshot snapshots[2];
static struct mem_snapshot *before = &snapshots[0], *after = &snapshots[1];

/* Everything the allocators cache for nobody goes back where it came from. */
static void drop_cached_memory(void)
{
	struct kmem_cache *s;

	flush_scheduled_work();		/* vfree_atomic(), kvfree() from interrupts */
	vm_unmap_aliases();
	for (int pass = 0; pass < 2; pass++) {
		spin_lock(&slab_caches_lock);
		list_for_each_entry(s, &slab_caches, list)
			kmem_cache_shrink(s);
		spin_unlock(&slab_caches_lock);
	}
	drain_all_pages();
}

/**
 * settled_free_pages - free pages with everything cached given back
 *
 * So that two counts compare exactly (the torture test's, the replayer's,
 * before and after): deferred vfree()s run, vmalloc purged, every slab cache
 * shrunk, every CPU's page lists drained.  Page tables made for the vmalloc
 * space stay (docs/vmalloc.md), so they count as free here.
 * Context: may sleep; waits for every CPU.
 */
unsigned long settled_free_pages(void)
{
	flush_scheduled_work();		/* the vfree()s deferred on every CPU */
	vm_unmap_aliases();
	kmem_cache_shrink_all();
	drain_all_pages();
	return nr_free_pages() + READ_ONCE(nr_kernel_pagetable_pages);
}

static void count_busy_area(const struct vmap_area *va, bool lazy, void *arg)
{
	(void)va;
	*(unsigned long *)arg += !lazy;
}

/**
 * count_caches_and_areas - how many slab caches and busy vmalloc areas there are
 * @caches: set to the slab caches
 * @areas: set to the vmalloc areas in use (not the lazily freed ones)
 *
 * Context: may sleep (takes slab_caches_lock and the vmalloc lock).
 */
void count_caches_and_areas(unsigned long *caches, unsigned long *areas)
{
	struct kmem_cache *s;

	*caches = *areas = 0;
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list)
		(*caches)++;
	spin_unlock(&slab_caches_lock);
	vmalloc_for_each_area(count_busy_area, areas);
}

/* Objects of @s in use and pages in its slabs, on every node (its sheaves are empty). */
static unsigned long count_cache(struct kmem_cache *s, unsigned long *pages)
{
	unsigned long inuse = 0, flags;
	int nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);

		spin_lock_irqsave(&n->list_lock, flags);
		for (u32 *head = &n->partial; head; head = head == &n->partial ? &n->full : NULL) {
			for (struct page *slab = pfn_to_slab(*head); slab;
			     slab = pfn_to_slab(slab->slab_next)) {
				inuse += slab->inuse;
				*pages += 1UL << slab_order(s, slab);
			}
		}
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
	return inuse - cache_sheaf_objects(s);
}

/* Slab objects per cache; returns the pages of all slabs. */
static unsigned long take_caches(struct mem_snapshot *snap)
{
	unsigned long pages = 0;
	struct kmem_cache *s;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		struct cache_use *c = &snap->caches[snap->nr_caches];
		unsigned long inuse = count_cache(s, &pages);

		if (snap->nr_caches == MAX_CACHES) {
			snap->too_many = true;
			continue;
		}
		/* vmalloc keeps a few nodes to cut ranges with: free, not held */
		if (!strcmp(s->name, "vmap_area"))
			inuse -= vmalloc_spare_nodes();
		c->s = s;
		strscpy(c->name, s->name, sizeof(c->name));
		c->inuse = inuse;
		snap->nr_caches++;
	}
	spin_unlock(&slab_caches_lock);
	return pages;
}

static void take_area(const struct vmap_area *va, bool lazy, void *arg)
{
	struct mem_snapshot *snap = arg;
	const struct vm_struct *vm = va->vm;

	if (lazy) {
		snap->nr_lazy++;
		return;
	}
	if (vm && vm->flags & VM_ALLOC)
		snap->vmalloc_pages += (unsigned long)vm->nr_pages << vm->page_order;
	if (snap->nr_areas == MAX_AREAS) {
		snap->too_many = true;
		return;
	}
	snap->areas[snap->nr_areas++] = (struct area_use){
		.start = va->va_start, .end = va->va_end, .caller = vm ? vm->caller : NULL,
	};
}

static void take_snapshot(struct mem_snapshot *snap)
{
	unsigned long slab_pages, max;

	drop_cached_memory();
	snap->nr_caches = snap->nr_areas = snap->nr_lazy = 0;
	snap->vmalloc_pages = 0;
	snap->too_many = false;
	slab_pages = take_caches(snap);
	vmalloc_for_each_area(take_area, snap);
	snap->lazy_pages = vmalloc_lazy_pages(&max);
	snap->percpu_free = percpu_dynamic_free();
	snap->pages = totalram_pages - nr_free_pages() - slab_pages -
		      READ_ONCE(nr_kernel_pagetable_pages) - snap->vmalloc_pages;
}

/* One line about what the suite left behind: a leak, or what it keeps on purpose. */
static void __printf(2, 3) left_behind(const struct kunit_suite *suite, const char *fmt, ...)
{
	char what[160];
	va_list args;

	va_start(args, fmt);
	vscnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	if (suite->keeps_memory)
		printk("    # %s: kept (%s): %s\n", suite->name, suite->keeps_memory, what);
	else if (suite->strict)
		printk("    # %s: leak: %s\n", suite->name, what);
	else
		printk("    # %s: note: left behind, not failed (the suite is not .strict): %s\n",
		       suite->name, what);
}

static const struct cache_use *find_cache(const struct mem_snapshot *snap,
					  const struct cache_use *c)
{
	for (unsigned int i = 0; i < snap->nr_caches; i++) {
		if (snap->caches[i].s == c->s && !strcmp(snap->caches[i].name, c->name))
			return &snap->caches[i];
	}
	return NULL;
}

static bool area_was_there(const struct mem_snapshot *snap, const struct area_use *a)
{
	for (unsigned int i = 0; i < snap->nr_areas; i++) {
		if (snap->areas[i].start == a->start && snap->areas[i].end == a->end &&
		    snap->areas[i].caller == a->caller)
			return true;
	}
	return false;
}

/* Print what @now holds that @then did not; return how many lines that was. */
static unsigned int compare(const struct kunit_suite *suite, const struct mem_snapshot *then,
			    const struct mem_snapshot *now)
{
	unsigned int lines = 0;

	for (unsigned int i = 0; i < now->nr_areas; i++) {
		const struct area_use *a = &now->areas[i];

		if (area_was_there(then, a))
			continue;
		left_behind(suite, "vmalloc area %#lx-%#lx (%lu bytes) allocated by %pS", a->start,
			    a->end - PAGE_SIZE, a->end - a->start - PAGE_SIZE, a->caller);
		lines++;
	}
	if (now->lazy_pages || now->nr_lazy) {
		left_behind(suite, "%u lazily freed vmalloc ranges (%lu pages) survived a purge",
			    now->nr_lazy, now->lazy_pages);
		lines++;
	}
	for (unsigned int i = 0; i < now->nr_caches; i++) {
		const struct cache_use *c = &now->caches[i], *old = find_cache(then, c);

		if (!old) {
			left_behind(suite, "cache %s created and not destroyed (%lu objects)",
				    c->name, c->inuse);
			lines++;
		} else if (c->inuse > old->inuse) {
			left_behind(suite, "%s: %lu object%s", c->name, c->inuse - old->inuse,
				    c->inuse - old->inuse == 1 ? "" : "s");
			lines++;
		}
	}
	if (now->pages > then->pages) {
		left_behind(suite, "%lu page%s", now->pages - then->pages,
			    now->pages - then->pages == 1 ? "" : "s");
		lines++;
	}
	if (now->percpu_free < then->percpu_free) {
		left_behind(suite, "%zu bytes of per-CPU memory",
			    then->percpu_free - now->percpu_free);
		lines++;
	}
	if (now->too_many)
		printk("    # %s: accounting: more than %d caches or %d vmalloc areas; "
		       "the rest were not compared\n", suite->name, MAX_CACHES, MAX_AREAS);
	return lines;
}

/**
 * kunit_accounting_start - the snapshot the first suite is compared with
 *
 * Context: kunit_run_all_tests(), before the first suite; interrupts on.
 */
void kunit_accounting_start(void)
{
	take_snapshot(before);
}

/**
 * kunit_accounting_check - did @suite give back everything it took?
 *
 * Compares the memory held now with the snapshot before the suite and
 * prints what the suite left behind; the snapshot becomes the next
 * suite's "before".
 * Context: between suites; interrupts on.
 * Return: false if the suite leaked (and is .strict, and does not say it
 * keeps memory).
 */
bool kunit_accounting_check(const struct kunit_suite *suite)
{
	struct mem_snapshot *then = before;
	unsigned int lines;

	take_snapshot(after);
	lines = compare(suite, then, after);
	before = after;
	after = then;
	return !lines || suite->keeps_memory || !suite->strict;
}
