/*
 * mm/vmstat.h - event counters, with Linux's names where Linux has one.
 *
 * count_vm_event(PGFREE) adds one to this CPU's copy of the counter (one
 * instruction, no lock); all_vm_events() sums the copies of every CPU, as
 * Linux's /proc/vmstat does.  The `vmstat` monitor command prints them.
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
#include "kernel/config.h"

enum vm_event_item {
	PGALLOC,		/* pages allocated, as Linux's pgalloc_*: read from the ... */
	PGFREE,			/* ... and pages freed: ... per-order counts, never counted */
	PGALLOC_ORDER0,		/* blocks allocated, by order: PGALLOC_ORDER0 + order (ours) */
	PGALLOC_ORDER10 = PGALLOC_ORDER0 + 10,
	PGFREE_ORDER0,
	PGFREE_ORDER10 = PGFREE_ORDER0 + 10,
	PCP_ALLOC,		/* order-0 allocations served by a per-CPU list */
	PCP_REFILL,		/* per-CPU list refilled from the buddy lists */
	PCP_DRAIN,		/* per-CPU list drained back to the buddy lists */
	ALLOCSTALL,		/* direct reclaim runs (Linux: allocstall) */
	SLABS_SCANNED,		/* objects shrinkers looked at */
	OOM_KILL,		/* victims killed by the OOM killer */
	PGALLOC_FAIL,		/* allocations that returned NULL (ours) */
	PGALLOC_NORETRY_FAIL,	/* ... of which __GFP_NORETRY (ours) */
	PGALLOC_BAD_FREE,	/* misuses reported by __free_pages (ours) */
	ALLOC_BAD_CONTEXT,	/* GFP_KERNEL-like allocations with interrupts off (ours) */
	SLAB_ERRORS,		/* slab reports: corruption, double free, bad pointer (ours) */
	SLAB_BAD_FREE,		/* kfree()/kmem_cache_free() of memory they do not own (ours) */
	SLAB_SHRINK_PAGES,	/* pages the slab shrinker gave back (ours) */
	SLAB_SHEAF_RESTART,	/* sheaf pushes and pops an interrupt restarted (ours) */
	KMALLOC_LARGE,		/* kmalloc()s served by whole pages (ours) */
	VMALLOC_LAZY_PURGE,	/* lazy purges: one TLB shootdown each (ours) */
	VMALLOC_PURGED_PAGES,	/* pages whose translations a purge flushed (ours) */
	VMALLOC_PURGED_AREAS,	/* areas whose ranges a purge gave back (ours) */
	VMALLOC_FAIL,		/* vmalloc()s that returned NULL (ours) */
	VMALLOC_BAD_FREE,	/* vfree()/vunmap() of what they do not own (ours) */
	KVMALLOC_SLAB,		/* kvmalloc()s the slab allocator served (ours) */
	KVMALLOC_VMALLOC,	/* kvmalloc()s that fell back to vmalloc() (ours) */
	KVMALLOC_FAIL,		/* kvmalloc()s that returned NULL (ours) */
	FAULT_INJECT_PAGE,	/* page allocations failed on purpose (mm/fault_inject.c) (ours) */
	FAULT_INJECT_SLAB,	/* slab allocations failed on purpose (ours) */
	FAULT_INJECT_VMALLOC,	/* vmalloc()s and vmap()s failed on purpose (ours) */
	NR_TLB_REMOTE_FLUSH,	/* shootdowns sent to other CPUs */
	NR_TLB_REMOTE_FLUSH_RECEIVED,
	NR_TLB_LOCAL_FLUSH_ALL,
	NR_TLB_LOCAL_FLUSH_ONE,
	NR_VM_EVENT_ITEMS
};

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

/* Each CPU's counters, in its own per-CPU area (Linux's struct vm_event_state) */
struct vm_event_state {
	unsigned long event[NR_VM_EVENT_ITEMS];
	/* [item][node]: the node is the index register of a single add */
	unsigned long numa_event[NR_VM_NUMA_EVENT_ITEMS][MAX_NUMNODES];
};

DECLARE_PER_CPU(struct vm_event_state, vm_event_states);
extern const char *const vm_event_names[NR_VM_EVENT_ITEMS];
extern const char *const numa_event_names[NR_VM_NUMA_EVENT_ITEMS];

/* One instruction on this CPU's copy: an interrupt cannot split it. */
static inline void count_vm_events(enum vm_event_item item, unsigned long delta)
{
	this_cpu_add(vm_event_states.event[item], delta);
}

static inline void count_vm_event(enum vm_event_item item)
{
	count_vm_events(item, 1);
}

/* Linux's forms for a caller that has interrupts off: the same here (one instruction). */
#define __count_vm_events(item, delta)	count_vm_events(item, delta)
#define __count_vm_event(item)		count_vm_event(item)

static inline void count_numa_event(int nid, enum numa_stat_item item)
{
	this_cpu_inc(vm_event_states.numa_event[item][nid]);
}

void all_vm_events(unsigned long buf[NR_VM_EVENT_ITEMS]);
unsigned long cpu_vm_event(unsigned int cpu, enum vm_event_item item);
unsigned long global_vm_event(enum vm_event_item item);
unsigned long cpu_numa_event(unsigned int cpu, int node, enum numa_stat_item item);
unsigned long sum_zone_numa_event_state(int node, enum numa_stat_item item);
unsigned long global_numa_event_state(enum numa_stat_item item);

#endif
