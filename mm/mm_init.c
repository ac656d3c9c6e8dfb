/*
 * mm/mm_init.c - from memblock's list of ranges to working buddy allocators.
 *
 * Four steps, in this order (mm_core_init()):
 *   1. free_area_init(): give every page frame its struct page (reserved
 *      for now, tagged with its node and zone) and size every node's zones;
 *   2. memblock_free_all(): hand every RAM page that memblock did not
 *      reserve to the buddy allocator, in the largest aligned blocks that fit;
 *   3. build_all_zonelists(): for every node, the order in which an
 *      allocation tries the zones: the node's own, then the other nodes',
 *      nearest first by node_distance() (the SLIT's figures, given to
 *      numa_set_distance() before all this); and for every CPU the nearest
 *      node with memory, numa_mem_id() (its own, unless it has none);
 *   4. setup_per_zone_wmarks(): derive each zone's watermarks and reserves
 *      from its size, and size the per-CPU lists.
 *
 * Which page frames have a struct page at all is recorded per "section" of
 * 16 MiB (PFN_SECTION_SHIFT): a section with any RAM in it has struct pages
 * for all its frames, a section without RAM has none.  pfn_valid() is one
 * bit test.  This is Linux's SPARSEMEM_VMEMMAP model, with small sections.
 * Below max_pfn, a section without RAM still reads as struct pages: its
 * part of vmemmap maps one zeroed page, read-only (mm/init.c), so kfree()
 * can look at the struct page of any address below max_pfn before it asks
 * pfn_valid(): a zeroed struct page is nobody's slab.
 *
 * This file is apart from mm/init.c so that the host tests can build it:
 * mm/init.c does the kernel-only part (page tables, mapping vmemmap)
 * before calling mm_core_init().
 */
#include "mm/internal.h"
#include "mm/memblock.h"
#include "mm/percpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"


pg_data_t node_data[MAX_NUMNODES];
unsigned int nr_node_ids = 1;
unsigned long max_pfn;
unsigned long totalram_pages;
unsigned long reserved_pages;
DEFINE_PER_CPU(int, numa_node);	/* each CPU's node (Linux's numa_node) */
DEFINE_PER_CPU(int, numa_mem);	/* the nearest node with memory to each CPU */
nodemask_t node_states[NR_NODE_STATES];
/* The SLIT's distances; 0 where none was given (node_distance() has the defaults) */
static u8 numa_distance[MAX_NUMNODES][MAX_NUMNODES];
unsigned long section_present[NR_MEM_SECTIONS / 64];
static nodemask_t memoryless_reported;	/* set_cpu_numa_node() said so once per node */
static nodemask_t fallback_printed;	/* nodes whose "Fallback order" boot line is out */
static void print_fallback_orders(void);

static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal" };
static const unsigned long zone_end_pfns[MAX_NR_ZONES] = {
	ZONE_DMA_END_PFN, ZONE_DMA32_END_PFN, ~0UL
};
/* 1/ratio of the zones above is kept back from them (Linux's lowmem_reserve_ratio) */
static const unsigned long lowmem_reserve_ratio = 256;

/** sparse_mark_present - frames [@start_pfn, @end_pfn) have struct pages */
void sparse_mark_present(unsigned long start_pfn, unsigned long end_pfn)
{
	for (unsigned long s = start_pfn >> PFN_SECTION_SHIFT;
	     s <= (end_pfn - 1) >> PFN_SECTION_SHIFT && s < NR_MEM_SECTIONS; s++)
		section_present[s / 64] |= 1UL << (s % 64);
	if (end_pfn > max_pfn)
		max_pfn = end_pfn;
}

/** sparse_reset - forget every present section (host tests boot many fake machines) */
void sparse_reset(void)
{
	memset(section_present, 0, sizeof(section_present));
	max_pfn = 0;
}

/**
 * update_cpu_node_states - the node states that follow from where the CPUs are
 *
 * N_CPU: the nodes of the online CPUs (as Linux sets it when a CPU comes
 * online: a CPU that smp_init() had to leave out does not count).
 * N_ONLINE: the nodes of the possible CPUs, and those with memory.
 * N_POSSIBLE: every id below nr_node_ids, which grows to take in a node
 * that has CPUs only.  N_MEMORY was set when the buddy allocator got its
 * memory (build_all_zonelists()).
 * Context: boot; kmain() calls it again once smp_init() has started the CPUs.
 */
void update_cpu_node_states(void)
{
	unsigned long possible = 0, online = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		possible |= 1UL << cpu_to_node(cpu);
	for_each_online_cpu(cpu)
		online |= 1UL << cpu_to_node(cpu);
	WRITE_ONCE(node_states[N_CPU].bits, online);
	WRITE_ONCE(node_states[N_ONLINE].bits, possible | node_states[N_MEMORY].bits);
	while (node_states[N_ONLINE].bits >> nr_node_ids)
		nr_node_ids++;
	WRITE_ONCE(node_states[N_POSSIBLE].bits, (1UL << nr_node_ids) - 1);
}

/**
 * set_cpu_numa_node - record that @cpu belongs to node @nid (from the ACPI SRAT)
 * @cpu: a possible CPU
 * @nid: its node; it need not have memory (a memoryless node)
 *
 * Also sets the CPU's numa_mem_id(): @nid itself, or if @nid has no memory
 * the nearest node that has (the first of @nid's zonelist).  A node that
 * has CPUs but no memory is reported once, as Linux reports it; if @nid
 * was not known before, its "Fallback order" line is printed now.
 * Context: boot, after mm_core_init() (the zonelists) and before the CPU
 * allocates; the host tests call it on each fake machine.
 */
void set_cpu_numa_node(unsigned int cpu, int nid)
{
	if (cpu >= NR_CPUS || !cpu_possible(cpu) || nid < 0 || nid >= MAX_NUMNODES)
		return;
	per_cpu(numa_node, cpu) = nid;
	per_cpu(numa_mem, cpu) = local_memory_node(nid);
	update_cpu_node_states();
	if (!node_state(nid, N_MEMORY) && !(memoryless_reported.bits & (1UL << nid))) {
		memoryless_reported.bits |= 1UL << nid;
		pr_info("Initmem setup node %d as memoryless: its CPUs use node %d's memory\n",
			nid, local_memory_node(nid));
	}
	print_fallback_orders();	/* for @nid, if it just made nr_node_ids grow */
}

/**
 * numa_set_distance - record the firmware's distance from node @from to node @to
 * @from: node of the CPU
 * @to: node of the memory
 * @distance: LOCAL_DISTANCE (10) for a node to itself, more for others
 *
 * Called for each pair of nodes the ACPI SLIT names, before mm_core_init()
 * builds the zonelists from them (arch/x86_64/slit.c has checked the whole
 * table).  A node id or distance out of range is reported and ignored.
 * Context: boot.
 */
void numa_set_distance(int from, int to, int distance)
{
	if (from < 0 || from >= MAX_NUMNODES || to < 0 || to >= MAX_NUMNODES ||
	    distance < LOCAL_DISTANCE || distance > 255) {
		pr_warn("NUMA: invalid distance parameter, from=%d to=%d distance=%d; ignored\n",
			from, to, distance);
		return;
	}
	numa_distance[from][to] = (u8)distance;
}

/** numa_reset_distance - forget the SLIT's distances (host tests boot many machines) */
void numa_reset_distance(void)
{
	memset(numa_distance, 0, sizeof(numa_distance));
}

/**
 * node_distance - how far memory of node @to is from a CPU of node @from
 *
 * Return: the SLIT's figure, else LOCAL_DISTANCE (10) for a node to
 * itself and REMOTE_DISTANCE (20) between two nodes, as Linux (also for
 * node ids the table cannot hold).
 */
int node_distance(int from, int to)
{
	if ((unsigned int)from < MAX_NUMNODES && (unsigned int)to < MAX_NUMNODES &&
	    numa_distance[from][to])
		return numa_distance[from][to];
	return from == to ? LOCAL_DISTANCE : REMOTE_DISTANCE;
}

static enum zone_type pfn_zone(unsigned long pfn)
{
	enum zone_type z = ZONE_DMA;

	while (pfn >= zone_end_pfns[z])
		z++;
	return z;
}

static void set_page_links(struct page *page, unsigned long pfn, int nid)
{
	page->flags = ((unsigned long)nid << NODES_SHIFT) |
		      ((unsigned long)pfn_zone(pfn) << ZONES_SHIFT) | (1UL << PG_reserved);
	page->private = 0;
	page->lru.next = page->lru.prev = NULL;
}

/* Every frame with a struct page starts reserved; RAM frames get their node. */
static void memmap_init(void)
{
	const struct memblock_region *r;

	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		if (!pfn_valid(pfn)) {
			pfn |= (1UL << PFN_SECTION_SHIFT) - 1;	/* skip the whole section */
			continue;
		}
		set_page_links(pfn_to_page(pfn), pfn, 0);
	}
	for_each_memblock(memory, r) {
		for (unsigned long pfn = r->base >> PAGE_SHIFT;
		     pfn < (r->base + r->size) >> PAGE_SHIFT; pfn++)
			set_page_links(pfn_to_page(pfn), pfn, r->nid);
	}
}

static void zone_init(struct zone *zone, int nid, enum zone_type z)
{
	unsigned int cpu;

	spin_lock_init(&zone->lock);
	zone->node = nid;
	zone->name = zone_names[z];
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
	}
	zone->per_cpu_pageset = alloc_percpu(struct per_cpu_pages);
	if (!zone->per_cpu_pageset)
		panic("mm: no per-CPU memory for the %s zone's page lists", zone->name);
	for_each_possible_cpu(cpu) {
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			INIT_LIST_HEAD(&per_cpu_ptr(zone->per_cpu_pageset, cpu)->lists[mt]);
	}
}

/* Widen @zone's span to include RAM frames [start, end). */
static void zone_add_span(struct zone *zone, unsigned long start, unsigned long end)
{
	unsigned long zone_end = zone_end_pfn(zone);

	if (!zone->spanned_pages) {
		zone->zone_start_pfn = start;
		zone_end = end;
	}
	zone->zone_start_pfn = min(zone->zone_start_pfn, start);
	zone->spanned_pages = max(zone_end, end) - zone->zone_start_pfn;
	zone->present_pages += end - start;
}

/**
 * free_area_init - set up nodes, zones and every struct page
 *
 * Context: boot, after memblock knows all RAM and vmemmap is backed.
 */
/*
 * A byte per pageblock of each zone's span, every one MIGRATE_MOVABLE to
 * begin with, as Linux's memmap_init() leaves them: the kernel's own
 * allocations then claim the pageblocks they need (__rmqueue_fallback()).
 */
static void pageblock_init(void)
{
	struct zone *zone;

	for_each_zone(zone) {
		unsigned long n;

		if (!zone->spanned_pages)
			continue;
		n = ((zone_end_pfn(zone) - 1) >> pageblock_order) -
		    (zone->zone_start_pfn >> pageblock_order) + 1;
		zone->pageblock_flags = pageblock_flags_alloc(n);
		if (!zone->pageblock_flags)
			panic("mm: no memory for the %s zone's %lu pageblock types", zone->name, n);
		memset(zone->pageblock_flags, MIGRATE_MOVABLE, n);
	}
}

void free_area_init(void)
{
	const struct memblock_region *r;

	for (unsigned int nid = 0; nid < MAX_NUMNODES; nid++) {	/* a host test's last machine */
		for (int z = 0; z < MAX_NR_ZONES; z++)
			free_percpu(node_data[nid].node_zones[z].per_cpu_pageset);
	}
	memset(node_data, 0, sizeof(node_data));
	memset(node_states, 0, sizeof(node_states));
	memoryless_reported.bits = 0;
	fallback_printed.bits = 0;
	totalram_pages = 0;	/* counted again by memblock_free_all() */
	nr_node_ids = 1;
	for_each_memblock(memory, r) {
		if (r->nid + 1 > (int)nr_node_ids)
			nr_node_ids = r->nid + 1;
	}
	/*
	 * Every node id, not only those with memory: a node with CPUs only is
	 * known later (set_cpu_numa_node()), and its empty zones must be
	 * whole ones too (for_each_zone() walks them).
	 */
	for (unsigned int nid = 0; nid < MAX_NUMNODES; nid++) {
		node_data[nid].node_id = (int)nid;
		for (int z = 0; z < MAX_NR_ZONES; z++)
			zone_init(&node_data[nid].node_zones[z], (int)nid, z);
	}
	for_each_memblock(memory, r) {
		unsigned long start = r->base >> PAGE_SHIFT, end = (r->base + r->size) >> PAGE_SHIFT;
		pg_data_t *pgdat = NODE_DATA(r->nid);

		for (int z = 0; z < MAX_NR_ZONES; z++) {
			unsigned long lo = max(start, z ? zone_end_pfns[z - 1] : 0);
			unsigned long hi = min(end, zone_end_pfns[z]);

			if (lo < hi)
				zone_add_span(&pgdat->node_zones[z], lo, hi);
		}
	}
	pageblock_init();
	memmap_init();
}

/* Give frames [start, end) to the buddy allocator in the largest aligned blocks. */
static void free_range(unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end; pfn++)
		page_clear(pfn_to_page(pfn), PG_reserved);
	while (start < end) {
		unsigned int order = MAX_PAGE_ORDER;
		struct page *page = pfn_to_page(start);
		struct zone *zone = page_zone(page);

		/* aligned, inside the range, and not across a zone boundary */
		while (order && ((start & ((1UL << order) - 1)) || start + (1UL << order) > end ||
				 start + (1UL << order) > zone_end_pfn(zone)))
			order--;
		zone->managed_pages += 1UL << order;
		totalram_pages += 1UL << order;
		spin_lock(&zone->lock);		/* as every change to the free lists */
		__free_one_page(page, start, zone, order);
		spin_unlock(&zone->lock);
		start += 1UL << order;
	}
}

/**
 * memblock_free_all - hand every unreserved RAM page to the buddy allocator
 *
 * Context: boot, after free_area_init().  memblock must not allocate after this.
 */
void memblock_free_all(void)
{
	const struct memblock_region *m, *res;

	for_each_memblock(memory, m) {
		unsigned long cursor = ALIGN(m->base, PAGE_SIZE) >> PAGE_SHIFT;
		unsigned long end = (m->base + m->size) >> PAGE_SHIFT;

		for_each_memblock(reserved, res) {
			unsigned long rs = res->base >> PAGE_SHIFT;
			unsigned long re = ALIGN(res->base + res->size, PAGE_SIZE) >> PAGE_SHIFT;

			if (re <= cursor || rs >= end)
				continue;
			if (rs > cursor)
				free_range(cursor, rs);
			cursor = max(cursor, re);
		}
		if (cursor < end)
			free_range(cursor, end);
	}
	reserved_pages = (memblock_phys_mem_size() >> PAGE_SHIFT) - totalram_pages;
}

/* Does node @nid have memory for the buddy allocator?  (Then it is N_MEMORY.) */
static bool node_has_memory(int nid)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		if (zone_populated(&NODE_DATA(nid)->node_zones[z]))
			return true;
	}
	return false;
}

/*
 * The node that @node falls back to next: of the nodes with memory not yet
 * @used, the nearest, and of equally near ones the lowest id; -1 when none
 * is left.  Linux's find_next_best_node() also spreads the nodes that are
 * equally near over the others' lists and prefers nodes without CPUs; here
 * the order is the SLIT's, plainly.
 */
static int find_next_best_node(int node, bool used[MAX_NUMNODES])
{
	int best = -1, nid;

	for_each_node(nid) {
		if (used[nid] || !node_state(nid, N_MEMORY))
			continue;
		if (best < 0 || node_distance(node, nid) < node_distance(node, best))
			best = nid;
	}
	if (best >= 0)
		used[best] = true;
	return best;
}

/* Add @pgdat's zones that have memory to @zonerefs, highest first; return how many. */
static int build_zonerefs_node(pg_data_t *pgdat, struct zoneref *zonerefs)
{
	int nr = 0;

	for (int z = MAX_NR_ZONES - 1; z >= 0; z--) {
		struct zone *zone = &pgdat->node_zones[z];

		if (zone_populated(zone))
			zonerefs[nr++] = (struct zoneref){ .zone = zone, .zone_idx = z };
	}
	return nr;
}

/*
 * @nid's fallback order in @node_order: @nid itself first, even if it has
 * no memory, then the nodes with memory, nearest first.  Returns its length.
 */
static int fallback_order(int nid, int node_order[MAX_NUMNODES])
{
	bool used[MAX_NUMNODES] = { false };
	int nr_nodes = 1, next;

	node_order[0] = nid;
	used[nid] = true;
	while ((next = find_next_best_node(nid, used)) >= 0)
		node_order[nr_nodes++] = next;
	return nr_nodes;
}

/*
 * Node @nid's two zonelists: every node's zones in @nid's fallback order,
 * and its own zones alone, for __GFP_THISNODE.
 */
static void build_zonelists(int nid)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	struct zoneref *zonerefs = pgdat->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
	int node_order[MAX_NUMNODES];
	int nr_nodes = fallback_order(nid, node_order);

	for (int i = 0; i < nr_nodes; i++)
		zonerefs += build_zonerefs_node(NODE_DATA(node_order[i]), zonerefs);
	*zonerefs = (struct zoneref){ .zone = NULL, .zone_idx = 0 };

	zonerefs = pgdat->node_zonelists[ZONELIST_NOFALLBACK]._zonerefs;
	zonerefs += build_zonerefs_node(pgdat, zonerefs);
	*zonerefs = (struct zoneref){ .zone = NULL, .zone_idx = 0 };
}

/*
 * With more than one node, each node's fallback order on a boot line, as
 * Linux prints it, once per node id below nr_node_ids: from
 * build_all_zonelists() for the nodes known then, and from
 * set_cpu_numa_node() for a node that has CPUs only and is numbered above
 * every node with memory, which makes nr_node_ids grow only then.
 */
static void print_fallback_orders(void)
{
	int node_order[MAX_NUMNODES];

	if (nr_node_ids < 2)
		return;
	for (int nid = 0; nid < (int)nr_node_ids; nid++) {
		int nr;

		if (fallback_printed.bits & (1UL << nid))
			continue;
		fallback_printed.bits |= 1UL << nid;
		nr = fallback_order(nid, node_order);
		printk(KERN_INFO "Fallback order for Node %d:", nid);
		for (int i = 0; i < nr; i++)
			printk(KERN_CONT " %d", node_order[i]);
		printk(KERN_CONT "\n");
	}
}

/**
 * local_memory_node - the nearest node to @nid that has memory
 *
 * The node of the first zone of @nid's zonelist: @nid itself if it has
 * memory (Linux's local_memory_node()).
 * Return: that node, or @nid if no node has memory (or the zonelists are
 * not built yet).
 */
int local_memory_node(int nid)
{
	const struct zone *zone;

	if ((unsigned int)nid >= MAX_NUMNODES)
		return nid;
	zone = NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs[0].zone;
	return zone ? zone->node : nid;
}

/**
 * build_all_zonelists - every node's zonelists, from the node distances
 *
 * For every possible node id, not only those with memory: a CPU may sit on
 * a node that has none (its id may even be nr_node_ids or more), and its
 * allocations then start at the nearest node that has.  Then every CPU's
 * numa_mem_id(), as Linux's __build_all_zonelists().  With more than one
 * node, each node's order is printed as Linux prints it.
 * Context: boot, after memblock_free_all() (a zone is listed only if it
 * has memory).
 */
void build_all_zonelists(void)
{
	unsigned int cpu;

	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (node_has_memory(nid))
			node_states[N_MEMORY].bits |= 1UL << nid;
	}
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		build_zonelists(nid);
	print_fallback_orders();
	for_each_possible_cpu(cpu)
		per_cpu(numa_mem, cpu) = local_memory_node(cpu_to_node(cpu));
	update_cpu_node_states();
}

static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

static void setup_lowmem_reserve(pg_data_t *pgdat)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		unsigned long above = 0;

		for (int j = z + 1; j < MAX_NR_ZONES; j++) {
			above += pgdat->node_zones[j].managed_pages;
			zone->lowmem_reserve[j] = above / lowmem_reserve_ratio;
		}
	}
}

static void setup_pageset(struct zone *zone)
{
	unsigned int cpu;
	int batch = (int)(zone->managed_pages / 1024 / 4);

	batch = batch < 1 ? 1 : batch > 63 ? 63 : batch;
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(zone->per_cpu_pageset, cpu)->batch = batch;
		per_cpu_ptr(zone->per_cpu_pageset, cpu)->high = 6 * batch;
	}
}

/**
 * setup_per_zone_wmarks - watermarks, reserves and per-CPU list sizes
 *
 * As Linux: min_free_kbytes = sqrt(16 * RAM in KiB), between 128 KiB and
 * 64 MiB, shared among zones by size; low and high are min plus a quarter
 * (or 0.1% of the zone) and twice that.
 */
void setup_per_zone_wmarks(void)
{
	unsigned long min_free_kbytes = int_sqrt(totalram_pages * (PAGE_SIZE / 1024) * 16);
	unsigned long min_pages;
	int nid;

	min_free_kbytes = min_free_kbytes < 128 ? 128 : min(min_free_kbytes, 65536UL);
	min_pages = min_free_kbytes / (PAGE_SIZE / 1024);
	for_each_node(nid) {
		setup_lowmem_reserve(NODE_DATA(nid));
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];
			unsigned long min, extra;

			if (!totalram_pages)
				continue;
			min = min_pages * zone->managed_pages / totalram_pages;
			extra = max(min / 4, zone->managed_pages * 10 / 10000);
			zone->watermark[WMARK_MIN] = min;
			zone->watermark[WMARK_LOW] = min + extra;
			zone->watermark[WMARK_HIGH] = min + 2 * extra;
			setup_pageset(zone);
		}
	}
}

/**
 * mm_core_init - start the buddy allocator on the RAM memblock knows
 *
 * Context: boot, once, with vmemmap backed for every section that has RAM.
 */
void mm_core_init(void)
{
	unsigned long ram = memblock_phys_mem_size() >> PAGE_SHIFT;
	unsigned long memmap_kb = ram * sizeof(struct page) / 1024;

	free_area_init();
	memblock_free_all();
	build_all_zonelists();
	setup_per_zone_wmarks();
	pr_info("Memory: %luK/%luK available (%luK reserved), %u node%s\n",
		totalram_pages * (PAGE_SIZE / 1024), ram * (PAGE_SIZE / 1024),
		reserved_pages * (PAGE_SIZE / 1024), nr_node_ids, nr_node_ids > 1 ? "s" : "");
	pr_info("Memory: struct page is %zu bytes: %luK for %lu pages = %lu.%02lu%% of RAM\n",
		sizeof(struct page), memmap_kb, ram,
		sizeof(struct page) * 100 / PAGE_SIZE,
		sizeof(struct page) * 10000 / PAGE_SIZE % 100);
}
