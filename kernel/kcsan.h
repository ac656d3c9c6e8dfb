/*
 * kernel/kcsan.h - the data-race detector's runtime (kernel/kcsan.c).
 *
 * The marking words code uses (data_race(), ASSERT_EXCLUSIVE_WRITER(), ...)
 * are in lib/compiler.h, so that every file has them; this header is for the
 * kernel's start-up and for the self-test (tests/kernel/kcsan_test.c).
 */
#ifndef KERNEL_KCSAN_H
#define KERNEL_KCSAN_H

#include "lib/compiler.h"
#include "kernel/config.h"

#if CONFIG_KCSAN
void kcsan_init(void);
void kcsan_oops_reset(void);
/* How many reports were printed since boot (the self-test waits for one more). */
unsigned long kcsan_reports(void);
/* The sampling interval (kcsan.skip_watch=) and stall (kcsan.udelay_task=), as set. */
extern unsigned long kcsan_skip_watch;
extern unsigned long kcsan_udelay_task;
extern unsigned long kcsan_udelay_interrupt;
#else
static inline void kcsan_init(void) { }
static inline void kcsan_oops_reset(void) { }
static inline unsigned long kcsan_reports(void) { return 0; }
#endif

#endif
