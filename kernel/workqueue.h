/*
 * kernel/workqueue.h - deferred work: run a function later, outside
 * interrupt context, on a chosen CPU.
 *
 * As in Linux:
 *
 *	static void my_fn(struct work_struct *work) { ... }
 *	static struct work_struct w;
 *	INIT_WORK(&w, my_fn);
 *	schedule_work_on(2, &w);	// or schedule_work(&w)
 *	flush_work(&w);			// wait until it has run
 *
 * A work item is queued at most once at a time: scheduling it while it is
 * pending does nothing and returns false.  The item's PENDING bit is
 * cleared just before its function runs, so the function may requeue it.
 * This kernel has no kernel threads: each application processor runs its
 * list from its idle loop, with interrupts on; CPU 0 (busy running kmain)
 * runs its list at the monitor's prompt while it waits for a key
 * (monitor_idle()), while it waits in flush_work(), and when something
 * calls run_deferred_work().  That is what vfree() from an interrupt needs,
 * and an AP that waits for CPU 0 with interrupts off.
 */
#ifndef KERNEL_WORKQUEUE_H
#define KERNEL_WORKQUEUE_H

#include "lib/compiler.h"

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct work_struct *next;	/* on a CPU's list */
	work_func_t func;
	unsigned long pending;		/* bit 0: queued and not yet started */
	int cpu;			/* where it was queued last */
};

#define __WORK_INITIALIZER(f)	{ .next = NULL, .func = (f), .pending = 0, .cpu = -1 }
#define DECLARE_WORK(n, f)	struct work_struct n = __WORK_INITIALIZER(f)
#define INIT_WORK(w, f)		(*(w) = (struct work_struct)__WORK_INITIALIZER(f))

bool schedule_work_on(int cpu, struct work_struct *work);
bool schedule_work(struct work_struct *work);
bool work_pending(const struct work_struct *work);
bool flush_work(struct work_struct *work);
void flush_scheduled_work(void);
bool deferred_work_pending(void);
void run_deferred_work(void);

#endif
