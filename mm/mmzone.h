/*
 * mm/mmzone.h - how physical memory is divided: nodes, zones, free areas.
 *
 * A NUMA node is memory close to some CPUs; each node is cut by physical
 * address into zones, because some devices can only reach low memory:
 *   ZONE_DMA     below 16 MiB (ISA DMA)
 *   ZONE_DMA32   below 4 GiB (32-bit DMA)
 *   ZONE_NORMAL  everything else
 * Each zone has its own buddy allocator (free_area[order]), its own lock,
 * its own watermarks and a per-CPU cache of single free pages.
 *
 * Nodes are not equally far apart: node_distance(a, b) is the firmware's
 * figure (the ACPI SLIT; 10 local, 20 remote without one).  Each node has
 * a zonelist, built once at boot: its own zones, then the other nodes'
 * zones, nearest node first.  An allocation walks its preferred node's
 * zonelist and takes the first zone that can give the block.
 *
 * A node may have CPUs but no memory (a "memoryless node": -numa without
 * memdev in QEMU, a socket whose DIMM slots are empty).  It is online and
 * has a zonelist like any node, made of the other nodes' zones only, so
 * its CPUs' allocations start at the nearest node with memory; that node
 * is also each of its CPUs' numa_mem_id(), where the slab keeps their
 * objects.  node_state() says what a node has (docs/page_alloc.md, "NUMA").
 */
#ifndef MM_MMZONE_H
#define MM_MMZONE_H

#include "mm/page_alloc.h"
#include "kernel/config.h"

#define MAX_NUMNODES	8
#define LOCAL_DISTANCE	10	/* node_distance(n, n) without a SLIT */
#define REMOTE_DISTANCE	20	/* node_distance(a, b) without a SLIT */

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES
};

#define ZONE_DMA_END_PFN	((16UL << 20) >> PAGE_SHIFT)
#define ZONE_DMA32_END_PFN	((4UL << 30) >> PAGE_SHIFT)

/*
 * Watermarks, in free pages.  Below LOW an allocation leaves the fast path
 * and may reclaim; only GFP_ATOMIC-style callers may go below MIN; HIGH is
 * where reclaim would stop.
 */
enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK
};

/*
 * Grouping by mobility (Linux's anti-fragmentation, 2.6.24): memory is cut
 * into pageblocks of 2^pageblock_order pages, each with a migratetype, and
 * a free block sits on the free list of its pageblock's type.  Allocations
 * take from their own type's lists first (gfp_migratetype()), so that the
 * pages that can never move (unmovable) gather in few pageblocks instead of
 * pinning a page in every one.
 */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES,		/* the types with a per-CPU list */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,	/* kept for high-order atomic allocations */
	MIGRATE_ISOLATE,		/* taken out of use: its free pages stay put */
	MIGRATE_TYPES
};

#define pageblock_order		9	/* 2 MiB, as on x86-64 */
#define pageblock_nr_pages	(1UL << pageblock_order)

struct free_area {
	struct list_head free_list[MIGRATE_TYPES];	/* first pages of free blocks, by type */
	unsigned long nr_free;		/* how many blocks, of every type */
};

/* A CPU's private stacks of free order-0 pages, one per type, refilled and drained in batches. */
struct per_cpu_pages {
	int count;			/* pages on the lists, all of them */
	int high;			/* drain a batch when count reaches this */
	int batch;			/* pages moved per refill or drain */
	struct list_head lists[MIGRATE_PCPTYPES];
};

struct zone {
	spinlock_t lock;		/* protects free_area and nr_free */
	struct free_area free_area[NR_PAGE_ORDERS];
	unsigned long nr_free;		/* pages in free_area (not counting per-CPU lists) */
	unsigned long watermark[NR_WMARK];
	/* kept free for allocations that could have used zone [i] but came here */
	unsigned long lowmem_reserve[MAX_NR_ZONES];
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;	/* end_pfn - start_pfn, holes included */
	unsigned long present_pages;	/* RAM pages in the span */
	unsigned long managed_pages;	/* pages given to the buddy allocator */
	int node;
	const char *name;
	struct per_cpu_pages *per_cpu_pageset;	/* alloc_percpu(): one list per CPU */
	/* the migratetype of each pageblock of the span, from zone_start_pfn's (memblock) */
	unsigned char *pageblock_flags;
	unsigned long nr_reserved_highatomic;	/* pages in MIGRATE_HIGHATOMIC pageblocks */
	/*
	 * Compaction's deferral (mm/compaction.c, Linux's names): after a
	 * failure at compact_order_failed or above, skip the next
	 * 2^compact_defer_shift - 1 attempts; compact_considered counts them.
	 */
	unsigned int compact_considered;
	unsigned int compact_defer_shift;
	int compact_order_failed;
};

int get_pageblock_migratetype(const struct page *page);
void set_pageblock_migratetype(struct page *page, int mt);

/*
 * The zones an allocation may try, in order (Linux's zonelist).  Each entry
 * carries its zone's index, so that the walk skips zones above what the
 * gfp allows (a __GFP_DMA32 allocation passes over Normal) without
 * touching the zone itself.  Only zones with memory are listed; a NULL
 * zone (index 0) ends the list.
 */
struct zoneref {
	struct zone *zone;
	int zone_idx;
};

#define MAX_ZONES_PER_ZONELIST	(MAX_NUMNODES * MAX_NR_ZONES)

struct zonelist {
	struct zoneref _zonerefs[MAX_ZONES_PER_ZONELIST + 1];
};

enum {
	ZONELIST_FALLBACK,	/* this node's zones, then every other node's, nearest first */
	ZONELIST_NOFALLBACK,	/* this node's zones only: __GFP_THISNODE */
	MAX_ZONELISTS
};

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	struct zonelist node_zonelists[MAX_ZONELISTS];
	int node_id;
	unsigned long node_start_pfn;
	unsigned long node_spanned_pages;
} pg_data_t;

extern pg_data_t node_data[MAX_NUMNODES];
extern unsigned int nr_node_ids;	/* nodes 0..nr_node_ids-1 exist */

/*
 * What a node has (Linux's enum node_states, the states this kernel needs).
 * Node ids are dense: every node below nr_node_ids is possible, and online,
 * since it was numbered because the firmware gave it CPUs or memory.
 */
enum node_states {
	N_POSSIBLE,	/* the firmware named it: 0..nr_node_ids-1 */
	N_ONLINE,	/* it has CPUs or memory */
	N_MEMORY,	/* it has memory for the page allocator */
	N_CPU,		/* a CPU is on it */
	NR_NODE_STATES
};

typedef struct {
	unsigned long bits;	/* bit n: node n (MAX_NUMNODES fits in a word) */
} nodemask_t;

extern nodemask_t node_states[NR_NODE_STATES];

/** node_state - does node @nid have @state (N_MEMORY: memory, N_CPU: CPUs, ...)? */
static inline bool node_state(int nid, enum node_states state)
{
	return (unsigned int)nid < MAX_NUMNODES && (READ_ONCE(node_states[state].bits) >> nid) & 1;
}

/* How many nodes have @state */
static inline unsigned int num_node_state(enum node_states state)
{
	unsigned int n = 0;

	for (unsigned long b = READ_ONCE(node_states[state].bits); b; b &= b - 1)
		n++;
	return n;
}

extern unsigned long totalram_pages;	/* pages managed by the buddy allocator */
extern unsigned long reserved_pages;	/* RAM pages kept out of it (kernel, boot data) */

#define NODE_DATA(nid)		(&node_data[nid])
#define for_each_node(nid)	for ((nid) = 0; (nid) < (int)nr_node_ids; (nid)++)

/* Every node that has @state, as Linux's: for_each_node_state(nid, N_MEMORY) */
#define for_each_node_state(nid, state)					\
	for_each_node(nid)						\
		if (!node_state(nid, state))				\
			;						\
		else
#define for_each_online_node(nid)	for_each_node_state(nid, N_ONLINE)

static inline bool zone_populated(const struct zone *zone)
{
	return zone->managed_pages != 0;
}

/* The zone after @zone: the next one of its node, else the next node's first. */
static inline struct zone *next_zone(struct zone *zone)
{
	pg_data_t *pgdat = &node_data[zone->node];

	if (zone < &pgdat->node_zones[MAX_NR_ZONES - 1])
		return zone + 1;
	if (zone->node + 1 < (int)nr_node_ids)
		return node_data[zone->node + 1].node_zones;
	return NULL;
}

#define for_each_zone(zone)						\
	for (zone = node_data[0].node_zones; zone; zone = next_zone(zone))

/* Every zone that has memory, as Linux's for_each_populated_zone() */
#define for_each_populated_zone(zone)					\
	for_each_zone(zone)						\
		if (!zone_populated(zone))				\
			;						\
		else

static inline unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

static inline struct zone *page_zone(const struct page *page)
{
	return &node_data[page_to_nid(page)].node_zones[page_zonenum(page)];
}

/* Each CPU's node (Linux's numa_node), set from the SRAT at boot */
DECLARE_PER_CPU(int, numa_node);
/* The nearest node with memory to each CPU (Linux's _numa_mem_): see numa_mem_id() */
DECLARE_PER_CPU(int, numa_mem);

/* The NUMA node of the calling CPU: one instruction. */
static inline int numa_node_id(void)
{
	return this_cpu_read(numa_node);
}

static inline int cpu_to_node(unsigned int cpu)
{
	return per_cpu(numa_node, cpu);
}

/*
 * The node whose memory the calling CPU should use: its own node, or for a
 * CPU of a memoryless node the nearest node that has memory (the first
 * node of its zonelist).  Where to look for "local" memory - the slab's
 * partial lists and barns, NUMA_NO_NODE allocations - is this, not
 * numa_node_id(), which stays the CPU's own node.  One instruction.
 */
static inline int numa_mem_id(void)
{
	return this_cpu_read(numa_mem);
}

static inline int cpu_to_mem(unsigned int cpu)
{
	return per_cpu(numa_mem, cpu);
}

/* Free pages in @zone, counting its per-CPU lists too. */
unsigned long zone_free_pages(const struct zone *zone);
bool zone_watermark_ok(struct zone *zone, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags);
void set_cpu_numa_node(unsigned int cpu, int nid);
void update_cpu_node_states(void);
int local_memory_node(int nid);
void numa_set_distance(int from, int to, int distance);
int node_distance(int from, int to);
void mm_init(void);
void drain_local_pages(void *unused);

/* Set-up, called once in order by mm_init (see mm/mm_init.c) */
void free_area_init(void);
void memblock_free_all(void);
void build_all_zonelists(void);
void setup_per_zone_wmarks(void);

#endif
