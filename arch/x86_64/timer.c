/*
 * arch/x86_64/timer.c - calibrate the TSC and the APIC timer against the PIT.
 *
 * The 8254 PIT counts a 1.193182 MHz clock, the one frequency on a PC that
 * is known in advance.  Its channel 2, whose gate and output are bits 0 and
 * 5 of port 0x61, can be used without interrupts: program a count in mode 0
 * ("interrupt on terminal count") and the output goes high when it reaches
 * zero.  time_init() reads the TSC and the APIC timer's count when the
 * count is written and again when the output rises, 50 ms later: that gives
 * both frequencies, with the PIT's accuracy.
 *
 * ktime_get_ns() converts TSC cycles since time_init() with a 32.32 fixed
 * point multiplier (no division, no floating point).  Under QEMU the TSC of
 * all vCPUs is one clock, so the value is also comparable across CPUs.
 */
#include "arch/x86_64/timer.h"
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "kernel/printk.h"
#include "kernel/smp.h"

#define PIT_HZ			1193182
#define PIT_CALIBRATE_MS	50
#define PIT_CH2			0x42
#define PIT_MODE		0x43
#define PIT_GATE_PORT		0x61	/* bit 0: ch2 gate, bit 1: speaker, bit 5: ch2 output */

unsigned long tsc_khz;
volatile unsigned long jiffies;
static u64 tsc_at_init;
static u64 ns_per_cycle_32_32;		/* nanoseconds per TSC cycle, << 32 */

/* Start channel 2 counting @count ticks in mode 0; its output rises at zero. */
static void pit_start(u16 count)
{
	outb(PIT_GATE_PORT, (inb(PIT_GATE_PORT) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(PIT_MODE, 0xb0);		/* channel 2, lobyte/hibyte, mode 0, binary */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);	/* counting starts now */
}

static bool pit_expired(void)
{
	return inb(PIT_GATE_PORT) & 0x20;
}

/**
 * time_init - measure the TSC and APIC timer frequencies; start the tick
 *
 * Context: boot CPU, after lapic_init(), with interrupts off (they would
 * only lengthen the measurement).
 */
void time_init(void)
{
	u64 t0, t1;
	u32 l0, l1;

	lapic_timer_start_oneshot_masked();
	pit_start(PIT_HZ / 1000 * PIT_CALIBRATE_MS);
	t0 = rdtsc_ordered();
	l0 = lapic_timer_current();
	while (!pit_expired())
		cpu_relax();
	t1 = rdtsc_ordered();
	l1 = lapic_timer_current();

	tsc_khz = (t1 - t0) / PIT_CALIBRATE_MS;
	lapic_timer_ticks_per_ms = (l0 - l1) / PIT_CALIBRATE_MS;
	if (!tsc_khz)
		tsc_khz = 1;
	ns_per_cycle_32_32 = (1000000ULL << 32) / tsc_khz;
	tsc_at_init = t1;
	pr_info("time: TSC %lu.%03lu MHz, APIC timer %u.%03u MHz (/16), measured over %u ms of PIT\n",
		tsc_khz / 1000, tsc_khz % 1000, lapic_timer_ticks_per_ms / 1000,
		lapic_timer_ticks_per_ms % 1000, PIT_CALIBRATE_MS);
	lapic_timer_start_periodic(HZ);
}

/**
 * ktime_get_ns - nanoseconds since time_init(), from the TSC
 *
 * Context: any.  Return: 0 before time_init().
 */
u64 ktime_get_ns(void)
{
	u64 cycles;

	if (!tsc_at_init)
		return 0;
	cycles = rdtsc_ordered() - tsc_at_init;
	return (u64)(((unsigned __int128)cycles * ns_per_cycle_32_32) >> 32);
}

/**
 * udelay - busy-wait @usecs microseconds
 *
 * Context: any, after time_init() (before it, assumes a 1 GHz TSC).
 */
void udelay(unsigned long usecs)
{
	u64 khz = tsc_khz ? tsc_khz : 1000000;
	u64 start = rdtsc_ordered(), cycles = usecs * khz / 1000;

	while (rdtsc_ordered() - start < cycles)
		cpu_relax();
}

/** mdelay - busy-wait @msecs milliseconds */
void mdelay(unsigned long msecs)
{
	while (msecs--)
		udelay(1000);
}

/**
 * timer_tick - the periodic tick, on every CPU
 *
 * Context: the APIC timer interrupt.  CPU 0 advances jiffies.
 */
void timer_tick(void)
{
	if (smp_processor_id() == 0)
		jiffies++;
}
