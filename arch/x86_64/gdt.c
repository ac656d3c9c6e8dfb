/*
 * arch/x86_64/gdt.c - each CPU's GDT and TSS.
 *
 * In long mode segments are almost gone: the GDT needs a code and a data
 * descriptor and little else.  What still matters is the TSS, for one thing:
 * its interrupt stack table (IST).  A double fault caused by a stack
 * overflow cannot push its frame on the broken stack, so the IDT sends it
 * (and NMIs and machine checks, which can arrive at any moment) to a known
 * good stack listed here.  Every CPU needs its own TSS and so its own GDT.
 */
#include "arch/x86_64/gdt.h"
#include "kernel/config.h"
#include "lib/compiler.h"
#include "lib/string.h"


struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct gdt_ptr {
	u16 limit;
	u64 base;
} __packed;

struct cpu_gdt {
	u64 entries[5];		/* null, code, data, TSS (two slots) */
	struct tss tss;
};

static struct cpu_gdt cpu_gdts[NR_CPUS] __aligned(64);
static u8 boot_ist_stacks[IST_STACKS_SIZE] __aligned(16);

static u64 tss_descriptor_low(const struct tss *tss)
{
	u64 base = (u64)tss, limit = sizeof(*tss) - 1;

	return (limit & 0xffff) | ((base & 0xffffff) << 16) |
	       (0x89ULL << 40) |			/* present, 64-bit TSS */
	       (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
}

/**
 * gdt_init_cpu - build and load the GDT and TSS of CPU @cpu
 * @cpu: index of the calling CPU
 * @ist_area: IST_STACKS_SIZE bytes for its interrupt stacks, or NULL for
 *            the boot CPU's static ones
 *
 * Context: early boot or AP start-up, on the CPU being set up.
 */
void gdt_init_cpu(unsigned int cpu, void *ist_area)
{
	u8 *ist = ist_area ? ist_area : boot_ist_stacks;
	struct cpu_gdt *g = &cpu_gdts[cpu];
	struct gdt_ptr ptr = { sizeof(g->entries) - 1, (u64)g->entries };

	g->entries[0] = 0;
	g->entries[1] = 0x00af9a000000ffffULL;	/* 64-bit code, ring 0 */
	g->entries[2] = 0x00cf92000000ffffULL;	/* data, ring 0 */
	g->entries[3] = tss_descriptor_low(&g->tss);
	g->entries[4] = (u64)&g->tss >> 32;

	memset(&g->tss, 0, sizeof(g->tss));
	for (int i = 0; i < 3; i++)
		g->tss.ist[i] = (u64)(ist + (i + 1) * IST_STACK_SIZE);
	g->tss.iomap_base = sizeof(g->tss);

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"mov %1, %%ds\n\t"
		"mov %1, %%es\n\t"
		"mov %1, %%ss\n\t"
		"pushq %2\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"ltr %w3"
		: : "m"(ptr), "r"((u64)KERNEL_DS), "i"(KERNEL_CS), "r"(KERNEL_TSS)
		: "rax", "memory");
}
