/*
 * tests/bench/page_alloc_bench.c - what a page costs.
 *
 * Each row is one alloc_pages() + __free_pages() pair.  Order 0 is measured
 * twice: normally, where the pair is served by this CPU's per-CPU list, and
 * with that list shrunk to one page (high = batch = 1), so that every free
 * drains to the buddy lists and every allocation refills from them - the
 * cost the per-CPU lists exist to avoid.
 */
#include "bench/bench.h"
#include "mm/mmzone.h"

#define PCP_ROW		"page alloc+free order-0 (per-CPU list)"

/*
 * Hold one block of @order while measuring: the first allocation splits a
 * larger block and leaves the held block's buddy on the order's list, so
 * every measured pair takes that buddy and puts it back without splitting
 * or merging.  Without this the figure would depend on what the free lists
 * happened to hold after boot.
 */
static void run_order(unsigned long iters, unsigned int order)
{
	struct page *held = alloc_pages(GFP_KERNEL, order);

	for (unsigned long i = 0; i < iters; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		if (page)
			__free_pages(page, order);
	}
	if (held)
		__free_pages(held, order);
}

static void run_order0(unsigned long iters)
{
	run_order(iters, 0);
}
BENCHMARK_LINUX(page_order0_pcp, PCP_ROW, NULL, "page_order0", 20000, run_order0);

#define NR_PCP		(MAX_NUMNODES * MAX_NR_ZONES)

/* Shrink this CPU's lists to one page, remembering their sizes in @saved. */
static void shrink_pcp(struct per_cpu_pages *saved)
{
	struct zone *zone;
	int i = 0;

	for_each_zone(zone) {
		struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, smp_processor_id());

		saved[i++] = *pcp;
		pcp->high = 1;
		pcp->batch = 1;
	}
}

static void restore_pcp(const struct per_cpu_pages *saved)
{
	struct zone *zone;
	int i = 0;

	for_each_zone(zone) {
		per_cpu_ptr(zone->per_cpu_pageset, smp_processor_id())->high = saved[i].high;
		per_cpu_ptr(zone->per_cpu_pageset, smp_processor_id())->batch = saved[i++].batch;
	}
}

static void run_order0_buddy(unsigned long iters)
{
	struct per_cpu_pages saved[NR_PCP];

	drain_all_pages();
	shrink_pcp(saved);
	run_order(iters, 0);
	restore_pcp(saved);
}
BENCHMARK(page_order0_buddy, "page alloc+free order-0 (buddy lists)", PCP_ROW, 20000,
	  run_order0_buddy);

static void run_order3(unsigned long iters)
{
	run_order(iters, 3);
}
BENCHMARK_LINUX(page_order3, "page alloc+free order-3", PCP_ROW, "page_order3", 10000, run_order3);

static void run_order9(unsigned long iters)
{
	run_order(iters, 9);
}
BENCHMARK_LINUX(page_order9, "page alloc+free order-9", PCP_ROW, "page_order9", 5000, run_order9);
