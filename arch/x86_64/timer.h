/*
 * arch/x86_64/timer.h - time: the PIT as the reference, the TSC as the
 * clock, the local APIC timer as the tick.
 *
 * time_init() measures, over the same 50 ms counted by the 8254 PIT (whose
 * input clock is exactly 1.193182 MHz on every PC), how far the TSC and the
 * local APIC timer advance.  From then on ktime_get_ns() is the TSC scaled
 * to nanoseconds, udelay()/mdelay() spin on it, and each CPU's APIC timer
 * interrupts it HZ times a second (the tick; CPU 0's tick counts jiffies).
 */
#ifndef ARCH_X86_64_TIMER_H
#define ARCH_X86_64_TIMER_H

#include "lib/compiler.h"

#define HZ	100

extern unsigned long tsc_khz;		/* 0 until time_init() */
extern volatile unsigned long jiffies;

void time_init(void);
u64 ktime_get_ns(void);
void udelay(unsigned long usecs);
void mdelay(unsigned long msecs);
void timer_tick(void);
extern void (*timer_tick_hook)(void);	/* a test's: see timer.c */

#endif
