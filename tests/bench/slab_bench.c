/*
 * tests/bench/slab_bench.c - what an object costs: kmalloc()+kfree() pairs
 * at each size, a batch of 10,000 then their frees, a cache of our own, an
 * object freed by another CPU, and a kmalloc too large for the caches.
 *
 * Each row is the workload of the same Linux key (docs/bench.md), so that
 * make bench sets Linux's figure beside ours.  The benchmark kernel has no
 * slab debugging (CONFIG_SLUB_DEBUG=0): these are the sheaves' fast paths.
 */
#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/slab.h"
#include "arch/x86_64/cpu.h"

#define PAIR_ROW(bytes, key)						\
static void run_kmalloc_##bytes(unsigned long iters)			\
{									\
	for (unsigned long i = 0; i < iters; i++)			\
		kfree(kmalloc(bytes, GFP_KERNEL));			\
}									\
BENCHMARK_LINUX(kmalloc_##bytes, "slab: kmalloc+kfree " #bytes " B", NULL, key, 20000, \
		run_kmalloc_##bytes)

PAIR_ROW(8, "kmalloc_8");
PAIR_ROW(64, "kmalloc_64");
PAIR_ROW(256, "kmalloc_256");
PAIR_ROW(1024, "kmalloc_1k");
PAIR_ROW(4096, "kmalloc_4k");

static void run_kmalloc_64k(unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		kfree(kmalloc(65536, GFP_KERNEL));
}
BENCHMARK_LINUX(kmalloc_64k, "slab: kmalloc+kfree 64 KiB (whole pages)", NULL, "kmalloc_64k",
		5000, run_kmalloc_64k);

/* Whole-page kmallocs of the sizes kvmalloc's rows use, to set beside them. */
#define LARGE_ROW(id, bytes, text, iters)				\
static void run_##id(unsigned long iters_)				\
{									\
	for (unsigned long i = 0; i < iters_; i++)			\
		kfree(kmalloc(bytes, GFP_KERNEL));			\
}									\
BENCHMARK(id, "slab: kmalloc+kfree " text " (whole pages)", NULL, iters, run_##id)

LARGE_ROW(kmalloc_32k, 32 << 10, "32 KiB", 10000);
LARGE_ROW(kmalloc_1m, 1 << 20, "1 MiB", 1000);

#define BATCH	10000
static void *batch[BATCH];

/* @iters objects in a row, then their frees in reverse: per object. */
static void run_batch(unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		batch[i] = kmalloc(64, GFP_KERNEL);
	for (unsigned long i = iters; i-- > 0; )
		kfree(batch[i]);
}
BENCHMARK_LINUX(kmalloc_64_batch, "slab: kmalloc 64 B x 10000, then kfree", NULL,
		"kmalloc_64_batch", BATCH, run_batch);

static struct kmem_cache *cache64;

static void run_cache(unsigned long iters)
{
	if (!cache64)
		cache64 = kmem_cache_create("bench_64", 64, 0, 0, NULL);
	for (unsigned long i = 0; i < iters; i++)
		kmem_cache_free(cache64, kmem_cache_alloc(cache64, GFP_KERNEL));
}
BENCHMARK_LINUX(kmem_cache_64, "slab: kmem_cache_alloc+free 64 B", NULL, "kmem_cache_64", 20000,
		run_cache);

/*
 * Freed by another CPU (docs/bench.md, kmalloc_64_remote_free): CPU 0
 * allocates, untimed; CPU 1 frees them all while CPU 0 halts (under
 * -icount the clock counts every CPU's instructions, so CPU 0 must not
 * spin); the figure is per object freed.
 */
static struct work_struct remote_work;
static unsigned long remote_count, remote_done;

static void free_on_cpu1(struct work_struct *work)
{
	(void)work;
	for (unsigned long i = 0; i < remote_count; i++)
		kfree(batch[i]);
	__atomic_store_n(&remote_done, 1, __ATOMIC_RELEASE);
	smp_send_reschedule(0);
}

static void run_remote_free(unsigned long iters)
{
	static bool said;

	if (num_online_cpus() < 2) {
		if (!said)
			printk("bench: (the cross-CPU free row needs 2 CPUs: it measures a local "
			       "free here)\n");
		said = true;
	}
	bench_pause();
	for (unsigned long i = 0; i < iters; i++)
		batch[i] = kmalloc(64, GFP_KERNEL);
	bench_resume();
	if (num_online_cpus() < 2) {
		for (unsigned long i = 0; i < iters; i++)
			kfree(batch[i]);
		return;
	}
	remote_count = iters;
	remote_done = 0;
	INIT_WORK(&remote_work, free_on_cpu1);
	schedule_work_on(1, &remote_work);
	/* "sti; hlt" with interrupts off before: the wake-up cannot slip in between */
	local_irq_disable();
	while (!__atomic_load_n(&remote_done, __ATOMIC_ACQUIRE)) {
		__asm__ __volatile__("sti; hlt" : : : "memory");
		local_irq_disable();
	}
	local_irq_enable();
}
BENCHMARK_LINUX(kmalloc_64_remote, "slab: kfree 64 B on another CPU (per object)", NULL,
		"kmalloc_64_remote_free", BATCH, run_remote_free);
