/*
 * mm/tlbflush.h - making every CPU forget translations that changed.
 *
 * Each CPU caches page-table entries in its TLB.  After a kernel mapping is
 * changed or removed (vunmap, vfree), every CPU that might have cached it
 * must drop it, or it keeps using the old page.  x86 has no broadcast
 * invalidation: the CPU that changed the tables interrupts the others
 * (a "TLB shootdown" IPI) and each flushes its own TLB.
 *
 * flush_tlb_kernel_range(start, end) does that for [start, end) on every
 * online CPU and returns only when all have done it.  Each CPU invalidates
 * page by page (invlpg) up to tlb_single_page_flush_ceiling pages (33, as
 * in Linux) and flushes its whole TLB above that, where refilling costs
 * less than hundreds of invlpg.  flush_tlb_all() flushes every CPU's whole
 * TLB, global entries included.
 *
 * The local variants (this CPU only, Linux's x86 names) exist for code that
 * knows no other CPU can hold the entry, and for the tests and benchmarks
 * that compare against them.  Counted in vmstat: NR_TLB_REMOTE_FLUSH (one
 * per shootdown that interrupted other CPUs), NR_TLB_REMOTE_FLUSH_RECEIVED
 * (per CPU interrupted), NR_TLB_LOCAL_FLUSH_ONE (per page invalidated),
 * NR_TLB_LOCAL_FLUSH_ALL (per full flush).
 *
 * This is part of mm's interface to the CPU: arch/x86_64/tlb.c implements
 * it in the kernel, tests/host for the host builds.
 */
#ifndef MM_TLBFLUSH_H
#define MM_TLBFLUSH_H

/* An end that means "the whole address space": flush everything */
#define TLB_FLUSH_ALL	(~0UL)

extern unsigned long tlb_single_page_flush_ceiling;

void flush_tlb_kernel_range(unsigned long start, unsigned long end);
void flush_tlb_all(void);

/* This CPU only */
void flush_tlb_one_kernel(unsigned long addr);
void local_flush_tlb_kernel_range(unsigned long start, unsigned long end);
void __flush_tlb_all(void);

#endif
