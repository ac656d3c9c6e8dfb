/*
 * arch/x86_64/timer.c - calibrate the TSC and the APIC timer against the PIT.
 *
 * The 8254 PIT counts a 1.193182 MHz clock, the one frequency on a PC that
 * is known in advance.  time_init() starts its channel 0 counting down in
 * mode 0 and reads the count back (latched, port 0x43) at the start and
 * after about 50 ms, each time between two reads of the TSC and beside a
 * read of the APIC timer's count: the PIT ticks between the two samples
 * give the time, and the TSC and APIC timer counts over it their
 * frequencies.  No interrupt is needed (they are off, and the 8259 that
 * channel 0 drives is masked); channel 0 is free, the tick being the APIC
 * timer's.  Linux uses channel 2, whose output bit 5 of port 0x61 shows,
 * but port 0x61 is the PC speaker's: -machine microvm has none, reads 0xff
 * there, and this kernel once measured a TSC of 1.3 MHz on it.  Every
 * machine with a PIT has channel 0.
 *
 * Under QEMU the PIT goes on counting while the host does not run this
 * vCPU, so a sample is exact only if nothing stopped it between its reads.
 * Each sample therefore keeps its width (the TSC cycles its reads took); a
 * measurement with a wide sample (on a busy host: a vCPU thread put off for
 * milliseconds, the APIC timer once measured 26 % fast) is taken again, as
 * Linux's quick_pit_calibrate() rejects reads that took too long.
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
#include "mm/memmap_screen.h"

#define PIT_HZ			1193182
#define PIT_CH0			0x40
#define PIT_MODE		0x43
#define PIT_START		65000	/* 54.5 ms of count; an absent PIT reads 0xffff */
#define PIT_STOP		5341	/* at or below: 50 ms gone, 4.5 ms left */
#define CALIBRATE_TRIES		20	/* about a second at most, on a very busy host */
#define TSC_KHZ_MIN		50000UL		/* a measured TSC outside 50 MHz ... */
#define TSC_KHZ_MAX		50000000UL	/* ... 50 GHz is a measurement gone wrong */
#define SAMPLE_WIDTH_SHIFT	9	/* a sample may take 1/512 of the time */

unsigned long tsc_khz;
volatile unsigned long jiffies;
static u64 tsc_at_init;
static u64 ns_per_cycle_32_32;		/* nanoseconds per TSC cycle, << 32 */

/* The three clocks at one moment, as near as the reads allow. */
struct clock_sample {
	u64 tsc;	/* the middle of the reads */
	u64 width;	/* TSC cycles between the first read and the last */
	u32 lapic;	/* APIC timer count, counting down */
	u16 pit;	/* PIT channel 0 count, counting down */
};

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

static void sample_clocks(struct clock_sample *s)
{
	u64 before = rdtsc_ordered();

	s->lapic = lapic_timer_current();
	s->pit = pit_count();
	s->width = rdtsc_ordered() - before;
	s->tsc = before + s->width / 2;
}

/*
 * One measurement: @first just after the PIT starts, @last once its count
 * is at or below PIT_STOP, 50 ms on.  False if a sample is too wide to
 * trust, or if the vCPU stopped so long between two reads of the count
 * that it may have run past zero unseen (it then goes on from 0xffff).
 */
static bool pit_measure(struct clock_sample *first, struct clock_sample *last)
{
	u16 prev, now;
	u64 polled, gap, widest_gap = 0, limit;

	pit_start(PIT_START);
	sample_clocks(first);
	prev = first->pit;
	polled = first->tsc;
	for (;;) {
		now = pit_count();
		gap = rdtsc_ordered() - polled;
		polled += gap;
		if (gap > widest_gap)
			widest_gap = gap;
		if (now > prev)
			return false;		/* ran past zero */
		if (now <= PIT_STOP)
			break;
		prev = now;
	}
	sample_clocks(last);
	if (last->pit > now)
		return false;
	gap = last->tsc - polled;
	limit = last->tsc - first->tsc;
	return gap <= limit / 4 && widest_gap <= limit / 4 &&
	       first->width <= limit >> SAMPLE_WIDTH_SHIFT &&
	       last->width <= limit >> SAMPLE_WIDTH_SHIFT;
}

/* A count per second of PIT, from counts over @ticks of it, in kHz. */
static u64 per_pit_khz(u64 count, u32 ticks)
{
	return count * PIT_HZ / ((u64)ticks * 1000);
}

/*
 * A clean measurement that gives a believable TSC: a host that stops the
 * vCPU long enough can still fool the width checks, and a TSC of 297 GHz
 * (seen under a load of 10) makes an APIC timer tick that never comes.
 */
static bool pit_measure_plausible(struct clock_sample *first, struct clock_sample *last)
{
	u64 khz;

	if (!pit_measure(first, last) || first->pit - last->pit < PIT_START - PIT_STOP - 1000)
		return false;
	khz = per_pit_khz(last->tsc - first->tsc, first->pit - last->pit);
	return khz >= TSC_KHZ_MIN && khz <= TSC_KHZ_MAX;
}

/*
 * Measure against the PIT; false if there is none (-machine microvm,pit=off:
 * an absent port reads 0xff) or if no measurement came out clean and
 * believable: time_init() then assumes QEMU's clocks, with a warning.
 */
static bool pit_calibrate(void)
{
	struct clock_sample first, last;
	u32 ticks, us;
	int tries = 0;

	pit_start(PIT_START);
	if (pit_count() > PIT_START) {
		pr_warn("time: no PIT to measure against (port 0x40 reads 0xff)\n");
		return false;
	}
	while (!pit_measure_plausible(&first, &last))
		if (++tries == CALIBRATE_TRIES) {
			pr_warn("time: the PIT could not be read without interruption in %d tries\n",
				CALIBRATE_TRIES);
			return false;
		}
	ticks = first.pit - last.pit;
	tsc_khz = per_pit_khz(last.tsc - first.tsc, ticks);
	lapic_timer_ticks_per_ms = per_pit_khz((u32)(first.lapic - last.lapic), ticks);
	tsc_at_init = last.tsc;
	us = (u64)ticks * 1000000 / PIT_HZ;
	pr_info("time: TSC %lu.%03lu MHz, APIC timer %u.%03u MHz (/16), measured over %u.%u ms of PIT\n",
		tsc_khz / 1000, tsc_khz % 1000, lapic_timer_ticks_per_ms / 1000,
		lapic_timer_ticks_per_ms % 1000, us / 1000, us % 1000 / 100);
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
	lapic_timer_start_oneshot_masked();
	if (!pit_calibrate()) {
		/* QEMU's APIC timer counts a 1 GHz bus; its TSC is near enough */
		tsc_khz = 1000000;
		lapic_timer_ticks_per_ms = 1000000 / 16;
		tsc_at_init = rdtsc_ordered();
		pr_warn("time: assuming a 1 GHz TSC and APIC bus, as QEMU's\n");
	}
	if (!tsc_khz)
		tsc_khz = 1;
	ns_per_cycle_32_32 = (1000000ULL << 32) / tsc_khz;
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

/*
 * A test's hook, called on every CPU's tick after jiffies (NULL: none).
 * The allocator torture (tests/torture/) frees objects from it, to have
 * frees in the timer interrupt as well as in IPIs; set it and clear it
 * with WRITE_ONCE(), and wait a tick after clearing it before its code
 * goes away.
 */
void (*timer_tick_hook)(void);

/**
 * timer_tick - the periodic tick, on every CPU
 *
 * Context: the APIC timer interrupt.  CPU 0 advances jiffies.
 */
void timer_tick(void)
{
	void (*hook)(void) = READ_ONCE(timer_tick_hook);

	if (smp_processor_id() == 0)
		jiffies++;
	if (hook)
		hook();
	memmap_screen_tick();
}
