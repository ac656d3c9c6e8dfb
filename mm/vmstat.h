/*
 * mm/vmstat.h - event counters, with Linux's names where Linux has one.
 *
 * count_vm_event(PGFREE) adds one to this CPU's copy of the counter (one
 * instruction, no lock: mm/vm_event_item.h, which names the counters);
 * all_vm_events() sums the copies of every CPU, as Linux's /proc/vmstat
 * does.  The `vmstat` monitor command prints them.
 *
 * The NUMA counters (numa_hit ... numa_other) are kept per node as well as
 * per CPU, as Linux's numastat: count_numa_event(nid, NUMA_HIT) is one
 * instruction too.  `vmstat` prints their sums over the nodes, `numa` each
 * node's.
 */
#ifndef MM_VMSTAT_H
#define MM_VMSTAT_H

#include "mm/cpu.h"
#include "mm/mmzone.h"
#include "mm/vm_event_item.h"
#include "kernel/config.h"


/*
 * Where each allocation landed, counted once per allocation on the node of
 * the zone that gave it (Linux's enum numa_stat_item, without
 * interleaving).  "Preferred" is the node of the first zone the allocation
 * could use: the node it asked for (or the current CPU's memory node,
 * numa_mem_id(), for NUMA_NO_NODE), unless that node has no such zone:
 * then the nearest that has (a memoryless node's allocations are hits there).
 */
enum numa_stat_item {
	NUMA_HIT,		/* allocated on the preferred node */
	NUMA_MISS,		/* allocated here, though another node was preferred */
	NUMA_FOREIGN,		/* (on the preferred node) preferred here, allocated elsewhere */
	NUMA_LOCAL,		/* allocated here by a CPU of this node */
	NUMA_OTHER,		/* allocated here by a CPU of another node */
	NR_VM_NUMA_EVENT_ITEMS
};

/* Each CPU's NUMA counters, beside its vm_event_states (mm/vm_event_item.h) */
struct vm_numa_event_state {
	/* [item][node]: the node is the index register of a single add */
	unsigned long numa_event[NR_VM_NUMA_EVENT_ITEMS][MAX_NUMNODES];
};

DECLARE_PER_CPU(struct vm_numa_event_state, vm_numa_event_states);
extern const char *const vm_event_names[NR_VM_EVENT_ITEMS];
extern const char *const numa_event_names[NR_VM_NUMA_EVENT_ITEMS];

static inline void count_numa_event(int nid, enum numa_stat_item item)
{
	this_cpu_inc(vm_numa_event_states.numa_event[item][nid]);
}

/* @n events at once (a bulk allocation's pages) */
static inline void count_numa_events(int nid, enum numa_stat_item item, unsigned long n)
{
	this_cpu_add(vm_numa_event_states.numa_event[item][nid], n);
}

void all_vm_events(unsigned long buf[NR_VM_EVENT_ITEMS]);
unsigned long cpu_vm_event(unsigned int cpu, enum vm_event_item item);
unsigned long global_vm_event(enum vm_event_item item);
unsigned long cpu_numa_event(unsigned int cpu, int node, enum numa_stat_item item);
unsigned long sum_zone_numa_event_state(int node, enum numa_stat_item item);
unsigned long global_numa_event_state(enum numa_stat_item item);
void show_pagetypeinfo(void);

#endif
