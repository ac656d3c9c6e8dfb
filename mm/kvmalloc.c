/*
 * mm/kvmalloc.c - kvmalloc() and family: the slab allocator if it is easy,
 * vmalloc() if not.
 *
 * Many callers need a large buffer and do not care whether its pages are
 * physically contiguous.  kmalloc() is faster and cheaper (no page tables,
 * no TLB entries of its own), so it is worth trying first; vmalloc() works
 * when memory is too fragmented for kmalloc(), so it is the fallback.  The
 * whole art is in how hard the first attempt may try:
 *
 *   kmalloc(size, GFP_KERNEL)      for up to 8 pages the page allocator
 *   then vmalloc(size)             never fails: it reclaims, retries and
 *   (the naive fallback)           calls the OOM killer, so the fallback
 *                                  never runs and an innocent victim dies
 *                                  for memory vmalloc() had at hand;
 *   kvmalloc(size, GFP_KERNEL)     asks the slab with __GFP_NORETRY (one
 *                                  reclaim round, never the OOM
 *                                  killer) and __GFP_NOWARN, then vmalloc().
 *
 * That rule, kmalloc_gfp_adjust() in Linux, is kvmalloc_slab_flags() here,
 * with Linux 6.16's variant and the naive pattern beside it as policies
 * (kvmalloc_policy=noretry|nodirect|naive) so that kvdemo can run all three
 * from the same state.  Two more rules: no fallback at or below a page (a
 * page of vmalloc costs a page, a guard page and a TLB entry, and the slab
 * does not fail there anyway), nor for callers that cannot sleep (vmalloc()
 * cannot serve them).  kvfree() tells the two kinds apart by the address.
 *
 * The seeds tell the story: the 2010 RFC that first proposed kvmalloc(),
 * with its kvfree_inatomic() (linux-mm, Message-ID
 * <1273105838-4441-1-git-send-email-xiaosuo@gmail.com>), and LWN's article
 * "kvmalloc()" of 2017-01-17 on the version Linux merged
 * (https://lwn.net/Articles/711653/).  docs/kvmalloc.md retells it with figures.
 */
#include "mm/kvmalloc.h"
#include "mm/slab_internal.h"
#include "mm/kasan.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

enum kvmalloc_policy kvmalloc_policy = KVMALLOC_NORETRY;
const char *const kvmalloc_policy_names[NR_KVMALLOC_POLICIES] = {
	[KVMALLOC_NORETRY] = "noretry",
	[KVMALLOC_NODIRECT] = "nodirect",
	[KVMALLOC_NAIVE] = "naive",
};
DEFINE_PER_CPU(gfp_t, kvmalloc_slab_gfp);

/**
 * kvmalloc_policy_parse - the policy called @name ("noretry", "nodirect", "naive")
 *
 * Return: its enum kvmalloc_policy value, or -EINVAL.
 */
int kvmalloc_policy_parse(const char *name)
{
	for (int i = 0; i < NR_KVMALLOC_POLICIES; i++) {
		if (!strcmp(name, kvmalloc_policy_names[i]))
			return i;
	}
	return -EINVAL;
}

/*
 * Each policy's rule for the slab attempt above a page, by whether the
 * caller asked for __GFP_RETRY_MAYFAIL (then it keeps its reclaim).
 */
static const struct kvmalloc_rule rules[NR_KVMALLOC_POLICIES][2] = {
	/* LAB kvmalloc */
	[KVMALLOC_NORETRY] = {
		{ __GFP_NOWARN | __GFP_NORETRY, __GFP_NOFAIL },
		{ __GFP_NOWARN, __GFP_NOFAIL },
	},
	[KVMALLOC_NODIRECT] = {
		{ __GFP_NOWARN, __GFP_NOFAIL | __GFP_DIRECT_RECLAIM },
		{ __GFP_NOWARN, __GFP_NOFAIL },
	},
	[KVMALLOC_NAIVE] = { { 0, 0 }, { 0, 0 } },
	/* END LAB */
};

/* noretry's, rules[KVMALLOC_NORETRY][0], until kvmalloc_policy= says otherwise */
/* LAB kvmalloc */
struct kvmalloc_rule kvmalloc_rule = { __GFP_NOWARN | __GFP_NORETRY, __GFP_NOFAIL };
/* END LAB */

/**
 * kvmalloc_set_policy - make @policy the one kvmalloc() follows (boot: kvmalloc_policy=)
 *
 * Context: boot, before any other CPU calls kvmalloc().
 */
void kvmalloc_set_policy(enum kvmalloc_policy policy)
{
	kvmalloc_policy = policy;
	kvmalloc_rule = rules[policy][0];
}

/**
 * kvmalloc_slab_flags - the flags kvmalloc() gives its slab attempt
 * @size: the request
 * @flags: the caller's
 * @policy: which rule
 *
 * At most a page, or under KVMALLOC_NAIVE: @flags as they are.  Above a
 * page: never a warning (a failure here is expected and handled) and never
 * __GFP_NOFAIL (vmalloc() is the way not to fail); and, unless the caller
 * asked for __GFP_RETRY_MAYFAIL, either __GFP_NORETRY (one reclaim
 * round, no OOM killer) or, under KVMALLOC_NODIRECT, no direct reclaim at all.
 * Context: any.  Return: the flags.
 */
gfp_t kvmalloc_slab_flags(size_t size, gfp_t flags, enum kvmalloc_policy policy)
{
	/* LAB kvmalloc */
	const struct kvmalloc_rule *rule = &rules[policy][!!(flags & __GFP_RETRY_MAYFAIL)];

	if (size <= PAGE_SIZE)
		return flags;
	return (flags | rule->set) & ~rule->clear;
	/* END LAB */
}

/* May kvmalloc() fall back to vmalloc() after the slab said no? */
static bool may_fall_back(size_t size, gfp_t flags, enum kvmalloc_policy policy)
{
	/* LAB kvmalloc */
	if (policy == KVMALLOC_NAIVE)
		return true;	/* the pattern as written: it does not look */
	return size > PAGE_SIZE && gfpflags_allow_blocking(flags);
	/* END LAB */
}

/*
 * A size above INT_MAX: most likely an overflowed computation (the seed
 * article's guard).  A WARNING with a backtrace, as Linux's WARN_ON_ONCE()
 * there, but once per caller rather than once for all: each call site with
 * the bug is worth naming.
 */
static __noinline void *kvmalloc_too_large(size_t size, gfp_t flags, const void *caller)
{
	static struct report_once too_large;

	if (!(flags & __GFP_NOWARN) && report_once_per_caller(&too_large, (void *)caller))
		__WARN_printf("kvmalloc: %zu bytes is more than INT_MAX, caller %pS\n", size,
			      caller);
	count_vm_event(KVMALLOC_FAIL);
	return NULL;
}

/* The slab said no: vmalloc() if the rules allow, else NULL. */
static __noinline void *kvmalloc_fallback(size_t size, gfp_t flags, int node,
					enum kvmalloc_policy policy, const void *caller)
{
	void *p = NULL;

	if (may_fall_back(size, flags, policy))
		p = __vmalloc_node(size, 1, flags, node, caller);
	count_vm_event(p ? KVMALLOC_VMALLOC : KVMALLOC_FAIL);
	return p;
}

static void *kvmalloc_bad_node(size_t size, gfp_t flags, int node,
			       enum kvmalloc_policy policy, const void *caller);

/*
 * Every kvmalloc() that is not inline comes here; @caller is named in
 * vmallocinfo and in slab debugging's records.  The common case (the slab
 * says yes) is kept short: it costs what kmalloc() costs, plus the rule.
 */
static __always_inline void *kvmalloc_caller(size_t size, gfp_t flags, int node,
					     enum kvmalloc_policy policy, const void *caller)
{
	gfp_t slab_flags;
	void *p;

	if (unlikely(size > INT_MAX))
		return kvmalloc_too_large(size, flags, caller);
	if (unlikely(node_id_invalid(node)))
		return kvmalloc_bad_node(size, flags, node, policy, caller);
	slab_flags = kvmalloc_slab_flags(size, flags, policy);
	this_cpu_write(kvmalloc_slab_gfp, slab_flags);
	p = __kmalloc_node_track_caller(size, slab_flags, node, (unsigned long)caller);
	if (likely(p)) {
		count_vm_event(KVMALLOC_SLAB);
		return p;
	}
	return kvmalloc_fallback(size, flags, node, policy, caller);
}

/*
 * kvmalloc_node() of a node that does not exist: one report, naming
 * kvmalloc_node, not one from each allocator it tries; then as NUMA_NO_NODE.
 */
static __noinline void *kvmalloc_bad_node(size_t size, gfp_t flags, int node,
					  enum kvmalloc_policy policy, const void *caller)
{
	if (bad_node_refused("kvmalloc_node", node, flags, caller)) {
		count_vm_event(KVMALLOC_FAIL);
		return NULL;
	}
	return kvmalloc_caller(size, flags, NUMA_NO_NODE, policy, caller);
}

/**
 * __kvmalloc_node - kvmalloc_node() when the size is not a small constant
 *
 * See kvmalloc_node().  Context: as @flags allows.  Return: memory or NULL.
 */
void *__kvmalloc_node(size_t size, gfp_t flags, int node)
{
	return kvmalloc_caller(size, flags, node, READ_ONCE(kvmalloc_policy),
			       __builtin_return_address(0));
}

/**
 * kvmalloc_node_policy - kvmalloc_node() under @policy instead of the boot's
 * @size: bytes
 * @flags: the caller's
 * @node: NUMA node, or NUMA_NO_NODE
 * @policy: KVMALLOC_NORETRY, KVMALLOC_NODIRECT or KVMALLOC_NAIVE
 *
 * For kvdemo and the tests, which compare the policies side by side.
 * Context: as @flags allows.  Return: memory (free with kvfree()) or NULL.
 */
void *kvmalloc_node_policy(size_t size, gfp_t flags, int node, enum kvmalloc_policy policy)
{
	return kvmalloc_caller(size, flags, node, policy, __builtin_return_address(0));
}

/**
 * kvmalloc_large_failed - the out-of-line end of an inline kvmalloc() of
 * more than a page whose slab attempt returned NULL: vmalloc() if the
 * rules allow (the caller cannot sleep: no)
 *
 * Return: vmalloc memory, or NULL.
 */
void *kvmalloc_large_failed(size_t size, gfp_t flags, int node)
{
	return kvmalloc_fallback(size, flags, node, READ_ONCE(kvmalloc_policy),
				 __builtin_return_address(0));
}

/**
 * kvmalloc_slab_failed - the out-of-line end of an inline kvmalloc() whose
 * kmalloc() of at most a page returned NULL
 *
 * Only the naive policy falls back to vmalloc() there.
 * Return: vmalloc memory (naive policy) or NULL.
 */
void *kvmalloc_slab_failed(size_t size, gfp_t flags, int node)
{
	void *p = NULL;

	if (READ_ONCE(kvmalloc_policy) == KVMALLOC_NAIVE)
		p = __vmalloc_node(size, 1, flags, node, __builtin_return_address(0));
	count_vm_event(p ? KVMALLOC_VMALLOC : KVMALLOC_FAIL);
	return p;
}

/**
 * kvfree_sensitive - kvfree() after zeroing @len bytes, so no secret stays behind
 * @addr: the memory, or NULL
 * @len: how many bytes of it held the secret
 *
 * The zeroing cannot be optimised away (memzero_explicit()).
 * Context: any.
 */
void kvfree_sensitive(const void *addr, size_t len)
{
	if (!addr)
		return;
	memzero_explicit((void *)addr, len);
	kvfree(addr);
}

/*
 * How many bytes of @p may be used in place: the slab object's size, or the
 * pages of the vmalloc area.  0 for a pointer neither allocator gave (reported
 * by ksize_caller(), naming kvrealloc, or here).
 */
static size_t kvmalloc_usable_size(const void *p, const void *caller)
{
	struct vm_struct *vm;

	if (!is_vmalloc_addr(p))
		return ksize_caller(p, (void *)caller, "kvrealloc");
	vm = find_vm_area(p);
	if (!vm || vm->addr != p || !(vm->flags & VM_ALLOC)) {
		pr_err("BUG: kvrealloc(%px) by %pS: not the start of a live vmalloc area\n", p,
		       caller);
		return 0;
	}
	return vm->size - PAGE_SIZE;
}

/*
 * @p keeps its memory for @size bytes: a vmalloc area records its new
 * size, and in a KASAN kernel exactly those bytes become accessible.
 */
static void kvrealloc_in_place(const void *p, size_t size)
{
	struct vm_struct *vm;

	if (!is_vmalloc_addr(p)) {
		kasan_krealloc(p, size);
		return;
	}
	vm = find_vm_area(p);
	kasan_poison_vmalloc(p, vm->size - PAGE_SIZE);
	kasan_unpoison_vmalloc(p, size);
	vm->requested_size = size;
}

/**
 * kvrealloc - resize memory from kvmalloc(), keeping its contents
 * @p: the memory, or NULL (then it is kvmalloc())
 * @size: the new size; 0 frees @p and returns ZERO_SIZE_PTR
 * @flags: as kvmalloc(); with __GFP_ZERO (on every call for this memory, from
 *	   the first, as Linux asks) the bytes beyond the old size are zero
 *
 * In place when @size fits the memory @p already has and is still the
 * right kind (vmalloc memory is kept only above a page: smaller, it moves
 * to the slab).  Otherwise new memory comes from kvmalloc() (slab or
 * vmalloc, by its rules, so the data crosses from one kind to the other
 * as the size crosses the line), the contents are copied and @p is freed.
 * Context: as @flags allows.
 * Return: the memory (maybe moved), or NULL with @p untouched.
 */
void *kvrealloc(const void *p, size_t size, gfp_t flags)
{
	const void *caller = __builtin_return_address(0);
	size_t usable, old;
	void *n;

	if (ZERO_OR_NULL_PTR(p))
		return kvmalloc_caller(size, flags, NUMA_NO_NODE, READ_ONCE(kvmalloc_policy),
				       caller);
	if (!size) {
		kvfree(p);
		return ZERO_SIZE_PTR;
	}
	usable = kvmalloc_usable_size(p, caller);
	if (!usable)
		return NULL;
	old = is_vmalloc_addr(p) ? find_vm_area(p)->requested_size : usable;
	if (size <= usable && (!is_vmalloc_addr(p) || size > PAGE_SIZE)) {
		/* The slab keeps no size: zero what a shrink gives up, while it is still ours. */
		if (!is_vmalloc_addr(p) && flags & __GFP_ZERO) {
			kasan_krealloc(p, usable);	/* ksize() left its tail poisoned */
			memset((char *)p + size, 0, usable - size);
		}
		kvrealloc_in_place(p, size);
		if (flags & __GFP_ZERO && size > old)
			memset((char *)p + old, 0, size - old);
		return (void *)p;
	}
	n = kvmalloc_caller(size, flags, NUMA_NO_NODE, READ_ONCE(kvmalloc_policy), caller);
	if (!n)
		return NULL;
	/* a slab object's old size is its ksize(), whose tail is poisoned (as Linux's) */
	kasan_disable_current();
	memcpy(n, p, min(old, size));
	kasan_enable_current();
	kvfree(p);
	return n;
}

/**
 * kvmemdup - a kvmalloc()ed copy of @len bytes at @src
 *
 * Context: as @gfp allows.  Return: the copy, or NULL.
 */
void *kvmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kvmalloc_caller(len, gfp, NUMA_NO_NODE, READ_ONCE(kvmalloc_policy),
				  __builtin_return_address(0));

	if (p)
		memcpy(p, src, len);
	return p;
}
