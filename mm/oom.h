/*
 * mm/oom.h - what the OOM killer may kill.
 *
 * This kernel has no processes, so "killing" means asking a registered
 * victim to free everything it holds.  A victim reports its size in pages
 * (its "badness"); the OOM killer picks the largest, as Linux picks the
 * process with the largest RSS, prints Linux-style report lines, calls
 * kill() and unregisters it.  Tests register victims to prove that an
 * order-0 GFP_KERNEL allocation invokes the killer and __GFP_NORETRY does not.
 */
#ifndef MM_OOM_H
#define MM_OOM_H

#include "mm/gfp.h"
#include "lib/list.h"

struct oom_victim {
	const char *name;
	unsigned long (*badness)(struct oom_victim *v);	/* pages it would free */
	void (*kill)(struct oom_victim *v);		/* free them all */
	void *private_data;
	struct list_head list;				/* private to mm/oom_kill.c */
};

void register_oom_victim(struct oom_victim *v);
void unregister_oom_victim(struct oom_victim *v);
bool out_of_memory(gfp_t gfp, unsigned int order);

#endif
