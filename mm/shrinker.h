/*
 * mm/shrinker.h - caches that can give memory back when asked.
 *
 * A subsystem holding memory it could free (a cache) registers a shrinker,
 * in Linux's shape: count_objects() says how much could be freed,
 * scan_objects() frees up to sc->nr_to_scan objects and returns how many it
 * freed (or SHRINK_STOP).  When an allocation that may reclaim finds
 * memory short, the page allocator calls the shrinkers before retrying
 * and, for small orders, before calling the OOM killer (mm/vmscan.c).
 */
#ifndef MM_SHRINKER_H
#define MM_SHRINKER_H

#include "mm/gfp.h"
#include "lib/compiler.h"
#include "lib/list.h"

#define SHRINK_STOP	(~0UL)
#define SHRINK_EMPTY	(~0UL - 1)
#define DEFAULT_SEEKS	2

struct shrink_control {
	gfp_t gfp_mask;
	int nid;
	unsigned long nr_to_scan;	/* how many objects to try to free */
	unsigned long nr_scanned;	/* how many were looked at (set by scan_objects) */
};

struct shrinker {
	unsigned long (*count_objects)(struct shrinker *s, struct shrink_control *sc);
	unsigned long (*scan_objects)(struct shrinker *s, struct shrink_control *sc);
	long batch;			/* objects per scan_objects call; 0 = 128 */
	int seeks;			/* cost to recreate an object (unused here) */
	void *private_data;
	/* private to mm/vmscan.c */
	char name[32];			/* register_shrinker()'s, for reports */
	struct list_head list;
};

int register_shrinker(struct shrinker *shrinker, const char *fmt, ...) __printf(2, 3);
void unregister_shrinker(struct shrinker *shrinker);

unsigned long shrink_all_caches(gfp_t gfp, int nid, int priority);

#endif
