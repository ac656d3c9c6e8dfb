/*
 * mm/vmstat.c - counters, and the monitor commands that show the allocator.
 *
 *   vmstat      every event counter, summed over CPUs (Linux's /proc/vmstat),
 *               and the numa_* counters summed over the nodes as well
 *   buddyinfo   free blocks per order per zone (Linux's /proc/buddyinfo)
 *   zoneinfo    each zone's span, watermarks, reserves and free pages
 *   meminfo     RAM, free, reserved and what the struct pages cost
 */
#include "mm/vmstat.h"
#include "mm/internal.h"
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
			printk(KERN_CONT " %6lu", READ_ONCE(zone->free_area[o].nr_free));
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
