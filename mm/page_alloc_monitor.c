/*
 * mm/page_alloc_monitor.c - allocating and freeing by hand, from the monitor.
 *
 *   alloc ORDER [dma|dma32|atomic|movable]   allocate a block and keep it
 *   free N | all                     free held block number N, or all
 *   held                             list the held blocks
 *   frag [N]                         allocate N single pages, free every
 *                                    other one: memory is now fragmented
 *
 * The held blocks live in a table of MAX_HELD slots, which is also the cap
 * on frag's N.  A bad argument changes nothing (kernel/monitor.h).
 *
 * `alloc 0 movable` holds a page that compaction may move: the monitor is
 * its owner, as the balloon is of its pages (mm/migrate.h), and when the
 * page moves its slot follows it (`held` shows the new frame).  A block of
 * a larger order comes from a movable pageblock but stays put: migration
 * here moves single pages.
 *
 * Watch `buddyinfo` between commands: a split shows up as one block fewer
 * at a high order and one more at each order below; a free of the last
 * piece merges everything back.
 */
#include "mm/internal.h"
#include "mm/migrate.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MAX_HELD	512

struct held_block {
	struct page *page;
	unsigned int order;
};

static struct held_block held[MAX_HELD];

static int hold(struct page *page, unsigned int order)
{
	for (int i = 0; i < MAX_HELD; i++) {
		if (!held[i].page) {
			held[i] = (struct held_block){ page, order };
			return i;
		}
	}
	return -1;
}

static void release(int i)
{
	__free_pages(held[i].page, held[i].order);
	held[i].page = NULL;
}

/* ---------------------------------------------------------------- movable held pages */

/*
 * The owner's side of a held movable page.  held_lock keeps a slot and
 * compaction apart: a page being migrated is not in its slot (isolated),
 * and `free` waits for it to come back.
 */
static DEFINE_SPINLOCK(held_lock);
static int held_slot_of(const struct page *page)
{
	for (int i = 0; i < MAX_HELD; i++) {
		if (held[i].page == page)
			return i;
	}
	return -1;
}

static bool held_isolate(struct page *page, enum migrate_mode mode)
{
	bool ours;

	(void)mode;
	spin_lock(&held_lock);
	ours = PageMovable(page) && !PageIsolated(page) && held_slot_of(page) >= 0;
	spin_unlock(&held_lock);
	return ours;
}

static int held_migrate(struct page *dst, struct page *src, enum migrate_mode mode);

static void held_putback(struct page *page)
{
	(void)page;	/* still in its slot */
}

static const struct movable_operations held_mops = {
	.isolate_page = held_isolate,
	.migrate_page = held_migrate,
	.putback_page = held_putback,
};

static int held_migrate(struct page *dst, struct page *src, enum migrate_mode mode)
{
	int slot;

	(void)mode;
	spin_lock(&held_lock);
	slot = held_slot_of(src);
	if (slot >= 0) {
		__SetPageMovable(dst, &held_mops);
		held[slot].page = dst;
	}
	spin_unlock(&held_lock);
	return slot >= 0 ? MIGRATEPAGE_SUCCESS : -EAGAIN;
}

/* alloc's optional FLAGS word, and the gfp mask each one means */
static const char *const alloc_flag_names[] = { "dma", "dma32", "atomic", "movable", NULL };
static const gfp_t alloc_flag_gfp[] = {
	GFP_KERNEL | __GFP_DMA, GFP_KERNEL | __GFP_DMA32, GFP_ATOMIC,
	GFP_KERNEL | __GFP_MOVABLE,	/* from a movable pageblock; order 0 may move */
};

static int cmd_alloc(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long order;
	int flags = -1;		/* none: GFP_KERNEL */
	struct page *page;
	int slot;

	if (monitor_arg_ulong(&args, "ORDER", 0, MAX_PAGE_ORDER, &order) ||
	    monitor_opt_keyword(&args, "FLAGS", alloc_flag_names, &flags) ||
	    monitor_args_end(&args))
		return -EINVAL;
	page = alloc_pages(flags < 0 ? GFP_KERNEL : alloc_flag_gfp[flags], order);
	if (!page) {
		printk("alloc: order %lu failed\n", order);
		return -ENOMEM;
	}
	spin_lock(&held_lock);
	slot = hold(page, order);
	if (slot >= 0 && order == 0 && flags >= 0 && alloc_flag_gfp[flags] & __GFP_MOVABLE)
		__SetPageMovable(page, &held_mops);
	spin_unlock(&held_lock);
	if (slot < 0) {
		__free_pages(page, order);
		printk("alloc: already holding %d blocks; free some first\n", MAX_HELD);
		return -ENOMEM;
	}
	printk("[%d] order %lu: pfn %#lx-%#lx at %p, node %d zone %s\n", slot, order,
	       page_to_pfn(page), page_to_pfn(page) + (1UL << order) - 1, page_address(page),
	       page_to_nid(page), page_zone(page)->name);
	return 0;
}
MONITOR_COMMAND(alloc, "ORDER [dma|dma32|atomic|movable]", "allocate a block and hold it", cmd_alloc);

static int cmd_free(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	bool all = monitor_take_word(&args, "all");
	unsigned long slot = 0;
	int n = 0;

	if ((!all && monitor_arg_ulong(&args, "N", 0, MAX_HELD - 1, &slot)) ||
	    monitor_args_end(&args))
		return -EINVAL;
	if (!all && !held[slot].page) {
		printk("free: no block [%lu] is held (see 'held')\n", slot);
		return -ENOENT;
	}
	for (int i = 0; i < MAX_HELD; i++) {
		struct page *page;

		spin_lock(&held_lock);
		page = held[i].page;
		/* a movable page being migrated is not ours to free: it comes back at once */
		while (page && PageIsolated(page)) {
			spin_unlock(&held_lock);
			cpu_relax();
			spin_lock(&held_lock);
			page = held[i].page;
		}
		if (page && (all || (unsigned long)i == slot)) {
			release(i);
			n++;
		}
		spin_unlock(&held_lock);
	}
	/* Freed single pages wait on a per-CPU list; give them back so buddyinfo shows all. */
	drain_all_pages();
	printk("freed %d block%s\n", n, n == 1 ? "" : "s");
	return 0;
}
MONITOR_COMMAND(free, "N | all", "give back held block [N] (see 'held'), or all of them", cmd_free);

static int cmd_held(int argc, char **argv)
{
	int n = 0;

	(void)argc;
	(void)argv;
	for (int i = 0; i < MAX_HELD; i++) {
		if (held[i].page) {
			printk("[%d] order %u pfn %#lx\n", i, held[i].order,
			       page_to_pfn(held[i].page));
			n++;
		}
	}
	if (!n)
		printk("held: no blocks ('alloc' and 'frag' hold some)\n");
	return 0;
}
MONITOR_COMMAND(held, "", "list the blocks alloc and frag are holding", cmd_held);

static int free_slots(void)
{
	int n = 0;

	for (int i = 0; i < MAX_HELD; i++)
		n += !held[i].page;
	return n;
}

static int cmd_frag(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned long n = 256, got = 0, kept = 0;
	int slots[MAX_HELD];

	if (monitor_opt_ulong(&args, "N", 2, MAX_HELD, &n) || monitor_args_end(&args))
		return -EINVAL;
	if ((unsigned long)free_slots() < n) {
		printk("frag: N is %lu but only %d of %d held slots are free ('free all' first)\n",
		       n, free_slots(), MAX_HELD);
		return -ENOSPC;
	}
	/* Take single pages straight from the buddy lists, not a per-CPU cache. */
	drain_all_pages();
	for (; got < n; got++) {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);

		if (!page)
			break;
		slots[got] = hold(page, 0);
	}
	/* Only now free every other one: freed earlier, it would be reused at once. */
	for (unsigned long i = 0; i < got; i++) {
		if (i % 2)
			release(slots[i]);
		else
			kept++;
	}
	drain_all_pages();
	printk("frag: holding %lu single pages, every other one of %lu: "
	       "their buddies are free but cannot merge ('free all' undoes it)\n", kept, got);
	return 0;
}
MONITOR_COMMAND(frag, "[N]", "allocate N single pages (2..512, default 256), free every other one",
		cmd_frag);
