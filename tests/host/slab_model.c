/*
 * tests/host/slab_model.c - the slab allocator's reference model (see
 * slab_model.h): the model's caches, the pattern written into every
 * object, each operation and what it must find, the misuses and the one
 * report each must print.
 */
#include <stdio.h>
#include <stdlib.h>
#include "kernel_names.h"
#include "slab_model.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

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
			check_fail("model: %s %p (%zu bytes): byte %zu is %#x, expected %#x",
				   what, p, size, j, ((const u8 *)p)[j], want);
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
			check_fail("model: kmalloc(%zu, %#x) = %p: not a large kmalloc block",
				   size, gfp, p);
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
		check_fail("model: kmalloc(%zu) = %p: from %s, ksize %zu, expected %s "
			   "aligned to %u", size, p,
			   PageSlab(page) ? page->slab_cache->name : "no cache", ksize(p), s->name,
			   align);
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
		check_fail("model: %p (kind %u, %zu bytes) for node %d with __GFP_THISNODE "
			   "is on node %d", o.p, kind, size, node,
			   page_to_nid(virt_to_head_page(o.p)));
	if ((kind == SM_KMALLOC || kind == SM_CACHE) && PageSlab(virt_to_head_page(o.p))) {
		m->local++;
		m->remote += page_to_nid(virt_to_head_page(o.p)) != numa_node_id();
	}
	if (kind == SM_KMEMDUP) {
		obj_intact(&o, "kmemdup() copy");
	} else {
		if (kind == SM_KZALLOC || kind == SM_KCALLOC) {
			for (size_t j = 0; j < size; j++) {
				if (((u8 *)o.p)[j]) {
					check_fail("model: zeroed allocation %p (%zu bytes): "
						   "byte %zu is %#x", o.p, size, j,
						   ((u8 *)o.p)[j]);
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
		check_fail("model: validate_slab_cache(%s) found %d problems:\n%s", s->name,
			   errors, host_log_since(pos));
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
	if (s && !(s->flags & SLAB_DEBUG_FLAGS) && s->free_mark == s->offset &&
	    *(unsigned long *)((char *)o.p + s->free_mark) != ((unsigned long)o.p ^ s->random)) {
		/*
		 * Without debugging the free mark catches it, except in a one-word
		 * object already flushed to its slab: the free pointer took the mark's place.
		 */
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
	size_t ks, off;

	switch (kind % SM_NR_MISUSE) {
	case SM_INTERIOR:
		if (!o || (ks = ksize(o->p)) < 2)
			return;
		what = "free of a pointer inside an object";
		off = (arg % (ks - 1)) | 1;	/* odd: never where an object starts */
		pos = printk_log_pos();
		if (o->cache >= 0)
			kmem_cache_free(m->caches[o->cache], (char *)o->p + off);
		else
			kfree((char *)o->p + off);
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
			check_fail("model: validate_slab_cache(%s) did not count one error",
				   s->name);
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
		struct kmem_cache *s = kmalloc_caches[k];

		if (s && slab_cache_allocated(s) != kmalloc_live[k])
			check_fail("model: %s has %lu objects handed out, the model holds %lu",
				   s->name, slab_cache_allocated(s), kmalloc_live[k]);
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
