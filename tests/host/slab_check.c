/*
 * tests/host/slab_check.c - the slab allocator's machines and its
 * consistency checker (see slab_check.h).
 *
 * The checker reads the slab's own structures (mm/slab_internal.h) but decodes
 * the freelists itself, so that a corrupted list is reported here instead
 * of being "repaired" by the code under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include "kernel_names.h"
#include "slab_check.h"
#include "mm/percpu.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

#define MiB	(1UL << 20)
#define GiB	(1UL << 30)
#define BITS	(8 * sizeof(unsigned long))

/* ---------------------------------------------------------------- machines */

static bool slab_started;

void slab_machine_init(const struct host_range *ram, int nr_ram,
		       const struct host_range *reserved, int nr_reserved,
		       unsigned int nr_cpus, const char *slab_debug)
{
	struct kmem_cache *s;

	/*
	 * The old caches' structs are in the old machine's memory, still
	 * mapped here: their per-CPU sheaves are the only thing outside it.
	 */
	if (slab_started) {
		list_for_each_entry(s, &slab_caches, list)
			free_percpu(s->cpu_sheaves);
	}
	slab_debug_parse(slab_debug);
	host_machine_init(ram, nr_ram, reserved, nr_reserved, nr_cpus);
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		set_cpu_numa_node(cpu, (int)(cpu * nr_node_ids / nr_cpus));
	kmem_cache_init();
	slab_started = true;
}

static const struct host_range default_ram[] = {
	{ 0, 0x9f000, 0 },
	{ 1 * MiB, 31 * MiB, 0 },		/* ZONE_DMA and ZONE_DMA32 */
	{ 4 * GiB, 16 * MiB, 1 },		/* ZONE_NORMAL, node 1 */
};
static const struct host_range default_reserved[] = {
	{ 0, 1 * MiB, 0 },
	{ 2 * MiB, 3 * MiB, 0 },		/* "the kernel image" */
};

void slab_machine_default(const char *slab_debug)
{
	slab_machine_init(default_ram, ARRAY_SIZE(default_ram), default_reserved,
			  ARRAY_SIZE(default_reserved), 4, slab_debug);
}

struct kmem_cache *slab_find_cache(const char *name)
{
	struct kmem_cache *s;

	list_for_each_entry(s, &slab_caches, list) {
		if (!strcmp(s->name, name))
			return s;
	}
	return NULL;
}

void slab_shrink_all(void)
{
	struct kmem_cache *s, *sheaves = slab_find_cache("slab_sheaf");

	list_for_each_entry(s, &slab_caches, list) {
		if (s != sheaves)
			kmem_cache_shrink(s);
	}
	kmem_cache_shrink(sheaves);	/* the sheaves the others just gave back */
}

/* ---------------------------------------------------------------- the checker */

static unsigned long problems;

#define PROBLEM(...)	check_problem(problems, __VA_ARGS__)

/* A growing array of addresses */
struct addrs {
	unsigned long *a;
	unsigned long n, cap;
};

static void addrs_push(struct addrs *v, const void *p)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 4096;
		v->a = realloc(v->a, v->cap * sizeof(*v->a));
		if (!v->a)
			abort();
	}
	v->a[v->n++] = (unsigned long)p;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static bool addrs_has(const struct addrs *v, unsigned long p)
{
	unsigned long lo = 0, hi = v->n;

	while (lo < hi) {
		unsigned long mid = (lo + hi) / 2;

		if (v->a[mid] == p)
			return true;
		if (v->a[mid] < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Every free object (on a freelist or in a sheaf) of the last check, sorted */
static struct addrs free_objs;

static bool test_bit_(const unsigned long *map, unsigned long i)
{
	return (map[i / BITS] >> (i % BITS)) & 1;
}

static void set_bit_(unsigned long *map, unsigned long i)
{
	map[i / BITS] |= 1UL << (i % BITS);
}

/* The slab's index of @p if it is where an object of @s starts in @slab, else -1 */
static long object_index(struct kmem_cache *s, struct page *slab, const void *p)
{
	unsigned long base = (unsigned long)slab_address(slab) + s->red_left_pad;
	unsigned long off = (unsigned long)p - base;

	if ((unsigned long)p < base || off % s->size || off / s->size >= slab->objects)
		return -1;
	return (long)(off / s->size);
}

/* The slab @p is in, if @p is in the direct map of RAM; else NULL */
static struct page *head_of(const void *p)
{
	unsigned long pfn = ((unsigned long)p - PAGE_OFFSET) >> PAGE_SHIFT;

	if ((unsigned long)p < PAGE_OFFSET || !pfn_valid(pfn))
		return NULL;
	return compound_head(pfn_to_page(pfn));
}

/* The freelist of @slab, decoded here; returns how many free objects it has. */
static unsigned int check_freelist(struct kmem_cache *s, struct page *slab)
{
	unsigned long seen[(0xffffUL + BITS) / BITS] = { 0 };
	unsigned long pfn = page_to_pfn(slab);
	unsigned int n = 0;
	void *p = slab_freelist(s, slab);

	while (p) {
		long idx = object_index(s, slab, p);
		unsigned long *where;

		if (idx < 0) {
			PROBLEM("%s: slab %#lx: freelist entry %p is not an object of the slab",
				s->name, pfn, p);
			break;
		}
		if (test_bit_(seen, idx)) {
			PROBLEM("%s: slab %#lx: freelist loops at object %ld", s->name, pfn, idx);
			break;
		}
		set_bit_(seen, idx);
		addrs_push(&free_objs, p);
		n++;
		where = slab_freeptr_addr(s, p);
		p = (void *)(*where ^ s->random ^ __builtin_bswap64((unsigned long)where));
	}
	return n;
}

struct list_totals {
	unsigned long slabs, empty, objects, inuse;
};

static void check_slab(struct kmem_cache *s, int nid, struct page *slab, bool full)
{
	unsigned long pfn = page_to_pfn(slab);
	unsigned int nr_free, order;

	if (!PageSlab(slab) || slab->slab_cache != s) {
		PROBLEM("%s node %d: slab %#lx on its list is not its slab (flags %#lx, cache %s)",
			s->name, nid, pfn, slab->flags,
			PageSlab(slab) && slab->slab_cache ? slab->slab_cache->name : "none");
		return;
	}
	if (PageTail(slab) || page_to_nid(slab) != nid)
		PROBLEM("%s node %d: slab %#lx is a tail page or on node %d", s->name, nid, pfn,
			page_to_nid(slab));
	order = slab_order(s, slab);
	if (order && !PageHead(slab))
		PROBLEM("%s: slab %#lx of order %u is not a compound page", s->name, pfn, order);
	for (unsigned long i = 1; i < (1UL << order); i++) {
		if (compound_head(slab + i) != slab) {
			PROBLEM("%s: page %lu of slab %#lx does not know its head", s->name, i,
				pfn);
			break;
		}
		/* kfree() reads these from the page its pointer is in */
		if (!PageSlab(slab + i) || slab[i].slab_cache != s ||
		    slab[i].objects != slab->objects) {
			PROBLEM("%s: page %lu of slab %#lx lacks PG_slab, the cache or the "
				"object count", s->name, i, pfn);
			break;
		}
	}
	/* A slab has the cache's order, or (made under pressure) its smallest: mm/slab.c */
	if (slab->objects != min((PAGE_SIZE << order) / s->size, 0xffffUL) ||
	    slab->inuse > slab->objects)
		PROBLEM("%s: slab %#lx of order %u has %u objects, %u in use (the cache has %u "
			"per slab of order %u, or as many as fit in order %u)", s->name, pfn, order,
			slab->objects, slab->inuse, s->objects, s->order, s->min_order);
	nr_free = check_freelist(s, slab);
	if (nr_free != (unsigned int)(slab->objects - slab->inuse))
		PROBLEM("%s: slab %#lx: %u objects on the freelist, but %u of %u in use", s->name,
			pfn, nr_free, slab->inuse, slab->objects);
	if (full && slab->inuse != slab->objects)
		PROBLEM("%s: slab %#lx on the full list with %u of %u in use", s->name, pfn,
			slab->inuse, slab->objects);
	if (!full && slab->inuse == slab->objects)
		PROBLEM("%s: slab %#lx on the partial list, but full", s->name, pfn);
}

static void check_list(struct kmem_cache *s, int nid, u32 head, bool full,
		       unsigned long *listed, struct list_totals *t)
{
	u32 prev = 0;

	for (u32 pfn = head; pfn; ) {
		struct page *slab;

		if (!pfn_valid(pfn)) {
			PROBLEM("%s node %d: %s list holds pfn %#x, which has no struct page",
				s->name, nid, full ? "full" : "partial", pfn);
			return;
		}
		slab = pfn_to_page(pfn);
		if (test_bit_(listed, pfn)) {
			PROBLEM("%s node %d: slab %#x is listed twice (or the list loops)",
				s->name, nid, pfn);
			return;
		}
		set_bit_(listed, pfn);
		if (slab->slab_prev != prev)
			PROBLEM("%s node %d: slab %#x: slab_prev %#x, expected %#x", s->name, nid,
				pfn, slab->slab_prev, prev);
		check_slab(s, nid, slab, full);
		t->slabs++;
		t->objects += slab->objects;
		t->inuse += slab->inuse;
		t->empty += !slab->inuse;
		prev = pfn;
		pfn = slab->slab_next;
	}
}

/* Bootstrap sheaves (capacity 0) must all be the one static empty sheaf. */
static const struct slab_sheaf *bootstrap;

/*
 * @sheaf, holding @size objects, is the @what @n: "main sheaf of CPU" 3,
 * "full sheaf in the barn of node" 0.  (A main sheaf's own size field is
 * stale: its CPU's top says how many it holds.)
 */
static void check_sheaf(struct kmem_cache *s, const struct slab_sheaf *sheaf, unsigned int size,
			const char *what, int n, struct addrs *sheaves)
{
	if (!sheaf->capacity) {
		if (bootstrap && sheaf != bootstrap)
			PROBLEM("%s: the %s %d is a second bootstrap sheaf", s->name, what, n);
		bootstrap = sheaf;
		if (size || sheaf->size)
			PROBLEM("%s: the %s %d: the bootstrap sheaf holds %u objects", s->name,
				what, n, size ? size : sheaf->size);
		return;
	}
	addrs_push(sheaves, sheaf);
	if (sheaf->capacity != s->sheaf_capacity || size > sheaf->capacity)
		PROBLEM("%s: the %s %d: %u objects, capacity %u (the cache's: %u)", s->name, what,
			n, size, sheaf->capacity, s->sheaf_capacity);
	for (unsigned int i = 0; i < size && i < sheaf->capacity; i++) {
		void *obj = sheaf->slots[i];
		struct page *slab = head_of(obj);

		if (!slab || !PageSlab(slab) || slab->slab_cache != s ||
		    object_index(s, slab, obj) < 0) {
			PROBLEM("%s: the %s %d: entry %u (%p) is not an object of the cache",
				s->name, what, n, i, obj);
			continue;
		}
		if (!slab->inuse)
			PROBLEM("%s: the %s %d holds %p, whose slab has none in use", s->name,
				what, n, obj);
		addrs_push(&free_objs, obj);
	}
}

static unsigned long barn_list(struct kmem_cache *s, int nid, struct list_head *head,
			       bool full, struct addrs *sheaves)
{
	const char *what = full ? "full sheaf in the barn of node" :
				  "empty sheaf in the barn of node";
	struct slab_sheaf *sheaf;
	unsigned long n = 0;

	list_for_each_entry(sheaf, head, barn_list) {
		if (++n > 1000) {
			PROBLEM("%s node %d: the barn's list loops", s->name, nid);
			break;
		}
		if (!sheaf->capacity || full != (sheaf->size != 0))
			PROBLEM("%s: a %s %d holds %u objects", s->name, what, nid, sheaf->size);
		check_sheaf(s, sheaf, sheaf->size, what, nid, sheaves);
	}
	return n;
}

static void check_node(struct kmem_cache *s, int nid, unsigned long *listed,
		       struct addrs *sheaves)
{
	struct kmem_cache_node *n = get_node(s, nid);
	struct list_totals partial = { 0 }, full = { 0 };
	unsigned long nr_full, nr_empty;

	if (spin_is_locked(&n->list_lock) || spin_is_locked(&n->barn.lock))
		PROBLEM("%s node %d: a lock left held", s->name, nid);
	check_list(s, nid, n->partial, false, listed, &partial);
	check_list(s, nid, n->full, true, listed, &full);
	if (n->nr_partial != partial.slabs || n->nr_empty != partial.empty ||
	    n->nr_slabs != partial.slabs + full.slabs ||
	    n->total_objects != partial.objects + full.objects)
		PROBLEM("%s node %d: counters say %lu partial, %lu empty, %lu slabs, %lu objects; "
			"the lists hold %lu, %lu, %lu, %lu", s->name, nid, n->nr_partial,
			n->nr_empty, n->nr_slabs, n->total_objects, partial.slabs, partial.empty,
			partial.slabs + full.slabs, partial.objects + full.objects);
	nr_full = barn_list(s, nid, &n->barn.sheaves_full, true, sheaves);
	nr_empty = barn_list(s, nid, &n->barn.sheaves_empty, false, sheaves);
	if (nr_full != n->barn.nr_full || nr_empty != n->barn.nr_empty)
		PROBLEM("%s node %d: the barn counts %u full and %u empty sheaves, "
			"holds %lu and %lu", s->name, nid, n->barn.nr_full, n->barn.nr_empty,
			nr_full, nr_empty);
}

static void check_cache(struct kmem_cache *s, unsigned long *listed, struct addrs *sheaves)
{
	unsigned int cpu;
	int nid;

	if (!s->size || s->size < s->object_size || s->align & (s->align - 1) ||
	    (s->red_left_pad + 0UL) % s->align || s->size % s->align || !s->objects ||
	    s->objects * s->size > (PAGE_SIZE << s->order))
		PROBLEM("%s: bad geometry: size %u, object %u, align %u, order %u, %u objects",
			s->name, s->size, s->object_size, s->align, s->order, s->objects);
	for_each_node(nid)
		check_node(s, nid, listed, sheaves);
	if (!s->cpu_sheaves) {
		if (!(s->flags & SLAB_NO_SHEAVES))
			PROBLEM("%s: no per-CPU sheaves", s->name);
		return;
	}
	for_each_possible_cpu(cpu) {
		struct slub_percpu_sheaves *pcs = per_cpu_ptr(s->cpu_sheaves, cpu);

		if (!pcs->main) {
			PROBLEM("%s: CPU %u has no main sheaf", s->name, cpu);
			continue;
		}
		if ((s->flags & SLAB_DEBUG_FLAGS) && pcs->main->capacity)
			PROBLEM("%s: a debug cache has a sheaf on CPU %u", s->name, cpu);
		if (pcs->base != sheaf_objects(pcs->main) ||
		    pcs->end != pcs->base + pcs->main->capacity ||
		    pcs->top < pcs->base || pcs->top > pcs->end) {
			PROBLEM("%s: CPU %u's top/base/end (%p %p %p) do not match its main sheaf %p",
				s->name, cpu, (void *)pcs->top, (void *)pcs->base, (void *)pcs->end,
				(void *)pcs->main);
			continue;
		}
		check_sheaf(s, pcs->main, main_size(pcs), "main sheaf of CPU", (int)cpu, sheaves);
		if (pcs->spare) {
			if (!pcs->spare->capacity)
				PROBLEM("%s: CPU %u's spare is the bootstrap sheaf", s->name, cpu);
			check_sheaf(s, pcs->spare, pcs->spare->size, "spare sheaf of CPU", (int)cpu,
				    sheaves);
		}
		if (pcs->spare_size != (pcs->spare ? pcs->spare->size : 0))
			PROBLEM("%s: CPU %u's spare_size %u, its spare holds %u", s->name, cpu,
				pcs->spare_size, pcs->spare ? pcs->spare->size : 0);
	}
}

unsigned long slab_check_consistency(void)
{
	unsigned long *listed = calloc(max_pfn / BITS + 1, sizeof(unsigned long));
	struct kmem_cache *s, *sheaf_cache = slab_find_cache("slab_sheaf");
	struct addrs sheaves = { 0 };

	problems = 0;
	free_objs.n = 0;
	bootstrap = NULL;
	if (host_irqs_off)
		PROBLEM("interrupts left off");
	if (spin_is_locked(&slab_caches_lock))
		PROBLEM("slab_caches_lock left held");
	list_for_each_entry(s, &slab_caches, list)
		check_cache(s, listed, &sheaves);
	/* No slab that no list knows (a leaked slab) */
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (!pfn_valid(pfn)) {
			pfn |= (1UL << 12) - 1;		/* a 16 MiB section without struct pages */
			continue;
		}
		/* any page of a slab says PG_slab; its first page is the one listed */
		if (PageSlab(page) && !test_bit_(listed, page_to_pfn(compound_head(page))))
			PROBLEM("pfn %#lx has PG_slab (cache %s) but is on no slab list", pfn,
				page->slab_cache ? page->slab_cache->name : "none");
	}
	/* No object free twice: on two freelists, in two sheaves, or both */
	if (free_objs.n)
		qsort(free_objs.a, free_objs.n, sizeof(*free_objs.a), cmp_ulong);
	for (unsigned long i = 1; i < free_objs.n; i++) {
		if (free_objs.a[i] == free_objs.a[i - 1])
			PROBLEM("object %#lx is free in two places", free_objs.a[i]);
	}
	/* Every sheaf is an object of the sheaf cache that it has handed out */
	for (unsigned long i = 0; i < sheaves.n; i++) {
		struct page *slab = head_of((void *)sheaves.a[i]);

		if (!slab || !PageSlab(slab) || slab->slab_cache != sheaf_cache ||
		    object_index(sheaf_cache, slab, (void *)sheaves.a[i]) < 0 ||
		    addrs_has(&free_objs, sheaves.a[i]))
			PROBLEM("sheaf %#lx is not a live object of the sheaf cache",
				sheaves.a[i]);
	}
	if (sheaves.n)
		qsort(sheaves.a, sheaves.n, sizeof(*sheaves.a), cmp_ulong);
	for (unsigned long i = 1; i < sheaves.n; i++) {
		if (sheaves.a[i] == sheaves.a[i - 1])
			PROBLEM("sheaf %#lx is used in two places", sheaves.a[i]);
	}
	free(sheaves.a);
	free(listed);
	return problems;
}

unsigned long slab_check_live(void *const *live, unsigned long nr)
{
	problems = 0;
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = head_of(live[i]);

		if (addrs_has(&free_objs, (unsigned long)live[i]))
			PROBLEM("live object %p is free", live[i]);
		if (!page) {
			PROBLEM("live object %p is not in RAM", live[i]);
		} else if (PageSlab(page)) {
			if (!page->inuse || object_index(page->slab_cache, page, live[i]) < 0)
				PROBLEM("live object %p: slab %#lx of %s has %u in use", live[i],
					page_to_pfn(page), page->slab_cache->name, page->inuse);
		} else if (!page_test(page, PG_large_kmalloc) || page_address(page) != live[i]) {
			PROBLEM("live object %p is in neither a slab nor a large kmalloc block",
				live[i]);
		}
	}
	return problems;
}

unsigned long slab_cache_allocated(struct kmem_cache *s)
{
	unsigned long inuse = 0;
	int nid;

	for_each_node(nid) {
		struct kmem_cache_node *n = get_node(s, nid);

		for (u32 head = n->partial, k = 0; k < 2; head = n->full, k++) {
			for (struct page *slab = pfn_to_slab(head); slab;
			     slab = pfn_to_slab(slab->slab_next))
				inuse += slab->inuse;
		}
	}
	return inuse - cache_sheaf_objects(s);
}
