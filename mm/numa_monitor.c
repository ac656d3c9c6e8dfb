/*
 * mm/numa_monitor.c - the `numa` monitor command: the machine's NUMA nodes.
 *
 * One screen with what Linux spreads over `numactl --hardware` and
 * `numastat`: each node's CPUs, memory and free memory; the distance
 * matrix (the ACPI SLIT's, or 10 local / 20 remote without one); the order
 * in which each node's allocations fall back to the others (its zonelist,
 * built at boot by mm/mm_init.c); and where allocations landed, per node
 * (the numa_* counters of mm/vmstat.h).  A node with CPUs but no memory
 * says so, and which node its CPUs take their memory from (numa_mem_id()).
 */
#include "mm/vmstat.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"

static unsigned long node_pages(int nid, bool free)
{
	unsigned long sum = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &NODE_DATA(nid)->node_zones[z];

		if (zone_populated(zone))
			sum += free ? zone_free_pages(zone) : zone->managed_pages;
	}
	return sum;
}

static void show_node(int nid)
{
	unsigned long size = node_pages(nid, false), free = node_pages(nid, true);
	unsigned int cpu;

	printk("node %d cpus:", nid);
	for_each_online_cpu(cpu) {
		if (cpu_to_node(cpu) == nid)
			printk(KERN_CONT " %u", cpu);
	}
	printk(KERN_CONT "\n");
	if (!node_state(nid, N_MEMORY)) {
		printk("node %d size: 0 MB (no memory: its CPUs allocate from node %d)\n", nid,
		       local_memory_node(nid));
		printk("node %d free: 0 MB\n", nid);
		return;
	}
	printk("node %d size: %lu MB (%lu pages managed)\n", nid, size >> (20 - PAGE_SHIFT), size);
	printk("node %d free: %lu MB (%lu pages)\n", nid, free >> (20 - PAGE_SHIFT), free);
}

/* The nodes that have @state, as sysfs's node/has_memory lists them ("0-2", "1,3"). */
static void show_state(const char *name, enum node_states state)
{
	bool any = false;
	int nid;

	printk(KERN_CONT " %s ", name);
	for_each_node(nid) {
		bool prev = nid > 0 && node_state(nid - 1, state);
		bool next = nid + 1 < (int)nr_node_ids && node_state(nid + 1, state);

		if (!node_state(nid, state) || (prev && next))
			continue;	/* inside a run: only its ends are printed */
		if (prev)
			printk(KERN_CONT "-%d", nid);
		else
			printk(KERN_CONT "%s%d", any ? "," : "", nid);
		any = true;
	}
	if (!any)
		printk(KERN_CONT "none");
}

/* The nodes of @nid's fallback zonelist, in order (each node once: its zones are together). */
static void show_fallback(int nid)
{
	const struct zoneref *z = NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
	int last = -1;

	printk("%4d:", nid);
	for (; z->zone; z++) {
		if (z->zone->node != last)
			printk(KERN_CONT " %d", z->zone->node);
		last = z->zone->node;
	}
	printk(KERN_CONT "\n");
}

static int cmd_numa(int argc, char **argv)
{
	int nid, to;

	(void)argc;
	(void)argv;
	if (nr_node_ids > 1)
		printk("available: %u nodes (0-%u)\n", nr_node_ids, nr_node_ids - 1);
	else
		printk("available: 1 node (0)\n");
	printk("node states:");
	show_state("online", N_ONLINE);
	printk(KERN_CONT ",");
	show_state("has_cpu", N_CPU);
	printk(KERN_CONT ",");
	show_state("has_memory", N_MEMORY);
	printk(KERN_CONT "\n");
	for_each_node(nid)
		show_node(nid);
	printk("node distances:\nnode");
	for_each_node(to)
		printk(KERN_CONT " %4d", to);
	printk(KERN_CONT "\n");
	for_each_node(nid) {
		printk("%4d:", nid);
		for_each_node(to)
			printk(KERN_CONT " %4d", node_distance(nid, to));
		printk(KERN_CONT "\n");
	}
	printk("fallback order (nearest first):\n");
	for_each_node(nid)
		show_fallback(nid);
	printk("%-12s", "");
	for_each_node(nid)
		printk(KERN_CONT " %11s%d", "node", nid);
	printk(KERN_CONT "\n");
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		printk("%-12s", numa_event_names[i]);
		for_each_node(nid)
			printk(KERN_CONT " %12lu", sum_zone_numa_event_state(nid, i));
		printk(KERN_CONT "\n");
	}
	return 0;
}
MONITOR_COMMAND(numa, "", "NUMA nodes: CPUs, memory, distances, fallback order, numa_* counters",
		cmd_numa);
