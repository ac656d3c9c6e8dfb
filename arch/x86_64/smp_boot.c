/*
 * arch/x86_64/smp_boot.c - finding the CPUs and starting them.
 *
 * The MADT lists every CPU's local APIC.  The boot CPU (the one GRUB ran
 * on) becomes CPU 0; each other enabled entry gets the next number, up to
 * NR_CPUS.  For each, smp_init() prepares what the CPU will need before it
 * runs a single instruction of C: a per-CPU area, a stack with an unmapped
 * guard page under it, interrupt stacks for its TSS, and the trampoline's
 * parameters.  Then the wake-up sequence of the Intel SDM (vol. 3, 8.4.4
 * and the MultiProcessor Specification B.4):
 *
 *	INIT (assert; de-assert after 10 ms)
 *	STARTUP, vector 0x08 (start at 0x8000)      wait 200 us
 *	STARTUP again, unless the CPU already answered; wait 200 us
 *
 * The delays are timed with udelay()/mdelay() on the TSC calibrated against
 * the PIT.  The AP runs boot/trampoline.asm up to long mode and then
 * start_secondary() below, which loads its own GDT/TSS, the shared IDT,
 * enables its local APIC and timer, marks itself online and enters the idle
 * loop.  The boot CPU waits for the "online" bit for smp_boot_timeout_ms;
 * a CPU that has not come by then is reported, sent INIT again (which
 * parks it in wait-for-SIPI, so it cannot wake up later on a stack that is
 * no longer its own) and left out.  An AP may reach its online mark just as
 * the time runs out: one state word per CPU, which the AP and the boot CPU
 * both move on with cmpxchg, decides which of them was first (as Linux's
 * cpuhp_ap_sync), so that a CPU never appears online and is then sent INIT.
 * CPUs are started one at a time, since they share the trampoline page.
 *
 * Memory: each AP's stack and interrupt stacks come from the page
 * allocator, through the function kmain registers with
 * smp_set_page_allocator() (arch code does not call mm/ itself).  The
 * direct map uses large pages, so a stack there could not have a guard
 * page: each stack is mapped again in the CPU stack area (CPU_STACKS_START,
 * one slot per CPU), where the page below it is simply never mapped.
 */
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/timer.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TRAMPOLINE_BASE		0x8000
#define AP_STACK_ORDER		2	/* 16 KiB stacks */
#define AP_STACK_SIZE		(PAGE_SIZE << AP_STACK_ORDER)
#define AP_STACK_SLOT		(AP_STACK_SIZE + PAGE_SIZE)	/* guard page, then the stack */
#define AP_IST_ORDER		4	/* 64 KiB: room for the IST_STACKS_SIZE of gdt.h */

/* Must match the tr_params block in boot/trampoline.asm */
struct trampoline_params {
	u32 cr3;
	u32 efer;
	u64 kernel_cr3;
	u64 cr4;
	u64 gs_base;
	u64 stack;
	u64 entry;
	u64 cpu;
} __packed;

extern const char trampoline_start[], trampoline_end[], trampoline_params[];
extern const char ap_entry64[];
void start_secondary(unsigned long cpu);

static void *cpu_stack_area[NR_CPUS], *cpu_ist_area[NR_CPUS];	/* direct-map addresses */
static void *(*ap_alloc_pages)(unsigned int order);
static void (*ap_free_pages)(void *addr, unsigned int order);

/* The temporary page tables the APs turn paging on with (see trampoline.asm) */
static u64 tmp_pml4[512] __aligned(PAGE_SIZE);
static u64 tmp_pdpt[512] __aligned(PAGE_SIZE);
static u64 tmp_pd[512] __aligned(PAGE_SIZE);

static struct madt_info madt;
static unsigned int nr_left_out;

/*
 * Where an AP's bring-up stands (Linux's cpuhp_ap_sync states, the few
 * used here): KICKED from before STARTUP until the AP (ONLINE) or the boot
 * CPU at its timeout (SHOULD_DIE) moves it on; see smp_ap_mark_online().
 */
enum ap_sync_state { SYNC_STATE_DEAD, SYNC_STATE_KICKED, SYNC_STATE_SHOULD_DIE, SYNC_STATE_ONLINE };
static int ap_sync_state[NR_CPUS];

/* How long the boot CPU waits for an AP; the tests that time out shorten it. */
unsigned long smp_boot_timeout_ms = 2000;

/* A test's stand-in for an AP that reaches smp_ap_mark_online() just after the timeout. */
void (*smp_boot_after_timeout)(unsigned int cpu);

/** smp_boot_failed_cpus - how many MADT CPUs did not come online (for tests) */
unsigned int smp_boot_failed_cpus(void)
{
	return nr_left_out;
}

/**
 * smp_set_page_allocator - where AP stacks come from, and go back to
 * @alloc: returns the direct-map address of 2^order zeroed pages, or NULL
 * @free: takes back what @alloc gave, for a CPU that did not come online
 *
 * Context: boot, before smp_init().
 */
void smp_set_page_allocator(void *(*alloc)(unsigned int order),
			    void (*free)(void *addr, unsigned int order))
{
	ap_alloc_pages = alloc;
	ap_free_pages = free;
}

/** ap_stack_bottom - lowest address of AP @cpu's stack; the page below is its guard */
unsigned long ap_stack_bottom(unsigned int cpu)
{
	return CPU_STACKS_START + cpu * AP_STACK_SLOT + PAGE_SIZE;
}

/*
 * A stack for @cpu: fresh pages mapped into its slot of the CPU stack
 * area, above the slot's first page, which stays unmapped as the guard.
 * Returns the top of the stack, or 0 if there is no memory for it.
 */
static unsigned long map_ap_stack(unsigned int cpu)
{
	unsigned long bottom = ap_stack_bottom(cpu);
	u8 *mem = ap_alloc_pages ? ap_alloc_pages(AP_STACK_ORDER) : NULL;

	if (!mem)
		return 0;
	if (map_kernel_range(bottom, __pa(mem), AP_STACK_SIZE, PAGE_KERNEL, GFP_KERNEL)) {
		ap_free_pages(mem, AP_STACK_ORDER);
		return 0;
	}
	cpu_stack_area[cpu] = mem;
	return bottom + AP_STACK_SIZE;
}

/*
 * Give back the stacks of a CPU that did not come online: it never ran, or
 * INIT has parked it, so nothing runs on them.  Only this CPU wrote to the
 * stack's mapping, so only its TLB may hold it.
 */
static void free_ap_stacks(unsigned int cpu)
{
	unsigned long bottom = ap_stack_bottom(cpu);

	if (cpu_stack_area[cpu]) {
		unmap_kernel_range(bottom, AP_STACK_SIZE);
		for (unsigned long va = bottom; va < bottom + AP_STACK_SIZE; va += PAGE_SIZE)
			invlpg(va);
		ap_free_pages(cpu_stack_area[cpu], AP_STACK_ORDER);
		cpu_stack_area[cpu] = NULL;
	}
	if (cpu_ist_area[cpu]) {
		ap_free_pages(cpu_ist_area[cpu], AP_IST_ORDER);
		cpu_ist_area[cpu] = NULL;
	}
}

/**
 * start_secondary - the first C function an AP runs
 * @cpu: its logical number (the GS base already points at its per-CPU area)
 *
 * Context: the AP, interrupts off, on its own stack, on the kernel's page
 * tables.  Does not return: ends in the idle loop.
 */
void start_secondary(unsigned long cpu)
{
	gdt_init_cpu(cpu, cpu_ist_area[cpu]);
	idt_load();
	lapic_setup_cpu(false);
	if (read_apic_id() != cpu_apic_id(cpu))
		pr_warn("smp: CPU%lu expected APIC id %u, has %u\n", cpu,
			cpu_apic_id(cpu), read_apic_id());
	lapic_timer_start_periodic(HZ);
	smp_ap_mark_online(cpu);
	cpu_idle();
}

/**
 * smp_ap_mark_online - AP @cpu goes online, unless the boot CPU gave up on it
 * @cpu: the calling AP (or a test playing it)
 *
 * The AP and the boot CPU each try to move ap_sync_state[@cpu] on from
 * SYNC_STATE_KICKED with a cmpxchg: the first one decides.  If the AP
 * wins, it is online and the boot CPU keeps it; if the boot CPU won (its
 * timeout passed), INIT is on its way: the AP must not appear online even
 * for a moment (a cross-CPU call queued to it would never complete), so it
 * waits for INIT with interrupts off.
 * Context: start_secondary(), interrupts off.
 */
void smp_ap_mark_online(unsigned int cpu)
{
	int kicked = SYNC_STATE_KICKED;

	if (!__atomic_compare_exchange_n(&ap_sync_state[cpu], &kicked, SYNC_STATE_ONLINE, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		for (;;)
			halt();		/* too late: the boot CPU is sending INIT */
	}
	cpumask_set_cpu(cpu, &__cpu_online_mask);
}

/**
 * smp_boot_forget_cpu - undo add_cpu() of a CPU that runs nothing
 * @cpu: a test's stand-in, online by smp_ap_mark_online() on its behalf
 *
 * Context: the tests; nothing may have called @cpu meanwhile.
 */
void smp_boot_forget_cpu(unsigned int cpu)
{
	cpumask_clear_cpu(cpu, &__cpu_online_mask);
	free_ap_stacks(cpu);
	__atomic_store_n(&ap_sync_state[cpu], SYNC_STATE_DEAD, __ATOMIC_RELAXED);
}

/* The boot CPU's half: false if the AP went online after all, just before. */
static bool ap_sync_give_up(unsigned int cpu)
{
	int kicked = SYNC_STATE_KICKED;

	return __atomic_compare_exchange_n(&ap_sync_state[cpu], &kicked, SYNC_STATE_SHOULD_DIE,
					   false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static void setup_temporary_tables(void)
{
	const u64 *kernel_pml4 = __va(read_cr3() & PAGE_MASK);

	memset(tmp_pml4, 0, sizeof(tmp_pml4));
	tmp_pd[0] = 0 | _PAGE_PRESENT | _PAGE_RW | _PAGE_PSE;	/* 0..2 MiB */
	tmp_pdpt[0] = __pa(tmp_pd) | _PAGE_PRESENT | _PAGE_RW;
	tmp_pml4[0] = __pa(tmp_pdpt) | _PAGE_PRESENT | _PAGE_RW;
	for (int i = 256; i < 512; i++)
		tmp_pml4[i] = kernel_pml4[i];
}

/* Did @cpu come online within @ms? */
static bool wait_for_online(unsigned int cpu, unsigned long ms)
{
	u64 deadline = ktime_get_ns() + ms * 1000000ULL;

	while (ktime_get_ns() < deadline) {
		if (cpu_online(cpu))
			return true;
		cpu_relax();
	}
	if (smp_boot_after_timeout)
		smp_boot_after_timeout(cpu);
	if (ap_sync_give_up(cpu))
		return false;
	/* it won the race: its online bit follows its state at once */
	while (!cpu_online(cpu))
		cpu_relax();
	return true;
}

static int do_boot_cpu(unsigned int cpu, struct trampoline_params *params)
{
	u32 apicid = cpu_apic_id(cpu);
	unsigned long stack_top;
	u64 t0;

	BUILD_BUG_ON((PAGE_SIZE << AP_IST_ORDER) < IST_STACKS_SIZE);
	if (!per_cpu_offset(cpu)) {
		pr_err("smp: CPU%u (APIC id %u): no per-CPU area; left out\n", cpu, apicid);
		return -1;
	}
	stack_top = map_ap_stack(cpu);
	cpu_ist_area[cpu] = ap_alloc_pages ? ap_alloc_pages(AP_IST_ORDER) : NULL;
	if (!stack_top || !cpu_ist_area[cpu]) {
		pr_err("smp: CPU%u (APIC id %u): no memory for its stacks; left out\n", cpu, apicid);
		free_ap_stacks(cpu);
		return -1;
	}

	setup_temporary_tables();
	params->cr3 = (u32)__pa(tmp_pml4);
	/* LME and NXE (and SCE if set); LMA is read-only and set by the CPU itself */
	params->efer = (u32)(rdmsr(MSR_EFER) & (EFER_LME | EFER_NXE | EFER_SCE));
	params->kernel_cr3 = read_cr3();
	params->cr4 = read_cr4();
	params->gs_base = per_cpu_offset(cpu);
	params->stack = stack_top;
	params->entry = (u64)ap_entry64;
	params->cpu = cpu;
	__atomic_store_n(&ap_sync_state[cpu], SYNC_STATE_KICKED, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	t0 = ktime_get_ns();
	if (apic_send_init(apicid))
		pr_warn("smp: CPU%u: INIT not accepted by the local APIC\n", cpu);
	for (int i = 0; i < 2 && !cpu_online(cpu); i++) {
		if (apic_send_startup(apicid, TRAMPOLINE_BASE >> 12))
			pr_warn("smp: CPU%u: STARTUP #%d: APIC send error\n", cpu, i + 1);
		udelay(200);
	}
	if (!wait_for_online(cpu, smp_boot_timeout_ms)) {
		pr_err("smp: CPU%u (APIC id %u) did not come online within %lu ms of "
		       "INIT-SIPI-SIPI; left out\n", cpu, apicid, smp_boot_timeout_ms);
		/* park it: it never went online, and must not run on stacks freed now */
		apic_send_init(apicid);
		free_ap_stacks(cpu);
		__atomic_store_n(&ap_sync_state[cpu], SYNC_STATE_DEAD, __ATOMIC_RELAXED);
		return -1;
	}
	pr_info("smp: CPU%u (APIC id %u) online after %llu us\n", cpu, apicid,
		(unsigned long long)(ktime_get_ns() - t0) / 1000);
	return 0;
}

/*
 * The boot CPU's APIC id, from CPUID (its local APIC is not mapped yet):
 * leaf 0xB gives the full x2APIC id where the CPU has it, leaf 1 the 8-bit one.
 */
static u32 boot_cpu_apic_id(void)
{
	u32 a, b, c, d;

	cpuid(0, 0, &a, &b, &c, &d);
	if (a >= 0xb) {
		cpuid(0xb, 0, &a, &b, &c, &d);
		if (b)
			return d;
	}
	cpuid(1, 0, &a, &b, &c, &d);
	return b >> 24;
}

/* Number the MADT's enabled CPUs: the boot CPU first (the only one without @have_madt). */
static void enumerate_cpus(bool have_madt)
{
	u32 bsp_apicid = boot_cpu_apic_id();
	unsigned int next = 1, disabled = 0, too_many = 0;

	x86_cpu_to_apicid[0] = bsp_apicid;
	cpumask_set_cpu(0, &__cpu_possible_mask);
	for (unsigned int i = 0; i < madt.nr_cpus; i++) {
		const struct madt_cpu *c = &madt.cpus[i];

		if (c->apic_id == bsp_apicid)
			continue;
		if (!c->enabled) {
			disabled++;
			continue;
		}
		if (next >= NR_CPUS) {
			too_many++;
			continue;
		}
		x86_cpu_to_apicid[next] = c->apic_id;
		cpumask_set_cpu(next++, &__cpu_possible_mask);
	}
	if (!have_madt)
		return;
	pr_info("ACPI: MADT: %u CPU entries (%u disabled by the firmware%s), %u I/O APIC%s, "
		"%u IRQ override%s, local APIC at %#llx\n",
		madt.nr_cpus, disabled, disabled ? ", left out" : "", madt.nr_ioapics,
		madt.nr_ioapics == 1 ? "" : "s", madt.nr_overrides,
		madt.nr_overrides == 1 ? "" : "s", (unsigned long long)madt.lapic_addr);
	for (unsigned int i = 0; i < madt.nr_ioapics; i++)
		pr_info("ACPI: IOAPIC id %u at %#x, GSI base %u\n", madt.ioapics[i].id,
			madt.ioapics[i].address, madt.ioapics[i].gsi_base);
	if (too_many)
		pr_warn("smp: %u CPUs beyond NR_CPUS=%u left out\n", too_many, NR_CPUS);
}

/* Copy the trampoline below 1 MiB (once); return its parameter block. */
static struct trampoline_params *trampoline_install(void)
{
	static struct trampoline_params *params;
	u8 *tramp;

	if (params)
		return params;
	tramp = memremap(TRAMPOLINE_BASE, PAGE_SIZE);
	if (!tramp)
		panic("smp: cannot map the trampoline page");
	memcpy(tramp, trampoline_start, trampoline_end - trampoline_start);
	params = (void *)(tramp + (trampoline_params - trampoline_start));
	return params;
}

/**
 * add_cpu - bring possible CPU @cpu online (Linux's name)
 * @cpu: a CPU number in cpu_possible_mask
 *
 * smp_init() does this for every CPU of the MADT; tests call it to watch
 * the "did not come online" path with a CPU that does not answer.
 * Context: boot CPU, interrupts on or off; waits up to smp_boot_timeout_ms.
 * Return: 0 (also if already online), -EINVAL if @cpu is not possible,
 * -EIO if it did not come online (it is reported and left out).
 */
int add_cpu(unsigned int cpu)
{
	if (cpu >= NR_CPUS || !cpu_possible(cpu))
		return -EINVAL;
	if (cpu_online(cpu))
		return 0;
	return do_boot_cpu(cpu, trampoline_install()) ? -EIO : 0;
}

/**
 * prefill_possible_map - number the CPUs the MADT lists (Linux's name)
 *
 * Fills cpu_possible_mask, so that every possible CPU can be given its
 * per-CPU area before memory allocators start (setup_per_cpu_areas()).
 * Without an MADT the machine has one CPU.
 * Context: boot CPU, once, after acpi_init().
 */
void prefill_possible_map(void)
{
	bool have_madt = !acpi_parse_madt(&madt);

	/* Linux would read the firmware's MP table then; this kernel reads ACPI only */
	if (!have_madt)
		pr_warn("ACPI: no MADT; assuming one CPU (without ACPI the others are not found)\n");
	enumerate_cpus(have_madt);
}

/**
 * smp_init - start the local APICs and the tick, and bring every other
 * possible CPU online
 *
 * Context: boot CPU, after prefill_possible_map() and setup_per_cpu_areas()
 * and after the kernel runs on its own page tables (the APIC registers are
 * ioremap()ed into them); interrupts off.  Enables interrupts on the boot
 * CPU at the end.  A CPU that does not start is reported and left out; the
 * kernel goes on with the others.
 */
void smp_init(void)
{
	unsigned int cpu;

	lapic_init(madt.lapic_addr);
	time_init();
	cpumask_set_cpu(0, &__cpu_online_mask);

	for_each_possible_cpu(cpu) {
		if (cpu && add_cpu(cpu))
			nr_left_out++;
	}
	smp_cpus_done();
	local_irq_enable();
	system_state = SYSTEM_RUNNING;
}
