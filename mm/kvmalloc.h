/*
 * mm/kvmalloc.h - memory that may be either kind: kmalloc() if it is easy,
 * vmalloc() if not.  Linux's names and meanings.
 *
 * kvmalloc(size, flags) asks the slab allocator first, and for more than a
 * page it asks gently (__GFP_NORETRY | __GFP_NOWARN, no __GFP_NOFAIL): one
 * reclaim round at most and never the OOM killer, because vmalloc()
 * can do the job without physically contiguous pages.  Only then does it
 * fall back to vmalloc().  kvfree() frees either kind.  The story of why
 * (and of the naive fallback it replaced) is in docs/kvmalloc.md; the
 * monitor's `kvdemo` shows it live.
 *
 * The common case costs what kmalloc() and kfree() cost: a constant size
 * of a page or less goes straight to kmalloc() inline (every policy asks
 * the slab with the caller's own flags there), and kvfree() is kfree()
 * with vmalloc memory handled on its rare path (mm/slab.c).
 */
#ifndef MM_KVMALLOC_H
#define MM_KVMALLOC_H

#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "mm/vmstat.h"

/*
 * How kvmalloc() asks the slab allocator for more than a page (docs/kvmalloc.md):
 *   KVMALLOC_NORETRY   + __GFP_NORETRY | __GFP_NOWARN, - __GFP_NOFAIL
 *                      (Linux 4.12 to 6.15; this kernel's default)
 *   KVMALLOC_NODIRECT  - __GFP_DIRECT_RECLAIM instead of + __GFP_NORETRY
 *                      (Linux 6.16's rule)
 *   KVMALLOC_NAIVE     the caller's flags unchanged, then vmalloc() on NULL,
 *                      at any size: the open-coded fallback the seeds
 *                      criticise (for kvdemo and the tests only)
 * Chosen at boot with kvmalloc_policy=noretry|nodirect|naive.
 */
enum kvmalloc_policy {
	KVMALLOC_NORETRY,
	KVMALLOC_NODIRECT,
	KVMALLOC_NAIVE,
	NR_KVMALLOC_POLICIES
};

extern enum kvmalloc_policy kvmalloc_policy;
extern const char *const kvmalloc_policy_names[NR_KVMALLOC_POLICIES];

/* A policy's rule for the slab attempt above a page: the flags it sets and clears. */
struct kvmalloc_rule {
	gfp_t set, clear;
};

/* The boot policy's rule for callers without __GFP_RETRY_MAYFAIL (mm/kvmalloc.c). */
extern struct kvmalloc_rule kvmalloc_rule;

/* The flags this CPU's last kvmalloc() passed to the slab allocator (for tests and kvdemo). */
DECLARE_PER_CPU(gfp_t, kvmalloc_slab_gfp);

void *__kvmalloc_node(size_t size, gfp_t flags, int node);
void *kvmalloc_node_policy(size_t size, gfp_t flags, int node, enum kvmalloc_policy policy);
void *kvmalloc_slab_failed(size_t size, gfp_t flags, int node);
void *kvmalloc_large_failed(size_t size, gfp_t flags, int node);
gfp_t kvmalloc_slab_flags(size_t size, gfp_t flags, enum kvmalloc_policy policy);
int kvmalloc_policy_parse(const char *name);
void kvmalloc_set_policy(enum kvmalloc_policy policy);

/* The inline part of kvmalloc() for a constant size of a page or less: the slab's answer. */
static __always_inline void *kvmalloc_small(void *p, size_t size, gfp_t flags, int node)
{
	if (likely(p)) {
		count_vm_event(KVMALLOC_SLAB);
		return p;
	}
	return kvmalloc_slab_failed(size, flags, node);
}

/*
 * The inline part of kvmalloc() for a constant size above a page and
 * constant flags without __GFP_RETRY_MAYFAIL: the boot policy's rule is two
 * masks, so the slab attempt costs what kmalloc() costs.
 */
static __always_inline void *kvmalloc_large(size_t size, gfp_t flags, int node)
{
	gfp_t slab_flags = (flags | kvmalloc_rule.set) & ~kvmalloc_rule.clear;
	void *p;

	this_cpu_write(kvmalloc_slab_gfp, slab_flags);
	p = __kmalloc_node(size, slab_flags, node);
	if (likely(p)) {
		count_vm_event(KVMALLOC_SLAB);
		return p;
	}
	return kvmalloc_large_failed(size, flags, node);
}

/* May this call take the inline path of a constant size above a page? */
#define kvmalloc_large_is_constant(size, flags)					\
	(__builtin_constant_p(size) && __builtin_constant_p(flags) &&		\
	 (size) > PAGE_SIZE && (size) <= 0x7fffffff && !((flags) & __GFP_RETRY_MAYFAIL))

/**
 * kvmalloc_node - @size bytes from the slab allocator if that is easy, else from vmalloc()
 * @size: bytes; above INT_MAX the call warns once and fails
 * @flags: GFP_KERNEL and its modifiers; a gfp that cannot sleep (GFP_ATOMIC,
 *	   GFP_NOWAIT) never gets vmalloc memory
 * @node: NUMA node for the memory, or NUMA_NO_NODE
 *
 * At most a page: kmalloc() with @flags, and no fallback (vmalloc memory
 * comes in whole pages).  More than a page: kmalloc() with the flags of
 * kvmalloc_policy (gently, by default), then vmalloc() with @flags.
 * Free with kvfree().
 * Context: as @flags allows.
 * Return: the memory, or NULL.
 */
static __always_inline void *kvmalloc_node(size_t size, gfp_t flags, int node)
{
	if (__builtin_constant_p(size) && size <= PAGE_SIZE) {
		this_cpu_write(kvmalloc_slab_gfp, flags);
		return kvmalloc_small(kmalloc_node(size, flags, node), size, flags, node);
	}
	if (kvmalloc_large_is_constant(size, flags))
		return kvmalloc_large(size, flags, node);
	return __kvmalloc_node(size, flags, node);
}

/** kvmalloc - kvmalloc_node() on any node */
static __always_inline void *kvmalloc(size_t size, gfp_t flags)
{
	if (__builtin_constant_p(size) && size <= PAGE_SIZE) {
		this_cpu_write(kvmalloc_slab_gfp, flags);
		return kvmalloc_small(kmalloc(size, flags), size, flags, NUMA_NO_NODE);
	}
	if (kvmalloc_large_is_constant(size, flags))
		return kvmalloc_large(size, flags, NUMA_NO_NODE);
	return __kvmalloc_node(size, flags, NUMA_NO_NODE);
}

/** kvzalloc - kvmalloc(), zeroed */
static __always_inline void *kvzalloc(size_t size, gfp_t flags)
{
	return kvmalloc(size, flags | __GFP_ZERO);
}

/** kvzalloc_node - kvmalloc_node(), zeroed */
static __always_inline void *kvzalloc_node(size_t size, gfp_t flags, int node)
{
	return kvmalloc_node(size, flags | __GFP_ZERO, node);
}

/** kvmalloc_array - kvmalloc() of @n * @size bytes; NULL (reported, as kmalloc_array's) if that overflows */
static inline void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(__builtin_mul_overflow(n, size, &bytes)))
		return array_size_overflow("kvmalloc_array", n, size, flags, _THIS_IP_);
	return kvmalloc(bytes, flags);
}

/** kvcalloc - kvmalloc_array(), zeroed */
static inline void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	return kvmalloc_array(n, size, flags | __GFP_ZERO);
}

/* kvfree() is in mm/slab.c: kfree()'s fast path, and vfree() on its rare path. */
void kvfree(const void *addr);
void kvfree_sensitive(const void *addr, size_t len);
void *kvrealloc(const void *p, size_t size, gfp_t flags);
void *kvmemdup(const void *src, size_t len, gfp_t gfp);

#endif
