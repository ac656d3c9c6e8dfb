/*
 * mm/tlb_monitor.c - the TLB as the monitor shows it: tlbstat and shootdown.
 *
 *   tlbstat           the four vmstat TLB counters, summed and per CPU
 *   shootdown [PAGES] a TLB shootdown you can watch, step by step
 *
 * `shootdown` plays the life of a kernel mapping that changes under CPUs
 * that cached it (what vunmap() and the lazy purge after vfree() do in
 * mm/vmalloc.c), in a scratch range of kernel virtual addresses reserved
 * for it (TLB_SCRATCH_START, see arch/x86_64/page.h):
 *
 *   map     point PAGES PTEs at frames A
 *   read    every CPU reads every page: each TLB now caches va -> A
 *   remap   point the PTEs at frames B; flush this CPU's TLB only
 *   stale   the other CPUs read again: they still see A, through their TLBs
 *   flush   flush_tlb_kernel_range(): the shootdown, timed and counted
 *   check   every CPU reads again: all must see B (else the command fails)
 *   unmap   clear the PTEs, shoot down again, free A and B
 *
 * Only after "flush" could frames A be reused; "stale" shows why.  Each CPU
 * reads with get_kernel_nofault(), so a missing mapping would count as a
 * fault instead of an oops in an IPI handler.  The first run allocates the
 * page table for the range, which stays (one page, 4 KiB of MemFree).
 *
 * mm/ reaches the page tables only through mm/cpu.h; the two calls that do
 * are in scratch_map() and scratch_unmap().  Nothing else maps in this
 * range, and the monitor runs one command at a time on the boot CPU.
 */
#include "mm/maccess.h"
#include "mm/page_alloc.h"
#include "mm/tlbflush.h"
#include "mm/vmstat.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/vsprintf.h"

static const struct {
	enum vm_event_item item;
	const char *name;
} tlb_counters[] = {
	{ NR_TLB_REMOTE_FLUSH, "nr_tlb_remote_flush" },
	{ NR_TLB_REMOTE_FLUSH_RECEIVED, "nr_tlb_remote_flush_received" },
	{ NR_TLB_LOCAL_FLUSH_ALL, "nr_tlb_local_flush_all" },
	{ NR_TLB_LOCAL_FLUSH_ONE, "nr_tlb_local_flush_one" },
};

/* The rest of a header line: "CPU0 CPU1 ...", each right-aligned in 11 columns. */
static void print_cpu_columns(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		char name[12];

		snprintf(name, sizeof(name), "CPU%u", cpu);
		printk(KERN_CONT "%11s", name);
	}
	printk(KERN_CONT "\n");
}

static int cmd_tlbstat(int argc, char **argv)
{
	unsigned int cpu;

	(void)argc;
	(void)argv;
	printk("%-30s %10s", "counter", "total");
	print_cpu_columns();
	for (unsigned int i = 0; i < ARRAY_SIZE(tlb_counters); i++) {
		printk("%-30s %10lu", tlb_counters[i].name, global_vm_event(tlb_counters[i].item));
		for_each_online_cpu(cpu)
			printk(KERN_CONT "%11lu", cpu_vm_event(cpu, tlb_counters[i].item));
		printk(KERN_CONT "\n");
	}
	printk("single-page flush ceiling: %lu pages\n", tlb_single_page_flush_ceiling);
	return 0;
}
MONITOR_COMMAND(tlbstat, "", "TLB flush counters (vmstat nr_tlb_*), per CPU", cmd_tlbstat);

/* ---------------------------------------------------------------- shootdown */

#define SHOOTDOWN_DEFAULT_PAGES	8
#define MARK_A			0xaaaa000000000000UL	/* + page index */
#define MARK_B			0xbbbb000000000000UL

/* What each CPU saw when it read the range once. */
struct seen {
	unsigned long a, b, faults, other;
};

static struct shootdown {
	unsigned long pages;
	struct seen seen[NR_CPUS];
	unsigned long before[ARRAY_SIZE(tlb_counters)][NR_CPUS];
	unsigned long after[ARRAY_SIZE(tlb_counters)][NR_CPUS];
} sd;

static unsigned long scratch_va(unsigned long i)
{
	return TLB_SCRATCH_START + i * PAGE_SIZE;
}

static int scratch_map(unsigned long i, struct page *frame)
{
	return map_kernel_page(scratch_va(i), (phys_addr_t)page_to_pfn(frame) << PAGE_SHIFT,
			       PAGE_KERNEL, GFP_KERNEL);
}

static void scratch_unmap(unsigned long i)
{
	unmap_kernel_page(scratch_va(i));
}

/* Runs on each CPU asked, interrupts off: read the first word of every page. */
static void read_scratch(void *unused)
{
	struct seen *s = &sd.seen[smp_processor_id()];

	(void)unused;
	*s = (struct seen){ 0 };
	for (unsigned long i = 0; i < sd.pages; i++) {
		unsigned long v;

		if (get_kernel_nofault(v, (unsigned long *)scratch_va(i)))
			s->faults++;
		else if (v == MARK_A + i)
			s->a++;
		else if (v == MARK_B + i)
			s->b++;
		else
			s->other++;
	}
}

/* Sum what the CPUs other than @skip saw (NR_CPUS: skip none). */
static struct seen seen_total(unsigned int skip)
{
	struct seen t = { 0 };
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (cpu == skip)
			continue;
		t.a += sd.seen[cpu].a;
		t.b += sd.seen[cpu].b;
		t.faults += sd.seen[cpu].faults;
		t.other += sd.seen[cpu].other;
	}
	return t;
}

static void sample_counters(unsigned long out[][NR_CPUS])
{
	unsigned int cpu;

	for (unsigned int i = 0; i < ARRAY_SIZE(tlb_counters); i++)
		for_each_online_cpu(cpu)
			out[i][cpu] = cpu_vm_event(cpu, tlb_counters[i].item);
}

static unsigned long counter_delta(unsigned int i, unsigned int cpu)
{
	return sd.after[i][cpu] - sd.before[i][cpu];
}

static void fill_frames(struct page *frames, unsigned long mark)
{
	for (unsigned long i = 0; i < sd.pages; i++)
		*(unsigned long *)page_address(frames + i) = mark + i;
}

/* One line per step: what happened, and the TSC cycles since the last line. */
static __printf(3, 4) void step(const char *name, u64 *t0, const char *fmt, ...)
{
	u64 now = rdtsc_ordered();
	char what[80];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	printk("  %-6s %-62s %9llu\n", name, what, (unsigned long long)(now - *t0));
	*t0 = rdtsc_ordered();
}

/* A read that did not reach the frame it should have: the mapping code is wrong. */
static int report_bug(const char *step, const struct seen *t)
{
	printk("shootdown: BUG: in '%s', %lu reads saw A, %lu saw B, %lu faulted, "
	       "%lu saw neither\n", step, t->a, t->b, t->faults, t->other);
	return -EIO;
}

/* Steps map to check; the caller unmaps and frees whatever happens. */
static int shootdown_steps(struct page *a, struct page *b, unsigned int me, unsigned int n)
{
	unsigned long end = scratch_va(sd.pages), remote_cpus = 0;
	u64 t0 = rdtsc_ordered();
	unsigned int cpu;
	struct seen t;

	for (unsigned long i = 0; i < sd.pages; i++) {
		if (scratch_map(i, a + i)) {
			printk("shootdown: no memory for a page table\n");
			return -ENOMEM;
		}
	}
	step("map", &t0, "%lu PTEs -> frames A (pfn %#lx..)", sd.pages, page_to_pfn(a));

	on_each_cpu(read_scratch, NULL, 1);
	t = seen_total(NR_CPUS);
	step("read", &t0, "every CPU reads every page: %lu of %lu reads see A", t.a, n * sd.pages);
	if (t.a != n * sd.pages)
		return report_bug("read", &t);

	for (unsigned long i = 0; i < sd.pages; i++) {
		scratch_unmap(i);	/* a present entry is never overwritten */
		scratch_map(i, b + i);	/* the tables exist now: cannot fail */
	}
	local_flush_tlb_kernel_range(TLB_SCRATCH_START, end);
	step("remap", &t0, "%lu PTEs -> frames B (pfn %#lx..), this CPU's TLB flushed only",
	     sd.pages, page_to_pfn(b));

	if (n > 1) {
		smp_call_function(read_scratch, NULL, 1);
		t = seen_total(me);
		step("stale", &t0, "other CPUs read again: %lu of %lu reads still see A",
		     t.a, (n - 1) * sd.pages);
	}

	sample_counters(sd.before);
	flush_tlb_kernel_range(TLB_SCRATCH_START, end);
	sample_counters(sd.after);
	for_each_online_cpu(cpu)	/* tlb_counters[1]: nr_tlb_remote_flush_received */
		remote_cpus += counter_delta(1, cpu) > 0;
	step("flush", &t0, "flush_tlb_kernel_range: %lu page(s), IPIs to %lu CPU(s)",
	     sd.pages, remote_cpus);

	on_each_cpu(read_scratch, NULL, 1);
	t = seen_total(NR_CPUS);
	step("check", &t0, "every CPU reads every page: %lu of %lu reads see B", t.b, n * sd.pages);
	return t.b == n * sd.pages ? 0 : report_bug("check", &t);
}

static void print_flush_counters(void)
{
	unsigned int cpu;

	printk("%-30s", "counters during 'flush':");
	print_cpu_columns();
	for (unsigned int i = 0; i < ARRAY_SIZE(tlb_counters); i++) {
		printk("  %-28s", tlb_counters[i].name);
		for_each_online_cpu(cpu)
			printk(KERN_CONT "%11lu", counter_delta(i, cpu));
		printk(KERN_CONT "\n");
	}
}

static int cmd_shootdown(int argc, char **argv)
{
	struct monitor_args args = MONITOR_ARGS(argc, argv);
	unsigned int me = smp_processor_id(), n = num_online_cpus();
	unsigned long pages = SHOOTDOWN_DEFAULT_PAGES;
	unsigned int order;
	struct page *a, *b;
	int err;

	if (monitor_opt_ulong(&args, "PAGES", 1, TLB_SCRATCH_PAGES, &pages) ||
	    monitor_args_end(&args))
		return -EINVAL;
	order = get_order(pages * PAGE_SIZE);
	a = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
	b = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
	if (!a || !b) {
		printk("shootdown: no memory for 2 x %lu pages\n", pages);
		err = -ENOMEM;
		goto free;
	}
	sd.pages = pages;
	fill_frames(a, MARK_A);
	fill_frames(b, MARK_B);
	printk("shootdown: %lu page(s) at %#lx on %u CPU(s); last column: TSC cycles\n",
	       pages, TLB_SCRATCH_START, n);
	err = shootdown_steps(a, b, me, n);
	for (unsigned long i = 0; i < pages; i++)
		scratch_unmap(i);
	flush_tlb_kernel_range(TLB_SCRATCH_START, scratch_va(pages));
	printk("  unmap  PTEs cleared and shot down again; frames A and B freed\n");
	if (!err)
		print_flush_counters();
free:
	if (a)
		__free_pages(a, order);
	if (b)
		__free_pages(b, order);
	return err;
}
MONITOR_COMMAND(shootdown, "[PAGES]",
		"watch a TLB shootdown of PAGES (1..512, default 8) remapped pages",
		cmd_shootdown);
