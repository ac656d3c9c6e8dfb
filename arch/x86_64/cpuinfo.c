/*
 * arch/x86_64/cpuinfo.c - the `cpuinfo` monitor command: what CPUID says,
 * then one line per CPU the MADT listed: its APIC id, whether it is online,
 * the timer ticks and the IPIs it has taken (function calls, of which TLB
 * shootdowns, and wake-ups).
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/timer.h"
#include "kernel/smp.h"
#include "kernel/monitor.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct feature {
	const char *name;
	u32 leaf;
	char reg;		/* 'c' or 'd' */
	u8 bit;
};

/* The features this kernel's memory code cares about. */
static const struct feature features[] = {
	{ "tsc", 1, 'd', 4 }, { "msr", 1, 'd', 5 }, { "pae", 1, 'd', 6 },
	{ "apic", 1, 'd', 9 }, { "pge", 1, 'd', 13 }, { "pse", 1, 'd', 3 },
	{ "x2apic", 1, 'c', 21 }, { "tsc_deadline", 1, 'c', 24 },
	{ "hypervisor", 1, 'c', 31 },
	{ "nx", 0x80000001, 'd', 20 }, { "pdpe1gb", 0x80000001, 'd', 26 },
	{ "lm", 0x80000001, 'd', 29 },
	{ "invariant_tsc", 0x80000007, 'd', 8 },
};

static void print_brand(void)
{
	u32 regs[12], a, b, c, d;

	cpuid(0x80000000, 0, &a, &b, &c, &d);
	if (a < 0x80000004)
		return;
	for (u32 i = 0; i < 3; i++)
		cpuid(0x80000002 + i, 0, &regs[i * 4], &regs[i * 4 + 1],
		      &regs[i * 4 + 2], &regs[i * 4 + 3]);
	printk("model name : %.48s\n", (const char *)regs);
}

static void print_cpus(void)
{
	unsigned int cpu;

	printk("apic mode  : %s, TSC %lu kHz, tick %u Hz, jiffies %lu\n",
	       x2apic_enabled ? "x2APIC" : "xAPIC", tsc_khz, HZ, jiffies);
	printk("cpus       : %u online of %u possible (%u did not start)\n",
	       num_online_cpus(), num_possible_cpus(), smp_boot_failed_cpus());
	printk("%5s %8s %8s %10s %10s %8s %8s\n", "CPU", "APIC id", "state", "ticks",
	       "call IPIs", "of TLB", "wakeups");
	for_each_possible_cpu(cpu) {
		const struct irq_cpustat *st = per_cpu_ptr(&irq_stat, cpu);

		printk("%5u %8u %8s %10lu %10lu %8lu %8lu\n", cpu, cpu_apic_id(cpu),
		       cpu_online(cpu) ? "online" : "offline", st->apic_timer_irqs,
		       st->irq_call_count, st->irq_tlb_count, st->irq_resched_count);
	}
}

static int cmd_cpuinfo(int argc, char **argv)
{
	u32 a, b, c, d, vendor[3], max_ext;

	(void)argc;
	(void)argv;
	cpuid(0, 0, &a, &vendor[0], &vendor[2], &vendor[1]);
	printk("vendor_id  : %.12s\n", (const char *)vendor);
	cpuid(1, 0, &a, &b, &c, &d);
	printk("cpu family : %u\nmodel      : %u\nstepping   : %u\n",
	       ((a >> 8) & 0xf) + ((a >> 20) & 0xff), ((a >> 4) & 0xf) | ((a >> 12) & 0xf0),
	       a & 0xf);
	print_brand();
	cpuid(0x80000000, 0, &max_ext, &b, &c, &d);
	printk("flags      :");
	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		const struct feature *f = &features[i];

		if (f->leaf >= 0x80000000 && f->leaf > max_ext)
			continue;
		cpuid(f->leaf, 0, &a, &b, &c, &d);
		if (((f->reg == 'c' ? c : d) >> f->bit) & 1)
			printk(KERN_CONT " %s", f->name);
	}
	printk(KERN_CONT "\n");
	print_cpus();
	return 0;
}
MONITOR_COMMAND(cpuinfo, "",
		"the CPU's identity and features; every CPU: APIC id, online, ticks, IPIs",
		cmd_cpuinfo);
