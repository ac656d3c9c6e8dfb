/*
 * tests/kernel/numa_slab_test.c - slab objects on the NUMA node they
 * were asked for, and back on it when freed anywhere.
 *
 * On the two-node matrix machine (CPU 0 on node 0, CPU 1 on node 1):
 *   - kmalloc_node(), kzalloc_node() and kmem_cache_alloc_node() on each
 *     node with memory, with and without __GFP_THISNODE, small and large,
 *     give memory of that node;
 *   - objects allocated on node 1 (by CPU 0 asking for node 1, or by CPU 1
 *     itself) and freed on CPU 0 go back to node 1's slabs: after
 *     kmem_cache_shrink() they are free on a slab of node 1's partial
 *     list, and each node's slab counts say so; under slab_debug=- they
 *     go there at once, never into CPU 0's sheaves (which hand out node
 *     0's memory only, as Linux's);
 *   - NUMA_NO_NODE takes the memory node of the CPU that allocates
 *     (numa_mem_id(): its own node, unless that has no memory).
 * On a machine with a node that has CPUs but no memory
 * (numa-q35-256M-memless), that node's allocations come from the nearest
 * node with memory, without a report, on as few slabs as anywhere; its
 * own slab lists and barn stay empty; __GFP_THISNODE there fails at once;
 * its CPUs' frees of their memory node's objects are local, and wait in
 * their sheaves.
 * Every case skips on a machine with one node.
 */
#include "slab_test.h"
#include "test_log.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"

#define NR_LOCAL	40

static struct kmem_cache *cache;

static void need_two_nodes(struct kunit *test)
{
	if (nr_node_ids < 2)
		kunit_skip(test, "one NUMA node (no SRAT); run with -numa to test");
}

/* The cases that allocate on node 1 from a CPU of node 0 need memory on both. */
static void need_memory_on_nodes_0_and_1(struct kunit *test)
{
	need_two_nodes(test);
	if (!node_state(0, N_MEMORY) || !node_state(1, N_MEMORY))
		kunit_skip(test, "needs memory on nodes 0 and 1 (node %d has none)",
			   node_state(0, N_MEMORY) ? 1 : 0);
}

static int numa_slab_init(struct kunit *test)
{
	(void)test;
	cache = kmem_cache_create("numa_slab_test", 128, 0, 0, NULL);
	return cache ? 0 : -1;
}

static void numa_slab_exit(struct kunit *test)
{
	int nid;

	if (!cache)
		return;
	kmem_cache_shrink(cache);
	for_each_node(nid)
		KUNIT_EXPECT_EQ_MSG(test, node_slab_counts(cache, nid).slabs, 0, "node %d", nid);
	kmem_cache_destroy(cache);
	cache = NULL;
}

static int nid_of(const void *p)
{
	return page_to_nid(virt_to_head_page(p));
}

static void alloc_node_puts_objects_on_that_node(struct kunit *test)
{
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_KERNEL | __GFP_THISNODE };
	int nid;

	need_two_nodes(test);
	for_each_node_state(nid, N_MEMORY) {
		for (unsigned int g = 0; g < ARRAY_SIZE(gfps); g++) {
			void *objs[4][NR_LOCAL];

			for (unsigned int i = 0; i < NR_LOCAL; i++) {
				volatile size_t size = 300;	/* the run-time size path */

				objs[0][i] = kmalloc_node(64, gfps[g], nid);
				objs[1][i] = kzalloc_node(size, gfps[g], nid);
				objs[2][i] = kmem_cache_alloc_node(cache, gfps[g], nid);
				objs[3][i] = i % 8 ? NULL : kmalloc_node(20000, gfps[g], nid);
				for (unsigned int k = 0; k < 4; k++) {
					if (!objs[k][i] && (k < 3 || i % 8 == 0))
						KUNIT_FAIL(test, "node %d gfp %#x kind %u: NULL", nid,
							   gfps[g], k);
					else if (objs[k][i])
						KUNIT_EXPECT_EQ_MSG(test, nid_of(objs[k][i]), nid,
								    "gfp %#x kind %u", gfps[g], k);
				}
			}
			for (unsigned int i = 0; i < NR_LOCAL; i++) {
				kfree(objs[0][i]);
				kfree(objs[1][i]);
				kmem_cache_free(cache, objs[2][i]);
				kfree(objs[3][i]);
			}
		}
	}
}

/* Is @slab on node @nid's partial list of @s, and is @obj free on its freelist? */
static void expect_free_on_node(struct kunit *test, struct kmem_cache *s, int nid, void *obj)
{
	struct kmem_cache_node *n = get_node(s, nid);
	struct page *slab = virt_to_head_page(obj), *p;
	bool listed = false, free = false;
	unsigned long flags;
	unsigned int steps = 0;

	spin_lock_irqsave(&n->list_lock, flags);
	for (p = pfn_to_slab(n->partial); p; p = pfn_to_slab(p->slab_next))
		listed |= p == slab;
	for (void *f = slab_freelist(s, slab); f && steps <= slab->objects;
	     f = get_freepointer(s, slab, f), steps++)
		free |= f == obj;
	spin_unlock_irqrestore(&n->list_lock, flags);
	KUNIT_EXPECT_TRUE_MSG(test, listed, "%s: the slab of %px is not on node %d's partial list",
			      s->name, obj, nid);
	KUNIT_EXPECT_TRUE_MSG(test, free, "%s: %px is not free in its slab", s->name, obj);
}

struct on_cpu {
	struct work_struct work;
	void *objs[NR_LOCAL];
	int nid;		/* numa_mem_id() where it ran */
	int cpu_nid;		/* numa_node_id() where it ran */
};

/* On the CPU it was queued on: NR_LOCAL objects with NUMA_NO_NODE. */
static void alloc_here(struct work_struct *work)
{
	struct on_cpu *w = container_of(work, struct on_cpu, work);

	w->nid = numa_mem_id();
	w->cpu_nid = numa_node_id();
	for (unsigned int i = 0; i < NR_LOCAL; i++)
		w->objs[i] = kmem_cache_alloc(cache, GFP_KERNEL);
}

/* On the CPU it was queued on: free what alloc_here() took there. */
static void free_here(struct work_struct *work)
{
	struct on_cpu *w = container_of(work, struct on_cpu, work);

	for (unsigned int i = 0; i < NR_LOCAL; i++)
		kmem_cache_free(cache, w->objs[i]);
}

/* The first online CPU of node @nid, or -1. */
static int cpu_of_node(int nid)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct on_cpu w = { .nid = -1 };

		INIT_WORK(&w.work, alloc_here);
		if (!schedule_work_on(cpu, &w.work))
			continue;
		flush_work(&w.work);
		for (unsigned int i = 0; i < NR_LOCAL; i++)
			kmem_cache_free(cache, w.objs[i]);
		if (w.cpu_nid == nid)
			return cpu;
	}
	return -1;
}

/*
 * Objects of node 1, freed on CPU 0 (node 0): after shrinking, node 0 has
 * no slab of the cache, node 1 exactly the one slab a kept object holds,
 * with the freed objects on its freelist.
 */
static void remote_free_goes_back_to_its_node(struct kunit *test)
{
	unsigned int n = 3 * cache->objects;
	struct slab_counts c0, c1;
	void **objs, *mate = NULL;
	struct on_cpu w;
	int cpu1;

	need_memory_on_nodes_0_and_1(test);
	KUNIT_ASSERT_EQ(test, numa_node_id(), 0);
	objs = kmalloc_array(n, sizeof(*objs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, objs);
	for (unsigned int i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc_node(cache, GFP_KERNEL, 1);
		KUNIT_ASSERT_NOT_NULL(test, objs[i]);
		KUNIT_EXPECT_EQ(test, nid_of(objs[i]), 1);
	}
	for (unsigned int i = 1; i < n; i++) {	/* objs[0] keeps its slab */
		if (!mate && virt_to_head_page(objs[i]) == virt_to_head_page(objs[0]))
			mate = objs[i];
		kmem_cache_free(cache, objs[i]);
	}
	kmem_cache_shrink(cache);
	c0 = node_slab_counts(cache, 0);
	c1 = node_slab_counts(cache, 1);
	KUNIT_EXPECT_EQ(test, c0.slabs, 0);
	KUNIT_EXPECT_EQ(test, c1.slabs, 1);
	KUNIT_EXPECT_EQ(test, c1.objects, cache->objects);
	KUNIT_EXPECT_EQ(test, c1.inuse, 1);
	KUNIT_ASSERT_NOT_NULL(test, mate);
	expect_free_on_node(test, cache, 1, mate);

	/* the same with objects CPU 1 allocated on its own node */
	cpu1 = cpu_of_node(1);
	if (cpu1 >= 0) {
		kmem_cache_shrink(cache);
		w = (struct on_cpu){ .nid = -1 };
		INIT_WORK(&w.work, alloc_here);
		KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu1, &w.work));
		flush_work(&w.work);
		mate = NULL;
		for (unsigned int i = 0; i < NR_LOCAL; i++) {
			KUNIT_ASSERT_NOT_NULL(test, w.objs[i]);
			KUNIT_EXPECT_EQ(test, nid_of(w.objs[i]), 1);
			if (virt_to_head_page(w.objs[i]) == virt_to_head_page(objs[0]))
				mate = w.objs[i];
			kmem_cache_free(cache, w.objs[i]);	/* on CPU 0 */
		}
		kmem_cache_shrink(cache);
		KUNIT_EXPECT_EQ(test, node_slab_counts(cache, 0).slabs, 0);
		c1 = node_slab_counts(cache, 1);
		KUNIT_EXPECT_EQ(test, c1.slabs, 1);
		KUNIT_EXPECT_EQ(test, c1.inuse, 1);
		KUNIT_ASSERT_NOT_NULL(test, mate);	/* CPU 1 took free objects of that slab */
		expect_free_on_node(test, cache, 1, mate);
	}
	kmem_cache_free(cache, objs[0]);
	kfree(objs);
}

/*
 * Objects of node 1 freed on CPU 0 (node 0) go straight back to their
 * slabs on node 1, as in Linux 6.18 (slab_free(): only an object whose slab
 * is on the CPU's memory node goes into its sheaves): none waits in CPU 0's
 * sheaves, and CPU 0's next allocations without a node are node 0's.  Once
 * the sheaves took them, and the next kmalloc(64) on CPU 0 was node 1's.
 */
static void remote_free_skips_this_cpus_sheaves(struct kunit *test)
{
	struct kmem_cache *k64 = kmalloc_caches[kmalloc_index(64)];
	void *objs[2][NR_LOCAL];
	unsigned long flags;

	need_memory_on_nodes_0_and_1(test);
	if (CONFIG_KASAN)
		kunit_skip(test, "KASAN's quarantine holds freed objects back");
	KUNIT_ASSERT_EQ(test, numa_mem_id(), 0);
	kmem_cache_shrink(cache);
	for (unsigned int i = 0; i < NR_LOCAL; i++) {
		objs[0][i] = kmalloc_node(64, GFP_KERNEL, 1);
		objs[1][i] = kmem_cache_alloc_node(cache, GFP_KERNEL, 1);
		KUNIT_ASSERT_NOT_NULL(test, objs[0][i]);
		KUNIT_ASSERT_NOT_NULL(test, objs[1][i]);
		KUNIT_ASSERT_EQ(test, nid_of(objs[0][i]), 1);
		KUNIT_ASSERT_EQ(test, nid_of(objs[1][i]), 1);
	}
	/* no interrupt handler on CPU 0 takes kmalloc-64 objects in between */
	local_irq_save(flags);
	for (unsigned int i = 0; i < NR_LOCAL; i++) {
		kfree(objs[0][i]);
		kmem_cache_free(cache, objs[1][i]);
	}
	for (unsigned int i = 0; i < NR_LOCAL; i++) {
		objs[0][i] = kmalloc(64, GFP_ATOMIC);
		objs[1][i] = kmem_cache_alloc(cache, GFP_ATOMIC);
	}
	local_irq_restore(flags);
	for (unsigned int i = 0; i < NR_LOCAL; i++) {
		KUNIT_ASSERT_NOT_NULL(test, objs[0][i]);
		KUNIT_ASSERT_NOT_NULL(test, objs[1][i]);
		KUNIT_EXPECT_EQ_MSG(test, nid_of(objs[0][i]), 0, "kmalloc(64) number %u", i);
		KUNIT_EXPECT_EQ_MSG(test, nid_of(objs[1][i]), 0, "%s number %u", cache->name, i);
		kfree(objs[0][i]);
		kmem_cache_free(cache, objs[1][i]);
	}
	/* and freed once more, the node-1 objects are free in their slabs at once */
	for (unsigned int i = 0; i < NR_LOCAL; i++) {
		objs[0][i] = kmalloc_node(64, GFP_KERNEL, 1);
		objs[1][i] = kmem_cache_alloc_node(cache, GFP_KERNEL, 1);
		KUNIT_ASSERT_NOT_NULL(test, objs[0][i]);
		KUNIT_ASSERT_NOT_NULL(test, objs[1][i]);
	}
	for (unsigned int i = 1; i < NR_LOCAL; i++) {	/* [0] keeps its slab */
		kfree(objs[0][i]);
		kmem_cache_free(cache, objs[1][i]);
	}
	for (unsigned int k = 0; k < 2; k++) {
		struct kmem_cache *s = k ? cache : k64;
		unsigned int mates = 0;

		for (unsigned int i = 1; i < NR_LOCAL; i++) {
			if (virt_to_head_page(objs[k][i]) != virt_to_head_page(objs[k][0]))
				continue;
			expect_free_on_node(test, s, 1, objs[k][i]);
			mates++;
		}
		KUNIT_EXPECT_GT_MSG(test, mates, 0, "%s: no object beside the kept one", s->name);
	}
	kfree(objs[0][0]);
	kmem_cache_free(cache, objs[1][0]);
}

/* A kmalloc object of node 1 freed on CPU 0 goes back to node 1 too. */
static void remote_kfree_goes_back_to_its_node(struct kunit *test)
{
	struct kmem_cache *s = kmalloc_caches[kmalloc_index(64)];
	void *keep, *obj;

	need_memory_on_nodes_0_and_1(test);
	/* two objects of one node-1 slab: keep one so that the slab stays */
	keep = kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE, 1);
	obj = kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE, 1);
	KUNIT_ASSERT_NOT_NULL(test, keep);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	for (int tries = 0; virt_to_head_page(obj) != virt_to_head_page(keep); tries++) {
		KUNIT_ASSERT_LT(test, tries, 64);
		kfree(keep);
		keep = obj;
		obj = kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE, 1);
		KUNIT_ASSERT_NOT_NULL(test, obj);
	}
	kfree(obj);
	kmem_cache_shrink(s);
	expect_free_on_node(test, s, 1, obj);
	kfree(keep);
}

/* NUMA_NO_NODE: the allocating CPU's memory node, for a cache, kmalloc() and whole pages. */
static void no_node_means_this_cpus_node(struct kunit *test)
{
	struct kmem_cache *k96 = kmalloc_caches[kmalloc_index(96)];
	unsigned int cpu, nodes_seen = 0;

	need_two_nodes(test);
	for_each_online_cpu(cpu) {
		struct on_cpu w = { .nid = -1 };
		void *p, *large;

		/* a fresh start: no CPU holds objects of the caches in its sheaves */
		kmem_cache_shrink(cache);
		kmem_cache_shrink(k96);
		INIT_WORK(&w.work, alloc_here);
		KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &w.work));
		flush_work(&w.work);
		KUNIT_ASSERT_GE(test, w.nid, 0);
		KUNIT_EXPECT_EQ_MSG(test, w.nid, cpu_to_mem(cpu), "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, w.cpu_nid, cpu_to_node(cpu), "CPU%u", cpu);
		nodes_seen |= 1U << w.cpu_nid;
		for (unsigned int i = 0; i < NR_LOCAL; i++) {
			KUNIT_ASSERT_NOT_NULL(test, w.objs[i]);
			KUNIT_EXPECT_EQ_MSG(test, nid_of(w.objs[i]), w.nid, "CPU%u", cpu);
			kmem_cache_free(cache, w.objs[i]);
		}
		if (cpu)
			continue;
		p = kmalloc_node(96, GFP_KERNEL, NUMA_NO_NODE);
		large = kmalloc_node(20000, GFP_KERNEL, NUMA_NO_NODE);
		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_ASSERT_NOT_NULL(test, large);
		KUNIT_EXPECT_EQ(test, nid_of(p), numa_mem_id());
		KUNIT_EXPECT_EQ(test, nid_of(large), numa_mem_id());
		kfree(p);
		kfree(large);
	}
	if (!(nodes_seen & 1U << 1))
		kunit_mark_skipped(test, "no online CPU on node 1 (the matrix puts CPU 1 there)");
}

/* ---------------------------------------------------------------- memoryless nodes */

static void need_memoryless_node(struct kunit *test)
{
	need_two_nodes(test);
	if (num_node_state(N_MEMORY) == nr_node_ids)
		kunit_skip(test, "every node has memory; numa-q35-256M-memless has one without");
}

/* Node @nid (no memory) has no slab of @s, and nothing in its barn. */
static void expect_node_unused(struct kunit *test, struct kmem_cache *s, int nid)
{
	struct node_barn *barn = &get_node(s, nid)->barn;

	KUNIT_EXPECT_EQ_MSG(test, node_slab_counts(s, nid).slabs, 0, "%s, node %d", s->name, nid);
	KUNIT_EXPECT_EQ_MSG(test, READ_ONCE(barn->nr_full) + READ_ONCE(barn->nr_empty), 0,
			    "%s, node %d's barn", s->name, nid);
}

/*
 * kmalloc_node() and friends on a node without memory: memory of the
 * nearest node that has (where alloc_pages_node() would go), with no
 * report, and on no more slabs than the objects need (each call must not
 * start a slab of its own because the memoryless node's lists are empty).
 */
static void memoryless_node_objects_come_from_the_nearest(struct kunit *test)
{
	struct kmem_cache *k64 = kmalloc_caches[kmalloc_index(64)];
	int nid;

	need_memoryless_node(test);
	for_each_online_node(nid) {
		unsigned long pos = printk_log_pos();
		int mem = local_memory_node(nid);
		void *objs[4][NR_LOCAL];
		unsigned int before = node_slab_counts(cache, mem).slabs;

		if (node_state(nid, N_MEMORY))
			continue;
		for (unsigned int i = 0; i < NR_LOCAL; i++) {
			volatile size_t size = 300;

			objs[0][i] = kmalloc_node(64, GFP_KERNEL, nid);
			objs[1][i] = kzalloc_node(size, GFP_KERNEL, nid);
			objs[2][i] = kmem_cache_alloc_node(cache, GFP_KERNEL, nid);
			objs[3][i] = i % 8 ? NULL : kmalloc_node(20000, GFP_KERNEL, nid);
			for (unsigned int k = 0; k < 4; k++) {
				if (!objs[k][i] && (k < 3 || i % 8 == 0))
					KUNIT_FAIL(test, "node %d kind %u: NULL", nid, k);
				else if (objs[k][i])
					KUNIT_EXPECT_EQ_MSG(test, nid_of(objs[k][i]), mem,
							    "node %d kind %u", nid, k);
			}
		}
		KUNIT_EXPECT_STREQ(test, log_since(pos), "");
		KUNIT_EXPECT_LE_MSG(test, node_slab_counts(cache, mem).slabs,
				    before + DIV_ROUND_UP(NR_LOCAL, cache->objects),
				    "%u objects a slab", cache->objects);
		for (unsigned int i = 0; i < NR_LOCAL; i++) {
			kfree(objs[0][i]);
			kfree(objs[1][i]);
			kmem_cache_free(cache, objs[2][i]);
			kfree(objs[3][i]);
		}
		expect_node_unused(test, cache, nid);
		expect_node_unused(test, k64, nid);
	}
}

/*
 * __GFP_THISNODE on a node without memory: NULL, at once (no reclaim);
 * quietly with __GFP_NOWARN, else with the slab's one-line report.
 */
static void memoryless_node_thisnode_fails_at_once(struct kunit *test)
{
	int nid;

	need_memoryless_node(test);
	kunit_expect_report(test, "SLUB: Unable to allocate memory on node");
	for_each_online_node(nid) {
		unsigned long pos = printk_log_pos(), stalls = global_vm_event(ALLOCSTALL);

		if (node_state(nid, N_MEMORY))
			continue;
		KUNIT_EXPECT_NULL(test, kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN,
						     nid));
		KUNIT_EXPECT_NULL(test, kmem_cache_alloc_node(cache, GFP_ATOMIC | __GFP_THISNODE |
							      __GFP_NOWARN, nid));
		KUNIT_EXPECT_NULL(test, kmalloc_node(20000, GFP_KERNEL | __GFP_THISNODE |
						     __GFP_NOWARN, nid));
		KUNIT_EXPECT_STREQ(test, log_since(pos), "");
		KUNIT_EXPECT_NULL(test, kmem_cache_alloc_node(cache, GFP_KERNEL | __GFP_THISNODE,
							      nid));
		KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "SLUB: Unable to allocate"), 1);
		KUNIT_EXPECT_EQ(test, count_substr(log_since(pos), "page allocation failure"), 0);
		KUNIT_EXPECT_EQ(test, global_vm_event(ALLOCSTALL), stalls);
		expect_node_unused(test, cache, nid);
	}
}

/*
 * A CPU of a memoryless node: NUMA_NO_NODE objects come from its
 * numa_mem_id(), without a report, on few slabs; allocating and freeing
 * there leaves its own node's lists and barn empty.
 */
static void memoryless_cpu_allocates_from_its_memory_node(struct kunit *test)
{
	unsigned int cpu, tried = 0;

	need_memoryless_node(test);
	for_each_online_cpu(cpu) {
		int nid = cpu_to_node(cpu), mem = cpu_to_mem(cpu);
		unsigned long pos = printk_log_pos();

		if (node_state(nid, N_MEMORY))
			continue;
		tried++;
		kmem_cache_shrink(cache);
		KUNIT_EXPECT_EQ(test, node_slab_counts(cache, mem).slabs, 0);
		for (int round = 0; round < 4; round++) {
			struct on_cpu w = { .nid = -1 };

			INIT_WORK(&w.work, alloc_here);
			KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &w.work));
			flush_work(&w.work);
			KUNIT_EXPECT_EQ_MSG(test, w.nid, mem, "CPU%u", cpu);
			KUNIT_EXPECT_EQ_MSG(test, w.cpu_nid, nid, "CPU%u", cpu);
			for (unsigned int i = 0; i < NR_LOCAL; i++) {
				KUNIT_ASSERT_NOT_NULL(test, w.objs[i]);
				KUNIT_EXPECT_EQ_MSG(test, nid_of(w.objs[i]), mem, "CPU%u", cpu);
			}
			if (!round)
				KUNIT_EXPECT_LE_MSG(test, node_slab_counts(cache, mem).slabs,
						    DIV_ROUND_UP(NR_LOCAL + 32, cache->objects),
						    "CPU%u: %u objects a slab", cpu, cache->objects);
			INIT_WORK(&w.work, free_here);
			KUNIT_ASSERT_TRUE(test, schedule_work_on(cpu, &w.work));
			flush_work(&w.work);
			/* local to the CPU (numa_mem_id(), not its own node): into its sheaves */
			if (cache_has_sheaves(cache))
				KUNIT_EXPECT_GE_MSG(test, cache_sheaf_objects(cache), NR_LOCAL,
						    "CPU%u's frees of node %d", cpu, mem);
		}
		KUNIT_EXPECT_STREQ(test, log_since(pos), "");
		expect_node_unused(test, cache, nid);
	}
	if (!tried)
		kunit_skip(test, "no online CPU on a memoryless node");
}

static struct kunit_case numa_slab_cases[] = {
	KUNIT_CASE(alloc_node_puts_objects_on_that_node),
	KUNIT_CASE(remote_free_goes_back_to_its_node),
	KUNIT_CASE(remote_kfree_goes_back_to_its_node),
	KUNIT_CASE(remote_free_skips_this_cpus_sheaves),
	KUNIT_CASE(no_node_means_this_cpus_node),
	KUNIT_CASE(memoryless_node_objects_come_from_the_nearest),
	KUNIT_CASE(memoryless_node_thisnode_fails_at_once),
	KUNIT_CASE(memoryless_cpu_allocates_from_its_memory_node),
	{}
};

static struct kunit_suite numa_slab_suite = {
	.name = "numa_slab",
	.init = numa_slab_init,
	.exit = numa_slab_exit,
	.test_cases = numa_slab_cases,
	.strict = true,
};
kunit_test_suite(numa_slab_suite);
