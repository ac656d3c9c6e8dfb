/*
 * kernel/spinlock.h - ticket spinlocks, with Linux's names and a debug mode.
 *
 * A ticket lock is two counters: take a ticket (atomic fetch-and-add on
 * `next`), then wait until `owner` reaches it.  CPUs get the lock in the
 * order they asked, so none starves.  The _irqsave variants also turn
 * interrupts off, for data an interrupt handler may touch too.
 *
 * With CONFIG_DEBUG_SPINLOCK (on by default) the lock also remembers who
 * holds it: the CPU and the instruction that took it.  That catches two
 * classic bugs, each reported in one "BUG:" line with a backtrace:
 *   - recursion: a CPU asks for a lock it already holds.  Without the check
 *     it would wait for itself forever; going on without the lock would let
 *     two critical sections race unseen.  So the report is printed and the
 *     kernel panics: the bug is named where it happened;
 *   - lockup: a CPU has waited longer than spinlock_lockup_ms (10 s) for a
 *     lock; the report names the holder's CPU and where it took the lock,
 *     and the waiter goes on waiting, as in Linux.
 * The code for both is out of line in kernel/spinlock.c; the fast path
 * costs a few compares and stores.  The mode also counts the locks each CPU
 * holds, so that a caught oops can say which it leaves held (oops_end()).
 *
 * With CONFIG_LOCKDEP (which follows CONFIG_DEBUG_SPINLOCK) each lock also
 * carries a struct lockdep_map, and, when the command line says "lockdep",
 * every lock and unlock tells the lock validator (kernel/lockdep.c), which
 * reports an order or an interrupt state that could deadlock even if it
 * never did.  A lock's class is where it was initialised: the site of its
 * spin_lock_init() or DEFINE_SPINLOCK(), or the key lockdep_set_class()
 * gives it; spin_lock_nested() takes a second lock of a class held already
 * in a fixed order that lockdep must be told about (Linux's names).
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "lib/compiler.h"
#include "arch/x86_64/cpu.h"
#include "kernel/smp.h"
#include "kernel/panic.h"
#include "kernel/config.h"
#include "kernel/lockdep.h"

typedef struct {
	union {
		u32 val;			/* both, for spin_trylock() */
		struct {
			u16 owner;		/* ticket now being served */
			u16 next;		/* next ticket to hand out */
		};
	};
#if CONFIG_DEBUG_SPINLOCK
	u32 owner_cpu;				/* holder's CPU + 1; 0 when free */
	unsigned long owner_ip;			/* where the holder took it */
#endif
#if CONFIG_LOCKDEP
	struct lockdep_map dep_map;		/* its class, for lockdep */
#endif
} spinlock_t;

#if CONFIG_LOCKDEP
#define __SPIN_LOCK_UNLOCKED(lockname)					\
	{ .val = 0, .dep_map = STATIC_LOCKDEP_MAP_INIT(#lockname, NULL) }
/* An unlocked lock in @key's class: for a lock that has no init site. */
#define __SPIN_LOCK_UNLOCKED_KEY(lockname, key)				\
	{ .val = 0, .dep_map = STATIC_LOCKDEP_MAP_INIT(#lockname, key) }
#else
#define __SPIN_LOCK_UNLOCKED(lockname)	{ .val = 0 }
#define __SPIN_LOCK_UNLOCKED_KEY(lockname, key)	{ .val = 0 }
#endif
/* A static lock: its class is the lock itself (kernel/lockdep.c). */
#define DEFINE_SPINLOCK(name)	spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

#if CONFIG_DEBUG_SPINLOCK
/*
 * Spinlocks taken on this CPU and not yet let go, and the last few taken
 * (a lock taken again right after itself, as printk's, fills one slot):
 * what an oops leaves held, which oops_end() names.  A diagnostic: a lock
 * let go on another CPU than the one that took it is counted off there
 * with an atomic, which a racing inc of that CPU's own may miss.
 */
#define SPIN_LOCKS_RECENT	4
struct spin_locks_recent {
	unsigned int pos;
	spinlock_t *lock[SPIN_LOCKS_RECENT];
};
DECLARE_PER_CPU(int, spin_locks_held);
DECLARE_PER_CPU(struct spin_locks_recent, spin_locks_recent);
#endif

/* Out of line, in kernel/spinlock.c */
extern unsigned long spinlock_lockup_ms;
void spin_lock_wait(spinlock_t *lock, u16 ticket, unsigned long ip);
__noreturn void spin_bug_recursion(spinlock_t *lock, unsigned long ip);

static inline void __spin_lock_init(spinlock_t *lock, const char *name,
				    const struct lock_class_key *key)
{
	*lock = (spinlock_t){ .val = 0 };
#if CONFIG_LOCKDEP
	lockdep_init_map(&lock->dep_map, name, key);
#else
	(void)name;
	(void)key;
#endif
}

/*
 * spin_lock_init - an unlocked lock; each call site is a lock class of its
 * own (a static key per site, as Linux's macro), named by its argument.
 */
#if CONFIG_LOCKDEP
#define spin_lock_init(lock)						\
	do {								\
		static struct lock_class_key __key;			\
									\
		__spin_lock_init((lock), #lock, &__key);		\
	} while (0)
/* Put @lock in @key's class instead of its init site's (Linux's name). */
#define lockdep_set_class(lock, key)					\
	lockdep_init_map(&(lock)->dep_map, #key, (key))
#else
#define spin_lock_init(lock)		__spin_lock_init((lock), NULL, NULL)
#define lockdep_set_class(lock, key)	do { (void)(lock); (void)(key); } while (0)
#endif

static inline bool spin_is_locked(spinlock_t *lock)
{
	u32 v = READ_ONCE(lock->val);

	return (v & 0xffff) != (v >> 16);
}

/*
 * lockdep_is_held - does this CPU hold @lock?  (Linux's name, from lockdep.)
 * With lockdep on: is it on this CPU's stack of held locks.  Otherwise
 * exact with CONFIG_DEBUG_SPINLOCK, where the lock records its holder;
 * without it, only "is it held at all".
 */
static inline bool lockdep_is_held(spinlock_t *lock)
{
#if CONFIG_LOCKDEP
	if (lockdep_tracking && READ_ONCE(debug_locks))
		return lock_is_held(&lock->dep_map);
#endif
#if CONFIG_DEBUG_SPINLOCK
	return spin_is_locked(lock) && READ_ONCE(lock->owner_cpu) == smp_processor_id() + 1;
#else
	return spin_is_locked(lock);
#endif
}

/*
 * Linux's assertions: a WARNING if this CPU does not hold @lock (or nobody
 * does).  lockdep_assert_held() warns every time, as Linux 6.12's
 * lockdep_assert() (WARN_ON while debug_locks); assert_spin_locked() is
 * Linux's BUG_ON made a WARNING once per site, so the kernel runs on.
 */
#define lockdep_assert_held(lock)	WARN_ON(!lockdep_is_held(lock))
#define assert_spin_locked(lock)	WARN_ON_ONCE(!spin_is_locked(lock))

static inline void spin_debug_acquired(spinlock_t *lock, unsigned long ip)
{
#if CONFIG_DEBUG_SPINLOCK
	struct spin_locks_recent *recent = this_cpu_ptr(&spin_locks_recent);

	lock->owner_cpu = smp_processor_id() + 1;
	lock->owner_ip = ip;
	this_cpu_inc(spin_locks_held);
	if (recent->lock[recent->pos % SPIN_LOCKS_RECENT] != lock)
		recent->lock[++recent->pos % SPIN_LOCKS_RECENT] = lock;
#else
	(void)lock;
	(void)ip;
#endif
}

static inline void __spin_lock(spinlock_t *lock, unsigned int subclass, unsigned long ip)
{
	u16 ticket;

#if CONFIG_DEBUG_SPINLOCK
	if (unlikely(READ_ONCE(lock->owner_cpu) == smp_processor_id() + 1) &&
	    spin_is_locked(lock))
		spin_bug_recursion(lock, ip);
#endif
#if CONFIG_LOCKDEP
	/* before waiting, as Linux: a deadlock is reported, not entered */
	if (unlikely(lockdep_tracking))
		lock_acquire(&lock->dep_map, subclass, false, ip);
#else
	(void)subclass;
#endif
	ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	if (unlikely(__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket))
		spin_lock_wait(lock, ticket, ip);
	spin_debug_acquired(lock, ip);
}

static inline bool __spin_trylock(spinlock_t *lock, unsigned long ip)
{
	u32 old = READ_ONCE(lock->val);

	if ((old & 0xffff) != (old >> 16))
		return false;		/* someone holds it */
	if (!__atomic_compare_exchange_n(&lock->val, &old, old + (1u << 16), false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	spin_debug_acquired(lock, ip);
#if CONFIG_LOCKDEP
	if (unlikely(lockdep_tracking))
		lock_acquire(&lock->dep_map, 0, true, ip);
#endif
	return true;
}

static inline void spin_unlock(spinlock_t *lock)
{
#if CONFIG_LOCKDEP
	if (unlikely(lockdep_tracking))
		lock_release(&lock->dep_map, _THIS_IP_);
#endif
#if CONFIG_DEBUG_SPINLOCK
	unsigned int holder = lock->owner_cpu;

	if (likely(holder == smp_processor_id() + 1))
		this_cpu_dec(spin_locks_held);
	else if (holder)
		__atomic_fetch_sub(&per_cpu(spin_locks_held, holder - 1), 1, __ATOMIC_RELAXED);
	lock->owner_cpu = 0;
	lock->owner_ip = 0;
#endif
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1), __ATOMIC_RELEASE);
}

#define spin_lock(lock)		__spin_lock(lock, 0, _THIS_IP_)
/*
 * spin_lock_nested - take a second lock of a class this CPU holds already,
 * as subclass @subclass (1..7) of it: for locks of one class always taken
 * in a fixed order (Linux's name).  Without lockdep, spin_lock().
 */
#define spin_lock_nested(lock, subclass)	__spin_lock(lock, subclass, _THIS_IP_)
#define spin_trylock(lock)	__spin_trylock(lock, _THIS_IP_)

#define spin_lock_irqsave(lock, flags)					\
	do {								\
		local_irq_save(flags);					\
		__spin_lock(lock, 0, _THIS_IP_);				\
	} while (0)

#define spin_unlock_irqrestore(lock, flags)				\
	do {								\
		spin_unlock(lock);					\
		local_irq_restore(flags);				\
	} while (0)

#define spin_lock_irq(lock)						\
	do {								\
		local_irq_disable();					\
		__spin_lock(lock, 0, _THIS_IP_);				\
	} while (0)

#define spin_unlock_irq(lock)						\
	do {								\
		spin_unlock(lock);					\
		local_irq_enable();					\
	} while (0)

#endif
