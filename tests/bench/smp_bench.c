/*
 * tests/bench/smp_bench.c - what crossing CPUs costs: an IPI round trip,
 * and TLB shootdowns of 1, 32 and 512 pages against the same local flush.
 *
 * The rows run with however many CPUs QEMU was given
 * (make bench QEMU_ARGS='-smp 4'); the first row prints the count.  With
 * one CPU, "IPI round trip" is a local call and the shootdown rows equal
 * the local ones: the ratios then show the bookkeeping alone.
 *
 * The flushed range is the first 2 MiB of the direct map (PAGE_OFFSET: low
 * memory, which the loop never touches): what is measured is the
 * invalidation (invlpg, or a CR3 reload above the 33-page ceiling) plus the
 * refill of the TLB entries the loop itself uses, not a change of any
 * mapping.  (A 2 MiB array of its own would cost every machine 2 MiB of
 * RAM, a quarter of the smallest one.)
 */
#include "bench/bench.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "mm/tlbflush.h"
#include "arch/x86_64/page.h"

static void nop(void *info)
{
	(void)info;
}

static void run_ipi_round_trip(unsigned long iters)
{
	static bool said;
	int target = num_online_cpus() > 1 ? 1 : 0;

	if (!said) {
		said = true;
		printk("bench: (%u CPUs online; IPI rows target CPU%d)\n", num_online_cpus(), target);
	}
	for (unsigned long i = 0; i < iters; i++)
		smp_call_function_single(target, nop, NULL, 1);
}
BENCHMARK(ipi_round_trip, "smp: IPI round trip (call_function_single, wait)",
	  NULL, 200, run_ipi_round_trip);

static void run_on_each_cpu(unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		on_each_cpu(nop, NULL, 1);
}
BENCHMARK(on_each_cpu_all, "smp: on_each_cpu, wait", "smp: IPI round trip (call_function_single, wait)",
	  200, run_on_each_cpu);

#define FLUSH_ROWS(pages)						\
static void run_local_##pages(unsigned long iters)			\
{									\
	unsigned long s = PAGE_OFFSET;					\
									\
	for (unsigned long i = 0; i < iters; i++)			\
		local_flush_tlb_kernel_range(s, s + (pages) * PAGE_SIZE); \
}									\
BENCHMARK(tlb_local_##pages, "tlb: local flush, " #pages " pages",	\
	  NULL, 200, run_local_##pages);				\
static void run_shootdown_##pages(unsigned long iters)			\
{									\
	unsigned long s = PAGE_OFFSET;					\
									\
	for (unsigned long i = 0; i < iters; i++)			\
		flush_tlb_kernel_range(s, s + (pages) * PAGE_SIZE);	\
}									\
BENCHMARK(tlb_shootdown_##pages, "tlb: flush_tlb_kernel_range, " #pages " pages", \
	  "tlb: local flush, " #pages " pages", 200, run_shootdown_##pages)

FLUSH_ROWS(1);
FLUSH_ROWS(32);
FLUSH_ROWS(512);
