/*
 * tests/kernel/kvmalloc_test.c - kvmalloc() and family keep the rules of
 * docs/design.md's "Allocation semantics", on one CPU.
 *
 * The flag rule is checked where it acts: right after each call, the
 * per-CPU kvmalloc_slab_gfp says what the slab attempt really received
 * (this kernel has no preemption, so the case stays on its CPU, and no
 * interrupt handler calls kvmalloc()).  Every rule is checked under the
 * three policies, through the three ways in: kvmalloc() of a constant size
 * (the inline path), of a size known only at run time (the out-of-line
 * path), and kvmalloc_node_policy().  Then what the rules are for: no
 * vmalloc memory for callers that cannot sleep, not even when the slab
 * fails (above KMALLOC_MAX_SIZE, or in kvdemo's fragmented memory), none at
 * or below a page, a warning once per caller above INT_MAX; vmalloc above
 * KMALLOC_MAX_SIZE; zeroing of both kinds; the array helpers' overflow;
 * kvrealloc() in place, across the slab/vmalloc line both ways, zeroing
 * and refusing bad pointers; kvmemdup(); kvfree_sensitive() leaving no
 * byte of the secret behind; kvfree() of each kind and of bad pointers;
 * the kvmalloc_* vmstat counters.  Every case ends with every page back
 * (kvmalloc_test.h says what that means).
 */
#include "kvmalloc_test.h"
#include "vmalloc_test.h"
#include "kunit/fault_inject.h"
#include "mm/maccess.h"
#include "mm/kasan.h"
#include "page_alloc_test.h"
#include "mm/kvdemo.h"
#include "lib/errno.h"
#include "lib/vsprintf.h"

#define BIG		(8 * SZ_1M)	/* above KMALLOC_MAX_SIZE: the slab cannot serve it */

static struct {
	struct kv_snapshot before;
	enum kvmalloc_policy policy;	/* the boot policy, put back after each case */
	bool poisoning;
	unsigned long log_pos;
	struct held_pages held;
	void *chain;			/* objects a case holds, linked through their first word */
	struct kvdemo demo;
	bool demo_up;
} kv;

static int kvmalloc_test_init(struct kunit *test)
{
	(void)test;
	kv.policy = kvmalloc_policy;
	/*
	 * Each case starts from the default rule, whatever kvmalloc_policy=
	 * chose at boot: the cases about the rules expect it, and those that
	 * compare the policies set each in turn.
	 */
	kvmalloc_set_policy(KVMALLOC_NORETRY);
	kv.poisoning = page_poisoning_enabled();
	held_init(&kv.held);
	kv.chain = NULL;
	kv_snapshot_take(&kv.before);
	kv.log_pos = printk_log_pos();
	return 0;
}

static void chain_free(void)
{
	while (kv.chain) {
		void *next = *(void **)kv.chain;

		kvfree(kv.chain);
		kv.chain = next;
	}
}

static void kvmalloc_test_exit(struct kunit *test)
{
	(void)test;
	kvmalloc_set_policy(kv.policy);
	set_page_poisoning(kv.poisoning);
	chain_free();
	held_free_all(&kv.held);
	if (kv.demo_up)
		kvdemo_teardown(&kv.demo);
	kv.demo_up = false;
}

/* ---------------------------------------------------------------- helpers */

static gfp_t slab_gfp(void)
{
	return this_cpu_read(kvmalloc_slab_gfp);
}

struct kv_counts {
	unsigned long slab, vmalloc, fail, vmalloc_fail;
};

static struct kv_counts counts(void)
{
	return (struct kv_counts){
		.slab = global_vm_event(KVMALLOC_SLAB),
		.vmalloc = global_vm_event(KVMALLOC_VMALLOC),
		.fail = global_vm_event(KVMALLOC_FAIL),
		.vmalloc_fail = global_vm_event(VMALLOC_FAIL),
	};
}

/* Expect the counters to have moved by exactly this much since @then. */
#define EXPECT_COUNTS(test, then, s, v, f, vf)					\
	do {									\
		struct kv_counts __now = counts();				\
		KUNIT_EXPECT_EQ_MSG(test, __now.slab - (then).slab, s, "kvmalloc_slab");	\
		KUNIT_EXPECT_EQ_MSG(test, __now.vmalloc - (then).vmalloc, v,		\
				    "kvmalloc_vmalloc");				\
		KUNIT_EXPECT_EQ_MSG(test, __now.fail - (then).fail, f, "kvmalloc_fail");	\
		KUNIT_EXPECT_EQ_MSG(test, __now.vmalloc_fail - (then).vmalloc_fail, vf,	\
				    "vmalloc_fail (vmalloc was tried)");		\
	} while (0)

/*
 * A pattern to write and read back: every byte of the first 64 KiB, then
 * one byte in 509 (a prime: a different offset in each page).  The bytes
 * of a prefix are a prefix of the bytes, so contents kept by kvrealloc()
 * can be checked up to the smaller size.
 */
static u8 pattern(u64 tag, size_t i)
{
	return (u8)((tag >> (i % 8 * 8)) ^ i ^ (i >> 11));
}

#define DENSE	65536UL
#define STRIDE	509UL

static void fill(void *p, size_t size, u64 tag)
{
	u8 *b = p;
	size_t i;

	for (i = 0; i < min(size, DENSE); i++)
		b[i] = pattern(tag, i);
	for (; i < size; i += STRIDE)
		b[i] = pattern(tag, i);
}

/* How many bytes of fill(@p, @size, @tag) are not there any more. */
static size_t check(const void *p, size_t size, u64 tag)
{
	const u8 *b = p;
	size_t i, bad = 0;

	for (i = 0; i < min(size, DENSE); i++)
		bad += b[i] != pattern(tag, i);
	for (; i < size; i += STRIDE)
		bad += b[i] != pattern(tag, i);
	return bad;
}

/* How many of the @n bytes at @p are not zero (every byte is read). */
static size_t nonzero(const void *p, size_t n)
{
	const u8 *b = p;
	size_t i = 0, bad = 0;

	for (; i + 8 <= n; i += 8) {
		u64 w;

		__builtin_memcpy(&w, b + i, 8);
		bad += w != 0;
	}
	for (; i < n; i++)
		bad += b[i] != 0;
	return bad;
}

/* Does "%pS" of @caller name the function @fn? */
static bool caller_is(const void *caller, const char *fn)
{
	char sym[96];
	size_t len = strlen(fn);

	snprintf(sym, sizeof(sym), "%pS", caller);
	return !strncmp(sym, fn, len) && sym[len] == '+';
}

/* ---------------------------------------------------------------- the flag rule */

static const enum kvmalloc_policy policies[] = {
	KVMALLOC_NORETRY, KVMALLOC_NODIRECT, KVMALLOC_NAIVE,
};

static void policy_desc(const enum kvmalloc_policy *policy, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", kvmalloc_policy_names[*policy]);
}
KUNIT_ARRAY_PARAM(policies, policies, policy_desc);

/*
 * What the slab attempt must receive, written from docs/design.md: a page or
 * less, or the naive policy, the caller's flags; above a page never a
 * warning nor __GFP_NOFAIL, and unless the caller asked for
 * __GFP_RETRY_MAYFAIL, __GFP_NORETRY (noretry) or no direct reclaim (nodirect).
 */
static gfp_t rule(size_t size, gfp_t flags, enum kvmalloc_policy policy)
{
	if (size <= PAGE_SIZE || policy == KVMALLOC_NAIVE)
		return flags;
	flags = (flags | __GFP_NOWARN) & ~__GFP_NOFAIL;
	if (flags & __GFP_RETRY_MAYFAIL)
		return flags;
	if (policy == KVMALLOC_NORETRY)
		return flags | __GFP_NORETRY;
	return flags & ~__GFP_DIRECT_RECLAIM;
}

/* @p came from a call of @size and @flags under @policy: were its slab flags the rule's? */
static void expect_rule(struct kunit *test, void *p, size_t size, gfp_t flags,
			enum kvmalloc_policy policy, const char *how)
{
	char got[128], want[128];
	gfp_t seen = slab_gfp();

	format_gfp(got, sizeof(got), seen);
	format_gfp(want, sizeof(want), rule(size, flags, policy));
	KUNIT_EXPECT_EQ_MSG(test, seen, rule(size, flags, policy),
			    "%s, %zu bytes, %#x under %s: the slab got %s, the rule says %s", how,
			    size, flags, kvmalloc_policy_names[policy], got, want);
	KUNIT_EXPECT_NOT_NULL_MSG(test, p, "%s, %zu bytes, %#x", how, size, flags);
	kvfree(p);
}

/* Each literal is a constant at its call: kvmalloc()'s inline path. */
#define CONSTANT(size, flags)	expect_rule(test, kvmalloc(size, flags), size, flags, policy, \
					    "kvmalloc(" #size ", " #flags ")")

static void constant_calls(struct kunit *test, enum kvmalloc_policy policy)
{
	CONSTANT(1, GFP_KERNEL);
	CONSTANT(64, GFP_KERNEL | __GFP_NOFAIL);
	CONSTANT(PAGE_SIZE, GFP_KERNEL);
	CONSTANT(PAGE_SIZE, GFP_ATOMIC);
	CONSTANT(PAGE_SIZE + 1, GFP_KERNEL);
	CONSTANT(32768, GFP_KERNEL);
	CONSTANT(32768, GFP_KERNEL | __GFP_NOFAIL);
	CONSTANT(32768, GFP_KERNEL | __GFP_RETRY_MAYFAIL);
	CONSTANT(65536, GFP_ATOMIC);
	CONSTANT(65536, GFP_NOWAIT);
	expect_rule(test, kvzalloc(16384, GFP_KERNEL), 16384, GFP_KERNEL | __GFP_ZERO, policy,
		    "kvzalloc(16384, GFP_KERNEL)");
	expect_rule(test, kvmalloc_node(8192, GFP_KERNEL, NUMA_NO_NODE), 8192, GFP_KERNEL, policy,
		    "kvmalloc_node(8192, GFP_KERNEL, NUMA_NO_NODE)");
	expect_rule(test, kvzalloc_node(100, GFP_KERNEL, 0), 100, GFP_KERNEL | __GFP_ZERO, policy,
		    "kvzalloc_node(100, GFP_KERNEL, 0)");
}

static const size_t rule_sizes[] = { 1, 64, PAGE_SIZE, PAGE_SIZE + 1, 32768, 65536 };
static const gfp_t rule_flags[] = {
	GFP_KERNEL, GFP_KERNEL | __GFP_NOFAIL, GFP_KERNEL | __GFP_RETRY_MAYFAIL,
	GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOFAIL, GFP_KERNEL | __GFP_ZERO,
	GFP_KERNEL | __GFP_NOWARN, GFP_NOFS, GFP_ATOMIC, GFP_NOWAIT,
};

/*
 * The rule of each policy, for every size and gfp above, whichever way the
 * call comes in: constant and run-time sizes under the policy chosen at
 * boot (set here as kvmalloc_policy= would), and kvmalloc_node_policy().
 */
static void slab_attempt_gets_the_policys_flags(struct kunit *test)
{
	enum kvmalloc_policy policy = *(const enum kvmalloc_policy *)test->param_value;

	kvmalloc_set_policy(policy);
	constant_calls(test, policy);
	for (unsigned int i = 0; i < ARRAY_SIZE(rule_sizes); i++) {
		for (unsigned int j = 0; j < ARRAY_SIZE(rule_flags); j++) {
			size_t size = rule_sizes[i];
			gfp_t flags = rule_flags[j];

			expect_rule(test, kvmalloc(runtime(size), flags), size, flags, policy,
				    "kvmalloc");
			expect_rule(test, kvmalloc_node(runtime(size), flags, 0), size, flags,
				    policy, "kvmalloc_node");
			expect_rule(test, kvmalloc_node_policy(size, flags, NUMA_NO_NODE, policy),
				    size, flags, policy, "kvmalloc_node_policy");
			KUNIT_EXPECT_EQ(test, kvmalloc_slab_flags(size, flags, policy),
					rule(size, flags, policy));
		}
	}
	kv_expect_back(test, &kv.before);
}

/* ---------------------------------------------------------------- when there is no fallback */

/*
 * A caller that cannot sleep gets no vmalloc memory: BIG is more than the
 * slab can ever give, so only the fallback could serve it, and it must not
 * even be tried (vmalloc_fail stays, and nothing is printed).  A GFP_KERNEL
 * caller of the same size does get vmalloc memory, and the naive pattern
 * does try vmalloc for the atomic caller: both show the check can see a
 * fallback.
 */
static void atomic_callers_never_get_vmalloc_memory(struct kunit *test)
{
	static const gfp_t atomic[] = { GFP_ATOMIC, GFP_NOWAIT, GFP_ATOMIC | __GFP_NOFAIL };
	struct kv_counts then;
	void *p;

	need_free_pages(test, BIG / PAGE_SIZE + 2);	/* a vmalloc area of BIG + 1 */
	then = counts();
	KUNIT_EXPECT_NULL(test, kvmalloc(BIG, GFP_ATOMIC));
	KUNIT_EXPECT_NULL(test, kvmalloc(BIG, GFP_NOWAIT));
	KUNIT_EXPECT_NULL(test, kvzalloc(BIG, GFP_ATOMIC));
	for (unsigned int i = 0; i < ARRAY_SIZE(atomic); i++) {
		KUNIT_EXPECT_NULL(test, kvmalloc(runtime(BIG), atomic[i]));
		KUNIT_EXPECT_NULL(test, kvmalloc_node_policy(BIG, atomic[i], NUMA_NO_NODE,
							     KVMALLOC_NORETRY));
		KUNIT_EXPECT_NULL(test, kvmalloc_node_policy(BIG, atomic[i], NUMA_NO_NODE,
							     KVMALLOC_NODIRECT));
	}
	EXPECT_COUNTS(test, then, 0, 0, 3 + 3 * ARRAY_SIZE(atomic), 0);
	KUNIT_EXPECT_STREQ(test, log_since(kv.log_pos), "");

	then = counts();
	p = kvmalloc(BIG, GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	kvfree(p);
	p = kvmalloc_node_policy(BIG, GFP_ATOMIC | __GFP_NOWARN, NUMA_NO_NODE, KVMALLOC_NAIVE);
	KUNIT_EXPECT_NULL(test, p);
	EXPECT_COUNTS(test, then, 0, 1, 1, 1);
	kv_expect_back(test, &kv.before);
}

/* The hard state of kvdemo, without its victim and cache: no free block of order >= 3. */
static void fragment_memory(struct kunit *test)
{
	unsigned long held;
	struct page *page;
	int err;

	need_free_pages(test, KVDEMO_LEAST_PAGES);
	err = kvdemo_setup(&kv.demo);
	if (err == -ENOMEM)	/* a small machine, its CPUs' lists holding what was left */
		kunit_skip(test, "kvdemo_setup(): out of memory on this machine (%lu pages free)",
			   nr_free_pages());
	KUNIT_ASSERT_EQ(test, err, 0);
	kv.demo_up = true;
	kvdemo_unregister(&kv.demo);
	KUNIT_ASSERT_TRUE(test, kvdemo_fragmented());
	/* Trust no one: an order-3 block must really be missing, and small pages plentiful. */
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 3);
	if (page)
		__free_pages(page, 3);
	KUNIT_ASSERT_NULL_MSG(test, page, "an order-3 block was free: memory is not fragmented");
	/*
	 * plentiful: 4 MiB, or a quarter of RAM on a machine below 16 MiB.
	 * Where the victim and the cache (16 blocks and 256 pages at least)
	 * hold half of RAM, below 8 MiB, what is left cannot be a quarter: the
	 * case skips, and exit() takes the state down.
	 */
	held = kv.demo.nr_victim_blocks * 8 + kv.demo.nr_cache;	/* order-3 blocks, pages */
	if (2 * held >= totalram_pages && nr_free_pages() <= totalram_pages / 4)
		kunit_skip(test, "the victim and the cache hold %lu of %lu pages, %lu are "
			   "free: not more than a quarter of RAM", held, totalram_pages,
			   nr_free_pages());
	KUNIT_ASSERT_GT(test, nr_free_pages(), min(1024UL, totalram_pages / 4));
}

/*
 * Where the slab really fails for 32 KiB (an order-3 block): GFP_KERNEL
 * falls back to vmalloc, GFP_ATOMIC and GFP_NOWAIT get NULL; and
 * kvrealloc() crosses the line there, from a 16 KiB slab block (order 2,
 * still to be had) to vmalloc memory and back to the slab, contents kept.
 */
static void fragmented_memory_falls_back_for_sleepers_only(struct kunit *test)
{
	struct kv_counts then;
	void *p, *q;

	fragment_memory(test);
	then = counts();
	KUNIT_EXPECT_NULL(test, kvmalloc(32768, GFP_ATOMIC));
	KUNIT_EXPECT_NULL(test, kvmalloc(32768, GFP_NOWAIT));
	KUNIT_EXPECT_NULL(test, kvmalloc(runtime(32768), GFP_ATOMIC));
	KUNIT_EXPECT_NULL(test, kvmalloc(runtime(32768), GFP_NOWAIT));
	EXPECT_COUNTS(test, then, 0, 0, 4, 0);

	p = kvmalloc(32768, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, slab_gfp(), GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	kvfree(p);
	p = kvmalloc(runtime(32768), GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	kvfree(p);

	p = kvmalloc(16384, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(p));
	fill(p, 16384, 0x1234);
	q = kvrealloc(p, 32768, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(q));
	KUNIT_EXPECT_EQ(test, check(q, 16384, 0x1234), 0);
	p = kvrealloc(q, 2048, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_EQ(test, check(p, 2048, 0x1234), 0);
	kvfree(p);

	kvdemo_teardown(&kv.demo);
	kv.demo_up = false;
	kv_expect_back(test, &kv.before);
}

/* kvmalloc(@size) until the slab says no, holding what it gives; the last result. */
static void *kvmalloc_until_null(struct kunit *test, size_t size, gfp_t gfp)
{
	for (unsigned long n = 0; n < 1000000; n++) {
		void *p = kvmalloc(runtime(size), gfp);

		if (!p || is_vmalloc_addr(p))
			return p;
		*(void **)p = kv.chain;
		kv.chain = p;
	}
	KUNIT_FAIL(test, "the slab never ran out");
	return NULL;
}

/*
 * A page or less never falls back, even when the slab fails and the caller
 * may sleep.  Memory is exhausted down to the watermark (and below it,
 * __GFP_NORETRY allocations fail), then kvmalloc() is called until it
 * returns NULL: vmalloc must not have been tried (vmalloc_fail stays) nor
 * have given memory.  Under the naive pattern the same call does go to
 * vmalloc, which is what the counters would show.
 */
static void no_fallback_at_or_below_a_page(struct kunit *test)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;
	struct kv_counts then;
	void *p;

	held_exhaust(&kv.held, gfp);
	then = counts();
	p = kvmalloc_until_null(test, PAGE_SIZE, gfp);
	KUNIT_EXPECT_NULL(test, p);
	kvfree(p);
	p = kvmalloc(PAGE_SIZE, gfp);
	KUNIT_EXPECT_NULL(test, p);
	kvfree(p);
	p = kvmalloc_until_null(test, 8, gfp);
	KUNIT_EXPECT_NULL(test, p);
	kvfree(p);
	p = kvmalloc(8, gfp);
	KUNIT_EXPECT_NULL(test, p);
	kvfree(p);
	KUNIT_EXPECT_EQ(test, counts().vmalloc - then.vmalloc, 0);
	KUNIT_EXPECT_EQ(test, counts().fail - then.fail, 4);
	KUNIT_EXPECT_EQ(test, counts().vmalloc_fail - then.vmalloc_fail, 0);

	then = counts();
	p = kvmalloc_node_policy(PAGE_SIZE, gfp, NUMA_NO_NODE, KVMALLOC_NAIVE);
	KUNIT_EXPECT_TRUE_MSG(test,
			      is_vmalloc_addr(p) || counts().vmalloc_fail > then.vmalloc_fail,
			      "the naive pattern did not try vmalloc: the check above proves "
			      "nothing");
	kvfree(p);
	chain_free();
	held_free_all(&kv.held);
	kv_expect_back(test, &kv.before);
}

/*
 * Above INT_MAX the size is most likely an overflowed computation: NULL,
 * and one warning per call site naming it (a second call from the same
 * place is quiet; __GFP_NOWARN is quiet), under every policy.
 */
static void sizes_above_int_max_warn_once_and_fail(struct kunit *test)
{
	struct kv_counts then = counts();
	const char *log;
	u8 *p;

	kunit_expect_report(test, "WARNING: at mm/kvmalloc.c");
	/* runtime() bounds: a loop the compiler cannot unroll stays one call site (clang) */
	for (int i = 0; i < runtime(2); i++)
		KUNIT_EXPECT_NULL(test, kvmalloc((size_t)INT_MAX + 1, GFP_KERNEL));
	for (int i = 0; i < runtime(2); i++)
		KUNIT_EXPECT_NULL(test, kvmalloc(runtime(~(size_t)0), GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kvmalloc((size_t)INT_MAX + 1, GFP_KERNEL | __GFP_NOWARN));
	for (unsigned int i = 0; i < runtime(ARRAY_SIZE(policies)); i++)
		KUNIT_EXPECT_NULL(test, kvmalloc_node_policy(1UL << 40, GFP_KERNEL, NUMA_NO_NODE,
							     policies[i]));
	KUNIT_EXPECT_NULL(test, kvmalloc_array(1UL << 16, 1UL << 16, GFP_KERNEL));

	p = kvmalloc(100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, 100, 0xabcd);
	KUNIT_EXPECT_NULL(test, kvrealloc(p, (size_t)INT_MAX + 1, GFP_KERNEL));
	KUNIT_EXPECT_EQ(test, check(p, 100, 0xabcd), 0);	/* untouched, still ours */
	kvfree(p);

	EXPECT_COUNTS(test, then, 1, 0, 2 + 2 + 1 + 3 + 1 + 1, 0);
	log = log_since(kv.log_pos);
	KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "bytes is more than INT_MAX"), 5, "%s", log);
	KUNIT_EXPECT_EQ_MSG(test,
			    count_substr(log, "caller sizes_above_int_max_warn_once_and_fail+"), 5,
			    "%s", log);
	KUNIT_EXPECT_EQ(test, count_substr(log, "WARNING: at mm/kvmalloc.c"), 5);
	kv_expect_back(test, &kv.before);
}

/* ---------------------------------------------------------------- the memory itself */

/* Above KMALLOC_MAX_SIZE the slab cannot, so vmalloc does: quietly, named after the caller. */
static void above_kmalloc_max_size_is_vmalloc(struct kunit *test)
{
	const unsigned long needed = (KMALLOC_MAX_SIZE + 3 * BIG) / PAGE_SIZE;
	void *p[4];
	struct kv_counts then = counts();

	/* p[3] is __GFP_NOFAIL: on a machine that cannot hold all four it would wait forever. */
	if (nr_free_pages() < 2 * needed)
		kunit_skip(test, "needs %lu free pages, this machine has %lu", 2 * needed,
			   nr_free_pages());

	p[0] = kvmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL);
	p[1] = kvmalloc(runtime(BIG), GFP_KERNEL);
	p[2] = kvmalloc_node(BIG, GFP_KERNEL, 0);
	p[3] = kvmalloc(BIG, GFP_KERNEL | __GFP_NOFAIL);	/* the slab must not insist */
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++) {
		size_t size = i ? BIG : KMALLOC_MAX_SIZE + 1;
		struct vm_struct *vm = find_vm_area(p[i]);

		KUNIT_ASSERT_TRUE_MSG(test, is_vmalloc_addr(p[i]), "call %u", i);
		KUNIT_ASSERT_NOT_NULL(test, vm);
		KUNIT_EXPECT_PTR_EQ(test, vm->addr, p[i]);
		KUNIT_EXPECT_EQ(test, vm->requested_size, size);
		KUNIT_EXPECT_TRUE_MSG(test, caller_is(vm->caller,
						      "above_kmalloc_max_size_is_vmalloc"),
				      "vmallocinfo would name %pS", vm->caller);
		fill(p[i], size, i);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++) {
		KUNIT_EXPECT_EQ(test, check(p[i], i ? BIG : KMALLOC_MAX_SIZE + 1, i), 0);
		kvfree(p[i]);
	}
	EXPECT_COUNTS(test, then, 0, 4, 0, 0);
	KUNIT_EXPECT_STREQ(test, log_since(kv.log_pos), "");	/* the slab failed quietly */
	kv_expect_back(test, &kv.before);
}

static const size_t zero_sizes[] = { 1, 100, 3000, PAGE_SIZE, 16384, BIG };

/* kvzalloc() and kvcalloc() zero memory of both kinds, even memory that was just dirty. */
static void zeroing_variants_zero_both_kinds(struct kunit *test)
{
	bool seen_vmalloc = false, seen_slab = false;

	need_free_pages(test, BIG / PAGE_SIZE + 2);	/* a vmalloc area of BIG + 1 */
	for (unsigned int i = 0; i < ARRAY_SIZE(zero_sizes); i++) {
		size_t size = zero_sizes[i];
		void *p = kvmalloc(runtime(size), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		memset(p, 0xa5, size);
		kvfree(p);
		p = kvzalloc(runtime(size), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ_MSG(test, nonzero(p, size), 0, "kvzalloc(%zu)", size);
		seen_vmalloc |= is_vmalloc_addr(p);
		seen_slab |= !is_vmalloc_addr(p);
		memset(p, 0xa5, size);
		kvfree(p);
		p = kvzalloc_node(runtime(size), GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ_MSG(test, nonzero(p, size), 0, "kvzalloc_node(%zu)", size);
		memset(p, 0xa5, size);
		kvfree(p);
		p = kvcalloc(size, 1, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ_MSG(test, nonzero(p, size), 0, "kvcalloc(%zu, 1)", size);
		kvfree(p);
	}
	KUNIT_EXPECT_TRUE(test, seen_vmalloc);
	KUNIT_EXPECT_TRUE(test, seen_slab);
	kv_expect_back(test, &kv.before);
}

/* n * size overflowing size_t is NULL at once: no kvmalloc() call, no warning. */
static void array_overflow_is_null(struct kunit *test)
{
	const size_t half = ~(size_t)0 / 2 + 1;
	struct kv_counts then;
	void *p;

	need_free_pages(test, BIG / PAGE_SIZE + 2);	/* a vmalloc area of BIG + 1 */
	then = counts();
	KUNIT_EXPECT_NULL(test, kvmalloc_array(half, 2, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kvmalloc_array(2, half, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kvmalloc_array(runtime(~(size_t)0), runtime(~(size_t)0),
					       GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kvcalloc(half, 2, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kvcalloc(runtime((size_t)3), runtime(half), GFP_KERNEL));
	EXPECT_COUNTS(test, then, 0, 0, 0, 0);
	/* one line each, naming this function; none with __GFP_NOWARN */
	KUNIT_EXPECT_EQ(test, count_substr(log_since(kv.log_pos), "kvmalloc_array: "), 5);
	KUNIT_EXPECT_EQ(test, count_substr(log_since(kv.log_pos),
					   "bytes overflows size_t, caller array_overflow_is_null+"), 5);
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_since(kv.log_pos),
					   "kvmalloc_array: 9223372036854775808 * 2 bytes overflows"));
	kv.log_pos = printk_log_pos();
	KUNIT_EXPECT_NULL(test, kvmalloc_array(half, 2, GFP_KERNEL | __GFP_NOWARN));
	KUNIT_EXPECT_STREQ(test, log_since(kv.log_pos), "");

	p = kvmalloc_array(3, 1000, GFP_KERNEL);	/* no overflow: memory */
	KUNIT_EXPECT_NOT_NULL(test, p);
	fill(p, 3000, 3);
	kvfree(p);
	p = kvcalloc(BIG / 16, 16, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_EQ(test, nonzero(p, BIG), 0);
	kvfree(p);
	kv_expect_back(test, &kv.before);
}

/* ---------------------------------------------------------------- kvrealloc */

static void kvrealloc_of_null_and_to_zero(struct kunit *test)
{
	struct kv_counts then;
	void *p, *v;

	need_free_pages(test, BIG / PAGE_SIZE + 2);	/* a vmalloc area of BIG + 1 */
	then = counts();
	p = kvrealloc(NULL, 100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, 100, 1);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(p, 0, GFP_KERNEL), ZERO_SIZE_PTR);	/* p freed */
	p = kvrealloc(ZERO_SIZE_PTR, 200, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(p, 0, GFP_KERNEL), ZERO_SIZE_PTR);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(NULL, 0, GFP_KERNEL), ZERO_SIZE_PTR);

	v = kvrealloc(NULL, BIG, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(v));
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(v, 0, GFP_KERNEL), ZERO_SIZE_PTR);
	KUNIT_EXPECT_NULL(test, find_vm_area(v));	/* freed */
	EXPECT_COUNTS(test, then, 3, 1, 0, 0);		/* kvrealloc(NULL, 0) is kmalloc(0) */
	kv_expect_back(test, &kv.before);
}

/* Memory that already has room is kept: slab objects, large kmalloc blocks, vmalloc pages. */
static void kvrealloc_in_place_when_it_fits(struct kunit *test)
{
	struct kv_counts then;
	u8 *p, *v;

	need_free_pages(test, BIG / PAGE_SIZE + 2);	/* a vmalloc area of BIG + 1 */
	p = kvmalloc(100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, 100, 7);
	then = counts();
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(p, ksize(p), GFP_KERNEL), p);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(p, 50, GFP_KERNEL), p);
	KUNIT_EXPECT_EQ(test, check(p, 50, 7), 0);
	kvfree(p);

	p = kvmalloc(12000, GFP_KERNEL);	/* a 16 KiB block of whole pages */
	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, 12000, 8);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(p, 16384, GFP_KERNEL), p);
	KUNIT_EXPECT_EQ(test, check(p, 12000, 8), 0);
	kvfree(p);

	v = kvmalloc(BIG + 1, GFP_KERNEL);	/* BIG / PAGE_SIZE + 1 pages */
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(v));
	fill(v, BIG + 1, 9);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(v, BIG + PAGE_SIZE, GFP_KERNEL), v);
	KUNIT_EXPECT_EQ(test, find_vm_area(v)->requested_size, BIG + PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(v, 65536, GFP_KERNEL), v);	/* still above a page */
	KUNIT_EXPECT_EQ(test, find_vm_area(v)->requested_size, 65536);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(v, BIG, GFP_KERNEL), v);
	KUNIT_EXPECT_EQ(test, check(v, 65536, 9), 0);
	kvfree(v);
	EXPECT_COUNTS(test, then, 1, 1, 0, 0);		/* the two kvmalloc()s, no kvrealloc() */
	kv_expect_back(test, &kv.before);
}

/*
 * When it does not fit, the contents move: within the slab, from the slab
 * to vmalloc (above KMALLOC_MAX_SIZE), to a larger vmalloc area, and from
 * vmalloc back to the slab when a page or less is left.
 */
/*
 * kvrealloc() of vmalloc_huge() memory that fell back to 4 KiB pages (its
 * 2 MiB page failed) grows in place only over mapped pages: the fallback's
 * area is exact, 3 MiB and its guard, not the 4 MiB the 2 MiB attempt had
 * reserved.  It grew over unmapped memory (a fault at 3.5 MiB): issue 30.
 */
static void kvrealloc_after_a_huge_fallback_stays_in_mapped_memory(struct kunit *test)
{
	const unsigned long size = 3 * SZ_1M, bigger = 4 * SZ_1M - PAGE_SIZE;
	u8 *p, *q, c;

	need_free_pages(test, (size + bigger) / PAGE_SIZE + 2048);
	KUNIT_ASSERT_EQ(test, kunit_fault_attr_setup(test, &fail_page_alloc,
						     "1,100,0,1,min-order=9,verbose=0"), 0);
	p = vmalloc_huge(size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, find_vm_area(p)->flags & VM_HUGE_PAGES);
	fill(p, size, 5);
	q = kvrealloc(p, bigger, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q);
	if (is_vmalloc_addr(q))		/* or the slab's 4 MiB block: moved either way */
		KUNIT_EXPECT_GE(test, find_vm_area(q)->size - PAGE_SIZE, bigger);
	/* every page of the new size mapped: read without faulting first, so a hole fails */
	for (unsigned long off = 0; off < bigger; off += PAGE_SIZE)
		KUNIT_ASSERT_EQ_MSG(test, get_kernel_nofault(c, q + off), 0, "offset %#lx", off);
	KUNIT_EXPECT_EQ(test, check(q, size, 5), 0);	/* moved along */
	memset(q, 0x5a, bigger);
	kvfree(q);
}

/*
 * kvmalloc()'s vmalloc fallback keeps __GFP_NOFAIL through its page tables:
 * the first three fail, and the mapping is retried (the vmalloc suite
 * checks __vmalloc() the same way).
 */
static void nofail_fallback_survives_page_table_failures(struct kunit *test)
{
	const unsigned long size = 16 * SZ_1M;
	u8 *p;

	need_free_pages(test, 2 * size / PAGE_SIZE);
	p = nofail_with_page_tables_failing(test, size, kvmalloc);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	fill(p, size, 6);
	KUNIT_EXPECT_EQ(test, check(p, size, 6), 0);
	kvfree(p);
}

static void kvrealloc_across_the_line_keeps_contents(struct kunit *test)
{
	u8 *p;

	need_free_pages(test, (2 * BIG + SZ_1M) / PAGE_SIZE);	/* BIG and BIG + 1 MiB at once */
	p = kvmalloc(100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, 100, 0x11);
	p = kvrealloc(p, 3000, GFP_KERNEL);		/* a larger slab object */
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_EQ(test, check(p, 100, 0x11), 0);
	fill(p, 3000, 0x12);
	p = kvrealloc(p, 65536, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, check(p, 3000, 0x12), 0);
	fill(p, 65536, 0x13);
	p = kvrealloc(p, BIG, GFP_KERNEL);		/* slab -> vmalloc */
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_EQ(test, check(p, 65536, 0x13), 0);
	fill(p, BIG, 0x14);
	p = kvrealloc(p, BIG + SZ_1M, GFP_KERNEL);	/* a larger vmalloc area */
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_EQ(test, check(p, BIG, 0x14), 0);
	p = kvrealloc(p, PAGE_SIZE, GFP_KERNEL);	/* vmalloc -> slab */
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_EQ(test, check(p, PAGE_SIZE, 0x14), 0);
	kvfree(p);

	p = kvmalloc(BIG, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(p));
	fill(p, BIG, 0x15);
	p = kvrealloc(p, 3000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(p));
	KUNIT_EXPECT_EQ(test, check(p, 3000, 0x15), 0);
	kvfree(p);
	kv_expect_back(test, &kv.before);
}

/*
 * With __GFP_ZERO on every call (Linux's condition), every byte past the
 * size before the call reads zero: growing in place, moving, and growing
 * again after a shrink (the bytes the shrink gave up must not come back).
 */
static void kvrealloc_with_gfp_zero_zeroes_new_bytes(struct kunit *test)
{
	static const size_t steps[][4] = {
		{ 100, 120, 50, 120 },			/* one slab object */
		{ 120, 3000, 1000, 4000 },		/* a larger object, then in place */
		{ 12000, 16384, 6000, 16384 },		/* a large kmalloc block */
		{ 65536, BIG, BIG / 2, BIG + 100 },	/* slab -> vmalloc, in place, moved */
		{ BIG + 100, BIG + PAGE_SIZE, 2 * PAGE_SIZE, BIG },
	};
	const gfp_t gfp = GFP_KERNEL | __GFP_ZERO;
	size_t size = 0;
	u8 *p = NULL;
	u64 tag = 0;

	need_free_pages(test, 2 * BIG / PAGE_SIZE + 2);	/* BIG + 100 moves to BIG + a page */
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		for (unsigned int j = 0; j < 4; j++) {
			size_t next = steps[i][j];

			if (next == size)
				continue;
			p = kvrealloc(p, next, gfp);
			KUNIT_ASSERT_NOT_NULL(test, p);
			if (next > size)
				KUNIT_EXPECT_EQ_MSG(test, nonzero(p + size, next - size), 0,
						    "%zu -> %zu bytes", size, next);
			KUNIT_EXPECT_EQ_MSG(test, check(p, min(size, next), tag), 0,
					    "%zu -> %zu bytes", size, next);
			size = next;
			fill(p, size, ++tag);
		}
	}
	kvfree(p);
	kv_expect_back(test, &kv.before);
}

static char not_heap[64];

/*
 * A pointer kvrealloc() cannot have handed out is reported in one line and
 * NULL returned, with nothing freed or moved: inside a vmalloc area, a
 * freed area, a vmap() area, a page from the page allocator, the kernel image.
 */
static void kvrealloc_refuses_bad_pointers(struct kunit *test)
{
	struct page *page;
	struct kv_counts then;
	void *bad[5], *mapped, *v, *freed;

	need_free_pages(test, BIG / PAGE_SIZE + 2);
	page = alloc_page(GFP_KERNEL);
	kunit_expect_report(test, "BUG: kvrealloc(");
	kunit_expect_report(test, "BUG: kvrealloc of");
	KUNIT_ASSERT_NOT_NULL(test, page);
	v = kvmalloc(BIG, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(v));
	fill(v, BIG, 0x77);
	freed = vmalloc(PAGE_SIZE);
	vfree(freed);
	mapped = vmap(&page, 1, VM_MAP, PAGE_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mapped);
	bad[0] = (u8 *)v + PAGE_SIZE;
	bad[1] = freed;
	bad[2] = mapped;
	bad[3] = page_address(page);
	bad[4] = not_heap;

	then = counts();
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		unsigned long pos = printk_log_pos();
		const char *log;

		KUNIT_EXPECT_NULL(test, kvrealloc(bad[i], 2 * BIG, GFP_KERNEL));
		log = log_since(pos);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "\n"), 1, "pointer %u: %s", i, log);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "BUG: "), 1, "pointer %u: %s", i, log);
	}
	EXPECT_COUNTS(test, then, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, check(v, BIG, 0x77), 0);
	KUNIT_EXPECT_PTR_EQ(test, find_vm_area(v)->addr, v);
	vunmap(mapped);
	__free_page(page);
	kvfree(v);
	kv_expect_back(test, &kv.before);
}

/* ---------------------------------------------------------------- kvmemdup, kvfree */

static void kvmemdup_copies_into_either_kind(struct kunit *test)
{
	static const size_t sizes[] = { 1, 100, PAGE_SIZE + 1, 65536, BIG };
	struct kv_counts then;
	u8 *src, *copy;

	need_free_pages(test, 2 * BIG / PAGE_SIZE);	/* BIG and its copy */
	src = vmalloc(BIG);
	KUNIT_ASSERT_NOT_NULL(test, src);
	then = counts();
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		fill(src, sizes[i], sizes[i]);
		copy = kvmemdup(src, sizes[i], GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, copy);
		KUNIT_EXPECT_PTR_NE(test, copy, src);
		KUNIT_EXPECT_EQ(test, is_vmalloc_addr(copy), sizes[i] > KMALLOC_MAX_SIZE);
		KUNIT_EXPECT_EQ(test, memcmp(copy, src, sizes[i]), 0);
		kvfree(copy);
	}
	KUNIT_EXPECT_TRUE(test, ZERO_OR_NULL_PTR(kvmemdup(src, 0, GFP_KERNEL)));
	EXPECT_COUNTS(test, then, 4 + 1, 1, 0, 0);	/* kvmemdup(src, 0) is kmalloc(0) */
	vfree(src);
	kv_expect_back(test, &kv.before);
}

/* What a secret looks like: no byte is 0, nor any poison the allocators write (0x5a-0xcc). */
static u8 secret(size_t i)
{
	return 0x10 + (u8)(i * 7 % 0x40);
}

static void *secret_alloc(struct kunit *test, size_t len)
{
	u8 *p = kvmalloc(runtime(len), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (size_t i = 0; i < len; i++)
		p[i] = secret(i);
	return p;
}

/*
 * kvfree_sensitive() must zero the secret, then free it.  Looking at the
 * memory after the free is a sound check only if nothing else can have
 * written to it since: the case runs on one CPU with nothing allocating
 * (the other CPUs idle, no interrupt handler of this kernel allocates, and
 * the lazy vmalloc ranges were purged first so that the free does not
 * purge and allocate), and page poisoning is off (it would fill the freed
 * pages with 0xaa and hide a missing zeroing).  Then a freed page is
 * exactly what the free left in it, read through the direct map:
 *   whole pages   (a large kmalloc block, vmalloc's pages, found with
 *                 vmalloc_to_page() before the free) must read zero;
 *   vmalloc memory freed with interrupts off is queued for deferred work,
 *                 linked through its first word: zero but for that word;
 *   a slab object is zero, but for the free pointer the slab writes into
 *                 the object (when it has one there), the free mark an
 *                 unchecked cache writes (mm/slab.c), and for the poison
 *                 slab debugging writes over a freed object (0x6b..0xa5,
 *                 never a byte of the secret).  Under that poison only the
 *                 whole-page kinds show a missing zeroing; slab_debug=-
 *                 shows it for the small object too.
 */
#define NO_WORD	SIZE_MAX

/* Bytes of the secret still in @p, leaving out the words at @skip and @skip2 (or NO_WORD). */
static size_t secret_left(const u8 *p, size_t len, size_t skip, size_t skip2, bool poisoned)
{
	size_t left = 0;

	for (size_t i = 0; i < len; i++) {
		if (i - skip < sizeof(void *) || i - skip2 < sizeof(void *))
			continue;
		left += poisoned ? p[i] == secret(i) : p[i] != 0;
	}
	return left;
}

static void sensitive_slab_object(struct kunit *test)
{
	const size_t len = 100;
	u8 *p = secret_alloc(test, len);
	struct kmem_cache *s;
	unsigned long flags;
	size_t fp, mark, left;

	KUNIT_ASSERT_TRUE(test, PageSlab(virt_to_head_page(p)));
	s = virt_to_head_page(p)->slab_cache;
	fp = s->offset < s->object_size ? s->offset : NO_WORD;	/* the free pointer, if inside */
	mark = !(s->flags & SLAB_DEBUG_FLAGS) && !CONFIG_KASAN ? s->free_mark : NO_WORD;
	local_irq_save(flags);
	kvfree_sensitive(p, len);
	left = secret_left(p, len, fp, mark, s->flags & SLAB_POISON);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ_MSG(test, left, 0, "slab object of %s", s->name);
}

static void sensitive_large_kmalloc(struct kunit *test)
{
	const size_t len = 16384;
	u8 *p = secret_alloc(test, len);
	unsigned long flags;
	size_t left;

	KUNIT_ASSERT_FALSE(test, PageSlab(virt_to_head_page(p)));
	local_irq_save(flags);
	kvfree_sensitive(p, len);
	left = secret_left(p, len, NO_WORD, NO_WORD, false);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, left, 0);
}

static void sensitive_vmalloc(struct kunit *test, bool irqs_off)
{
	const size_t len = KMALLOC_MAX_SIZE + PAGE_SIZE;
	const unsigned long nr = len / PAGE_SIZE;
	struct page **pages = kunit_kmalloc_array(test, nr, sizeof(*pages), GFP_KERNEL);
	u8 *p = secret_alloc(test, len);
	unsigned long flags, left = 0;

	KUNIT_ASSERT_NOT_NULL(test, pages);
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(p));
	for (unsigned long i = 0; i < nr; i++)
		pages[i] = vmalloc_to_page(p + i * PAGE_SIZE);
	if (irqs_off)
		local_irq_save(flags);
	kvfree_sensitive(p, len);
	if (!irqs_off)
		local_irq_save(flags);
	for (unsigned long i = 0; i < nr; i++) {
		const u8 *page = page_address(pages[i]);
		size_t link = i == 0 && irqs_off ? 0 : NO_WORD;		/* its first word */

		left += secret_left(page, PAGE_SIZE, link, NO_WORD, false);
	}
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ_MSG(test, left, 0, "vmalloc memory, freed with interrupts %s",
			    irqs_off ? "off" : "on");
	flush_scheduled_work();
	kunit_kfree(test, pages);
}

static void kvfree_sensitive_leaves_no_byte_of_the_secret(struct kunit *test)
{
	need_free_pages(test, KMALLOC_MAX_SIZE / PAGE_SIZE + 4);	/* sensitive_vmalloc() */
	set_page_poisoning(false);
	vm_unmap_aliases();
	kvfree_sensitive(NULL, 100);
	kasan_disable_current();	/* it reads the freed memory on purpose */
	sensitive_slab_object(test);
	sensitive_large_kmalloc(test);
	sensitive_vmalloc(test, false);
	sensitive_vmalloc(test, true);
	kasan_enable_current();
	set_page_poisoning(kv.poisoning);
	kv_expect_back(test, &kv.before);
}

/*
 * kvfree() takes either kind, and NULL; a pointer it cannot free is
 * reported in one line (by the allocator it looks like) and changes
 * nothing: inside a live vmalloc area, freed twice, from the page
 * allocator, in the kernel image.
 */
static void kvfree_of_each_kind_and_of_bad_pointers(struct kunit *test)
{
	struct page *page;
	void *bad[4], *v, *freed;
	unsigned long slab_bad = global_vm_event(SLAB_BAD_FREE);
	unsigned long vmalloc_bad = global_vm_event(VMALLOC_BAD_FREE);

	need_free_pages(test, BIG / PAGE_SIZE + 4);
	page = alloc_page(GFP_KERNEL);
	v = kvmalloc(BIG, GFP_KERNEL);
	freed = vmalloc(3 * PAGE_SIZE);
	kunit_expect_report(test, "BUG: kvfree of");
	kunit_expect_report(test, "BUG: vfree(");
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_TRUE(test, is_vmalloc_addr(v));
	KUNIT_ASSERT_NOT_NULL(test, freed);
	kvfree(NULL);
	kvfree(ZERO_SIZE_PTR);
	kvfree(kmalloc(100, GFP_KERNEL));
	kvfree(kmalloc(16384, GFP_KERNEL));
	kvfree(kvmalloc(100, GFP_KERNEL));
	kvfree(freed);					/* vmalloc() memory */
	KUNIT_EXPECT_NULL(test, find_vm_area(freed));
	KUNIT_EXPECT_STREQ(test, log_since(kv.log_pos), "");

	fill(v, BIG, 0x42);
	bad[0] = (u8 *)v + 3 * PAGE_SIZE;
	bad[1] = freed;
	bad[2] = page_address(page);
	bad[3] = not_heap;
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		unsigned long pos = printk_log_pos();
		const char *log;

		kvfree(bad[i]);
		log = log_since(pos);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "\n"), 1, "pointer %u: %s", i, log);
		KUNIT_EXPECT_EQ_MSG(test, count_substr(log, "BUG: "), 1, "pointer %u: %s", i, log);
	}
	KUNIT_EXPECT_EQ(test, global_vm_event(VMALLOC_BAD_FREE) - vmalloc_bad, 2);
	KUNIT_EXPECT_EQ(test, global_vm_event(SLAB_BAD_FREE) - slab_bad, 2);
	KUNIT_EXPECT_EQ(test, check(v, BIG, 0x42), 0);	/* the live area is untouched */
	KUNIT_EXPECT_PTR_EQ(test, find_vm_area(v)->addr, v);
	kvfree(v);
	KUNIT_EXPECT_NULL(test, find_vm_area(v));
	__free_page(page);
	kv_expect_back(test, &kv.before);
}

/* ---------------------------------------------------------------- vmstat */

/*
 * Each kvmalloc() call is counted once, by how it ended: kvmalloc_slab,
 * kvmalloc_vmalloc or kvmalloc_fail.  kvrealloc() in place and kvfree()
 * are not kvmalloc() calls; kvrealloc() that moves, kvmemdup() and the
 * zeroing and array variants are.
 */
static void vmstat_counts_each_call_once(struct kunit *test)
{
	struct kv_counts then;
	void *p, *v, *moved;

	need_free_pages(test, 3 * BIG / PAGE_SIZE);	/* 2 * BIG, then BIG more at once */
	then = counts();
	p = kvmalloc(100, GFP_KERNEL);
	EXPECT_COUNTS(test, then, 1, 0, 0, 0);
	v = kvmalloc(BIG, GFP_KERNEL);
	EXPECT_COUNTS(test, then, 1, 1, 0, 0);
	KUNIT_EXPECT_NULL(test, kvmalloc(BIG, GFP_ATOMIC));
	EXPECT_COUNTS(test, then, 1, 1, 1, 0);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(p, 50, GFP_KERNEL), p);
	KUNIT_EXPECT_PTR_EQ(test, kvrealloc(v, BIG - 1, GFP_KERNEL), v);
	EXPECT_COUNTS(test, then, 1, 1, 1, 0);
	p = kvrealloc(p, 5000, GFP_KERNEL);
	EXPECT_COUNTS(test, then, 2, 1, 1, 0);
	moved = kvrealloc(v, 2 * BIG, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, moved);
	if (moved)
		v = moved;	/* on failure @v is still ours, to free below */
	EXPECT_COUNTS(test, then, 2, 2, 1, 0);
	kvfree(kvmemdup(p, 5000, GFP_KERNEL));
	kvfree(kvzalloc(64, GFP_KERNEL));
	kvfree(kvcalloc(2, 64, GFP_KERNEL));
	kvfree(kvmalloc_array(BIG / 8, 8, GFP_KERNEL));
	EXPECT_COUNTS(test, then, 5, 3, 1, 0);
	kvfree(p);
	kvfree(v);
	EXPECT_COUNTS(test, then, 5, 3, 1, 0);
	kv_expect_back(test, &kv.before);
}

static struct kunit_case kvmalloc_cases[] = {
	KUNIT_CASE_PARAM(slab_attempt_gets_the_policys_flags, policies_gen_params),
	KUNIT_CASE(atomic_callers_never_get_vmalloc_memory),
	KUNIT_CASE(fragmented_memory_falls_back_for_sleepers_only),
	KUNIT_CASE(no_fallback_at_or_below_a_page),
	KUNIT_CASE(sizes_above_int_max_warn_once_and_fail),
	KUNIT_CASE(above_kmalloc_max_size_is_vmalloc),
	KUNIT_CASE(zeroing_variants_zero_both_kinds),
	KUNIT_CASE(array_overflow_is_null),
	KUNIT_CASE(kvrealloc_of_null_and_to_zero),
	KUNIT_CASE(kvrealloc_in_place_when_it_fits),
	KUNIT_CASE(kvrealloc_after_a_huge_fallback_stays_in_mapped_memory),
	KUNIT_CASE(nofail_fallback_survives_page_table_failures),
	KUNIT_CASE(kvrealloc_across_the_line_keeps_contents),
	KUNIT_CASE(kvrealloc_with_gfp_zero_zeroes_new_bytes),
	KUNIT_CASE(kvrealloc_refuses_bad_pointers),
	KUNIT_CASE(kvmemdup_copies_into_either_kind),
	KUNIT_CASE(kvfree_sensitive_leaves_no_byte_of_the_secret),
	KUNIT_CASE(kvfree_of_each_kind_and_of_bad_pointers),
	KUNIT_CASE(vmstat_counts_each_call_once),
	{}
};

static struct kunit_suite kvmalloc_suite = {
	.name = "kvmalloc",
	.init = kvmalloc_test_init,
	.exit = kvmalloc_test_exit,
	.test_cases = kvmalloc_cases,
	.strict = true,
};
kunit_test_suite(kvmalloc_suite);
