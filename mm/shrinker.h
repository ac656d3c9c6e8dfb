/*
 * mm/shrinker.h - caches that can give memory back when asked.
 *
 * A subsystem holding memory it could free (a cache) registers a shrinker,
 * in Linux's shape: count_objects() says how much could be freed,
 * scan_objects() frees up to sc->nr_to_scan objects and returns how many it
 * freed (or SHRINK_STOP).  When an allocation that may reclaim finds
 * memory short, the page allocator calls the shrinkers before retrying
 * and, for small orders, before calling the OOM killer (mm/vmscan.c).
 *
 * Linux has declared the registration three ways, and code written for any
 * of them builds here: register_shrinker(s) before 6.0,
 * register_shrinker(s, fmt, ...) from 6.0 to 6.6, and since 6.7
 * shrinker_alloc(flags, fmt, ...), shrinker_register(s), shrinker_free(s),
 * where the shrinker is allocated for the caller.
 */
#ifndef MM_SHRINKER_H
#define MM_SHRINKER_H

#include "mm/gfp.h"
#include "lib/compiler.h"
#include "lib/list.h"
#include <stdarg.h>

#define SHRINK_STOP	(~0UL)
#define SHRINK_EMPTY	(~0UL - 1)
#define DEFAULT_SEEKS	2
#define SHRINK_BATCH	128	/* objects per scan_objects() call unless the shrinker says */
#define SWAP_CLUSTER_MAX 32UL	/* pages one direct reclaim round aims at (Linux's) */
#define DEF_PRIORITY	12	/* a reclaim round's first priority: 1/4096 of each cache */

/* shrinker_alloc()'s flags: accepted, and meaningless here (no memory cgroups; sc->nid is always set) */
#define SHRINKER_NUMA_AWARE	(1U << 2)
#define SHRINKER_MEMCG_AWARE	(1U << 3)

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
	int seeks;			/* cost to recreate an object: 0 or DEFAULT_SEEKS */
	void *private_data;
	/* private to mm/vmscan.c */
	char name[32];			/* register_shrinker()'s, for reports */
	unsigned long nr_deferred;	/* scan work earlier passes left undone */
	struct list_head list;
	bool registered;		/* for shrinker_free() */
};

/* mm/ only: the name of a shrinker from a printf format */
void name_shrinker(struct shrinker *shrinker, const char *fmt, va_list args);
int register_shrinker_fmt(struct shrinker *shrinker, const char *fmt, ...) __printf(2, 3);
int register_shrinker_unnamed(struct shrinker *shrinker);
void unregister_shrinker(struct shrinker *shrinker);

/*
 * register_shrinker(shrinker[, fmt, ...]) - either form: with a name's
 * format (6.0-6.6) or without (before 6.0; then the name is scan_objects'
 * function).  The macro picks by the number of arguments (up to 9).
 */
#define __shrinker_pick(_1, _2, _3, _4, _5, _6, _7, _8, _9, fn, ...) fn
#define register_shrinker(...)						\
	__shrinker_pick(__VA_ARGS__, register_shrinker_fmt, register_shrinker_fmt, \
			register_shrinker_fmt, register_shrinker_fmt,	\
			register_shrinker_fmt, register_shrinker_fmt,	\
			register_shrinker_fmt, register_shrinker_fmt,	\
			register_shrinker_unnamed, 0)(__VA_ARGS__)

struct shrinker *shrinker_alloc(unsigned int flags, const char *fmt, ...) __printf(2, 3);
void shrinker_register(struct shrinker *shrinker);
void shrinker_free(struct shrinker *shrinker);

unsigned long shrink_slab(gfp_t gfp, int nid, int priority);
unsigned long try_to_free_pages(gfp_t gfp, int nid);
void drop_slab(void);
void shrinker_for_each_count(void (*fn)(struct shrinker *s, unsigned long count, void *arg),
			     void *arg);

#endif
