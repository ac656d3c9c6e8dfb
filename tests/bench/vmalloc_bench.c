/*
 * tests/bench/vmalloc_bench.c - what a vmalloc() costs, and what the lazy
 * purge saves.
 *
 * The "lazy" rows are plain vfree(vmalloc(size)) pairs, Linux's workload of
 * the same key (docs/bench.md): the freed ranges pile up and one TLB flush
 * of the vmalloc space covers thousands of them.  The "eager" rows purge
 * after every vfree(), as a vmalloc without the lazy list would: one flush
 * (and, with several CPUs, one shootdown by IPI) per free.  Each of these
 * rows also counts the purges, that is the flushes, per 1,000 pairs.
 * Compare them at one and at four CPUs:
 *
 *	make bench BENCH='vmalloc*' QEMU_ARGS='-smp 4'
 */
#include "bench/bench.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "mm/vmstat.h"

#define LAZY_ROW(id, pages, text, key, iters, baseline)				\
static void run_##id(unsigned long n)					\
{									\
	for (unsigned long i = 0; i < n; i++)				\
		vfree(vmalloc((pages) * PAGE_SIZE));			\
}									\
BENCHMARK_COUNTING(id, "vmalloc: vfree(vmalloc(" text "))", baseline, key, iters, run_##id, \
		   VMALLOC_LAZY_PURGE)

#define EAGER_ROW(id, pages, text, lazy, iters)				\
static void run_##id(unsigned long n)					\
{									\
	for (unsigned long i = 0; i < n; i++) {				\
		vfree(vmalloc((pages) * PAGE_SIZE));			\
		vm_unmap_aliases();					\
	}								\
}									\
BENCHMARK_COUNTING(id, "vmalloc: " text ", eager flush on vfree", lazy, NULL, iters,	\
		   run_##id, VMALLOC_LAZY_PURGE)

/* The two smallest against the slab's row of the same size: what the mapping costs. */
LAZY_ROW(vmalloc_4k, 1, "4 KiB", "vmalloc_4k", 20000, "slab: kmalloc+kfree 4096 B");
LAZY_ROW(vmalloc_64k, 16, "64 KiB", "vmalloc_64k", 5000,
	 "slab: kmalloc+kfree 64 KiB (whole pages)");
LAZY_ROW(vmalloc_1m, 256, "1 MiB", "vmalloc_1m", 500, NULL);
LAZY_ROW(vmalloc_4m, 1024, "4 MiB", "vmalloc_4m", 100, NULL);

EAGER_ROW(vmalloc_4k_eager, 1, "4 KiB", "vmalloc: vfree(vmalloc(4 KiB))", 2000);
EAGER_ROW(vmalloc_64k_eager, 16, "64 KiB", "vmalloc: vfree(vmalloc(64 KiB))", 1000);
EAGER_ROW(vmalloc_1m_eager, 256, "1 MiB", "vmalloc: vfree(vmalloc(1 MiB))", 200);

static void run_vmalloc_huge_4m(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		vfree(vmalloc_huge(4 << 20, GFP_KERNEL));
}
BENCHMARK_LINUX(vmalloc_huge_4m, "vmalloc: vfree(vmalloc_huge(4 MiB))",
		"vmalloc: vfree(vmalloc(4 MiB))", "vmalloc_huge_4m", 100, run_vmalloc_huge_4m);
