/*
 * mm/kvdemo.c - the seeds' story, run live on this machine's memory.
 *
 * The claim of the seeds (the 2010 RFC and the 2017 LWN article that
 * docs/kvmalloc.md, section 1, cites): when memory is fragmented,
 *
 *	p = kmalloc(size, GFP_KERNEL);
 *	if (!p)
 *		p = vmalloc(size);
 *
 * does not fall back at all for small orders.  kmalloc() of 32 KiB is an
 * order-3 page allocation, and the page allocator does not fail those
 * under GFP_KERNEL while it can reclaim or kill: it reclaims from caches,
 * round after round, then calls the OOM killer, which kills a victim,
 * whose freed memory makes the order-3 block.  vmalloc(), which needs no contiguous pages, never
 * runs.  kvmalloc() asks the slab gently instead and falls back at once.
 *
 * To show it, kvdemo builds a state where that happens, every time:
 *
 *   fragmented   every free block of order >= 3 is split and one page of
 *                each 8-page group is kept, the other 7 freed: plenty of
 *                free pages, no free order-3 block anywhere (checked);
 *   a victim     an OOM victim holding order-3 blocks, taken before the
 *                fragmenting, so killing it makes order-3 blocks again;
 *   a cache      single pages a shrinker can give back: reclaim frees
 *                them, but they cannot form an order-3 block (their
 *                8-page groups each hold a kept page).
 *
 * Then one kvmalloc(32 KiB, GFP_KERNEL) runs under each policy, from the
 * same state (restored between runs), and the counters say what it cost.
 * The monitor command prints the story; tests/kernel/kvdemo_test.c checks
 * the numbers.  docs/kvmalloc.md shows and explains a real run.
 */
#include "mm/kvdemo.h"
#include "mm/slab_internal.h"
#include "kernel/labs.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

/* PAGE_ALLOC_COSTLY_ORDER: the largest order that "never fails" under GFP_KERNEL */
#define DEMO_ORDER	3
#define GROUP		(1UL << DEMO_ORDER)

/* ---------------------------------------------------------------- the hard state */

/*
 * Write one word in each page of a block the hard state holds, as the
 * owner of a real cache would.  Under QEMU, guest RAM that was never
 * written has no host memory behind it yet: the first write to it costs a
 * host page fault (with zeroing, of up to 2 MiB under transparent huge
 * pages), milliseconds that would otherwise land in the timed run that
 * first writes into a page reclaim or a kill gave back.
 */
static void touch_pages(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++)
		WRITE_ONCE(*(unsigned long *)page_address(&page[i]), i);
}

/* Split an order >= 3 block; keep the first page of every 8, free the rest. */
static void keep_one_in_eight(struct kvdemo *d, struct page *page, unsigned int order)
{
	split_page(page, order);
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (i % GROUP == 0) {
			list_add(&page[i].lru, &d->kept);
			d->nr_kept++;
		} else {
			__free_page(&page[i]);
		}
	}
}

/*
 * Take every free block of order >= 3, from the largest down (below the
 * watermarks too: __GFP_MEMALLOC), and keep one page in eight of each.
 * The per-CPU lists are drained first and after: their pages could
 * otherwise merge into order-3 blocks when they go back.
 */
static void fragment(struct kvdemo *d)
{
	const gfp_t gfp = GFP_NOWAIT | __GFP_MEMALLOC | __GFP_NOWARN;

	drain_all_pages();
	for (int order = MAX_PAGE_ORDER; order >= DEMO_ORDER; order--) {
		struct page *page;

		while ((page = alloc_pages(gfp, order)))
			keep_one_in_eight(d, page, order);
	}
	drain_all_pages();
}

/**
 * kvdemo_fragmented - is no block of order >= 3 free anywhere?
 *
 * Context: may wait for other CPUs (it drains their per-CPU lists first).
 */
bool kvdemo_fragmented(void)
{
	struct zone *zone;

	drain_all_pages();
	for_each_populated_zone(zone) {
		for (int order = DEMO_ORDER; order <= MAX_PAGE_ORDER; order++) {
			if (READ_ONCE(zone->free_area[order].nr_free))
				return false;
		}
	}
	return true;
}

static unsigned long victim_badness(struct oom_victim *v)
{
	struct kvdemo *d = v->private_data;

	return d->nr_victim_blocks * GROUP;
}

static void free_victim_blocks(struct kvdemo *d)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &d->victim_blocks, lru) {
		list_del(&page->lru);
		__free_pages(page, DEMO_ORDER);
	}
	d->nr_victim_blocks = 0;
}

/* The OOM killer's call: free everything (it unregisters the victim itself). */
static void victim_kill(struct oom_victim *v)
{
	struct kvdemo *d = v->private_data;

	free_victim_blocks(d);
	d->victim_registered = false;
}

/* Take order-3 blocks for the victim until it has what it wants; false if memory ran out. */
static bool take_victim_blocks(struct kvdemo *d, gfp_t gfp)
{
	while (d->nr_victim_blocks < d->victim_blocks_wanted) {
		struct page *page = alloc_pages(gfp | __GFP_NOWARN, DEMO_ORDER);

		if (!page)
			return false;
		touch_pages(page, DEMO_ORDER);
		list_add(&page->lru, &d->victim_blocks);
		d->nr_victim_blocks++;
	}
	return true;
}

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	struct kvdemo *d = s->private_data;

	(void)sc;
	return d->nr_cache ? d->nr_cache : SHRINK_EMPTY;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct kvdemo *d = s->private_data;
	unsigned long freed = 0;

	while (freed < sc->nr_to_scan && !list_empty(&d->cache)) {
		struct page *page = list_first_entry(&d->cache, struct page, lru);

		list_del(&page->lru);
		__free_page(page);
		d->nr_cache--;
		freed++;
	}
	d->cache_reclaimed += freed;
	return freed;
}

static bool fill_cache(struct kvdemo *d)
{
	while (d->nr_cache < d->cache_wanted) {
		struct page *page = alloc_page(GFP_NOWAIT | __GFP_NOWARN);

		if (!page)
			return false;
		touch_pages(page, 0);
		list_add(&page->lru, &d->cache);
		d->nr_cache++;
	}
	return true;
}

/**
 * kvdemo_setup - build the hard state (see the file comment)
 * @d: the demo's state, filled in here
 *
 * The victim gets 1/128 of the free memory in order-3 blocks (at least 8),
 * the cache 1/16 in single pages (at least 256: two reclaim batches).
 * Context: may sleep; other CPUs should be idle (their allocations would
 * change the state).
 * Return: 0, or -ENOMEM (everything given back): on a machine with fewer
 * than about KVDEMO_LEAST_PAGES free pages.
 */
int kvdemo_setup(struct kvdemo *d)
{
	unsigned long free;

	*d = (struct kvdemo){
		.victim = { .name = "kvdemo-victim", .badness = victim_badness,
			    .kill = victim_kill, .private_data = d },
		.shrinker = { .count_objects = cache_count, .scan_objects = cache_scan,
			      .seeks = DEFAULT_SEEKS, .private_data = d },
	};
	INIT_LIST_HEAD(&d->kept);
	INIT_LIST_HEAD(&d->victim_blocks);
	INIT_LIST_HEAD(&d->cache);
	/* Empty slabs first: freed during a run, they could make an order-3 block. */
	drop_slab();
	drain_all_pages();
	free = nr_free_pages();
	d->victim_blocks_wanted = max(free / 128 / GROUP, (unsigned long)KVDEMO_MIN_VICTIM_BLOCKS);
	/* two reclaim batches at least: one reclaim round must not empty it (small machines) */
	d->cache_wanted = max(free / 16, (unsigned long)KVDEMO_MIN_CACHE);
	if (!take_victim_blocks(d, GFP_KERNEL | __GFP_NORETRY))
		goto fail;
	fragment(d);
	if (!fill_cache(d) || !kvdemo_fragmented())
		goto fail;
	register_oom_victim(&d->victim);
	d->victim_registered = true;
	register_shrinker(&d->shrinker, "kvdemo-cache");
	d->shrinker_registered = true;
	return 0;
fail:
	kvdemo_teardown(d);
	return -ENOMEM;
}

/**
 * kvdemo_restore - the hard state again after a run: the victim alive with
 * its blocks, the cache full, no free order-3 block
 *
 * After a kill, the victim takes its freed blocks back.  A block that
 * became free besides (pages in use when the state was built, given back
 * by a run since) is split as at setup: without it, the default boot of a
 * machine of 6 MiB with four CPUs had an order-3 block free after the
 * first run, and the story stopped there.
 * Return: 0, or -ENOMEM if the state could not be rebuilt.
 */
int kvdemo_restore(struct kvdemo *d)
{
	drain_all_pages();
	if (!take_victim_blocks(d, GFP_NOWAIT) || !fill_cache(d))
		return -ENOMEM;
	fragment(d);
	if (!kvdemo_fragmented())
		return -ENOMEM;
	if (!d->victim_registered) {
		register_oom_victim(&d->victim);
		d->victim_registered = true;
	}
	return 0;
}

/**
 * kvdemo_unregister - neither the OOM killer nor reclaim may touch the
 * victim or the cache any more; their memory stays held (and the free
 * memory fragmented) until kvdemo_teardown()
 *
 * Context: may wait for a kill in progress on another CPU.
 */
void kvdemo_unregister(struct kvdemo *d)
{
	if (d->victim_registered)
		unregister_oom_victim(&d->victim);
	d->victim_registered = false;
	if (d->shrinker_registered)
		unregister_shrinker(&d->shrinker);
	d->shrinker_registered = false;
}

/** kvdemo_teardown - give back everything kvdemo_setup() took */
void kvdemo_teardown(struct kvdemo *d)
{
	struct shrink_control all = { .nr_to_scan = ~0UL };
	struct page *page, *next;

	kvdemo_unregister(d);
	free_victim_blocks(d);
	cache_scan(&d->shrinker, &all);
	list_for_each_entry_safe(page, next, &d->kept, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	d->nr_kept = 0;
	drain_all_pages();
}

/* ---------------------------------------------------------------- one run */

/**
 * kvdemo_run - one kvmalloc(@size, GFP_KERNEL) under @policy, from the hard state
 * @d: the state (kvdemo_setup() or kvdemo_restore() just before)
 * @policy: KVMALLOC_NORETRY, KVMALLOC_NODIRECT or KVMALLOC_NAIVE
 * @size: bytes (32 KiB in the story: an order-3 kmalloc)
 * @r: what it did
 *
 * The memory is freed again, and the vmalloc space purged, before it returns.
 * Context: may sleep.
 */
void kvdemo_run(struct kvdemo *d, enum kvmalloc_policy policy, size_t size,
		struct kvdemo_result *r)
{
	unsigned long before[NR_VM_EVENT_ITEMS], after[NR_VM_EVENT_ITEMS];
	unsigned long reclaimed = d->cache_reclaimed;
	u64 t0, t1;
	void *p;

	all_vm_events(before);
	t0 = rdtsc_ordered();
	p = kvmalloc_node_policy(size, GFP_KERNEL, NUMA_NO_NODE, policy);
	t1 = rdtsc_ordered();
	all_vm_events(after);
	*r = (struct kvdemo_result){
		.source = !p ? KVDEMO_FAILED : is_vmalloc_addr(p) ? KVDEMO_VMALLOC : KVDEMO_SLAB,
		.reclaim_passes = after[ALLOCSTALL] - before[ALLOCSTALL],
		.scanned = after[SLABS_SCANNED] - before[SLABS_SCANNED],
		.reclaimed = d->cache_reclaimed - reclaimed +
			     after[SLAB_SHRINK_PAGES] - before[SLAB_SHRINK_PAGES],
		.oom_kills = after[OOM_KILL] - before[OOM_KILL],
		.cycles = t1 - t0,
		.victim_alive = d->victim_registered,
	};
	kvfree(p);
	vm_unmap_aliases();
}

/**
 * kvdemo_first_vmalloc_size - the 2010 RFC's test: kvmalloc() of 1 B, 2 B,
 * 4 B ... 1 GiB (GFP_KERNEL | __GFP_NOWARN), each freed before the next
 * @largest: set to the largest size that succeeded (0 if none)
 *
 * Context: may sleep.
 * Return: the first size served by vmalloc, or 0 if none was.
 */
size_t kvdemo_first_vmalloc_size(size_t *largest)
{
	size_t first = 0;

	*largest = 0;
	for (size_t size = 1; size <= (1UL << 30); size <<= 1) {
		void *p = kvmalloc(size, GFP_KERNEL | __GFP_NOWARN);

		if (!p)
			break;
		if (!first && is_vmalloc_addr(p))
			first = size;
		*largest = size;
		kvfree(p);
		vm_unmap_aliases();
	}
	return first;
}

/**
 * kvdemo_order3_size - the first size of the RFC's scan (a power of two)
 * that kvmalloc()'s slab attempt can serve only from a block of order 3 or
 * more: where the hard state hands it to vmalloc
 *
 * 32 KiB, an order-3 kmalloc; or 8 KiB when slab debugging is on for
 * kmalloc-8k: its objects keep their natural alignment behind a left
 * redzone of 8 KiB, so one slot takes more than 16 KiB and its slab is
 * 32 KiB (as in Linux with slub_debug=Z).  kvmalloc() never falls back at
 * a page or less, so the scan starts above.
 */
size_t kvdemo_order3_size(void)
{
	size_t size;

	for (size = 2 * PAGE_SIZE; size <= KMALLOC_MAX_CACHE_SIZE; size <<= 1) {
		if (kmalloc_caches[kmalloc_index(size)]->min_order >= DEMO_ORDER)
			return size;
	}
	while (get_order(size) < DEMO_ORDER)
		size <<= 1;
	return size;
}

/* ---------------------------------------------------------------- the monitor command */

static const char *const source_names[] = {
	[KVDEMO_SLAB] = "slab", [KVDEMO_VMALLOC] = "vmalloc", [KVDEMO_FAILED] = "failed",
};

/* "32 KiB", "8 MiB": a power of two in the largest unit that divides it. */
static void print_size(const char *before, size_t size, const char *after)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
	int u = 0;

	while (u < 3 && size >= 1024 && size % 1024 == 0) {
		size /= 1024;
		u++;
	}
	printk(KERN_CONT "%s%zu %s%s", before, size, units[u], after);
}

static void print_rfc_scan(const char *when, size_t first, size_t largest)
{
	printk("  %-26s first size served by vmalloc:", when);
	if (first)
		print_size(" ", first, ";");
	else
		printk(KERN_CONT " none;");
	print_size(" largest that succeeds: ", largest, "\n");
}

/* Why a checked kmalloc-8k needs an order-3 block (kvdemo_order3_size()). */
static void explain_checked_8k(void)
{
	printk("   That is 8 KiB here, not 32 KiB: with slab debugging, a kmalloc-8k\n"
	       "   object sits behind an 8 KiB left redzone that keeps it 8 KiB-aligned,\n"
	       "   so its slab is 32 KiB (boot without slab_debug to see 32 KiB).\n");
}

/*
 * Part 3's reading, which must say what the figures say: on a machine of a
 * few MiB, free memory runs out before the size where vmalloc takes over.
 */
static void explain_rfc_scan(size_t fresh_first, size_t frag_first, size_t frag_largest)
{
	size_t order3 = kvdemo_order3_size();

	if (fresh_first > KMALLOC_MAX_SIZE)
		printk("   Fresh, the slab and the page allocator serve every size up to 4 MiB\n"
		       "   (KMALLOC_MAX_SIZE).\n");
	else if (fresh_first)	/* a small machine: no free block of that size at all */
		print_size("   Fresh, vmalloc takes over already at ", fresh_first,
			   ": this machine has no free\n"
			   "   block that large, even before the hard state is built.\n");
	else
		printk("   Fresh, free memory ran out before 8 MiB, the first size above 4 MiB\n"
		       "   (KMALLOC_MAX_SIZE): vmalloc was never needed.\n");
	printk("   In the hard state (victim and cache unregistered, their memory still\n"
	       "   held) ");
	if (frag_first == order3) {
		printk(KERN_CONT "vmalloc takes over at the first size that needs an order-3 block.\n"
		       "   The largest size is limited by free memory only.\n");
		if (order3 < GROUP * PAGE_SIZE)
			explain_checked_8k();
	} else if (!frag_first && frag_largest < order3) {
		print_size("free memory ran out after ", frag_largest,
			   ", before the first size that needs\n"
			   "   an order-3 block: this machine is too small to show vmalloc\n"
			   "   taking over there.\n");
	} else {	/* the state could not be rebuilt (said above): no story to read */
		printk(KERN_CONT "the figures are not the hard state's: it could not be rebuilt.\n");
	}
}

#define ROW(label, fmt, field)							\
	do {									\
		printk("  %-22s", label);					\
		for (int i = 0; i < NR_KVMALLOC_POLICIES; i++)			\
			printk(KERN_CONT " %12" fmt, field);			\
		printk(KERN_CONT "\n");						\
	} while (0)

static void print_table(const struct kvdemo_result *r)
{
	printk("  %-22s", "");
	for (int i = 0; i < NR_KVMALLOC_POLICIES; i++)
		printk(KERN_CONT " %12s", kvmalloc_policy_names[i]);
	printk(KERN_CONT "\n");
	ROW("memory came from", "s", source_names[r[i].source]);
	ROW("reclaim passes", "lu", r[i].reclaim_passes);
	ROW("objects scanned", "lu", r[i].scanned);
	ROW("pages reclaimed", "lu", r[i].reclaimed);
	ROW("OOM kills", "lu", r[i].oom_kills);
	ROW("cycles (rdtsc)", "lu", r[i].cycles);
	ROW("the victim", "s", r[i].victim_alive ? "alive" : "killed");
}

static int cmd_kvdemo(int argc, char **argv)
{
	struct kvdemo_result r[NR_KVMALLOC_POLICIES];
	size_t fresh_first, fresh_largest, frag_first, frag_largest;
	static struct kvdemo d;

	(void)argc;
	(void)argv;
	printk("kvdemo: kmalloc() then vmalloc(), done naively and done right "
	       "(the seeds' story: the 2010 RFC and 2017 LWN article in docs/kvmalloc.md)\n\n");
	if (LABS_HANDED_OUT[0])
		printk("kvdemo: it needs every lab done, and this tree was handed out with these\n"
		       "   to do: %s.  Until they are, what follows shows their stubs, not the\n"
		       "   story.\n\n", LABS_HANDED_OUT);
	fresh_first = kvdemo_first_vmalloc_size(&fresh_largest);

	printk("1. A hard state.  Free memory now, in blocks of each order:\n");
	show_buddyinfo();
	if (kvdemo_setup(&d)) {
		printk("kvdemo: not enough memory to build the state; nothing changed\n");
		return -ENOMEM;
	}
	printk("   Every free block of 32 KiB (order 3) or more was split, and one page of\n"
	       "   each 8 kept (%lu pages): plenty of free pages, no order-3 block left.\n"
	       "   An OOM victim holds %lu order-3 blocks; a cache a shrinker can empty\n"
	       "   holds %lu single pages.  Free memory now:\n", d.nr_kept, d.nr_victim_blocks,
	       d.nr_cache);
	show_buddyinfo();

	printk("\n2. kvmalloc(32 KiB, GFP_KERNEL) from that state, under each policy (the\n"
	       "   state is rebuilt before each run; the naive run wakes the OOM killer,\n"
	       "   whose report comes first):\n");
	/*
	 * A first, untimed run of the two gentle policies: under QEMU the
	 * first execution of any code includes translating it, which would
	 * count against whichever policy happened to run first.
	 */
	kvdemo_run(&d, KVMALLOC_NORETRY, 32 << 10, &r[0]);
	kvdemo_run(&d, KVMALLOC_NODIRECT, 32 << 10, &r[0]);
	for (int i = 0; i < NR_KVMALLOC_POLICIES; i++) {
		if (kvdemo_restore(&d) || !kvdemo_fragmented()) {
			printk("kvdemo: could not rebuild the state for '%s'; stopping\n",
			       kvmalloc_policy_names[i]);
			kvdemo_teardown(&d);
			return -ENOMEM;
		}
		kvdemo_run(&d, i, 32 << 10, &r[i]);
	}
	print_table(r);
	printk("   noretry (Linux 4.12-6.15, the default here): one reclaim round (it\n"
	       "   aims at 32 pages, at rising priority), then vmalloc.  nodirect (Linux\n"
	       "   6.16): no reclaim at all, then vmalloc.\n"
	       "   naive: kmalloc() never gave up: round after round reclaimed single\n"
	       "   pages that can never make an order-3 block, until its retries ran out;\n"
	       "   then the OOM killer killed the victim for one.  The vmalloc fallback\n"
	       "   never ran.\n");
	printk("   (Cycles are wall-clock time, which under QEMU varies from run to run;\n"
	       "   make bench counts each policy's instructions exactly.)\n");

	/* The same state, but nothing to kill or reclaim: the RFC's test must not hurt anyone. */
	if (kvdemo_restore(&d))
		printk("kvdemo: could not rebuild the state for the RFC's test\n");
	kvdemo_unregister(&d);
	frag_first = kvdemo_first_vmalloc_size(&frag_largest);
	kvdemo_teardown(&d);
	printk("\n3. The 2010 RFC's test: kvmalloc() of 1 B, 2 B, 4 B ... 1 GiB, each freed:\n");
	print_rfc_scan("on the fresh machine:", fresh_first, fresh_largest);
	print_rfc_scan("in the hard state:", frag_first, frag_largest);
	explain_rfc_scan(fresh_first, frag_first, frag_largest);
	return 0;
}
MONITOR_COMMAND(kvdemo, "",
		"kmalloc-then-vmalloc done naively and right (the 2010 RFC and 2017 LWN story)"
		LABS_NEEDED, cmd_kvdemo);
