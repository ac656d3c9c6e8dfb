/*
 * mm/oom.h - what the OOM killer may kill.
 *
 * This kernel has no processes, so "killing" means asking a registered
 * victim to free everything it holds.  A victim reports its size in pages
 * (its "badness"); the OOM killer picks the largest, as Linux picks the
 * process with the largest RSS, prints Linux-style report lines, calls
 * kill() and unregisters it.  Tests register victims to prove that an
 * order-0 GFP_KERNEL allocation invokes the killer and __GFP_NORETRY does not.
 *
 * kill() runs under PF_MEMALLOC (mm/gfp.h): it may allocate, from the
 * reserves if need be, and that allocation never reclaims nor kills again.
 *
 * One kill at a time: the page allocator takes oom_lock (Linux's oom_lock
 * mutex) with a trylock before it calls out_of_memory(); a CPU that finds
 * it taken waits for the kill in progress and retries its allocation,
 * which the freed memory will usually satisfy.
 */
#ifndef MM_OOM_H
#define MM_OOM_H

#include "mm/cpu.h"
#include "mm/gfp.h"
#include "lib/list.h"

struct oom_victim {
	const char *name;
	unsigned long (*badness)(struct oom_victim *v);	/* pages it would free */
	void (*kill)(struct oom_victim *v);		/* free them all; must not unregister */
	void *private_data;
	/* private to mm/oom_kill.c */
	struct list_head list;
	int state;					/* enum oom_victim_state */
};

extern spinlock_t oom_lock;

void register_oom_victim(struct oom_victim *v);
void unregister_oom_victim(struct oom_victim *v);
bool out_of_memory(gfp_t gfp, unsigned int order);

#endif
