/*
 * tests/kernel/smp_tlb_test.c - TLB shootdown, proven on a real stale entry.
 *
 * The experiment: CPU 1 reads one kernel virtual address in a loop (from
 * deferred work, interrupts on), so its TLB holds the translation
 * va -> page A.  CPU 0 then points the PTE of va at page B:
 *
 *   1. and flushes only its own TLB.  CPU 1 goes on reading page A: its
 *      TLB entry is stale.  Under QEMU this is really observed (each vCPU
 *      has its own software TLB, which only invlpg, a CR3 write or an
 *      eviction empties), and the case requires it, so that step 2 proves
 *      something: the log says how many stale reads CPU 1 made.
 *   2. then calls flush_tlb_kernel_range(): from its return on, CPU 1 must
 *      read page B and never A again.
 *   3. then clears the PTE and shoots down again: CPU 1's reads must fault
 *      (caught by get_kernel_nofault, no oops).
 *
 * The address: a page of this file's .bss, whose PTE is a 4 KiB entry of
 * the kernel image mapping (lookup_kernel_pte() from arch/x86_64/pgtable.c
 * finds it; changing the entry in place needs no page-table allocation).
 * The page is put back and flushed everywhere at the end.
 */
#include "kunit/test.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "mm/maccess.h"
#include "mm/tlbflush.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/timer.h"
#include "mm/vmstat.h"

#define MARK_A		0xaaaaaaaaaaaaaaaaUL
#define MARK_B		0xbbbbbbbbbbbbbbbbUL
#define READS		20000UL
#define DEADLINE_NS	(10ULL * 1000 * 1000 * 1000)

static u64 victim[PAGE_SIZE / 8] __aligned(PAGE_SIZE);	/* page A, and the address */
static u64 page_b[PAGE_SIZE / 8] __aligned(PAGE_SIZE);

/*
 * The reader counts each read in exactly one of four counters; the number
 * of reads is their sum, not a fifth counter.  (A separate "reads" counter,
 * sampled a moment apart from "saw_a", once gave "read the OLD page 20581
 * times in 20575 reads".)  Each counter only grows, so over any interval the
 * difference of one is at most the difference of the sum.
 */
static struct reader {
	struct work_struct work;
	unsigned long saw_a, saw_b, faults, other;
	unsigned long stop;
} rd;

static void reader_fn(struct work_struct *work)
{
	(void)work;
	while (!__atomic_load_n(&rd.stop, __ATOMIC_ACQUIRE)) {
		u64 v = 0;

		if (get_kernel_nofault(v, (u64 *)victim))
			__atomic_fetch_add(&rd.faults, 1, __ATOMIC_RELAXED);
		else if (v == MARK_A)
			__atomic_fetch_add(&rd.saw_a, 1, __ATOMIC_RELAXED);
		else if (v == MARK_B)
			__atomic_fetch_add(&rd.saw_b, 1, __ATOMIC_RELAXED);
		else
			__atomic_fetch_add(&rd.other, 1, __ATOMIC_RELAXED);
		/*
		 * pause, as every busy loop should have.  Under QEMU's -icount,
		 * which runs all vCPUs in turn on one thread, a loop without it
		 * once kept a third vCPU from running a single instruction of
		 * the shootdown IPI for 90 s (-smp 3 -icount shift=0); pause
		 * makes QEMU end the spinning vCPU's turn.
		 */
		cpu_relax();
	}
}

struct counts {
	unsigned long a, b, faults, reads;
};

static struct counts snap(void)
{
	struct counts c = { __atomic_load_n(&rd.saw_a, __ATOMIC_RELAXED),
			    __atomic_load_n(&rd.saw_b, __ATOMIC_RELAXED),
			    __atomic_load_n(&rd.faults, __ATOMIC_RELAXED), 0 };

	c.reads = c.a + c.b + c.faults + __atomic_load_n(&rd.other, __ATOMIC_RELAXED);
	return c;
}

/* Wait until the reader has made @n more reads; false after the deadline. */
static bool reads_pass(unsigned long n)
{
	unsigned long want = snap().reads + n;
	u64 end = ktime_get_ns() + DEADLINE_NS;

	while (snap().reads < want) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

static void shootdown_reaches_a_cpu_that_cached_the_page(struct kunit *test)
{
	unsigned long va = (unsigned long)victim;
	unsigned int level;
	u64 *pte, old;
	struct counts c0, c1;
	unsigned long stale;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	pte = lookup_kernel_pte(va, &level);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_ASSERT_EQ(test, level, 1);
	old = *pte;
	victim[0] = MARK_A;
	page_b[0] = MARK_B;

	rd = (struct reader){ .stop = 0 };
	INIT_WORK(&rd.work, reader_fn);
	KUNIT_ASSERT_TRUE(test, schedule_work_on(1, &rd.work));
	KUNIT_ASSERT_TRUE_MSG(test, reads_pass(1000), "CPU1's reader does not run");
	KUNIT_ASSERT_GT(test, rd.saw_a, 0);

	/* 1. Remap to page B, flush this CPU only. */
	*pte = __pa(page_b) | (old & ~PTE_PFN_MASK);
	local_flush_tlb_kernel_range(va, va + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(victim[0]), MARK_B);	/* CPU 0 sees B */
	c0 = snap();
	KUNIT_EXPECT_TRUE(test, reads_pass(READS));
	c1 = snap();
	stale = c1.a - c0.a;
	kunit_info(test, "without the shootdown IPI: CPU1 read the OLD page %lu times in %lu "
		   "reads after CPU0 changed the PTE (stale TLB entry), the new one %lu times\n",
		   stale, c1.reads - c0.reads, c1.b - c0.b);
	KUNIT_EXPECT_GT_MSG(test, stale, READS / 2,
			    "no stale read observed: this run proves nothing about the IPI");

	/* 2. The real thing. */
	flush_tlb_kernel_range(va, va + PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, reads_pass(2));		/* one read may have been in flight */
	c0 = snap();
	KUNIT_EXPECT_TRUE(test, reads_pass(READS));
	c1 = snap();
	kunit_info(test, "with flush_tlb_kernel_range: old page %lu times, new page %lu times "
		   "in %lu reads\n", c1.a - c0.a, c1.b - c0.b, c1.reads - c0.reads);
	KUNIT_EXPECT_EQ(test, c1.a - c0.a, 0);
	KUNIT_EXPECT_GE(test, c1.b - c0.b, READS);

	/* 3. Unmap: CPU 1 must fault. */
	*pte = 0;
	flush_tlb_kernel_range(va, va + PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, reads_pass(2));
	c0 = snap();
	KUNIT_EXPECT_TRUE(test, reads_pass(READS / 4));
	c1 = snap();
	kunit_info(test, "after unmap and shootdown: %lu faults, %lu reads of a page\n",
		   c1.faults - c0.faults, (c1.a - c0.a) + (c1.b - c0.b));
	KUNIT_EXPECT_GE(test, c1.faults - c0.faults, READS / 4);
	KUNIT_EXPECT_EQ(test, (c1.a - c0.a) + (c1.b - c0.b), 0);

	__atomic_store_n(&rd.stop, 1, __ATOMIC_RELEASE);
	flush_work(&rd.work);
	*pte = old;
	flush_tlb_kernel_range(va, va + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(victim[0]), MARK_A);
	/*
	 * get_kernel_nofault() copies byte by byte: a read that straddles one
	 * of the three changes CPU 1 sees (A->B, B->unmapped is a fault, and
	 * none after stop) may mix bytes of two pages.  At most one per change.
	 */
	KUNIT_EXPECT_LE(test, rd.other, 2);
}

static void counters_follow_the_ceiling(struct kunit *test)
{
	unsigned long va = (unsigned long)victim, n = num_online_cpus();
	unsigned long r0, rr0, one0, all0;

	r0 = global_vm_event(NR_TLB_REMOTE_FLUSH);
	rr0 = global_vm_event(NR_TLB_REMOTE_FLUSH_RECEIVED);
	one0 = global_vm_event(NR_TLB_LOCAL_FLUSH_ONE);
	all0 = global_vm_event(NR_TLB_LOCAL_FLUSH_ALL);

	/* 33 pages: page by page on every CPU */
	flush_tlb_kernel_range(va, va + 33 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ONE) - one0, 33 * n);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - all0, 0);
	/* 34 pages: above the ceiling, one full flush each */
	flush_tlb_kernel_range(va, va + 34 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - all0, n);
	flush_tlb_all();
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - all0, 2 * n);

	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_REMOTE_FLUSH) - r0, n > 1 ? 3 : 0);
	KUNIT_EXPECT_EQ(test, global_vm_event(NR_TLB_REMOTE_FLUSH_RECEIVED) - rr0, 3 * (n - 1));
}

static struct kunit_case smp_tlb_cases[] = {
	KUNIT_CASE(shootdown_reaches_a_cpu_that_cached_the_page),
	KUNIT_CASE(counters_follow_the_ceiling),
	{}
};

static struct kunit_suite smp_tlb_suite = {
	.name = "smp_tlb",
	.test_cases = smp_tlb_cases,
	.strict = true,
};
kunit_test_suite(smp_tlb_suite);
