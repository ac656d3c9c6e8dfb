/*
 * mm/slab.h - the slab allocator's public face: caches of same-sized
 * objects (kmem_cache_*) and kmalloc(), with Linux's names and meanings.
 *
 * A cache hands out objects of one size, carved from slabs (blocks of
 * pages from the buddy allocator).  kmalloc(size) picks the cache of the
 * next size class (kmalloc-8 ... kmalloc-8k); above KMALLOC_MAX_CACHE_SIZE
 * it takes whole pages.  kfree() finds the cache from the pointer alone.
 * How it works: mm/slab.c (the design essay) and docs/slab.md.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include "kernel/config.h"
#include "mm/gfp.h"
#include "mm/page_alloc.h"

typedef unsigned int slab_flags_t;

/* kmem_cache_create() flags (Linux's values) */
#define SLAB_CONSISTENCY_CHECKS	((slab_flags_t)0x00000100U)	/* check every alloc and free */
#define SLAB_RED_ZONE		((slab_flags_t)0x00000400U)	/* guard bytes around each object */
#define SLAB_POISON		((slab_flags_t)0x00000800U)	/* fill free objects with a pattern */
#define SLAB_HWCACHE_ALIGN	((slab_flags_t)0x00002000U)	/* align objects to cache lines */
#define SLAB_STORE_USER		((slab_flags_t)0x00010000U)	/* remember who allocated and freed */
#define SLAB_RECLAIM_ACCOUNT	((slab_flags_t)0x00020000U)	/* a shrinker frees them: reclaimable pages */
#define SLAB_PANIC		((slab_flags_t)0x00040000U)	/* panic if the cache cannot be made */
#define SLAB_TRACE		((slab_flags_t)0x00200000U)	/* a line for every alloc and free */

/* What kmalloc(0) returns: not NULL, not usable, kfree() ignores it. */
#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

#define KMALLOC_MIN_SIZE	8
#define KMALLOC_SHIFT_HIGH	(PAGE_SHIFT + 1)
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)	/* 8 KiB: larger is whole pages */
#define KMALLOC_MAX_SIZE	(1UL << (MAX_PAGE_ORDER + PAGE_SHIFT))	/* 4 MiB */
#define ARCH_KMALLOC_MINALIGN	8

struct kmem_cache;

/*
 * kmem_cache_create() takes either of Linux's forms: (name, size, align,
 * flags, ctor), as before 6.12, or 6.12's (name, size, &args, flags) and
 * (name, size, NULL, flags), where the arguments other than the flags come
 * in a struct kmem_cache_args.  As in Linux, a _Generic on the third
 * argument picks the function.  KMEM_CACHE(type, flags) names a cache
 * after a struct, with its size and alignment.
 */
struct kmem_cache_args {
	unsigned int align;		/* 0: the default (8 bytes) */
	unsigned int useroffset;	/* hardened usercopy's window: accepted, unused here */
	unsigned int usersize;
	unsigned int freeptr_offset;	/* for SLAB_TYPESAFE_BY_RCU: accepted, unused here */
	bool use_freeptr_offset;
	void (*ctor)(void *);
};

struct kmem_cache *__kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				       slab_flags_t flags, void (*ctor)(void *));
struct kmem_cache *__kmem_cache_create_args(const char *name, unsigned int size,
					    const struct kmem_cache_args *args,
					    slab_flags_t flags);

static inline struct kmem_cache *__kmem_cache_default_args(const char *name, unsigned int size,
							   void *args, slab_flags_t flags)
{
	(void)args;	/* NULL */
	return __kmem_cache_create(name, size, 0, flags, NULL);
}

#define kmem_cache_create(name, size, args, ...)				\
	_Generic((args),							\
		 struct kmem_cache_args *: __kmem_cache_create_args,		\
		 const struct kmem_cache_args *: __kmem_cache_create_args,	\
		 void *: __kmem_cache_default_args,				\
		 default: __kmem_cache_create)(name, size, args, __VA_ARGS__)

#define KMEM_CACHE(type, flags)							\
	__kmem_cache_create(#type, sizeof(struct type), __alignof__(struct type), (flags), NULL)
void kmem_cache_destroy(struct kmem_cache *s);
int kmem_cache_shrink(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags);
void *kmem_cache_alloc_node(struct kmem_cache *s, gfp_t flags, int node);
void kmem_cache_free(struct kmem_cache *s, void *objp);
unsigned int kmem_cache_size(struct kmem_cache *s);

static inline void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t flags)
{
	return kmem_cache_alloc(s, flags | __GFP_ZERO);
}

/* kmalloc_caches[i]: the size class of 2^i bytes; [1] is 96 bytes, [2] 192 */
extern struct kmem_cache *kmalloc_caches[KMALLOC_SHIFT_HIGH + 1];

void *__kmalloc(size_t size, gfp_t flags);
void *__kmalloc_node(size_t size, gfp_t flags, int node);
void *__kmalloc_node_track_caller(size_t size, gfp_t flags, int node, unsigned long caller);
void *__kmalloc_cache_node(struct kmem_cache *s, gfp_t flags, int node);

/*
 * The size class of @size bytes (1..KMALLOC_MAX_CACHE_SIZE), written so
 * that the compiler works it out when @size is a constant.
 */
static __always_inline unsigned int kmalloc_index(size_t size)
{
	if (size <= 8)
		return 3;
	if (size <= 16)
		return 4;
	if (size <= 32)
		return 5;
	if (size <= 64)
		return 6;
	if (size <= 96)
		return 1;
	if (size <= 128)
		return 7;
	if (size <= 192)
		return 2;
	for (unsigned int i = 8; i < KMALLOC_SHIFT_HIGH; i++) {
		if (size <= (1UL << i))
			return i;
	}
	return KMALLOC_SHIFT_HIGH;
}

/*
 * Can kmalloc(@size, @flags) pick its cache when it is compiled?  Not in a
 * KASAN kernel: there the size asked for is needed too, to poison the rest.
 */
#define kmalloc_is_constant(size, flags)				\
	(!CONFIG_KASAN && __builtin_constant_p(size) && (size) && (size) <= KMALLOC_MAX_CACHE_SIZE && \
	 __builtin_constant_p(flags) && !((flags) & (__GFP_DMA | __GFP_DMA32)))

/**
 * kmalloc - allocate @size bytes
 * @size: any; 0 returns ZERO_SIZE_PTR
 * @flags: GFP_KERNEL, GFP_ATOMIC...; __GFP_ZERO zeroes; GFP_DMA gives
 *	   ZONE_DMA memory (whole pages here, as there are no DMA caches)
 *
 * At least 8-byte aligned; a power-of-two size up to PAGE_SIZE is aligned
 * to its size.  With a constant size the cache is chosen at compile time
 * (as in Linux), and the call goes straight to kmem_cache_alloc().
 * Context: as @flags allows.
 * Return: the memory, or NULL.
 */
static __always_inline void *kmalloc(size_t size, gfp_t flags)
{
	if (kmalloc_is_constant(size, flags))
		return kmem_cache_alloc(kmalloc_caches[kmalloc_index(size)], flags);
	return __kmalloc(size, flags);
}

/**
 * kmalloc_node - kmalloc() on node @node (NUMA_NO_NODE: any)
 *
 * With __GFP_THISNODE only @node will do; without, another node's memory
 * if @node has none.  Return: the memory, or NULL.
 */
static __always_inline void *kmalloc_node(size_t size, gfp_t flags, int node)
{
	if (kmalloc_is_constant(size, flags))
		return __kmalloc_cache_node(kmalloc_caches[kmalloc_index(size)], flags, node);
	return __kmalloc_node(size, flags, node);
}

void *krealloc(const void *p, size_t new_size, gfp_t flags);
void kfree(const void *objp);
void kfree_sensitive(const void *objp);
size_t ksize(const void *objp);
void *kmemdup(const void *src, size_t len, gfp_t gfp);
char *kmemdup_nul(const char *s, size_t len, gfp_t gfp);
char *kstrdup(const char *s, gfp_t gfp);
char *kstrndup(const char *s, size_t max, gfp_t gfp);
size_t kmalloc_size_roundup(size_t size);

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kzalloc_node(size_t size, gfp_t flags, int node)
{
	return kmalloc_node(size, flags | __GFP_ZERO, node);
}

void *array_size_overflow(const char *fn, size_t n, size_t size, gfp_t flags,
			  unsigned long caller);

/*
 * @n objects of @size bytes.  If n * size overflows: NULL, and one line
 * that names the caller (not with __GFP_NOWARN).  Linux returns NULL
 * silently; this kernel reports every misuse (docs/design.md), in one line and
 * no backtrace, so that a loop of them is no warning storm.
 */
static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(__builtin_mul_overflow(n, size, &bytes)))
		return array_size_overflow("kmalloc_array", n, size, flags, _THIS_IP_);
	return kmalloc(bytes, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

/* krealloc() to @new_n objects of @new_size bytes; on overflow NULL (and @p is kept), reported */
static inline void *krealloc_array(void *p, size_t new_n, size_t new_size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(__builtin_mul_overflow(new_n, new_size, &bytes)))
		return array_size_overflow("krealloc_array", new_n, new_size, flags, _THIS_IP_);
	return krealloc(p, bytes, flags);
}

#endif
