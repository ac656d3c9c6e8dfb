/*
 * kernel/workqueue.c - per-CPU lists of deferred work.
 *
 * Each CPU has a worker_pool: a FIFO of work items under a spinlock taken
 * with interrupts off (interrupt handlers queue work), and the items it is
 * running now: one, or a few when an item that runs for long runs the list
 * itself (run_deferred_work()).  Queuing onto another CPU sends it a
 * reschedule IPI, whose only effect is to end its hlt so its idle loop
 * looks at the list.
 *
 * schedule_work() (no CPU named) queues on this CPU if it is an application
 * processor, which runs its list when idle; on CPU 0, which runs kmain and
 * idles only at the monitor's prompt (monitor_idle()), it picks an online
 * AP in turn, and only falls back to CPU 0's own list on a one-CPU machine.
 */
#include "kernel/workqueue.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"

#define WORKER_MAX_NESTING	4	/* items running at once on one CPU, one inside the other */

struct worker_pool {
	spinlock_t lock;
	struct work_struct *head, *tail;
	struct work_struct *running[WORKER_MAX_NESTING];	/* outermost first */
	unsigned int depth;
};

/*
 * Each CPU's copy starts as this one, its lock in one lockdep class for
 * all CPUs: the key says so (the copies are not where the template is).
 */
static struct lock_class_key worker_pool_lock_key __unused;	/* unused without lockdep */
static DEFINE_PER_CPU(struct worker_pool, worker_pool) = {
	.lock = __SPIN_LOCK_UNLOCKED_KEY(&pool->lock, &worker_pool_lock_key),
};
static unsigned int next_cpu;

/** work_pending - is @work queued and not yet started? */
bool work_pending(const struct work_struct *work)
{
	return __atomic_load_n(&work->pending, __ATOMIC_ACQUIRE) & 1;
}

/**
 * schedule_work_on - queue @work to run on CPU @cpu
 * @cpu: an online CPU
 * @work: initialised with INIT_WORK()
 *
 * Context: any, interrupts included.
 * Return: true if queued, false if it was already pending (or @cpu is offline).
 */
bool schedule_work_on(int cpu, struct work_struct *work)
{
	struct worker_pool *pool;
	unsigned long flags;

	if (cpu < 0 || cpu >= NR_CPUS || !cpu_online(cpu))
		return false;
	if (__atomic_fetch_or(&work->pending, 1, __ATOMIC_ACQ_REL) & 1)
		return false;
	pool = per_cpu_ptr(&worker_pool, cpu);
	spin_lock_irqsave(&pool->lock, flags);
	work->next = NULL;
	work->cpu = cpu;
	if (pool->tail)
		pool->tail->next = work;
	else
		pool->head = work;
	pool->tail = work;
	spin_unlock_irqrestore(&pool->lock, flags);
	smp_send_reschedule(cpu);
	return true;
}

/**
 * schedule_work - queue @work on a CPU that runs deferred work (see the file comment)
 *
 * Context: any.  Return: as schedule_work_on().
 */
bool schedule_work(struct work_struct *work)
{
	unsigned int this = smp_processor_id(), cpu, tries = NR_CPUS;

	if (this != 0 || num_online_cpus() == 1)
		return schedule_work_on(this, work);
	cpu = __atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED);
	while (tries--) {
		cpu = (cpu + 1) % NR_CPUS;
		if (cpu != 0 && cpu_online(cpu))
			return schedule_work_on(cpu, work);
	}
	return schedule_work_on(0, work);
}

/** deferred_work_pending - has this CPU's list anything? */
bool deferred_work_pending(void)
{
	return READ_ONCE(this_cpu_ptr(&worker_pool)->head) != NULL;
}

/**
 * run_deferred_work - run every item on this CPU's list
 *
 * A work item that runs for long (the torture test's loops run for minutes) calls
 * it now and then, as Linux code calls cond_resched(): otherwise what
 * interrupt handlers queued on this CPU (a vfree() from an IPI) would wait
 * until it ends.
 * Context: process context or a work item, no lock held (interrupts on or
 * off on entry; each item runs with interrupts on), never from an
 * interrupt handler.
 */
void run_deferred_work(void)
{
	struct worker_pool *pool = this_cpu_ptr(&worker_pool);
	bool irqs_were_on = !irqs_disabled();
	unsigned long flags;

	for (;;) {
		struct work_struct *work = NULL;

		spin_lock_irqsave(&pool->lock, flags);
		/* Too deep: the outer items run the rest when they are done. */
		if (pool->head && pool->depth < WORKER_MAX_NESTING) {
			work = pool->head;
			/* Running before it leaves the list: pool_busy() reads without the lock */
			WRITE_ONCE(pool->running[pool->depth], work);
			__atomic_store_n(&pool->depth, pool->depth + 1, __ATOMIC_RELEASE);
			__atomic_store_n(&pool->head, work->next, __ATOMIC_RELEASE);
			if (!pool->head)
				pool->tail = NULL;
			__atomic_and_fetch(&work->pending, ~1UL, __ATOMIC_RELEASE);
		}
		spin_unlock_irqrestore(&pool->lock, flags);
		if (!work)
			return;
		local_irq_enable();
		work->func(work);		/* which may free @work: not touched again */
		__atomic_store_n(&pool->depth, pool->depth - 1, __ATOMIC_RELEASE);
		if (!irqs_were_on)
			local_irq_disable();
	}
}

/*
 * Is @work running on @cpu (any item, if @work is NULL), or, if @or_queued,
 * is anything on its list?  Without the lock (waiters poll it, and taking
 * the lock there made the fault sweep ten times slower): an item is made
 * running before it leaves the list, so a list seen empty comes with the
 * depth that counts it; and it stops running only when it has returned.
 */
static bool pool_busy(unsigned int cpu, const struct work_struct *work, bool or_queued)
{
	struct worker_pool *pool = per_cpu_ptr(&worker_pool, cpu);
	unsigned int depth;

	if (or_queued && __atomic_load_n(&pool->head, __ATOMIC_ACQUIRE))
		return true;
	depth = __atomic_load_n(&pool->depth, __ATOMIC_ACQUIRE);
	for (unsigned int i = 0; i < depth; i++) {
		if (!work || READ_ONCE(pool->running[i]) == work)
			return true;
	}
	return false;
}

/**
 * flush_work - wait until @work is neither pending nor running
 *
 * While it waits it runs this CPU's list: @work may be queued here, and a
 * work item on another CPU may itself wait for something queued here (an
 * AP that needs this CPU's per-CPU pages drained, with interrupts off).
 * Context: process context, no lock held; interrupts on (another CPU's
 * list may need an IPI from us, and ours may need running).
 * Return: true if it had to wait, false if @work was already idle.
 */
bool flush_work(struct work_struct *work)
{
	bool waited = false;
	int cpu;

	for (;;) {
		cpu = READ_ONCE(work->cpu);
		if (!work_pending(work) && (cpu < 0 || !pool_busy(cpu, work, false)))
			return waited;
		waited = true;
		if (deferred_work_pending())
			run_deferred_work();
		cpu_relax();
	}
}

/**
 * flush_scheduled_work - wait until every CPU's list is empty and idle
 *
 * For work that queues work of its own (vfree() from an interrupt hands the
 * area to a CPU that frees it later): after this, everything queued before
 * the call, and what it queued in turn, has run.  Work queued forever
 * (a work item that requeues itself) makes it wait forever.
 * Context: process context, interrupts on; not from a work item.
 */
void flush_scheduled_work(void)
{
	unsigned int cpu;

	for (;;) {
		bool idle = true;

		run_deferred_work();
		for_each_online_cpu(cpu)
			idle &= !pool_busy(cpu, NULL, true);
		if (idle)
			return;
		cpu_relax();
	}
}
