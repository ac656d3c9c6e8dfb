/*
 * tests/host/buddy_check.h - checking the buddy allocator from outside.
 *
 *   buddy_check_consistency()  walks every zone's free lists and every
 *       per-CPU list and the whole struct page array: blocks aligned,
 *       PG_buddy and the order recorded, inside their zone, no overlap,
 *       no two free buddies left unmerged, counts equal to nr_free, no
 *       stray PG_buddy/PG_pcp page, no lock held, interrupts on.
 *   struct buddy_snapshot      every free block (pfn, order) and the
 *       nr_free of every list, to prove that freeing everything restores
 *       the allocator exactly.
 *   struct bmodel              a reference model for random and fuzzed
 *       sequences: a bitmap of allocated pfns and the list of live blocks,
 *       each filled with a pattern derived from its pfn, checked on free;
 *       a test shrinker ("cache") and a test OOM victim that hold live
 *       blocks and free them when reclaim or the OOM killer asks, so the
 *       retry rules of docs/design.md are checked on every allocation, and
 *       so are the numa_* counters (as Linux's zone_statistics()).
 *
 * Failures are printed and counted in buddy_check_failures; the model
 * stops doing anything once a failure is recorded.
 */
#ifndef TESTS_HOST_BUDDY_CHECK_H
#define TESTS_HOST_BUDDY_CHECK_H

#include "mm/internal.h"
#include "mm/oom.h"
#include "mm/shrinker.h"
#include "mm/vmstat.h"

extern unsigned long buddy_check_failures;

/* Report a failed check (printed to stdout, counted). */
void check_fail(const char *fmt, ...) __printf(1, 2);

/*
 * A problem a consistency walk found, counted in @problems: the first 20
 * of a walk are printed, the others only counted.
 */
#define CHECK_MAX_REPORTS	20
#define check_problem(problems, ...)					\
	do {								\
		if ((problems)++ < CHECK_MAX_REPORTS)			\
			check_fail(__VA_ARGS__);			\
		else							\
			buddy_check_failures++;				\
	} while (0)

/* Return the number of problems found (0: consistent). */
unsigned long buddy_check_consistency(void);

struct buddy_snapshot {
	unsigned long nr_free[MAX_NUMNODES][MAX_NR_ZONES][NR_PAGE_ORDERS];
	unsigned long zone_free[MAX_NUMNODES][MAX_NR_ZONES];
	unsigned long *blocks;		/* pfn << 4 | order, sorted */
	unsigned long nr_blocks;
	unsigned long free_pages;	/* nr_free_pages() */
};

/* Snapshot the buddy lists (per-CPU lists are counted in free_pages only). */
void buddy_snapshot_take(struct buddy_snapshot *s);
/* Same free blocks, same counts?  Prints the first differences. */
bool buddy_snapshot_equal(const struct buddy_snapshot *a, const struct buddy_snapshot *b);
void buddy_snapshot_free(struct buddy_snapshot *s);

/* The zone an allocation with @gfp may use at most (ZONE_DMA, ZONE_DMA32 or ZONE_NORMAL). */
unsigned int gfp_highest_zone(gfp_t gfp);

/* The current CPU's numa_* counters, [item][node] (mm/vmstat.h) */
struct numa_counts {
	unsigned long c[NR_VM_NUMA_EVENT_ITEMS][MAX_NUMNODES];
};

void numa_counts_take(struct numa_counts *n);

/* Give every per-CPU list this batch (and high = 6 * batch), as a sysctl would. */
void buddy_set_pcp_batch(int batch);

/* CPU @cpu's per-CPU list of @zone */
static inline struct per_cpu_pages *pcp_of(struct zone *zone, unsigned int cpu)
{
	return per_cpu_ptr(zone->per_cpu_pageset, cpu);
}

/* ---------------------------------------------------------------- the model */

enum bowner { OWNER_TEST, OWNER_CACHE, OWNER_VICTIM };

struct bblock {
	unsigned long pfn;
	unsigned int order;
	unsigned int owner;	/* enum bowner */
	u64 tag;		/* written into the block with its pfn */
};

struct bmodel {
	unsigned long *allocated;	/* bit per pfn: a live block covers it */
	unsigned long nr_pfns;
	struct bblock *live;
	unsigned long nr_live, cap;
	unsigned long live_pages;	/* sum of live blocks' pages */
	unsigned long pages_freed;	/* by the model, ever (reclaim included) */
	unsigned long cache_blocks, victim_pages;
	unsigned long cache_reclaimed;	/* blocks the shrinker gave back, ever */
	u64 next_tag;
	struct shrinker shrinker;
	struct oom_victim victim;
	struct buddy_snapshot start;
	bool poison_fill;		/* check poison bytes on alloc */
	unsigned long allocs, frees, fails, bad_frees;	/* statistics */
};

/* Start the model on the current (freshly initialised) machine. */
void model_init(struct bmodel *m);
/* alloc_pages(@gfp, @order) with every check; returns the page or NULL. */
struct page *model_alloc(struct bmodel *m, gfp_t gfp, unsigned int order);
/* The same on node @nid (checking the numa_* counters and __GFP_THISNODE as well). */
struct page *model_alloc_node(struct bmodel *m, int nid, gfp_t gfp, unsigned int order);
/* alloc_pages_exact(@size, @gfp): each page becomes an order-0 block. */
void *model_alloc_exact(struct bmodel *m, size_t size, gfp_t gfp);
/* Free live block @idx, checking its pattern; @how picks __free_pages / free_pages / free_pages_exact. */
void model_free(struct bmodel *m, unsigned long idx, unsigned int how);
/* Give live block @idx to the test shrinker's cache or to the OOM victim. */
void model_donate(struct bmodel *m, unsigned long idx, enum bowner to);
/* A misuse of kind @kind (0..7, chosen with @arg); checks it is reported and harmless. */
void model_bad_free(struct bmodel *m, unsigned int kind, unsigned long arg);
/* Free everything, drain, check the free lists equal the start; unregister. */
void model_finish(struct bmodel *m);

#endif
