/*
 * mm/shrinker.c - a shrinker the kernel allocates for its owner, Linux
 * 6.7's way of registering one: shrinker_alloc() names a zeroed shrinker,
 * the owner sets count_objects and scan_objects (and private_data), then
 * shrinker_register() (mm/vmscan.c) puts it on reclaim's list;
 * shrinker_free() takes it off and frees it.  The older forms, where the
 * owner embeds the shrinker, are in mm/vmscan.c.  This file is apart from
 * that one because it needs the slab, which the reclaim path does not.
 */
#include "mm/shrinker.h"
#include "mm/slab.h"

/**
 * shrinker_alloc - a zeroed shrinker named by @fmt, for the caller to fill
 * in and shrinker_register() (Linux 6.7's form)
 * @flags: SHRINKER_NUMA_AWARE, SHRINKER_MEMCG_AWARE: accepted, not needed here
 *
 * Context: may sleep.
 * Return: the shrinker, or NULL if there is no memory for it.
 */
struct shrinker *shrinker_alloc(unsigned int flags, const char *fmt, ...)
{
	struct shrinker *shrinker = kzalloc(sizeof(*shrinker), GFP_KERNEL);
	va_list args;

	(void)flags;
	if (!shrinker)
		return NULL;
	shrinker->seeks = DEFAULT_SEEKS;
	va_start(args, fmt);
	name_shrinker(shrinker, fmt, args);
	va_end(args);
	return shrinker;
}

/** shrinker_free - unregister @shrinker if it is, and free what shrinker_alloc() gave (NULL: nothing) */
void shrinker_free(struct shrinker *shrinker)
{
	if (!shrinker)
		return;
	if (shrinker->registered)
		unregister_shrinker(shrinker);
	kfree(shrinker);
}
