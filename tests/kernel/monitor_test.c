/*
 * tests/kernel/monitor_test.c - the monitor's argument helpers and commands.
 *
 * The helpers of kernel/monitor.h must refuse each kind of bad argument
 * with exactly one line naming it and what is allowed, and hand good ones
 * over; monitor_execute() must refuse a line with too many words or an
 * unknown command, and an argument to a command that takes none, before
 * anything runs; a refused command must change nothing.  Then `shootdown`
 * runs on however many CPUs this machine has (1 to 8 in the matrix): every
 * CPU must see the new frames, the counters and cpuinfo's TLB IPIs must
 * move by exactly what it did, and nothing may stay mapped or allocated.
 * tests/monitor/bad_inputs.txt types the same kind of input at the real
 * prompt; this suite checks the helpers one by one, without a serial line.
 */
#include "kunit/test.h"
#include "page_alloc_test.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "mm/page_alloc.h"
#include "mm/tlbflush.h"
#include "mm/vmstat.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/pgtable.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "lib/vsprintf.h"

static char said[2048];		/* what the last helper or command printed */
static unsigned long said_from;

static void listen(void)
{
	said_from = printk_log_pos();
}

static const char *heard(void)
{
	printk_log_read(said_from, said, sizeof(said));
	return said;
}

/* Run @line as if typed at the prompt; what it printed is then in said[]. */
static int type_line(const char *line)
{
	char buf[256];
	int err;

	strscpy(buf, line, sizeof(buf));
	listen();
	err = monitor_execute(buf);
	heard();
	return err;
}

static void numbers_are_checked_one_line_each(struct kunit *test)
{
	static char *argv[] = { "alloc", "-1", "abc", "18446744073709551616", "11", "010", "7" };
	struct monitor_args args = MONITOR_ARGS(ARRAY_SIZE(argv), argv);
	unsigned long v = 99;

	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_ulong(&args, "ORDER", 0, 10, &v), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(), "alloc: ORDER must be 0..10 (got '-1': not a number)\n");
	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_ulong(&args, "ORDER", 0, 10, &v), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(), "alloc: ORDER must be 0..10 (got 'abc': not a number)\n");
	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_ulong(&args, "ORDER", 0, 10, &v), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(),
			   "alloc: ORDER must be 0..10 (got '18446744073709551616': too large)\n");
	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_ulong(&args, "ORDER", 0, 10, &v), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(), "alloc: ORDER must be 0..10 (got '11')\n");
	KUNIT_EXPECT_EQ(test, v, 99);		/* untouched by every refusal */

	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_ulong(&args, "ORDER", 0, 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 10);		/* decimal: "010" is ten */
	KUNIT_EXPECT_EQ(test, monitor_opt_ulong(&args, "N", 1, 9, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 7);
	KUNIT_EXPECT_STREQ(test, heard(), "");	/* good arguments print nothing */

	/* All taken: a required one is missing, an optional one keeps its default. */
	listen();
	KUNIT_EXPECT_EQ(test, monitor_opt_ulong(&args, "N", 1, 9, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 7);
	KUNIT_EXPECT_EQ(test, monitor_arg_ulong(&args, "ORDER", 0, 10, &v), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(),
			   "alloc: missing ORDER (usage: alloc ORDER [dma|dma32|atomic|movable])\n");
	KUNIT_EXPECT_EQ(test, monitor_args_end(&args), 0);
}

static void keywords_and_literal_words(struct kunit *test)
{
	static const char *const words[] = { "dma", "dma32", "atomic", NULL };
	static char *argv[] = { "alloc", "dma32", "DMA", "node", "3", "extra" };
	struct monitor_args args = MONITOR_ARGS(ARRAY_SIZE(argv), argv);
	unsigned long node = 0;
	int index = -1;

	KUNIT_EXPECT_EQ(test, monitor_opt_keyword(&args, "FLAGS", words, &index), 0);
	KUNIT_EXPECT_EQ(test, index, 1);
	listen();
	KUNIT_EXPECT_EQ(test, monitor_opt_keyword(&args, "FLAGS", words, &index), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(),
			   "alloc: FLAGS must be one of dma, dma32, atomic (got 'DMA')\n");
	KUNIT_EXPECT_EQ(test, index, 1);

	/* "[node N]": the literal is taken only if it is there */
	KUNIT_EXPECT_FALSE(test, monitor_take_word(&args, "nod"));
	KUNIT_EXPECT_TRUE(test, monitor_take_word(&args, "node"));
	KUNIT_EXPECT_EQ(test, monitor_arg_ulong(&args, "N", 0, 7, &node), 0);
	KUNIT_EXPECT_EQ(test, node, 3);
	listen();
	KUNIT_EXPECT_EQ(test, monitor_args_end(&args), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(), "alloc: unexpected argument 'extra' "
			   "(usage: alloc ORDER [dma|dma32|atomic|movable])\n");

	/* No word left: the keyword keeps its default. */
	args.next = args.argc;
	index = -1;
	KUNIT_EXPECT_EQ(test, monitor_opt_keyword(&args, "FLAGS", words, &index), 0);
	KUNIT_EXPECT_EQ(test, index, -1);
}

static void addresses_are_hex(struct kunit *test)
{
	static char *argv[] = { "kfree", "0xffff888000001000", "ffff888000002000", "zz", "-1",
				"0x10000000000000000", "" };
	struct monitor_args args = MONITOR_ARGS(ARRAY_SIZE(argv), argv);
	unsigned long addr = 0;

	KUNIT_EXPECT_EQ(test, monitor_arg_addr(&args, "ADDR", &addr), 0);
	KUNIT_EXPECT_EQ(test, addr, 0xffff888000001000UL);
	KUNIT_EXPECT_EQ(test, monitor_arg_addr(&args, "ADDR", &addr), 0);
	KUNIT_EXPECT_EQ(test, addr, 0xffff888000002000UL);
	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_addr(&args, "ADDR", &addr), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(),
			   "kfree: ADDR must be a hex address (got 'zz': not a number)\n");
	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_addr(&args, "ADDR", &addr), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(),
			   "kfree: ADDR must be a hex address (got '-1': not a number)\n");
	listen();
	KUNIT_EXPECT_EQ(test, monitor_arg_addr(&args, "ADDR", &addr), -EINVAL);
	KUNIT_EXPECT_STREQ(test, heard(), "kfree: ADDR must be a hex address "
			   "(got '0x10000000000000000': too large)\n");
	KUNIT_EXPECT_EQ(test, monitor_arg_addr(&args, "ADDR", &addr), -EINVAL);
	KUNIT_EXPECT_EQ(test, addr, 0xffff888000002000UL);
}

static void whole_lines_are_refused_before_anything_runs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, type_line("alloc 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"), -E2BIG);
	KUNIT_EXPECT_STREQ(test, said, "monitor: too many words (at most 16); nothing done\n");
	KUNIT_EXPECT_EQ(test, type_line("allocc 3"), -ENOENT);
	KUNIT_EXPECT_STREQ(test, said, "allocc: unknown command; type 'help' for the list\n");
	KUNIT_EXPECT_EQ(test, type_line("cpuinfo x"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, said, "cpuinfo: unexpected argument 'x' (usage: cpuinfo)\n");
	KUNIT_EXPECT_EQ(test, type_line("poweroff now"), -EINVAL);	/* and we are still on */
	KUNIT_EXPECT_EQ(test, type_line(" \t "), 0);
	KUNIT_EXPECT_STREQ(test, said, "");
	/* Sixteen words are fine: this one fails on its argument, not its length. */
	KUNIT_EXPECT_EQ(test, type_line("help 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"), -EINVAL);
	KUNIT_EXPECT_STREQ(test, said, "help: COMMAND must be one that 'help' lists (got '1')\n");
}

static void refused_commands_change_nothing(struct kunit *test)
{
	static const char *const lines[] = {
		"alloc -1", "alloc 3dma", "alloc 4294967297", "alloc 3 dmx", "alloc 1 dma 3",
		"free abc", "free 511", "frag 0", "frag 100000000", "ipi 0 abc", "ipi 0 0",
		"shootdown 0", "shootdown 513",
	};
	unsigned long free = nr_free_pages(), allocs = global_vm_event(PGALLOC);

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		KUNIT_EXPECT_LT_MSG(test, type_line(lines[i]), 0, "%s", lines[i]);
		KUNIT_EXPECT_EQ_MSG(test, nr_free_pages(), free, "%s", lines[i]);
		KUNIT_EXPECT_EQ_MSG(test, global_vm_event(PGALLOC), allocs, "%s", lines[i]);
		/* one line, ending the text */
		KUNIT_EXPECT_PTR_EQ_MSG(test, strchr(said, '\n'), said + strlen(said) - 1,
					"%s said: %s", lines[i], said);
	}
}

/* The number just after @label in said[], or ~0UL. */
static unsigned long number_after(const char *label)
{
	const char *p = strstr(said, label);
	char digits[24];
	unsigned long v;
	size_t n = 0;

	if (!p)
		return ~0UL;
	for (p += strlen(label); *p >= '0' && *p <= '9' && n < sizeof(digits) - 1; p++)
		digits[n++] = *p;
	digits[n] = '\0';
	return kstrtoul(digits, 10, &v) ? ~0UL : v;
}

struct tlb_counts {
	unsigned long remote, received, one, all, tlb_ipis[NR_CPUS];
};

static struct tlb_counts tlb_counts_now(void)
{
	struct tlb_counts c = {
		.remote = global_vm_event(NR_TLB_REMOTE_FLUSH),
		.received = global_vm_event(NR_TLB_REMOTE_FLUSH_RECEIVED),
		.one = global_vm_event(NR_TLB_LOCAL_FLUSH_ONE),
		.all = global_vm_event(NR_TLB_LOCAL_FLUSH_ALL),
	};
	unsigned int cpu;

	for_each_online_cpu(cpu)
		c.tlb_ipis[cpu] = per_cpu_ptr(&irq_stat, cpu)->irq_tlb_count;
	return c;
}

/*
 * One `shootdown PAGES` on all n CPUs: two shootdowns (the step "flush" and
 * the unmap), each reaching the n - 1 others; and this CPU's local flush
 * after the remap.  Up to the ceiling each flush is page by page.
 */
static void shootdown_moves_the_counters(struct kunit *test, unsigned long pages,
					bool expect_stale)
{
	unsigned long n = num_online_cpus(), free;
	bool by_page = pages <= tlb_single_page_flush_ceiling;
	struct tlb_counts c0, c1;
	unsigned long blocks[NR_PAGE_ORDERS] = { 0 };
	char line[32];
	unsigned int cpu;

	blocks[get_order(pages * PAGE_SIZE)] = 2;	/* the command's two frames of @pages */
	need_free_blocks(test, NULL, blocks);
	snprintf(line, sizeof(line), "shootdown %lu", pages);
	/* The first run ever may allocate the range's page table; that one stays. */
	KUNIT_ASSERT_EQ(test, type_line(line), 0);
	free = nr_free_pages();
	c0 = tlb_counts_now();
	KUNIT_ASSERT_EQ_MSG(test, type_line(line), 0, "%s", said);
	c1 = tlb_counts_now();

	KUNIT_EXPECT_EQ(test, number_after("every CPU reads every page: "), n * pages);
	if (n > 1 && expect_stale)
		KUNIT_EXPECT_GT_MSG(test, number_after("other CPUs read again: "), 0,
				    "no stale TLB entry seen: %s", said);
	KUNIT_EXPECT_EQ(test, c1.remote - c0.remote, n > 1 ? 2 : 0);
	KUNIT_EXPECT_EQ(test, c1.received - c0.received, 2 * (n - 1));
	KUNIT_EXPECT_EQ(test, c1.one - c0.one, by_page ? 2 * n * pages + pages : 0);
	KUNIT_EXPECT_EQ(test, c1.all - c0.all, by_page ? 0 : 2 * n + 1);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, c1.tlb_ipis[cpu] - c0.tlb_ipis[cpu],
				    cpu == smp_processor_id() ? 0 : 2, "cpuinfo of CPU%u", cpu);
	KUNIT_EXPECT_FALSE(test, kernel_page_mapped(TLB_SCRATCH_START));
	KUNIT_EXPECT_FALSE(test, kernel_page_mapped(TLB_SCRATCH_START + (pages - 1) * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);
}

static void shootdown_page_by_page(struct kunit *test)
{
	/* Few pages: QEMU's per-vCPU TLB keeps them all (smp_tlb proves it at length). */
	shootdown_moves_the_counters(test, 8, true);
}

static void shootdown_above_the_ceiling(struct kunit *test)
{
	shootdown_moves_the_counters(test, tlb_single_page_flush_ceiling + 1, false);
}

static void shootdown_of_the_whole_range(struct kunit *test)
{
	shootdown_moves_the_counters(test, TLB_SCRATCH_PAGES, false);
}

static struct kunit_case monitor_cases[] = {
	KUNIT_CASE(numbers_are_checked_one_line_each),
	KUNIT_CASE(keywords_and_literal_words),
	KUNIT_CASE(addresses_are_hex),
	KUNIT_CASE(whole_lines_are_refused_before_anything_runs),
	KUNIT_CASE(refused_commands_change_nothing),
	KUNIT_CASE(shootdown_page_by_page),
	KUNIT_CASE(shootdown_above_the_ceiling),
	KUNIT_CASE(shootdown_of_the_whole_range),
	{}
};

static struct kunit_suite monitor_suite = {
	.name = "monitor",
	.test_cases = monitor_cases,
	.strict = true,
};
kunit_test_suite(monitor_suite);
