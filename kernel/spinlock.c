/*
 * kernel/spinlock.c - the slow and the buggy paths of spinlocks.
 *
 * spin_lock_wait() is where a CPU waits for its ticket.  With
 * CONFIG_DEBUG_SPINLOCK it watches the clock (the TSC) while it waits, and
 * once the lock has not changed hands for spinlock_lockup_ms (a queue that
 * moves is only contention) it prints a lockup report naming
 * the holder - its CPU and the instruction that took the lock, which the
 * holder wrote into the lock - then keeps waiting.  spin_bug_recursion()
 * reports a CPU taking a lock it already holds.
 *
 * The reports go through printk(), which has a spinlock of its own; a
 * per-CPU flag keeps a report from reporting itself.
 */
#include "kernel/spinlock.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "arch/x86_64/timer.h"

/*
 * spinlock_lockup_ms - how long a wait is before it is reported as a lockup.
 * Ten seconds: under QEMU with more vCPUs than host cores a waiter may wait
 * over a second for a holder the host does not run (docs/smp.md), and the
 * report would then cry wolf; a real lockup is still one ten seconds later.
 */
unsigned long spinlock_lockup_ms = 10000;

static DEFINE_PER_CPU(unsigned int, in_spin_bug);
#if CONFIG_DEBUG_SPINLOCK
DEFINE_PER_CPU(int, spin_locks_held);
DEFINE_PER_CPU(struct spin_locks_recent, spin_locks_recent);
#endif

static u64 lockup_cycles(void)
{
	u64 khz = tsc_khz ? tsc_khz : 1000000;	/* before calibration: guess 1 GHz */

	return khz * READ_ONCE(spinlock_lockup_ms);
}

static void report_holder(spinlock_t *lock)
{
#if CONFIG_DEBUG_SPINLOCK
	unsigned int holder = READ_ONCE(lock->owner_cpu);

	if (holder)
		printk(KERN_ERR " lock: %px, .owner_cpu: %u, taken at %pS\n", lock,
		       holder - 1, (void *)READ_ONCE(lock->owner_ip));
	else
		printk(KERN_ERR " lock: %px, .owner_cpu: none (taken before the holder "
		       "recorded itself, or by spin_trylock of an old build)\n", lock);
#else
	printk(KERN_ERR " lock: %px (CONFIG_DEBUG_SPINLOCK is off: holder unknown)\n", lock);
#endif
}

/**
 * spin_bug_recursion - report a CPU taking a spinlock it already holds, and stop
 * @lock: the lock
 * @ip: where the second spin_lock() is
 *
 * Taking the lock again would wait forever; going on without it would run
 * two critical sections at once.  Neither is acceptable, so: the report
 * (this CPU, both places that took the lock, a backtrace), then panic().
 * Context: any; the caller holds @lock.
 */
void spin_bug_recursion(spinlock_t *lock, unsigned long ip)
{
	if (!this_cpu_read(in_spin_bug)) {
		this_cpu_inc(in_spin_bug);
		printk(KERN_ERR "BUG: spinlock recursion on CPU#%u, at %pS\n",
		       smp_processor_id(), (void *)ip);
		report_holder(lock);
		dump_stack();
	}
	panic("spinlock recursion");
}

/**
 * spin_lock_wait - wait until the owner field reaches @ticket
 * @lock: the lock
 * @ticket: the ticket this CPU took
 * @ip: where the spin_lock() is, for the report
 *
 * Context: any.  Reports a lockup once per wait (see the file comment).
 */
void spin_lock_wait(spinlock_t *lock, u16 ticket, unsigned long ip)
{
	u64 start = rdtsc_ordered(), limit = 0;
	u16 seen = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED), owner;
	bool reported = false;
	unsigned int spins = 0;

	while ((owner = __atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE)) != ticket) {
		cpu_relax();
		if (!CONFIG_DEBUG_SPINLOCK || reported || ++spins < 1024)
			continue;
		spins = 0;
		if (!limit)
			limit = lockup_cycles();
		/*
		 * The queue moved: that is contention, not a lockup.  Many CPUs
		 * on few host cores (QEMU) hand the lock on slowly, each in turn.
		 */
		if (owner != seen) {
			seen = owner;
			start = rdtsc_ordered();
			continue;
		}
		if (rdtsc_ordered() - start < limit || this_cpu_read(in_spin_bug))
			continue;
		reported = true;
		this_cpu_inc(in_spin_bug);
		printk(KERN_ERR "BUG: spinlock lockup suspected on CPU#%u, waiting at %pS "
		       "for %lu ms\n", smp_processor_id(), (void *)ip, spinlock_lockup_ms);
		report_holder(lock);
		dump_stack();
		this_cpu_dec(in_spin_bug);
	}
}
