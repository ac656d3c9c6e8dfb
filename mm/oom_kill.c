/*
 * mm/oom_kill.c - the out-of-memory killer.
 *
 * When reclaim can free nothing more and a small GFP_KERNEL allocation must
 * not fail, Linux kills the process whose death frees the most memory.
 * Here the candidates are registered struct oom_victim (mm/oom.h): the one
 * with the largest badness() is told to kill() itself, which frees its
 * memory, and the allocation is retried.  The report lines follow Linux's
 * ("... invoked oom-killer: gfp_mask=..., order=...", "Out of memory:
 * Killed ...") so that a student recognises them in a real kernel log.
 *
 * Two locks.  oom_lock makes kills one at a time: the page allocator takes
 * it with a trylock around out_of_memory() (see __alloc_pages_may_oom()),
 * so two CPUs that run out of memory together kill one victim, not two.
 * victims_lock protects the list and each victim's state:
 *
 *   registered --out_of_memory() picks it--> killing --kill() returned--> gone
 *        \------------unregister_oom_victim()--------------------------/
 *
 * A killed victim may register again, even from its own kill() (a cache
 * that fills up again): it is then registered, not gone, when the kill ends.
 *
 * A victim being killed on one CPU may be unregistered on another: that
 * waits until kill() and the report that names the victim are over, so the
 * caller may free the victim as soon as unregister_oom_victim() returns.
 */
#include "mm/internal.h"
#include "mm/oom.h"
#include "mm/vmstat.h"
#include "kernel/panic.h"
#include "kernel/printk.h"

enum oom_victim_state {
	OOM_VICTIM_GONE,		/* not registered (never, or no longer) */
	OOM_VICTIM_REGISTERED,		/* on the list, may be picked */
	OOM_VICTIM_KILLING,		/* picked: kill() is running on oom_killer_cpu */
};

DEFINE_SPINLOCK(oom_lock);
static LIST_HEAD(victims);
static DEFINE_SPINLOCK(victims_lock);
static int oom_killer_cpu = -1;		/* the CPU inside a kill() (under oom_lock) */

/**
 * register_oom_victim - make @v a candidate for the OOM killer
 * @v: with name, badness and kill set; not registered already
 *
 * Context: any but interrupts (badness() and kill() run in the allocator).
 */
void register_oom_victim(struct oom_victim *v)
{
	unsigned long flags;

	spin_lock_irqsave(&victims_lock, flags);
	list_add_tail(&v->list, &victims);
	WRITE_ONCE(v->state, OOM_VICTIM_REGISTERED);
	spin_unlock_irqrestore(&victims_lock, flags);
}

/**
 * unregister_oom_victim - @v may no longer be killed
 * @v: a victim registered once; it may have been killed already
 *
 * If another CPU is killing @v right now, wait until its kill() and report
 * are done: afterwards nothing in the OOM killer uses @v.
 * Context: may wait (interrupts on); not from @v's own kill().
 */
void unregister_oom_victim(struct oom_victim *v)
{
	unsigned long flags;
	int state;

	spin_lock_irqsave(&victims_lock, flags);
	state = v->state;
	if (state == OOM_VICTIM_REGISTERED) {
		list_del(&v->list);
		WRITE_ONCE(v->state, OOM_VICTIM_GONE);
	}
	spin_unlock_irqrestore(&victims_lock, flags);
	if (state != OOM_VICTIM_KILLING)
		return;
	if (WARN(READ_ONCE(oom_killer_cpu) == (int)smp_processor_id(),
		 "oom: victim '%s' unregistered from its own kill()\n", v->name))
		return;		/* waiting for ourselves would never end */
	while (__atomic_load_n(&v->state, __ATOMIC_ACQUIRE) == OOM_VICTIM_KILLING)
		cpu_relax();
}

/* The registered victim with the most pages, taken off the list (marked killing). */
static struct oom_victim *select_bad_victim(unsigned long *points)
{
	struct oom_victim *v, *chosen = NULL;
	unsigned long flags;

	*points = 0;
	spin_lock_irqsave(&victims_lock, flags);
	list_for_each_entry(v, &victims, list) {
		unsigned long b = v->badness(v);

		if (b > *points) {
			*points = b;
			chosen = v;
		}
	}
	if (chosen) {
		list_del(&chosen->list);
		WRITE_ONCE(chosen->state, OOM_VICTIM_KILLING);
	}
	spin_unlock_irqrestore(&victims_lock, flags);
	return chosen;
}

/* Is any victim registered? */
static bool victims_left(void)
{
	unsigned long flags;
	bool any;

	spin_lock_irqsave(&victims_lock, flags);
	any = !list_empty(&victims);
	spin_unlock_irqrestore(&victims_lock, flags);
	return any;
}

/**
 * out_of_memory - kill the largest registered victim
 * @gfp: the allocation that failed
 * @order: its order
 *
 * Context: the page allocator's slow path, holding oom_lock (so one kill
 * happens at a time), interrupts on.
 * Return: true if a victim was killed (memory should now be free), or
 * for !__GFP_FS if one could be (retry: see above); false if there was
 * nothing to kill.
 */
bool out_of_memory(gfp_t gfp, unsigned int order)
{
	struct oom_victim *victim;
	unsigned long points;
	unsigned int noreclaim;
	int expected;
	char mode[128];

	/*
	 * The OOM killer does not make up for reclaim that could not enter
	 * the filesystem (Linux 6.12): no kill for !__GFP_FS, yet "progress",
	 * so that a small GFP_NOFS or GFP_NOIO allocation retries ("too small
	 * to fail") while a victim is left that could yet be killed.  With
	 * none, the report below says so and the allocation fails.
	 */
	if (!(gfp & __GFP_FS) && victims_left())
		return true;
	format_gfp(mode, sizeof(mode), gfp);
	pr_warn("kmem invoked oom-killer: gfp_mask=%#x(%s), order=%u\n", gfp, mode, order);
	show_free_areas();
	victim = select_bad_victim(&points);
	if (!victim) {
		pr_err("Out of memory and no killable victims\n");
		return false;
	}
	pr_err("Out of memory: Killed victim '%s' holding %lu pages (%lukB)\n",
	       victim->name, points, points * (PAGE_SIZE / 1024));
	WRITE_ONCE(oom_killer_cpu, (int)smp_processor_id());
	/*
	 * kill() may allocate (to free its memory): under PF_MEMALLOC, from
	 * the reserves, never reclaiming (another CPU may hold the shrinker
	 * lock and be waiting for oom_lock, which we hold) nor killing again.
	 */
	noreclaim = memalloc_noreclaim_save();
	victim->kill(victim);
	memalloc_noreclaim_restore(noreclaim);
	WRITE_ONCE(oom_killer_cpu, -1);
	count_vm_event(OOM_KILL);
	pr_info("oom_reaper: reaped victim '%s', now %lu pages free\n", victim->name,
		nr_free_pages());
	/*
	 * Last use of @victim: an unregister_oom_victim() waiting for us may
	 * now return.  Killing -> gone only: a victim that registered again
	 * meanwhile (from its kill(), or on another CPU) is on the list and
	 * must stay "registered", or unregistering it would leave it there.
	 */
	expected = OOM_VICTIM_KILLING;
	__atomic_compare_exchange_n(&victim->state, &expected, OOM_VICTIM_GONE, false,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	return true;
}
