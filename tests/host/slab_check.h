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
#include "mm/internal.h"

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

/* ---------------------------------------------------------------- the model */

/*
 * struct smodel: a reference model for random and fuzzed sequences.  It
 * holds every live object with the size asked for and a tag, fills each
 * with a pattern derived from the tag and checks it on every free,
 * krealloc and sweep (two owners of one object show up here); checks each
 * allocation (size class, alignment, zeroing, node, zone, ctor state); a
 * few caches of its own are created and destroyed as it goes; misuses are
 * made where they cannot corrupt anything, and each must be reported
 * exactly once.  At the end everything is freed and shrunk, and the page
 * allocator's free lists must be exactly as at the start.
 */
#define SMODEL_CACHES	5

enum smodel_alloc {
	SM_KMALLOC, SM_KZALLOC, SM_KMALLOC_NODE, SM_KCALLOC, SM_KMEMDUP, SM_DMA,
	SM_CACHE, SM_CACHE_NODE, SM_NR_ALLOC
};

enum smodel_misuse {
	SM_INTERIOR, SM_WRONG_CACHE, SM_NOT_RAM, SM_PAGE, SM_DOUBLE_FREE, SM_KSIZE_BAD,
	SM_REDZONE, SM_WRITE_AFTER_FREE, SM_NR_MISUSE
};

struct sobj {
	void *p;
	size_t size;			/* as asked */
	int cache;			/* the model's cache it came from, or -1: kmalloc */
	u64 tag;
};

struct smodel {
	struct sobj *live;
	unsigned long nr_live, cap;
	struct kmem_cache *caches[SMODEL_CACHES];	/* NULL: not created (or destroyed) */
	unsigned long cache_live[SMODEL_CACHES];
	u64 next_tag;
	struct buddy_snapshot start;
	/* statistics */
	unsigned long allocs, fails, frees, reallocs, misuses, shrinks, cache_ops, remote;
};

void smodel_init(struct smodel *m);
/* An allocation of kind @kind (enum smodel_alloc, modulo) of about @size bytes. */
void smodel_alloc(struct smodel *m, unsigned int kind, size_t size, unsigned int flags);
/* Free live object @idx (modulo), by kfree, kmem_cache_free or kfree_sensitive (@how). */
void smodel_free(struct smodel *m, unsigned long idx, unsigned int how);
/* krealloc() live kmalloc object @idx to @size bytes. */
void smodel_realloc(struct smodel *m, unsigned long idx, size_t size, unsigned int flags);
/* Create model cache @slot (modulo) if it does not exist, else destroy it (leaks reported). */
void smodel_cache_op(struct smodel *m, unsigned int slot);
/* kmem_cache_shrink() of one cache (@which modulo the caches), or of all. */
void smodel_shrink(struct smodel *m, unsigned int which);
/* validate_slab_cache() of one cache: no error may be found. */
void smodel_validate(struct smodel *m, unsigned int which);
/* A misuse of kind @kind (enum smodel_misuse, modulo) chosen with @arg: reported once. */
void smodel_misuse(struct smodel *m, unsigned int kind, unsigned long arg);
/* Every check: consistency, every live object allocated and intact, counts. */
unsigned long smodel_check(struct smodel *m);
/* Free everything, destroy the model's caches, shrink: the free lists must be as at the start. */
void smodel_finish(struct smodel *m);
