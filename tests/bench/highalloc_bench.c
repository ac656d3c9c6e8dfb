/*
 * tests/bench/highalloc_bench.c - stress-highalloc: how many huge blocks
 * can still be had after memory was filled with a mix of kinds and partly
 * freed?
 *
 * In the spirit of Mel Gorman's stress-highalloc test in mmtests, which
 * measured grouping by mobility and compaction: fill memory with a fixed
 * pseudo-random mix of allocations that would be movable (a file's
 * pages), reclaimable (a cache a shrinker can empty) and unmovable (page
 * tables, slabs), each kind in runs of 1 to 64 pages as real objects come;
 * then free every reclaimable run, as reclaim would, and half the movable
 * runs, as if the files were deleted; then take order-9 blocks (2 MiB,
 * transparent huge page size) until none is left.  The rows:
 *
 *   - order-9 blocks obtained, as a percentage of what the free memory
 *     above the low watermarks could hold in 2 MiB blocks, with grouping
 *     by mobility (each allocation asks for its kind) and without (every
 *     allocation asks for the unmovable kind, as Linux's
 *     page_group_by_mobility_disabled does);
 *   - pageblocks "mixed" after the fill: holding an unmovable or
 *     reclaimable page and a movable one, as a percentage of the
 *     pageblocks the fill used (a mixed pageblock cannot be emptied by
 *     moving its movable pages away);
 *   - the fill's pgalloc_extfrag events (Linux's mm_page_alloc_extfrag):
 *     allocations that took from another kind's free lists.
 *
 * The pattern is the same every run (a fixed-seed generator), and the
 * figures are counts, not times, so they are exact under any QEMU.
 */
#include "bench/bench.h"
#include "mm/mmzone.h"
#include "mm/page_alloc.h"
#include "mm/vmalloc.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"

enum kind { MOVABLE, RECLAIMABLE, UNMOVABLE };

struct run {
	unsigned int first;		/* index of its first page in pages[] */
	unsigned short len;
	unsigned char kind;
};

struct highalloc {
	struct page **pages;		/* every page of the fill, in order; NULL once freed */
	struct run *runs;
	unsigned int nr_pages, nr_runs, max_pages;
	unsigned long state;		/* the pseudo-random generator's */
};

/* A fixed-seed 64-bit LCG (Knuth's MMIX constants): the same pattern every run. */
static unsigned int next_random(struct highalloc *h, unsigned int bound)
{
	h->state = h->state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned int)((h->state >> 33) % bound);
}

static gfp_t kind_gfp(enum kind kind, bool grouping)
{
	static const gfp_t mobility[] = {
		[MOVABLE] = __GFP_MOVABLE, [RECLAIMABLE] = __GFP_RECLAIMABLE, [UNMOVABLE] = 0,
	};

	return GFP_NOWAIT | __GFP_NOWARN | (grouping ? mobility[kind] : 0);
}

/* Fill until a run cannot be completed: 75% movable, 10% reclaimable, 15% unmovable. */
static void fill(struct highalloc *h, bool grouping)
{
	for (;;) {
		unsigned int pick = next_random(h, 100), len = 1 + next_random(h, 64);
		enum kind kind = pick < 75 ? MOVABLE : pick < 85 ? RECLAIMABLE : UNMOVABLE;
		struct run *run = &h->runs[h->nr_runs];

		run->first = h->nr_pages;
		run->kind = (unsigned char)kind;
		for (run->len = 0; run->len < len && h->nr_pages < h->max_pages; run->len++) {
			struct page *page = alloc_pages(kind_gfp(kind, grouping), 0);

			if (!page)
				break;
			h->pages[h->nr_pages++] = page;
		}
		if (run->len)
			h->nr_runs++;
		if (run->len < len)
			return;
	}
}

static void free_run(struct highalloc *h, const struct run *run)
{
	for (unsigned int i = run->first; i < run->first + run->len; i++) {
		if (h->pages[i]) {
			__free_pages(h->pages[i], 0);
			h->pages[i] = NULL;
		}
	}
}

/* Pageblocks holding pages of the fill, and of those, how many hold both kinds. */
static void count_mixed(struct highalloc *h, unsigned long *used, unsigned long *mixed)
{
	unsigned long nr_blocks = (max_pfn >> pageblock_order) + 1;
	unsigned char *seen = vzalloc(nr_blocks);

	*used = *mixed = 0;
	if (!seen)
		return;
	for (unsigned int r = 0; r < h->nr_runs; r++) {
		const struct run *run = &h->runs[r];

		for (unsigned int i = run->first; i < run->first + run->len; i++)
			seen[page_to_pfn(h->pages[i]) >> pageblock_order] |=
				run->kind == MOVABLE ? 1 : 2;
	}
	for (unsigned long b = 0; b < nr_blocks; b++) {
		*used += seen[b] != 0;
		*mixed += seen[b] == 3;
	}
	vfree(seen);
}

/* What the free memory above each zone's low watermark could hold in order-9 blocks. */
static unsigned long order9_capacity(void)
{
	unsigned long pages = 0;
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long free = zone_free_pages(zone);

		if (free > zone->watermark[WMARK_LOW])
			pages += free - zone->watermark[WMARK_LOW];
	}
	return pages >> pageblock_order;
}

struct highalloc_result {
	unsigned long obtained, capacity, used_blocks, mixed_blocks, extfrag;
};

static void stress_highalloc(bool grouping, struct highalloc_result *res)
{
	static struct highalloc h;
	unsigned long extfrag = global_vm_event(PGALLOC_EXTFRAG);
	LIST_HEAD(huge);
	struct page *page, *next;

	h = (struct highalloc){ .state = 2026, .max_pages = (unsigned int)nr_free_pages() };
	h.pages = vzalloc(h.max_pages * sizeof(*h.pages));
	h.runs = vzalloc(h.max_pages * sizeof(*h.runs));
	*res = (struct highalloc_result){ 0 };
	if (h.pages && h.runs) {
		fill(&h, grouping);
		res->extfrag = global_vm_event(PGALLOC_EXTFRAG) - extfrag;
		count_mixed(&h, &res->used_blocks, &res->mixed_blocks);
		for (unsigned int r = 0; r < h.nr_runs; r++) {
			if (h.runs[r].kind == RECLAIMABLE ||
			    (h.runs[r].kind == MOVABLE && next_random(&h, 2)))
				free_run(&h, &h.runs[r]);
		}
		drain_all_pages();
		res->capacity = order9_capacity();
		while ((page = alloc_pages(GFP_KERNEL | __GFP_MOVABLE | __GFP_RETRY_MAYFAIL |
					   __GFP_NOWARN, pageblock_order))) {
			list_add(&page->lru, &huge);
			res->obtained++;
		}
		list_for_each_entry_safe(page, next, &huge, lru)
			__free_pages(page, pageblock_order);
		for (unsigned int r = 0; r < h.nr_runs; r++)
			free_run(&h, &h.runs[r]);
	}
	vfree(h.pages);
	vfree(h.runs);
	drain_all_pages();
}

/* A figure in tenths, as a row of the table ("name  figure"), which make bench keeps. */
static void print_tenths(const char *name, unsigned long tenths)
{
	printk("bench: %-44s %10lu.%lu\n", name, tenths / 10, tenths % 10);
}

static unsigned long percent_tenths(unsigned long part, unsigned long whole)
{
	return whole ? (part * 1000 + whole / 2) / whole : 0;
}

/**
 * stress_highalloc_report - run stress-highalloc with grouping by mobility on and off, print its rows
 *
 * Context: the benchmark boot, after the timed rows; takes most of memory
 * for a while and gives it all back.
 */
void stress_highalloc_report(void)
{
	static const char *const names[2][4] = {
		{ "stress-highalloc order-9 got, grouping off %", "stress-highalloc mixed pageblocks, off %",
		  "stress-highalloc extfrag events, off", "stress-highalloc order-9 capacity, off" },
		{ "stress-highalloc order-9 got, grouping on %", "stress-highalloc mixed pageblocks, on %",
		  "stress-highalloc extfrag events, on", "stress-highalloc order-9 capacity, on" },
	};

	for (int grouping = 1; grouping >= 0; grouping--) {
		struct highalloc_result r;

		stress_highalloc(grouping, &r);
		print_tenths(names[grouping][0], percent_tenths(r.obtained, r.capacity));
		print_tenths(names[grouping][1], percent_tenths(r.mixed_blocks, r.used_blocks));
		print_tenths(names[grouping][2], r.extfrag * 10);
		print_tenths(names[grouping][3], r.capacity * 10);
	}
}
