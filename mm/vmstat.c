/*
 * mm/vmstat.c - counters, and the monitor commands that show the allocator.
 *
 *   vmstat      every event counter, summed over CPUs (Linux's /proc/vmstat),
 *               and the numa_* counters summed over the nodes as well
 *   buddyinfo   free blocks per order per zone (Linux's /proc/buddyinfo); with
 *               colour on, each count in its order's shade of `memmap picture`
 *   zoneinfo    each zone's span, watermarks, reserves and free pages
 *   meminfo     RAM, free, reserved and what the struct pages cost
 *   pagetypeinfo  free blocks per order and migratetype, pageblocks per type
 *               (Linux's /proc/pagetypeinfo)
 *   extfrag_index, unusable_index  how fragmented each zone is, per order
 *               (Linux's debugfs files of the same names)
 */
#include "mm/vmstat.h"
#include "mm/compaction.h"
#include "mm/internal.h"
#include "mm/page_snapshot.h"
#include "kernel/ansi.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/string.h"

DEFINE_PER_CPU(struct vm_event_state, vm_event_states);
DEFINE_PER_CPU(struct vm_numa_event_state, vm_numa_event_states);

#define ORDER_NAMES(prefix) \
	prefix "0", prefix "1", prefix "2", prefix "3", prefix "4", prefix "5", \
	prefix "6", prefix "7", prefix "8", prefix "9", prefix "10"

const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
	[PGALLOC] = "pgalloc",
	[PGFREE] = "pgfree",
	[PGALLOC_ORDER0] = ORDER_NAMES("pgalloc_order"),
	[PGFREE_ORDER0] = ORDER_NAMES("pgfree_order"),
	[PCP_ALLOC] = "pcp_alloc",
	[PCP_REFILL] = "pcp_refill",
	[PCP_DRAIN] = "pcp_drain",
	[ALLOCSTALL] = "allocstall",
	[SLABS_SCANNED] = "slabs_scanned",
	[PGSCAN_KSWAPD] = "pgscan_kswapd",
	[PGSTEAL_KSWAPD] = "pgsteal_kswapd",
	[PAGEOUTRUN] = "pageoutrun",
	[KSWAPD_LOW_WMARK_HIT_QUICKLY] = "kswapd_low_wmark_hit_quickly",
	[OOM_KILL] = "oom_kill",
	[PGALLOC_FAIL] = "pgalloc_fail",
	[PGALLOC_EXTFRAG] = "pgalloc_extfrag",
	[PGALLOC_NORETRY_FAIL] = "pgalloc_noretry_fail",
	[PGALLOC_BAD_FREE] = "pgalloc_bad_free",
	[ALLOC_BAD_CONTEXT] = "alloc_bad_context",
	[COMPACTMIGRATE_SCANNED] = "compact_migrate_scanned",
	[COMPACTFREE_SCANNED] = "compact_free_scanned",
	[COMPACTISOLATED] = "compact_isolated",
	[COMPACTSTALL] = "compact_stall",
	[COMPACTFAIL] = "compact_fail",
	[COMPACTSUCCESS] = "compact_success",
	[COMPACTDAEMON_WAKE] = "compact_daemon_wake",
	[PGMIGRATE_SUCCESS] = "pgmigrate_success",
	[PGMIGRATE_FAIL] = "pgmigrate_fail",
	[SLAB_ERRORS] = "slab_errors",
	[SLAB_BAD_FREE] = "slab_bad_free",
	[SLAB_SHRINK_PAGES] = "slab_shrink_pages",
	[SLAB_SHEAF_RESTART] = "slab_sheaf_restart",
	[KMALLOC_LARGE] = "kmalloc_large",
	[VMALLOC_LAZY_PURGE] = "vmalloc_lazy_purge",
	[VMALLOC_PURGED_PAGES] = "vmalloc_purged_pages",
	[VMALLOC_PURGED_AREAS] = "vmalloc_purged_areas",
	[VMALLOC_FAIL] = "vmalloc_fail",
	[VMALLOC_BAD_FREE] = "vmalloc_bad_free",
	[KVMALLOC_SLAB] = "kvmalloc_slab",
	[KVMALLOC_VMALLOC] = "kvmalloc_vmalloc",
	[KVMALLOC_FAIL] = "kvmalloc_fail",
	[FAULT_INJECT_PAGE] = "fault_inject_page",
	[FAULT_INJECT_SLAB] = "fault_inject_slab",
	[FAULT_INJECT_VMALLOC] = "fault_inject_vmalloc",
	[NR_TLB_REMOTE_FLUSH] = "nr_tlb_remote_flush",
	[NR_TLB_REMOTE_FLUSH_RECEIVED] = "nr_tlb_remote_flush_received",
	[NR_TLB_LOCAL_FLUSH_ALL] = "nr_tlb_local_flush_all",
	[NR_TLB_LOCAL_FLUSH_ONE] = "nr_tlb_local_flush_one",
};

const char *const numa_event_names[NR_VM_NUMA_EVENT_ITEMS] = {
	[NUMA_HIT] = "numa_hit",
	[NUMA_MISS] = "numa_miss",
	[NUMA_FOREIGN] = "numa_foreign",
	[NUMA_LOCAL] = "numa_local",
	[NUMA_OTHER] = "numa_other",
};

/**
 * all_vm_events - every counter, summed over all CPUs
 * @buf: NR_VM_EVENT_ITEMS values
 *
 * Context: any.  The sum is not a snapshot: other CPUs keep counting.
 */
void all_vm_events(unsigned long buf[NR_VM_EVENT_ITEMS])
{
	unsigned int cpu;

	memset(buf, 0, NR_VM_EVENT_ITEMS * sizeof(buf[0]));
	for_each_possible_cpu(cpu) {
		for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
			buf[i] += cpu_vm_event(cpu, i);
	}
}

/*
 * pgalloc and pgfree count pages, as Linux's do: the blocks of each order
 * times their pages.  Read from the per-order counts, so that allocating
 * and freeing count one thing each, not two.
 */
static unsigned long pages_of_blocks(unsigned int cpu, enum vm_event_item order0)
{
	unsigned long pages = 0;

	for (unsigned int o = 0; o <= PGALLOC_ORDER10 - PGALLOC_ORDER0; o++)
		pages += READ_ONCE(per_cpu(vm_event_states, cpu).event[order0 + o]) << o;
	return pages;
}

/** cpu_vm_event - one counter as CPU @cpu counted it (Linux: per_cpu(vm_event_states, cpu)) */
unsigned long cpu_vm_event(unsigned int cpu, enum vm_event_item item)
{
	if (item == PGALLOC)
		return pages_of_blocks(cpu, PGALLOC_ORDER0);
	if (item == PGFREE)
		return pages_of_blocks(cpu, PGFREE_ORDER0);
	return READ_ONCE(per_cpu(vm_event_states, cpu).event[item]);
}

/** global_vm_event - one counter, summed over all CPUs */
unsigned long global_vm_event(enum vm_event_item item)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += cpu_vm_event(cpu, item);
	return sum;
}

/** cpu_numa_event - one NUMA counter of node @node as CPU @cpu counted it */
unsigned long cpu_numa_event(unsigned int cpu, int node, enum numa_stat_item item)
{
	return READ_ONCE(per_cpu(vm_numa_event_states, cpu).numa_event[item][node]);
}

/**
 * sum_zone_numa_event_state - one NUMA counter of node @node, summed over all CPUs
 *
 * Linux's name: Linux counts per zone and sums the node's zones (its
 * numastat file); this kernel counts per node directly.
 * Context: any.  Not a snapshot: other CPUs keep counting.
 */
unsigned long sum_zone_numa_event_state(int node, enum numa_stat_item item)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += cpu_numa_event(cpu, node, item);
	return sum;
}

/** global_numa_event_state - one NUMA counter summed over every node and CPU (/proc/vmstat) */
unsigned long global_numa_event_state(enum numa_stat_item item)
{
	unsigned long sum = 0;

	for (int node = 0; node < MAX_NUMNODES; node++)
		sum += sum_zone_numa_event_state(node, item);
	return sum;
}

static int cmd_vmstat(int argc, char **argv)
{
	unsigned long events[NR_VM_EVENT_ITEMS];

	(void)argc;
	(void)argv;
	all_vm_events(events);
	printk("nr_free_pages %lu\n", nr_free_pages());
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
		printk("%s %lu\n", numa_event_names[i], global_numa_event_state(i));
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		printk("%s %lu\n", vm_event_names[i], events[i]);
	return 0;
}
MONITOR_COMMAND(vmstat, "", "event counters of the memory allocators", cmd_vmstat);

/*
 * One count of free blocks of @order; with colour on (kernel/ansi.h), a
 * count that is not 0 is in the shade `memmap picture` gives such blocks.
 */
static void print_free_blocks(unsigned long nr, unsigned int order)
{
	struct page_cell cell = { .state = PAGE_STATE_FREE, .order = (u8)order };

	if (!nr || !ansi_color_enabled()) {
		printk(KERN_CONT " %6lu", nr);
		return;
	}
	printk(KERN_CONT " ");
	ansi_fg(page_cell_rgb(&cell));
	printk(KERN_CONT "%6lu", nr);
	ansi_reset();
}

/** show_buddyinfo - print free blocks per order per zone, as Linux's /proc/buddyinfo */
void show_buddyinfo(void)
{
	struct zone *zone;

	/* Our header (Linux's /proc/buddyinfo has none): an order-n block is 2^n pages. */
	printk("%21s", "order");
	for (int o = 0; o <= MAX_PAGE_ORDER; o++)
		printk(KERN_CONT " %6d", o);
	printk(KERN_CONT "\n%21s", "block size");
	for (int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long kib = (PAGE_SIZE >> 10) << o;

		printk(KERN_CONT " %5lu%c", kib < 1024 ? kib : kib >> 10, kib < 1024 ? 'K' : 'M');
	}
	printk(KERN_CONT "\n");
	for_each_populated_zone(zone) {
		printk("Node %d, zone %8s", zone->node, zone->name);
		for (int o = 0; o <= MAX_PAGE_ORDER; o++)
			print_free_blocks(READ_ONCE(zone->free_area[o].nr_free), o);
		printk(KERN_CONT "\n");
	}
}

static int cmd_buddyinfo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	show_buddyinfo();
	return 0;
}
MONITOR_COMMAND(buddyinfo, "", "free blocks of each order (0..10: 4K..4M) per zone", cmd_buddyinfo);

static void show_zone(struct zone *zone)
{
	unsigned int cpu;

	printk("Node %d, zone %8s\n", zone->node, zone->name);
	printk("  pages free     %lu (of which on per-CPU lists: %lu)\n",
	       zone_free_pages(zone), zone_free_pages(zone) - zone->nr_free);
	printk("        min      %lu\n        low      %lu\n        high     %lu\n",
	       zone->watermark[WMARK_MIN], zone->watermark[WMARK_LOW],
	       zone->watermark[WMARK_HIGH]);
	printk("        spanned  %lu\n        present  %lu\n        managed  %lu\n",
	       zone->spanned_pages, zone->present_pages, zone->managed_pages);
	printk("        protection: (%lu, %lu, %lu)\n", zone->lowmem_reserve[0],
	       zone->lowmem_reserve[1], zone->lowmem_reserve[2]);
	printk("  start_pfn:     %#lx\n  end_pfn:       %#lx\n", zone->zone_start_pfn,
	       zone_end_pfn(zone));
	for_each_online_cpu(cpu) {
		struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);

		printk("  pagesets cpu %u: count %d high %d batch %d\n", cpu, pcp->count,
		       pcp->high, pcp->batch);
	}
}

static int cmd_zoneinfo(int argc, char **argv)
{
	struct zone *zone;

	(void)argc;
	(void)argv;
	for_each_populated_zone(zone)
		show_zone(zone);
	return 0;
}
MONITOR_COMMAND(zoneinfo, "", "each zone's range, watermarks, reserves and free pages",
		cmd_zoneinfo);

static int cmd_meminfo(int argc, char **argv)
{
	unsigned long ram = totalram_pages + reserved_pages;
	unsigned long memmap = ram * sizeof(struct page);

	(void)argc;
	(void)argv;
	printk("MemTotal:       %8lu kB   (RAM the firmware reported)\n", ram * 4);
	printk("MemManaged:     %8lu kB   (given to the buddy allocator)\n", totalram_pages * 4);
	printk("MemFree:        %8lu kB\n", nr_free_pages() * 4);
	printk("Reserved:       %8lu kB   (kernel image, boot data, page tables, struct pages)\n",
	       reserved_pages * 4);
	printk("StructPages:    %8lu kB   (%zu bytes per 4 KiB page: %lu.%02lu%%)\n",
	       memmap / 1024, sizeof(struct page), sizeof(struct page) * 100 / PAGE_SIZE,
	       sizeof(struct page) * 10000 / PAGE_SIZE % 100);
	printk("(the firmware's memory map itself: 'memmap')\n");
	return 0;
}
MONITOR_COMMAND(meminfo, "", "RAM: total, managed, free, reserved, struct page overhead",
		cmd_meminfo);

/* ---------------------------------------------------------------- fragmentation */

static const char *const migratetype_names[MIGRATE_TYPES] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate",
};

/* Free blocks of @mt and @order in @zone: a walk of the list (the zone's lock is held). */
static unsigned long count_free_blocks(struct zone *zone, unsigned int order, int mt)
{
	unsigned long n = 0;
	struct list_head *pos;

	list_for_each(pos, &zone->free_area[order].free_list[mt])
		n++;
	return n;
}

static void show_free_by_type(void)
{
	struct zone *zone;

	printk("Free pages count per migrate type at order");
	for (int o = 0; o <= MAX_PAGE_ORDER; o++)
		printk(KERN_CONT " %6d", o);
	printk(KERN_CONT "\n");
	for_each_populated_zone(zone) {
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			unsigned long flags;

			printk("Node %4d, zone %8s, type %12s", zone->node, zone->name,
			       migratetype_names[mt]);
			spin_lock_irqsave(&zone->lock, flags);
			for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++)
				printk(KERN_CONT " %6lu", count_free_blocks(zone, o, mt));
			spin_unlock_irqrestore(&zone->lock, flags);
			printk(KERN_CONT "\n");
		}
	}
}

/* Pageblocks of each type in @zone, counted into @nr (those that start in it). */
static void count_pageblocks(struct zone *zone, unsigned long nr[MIGRATE_TYPES])
{
	for (unsigned long pfn = ALIGN(zone->zone_start_pfn, pageblock_nr_pages);
	     pfn < zone_end_pfn(zone); pfn += pageblock_nr_pages) {
		if (pfn_valid(pfn))
			nr[get_pageblock_migratetype(pfn_to_page(pfn))]++;
	}
}

/**
 * show_pagetypeinfo - print free blocks per order and migratetype, and pageblocks per type
 *
 * As Linux's /proc/pagetypeinfo: each zone's free blocks by order for each
 * migratetype, then how many pageblocks each type owns.
 * Context: takes each zone's lock in turn; may be called from the monitor.
 */
void show_pagetypeinfo(void)
{
	struct zone *zone;

	printk("Page block order: %d\nPages per block:  %lu\n\n", pageblock_order,
	       pageblock_nr_pages);
	show_free_by_type();
	printk("\nNumber of blocks type    ");
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		printk(KERN_CONT " %12s", migratetype_names[mt]);
	printk(KERN_CONT "\n");
	for_each_populated_zone(zone) {
		unsigned long nr[MIGRATE_TYPES] = { 0 };

		count_pageblocks(zone, nr);
		printk("Node %d, zone %8s ", zone->node, zone->name);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			printk(KERN_CONT " %12lu", nr[mt]);
		printk(KERN_CONT "\n");
	}
}

static int cmd_pagetypeinfo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	show_pagetypeinfo();
	return 0;
}
MONITOR_COMMAND(pagetypeinfo, "", "free blocks per order and migratetype, pageblocks per type",
		cmd_pagetypeinfo);

/* What a zone's free lists hold, for one order (Linux's struct contig_page_info). */
struct contig_page_info {
	unsigned long free_pages;
	unsigned long free_blocks_total;
	unsigned long free_blocks_suitable;	/* blocks of @order that the free memory holds */
};

static void fill_contig_page_info(struct zone *zone, unsigned int order,
				  struct contig_page_info *info)
{
	*info = (struct contig_page_info){ 0 };
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long blocks = READ_ONCE(zone->free_area[o].nr_free);

		info->free_blocks_total += blocks;
		info->free_pages += blocks << o;
		if (o >= order)
			info->free_blocks_suitable += blocks << (o - order);
	}
}

/*
 * Why would an allocation of @order fail: 0 toward lack of memory, 1000
 * toward fragmentation; -1000 when it would succeed (a suitable block is
 * free).  Linux's formula: 1000 - (1000 + 1000 * free pages / 2^order) /
 * free blocks.
 */
static int __fragmentation_index(unsigned int order, const struct contig_page_info *info)
{
	unsigned long requested = 1UL << order;

	if (!info->free_blocks_total)
		return 0;
	if (info->free_blocks_suitable)
		return -1000;
	return 1000 - (int)((1000 + info->free_pages * 1000 / requested) /
			    info->free_blocks_total);
}

/**
 * fragmentation_index - would an allocation of @order in @zone fail for fragmentation?
 * @zone: the zone
 * @order: the allocation's order
 *
 * Context: any; reads the free counts without the lock.
 * Return: -1000 if a free block of @order exists; else 0 (failure would be
 * for lack of memory) to 1000 (for fragmentation), as Linux's (compaction
 * is worth it above its extfrag_threshold, 500).
 */
int fragmentation_index(struct zone *zone, unsigned int order)
{
	struct contig_page_info info;

	fill_contig_page_info(zone, order, &info);
	return __fragmentation_index(order, &info);
}

/* The share of free memory, in thousandths, in blocks too small for @order. */
static unsigned int unusable_free_index(unsigned int order, const struct contig_page_info *info)
{
	if (!info->free_pages)
		return 0;
	return (unsigned int)((info->free_pages - (info->free_blocks_suitable << order)) * 1000 /
			      info->free_pages);
}

/* One line per zone of an index per order, printed as Linux's debugfs files (0.000 to 1.000). */
static void show_frag_indices(bool extfrag)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		printk("Node %d, zone %8s", zone->node, zone->name);
		for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
			struct contig_page_info info;
			int index;

			fill_contig_page_info(zone, o, &info);
			index = extfrag ? __fragmentation_index(o, &info) :
					  (int)unusable_free_index(o, &info);
			printk(KERN_CONT " %s%d.%03d", index < 0 ? "-" : "",
			       (index < 0 ? -index : index) / 1000, (index < 0 ? -index : index) % 1000);
		}
		printk(KERN_CONT "\n");
	}
}

static int cmd_extfrag_index(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	show_frag_indices(true);
	return 0;
}
MONITOR_COMMAND(extfrag_index, "", "per order: would a failure be fragmentation (1) or no memory (0)?",
		cmd_extfrag_index);

static int cmd_unusable_index(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	show_frag_indices(false);
	return 0;
}
MONITOR_COMMAND(unusable_index, "", "per order: the share of free memory in blocks too small",
		cmd_unusable_index);
