/*
 * tests/soak/soak.c - every allocator on every CPU at once, for minutes
 * (make soak SOAK_SECONDS=600).
 *
 * Unit tests prove each rule once; a soak looks for what only shows up
 * after millions of operations racing each other: a lost page, a counter
 * that drifts, an object handed out twice, a lock taken in the wrong order.
 * Each CPU runs the same loop on a table of its own objects:
 *
 *   allocate   a page block (order 0..3), a kmalloc (8 B..8 KiB), an object
 *              of the soak's own cache, a vmalloc (1..256 pages) or a
 *              kvmalloc (1 B..4 MiB), and stamp it (its first and last
 *              bytes, and a word in every page, from a per-object seed);
 *   free       a random object after checking its stamps: mostly here, and
 *              one time in eight from an interrupt handler on another CPU
 *              (an IPI), where vmalloc memory goes to the deferred list.
 *
 * Each CPU keeps its live memory under a budget that, all CPUs together,
 * is 95% of RAM, so memory runs short often: CPU 0 also
 * keeps a cache a shrinker can empty and an OOM victim holding pages, and
 * refills both, so reclaim and the OOM killer run while everyone allocates.
 * At the end everything is freed, the per-CPU lists drained, the caches
 * shrunk and the vmalloc space purged, and the free pages must be exactly
 * as many as before the soak started.  The last line says "soak: clean" or
 * what went wrong; tests/qemu_runner.py soak prints it.
 */
#include "soak/soak.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/slab_internal.h"
#include "mm/kvmalloc.h"
#include "mm/oom.h"
#include "mm/shrinker.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"
#include "lib/string.h"

#define SLOTS		512		/* objects a CPU may hold at once */
#define STAMP		64		/* bytes stamped at each end */
#define PRESSURE_PAGES	512		/* CPU 0's cache and victim, each */
#define NSEC_PER_SEC	1000000000ULL

enum kind { K_PAGES, K_KMALLOC, K_CACHE, K_VMALLOC, K_KVMALLOC, NR_KINDS };
static const char *const kind_names[NR_KINDS] = {
	"pages", "kmalloc", "kmem_cache", "vmalloc", "kvmalloc",
};

struct object {
	void *p;			/* NULL: the slot is empty */
	size_t size;
	unsigned int order;		/* K_PAGES */
	enum kind kind;
	u64 seed;
};

struct soak_cpu {
	struct object slot[SLOTS];
	u64 rng;
	size_t live, budget;		/* bytes held, and the most it may hold */
	unsigned long ops[NR_KINDS], failed[NR_KINDS], irq_frees, errors;
	struct work_struct work;
	int done;
};

static struct soak_cpu *soak_cpus;	/* one per CPU, vzalloc()ed */
static struct kmem_cache *soak_cache;
static u64 deadline;
static unsigned long lowest_free;

static u64 next_random(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* ---------------------------------------------------------------- stamps */

static void stamp_range(u8 *p, size_t n, u64 seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (u8)(seed >> (8 * (i % 8))) ^ (u8)i;
}

static bool stamp_ok(const u8 *p, size_t n, u64 seed)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] != ((u8)(seed >> (8 * (i % 8))) ^ (u8)i))
			return false;
	}
	return true;
}

/* Both ends, and for multi-page memory the first word of every page. */
static void stamp(struct object *o, bool check, bool *ok)
{
	u8 *p = o->p;
	size_t n = min(o->size / 2, (size_t)STAMP);	/* the two ends never overlap */

	if (check) {
		*ok = stamp_ok(p, n, o->seed) && stamp_ok(p + o->size - n, n, ~o->seed);
	} else {
		stamp_range(p, n, o->seed);
		stamp_range(p + o->size - n, n, ~o->seed);
	}
	for (size_t off = PAGE_SIZE; off + sizeof(u64) <= o->size - n; off += PAGE_SIZE) {
		if (check)
			*ok = *ok && *(u64 *)(p + off) == o->seed + off;
		else
			*(u64 *)(p + off) = o->seed + off;
	}
}

/* ---------------------------------------------------------------- one object */

static void *allocate(struct object *o)
{
	switch (o->kind) {
	case K_PAGES: {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, o->order);

		return page ? page_address(page) : NULL;
	}
	case K_KMALLOC:
		return kmalloc(o->size, GFP_KERNEL | __GFP_NOWARN);
	case K_CACHE:
		return kmem_cache_alloc(soak_cache, GFP_KERNEL | __GFP_NOWARN);
	case K_VMALLOC:
		return __vmalloc(o->size, GFP_KERNEL | __GFP_NOWARN);
	default:
		return kvmalloc(o->size, GFP_KERNEL | __GFP_NOWARN);
	}
}

/* Free @o's memory (any context: vfree() defers from an interrupt handler). */
static void release(struct object *o)
{
	switch (o->kind) {
	case K_PAGES:
		__free_pages(virt_to_page(o->p), o->order);
		break;
	case K_KMALLOC:
		kfree(o->p);
		break;
	case K_CACHE:
		kmem_cache_free(soak_cache, o->p);
		break;
	case K_VMALLOC:
		vfree(o->p);
		break;
	default:
		kvfree(o->p);
	}
}

static void choose(struct soak_cpu *c, struct object *o)
{
	u64 r = next_random(&c->rng);

	o->kind = (enum kind)(r % NR_KINDS);
	o->seed = next_random(&c->rng);
	r >>= 8;
	switch (o->kind) {
	case K_PAGES:
		o->order = r % 4;
		o->size = PAGE_SIZE << o->order;
		break;
	case K_KMALLOC:
		o->size = 8 + r % (8192 - 8 + 1);
		break;
	case K_CACHE:
		o->size = 200;
		break;
	case K_VMALLOC:
		o->size = (1 + r % 256) * PAGE_SIZE - (r >> 8) % PAGE_SIZE;
		break;
	default:
		o->size = 1 + (r >> 10) % (1UL << (r % 23));	/* 1 B .. 4 MiB, mostly small */
	}
}

static void check_and_release(struct soak_cpu *c, struct object *o, int cpu)
{
	bool ok = true;

	stamp(o, true, &ok);
	if (!ok) {
		c->errors++;
		pr_err("soak: CPU %d: %s object %px (%zu bytes) was overwritten\n", cpu,
		       kind_names[o->kind], o->p, o->size);
	}
	release(o);
}

/* ---------------------------------------------------------------- frees from interrupts */

struct irq_free {
	struct object o;
	struct soak_cpu *owner;
};

static void free_in_irq(void *info)
{
	struct irq_free *f = info;

	check_and_release(f->owner, &f->o, smp_processor_id());
}

static void free_slot(struct soak_cpu *c, int cpu, int i)
{
	struct object *o = &c->slot[i];
	int other = (cpu + 1) % num_online_cpus();

	c->live -= o->size;
	if (other != cpu && next_random(&c->rng) % 8 == 0) {
		struct irq_free f = { *o, c };

		smp_call_function_single(other, free_in_irq, &f, 1);
		c->irq_frees++;
	} else {
		check_and_release(c, o, cpu);
	}
	o->p = NULL;
}

/* ---------------------------------------------------------------- memory pressure */

static struct list_head cache_pages = LIST_HEAD_INIT(cache_pages);
static struct list_head victim_pages = LIST_HEAD_INIT(victim_pages);
static unsigned long nr_cache_pages, nr_victim_pages, reclaimed, kills;
static bool victim_registered;
static DEFINE_SPINLOCK(pressure_lock);

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	return READ_ONCE(nr_cache_pages) ? READ_ONCE(nr_cache_pages) : SHRINK_EMPTY;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0, flags;

	(void)s;
	spin_lock_irqsave(&pressure_lock, flags);
	while (freed < sc->nr_to_scan && !list_empty(&cache_pages)) {
		struct page *page = list_first_entry(&cache_pages, struct page, lru);

		list_del(&page->lru);
		nr_cache_pages--;
		__free_page(page);
		freed++;
	}
	reclaimed += freed;
	spin_unlock_irqrestore(&pressure_lock, flags);
	return freed;
}

static struct shrinker soak_shrinker = {
	.count_objects = cache_count, .scan_objects = cache_scan, .seeks = DEFAULT_SEEKS,
};

static unsigned long victim_badness(struct oom_victim *v)
{
	(void)v;
	return READ_ONCE(nr_victim_pages);
}

static void free_list(struct list_head *list, unsigned long *nr)
{
	while (!list_empty(list)) {
		struct page *page = list_first_entry(list, struct page, lru);

		list_del(&page->lru);
		__free_page(page);
		(*nr)--;
	}
}

static void victim_kill(struct oom_victim *v)
{
	unsigned long flags;

	(void)v;
	spin_lock_irqsave(&pressure_lock, flags);
	free_list(&victim_pages, &nr_victim_pages);
	victim_registered = false;
	kills++;
	spin_unlock_irqrestore(&pressure_lock, flags);
}

static struct oom_victim soak_victim = {
	.name = "soak-victim", .badness = victim_badness, .kill = victim_kill,
};

/* CPU 0, now and then: the cache and the victim back to full, the victim alive. */
static void refill_pressure(void)
{
	while (READ_ONCE(nr_cache_pages) < PRESSURE_PAGES ||
	       (!READ_ONCE(victim_registered) && READ_ONCE(nr_victim_pages) < PRESSURE_PAGES)) {
		struct page *page = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		struct list_head *list;
		unsigned long flags;

		if (!page)
			return;
		spin_lock_irqsave(&pressure_lock, flags);
		list = nr_cache_pages < PRESSURE_PAGES ? &cache_pages : &victim_pages;
		list_add(&page->lru, list);
		if (list == &cache_pages)
			nr_cache_pages++;
		else
			nr_victim_pages++;
		spin_unlock_irqrestore(&pressure_lock, flags);
	}
	if (!READ_ONCE(victim_registered)) {
		victim_registered = true;
		register_oom_victim(&soak_victim);
	}
}

/* ---------------------------------------------------------------- the loop */

static void soak_loop(struct soak_cpu *c, int cpu)
{
	unsigned long round = 0;
	u64 next_report = ktime_get_ns() + 10ULL * NSEC_PER_SEC;

	while (ktime_get_ns() < deadline) {
		int i = (int)(next_random(&c->rng) % SLOTS);
		struct object *o = &c->slot[i];

		/*
		 * Every 256 turns of the loop, whatever they did: on a small
		 * machine most allocations fail, and counting only the ones
		 * that succeed would leave the pressure and the least free
		 * count unrefreshed for most of the soak.
		 */
		if (cpu == 0 && ++round % 256 == 0) {
			refill_pressure();
			lowest_free = min(lowest_free, nr_free_pages());
			if (ktime_get_ns() > next_report) {
				next_report += 10ULL * NSEC_PER_SEC;
				pr_info("soak: %llu s left, %lu pages free, %lu reclaimed, %lu OOM "
					"kills so far\n", (deadline - ktime_get_ns()) / NSEC_PER_SEC,
					nr_free_pages(), reclaimed, kills);
			}
		}

		/* What interrupt handlers left us (vfree()s): this loop is a work item too. */
		if (deferred_work_pending())
			run_deferred_work();
		if (o->p) {
			/* Keep most slots full: memory runs short, reclaim and the OOM killer run. */
			if (next_random(&c->rng) % 4 == 0)
				free_slot(c, cpu, i);
			continue;
		}
		choose(c, o);
		if (c->live + o->size > c->budget)
			continue;
		o->p = allocate(o);
		c->ops[o->kind]++;
		if (!o->p) {
			c->failed[o->kind]++;
			continue;
		}
		stamp(o, false, NULL);
		c->live += o->size;
	}
	for (int i = 0; i < SLOTS; i++) {
		if (c->slot[i].p)
			free_slot(c, cpu, i);
	}
}

static void soak_work(struct work_struct *work)
{
	struct soak_cpu *c = container_of(work, struct soak_cpu, work);
	int cpu = (int)(c - soak_cpus);

	soak_loop(c, cpu);
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
}

/*
 * Free pages with everything cached given back, so that they can be compared
 * exactly; page tables made for the vmalloc space stay (docs/vmalloc.md), so
 * they count as free here.
 */
static unsigned long settled_free_pages(void)
{
	flush_scheduled_work();		/* the vfree()s deferred on every CPU */
	vm_unmap_aliases();
	kmem_cache_shrink_all();
	drain_all_pages();
	return nr_free_pages() + READ_ONCE(nr_kernel_pagetable_pages);
}

static unsigned long errors;

static void report_totals(unsigned long seconds)
{
	unsigned long ops[NR_KINDS] = { 0 }, failed[NR_KINDS] = { 0 }, irq = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		for (int k = 0; k < NR_KINDS; k++) {
			ops[k] += soak_cpus[cpu].ops[k];
			failed[k] += soak_cpus[cpu].failed[k];
		}
		irq += soak_cpus[cpu].irq_frees;
		errors += soak_cpus[cpu].errors;
	}
	pr_info("soak: %lu s on %u CPUs\n", seconds, num_online_cpus());
	for (int k = 0; k < NR_KINDS; k++)
		pr_info("soak: %-10s %10lu allocations, %8lu failed (memory short)\n",
			kind_names[k], ops[k], failed[k]);
	pr_info("soak: %lu frees from interrupt handlers; %lu pages reclaimed; %lu OOM kills\n",
		irq, reclaimed, kills);
	pr_info("soak: least free during the soak: %lu pages\n", lowest_free);
}

static void report(unsigned long before, unsigned long after)
{
	pr_info("soak: free pages after: %lu, before: %lu\n", after, before);
	if (errors || after != before)
		pr_err("soak: FAILED: %lu objects overwritten, %ld pages %s\n", errors,
		       (long)(before > after ? before - after : after - before),
		       before > after ? "lost" : "too many");
	else
		pr_info("soak: clean\n");
}

/**
 * soak_run - the soak, @seconds long, on every online CPU; prints the result
 *
 * Context: boot CPU, instead of the monitor (command line "soak").
 * Return: true if it ended clean.
 */
bool soak_run(unsigned long seconds)
{
	unsigned long before, after;
	unsigned int cpu;

	before = settled_free_pages();
	lowest_free = before;
	soak_cpus = vzalloc(NR_CPUS * sizeof(*soak_cpus));
	soak_cache = kmem_cache_create("soak-200", 200, 0, 0, NULL);
	if (!soak_cpus || !soak_cache) {
		pr_err("soak: no memory to start\n");
		return false;
	}
	register_shrinker(&soak_shrinker, "soak-cache");
	deadline = ktime_get_ns() + seconds * NSEC_PER_SEC;
	pr_info("soak: %lu s, every allocator on %u CPUs; %lu pages free\n", seconds,
		num_online_cpus(), before);
	for_each_online_cpu(cpu) {
		struct soak_cpu *c = &soak_cpus[cpu];

		c->rng = 0x9e3779b97f4a7c15ULL * (cpu + 1);
		c->budget = before * PAGE_SIZE / 100 * 95 / num_online_cpus();
		INIT_WORK(&c->work, soak_work);
		if (cpu)
			schedule_work_on((int)cpu, &c->work);
	}
	soak_work(&soak_cpus[0].work);
	for_each_online_cpu(cpu) {
		while (!__atomic_load_n(&soak_cpus[cpu].done, __ATOMIC_ACQUIRE))
			cpu_relax();
	}
	unregister_shrinker(&soak_shrinker);
	if (victim_registered)
		unregister_oom_victim(&soak_victim);
	free_list(&cache_pages, &nr_cache_pages);
	free_list(&victim_pages, &nr_victim_pages);
	kmem_cache_destroy(soak_cache);
	report_totals(seconds);
	vfree(soak_cpus);
	after = settled_free_pages();
	report(before, after);
	return after == before && !errors;
}
