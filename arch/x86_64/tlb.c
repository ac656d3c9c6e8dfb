/*
 * arch/x86_64/tlb.c - TLB flushes, local and by shootdown IPI.
 *
 * A shootdown (flush_tlb_kernel_range) is on_each_cpu() of the local flush
 * with wait: the caller flushes its own TLB with interrupts off, sends the
 * function-call IPI to every other online CPU, and spins until each has
 * run the flush and released its request block (kernel/smp.c).  Only then
 * may the caller reuse the physical pages that were unmapped: before, a CPU
 * that still held the old translation could read or write them.
 *
 * A full flush reloads CR3, which drops every non-global entry; if CR4.PGE
 * is on, toggling PGE drops the global ones too (the kernel's mappings may
 * be global).  Above tlb_single_page_flush_ceiling pages one full flush is
 * cheaper than that many invlpg instructions plus the refills.
 *
 * The monitor's `tlbstat` and `shootdown` (mm/tlb_monitor.c) show the
 * counters and a shootdown.
 */
#include "mm/tlbflush.h"
#include "mm/vm_event_item.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/page.h"
#include "kernel/panic.h"
#include "kernel/smp.h"

/** tlb_single_page_flush_ceiling - above this many pages, flush everything */
unsigned long tlb_single_page_flush_ceiling = 33;

struct flush_tlb_info {
	unsigned long start, end;	/* end == TLB_FLUSH_ALL: everything */
	unsigned int initiator;		/* the CPU that asked */
};

/* The TLB's vmstat events (mm/vmstat.h): per CPU, one instruction each. */
static void count_tlb_events(enum vm_event_item item, unsigned long n)
{
	count_vm_events(item, n);
}

/**
 * flush_tlb_one_kernel - drop this CPU's translation of the page at @addr
 *
 * Context: any.
 */
void flush_tlb_one_kernel(unsigned long addr)
{
	invlpg(addr);
	count_tlb_events(NR_TLB_LOCAL_FLUSH_ONE, 1);
}

/**
 * __flush_tlb_all - drop every translation this CPU caches, global ones too
 *
 * Context: any.
 */
void __flush_tlb_all(void)
{
	unsigned long cr4 = read_cr4(), flags;

	local_irq_save(flags);
	if (cr4 & X86_CR4_PGE) {
		write_cr4(cr4 & ~X86_CR4_PGE);
		write_cr4(cr4);
	} else {
		write_cr3(read_cr3());
	}
	local_irq_restore(flags);
	count_tlb_events(NR_TLB_LOCAL_FLUSH_ALL, 1);
}

static void flush_local(const struct flush_tlb_info *info)
{
	unsigned long pages;

	if (info->end == TLB_FLUSH_ALL) {
		__flush_tlb_all();
		return;
	}
	pages = (info->end - info->start) >> PAGE_SHIFT;
	if (pages > tlb_single_page_flush_ceiling) {
		__flush_tlb_all();
		return;
	}
	for (unsigned long va = info->start; va < info->end; va += PAGE_SIZE)
		invlpg(va);
	count_tlb_events(NR_TLB_LOCAL_FLUSH_ONE, pages);
}

/**
 * local_flush_tlb_kernel_range - flush [@start, @end) from this CPU's TLB only
 *
 * Context: any.  Other CPUs keep whatever they cached.
 */
void local_flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_tlb_info info = { start & PAGE_MASK, ALIGN(end, PAGE_SIZE), 0 };

	flush_local(&info);
}

/* Runs on every CPU of a shootdown, interrupts off. */
static void do_flush_tlb(void *arg)
{
	const struct flush_tlb_info *info = arg;

	if (smp_processor_id() != info->initiator) {
		this_cpu_inc(irq_stat.irq_tlb_count);
		count_tlb_events(NR_TLB_REMOTE_FLUSH_RECEIVED, 1);
	}
	flush_local(info);
}

/* Everyone flushes; the other CPUs in parallel with this one; wait for all. */
static void shootdown(struct flush_tlb_info *info)
{
	info->initiator = smp_processor_id();
	if (num_online_cpus() > 1)
		count_tlb_events(NR_TLB_REMOTE_FLUSH, 1);
	on_each_cpu(do_flush_tlb, info, 1);
}

/**
 * flush_tlb_kernel_range - make every CPU forget translations of [@start, @end)
 * @start: first byte (rounded down to a page)
 * @end: end, exclusive (rounded up to a page); TLB_FLUSH_ALL (or anything
 *	 in the last page of the address space) flushes everything
 *
 * A range with @start > @end is a caller bug: reported, and nothing is
 * flushed.  An empty range flushes nothing.
 * Context: interrupts on, not in an interrupt handler (it waits for the
 * other CPUs; see kernel/smp.c).  Returns when every online CPU has flushed.
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_tlb_info info = { start & PAGE_MASK, 0, 0 };

	if (WARN(start > end, "flush_tlb_kernel_range: start %#lx is above end %#lx\n",
		 start, end))
		return;
	/* Rounding the last page of the address space up would wrap to 0. */
	info.end = end > PAGE_MASK ? TLB_FLUSH_ALL : ALIGN(end, PAGE_SIZE);
	if (info.end <= info.start)
		return;
	shootdown(&info);
}

/**
 * flush_tlb_all - make every CPU flush its whole TLB, global entries included
 *
 * Context: as flush_tlb_kernel_range().
 */
void flush_tlb_all(void)
{
	struct flush_tlb_info info = { 0, TLB_FLUSH_ALL, 0 };

	shootdown(&info);
}
