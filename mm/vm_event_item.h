/*
 * mm/vm_event_item.h - the names of the event counters, and how one is
 * counted: one instruction on this CPU's copy.
 *
 * Apart from mm/vmstat.h (as Linux's include/linux/vm_event_item.h is)
 * because the core counts a few of mm's events where they happen: the TLB
 * code its flushes (arch/x86_64/tlb.c, as Linux's arch/x86/mm/tlb.c), the
 * interrupt entry the sheaves' restarts (arch/x86_64/idt.c).  This header
 * is all of mm/ they see: the names, one per-CPU array, two inlines.
 */
#ifndef MM_VM_EVENT_ITEM_H
#define MM_VM_EVENT_ITEM_H

#include "mm/cpu.h"

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
	PGSCAN_KSWAPD,		/* ... of which for kswapd (mm/kswapd.c) */
	PGSTEAL_KSWAPD,		/* objects (a page each) kswapd's shrinking freed */
	PAGEOUTRUN,		/* kswapd runs (balance_pgdat()) */
	KSWAPD_LOW_WMARK_HIT_QUICKLY,	/* kswapd woken again within HZ/10 of finishing */
	OOM_KILL,		/* victims killed by the OOM killer */
	PGALLOC_FAIL,		/* allocations that returned NULL (ours) */
	PGALLOC_EXTFRAG,	/* took from another migratetype's lists (Linux's mm_page_alloc_extfrag) */
	PGALLOC_NORETRY_FAIL,	/* ... of which __GFP_NORETRY (ours) */
	PGALLOC_BAD_FREE,	/* misuses reported by __free_pages (ours) */
	ALLOC_BAD_CONTEXT,	/* GFP_KERNEL-like allocations with interrupts off (ours) */
	COMPACTMIGRATE_SCANNED,	/* pages the migration scanner looked at (Linux's names from here) */
	COMPACTFREE_SCANNED,	/* pages the free scanner looked at */
	COMPACTISOLATED,	/* pages either scanner isolated */
	COMPACTSTALL,		/* direct compaction runs */
	COMPACTFAIL,		/* ... after which the allocation still failed */
	COMPACTSUCCESS,		/* ... after which it succeeded */
	COMPACTDAEMON_WAKE,	/* kcompactd runs (mm/kcompactd.c) */
	PGMIGRATE_SUCCESS,	/* pages migrated */
	PGMIGRATE_FAIL,		/* pages that could not be */
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

/* Each CPU's counters, in its own per-CPU area (Linux's struct vm_event_state) */
struct vm_event_state {
	unsigned long event[NR_VM_EVENT_ITEMS];
};

DECLARE_PER_CPU(struct vm_event_state, vm_event_states);

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

#endif
