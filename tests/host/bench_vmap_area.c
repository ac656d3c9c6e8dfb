/*
 * tests/host/bench_vmap_area.c - the cost of the vmap-area allocator's
 * part of a vmalloc() + vfree() pair, on the host, built with -O2 and no
 * sanitizers (not a test).  How it runs and is counted: bench_host.h.
 *
 * A pair is what vmalloc.c will do under its locks, minus the locks:
 * __alloc_vmap_area() of one page and its guard page, insert_vmap_area()
 * into the busy tree; then vfree's __find_vmap_area(), unlink_va() and
 * merge_or_add_vmap_area_augment().  Nodes come from a list, as from
 * vmalloc.c's spare list: no memory allocator is counted.
 *
 * The space is the kernel's VMALLOC_START..VMALLOC_END with 1,000 busy
 * areas already in it, arranged per scenario so that the pair's path is
 * known (see scenarios[]).
 */
#include "bench_host.h"
#include "mm_host.h"
#include "mm/vmap_area.h"

#define VSTART		0xffffc90000000000UL
#define VEND		0xffffe8ffffffffffUL
#define BUSY		1000
#define NODES		(4 * BUSY + 16)

struct scenario {
	const char *name;
	const char *what;
	unsigned long hole;	/* pages between the busy areas (0: packed) */
	unsigned long pages;	/* the pair's area, with its guard page */
	unsigned long align;
};

static const struct scenario scenarios[] = {
	{ "packed", "1,000 areas side by side; the pair takes the free space's left edge "
		    "and merges back", 0, 2, PAGE_SIZE },
	{ "holes-fit", "1,000 areas, 1,000 holes that fit: the lowest hole taken whole, "
		       "put back alone", 2, 2, PAGE_SIZE },
	{ "holes-small", "1,000 areas, 1,000 holes too small: passed over by subtree_max_size",
	  1, 2, PAGE_SIZE },
	{ "align-2m", "1,000 areas, 2 MiB alignment: a free range split in three, merged back",
	  1, 2, 2UL << 20 },
};

static struct vmap_area nodes[NODES];
static struct rb_list free_tree, busy;
static LIST_HEAD(spare);

static struct vmap_area *get_node(void)
{
	struct vmap_area *va = list_first_entry(&spare, struct vmap_area, list);

	list_del(&va->list);
	return va;
}

static unsigned long get_area(unsigned long size, unsigned long align)
{
	unsigned long addr = __alloc_vmap_area(&free_tree, size, align, VSTART, VEND, &spare);
	struct vmap_area *va = get_node();

	va->va_start = addr;
	va->va_end = addr + size;
	insert_vmap_area(va, &busy);
	return addr;
}

static void put_area(unsigned long addr)
{
	struct vmap_area *va = __find_vmap_area(addr, &busy);

	unlink_va(va, &busy);
	merge_or_add_vmap_area_augment(va, &free_tree, &spare);
}

/* What callgrind counts: n pairs and nothing else. */
__noinline __noclone void measured_loop(unsigned long size, unsigned long align, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		unsigned long addr = get_area(size, align);

		__asm__ __volatile__("" : : "r"(addr) : "memory");
		put_area(addr);
	}
}

static void setup(size_t i)
{
	static unsigned long holes[BUSY];
	const struct scenario *s = &scenarios[i];

	host_printk_quiet = true;
	rb_list_init(&free_tree);
	rb_list_init(&busy);
	INIT_LIST_HEAD(&spare);
	for (int k = 1; k < NODES; k++)
		list_add_tail(&nodes[k].list, &spare);
	nodes[0].va_start = VSTART;
	nodes[0].va_end = VEND;
	merge_or_add_vmap_area_augment(&nodes[0], &free_tree, &spare);
	/* one page first, so that 2 MiB alignment falls in the middle of the free space */
	get_area(PAGE_SIZE, PAGE_SIZE);
	for (int k = 0; k < BUSY; k++) {
		get_area(2 * PAGE_SIZE, PAGE_SIZE);
		if (s->hole)
			holes[k] = get_area(s->hole * PAGE_SIZE, PAGE_SIZE);
	}
	for (int k = 0; s->hole && k < BUSY; k++)
		put_area(holes[k]);
	/* warm up */
	measured_loop(s->pages * PAGE_SIZE, s->align, 1000);
}

static void run(size_t i, unsigned long n)
{
	measured_loop(scenarios[i].pages * PAGE_SIZE, scenarios[i].align, n);
}

static const char *describe(size_t i, const char **what)
{
	*what = scenarios[i].what;
	return scenarios[i].name;
}

const struct bench bench = {
	.title = "vmap-area allocator on the host (gcc -O2, no sanitizers): alloc + busy insert, "
		 "then lookup + unlink + free, of one page and its guard",
	.nr_scenarios = ARRAY_SIZE(scenarios),
	.describe = describe,
	.setup = setup,
	.run = run,
};
