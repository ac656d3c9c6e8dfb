/*
 * mm/slab_monitor.c - the slab allocator at the monitor prompt.
 *
 *   slabinfo            every cache, as Linux's /proc/slabinfo, with the
 *                       objects this kernel keeps in sheaves and barns
 *   kmalloc SIZE [node N]   allocate and hold an object (see 'kheld')
 *   kfree ADDR          free an object 'kmalloc' gave; an address it freed
 *                       already is freed again on purpose, to show the report
 *   kheld               the objects 'kmalloc' holds
 *   slabcheck [CACHE]   validate every slab of every cache (or of one)
 */
#include "mm/slab_internal.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsprintf.h"


static struct monitor_held kheld;	/* what 'kmalloc' holds, and what 'kfree' freed */

/* Objects of @s that are allocated or cached, and all, from its slabs. */
static void count_objects(struct kmem_cache *s, unsigned long *inuse, unsigned long *total,
			  unsigned long *slabs)
{
	unsigned long flags;
	int nid;

	*inuse = *total = *slabs = 0;
	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);
		struct page *slab;

		spin_lock_irqsave(&n->list_lock, flags);
		for (slab = pfn_to_slab(n->partial); slab; slab = pfn_to_slab(slab->slab_next))
			*inuse += slab->inuse;
		for (slab = pfn_to_slab(n->full); slab; slab = pfn_to_slab(slab->slab_next))
			*inuse += slab->inuse;
		*total += n->total_objects;
		*slabs += n->nr_slabs;
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
}

/**
 * nr_slab_pages - pages held in slabs, of every cache on every node
 *
 * Walks each cache's partial and full lists under its nodes' list locks and
 * adds each slab's own order (a slab made under pressure may be smaller than
 * its cache's order), so the count is exact where the nodes' nr_slabs is
 * not.  Large kmalloc()s are whole pages, not slabs, and are not counted
 * (as Linux's NR_SLAB_*_B do not).  The replayer's slab_pages_end figure
 * (docs/bench.md, section 8).
 * Context: may not be called with slab_caches_lock held; takes it.
 * Return: the number of pages.
 */
unsigned long nr_slab_pages(void)
{
	unsigned long pages = 0;
	struct kmem_cache *s;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list)
		pages += kmem_cache_slab_pages(s);
	spin_unlock(&slab_caches_lock);
	return pages;
}

/**
 * kmem_cache_slab_pages - pages held in @s's slabs, on every node
 * @s: the cache
 *
 * nr_slab_pages()'s count for one cache: its nodes' partial and full
 * lists, each slab at its own order.  The page snapshot's suite checks the
 * slab frames of each cache against it.
 * Context: takes @s's list locks, with interrupts off.
 * Return: the number of pages.
 */
unsigned long kmem_cache_slab_pages(struct kmem_cache *s)
{
	unsigned long pages = 0, flags;
	struct page *slab;
	int nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);

		spin_lock_irqsave(&n->list_lock, flags);
		for (slab = pfn_to_slab(n->partial); slab; slab = pfn_to_slab(slab->slab_next))
			pages += 1UL << slab_order(s, slab);
		for (slab = pfn_to_slab(n->full); slab; slab = pfn_to_slab(slab->slab_next))
			pages += 1UL << slab_order(s, slab);
		spin_unlock_irqrestore(&n->list_lock, flags);
	}
	return pages;
}

/**
 * slabinfo_show_cache - @s's line of slabinfo (as Linux's /proc/slabinfo), into @buf
 * @s: a cache on slab_caches
 * @buf: where the line goes, without a newline
 * @size: its size
 *
 * The monitor's slabinfo prints it; the allocator torture (tests/torture/)
 * reads it while every CPU allocates.
 * Context: slab_caches_lock held (@s stays); takes its nodes' list locks.
 * Return: the length of the line (snprintf()'s).
 */
int slabinfo_show_cache(struct kmem_cache *s, char *buf, size_t size)
{
	unsigned long inuse, total, slabs, cached = cache_sheaf_objects(s);
	char letters[5];

	count_objects(s, &inuse, &total, &slabs);
	snprintf(letters, sizeof(letters), "%s%s%s%s", s->flags & SLAB_POISON ? "P" : "",
		 s->flags & SLAB_RED_ZONE ? "Z" : "", s->flags & SLAB_STORE_USER ? "U" : "",
		 s->flags & SLAB_CONSISTENCY_CHECKS ? "F" : "");
	/* a cache with sheaves and no letters (the default boot) says "-", not blank */
	return snprintf(buf, size, "%-17s %13lu %10lu %9u %12u %14u : %7lu %11lu : %s%s%s",
			s->name, inuse - cached, total, s->object_size, s->objects,
			1U << s->order, slabs, cached,
			s->flags & SLAB_NO_SHEAVES ? "no-sheaves" : "",
			(s->flags & SLAB_NO_SHEAVES) && letters[0] ? " " : "",
			(letters[0] || (s->flags & SLAB_NO_SHEAVES)) ? letters : "-");
}

static int cmd_slabinfo(int argc, char **argv)
{
	struct kmem_cache *s;
	char line[160];

	(void)argc;
	(void)argv;
	printk("# name            <active_objs> <num_objs> <objsize> <objperslab> "
	       "<pagesperslab> : <slabs> <in_sheaves> : flags\n");
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		slabinfo_show_cache(s, line, sizeof(line));
		printk("%s\n", line);
	}
	spin_unlock(&slab_caches_lock);
	printk("(active: allocated by callers; in_sheaves: free, cached per CPU and in the barns;"
	       " flags: slab_debug letters or - for none; checked caches skip the sheaves)\n");
	return 0;
}
MONITOR_COMMAND(slabinfo, "", "the slab caches: objects, sizes, slabs, sheaves (as /proc/slabinfo)",
		cmd_slabinfo);

static int cmd_kmalloc(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long size, node = NUMA_NO_NODE;
	struct page *page;
	void *p;
	int slot;

	if (monitor_arg_size(&args, "SIZE", 1, KMALLOC_MAX_SIZE, &size))
		return -EINVAL;
	if (monitor_take_word(&args, "node") &&
	    monitor_arg_ulong(&args, "N", 0, nr_node_ids - 1, &node))
		return -EINVAL;
	if (monitor_args_end(&args))
		return -EINVAL;
	if (monitor_held_full(&kheld)) {
		printk("kmalloc: already holding %d objects; kfree some first\n", MONITOR_HELD_MAX);
		return -ENOMEM;
	}
	p = kmalloc_node(size, GFP_KERNEL, (int)node);
	if (!p) {
		printk("kmalloc: %lu bytes failed\n", size);
		return -ENOMEM;
	}
	slot = monitor_held_add(&kheld, p);
	page = virt_to_head_page(p);
	printk("[%d] %lu bytes at %px: %s, %zu usable, node %d\n", slot, size, p,
	       PageSlab(page) ? page->slab_cache->name : "whole pages (large kmalloc)", ksize(p),
	       page_to_nid(page));
	return 0;
}
MONITOR_COMMAND(kmalloc, "SIZE [node N]", "allocate SIZE bytes (up to 4M; 64, 4K...) and hold them",
		cmd_kmalloc);

static int cmd_kfree(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long addr;
	int slot;
	void *p;

	if (monitor_arg_addr(&args, "ADDR", &addr) || monitor_args_end(&args))
		return -EINVAL;
	p = (void *)addr;
	slot = monitor_held_find(&kheld, p);
	if (slot >= 0) {
		kfree(p);
		monitor_held_forget(&kheld, slot);
		printk("kfree: freed [%d] %px\n", slot, p);
		return 0;
	}
	if (monitor_held_was_freed(&kheld, p)) {
		printk("kfree: %px was freed already: freeing it again (watch the report)\n", p);
		kfree(p);
		return 0;
	}
	printk("kfree: %px is not an object 'kmalloc' gave (see 'kheld'); not freed\n", p);
	return -EINVAL;
}
MONITOR_COMMAND(kfree, "ADDR", "free an object 'kmalloc' gave (ADDR in hex)", cmd_kfree);

static int cmd_kheld(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < MONITOR_HELD_MAX; i++) {
		if (kheld.held[i])
			printk("[%d] %px, %zu usable\n", i, kheld.held[i], ksize(kheld.held[i]));
	}
	return 0;
}
MONITOR_COMMAND(kheld, "", "list the objects 'kmalloc' holds", cmd_kheld);

static int cmd_slabcheck(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	const char *only = NULL;
	unsigned int caches = 0;
	struct kmem_cache *s;
	int problems = 0;

	if (args.next < argc)
		only = argv[args.next++];
	if (monitor_args_end(&args))
		return -EINVAL;
	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list) {
		if (only && strcmp(only, s->name))
			continue;
		caches++;
		problems += validate_slab_cache(s);
	}
	spin_unlock(&slab_caches_lock);
	if (only && !caches) {
		printk("slabcheck: no cache is called '%s' (see 'slabinfo')\n", only);
		return -EINVAL;
	}
	printk("slabcheck: %u cache%s checked, %d problem%s\n", caches, caches == 1 ? "" : "s",
	       problems, problems == 1 ? "" : "s");
	return problems ? -EIO : 0;
}
MONITOR_COMMAND(slabcheck, "[CACHE]", "check every slab of every cache (or of CACHE)",
		cmd_slabcheck);
