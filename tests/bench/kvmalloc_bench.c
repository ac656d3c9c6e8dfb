/*
 * tests/bench/kvmalloc_bench.c - what kvmalloc() adds to the allocator that
 * serves it, and what each policy costs when memory is fragmented.
 *
 * The plain rows are Linux's workloads of the same keys (docs/bench.md):
 * kvfree(kvmalloc(size)) with memory as it is after boot, where the slab
 * and the page allocator serve every size up to 4 MiB, each beside the row
 * of that allocator.  The "hard state" rows start from kvdemo's state
 * (mm/kvdemo.h: no free block of order >= 3, an OOM victim, a cache) and
 * rebuild it between iterations, outside the count.
 */
#include "bench/bench.h"
#include "mm/kvdemo.h"

#define PAIR_ROW(id, bytes, text, key, iters, baseline)			\
static void run_##id(unsigned long n)					\
{									\
	for (unsigned long i = 0; i < n; i++)				\
		kvfree(kvmalloc(bytes, GFP_KERNEL));			\
}									\
BENCHMARK_LINUX(id, "kvmalloc: kvfree(kvmalloc(" text "))", baseline, key, iters, run_##id)

PAIR_ROW(kvmalloc_64, 64, "64 B", "kvmalloc_64", 20000, "slab: kmalloc+kfree 64 B");
PAIR_ROW(kvmalloc_4k, 4096, "4 KiB", "kvmalloc_4k", 20000, "slab: kmalloc+kfree 4096 B");
PAIR_ROW(kvmalloc_32k, 32 << 10, "32 KiB", "kvmalloc_32k", 10000,
	 "slab: kmalloc+kfree 32 KiB (whole pages)");
PAIR_ROW(kvmalloc_1m, 1 << 20, "1 MiB", "kvmalloc_1m", 1000,
	 "slab: kmalloc+kfree 1 MiB (whole pages)");

static struct kvdemo demo;

/* @n kvmalloc(32 KiB)+kvfree pairs under @policy, each from the rebuilt hard state. */
static void run_hard_state(unsigned long n, enum kvmalloc_policy policy)
{
	bench_pause();
	if (kvdemo_setup(&demo)) {
		bench_resume();
		return;
	}
	bench_resume();
	for (unsigned long i = 0; i < n; i++) {
		kvfree(kvmalloc_node_policy(32 << 10, GFP_KERNEL, NUMA_NO_NODE, policy));
		bench_pause();
		vm_unmap_aliases();
		kvdemo_restore(&demo);
		bench_resume();
	}
	bench_pause();
	kvdemo_teardown(&demo);
	bench_resume();
}

#define POLICY_ROW(name, policy)					\
static void run_hard_##name(unsigned long n)				\
{									\
	run_hard_state(n, policy);					\
}									\
BENCHMARK(hard_##name, "kvmalloc: 32 KiB in the hard state, " #name,	\
	  "kvmalloc: 32 KiB in the hard state, nodirect", 4, run_hard_##name)

POLICY_ROW(noretry, KVMALLOC_NORETRY);
POLICY_ROW(nodirect, KVMALLOC_NODIRECT);
POLICY_ROW(naive, KVMALLOC_NAIVE);
