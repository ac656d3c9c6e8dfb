/*
 * mm/slab_common.c - kmalloc() and its family, on top of the caches.
 *
 * kmalloc(size) rounds size up to a size class and allocates from that
 * class's cache:
 *
 *   size   1-8  9-16  17-32  33-64  65-96  97-128  129-192  193-256  ...  4097-8192
 *   cache  kmalloc-8 -16  -32    -64    -96    -128     -192     -256  ...  kmalloc-8k
 *
 * A size known only at run time finds its class in a table of one byte
 * per 8 bytes of size, with no branch (kmalloc_index_runtime()).  The 96
 * and 192 classes save a third of the space of the next power of two.
 * Power-of-two classes are aligned to their size, as Linux guarantees
 * (drivers rely on it).
 *
 * Larger than KMALLOC_MAX_CACHE_SIZE (8 KiB), and for GFP_DMA/GFP_DMA32
 * (which have no caches here), kmalloc() takes whole pages from the page
 * allocator, as a __GFP_COMP block marked PG_large_kmalloc.  kfree() tells
 * the two apart from the block's first page: PG_slab or PG_large_kmalloc;
 * anything else was not handed out by kmalloc(), and is reported.
 */
#include "mm/slab_internal.h"
#include "mm/kasan.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct kmem_cache *kmalloc_caches[KMALLOC_SHIFT_HIGH + 1];

static const struct {
	const char *name;
	unsigned int size;
} kmalloc_info[KMALLOC_SHIFT_HIGH + 1] = {
	[1] = { "kmalloc-96", 96 },	[2] = { "kmalloc-192", 192 },
	[3] = { "kmalloc-8", 8 },	[4] = { "kmalloc-16", 16 },
	[5] = { "kmalloc-32", 32 },	[6] = { "kmalloc-64", 64 },
	[7] = { "kmalloc-128", 128 },	[8] = { "kmalloc-256", 256 },
	[9] = { "kmalloc-512", 512 },	[10] = { "kmalloc-1k", 1024 },
	[11] = { "kmalloc-2k", 2048 },	[12] = { "kmalloc-4k", 4096 },
	[13] = { "kmalloc-8k", 8192 },
};

/*
 * The size class when the size is only known at run time: one byte per 8
 * bytes of size, filled from kmalloc_index() by kmalloc_init(), so the two
 * cannot disagree.  Every class is a multiple of 8 bytes, so sizes 8k+1
 * to 8k+8 always share one.  A table and no branch: sizes that come in no
 * order would make any branch here a coin toss for the CPU's predictor.
 */
static u8 size_index[KMALLOC_MAX_CACHE_SIZE / 8];

/** kmalloc_index_runtime - the size class of @size (1..KMALLOC_MAX_CACHE_SIZE) */
unsigned int kmalloc_index_runtime(size_t size)
{
	return size_index[(size - 1) / 8];
}

/** kmalloc_init - make the kmalloc caches (from kmem_cache_init()) */
void kmalloc_init(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(size_index); i++)
		size_index[i] = kmalloc_index(8 * (i + 1));
	for (unsigned int i = 1; i <= KMALLOC_SHIFT_HIGH; i++) {
		unsigned int size = kmalloc_info[i].size;
		struct kmem_cache *s;

		if (!size)
			continue;
		s = kmem_cache_zalloc(kmem_cache, GFP_KERNEL);
		if (!s)
			panic("slab: no memory for the %s cache", kmalloc_info[i].name);
		/* power-of-two classes are naturally aligned, even with redzones (8 KiB too) */
		kmalloc_caches[i] = create_boot_cache(s, kmalloc_info[i].name, size,
						      (size & (size - 1)) ? 0 : size, 0);
	}
}

/**
 * array_size_overflow - the end of kmalloc_array(), kvmalloc_array() or
 * vmalloc_array() (and their calloc forms) when @n * @size overflows
 * @fn: which of them, for the report
 * @flags: the caller's; __GFP_NOWARN keeps it quiet
 * @caller: the address it was called from
 *
 * Context: any.
 * Return: NULL, always.
 */
void *array_size_overflow(const char *fn, size_t n, size_t size, gfp_t flags,
			  unsigned long caller)
{
	if (!(flags & __GFP_NOWARN))
		pr_warn("%s: %zu * %zu bytes overflows size_t, caller %pS\n", fn, n, size,
			(void *)caller);
	return NULL;
}

/* Whole pages, for sizes above the caches (and GFP_DMA). */
static void *kmalloc_large(size_t size, gfp_t flags, int node, void *caller)
{
	unsigned int order = get_order(size);
	struct page *page;

	if (unlikely(size > KMALLOC_MAX_SIZE)) {
		if (!(flags & __GFP_NOWARN))
			pr_warn("kmalloc: %zu bytes is more than KMALLOC_MAX_SIZE (%lu), caller %pS\n",
				size, KMALLOC_MAX_SIZE, caller);
		return NULL;
	}
	page = alloc_pages_node(node, flags | __GFP_COMP, order);
	if (!page)
		return NULL;
	page_set(page, PG_large_kmalloc);
	count_vm_event(KMALLOC_LARGE);
	return kasan_kmalloc_large(page_address(page), size);
}

static __always_inline void *kmalloc_caller(size_t size, gfp_t flags, int node, void *caller)
{
	struct kmem_cache *s;

	/* one compare for both ends: size 0 wraps around to the largest */
	if (unlikely(size - 1 >= KMALLOC_MAX_CACHE_SIZE || (flags & (__GFP_DMA | __GFP_DMA32)))) {
		if (!size)
			return ZERO_SIZE_PTR;
		return kmalloc_large(size, flags, node, caller);
	}
	s = kmalloc_caches[kmalloc_index_runtime(size)];
	if (node == NUMA_NO_NODE)
		return kasan_kmalloc(s, kmalloc_from_cache(s, flags, caller), size);
	return kasan_kmalloc(s, kmalloc_node_from_cache(s, flags, node, caller), size);
}

/** __kmalloc - kmalloc() of a size only known at run time (see mm/slab.h) */
void *__kmalloc(size_t size, gfp_t flags)
{
	return kmalloc_caller(size, flags, NUMA_NO_NODE, __builtin_return_address(0));
}

/** __kmalloc_node - kmalloc_node() of a size only known at run time */
void *__kmalloc_node(size_t size, gfp_t flags, int node)
{
	return __kmalloc_node_track_caller(size, flags, node,
					   (unsigned long)__builtin_return_address(0));
}

/* kmalloc_node() of a node that does not exist: reported, then as NUMA_NO_NODE */
static __noinline void *kmalloc_bad_node(size_t size, gfp_t flags, int node, void *caller)
{
	if (bad_node_refused("kmalloc_node", node, flags, caller))
		return NULL;
	return kmalloc_caller(size, flags, NUMA_NO_NODE, caller);
}

/**
 * __kmalloc_node_track_caller - __kmalloc_node() that names @caller as the
 * allocator (in slab debugging's records and in reports), for wrappers such
 * as kvmalloc() whose own name would say nothing (Linux's name)
 */
void *__kmalloc_node_track_caller(size_t size, gfp_t flags, int node, unsigned long caller)
{
	if (unlikely(node_id_invalid(node)))
		return kmalloc_bad_node(size, flags, node, (void *)caller);
	return kmalloc_caller(size, flags, node, (void *)caller);
}

/* @fn is the function that was given @obj: kfree, kvfree, ksize, krealloc... */
static void bad_kfree(const char *fn, const void *obj, void *caller, const char *why)
{
	count_vm_event(SLAB_BAD_FREE);
	pr_err("BUG: %s of %px by %pS: %s\n", fn, obj, caller, why);
}

/**
 * kmalloc_obj_slab - the page of the slab (any of its pages: each knows the
 * cache), or the first page of the large kmalloc block, that @obj is in
 * @obj: a pointer a caller wants to free or measure
 * @caller: for the report
 * @fn: the function @obj was given to, for the report (kfree, ksize...)
 *
 * Return: the page, or NULL after a report if @obj is not in slab or
 * large kmalloc memory.
 */
struct page *kmalloc_obj_slab(const void *obj, void *caller, const char *fn)
{
	struct page *page = virt_to_slab_checked(obj);

	if (likely(page && (page->flags & (1UL << PG_slab | 1UL << PG_large_kmalloc))))
		return page;
	kfree_not_slab(obj, page, caller, fn);
	return NULL;
}

/**
 * kfree_not_slab - kfree() of what is not a slab object: a large kmalloc,
 * or a pointer kmalloc() never handed out (reported, naming @fn)
 * @page: the first page of the block @obj is in, or NULL if it is not RAM
 */
void kfree_not_slab(const void *obj, struct page *page, void *caller, const char *fn)
{
	if (!page || !pfn_valid(page_to_pfn(page))) {
		bad_kfree(fn, obj, caller, "not an address in the direct map (not from kmalloc)");
	} else if (!page_test(page, PG_large_kmalloc)) {
		bad_kfree(fn, obj, caller, PageBuddy(page) || page_test(page, PG_pcp) ?
			  "the memory is free (freed twice?)" : "not memory kmalloc() handed out");
	} else if (obj != page_address(page)) {
		bad_kfree(fn, obj, caller, "inside a large kmalloc block, not at its start");
	} else {
		page_clear(page, PG_large_kmalloc);
		__free_pages(page, allocated_order(page));
	}
}

/*
 * The bytes kmalloc() gave at @objp (the size class, or the pages), for
 * @caller, and in *@pagep its slab page or first page; 0 after a report
 * naming @fn if @objp is not the start of what kmalloc() handed out.
 */
static size_t kmalloc_usable_size(const void *objp, void *caller, const char *fn,
				  struct page **pagep)
{
	struct page *page = *pagep = kmalloc_obj_slab(objp, caller, fn);

	if (!page)
		return 0;
	if (PageSlab(page)) {
		if (unlikely(!object_in_own_page(page->slab_cache, page, objp))) {
			bad_kfree(fn, objp, caller, "inside a slab object, not at its start");
			return 0;
		}
		return page->slab_cache->object_size;
	}
	if (unlikely(objp != page_address(page))) {
		kfree_not_slab(objp, page, caller, fn);	/* reported as kfree() reports it */
		return 0;
	}
	return PAGE_SIZE << allocated_order(page);
}

/**
 * ksize_caller - ksize() for @caller, reporting a bad pointer as given to @fn
 * @objp: the pointer
 * @caller: named in the report
 * @fn: the function the caller called: ksize, krealloc, kvrealloc (mm/kvmalloc.c)
 *
 * A query, as Linux's since 6.2: the bytes past the size asked for stay
 * poisoned in a KASAN kernel (a caller that wants them asks krealloc() or
 * kmalloc_size_roundup()).  An object KASAN knows to be freed is a use
 * after free, reported as such (Linux's kasan_check_byte() in ksize()).
 *
 * Context: any.
 * Return: as ksize(): 0 for NULL, ZERO_SIZE_PTR, a freed object, or a
 * pointer that is not the start of what kmalloc() handed out (reported).
 */
size_t ksize_caller(const void *objp, void *caller, const char *fn)
{
	struct page *page;
	size_t size;

	if (ZERO_OR_NULL_PTR(objp))
		return 0;
	size = kmalloc_usable_size(objp, caller, fn, &page);
	if (size && !kasan_check_byte(objp, (unsigned long)caller))
		return 0;
	return size;
}

/**
 * kfree_sensitive - kfree(), after zeroing the memory so no secret stays behind
 * @objp: from kmalloc(), or NULL
 *
 * All of ksize() is zeroed, the bytes past the size asked for too.  An
 * object already freed is a double free: reported, and neither zeroed nor
 * freed again.
 *
 * Context: as kfree().
 */
void kfree_sensitive(const void *objp)
{
	void *caller = __builtin_return_address(0);
	struct page *page;
	size_t size;

	if (ZERO_OR_NULL_PTR(objp))
		return;
	size = kmalloc_usable_size(objp, caller, "kfree_sensitive", &page);
	if (!size || !kasan_check_double_free(objp, (unsigned long)caller))
		return;		/* a bad pointer, or freed: reported */
	if (PageSlab(page) && slab_object_was_freed(page, (void *)objp, caller))
		return;
	kasan_unpoison_range(objp, size);	/* as Linux: the whole object is wiped */
	memzero_explicit((void *)objp, size);
	kfree(objp);
}

/**
 * ksize - how many bytes kmalloc() gave at @objp (the size class, or the pages)
 *
 * Only the bytes asked for may be used (Linux since 6.2): the rest is
 * there for krealloc() to give without moving.
 *
 * Context: any.
 * Return: the size; 0 for NULL, ZERO_SIZE_PTR, a freed object or a pointer
 * that is not the start of what kmalloc() handed out (reported).
 */
size_t ksize(const void *objp)
{
	return ksize_caller(objp, __builtin_return_address(0), "ksize");
}

/**
 * krealloc - resize @p to @new_size bytes, keeping its contents
 * @p: from kmalloc(), or NULL/ZERO_SIZE_PTR (then it is kmalloc())
 * @new_size: 0 frees @p and returns ZERO_SIZE_PTR
 * @flags: for a new allocation
 *
 * If @p is big enough already (ksize()), it is returned as it is (with
 * __GFP_ZERO, its bytes past @new_size are zeroed, so that a later
 * krealloc() with __GFP_ZERO that grows in place reads zeros: as Linux, it
 * holds when every call for the object passes __GFP_ZERO); otherwise the
 * contents move to a new allocation and @p is freed.
 *
 * Context: may sleep unless @flags say not (GFP_ATOMIC, GFP_NOWAIT).
 * Return: the memory, or NULL (then @p is untouched).
 */
void *krealloc(const void *p, size_t new_size, gfp_t flags)
{
	void *caller = __builtin_return_address(0);
	size_t ks;
	void *ret;

	if (unlikely(!new_size)) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	if (ZERO_OR_NULL_PTR(p))
		return kmalloc_caller(new_size, flags, NUMA_NO_NODE, caller);
	ks = ksize_caller(p, caller, "krealloc");
	if (!ks)
		return NULL;		/* not what kmalloc() handed out: reported */
	if (new_size <= ks) {
		if (flags & __GFP_ZERO) {
			/* as Linux since 6.11: a later grow in place then reads zeros */
			kasan_krealloc(p, ks);
			memset((char *)p + new_size, 0, ks - new_size);
		}
		kasan_krealloc(p, new_size);
		return (void *)p;
	}
	ret = kmalloc_caller(new_size, flags, NUMA_NO_NODE, caller);
	if (ret) {
		/* all of ksize(): the size asked for is not known, its tail is poisoned (Linux) */
		kasan_disable_current();
		memcpy(ret, p, ks);
		kasan_enable_current();
		kfree(p);
	}
	return ret;
}

/** kmemdup - a kmalloc()ed copy of @len bytes at @src; Return: it, or NULL */
void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc_caller(len, gfp, NUMA_NO_NODE, __builtin_return_address(0));

	if (p && len)
		memcpy(p, src, len);
	return p;
}

/* A kmalloc()ed copy of @len bytes at @s and a NUL after them, for @caller; NULL if none */
static char *copy_with_nul(const char *s, size_t len, gfp_t gfp, void *caller)
{
	char *p = kmalloc_caller(len + 1, gfp, NUMA_NO_NODE, caller);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

/** kmemdup_nul - a kmalloc()ed copy of @len bytes at @s and a NUL; Return: it, or NULL (also for NULL) */
char *kmemdup_nul(const char *s, size_t len, gfp_t gfp)
{
	if (!s)
		return NULL;
	return copy_with_nul(s, len, gfp, __builtin_return_address(0));
}

/** kstrndup - kstrdup() of at most @max bytes of @s, NUL-terminated; Return: it, or NULL (also for NULL) */
char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	if (!s)
		return NULL;
	return copy_with_nul(s, strnlen(s, max), gfp, __builtin_return_address(0));
}

/**
 * kmalloc_size_roundup - how many bytes kmalloc(@size) would really give
 * (its ksize()), without allocating: a caller may then ask for all of them
 *
 * Return: the size class, or whole pages above KMALLOC_MAX_CACHE_SIZE;
 * 0 for 0, and @size itself above KMALLOC_MAX_SIZE (kmalloc() would fail).
 */
size_t kmalloc_size_roundup(size_t size)
{
	if (!size || size > KMALLOC_MAX_SIZE)
		return size;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return PAGE_SIZE << get_order(size);
	return kmalloc_caches[kmalloc_index_runtime(size)]->object_size;
}

/** kstrdup - a kmalloc()ed copy of the string @s; Return: it, or NULL (also for NULL) */
char *kstrdup(const char *s, gfp_t gfp)
{
	if (!s)
		return NULL;
	return copy_with_nul(s, strlen(s), gfp, __builtin_return_address(0));
}
