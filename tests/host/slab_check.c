/*
 * tests/host/slab_check.c - the slab allocator's machines and its
 * consistency checker (see slab_check.h).
 *
 * The checker reads the slab's own structures (mm/internal.h) but decodes
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
#define MAX_REPORTS	20	/* per consistency check */
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

#define PROBLEM(...)							\
	do {								\
		if (problems++ < MAX_REPORTS)				\
			check_fail(__VA_ARGS__);			\
		else							\
			buddy_check_failures++;				\
	} while (0)

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

	if ((unsigned long)p < base || off % s->size || off / s->size >= s->objects)
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
	unsigned int nr_free;

	if (!PageSlab(slab) || slab->slab_cache != s) {
		PROBLEM("%s node %d: slab %#lx on its list is not its slab (flags %#lx, cache %s)",
			s->name, nid, pfn, slab->flags,
			PageSlab(slab) && slab->slab_cache ? slab->slab_cache->name : "none");
		return;
	}
	if (PageTail(slab) || page_to_nid(slab) != nid)
		PROBLEM("%s node %d: slab %#lx is a tail page or on node %d", s->name, nid, pfn,
			page_to_nid(slab));
	if (s->order && !PageHead(slab))
		PROBLEM("%s: slab %#lx of order %u is not a compound page", s->name, pfn, s->order);
	for (unsigned long i = 1; i < (1UL << s->order); i++) {
		if (compound_head(slab + i) != slab) {
			PROBLEM("%s: page %lu of slab %#lx does not know its head", s->name, i, pfn);
			break;
		}
	}
	if (slab->objects != s->objects || slab->inuse > slab->objects)
		PROBLEM("%s: slab %#lx has %u objects, %u in use (the cache has %u per slab)",
			s->name, pfn, slab->objects, slab->inuse, s->objects);
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
			PROBLEM("%s node %d: slab %#x is listed twice (or the list loops)", s->name,
				nid, pfn);
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

static void check_sheaf(struct kmem_cache *s, const struct slab_sheaf *sheaf, const char *where,
			struct addrs *sheaves)
{
	if (!sheaf->capacity) {
		if (bootstrap && sheaf != bootstrap)
			PROBLEM("%s: %s is a second bootstrap sheaf", s->name, where);
		bootstrap = sheaf;
		if (sheaf->size)
			PROBLEM("%s: %s: the bootstrap sheaf holds %u objects", s->name, where,
				sheaf->size);
		return;
	}
	addrs_push(sheaves, sheaf);
	if (sheaf->capacity != s->sheaf_capacity || sheaf->size > sheaf->capacity)
		PROBLEM("%s: %s: %u objects, capacity %u (the cache's: %u)", s->name, where,
			sheaf->size, sheaf->capacity, s->sheaf_capacity);
	for (unsigned int i = 0; i < sheaf->size && i < sheaf->capacity; i++) {
		void *obj = sheaf->objects[i];
		struct page *slab = head_of(obj);

		if (!slab || !PageSlab(slab) || slab->slab_cache != s ||
		    object_index(s, slab, obj) < 0) {
			PROBLEM("%s: %s: entry %u (%p) is not an object of the cache", s->name, where,
				i, obj);
			continue;
		}
		if (!slab->inuse)
			PROBLEM("%s: %s holds %p, whose slab has none in use", s->name, where, obj);
		addrs_push(&free_objs, obj);
	}
}

static unsigned long barn_list(struct kmem_cache *s, int nid, struct list_head *head,
			       bool full, struct addrs *sheaves)
{
	struct slab_sheaf *sheaf;
	unsigned long n = 0;
	char where[64];

	list_for_each_entry(sheaf, head, barn_list) {
		snprintf(where, sizeof(where), "node %d barn's %s sheaf %lu", nid,
			 full ? "full" : "empty", n);
		if (++n > 1000) {
			PROBLEM("%s node %d: the barn's list loops", s->name, nid);
			break;
		}
		if (!sheaf->capacity || full != (sheaf->size != 0))
			PROBLEM("%s: %s holds %u objects", s->name, where, sheaf->size);
		check_sheaf(s, sheaf, where, sheaves);
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
		PROBLEM("%s node %d: the barn counts %u full and %u empty sheaves, holds %lu and %lu",
			s->name, nid, n->barn.nr_full, n->barn.nr_empty, nr_full, nr_empty);
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
		char where[48];

		if (!pcs->main) {
			PROBLEM("%s: CPU %u has no main sheaf", s->name, cpu);
			continue;
		}
		if ((s->flags & SLAB_DEBUG_FLAGS) && pcs->main->capacity)
			PROBLEM("%s: a debug cache has a sheaf on CPU %u", s->name, cpu);
		snprintf(where, sizeof(where), "CPU %u's main sheaf", cpu);
		check_sheaf(s, pcs->main, where, sheaves);
		if (pcs->spare) {
			snprintf(where, sizeof(where), "CPU %u's spare sheaf", cpu);
			if (!pcs->spare->capacity)
				PROBLEM("%s: %s is the bootstrap sheaf", s->name, where);
			check_sheaf(s, pcs->spare, where, sheaves);
		}
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
		if (!pfn_valid(pfn)) {
			pfn |= (1UL << 12) - 1;		/* a 16 MiB section without struct pages */
			continue;
		}
		if (PageSlab(pfn_to_page(pfn)) && !test_bit_(listed, pfn))
			PROBLEM("pfn %#lx has PG_slab (cache %s) but is on no slab list", pfn,
				pfn_to_page(pfn)->slab_cache ? pfn_to_page(pfn)->slab_cache->name :
				"none");
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
			PROBLEM("sheaf %#lx is not a live object of the sheaf cache", sheaves.a[i]);
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

/* ---------------------------------------------------------------- the model */

static const struct {
	const char *name;
	unsigned int size, align;
	slab_flags_t flags;
	bool ctor;
} model_caches[SMODEL_CACHES] = {
	{ "model-24", 24, 16, 0, false },
	{ "model-ctor", 200, 0, 0, true },
	{ "model-hw", 100, 0, SLAB_HWCACHE_ALIGN, false },
	{ "model-3000", 3000, 0, 0, false },		/* order-2 slabs */
	{ "model-debug", 120, 0, SLAB_POISON | SLAB_RED_ZONE | SLAB_STORE_USER, false },
};

static unsigned long ctor_calls;

static u64 ctor_magic(const void *p)
{
	return 0xc7005eedULL ^ (unsigned long)p;
}

/* The model's ctor: the first word of every object says who made it. */
static void model_ctor(void *p)
{
	*(u64 *)p = ctor_magic(p);
	ctor_calls++;
}

static u64 pat(u64 tag, size_t word)
{
	return (tag * 0x9e3779b97f4a7c15ULL) ^ (word * 0x100000001b3ULL) ^ 0xa5a5a5a5ULL;
}

/* Byte j of an object tagged @tag is byte j % 8 of pat(tag, j / 8). */
static void fill(void *p, size_t from, size_t size, u64 tag)
{
	size_t j = from;

	for (; j < size && j % 8; j++)
		((u8 *)p)[j] = (u8)(pat(tag, j / 8) >> (8 * (j % 8)));
	for (; j + 8 <= size; j += 8)
		((u64 *)p)[j / 8] = pat(tag, j / 8);
	for (; j < size; j++)
		((u8 *)p)[j] = (u8)(pat(tag, j / 8) >> (8 * (j % 8)));
}

/* Are bytes [@from, @size) of @p as fill() left them?  Reports the first difference. */
static bool intact(const void *p, size_t from, size_t size, u64 tag, const char *what)
{
	for (size_t j = from; j < size; j++) {
		u8 want = (u8)(pat(tag, j / 8) >> (8 * (j % 8)));

		if (j % 8 == 0 && j + 8 <= size) {
			if (((const u64 *)p)[j / 8] == pat(tag, j / 8)) {
				j += 7;
				continue;
			}
		}
		if (((const u8 *)p)[j] != want) {
			check_fail("model: %s %p (%zu bytes): byte %zu is %#x, expected %#x", what, p,
				   size, j, ((const u8 *)p)[j], want);
			return false;
		}
	}
	return true;
}

static size_t first_byte(const struct sobj *o)
{
	return o->cache >= 0 && model_caches[o->cache].ctor ? 8 : 0;	/* the ctor's word */
}

static bool obj_intact(const struct sobj *o, const char *what)
{
	return intact(o->p, first_byte(o), o->size, o->tag, what);
}

static unsigned long bugs_since(unsigned long pos)
{
	unsigned long n = 0;

	for (const char *s = host_log_since(pos); (s = strstr(s, "BUG")); s += 3)
		n++;
	return n;
}

static void expect_reports(unsigned long pos, unsigned long want, const char *what)
{
	unsigned long got = bugs_since(pos);

	if (got != want)
		check_fail("model: %s: %lu reports, expected %lu:\n%s", what, got, want,
			   host_log_since(pos));
}

static void push_live(struct smodel *m, struct sobj o)
{
	if (m->nr_live == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->live = realloc(m->live, m->cap * sizeof(*m->live));
		if (!m->live)
			abort();
	}
	m->live[m->nr_live++] = o;
	if (o.cache >= 0)
		m->cache_live[o.cache]++;
}

static struct sobj take_live(struct smodel *m, unsigned long i)
{
	struct sobj o = m->live[i];

	m->live[i] = m->live[--m->nr_live];
	if (o.cache >= 0)
		m->cache_live[o.cache]--;
	return o;
}

void smodel_init(struct smodel *m)
{
	memset(m, 0, sizeof(*m));
	m->next_tag = 1;
	slab_shrink_all();
	drain_all_pages();
	buddy_snapshot_take(&m->start);
}

static gfp_t model_gfp(unsigned int flags)
{
	static const gfp_t base[] = { GFP_KERNEL, GFP_KERNEL, GFP_ATOMIC, GFP_NOWAIT };
	gfp_t gfp = base[flags & 3];

	if (!(flags & 0x40))
		gfp |= __GFP_NOWARN;
	return gfp;
}

static int model_node(unsigned int flags)
{
	static const int nodes[] = { NUMA_NO_NODE, 0, 1, 7 };

	return nodes[(flags >> 2) & 3];
}

static bool aligned_to(const void *p, unsigned long a)
{
	return ((unsigned long)p & (a - 1)) == 0;
}

/* Is @p what kmalloc(@size, @gfp) may return? */
static void check_kmalloc(const void *p, size_t size, gfp_t gfp)
{
	struct page *page = virt_to_head_page(p);
	struct kmem_cache *s;
	unsigned int align;

	if ((gfp & __GFP_DMA) || size > KMALLOC_MAX_CACHE_SIZE) {
		if (!page_test(page, PG_large_kmalloc) || page_address(page) != p ||
		    ksize(p) != PAGE_SIZE << get_order(size))
			check_fail("model: kmalloc(%zu, %#x) = %p: not a large kmalloc block", size,
				   gfp, p);
		if ((gfp & __GFP_DMA) && page_zonenum(page) != ZONE_DMA)
			check_fail("model: kmalloc(%zu, GFP_DMA) = %p: zone %u", size, p,
				   page_zonenum(page));
		return;
	}
	s = kmalloc_caches[kmalloc_index_runtime(size)];
	align = s->object_size & (s->object_size - 1) ? 8 :
		min(s->object_size, (unsigned int)PAGE_SIZE);

	if (!PageSlab(page) || page->slab_cache != s || ksize(p) != s->object_size ||
	    !aligned_to(p, align))
		check_fail("model: kmalloc(%zu) = %p: from %s, ksize %zu, expected %s aligned to %u",
			   size, p, PageSlab(page) ? page->slab_cache->name : "no cache", ksize(p),
			   s->name, align);
}

static void check_cache_obj(struct smodel *m, int c, const void *p)
{
	struct kmem_cache *s = m->caches[c];
	struct page *page = virt_to_head_page(p);
	unsigned int align = model_caches[c].align ? model_caches[c].align : 8;

	if (model_caches[c].flags & SLAB_HWCACHE_ALIGN)
		align = 64;
	if (!PageSlab(page) || page->slab_cache != s || !aligned_to(p, align))
		check_fail("model: %s object %p: in %s, not aligned to %u", s->name, p,
			   PageSlab(page) ? page->slab_cache->name : "no cache", align);
	if (model_caches[c].ctor && *(const u64 *)p != ctor_magic(p))
		check_fail("model: %s object %p was not constructed (first word %#llx)", s->name,
			   p, (unsigned long long)*(const u64 *)p);
}

/* A model cache that exists, from @r; -1 if none does. */
static int some_cache(struct smodel *m, unsigned long r)
{
	for (int i = 0; i < SMODEL_CACHES; i++) {
		int c = (int)((r + i) % SMODEL_CACHES);

		if (m->caches[c])
			return c;
	}
	return -1;
}

void smodel_alloc(struct smodel *m, unsigned int kind, size_t size, unsigned int flags)
{
	gfp_t gfp = model_gfp(flags);
	int node = model_node(flags), c = -1;
	struct sobj o = { .tag = m->next_tag++, .cache = -1 };
	u8 src[256];

	kind %= SM_NR_ALLOC;
	if (kind >= SM_CACHE) {
		c = some_cache(m, size);
		if (c < 0)
			kind = SM_KMALLOC;
	}
	if ((kind == SM_KMALLOC_NODE || kind == SM_CACHE_NODE) && (flags & 0x10) && node >= 0 &&
	    node < (int)nr_node_ids)
		gfp |= __GFP_THISNODE;
	size = size ? size : 1;
	switch (kind) {
	case SM_KMALLOC:
		o.p = kmalloc(size, gfp);
		break;
	case SM_KZALLOC:
		o.p = kzalloc(size, gfp);
		break;
	case SM_KMALLOC_NODE:
		o.p = kmalloc_node(size, gfp, node);
		break;
	case SM_KCALLOC:
		size = (size + 7) / 8 * 8;
		o.p = kcalloc(size / 8, 8, gfp);
		break;
	case SM_KMEMDUP:
		size = min(size, sizeof(src));
		fill(src, 0, size, o.tag);
		o.p = kmemdup(src, size, gfp);
		break;
	case SM_DMA:
		o.p = kmalloc(size, gfp | __GFP_DMA);
		gfp |= __GFP_DMA;
		break;
	case SM_CACHE:
		o.p = kmem_cache_alloc(m->caches[c], gfp);
		size = model_caches[c].size;
		break;
	default:
		o.p = kmem_cache_alloc_node(m->caches[c], gfp, node);
		size = model_caches[c].size;
		break;
	}
	o.size = size;
	if (!o.p) {
		m->fails++;
		return;
	}
	m->allocs++;
	if (kind >= SM_CACHE) {
		o.cache = c;
		check_cache_obj(m, c, o.p);
	} else {
		check_kmalloc(o.p, size, gfp);
	}
	if (gfp & __GFP_THISNODE && page_to_nid(virt_to_head_page(o.p)) != node)
		check_fail("model: %p (kind %u, %zu bytes) for node %d with __GFP_THISNODE is on node %d", o.p, kind, size, node,
			   page_to_nid(virt_to_head_page(o.p)));
	if ((kind == SM_KMALLOC || kind == SM_CACHE) && PageSlab(virt_to_head_page(o.p)) &&
	    page_to_nid(virt_to_head_page(o.p)) != numa_node_id())
		m->remote++;
	if (kind == SM_KMEMDUP) {
		obj_intact(&o, "kmemdup() copy");
	} else {
		if (kind == SM_KZALLOC || kind == SM_KCALLOC) {
			for (size_t j = 0; j < size; j++) {
				if (((u8 *)o.p)[j]) {
					check_fail("model: zeroed allocation %p (%zu bytes): byte %zu "
						   "is %#x", o.p, size, j, ((u8 *)o.p)[j]);
					break;
				}
			}
		}
		fill(o.p, first_byte(&o), size, o.tag);
	}
	push_live(m, o);
}

/* Free @o (taken out of the live list already), as @how says. */
static void free_obj(struct smodel *m, const struct sobj *o, unsigned int how)
{
	obj_intact(o, "freed object");
	if (o->cache >= 0)
		kmem_cache_free(m->caches[o->cache], o->p);
	else if (how % 4 == 3)
		kfree_sensitive(o->p);
	else
		kfree(o->p);
	m->frees++;
}

void smodel_free(struct smodel *m, unsigned long idx, unsigned int how)
{
	struct sobj o;

	if (!m->nr_live)
		return;
	o = take_live(m, idx % m->nr_live);
	free_obj(m, &o, how);
}

void smodel_realloc(struct smodel *m, unsigned long idx, size_t size, unsigned int flags)
{
	struct sobj *o;
	size_t ks;
	void *p;

	if (!m->nr_live)
		return;
	o = &m->live[idx % m->nr_live];
	if (o->cache >= 0)
		return;		/* krealloc() is for kmalloc() memory */
	size = size ? size : 1;
	ks = ksize(o->p);
	p = krealloc(o->p, size, model_gfp(flags));
	if (!p) {
		obj_intact(o, "object krealloc() failed to move");
		m->fails++;
		return;
	}
	if (size <= ks && p != o->p)
		check_fail("model: krealloc(%p, %zu) moved to %p, though ksize is %zu", o->p, size,
			   p, ks);
	if (p != o->p)
		check_kmalloc(p, size, model_gfp(flags));
	intact(p, 0, min(size, o->size), o->tag, "krealloc()ed object");
	o->p = p;
	o->size = size;
	o->tag = m->next_tag++;
	fill(p, 0, size, o->tag);
	m->reallocs++;
}

void smodel_cache_op(struct smodel *m, unsigned int slot)
{
	unsigned int c = slot % SMODEL_CACHES;
	unsigned long pos = printk_log_pos();
	struct kmem_cache *s = m->caches[c];
	char want[80];

	m->cache_ops++;
	if (!s) {
		m->caches[c] = kmem_cache_create(model_caches[c].name, model_caches[c].size,
						 model_caches[c].align, model_caches[c].flags,
						 model_caches[c].ctor ? model_ctor : NULL);
		if (!m->caches[c] && !strstr(host_log_since(pos), "out of memory"))
			check_fail("model: kmem_cache_create(%s) failed", model_caches[c].name);
		return;
	}
	kmem_cache_destroy(s);
	if (!m->cache_live[c]) {
		expect_reports(pos, 0, "kmem_cache_destroy() of an empty cache");
		if (slab_find_cache(model_caches[c].name))
			check_fail("model: %s is still listed after kmem_cache_destroy()",
				   model_caches[c].name);
		m->caches[c] = NULL;
		return;
	}
	/* With objects in it: a leak, reported with the count; the cache stays */
	snprintf(want, sizeof(want), "%s: %lu object%s still allocated", model_caches[c].name,
		 m->cache_live[c], m->cache_live[c] == 1 ? "" : "s");
	expect_reports(pos, 1, "kmem_cache_destroy() of a cache in use");
	if (!strstr(host_log_since(pos), want) || slab_find_cache(model_caches[c].name) != s)
		check_fail("model: leak report without \"%s\", or the cache was freed", want);
	m->misuses++;
}

/* Cache number @which (modulo the caches there are, plus one), or NULL for "all" */
static struct kmem_cache *nth_cache(unsigned int which)
{
	struct kmem_cache *s;
	unsigned int n = 0;

	list_for_each_entry(s, &slab_caches, list)
		n++;
	which %= n + 1;
	list_for_each_entry(s, &slab_caches, list) {
		if (!which--)
			return s;
	}
	return NULL;
}

void smodel_shrink(struct smodel *m, unsigned int which)
{
	struct kmem_cache *s = nth_cache(which);

	m->shrinks++;
	if (s)
		kmem_cache_shrink(s);
	else
		slab_shrink_all();
}

void smodel_validate(struct smodel *m, unsigned int which)
{
	struct kmem_cache *s = nth_cache(which);
	unsigned long pos = printk_log_pos();
	int errors;

	if (!s)
		s = kmalloc_caches[6];
	errors = validate_slab_cache(s);

	(void)m;
	if (errors)
		check_fail("model: validate_slab_cache(%s) found %d problems:\n%s", s->name, errors,
			   host_log_since(pos));
}

/* A live object (from @arg) that satisfies @want, or -1 */
static long find_live(struct smodel *m, unsigned long arg, bool (*want)(const struct sobj *))
{
	for (unsigned long k = 0; k < m->nr_live && k < 64; k++) {
		unsigned long i = (arg + k) % m->nr_live;

		if (want(&m->live[i]))
			return (long)i;
	}
	return -1;
}

static struct kmem_cache *slab_cache_of(const void *p)
{
	struct page *page = virt_to_head_page(p);

	return PageSlab(page) ? page->slab_cache : NULL;
}

static bool any(const struct sobj *o)
{
	(void)o;
	return true;
}

static bool has_redzone(const struct sobj *o)
{
	struct kmem_cache *s = slab_cache_of(o->p);

	return s && (s->flags & SLAB_RED_ZONE);
}

static bool poisoned_when_free(const struct sobj *o)
{
	struct kmem_cache *s = slab_cache_of(o->p);

	return s && (s->flags & SLAB_POISON) && !s->ctor;
}

/* Free live object @i and free it again: reported once, wherever it went. */
static void double_free(struct smodel *m, unsigned long i)
{
	struct sobj o = take_live(m, i);
	struct kmem_cache *s = slab_cache_of(o.p);
	unsigned long pos;

	free_obj(m, &o, 0);
	pos = printk_log_pos();
	if (s && !(s->flags & SLAB_DEBUG_FLAGS)) {
		/* Without debugging only a free of the object freed last is caught. */
		struct slab_sheaf *sheaf = this_cpu_ptr(s->cpu_sheaves)->main;

		if (!sheaf->size || sheaf->objects[sheaf->size - 1] != o.p)
			return;
	}
	if (o.cache >= 0)
		kmem_cache_free(m->caches[o.cache], o.p);
	else
		kfree(o.p);
	expect_reports(pos, 1, "double free");
}

void smodel_misuse(struct smodel *m, unsigned int kind, unsigned long arg)
{
	unsigned long pos = printk_log_pos();
	long i = m->nr_live ? find_live(m, arg, any) : -1;
	struct sobj *o = i >= 0 ? &m->live[i] : NULL;
	const char *what = "misuse";
	struct page *page;
	size_t ks;

	switch (kind % SM_NR_MISUSE) {
	case SM_INTERIOR:
		if (!o || (ks = ksize(o->p)) < 2)
			return;
		what = "free of a pointer inside an object";
		pos = printk_log_pos();
		if (o->cache >= 0)
			kmem_cache_free(m->caches[o->cache], (char *)o->p + ((arg % (ks - 1)) | 1));
		else
			kfree((char *)o->p + ((arg % (ks - 1)) | 1));
		break;
	case SM_WRONG_CACHE: {
		int c = some_cache(m, arg);

		if (!o || c < 0 || slab_cache_of(o->p) == m->caches[c])
			return;
		what = "kmem_cache_free() into the wrong cache";
		kmem_cache_free(m->caches[c], o->p);
		break;
	}
	case SM_NOT_RAM:
		what = "kfree() of memory that is not RAM";
		kfree(arg & 1 ? (void *)m : (void *)(PAGE_OFFSET - PAGE_SIZE * (arg % 64 + 1)));
		break;
	case SM_PAGE:
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, arg % 3);
		if (!page)
			return;
		what = "kfree() of pages from alloc_pages()";
		kfree(page_address(page));
		__free_pages(page, arg % 3);
		expect_reports(pos, 1, what);
		what = "kfree() of free pages";
		pos = printk_log_pos();
		kfree(page_address(page));
		break;
	case SM_DOUBLE_FREE:
		if (o)
			double_free(m, (unsigned long)i);
		m->misuses++;
		return;
	case SM_KSIZE_BAD:
		what = "ksize() of memory kmalloc() did not hand out";
		if (ksize(m))
			check_fail("model: ksize() of a host pointer is not 0");
		break;
	case SM_REDZONE:
		i = m->nr_live ? find_live(m, arg, has_redzone) : -1;
		if (i < 0)
			return;
		what = "free of an object whose redzone was overwritten";
		((u8 *)m->live[i].p)[slab_cache_of(m->live[i].p)->object_size] ^= 0x11;
		smodel_free(m, (unsigned long)i, 0);
		break;
	default: {	/* SM_WRITE_AFTER_FREE, found by validate */
		struct sobj f;
		struct kmem_cache *s;

		i = m->nr_live ? find_live(m, arg, poisoned_when_free) : -1;
		if (i < 0)
			return;
		f = take_live(m, (unsigned long)i);
		s = slab_cache_of(f.p);
		free_obj(m, &f, 0);
		if (slab_cache_of(f.p) != s)
			return;		/* its slab went back to the page allocator */
		what = "write after free, found by validate_slab_cache()";
		pos = printk_log_pos();
		((u8 *)f.p)[arg % s->object_size] ^= 0x5a;
		if (validate_slab_cache(s) != 1)
			check_fail("model: validate_slab_cache(%s) did not count one error", s->name);
		break;
	}
	}
	expect_reports(pos, 1, what);
	m->misuses++;
}

unsigned long smodel_check(struct smodel *m)
{
	unsigned long before = buddy_check_failures, kmalloc_live[KMALLOC_SHIFT_HIGH + 1] = { 0 };
	void **ptrs = malloc((m->nr_live + 1) * sizeof(void *));

	slab_check_consistency();
	for (unsigned long i = 0; i < m->nr_live; i++) {
		struct kmem_cache *s = slab_cache_of(m->live[i].p);

		ptrs[i] = m->live[i].p;
		obj_intact(&m->live[i], "live object");
		for (unsigned int k = 0; s && m->live[i].cache < 0 && k <= KMALLOC_SHIFT_HIGH; k++)
			kmalloc_live[k] += kmalloc_caches[k] == s;
	}
	slab_check_live(ptrs, m->nr_live);
	free(ptrs);
	for (int c = 0; c < SMODEL_CACHES; c++) {
		if (m->caches[c] && slab_cache_allocated(m->caches[c]) != m->cache_live[c])
			check_fail("model: %s has %lu objects handed out, the model holds %lu",
				   m->caches[c]->name, slab_cache_allocated(m->caches[c]),
				   m->cache_live[c]);
	}
	for (unsigned int k = 1; k <= KMALLOC_SHIFT_HIGH; k++) {
		if (kmalloc_caches[k] && slab_cache_allocated(kmalloc_caches[k]) != kmalloc_live[k])
			check_fail("model: %s has %lu objects handed out, the model holds %lu",
				   kmalloc_caches[k]->name, slab_cache_allocated(kmalloc_caches[k]),
				   kmalloc_live[k]);
	}
	buddy_check_consistency();
	return buddy_check_failures - before;
}

void smodel_finish(struct smodel *m)
{
	struct buddy_snapshot now;

	while (m->nr_live)
		smodel_free(m, m->nr_live - 1, 0);
	for (int c = 0; c < SMODEL_CACHES; c++) {
		if (m->caches[c])
			smodel_cache_op(m, (unsigned int)c);
	}
	smodel_check(m);
	slab_shrink_all();
	for (unsigned int k = 1; k <= KMALLOC_SHIFT_HIGH; k++) {
		int nid;

		for_each_node(nid) {
			if (kmalloc_caches[k] && get_node(kmalloc_caches[k], nid)->nr_slabs)
				check_fail("model: %s keeps %lu slabs on node %d after shrinking",
					   kmalloc_caches[k]->name,
					   get_node(kmalloc_caches[k], nid)->nr_slabs, nid);
		}
	}
	drain_all_pages();
	buddy_snapshot_take(&now);
	if (!buddy_snapshot_equal(&m->start, &now))
		check_fail("model: the free lists are not as at the start");
	buddy_snapshot_free(&now);
	buddy_snapshot_free(&m->start);
	free(m->live);
	m->live = NULL;
}
