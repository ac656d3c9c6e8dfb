/*
 * tests/kernel/numa_test.c - NUMA nodes from the SRAT reach the allocator.
 *
 * On a machine started with -numa (see the numa line of tests/matrix.txt)
 * every node must have memory, alloc_pages_node(nid, __GFP_THISNODE) must
 * return a page of that node, and a page's node must match the SRAT range
 * it lies in.  On a one-node machine the cases that need two nodes skip.
 */
#include "kunit/test.h"
#include "mm/mmzone.h"
#include "kernel/smp.h"

static unsigned long node_managed(int nid)
{
	unsigned long sum = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		sum += NODE_DATA(nid)->node_zones[z].managed_pages;
	return sum;
}

static void every_node_has_memory(struct kunit *test)
{
	int nid;

	KUNIT_ASSERT_GE(test, nr_node_ids, 1);
	for_each_node(nid)
		KUNIT_EXPECT_GT_MSG(test, node_managed(nid), 0, "node %d", nid);
}

static void thisnode_allocations_stay_on_their_node(struct kunit *test)
{
	int nid;

	if (nr_node_ids < 2)
		kunit_skip(test, "one NUMA node (no SRAT); run with -numa to test");
	for_each_node(nid) {
		struct page *page = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE, 0);
		struct page *big = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE, 4);

		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_EQ(test, page_to_nid(page), nid);
		KUNIT_EXPECT_EQ(test, page_zone(page)->node, nid);
		if (big) {
			KUNIT_EXPECT_EQ(test, page_to_nid(big), nid);
			__free_pages(big, 4);
		}
		__free_pages(page, 0);
	}
}

static void node_of_a_page_matches_its_zone_span(struct kunit *test)
{
	int nid;

	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];
			unsigned long pfn;

			if (!zone_populated(zone))
				continue;
			/* first and last frames of the span that are RAM */
			for (pfn = zone->zone_start_pfn; PageReserved(pfn_to_page(pfn)); pfn++)
				;
			KUNIT_EXPECT_EQ(test, page_to_nid(pfn_to_page(pfn)), nid);
			KUNIT_EXPECT_EQ(test, page_zonenum(pfn_to_page(pfn)), (unsigned int)z);
		}
	}
}

static void read_node_id(void *result)
{
	*(int *)result = numa_node_id();
}

/* The matrix's numa line puts CPU n on node n. */
static void cpus_know_their_node(struct kunit *test)
{
	unsigned int cpu;

	if (nr_node_ids < 2 || num_online_cpus() < 2)
		kunit_skip(test, "needs two NUMA nodes and two CPUs");
	for_each_online_cpu(cpu) {
		int nid = -1;

		if (cpu >= nr_node_ids)
			break;
		KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, read_node_id, &nid, 1), 0);
		KUNIT_EXPECT_EQ_MSG(test, nid, (int)cpu, "CPU %u", cpu);
	}
}

static struct kunit_case numa_cases[] = {
	KUNIT_CASE(cpus_know_their_node),
	KUNIT_CASE(every_node_has_memory),
	KUNIT_CASE(thisnode_allocations_stay_on_their_node),
	KUNIT_CASE(node_of_a_page_matches_its_zone_span),
	{}
};
static struct kunit_suite numa_suite = { .name = "numa", .test_cases = numa_cases };
kunit_test_suite(numa_suite);
