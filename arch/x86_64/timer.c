/*
 * arch/x86_64/timer.c - calibrate the TSC and the APIC timer against the PIT.
 *
 * The 8254 PIT counts a 1.193182 MHz clock, the one frequency on a PC that
 * is known in advance.  time_init() programs its channel 0 with a count of
 * 50 ms in mode 0 ("interrupt on terminal count") and reads the count back
 * (latched, port 0x43) until it reaches zero and wraps, reading the TSC and
 * the APIC timer's count at the start and at the end: that gives both
 * frequencies, with the PIT's accuracy.  No interrupt is needed (they are
 * off, and the 8259 that channel 0 drives is masked); channel 0 is free,
 * the tick being the APIC timer's.  Linux uses channel 2, whose output
 * bit 5 of port 0x61 shows, but port 0x61 is the PC speaker's:
 * -machine microvm has none, reads 0xff there, and this kernel once
 * measured a TSC of 1.3 MHz on it.  Every machine with a PIT has channel 0.
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
#define PIT_CH0			0x40
#define PIT_MODE		0x43

unsigned long tsc_khz;
volatile unsigned long jiffies;
static u64 tsc_at_init;
static u64 ns_per_cycle_32_32;		/* nanoseconds per TSC cycle, << 32 */

/* Start channel 0 counting down from @count, in mode 0. */
static void pit_start(u16 count)
{
	outb(PIT_MODE, 0x30);		/* channel 0, lobyte/hibyte, mode 0, binary */
	outb(PIT_CH0, count & 0xff);
	outb(PIT_CH0, count >> 8);	/* counting starts now */
}

/* Channel 0's count now: latched first, so the two bytes belong together. */
static u16 pit_count(void)
{
	u8 lo;

	outb(PIT_MODE, 0x00);		/* latch channel 0 */
	lo = inb(PIT_CH0);
	return lo | (u16)inb(PIT_CH0) << 8;
}

/*
 * Wait until the count started at @count reaches zero: it then goes on from
 * 0xffff, so a count above the last one read is the end too.  False if
 * there is no PIT (-machine microvm,pit=off): an absent port reads 0xff.
 */
static bool pit_wait(u16 count)
{
	u16 last = count, now;

	if (pit_count() > count)
		return false;
	while ((now = pit_count()) != 0 && now <= last) {
		last = now;
		cpu_relax();
	}
	return true;
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
	if (pit_wait(PIT_HZ / 1000 * PIT_CALIBRATE_MS)) {
		t1 = rdtsc_ordered();
		l1 = lapic_timer_current();
		tsc_khz = (t1 - t0) / PIT_CALIBRATE_MS;
		lapic_timer_ticks_per_ms = (l0 - l1) / PIT_CALIBRATE_MS;
		pr_info("time: TSC %lu.%03lu MHz, APIC timer %u.%03u MHz (/16), measured over %u ms of PIT\n",
			tsc_khz / 1000, tsc_khz % 1000, lapic_timer_ticks_per_ms / 1000,
			lapic_timer_ticks_per_ms % 1000, PIT_CALIBRATE_MS);
	} else {
		/* QEMU's APIC timer counts a 1 GHz bus; its TSC is near enough */
		t1 = rdtsc_ordered();
		tsc_khz = 1000000;
		lapic_timer_ticks_per_ms = 1000000 / 16;
		pr_warn("time: no PIT to measure against (port 0x40 reads 0xff): assuming a 1 GHz TSC and APIC bus\n");
	}
	if (!tsc_khz)
		tsc_khz = 1;
	ns_per_cycle_32_32 = (1000000ULL << 32) / tsc_khz;
	tsc_at_init = t1;
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
