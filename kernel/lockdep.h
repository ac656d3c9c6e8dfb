/*
 * kernel/lockdep.h - the lock validator's interface: lock classes, the
 * acquire/release hooks the spinlocks call, and Linux's assertions.
 *
 * How it works is in the essay at the top of kernel/lockdep.c.  What a
 * lock carries is a struct lockdep_map: the key of its class (a static
 * struct lock_class_key, one per spin_lock_init() site or given by
 * lockdep_set_class()), its name for the reports, and a cache of the class
 * it was found to be in.
 *
 * CONFIG_LOCKDEP follows CONFIG_DEBUG_SPINLOCK (kernel/config.h): the
 * benchmark kernel has neither, and then none of this is compiled in.  In
 * every other kernel it is compiled in but off until the command line
 * says `lockdep` (lockdep_tracking stays false, and each lock and unlock
 * costs one load and one branch more).
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include "lib/compiler.h"
#include "kernel/config.h"

/*
 * The identity of a lock class (Linux's struct lock_class_key): only its
 * address matters, so it must be static (a variable in the image).
 */
struct lock_class_key {
	char __one_byte;
};

#define MAX_LOCKDEP_SUBCLASSES	8	/* spin_lock_nested()'s 0..7, as Linux */
#define SINGLE_DEPTH_NESTING	1	/* Linux's name for subclass 1 */

struct lock_class;

/* What a lock carries for lockdep (Linux's name). */
struct lockdep_map {
	const struct lock_class_key *key;	/* NULL: the lock's address, or its name */
	const char *name;			/* "&zone->lock": the init site's words */
	struct lock_class *class_cache;		/* subclass 0's class, once looked up */
};

/*
 * lockdep_init_map - name @map and put it in @key's class (Linux's name)
 * @key: a static key, or NULL: the class is then the lock's own address
 *	 if the lock is static, else its name (see kernel/lockdep.c)
 */
static inline void lockdep_init_map(struct lockdep_map *map, const char *name,
				    const struct lock_class_key *key)
{
	map->key = key;
	map->name = name;
	map->class_cache = NULL;
}

#if CONFIG_LOCKDEP

extern bool lockdep_tracking;	/* the command line said "lockdep" */
extern int debug_locks;		/* Linux's: 1 until the first report */

void lockdep_init(void);
void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock,
		  unsigned long ip);
void lock_release(struct lockdep_map *map, unsigned long ip);
/* lock_is_held - is @map's lock on this CPU's stack of held locks (Linux's name) */
bool lock_is_held(const struct lockdep_map *map);
void lockdep_hardirqs_on(unsigned long ip);
void debug_check_no_locks_held(const char *when);
void lockdep_forget_held_locks(void);
void lockdep_print_graph(void);
int debug_locks_off(void);

/* A test-only re-arm after an expected report (see kernel/lockdep.c). */
void lockdep_selftest_mark(void);
void lockdep_selftest_rearm(void);

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)	{ .key = (_key), .name = (_name) }

#else

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)	{ }
static inline void lockdep_init(void) { }
static inline void lockdep_print_graph(void) { }
static inline void debug_check_no_locks_held(const char *when) { (void)when; }
static inline void lockdep_forget_held_locks(void) { }

#endif /* CONFIG_LOCKDEP */

#endif
