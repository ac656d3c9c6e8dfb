/*
 * tests/torture/torture.c - the allocator torture test: every allocator on
 * every CPU at once, with every check, for seconds or minutes (make
 * torture TORTURE_SECONDS=600; a short run in make test).
 *
 * Unit tests prove each rule once; a torture test looks for what only shows
 * up after millions of operations racing each other (Linux's locktorture
 * and rcutorture, stress-ng's vm stressors): a lost page, a counter that
 * drifts, an object handed out twice, a tree left unbalanced by a race.
 * Each CPU runs the same loop on a table of its own objects; each turn
 * picks an operation by the weights of the mix (torture.mix=):
 *
 *   pages     alloc_pages() of every order, 0 to MAX_PAGE_ORDER (low ones
 *             mostly);
 *   kmalloc   every size class, 8 B to 8 KiB, and large ones to 64 KiB;
 *   cache     an object of one of the CPU's own caches, which it creates,
 *             shrinks, drains and destroys as it goes (kmem_cache churn);
 *   vmalloc   __vmalloc() of 1 to 256 pages, or vmalloc_huge() of 2 to 4 MiB;
 *   vmap      vmap() of 1 to 16 pages it allocated (checked through both
 *             mappings);
 *   kvmalloc  kvmalloc() of 1 B to 4 MiB, or kvrealloc() of one it holds;
 *   read      slabinfo, vmallocinfo or the shrinkers' counts, formatted by
 *             the monitor's own functions into a buffer thrown away;
 *   purge     vm_unmap_aliases(), drain_all_pages(), kmem_cache_shrink() of
 *             one of its caches, or kmem_cache_shrink_all().
 *
 * Each object is stamped (both ends, and a word in every page, from a
 * per-object seed) and checked when freed.  A free happens here, or in an
 * IPI handler on another CPU, or in another CPU's timer tick
 * (timer_tick_hook), or in another CPU's loop (a hand-off box).  Memory
 * runs short on purpose: the CPUs' budgets add up to 95% of the free
 * pages, and CPU 0 keeps a cache a shrinker empties and an OOM victim
 * holding pages, refilled as they go.  Fault injection (failslab,
 * fail_page_alloc, fail_vmalloc) fails one call in 1000 of each
 * (torture.fault=).
 *
 * Every few seconds CPU 0 calls a checkpoint: every CPU stops at the top
 * of its loop (interrupts on, so IPIs are served), and CPU 0 runs every
 * invariant checker: check_free_lists() (buddy), slab_check_cache() of
 * every cache (sheaves, barns, lists, freelists), vmalloc_check() (the
 * area trees and a page-table audit of the vmalloc space).  At the end
 * everything is freed and given back, the checkers run once more, and
 * the free pages, the caches and the vmalloc areas must be exactly as
 * many as before.  The reports the kernel printed meanwhile are counted
 * (kunit_line_is_report(): the rule that fails a KUnit case) and must be
 * none, except those of memory running out (oom_reports[], below),
 * which are counted apart.  The last line says "torture: clean" or "torture: FAILED: ...";
 * tests/qemu_runner.py torture prints the run and judges it.
 *
 * Options (the kernel command line; the Makefile passes TORTURE_*):
 *   torture.seconds=N   how long (default 600)
 *   torture.seed=N      the seed of every CPU's choices (default: the clock)
 *   torture.mix=pages=6,kmalloc=10,...  the weights; kinds not named get 0
 *   torture.fault=N     one call in N of each allocator fails on purpose
 *                       (1000; 0: none)
 *   torture.check=S     seconds between checkpoints, on average (5)
 *   torture.break=double_free|overwrite   the self-test: CPU 0's tenth
 *                       kmalloc object is freed at once, twice, or
 *                       overwritten before it is checked; the run must fail.
 *                       It lasts until that has happened, however short.
 */
#include "torture/torture.h"
#include "kunit/internal.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/slab_internal.h"
#include "mm/kvmalloc.h"
#include "mm/internal.h"
#include "mm/fault_inject.h"
#include "mm/oom.h"
#include "mm/shrinker.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/timer.h"
#include "lib/atomic.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define SLOTS		512		/* objects a CPU may hold at once */
#define STAMP		64		/* bytes stamped at each end */
#define PRESSURE_PAGES	512		/* CPU 0's cache and victim, each */
#define NR_CHURN	4		/* caches of each CPU */
#define BOX		64		/* objects handed to one CPU, at most */
#define VMAP_MAX	16		/* pages of a vmap() */
#define NSEC_PER_SEC	1000000000ULL

enum op { OP_PAGES, OP_KMALLOC, OP_CACHE, OP_VMALLOC, OP_VMAP, OP_KVMALLOC, OP_READ, OP_PURGE,
	  NR_OPS };
static const char *const op_names[NR_OPS] = {
	"pages", "kmalloc", "cache", "vmalloc", "vmap", "kvmalloc", "read", "purge",
};
/* The weights (torture.mix=): readers and purges stop the other CPUs (IPIs), so they are rare */
static unsigned int mix[NR_OPS] = { 6, 10, 6, 4, 2, 4, 1, 1 };

/* Where an object is freed: here, in an IPI on another CPU, in its tick, in its loop */
enum how { FREE_HERE, FREE_IPI, FREE_TICK, FREE_CPU, NR_HOW };

struct churn {				/* one of a CPU's own caches */
	struct kmem_cache *s;		/* NULL: none now */
	bool draining;			/* no more objects; destroyed when the last is freed */
	atomic_t objects;		/* its objects alive, wherever they are */
	char name[24];			/* kmem_cache_create() keeps the pointer */
};

struct object {
	void *p;			/* NULL: the slot is empty */
	size_t size;
	u64 seed;
	enum op kind;
	unsigned int order;		/* OP_PAGES */
	struct churn *cache;		/* OP_CACHE */
	struct page **pages;		/* OP_VMAP: the pages it maps */
	bool broken;			/* the self-test's: its free goes wrong */
};

struct box {				/* objects handed to a CPU (its loop's or its tick's) */
	spinlock_t lock;
	unsigned int n;
	struct object o[BOX];
};

struct torture_cpu {
	struct object slot[SLOTS];
	struct churn churn[NR_CHURN];
	struct box inbox, tickbox;
	u64 rng;
	size_t live, budget;		/* bytes held, and the most it may hold */
	unsigned long ops[NR_OPS], failed[NR_OPS], frees[NR_HOW];
	unsigned long creates, destroys, reallocs, nr_kmallocs;
	struct work_struct work;
	char discard[192];		/* where the readers' lines go */
	int done;
};

static struct torture_cpu *tcpu;	/* one per CPU, vzalloc()ed */
static unsigned int ncpus;
static u64 seed;
static u64 deadline;
static unsigned long lowest_free, check_every_ns;
static atomic_long_t errors;		/* objects overwritten, found anywhere */
static int stop;			/* CPU 0 says: the time is up */
static int ticks_on;			/* the tick hook frees (off during checks) */
static unsigned long checkpoint_gen;	/* odd: a checkpoint is waiting for the CPUs */
static atomic_t arrived;
static unsigned long checkpoints, check_problems;
static u64 check_ns;			/* the time the checkpoints took, in all */
static u64 check_rng;			/* when they come (not CPU 0's: its choices stay the seed's) */
static enum { BREAK_NONE, BREAK_DOUBLE_FREE, BREAK_OVERWRITE } break_mode;
static bool break_done;			/* CPU 0's: the broken free has happened */

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
static bool stamp(struct object *o, bool check)
{
	u8 *p = o->p;
	size_t n = min(o->size / 2, (size_t)STAMP);	/* the two ends never overlap */
	bool ok = true;

	if (check) {
		ok = stamp_ok(p, n, o->seed) && stamp_ok(p + o->size - n, n, ~o->seed);
	} else {
		stamp_range(p, n, o->seed);
		stamp_range(p + o->size - n, n, ~o->seed);
	}
	for (size_t off = PAGE_SIZE; off + sizeof(u64) <= o->size - n; off += PAGE_SIZE) {
		if (check)
			ok = ok && *(u64 *)(p + off) == o->seed + off;
		else
			*(u64 *)(p + off) = o->seed + off;
	}
	/* a vmap()'s pages, through the direct map: the same bytes */
	for (size_t i = 0; check && o->kind == OP_VMAP && i < o->size / PAGE_SIZE; i++)
		ok = ok && *(u64 *)page_address(o->pages[i]) == *(u64 *)(p + i * PAGE_SIZE);
	return ok;
}

/* ---------------------------------------------------------------- one object */

static void free_vmap_pages(struct page **pages, unsigned int n)
{
	while (n--)
		__free_page(pages[n]);
	kfree(pages);
}

static void *vmap_new(struct object *o)
{
	unsigned int n = o->size / PAGE_SIZE, got;
	struct page **pages = kmalloc_array(n, sizeof(*pages), GFP_KERNEL | __GFP_NOWARN);
	void *p;

	if (!pages)
		return NULL;
	for (got = 0; got < n; got++) {
		pages[got] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!pages[got])
			break;
	}
	p = got == n ? vmap(pages, n, VM_MAP, PAGE_KERNEL) : NULL;
	if (!p) {
		free_vmap_pages(pages, got);
		return NULL;
	}
	o->pages = pages;
	return p;
}

/* A name for a CPU's new cache: one of its slots, and how many it made before. */
static struct kmem_cache *churn_create(struct torture_cpu *c, struct churn *ch, int cpu)
{
	u64 r = next_random(&c->rng);
	unsigned int size = 8 + r % 2041;

	snprintf(ch->name, sizeof(ch->name), "torture-%d.%lu", cpu, c->creates);
	c->creates++;
	ch->s = kmem_cache_create(ch->name, size, 0, (r >> 16) & 1 ? SLAB_HWCACHE_ALIGN : 0,
				  NULL);
	ch->draining = false;
	atomic_set(&ch->objects, 0);
	return ch->s;
}

/* The last object of a draining cache is gone: destroy it. */
static void churn_reap(struct torture_cpu *c, struct churn *ch)
{
	if (ch->s && ch->draining && !atomic_read(&ch->objects)) {
		kmem_cache_destroy(ch->s);
		ch->s = NULL;
		ch->draining = false;		/* the slot makes a new cache next time */
		c->destroys++;
	}
}

static void *cache_alloc(struct torture_cpu *c, struct object *o, int cpu)
{
	struct churn *ch = &c->churn[next_random(&c->rng) % NR_CHURN];
	void *p;

	churn_reap(c, ch);
	if (ch->draining)
		return NULL;
	if (!ch->s && !churn_create(c, ch, cpu))
		return NULL;
	o->size = kmem_cache_size(ch->s);
	o->cache = ch;
	p = kmem_cache_alloc(ch->s, GFP_KERNEL | __GFP_NOWARN);
	if (p)
		atomic_inc(&ch->objects);
	return p;
}

static void *allocate(struct torture_cpu *c, struct object *o, int cpu)
{
	switch (o->kind) {
	case OP_PAGES: {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, o->order);

		return page ? page_address(page) : NULL;
	}
	case OP_KMALLOC:
		return kmalloc(o->size, GFP_KERNEL | __GFP_NOWARN);
	case OP_CACHE:
		return cache_alloc(c, o, cpu);
	case OP_VMALLOC:
		if (o->order)
			return vmalloc_huge(o->size, GFP_KERNEL | __GFP_NOWARN);
		return __vmalloc(o->size, GFP_KERNEL | __GFP_NOWARN);
	case OP_VMAP:
		return vmap_new(o);
	default:
		return kvmalloc(o->size, GFP_KERNEL | __GFP_NOWARN);
	}
}

/* Free @o's memory: from any context, except a vmap() (task context only). */
static void release(struct object *o)
{
	switch (o->kind) {
	case OP_PAGES:
		__free_pages(virt_to_page(o->p), o->order);
		break;
	case OP_KMALLOC:
		kfree(o->p);
		break;
	case OP_CACHE:
		kmem_cache_free(o->cache->s, o->p);
		atomic_dec(&o->cache->objects);		/* after: its owner may destroy it now */
		break;
	case OP_VMALLOC:
		vfree(o->p);
		break;
	case OP_VMAP:
		vunmap(o->p);
		free_vmap_pages(o->pages, o->size / PAGE_SIZE);
		break;
	default:
		kvfree(o->p);
	}
}

/* A kmalloc size in a random size class (8 B .. 8 KiB), now and then a large one. */
static size_t kmalloc_size(u64 r)
{
	unsigned int shift = 3 + r % 11;	/* 8 B .. 8 KiB: the classes up to 2^shift */

	if (shift == 13 && (r >> 8) % 4 == 0)
		return 8192 + (r >> 12) % (56 * 1024);
	return (1UL << shift) / 2 + 1 + (r >> 8) % ((1UL << shift) / 2);
}

static void choose(struct torture_cpu *c, struct object *o, enum op kind)
{
	u64 r = next_random(&c->rng);

	o->kind = kind;
	o->seed = next_random(&c->rng);
	o->order = 0;
	o->cache = NULL;
	switch (kind) {
	case OP_PAGES:		/* every order; the low ones most */
		o->order = r % 4 ? (r >> 8) % 4 : (r >> 8) % NR_PAGE_ORDERS;
		o->size = PAGE_SIZE << o->order;
		break;
	case OP_KMALLOC:
		o->size = kmalloc_size(r);
		break;
	case OP_CACHE:
		o->size = 0;	/* the cache's (cache_alloc()) */
		break;
	case OP_VMALLOC:
		o->order = r % 8 == 0;		/* vmalloc_huge() */
		if (o->order)
			o->size = (512 + (r >> 8) % 513) * PAGE_SIZE;
		else
			o->size = (1 + (r >> 8) % 256) * PAGE_SIZE - (r >> 16) % PAGE_SIZE;
		break;
	case OP_VMAP:
		o->size = (1 + (r >> 8) % VMAP_MAX) * PAGE_SIZE;
		break;
	default:
		o->size = 1 + (r >> 10) % (1UL << (r % 23));	/* 1 B .. 4 MiB, mostly small */
	}
}

/* ---------------------------------------------------------------- frees, anywhere */

static void check_and_release(struct object *o)
{
	if (!stamp(o, true)) {
		atomic_long_inc(&errors);
		pr_err("torture: CPU %d: %s object %px (%zu bytes) was overwritten\n",
		       smp_processor_id(), op_names[o->kind], o->p, o->size);
	}
	release(o);
}

static void free_in_irq(void *info)
{
	check_and_release(info);
}

static bool box_put(struct box *b, const struct object *o)
{
	unsigned long flags;
	bool room;

	spin_lock_irqsave(&b->lock, flags);
	room = b->n < BOX;
	if (room)
		b->o[b->n++] = *o;
	spin_unlock_irqrestore(&b->lock, flags);
	return room;
}

static bool box_take(struct box *b, struct object *o)
{
	unsigned long flags;
	bool got;

	spin_lock_irqsave(&b->lock, flags);
	got = b->n > 0;
	if (got)
		*o = b->o[--b->n];
	spin_unlock_irqrestore(&b->lock, flags);
	return got;
}

static void drain_box(struct box *b)
{
	struct object o;

	while (box_take(b, &o))
		check_and_release(&o);
}

/* The timer tick (timer_tick_hook), on every CPU: one object from its box. */
static void torture_tick(void)
{
	unsigned int cpu = smp_processor_id();
	struct object o;

	if (__atomic_load_n(&ticks_on, __ATOMIC_SEQ_CST) && cpu < ncpus &&
	    box_take(&tcpu[cpu].tickbox, &o))
		check_and_release(&o);
}

/*
 * The self-test (torture.break=): the object's free goes wrong.
 * Return: true if it is to be freed a second time.
 */
static bool break_free_path(struct object *o)
{
	o->broken = false;
	break_done = true;
	if (break_mode == BREAK_OVERWRITE) {
		pr_info("torture: self-test: overwriting kmalloc object %px before its free\n", o->p);
		((u8 *)o->p)[0] ^= 0xff;
		return false;
	}
	pr_info("torture: self-test: freeing kmalloc object %px twice\n", o->p);
	return true;
}

static void free_slot(struct torture_cpu *c, int cpu, int i)
{
	struct object *o = &c->slot[i];
	int other = (cpu + 1 + next_random(&c->rng) % (ncpus > 1 ? ncpus - 1 : 1)) % ncpus;
	u64 r = next_random(&c->rng) % 16;
	enum how how = r < 3 && other != cpu ? (enum how)(r + 1) : FREE_HERE;
	bool twice = false;

	c->live -= o->size;
	if (o->kind == OP_VMAP && how != FREE_CPU)
		how = FREE_HERE;		/* vunmap() is for task context */
	if (o->broken) {
		how = FREE_HERE;
		twice = break_free_path(o);
	}
	if (how == FREE_IPI)
		smp_call_function_single(other, free_in_irq, o, 1);
	else if (how == FREE_TICK && !box_put(&tcpu[other].tickbox, o))
		how = FREE_HERE;
	else if (how == FREE_CPU && !box_put(&tcpu[other].inbox, o))
		how = FREE_HERE;
	if (how == FREE_HERE)
		check_and_release(o);
	if (twice)
		kfree(o->p);
	c->frees[how]++;
	o->p = NULL;
}

/* kvrealloc() of a kvmalloc object: its first bytes must come along. */
static void realloc_slot(struct torture_cpu *c, struct object *o)
{
	size_t n = min(o->size / 2, (size_t)STAMP), size;
	u64 r = next_random(&c->rng);
	void *p;

	size = 1 + (r >> 10) % (1UL << (r % 23));
	if (c->live - o->size + size > c->budget)
		return;
	if (!stamp(o, true)) {
		atomic_long_inc(&errors);
		pr_err("torture: kvmalloc object %px (%zu bytes) was overwritten\n", o->p, o->size);
	}
	c->ops[OP_KVMALLOC]++;
	c->reallocs++;
	p = kvrealloc(o->p, size, GFP_KERNEL | __GFP_NOWARN);
	if (!p) {
		c->failed[OP_KVMALLOC]++;
		return;
	}
	if (!stamp_ok(p, min(n, size), o->seed)) {
		atomic_long_inc(&errors);
		pr_err("torture: kvrealloc() from %zu to %zu bytes lost the contents (now %px)\n",
		       o->size, size, p);
	}
	c->live = c->live - o->size + size;
	o->p = p;
	o->size = size;
	o->seed = next_random(&c->rng);
	stamp(o, false);
}

/* Free the CPU's objects of @ch, so that it can be destroyed. */
static void churn_drain(struct torture_cpu *c, struct churn *ch, int cpu)
{
	ch->draining = true;
	for (int i = 0; i < SLOTS; i++) {
		if (c->slot[i].p && c->slot[i].kind == OP_CACHE && c->slot[i].cache == ch)
			free_slot(c, cpu, i);
	}
}

/* ---------------------------------------------------------------- readers and purges */

static void read_area(const struct vmap_area *va, bool lazy, void *arg)
{
	struct torture_cpu *c = arg;

	vmallocinfo_show_area(va, lazy, c->discard, sizeof(c->discard));
}

static void read_shrinker(struct shrinker *s, unsigned long count, void *arg)
{
	struct torture_cpu *c = arg;

	snprintf(c->discard, sizeof(c->discard), "%s %lu", s->name, count);
}

/* What the monitor's slabinfo and vmallocinfo show, and the shrinkers' counts. */
static void read_something(struct torture_cpu *c, u64 r)
{
	struct kmem_cache *s;
	unsigned long max;

	switch (r % 3) {
	case 0:
		spin_lock(&slab_caches_lock);
		list_for_each_entry(s, &slab_caches, list)
			slabinfo_show_cache(s, c->discard, sizeof(c->discard));
		spin_unlock(&slab_caches_lock);
		break;
	case 1:
		vmalloc_for_each_area(read_area, c);
		vmalloc_lazy_pages(&max);
		break;
	default:
		shrinker_for_each_count(read_shrinker, c);
	}
}

static void purge_something(struct torture_cpu *c, u64 r)
{
	struct churn *ch = &c->churn[(r >> 8) % NR_CHURN];

	switch (r % 16) {
	case 0 ... 4:
		vm_unmap_aliases();
		break;
	case 5 ... 9:
		drain_all_pages();
		break;
	case 10:		/* every cache: an IPI to every CPU for each, so rarely */
		kmem_cache_shrink_all();
		break;
	default:
		if (ch->s)
			kmem_cache_shrink(ch->s);
	}
}

/* ---------------------------------------------------------------- memory pressure */

static struct list_head cache_pages = LIST_HEAD_INIT(cache_pages);
static struct list_head victim_pages = LIST_HEAD_INIT(victim_pages);
static unsigned long nr_cache_pages, nr_victim_pages, reclaimed, kills;
static bool victim_registered;
static DEFINE_SPINLOCK(pressure_lock);

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	return READ_ONCE(nr_cache_pages) ? READ_ONCE(nr_cache_pages) : SHRINK_EMPTY;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0, flags;

	spin_lock_irqsave(&pressure_lock, flags);
	while (freed < sc->nr_to_scan && !list_empty(&cache_pages)) {
		struct page *page = list_first_entry(&cache_pages, struct page, lru);

		list_del(&page->lru);
		WRITE_ONCE(nr_cache_pages, nr_cache_pages - 1);	/* read unlocked: cache_count() */
		__free_page(page);
		freed++;
	}
	WRITE_ONCE(reclaimed, reclaimed + freed);
	spin_unlock_irqrestore(&pressure_lock, flags);
	return freed;
}

static struct shrinker torture_shrinker = {
	.count_objects = cache_count, .scan_objects = cache_scan, .seeks = DEFAULT_SEEKS,
};

static unsigned long victim_badness(struct oom_victim *v)
{
	return READ_ONCE(nr_victim_pages);
}

static void free_list(struct list_head *list, unsigned long *nr)
{
	while (!list_empty(list)) {
		struct page *page = list_first_entry(list, struct page, lru);

		list_del(&page->lru);
		__free_page(page);
		WRITE_ONCE(*nr, *nr - 1);
	}
}

static void victim_kill(struct oom_victim *v)
{
	unsigned long flags;

	spin_lock_irqsave(&pressure_lock, flags);
	free_list(&victim_pages, &nr_victim_pages);
	WRITE_ONCE(victim_registered, false);
	WRITE_ONCE(kills, kills + 1);
	spin_unlock_irqrestore(&pressure_lock, flags);
}

static struct oom_victim torture_victim = {
	.name = "torture-victim", .badness = victim_badness, .kill = victim_kill,
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
			WRITE_ONCE(nr_cache_pages, nr_cache_pages + 1);
		else
			WRITE_ONCE(nr_victim_pages, nr_victim_pages + 1);
		spin_unlock_irqrestore(&pressure_lock, flags);
	}
	if (!READ_ONCE(victim_registered)) {
		WRITE_ONCE(victim_registered, true);
		register_oom_victim(&torture_victim);
	}
}

/* ---------------------------------------------------------------- checkpoints */

/* Every checker; the caller makes sure nothing else runs. */
static unsigned long run_checkers(void)
{
	unsigned long problems = check_free_lists() + vmalloc_check();
	struct kmem_cache *s;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(s, &slab_caches, list)
		problems += slab_check_cache(s);
	spin_unlock(&slab_caches_lock);
	return problems;
}

/* Another CPU, at the top of its loop: wait there while a checkpoint runs. */
static void rendezvous(void)
{
	unsigned long gen = __atomic_load_n(&checkpoint_gen, __ATOMIC_ACQUIRE);

	if (!(gen & 1))
		return;
	atomic_inc(&arrived);
	while (__atomic_load_n(&checkpoint_gen, __ATOMIC_ACQUIRE) == gen)
		cpu_relax();
}

/* CPU 0: stop every CPU (ticks too), run every checker, let them go. */
static void checkpoint(void)
{
	u64 start = ktime_get_ns();
	unsigned long problems;

	__atomic_store_n(&ticks_on, 0, __ATOMIC_SEQ_CST);
	atomic_set(&arrived, 0);
	__atomic_add_fetch(&checkpoint_gen, 1, __ATOMIC_SEQ_CST);
	while (atomic_read(&arrived) < (int)ncpus - 1)
		cpu_relax();
	problems = run_checkers();
	checkpoints++;
	check_problems += problems;
	if (problems)
		pr_err("torture: checkpoint %lu: %lu problems\n", checkpoints, problems);
	__atomic_store_n(&ticks_on, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&checkpoint_gen, 1, __ATOMIC_RELEASE);
	check_ns += ktime_get_ns() - start;
}

/* ---------------------------------------------------------------- the loop */

static unsigned int mix_total;

static enum op pick_op(struct torture_cpu *c)
{
	unsigned int r = next_random(&c->rng) % mix_total;
	int op = 0;

	while (r >= mix[op])
		r -= mix[op++];
	return (enum op)op;
}

/* CPU 0, every 16 turns: pressure, progress, checkpoints, the end. */
static void cpu0_duties(u64 *next_report, u64 *next_check)
{
	u64 now = ktime_get_ns();

	refill_pressure();
	lowest_free = min(lowest_free, nr_free_pages());
	/*
	 * The self-test's run lasts until its broken free has happened: on a
	 * busy host CPU 0 may not reach its tenth kmalloc in a short run.
	 */
	if (now >= deadline && (break_mode == BREAK_NONE || break_done)) {
		__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
		return;
	}
	if (now >= *next_report) {
		*next_report += 10ULL * NSEC_PER_SEC;
		pr_info("torture: %llu s left, %lu pages free, %lu reclaimed, %lu OOM kills, "
			"%lu checkpoints so far\n", (deadline - now) / NSEC_PER_SEC,
			nr_free_pages(), READ_ONCE(reclaimed), READ_ONCE(kills), checkpoints);
	}
	if (now >= *next_check) {
		checkpoint();
		*next_check = ktime_get_ns() + check_every_ns / 2 +
			      next_random(&check_rng) % (check_every_ns + 1);
	}
}

static void one_turn(struct torture_cpu *c, int cpu)
{
	enum op op = pick_op(c);
	u64 r = next_random(&c->rng);
	struct object *o, from_box;

	if (box_take(&c->inbox, &from_box))
		check_and_release(&from_box);
	if (op == OP_READ || op == OP_PURGE) {
		c->ops[op]++;
		if (op == OP_READ)
			read_something(c, r);
		else
			purge_something(c, r);
		return;
	}
	if (op == OP_CACHE && r % 64 == 0) {		/* churn: drain one, to destroy it */
		churn_drain(c, &c->churn[(r >> 8) % NR_CHURN], cpu);
		return;
	}
	o = &c->slot[(r >> 16) % SLOTS];
	if (o->p) {
		/* Keep most slots full: memory runs short, reclaim and the OOM killer run. */
		if (op == OP_KVMALLOC && o->kind == OP_KVMALLOC && r % 2)
			realloc_slot(c, o);
		else if (r % 4 == 0)
			free_slot(c, cpu, (int)(o - c->slot));
		return;
	}
	choose(c, o, op);
	if (c->live + o->size > c->budget)
		return;
	o->p = allocate(c, o, cpu);
	if (op == OP_CACHE && !o->cache)
		return;				/* no cache to allocate from: no operation */
	c->ops[op]++;
	if (!o->p) {
		c->failed[op]++;
		return;
	}
	stamp(o, false);
	c->live += o->size;
	/* The self-test: CPU 0's tenth kmalloc object is freed at once, wrongly. */
	if (break_mode != BREAK_NONE && !cpu && op == OP_KMALLOC && ++c->nr_kmallocs == 10) {
		o->broken = true;
		free_slot(c, cpu, (int)(o - c->slot));
	}
}

static void torture_loop(struct torture_cpu *c, int cpu)
{
	u64 next_report = ktime_get_ns() + 10ULL * NSEC_PER_SEC;
	u64 next_check = ktime_get_ns() + check_every_ns;
	unsigned long round = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		/*
		 * Every 16 turns of the loop, whatever they did: on a small
		 * machine most allocations fail, and counting only the ones
		 * that succeed would leave the pressure unrefreshed.
		 */
		if (cpu == 0 && ++round % 16 == 0)
			cpu0_duties(&next_report, &next_check);
		else if (cpu)
			rendezvous();
		/* What interrupt handlers left us (vfree()s): this loop is a work item too. */
		if (deferred_work_pending())
			run_deferred_work();
		one_turn(c, cpu);
	}
	for (int i = 0; i < SLOTS; i++) {
		if (c->slot[i].p) {
			c->live -= c->slot[i].size;
			check_and_release(&c->slot[i]);
			c->slot[i].p = NULL;
		}
	}
}

static void torture_work(struct work_struct *work)
{
	struct torture_cpu *c = container_of(work, struct torture_cpu, work);
	int cpu = (int)(c - tcpu);

	torture_loop(c, cpu);
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- reports */

static atomic_long_t reports, alloc_warnings;
static char first_report[128];

/*
 * Reports of memory running out, not of a bug: the torture exhausts memory
 * on purpose, and an allocation that may not fail quietly (vmap()'s own
 * struct, GFP_KERNEL) then says so.  Counted apart, shown, and no failure.
 */
static const char *const oom_reports[] = {
	"invoked oom-killer:", "page allocation failure:", "SLUB: Unable to allocate memory",
	"vmalloc error:", "percpu: allocation failed",
};
static bool probe_line_start = true, probe_oops;

static bool contains(const char *text, size_t len, const char *what)
{
	size_t n = strlen(what);

	for (size_t i = 0; i + n <= len; i++) {
		if (!memcmp(text + i, what, n))
			return true;
	}
	return false;
}

static void count_report(const char *text, size_t n)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(oom_reports); i++) {
		if (contains(text, n, oom_reports[i])) {
			atomic_long_inc(&alloc_warnings);
			return;
		}
	}
	if (atomic_long_inc_return(&reports) == 1) {
		n = min(n, sizeof(first_report) - 1);
		memcpy(first_report, text, n);
		first_report[n] = '\0';
	}
}

/* The console probe: called with printk's lock held, one message at a time. */
static void report_probe(void *data, const char *text, size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		size_t n = (nl ? nl : end) - text;

		if (probe_line_start && kunit_line_is_report(text, n, &probe_oops))
			count_report(text, n);
		probe_line_start = nl;
		text = nl ? nl + 1 : end;
	}
}

/* ---------------------------------------------------------------- options */

static bool parse_mix(const char *str)
{
	char buf[160], *p = buf, *item;

	if (strscpy(buf, str, sizeof(buf)) < 0)
		return false;
	memset(mix, 0, sizeof(mix));
	while ((item = p)) {
		char *eq = strchr(item, '=');
		unsigned int weight, op;

		p = strchr(item, ',');
		if (p)
			*p++ = '\0';
		if (!eq)
			return false;
		*eq = '\0';
		for (op = 0; op < NR_OPS && strcmp(item, op_names[op]); op++)
			;
		if (op == NR_OPS || kstrtouint(eq + 1, 10, &weight) || weight > 1000)
			return false;
		mix[op] = weight;
	}
	return true;
}

static bool parse_options(unsigned long *seconds, unsigned long *fault)
{
	char buf[160];

	*seconds = cmdline_get_ulong("torture.seconds", 600);
	*fault = cmdline_get_ulong("torture.fault", 1000);
	check_every_ns = cmdline_get_ulong("torture.check", 5) * NSEC_PER_SEC;
	if (!check_every_ns)
		check_every_ns = ~0ULL / 4;	/* torture.check=0: only at the end */
	seed = cmdline_get_ulong("torture.seed", 0);
	if (!seed)
		seed = ktime_get_ns() ^ ((u64)ktime_get_ns() << 29);
	if (cmdline_get("torture.mix", buf, sizeof(buf)) && !parse_mix(buf)) {
		pr_err("torture: torture.mix=%s: expected name=weight,... with names pages, kmalloc, "
		       "cache, vmalloc, vmap, kvmalloc, read, purge\n", buf);
		return false;
	}
	mix_total = 0;
	for (int op = 0; op < NR_OPS; op++)
		mix_total += mix[op];
	if (!mix_total) {
		pr_err("torture: torture.mix gives every operation weight 0\n");
		return false;
	}
	if (cmdline_get("torture.break", buf, sizeof(buf))) {
		break_mode = !strcmp(buf, "double_free") ? BREAK_DOUBLE_FREE :
			     !strcmp(buf, "overwrite") ? BREAK_OVERWRITE : BREAK_NONE;
		if (break_mode == BREAK_NONE) {
			pr_err("torture: torture.break=%s: expected double_free or overwrite\n", buf);
			return false;
		}
		if (!mix[OP_KMALLOC]) {
			pr_err("torture: torture.break breaks a kmalloc object: give kmalloc a weight\n");
			return false;
		}
	}
	return true;
}

/*
 * Fault injection: one call in @one_in of each kind (pages, slab, vmalloc)
 * fails, unless the command line armed that kind itself (fail_page_alloc=
 * ...); undone by fault_end().  One in N, not a percentage: a vmalloc()
 * of 100 pages makes 100 page allocations, and at 1% most would fail.
 */
static struct fault_attr saved_attrs[3];
static struct fault_attr *const attrs[3] = { &fail_page_alloc, &failslab, &fail_vmalloc };

static void fault_begin(unsigned long one_in)
{
	char spec[32];

	snprintf(spec, sizeof(spec), "%lu,100,0,-1", one_in);
	for (int i = 0; i < 3; i++) {
		saved_attrs[i] = *attrs[i];
		if (!one_in || attrs[i]->probability)
			continue;
		setup_fault_attr(attrs[i], spec);
		attrs[i]->verbose = 0;
		attrs[i]->ignore_gfp_wait = false;
	}
	fault_inject_update();
}

static void fault_end(void)
{
	for (int i = 0; i < 3; i++)
		*attrs[i] = saved_attrs[i];
	fault_inject_update();
}

/* ---------------------------------------------------------------- start and end */

static void print_table(void)
{
	unsigned long total[NR_OPS] = { 0 }, failed[NR_OPS] = { 0 }, frees[NR_HOW] = { 0 };
	unsigned long creates = 0, destroys = 0, reallocs = 0;
	char line[200];
	int n;

	n = snprintf(line, sizeof(line), "torture: cpu");
	for (int op = 0; op < NR_OPS; op++)
		n += snprintf(line + n, sizeof(line) - n, " %9s", op_names[op]);
	pr_info("%s | %8s %8s %8s\n", line, "ipi-free", "tick-free", "cpu-free");
	for (unsigned int cpu = 0; cpu < ncpus; cpu++) {
		struct torture_cpu *c = &tcpu[cpu];

		n = snprintf(line, sizeof(line), "torture: %3u", cpu);
		for (int op = 0; op < NR_OPS; op++) {
			n += snprintf(line + n, sizeof(line) - n, " %9lu", c->ops[op]);
			total[op] += c->ops[op];
			failed[op] += c->failed[op];
		}
		pr_info("%s | %8lu %9lu %8lu\n", line, c->frees[FREE_IPI], c->frees[FREE_TICK],
			c->frees[FREE_CPU]);
		for (int h = 0; h < NR_HOW; h++)
			frees[h] += c->frees[h];
		creates += c->creates;
		destroys += c->destroys;
		reallocs += c->reallocs;
	}
	n = snprintf(line, sizeof(line), "torture: all");
	for (int op = 0; op < NR_OPS; op++)
		n += snprintf(line + n, sizeof(line) - n, " %9lu", total[op]);
	pr_info("%s | %8lu %9lu %8lu\n", line, frees[FREE_IPI], frees[FREE_TICK], frees[FREE_CPU]);
	n = snprintf(line, sizeof(line), "torture: failed");
	for (int op = 0; op < OP_READ; op++)
		n += snprintf(line + n, sizeof(line) - n, " %s %lu%s", op_names[op], failed[op],
			      op + 1 < OP_READ ? "," : "");
	pr_info("%s (memory short, or injected)\n", line);
	pr_info("torture: %lu caches created, %lu destroyed; %lu kvrealloc()s; %lu frees here\n",
		creates, destroys, reallocs, frees[FREE_HERE]);
	pr_info("torture: %lu pages reclaimed; %lu OOM kills; least free: %lu pages\n",
		reclaimed, kills, lowest_free);
}

/* After the loops: what is still in boxes, the churn caches, the pressure. */
static unsigned long clean_up(void)
{
	unsigned long leaked = 0;

	__atomic_store_n(&ticks_on, 0, __ATOMIC_SEQ_CST);
	WRITE_ONCE(timer_tick_hook, NULL);
	mdelay(3000 / HZ);		/* a tick that began before is over */
	for (unsigned int cpu = 0; cpu < ncpus; cpu++) {
		drain_box(&tcpu[cpu].inbox);
		drain_box(&tcpu[cpu].tickbox);
	}
	flush_scheduled_work();
	for (unsigned int cpu = 0; cpu < ncpus; cpu++) {
		for (int j = 0; j < NR_CHURN; j++) {
			struct churn *ch = &tcpu[cpu].churn[j];

			if (!ch->s)
				continue;
			if (atomic_read(&ch->objects)) {
				pr_err("torture: cache %s: %d objects never freed\n", ch->name,
				       atomic_read(&ch->objects));
				leaked++;
			}
			kmem_cache_destroy(ch->s);
			ch->s = NULL;
		}
	}
	unregister_shrinker(&torture_shrinker);
	if (victim_registered)
		unregister_oom_victim(&torture_victim);
	free_list(&cache_pages, &nr_cache_pages);
	free_list(&victim_pages, &nr_victim_pages);
	return leaked;
}

/* The verdict, on what torture_run() counted; returns it. */
static bool verdict(unsigned long before, unsigned long after, unsigned long problems,
		    bool things_back)
{
	long reports_seen = atomic_long_read(&reports), overwritten = atomic_long_read(&errors);

	pr_info("torture: %lu checkpoints (%llu ms each), %lu problems; at the end: %lu problems\n",
		checkpoints, checkpoints ? check_ns / 1000000 / checkpoints : 0ULL, check_problems,
		problems);
	pr_info("torture: reports seen: %ld%s%s\n", reports_seen, reports_seen ? "; the first: " : "",
		reports_seen ? first_report : "");
	pr_info("torture: out-of-memory reports (the OOM killer, allocations that may not fail "
		"quietly): %ld\n", atomic_long_read(&alloc_warnings));
	pr_info("torture: free pages after: %lu, before: %lu\n", after, before);
	if (!overwritten && !reports_seen && !check_problems && !problems && after == before &&
	    things_back) {
		pr_info("torture: clean\n");
		return true;
	}
	pr_err("torture: FAILED: %ld objects overwritten, %ld reports, %lu + %lu problems found by "
	       "the checkers, %ld pages %s%s\n", overwritten, reports_seen, check_problems,
	       problems, (long)(before > after ? before - after : after - before),
	       before >= after ? "lost" : "too many",
	       things_back ? "" : ", caches or vmalloc areas not as before");
	return false;
}

/**
 * torture_run - the allocator torture test, on every online CPU; prints the result
 *
 * The options come from the command line (see the top of this file).
 * Context: boot CPU, instead of the monitor (command line "torture").
 * Return: true if it ended clean.
 */
bool torture_run(void)
{
	unsigned long seconds, fault, before, after, caches, areas, caches_after, areas_after;
	unsigned long problems;
	unsigned int cpu;
	bool back;

	if (!parse_options(&seconds, &fault))
		return false;
	ncpus = num_online_cpus();
	before = settled_free_pages();
	count_caches_and_areas(&caches, &areas);
	lowest_free = before;
	tcpu = vzalloc(NR_CPUS * sizeof(*tcpu));
	if (!tcpu || register_trace_console(report_probe, NULL)) {
		pr_err("torture: no memory or no console probe to start\n");
		vfree(tcpu);
		return false;
	}
	register_shrinker(&torture_shrinker, "torture-cache");
	pr_info("torture: %lu s, every allocator on %u CPUs; seed %llu; %lu pages free\n", seconds,
		ncpus, (unsigned long long)seed, before);
	pr_info("torture: mix pages=%u,kmalloc=%u,cache=%u,vmalloc=%u,vmap=%u,kvmalloc=%u,read=%u,"
		"purge=%u; fault injection: 1 call in %lu; a checkpoint every %lu s or so\n",
		mix[0], mix[1], mix[2], mix[3], mix[4], mix[5], mix[6], mix[7], fault,
		(unsigned long)(check_every_ns / NSEC_PER_SEC));
	for_each_online_cpu(cpu) {
		struct torture_cpu *c = &tcpu[cpu];

		c->rng = (seed + cpu + 1) * 0x9e3779b97f4a7c15ULL;
		c->rng ^= c->rng >> 31;
		c->rng = c->rng ? c->rng : 1;
		c->budget = before * PAGE_SIZE / 100 * 95 / ncpus;
		spin_lock_init(&c->inbox.lock);
		spin_lock_init(&c->tickbox.lock);
		INIT_WORK(&c->work, torture_work);
	}
	check_rng = seed | 1;
	deadline = ktime_get_ns() + seconds * NSEC_PER_SEC;
	fault_begin(fault);
	__atomic_store_n(&ticks_on, 1, __ATOMIC_SEQ_CST);
	WRITE_ONCE(timer_tick_hook, torture_tick);
	for_each_online_cpu(cpu) {
		if (cpu)
			schedule_work_on((int)cpu, &tcpu[cpu].work);
	}
	torture_work(&tcpu[0].work);
	for_each_online_cpu(cpu) {
		while (!__atomic_load_n(&tcpu[cpu].done, __ATOMIC_ACQUIRE))
			cpu_relax();
	}
	fault_end();
	problems = clean_up();
	pr_info("torture: %lu s on %u CPUs, seed %llu (replay: TORTURE_SEED=%llu)\n", seconds,
		ncpus, (unsigned long long)seed, (unsigned long long)seed);
	print_table();
	vfree(tcpu);
	after = settled_free_pages();
	problems += run_checkers();
	count_caches_and_areas(&caches_after, &areas_after);
	back = caches_after == caches && areas_after == areas;
	if (!back)
		pr_err("torture: %lu slab caches (before: %lu), %lu vmalloc areas (before: %lu)\n",
		       caches_after, caches, areas_after, areas);
	unregister_trace_console(report_probe, NULL);
	return verdict(before, after, problems, back);
}
