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
 */
#include "mm/internal.h"
#include "mm/oom.h"
#include "mm/vmstat.h"
#include "kernel/printk.h"

static LIST_HEAD(victims);
static DEFINE_SPINLOCK(oom_lock);

/** register_oom_victim - make @v a candidate for the OOM killer */
void register_oom_victim(struct oom_victim *v)
{
	unsigned long flags;

	spin_lock_irqsave(&oom_lock, flags);
	list_add_tail(&v->list, &victims);
	spin_unlock_irqrestore(&oom_lock, flags);
}

/** unregister_oom_victim - @v may no longer be killed (no-op if already killed) */
void unregister_oom_victim(struct oom_victim *v)
{
	unsigned long flags;

	spin_lock_irqsave(&oom_lock, flags);
	if (v->list.next)
		list_del(&v->list);
	spin_unlock_irqrestore(&oom_lock, flags);
}

static struct oom_victim *select_bad_victim(unsigned long *points)
{
	struct oom_victim *v, *chosen = NULL;

	*points = 0;
	list_for_each_entry(v, &victims, list) {
		unsigned long b = v->badness(v);

		if (b > *points) {
			*points = b;
			chosen = v;
		}
	}
	return chosen;
}

/**
 * out_of_memory - kill the largest registered victim
 * @gfp: the allocation that failed
 * @order: its order
 *
 * Context: called by the page allocator's slow path only.
 * Return: true if a victim was killed (memory should now be free), false
 * if there was nothing to kill.
 */
bool out_of_memory(gfp_t gfp, unsigned int order)
{
	struct oom_victim *victim;
	unsigned long points, flags;
	char mode[128];

	format_gfp(mode, sizeof(mode), gfp);
	pr_warn("kmem invoked oom-killer: gfp_mask=%#x(%s), order=%u\n", gfp, mode, order);
	show_free_areas();
	spin_lock_irqsave(&oom_lock, flags);
	victim = select_bad_victim(&points);
	if (victim)
		list_del(&victim->list);
	spin_unlock_irqrestore(&oom_lock, flags);
	if (!victim) {
		pr_err("Out of memory and no killable victims\n");
		return false;
	}
	pr_err("Out of memory: Killed victim '%s' holding %lu pages (%lukB)\n",
	       victim->name, points, points * (PAGE_SIZE / 1024));
	victim->list.next = NULL;	/* unregister_oom_victim() may still be called */
	victim->kill(victim);
	count_vm_event(OOM_KILL);
	pr_info("oom_reaper: reaped victim '%s', now %lu pages free\n", victim->name,
		nr_free_pages());
	return true;
}
