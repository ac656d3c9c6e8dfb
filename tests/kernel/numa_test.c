/*
 * tests/kernel/numa_test.c - NUMA nodes from the SRAT, distances from the
 * SLIT, and where allocations land.
 *
 * On the machines started with -numa (the numa lines of tests/matrix.txt)
 * the node states must say which nodes have CPUs and which have memory,
 * alloc_pages_node(nid, __GFP_THISNODE) must return a page of that node
 * for every node with memory, and a page's node must match the SRAT range
 * it lies in.  A node with CPUs but no memory (numa-q35-256M-memless) must
 * allocate from the nearest node that has memory, which is its CPUs'
 * numa_mem_id(), and __GFP_THISNODE there must fail at once, without
 * reclaim or the OOM killer.  node_distance() must say what the SLIT says (10 and 20
 * without one), each node's zonelist must list the nodes nearest first,
 * and an allocation whose node is full must land on the nearest other
 * node: the 3-node machine's SLIT makes node 2 nearer to node 0 than node
 * 1 is, so that "nearest" and "next id" differ.  The numa_* counters must
 * move exactly as Linux's zone_statistics() moves them: a hit or miss
 * against the first node of the preferred node's zonelist (the nearest
 * with memory), local or other by the allocating CPU's own node.  The checks of bad
 * SLITs run on any machine, on tables built here.  On a one-node machine
 * the cases that need two nodes skip.
 */
#include "kunit/test.h"
#include "page_alloc_test.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/slit.h"
#include "arch/x86_64/srat.h"
#include "kernel/monitor.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/vsprintf.h"
#include "mm/kvmalloc.h"

static unsigned long node_managed(int nid)
{
	unsigned long sum = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		sum += NODE_DATA(nid)->node_zones[z].managed_pages;
	return sum;
}

/*
 * N_MEMORY is exactly the nodes with pages, N_CPU the nodes of the CPUs,
 * N_ONLINE either; at least one node has memory; ids are dense.
 */
static void node_states_say_what_each_node_has(struct kunit *test)
{
	unsigned int cpu;
	int nid;

	KUNIT_ASSERT_GE(test, nr_node_ids, 1);
	KUNIT_EXPECT_GE(test, num_node_state(N_MEMORY), 1);
	KUNIT_EXPECT_EQ(test, num_node_state(N_POSSIBLE), nr_node_ids);
	for_each_node(nid) {
		bool has_cpus = false;

		for_each_online_cpu(cpu)
			has_cpus |= cpu_to_node(cpu) == nid;
		KUNIT_EXPECT_EQ_MSG(test, node_state(nid, N_MEMORY), node_managed(nid) > 0,
				    "node %d", nid);
		KUNIT_EXPECT_EQ_MSG(test, node_state(nid, N_CPU), has_cpus, "node %d", nid);
		KUNIT_EXPECT_TRUE_MSG(test, node_state(nid, N_ONLINE), "node %d", nid);
		KUNIT_EXPECT_EQ_MSG(test, node_state(nid, N_ONLINE),
				    node_state(nid, N_MEMORY) || node_state(nid, N_CPU),
				    "node %d", nid);
	}
	KUNIT_EXPECT_FALSE(test, node_state(nr_node_ids, N_POSSIBLE));
	KUNIT_EXPECT_FALSE(test, node_state(MAX_NUMNODES, N_ONLINE));
	KUNIT_EXPECT_FALSE(test, node_state(-1, N_MEMORY));
}

/* Every node with memory has its pages in the buddy allocator. */
static void every_node_with_memory_has_pages(struct kunit *test)
{
	int nid, n = 0;

	for_each_node_state(nid, N_MEMORY) {
		KUNIT_EXPECT_GT_MSG(test, node_managed(nid), 0, "node %d", nid);
		n++;
	}
	KUNIT_EXPECT_GE(test, n, 1);
}

static void thisnode_allocations_stay_on_their_node(struct kunit *test)
{
	int nid;

	if (nr_node_ids < 2)
		kunit_skip(test, "one NUMA node (no SRAT); run with -numa to test");
	for_each_node_state(nid, N_MEMORY) {
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

struct cpu_nodes {
	int node, mem;
};

static void read_node_ids(void *result)
{
	struct cpu_nodes *r = result;

	r->node = numa_node_id();
	r->mem = numa_mem_id();
}

/*
 * Each CPU's node is the SRAT's for its APIC id, seen the same from the
 * CPU itself; its memory node is its own node if that has memory, else
 * the first of its zonelist.  (Which CPU is on which node is the
 * machine's choice: -numa may put every CPU on one node, or none on some.)
 */
static void cpus_know_their_node(struct kunit *test)
{
	unsigned int cpu;

	if (nr_node_ids < 2 || num_online_cpus() < 2)
		kunit_skip(test, "needs two NUMA nodes and two CPUs");
	for_each_online_cpu(cpu) {
		struct cpu_nodes r = { -1, -1 };
		int nid = cpu_to_node(cpu);

		KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, read_node_ids, &r, 1), 0);
		KUNIT_EXPECT_EQ_MSG(test, r.node, nid, "CPU %u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, r.mem, cpu_to_mem(cpu), "CPU %u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, nid, srat_apic_to_node(cpu_apic_id(cpu)), "CPU %u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, cpu_to_mem(cpu), local_memory_node(nid), "CPU %u", cpu);
		KUNIT_EXPECT_TRUE_MSG(test, node_state(cpu_to_mem(cpu), N_MEMORY), "CPU %u", cpu);
		if (node_state(nid, N_MEMORY))
			KUNIT_EXPECT_EQ_MSG(test, cpu_to_mem(cpu), nid, "CPU %u", cpu);
	}
}

/* ---------------------------------------------------------------- distances */

#define SLIT_ENTRIES	44	/* offset of the matrix (ACPI 6.5, 5.2.17) */

/*
 * node_distance() is what the firmware's SLIT says for every pair of
 * localities the SRAT made nodes, read here byte by byte; without a SLIT,
 * or with one the kernel refused (asymmetric, say: QEMU's -numa dist makes
 * them; bad_slits_are_refused checks each reason), it is 10 for a node to
 * itself and 20 between two.
 */
static void ignore_distance(int from, int to, int distance)
{
	(void)from, (void)to, (void)distance;
}

static void distances_are_the_slits(struct kunit *test)
{
	const struct acpi_table_header *slit = acpi_find_table("SLIT");
	const u8 *entries = (const u8 *)slit + SLIT_ENTRIES;
	u64 n;
	int a, b;

	if (!slit || slit_parse_table(slit, ignore_distance) < 0) {
		for_each_node(a) {
			for_each_node(b)
				KUNIT_EXPECT_EQ_MSG(test, node_distance(a, b), a == b ? 10 : 20,
						    "no SLIT (or refused): nodes %d and %d", a, b);
		}
		return;
	}
	memcpy(&n, (const u8 *)slit + 36, sizeof(n));
	KUNIT_ASSERT_GE(test, n, nr_node_ids);
	for (u32 i = 0; i < n; i++) {
		for (u32 j = 0; j < n; j++) {
			a = pxm_to_node(i);
			b = pxm_to_node(j);
			if (a >= 0 && b >= 0)
				KUNIT_EXPECT_EQ_MSG(test, node_distance(a, b), entries[i * n + j],
						    "SLIT[%u][%u], nodes %d and %d", i, j, a, b);
		}
	}
}

/* The node that @nid's allocations fall back to first: nearest, lowest id among equals. */
static int nearest_other_node(int nid)
{
	int best = -1, other;

	for_each_node(other) {
		if (other == nid || !node_managed(other))
			continue;
		if (best < 0 || node_distance(nid, other) < node_distance(nid, best))
			best = other;
	}
	return best;
}

/* Check one node's zonelists: every node once, nearest first, zones highest first. */
static void check_zonelists(struct kunit *test, int nid)
{
	const struct zoneref *z = NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
	const struct zoneref *own = NODE_DATA(nid)->node_zonelists[ZONELIST_NOFALLBACK]._zonerefs;
	bool seen[MAX_NUMNODES] = { false };
	int last = -1, last_idx = MAX_NR_ZONES, other;

	for (; z->zone; z++) {
		int node = z->zone->node;

		KUNIT_EXPECT_PTR_EQ(test, z->zone, &NODE_DATA(node)->node_zones[z->zone_idx]);
		KUNIT_EXPECT_TRUE(test, zone_populated(z->zone));
		if (node == last) {
			KUNIT_EXPECT_LT_MSG(test, z->zone_idx, last_idx, "node %d's zones", node);
		} else {
			KUNIT_EXPECT_FALSE_MSG(test, seen[node], "node %d twice in %d's list", node,
					       nid);
			if (last < 0) {
				if (node_managed(nid))
					KUNIT_EXPECT_EQ_MSG(test, node, nid, "node %d's list starts",
							    nid);
			} else if (last != nid) {
				/* nearer first; equally near: the lower id first */
				KUNIT_EXPECT_LE(test, node_distance(nid, last), node_distance(nid, node));
				if (node_distance(nid, last) == node_distance(nid, node))
					KUNIT_EXPECT_LT(test, last, node);
			}
			seen[node] = true;
		}
		last = node;
		last_idx = z->zone_idx;
		/* __GFP_THISNODE's list is the start of this one: the node's own zones */
		if (node == nid) {
			KUNIT_EXPECT_PTR_EQ(test, own->zone, z->zone);
			own++;
		}
	}
	KUNIT_EXPECT_PTR_EQ(test, own->zone, NULL);
	for_each_node(other)
		KUNIT_EXPECT_EQ_MSG(test, seen[other], node_managed(other) != 0,
				    "node %d in node %d's list", other, nid);
}

static void zonelists_are_nearest_first(struct kunit *test)
{
	int nid;

	for_each_node(nid)
		check_zonelists(test, nid);
	/*
	 * A SLIT that puts node 2 nearer to node 0 than node 1 (tests/matrix.txt's
	 * 3-node machine): id order would not pass.  With more nodes another one
	 * may be nearer still; node 1 is not the nearest either way.
	 * (distances_are_the_slits checks that the distances are the SLIT's.)
	 */
	if (nr_node_ids >= 3 && node_distance(0, 2) < node_distance(0, 1))
		KUNIT_EXPECT_NE_MSG(test, nearest_other_node(0), 1,
				    "node 2 is nearer to node 0 (%d) than node 1 (%d)",
				    node_distance(0, 2), node_distance(0, 1));
}

/* ---------------------------------------------------------------- bad SLITs */

static struct {
	struct acpi_table_header header;
	u64 localities;
	u8 entries[16];
} __packed fake_slit;

static int distances_reported;

static void count_distance(int from, int to, int distance)
{
	(void)from;
	(void)to;
	(void)distance;
	distances_reported++;
}

/* An @n x @n SLIT with these entries (the header's length fits them). */
static void make_slit(u64 n, const u8 *entries)
{
	memset(&fake_slit, 0, sizeof(fake_slit));
	memcpy(fake_slit.header.signature, "SLIT", 4);
	fake_slit.header.length = SLIT_ENTRIES + n * n;
	fake_slit.localities = n;
	memcpy(fake_slit.entries, entries, n * n);
}

/* slit_parse_table() must refuse the fake SLIT in one line containing @why. */
static void expect_refused(struct kunit *test, const char *why)
{
	unsigned long pos = printk_log_pos();
	const char *log;

	distances_reported = 0;
	KUNIT_EXPECT_EQ_MSG(test, slit_parse_table(&fake_slit.header, count_distance), -EINVAL,
			    "%s", why);
	KUNIT_EXPECT_EQ_MSG(test, distances_reported, 0, "%s", why);
	log = log_since(pos);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "SLIT: "), 1, "%s", why);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "\n"), 1, "%s", why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, why), "%s in: %s", why, log);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "; using default distances"));
}

static void bad_slits_are_refused(struct kunit *test)
{
	static const u8 good[9] = { 10, 30, 15, 30, 10, 20, 15, 20, 10 };
	static const u8 below_ten[4] = { 10, 9, 9, 10 };
	static const u8 asymmetric[9] = { 10, 30, 15, 31, 10, 20, 15, 20, 10 };
	static const u8 local_not_nearest[9] = { 10, 30, 15, 30, 25, 20, 15, 20, 10 };
	static const u8 local_equal[4] = { 10, 10, 10, 10 };
	static const u8 zero_local[4] = { 0, 20, 20, 0 };
	int nodes = 0;

	make_slit(3, good);
	fake_slit.header.length--;
	expect_refused(test, "SLIT: length 52 does not fit 3 localities (53 bytes expected)");
	make_slit(3, good);
	fake_slit.header.length++;
	expect_refused(test, "SLIT: length 54 does not fit 3 localities");
	make_slit(3, good);
	fake_slit.header.length = 40;
	expect_refused(test, "SLIT: length 40 is shorter than the table's header (44 bytes)");
	make_slit(0, good);
	expect_refused(test, "SLIT: 0 localities (1..1024 make sense)");
	make_slit(3, good);
	fake_slit.localities = 1ULL << 32;	/* n * n is 0 in 64 bits: length 44 would fit */
	fake_slit.header.length = SLIT_ENTRIES;
	expect_refused(test, "SLIT: 4294967296 localities (1..1024 make sense)");
	make_slit(2, below_ten);
	expect_refused(test, "SLIT: distance 9 from locality 0 to 1 is below 10");
	make_slit(2, zero_local);
	expect_refused(test, "SLIT: distance 0 from locality 0 to 0 is below 10");
	make_slit(3, asymmetric);
	expect_refused(test, "SLIT: distance from locality 0 to 1 is 30 but 31 back");
	make_slit(3, local_not_nearest);
	expect_refused(test, "SLIT: locality 1 is not nearer to itself (25) than to locality 2 (20)");
	make_slit(2, local_equal);
	expect_refused(test, "SLIT: locality 0 is not nearer to itself (10) than to locality 1 (10)");

	/* A good table is taken: a distance for every pair of localities that are nodes. */
	for (u32 i = 0; i < 3; i++)
		nodes += pxm_to_node(i) >= 0;
	make_slit(3, good);
	distances_reported = 0;
	KUNIT_EXPECT_EQ(test, slit_parse_table(&fake_slit.header, count_distance), 3);
	KUNIT_EXPECT_EQ(test, distances_reported, nodes * nodes);
}

static void bad_distances_are_ignored(struct kunit *test)
{
	unsigned long pos = printk_log_pos();
	int before = node_distance(0, 0);

	numa_set_distance(MAX_NUMNODES, 0, 20);
	numa_set_distance(0, -1, 20);
	numa_set_distance(0, 0, 9);
	numa_set_distance(0, 0, 256);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "NUMA: invalid distance parameter"), 4);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(pos), "from=0 to=0 distance=9; ignored"));
	KUNIT_EXPECT_EQ(test, node_distance(0, 0), before);
	/* node ids the table cannot hold get Linux's defaults */
	KUNIT_EXPECT_EQ(test, node_distance(MAX_NUMNODES, 0), 20);
	KUNIT_EXPECT_EQ(test, node_distance(-1, -1), 10);
}

/* ---------------------------------------------------------------- numa_* counters */

/* This CPU's numa_* counters of every node (other CPUs' allocations do not move them). */
struct numa_counts {
	unsigned long c[NR_VM_NUMA_EVENT_ITEMS][MAX_NUMNODES];
};

static void numa_counts_take(struct numa_counts *s)
{
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		for (int nid = 0; nid < MAX_NUMNODES; nid++)
			s->c[i][nid] = cpu_numa_event(smp_processor_id(), nid, i);
	}
}

/*
 * Since @then, one allocation placed on @nid although @preferred was
 * preferred: exactly the counters Linux's zone_statistics() moves, by one.
 */
static void expect_counted(struct kunit *test, const struct numa_counts *then, int preferred,
			   int nid, const char *what)
{
	struct numa_counts want = *then, now;

	if (nid == preferred) {
		want.c[NUMA_HIT][nid]++;
	} else {
		want.c[NUMA_MISS][nid]++;
		want.c[NUMA_FOREIGN][preferred]++;
	}
	want.c[nid == numa_node_id() ? NUMA_LOCAL : NUMA_OTHER][nid]++;
	numa_counts_take(&now);
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		for (int n = 0; n < MAX_NUMNODES; n++)
			KUNIT_EXPECT_EQ_MSG(test, now.c[i][n], want.c[i][n], "%s: %s of node %d",
					    what, numa_event_names[i], n);
	}
}

/* Allocate order @order on @nid with @gfp, check the counters and the node, free it. */
static void alloc_and_count(struct kunit *test, int nid, gfp_t gfp, unsigned int order,
			    int expect_nid, const char *what)
{
	struct numa_counts then;
	struct page *page;

	numa_counts_take(&then);
	page = alloc_pages_node(nid, gfp, order);
	KUNIT_EXPECT_NOT_NULL_MSG(test, page, "%s", what);
	if (!page)
		return;		/* no ASSERT: fall_back_from() must still free its node */
	KUNIT_EXPECT_EQ_MSG(test, page_to_nid(page), expect_nid, "%s", what);
	/* Linux's preferred zone: the first usable one of the zonelist */
	expect_counted(test, &then, local_memory_node(nid == NUMA_NO_NODE ? numa_mem_id() : nid),
		       expect_nid, what);
	__free_pages(page, order);
}

/* Local: this CPU's memory node (its own, unless that has none: then "other"). */
static void local_allocations_are_hits(struct kunit *test)
{
	int here = numa_mem_id();

	alloc_and_count(test, here, GFP_KERNEL, 0, here, "this node, order 0");
	alloc_and_count(test, here, GFP_KERNEL, 3, here, "this node, order 3 (counted once)");
	alloc_and_count(test, NUMA_NO_NODE, GFP_KERNEL, 0, here, "NUMA_NO_NODE");
	alloc_and_count(test, here, GFP_KERNEL | __GFP_THISNODE, 0, here, "this node, THISNODE");
}

static void allocations_on_another_node_are_hits_and_other(struct kunit *test)
{
	int here = numa_mem_id(), nid;

	if (nr_node_ids < 2)
		kunit_skip(test, "one NUMA node (no SRAT); run with -numa to test");
	for_each_node_state(nid, N_MEMORY) {
		if (nid == here)
			continue;
		alloc_and_count(test, nid, GFP_KERNEL, 0, nid, "another node");
		alloc_and_count(test, nid, GFP_KERNEL | __GFP_THISNODE, 1, nid,
				"another node, THISNODE");
	}
}

/* An allocation made on another CPU, with that CPU's counters before and after. */
struct remote_alloc {
	int nid;
	struct page *page;
	struct numa_counts then, now;
};

static void alloc_on_this_cpu(void *info)
{
	struct remote_alloc *r = info;

	numa_counts_take(&r->then);
	r->page = alloc_pages_node(r->nid, GFP_NOWAIT, 0);	/* an IPI: interrupts are off */
	numa_counts_take(&r->now);
	if (r->page)
		__free_pages(r->page, 0);
}

/*
 * Local and other go by the allocating CPU's own node: check them from
 * every CPU, for every node (one without memory gives its nearest's
 * pages, a hit there: the preferred zone is the zonelist's first).
 */
static void local_and_other_follow_the_allocating_cpu(struct kunit *test)
{
	unsigned int cpu;
	int nid;

	if (nr_node_ids < 2 || num_online_cpus() < 2)
		kunit_skip(test, "needs two NUMA nodes and two CPUs");
	for_each_online_cpu(cpu) {
		for_each_node(nid) {
			struct remote_alloc r = { .nid = nid };
			int mem = local_memory_node(nid);
			enum numa_stat_item item = mem == cpu_to_node(cpu) ? NUMA_LOCAL : NUMA_OTHER;

			KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, alloc_on_this_cpu, &r, 1),
					0);
			KUNIT_EXPECT_NOT_NULL_MSG(test, r.page, "CPU %u, node %d", cpu, nid);
			if (!r.page)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, page_to_nid(r.page), mem, "CPU %u, node %d", cpu, nid);
			KUNIT_EXPECT_EQ_MSG(test, r.now.c[item][mem], r.then.c[item][mem] + 1,
					    "CPU %u (node %d), allocating on node %d: %s of node %d",
					    cpu, cpu_to_node(cpu), nid, numa_event_names[item], mem);
			KUNIT_EXPECT_EQ_MSG(test, r.now.c[NUMA_HIT][mem], r.then.c[NUMA_HIT][mem] + 1,
					    "CPU %u, node %d", cpu, nid);
		}
	}
}

/* Take every page of node @nid that GFP_NOWAIT may take (down to its min watermarks). */
static void fill_node(struct held_pages *h, int nid)
{
	gfp_t gfp = GFP_NOWAIT | __GFP_THISNODE | __GFP_NOWARN;
	struct page *page;

	for (int o = MAX_PAGE_ORDER; o >= 0; o--) {
		while ((page = alloc_pages_node(nid, gfp, o)))
			held_add(h, page, o);
	}
	drain_all_pages();	/* single pages on the per-CPU lists are free too */
	while ((page = alloc_pages_node(nid, gfp, 0)))
		held_add(h, page, 0);
}

/*
 * With node @full out of memory, its allocations land on the nearest other
 * node, counted as a miss there and a foreign here; __GFP_THISNODE fails
 * and counts nothing.
 */
static void fall_back_from(struct kunit *test, int full)
{
	int nearest = nearest_other_node(full);
	struct numa_counts then, now;
	struct held_pages h;
	struct page *page;

	held_init(&h);
	fill_node(&h, full);
	KUNIT_EXPECT_GT(test, h.nr_pages, 0);
	alloc_and_count(test, full, GFP_KERNEL, 0, nearest, "preferred node full, order 0");
	alloc_and_count(test, full, GFP_KERNEL, 2, nearest, "preferred node full, order 2");
	numa_counts_take(&then);
	page = alloc_pages_node(full, GFP_NOWAIT | __GFP_THISNODE | __GFP_NOWARN, 0);
	numa_counts_take(&now);
	KUNIT_EXPECT_NULL(test, page);
	KUNIT_EXPECT_MEMEQ(test, &now, &then, sizeof(now));
	if (page)
		__free_pages(page, 0);
	held_free_all(&h);
}

static void full_node_falls_back_to_the_nearest(struct kunit *test)
{
	int here = numa_mem_id(), nid;

	if (num_node_state(N_MEMORY) < 2)
		kunit_skip(test, "needs two NUMA nodes with memory; run with -numa to test");
	/* this CPU's node (the nearest is another CPU's) and another (maybe ours is nearest) */
	fall_back_from(test, here);
	for_each_node_state(nid, N_MEMORY) {
		if (nid != here) {
			fall_back_from(test, nid);
			break;
		}
	}
}

/* ---------------------------------------------------------------- memoryless nodes */

/* Skip unless some node has CPUs but no memory. */
static void need_memoryless_node(struct kunit *test)
{
	if (num_node_state(N_MEMORY) == nr_node_ids)
		kunit_skip(test, "every node has memory; numa-q35-256M-memless has one without");
}

/*
 * A node without memory: its zonelist has other nodes' zones only, so its
 * allocations land on the nearest node that has memory, counted there as
 * hits (the zonelist's first zone is the preferred one); and a CPU of it
 * has that node as numa_mem_id(), and allocates there, never "local".
 */
static void memoryless_node_allocates_from_nearest(struct kunit *test)
{
	unsigned int cpu;
	int nid;

	need_memoryless_node(test);
	for_each_online_node(nid) {
		int nearest = nearest_other_node(nid);

		if (node_state(nid, N_MEMORY))
			continue;
		KUNIT_ASSERT_GE_MSG(test, nearest, 0, "node %d", nid);
		KUNIT_EXPECT_EQ_MSG(test, local_memory_node(nid), nearest, "node %d", nid);
		KUNIT_EXPECT_NULL(test,
				  NODE_DATA(nid)->node_zonelists[ZONELIST_NOFALLBACK]._zonerefs[0].zone);
		alloc_and_count(test, nid, GFP_KERNEL, 0, nearest, "memoryless node, order 0");
		alloc_and_count(test, nid, GFP_KERNEL, 3, nearest, "memoryless node, order 3");
		for_each_online_cpu(cpu) {
			struct remote_alloc r = { .nid = NUMA_NO_NODE };

			if (cpu_to_node(cpu) != nid)
				continue;
			KUNIT_EXPECT_EQ_MSG(test, cpu_to_mem(cpu), nearest, "CPU %u", cpu);
			KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, alloc_on_this_cpu, &r, 1),
					0);
			KUNIT_ASSERT_NOT_NULL_MSG(test, r.page, "CPU %u", cpu);
			KUNIT_EXPECT_EQ_MSG(test, page_to_nid(r.page), nearest, "CPU %u", cpu);
			KUNIT_EXPECT_EQ(test, r.now.c[NUMA_HIT][nearest], r.then.c[NUMA_HIT][nearest] + 1);
			KUNIT_EXPECT_EQ(test, r.now.c[NUMA_OTHER][nearest],
					r.then.c[NUMA_OTHER][nearest] + 1);
			KUNIT_EXPECT_EQ(test, r.now.c[NUMA_LOCAL][nearest], r.then.c[NUMA_LOCAL][nearest]);
			KUNIT_EXPECT_EQ(test, r.now.c[NUMA_MISS][nearest], r.then.c[NUMA_MISS][nearest]);
		}
	}
}

/*
 * __GFP_THISNODE on a node without memory: NULL at once, as Linux - no
 * reclaim, no OOM killer, no numa_* counter moves - and one "page
 * allocation failure" report per call unless __GFP_NOWARN.
 */
static void thisnode_on_a_memoryless_node_fails_at_once(struct kunit *test)
{
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_ATOMIC, GFP_KERNEL | __GFP_RETRY_MAYFAIL };
	int nid;

	need_memoryless_node(test);
	kunit_expect_report(test, "page allocation failure: order:0");
	for_each_online_node(nid) {
		unsigned long stalls = global_vm_event(ALLOCSTALL);
		unsigned long fails = global_vm_event(PGALLOC_FAIL);
		unsigned long pos = printk_log_pos();
		struct numa_counts then, now;
		struct page *page;

		if (node_state(nid, N_MEMORY))
			continue;
		numa_counts_take(&then);
		for (unsigned int i = 0; i < ARRAY_SIZE(gfps); i++) {
			page = alloc_pages_node(nid, gfps[i] | __GFP_THISNODE | __GFP_NOWARN, i);
			KUNIT_EXPECT_NULL_MSG(test, page, "node %d, gfp %#x", nid, gfps[i]);
		}
		KUNIT_EXPECT_STREQ(test, log_since(pos), "");
		page = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE, 0);
		KUNIT_EXPECT_NULL(test, page);
		numa_counts_take(&now);
		KUNIT_EXPECT_MEMEQ(test, &now, &then, sizeof(now));
		KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "page allocation failure"), 1);
		KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "oom-killer"), 0);
		KUNIT_EXPECT_EQ(test, global_vm_event(ALLOCSTALL), stalls);
		KUNIT_EXPECT_EQ(test, global_vm_event(PGALLOC_FAIL), fails + ARRAY_SIZE(gfps) + 1);
	}
}

/*
 * The monitor's `numa` shows a node without memory as such: 0 MB, the
 * node its CPUs allocate from, its CPUs, and the node states.
 */
static void monitor_shows_memoryless_nodes(struct kunit *test)
{
	char cmd[] = "numa", want[96];
	unsigned long pos = printk_log_pos();
	const char *log;
	int nid;

	KUNIT_ASSERT_EQ(test, monitor_execute(cmd), 0);
	log = log_since(pos);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log, "node states: online "));
	for_each_node(nid) {
		bool memoryless = !node_state(nid, N_MEMORY);

		snprintf(want, sizeof(want), "node %d size: 0 MB (no memory: its CPUs allocate "
			 "from node %d)\n", nid, local_memory_node(nid));
		KUNIT_EXPECT_EQ_MSG(test, strstr(log, want) != NULL, memoryless, "%s", want);
	}
	need_memoryless_node(test);
	snprintf(want, sizeof(want), "has_memory 0-%u\n", nr_node_ids - 1);
	KUNIT_EXPECT_NULL_MSG(test, strstr(log, want), "not every node has memory");
}

/*
 * A node number that names no node (nr_node_ids and above, or negative
 * but not NUMA_NO_NODE) is bad input, on any machine: each allocator says
 * so in one line that names itself and the caller (not with
 * __GFP_NOWARN).  With __GFP_THISNODE the allocation fails, since only that
 * node would do; without, the memory comes from the local node.  It once
 * quietly meant the local node even under __GFP_THISNODE (found by a suite
 * written outside the repository).
 */
static void nonexistent_node_is_reported(struct kunit *test)
{
	const int bad[] = { (int)nr_node_ids, (int)nr_node_ids + 5, MAX_NUMNODES, -2 };
	static const char *const fns[] = {
		"alloc_pages_node", "alloc_pages_bulk_node", "kmem_cache_alloc_node",
		"kmalloc_node", "kvmalloc_node",
	};
	volatile size_t runtime_64 = 64, runtime_3_pages = 3 * PAGE_SIZE;
	const gfp_t thisnode = GFP_KERNEL | __GFP_THISNODE;
	struct page *pages[4];

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		int nid = bad[i];
		unsigned long pos = printk_log_pos();
		struct page *page;
		const char *log;
		char line[96];
		void *p;

		KUNIT_EXPECT_NULL(test, alloc_pages_node(nid, thisnode, 0));
		KUNIT_EXPECT_EQ(test, alloc_pages_bulk_node(thisnode, nid, 4, pages), 0);
		KUNIT_EXPECT_NULL(test, kmem_cache_alloc_node(kmalloc_caches[kmalloc_index(64)],
							      thisnode, nid));
		KUNIT_EXPECT_NULL(test, kmalloc_node(runtime_64, thisnode, nid));
		KUNIT_EXPECT_NULL(test, kvmalloc_node(runtime_3_pages, thisnode, nid));
		log = log_since(pos);
		KUNIT_EXPECT_EQ(test, count_substr(log, "does not exist"), ARRAY_SIZE(fns));
		for (unsigned int f = 0; f < ARRAY_SIZE(fns); f++) {
			snprintf(line, sizeof(line), "%s: node %d does not exist (nr_node_ids %u), "
				 "caller nonexistent_node_is_reported+", fns[f], nid, nr_node_ids);
			KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log, line), "%s", line);
		}
		KUNIT_EXPECT_EQ(test, count_substr(log, "failed (__GFP_THISNODE)"), ARRAY_SIZE(fns));

		/* a size known when compiled goes inline to its size class, and is still kmalloc_node */
		pos = printk_log_pos();
		KUNIT_EXPECT_NULL(test, kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE, nid));
		snprintf(line, sizeof(line), "kmalloc_node: node %d does not exist", nid);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(log_since(pos), line), "%s", line);

		/* without __GFP_THISNODE: the local node's memory, and the same report */
		pos = printk_log_pos();
		page = alloc_pages_node(nid, GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_EQ(test, page_to_nid(page), numa_mem_id());
		__free_pages(page, 0);
		p = vmalloc_node(runtime_3_pages, nid);
		KUNIT_EXPECT_NOT_NULL(test, p);
		vfree(p);
		log = log_since(pos);
		KUNIT_EXPECT_EQ(test, count_substr(log, "using the local node"), 2);
		snprintf(line, sizeof(line), "vmalloc_node: node %d does not exist", nid);
		KUNIT_EXPECT_NOT_NULL(test, strstr(log, line));

		/* __GFP_NOWARN: the same answer, in silence */
		pos = printk_log_pos();
		KUNIT_EXPECT_NULL(test, alloc_pages_node(nid, thisnode | __GFP_NOWARN, 0));
		KUNIT_EXPECT_NULL(test, kmalloc_node(runtime_64, thisnode | __GFP_NOWARN, nid));
		KUNIT_EXPECT_EQ(test, printk_log_pos(), pos);
	}
}

static struct kunit_case numa_cases[] = {
	KUNIT_CASE(cpus_know_their_node),
	KUNIT_CASE(node_states_say_what_each_node_has),
	KUNIT_CASE(every_node_with_memory_has_pages),
	KUNIT_CASE(thisnode_allocations_stay_on_their_node),
	KUNIT_CASE(node_of_a_page_matches_its_zone_span),
	KUNIT_CASE(distances_are_the_slits),
	KUNIT_CASE(zonelists_are_nearest_first),
	KUNIT_CASE(bad_slits_are_refused),
	KUNIT_CASE(bad_distances_are_ignored),
	KUNIT_CASE(local_allocations_are_hits),
	KUNIT_CASE(allocations_on_another_node_are_hits_and_other),
	KUNIT_CASE(local_and_other_follow_the_allocating_cpu),
	KUNIT_CASE(full_node_falls_back_to_the_nearest),
	KUNIT_CASE(memoryless_node_allocates_from_nearest),
	KUNIT_CASE(thisnode_on_a_memoryless_node_fails_at_once),
	KUNIT_CASE(monitor_shows_memoryless_nodes),
	KUNIT_CASE(nonexistent_node_is_reported),
	{}
};
static struct kunit_suite numa_suite = {
	.name = "numa",
	.test_cases = numa_cases,
	.strict = true,
};
kunit_test_suite(numa_suite);
