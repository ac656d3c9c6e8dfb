/*
 * tests/bench/highalloc_bench.c - stress-highalloc: how many huge blocks
 * can still be had after memory was filled with a mix of kinds and partly
 * freed?
 *
 * In the spirit of Mel Gorman's stress-highalloc test in mmtests, which
 * measured grouping by mobility and compaction: fill memory with a fixed
 * pseudo-random mix of allocations that would be movable (a file's
 * pages: here really movable, with an owner that lets compaction move
 * them), reclaimable (a cache a shrinker can empty) and unmovable (page
 * tables, slabs), each kind in runs of 1 to 64 pages as real objects
 * come; then free every reclaimable run, as reclaim would, and half the
 * movable runs, as if the files were deleted; then take order-9 blocks
 * (2 MiB, transparent huge page size) with __GFP_RETRY_MAYFAIL until none
 * is left.  Three configurations:
 *
 *   both on         each allocation asks for its kind, and the order-9
 *                   allocations may compact (direct compaction);
 *   compaction off  the same fill, but vm.extfrag_threshold at 1000, so
 *                   that compaction_suitable() turns every costly
 *                   compaction down (Linux's own knob);
 *   grouping off    every allocation asks for the unmovable kind, as under
 *                   Linux's page_group_by_mobility_disabled, compaction on.
 *
 * The rows, for each: order-9 blocks obtained as a percentage of what the
 * free memory above the low watermarks could hold in 2 MiB blocks; the
 * pageblocks "mixed" after the fill (holding an unmovable or reclaimable
 * page and a movable one: they cannot be emptied by moving pages), as a
 * percentage of the pageblocks the fill used; the fill's pgalloc_extfrag
 * events (Linux's mm_page_alloc_extfrag: allocations that took from
 * another kind's free lists); and, with compaction, the instructions the
 * order-9 phase took per page it migrated (under -icount the TSC counts
 * instructions).
 *
 * The pattern is the same every run (a fixed-seed generator), so the
 * figures are exact under make bench's -icount.
 */
#include "bench/bench.h"
#include "mm/mmzone.h"
#include "mm/page_alloc.h"
#include "mm/vmalloc.h"
#include "mm/vmstat.h"
#include "mm/compaction.h"
#include "mm/migrate.h"
#include "arch/x86_64/cpu.h"
#include "kernel/printk.h"
#include "lib/vsprintf.h"

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

static struct highalloc highalloc;

/*
 * The movable pages' owner: each page's first word is its index in
 * pages[], so that a migrated copy knows its slot.  One CPU runs the
 * benchmark and the compaction it causes, so no lock is needed.
 */
static bool highalloc_isolate(struct page *page, enum migrate_mode mode)
{
	(void)mode;
	return highalloc.pages[*(unsigned long *)page_address(page)] == page;
}

static int highalloc_migrate(struct page *dst, struct page *src, enum migrate_mode mode);

static void highalloc_putback(struct page *page)
{
	(void)page;	/* still in its slot */
}

static const struct movable_operations highalloc_mops = {
	.isolate_page = highalloc_isolate,
	.migrate_page = highalloc_migrate,
	.putback_page = highalloc_putback,
};

static int highalloc_migrate(struct page *dst, struct page *src, enum migrate_mode mode)
{
	(void)src;
	(void)mode;
	__SetPageMovable(dst, &highalloc_mops);
	highalloc.pages[*(unsigned long *)page_address(dst)] = dst;
	return MIGRATEPAGE_SUCCESS;
}

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
			if (kind == MOVABLE) {
				*(unsigned long *)page_address(page) = h->nr_pages;
				__SetPageMovable(page, &highalloc_mops);
			}
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
	unsigned long migrated, cycles;
};

/* Take order-9 blocks until none is left: how many, what it migrated and what it cost. */
static void take_order9_blocks(struct highalloc_result *res)
{
	unsigned long migrated = global_vm_event(PGMIGRATE_SUCCESS);
	u64 t0 = rdtsc_ordered();
	LIST_HEAD(huge);
	struct page *page, *next;

	while ((page = alloc_pages(GFP_KERNEL | __GFP_MOVABLE | __GFP_RETRY_MAYFAIL | __GFP_NOWARN,
				   pageblock_order))) {
		list_add(&page->lru, &huge);
		res->obtained++;
	}
	res->cycles = rdtsc_ordered() - t0;
	res->migrated = global_vm_event(PGMIGRATE_SUCCESS) - migrated;
	list_for_each_entry_safe(page, next, &huge, lru)
		__free_pages(page, pageblock_order);
}

/* Forget earlier failures: each configuration starts with no zone deferring compaction. */
static void reset_compaction_deferral(void)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		compaction_defer_reset(zone, MAX_PAGE_ORDER, true);
}

static void stress_highalloc(bool grouping, bool compaction, struct highalloc_result *res)
{
	struct highalloc *h = &highalloc;
	unsigned long extfrag = global_vm_event(PGALLOC_EXTFRAG);
	int threshold = sysctl_extfrag_threshold;

	*h = (struct highalloc){ .state = 2026, .max_pages = (unsigned int)nr_free_pages() };
	h->pages = vzalloc(h->max_pages * sizeof(*h->pages));
	h->runs = vzalloc(h->max_pages * sizeof(*h->runs));
	*res = (struct highalloc_result){ 0 };
	if (h->pages && h->runs) {
		fill(h, grouping);
		res->extfrag = global_vm_event(PGALLOC_EXTFRAG) - extfrag;
		count_mixed(h, &res->used_blocks, &res->mixed_blocks);
		for (unsigned int r = 0; r < h->nr_runs; r++) {
			if (h->runs[r].kind == RECLAIMABLE ||
			    (h->runs[r].kind == MOVABLE && next_random(h, 2)))
				free_run(h, &h->runs[r]);
		}
		drain_all_pages();
		res->capacity = order9_capacity();
		reset_compaction_deferral();
		if (!compaction)
			sysctl_extfrag_threshold = 1000;
		take_order9_blocks(res);
		sysctl_extfrag_threshold = threshold;
		for (unsigned int r = 0; r < h->nr_runs; r++)
			free_run(h, &h->runs[r]);
	}
	vfree(h->pages);
	vfree(h->runs);
	*h = (struct highalloc){ 0 };
	drain_all_pages();
}

/* A figure in tenths, as a row of the table ("name  figure"), which make bench keeps. */
static void print_tenths(const char *what, const char *config, unsigned long tenths)
{
	char name[64];

	snprintf(name, sizeof(name), "highalloc %s, %s", what, config);
	printk("bench: %-44s %10lu.%lu\n", name, tenths / 10, tenths % 10);
}

static unsigned long percent_tenths(unsigned long part, unsigned long whole)
{
	return whole ? (part * 1000 + whole / 2) / whole : 0;
}

/**
 * stress_highalloc_report - run stress-highalloc in its three configurations, print its rows
 *
 * Context: the benchmark boot, after the timed rows; takes most of memory
 * for a while and gives it all back.
 */
void stress_highalloc_report(void)
{
	static const struct {
		const char *name;
		bool grouping, compaction;
	} configs[] = {
		{ "both on", true, true },
		{ "compaction off", true, false },
		{ "grouping off", false, true },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(configs); i++) {
		struct highalloc_result r;

		stress_highalloc(configs[i].grouping, configs[i].compaction, &r);
		print_tenths("order-9 got %", configs[i].name,
			     percent_tenths(r.obtained, r.capacity));
		print_tenths("mixed pageblocks %", configs[i].name,
			     percent_tenths(r.mixed_blocks, r.used_blocks));
		print_tenths("extfrag events", configs[i].name, r.extfrag * 10);
		if (configs[i].compaction)
			print_tenths("instr/migrated page", configs[i].name,
				     r.migrated ? r.cycles * 10 / r.migrated : 0);
	}
}
