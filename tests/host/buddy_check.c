/*
 * tests/host/buddy_check.c - consistency checker, snapshots and the
 * reference model of the buddy allocator (see buddy_check.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernel_names.h"
#include "buddy_check.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define BITS	(8 * sizeof(unsigned long))

unsigned long buddy_check_failures;

void check_fail(const char *fmt, ...)
{
	char msg[512];
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	if (buddy_check_failures++ < 50)
		fprintf(stdout, "    FAIL: %s\n", msg);
	fflush(stdout);
}

static bool test_bit_(const unsigned long *map, unsigned long i)
{
	return (map[i / BITS] >> (i % BITS)) & 1;
}

static void set_bit_(unsigned long *map, unsigned long i)
{
	map[i / BITS] |= 1UL << (i % BITS);
}

static void clear_bit_(unsigned long *map, unsigned long i)
{
	map[i / BITS] &= ~(1UL << (i % BITS));
}

static unsigned long *bitmap_alloc(unsigned long bits)
{
	unsigned long *map = calloc(bits / BITS + 1, sizeof(unsigned long));

	if (!map)
		abort();
	return map;
}

unsigned int gfp_highest_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	if (gfp & __GFP_DMA32)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

/* ---------------------------------------------------------------- consistency */

static unsigned long problems;

#define PROBLEM(...)	check_problem(problems, __VA_ARGS__)

/* Does @p point at a struct page of a pfn with one? */
static bool page_ptr_ok(const struct page *p)
{
	unsigned long off = (unsigned long)p - (unsigned long)vmemmap;

	if ((unsigned long)p < (unsigned long)vmemmap || off % sizeof(struct page))
		return false;
	return pfn_valid(off / sizeof(struct page));
}

static bool same_links(const struct page *a, const struct page *b)
{
	return (a->flags >> ZONES_SHIFT) == (b->flags >> ZONES_SHIFT);
}

static void check_free_list(struct zone *zone, int nid, int z, unsigned int order, int mt,
			    unsigned long *seen, unsigned long *heads, unsigned long *listed)
{
	struct free_area *area = &zone->free_area[order];
	struct list_head *head = &area->free_list[mt], *l;
	unsigned long n = 0;

	for (l = head->next; l != head; l = l->next) {
		struct page *page = list_entry(l, struct page, lru);
		unsigned long pfn;

		if (!page_ptr_ok(page)) {
			PROBLEM("%s order %u: list entry %p is not a struct page", zone->name, order,
				(void *)page);
			return;
		}
		if (l->next->prev != l) {
			PROBLEM("%s order %u: broken list links at pfn %#lx", zone->name, order,
				page_to_pfn(page));
			return;
		}
		if (++n > max_pfn) {
			PROBLEM("%s order %u: list loops", zone->name, order);
			return;
		}
		pfn = page_to_pfn(page);
		if (!PageBuddy(page))
			PROBLEM("%s order %u: pfn %#lx on a free list without PG_buddy", zone->name,
				order, pfn);
		if (page->private != order)
			PROBLEM("%s order %u: pfn %#lx records order %lu", zone->name, order, pfn,
				page->private);
		if (pfn & ((1UL << order) - 1))
			PROBLEM("%s order %u: pfn %#lx not aligned", zone->name, order, pfn);
		if (pfn < zone->zone_start_pfn || pfn + (1UL << order) > zone_end_pfn(zone))
			PROBLEM("%s order %u: block at pfn %#lx outside the zone [%#lx, %#lx)",
				zone->name, order, pfn, zone->zone_start_pfn, zone_end_pfn(zone));
		if ((int)page_zonenum(page) != z || page_to_nid(page) != nid)
			PROBLEM("%s order %u: pfn %#lx belongs to node %d zone %u", zone->name,
				order, pfn, page_to_nid(page), page_zonenum(page));
		if (page->flags & ((1UL << PG_reserved) | (1UL << PG_pcp) | (1UL << PG_allocated) |
				   (1UL << PG_head)))
			PROBLEM("%s order %u: free pfn %#lx has flags %#lx", zone->name, order, pfn,
				page->flags);
		if (get_pageblock_migratetype(page) != mt)
			PROBLEM("%s order %u: pfn %#lx on type %d's list, its pageblock is type %d",
				zone->name, order, pfn, mt, get_pageblock_migratetype(page));
		set_bit_(heads, pfn);
		for (unsigned long i = 0; i < (1UL << order); i++) {
			struct page *p;

			if (!pfn_valid(pfn + i)) {
				PROBLEM("%s order %u: block at %#lx covers invalid pfn %#lx", zone->name,
					order, pfn, pfn + i);
				break;
			}
			p = pfn_to_page(pfn + i);
			if (test_bit_(seen, pfn + i))
				PROBLEM("%s order %u: pfn %#lx is in two free blocks", zone->name,
					order, pfn + i);
			set_bit_(seen, pfn + i);
			if (i && (p->flags & ((1UL << PG_buddy) | (1UL << PG_pcp) |
					      (1UL << PG_allocated) | (1UL << PG_reserved))))
				PROBLEM("%s order %u: interior pfn %#lx of free block %#lx has flags %#lx",
					zone->name, order, pfn + i, pfn, p->flags);
			if (i && PageTail(p))
				PROBLEM("%s order %u: interior pfn %#lx of free block %#lx is still a "
					"compound tail", zone->name, order, pfn + i, pfn);
			if (i && !same_links(p, page))
				PROBLEM("%s order %u: block at %#lx crosses into another zone at %#lx",
					zone->name, order, pfn, pfn + i);
		}
		/* Maximal merging: the buddy cannot be free with the same order. */
		if (order < MAX_PAGE_ORDER) {
			unsigned long b = pfn ^ (1UL << order);

			if (pfn_valid(b) && PageBuddy(pfn_to_page(b)) &&
			    pfn_to_page(b)->private == order && same_links(pfn_to_page(b), page))
				PROBLEM("%s order %u: free buddies %#lx and %#lx not merged", zone->name,
					order, pfn, b);
		}
	}
	*listed += n;
	(void)area;
	(void)heads;
}

static int check_pcp_list(struct zone *zone, unsigned int cpu, struct list_head *head,
			  unsigned long *seen);

static void check_pcp(struct zone *zone, unsigned int cpu, unsigned long *seen)
{
	struct per_cpu_pages *pcp = pcp_of(zone, cpu);
	int n = 0;

	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		n += check_pcp_list(zone, cpu, &pcp->lists[mt], seen);
	if (n != pcp->count)
		PROBLEM("%s pcp cpu %u: %d pages on the lists, count says %d", zone->name, cpu, n,
			pcp->count);
	/*
	 * A free drains at high, so high - 1 at most is left; but a type's
	 * list is refilled when it alone is empty, a batch on top of the
	 * others' pages (as in Linux): below high + batch.
	 */
	if (pcp->count < 0 || (pcp->high && pcp->count >= pcp->high + pcp->batch))
		PROBLEM("%s pcp cpu %u: count %d, high %d, batch %d", zone->name, cpu, pcp->count,
			pcp->high, pcp->batch);
}

/* One of a CPU's lists: PG_pcp pages of the zone, each free once; returns its length. */
static int check_pcp_list(struct zone *zone, unsigned int cpu, struct list_head *head,
			  unsigned long *seen)
{
	struct list_head *l;
	int n = 0;

	for (l = head->next; l != head; l = l->next) {
		struct page *page = list_entry(l, struct page, lru);
		unsigned long pfn;

		if (!page_ptr_ok(page)) {
			PROBLEM("%s pcp cpu %u: entry %p is not a struct page", zone->name, cpu,
				(void *)page);
			return n;
		}
		if (++n > (int)max_pfn) {
			PROBLEM("%s pcp cpu %u: list loops", zone->name, cpu);
			return n;
		}
		pfn = page_to_pfn(page);
		if (!page_test(page, PG_pcp) || PageBuddy(page) || page_test(page, PG_allocated) ||
		    PageReserved(page))
			PROBLEM("%s pcp cpu %u: pfn %#lx has flags %#lx", zone->name, cpu, pfn,
				page->flags);
		if (page_zone(page) != zone)
			PROBLEM("%s pcp cpu %u: pfn %#lx belongs to another zone", zone->name, cpu, pfn);
		if (test_bit_(seen, pfn))
			PROBLEM("%s pcp cpu %u: pfn %#lx is free twice", zone->name, cpu, pfn);
		set_bit_(seen, pfn);
	}
	return n;
}

unsigned long buddy_check_consistency(void)
{
	unsigned long *seen = bitmap_alloc(max_pfn + 1), *heads = bitmap_alloc(max_pfn + 1);
	unsigned long managed = 0;
	int nid;

	problems = 0;
	if (host_irqs_off)
		PROBLEM("interrupts left off");
	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];
			unsigned long pages = 0;
			unsigned int cpu;

			if (spin_is_locked(&zone->lock))
				PROBLEM("%s: zone lock left held", zone->name);
			managed += zone->managed_pages;
			if (!zone->free_area[0].free_list[0].next)
				continue;	/* never initialised */
			for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
				unsigned long listed = 0;

				for (int mt = 0; mt < MIGRATE_TYPES; mt++)
					check_free_list(zone, nid, z, o, mt, seen, heads, &listed);
				if (listed != zone->free_area[o].nr_free)
					PROBLEM("%s order %u: %lu blocks on the lists, nr_free says %lu",
						zone->name, o, listed, zone->free_area[o].nr_free);
				pages += listed << o;
			}
			if (pages != zone->nr_free)
				PROBLEM("%s: free lists hold %lu pages, nr_free says %lu", zone->name,
					pages, zone->nr_free);
			for_each_online_cpu(cpu)
				check_pcp(zone, cpu, seen);
			if (zone_free_pages(zone) > zone->managed_pages)
				PROBLEM("%s: %lu free of %lu managed", zone->name, zone_free_pages(zone),
					zone->managed_pages);
		}
	}
	if (managed != totalram_pages)
		PROBLEM("zones manage %lu pages, totalram_pages is %lu", managed, totalram_pages);
	/* No stray free page: every PG_buddy is a listed head, every free page was seen. */
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		const struct page *page;

		if (!(pfn & ((1UL << 12) - 1)) && !pfn_valid(pfn)) {
			pfn |= (1UL << 12) - 1;		/* a section without struct pages */
			continue;
		}
		page = pfn_to_page(pfn);
		if (PageBuddy(page) && !test_bit_(heads, pfn))
			PROBLEM("pfn %#lx has PG_buddy but is on no free list", pfn);
		if (page_test(page, PG_pcp) && !test_bit_(seen, pfn))
			PROBLEM("pfn %#lx has PG_pcp but is on no per-CPU list", pfn);
		if (PageReserved(page) && test_bit_(seen, pfn))
			PROBLEM("reserved pfn %#lx is free", pfn);
	}
	free(seen);
	free(heads);
	return problems;
}

/* ---------------------------------------------------------------- snapshots */

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

void buddy_snapshot_take(struct buddy_snapshot *s)
{
	unsigned long n = 0, cap = 1024;
	int nid;

	memset(s, 0, sizeof(*s));
	s->blocks = malloc(cap * sizeof(unsigned long));
	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			if (!zone->free_area[0].free_list[0].next)
				continue;
			s->zone_free[nid][z] = zone->nr_free;
			for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
				struct page *page;

				s->nr_free[nid][z][o] = zone->free_area[o].nr_free;
				for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
					list_for_each_entry(page, &zone->free_area[o].free_list[mt], lru) {
						if (n == cap) {
							cap *= 2;
							s->blocks = realloc(s->blocks,
									    cap * sizeof(unsigned long));
						}
						s->blocks[n++] = page_to_pfn(page) << 4 | o;
					}
				}
			}
		}
	}
	qsort(s->blocks, n, sizeof(unsigned long), cmp_ulong);
	s->nr_blocks = n;
	s->free_pages = nr_free_pages();
}

bool buddy_snapshot_equal(const struct buddy_snapshot *a, const struct buddy_snapshot *b)
{
	int reported = 0;

	if (a->free_pages != b->free_pages) {
		check_fail("nr_free_pages %lu, expected %lu", b->free_pages, a->free_pages);
		reported++;
	}
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			for (int o = 0; o <= MAX_PAGE_ORDER; o++) {
				if (a->nr_free[nid][z][o] != b->nr_free[nid][z][o] && reported++ < 8)
					check_fail("node %d zone %d order %d: nr_free %lu, expected %lu",
						   nid, z, o, b->nr_free[nid][z][o],
						   a->nr_free[nid][z][o]);
			}
		}
	}
	if (a->nr_blocks != b->nr_blocks) {
		check_fail("%lu free blocks, expected %lu", b->nr_blocks, a->nr_blocks);
		return false;
	}
	for (unsigned long i = 0; i < a->nr_blocks; i++) {
		if (a->blocks[i] != b->blocks[i]) {
			check_fail("free block %lu is pfn %#lx order %lu, expected pfn %#lx order %lu", i,
				   b->blocks[i] >> 4, b->blocks[i] & 15, a->blocks[i] >> 4,
				   a->blocks[i] & 15);
			return false;
		}
	}
	return !reported;
}

void buddy_snapshot_free(struct buddy_snapshot *s)
{
	free(s->blocks);
	s->blocks = NULL;
}

/* ---------------------------------------------------------------- the model */

static struct bblock *cache_blocks_arr, *victim_blocks_arr;
static unsigned long cache_cap, victim_cap, nr_victim_blocks;

static u64 pattern(u64 tag, unsigned long pfn)
{
	return (tag * 0x9e3779b97f4a7c15ULL) ^ ((u64)pfn << 1) ^ 0x5555000000000001ULL;
}

static unsigned long pattern_off(unsigned long pfn)
{
	return ((pfn * 2654435761UL) % (PAGE_SIZE / 8 - 2) + 1) * 8;
}

static void fill_block(const struct bblock *b)
{
	for (unsigned long i = 0; i < (1UL << b->order); i++) {
		u64 *p = __va((phys_addr_t)(b->pfn + i) << PAGE_SHIFT);
		u64 v = pattern(b->tag, b->pfn + i);

		p[0] = v;
		p[pattern_off(b->pfn + i) / 8] = ~v;
		p[PAGE_SIZE / 8 - 1] = v + 1;
	}
}

static bool check_block(const struct bblock *b)
{
	for (unsigned long i = 0; i < (1UL << b->order); i++) {
		const u64 *p = __va((phys_addr_t)(b->pfn + i) << PAGE_SHIFT);
		u64 v = pattern(b->tag, b->pfn + i);

		if (p[0] != v || p[pattern_off(b->pfn + i) / 8] != ~v || p[PAGE_SIZE / 8 - 1] != v + 1) {
			check_fail("block pfn %#lx order %u: contents changed at pfn %#lx while allocated",
				   b->pfn, b->order, b->pfn + i);
			return false;
		}
	}
	return true;
}

static bool block_is_zero(unsigned long pfn, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		const u64 *p = __va((phys_addr_t)(pfn + i) << PAGE_SHIFT);

		if (order <= 3) {
			for (unsigned long w = 0; w < PAGE_SIZE / 8; w++) {
				if (p[w])
					return false;
			}
		} else if (p[0] || p[pattern_off(pfn + i) / 8] || p[PAGE_SIZE / 8 - 1]) {
			return false;
		}
	}
	return true;
}

static void push(struct bblock **arr, unsigned long *n, unsigned long *cap, struct bblock b)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*arr = realloc(*arr, *cap * sizeof(**arr));
		if (!*arr)
			abort();
	}
	(*arr)[(*n)++] = b;
}

/* Free @b (no longer in any array) with the method @how, checking it was intact. */
static void free_bblock(struct bmodel *m, struct bblock b, unsigned int how)
{
	unsigned long before = nr_free_pages();
	void *addr = __va((phys_addr_t)b.pfn << PAGE_SHIFT);

	check_block(&b);
	for (unsigned long i = 0; i < (1UL << b.order); i++) {
		if (!test_bit_(m->allocated, b.pfn + i))
			check_fail("model: freeing pfn %#lx that it does not hold", b.pfn + i);
		clear_bit_(m->allocated, b.pfn + i);
	}
	switch (how % 3) {
	case 0:
		__free_pages(pfn_to_page(b.pfn), b.order);
		break;
	case 1:
		free_pages((unsigned long)addr, b.order);
		break;
	default:
		if (b.order == 0)
			free_pages_exact(addr, PAGE_SIZE - (how % 4000));
		else
			__free_pages(pfn_to_page(b.pfn), b.order);
		break;
	}
	m->live_pages -= 1UL << b.order;
	m->pages_freed += 1UL << b.order;
	m->frees++;
	if (nr_free_pages() != before + (1UL << b.order))
		check_fail("freeing pfn %#lx order %u: nr_free_pages %lu -> %lu", b.pfn, b.order,
			   before, nr_free_pages());
}

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	struct bmodel *m = container_of(s, struct bmodel, shrinker);

	(void)sc;
	return m->cache_blocks;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct bmodel *m = container_of(s, struct bmodel, shrinker);
	unsigned long freed = 0;

	while (freed < sc->nr_to_scan && m->cache_blocks) {
		free_bblock(m, cache_blocks_arr[--m->cache_blocks], (unsigned int)freed);
		freed++;
	}
	m->cache_reclaimed += freed;
	return freed;
}

static unsigned long victim_badness(struct oom_victim *v)
{
	struct bmodel *m = container_of(v, struct bmodel, victim);

	return m->victim_pages;
}

static void victim_kill(struct oom_victim *v)
{
	struct bmodel *m = container_of(v, struct bmodel, victim);

	while (nr_victim_blocks)
		free_bblock(m, victim_blocks_arr[--nr_victim_blocks], 0);
	m->victim_pages = 0;
}

void model_init(struct bmodel *m)
{
	memset(m, 0, sizeof(*m));
	m->nr_pfns = max_pfn;
	m->allocated = bitmap_alloc(max_pfn + 1);
	m->next_tag = 1;
	cache_blocks_arr = victim_blocks_arr = NULL;
	cache_cap = victim_cap = nr_victim_blocks = 0;
	m->shrinker.count_objects = cache_count;
	m->shrinker.scan_objects = cache_scan;
	m->shrinker.batch = 8;
	m->shrinker.seeks = DEFAULT_SEEKS;
	register_shrinker(&m->shrinker, "model-cache");
	m->victim.name = "model-victim";
	m->victim.badness = victim_badness;
	m->victim.kill = victim_kill;
	register_oom_victim(&m->victim);
	drain_all_pages();
	buddy_snapshot_take(&m->start);
}

/*
 * Did the allocator leave anything an unrestricted allocation could have
 * had?  On every node, or on @thisnode only (-1: every node).
 */
static bool could_allocate(gfp_t gfp, unsigned int order, int thisnode)
{
	int nid;

	for_each_node(nid) {
		if (thisnode >= 0 && nid != thisnode)
			continue;
		for (int z = 0; z <= (int)gfp_highest_zone(gfp); z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			if (!zone_populated(zone))
				continue;
			/* its own type's list: pages of another type's wait for a drain (as Linux) */
			if (!order && !list_empty(&pcp_of(zone, smp_processor_id())->lists[
					gfp_migratetype(gfp)]))
				return true;
			for (unsigned int o = order; o <= MAX_PAGE_ORDER; o++) {
				if (zone->free_area[o].nr_free)
					return true;
			}
		}
	}
	return false;
}

/* Does node @nid have a zone that @gfp may use? */
static bool node_can_serve(int nid, gfp_t gfp)
{
	for (int z = 0; z <= (int)gfp_highest_zone(gfp); z++) {
		if (zone_populated(&NODE_DATA(nid)->node_zones[z]))
			return true;
	}
	return false;
}

/*
 * The node the numa_* counters call preferred, worked out from the
 * distances rather than read from the zonelists: @nid if it has a zone
 * @gfp may use (or if __GFP_THISNODE allows no other), else the nearest
 * node that has (the lowest id among equals), as Linux's preferred zone;
 * -1 if no node has.
 */
static int preferred_node(int nid, gfp_t gfp)
{
	int best = -1, other;

	if ((gfp & __GFP_THISNODE) || node_can_serve(nid, gfp))
		return nid;
	for_each_node(other) {
		if (node_can_serve(other, gfp) &&
		    (best < 0 || node_distance(nid, other) < node_distance(nid, best)))
			best = other;
	}
	return best;
}

void numa_counts_take(struct numa_counts *n)
{
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		for (int nid = 0; nid < MAX_NUMNODES; nid++)
			n->c[i][nid] = cpu_numa_event(smp_processor_id(), nid, i);
	}
}

/*
 * After an allocation that asked for node @nid (NUMA_NO_NODE already
 * replaced by this CPU's) and got @page (or NULL), the numa_* counters moved exactly as Linux's
 * zone_statistics() moves them, and __GFP_THISNODE stayed on its node.
 */
static void check_numa(const struct numa_counts *then, int nid, gfp_t gfp, unsigned int order,
		       struct page *page)
{
	struct numa_counts want = *then, now;
	int preferred = preferred_node(nid, gfp);

	numa_counts_take(&now);
	if (page) {
		int got = page_to_nid(page);

		if ((gfp & __GFP_THISNODE) && got != preferred)
			check_fail("__GFP_THISNODE alloc for node %d (order %u) got node %d", nid,
				   order, got);
		if (got == preferred) {
			want.c[NUMA_HIT][got]++;
		} else {
			want.c[NUMA_MISS][got]++;
			want.c[NUMA_FOREIGN][preferred]++;
		}
		want.c[got == numa_node_id() ? NUMA_LOCAL : NUMA_OTHER][got]++;
	}
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		for (int n = 0; n < MAX_NUMNODES; n++) {
			if (now.c[i][n] != want.c[i][n])
				check_fail("alloc for node %d (cpu %u, gfp %#x, order %u, %s): "
					   "%s of node %d moved by %ld, expected %ld", nid,
					   smp_processor_id(), gfp, order, page ? "done" : "failed",
					   numa_event_names[i], n, (long)(now.c[i][n] - then->c[i][n]),
					   (long)(want.c[i][n] - then->c[i][n]));
		}
	}
}

/* Unexpected "BUG:" or "WARNING:" lines since @pos? */
static void check_log(unsigned long pos, const char *what)
{
	char buf[4096];
	const char *bug;

	if (printk_log_pos() == pos)
		return;
	printk_log_read(pos, buf, sizeof(buf));
	bug = strstr(buf, "BUG:");
	if (!bug)
		bug = strstr(buf, "WARNING:");
	if (bug)
		check_fail("%s: unexpected report: %.120s", what, bug);
}

/* Checks common to every successful allocation; records the block. */
static void record_block(struct bmodel *m, unsigned long pfn, unsigned int order, gfp_t gfp)
{
	struct page *page = pfn_to_page(pfn);
	struct bblock b = { .pfn = pfn, .order = order, .owner = OWNER_TEST, .tag = m->next_tag++ };

	if (pfn & ((1UL << order) - 1))
		check_fail("alloc order %u returned unaligned pfn %#lx", order, pfn);
	if (page_zonenum(page) > gfp_highest_zone(gfp))
		check_fail("alloc gfp %#x returned pfn %#lx of zone %u", gfp, pfn, page_zonenum(page));
	if (!page_test(page, PG_allocated) || allocated_order(page) != order ||
	    page_private(page))
		check_fail("alloc order %u: pfn %#lx has flags %#lx private %lu", order, pfn,
			   page->flags, page->private);
	set_page_private(page, b.tag);	/* the owner's word: the free must not care */
	if (PageHead(page) != ((gfp & __GFP_COMP) && order))
		check_fail("alloc gfp %#x order %u: PG_head is %d", gfp, order, PageHead(page));
	for (unsigned long i = 1; i < (1UL << order); i++) {
		if (compound_head(page + i) != (PageHead(page) ? page : page + i))
			check_fail("alloc gfp %#x order %u: pfn %#lx does not know its head", gfp,
				   order, pfn + i);
	}
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (!host_pfn_is_ram(pfn + i) || host_pfn_is_reserved(pfn + i)) {
			check_fail("alloc order %u at pfn %#lx: pfn %#lx is not free RAM", order, pfn,
				   pfn + i);
			return;
		}
		if (test_bit_(m->allocated, pfn + i)) {
			check_fail("alloc order %u at pfn %#lx overlaps a live block at pfn %#lx", order,
				   pfn, pfn + i);
			return;
		}
		set_bit_(m->allocated, pfn + i);
	}
	if ((gfp & __GFP_ZERO) && !block_is_zero(pfn, order))
		check_fail("__GFP_ZERO block at pfn %#lx order %u is not zeroed", pfn, order);
	fill_block(&b);
	push(&m->live, &m->nr_live, &m->cap, b);
	m->live_pages += 1UL << order;
	m->allocs++;
}

/*
 * Linux's rules for the OOM killer (__alloc_pages_may_oom(), out_of_memory()),
 * as docs/page_alloc.md lists them: small orders only, not for callers that
 * cope with failure, not for one node only, not for DMA/DMA32 memory, and
 * never a kill without __GFP_FS (the model makes no such call: it would
 * wait for ever, "too small to fail", with nobody else to free memory).
 */
static bool model_may_oom(gfp_t gfp, unsigned int order)
{
	return order <= PAGE_ALLOC_COSTLY_ORDER &&
	       !(gfp & (__GFP_NORETRY | __GFP_RETRY_MAYFAIL | __GFP_THISNODE |
			__GFP_DMA | __GFP_DMA32)) &&
	       (gfp & __GFP_FS);
}

/*
 * What docs/design.md promises about a call for node @nid that has just
 * returned.  __GFP_THISNODE on a node without a zone @gfp may use fails
 * at once, as Linux: nothing to reclaim for, nobody to kill.
 */
static void check_semantics(struct bmodel *m, int nid, gfp_t gfp, unsigned int order, bool ok,
			    unsigned long stalls, unsigned long kills, unsigned long freed,
			    unsigned long reclaimed)
{
	bool no_zone = (gfp & __GFP_THISNODE) && !node_can_serve(nid, gfp);

	reclaimed = m->cache_reclaimed - reclaimed;
	stalls = global_vm_event(ALLOCSTALL) - stalls;
	kills = global_vm_event(OOM_KILL) - kills;
	freed = m->pages_freed - freed;
	if (no_zone && (ok || stalls || kills || freed))
		check_fail("gfp %#x on node %d (no zone for it): %s, %lu stalls, %lu kills", gfp, nid,
			   ok ? "succeeded" : "failed", stalls, kills);
	if (!(gfp & __GFP_DIRECT_RECLAIM) && (stalls || kills || freed))
		check_fail("gfp %#x (no direct reclaim) reclaimed: %lu stalls, %lu kills", gfp, stalls,
			   kills);
	if (!model_may_oom(gfp, order) && kills)
		check_fail("gfp %#x order %u invoked the OOM killer", gfp, order);
	if ((gfp & __GFP_NORETRY) && stalls > 1)
		check_fail("__GFP_NORETRY reclaimed %lu times", stalls);
	/* a costly order gets one round unless it may retry (Linux 6.12) */
	if (order > PAGE_ALLOC_COSTLY_ORDER && !(gfp & (__GFP_RETRY_MAYFAIL | __GFP_NOFAIL)) &&
	    stalls > 1)
		check_fail("gfp %#x order %u reclaimed %lu times", gfp, order, stalls);
	if (ok || !(gfp & __GFP_DIRECT_RECLAIM) || (gfp & __GFP_NORETRY) || no_zone)
		return;
	/*
	 * A failed allocation that could reclaim: each reclaim round took
	 * SWAP_CLUSTER_MAX blocks of the cache, or went down to priority 0,
	 * which takes all the cache has (Linux's priorities, mm/vmscan.c)...
	 */
	if (m->cache_blocks && reclaimed < stalls * SWAP_CLUSTER_MAX)
		check_fail("gfp %#x order %u failed with %lu blocks still reclaimable after %lu "
			   "reclaim rounds took only %lu", gfp, order, m->cache_blocks, stalls,
			   reclaimed);
	/* ... and, for small orders, called the OOM killer while there was a victim. */
	if (model_may_oom(gfp, order) && m->victim_pages)
		check_fail("gfp %#x order %u failed with a victim holding %lu pages", gfp, order,
			   m->victim_pages);
}

struct page *model_alloc_node(struct bmodel *m, int nid, gfp_t gfp, unsigned int order)
{
	unsigned long before = nr_free_pages(), freed = m->pages_freed;
	unsigned long stalls = global_vm_event(ALLOCSTALL), kills = global_vm_event(OOM_KILL);
	unsigned long pos = printk_log_pos(), reclaimed = m->cache_reclaimed;
	struct numa_counts numa;
	struct page *page;
	int thisnode;

	if (buddy_check_failures)
		return NULL;
	/* reclaim frees pages, it does not allocate: only this allocation is counted */
	numa_counts_take(&numa);
	page = alloc_pages_node(nid, gfp, order);
	check_log(pos, "alloc_pages");
	if (nid == NUMA_NO_NODE)
		nid = numa_mem_id();
	check_semantics(m, nid, gfp, order, page, stalls, kills, freed, reclaimed);
	check_numa(&numa, nid, gfp, order, page);
	thisnode = gfp & __GFP_THISNODE ? nid : -1;
	freed = m->pages_freed - freed;
	if (!page) {
		m->fails++;
		if (nr_free_pages() != before + freed)
			check_fail("failed alloc changed nr_free_pages: %lu -> %lu (+%lu reclaimed)",
				   before, nr_free_pages(), freed);
		if ((gfp & __GFP_MEMALLOC) && could_allocate(gfp, order, thisnode))
			check_fail("__GFP_MEMALLOC order %u gfp %#x failed with memory free", order, gfp);
		return NULL;
	}
	if (nr_free_pages() != before + freed - (1UL << order))
		check_fail("alloc order %u: nr_free_pages %lu -> %lu (+%lu reclaimed)", order, before,
			   nr_free_pages(), freed);
	record_block(m, page_to_pfn(page), order, gfp);
	return page;
}

struct page *model_alloc(struct bmodel *m, gfp_t gfp, unsigned int order)
{
	return model_alloc_node(m, NUMA_NO_NODE, gfp, order);
}

void *model_alloc_exact(struct bmodel *m, size_t size, gfp_t gfp)
{
	unsigned long before = nr_free_pages(), freed = m->pages_freed;
	unsigned long stalls = global_vm_event(ALLOCSTALL), kills = global_vm_event(OOM_KILL);
	unsigned long pos = printk_log_pos(), used = DIV_ROUND_UP(size, PAGE_SIZE);
	unsigned long reclaimed = m->cache_reclaimed;
	void *addr;

	if (buddy_check_failures || !size)
		return NULL;
	addr = alloc_pages_exact(size, gfp);
	check_log(pos, "alloc_pages_exact");
	check_semantics(m, numa_mem_id(), gfp, get_order(size), addr, stalls, kills, freed,
			reclaimed);
	freed = m->pages_freed - freed;
	if (!addr) {
		m->fails++;
		return NULL;
	}
	if (nr_free_pages() != before + freed - used)
		check_fail("alloc_pages_exact(%zu): nr_free_pages %lu -> %lu", size, before,
			   nr_free_pages());
	for (unsigned long i = 0; i < used; i++)
		record_block(m, (__pa(addr) >> PAGE_SHIFT) + i, 0, gfp);
	/* The tail really went back: those pages are free now. */
	for (unsigned long i = used; i < (1UL << get_order(size)); i++) {
		struct page *p = virt_to_page(addr) + i;

		if (p->flags & (1UL << PG_allocated))
			check_fail("alloc_pages_exact(%zu): tail pfn %#lx still allocated", size,
				   page_to_pfn(p));
	}
	return addr;
}

void model_free(struct bmodel *m, unsigned long idx, unsigned int how)
{
	struct bblock b;
	unsigned long pos = printk_log_pos();

	if (buddy_check_failures || !m->nr_live)
		return;
	idx %= m->nr_live;
	b = m->live[idx];
	m->live[idx] = m->live[--m->nr_live];
	free_bblock(m, b, how);
	check_log(pos, "free");
}

void model_donate(struct bmodel *m, unsigned long idx, enum bowner to)
{
	struct bblock b;

	if (buddy_check_failures || !m->nr_live)
		return;
	idx %= m->nr_live;
	b = m->live[idx];
	m->live[idx] = m->live[--m->nr_live];
	b.owner = to;
	if (to == OWNER_CACHE) {
		push(&cache_blocks_arr, &m->cache_blocks, &cache_cap, b);
	} else {
		if (!m->victim.list.next)	/* killed: it may be a victim again */
			register_oom_victim(&m->victim);
		push(&victim_blocks_arr, &nr_victim_blocks, &victim_cap, b);
		m->victim_pages += 1UL << b.order;
	}
}

/* RAM pfns of the machine, counted through the ranges: the @n-th one. */
static unsigned long nth_ram_pfn(unsigned long n)
{
	unsigned long total = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < host_nr_ram; i++) {
			unsigned long s = ALIGN(host_ram[i].base, PAGE_SIZE) >> PAGE_SHIFT;
			unsigned long e = (host_ram[i].base + host_ram[i].size) >> PAGE_SHIFT;

			if (!pass) {
				total += e > s ? e - s : 0;
			} else if (e > s && n < e - s) {
				return s + n;
			} else if (e > s) {
				n -= e - s;
			}
		}
		if (!total)
			return ~0UL;
		n %= total;
	}
	return ~0UL;
}

/* A free pfn (RAM, not reserved, not held by the model), chosen by @from, or ~0. */
static unsigned long find_free_pfn(struct bmodel *m, unsigned long from)
{
	for (unsigned long n = 0; n < 4096; n++) {
		unsigned long pfn = nth_ram_pfn(from + n * 7919);

		/* not the model's, nor the balloon's (allocated outside the model) */
		if (pfn != ~0UL && !host_pfn_is_reserved(pfn) && !test_bit_(m->allocated, pfn) &&
		    !page_test(pfn_to_page(pfn), PG_allocated))
			return pfn;
	}
	return ~0UL;
}

/* A pfn with a struct page that is not free RAM: reserved, or a hole in a section. */
static unsigned long find_reserved_pfn(unsigned long from)
{
	for (int n = 0; n < host_nr_reserved; n++) {
		const struct host_range *r = &host_reserved[(from + n) % host_nr_reserved];
		unsigned long pfn = (r->base >> PAGE_SHIFT) +
				    (from >> 4) % DIV_ROUND_UP(r->size, PAGE_SIZE);

		if (pfn_valid(pfn))
			return pfn;
	}
	return ~0UL;
}

void buddy_set_pcp_batch(int batch)
{
	int nid;

	for_each_node(nid) {
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
				pcp_of(&NODE_DATA(nid)->node_zones[z], cpu)->batch = batch;
				pcp_of(&NODE_DATA(nid)->node_zones[z], cpu)->high = 6 * batch;
			}
		}
	}
}

void model_bad_free(struct bmodel *m, unsigned int kind, unsigned long arg)
{
	unsigned long before = nr_free_pages(), bad = global_vm_event(PGALLOC_BAD_FREE);
	unsigned long pos = printk_log_pos(), pfn;
	struct bblock *b = m->nr_live ? &m->live[arg % m->nr_live] : NULL;
	char buf[1024];
	const char *what;

	if (buddy_check_failures)
		return;
	switch (kind % 8) {
	case 0:
		what = "double free";
		pfn = find_free_pfn(m, arg);
		if (pfn == ~0UL)
			return;
		__free_pages(pfn_to_page(pfn), (unsigned int)(arg >> 8) % 2 ? 0 : (arg >> 9) % 11);
		break;
	case 1:
		what = "wrong order";
		if (!b)
			return;
		__free_pages(pfn_to_page(b->pfn), (b->order + 1 + (arg >> 8) % 10) % 11);
		break;
	case 2:
		what = "interior page";
		if (!b || !b->order)
			return;
		__free_pages(pfn_to_page(b->pfn + 1 + (arg >> 8) % ((1UL << b->order) - 1)),
			     (arg >> 16) % 2 ? 0 : b->order);
		break;
	case 3:
		what = "reserved page";
		pfn = find_reserved_pfn(arg);
		if (pfn == ~0UL)
			return;
		__free_pages(pfn_to_page(pfn), 0);
		break;
	case 4:
		what = "pfn outside RAM";
		__free_pages(pfn_to_page(max_pfn + (arg >> 8) % 100000), 0);
		break;
	case 5:
		what = "unaligned address";
		if (!b)
			return;
		free_pages((unsigned long)__va((phys_addr_t)b->pfn << PAGE_SHIFT) +
			   1 + (arg >> 8) % (PAGE_SIZE - 1), b->order);
		break;
	case 6:
		what = "order > MAX_PAGE_ORDER";
		if (!b)
			return;
		if ((arg >> 8) & 1)
			__free_pages(pfn_to_page(b->pfn), MAX_PAGE_ORDER + 1 + (arg >> 9) % 50);
		else
			free_pages((unsigned long)__va((phys_addr_t)b->pfn << PAGE_SHIFT),
				   MAX_PAGE_ORDER + 1 + (arg >> 9) % 50);
		break;
	default:
		what = "address outside the direct map";
		free_pages(PAGE_OFFSET + (max_pfn << PAGE_SHIFT) + ((arg >> 8) % 1000) * PAGE_SIZE,
			   0);
		break;
	}
	m->bad_frees++;
	printk_log_read(pos, buf, sizeof(buf));
	if (!strstr(buf, "BUG: Bad page free"))
		check_fail("%s: no \"BUG: Bad page free\" report (log: %.200s)", what, buf);
	if (global_vm_event(PGALLOC_BAD_FREE) != bad + 1)
		check_fail("%s: pgalloc_bad_free went from %lu to %lu", what, bad,
			   global_vm_event(PGALLOC_BAD_FREE));
	if (nr_free_pages() != before)
		check_fail("%s: nr_free_pages changed %lu -> %lu", what, before, nr_free_pages());
}

void model_finish(struct bmodel *m)
{
	struct buddy_snapshot end;

	while (m->nr_live && !buddy_check_failures)
		model_free(m, m->nr_live - 1, (unsigned int)m->nr_live);
	while (m->cache_blocks && !buddy_check_failures)
		free_bblock(m, cache_blocks_arr[--m->cache_blocks], 0);
	while (nr_victim_blocks && !buddy_check_failures)
		free_bblock(m, victim_blocks_arr[--nr_victim_blocks], 1);
	m->victim_pages = 0;
	unregister_shrinker(&m->shrinker);
	unregister_oom_victim(&m->victim);
	if (!buddy_check_failures) {
		drain_all_pages();
		buddy_snapshot_take(&end);
		if (!buddy_snapshot_equal(&m->start, &end))
			check_fail("after freeing everything the free lists differ from the start");
		buddy_snapshot_free(&end);
		buddy_check_consistency();
	}
	buddy_snapshot_free(&m->start);
	free(m->allocated);
	free(m->live);
	free(cache_blocks_arr);
	free(victim_blocks_arr);
	cache_blocks_arr = victim_blocks_arr = NULL;
	m->allocated = NULL;
	m->live = NULL;
}
