/*
 * arch/x86_64/apic.c - the local APIC: registers, IPIs, its timer, its vectors.
 *
 * The boot CPU finds the APIC's physical address in IA32_APIC_BASE (the
 * MADT says the same, and an MADT override entry can change it) and maps
 * the register page uncached with ioremap().  Every CPU then enables its
 * own APIC in lapic_setup_cpu(): spurious vector and software enable in
 * the SVR, an error vector, task priority 0 so every vector is accepted.
 *
 * x2APIC mode is used when CPUID.1:ECX[21] says the CPU has it (each CPU
 * switches its own APIC): registers become MSRs 0x800 + offset/16, and the
 * ICR is one 64-bit MSR write with no "send pending" bit to poll.  QEMU's
 * TCG (7.2) offers no x2APIC, so under the test matrix the xAPIC path is
 * the one exercised.
 *
 * Interrupt handlers registered here: the APIC timer (the tick), the
 * function-call IPI (kernel/smp.c does the work), the reschedule IPI (only
 * wakes a CPU from hlt, for deferred work), the APIC error interrupt and
 * the spurious vector (which, unlike all others, must not be acknowledged
 * with an EOI).  Each counts in the per-CPU irq_stat.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/pgtable.h"
#include "arch/x86_64/timer.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/smp.h"

#define MSR_IA32_APICBASE	0x1b
#define APICBASE_BSP		(1UL << 8)
#define APICBASE_X2APIC		(1UL << 10)
#define APICBASE_ENABLE		(1UL << 11)
#define APICBASE_ADDR_MASK	0x000ffffffffff000UL

/* Register offsets in the xAPIC page (x2APIC MSR = 0x800 + offset / 16) */
#define APIC_ID			0x20
#define APIC_LVR		0x30
#define APIC_TASKPRI		0x80
#define APIC_EOI		0xb0
#define APIC_SPIV		0xf0
#define APIC_ESR		0x280
#define APIC_ICR		0x300
#define APIC_ICR2		0x310
#define APIC_LVTT		0x320
#define APIC_LVT0		0x350
#define APIC_LVT1		0x360
#define APIC_LVTERR		0x370
#define APIC_TMICT		0x380
#define APIC_TMCCT		0x390
#define APIC_TDCR		0x3e0

#define APIC_SPIV_ENABLE	(1U << 8)
#define APIC_LVT_MASKED		(1U << 16)
#define APIC_LVT_TIMER_PERIODIC	(1U << 17)
#define APIC_DM_NMI		0x400
#define APIC_TDR_DIV_16		0x3

/* ICR low word */
#define APIC_DM_FIXED		0x000
#define APIC_DM_INIT		0x500
#define APIC_DM_STARTUP		0x600
#define APIC_ICR_BUSY		(1U << 12)
#define APIC_INT_ASSERT		(1U << 14)
#define APIC_INT_LEVELTRIG	(1U << 15)
#define APIC_DEST_ALLBUT	(3U << 18)

#define X2APIC_MSR_BASE		0x800

static volatile u32 *lapic_mmio;
bool x2apic_enabled;
u32 lapic_timer_ticks_per_ms;
u32 x86_cpu_to_apicid[NR_CPUS] = { [0 ... NR_CPUS - 1] = BAD_APICID };
DEFINE_PER_CPU(struct irq_cpustat, irq_stat);

static u32 apic_read(u32 reg)
{
	if (x2apic_enabled)
		return (u32)rdmsr(X2APIC_MSR_BASE + (reg >> 4));
	return lapic_mmio[reg / 4];
}

static void apic_write(u32 reg, u32 v)
{
	if (x2apic_enabled)
		wrmsr(X2APIC_MSR_BASE + (reg >> 4), v);
	else
		lapic_mmio[reg / 4] = v;
}

/** read_apic_id - the calling CPU's local APIC id */
u32 read_apic_id(void)
{
	if (x2apic_enabled)
		return (u32)rdmsr(X2APIC_MSR_BASE + (APIC_ID >> 4));
	return lapic_mmio[APIC_ID / 4] >> 24;
}

/** apic_eoi - tell the local APIC the current interrupt is handled */
void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

/* Wait until the xAPIC has sent the previous IPI; false if it never does. */
static bool wait_icr_idle(void)
{
	if (x2apic_enabled)
		return true;
	for (int i = 0; i < 1000000; i++) {
		if (!(apic_read(APIC_ICR) & APIC_ICR_BUSY))
			return true;
		cpu_relax();
	}
	return false;
}

/* Write the ICR: one interrupt to @apicid (or a shorthand in @low). */
static int apic_icr_write(u32 low, u32 apicid)
{
	unsigned long flags;
	int ret = 0;

	local_irq_save(flags);
	if (x2apic_enabled) {
		/* WRMSR to x2APIC registers does not order earlier stores: fence first */
		__asm__ __volatile__("mfence; lfence" : : : "memory");
		wrmsr(X2APIC_MSR_BASE + (APIC_ICR >> 4), ((u64)apicid << 32) | low);
	} else {
		if (!wait_icr_idle())
			ret = -1;
		apic_write(APIC_ICR2, apicid << 24);
		apic_write(APIC_ICR, low);
		if (!wait_icr_idle())
			ret = -1;
	}
	local_irq_restore(flags);
	return ret;
}

/**
 * apic_send_ipi - send interrupt @vector to the CPU whose APIC id is @apicid
 *
 * Context: any.
 */
void apic_send_ipi(u32 apicid, unsigned int vector)
{
	apic_icr_write(APIC_DM_FIXED | vector, apicid);
}

/** apic_send_ipi_allbutself - send @vector to every other CPU (ICR shorthand) */
void apic_send_ipi_allbutself(unsigned int vector)
{
	apic_icr_write(APIC_DEST_ALLBUT | APIC_DM_FIXED | vector, 0);
}

/**
 * apic_send_nmi_allbutself - a non-maskable interrupt to every other CPU
 *
 * Reaches a CPU even with its interrupts off (a CPU spinning on a lock);
 * panic() uses it to stop the others.
 */
void apic_send_nmi_allbutself(void)
{
	apic_icr_write(APIC_DEST_ALLBUT | APIC_DM_NMI, 0);
}

/**
 * apic_send_nmi - a non-maskable interrupt to the CPU whose APIC id is @apicid
 *
 * Nothing in the kernel sends one but panic()'s stop_other_cpus(): to its
 * target it is an NMI of unknown reason, as a watchdog's or the hypervisor's
 * (QEMU's monitor command "nmi") would be.  The tests use it.
 * Context: any.
 */
void apic_send_nmi(u32 apicid)
{
	apic_icr_write(APIC_DM_NMI, apicid);
}

/**
 * apic_send_init - send INIT (assert, then after 10 ms de-assert) to @apicid
 *
 * INIT resets the target to its wait-for-SIPI state, whatever it was doing.
 * Context: boot CPU, interrupts may be on; sleeps 10 ms (busy-waiting).
 * Return: 0, or -1 if the APIC never reported the IPI as sent.
 */
int apic_send_init(u32 apicid)
{
	int ret;

	apic_write(APIC_ESR, 0);
	ret = apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apicid);
	mdelay(10);
	/* The de-assert is for old discrete APICs; x2APIC has no such message. */
	if (!x2apic_enabled)
		ret |= apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apicid);
	return ret;
}

/**
 * apic_send_startup - send a STARTUP IPI: @apicid starts in real mode at @page << 12
 * @apicid: the target
 * @page: physical page number of the start code (below 1 MiB)
 *
 * Return: 0, or -1 if the APIC never reported the IPI as sent or flagged an error.
 */
int apic_send_startup(u32 apicid, unsigned int page)
{
	int ret;

	apic_write(APIC_ESR, 0);
	ret = apic_icr_write(APIC_DM_STARTUP | (page & 0xff), apicid);
	apic_write(APIC_ESR, 0);
	if (apic_read(APIC_ESR) & 0xef)
		ret = -1;
	return ret;
}

/** lapic_timer_start_oneshot_masked - count down from 2^32-1, no interrupt (for calibration) */
void lapic_timer_start_oneshot_masked(void)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, 0xffffffff);
}

/** lapic_timer_current - the APIC timer's current count */
u32 lapic_timer_current(void)
{
	return apic_read(APIC_TMCCT);
}

/**
 * lapic_timer_start_periodic - interrupt the calling CPU @hz times a second
 *
 * Context: after time_init() calibrated lapic_timer_ticks_per_ms.
 */
void lapic_timer_start_periodic(unsigned int hz)
{
	u32 count = lapic_timer_ticks_per_ms * 1000 / hz;

	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, count ? count : 1);
}

static void apic_timer_interrupt(struct pt_regs *regs)
{
	(void)regs;
	this_cpu_inc(irq_stat.apic_timer_irqs);
	apic_eoi();
	timer_tick();
}

static void call_function_interrupt(struct pt_regs *regs)
{
	(void)regs;
	this_cpu_inc(irq_stat.irq_call_count);
	apic_eoi();	/* first: a request queued from now on raises a new IPI */
	generic_smp_call_function_interrupt();
}

static void reschedule_interrupt(struct pt_regs *regs)
{
	(void)regs;
	this_cpu_inc(irq_stat.irq_resched_count);
	apic_eoi();	/* the CPU leaves hlt; its idle loop finds the work */
}

static void error_interrupt(struct pt_regs *regs)
{
	u32 esr;

	(void)regs;
	apic_write(APIC_ESR, 0);
	esr = apic_read(APIC_ESR);
	this_cpu_inc(irq_stat.irq_error_count);
	apic_eoi();
	pr_err("APIC error on CPU%u: ESR %#x\n", smp_processor_id(), esr);
}

static void spurious_interrupt(struct pt_regs *regs)
{
	(void)regs;
	this_cpu_inc(irq_stat.irq_spurious_count);	/* no EOI for a spurious one */
}

/**
 * lapic_setup_cpu - enable the calling CPU's local APIC
 * @bsp: true on the boot CPU, whose LINT0/LINT1 the firmware set up
 *
 * Context: interrupts off, on the CPU being set up, after lapic_init().
 */
void lapic_setup_cpu(bool bsp)
{
	if (x2apic_enabled)
		wrmsr(MSR_IA32_APICBASE,
		      rdmsr(MSR_IA32_APICBASE) | APICBASE_ENABLE | APICBASE_X2APIC);
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_SPIV, APIC_SPIV_ENABLE | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_LVTERR, ERROR_APIC_VECTOR);
	apic_write(APIC_ESR, 0);
	apic_write(APIC_ESR, 0);
	if (!bsp) {
		apic_write(APIC_LVT0, APIC_LVT_MASKED);
		apic_write(APIC_LVT1, APIC_LVT_MASKED | APIC_DM_NMI);
	}
	apic_eoi();
}

/**
 * lapic_init - find, map and enable the boot CPU's local APIC; set the vectors
 * @madt_lapic_addr: the address the MADT gives (0 if there is no MADT)
 *
 * Context: boot CPU, interrupts off, after paging is set up.
 */
void lapic_init(u64 madt_lapic_addr)
{
	u64 base = rdmsr(MSR_IA32_APICBASE);
	phys_addr_t phys = base & APICBASE_ADDR_MASK;
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	if (!(d & (1U << 9)))
		panic("this CPU has no local APIC");
	if (madt_lapic_addr && madt_lapic_addr != phys)
		pr_warn("APIC: MADT says %#llx, IA32_APIC_BASE says %#llx; using the MSR\n",
			(unsigned long long)madt_lapic_addr, (unsigned long long)phys);
	x2apic_enabled = c & (1U << 21);
	if (x2apic_enabled) {
		wrmsr(MSR_IA32_APICBASE, base | APICBASE_ENABLE | APICBASE_X2APIC);
	} else {
		wrmsr(MSR_IA32_APICBASE, base | APICBASE_ENABLE);
		lapic_mmio = ioremap(phys, PAGE_SIZE);
		if (!lapic_mmio)
			panic("APIC: cannot map the local APIC at %#llx", (unsigned long long)phys);
	}
	set_interrupt_handler(LOCAL_TIMER_VECTOR, apic_timer_interrupt);
	set_interrupt_handler(CALL_FUNCTION_VECTOR, call_function_interrupt);
	set_interrupt_handler(RESCHEDULE_VECTOR, reschedule_interrupt);
	set_interrupt_handler(ERROR_APIC_VECTOR, error_interrupt);
	set_interrupt_handler(SPURIOUS_APIC_VECTOR, spurious_interrupt);
	lapic_setup_cpu(true);
	if (read_apic_id() != x86_cpu_to_apicid[0])
		pr_warn("APIC: boot CPU APIC id %u, but CPUID said %u\n", read_apic_id(),
			x86_cpu_to_apicid[0]);
	x86_cpu_to_apicid[0] = read_apic_id();
	pr_info("APIC: local APIC at %#llx in %s mode, boot CPU APIC id %u, version %#x\n",
		(unsigned long long)phys, x2apic_enabled ? "x2APIC" : "xAPIC",
		x86_cpu_to_apicid[0], apic_read(APIC_LVR) & 0xff);
}
