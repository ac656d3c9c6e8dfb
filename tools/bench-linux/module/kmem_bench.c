// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kmem_bench.c - Linux's own allocators, measured the way kmem's make bench measures ours.
 *
 * make bench-linux builds this module against a Debian kernel's headers, boots that kernel in
 * QEMU under -icount (where the TSC advances once per guest instruction) and loads the module
 * from a busybox initramfs.  The method is the one of tests/bench/bench.c: a row performs
 * @iters operations; it runs once to warm caches and TLBs (not counted), then BENCH_SAMPLES
 * times between two serialised rdtsc reads, and the median instructions per operation, loop
 * included, is printed in tenths:
 *
 *	kmem_bench: row kmalloc_64 242.0
 *
 * Each row's key names one workload, defined exactly in docs/bench.md, so that a row of
 * make bench can name the key it matches.  Lines "kmem_bench: info KEY.WHAT VALUE" say how
 * Linux served a row (which allocator, which page size).  With cross_cpu=1 (a boot with two
 * CPUs) only the rows that need a second CPU run; otherwise only the others.
 *
 * The module declares a GPL-compatible licence because vmalloc_huge(), lookup_address() and
 * set_cpus_allowed_ptr() are exported to such modules only.
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#define BENCH_SAMPLES	7
#define BATCH		10000	/* objects in the batch and cross-CPU rows */

static bool cross_cpu;
module_param(cross_cpu, bool, 0444);
MODULE_PARM_DESC(cross_cpu, "run only the rows that need two CPUs");

struct row {
	const char *key;
	unsigned long iters;			/* operations per sample */
	void (*run)(unsigned long iters);	/* timed around the call */
	u64 (*run_timed)(unsigned long iters);	/* or times itself and returns the cycles */
	bool two_cpus;
};

/* The same read as kmem's rdtsc_ordered(): nothing before or after it moves across it. */
static inline u64 rdtsc_serialised(void)
{
	u32 lo, hi;

	asm volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

static u64 sample_cycles(const struct row *r)
{
	u64 t0;

	if (r->run_timed)
		return r->run_timed(r->iters);
	t0 = rdtsc_serialised();
	r->run(r->iters);
	return rdtsc_serialised() - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median cycles per operation, in tenths: bench.c's measure(), line for line. */
static u64 measure(const struct row *r)
{
	u64 samples[BENCH_SAMPLES];
	int i;

	sample_cycles(r);
	for (i = 0; i < BENCH_SAMPLES; i++)
		samples[i] = sample_cycles(r) * 10 / r->iters;
	sort(samples, BENCH_SAMPLES, sizeof(samples[0]), cmp_u64, NULL);
	return samples[BENCH_SAMPLES / 2];
}

/*
 * kmalloc+kfree pairs.  The size is a compile-time constant, as in most of Linux's callers,
 * so kmalloc() picks its cache at compile time: the fast path a driver really takes.
 */
static __always_inline void kmalloc_pairs(unsigned long iters, size_t size)
{
	unsigned long i;

	for (i = 0; i < iters; i++) {
		void *p = kmalloc(size, GFP_KERNEL);

		kfree(p);
	}
}

#define KMALLOC_ROW(name, size)						\
static void run_kmalloc_##name(unsigned long iters)			\
{									\
	kmalloc_pairs(iters, size);					\
}

KMALLOC_ROW(8, 8)
KMALLOC_ROW(64, 64)
KMALLOC_ROW(256, 256)
KMALLOC_ROW(1k, 1024)
KMALLOC_ROW(4k, 4096)
KMALLOC_ROW(64k, 65536)

static void *objs[BATCH];

/* @iters kmalloc(64), then @iters kfree() in the reverse order: the figure is per object. */
static void run_kmalloc_64_batch(unsigned long iters)
{
	unsigned long i;

	for (i = 0; i < iters; i++)
		objs[i] = kmalloc(64, GFP_KERNEL);
	while (i--)
		kfree(objs[i]);
}

/*
 * The cross-CPU free: this task, pinned to CPU0, allocates @iters kmalloc(64) objects; a
 * kthread bound to CPU1 frees them all, in allocation order, and times only that loop.  CPU0
 * sleeps in wait_for_completion() meanwhile, so it is halted: under -icount the TSC counts the
 * instructions of every CPU, and a CPU spinning while the other is timed would be counted too.
 */
static struct {
	struct task_struct *task;
	struct completion go, done;
	unsigned long nr;
	u64 cycles;
	bool stop;
} remote;

static int remote_free_thread(void *unused)
{
	for (;;) {
		unsigned long i;
		u64 t0;

		wait_for_completion(&remote.go);
		if (remote.stop)
			return 0;
		t0 = rdtsc_serialised();
		for (i = 0; i < remote.nr; i++)
			kfree(objs[i]);
		remote.cycles = rdtsc_serialised() - t0;
		complete(&remote.done);
	}
}

static u64 run_kmalloc_64_remote_free(unsigned long iters)
{
	unsigned long i;

	for (i = 0; i < iters; i++)
		objs[i] = kmalloc(64, GFP_KERNEL);
	remote.nr = iters;
	complete(&remote.go);
	wait_for_completion(&remote.done);
	return remote.cycles;
}

static int remote_start(void)
{
	int err = set_cpus_allowed_ptr(current, cpumask_of(0));

	if (err)
		return err;
	init_completion(&remote.go);
	init_completion(&remote.done);
	remote.task = kthread_create(remote_free_thread, NULL, "kmem_bench_free");
	if (IS_ERR(remote.task))
		return PTR_ERR(remote.task);
	kthread_bind(remote.task, 1);
	get_task_struct(remote.task);	/* it may exit before kthread_stop() looks at it */
	wake_up_process(remote.task);
	return 0;
}

static void remote_stop(void)
{
	remote.stop = true;
	complete(&remote.go);
	kthread_stop(remote.task);
	put_task_struct(remote.task);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* A private 64-byte cache; SLUB may merge it with kmalloc-64, as it would any such cache. */
static struct kmem_cache *cache_64;

static void run_kmem_cache_64(unsigned long iters)
{
	unsigned long i;

	for (i = 0; i < iters; i++) {
		void *p = kmem_cache_alloc(cache_64, GFP_KERNEL);

		kmem_cache_free(cache_64, p);
	}
}

/*
 * alloc_pages+__free_pages, holding one block of @order meanwhile, as kmem's rows do: the
 * measured pairs then find that block's buddy and give it back, whatever boot left behind.
 */
static void page_pairs(unsigned long iters, unsigned int order)
{
	struct page *held = alloc_pages(GFP_KERNEL, order);
	unsigned long i;

	for (i = 0; i < iters; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		if (page)
			__free_pages(page, order);
	}
	if (held)
		__free_pages(held, order);
}

#define PAGE_ROW(order)							\
static void run_page_order##order(unsigned long iters)			\
{									\
	page_pairs(iters, order);					\
}

PAGE_ROW(0)
PAGE_ROW(3)
PAGE_ROW(9)

static __always_inline void vmalloc_pairs(unsigned long iters, unsigned long size, bool huge)
{
	unsigned long i;

	for (i = 0; i < iters; i++) {
		void *p = huge ? vmalloc_huge(size, GFP_KERNEL) : vmalloc(size);

		vfree(p);
	}
}

#define VMALLOC_ROW(name, size, huge)					\
static void run_##name(unsigned long iters)				\
{									\
	vmalloc_pairs(iters, size, huge);				\
}

VMALLOC_ROW(vmalloc_4k, 4096, false)
VMALLOC_ROW(vmalloc_64k, 64 << 10, false)
VMALLOC_ROW(vmalloc_1m, 1 << 20, false)
VMALLOC_ROW(vmalloc_4m, 4 << 20, false)
VMALLOC_ROW(vmalloc_huge_4m, 4 << 20, true)

static __always_inline void kvmalloc_pairs(unsigned long iters, size_t size)
{
	unsigned long i;

	for (i = 0; i < iters; i++) {
		void *p = kvmalloc(size, GFP_KERNEL);

		kvfree(p);
	}
}

#define KVMALLOC_ROW(name, size)					\
static void run_kvmalloc_##name(unsigned long iters)			\
{									\
	kvmalloc_pairs(iters, size);					\
}

KVMALLOC_ROW(64, 64)
KVMALLOC_ROW(4k, 4096)
KVMALLOC_ROW(32k, 32 << 10)
KVMALLOC_ROW(1m, 1 << 20)

#define ROW(k, n, fn)	{ .key = #k, .iters = (n), .run = fn }

/*
 * Iteration counts keep a sample near 5-50 million instructions: long enough for vmalloc's
 * lazy purge (every few thousand frees) to fall several times into every sample.
 */
static const struct row rows[] = {
	ROW(kmalloc_8, 20000, run_kmalloc_8),
	ROW(kmalloc_64, 20000, run_kmalloc_64),
	ROW(kmalloc_256, 20000, run_kmalloc_256),
	ROW(kmalloc_1k, 20000, run_kmalloc_1k),
	ROW(kmalloc_4k, 20000, run_kmalloc_4k),
	ROW(kmalloc_64k, 5000, run_kmalloc_64k),
	ROW(kmalloc_64_batch, BATCH, run_kmalloc_64_batch),
	{ .key = "kmalloc_64_remote_free", .iters = BATCH,
	  .run_timed = run_kmalloc_64_remote_free, .two_cpus = true },
	ROW(kmem_cache_64, 20000, run_kmem_cache_64),
	ROW(page_order0, 20000, run_page_order0),
	ROW(page_order3, 10000, run_page_order3),
	ROW(page_order9, 5000, run_page_order9),
	ROW(vmalloc_4k, 20000, run_vmalloc_4k),
	ROW(vmalloc_64k, 5000, run_vmalloc_64k),
	ROW(vmalloc_1m, 500, run_vmalloc_1m),
	ROW(vmalloc_4m, 100, run_vmalloc_4m),
	ROW(vmalloc_huge_4m, 100, run_vmalloc_huge_4m),
	ROW(kvmalloc_64, 20000, run_kvmalloc_64),
	ROW(kvmalloc_4k, 20000, run_kvmalloc_4k),
	ROW(kvmalloc_32k, 10000, run_kvmalloc_32k),
	ROW(kvmalloc_1m, 1000, run_kvmalloc_1m),
};

/* Which allocator kvmalloc() picked for each size: the figures mean little without it. */
static void report_kvmalloc(void)
{
	static const struct { const char *key; size_t size; } sizes[] = {
		{ "kvmalloc_64", 64 }, { "kvmalloc_4k", 4096 },
		{ "kvmalloc_32k", 32 << 10 }, { "kvmalloc_1m", 1 << 20 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		void *p = kvmalloc(sizes[i].size, GFP_KERNEL);

		pr_info("kmem_bench: info %s.served_by %s\n", sizes[i].key,
			!p ? "nothing" : is_vmalloc_addr(p) ? "vmalloc" : "kmalloc");
		kvfree(p);
	}
}

/* The page size that maps a 4 MiB vmalloc_huge() area: 2M when huge mappings were used. */
static void report_vmalloc_huge(void)
{
	void *p = vmalloc_huge(4 << 20, GFP_KERNEL);
	unsigned int level = PG_LEVEL_NONE;

	if (p)
		lookup_address((unsigned long)p, &level);
	pr_info("kmem_bench: info vmalloc_huge_4m.mapping %s\n",
		level == PG_LEVEL_2M ? "2M" : level == PG_LEVEL_4K ? "4K" : "unknown");
	vfree(p);
}

static void run_rows(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		u64 tenths;

		if (rows[i].two_cpus != cross_cpu)
			continue;
		tenths = measure(&rows[i]);
		pr_info("kmem_bench: row %s %llu.%llu\n", rows[i].key, tenths / 10, tenths % 10);
	}
}

static int __init kmem_bench_init(void)
{
	int err;

	pr_info("kmem_bench: start %u CPUs, cross_cpu=%d\n", num_online_cpus(), cross_cpu);
	if (cross_cpu) {
		if (num_online_cpus() < 2) {
			pr_err("kmem_bench: cross_cpu=1 needs two CPUs online\n");
			return -EINVAL;
		}
		err = remote_start();
		if (err) {
			pr_err("kmem_bench: cannot start the CPU1 thread (%d)\n", err);
			return err;
		}
		run_rows();
		remote_stop();
	} else {
		cache_64 = kmem_cache_create("kmem_bench_64", 64, 0, 0, NULL);
		if (!cache_64)
			return -ENOMEM;
		report_kvmalloc();
		report_vmalloc_huge();
		run_rows();
		kmem_cache_destroy(cache_64);
	}
	pr_info("kmem_bench: done\n");
	return 0;
}

static void __exit kmem_bench_exit(void)
{
}

module_init(kmem_bench_init);
module_exit(kmem_bench_exit);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("kmem's make bench workloads, run on Linux's allocators");
