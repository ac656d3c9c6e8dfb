/*
 * tests/host/slab_check.h - checking the slab allocator from outside.
 *
 *   slab_machine_init()        boots a fresh fake machine (mm_host.h) and
 *       starts the slab on it, with the CPUs spread over the nodes and
 *       slab_debug= as given; the previous machine's caches give their
 *       per-CPU memory back first.
 *   slab_check_consistency()   walks every cache: each node's partial and
 *       full slab lists (links, PG_slab, cache, node, compound pages), every
 *       slab's freelist (each entry an object of the slab, none twice, as
 *       many as objects - inuse), the node counters, every CPU's sheaves
 *       and every barn (sizes, capacities, counts, each object a slab
 *       object of this cache, each sheaf a live object of the sheaf cache);
 *       no object free in two places; every PG_slab page of the memory map
 *       on a list of its cache; no lock held, interrupts on.
 *   slab_check_live()          after a consistency check: none of the
 *       objects the caller holds is free anywhere, and each is in a slab
 *       (or a large kmalloc block) that counts it as in use.
 *
 * Failures are reported with check_fail() and counted in
 * buddy_check_failures (tests/host/buddy_check.h), as the buddy checker's.
 */
#ifndef TESTS_HOST_SLAB_CHECK_H
#define TESTS_HOST_SLAB_CHECK_H

#include "buddy_check.h"
#include "mm/slab_internal.h"

/*
 * slab_machine_init - boot a fresh machine and start the slab on it
 * @slab_debug: as the kernel's slab_debug= ("-": off, "": everything on
 *	every cache, "PZ,kmalloc-64": those letters on those caches)
 *
 * CPU c is on node c * nr_nodes / nr_cpus.  Every machine of a program that
 * uses the slab must be booted here (the previous one's caches are read).
 */
void slab_machine_init(const struct host_range *ram, int nr_ram,
		       const struct host_range *reserved, int nr_reserved,
		       unsigned int nr_cpus, const char *slab_debug);

/* Two nodes (32 MiB and 16 MiB), four CPUs: 0 and 1 on node 0, 2 and 3 on node 1. */
void slab_machine_default(const char *slab_debug);

/* The problems found (0: consistent). */
unsigned long slab_check_consistency(void);

/* Are the @nr objects at @live all allocated?  (Uses the last consistency check.) */
unsigned long slab_check_live(void *const *live, unsigned long nr);

/* Objects of @s handed out: in use in its slabs, less those in its sheaves and barns. */
unsigned long slab_cache_allocated(struct kmem_cache *s);

/* The cache named @name, or NULL */
struct kmem_cache *slab_find_cache(const char *name);

/* Every cache's sheaves and barns emptied, then every cache shrunk (the sheaf cache last). */
void slab_shrink_all(void);

/* Where a free object keeps its (encoded) next pointer */
static inline unsigned long *slab_freeptr_addr(struct kmem_cache *s, void *obj)
{
	return (unsigned long *)((char *)obj + s->offset);
}

#endif
