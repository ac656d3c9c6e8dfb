/*
 * kernel/spinlock.h - ticket spinlocks, with Linux's names.
 *
 * A ticket lock is two counters: take a ticket (atomic fetch-and-add on
 * `next`), then wait until `owner` reaches it.  CPUs get the lock in the
 * order they asked, so none starves.  The _irqsave variants also turn
 * interrupts off, for data an interrupt handler may touch too.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "lib/compiler.h"
#include "arch/x86_64/cpu.h"

typedef struct {
	union {
		u32 val;			/* both, for spin_trylock() */
		struct {
			u16 owner;		/* ticket now being served */
			u16 next;		/* next ticket to hand out */
		};
	};
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED	{ .val = 0 }
#define DEFINE_SPINLOCK(name)	spinlock_t name = __SPIN_LOCK_UNLOCKED

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->val = 0;
}

static inline void spin_lock(spinlock_t *lock)
{
	u16 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}

static inline bool spin_trylock(spinlock_t *lock)
{
	u32 old = READ_ONCE(lock->val);

	if ((old & 0xffff) != (old >> 16))
		return false;		/* someone holds it */
	return __atomic_compare_exchange_n(&lock->val, &old, old + (1u << 16), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1), __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return READ_ONCE(lock->owner) != READ_ONCE(lock->next);
}

#define spin_lock_irqsave(lock, flags)					\
	do {								\
		local_irq_save(flags);					\
		spin_lock(lock);					\
	} while (0)

#define spin_unlock_irqrestore(lock, flags)				\
	do {								\
		spin_unlock(lock);					\
		local_irq_restore(flags);				\
	} while (0)

#endif
