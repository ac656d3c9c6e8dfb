/*
 * kernel/panic.c - panic(), WARN and the end of an oops.
 *
 * There is no process to kill here, so an oops that nobody catches is the
 * end: panic() prints why, tells QEMU to exit with a failure status (the
 * isa-debug-exit port; on a machine without it, the write is ignored) and
 * halts.  That way a crashing test kernel ends its QEMU run at once instead
 * of waiting for the runner's timeout.
 */
#include <stdarg.h>
#include "kernel/panic.h"
#include "kernel/lockdep.h"
#include "kernel/kcsan.h"
#include "kernel/hardirq.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/vsprintf.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/power.h"
#include "arch/x86_64/stacktrace.h"
#include "arch/x86_64/traps.h"

static int oops_count;
static bool oops_in_progress[NR_CPUS];	/* per CPU: two CPUs may oops at once */
static oops_catcher_t oops_catcher;
static unsigned int oops_catcher_cpu;	/* the catcher is for oopses on this CPU only */

/**
 * panic - report a fatal error and stop the machine
 * @fmt: why, printf-style
 *
 * Context: any.  Does not return.
 */
void panic(const char *fmt, ...)
{
	static int panic_cpu = -1;
	int me = (int)smp_processor_id(), first = -1;
	char msg[256];
	va_list args;

	local_irq_disable();
	/* One CPU reports; a second CPU panicking at the same time just stops. */
	if (!__atomic_compare_exchange_n(&panic_cpu, &first, me, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST) && first != me) {
		for (;;)
			halt();
	}
	stop_other_cpus();
	printk_bust_locks();
	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", msg);
	qemu_exit(QEMU_EXIT_PANIC);
	for (;;)
		halt();
}

/**
 * dump_stack - print a backtrace of the caller
 *
 * The trace starts at the return address into the caller, then walks from
 * the caller's own frame.  (Walking from dump_stack()'s frame would print
 * that return address twice: once as is, once minus 1, as the first link.)
 * Context: any.
 */
void dump_stack(void)
{
	unsigned long *frame = __builtin_frame_address(0);

	show_stack(frame[0], (unsigned long)__builtin_return_address(0));
}

/* The report behind WARN(): @ip is the address of the WARN itself. */
void __warn(const char *file, int line, void *ip, const char *fmt, ...)
{
	unsigned long *frame = __builtin_frame_address(0);
	va_list args;

	printk(KERN_WARNING "------------[ cut here ]------------\n");
	printk(KERN_WARNING "WARNING: at %s:%d %pS\n", file, line, ip);
	if (fmt) {
		va_start(args, fmt);
		vprintk(fmt, args);
		va_end(args);
	}
	/* Start the trace at the warning function, not in here. */
	show_stack(frame[0], (unsigned long)ip);
	printk(KERN_WARNING "---[ end trace ]---\n");
}

int oops_begin(void)
{
	if (oops_in_progress[smp_processor_id()]) {
		printk(KERN_EMERG "Recursive fault while printing an oops: halting\n");
		qemu_exit(QEMU_EXIT_PANIC);
		for (;;)
			halt();
	}
	oops_in_progress[smp_processor_id()] = true;
	return ++oops_count;
}

/*
 * What a caught oops leaves behind that cannot be undone: the spinlocks the
 * oopsing code held.  Letting them go would let others into data it left
 * half-changed, so they stay held (as in Linux); whoever takes one next
 * waits, and its lockup report names where it was taken.
 */
static void note_held_locks(void)
{
#if CONFIG_DEBUG_SPINLOCK
	const struct spin_locks_recent *recent = this_cpu_ptr(&spin_locks_recent);
	int held = this_cpu_read(spin_locks_held);
	unsigned int me = smp_processor_id();

	if (held <= 0)
		return;
	printk(KERN_EMERG "note: CPU%u oopsed holding %d spinlock%s: %s held\n", me, held,
	       held == 1 ? "" : "s", held == 1 ? "it stays" : "they stay");
	for (unsigned int i = 0; i < SPIN_LOCKS_RECENT; i++) {
		spinlock_t *lock = recent->lock[i];

		if (lock && READ_ONCE(lock->owner_cpu) == me + 1 && spin_is_locked(lock))
			printk(KERN_EMERG " lock: %px, taken at %pS\n", lock,
			       (void *)READ_ONCE(lock->owner_ip));
	}
#endif
}

void oops_end(void)
{
	oops_catcher_t catcher = oops_catcher;

	printk(KERN_EMERG "---[ end trace ]---\n");
	oops_in_progress[smp_processor_id()] = false;
	/* A catcher resumes code on its own CPU's stack: useless to any other CPU. */
	if (catcher && smp_processor_id() == oops_catcher_cpu) {
		irq_count_reset();	/* the handlers the oops interrupted never return */
		note_held_locks();
		lockdep_forget_held_locks();	/* held for good; nothing here lets them go */
		kcsan_oops_reset();		/* a watch or data_race() it abandoned */
		/*
		 * The exception turned interrupts off; what the catcher resumes
		 * (a test, the prompt) runs with them on, as Linux's
		 * make_task_dead() does for a task that oopsed.
		 */
		local_irq_enable();
		catcher();
	}
	panic("Fatal exception");
}

/**
 * set_oops_catcher - call @fn (which must not return) instead of panicking
 * @fn: the catcher, or NULL for none
 *
 * The catcher applies to oopses on the calling CPU; an oops on another CPU
 * still panics.
 *
 * Return: the catcher it replaces, so a nested user can put it back.
 */
oops_catcher_t set_oops_catcher(oops_catcher_t fn)
{
	oops_catcher_t old = oops_catcher;

	oops_catcher_cpu = smp_processor_id();
	oops_catcher = fn;
	return old;
}
