/*
 * mm/page_alloc_monitor.c - allocating and freeing by hand, from the monitor.
 *
 *   alloc ORDER [dma|dma32|atomic]   allocate a block and keep it
 *   free N | all                     free held block number N, or all
 *   held                             list the held blocks
 *   frag [N]                         allocate N single pages, free every
 *                                    other one: memory is now fragmented
 *
 * Watch `buddyinfo` between commands: a split shows up as one block fewer
 * at a high order and one more at each order below; a free of the last
 * piece merges everything back.
 */
#include "mm/internal.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
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

static gfp_t parse_gfp(const char *word)
{
	if (!word)
		return GFP_KERNEL;
	if (!strcmp(word, "dma"))
		return GFP_KERNEL | __GFP_DMA;
	if (!strcmp(word, "dma32"))
		return GFP_KERNEL | __GFP_DMA32;
	if (!strcmp(word, "atomic"))
		return GFP_ATOMIC;
	return GFP_KERNEL;
}

static int cmd_alloc(int argc, char **argv)
{
	unsigned int order;
	struct page *page;
	int slot;

	if (argc < 2) {
		printk("usage: alloc ORDER [dma|dma32|atomic]\n");
		return -22;
	}
	order = simple_strtoul(argv[1], NULL, 0);
	page = alloc_pages(parse_gfp(argc > 2 ? argv[2] : NULL), order);
	if (!page) {
		printk("alloc: order %u failed\n", order);
		return -12;
	}
	slot = hold(page, order);
	if (slot < 0) {
		__free_pages(page, order);
		printk("alloc: already holding %d blocks; free some first\n", MAX_HELD);
		return -12;
	}
	printk("[%d] order %u: pfn %#lx-%#lx at %p, node %d zone %s\n", slot, order,
	       page_to_pfn(page), page_to_pfn(page) + (1UL << order) - 1, page_address(page),
	       page_to_nid(page), page_zone(page)->name);
	return 0;
}
MONITOR_COMMAND(alloc, "alloc ORDER [dma|dma32|atomic]: allocate and hold a block", cmd_alloc);

static int cmd_free(int argc, char **argv)
{
	int n = 0;

	if (argc < 2) {
		printk("usage: free N | all   (see 'held')\n");
		return -22;
	}
	for (int i = 0; i < MAX_HELD; i++) {
		if (held[i].page && (!strcmp(argv[1], "all") ||
				     (long)i == simple_strtol(argv[1], NULL, 0))) {
			release(i);
			n++;
		}
	}
	/* Freed single pages wait on a per-CPU list; give them back so buddyinfo shows all. */
	drain_all_pages();
	printk("freed %d block%s\n", n, n == 1 ? "" : "s");
	return 0;
}
MONITOR_COMMAND(free, "free N | all: give back held blocks", cmd_free);

static int cmd_held(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < MAX_HELD; i++) {
		if (held[i].page)
			printk("[%d] order %u pfn %#lx\n", i, held[i].order,
			       page_to_pfn(held[i].page));
	}
	return 0;
}
MONITOR_COMMAND(held, "list the blocks alloc and frag are holding", cmd_held);

static int cmd_frag(int argc, char **argv)
{
	unsigned long n = argc > 1 ? simple_strtoul(argv[1], NULL, 0) : 256;
	int slots[MAX_HELD];
	unsigned long got = 0, kept = 0;

	/* Take single pages straight from the buddy lists, not a per-CPU cache. */
	drain_all_pages();
	for (; got < n && got < MAX_HELD; got++) {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);

		if (!page || (slots[got] = hold(page, 0)) < 0) {
			if (page)
				__free_pages(page, 0);
			break;
		}
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
MONITOR_COMMAND(frag, "frag [N]: hold every other one of N single pages", cmd_frag);
