/*
 * tests/host/bench_buddy.c - the cost of the buddy allocator's fast paths,
 * on the host, built with -O2 and no sanitizers (not a test): one
 * alloc_pages() + __free_pages() pair is what measured_loop() repeats.
 * How it runs and is counted: bench_host.h.
 *
 * The machine is 1 MiB..256 MiB (ZONE_DMA and ZONE_DMA32; GFP_KERNEL is
 * served from DMA32, whose per-CPU batch is then 15), one CPU.  Before
 * each loop the lists are arranged so that the block the loop gets is
 * known: either a free block of exactly the order wanted whose buddy is
 * held (no split, no merge), or only order-10 blocks (the allocation
 * splits one, the free merges it back: the worst case).
 */
#include "bench_host.h"
#include "mm_host.h"
#include "mm/internal.h"

#define MiB	(1UL << 20)

struct scenario {
	const char *name;
	const char *what;
	unsigned int order;
	bool no_pcp;		/* per-CPU lists off: high = batch = 1 */
	bool split;		/* from an order-10 block, merged back every time */
};

static const struct scenario scenarios[] = {
	{ "order0-pcp", "order-0 via the per-CPU list", 0, false, false },
	{ "order0-buddy", "order-0 via the buddy lists (per-CPU list off)", 0, true, false },
	{ "order0-split", "order-0 via the buddy lists, split from order 10 and merged back", 0, true, true },
	{ "order1", "order-1", 1, false, false },
	{ "order3", "order-3", 3, false, false },
	{ "order9", "order-9", 9, false, false },
	{ "order9-split", "order-9, split from order 10 and merged back", 9, false, true },
};

/* What callgrind counts: n alloc+free pairs and nothing else. */
__noinline __noclone void measured_loop(unsigned int order, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		__asm__ __volatile__("" : : "r"(page) : "memory");
		__free_pages(page, order);
	}
}

static void setup(size_t i)
{
	static const struct host_range ram[] = { { 1 * MiB, 255 * MiB, 0 } };
	const struct scenario *s = &scenarios[i];
	struct page *a, *b;

	host_printk_quiet = true;
	host_machine_init(ram, ARRAY_SIZE(ram), NULL, 0, 1);
	if (s->no_pcp) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct per_cpu_pages *pcp =
				per_cpu_ptr(NODE_DATA(0)->node_zones[z].per_cpu_pageset, 0);

			pcp->high = 1;
			pcp->batch = 1;
		}
	}
	if (s->split) {
		/* every DMA32 block is order 10 at boot: nothing to arrange */
		return;
	}
	/* a free block of exactly this order, with its buddy held: no split, no merge */
	a = alloc_pages(GFP_KERNEL, s->order);
	b = alloc_pages(GFP_KERNEL, s->order);
	(void)b;
	__free_pages(a, s->order);
	drain_all_pages();
	/* warm up: the per-CPU list refilled, the caches hot */
	measured_loop(s->order, 1000);
}

static void run(size_t i, unsigned long n)
{
	measured_loop(scenarios[i].order, n);
}

static const char *describe(size_t i, const char **what)
{
	*what = scenarios[i].what;
	return scenarios[i].name;
}

const struct bench bench = {
	.title = "Buddy allocator on the host (gcc -O2, no sanitizers): "
		 "one alloc_pages() + __free_pages() pair",
	.nr_scenarios = ARRAY_SIZE(scenarios),
	.describe = describe,
	.setup = setup,
	.run = run,
};
